//! Finding game records: expands the paths given into a sorted list of
//! files, then streams each file — plain, gzip, tar, tar.gz or zip — as
//! sources that know their origin (path, and member inside an archive).
//!
//! Files named on the command line are always read. Inside directories and
//! archives only game files (`.sgf`, `.mgt`, `.mat`, and `.txt` that holds a
//! backgammon match) and archives are taken; other files are counted as
//! skipped.
//!
//! A Go SGF file is streamed one game tree at a time; a backgammon match
//! (`.mat` text, or GNU Backgammon SGF with `GM[6]`) is one unit, since its
//! games are audited together (score, Crawford game).

use crate::sgf::split::{split_trees, Chunk};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Where a record came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    pub path: String,
    /// Member path inside an archive.
    pub member: Option<String>,
}

/// One path to read, or why it cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    /// Set when discovery already failed (unreadable directory, missing
    /// path from a `-` list).
    pub problem: Option<String>,
    /// Named by the user (not found inside a directory).
    pub named: bool,
}

/// A game tree's bytes or a failure, with its origin and game index.
#[derive(Debug)]
pub struct Unit {
    pub origin: Arc<Origin>,
    /// 1-based game index in the source; 0 for a failure of the whole source.
    pub game: u32,
    /// True for the first unit of each source file or member.
    pub first_of_source: bool,
    pub payload: Payload,
}

impl Unit {
    /// Bytes the unit holds in memory.
    pub fn payload_bytes(&self) -> u64 {
        match &self.payload {
            Payload::Tree(b) | Payload::Match(b) => b.len() as u64,
            Payload::Failed { reason, .. } => reason.len() as u64,
        }
    }
}

#[derive(Debug)]
pub enum Payload {
    /// One Go game tree.
    Tree(Vec<u8>),
    /// A whole backgammon match file.
    Match(Vec<u8>),
    Failed {
        stage: &'static str,
        reason: String,
    },
}

/// Counters the reader keeps while streaming (read by the progress bar and
/// the summary).
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes read from disk (compressed bytes for archives).
    pub bytes: AtomicU64,
    /// Files inside directories or archives skipped by name.
    pub skipped: AtomicU64,
}

/// What kind of container a file is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Container {
    Plain,
    Gzip,
    Tar,
    TarGz,
    Zip,
}

fn container_of(name: &str) -> Container {
    let n = name.to_ascii_lowercase();
    if n.ends_with(".tar.gz") || n.ends_with(".tgz") {
        Container::TarGz
    } else if n.ends_with(".tar") {
        Container::Tar
    } else if n.ends_with(".zip") {
        Container::Zip
    } else if n.ends_with(".gz") {
        Container::Gzip
    } else {
        Container::Plain
    }
}

/// Whether a file found inside a directory or archive is a game file.
fn is_game_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [".sgf", ".mgt", ".mat", ".sgf.gz", ".txt"]
        .iter()
        .any(|e| n.ends_with(e))
}

/// `.txt` files are read only when they hold a backgammon match (Backgammon
/// Galaxy and Studio export `.mat` text under that name).
fn is_text_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".txt")
}

fn is_wanted_in_dir(name: &str) -> bool {
    is_game_name(name) || container_of(name) != Container::Plain
}

/// Expands paths (files, directories, `-` for a list on stdin) into a sorted
/// list without duplicates, so output does not depend on argument order or
/// directory order.
///
/// # Errors
/// A path named on the command line that does not exist or cannot be
/// examined: the run cannot do what was asked.
pub fn expand(paths: &[PathBuf], stdin: &mut dyn BufRead) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            for line in stdin.lines() {
                let line = line.map_err(|e| format!("cannot read the path list on stdin: {e}"))?;
                let line = line.trim_end_matches('\r');
                if line.is_empty() {
                    continue;
                }
                let path = PathBuf::from(line);
                match fs::metadata(&path) {
                    Ok(_) => walk(&path, true, &mut out, &mut Vec::new()),
                    Err(e) => out.push(Entry {
                        path,
                        problem: Some(format!("listed on stdin but cannot be read: {e}")),
                        named: true,
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
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

fn walk(path: &Path, named: bool, out: &mut Vec<Entry>, seen_dirs: &mut Vec<PathBuf>) {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            out.push(Entry {
                path: path.to_path_buf(),
                problem: Some(format!("cannot read: {e}")),
                named,
            });
            return;
        }
    };
    if !meta.is_dir() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if named || is_wanted_in_dir(&name) {
            out.push(Entry {
                path: path.to_path_buf(),
                problem: None,
                named,
            });
        }
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
            let mut children: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            children.sort();
            for c in children {
                walk(&c, false, out, seen_dirs);
            }
        }
        Err(e) => out.push(Entry {
            path: path.to_path_buf(),
            problem: Some(format!("cannot list directory: {e}")),
            named,
        }),
    }
    seen_dirs.pop();
}

/// Counts bytes read from the underlying file for the progress bar.
struct Counted<R> {
    inner: R,
    progress: Arc<Progress>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Limits for reading.
#[derive(Debug, Clone, Copy)]
pub struct ReadLimits {
    /// Largest game tree kept, in bytes.
    pub max_game_bytes: u64,
}

/// Streams every source of one entry, calling `emit` for each unit in order.
/// `emit` returns `false` to stop.
pub fn read_entry(
    entry: &Entry,
    limits: ReadLimits,
    progress: &Arc<Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    let origin = Arc::new(Origin {
        path: entry.path.display().to_string(),
        member: None,
    });
    let fail = |origin: &Arc<Origin>, stage, reason: String| Unit {
        origin: Arc::clone(origin),
        game: 0,
        first_of_source: true,
        payload: Payload::Failed { stage, reason },
    };
    if let Some(problem) = &entry.problem {
        emit(fail(&origin, "discover", problem.clone()));
        return;
    }
    let file = match File::open(&entry.path) {
        Ok(f) => f,
        Err(e) => {
            emit(fail(&origin, "read", format!("cannot open: {e}")));
            return;
        }
    };
    let name = entry
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let counted = Counted {
        inner: file,
        progress: Arc::clone(progress),
    };
    match container_of(&name) {
        Container::Plain => {
            let size = fs::metadata(&entry.path).ok().map(|m| m.len());
            let optional = (!entry.named && is_text_name(&name)).then_some(&**progress);
            read_source(&origin, counted, size, limits, optional, emit);
        }
        Container::Gzip => {
            let gz = flate2::read::MultiGzDecoder::new(counted);
            read_source(&origin, gz, None, limits, None, emit);
        }
        Container::Tar => read_tar(&origin, counted, limits, progress, emit),
        Container::TarGz => {
            let gz = flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, counted));
            read_tar(&origin, gz, limits, progress, emit)
        }
        Container::Zip => read_zip(&origin, &entry.path, limits, progress, emit),
    }
}

fn read_tar(
    origin: &Arc<Origin>,
    reader: impl Read,
    limits: ReadLimits,
    progress: &Progress,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    let mut archive = tar::Archive::new(reader);
    let mut members = 0u64;
    let mut last = String::new();
    let archive_error = |members: u64, last: &str, e: &dyn std::fmt::Display| {
        let after = if last.is_empty() {
            "before its first member".to_string()
        } else {
            format!("after member {members} '{last}'")
        };
        Unit {
            origin: Arc::clone(origin),
            game: 0,
            first_of_source: members == 0,
            payload: Payload::Failed {
                stage: "archive",
                reason: format!(
                    "corrupt or unreadable tar archive {after}: {e}; the rest of the archive was not read"
                ),
            },
        }
    };
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => {
            emit(archive_error(0, "", &e));
            return;
        }
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                emit(archive_error(members, &last, &e));
                return;
            }
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let member = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        members += 1;
        last.clone_from(&member);
        let size = entry.header().size().ok();
        if !read_member(origin, member, &mut entry, size, limits, progress, emit) {
            return;
        }
    }
    if members == 0 {
        emit(Unit {
            origin: Arc::clone(origin),
            game: 0,
            first_of_source: true,
            payload: Payload::Failed {
                stage: "archive",
                reason: "archive holds no files".into(),
            },
        });
    }
}

fn read_zip(
    origin: &Arc<Origin>,
    path: &Path,
    limits: ReadLimits,
    progress: &Arc<Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    let fail = |o: &Arc<Origin>, reason: String| Unit {
        origin: Arc::clone(o),
        game: 0,
        first_of_source: true,
        payload: Payload::Failed {
            stage: "archive",
            reason,
        },
    };
    let opened = File::open(path)
        .map_err(zip::result::ZipError::Io)
        .and_then(|f| {
            let counted = Counted {
                inner: f,
                progress: Arc::clone(progress),
            };
            zip::ZipArchive::new(SeekCounted(counted))
        });
    let mut archive = match opened {
        Ok(a) => a,
        Err(e) => {
            emit(fail(origin, format!("not a readable zip archive: {e}")));
            return;
        }
    };
    for i in 0..archive.len() {
        let mut file = match archive.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                emit(fail(
                    origin,
                    format!("zip member {} cannot be read: {e}", i + 1),
                ));
                continue;
            }
        };
        if !file.is_file() {
            continue;
        }
        let member = file.name().to_string();
        let size = Some(file.size());
        if !read_member(origin, member, &mut file, size, limits, progress, emit) {
            return;
        }
    }
}

/// Reads one archive member if its name is a game file's (else counts it
/// as skipped). Returns `false` when `emit` asked to stop.
fn read_member(
    archive: &Origin,
    member: String,
    reader: impl Read,
    size: Option<u64>,
    limits: ReadLimits,
    progress: &Progress,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    if !is_game_name(&member) {
        progress.skipped.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    let optional = is_text_name(&member).then_some(progress);
    let origin = Arc::new(Origin {
        path: archive.path.clone(),
        member: Some(member),
    });
    read_source(&origin, reader, size, limits, optional, emit)
}

/// A seekable counted reader, for zip archives.
struct SeekCounted(Counted<File>);

impl Read for SeekCounted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl io::Seek for SeekCounted {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.0.inner.seek(pos)
    }
}

/// Reads one file or member: sniffs what it is, then streams its game trees
/// (Go) or reads it whole (a backgammon match). `optional` is set for a
/// `.txt` file found in a directory or archive: when it is not a match it
/// is counted there as skipped. Returns `false` when `emit` asked to stop.
fn read_source(
    origin: &Arc<Origin>,
    reader: impl Read,
    size_hint: Option<u64>,
    limits: ReadLimits,
    optional: Option<&Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    // Archive members are mostly a few KiB: a buffer sized to the member
    // avoids clearing 64 KiB for each of them.
    let capacity = size_hint.map_or(1 << 16, |n| (n as usize + 1).clamp(512, 1 << 16));
    let mut reader = BufReader::with_capacity(capacity, reader);
    let mut game = 0u32;
    let unit = |game: u32, payload| Unit {
        origin: Arc::clone(origin),
        game,
        first_of_source: game <= 1,
        payload,
    };
    let head = match reader.fill_buf() {
        Ok(h) => h,
        Err(e) => return emit(unit(0, failed("read", format!("cannot read: {e}")))),
    };
    if head.is_empty() {
        return emit(unit(0, failed("read", "empty file (0 bytes)".into())));
    }
    if let Some(why) = looks_binary(head) {
        return emit(unit(
            0,
            failed("parse", format!("binary data, not SGF: {why}")),
        ));
    }
    if looks_like_match_file(head) || looks_like_bg_sgf(head) {
        let mut bytes = Vec::with_capacity(capacity);
        let limit = limits.max_game_bytes;
        let payload = match (&mut reader).take(limit + 1).read_to_end(&mut bytes) {
            Err(e) => failed("read", format!("cannot read: {e}")),
            Ok(_) if bytes.len() as u64 > limit => failed(
                "read",
                format!(
                    "match file is over the {:.1} MiB limit (--max-game-mib); skipped",
                    mib(limit)
                ),
            ),
            Ok(_) => Payload::Match(bytes),
        };
        return emit(unit(1, payload));
    }
    if let Some(progress) = optional {
        progress.skipped.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    let mut go_on = true;
    let result = split_trees(&mut reader, limits.max_game_bytes, |chunk| {
        game += 1;
        let payload = match chunk {
            Chunk::Tree(bytes) => Payload::Tree(bytes),
            Chunk::TooLarge { bytes, limit } => failed(
                "read",
                format!(
                    "game tree is {:.1} MiB, over the {:.1} MiB limit (--max-game-mib); skipped",
                    mib(bytes),
                    mib(limit)
                ),
            ),
            Chunk::Truncated { inside_value, .. } => failed(
                "parse",
                if inside_value {
                    "truncated SGF: the data ends inside a property value (a '[' is never closed)"
                } else {
                    "truncated SGF: the data ends before the game tree closes (a '(' is never closed)"
                }
                .into(),
            ),
        };
        go_on = emit(unit(game, payload));
        go_on
    });
    match result {
        Err(e) => {
            let after = if game == 0 {
                String::new()
            } else {
                format!(" after game {game}")
            };
            emit(unit(0, failed("read", format!("read error{after}: {e}"))))
        }
        Ok(outside) if game == 0 => {
            let what = if outside.nul_bytes > 0 {
                "binary data, not SGF: no game tree '(;' found"
            } else {
                "no SGF game tree '(;' found in the text"
            };
            emit(unit(
                0,
                failed("parse", format!("{what} ({} bytes)", outside.bytes)),
            ))
        }
        Ok(_) => go_on,
    }
}

fn failed(stage: &'static str, reason: String) -> Payload {
    Payload::Failed { stage, reason }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// SGF is text: NUL bytes, or many control bytes, in the first block of a
/// file mean binary data (an image, an executable, a compressed file with
/// the wrong name).
fn looks_binary(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(8192)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c))
        .count();
    if head.contains(&0) || control * 20 > head.len() {
        Some(format!(
            "{control} control bytes in the first {} bytes",
            head.len()
        ))
    } else {
        None
    }
}

/// GNU Backgammon's SGF: `GM[6]` in the first game tree's root.
fn looks_like_bg_sgf(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    head.windows(5).any(|w| w == b"GM[6]")
}

/// A Jellyfish / GNU Backgammon `.mat` export: "N point match" near the top
/// and no SGF tree.
fn looks_like_match_file(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    let has = |needle: &[u8]| {
        head.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    !has(b"(;") && has(b"point match")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(data: &[u8]) -> Vec<String> {
        let origin = Arc::new(Origin::default());
        let mut out = Vec::new();
        read_source(
            &origin,
            data,
            None,
            ReadLimits {
                max_game_bytes: 1 << 20,
            },
            None,
            &mut |u| {
                out.push(match u.payload {
                    Payload::Tree(b) => format!("{} tree {}", u.game, b.len()),
                    Payload::Match(b) => format!("{} match {}", u.game, b.len()),
                    Payload::Failed { stage, reason } => format!("{} {stage}: {reason}", u.game),
                });
                true
            },
        );
        out
    }

    #[test]
    fn sniffs_sources() {
        assert_eq!(units(b""), ["0 read: empty file (0 bytes)"]);
        assert!(units(b"\x00\x01\x02junk")[0].starts_with("0 parse: binary data"));
        assert!(units(b"hello")[0].contains("no SGF game tree"));
        assert_eq!(
            units(b"; [Player 1 \"a\"]\n 7 point match\n"),
            ["1 match 32"]
        );
        assert_eq!(units(b"(;FF[4]GM[6];B[52yeqs])"), ["1 match 23"]);
        assert_eq!(units(b"(;B[aa])(;W[bb]"), ["1 tree 8", "2 parse: truncated SGF: the data ends before the game tree closes (a '(' is never closed)"]);
    }

    #[test]
    fn container_names() {
        assert_eq!(container_of("a.TAR.GZ"), Container::TarGz);
        assert_eq!(container_of("a.tgz"), Container::TarGz);
        assert_eq!(container_of("a.sgf.gz"), Container::Gzip);
        assert_eq!(container_of("a.zip"), Container::Zip);
        assert!(is_game_name("x/Y.SGF") && !is_game_name("README"));
    }
}
