//! Files held in memory: an [`Entry`] whose bytes are given (the Python
//! package's sources) is read as the same bytes on disk would be, by its
//! name and first bytes, its origin the name it was given.

use crate::ingest::archive::{read_top, Reading};
use crate::ingest::codec::Budget;
use crate::ingest::{Entry, Origin, Progress, ReadLimits, Shard, Unit};
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Entry {
    /// A file held in memory, named `name` (its origin in the reports, and
    /// what its name says it is: `a.tar.gz`, `b.sgf`), read as a file
    /// named on the command line is.
    pub fn in_memory(name: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>) -> Entry {
        Entry {
            path: name.into(),
            problem: None,
            named: true,
            data: Some(bytes.into()),
            skip: false,
        }
    }
}

/// Streams the sources of `data`, the bytes of `entry`, as
/// [`super::entry::read_entry`] does those of a file.
pub(crate) fn read_bytes(
    entry: &Entry,
    data: &[u8],
    origin: Arc<Origin>,
    limits: ReadLimits,
    shard: Option<Shard>,
    progress: &Arc<Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    let name = entry
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let budget = Budget::new(limits.max_game_bytes, progress);
    // All of it is "read from disk" at once: the budget measures what
    // decompresses against it.
    progress
        .bytes
        .fetch_add(data.len() as u64, Ordering::Relaxed);
    let r = Reading {
        limits,
        progress,
        budget: &budget,
        shard,
    };
    let size = Some(data.len() as u64);
    read_top(
        &r,
        &origin,
        &name,
        Cursor::new(data),
        size,
        entry.named,
        emit,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{read_entry, Payload};

    /// The units of `entry`: origin, game, and the payload's size and first
    /// bytes, or the reason it failed.
    fn units(entry: &Entry) -> Vec<(Origin, u32, String)> {
        let progress = Arc::new(Progress::default());
        let limits = ReadLimits {
            max_game_bytes: 4 << 20,
        };
        let mut out = Vec::new();
        read_entry(entry, limits, None, &progress, &mut |u| {
            let what = match &u.payload {
                Payload::Tree(b) | Payload::Match(_, b) => {
                    let head = String::from_utf8_lossy(&b[..b.len().min(40)]);
                    format!("{} bytes: {head}", b.len())
                }
                Payload::Translated(format, t) => format!("{format:?}: {} bytes", t.sgf.len()),
                Payload::Failed { reason, .. } => reason.clone(),
            };
            out.push(((*u.origin).clone(), u.game, what));
            true
        });
        out
    }

    #[test]
    fn bytes_in_memory_read_as_the_same_file_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let sgf = b"(;GM[1]SZ[9];B[aa])(;GM[1]SZ[9];W[bb])".to_vec();
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        zip.start_file("in/a.sgf", zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut zip, &sgf).unwrap();
        let zip = zip.finish().unwrap().into_inner();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &sgf).unwrap();
        let gz = gz.finish().unwrap();
        // Two games of 3 MiB, 6 MiB in all: past the decompression budget's
        // floor, far below its ratio to the compressed bytes.
        let mut x = 1u32;
        let mut letters = || {
            (0..3 << 20)
                .map(|_| {
                    x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    b'a' + (x >> 24) as u8 % 26
                })
                .collect::<Vec<u8>>()
        };
        let mut big = Vec::new();
        for _ in 0..2 {
            big.extend_from_slice(b"(;GM[1]SZ[9]C[");
            big.extend(letters());
            big.extend_from_slice(b"];B[aa])");
        }
        let mut big_gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut big_gz, &big).unwrap();
        let big_gz = big_gz.finish().unwrap();
        let cases = [
            ("g.sgf", sgf),
            ("g.zip", zip),
            ("g.sgf.gz", gz),
            ("big.sgf.gz", big_gz),
        ];
        for (name, bytes) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, &bytes).unwrap();
            let on_disk = Entry {
                path: path.clone(),
                problem: None,
                named: true,
                data: None,
                skip: false,
            };
            let got = units(&Entry::in_memory(path, bytes));
            assert_eq!(got, units(&on_disk), "{name}");
            assert_eq!(got.len(), 2, "{name}");
            assert!(got.iter().all(|(_, game, _)| *game > 0), "{name}");
        }
    }
}
