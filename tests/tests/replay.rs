//! Whole runs on the bundled fixtures: replay checked against GNU Go.

use super::util::*;
use std::collections::HashMap;

/// Captures and final positions of every fixture game agree with GNU Go 3.8
/// (`fixtures/expected/gnugo-replay.csv`, made by
/// `scripts/derive-replay-oracle.sh`).
#[test]
fn fixtures_agree_with_gnu_go() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(&["fixtures/go"], tmp.path(), "");
    assert!(out.status.success(), "{}", stderr(&out));
    // The other servers' formats are checked against their SGF twins
    // (`goformats.rs`); GNU Go reads only SGF.
    let got: HashMap<String, _> = rows(tmp.path(), "go_games.csv")
        .into_iter()
        .filter(|r| !r["source"].starts_with("fixtures/go/formats/"))
        .map(|r| (r["source"].clone(), r))
        .collect();
    let expected = csv::Reader::from_path(repo().join("fixtures/expected/gnugo-replay.csv"))
        .unwrap()
        .into_records()
        .map(|r| r.unwrap())
        .collect::<Vec<_>>();
    assert!(expected.len() >= 40);
    for e in &expected {
        let g = got
            .get(&e[0])
            .unwrap_or_else(|| panic!("no row for {}", &e[0]));
        assert_eq!(g["captures_by_black"], e[1], "{}", &e[0]);
        assert_eq!(g["captures_by_white"], e[2], "{}", &e[0]);
        assert_eq!(g["final_position"], e[3], "{}", &e[0]);
        assert_eq!(g["illegal_moves"], "0", "{}", &e[0]);
    }
    assert_eq!(got.len(), expected.len());
    assert_eq!(read(tmp.path(), "errors.csv").lines().count(), 1);
}

/// Hand-checked facts of real games.
#[test]
fn real_game_details() {
    let tmp = tempfile::tempdir().unwrap();
    run(&["fixtures/go"], tmp.path(), "");
    let rows: HashMap<String, _> = rows(tmp.path(), "go_games.csv")
        .into_iter()
        .map(|r| (r["source"].clone(), r))
        .collect();
    let g = &rows["fixtures/go/kgs/2001-02-01-2.sgf"];
    assert_eq!(
        (g["handicap"].as_str(), g["handicap_stones"].as_str()),
        ("9", "9")
    );
    assert_eq!(g["passes"], "21");
    let g = &rows["fixtures/go/kgs/2003-12-27-26.sgf"];
    assert_eq!(
        (
            g["result_kind"].as_str(),
            g["result_winner"].as_str(),
            g["result_margin"].as_str()
        ),
        ("score", "B", "12.5")
    );
    assert_eq!(
        rows["fixtures/go/kgs/2003-02-03-5.sgf"]["result_kind"],
        "void"
    );
    assert_eq!(
        rows["fixtures/go/kgs/2003-07-18-6.sgf"]["result_kind"],
        "time"
    );
    assert!(rows["fixtures/go/kgs/2001-07-09-1.sgf"]["notes"].contains("HA[2] without AB"));
    // The GNU Go game ends with `tt` passes on 13×13.
    let g = &rows["fixtures/go/gnugo/GAGN2.sgf"];
    assert_eq!(g["board_size"], "13");
    assert!(g["passes"].parse::<u32>().unwrap() >= 3);
    assert!(rows["fixtures/go/gnugo/malitourne-yagr.sgf"]["variations_ignored"] != "0");
    assert_eq!(
        rows["fixtures/go/gnugo/GNU-HISOKA10.sgf"]["territory_markup"],
        "true"
    );
}

/// SGF features from old and foreign files, in one collection.
#[test]
fn messy_sgf_collection() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("messy.sgf");
    let mut data = Vec::new();
    // 1: FF[3] long names, lower case, tt pass, variation.
    data.extend_from_slice(b"(;FF[3]GaMe[1]SiZe[9]KoMi[5.5]\n;b[ee];W[tt](;B[cc])(;B[gg]))\n");
    // 2: rectangular board, setup mid-game, AE, compressed point list.
    data.extend_from_slice(b"(;SZ[13:2]AB[aa:ba];W[ca];AE[aa]AW[ab];B[])\n");
    // 3: GB2312 names, Chinese result, 25x25.
    data.extend_from_slice(
        b"(;CA[GB2312]SZ[25]PB[\xba\xda]RE[\xba\xda\xd6\xd0\xc5\xcc\xca\xa4];B[yy])",
    );
    std::fs::write(&f, data).unwrap();
    let out = run(&[f.to_str().unwrap()], &tmp.path().join("out"), "");
    assert!(out.status.success());
    let r = rows(&tmp.path().join("out"), "go_games.csv");
    assert_eq!(r.len(), 3);
    assert_eq!(
        (r[0]["moves"].as_str(), r[0]["passes"].as_str()),
        ("3", "1")
    );
    assert_eq!(r[0]["variations_ignored"], "1");
    assert_eq!(r[0]["final_position"], "9/9/2X6/9/4X4/9/9/9/9");
    assert_eq!(r[1]["board_size"], "13:2");
    assert_eq!(r[1]["final_position"], "1XO10/O12");
    assert_eq!(r[2]["charset"], "GBK");
    assert_eq!(r[2]["black"], "黑");
    assert_eq!(
        (r[2]["result_kind"].as_str(), r[2]["result_winner"].as_str()),
        ("resign", "B")
    );
    assert_eq!(
        r.iter().map(|r| r["game"].as_str()).collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
}

/// recount's tolerant reader and the strict `sgf-parse` crate read the same
/// main line (colours, points, passes) from every fixture game that
/// sgf-parse accepts.
#[test]
fn reader_agrees_with_sgf_parse() {
    use recount::go::board::Color;
    use recount::go::record::{read_record, Event, MoveAt};
    use sgf_parse::go::{Move, Prop};
    let mut checked = 0;
    for dir in ["kgs", "gnugo", "clamshell"] {
        for f in std::fs::read_dir(repo().join("fixtures/go").join(dir)).unwrap() {
            let path = f.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            let Ok(theirs) = sgf_parse::go::parse(text) else {
                continue;
            };
            let tree = recount::sgf::reader::parse_tree(&bytes).unwrap();
            let rec = read_record(&tree).unwrap();
            let (w, h) = (rec.width, rec.height);
            let ours: Vec<String> = rec
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Move { color, at } => Some(match at {
                        MoveAt::Pass => format!("{color:?} pass"),
                        MoveAt::Point(x, y) => format!("{color:?} {x},{y}"),
                        MoveAt::OffBoard(v) => format!("{color:?} off {v}"),
                    }),
                    _ => None,
                })
                .collect();
            let theirs: Vec<String> = theirs[0]
                .main_variation()
                .filter_map(|n| n.get_move())
                .map(|p| {
                    let (color, m) = match p {
                        Prop::B(m) => (Color::Black, m),
                        Prop::W(m) => (Color::White, m),
                        _ => unreachable!(),
                    };
                    match m {
                        Move::Pass => format!("{color:?} pass"),
                        // FF[3] and earlier: tt is a pass on boards up to 19×19.
                        Move::Move(p) if p.x == 19 && p.y == 19 && w <= 19 && h <= 19 => {
                            format!("{color:?} pass")
                        }
                        Move::Move(p) => format!("{color:?} {},{}", p.x, p.y),
                    }
                })
                .collect();
            assert_eq!(ours, theirs, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} fixtures checked");
}
