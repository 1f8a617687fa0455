//! The other programs' and servers' match files: eXtreme Gammon's `.xg` /
//! `.xgp`, BGBlitz's `.bgf`, FIBS oldmoves logs, GamesGrid `.sgg` and
//! TrueMoneyGames `.tmg` logs replay as the `.mat` they were written from, with GNU Backgammon's
//! IDs at every play (gnubg imports the oldmoves, `.sgg` and `.tmg` logs
//! itself), the XG reader agrees with another program's
//! reading of the same bytes (xgdatatools,
//! `fixtures/expected/xg-records.csv`), and XG's own analysis reaches the
//! reports.

use super::backgammon::{ids_agree_with_gnubg, Row};
use super::util::{csv_file, repo, rows, run, stderr};
use recount::bg::format::xg::read_xg;
use recount::bg::game::record::Action;
use recount::bg::position::ids::match_state_from_id;

const CHARLOT_MAT: &str = "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat";
const CHARLOT_XG: &str = "fixtures/bg/xg/charlot1-charlot2_7p_2025-11-08-2305.xg";
const CHARLOT_XG_MAT: &str = "fixtures/bg/xg/charlot-xg-export.mat";
const MONEY_MAT: &str = "fixtures/bg/money/match11034798-money.mat";
const MONEY_XG: &str = "fixtures/bg/xg/match11034798-money.xg";
const CHARLOT_FIBS: &str = "fixtures/bg/fibs/charlot1-charlot2_7p_2025-11-08-2305.fibs";
const CHARLOT_SGG: &str = "fixtures/bg/sgg/charlot1-charlot2_7p_2025-11-08-2305.sgg";
const CHARLOT_TMG: &str = "fixtures/bg/tmg/charlot1-charlot2_7p_2025-11-08-2305.tmg";
const MONEY_TMG: &str = "fixtures/bg/tmg/match11034798-money.tmg";
const MONEY2_MAT: &str = "fixtures/bg/money/match10013413-money.mat";
const CHARLOT_BGF: &str = "fixtures/bg/bgf/charlot1-charlot2_7p_2025-11-08-2305.bgf";
const MONEY_BGF: &str = "fixtures/bg/bgf/match11034798-money.bgf";
const MONEY2_BGF: &str = "fixtures/bg/bgf/match10013413-money-bgfparser.bgf";
const SNOWIE: [&str; 2] = [
    "fixtures/bg/snowie/charlot-game3-roll14.txt",
    "fixtures/bg/snowie/charlot-game3-roll15.txt",
];

/// The rows of `table` from a run on `file` with `args`.
fn report(file: &str, args: &[&str], table: &str) -> Vec<Row> {
    let out = tempfile::tempdir().unwrap();
    let mut all = vec![file];
    all.extend_from_slice(args);
    let o = run(&all, out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty(), "{file}");
    rows(out.path(), table)
}

/// Every column but those in `skip` is the same, row by row.
fn same_rows(a: &[Row], b: &[Row], skip: &[&str]) {
    assert_eq!(a.len(), b.len());
    assert!(!a.is_empty());
    for (x, y) in a.iter().zip(b) {
        for (col, v) in x {
            if !skip.contains(&col.as_str()) {
                assert_eq!(v, &y[col], "{col}: {x:?}");
            }
        }
    }
}

#[test]
fn files_replay_as_the_mat_they_were_written_from() {
    for (xg, mat) in [
        (CHARLOT_XG, CHARLOT_MAT),
        (MONEY_XG, MONEY_MAT),
        (CHARLOT_FIBS, CHARLOT_MAT),
        (CHARLOT_SGG, CHARLOT_MAT),
        (CHARLOT_TMG, CHARLOT_MAT),
        (MONEY_TMG, MONEY_MAT),
        (CHARLOT_BGF, CHARLOT_MAT),
        (MONEY_BGF, MONEY_MAT),
        (MONEY2_BGF, MONEY2_MAT),
    ] {
        let (a, b) = (
            report(xg, &["--positions"], "bg_games.csv"),
            report(mat, &["--positions"], "bg_games.csv"),
        );
        // The keys name the file.
        same_rows(&a, &b, &["source", "format", "game_key", "file_key"]);
        assert!(a.iter().all(|g| g["format"] != "mat"));
        let (a, b) = (
            report(xg, &["--positions"], "bg_positions.csv"),
            report(mat, &["--positions"], "bg_positions.csv"),
        );
        // `line` is the record's number in the .xg, the line's in the .mat.
        same_rows(&a, &b, &["source", "line", "game_key", "file_key"]);
    }
}

/// XG's `.mat` export: its tag header over the Jellyfish body.
#[test]
fn an_xg_mat_export_reads_as_the_match() {
    let (a, b) = (
        report(CHARLOT_XG_MAT, &["--positions"], "bg_games.csv"),
        report(CHARLOT_MAT, &["--positions"], "bg_games.csv"),
    );
    same_rows(&a, &b, &["source", "game_key", "file_key"]);
    let ours = report(CHARLOT_XG_MAT, &["--positions"], "bg_positions.csv");
    // The same body as the gnubg export: gnubg's import of that.
    let checked = ids_agree_with_gnubg(&ours, |_| Some(CHARLOT_MAT.to_string()));
    assert!(checked > 150, "only {checked} positions checked");
}

#[test]
fn xg_position_and_match_ids_agree_with_gnubg() {
    let ours = report(CHARLOT_XG, &["--positions"], "bg_positions.csv");
    // gnubg imports the .mat the file was written from.
    let checked = ids_agree_with_gnubg(&ours, |_| Some(CHARLOT_MAT.to_string()));
    assert!(checked > 150, "only {checked} positions checked");
}

#[test]
fn bgf_position_and_match_ids_agree_with_gnubg() {
    let ours = report(CHARLOT_BGF, &["--positions"], "bg_positions.csv");
    // gnubg imports the .mat the file was written from.
    let checked = ids_agree_with_gnubg(&ours, |_| Some(CHARLOT_MAT.to_string()));
    assert!(checked > 150, "only {checked} positions checked");
}

#[test]
fn logs_ids_agree_with_gnubgs_import_of_the_log() {
    for log in [CHARLOT_FIBS, CHARLOT_SGG, CHARLOT_TMG, MONEY_TMG] {
        let ours = report(log, &["--positions"], "bg_positions.csv");
        let checked = ids_agree_with_gnubg(&ours, |s| Some(s.to_string()));
        assert!(checked > 150, "{log}: only {checked} positions checked");
    }
}

/// Every record xgdatatools decodes, as recount's reader reads it.
#[test]
fn xg_reader_agrees_with_xgdatatools() {
    let oracle = csv_file(&repo().join("fixtures/expected/xg-records.csv"));
    let mut checked = 0;
    let mut file = String::new();
    let mut m = None;
    for o in &oracle {
        if o["file"] != file {
            file = o["file"].clone();
            m = Some(read_xg(&std::fs::read(repo().join(&file)).unwrap()).unwrap());
        }
        let m = m.as_ref().unwrap();
        let line: u32 = o["record"].parse().unwrap();
        let acts: Vec<&Action> = m
            .games
            .iter()
            .flat_map(|g| &g.actions)
            .filter(|(l, _)| *l == line)
            .map(|(_, a)| a)
            .collect();
        let num = |c: &str| o[c].parse::<f64>().unwrap();
        match o["type"].as_str() {
            "match" => {
                // 99999: a money session.
                let length = if o["a"] == "99999" { "0" } else { &o["a"] };
                assert_eq!(m.length.to_string(), length, "{o:?}");
                let b: Vec<&str> = o["b"].split('|').collect();
                assert_eq!([m.players[0].as_str(), m.players[1].as_str()], [b[0], b[1]]);
                let flags = |t: &str| u8::from(m.tag_flag(t) == Some(true)).to_string();
                assert_eq!(
                    [flags("Crawford"), flags("Jacoby"), flags("Beaver")].concat(),
                    b[2]
                );
            }
            "game" => {
                let g = m
                    .games
                    .iter()
                    .find(|g| g.number.to_string() == o["a"])
                    .unwrap();
                let s = g.score.unwrap();
                assert_eq!(format!("{}-{}", s[0], s[1]), o["b"], "{o:?}");
            }
            "move" => {
                let Action::Roll {
                    player,
                    dice,
                    steps,
                    ..
                } = acts[0]
                else {
                    panic!("{o:?}: {acts:?}");
                };
                assert_eq!(player.to_string(), o["player"], "{o:?}");
                assert_eq!(format!("{}{}", dice.0, dice.1), o["a"], "{o:?}");
                let pairs: Vec<i32> = o["b"].split(' ').map(|v| v.parse().unwrap()).collect();
                let ends = pairs.chunks(2).take_while(|p| p[0] != -1).count();
                assert_eq!(steps.len(), ends, "{o:?}");
                for (s, p) in steps.iter().zip(pairs.chunks(2)) {
                    let from = if p[0] == 24 { 25 } else { p[0] + 1 };
                    let to = if p[1] == -1 { 0 } else { p[1] + 1 };
                    assert_eq!((i32::from(s.from), i32::from(s.to)), (from, to), "{o:?}");
                }
                let mut xg = m.games.iter().flat_map(|g| &g.xg_plays);
                let a = xg.find(|a| a.node == line);
                // The oracle writes six decimals.
                let near = |v: Option<f64>, c: &str| v.is_some_and(|v| (v - num(c)).abs() < 1e-6);
                assert!(near(a.and_then(|a| a.error), "error"), "{o:?}");
                assert!(near(a.and_then(|a| a.luck), "luck"), "{o:?}");
            }
            "cube" if o["a"] == "1" => {
                assert!(
                    matches!(acts[0], Action::Double { player, .. } if player.to_string() == o["player"]),
                    "{o:?}: {acts:?}"
                );
                let answer = match o["b"].as_str() {
                    "0" => matches!(acts.get(1), Some(Action::Drop { .. })),
                    "1" => matches!(acts.get(1), Some(Action::Take { .. })),
                    _ => acts.len() == 1,
                };
                assert!(answer, "{o:?}: {acts:?}");
            }
            "cube" => assert!(acts.is_empty(), "{o:?}: {acts:?}"),
            "game_end" => {
                let Action::Wins { player, points, .. } = acts[0] else {
                    panic!("{o:?}: {acts:?}");
                };
                assert_eq!(
                    (player.to_string(), points.to_string()),
                    (o["player"].clone(), o["a"].clone()),
                    "{o:?}"
                );
            }
            _ => {}
        }
        checked += 1;
    }
    assert!(checked > 700, "{checked}");
}

/// XG's figures stand beside recount's on the rows of plays and cube
/// decisions read from a `.xg` file.
#[test]
fn xg_analysis_is_reported_beside_ours() {
    let plays = report(CHARLOT_XG, &["--plays"], "bg_plays.csv");
    let oracle = csv_file(&repo().join("fixtures/expected/xg-records.csv"));
    let error = |line: &str| {
        oracle
            .iter()
            .find(|o| o["file"] == CHARLOT_XG && o["record"] == line)
            .map(|o| o["error"].parse::<f64>().unwrap())
    };
    for p in &plays {
        assert_eq!(p["xg_eval"], "3-ply", "{p:?}");
        let ours: f64 = p["xg_error"].parse().unwrap();
        assert!((ours - error(&p["line"]).unwrap()).abs() < 1e-9, "{p:?}");
        assert!(!p["loss"].is_empty() && !p["xg_luck"].is_empty(), "{p:?}");
    }
    let cube = report(CHARLOT_XG, &["--all-cube-decisions"], "bg_cube.csv");
    let with_xg = cube.iter().filter(|c| c["xg_eval"] == "XG Roller+").count();
    assert!(with_xg > 50, "{with_xg} of {}", cube.len());
    for c in cube
        .iter()
        .filter(|c| c["actual_action"].starts_with("Double"))
    {
        assert!(
            !c["xg_nd"].is_empty() && !c["xg_double_error"].is_empty(),
            "{c:?}"
        );
    }
    // A .mat carries no XG analysis.
    let plays = report(CHARLOT_MAT, &["--plays"], "bg_plays.csv");
    assert!(plays
        .iter()
        .all(|p| p["xg_eval"].is_empty() && p["xg_error"].is_empty()));
}

/// BGBlitz's analysis in a `.bgf` (made up by the fixture's writer: the
/// played move, 2-ply, and one alternative up to 0.004 better) stands
/// beside ours on `bg_plays.csv`.
#[test]
fn bgblitz_analysis_is_reported_beside_ours() {
    let plays = report(CHARLOT_BGF, &["--plays"], "bg_plays.csv");
    assert!(plays.len() > 150);
    for p in &plays {
        assert_eq!(p["bgblitz_eval"], "2-ply", "{p:?}");
        let equity: f64 = p["bgblitz_equity"].parse().unwrap();
        let loss: f64 = p["bgblitz_loss"].parse().unwrap();
        assert!((-0.0001..=0.1001).contains(&equity), "{p:?}");
        assert!((0.0..0.0041).contains(&loss), "{p:?}");
        assert!(!p["loss"].is_empty(), "{p:?}");
    }
    let plays = report(MONEY_BGF, &["--plays"], "bg_plays.csv");
    assert!(plays.iter().all(|p| p["bgblitz_eval"].is_empty()));
}

#[test]
fn a_position_file_is_one_unfinished_game_from_its_position() {
    let g = report(
        "fixtures/bg/xg/charlot-game2-play10.xgp",
        &[],
        "bg_games.csv",
    );
    assert_eq!(g.len(), 1);
    assert_eq!(
        (g[0]["plays"].as_str(), g[0]["illegal_plays"].as_str()),
        ("1", "0")
    );
    // Undecided, as a position is, with no finding for it.
    assert_eq!(g[0]["ending"], "unfinished");
    assert!(!g[0]["finding_kinds"].contains("unfinished"), "{:?}", g[0]);
    assert_eq!(g[0]["score_written"], "0-2");
}

/// Damaged `.xg` files inside an archive are error rows with their reason;
/// the archive's other members are read.
/// Runs recount on a tar of `members`: its output directory (recount
/// exited 0) and its error rows' member and reason.
fn run_tar(members: &[(&str, Vec<u8>)]) -> (tempfile::TempDir, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("members.tar");
    let mut tar = tar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        tar.append_data(&mut h, name, &bytes[..]).unwrap();
    }
    std::fs::write(&path, tar.into_inner().unwrap()).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = run(&[path.to_str().unwrap()], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let reasons = rows(out.path(), "errors.csv")
        .iter()
        .map(|e| (e["member"].clone(), e["reason"].clone()))
        .collect();
    (out, reasons)
}

/// The `bg_games.csv` rows of archive member `member`.
fn games_of<'a>(games: &'a [Row], member: &str) -> Vec<&'a Row> {
    games.iter().filter(|g| g["member"] == member).collect()
}

#[test]
fn damaged_xg_files_in_an_archive_are_error_rows() {
    let good = std::fs::read(repo().join(CHARLOT_XG)).unwrap();
    let mut flipped = good.clone();
    flipped[9000] ^= 0x40;
    let members: [(&str, Vec<u8>); 5] = [
        ("a-good.xg", good.clone()),
        ("b-cut.xg", good[..good.len() / 2].to_vec()),
        ("c-flipped.xg", flipped),
        ("d-empty-archive.xg", b"RGMH".to_vec()),
        (
            "e-log.fibs",
            std::fs::read(repo().join(CHARLOT_FIBS)).unwrap(),
        ),
    ];
    let (out, reasons) = run_tar(&members);
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons[0].0 == "b-cut.xg" && reasons[0].1.contains("truncated or corrupt"),
        "{reasons:?}"
    );
    assert!(
        reasons[1].0 == "c-flipped.xg" && reasons[1].1.contains("CRC-32"),
        "{reasons:?}"
    );
    assert!(
        reasons[2].0 == "d-empty-archive.xg" && reasons[2].1.contains("truncated XG file"),
        "{reasons:?}"
    );
    let games = rows(out.path(), "bg_games.csv");
    for member in ["a-good.xg", "e-log.fibs"] {
        assert_eq!(games_of(&games, member).len(), 4, "{member}");
    }
}

/// Damaged GamesGrid and TrueMoneyGames logs and Snowie positions inside
/// an archive: a log cut before its first game, one that is binary noise,
/// a position cut short or with a garbled field are error rows with their
/// reason; a log cut inside a game is read to where it stops (the
/// game unfinished); unknown lines and a wrong result are findings.
#[test]
fn damaged_sgg_and_tmg_logs_are_error_rows_or_findings() {
    let sgg = std::fs::read_to_string(repo().join(CHARLOT_SGG)).unwrap();
    let tmg = std::fs::read(repo().join(CHARLOT_TMG)).unwrap();
    let header: String = sgg.lines().take(5).map(|l| format!("{l}\n")).collect();
    let garbled: String = sgg
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 19 {
                "20\tXYZZY\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let mut noise = b"Game 1: 0-0\n -1 1 31:\n".to_vec();
    noise.extend((0..200u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    let snowie = std::fs::read_to_string(repo().join(SNOWIE[0])).unwrap();
    let members: [(&str, Vec<u8>); 7] = [
        ("a-header-only.sgg", header.into_bytes()),
        ("b-cut.tmg", tmg[..3000].to_vec()),
        ("c-garbled.sgg", garbled.into_bytes()),
        ("d-noise.tmg", noise),
        (
            "e-short.sgg",
            b"ann vs. bob\nGame 1. 0-0/3\n1\t31: 8/5, 6/5\nann wins 9 points\n".to_vec(),
        ),
        ("f-cut-snowie.txt", snowie.as_bytes()[..60].to_vec()),
        (
            "g-garbled-snowie.txt",
            snowie.replacen(";-1;", ";-17;", 1).into_bytes(),
        ),
    ];
    let (out, reasons) = run_tar(&members);
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    assert!(
        reasons[0].0 == "a-header-only.sgg" && reasons[0].1.contains("no 'Game N."),
        "{reasons:?}"
    );
    assert!(
        reasons[1].0 == "d-noise.tmg" && reasons[1].1.contains("binary"),
        "{reasons:?}"
    );
    assert!(
        reasons[2].0 == "f-cut-snowie.txt" && reasons[2].1.contains("fields"),
        "{reasons:?}"
    );
    assert!(
        reasons[3].0 == "g-garbled-snowie.txt" && reasons[3].1.contains("17 checkers"),
        "{reasons:?}"
    );
    let games = rows(out.path(), "bg_games.csv");
    let of = |m: &str| games_of(&games, m);
    let cut = of("b-cut.tmg");
    assert_eq!(cut.last().unwrap()["ending"], "unfinished", "{cut:?}");
    assert!(of("c-garbled.sgg")[0]["finding_kinds"].contains("unreadable_line"));
    assert_eq!(of("e-short.sgg")[0]["finding_kinds"], "result");
}

/// A Snowie text position is one unfinished game from its position, cube
/// and player on roll: the position and match IDs are those of gnubg's own
/// import of the file (`import snowietxt`; its `position` rows of
/// `fixtures/expected/bg-ids.csv`), less the dice gnubg sets.
#[test]
fn snowie_positions_are_gnubgs_import_of_them() {
    let oracle = csv_file(&repo().join("fixtures/expected/bg-ids.csv"));
    for file in SNOWIE {
        let g = report(file, &[], "bg_games.csv");
        assert_eq!(g.len(), 1);
        assert_eq!(
            (g[0]["format"].as_str(), g[0]["plays"].as_str()),
            ("snowie", "0")
        );
        assert_eq!(
            (g[0]["ending"].as_str(), g[0]["finding_kinds"].as_str()),
            ("unfinished", ""),
            "{:?}",
            g[0]
        );
        let o = oracle
            .iter()
            .find(|o| o["file"] == file && o["kind"] == "position")
            .unwrap_or_else(|| panic!("no gnubg row for {file}"));
        assert_eq!(g[0]["position_id"], o["position_id"], "{file}");
        let mut theirs = match_state_from_id(&o["match_id"]).unwrap();
        theirs.dice = None;
        assert_eq!(
            match_state_from_id(&g[0]["match_id"]).unwrap(),
            theirs,
            "{file}"
        );
        assert_eq!(g[0]["cube"], "2");
    }
}

/// A `.bgf` file's header line and `body`.
fn bgf(header: &str, body: &[u8]) -> Vec<u8> {
    [header.as_bytes(), b"\n", body].concat()
}

fn gz(b: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

/// Damaged BGBlitz files inside an archive: a file cut short, corrupt
/// gzip data, a SMILE token that is no value, a body that unpacks past
/// the cap are error rows with their reason; an unknown move type and an
/// impossible move are findings, the rest of that file read; the
/// archive's other members are read.
#[test]
fn damaged_bgf_files_in_an_archive_are_error_rows_or_findings() {
    let good = std::fs::read(repo().join(CHARLOT_BGF)).unwrap();
    let header = r#"{"version":"1.0","compression":"gzip","encoding":"smile"}"#;
    let start = header.len() + 1;
    let mut flipped = good.clone();
    for b in &mut flipped[start + 20..start + 40] {
        *b ^= 0x5a;
    }
    let odd_moves = r#"{"matchlen": 3, "nameGreen": "ann", "nameRed": "bob", "finalGreen": 0, "finalRed": 0,
        "games": [{"scoreGreen": 0, "scoreRed": 0, "wonPoints": 0, "moves": [
        {"type": "amove", "player": 1, "red": 3, "green": 1, "from": [8, 6, -1, -1], "to": [5, 5, -1, -1]},
        {"type": "aquux", "player": -1},
        {"type": "amove", "player": -1, "red": 2, "green": 1, "from": [24, 24, -1, -1], "to": [20, 23, -1, -1]}]}]}"#;
    let members: [(&str, Vec<u8>); 7] = [
        ("a-good.bgf", good.clone()),
        ("b-cut.bgf", good[..good.len() / 2].to_vec()),
        ("c-corrupt-gzip.bgf", flipped),
        (
            "d-bad-token.bgf",
            bgf(header, &gz(b":)\n\x03\xfa\x80a\xf0\xfb")),
        ),
        (
            "e-oversized.bgf",
            bgf(header, &gz(&vec![0u8; (64 << 20) + 10])),
        ),
        (
            "f-odd-moves.bgf",
            bgf(
                r#"{"compression":"none","encoding":"json"}"#,
                odd_moves.as_bytes(),
            ),
        ),
        (
            "g-log.fibs",
            std::fs::read(repo().join(CHARLOT_FIBS)).unwrap(),
        ),
    ];
    let (out, reasons) = run_tar(&members);
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    for ((member, reason), (want_member, want)) in reasons.iter().zip([
        ("b-cut.bgf", "its gzip body does not unpack"),
        ("c-corrupt-gzip.bgf", "corrupt BGBlitz file"),
        ("d-bad-token.bgf", "token 0xF0 is not a value"),
        ("e-oversized.bgf", "oversized BGBlitz file"),
    ]) {
        assert!(
            member == want_member && reason.contains(want),
            "{reasons:?}"
        );
    }
    let games = rows(out.path(), "bg_games.csv");
    for member in ["a-good.bgf", "g-log.fibs"] {
        assert_eq!(games_of(&games, member).len(), 4, "{member}");
    }
    let odd = games_of(&games, "f-odd-moves.bgf");
    assert_eq!(odd.len(), 1);
    let kinds = &odd[0]["finding_kinds"];
    assert!(
        kinds.contains("unreadable_line") && kinds.contains("illegal_play"),
        "{:?}",
        odd[0]
    );
    assert!(
        odd[0]["finding_details"].contains("unknown move type 'aquux'"),
        "{:?}",
        odd[0]
    );
    assert_eq!(
        (odd[0]["plays"].as_str(), odd[0]["illegal_plays"].as_str()),
        ("2", "1")
    );
}

/// The BGBlitz and XG text positions (`fixtures/bg/bgblitz`,
/// `fixtures/bg/xgtext`: seven positions in English, German, French and
/// Japanese each), with the IDs each file gives for its position.
fn text_positions() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["fixtures/bg/bgblitz", "fixtures/bg/xgtext"] {
        for f in std::fs::read_dir(repo().join(dir)).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            let path = format!("{dir}/{name}");
            let text = std::fs::read_to_string(repo().join(&path)).unwrap();
            files.push((path, text));
        }
    }
    files.sort();
    files
}

/// The value after `key` on the file's line holding it.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let line = text.lines().find(|l| l.contains(key))?;
    let rest = &line[line.find(key)? + key.len()..];
    rest.split_whitespace().next()
}

/// Every BGBlitz and XG text position is one unfinished game from its
/// position, and its IDs are the file's own: BGBlitz's Position-ID,
/// Match-ID and XGID, XG's XGID (the reports write them before the roll,
/// so less the dice).
#[test]
fn text_positions_have_the_programs_own_ids() {
    let files = text_positions();
    assert_eq!(files.len(), 56);
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &["fixtures/bg/bgblitz", "fixtures/bg/xgtext"],
        out.path(),
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty());
    let games = rows(out.path(), "bg_games.csv");
    assert_eq!(games.len(), files.len());
    let mut languages = std::collections::BTreeSet::new();
    for (path, text) in &files {
        let g = games
            .iter()
            .find(|g| g["source"].ends_with(path.as_str()))
            .unwrap_or_else(|| panic!("no row for {path}"));
        let format = if path.contains("bgblitz") {
            "bgblitz"
        } else {
            "xgtext"
        };
        assert_eq!(g["format"], format, "{path}");
        assert_eq!(g["ending"], "unfinished", "{path}");
        assert_eq!(g["finding_kinds"], "", "{path}: {g:?}");
        assert_eq!(g["plays"], "0");
        let xg = field(text, "XGID=").unwrap();
        let mut f: Vec<&str> = xg.split(':').collect();
        f[4] = if f[4] == "D" { "D" } else { "00" };
        assert_eq!(g["xgid"], format!("XGID={}", f.join(":")), "{path}");
        if format == "bgblitz" {
            assert_eq!(
                g["position_id"],
                field(text, "Position-ID:").unwrap(),
                "{path}"
            );
            let mut theirs = match_state_from_id(field(text, "Match-ID:").unwrap()).unwrap();
            theirs.dice = None;
            assert_eq!(
                match_state_from_id(&g["match_id"]).unwrap(),
                theirs,
                "{path}"
            );
        }
        languages.insert(&path[path.len() - 6..]);
    }
    assert_eq!(
        languages.into_iter().collect::<Vec<_>>(),
        ["DE.txt", "EN.txt", "FR.txt", "JP.txt"]
    );
    // The 6-3 position of a 7-point match is after the Crawford game, as
    // both programs' IDs say.
    let post = games.iter().filter(|g| g["crawford"] == "post").count();
    assert_eq!(post, 8);
}

/// Damaged text positions inside an archive: a diagram cut short, a bad
/// XGID, sixteen checkers of a player are error rows with their reason; a
/// checker missing from the diagram, a wrong pip count or score are
/// `position_mismatch` findings naming the line.
#[test]
fn damaged_text_positions_are_error_rows_or_findings() {
    let read = |p: &str| std::fs::read_to_string(repo().join(p)).unwrap();
    let blitz = read("fixtures/bg/bgblitz/01_checkerPosition_EN.txt");
    let xg = read("fixtures/bg/xgtext/01_checkerPosition_EN.txt");
    let cut = |t: &str, n: usize| t.lines().take(n).collect::<Vec<_>>().join("\n");
    // X's checker on the 14-point gone; on XG's board an O on top of X's
    // stack on the 19-point.
    let missing = blitz.replacen("|    X           X |", "|                X |", 1);
    let mixed = xg.replacen(
        "|    X           X |   | X  O",
        "|    X           X |   | O  O",
        1,
    );
    let members: [(&str, Vec<u8>); 7] = [
        ("a-cut.txt", cut(&blitz, 9).into_bytes()),
        (
            "b-bad-xgid.txt",
            xg.replacen(":1:-1:1:21:", ":1:-1:7:21:", 1).into_bytes(),
        ),
        (
            "c-sixteen.txt",
            xg.replacen("-B-CBBB---a", "-B-CBBB---c", 1).into_bytes(),
        ),
        ("d-missing.txt", missing.into_bytes()),
        (
            "e-wrong-lines.txt",
            xg.replace("Pip count  X: 111", "Pip count  X: 112")
                .replace("Score is X:3", "Score is X:2")
                .into_bytes(),
        ),
        ("f-cut-xg.txt", cut(&xg, 12).into_bytes()),
        ("g-mixed-stack.txt", mixed.into_bytes()),
    ];
    let (out, reasons) = run_tar(&members);
    let reason = |m: &str| {
        reasons
            .iter()
            .find(|r| r.0 == m)
            .map(|r| r.1.as_str())
            .unwrap_or_else(|| panic!("no error row for {m}: {reasons:?}"))
    };
    assert_eq!(reasons.len(), 5, "{reasons:?}");
    assert!(reason("a-cut.txt").contains("stops after 9"), "{reasons:?}");
    assert!(reason("b-bad-xgid.txt").contains("side 7"), "{reasons:?}");
    assert!(
        reason("c-sixteen.txt").contains("16 checkers"),
        "{reasons:?}"
    );
    assert!(
        reason("f-cut-xg.txt").contains("stops after"),
        "{reasons:?}"
    );
    assert!(
        reason("g-mixed-stack.txt").contains("X and O"),
        "{reasons:?}"
    );
    let games = rows(out.path(), "bg_games.csv");
    let of = |m: &str| games.iter().find(|g| g["member"] == m).unwrap();
    let d = of("d-missing.txt");
    assert_eq!(
        d["finding_kinds"], "position_mismatch;position_mismatch;position_mismatch",
        "{d:?}"
    );
    // X's pip count after the footer, the Position-ID and the XGID
    // disagree (the Match-ID does not say where the checkers are).
    assert_eq!(d["findings"], "3", "{d:?}");
    let e = of("e-wrong-lines.txt");
    assert!(
        e["finding_details"].contains("line 4: the file's X score is 2"),
        "{e:?}"
    );
    assert!(
        e["finding_details"].contains("line 18: the file's X pip count is 112"),
        "{e:?}"
    );
    // XG's XGID is the position: the game starts from it.
    assert_eq!((e["score_0"].as_str(), e["score_1"].as_str()), ("6", "3"));
}

/// A text position before the roll is the cube decision of the player on
/// roll: with `--all-cube-decisions` it is a `bg_cube.csv` row, at the
/// file's own IDs, and recount's proper action (0-ply) is BGBlitz's
/// verdict on all six, in the English files where it is read here (and
/// XG's but on 07, which XG finds too good to redouble).
#[test]
fn text_positions_before_the_roll_are_cube_decisions() {
    let cube = report(
        "fixtures/bg/bgblitz",
        &["--all-cube-decisions"],
        "bg_cube.csv",
    );
    assert_eq!(cube.len(), 24, "six cube positions in four languages");
    for c in &cube {
        let text = std::fs::read_to_string(&c["source"]).unwrap();
        assert_eq!(c["position_id"], field(&text, "Position-ID:").unwrap());
        assert_eq!(c["match_id"], field(&text, "Match-ID:").unwrap());
        assert_eq!(c["actual_action"], "No double");
        let verdict = text
            .lines()
            .find(|l| l.trim_start().starts_with("Cube Action:"))
            .map(|l| l.split(':').nth(2).unwrap().trim().to_string());
        if let Some(v) = verdict {
            // BGBlitz says "No Double" for a no-redouble too.
            let ours = c["proper_action"].replace(", ", " / ").to_lowercase();
            let theirs = v.trim_end_matches("EMG").trim().to_lowercase();
            assert_eq!(
                ours.replace("redouble", "double"),
                theirs
                    .replace("redouble", "double")
                    .replace("reject", "pass"),
                "{}",
                c["source"]
            );
        }
    }
    let xg = report(
        "fixtures/bg/xgtext",
        &["--all-cube-decisions"],
        "bg_cube.csv",
    );
    let actions = |rows: &[Row]| -> Vec<String> {
        let mut v: Vec<String> = rows
            .iter()
            .map(|c| format!("{} {}", c["position_id"], c["proper_action"]))
            .collect();
        v.sort();
        v
    };
    assert_eq!(actions(&xg), actions(&cube));
}
