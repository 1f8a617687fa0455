//! The paths given, expanded into a sorted list of files, and which file
//! names inside directories and archives are read.

use crate::ingest::codec::Codec;
use crate::ingest::Entry;
use std::fs;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// An archive format, by name: members are read one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Archive {
    Tar,
    Zip,
    SevenZ,
}

/// The compression a name ends with, and the name without it: `a.sgf.xz`
/// is `a.sgf` in xz; `a.tgz`, `a.tbz2`, `a.txz`, `a.tzst` are `a.tar`.
pub(crate) fn codec_of(name: &str) -> Option<(Codec, String)> {
    const SUFFIXES: [(&str, Codec, &str); 10] = [
        (".gz", Codec::Gzip, ""),
        (".tgz", Codec::Gzip, ".tar"),
        (".bz2", Codec::Bzip2, ""),
        (".tbz2", Codec::Bzip2, ".tar"),
        (".tbz", Codec::Bzip2, ".tar"),
        (".xz", Codec::Xz, ""),
        (".txz", Codec::Xz, ".tar"),
        (".zst", Codec::Zstd, ""),
        (".zstd", Codec::Zstd, ""),
        (".tzst", Codec::Zstd, ".tar"),
    ];
    let lower = name.to_ascii_lowercase();
    SUFFIXES.iter().find_map(|&(suffix, codec, inner)| {
        lower.ends_with(suffix).then(|| {
            (
                codec,
                format!("{}{inner}", &name[..name.len() - suffix.len()]),
            )
        })
    })
}

/// Whether a file of this name and first bytes is compressed or an
/// archive: its games are read through the run's reader, not as text.
pub fn is_packed(name: &str, head: &[u8]) -> bool {
    codec_of(name).is_some()
        || archive_of(&uncompressed(name)).is_some()
        || Codec::of_magic(head).is_some()
        || archive_of_magic(head).is_some()
}

/// The first bytes of a 7z archive.
pub(crate) const SEVENZ_MAGIC: &[u8] = &[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c];

/// The archive format the first bytes of a stream are the magic number of.
pub(crate) fn archive_of_magic(head: &[u8]) -> Option<Archive> {
    if head.starts_with(b"PK\x03\x04") {
        Some(Archive::Zip)
    } else if head.starts_with(SEVENZ_MAGIC) {
        Some(Archive::SevenZ)
    } else if head.get(257..262) == Some(&b"ustar"[..]) {
        Some(Archive::Tar)
    } else {
        None
    }
}

/// The archive format a name (without its compression) says.
pub(crate) fn archive_of(name: &str) -> Option<Archive> {
    let n = name.to_ascii_lowercase();
    if n.ends_with(".tar") {
        Some(Archive::Tar)
    } else if n.ends_with(".zip") {
        Some(Archive::Zip)
    } else if n.ends_with(".7z") {
        Some(Archive::SevenZ)
    } else {
        None
    }
}

/// A name without every compression suffix it ends with.
pub(crate) fn uncompressed(name: &str) -> String {
    let mut name = name.to_string();
    while let Some((_, inner)) = codec_of(&name) {
        name = inner;
    }
    name
}

/// Whether a file found inside a directory or archive is a game file,
/// compressed or not.
pub(crate) fn is_game_name(name: &str) -> bool {
    let n = uncompressed(name).to_ascii_lowercase();
    [
        ".sgf", ".mgt", ".mat", ".txt", ".xg", ".xgp", ".fibs", ".sgg", ".tmg", ".bgf", ".gib",
        ".ngf", ".ugf", ".ugi", ".json",
    ]
    .iter()
    .any(|e| n.ends_with(e))
}

/// `.txt` files are read only when they hold a backgammon match (Backgammon
/// Galaxy and Studio export `.mat` text under that name), `.json` files
/// only when they hold an OGS game.
pub(crate) fn is_text_name(name: &str) -> bool {
    let n = uncompressed(name).to_ascii_lowercase();
    n.ends_with(".txt") || n.ends_with(".json")
}

/// Whether a file found inside a directory or archive is read: a game
/// file or an archive, compressed or not.
pub(crate) fn is_wanted(name: &str) -> bool {
    is_game_name(name) || archive_of(&uncompressed(name)).is_some()
}

/// Expands paths (files, directories, `-` for a list on stdin) into a sorted
/// list without duplicates, so output does not depend on argument order or
/// directory order. A directory's files of other names are listed too,
/// marked [`Entry::skip`]; a path named and also found in a directory is
/// kept as named.
///
/// # Errors
/// A path named on the command line that does not exist or cannot be
/// examined: the run cannot do what was asked.
pub fn expand(paths: &[PathBuf], stdin: &mut dyn BufRead) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for p in paths.iter().map(|p| normalise(p)) {
        let p = &p;
        if p.as_os_str() == "-" {
            for line in stdin.split(b'\n') {
                let line = line.map_err(|e| format!("cannot read the path list on stdin: {e}"))?;
                let line = line.strip_suffix(b"\r").unwrap_or(&line);
                // A line of blanks names no file (a path keeps its spaces).
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let path = normalise(&path_of_bytes(line));
                match fs::metadata(&path) {
                    Ok(_) => walk(&path, true, &mut out, &mut Vec::new()),
                    Err(e) => out.push(Entry {
                        path,
                        problem: Some(format!("listed on stdin but cannot be read: {e}")),
                        named: true,
                        data: None,
                        skip: false,
                    }),
                }
            }
            continue;
        }
        if let Err(e) = fs::metadata(p) {
            return Err(format!("cannot read '{}': {e}", p.display()));
        }
        walk(p, true, &mut out, &mut Vec::new());
    }
    out.sort_by(|a, b| a.path.cmp(&b.path).then(b.named.cmp(&a.named)));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

/// A path listed on stdin, from its bytes: on Unix any bytes (a file's
/// name need not be UTF-8, as `find` lists old archives' Latin-1 names),
/// elsewhere UTF-8.
#[cfg(unix)]
fn path_of_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_of_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// A path as `source` writes it, the same however it was given: `./a.sgf`,
/// `a.sgf` and `.//a.sgf` are `a.sgf`; `dir/./x` is `dir/x` (no link is
/// followed, no `..` resolved, a relative path stays relative).
fn normalise(path: &Path) -> PathBuf {
    let kept: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if kept.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        kept
    }
}

fn walk(path: &Path, named: bool, out: &mut Vec<Entry>, seen_dirs: &mut Vec<PathBuf>) {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            out.push(Entry {
                path: path.to_path_buf(),
                problem: Some(format!("cannot read: {e}")),
                named,
                data: None,
                skip: false,
            });
            return;
        }
    };
    if !meta.is_dir() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        out.push(Entry {
            path: path.to_path_buf(),
            problem: None,
            named,
            data: None,
            skip: !named && !is_wanted(&name),
        });
        return;
    }
    // Guard against symlink loops.
    let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if seen_dirs.contains(&canonical) {
        return;
    }
    seen_dirs.push(canonical);
    match fs::read_dir(path) {
        Ok(rd) => {
            let mut children = Vec::new();
            for e in rd {
                match e {
                    Ok(e) => children.push(normalise(&e.path())),
                    // An entry the listing could not read is not lost
                    // silently.
                    Err(e) => out.push(Entry {
                        path: path.to_path_buf(),
                        problem: Some(format!("cannot list an entry of the directory: {e}")),
                        named,
                        data: None,
                        skip: false,
                    }),
                }
            }
            children.sort();
            for c in children {
                walk(&c, false, out, seen_dirs);
            }
        }
        Err(e) => out.push(Entry {
            path: path.to_path_buf(),
            problem: Some(format!("cannot list directory: {e}")),
            named,
            data: None,
            skip: false,
        }),
    }
    seen_dirs.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_compressed_files_and_archives() {
        assert_eq!(codec_of("a.TGZ"), Some((Codec::Gzip, "a.tar".into())));
        assert_eq!(codec_of("a.sgf.xz"), Some((Codec::Xz, "a.sgf".into())));
        assert_eq!(codec_of("a.tar.zst"), Some((Codec::Zstd, "a.tar".into())));
        assert_eq!(codec_of("a.tbz2"), Some((Codec::Bzip2, "a.tar".into())));
        assert_eq!(codec_of("a.sgf"), None);
        assert_eq!(archive_of("x/A.7Z"), Some(Archive::SevenZ));
        assert!(is_game_name("x/Y.SGF") && is_game_name("y.sgf.bz2") && !is_game_name("README"));
        assert!(is_wanted("games.tar.xz") && is_wanted("in.zip") && !is_wanted("photo.jpg.gz"));
        assert!(is_text_name("m.txt.gz") && is_text_name("g.JSON"));
        assert!(is_game_name("a.gib") && is_game_name("a.ugi.gz") && is_game_name("x/b.ngf"));
    }

    #[test]
    fn paths_are_named_one_way() {
        for given in ["./a.sgf", "a.sgf", ".//a.sgf", "./././a.sgf"] {
            assert_eq!(normalise(Path::new(given)), Path::new("a.sgf"), "{given}");
        }
        assert_eq!(normalise(Path::new("d/./x/")), Path::new("d/x"));
        assert_eq!(normalise(Path::new("/d/../x")), Path::new("/d/../x"));
        assert_eq!(normalise(Path::new("./")), Path::new("."));
    }

    #[test]
    fn a_directory_lists_its_other_files_as_skipped_and_a_named_one_as_read() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.sgf", "README", "notes.pdf"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        let readme = dir.path().join("README");
        let listed = |paths: &[PathBuf]| -> Vec<(String, bool, bool)> {
            expand(paths, &mut &b""[..])
                .unwrap()
                .iter()
                .map(|e| {
                    let name = e.path.file_name().unwrap().to_string_lossy().into_owned();
                    (name, e.named, e.skip)
                })
                .collect()
        };
        let dir = dir.path().to_path_buf();
        assert_eq!(
            listed(std::slice::from_ref(&dir)),
            [
                ("README".into(), false, true),
                ("a.sgf".into(), false, false),
                ("notes.pdf".into(), false, true)
            ]
        );
        // Listed on stdin: blank lines left out, a name that is not UTF-8
        // found, a missing file kept with its problem.
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let latin1 = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9.sgf"));
            fs::write(&latin1, "x").unwrap();
            let mut list = latin1.as_os_str().as_bytes().to_vec();
            list.extend(b"\r\n  \n");
            list.extend(dir.join("gone.sgf").as_os_str().as_bytes());
            list.push(b'\n');
            let entries = expand(&[PathBuf::from("-")], &mut &list[..]).unwrap();
            assert_eq!(entries.len(), 2, "{entries:?}");
            assert!(entries[0].path == latin1 && entries[0].problem.is_none());
            assert!(entries[1]
                .problem
                .as_ref()
                .unwrap()
                .contains("listed on stdin"));
            fs::remove_file(latin1).unwrap();
        }
        // Named as well, in either order: read, not skipped.
        for paths in [[dir.clone(), readme.clone()], [readme.clone(), dir.clone()]] {
            assert_eq!(listed(&paths)[0], ("README".into(), true, false));
            assert_eq!(listed(&paths).len(), 3);
        }
    }
}
