//! Reading one entry: a plain file, a gzip stream, a tar (plain or
//! gzipped) or a zip archive, member by member, in archive order.

use crate::ingest::paths::{container_of, is_game_name, is_text_name, Container};
use crate::ingest::source::read_source;
use crate::ingest::{Entry, Origin, Payload, Progress, ReadLimits, Stage, Unit};
use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

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
        emit(fail(&origin, Stage::Discover, problem.clone()));
        return;
    }
    let file = match File::open(&entry.path) {
        Ok(f) => f,
        Err(e) => {
            emit(fail(&origin, Stage::Read, format!("cannot open: {e}")));
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
                stage: Stage::Archive,
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
                stage: Stage::Archive,
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
            stage: Stage::Archive,
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
