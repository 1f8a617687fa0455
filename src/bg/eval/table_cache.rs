//! The bearoff tables kept on disk between runs. Building GNU Backgammon's
//! two 16-bit tables ([`crate::bg::eval::bearoff::gnubg_rounded`],
//! [`crate::bg::eval::bearoff_ts::two_sided`]) takes about 0.65 s of one
//! core; reading them back about 10 ms. A run with one match spends most
//! of its time building them; an archive's run about 3%. gnubg reads the
//! same tables from files it ships (`gnubg_os0.bd`, `gnubg_ts0.bd`).
//!
//! A kept table is a file `NAME-SOURCE.u16` in the cache directory:
//! `SOURCE` is a hash of the source files that build the tables, so a
//! build of other code never reads a table built by this one. The file
//! holds a header line, the values as little-endian `u16` and their
//! CRC-32; a file that is short, altered or of another layout is built
//! again and replaced. Files are written under a temporary name and
//! renamed, so a run interrupted while writing, or two runs writing at
//! once, never leave a half-written table. Without a cache directory, or
//! where it cannot be written, the tables are built in memory each run, as
//! before: the cache saves time and changes no result.
//!
//! The directory is `$RECOUNT_CACHE_DIR`, else `$XDG_CACHE_HOME/recount`,
//! else `$HOME/.cache/recount`; `RECOUNT_CACHE_DIR=` (empty) keeps nothing.
//! The command line and the Python package turn it on
//! ([`use_default_dir`]); other library users and the unit tests build in
//! memory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The variable that names the cache directory (empty: no cache).
pub const CACHE_ENV: &str = "RECOUNT_CACHE_DIR";

/// FNV-1a of the sources that decide the tables' values, at compile time.
const SOURCE: u64 = {
    let files: [&[u8]; 2] = [
        include_bytes!("bearoff.rs"),
        include_bytes!("bearoff_ts.rs"),
    ];
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut f = 0;
    while f < files.len() {
        let mut i = 0;
        while i < files[f].len() {
            h = (h ^ files[f][i] as u64).wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        f += 1;
    }
    h
};

static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Keeps the tables in the directory the environment names (see the
/// module documentation), for the rest of the process. Called once,
/// before any table is asked for.
pub fn use_default_dir() {
    let dir = match std::env::var_os(CACHE_ENV) {
        Some(v) if v.is_empty() => None,
        Some(v) => Some(PathBuf::from(v)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
            .map(|d| d.join("recount")),
    };
    let _ = DIR.set(dir);
}

/// The table `name` of `len` values: read from the cache directory when
/// a sound copy is there, else made by `build` (and kept there when a
/// directory is set).
pub fn load_or_build(name: &str, len: usize, build: impl FnOnce() -> Vec<u16>) -> Vec<u16> {
    let Some(Some(dir)) = DIR.get() else {
        return build();
    };
    let path = dir.join(format!("{name}-{SOURCE:016x}.u16"));
    if let Some(values) = std::fs::read(&path)
        .ok()
        .and_then(|bytes| decode(&bytes, name, len))
    {
        return values;
    }
    let values = build();
    // A cache that cannot be written costs only the next run's build.
    let _ = store(dir, &path, name, &values);
    values
}

/// The header line of a table file made by the code of hash `source`.
fn header(name: &str, source: u64, len: usize) -> String {
    format!("recount table {name} {source:016x} {len}\n")
}

/// The values of a table file's `bytes`, or `None` when they are not a
/// sound file of `name` with `len` values.
fn decode(bytes: &[u8], name: &str, len: usize) -> Option<Vec<u16>> {
    let head = header(name, SOURCE, len);
    let body = bytes.strip_prefix(head.as_bytes())?;
    if body.len() != 2 * len + 4 {
        return None;
    }
    let (values, crc) = body.split_at(2 * len);
    if crc32fast::hash(values).to_le_bytes() != crc {
        return None;
    }
    Some(
        values
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect(),
    )
}

/// The file content of a table.
fn encode(name: &str, values: &[u16]) -> Vec<u8> {
    let mut bytes = header(name, SOURCE, values.len()).into_bytes();
    let at = bytes.len();
    bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    let crc = crc32fast::hash(&bytes[at..]);
    bytes.extend(crc.to_le_bytes());
    bytes
}

/// Writes the table to a temporary file in `dir` (named by the process,
/// so that runs side by side do not share one), then renames it to
/// `path`.
fn store(dir: &Path, path: &Path, name: &str, values: &[u16]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(&encode(name, values)))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_reads_back_as_written() {
        let values: Vec<u16> = (0..1000u32)
            .map(|k| (k.wrapping_mul(2_654_435_761) >> 16) as u16)
            .collect();
        let bytes = encode("t", &values);
        assert_eq!(decode(&bytes, "t", values.len()), Some(values.clone()));
        // Another name, length or source, or an altered value, is refused.
        assert_eq!(decode(&bytes, "u", values.len()), None);
        assert_eq!(decode(&bytes, "t", values.len() - 1), None);
        let mut altered = bytes.clone();
        let at = altered.len() - 100;
        altered[at] ^= 1;
        assert_eq!(decode(&altered, "t", values.len()), None);
        assert_eq!(decode(&bytes[..bytes.len() - 1], "t", values.len()), None);
        let mut older = bytes.clone();
        let head = header("t", SOURCE ^ 1, values.len());
        older[..head.len()].copy_from_slice(head.as_bytes());
        assert_eq!(decode(&older, "t", values.len()), None);
    }

    #[test]
    fn a_stored_table_replaces_a_broken_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.u16");
        std::fs::write(&path, b"broken").unwrap();
        let values = vec![1u16, 2, 3];
        store(dir.path(), &path, "t", &values).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(decode(&bytes, "t", 3), Some(values));
        // Nothing else is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
