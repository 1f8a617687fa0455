//! Compression and archives as game collections are really kept: every
//! common compression loose and around a tar, 7z, zip members in every
//! method, compressed members, archives inside archives; and their
//! truncated, corrupt and oversized cases, bombs included, each an error
//! row with a reason.

use super::inputs::{all_rows, run_on};
use super::util::*;
use std::io::{Cursor, Write};
use std::path::Path;

const GAME: &[u8] = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+R];B[ee];W[cc];B[gc])";

/// Gzip at its best compression, as a bomb is made: at level 1 some
/// deflaters (zlib-rs) pack a run of spaces only about 100 to 1.
pub(super) fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bz2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::default()).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn zst(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

pub(super) fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn sevenz(members: &[(&str, &[u8])], method: sevenz_rust2::EncoderMethod) -> Vec<u8> {
    let mut w = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    w.set_content_methods(vec![method.into()]);
    for (name, data) in members {
        w.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file(name), Some(*data))
            .unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A zip member as written by hand: its name, compression method, the
/// general-purpose flags, its data as stored, and the bytes it decodes to.
struct ZipMember<'a> {
    name: &'a str,
    method: u16,
    flags: u16,
    stored: Vec<u8>,
    data: &'a [u8],
}

/// A zip file of `members` (local headers, central directory, end
/// record), so that any method can be tried whatever the zip crate writes.
fn zip_by_hand(members: &[ZipMember]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for m in members {
        let offset = out.len() as u32;
        let crc = crc32fast::hash(m.data);
        let fields = |v: &mut Vec<u8>| {
            v.extend(20u16.to_le_bytes());
            v.extend(m.flags.to_le_bytes());
            v.extend(m.method.to_le_bytes());
            v.extend([0, 0, 0x21, 0]);
            v.extend(crc.to_le_bytes());
            v.extend((m.stored.len() as u32).to_le_bytes());
            v.extend((m.data.len() as u32).to_le_bytes());
            v.extend((m.name.len() as u16).to_le_bytes());
            v.extend(0u16.to_le_bytes());
        };
        out.extend(0x0403_4b50u32.to_le_bytes());
        fields(&mut out);
        out.extend(m.name.as_bytes());
        out.extend(&m.stored);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend(20u16.to_le_bytes());
        fields(&mut central);
        // Comment length, disk, internal and external attributes.
        central.extend([0u8; 10]);
        central.extend(offset.to_le_bytes());
        central.extend(m.name.as_bytes());
    }
    let at = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(at.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A zip member in LZMA (method 14) as 7-Zip and Info-ZIP write it.
fn zip_lzma(data: &[u8]) -> Vec<u8> {
    let options = lzma_rust2::LzmaOptions::default();
    let mut w = lzma_rust2::LzmaWriter::new_no_header(Vec::new(), &options, true).unwrap();
    w.write_all(data).unwrap();
    let props = w.props();
    let raw = w.finish().unwrap();
    let mut out = vec![16, 2, 5, 0, props];
    out.extend(options.dict_size.to_le_bytes());
    out.extend(raw);
    out
}

fn member<'a>(name: &'a str, method: u16, stored: Vec<u8>, data: &'a [u8]) -> ZipMember<'a> {
    ZipMember {
        name,
        method,
        flags: 0,
        stored,
        data,
    }
}

/// [`run_on`] with `--no-scores` and `extra`.
fn run_dir(files: &[(&str, Vec<u8>)], extra: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (*n, &d[..])).collect();
    let mut args = vec!["--no-scores"];
    args.extend(extra);
    run_on(&files, &args)
}

/// [`GAME`]'s moves and final position as [`game_rows`] writes them.
const GAME_ROW: &str = "3 9/9/2O3X2/9/4X4/9/9/9/9";

fn assert_no_errors(out: &Path) {
    let errors = read(out, "errors.csv");
    assert_eq!(errors.lines().count(), 1, "{errors}");
}

fn game_rows(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = rows(out, "go_games.csv")
        .into_iter()
        .map(|r| {
            let name = r["source"].rsplit('/').next().unwrap().to_string();
            format!(
                "{name} {} {} {}",
                r["member"], r["moves"], r["final_position"]
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_compression_and_archive_is_read() {
    let second = b"(;GM[1]SZ[9];B[aa];W[ii])";
    let members: &[(&str, &[u8])] = &[("g/a.sgf", GAME), ("g/b.sgf", second)];
    let plain = tar(members);
    let files = vec![
        ("t.tar.bz2", bz2(&plain)),
        ("t.tar.xz", xz(&plain)),
        ("t.tar.zst", zst(&plain)),
        ("t.tbz2", bz2(&plain)),
        ("t.txz", xz(&plain)),
        ("l.sgf.bz2", bz2(GAME)),
        ("l.sgf.xz", xz(GAME)),
        ("l.sgf.zst", zst(GAME)),
        (
            "lzma2.7z",
            sevenz(members, sevenz_rust2::EncoderMethod::LZMA2),
        ),
        (
            "bzip2.7z",
            sevenz(members, sevenz_rust2::EncoderMethod::BZIP2),
        ),
        (
            "ppmd.7z",
            sevenz(members, sevenz_rust2::EncoderMethod::PPMD),
        ),
        (
            "methods.zip",
            zip_by_hand(&[
                member("stored.sgf", 0, GAME.to_vec(), GAME),
                member("bzip2.sgf", 12, bz2(GAME), GAME),
                member("lzma.sgf", 14, zip_lzma(GAME), GAME),
                member("zstd.sgf", 93, zst(GAME), GAME),
                member("xz.sgf", 95, xz(GAME), GAME),
            ]),
        ),
    ];
    let (_tmp, out) = run_dir(&files, &[]);
    assert_no_errors(&out);
    let game = GAME_ROW;
    let other = "2 X8/9/9/9/9/9/9/9/8O";
    let mut want = Vec::new();
    for f in [
        "t.tar.bz2",
        "t.tar.xz",
        "t.tar.zst",
        "t.tbz2",
        "t.txz",
        "lzma2.7z",
        "bzip2.7z",
        "ppmd.7z",
    ] {
        want.push(format!("{f} g/a.sgf {game}"));
        want.push(format!("{f} g/b.sgf {other}"));
    }
    for f in ["l.sgf.bz2", "l.sgf.xz", "l.sgf.zst"] {
        want.push(format!("{f}  {game}"));
    }
    for m in ["stored", "bzip2", "lzma", "zstd", "xz"] {
        want.push(format!("methods.zip {m}.sgf {game}"));
    }
    want.sort();
    assert_eq!(game_rows(&out), want);
}

#[test]
fn compressed_members_and_archives_inside_archives() {
    let inner_zip = zip_by_hand(&[member("z/d.sgf.bz2", 0, bz2(GAME), &bz2(GAME))]);
    let inner_7z = sevenz(
        &[("s/e.sgf.xz", &xz(GAME))],
        sevenz_rust2::EncoderMethod::LZMA2,
    );
    let inner_tar = tar(&[("u/f.sgf.zst", &zst(GAME))]);
    let outer = tar(&[
        ("a.sgf.gz", &gz(GAME)),
        ("b.sgf.xz", &xz(GAME)),
        ("in.zip", &inner_zip),
        ("in.7z", &inner_7z),
        ("in.tar.gz", &gz(&inner_tar)),
        ("notes.pdf", b"%PDF"),
    ]);
    let zip = zip_by_hand(&[
        member("c.sgf.gz", 0, gz(GAME), &gz(GAME)),
        member("deep.tar.xz", 0, xz(&outer), &xz(&outer)),
    ]);
    let files = vec![("outer.tar.bz2", bz2(&outer)), ("outer.zip", zip)];
    let (_tmp, out) = run_dir(&files, &[]);
    assert_no_errors(&out);
    let game = GAME_ROW;
    let inside = [
        "a.sgf.gz",
        "b.sgf.xz",
        "in.zip!/z/d.sgf.bz2",
        "in.7z!/s/e.sgf.xz",
        "in.tar.gz!/u/f.sgf.zst",
    ];
    let mut want: Vec<String> = inside
        .iter()
        .map(|m| format!("outer.tar.bz2 {m} {game}"))
        .chain(
            inside
                .iter()
                .map(|m| format!("outer.zip deep.tar.xz!/{m} {game}")),
        )
        .chain([format!("outer.zip c.sgf.gz {game}")])
        .collect();
    want.sort();
    assert_eq!(game_rows(&out), want);
}

#[test]
fn bad_compression_and_archives_are_error_rows() {
    let plain = tar(&[("g/a.sgf", GAME)]);
    let cut = |v: Vec<u8>| v[..v.len() * 2 / 3].to_vec();
    let flipped = |mut v: Vec<u8>| {
        let n = v.len();
        for b in &mut v[n / 3..n * 2 / 3] {
            *b ^= 0x5a;
        }
        v
    };
    let seven = sevenz(&[("g/a.sgf", GAME)], sevenz_rust2::EncoderMethod::LZMA2);
    // Nine layers of gzip: a nesting bomb.
    let mut nested = GAME.to_vec();
    for _ in 0..9 {
        nested = gz(&nested);
    }
    let mut encrypted = member("secret.sgf", 0, GAME.to_vec(), GAME);
    encrypted.flags = 1;
    let files = vec![
        ("cut.sgf.xz", cut(xz(GAME))),
        ("cut.tar.zst", cut(zst(&plain))),
        ("bad.tar.bz2", flipped(bz2(&plain))),
        ("cut.7z", cut(seven.clone())),
        ("bad.7z", flipped(seven)),
        (
            "not.7z",
            b"7z, or so the name says: this is only text".to_vec(),
        ),
        ("nested.sgf.gz", nested),
        (
            "members.zip",
            zip_by_hand(&[
                member("crc.sgf", 0, b"(;B[aa])".to_vec(), b"(;B[bb])"),
                member("deflate64.sgf", 9, GAME.to_vec(), GAME),
                member("badlzma.sgf", 14, vec![9, 9, 9], GAME),
                encrypted,
            ]),
        ),
    ];
    let (_tmp, out) = run_dir(&files, &[]);
    let got = all_rows(&out);
    let has = |prefix: &str| got.iter().any(|r| r.starts_with(prefix));
    for want in [
        "bad.7z   archive ",
        "bad.tar.bz2 ",
        "cut.7z   archive not a readable 7z archive: its header lies past the end of the file",
        "cut.sgf.xz   ",
        "cut.tar.zst ",
        "members.zip crc.sgf  read read error: corrupt zip member: its CRC-32 is 6fae889b, the archive gives 7f5d992c",
        "members.zip deflate64.sgf  archive zip member 2 cannot be read: its compression method, Deflate64 (9), is not supported",
        "members.zip badlzma.sgf  archive zip member 3 cannot be read: its LZMA header cannot be read",
        "members.zip secret.sgf  archive zip member 4 cannot be read: it is encrypted",
        "nested.sgf.gz   archive more than 8 layers of compression and archives one inside another",
        "not.7z   archive not a readable 7z archive: no 7z signature",
    ] {
        assert!(has(want), "no row {want:?} in {got:#?}");
    }
    // No file gives a game: a small member's CRC-32 is checked before its
    // games are read (a large one's at its end, after them).
    assert!(
        got.iter().all(|r| r.split(' ').nth(3) != Some("game")),
        "{got:#?}"
    );
}

/// A 7z file of 45 bytes whose plain header claims 2^36 files: the
/// reader would allocate 6 TB for them and abort the run.
fn sevenz_header_bomb() -> Vec<u8> {
    let header = [0x01, 0x05, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0];
    let mut next = vec![0; 8];
    next.extend((header.len() as u64).to_le_bytes());
    next.extend(crc32fast::hash(&header).to_le_bytes());
    let mut file = b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec();
    file.extend(crc32fast::hash(&next).to_le_bytes());
    file.extend(next);
    file.extend(header);
    file
}

#[test]
fn a_7z_header_bomb_is_an_error_row_and_the_run_goes_on() {
    let good = sevenz(&[("g/a.sgf", GAME)], sevenz_rust2::EncoderMethod::LZMA2);
    let files = vec![("bomb.7z", sevenz_header_bomb()), ("good.7z", good)];
    let (_tmp, out) = run_dir(&files, &[]);
    let errors = rows(&out, "errors.csv");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0]["source"].ends_with("bomb.7z"));
    assert_eq!(
        errors[0]["reason"],
        "not a readable 7z archive: it states 68719476736 files, more than its header's 13 bytes could list"
    );
    assert_eq!(game_rows(&out), [format!("good.7z g/a.sgf {GAME_ROW}")]);
}

#[test]
fn decompression_bombs_stop_at_the_limit() {
    // 64 MiB of spaces: about 50 bytes of bzip2, 64 KiB of gzip.
    let spaces = vec![b' '; 64 << 20];
    let bomb_tar = tar(&[("g/a.sgf", GAME), ("g/bomb.sgf", &spaces)]);
    let files = vec![
        ("bomb.sgf.bz2", bz2(&spaces)),
        ("bomb.tar.gz", gz(&bomb_tar)),
        (
            "bomb.zip",
            zip_by_hand(&[member("z/bomb.sgf.xz", 0, xz(&spaces), &xz(&spaces))]),
        ),
    ];
    let (_tmp, out) = run_dir(&files, &["--max-game-mib", "1"]);
    let got = all_rows(&out);
    // The member the bomb is found in, and the rest of its archive.
    assert_eq!(got.len(), 5, "{got:#?}");
    for (row, want) in got.iter().zip([
        "bomb.sgf.bz2   read read error: decompression bomb: ",
        "bomb.tar.gz   archive corrupt or unreadable tar archive after member 2 'g/bomb.sgf': decompression bomb: ",
        "bomb.tar.gz g/a.sgf 1 game",
        "bomb.tar.gz g/bomb.sgf  read read error: decompression bomb: ",
        "bomb.zip z/bomb.sgf.xz  read read error: decompression bomb: ",
    ]) {
        assert!(row.starts_with(want), "{row} is not {want}");
    }
}
