//! The paths given, expanded into a sorted list of files, and which file
//! names inside directories and archives are read.

use crate::ingest::Entry;
use std::fs;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What kind of container a file is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Container {
    Plain,
    Gzip,
    Tar,
    TarGz,
    Zip,
}

pub(crate) fn container_of(name: &str) -> Container {
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
pub(crate) fn is_game_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        ".sgf", ".mgt", ".mat", ".sgf.gz", ".txt", ".xg", ".xgp", ".fibs",
    ]
    .iter()
    .any(|e| n.ends_with(e))
}

/// `.txt` files are read only when they hold a backgammon match (Backgammon
/// Galaxy and Studio export `.mat` text under that name).
pub(crate) fn is_text_name(name: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn container_names() {
        assert_eq!(container_of("a.TAR.GZ"), Container::TarGz);
        assert_eq!(container_of("a.tgz"), Container::TarGz);
        assert_eq!(container_of("a.sgf.gz"), Container::Gzip);
        assert_eq!(container_of("a.zip"), Container::Zip);
        assert!(is_game_name("x/Y.SGF") && !is_game_name("README"));
    }
}
