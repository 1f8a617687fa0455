//! 7z archives, by `sevenz-rust2` (pure Rust: LZMA, LZMA2, PPMd, bzip2,
//! the BCJ and delta filters), member by member in the archive's order of
//! its solid blocks.

use crate::ingest::archive::{archive_error, fail, read_member, Reading};
use crate::ingest::paths::SEVENZ_MAGIC;
use crate::ingest::sevenz_header::{self, Next};
use crate::ingest::{Origin, Stage, Unit};
use crate::text::escape_name;
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

/// Reads the 7z archive `source` (`size` bytes, when known) at `origin`.
/// Returns `false` when `emit` asked to stop.
pub(crate) fn read_7z<R: Read + Seek>(
    r: &Reading,
    origin: &Arc<Origin>,
    mut source: R,
    size: Option<u64>,
    depth: u32,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    let checked = check_start_header(&mut source, size, r.limits.max_game_bytes)
        .and_then(|next| sevenz_header::check(&mut source, size, &next, r.limits.max_game_bytes));
    if let Err(why) = checked {
        return emit(fail(
            origin,
            Stage::Archive,
            format!("not a readable 7z archive: {why}"),
        ));
    }
    let mut archive =
        match sevenz_rust2::ArchiveReader::new(source, sevenz_rust2::Password::empty()) {
            Ok(a) => a,
            Err(e) => {
                return emit(fail(
                    origin,
                    Stage::Archive,
                    format!("not a readable 7z archive: {e}"),
                ))
            }
        };
    if archive.archive().files.iter().all(|f| f.is_directory()) {
        return emit(fail(
            origin,
            Stage::Archive,
            "archive holds no files".into(),
        ));
    }
    let (mut members, mut last, mut go_on) = (0u64, String::new(), true);
    let read = archive.for_each_entries(|entry, reader| {
        if !go_on || entry.is_directory() || entry.is_anti_item() {
            return Ok(go_on);
        }
        let member = escape_name(entry.name().as_bytes());
        members += 1;
        last.clone_from(&member);
        go_on = read_member(r, origin, member, reader, Some(entry.size()), depth, emit);
        Ok(go_on)
    });
    match read {
        Err(e) if go_on => emit(archive_error(origin, "7z", members, &last, &e)),
        _ => go_on,
    }
}

/// Checks the start header (signature, its CRC, where the archive's
/// header lies) before the archive is opened, so that a header claiming
/// more bytes than the file holds, or more than `--max-game-mib`, is an
/// error row rather than a huge allocation; returns where the header lies.
/// A blank start header (an unfinished archive) is refused: the crate
/// would search the file's last MiB for a header, unchecked.
fn check_start_header<R: Read + Seek>(
    source: &mut R,
    size: Option<u64>,
    limit: u64,
) -> Result<Next, String> {
    let mut start = [0u8; 32];
    source
        .read_exact(&mut start)
        .map_err(|_| "shorter than a 7z start header (32 bytes)".to_string())?;
    source.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    if &start[..6] != SEVENZ_MAGIC {
        return Err("no 7z signature".into());
    }
    let word = |i: usize| u64::from_le_bytes(start[i..i + 8].try_into().expect("8 bytes"));
    let stated = u32::from_le_bytes(start[8..12].try_into().expect("4 bytes"));
    if stated == 0 && start[12..32].iter().all(|&b| b == 0) {
        return Err("its start header is blank: an unfinished archive".into());
    }
    if stated != 0 && crc32fast::hash(&start[12..32]) != stated {
        return Err("the start header's CRC does not match".into());
    }
    let (offset, header) = (word(12), word(20));
    if header > limit {
        return Err(format!(
            "its header is {:.1} MiB, over the {:.1} MiB limit (--max-game-mib)",
            header as f64 / (1024.0 * 1024.0),
            limit as f64 / (1024.0 * 1024.0)
        ));
    }
    if let Some(size) = size {
        if 32u64.saturating_add(offset).saturating_add(header) > size {
            return Err(format!(
                "its header lies past the end of the file ({size} bytes): truncated"
            ));
        }
    }
    Ok(Next {
        offset,
        size: header,
        crc: u32::from_le_bytes(start[28..32].try_into().expect("4 bytes")),
    })
}
