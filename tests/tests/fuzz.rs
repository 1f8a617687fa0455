//! Property tests over every reader, on stable Rust (`proptest`): random
//! and SGF-shaped bytes never panic a reader, and through the pipeline
//! (`ingest` reading a file, `process` on each unit), for random bytes and
//! for real records of every format damaged, every unit ends as
//! exactly one game, one match or one error row, and every file as at
//! least one unit or a skip.
//!
//! Memory is bounded by assertion instead of a counting allocator (the
//! tests share one binary, where a global allocator would count the other
//! tests' threads too): each unit holds at most `--max-game-mib` bytes, and
//! a record's events are at most the board's points per node plus its
//! moves.

use super::util::every_analysis;
use proptest::prelude::*;
use recount::commands::run::process;
use recount::ingest::{read_entry, Entry, Payload, Progress, Translated};
use std::sync::atomic::Ordering;
use std::sync::Arc;

const MAX_GAME_BYTES: u64 = 64 << 10;

/// SGF-looking bytes: tokens of the format in random order.
fn sgf_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(&b"("[..]),
        Just(&b")"[..]),
        Just(&b";"[..]),
        Just(&b"GM[1]"[..]),
        Just(&b"GM[6]"[..]),
        Just(&b"SZ[9]"[..]),
        Just(&b"SZ[52]"[..]),
        Just(&b"SZ[]"[..]),
        Just(&b"HA[2]"[..]),
        Just(&b"KM[6.5]"[..]),
        Just(&b"RE[B+1e400]"[..]),
        Just(&b"AB[aa:ZZ]"[..]),
        Just(&b"AW[aa:ii]"[..]),
        Just(&b"AE[cc]"[..]),
        Just(&b"B[ee]"[..]),
        Just(&b"W[tt]"[..]),
        Just(&b"B[]"[..]),
        Just(&b"TB[aa:cc]"[..]),
        Just(&b"C[a \\] b]"[..]),
        Just(&b"["[..]),
        Just(&b"]"[..]),
        Just(&b"\\"[..]),
        Just(&b"MI[length:3][game:0][ws:0][bs:0]"[..]),
        Just(&b"W[31hefe]"[..]),
        Just(&b"B[double]"[..]),
        Just(&b"\xff\x00"[..]),
    ];
    prop::collection::vec(token, 0..60).prop_map(|ts| ts.concat())
}

/// `.mat`-looking text: lines of the format in random order.
fn mat_bytes() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        Just("; [Player 1 \"a\"]"),
        Just(" 5 point match"),
        Just(" Game 1"),
        Just(" Game 2"),
        Just(" a : 0                              b : 0"),
        Just("  1) 31: 8/5 6/5                    64: 24/18 18/14"),
        Just("  2) 52: 13/8 13/11                 Doubles => 2"),
        Just("  3)  Takes                          11: 6/5*(2) 8/7(2)"),
        Just("  4) Wins 2 points"),
        Just("  5) 66: bar/off"),
        Just("junk ( ; ["),
        Just(""),
    ];
    prop::collection::vec(line, 0..30).prop_map(|ls| ls.join("\n").into_bytes())
}

/// Real records of every format a run reads, to damage: bytes changed,
/// cut out, written twice, the file cut short.
const REAL: [(&str, &[u8]); 14] = [
    (
        "a.txt",
        include_bytes!("../../fixtures/bg/real/match3029786.txt"),
    ),
    (
        "a.mat",
        include_bytes!("../../fixtures/bg/money/match10013413-money.mat"),
    ),
    (
        "a.mat",
        include_bytes!("../../fixtures/bg/xg/charlot-xg-export.mat"),
    ),
    (
        "a.xg",
        include_bytes!("../../fixtures/bg/xg/charlot1-charlot2_7p_2025-11-08-2305.xg"),
    ),
    (
        "a.xgp",
        include_bytes!("../../fixtures/bg/xg/charlot-game2-play10.xgp"),
    ),
    (
        "a.bgf",
        include_bytes!("../../fixtures/bg/bgf/match10013413-money-bgfparser.bgf"),
    ),
    (
        "a.fibs",
        include_bytes!("../../fixtures/bg/fibs/charlot1-charlot2_7p_2025-11-08-2305.fibs"),
    ),
    (
        "a.sgg",
        include_bytes!("../../fixtures/bg/sgg/charlot1-charlot2_7p_2025-11-08-2305.sgg"),
    ),
    (
        "a.tmg",
        include_bytes!("../../fixtures/bg/tmg/match11034798-money.tmg"),
    ),
    (
        "a.txt",
        include_bytes!("../../fixtures/bg/snowie/charlot-game3-roll14.txt"),
    ),
    (
        "a.sgf",
        include_bytes!("../../fixtures/go/clamshell/2019-04-30-12.sgf"),
    ),
    (
        "a.sgf",
        include_bytes!("../../fixtures/go/gnugo/seki_score.sgf"),
    ),
    (
        "a.sgf",
        include_bytes!("../../fixtures/go/kgs/2001-01-12-2.sgf"),
    ),
    (
        "a.ugf",
        include_bytes!("../../fixtures/go/formats/walls-9x9.ugf"),
    ),
];

/// Checks one unit's outcome through the pipeline and returns it.
fn check_units(path: &std::path::Path, named: bool) -> usize {
    let progress = Arc::new(Progress::default());
    let entry = Entry {
        path: path.to_path_buf(),
        problem: None,
        named,
        data: None,
        skip: false,
    };
    let mut settings = every_analysis(MAX_GAME_BYTES, 4, false);
    // The play analysis too: its inputs are the replay's, malformed or not.
    settings.bg.plays = true;
    let mut units = 0usize;
    read_entry(&entry, settings.limits, None, &progress, &mut |unit| {
        units += 1;
        // A unit holds at most the limit (a match, a tree) or a reason.
        assert!(unit.payload_bytes() <= MAX_GAME_BYTES + 4096);
        if let Payload::Tree(b) | Payload::Translated(_, Translated { sgf: b, .. }) = &unit.payload
        {
            if let Ok(tree) = recount::sgf::reader::parse_tree(b) {
                if let Ok(rec) = recount::go::record::read_record(&tree) {
                    let board = rec.width as usize * rec.height as usize;
                    assert!(rec.events.len() <= tree.node_count() * (board + 1) + tree.props.len());
                }
            }
        }
        let (rows, tally) = process(&unit, &settings);
        assert_eq!(tally.games + tally.matches + tally.errors, 1, "{unit:?}");
        let errors =
            String::from_utf8_lossy(rows.bytes(recount::report::Table::Errors)).into_owned();
        assert!(!errors.contains(",internal,"), "{errors}");
        true
    });
    let skipped = progress.skipped.load(Ordering::Relaxed) as usize;
    assert!(units > 0 || skipped > 0, "{} gave no unit", path.display());
    units
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn sgf_split_parse_record_never_panic(bytes in sgf_bytes()) {
        let mut trees = Vec::new();
        recount::sgf::split::split_trees(&bytes[..], MAX_GAME_BYTES, |c| {
            if let recount::sgf::split::Chunk::Tree(t) = c {
                trees.push(t);
            }
            true
        })
        .unwrap();
        for t in &trees {
            if let Ok(tree) = recount::sgf::reader::parse_tree(t) {
                let _ = recount::go::record::read_record(&tree);
            }
            let _ = recount::sgf::strict::check(t);
        }
    }

    #[test]
    fn match_readers_never_panic(mat in mat_bytes(), sgf in sgf_bytes(), noise in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = recount::bg::format::mat::read_mat(&mat);
        let _ = recount::bg::format::mat::read_mat(&noise);
        let _ = recount::bg::format::sgf::read_bg_sgf(&sgf);
        let _ = recount::bg::format::sgf::read_bg_sgf(&noise);
        let _ = recount::bg::format::xg::read_xg(&noise);
        let _ = recount::bg::format::fibs::read_oldmoves(&mat);
        let _ = recount::bg::format::fibs::read_oldmoves(&[&b"Score is 1-2 in a 3 point match.\n"[..], &noise].concat());
        let _ = recount::bg::format::xg::read_xg(&[&b"RGMH"[..], &noise].concat());
        let _ = recount::bg::format::sgg::read_sgg(&[&b"a vs. b\nGame 1. 0-0/3\n1\t"[..], &noise].concat());
        let _ = recount::bg::format::sgg::read_sgg(&mat);
        let _ = recount::bg::format::tmg::read_tmg(&[&b"Game 1: 0-0\n -1 "[..], &noise].concat());
        let _ = recount::bg::format::tmg::read_tmg(&mat);
        let _ = recount::bg::format::snowie::read_snowie_txt(&noise);
        let _ = recount::bg::format::bgf::read_bgf(&noise);
        let _ = recount::bg::format::bgf::read_bgf(&[&br#"{"compression":"none","encoding":"smile"}"#[..], b"\n:)\n\x03", &noise].concat());
        let _ = recount::bg::format::bgf::read_bgf(&[&br#"{"compression":"gzip"}"#[..], b"\n\x1f\x8b\x08\0\0\0\0\0", &noise].concat());
        let _ = recount::bg::format::bgf::read_bgf(&[&b"{}\n"[..], &mat].concat());
        let _ = recount::bg::format::smile::decode(&[&b":)\n\x03"[..], &noise].concat());
        let _ = recount::bg::format::snowie::read_snowie_txt(&[&b"7;0;0;0;1;a;b;0;1;2;1;0;"[..], &noise].concat());
        let _ = recount::bg::format::bgblitz::read_bgblitz_txt(&noise);
        let _ = recount::bg::format::bgblitz::read_bgblitz_txt(&[&b" +13-14-15-16-17-18------19-20-21-22-23-24-+   O: a  1\n |"[..], &noise].concat());
        let _ = recount::bg::format::xgtext::read_xg_txt(&noise);
        let _ = recount::bg::format::xgtext::read_xg_txt(&[&b"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10\nX:a   O:b\nScore is X:"[..], &noise].concat());
    }

    #[test]
    fn diagrams_never_panic(rows in prop::collection::vec("[.XOxo1-9 $|+-]{0,12}", 0..12)) {
        let _ = recount::go::record::diagram::parse(&rows.join("\n"));
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn every_file_ends_as_rows_or_error_rows(
        kind in 0usize..21,
        sgf in sgf_bytes(),
        mat in mat_bytes(),
        noise in prop::collection::vec(any::<u8>(), 0..300),
        cut in any::<prop::sample::Index>(),
        named in any::<bool>(),
    ) {
        use std::io::Write;
        let tmp = tempfile::tempdir().unwrap();
        // Compressed SGF cut anywhere, or with one byte changed.
        let damaged = |mut b: Vec<u8>| {
            let i = cut.index(b.len().max(1));
            if kind % 2 == 0 { b.truncate(i) } else if let Some(x) = b.get_mut(i) { *x ^= 0xa5 }
            b
        };
        let xz = |b: &[u8]| {
            let mut e = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::default()).unwrap();
            e.write_all(b).unwrap();
            e.finish().unwrap()
        };
        let bz2 = |b: &[u8]| {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(b).unwrap();
            e.finish().unwrap()
        };
        let zst = |b: &[u8]| ruzstd::encoding::compress_to_vec(b, ruzstd::encoding::CompressionLevel::Fastest);
        let (name, bytes): (&str, Vec<u8>) = match kind {
            0 => ("a.sgf", sgf),
            1 => ("a.mat", mat),
            2 => ("a.txt", mat),
            3 => ("a.sgf.gz", noise),
            4 => ("a.tar", noise),
            5 => ("a.zip", noise),
            6 => ("a.tar.gz", noise),
            7 => ("a.7z", noise),
            8 => ("a.sgf.xz", damaged(xz(&sgf))),
            9 => ("a.sgf.bz2", damaged(bz2(&sgf))),
            10 => ("a.sgf.zst", damaged(zst(&sgf))),
            11 => ("a.tar.xz", damaged(xz(&noise))),
            12 => {
                let mut w = sevenz_rust2::ArchiveWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
                w.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file("g.sgf"), Some(&sgf[..])).unwrap();
                ("a.7z", damaged(w.finish().unwrap().into_inner()))
            }
            13 => ("a.xg", [&b"RGMH"[..], &noise].concat()),
            // The other Go servers' formats, cut anywhere or a byte changed.
            15 => ("a.gib", damaged(include_bytes!("../../fixtures/go/formats/walls-19x19.gib").to_vec())),
            16 => ("a.json", damaged(include_bytes!("../../fixtures/go/formats/walls-9x9.json").to_vec())),
            17 => ("a.ugf", damaged(include_bytes!("../../fixtures/go/formats/walls-9x9.ugf").to_vec())),
            18 => ("a.ngf", damaged(include_bytes!("../../fixtures/go/formats/walls-9x9.ngf").to_vec())),
            // BGBlitz's and XG's text positions, cut anywhere or a byte changed.
            19 => ("a.txt", damaged(include_bytes!("../../fixtures/bg/bgblitz/05_NRT_JP.txt").to_vec())),
            20 => ("a.txt", damaged(include_bytes!("../../fixtures/bg/xgtext/04_DP_FR.txt").to_vec())),
            _ => ("a.tar.zst", damaged(zst(&noise))),
        };
        let path = tmp.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        check_units(&path, named);
    }

    #[test]
    fn real_records_damaged_end_as_rows(
        file in 0usize..REAL.len(),
        edits in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<u8>()), 1..6),
        named in any::<bool>(),
    ) {
        let (name, original) = REAL[file];
        let mut b = original.to_vec();
        for (op, at, from, byte) in edits {
            let i = at.index(b.len().max(1));
            match op {
                0 => if let Some(x) = b.get_mut(i) { *x = byte },
                1 => { b.drain(i.min(b.len())..(i + 1 + byte as usize % 64).min(b.len())); }
                2 => {
                    // A piece of the file written again elsewhere.
                    let j = from.index(b.len().max(1)).min(b.len());
                    let piece = b[j..(j + 1 + byte as usize).min(b.len())].to_vec();
                    b.splice(i.min(b.len())..i.min(b.len()), piece);
                }
                _ => b.truncate(i),
            }
        }
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(name);
        std::fs::write(&path, &b).unwrap();
        check_units(&path, named);
    }

    #[test]
    fn archives_of_random_members_end_as_rows(
        members in prop::collection::vec((0usize..3, sgf_bytes(), any::<bool>()), 0..4),
        cut in any::<prop::sample::Index>(),
        zip in any::<bool>(),
    ) {
        use std::io::Write;
        let tmp = tempfile::tempdir().unwrap();
        let names = ["m.sgf", "m.mat", "m.sgf.gz"];
        let path = tmp.path().join(if zip { "a.zip" } else { "a.tar" });
        let data = |kind: usize, bytes: &[u8], gz: bool| {
            if kind == 2 || gz {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            } else {
                bytes.to_vec()
            }
        };
        let mut out = if zip {
            let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (i, (kind, bytes, gz)) in members.iter().enumerate() {
                z.start_file(format!("{i}/{}", names[*kind]), zip::write::SimpleFileOptions::default()).unwrap();
                z.write_all(&data(*kind, bytes, *gz)).unwrap();
            }
            z.finish().unwrap().into_inner()
        } else {
            let mut b = tar::Builder::new(Vec::new());
            for (i, (kind, bytes, gz)) in members.iter().enumerate() {
                let d = data(*kind, bytes, *gz);
                let mut h = tar::Header::new_gnu();
                h.set_size(d.len() as u64);
                h.set_mode(0o644);
                b.append_data(&mut h, format!("{i}/{}", names[*kind]), &d[..]).unwrap();
            }
            b.into_inner().unwrap()
        };
        // Whole, or cut anywhere.
        std::fs::write(&path, &out).unwrap();
        check_units(&path, true);
        if !out.is_empty() {
            out.truncate(cut.index(out.len()));
            std::fs::write(&path, &out).unwrap();
            check_units(&path, true);
        }
    }
}
