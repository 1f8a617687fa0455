//! A check of a 7z archive's header before `sevenz-rust2` reads it.
//!
//! The crate allocates a table for each count the header states (files,
//! blocks, pack streams, coders, unpack streams, digests) before it reads
//! the entries, so a 40-byte header claiming 2^36 files aborts the process
//! on a failed allocation. This walks the same structure over the header's
//! bytes, allocating nothing a count asks for, and rejects a count no
//! header of that many bytes could hold. An encoded header (the normal case
//! for archives 7-Zip writes) is unpacked here when its one coder is copy,
//! LZMA or LZMA2, bounded by its stated size, and walked the same way; any
//! other header coder (BCJ before LZMA, PPMd, bzip2, AES) is left to the
//! crate unchecked.

use std::io::{Read, Seek, SeekFrom};

const K_END: u8 = 0x00;
const K_HEADER: u8 = 0x01;
const K_ARCHIVE_PROPERTIES: u8 = 0x02;
const K_ADDITIONAL_STREAMS_INFO: u8 = 0x03;
const K_MAIN_STREAMS_INFO: u8 = 0x04;
const K_FILES_INFO: u8 = 0x05;
const K_PACK_INFO: u8 = 0x06;
const K_UNPACK_INFO: u8 = 0x07;
const K_SUB_STREAMS_INFO: u8 = 0x08;
const K_SIZE: u8 = 0x09;
const K_CRC: u8 = 0x0a;
const K_FOLDER: u8 = 0x0b;
const K_CODERS_UNPACK_SIZE: u8 = 0x0c;
const K_NUM_UNPACK_STREAM: u8 = 0x0d;
const K_EMPTY_STREAM: u8 = 0x0e;
const K_EMPTY_FILE: u8 = 0x0f;
const K_ANTI: u8 = 0x10;
const K_NAME: u8 = 0x11;
const K_C_TIME: u8 = 0x12;
const K_A_TIME: u8 = 0x13;
const K_M_TIME: u8 = 0x14;
const K_WIN_ATTRIBUTES: u8 = 0x15;
const K_ENCODED_HEADER: u8 = 0x17;
const K_START_POS: u8 = 0x18;

/// The most coders one block may have: the crate's own limit.
const MAX_CODERS: u64 = 32;
/// The most streams in or out of one block's coders: 7-Zip's limit.
const MAX_CODER_STREAMS: u64 = 64;

/// Where the archive's header lies, from the start header.
pub(crate) struct Next {
    pub offset: u64,
    pub size: u64,
    pub crc: u32,
}

/// Reads the header `next` names from `source` (`size` bytes, when known)
/// and walks it; an encoded header is unpacked (up to `limit` bytes) and
/// walked too. Leaves `source` at its start.
pub(crate) fn check<R: Read + Seek>(
    source: &mut R,
    size: Option<u64>,
    next: &Next,
    limit: u64,
) -> Result<(), String> {
    let bytes = read_at(source, 32u64.saturating_add(next.offset), next.size)?;
    if crc32fast::hash(&bytes) != next.crc {
        return Err("its header's CRC does not match".into());
    }
    let outcome = match bytes.first() {
        Some(&K_HEADER) => walk_header(&bytes),
        Some(&K_ENCODED_HEADER) => check_encoded(source, size, &bytes, limit),
        Some(id) => Err(format!("its header starts with id {id:#04x}, not a header")),
        None => Err("its header is empty".into()),
    };
    source.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    outcome
}

/// Reads `len` bytes at `at`; the caller has bounded `len`, and a short
/// file gives fewer bytes, not a larger allocation.
fn read_at<R: Read + Seek>(source: &mut R, at: u64, len: u64) -> Result<Vec<u8>, String> {
    source
        .seek(SeekFrom::Start(at))
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    source
        .take(len)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if (bytes.len() as u64) < len {
        return Err("its header lies past the end of the file: truncated".into());
    }
    Ok(bytes)
}

/// An encoded header: the streams info of the packed header, then the
/// packed header itself, unpacked when its coder is one this reads.
fn check_encoded<R: Read + Seek>(
    source: &mut R,
    size: Option<u64>,
    bytes: &[u8],
    limit: u64,
) -> Result<(), String> {
    let mut w = Walk::new(bytes);
    w.byte()?;
    let streams = w.streams_info(bytes.len() as u64)?;
    let block = streams
        .blocks
        .first()
        .ok_or("its encoded header has no block")?;
    let &packed = streams
        .pack_sizes
        .first()
        .ok_or("its encoded header has no packed stream")?;
    let unpacked = block.unpack_size();
    if unpacked > limit {
        return Err(format!(
            "its header unpacks to {}, over the {} limit (--max-game-mib)",
            mib(unpacked),
            mib(limit)
        ));
    }
    let at = 32u64.saturating_add(streams.pack_pos);
    if packed > limit {
        return Err(format!(
            "its packed header is {}, over the {} limit (--max-game-mib)",
            mib(packed),
            mib(limit)
        ));
    }
    if size.is_some_and(|size| at.saturating_add(packed) > size) {
        return Err("its packed header lies past the end of the file: truncated".into());
    }
    let [coder] = block.coders.as_slice() else {
        return Ok(());
    };
    let input = read_at(source, at, packed)?;
    let header = match coder.id.as_slice() {
        [0x00] => input,
        [0x03, 0x01, 0x01] => unlzma(&input, &coder.props, unpacked)?,
        [0x21] => unlzma2(&input, &coder.props, unpacked)?,
        _ => return Ok(()),
    };
    if header.len() as u64 != unpacked {
        return Err("its packed header is shorter than it states".into());
    }
    if block.crc.is_some_and(|crc| crc32fast::hash(&header) != crc) {
        return Err("its packed header's CRC does not match".into());
    }
    match header.first() {
        Some(&K_HEADER) => walk_header(&header),
        _ => Err("its packed header does not start with a header id".into()),
    }
}

/// Unpacks raw LZMA (`props`: the lc/lp/pb byte, the dictionary size) into
/// at most `unpacked` bytes.
fn unlzma(input: &[u8], props: &[u8], unpacked: u64) -> Result<Vec<u8>, String> {
    let [byte, d0, d1, d2, d3] = *props else {
        return Err("its header's LZMA properties are not 5 bytes".into());
    };
    let dict = u32::from_le_bytes([d0, d1, d2, d3]);
    let reader = lzma_rust2::LzmaReader::new_with_props(input, unpacked, byte, dict, None)
        .map_err(|e| format!("its header does not unpack: {e}"))?;
    bounded(reader, unpacked)
}

/// Unpacks LZMA2 (`props`: the dictionary size byte) into at most
/// `unpacked` bytes; the dictionary is never larger than the output.
fn unlzma2(input: &[u8], props: &[u8], unpacked: u64) -> Result<Vec<u8>, String> {
    let [bits] = *props else {
        return Err("its header's LZMA2 properties are not 1 byte".into());
    };
    if bits > 40 {
        return Err("its header's LZMA2 dictionary size is invalid".into());
    }
    let stated = if bits == 40 {
        u32::MAX
    } else {
        (2 | (u32::from(bits) & 1)) << (bits / 2 + 11)
    };
    let dict = stated.min(unpacked.max(4096).try_into().unwrap_or(u32::MAX));
    bounded(lzma_rust2::Lzma2Reader::new(input, dict, None), unpacked)
}

/// Reads `reader` to its end or `unpacked` bytes, whichever comes first.
fn bounded(reader: impl Read, unpacked: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(unpacked)
        .read_to_end(&mut out)
        .map_err(|e| format!("its header does not unpack: {e}"))?;
    Ok(out)
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// Walks a plain header (first byte `K_HEADER`), as the crate reads it.
fn walk_header(bytes: &[u8]) -> Result<(), String> {
    let len = bytes.len() as u64;
    let mut w = Walk::new(bytes);
    w.byte()?;
    let mut id = w.byte()?;
    if id == K_ARCHIVE_PROPERTIES {
        while w.byte()? != K_END {
            let n = w.number()?;
            w.skip(n)?;
        }
        id = w.byte()?;
    }
    if id == K_ADDITIONAL_STREAMS_INFO {
        return Err("it has additional streams, which are not supported".into());
    }
    let mut streams = Streams::default();
    if id == K_MAIN_STREAMS_INFO {
        streams = w.streams_info(len)?;
        id = w.byte()?;
    }
    if id == K_FILES_INFO {
        w.files_info(len, streams.unpack_streams)?;
        id = w.byte()?;
    }
    if id != K_END {
        return Err(format!("its header ends with id {id:#04x}, not 0"));
    }
    Ok(())
}

/// What the header's streams info says, as far as the checks need it.
#[derive(Default)]
struct Streams {
    pack_pos: u64,
    pack_sizes: Vec<u64>,
    blocks: Vec<Block>,
    /// Streams unpacked from all blocks; 0 without substreams info.
    unpack_streams: u64,
}

struct Block {
    coders: Vec<Coder>,
    /// Out-stream index of each bind pair.
    bound_out: Vec<u64>,
    unpack_sizes: Vec<u64>,
    crc: Option<u32>,
}

impl Block {
    /// The block's final output: the last out stream no bind pair takes.
    fn unpack_size(&self) -> u64 {
        (0..self.unpack_sizes.len())
            .rev()
            .find(|&i| !self.bound_out.contains(&(i as u64)))
            .map_or(0, |i| self.unpack_sizes[i])
    }
}

struct Coder {
    id: Vec<u8>,
    props: Vec<u8>,
}

/// A cursor over header bytes; every read past the end is an error.
struct Walk<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Walk<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Walk { bytes, pos: 0 }
    }

    fn left(&self) -> u64 {
        (self.bytes.len() - self.pos) as u64
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        if n > self.left() {
            return Err("its header ends early".into());
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.bytes[start..self.pos])
    }

    fn skip(&mut self, n: u64) -> Result<(), String> {
        self.take(n).map(|_| ())
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    /// 7z's variable-length number: the first byte's leading 1 bits say
    /// how many little-endian bytes follow.
    fn number(&mut self) -> Result<u64, String> {
        let first = self.byte()?;
        let mut value = 0u64;
        for i in 0..8 {
            let mask = 0x80u8 >> i;
            if first & mask == 0 {
                return Ok(value | (u64::from(first & mask.wrapping_sub(1)) << (8 * i)));
            }
            value |= u64::from(self.byte()?) << (8 * i);
        }
        Ok(value)
    }

    /// A count of `what`, which must be at most `max`.
    fn count(&mut self, what: &str, max: u64, room: &str) -> Result<u64, String> {
        let n = self.number()?;
        if n > max {
            return Err(format!("it states {n} {what}, more than {room}"));
        }
        Ok(n)
    }

    /// A count bounded by the bytes left after it.
    fn count_left(&mut self, what: &str) -> Result<u64, String> {
        let max = self.left();
        self.count(
            what,
            max,
            &format!("the {max} bytes left in its header could hold"),
        )
    }

    /// A bit vector of `n` bits, first bit high; returns how many are set.
    fn bits(&mut self, n: u64) -> Result<u64, String> {
        let bytes = self.take(n.div_ceil(8))?;
        let whole = (n / 8) as usize;
        let mut set: u64 = bytes[..whole]
            .iter()
            .map(|b| u64::from(b.count_ones()))
            .sum();
        if let Some(&last) = bytes.get(whole) {
            let keep = 0xffu8 << (8 - n % 8);
            set += u64::from((last & keep).count_ones());
        }
        Ok(set)
    }

    /// An "all defined" byte, or else a bit vector of `n` bits.
    fn all_or_bits(&mut self, n: u64) -> Result<u64, String> {
        if self.byte()? != 0 {
            Ok(n)
        } else {
            self.bits(n)
        }
    }

    /// `n` digests: which are defined, then 4 bytes each.
    fn digests(&mut self, n: u64) -> Result<(), String> {
        let defined = self.all_or_bits(n)?;
        self.skip(defined.saturating_mul(4))
    }

    /// Streams info: pack info, unpack info (blocks), substreams info.
    /// `len` is the whole header's size.
    fn streams_info(&mut self, len: u64) -> Result<Streams, String> {
        let mut s = Streams::default();
        let mut id = self.byte()?;
        if id == K_PACK_INFO {
            s.pack_pos = self.number()?;
            let n = self.count_left("pack streams")?;
            id = self.byte()?;
            if id == K_SIZE {
                s.pack_sizes = (0..n).map(|_| self.number()).collect::<Result<_, _>>()?;
                id = self.byte()?;
            }
            if id == K_CRC {
                self.digests(n)?;
                id = self.byte()?;
            }
            if id != K_END {
                return Err("its pack info is not terminated".into());
            }
            id = self.byte()?;
        }
        if id == K_UNPACK_INFO {
            s.blocks = self.unpack_info()?;
            id = self.byte()?;
        }
        if id == K_SUB_STREAMS_INFO {
            s.unpack_streams = self.sub_streams_info(&s.blocks, len)?;
            id = self.byte()?;
        }
        if id != K_END {
            return Err("its streams info is not terminated".into());
        }
        Ok(s)
    }

    fn unpack_info(&mut self) -> Result<Vec<Block>, String> {
        if self.byte()? != K_FOLDER {
            return Err("its unpack info has no block list".into());
        }
        let n = self.count_left("blocks")?;
        if self.byte()? != 0 {
            return Err("its block list is external, which is not supported".into());
        }
        let mut blocks = (0..n)
            .map(|_| self.block())
            .collect::<Result<Vec<_>, _>>()?;
        if self.byte()? != K_CODERS_UNPACK_SIZE {
            return Err("its unpack info has no unpack sizes".into());
        }
        for block in &mut blocks {
            for size in &mut block.unpack_sizes {
                *size = self.number()?;
            }
        }
        let mut id = self.byte()?;
        if id == K_CRC {
            let all = self.byte()? != 0;
            let flags = if all {
                &[][..]
            } else {
                self.take(n.div_ceil(8))?
            };
            for (i, block) in blocks.iter_mut().enumerate() {
                if all || flags[i / 8] & (0x80 >> (i % 8)) != 0 {
                    let crc = self.take(4)?;
                    block.crc = Some(u32::from_le_bytes(crc.try_into().expect("4 bytes")));
                }
            }
            id = self.byte()?;
        }
        if id != K_END {
            return Err("its unpack info is not terminated".into());
        }
        Ok(blocks)
    }

    fn block(&mut self) -> Result<Block, String> {
        let n = self.count("coders in a block", MAX_CODERS, "a block may have (32)")?;
        let (mut ins, mut outs) = (0u64, 0u64);
        let mut coders = Vec::new();
        for _ in 0..n {
            let flags = self.byte()?;
            let id = self.take(u64::from(flags & 0x0f))?.to_vec();
            if flags & 0x10 != 0 {
                ins = ins.saturating_add(self.number()?);
                outs = outs.saturating_add(self.number()?);
            } else {
                ins += 1;
                outs += 1;
            }
            let props = if flags & 0x20 != 0 {
                let size = self.count_left("bytes of coder properties")?;
                self.take(size)?.to_vec()
            } else {
                Vec::new()
            };
            if flags & 0x80 != 0 {
                return Err("a coder has alternative methods, which are not supported".into());
            }
            coders.push(Coder { id, props });
        }
        if ins > MAX_CODER_STREAMS || outs > MAX_CODER_STREAMS {
            return Err(format!(
                "a block's coders have {ins} streams in and {outs} out, more than 64"
            ));
        }
        if outs == 0 {
            return Err("a block has no output stream".into());
        }
        let pairs = outs - 1;
        let mut bound_out = Vec::new();
        for _ in 0..pairs {
            self.number()?;
            bound_out.push(self.number()?);
        }
        if ins < pairs {
            return Err("a block has fewer input streams than bind pairs".into());
        }
        let packed = ins - pairs;
        if packed > 1 {
            for _ in 0..packed {
                self.number()?;
            }
        }
        Ok(Block {
            coders,
            bound_out,
            unpack_sizes: vec![0; outs as usize],
            crc: None,
        })
    }

    /// Substreams info; returns how many streams the blocks unpack to.
    fn sub_streams_info(&mut self, blocks: &[Block], len: u64) -> Result<u64, String> {
        let mut per_block = vec![1u64; blocks.len()];
        let mut id = self.byte()?;
        if id == K_NUM_UNPACK_STREAM {
            let mut total = 0u64;
            for n in &mut per_block {
                *n = self.number()?;
                total = total.saturating_add(*n);
                if total > len {
                    return Err(format!(
                        "it states more unpacked streams than its header's {len} bytes \
                         could list"
                    ));
                }
            }
            id = self.byte()?;
        }
        if id == K_SIZE {
            for &n in &per_block {
                for _ in 1..n.max(1) {
                    self.number()?;
                }
            }
            id = self.byte()?;
        }
        if id == K_CRC {
            let digests = per_block
                .iter()
                .zip(blocks)
                .filter(|(&n, b)| n != 1 || b.crc.is_none())
                .map(|(&n, _)| n)
                .sum();
            self.digests(digests)?;
            id = self.byte()?;
        }
        if id != K_END {
            return Err("its substreams info is not terminated".into());
        }
        Ok(per_block.iter().sum())
    }

    /// Files info: the count, then each property as the crate reads it.
    fn files_info(&mut self, len: u64, unpack_streams: u64) -> Result<(), String> {
        let files = self.count(
            "files",
            len,
            &format!("its header's {len} bytes could list"),
        )?;
        let mut empty: Option<u64> = None;
        loop {
            let kind = self.byte()?;
            if kind == K_END {
                break;
            }
            let size = self.number()?;
            match kind {
                K_EMPTY_STREAM => empty = Some(self.bits(files)?),
                K_EMPTY_FILE | K_ANTI => {
                    let n =
                        empty.ok_or("its empty-file list comes before its empty-stream list")?;
                    self.bits(n)?;
                }
                K_NAME => {
                    if self.byte()? != 0 {
                        return Err("its file names are external, which is not supported".into());
                    }
                    if size == 0 || (size - 1) % 2 != 0 {
                        return Err("its file names' length is invalid".into());
                    }
                    let names = count_names(self.take(size - 1)?);
                    if names != files {
                        return Err(format!("it states {files} files but names {names}"));
                    }
                }
                K_C_TIME | K_A_TIME | K_M_TIME | K_WIN_ATTRIBUTES => {
                    let defined = self.all_or_bits(files)?;
                    if self.byte()? != 0 {
                        return Err("its file times are external, which is not supported".into());
                    }
                    let each = if kind == K_WIN_ATTRIBUTES { 4 } else { 8 };
                    self.skip(defined.saturating_mul(each))?;
                }
                K_START_POS => return Err("it has start positions, which are not supported".into()),
                _ => self.skip(size)?,
            }
        }
        let with_data = files - empty.unwrap_or(0);
        if with_data > unpack_streams {
            return Err(format!(
                "it states {with_data} files with data but {unpack_streams} unpacked streams"
            ));
        }
        Ok(())
    }
}

/// File names as the crate reads them: UTF-16 units, each name ended by a
/// 0 unit or by the end of the list.
fn count_names(bytes: &[u8]) -> u64 {
    let mut names = 0;
    let mut open = false;
    for unit in bytes.chunks_exact(2) {
        open = true;
        if unit == [0, 0] {
            names += 1;
            open = false;
        }
    }
    names + u64::from(open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A 7z file whose header is `header` (stated CRC and size correct),
    /// with `packed` bytes between the start header and the header.
    fn archive(packed: &[u8], header: &[u8]) -> Vec<u8> {
        let mut next = Vec::new();
        next.extend((packed.len() as u64).to_le_bytes());
        next.extend((header.len() as u64).to_le_bytes());
        next.extend(crc32fast::hash(header).to_le_bytes());
        let mut file = b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec();
        file.extend(crc32fast::hash(&next).to_le_bytes());
        file.extend(next);
        file.extend(packed);
        file.extend(header);
        file
    }

    fn check_file(file: &[u8]) -> Result<(), String> {
        let word = |i: usize| u64::from_le_bytes(file[i..i + 8].try_into().unwrap());
        let next = Next {
            offset: word(12),
            size: word(20),
            crc: u32::from_le_bytes(file[28..32].try_into().unwrap()),
        };
        check(
            &mut Cursor::new(file),
            Some(file.len() as u64),
            &next,
            1 << 20,
        )
    }

    fn check_header(header: &[u8]) -> Result<(), String> {
        check_file(&archive(&[], header))
    }

    /// 2^36 as a 7z number: five leading 1 bits, so five bytes follow.
    const HUGE: [u8; 6] = [0xf8, 0, 0, 0, 0, 0x10];

    #[test]
    fn number_reads_7z_lengths() {
        let mut w = Walk::new(&HUGE);
        assert_eq!(w.number(), Ok(1 << 36));
        let mut w = Walk::new(&[0x81, 0x02]);
        assert_eq!(w.number(), Ok(0x102));
        let mut w = Walk::new(&[0x7f]);
        assert_eq!(w.number(), Ok(0x7f));
    }

    #[test]
    fn the_file_count_bomb_is_rejected() {
        let mut h = vec![K_HEADER, K_FILES_INFO];
        h.extend(HUGE);
        h.extend([0, 0]);
        let why = check_header(&h).unwrap_err();
        assert!(why.contains("68719476736 files"), "{why}");
    }

    #[test]
    fn each_count_bomb_is_rejected() {
        let streams = |body: &[u8]| {
            let mut h = vec![K_HEADER, K_MAIN_STREAMS_INFO];
            h.extend(body);
            h.extend([0; 8]);
            check_header(&h).unwrap_err()
        };
        // Pack streams.
        let mut b = vec![K_PACK_INFO, 0];
        b.extend(HUGE);
        assert!(streams(&b).contains("pack streams"));
        // Blocks.
        let mut b = vec![K_UNPACK_INFO, K_FOLDER];
        b.extend(HUGE);
        assert!(streams(&b).contains("blocks"));
        // Coders in a block.
        let b = [K_UNPACK_INFO, K_FOLDER, 1, 0, 33];
        assert!(streams(&b).contains("coders"));
        // Coder properties.
        let mut b = vec![K_UNPACK_INFO, K_FOLDER, 1, 0, 1, 0x21, 0x21];
        b.extend(HUGE);
        assert!(streams(&b).contains("coder properties"));
        // Streams of a complex coder.
        let mut b = vec![K_UNPACK_INFO, K_FOLDER, 1, 0, 1, 0x11, 0x21];
        b.extend(HUGE);
        b.push(1);
        assert!(streams(&b).contains("streams in"));
        // Unpack streams (and so digests).
        let one_block = [
            K_UNPACK_INFO,
            K_FOLDER,
            1,
            0,
            1,
            0x01,
            0x21,
            K_CODERS_UNPACK_SIZE,
            5,
            K_END,
        ];
        let mut b = one_block.to_vec();
        b.extend([K_SUB_STREAMS_INFO, K_NUM_UNPACK_STREAM]);
        b.extend(HUGE);
        assert!(streams(&b).contains("unpacked streams"));
    }

    #[test]
    fn names_must_match_the_file_count() {
        let one = [K_HEADER, K_FILES_INFO, 1, K_EMPTY_STREAM, 1, 0x80];
        let a = [K_NAME, 5, 0, b'a', 0, 0, 0];
        let ab = [K_NAME, 9, 0, b'a', 0, 0, 0, b'b', 0, 0, 0];
        assert_eq!(
            check_header(&[&one[..], &a, &[K_END, K_END]].concat()),
            Ok(())
        );
        let why = check_header(&[&one[..], &ab, &[K_END, K_END]].concat()).unwrap_err();
        assert!(why.contains("names 2"), "{why}");
        // A file with data needs an unpacked stream.
        let why = check_header(&[K_HEADER, K_FILES_INFO, 1, K_END, K_END]).unwrap_err();
        assert!(why.contains("1 files with data"), "{why}");
    }

    #[test]
    fn a_bad_header_crc_is_rejected() {
        let mut file = archive(&[], &[K_HEADER, K_END]);
        *file.last_mut().unwrap() = 7;
        assert!(check_file(&file).unwrap_err().contains("CRC"));
    }

    /// An encoded header: `header` LZMA-packed, with its streams info.
    fn encoded(header: &[u8], unpack_size: u64) -> Vec<u8> {
        let mut packed = Vec::new();
        let mut options = lzma_rust2::LzmaOptions::with_preset(1);
        options.dict_size = 1 << 12;
        let mut w = lzma_rust2::LzmaWriter::new_no_header(&mut packed, &options, false).unwrap();
        std::io::Write::write_all(&mut w, header).unwrap();
        w.finish().unwrap();
        let dict = options.dict_size.to_le_bytes();
        let mut info = vec![K_ENCODED_HEADER, K_PACK_INFO, 0, 1, K_SIZE];
        info.push(packed.len() as u8);
        info.extend([K_END, K_UNPACK_INFO, K_FOLDER, 1, 0, 1, 0x23, 3, 1, 1, 5]);
        info.push(options.get_props());
        info.extend(dict);
        info.push(K_CODERS_UNPACK_SIZE);
        info.extend(number(unpack_size));
        info.extend([K_END, K_END]);
        archive(&packed, &info)
    }

    fn number(n: u64) -> Vec<u8> {
        let mut v = vec![0xff];
        v.extend(n.to_le_bytes());
        v
    }

    #[test]
    fn an_encoded_header_is_unpacked_and_walked() {
        let good = [K_HEADER, K_FILES_INFO, 0, K_END, K_END];
        assert_eq!(check_file(&encoded(&good, 5)), Ok(()));
        let mut bomb = vec![K_HEADER, K_FILES_INFO];
        bomb.extend(HUGE);
        bomb.extend([0, 0]);
        let why = check_file(&encoded(&bomb, bomb.len() as u64)).unwrap_err();
        assert!(why.contains("68719476736 files"), "{why}");
        let why = check_file(&encoded(&good, 1 << 40)).unwrap_err();
        assert!(why.contains("--max-game-mib"), "{why}");
    }

    #[test]
    fn an_archive_the_crate_writes_passes_and_its_packed_header_is_read() {
        let mut w = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
        for i in 0..100 {
            let entry = sevenz_rust2::ArchiveEntry::new_file(&format!("games/g{i}.sgf"));
            w.push_archive_entry(entry, Some(&b"(;GM[1])"[..])).unwrap();
        }
        let mut file = w.finish().unwrap().into_inner();
        let header_at = 32 + u64::from_le_bytes(file[12..20].try_into().unwrap()) as usize;
        assert_eq!(file[header_at], K_ENCODED_HEADER);
        assert_eq!(check_file(&file), Ok(()));
        // The packed header ends where the encoded header starts.
        file[header_at - 4] ^= 0xff;
        // Unpacked and walked: the damage shows in the header's structure.
        assert!(check_file(&file).is_err());
    }
}
