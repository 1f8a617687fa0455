//! Reading one entry: a plain file, a compressed stream, or an archive
//! (tar, zip, 7z; compressed or not, and archives inside archives),
//! member by member, in archive order.

use crate::ingest::codec::{Budget, Codec, Guarded};
use crate::ingest::paths::{
    archive_of, archive_of_magic, codec_of, is_game_name, is_text_name, is_wanted, Archive,
};
use crate::ingest::source::read_source;
use crate::ingest::{sevenz, Entry, Origin, Payload, Progress, ReadLimits, Shard, Stage, Unit};
use crate::text::escape_name;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Layers of compression and archives one inside another read at most
/// (`a.tar.gz` holding `b.zip` holding `c.sgf.xz` is four): deeper is a
/// nesting bomb, an error row.
pub(crate) const MAX_DEPTH: u32 = 8;

/// The bytes of a stream that say what it is (magic numbers, the tar
/// header, the first SGF root or match header [`mod@super::sniff`] reads).
const HEAD: usize = 8192;

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

impl<R: Seek> Seek for Counted<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// What reading one file needs besides its bytes.
pub(crate) struct Reading<'a> {
    pub limits: ReadLimits,
    pub progress: &'a Progress,
    /// Every decoder of the file spends from it.
    pub budget: &'a Budget<'a>,
    /// `--shard`: only this part's sources are read past their first bytes.
    pub shard: Option<Shard>,
}

impl Reading<'_> {
    /// Counts the file or member `origin` as skipped, in the part it is in.
    pub(crate) fn skip(&self, origin: &Origin) {
        if self.shard.is_none_or(|s| s.owns(origin)) {
            self.progress.skipped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A failure of the whole of `origin`.
pub(crate) fn fail(origin: &Arc<Origin>, stage: Stage, reason: String) -> Unit {
    Unit {
        origin: Arc::clone(origin),
        game: 0,
        first_of_source: true,
        payload: Payload::Failed { stage, reason },
    }
}

/// The origin of the member `name` of the archive at `archive`: a member
/// of an archive inside an archive is named `inner.zip!/name`.
pub(crate) fn member_origin(archive: &Origin, name: String) -> Arc<Origin> {
    Arc::new(Origin {
        path: archive.path.clone(),
        member: Some(match &archive.member {
            Some(outer) => format!("{outer}!/{name}"),
            None => name,
        }),
    })
}

/// Streams every source of the file `entry` (its origin `origin`),
/// calling `emit` for each unit in order; [`super::entry::read_entry`]
/// has decided it is to be read.
pub(crate) fn read_file(
    entry: &Entry,
    origin: Arc<Origin>,
    limits: ReadLimits,
    shard: Option<Shard>,
    progress: &Arc<Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    // Only regular files are opened from directories: a FIFO there would
    // block the run, a device never ends; such a file is skipped. One named
    // on the command line is read when it is a FIFO (a pipe the user gives,
    // as `<(zcat games.sgf.gz)`), else it is an error row.
    let meta = fs::metadata(&entry.path);
    match &meta {
        Ok(m) if entry.named && is_fifo(m) => {}
        Ok(m) if !m.is_file() && !m.is_dir() => {
            if entry.named {
                let what = file_kind(m);
                emit(fail(
                    &origin,
                    Stage::Read,
                    format!("not a regular file ({what}); not read"),
                ));
            } else if shard.is_none_or(|s| s.owns(&origin)) {
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
    let budget = Budget::new(limits.max_game_bytes, progress);
    let r = Reading {
        limits,
        progress,
        budget: &budget,
        shard,
    };
    let size = meta.ok().filter(|m| m.is_file()).map(|m| m.len());
    read_top(&r, &origin, &name, counted, size, entry.named, emit);
}

/// Reads a file named `name` (or bytes in memory) from `source`, by its
/// name and first bytes; a decoder's bug on corrupt data is an error row,
/// not the end of the run.
pub(crate) fn read_top<R: Read + Seek>(
    r: &Reading,
    origin: &Arc<Origin>,
    name: &str,
    source: R,
    size: Option<u64>,
    named: bool,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    let mut last_origin = Arc::clone(origin);
    let mut tracking = |unit: Unit| {
        last_origin = Arc::clone(&unit.origin);
        emit(unit)
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| match archive_of(name) {
        // Zip and 7z archives are read in place (their directory is at the
        // end).
        Some(Archive::Zip) => read_zip(r, origin, source, 0, &mut tracking),
        Some(Archive::SevenZ) => sevenz::read_7z(r, origin, source, size, 0, &mut tracking),
        _ => {
            let optional = !named && is_text_name(name);
            let mut source = source;
            read_stream(
                r,
                origin,
                name,
                &mut source,
                size,
                0,
                optional,
                &mut tracking,
            )
        }
    }));
    if let Err(panic) = outcome {
        let msg = crate::text::panic_message(&*panic);
        emit(fail(
            &last_origin,
            Stage::Internal,
            format!("internal error while reading ({msg}); the rest of the file was not read; please report it"),
        ));
    }
}

/// Reads one stream: a file, or a member (`origin` names it), by what its
/// name and first bytes say it is: compressed, an archive, or a game file
/// (`optional`: a `.txt` read only if it holds a backgammon match).
/// `depth` counts the layers of compression and archives around it.
/// Returns `false` when `emit` asked to stop.
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_stream(
    r: &Reading,
    origin: &Arc<Origin>,
    name: &str,
    reader: &mut dyn Read,
    size: Option<u64>,
    depth: u32,
    optional: bool,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    // Its beginning and its end move the count of streams, so units
    // offered inside it and after it have places of their own.
    r.progress.streams.fetch_add(1, Ordering::Relaxed);
    let go_on = read_stream_inner(r, origin, name, reader, size, depth, optional, emit);
    r.progress.streams.fetch_add(1, Ordering::Relaxed);
    go_on
}

#[allow(clippy::too_many_arguments)]
fn read_stream_inner(
    r: &Reading,
    origin: &Arc<Origin>,
    name: &str,
    reader: &mut dyn Read,
    size: Option<u64>,
    depth: u32,
    optional: bool,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    // The first bytes decide what the stream is: read whole (a decoder
    // or an archive's member may give a few bytes a read), then put back.
    let mut head = Vec::with_capacity(HEAD);
    if let Err(e) = (&mut *reader).take(HEAD as u64).read_to_end(&mut head) {
        // A compressed tar that does not decompress is a corrupt archive.
        return emit(if archive_of(name) == Some(Archive::Tar) {
            archive_error(origin, "tar", 0, "", &e)
        } else {
            fail(origin, Stage::Read, format!("read error: {e}"))
        });
    }
    // Small members are common: a buffer of the member's size.
    let capacity = size.map_or(1 << 16, |n| (n as usize + 1).clamp(HEAD, 1 << 16));
    let mut buffered = BufReader::with_capacity(capacity, io::Cursor::new(head).chain(reader));
    let head = buffered.fill_buf().unwrap_or_default();
    let by_name = codec_of(name);
    let codec = by_name
        .as_ref()
        .map(|(c, _)| *c)
        .or_else(|| Codec::of_magic(head));
    let archive = archive_of(name).or_else(|| archive_of_magic(head));
    if (codec.is_some() || archive.is_some()) && depth >= MAX_DEPTH {
        return emit(fail(
            origin,
            Stage::Archive,
            format!("more than {MAX_DEPTH} layers of compression and archives one inside another (a nesting bomb?); not read"),
        ));
    }
    if let Some(codec) = codec {
        // A compressed stream: read decompressed, as what its name says
        // without the compression (`a.sgf.xz` is `a.sgf`).
        let inner = by_name.map_or_else(|| name.to_string(), |(_, inner)| inner);
        let mut decoded = Guarded::new(codec.decoder(buffered), codec.name(), r.budget);
        return read_stream(
            r,
            origin,
            &inner,
            &mut decoded,
            None,
            depth + 1,
            optional,
            emit,
        );
    }
    match archive {
        Some(Archive::Tar) => read_tar(r, origin, &mut buffered, depth + 1, emit),
        Some(kind) => {
            // Zip and 7z need to seek: inside another archive they are
            // read into memory, up to --max-game-mib.
            let limit = r.limits.max_game_bytes;
            let mut bytes = Vec::new();
            match (&mut buffered).take(limit + 1).read_to_end(&mut bytes) {
                Err(e) => emit(fail(origin, Stage::Read, format!("cannot read: {e}"))),
                Ok(_) if bytes.len() as u64 > limit => emit(fail(
                    origin,
                    Stage::Read,
                    format!(
                        "an archive inside an archive is read into memory, and this one is over the {:.1} MiB limit (--max-game-mib); not read",
                        limit as f64 / (1024.0 * 1024.0)
                    ),
                )),
                Ok(_) => {
                    let len = bytes.len() as u64;
                    let cursor = io::Cursor::new(bytes);
                    if kind == Archive::Zip {
                        read_zip(r, origin, cursor, depth + 1, emit)
                    } else {
                        sevenz::read_7z(r, origin, cursor, Some(len), depth + 1, emit)
                    }
                }
            }
        }
        // Another part's source: nothing of it is needed past its head.
        None if r.shard.is_some_and(|s| !s.owns(origin)) => true,
        None => {
            let optional = optional.then_some(r.progress);
            read_source(origin, buffered, size, r.limits, optional, emit)
        }
    }
}

/// The error row of an archive that cannot be read on from after `last`
/// (the `members`-th member).
pub(crate) fn archive_error(
    archive: &Arc<Origin>,
    format: &str,
    members: u64,
    last: &str,
    e: &dyn std::fmt::Display,
) -> Unit {
    let after = if last.is_empty() {
        "before its first member".to_string()
    } else {
        format!("after member {members} '{last}'")
    };
    Unit {
        first_of_source: members == 0,
        ..fail(
            archive,
            Stage::Archive,
            format!(
                "corrupt or unreadable {format} archive {after}: {e}; the rest of the archive was not read"
            ),
        )
    }
}

fn read_tar(
    r: &Reading,
    origin: &Arc<Origin>,
    reader: &mut dyn Read,
    depth: u32,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    let mut archive = tar::Archive::new(reader);
    let mut members = 0u64;
    let mut last = String::new();
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => return emit(archive_error(origin, "tar", 0, "", &e)),
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => return emit(archive_error(origin, "tar", members, &last, &e)),
        };
        let kind = entry.header().entry_type();
        let member = escape_name(&entry.path_bytes());
        if kind.is_hard_link() || kind.is_symlink() {
            // A link's data is its target's, which the archive holds under
            // its own name (a hard link) or may not hold (a symbolic link):
            // said, never silently dropped.
            if !is_wanted(&member) {
                r.skip(&member_origin(origin, member));
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
            let unit = fail(
                &member_origin(origin, member),
                Stage::Archive,
                format!(
                    "{what} to '{target}' in the tar archive: not read (a link has no data of its own; its target is read under its own name)"
                ),
            );
            if !emit(unit) {
                return false;
            }
            continue;
        }
        if !(kind.is_file() || kind.is_contiguous() || kind.is_gnu_sparse()) {
            // Directories, and FIFOs and devices (no data), with a game
            // name counted as skipped.
            if !kind.is_dir() && is_game_name(&member) {
                r.skip(&member_origin(origin, member));
            }
            continue;
        }
        members += 1;
        last.clone_from(&member);
        let size = entry.header().size().ok();
        if !read_member(r, origin, member, &mut entry, size, depth, emit) {
            return false;
        }
    }
    if members == 0 {
        return emit(fail(
            origin,
            Stage::Archive,
            "archive holds no files".into(),
        ));
    }
    true
}

fn read_zip<R: Read + Seek>(
    r: &Reading,
    origin: &Arc<Origin>,
    source: R,
    depth: u32,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    let mut archive = match zip::ZipArchive::new(source) {
        Ok(a) => a,
        Err(e) => {
            return emit(fail(
                origin,
                Stage::Archive,
                format!("not a readable zip archive: {e}"),
            ))
        }
    };
    if archive.is_empty() {
        return emit(fail(
            origin,
            Stage::Archive,
            "archive holds no files".into(),
        ));
    }
    for i in 0..archive.len() {
        let listed = archive
            .name_for_index(i)
            .map_or_else(|| format!("#{}", i + 1), |n| escape_name(n.as_bytes()));
        // Raw: recount decodes every method itself (zip_member).
        let mut file = match archive.by_index_raw(i) {
            Ok(f) => f,
            Err(e) => {
                let unit = fail(
                    &member_origin(origin, listed),
                    Stage::Archive,
                    format!("zip member {} cannot be read: {e}", i + 1),
                );
                if !emit(unit) {
                    return false;
                }
                continue;
            }
        };
        if file.is_dir() {
            continue;
        }
        let member = escape_name(file.name().as_bytes());
        if !is_wanted(&member) {
            r.skip(&member_origin(origin, member));
            continue;
        }
        if file.is_symlink() {
            let unit = fail(
                &member_origin(origin, member),
                Stage::Archive,
                "a symbolic link in the zip archive: not read (a link has no data of its own)"
                    .into(),
            );
            if !emit(unit) {
                return false;
            }
            continue;
        }
        let stored = file.compressed_size();
        let (size, crc) = (file.size(), file.crc32());
        let (method, encrypted) = (file.compression(), file.encrypted());
        let raw = Exact {
            inner: &mut file,
            left: Some(stored),
            size: stored,
        };
        let decoded = if encrypted {
            Err("it is encrypted (no password is asked for)".to_string())
        } else {
            zip_member(method, size, raw)
        };
        let go_on = match decoded {
            Err(why) => emit(fail(
                &member_origin(origin, member),
                Stage::Archive,
                format!("zip member {} cannot be read: {why}", i + 1),
            )),
            Ok((name, decoder)) => {
                let mut checked = Crc {
                    inner: Guarded::new(decoder, name, r.budget),
                    hasher: crc32fast::Hasher::new(),
                    expected: crc,
                    done: false,
                };
                let optional = is_text_name(&member);
                let origin = member_origin(origin, member.clone());
                read_stream(
                    r,
                    &origin,
                    &member,
                    &mut checked,
                    Some(size),
                    depth,
                    optional,
                    emit,
                )
            }
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// A zip member's decoder by its compression method, and the method's
/// name; or why it cannot be read.
fn zip_member<'a>(
    method: zip::CompressionMethod,
    size: u64,
    raw: impl Read + 'a,
) -> Result<(&'static str, Box<dyn Read + 'a>), String> {
    use zip::CompressionMethod as M;
    let buffered = BufReader::new(raw);
    Ok(match method {
        M::Stored => ("stored", Box::new(buffered)),
        m if m == M::DEFLATE => (
            "deflate",
            Box::new(flate2::bufread::DeflateDecoder::new(buffered)),
        ),
        m if m == M::BZIP2 => ("bzip2", Codec::Bzip2.decoder(buffered)),
        m if m == M::XZ => ("xz", Codec::Xz.decoder(buffered)),
        m if m == M::ZSTD => ("zstd", Codec::Zstd.decoder(buffered)),
        m if m == M::LZMA => ("lzma", zip_lzma(buffered, size)?),
        m => {
            return Err(format!(
                "its compression method, {}, is not supported",
                method_name(m)
            ))
        }
    })
}

/// A zip compression method recount does not read, by name.
fn method_name(m: zip::CompressionMethod) -> String {
    use zip::CompressionMethod as M;
    [
        (M::SHRINK, "Shrink (1)"),
        (M::IMPLODE, "Implode (6)"),
        (M::DEFLATE64, "Deflate64 (9)"),
        (M::PKWARE_IMPLODE, "PKWARE DCL Implode (10)"),
        (M::PPMD, "PPMd (98)"),
        (M::AES, "AES encryption (99)"),
    ]
    .iter()
    .find(|(k, _)| *k == m)
    .map_or_else(|| format!("{m:?}"), |(_, name)| name.to_string())
}

/// Largest LZMA dictionary recount allocates for a zip member.
const MAX_LZMA_DICT: u32 = 256 << 20;

/// A zip member in LZMA (method 14): a 4-byte header (the LZMA SDK's
/// version, the size of the properties), the 5 bytes of properties,
/// then the raw stream.
fn zip_lzma<'a>(mut raw: impl BufRead + 'a, size: u64) -> Result<Box<dyn Read + 'a>, String> {
    let mut header = [0u8; 9];
    raw.read_exact(&mut header)
        .map_err(|e| format!("its LZMA header cannot be read: {e}"))?;
    if u16::from_le_bytes([header[2], header[3]]) != 5 {
        return Err("its LZMA header does not give 5 bytes of properties".into());
    }
    let dict = u32::from_le_bytes([header[5], header[6], header[7], header[8]]);
    if dict > MAX_LZMA_DICT {
        return Err(format!(
            "its LZMA dictionary of {} MiB is over the {} MiB recount allocates",
            dict >> 20,
            MAX_LZMA_DICT >> 20
        ));
    }
    lzma_rust2::LzmaReader::new_with_props(raw, size, header[4], dict, None)
        .map(|r| Box::new(r) as Box<dyn Read + 'a>)
        .map_err(|e| format!("its LZMA header is corrupt: {e}"))
}

/// A zip member's data checked against the CRC-32 its directory gives.
struct Crc<R> {
    inner: R,
    hasher: crc32fast::Hasher,
    expected: u32,
    done: bool,
}

impl<R: Read> Read for Crc<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        if n == 0 && !buf.is_empty() && !self.done {
            self.done = true;
            let found = self.hasher.clone().finalize();
            if found != self.expected {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "corrupt zip member: its CRC-32 is {found:08x}, the archive gives {:08x}",
                        self.expected
                    ),
                ));
            }
        }
        Ok(n)
    }
}

/// Reads one archive member if it is a game file or an archive (else
/// counts it as skipped). Returns `false` when `emit` asked to stop.
pub(crate) fn read_member(
    r: &Reading,
    archive: &Arc<Origin>,
    member: String,
    reader: &mut dyn Read,
    size: Option<u64>,
    depth: u32,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    if !is_wanted(&member) {
        r.skip(&member_origin(archive, member));
        return true;
    }
    let optional = is_text_name(&member);
    let origin = member_origin(archive, member.clone());
    let mut exact = Exact {
        inner: reader,
        left: size,
        size: size.unwrap_or(0),
    };
    read_stream(r, &origin, &member, &mut exact, size, depth, optional, emit)
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
