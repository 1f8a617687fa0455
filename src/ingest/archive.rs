//! Reading one entry: a plain file, a gzip stream, a tar (plain or
//! gzipped) or a zip archive, member by member, in archive order.

use crate::ingest::paths::{container_of, is_game_name, is_text_name, Container};
use crate::ingest::source::read_source;
use crate::ingest::{Entry, Origin, Payload, Progress, ReadLimits, Stage, Unit};
use crate::text::{escape_name, escape_path};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
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
        path: escape_path(&entry.path),
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
    // Only regular files are opened from directories: a FIFO there would
    // block the run, a device never ends; such a file is skipped. One named
    // on the command line is read when it is a FIFO (a pipe the user gives,
    // as `<(zcat games.sgf.gz)`), else it is an error row.
    match fs::metadata(&entry.path) {
        Ok(m) if entry.named && is_fifo(&m) => {}
        Ok(m) if !m.is_file() && !m.is_dir() => {
            if entry.named {
                let what = file_kind(&m);
                emit(fail(
                    &origin,
                    Stage::Read,
                    format!("not a regular file ({what}); not read"),
                ));
            } else {
                progress.skipped.fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        _ => {}
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
        let kind = entry.header().entry_type();
        let member = escape_name(&entry.path_bytes());
        if kind.is_hard_link() || kind.is_symlink() {
            // A link's data is its target's, which the archive holds under
            // its own name (a hard link) or may not hold (a symbolic link):
            // said, never silently dropped.
            if !is_game_name(&member) {
                progress.skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            members += 1;
            last.clone_from(&member);
            let target = entry
                .link_name_bytes()
                .map(|t| escape_name(&t))
                .unwrap_or_default();
            let what = if kind.is_hard_link() {
                "a hard link"
            } else {
                "a symbolic link"
            };
            let unit = Unit {
                origin: Arc::new(Origin {
                    path: origin.path.clone(),
                    member: Some(member),
                }),
                game: 0,
                first_of_source: true,
                payload: Payload::Failed {
                    stage: Stage::Archive,
                    reason: format!(
                        "{what} to '{target}' in the tar archive: not read (a link has no data of its own; its target is read under its own name)"
                    ),
                },
            };
            if !emit(unit) {
                return;
            }
            continue;
        }
        if !(kind.is_file() || kind.is_contiguous() || kind.is_gnu_sparse()) {
            // Directories, and FIFOs and devices (no data), with a game
            // name counted as skipped.
            if !kind.is_dir() && is_game_name(&member) {
                progress.skipped.fetch_add(1, Ordering::Relaxed);
            }
            continue;
        }
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
    if archive.is_empty() {
        emit(fail(origin, "archive holds no files".into()));
        return;
    }
    for i in 0..archive.len() {
        let listed = archive
            .name_for_index(i)
            .map_or_else(|| format!("#{}", i + 1), |n| escape_name(n.as_bytes()));
        let mut file = match archive.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                let member = listed;
                let unit = Unit {
                    origin: Arc::new(Origin {
                        path: origin.path.clone(),
                        member: Some(member),
                    }),
                    ..fail(origin, format!("zip member {} cannot be read: {e}", i + 1))
                };
                if !emit(unit) {
                    return;
                }
                continue;
            }
        };
        if file.is_dir() {
            continue;
        }
        let member = escape_name(file.name().as_bytes());
        if file.is_symlink() {
            if is_game_name(&member) {
                let unit = Unit {
                    origin: Arc::new(Origin {
                        path: origin.path.clone(),
                        member: Some(member),
                    }),
                    ..fail(
                        origin,
                        "a symbolic link in the zip archive: not read (a link has no data of its own)"
                            .into(),
                    )
                };
                if !emit(unit) {
                    return;
                }
            } else {
                progress.skipped.fetch_add(1, Ordering::Relaxed);
            }
            continue;
        }
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
    let gz_name = member.to_ascii_lowercase().ends_with(".gz");
    let origin = Arc::new(Origin {
        path: archive.path.clone(),
        member: Some(member),
    });
    let exact = Exact {
        inner: reader,
        left: size,
        size: size.unwrap_or(0),
    };
    // Small members are common: a buffer of the member's size.
    let capacity = size.map_or(1 << 16, |n| (n as usize + 1).clamp(512, 1 << 16));
    let mut buffered = BufReader::with_capacity(capacity, exact);
    // A gzipped member (`.sgf.gz`, or gzip's magic bytes) is read
    // decompressed, as a loose `.gz` file is.
    let gz_magic = match buffered.fill_buf() {
        Ok(head) => head.starts_with(&[0x1f, 0x8b]),
        Err(_) => false,
    };
    if gz_name || gz_magic {
        let gz = flate2::read::MultiGzDecoder::new(buffered);
        read_source(&origin, gz, None, limits, optional, emit)
    } else {
        read_source(&origin, buffered, size, limits, optional, emit)
    }
}

/// Whether `m` describes a FIFO (a named pipe).
fn is_fifo(m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        m.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        false
    }
}

/// What kind of file that is not a regular file `m` describes.
fn file_kind(m: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = m;
    "not a file"
}

/// A member's reader that fails when the data ends before the size the
/// archive gives (a truncated archive), instead of ending quietly.
struct Exact<R> {
    inner: R,
    left: Option<u64>,
    size: u64,
}

impl<R: Read> Read for Exact<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(left) = &mut self.left {
            if n == 0 && *left > 0 && !buf.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "truncated archive: the member ends after {} of its {} bytes",
                        self.size - *left,
                        self.size
                    ),
                ));
            }
            *left = left.saturating_sub(n as u64);
        }
        Ok(n)
    }
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
