//! Compressed streams: which compression a stream is in (by its magic
//! bytes), a decoder for each, and the budget that stops a decompression
//! bomb.
//!
//! Every decoder is pure Rust: gzip by `flate2` (already used), bzip2 by
//! `bzip2` (over `libbz2-rs-sys`, a Rust port of libbzip2), xz and LZMA
//! by `lzma-rust2` (a port of XZ for Java, also 7z's decoder), zstd by
//! `ruzstd`. A stream of several members or frames (`pigz`, `pbzip2`,
//! `pzstd`, concatenated files) is read whole.

use crate::ingest::Progress;
use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::sync::atomic::Ordering;

/// A compression format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
}

impl Codec {
    /// The format's name, as error rows say it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
            Codec::Zstd => "zstd",
        }
    }

    /// The format the first bytes of a stream are the magic number of.
    pub fn of_magic(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Codec::Gzip)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Codec::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Codec::Xz)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Codec::Zstd)
        } else {
            None
        }
    }

    /// The decompressed stream of `reader`.
    pub fn decoder<'a>(self, reader: impl BufRead + 'a) -> Box<dyn Read + 'a> {
        match self {
            Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
            Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
            Codec::Xz => Box::new(lzma_rust2::XzReader::new(reader, true)),
            Codec::Zstd => Box::new(Zstd::new(reader)),
        }
    }
}

/// A zstd stream of any number of frames; skippable frames are skipped,
/// and each frame's checksum, when it has one, is checked.
struct Zstd<R> {
    source: R,
    frame: ruzstd::decoding::FrameDecoder,
    in_frame: bool,
}

impl<R: BufRead> Zstd<R> {
    fn new(source: R) -> Zstd<R> {
        Zstd {
            source,
            frame: ruzstd::decoding::FrameDecoder::new(),
            in_frame: false,
        }
    }

    /// Starts the next frame; `false` at the end of the stream.
    fn next_frame(&mut self) -> io::Result<bool> {
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        loop {
            if self.source.fill_buf()?.is_empty() {
                return Ok(false);
            }
            match self.frame.reset(&mut self.source) {
                Ok(()) => return Ok(true),
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped =
                        io::copy(&mut (&mut self.source).take(length as u64), &mut io::sink())?;
                    if skipped < length as u64 {
                        return Err(corrupt("a skippable frame is cut short"));
                    }
                }
                Err(e) => return Err(corrupt(&e.to_string())),
            }
        }
    }
}

impl<R: BufRead> Read for Zstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use ruzstd::decoding::BlockDecodingStrategy;
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.in_frame {
                if !self.next_frame()? {
                    return Ok(0);
                }
                self.in_frame = true;
            }
            while self.frame.can_collect() < buf.len() && !self.frame.is_finished() {
                let wanted = buf.len() - self.frame.can_collect();
                self.frame
                    .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBytes(wanted))
                    .map_err(|e| corrupt(&e.to_string()))?;
            }
            let n = self.frame.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            if self.frame.is_finished() {
                if let (Some(stated), Some(found)) = (
                    self.frame.get_checksum_from_data(),
                    self.frame.get_calculated_checksum(),
                ) {
                    if stated != found {
                        return Err(corrupt("a frame's checksum does not match its data"));
                    }
                }
                self.in_frame = false;
            }
        }
    }
}

/// The error of corrupt compressed data.
fn corrupt(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Output bytes per byte read from disk past which a stream is a bomb:
/// Go records compress 5 to 12 times (gzip to xz), a deflate bomb 1,032
/// times, a bzip2 or nested one far more.
pub(crate) const BOMB_RATIO: u64 = 200;

/// How much decompressed data one file given or found may yield: every
/// decoder of the file, at every depth of nesting, spends from it. Past
/// `--max-game-mib` of output, a file whose output is over
/// [`BOMB_RATIO`] times the bytes read from disk for it is a
/// decompression bomb, and reading it stops with an error.
pub(crate) struct Budget<'a> {
    floor: u64,
    progress: &'a Progress,
    disk_start: u64,
    out: Cell<u64>,
}

impl<'a> Budget<'a> {
    /// A budget for the file about to be read (`progress` counts its bytes
    /// read from disk from now on).
    pub fn new(floor: u64, progress: &'a Progress) -> Budget<'a> {
        Budget {
            floor,
            progress,
            disk_start: progress.bytes.load(Ordering::Relaxed),
            out: Cell::new(0),
        }
    }

    fn spend(&self, n: usize, format: &str) -> io::Result<()> {
        let out = self.out.get() + n as u64;
        self.out.set(out);
        let disk = self.progress.bytes.load(Ordering::Relaxed) - self.disk_start;
        if out > self.floor && out > BOMB_RATIO.saturating_mul(disk.max(1)) {
            return Err(io::Error::other(format!(
                "decompression bomb: {} of {} data out of {} read from disk, over {}:1 past the {} limit (--max-game-mib); not read further",
                mib(out),
                format,
                mib(disk),
                BOMB_RATIO,
                mib(self.floor)
            )));
        }
        Ok(())
    }
}

/// `1.5 MiB`, or `900 bytes` below a MiB.
fn mib(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    }
}

/// A decoder's output, spending from the file's [`Budget`].
pub(crate) struct Guarded<'b, R> {
    inner: R,
    /// The compression's name, for the error.
    format: &'static str,
    budget: &'b Budget<'b>,
}

impl<'b, R: Read> Guarded<'b, R> {
    pub fn new(inner: R, format: &'static str, budget: &'b Budget<'b>) -> Self {
        Guarded {
            inner,
            format,
            budget,
        }
    }
}

impl<R: Read> Read for Guarded<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("corrupt or truncated {} data: {e}", self.format),
            )
        })?;
        self.budget.spend(n, self.format)?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn compressed(codec: Codec, data: &[u8]) -> Vec<u8> {
        match codec {
            Codec::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Codec::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Codec::Xz => {
                let mut e = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::default())
                    .unwrap();
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Codec::Zstd => {
                ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
            }
        }
    }

    fn decoded(codec: Codec, bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        codec.decoder(bytes).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn every_codec_reads_its_streams_concatenated() {
        for codec in [Codec::Gzip, Codec::Bzip2, Codec::Xz, Codec::Zstd] {
            let mut two = compressed(codec, b"(;B[aa])");
            two.extend(compressed(codec, b"(;W[bb])"));
            assert_eq!(Codec::of_magic(&two), Some(codec));
            assert_eq!(
                decoded(codec, &two).unwrap(),
                b"(;B[aa])(;W[bb])",
                "{codec:?}"
            );
            // Cut short, or a byte changed: an error, never a panic.
            let whole = compressed(codec, &b"(;C[a comment])".repeat(50));
            assert!(
                decoded(codec, &whole[..whole.len() / 2]).is_err(),
                "{codec:?}"
            );
            for i in (4..whole.len()).step_by(7) {
                let mut bad = whole.clone();
                bad[i] ^= 0x55;
                let _ = decoded(codec, &bad);
            }
        }
        assert_eq!(Codec::of_magic(b"(;GM[1])"), None);
    }

    #[test]
    fn zstd_skips_skippable_frames() {
        let mut data = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
        data.extend(compressed(Codec::Zstd, b"(;B[cc])"));
        let mut out = Vec::new();
        Zstd::new(&data[..]).read_to_end(&mut out).unwrap();
        assert_eq!(out, b"(;B[cc])");
    }

    #[test]
    fn a_bomb_is_stopped_past_the_floor() {
        let bomb = compressed(Codec::Bzip2, &vec![b' '; 8 << 20]);
        let progress = Progress::default();
        progress
            .bytes
            .fetch_add(bomb.len() as u64, Ordering::Relaxed);
        let budget = Budget {
            floor: 1 << 20,
            progress: &progress,
            disk_start: 0,
            out: Cell::new(0),
        };
        let mut r = Guarded::new(Codec::Bzip2.decoder(&bomb[..]), "bzip2", &budget);
        let e = io::copy(&mut r, &mut io::sink()).unwrap_err();
        assert!(e.to_string().starts_with("decompression bomb: "), "{e}");
        assert!(budget.out.get() < 2 << 20);
        // Below the floor, any ratio is fine.
        let budget = Budget::new(16 << 20, &progress);
        let mut r = Guarded::new(Codec::Bzip2.decoder(&bomb[..]), "bzip2", &budget);
        assert_eq!(io::copy(&mut r, &mut io::sink()).unwrap(), 8 << 20);
    }
}
