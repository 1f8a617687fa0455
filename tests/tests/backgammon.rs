//! Whole runs on backgammon match files: real exports replay cleanly,
//! IDs agree with GNU Backgammon, and damaged records give findings.

use super::util::{csv_file, repo, rows, run, stderr};
use recount::bg::position::ids::match_state_from_id;
use std::collections::{BTreeMap, HashMap};
use std::fs;

pub(super) type Row = HashMap<String, String>;

fn games_by_source(rows: &[Row]) -> BTreeMap<String, Vec<&Row>> {
    let mut m: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        m.entry(r["source"].clone()).or_default().push(r);
    }
    m
}

#[test]
fn real_matches_replay_without_illegal_plays() {
    let out = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/bg"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let errors = rows(out.path(), "errors.csv");
    assert!(errors.is_empty(), "{errors:?}");
    let games = rows(out.path(), "bg_games.csv");
    let by_source = games_by_source(&games);
    let dirs = [
        "real", "gnubg", "money", "xg", "fibs", "sgg", "tmg", "snowie", "bgblitz", "xgtext", "bgf",
    ];
    let files: usize = dirs
        .iter()
        .map(|d| {
            fs::read_dir(repo().join("fixtures/bg").join(d))
                .unwrap()
                .count()
        })
        .sum();
    assert_eq!(by_source.len(), files, "every match file gives rows");
    for g in &games {
        assert_eq!(g["illegal_plays"], "0", "{g:?}");
        if g["source"].ends_with(".xgp")
            || ["snowie", "bgblitz", "xgtext"].contains(&g["format"].as_str())
        {
            // A position file: one position, not a whole game.
            continue;
        }
        assert_ne!(g["ending"], "unfinished", "{g:?}");
        // The record's winner is the replayed winner.
        assert_eq!(g["recorded_winner"], g["winner"], "{g:?}");
    }
    // Each file's games are numbered 1.. as written.
    for (src, gs) in &by_source {
        for (i, g) in gs.iter().enumerate() {
            assert_eq!(g["game"], (i + 1).to_string(), "{src}");
        }
    }
    // A 7-point match that reaches 6-2 has exactly one Crawford game.
    let charlot: Vec<&&Row> = by_source
        .iter()
        .find(|(s, _)| s.ends_with("2305.mat"))
        .unwrap()
        .1
        .iter()
        .collect();
    let crawford: Vec<&str> = charlot.iter().map(|g| g["crawford"].as_str()).collect();
    assert_eq!(crawford, ["pre", "pre", "pre", "crawford"]);
    assert!(stderr(&o).contains("backgammon:"), "{}", stderr(&o));
}

#[test]
fn mat_and_sgf_exports_of_one_match_agree() {
    let out = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/bg/gnubg"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let games = rows(out.path(), "bg_games.csv");
    let pick = |suffix: &str| -> Vec<&Row> {
        games
            .iter()
            .filter(|g| g["source"].ends_with(suffix))
            .collect()
    };
    let mat = pick("2305.mat");
    let sgf = pick("2305.sgf");
    assert_eq!(mat.len(), sgf.len());
    for (a, b) in mat.iter().zip(&sgf) {
        for col in [
            "score_0",
            "score_1",
            "plays",
            "winner",
            "ending",
            "points",
            "cube",
            "pips_0",
            "pips_1",
            "position_id",
            "match_id",
        ] {
            assert_eq!(a[col], b[col], "{col} of game {}", a["game"]);
        }
        // One match: the later file's games name the earlier one's.
        assert_eq!(a["match_hash"], b["match_hash"]);
        assert_eq!(
            (a["duplicate_of"].as_str(), &b["duplicate_of"]),
            ("", &a["game_key"])
        );
    }
    assert!(sgf.iter().any(|g| g["analysed"] != "0"));
    let other = pick("2308.sgf");
    assert!(other
        .iter()
        .all(|g| g["match_hash"] != mat[0]["match_hash"]));
    let summary = std::fs::read_to_string(out.path().join("summary.csv")).unwrap();
    assert!(
        summary
            .contains("bg_match_hashes,distinct,2,matches\nbg_match_hashes,duplicates,1,matches"),
        "{summary}"
    );
}

#[test]
fn a_match_read_twice_counts_once_in_the_players_totals() {
    let out = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/bg/gnubg", "--plays"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let stats = rows(out.path(), "bg_stats.csv");
    let scope = |s: &str| -> Vec<&Row> {
        stats
            .iter()
            .filter(|r| r["scope"] == s && r["player_key"] == "charlot1")
            .collect()
    };
    // Three files, two matches: the 2305 match as .mat and as SGF.
    assert_eq!(scope("match").len(), 3);
    let player = scope("player");
    assert_eq!(player.len(), 1);
    assert_eq!(player[0]["matches"], "2");
    let first_two: u32 = scope("match")
        .iter()
        .filter(|r| !r["source"].ends_with("2305.sgf"))
        .map(|r| r["total_moves"].parse::<u32>().unwrap())
        .sum();
    assert_eq!(player[0]["total_moves"], first_two.to_string());
}

/// Our position after play k is gnubg's position before play k+1.
#[test]
fn position_and_match_ids_agree_with_gnubg() {
    let out = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/bg", "--positions"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let checked = ids_agree_with_gnubg(&rows(out.path(), "bg_positions.csv"), |s| {
        Some(s.to_string())
    });
    assert!(checked > 1000, "only {checked} positions checked");
}

/// Compares `ours` (`bg_positions.csv` rows) with gnubg's IDs of the file
/// `oracle_file(source)` names in `fixtures/expected/bg-ids.csv`, play by
/// play; returns how many match IDs were compared.
pub(super) fn ids_agree_with_gnubg(
    ours: &[Row],
    oracle_file: impl Fn(&str) -> Option<String>,
) -> usize {
    let mut mine: HashMap<(String, String, u32), &Row> = HashMap::new();
    for r in ours {
        let play: u32 = r["play"].parse().unwrap();
        if let Some(file) = oracle_file(&r["source"]) {
            mine.insert((file, r["game"].clone(), play), r);
        }
    }
    let files: std::collections::HashSet<&String> = mine.keys().map(|k| &k.0).collect();
    let oracle = csv_file(&repo().join("fixtures/expected/bg-ids.csv"));
    let mut checked = 0;
    let mut play_no: HashMap<(String, String), u32> = HashMap::new();
    // A cube action between two plays changes the match ID after our
    // row's moment; compare those rows' positions only.
    let mut cube_between = false;
    for o in oracle.iter().filter(|o| files.contains(&o["file"])) {
        if o["kind"] != "play" {
            cube_between = true;
            continue;
        }
        let cube_moved = std::mem::take(&mut cube_between);
        let key = (o["file"].clone(), o["game"].clone());
        let n = play_no.entry(key.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            continue;
        }
        let ours = mine
            .get(&(key.0.clone(), key.1.clone(), *n - 1))
            .unwrap_or_else(|| panic!("no position for {key:?} play {}", *n - 1));
        assert_eq!(ours["position_id"], o["position_id"], "{key:?} play {n}");
        // gnubg's match ID has the dice rolled; ours is before the roll.
        // Everything else must agree.
        if !cube_moved {
            let mut theirs = match_state_from_id(&o["match_id"]).unwrap();
            theirs.dice = None;
            let mine = match_state_from_id(&ours["match_id"]).unwrap();
            assert_eq!(mine, theirs, "{key:?} play {n}");
            checked += 1;
        }
    }
    checked
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p.display().to_string()
}

const MATCH: &str = "; [Player 1 \"ann\"]
; [Player 2 \"bob\"]

3 point match

 Game 1
 ann : 0                        bob : 0
  1)                             31: 8/5 6/5
  2) 42: 8/4 6/4                 65: 24/13
  3)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 ann : 1                        bob : 0
  1) 64: 24/14
                                  Wins 2 points
";

fn findings_of(text: &str) -> Vec<Row> {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "m.mat", text);
    let out = tempfile::tempdir().unwrap();
    let o = run(&[&f], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty());
    rows(out.path(), "bg_games.csv")
}

#[test]
fn a_clean_match_has_no_findings() {
    let g = findings_of(MATCH);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0]["findings"], "0", "{:?}", g[0]);
    assert_eq!(g[0]["ending"], "drop");
    assert_eq!(g[0]["winner"], "0");
    assert_eq!(g[1]["ending"], "resign");
    assert_eq!(g[1]["winner"], "1");
    assert_eq!(g[1]["score_0"], "1");
    // 1-0 in a 3-point match: not yet Crawford (2-away each way).
    assert_eq!(g[1]["crawford"], "pre");
}

#[test]
fn an_impossible_play_is_a_finding_and_replay_goes_on() {
    let g = findings_of(&MATCH.replace("42: 8/4 6/4", "42: 8/2 6/4"));
    assert_eq!(g[0]["illegal_plays"], "1");
    assert!(g[0]["finding_kinds"].contains("illegal_play"), "{:?}", g[0]);
    assert!(g[0]["finding_details"].contains("8/2 6/4"), "{:?}", g[0]);
    assert_eq!(g[1]["findings"], "0");
}

#[test]
fn an_impossible_starting_position_is_a_finding_and_not_rated() {
    // A gnubg SGF whose setup adds a sixteenth checker to player 1's
    // (black's) bar: the game is not replayed, its plays not rated.
    let sgf = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[ann]PB[bob]AB[y]PL[W]\n\
               ;W[31hefe];B[42mirn])";
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "m.sgf", sgf);
    let out = tempfile::tempdir().unwrap();
    let o = run(&[&f, "--plays"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty());
    let g = &rows(out.path(), "bg_games.csv")[0];
    assert!(
        g["finding_kinds"].starts_with("impossible_position"),
        "{g:?}"
    );
    assert!(g["finding_details"].contains("16 checkers"), "{g:?}");
    assert_eq!(g["illegal_plays"], "0");
    for column in ["pips_0", "pips_1", "off_0", "off_1", "position_id", "xgid"] {
        assert_eq!(g[column], "", "{column}");
    }
    let plays = rows(out.path(), "bg_plays.csv");
    assert_eq!(plays.len(), 2);
    for p in &plays {
        assert_eq!(p["loss"], "");
        assert!(p["reason"].contains("impossible position"), "{p:?}");
    }
}

#[test]
fn an_unknown_token_is_a_finding() {
    let g = findings_of(&MATCH.replace("65: 24/13", "65: 24/13 Frobnicates"));
    assert!(
        g[0]["finding_kinds"].contains("unreadable_line"),
        "{:?}",
        g[0]
    );
    assert!(
        g[0]["finding_details"].contains("Frobnicates"),
        "{:?}",
        g[0]
    );
}

#[test]
fn a_contradicting_score_line_is_a_finding() {
    let g = findings_of(&MATCH.replace(" ann : 1 ", " ann : 2 "));
    assert_eq!(g[1]["finding_kinds"], "score_line", "{:?}", g[1]);
    assert_eq!(g[1]["score_written"], "2-0");
}

#[test]
fn a_truncated_match_is_unfinished() {
    let cut = &MATCH[..MATCH.find("  3)  Doubles").unwrap()];
    let g = findings_of(cut);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0]["ending"], "unfinished");
    assert_eq!(g[0]["finding_kinds"], "unfinished");
}

#[test]
fn wrong_points_and_cube_access_are_findings() {
    let g = findings_of(&MATCH.replace("Wins 1 point", "Wins 2 points"));
    assert!(
        g[0]["finding_kinds"].contains("points_mismatch"),
        "{:?}",
        g[0]
    );
    // Bob doubles, ann takes, then bob doubles again without the cube.
    let text = MATCH.replace(
        "  3)  Doubles => 2                Drops\n",
        "  3)                              Doubles => 2\n  4)  Takes                        Doubles => 4\n  5)  Drops\n",
    ).replace("      Wins 1 point", "                                  Wins 2 points");
    let g = findings_of(&text);
    assert!(g[0]["finding_kinds"].contains("cube_access"), "{:?}", g[0]);
}

#[test]
fn a_double_in_the_crawford_game_is_a_finding() {
    // Ann takes game 1 for 2 points (2-0 in a 3-point match): game 2 is
    // the Crawford game, and she doubles in it.
    let text = MATCH
        .replace(
            "Doubles => 2                Drops",
            "Doubles => 2                Takes",
        )
        .replace("      Wins 1 point", "      Wins 2 points")
        .replace(" ann : 1 ", " ann : 2 ")
        .replace(
            "  1) 64: 24/14\n",
            "  1)  Doubles => 2                Takes\n",
        );
    let g = findings_of(&text);
    assert_eq!(g[0]["ending"], "resign", "{:?}", g[0]);
    assert_eq!(g[0]["findings"], "0", "{:?}", g[0]);
    assert_eq!(g[1]["crawford"], "crawford", "{:?}", g[1]);
    assert!(
        g[1]["finding_kinds"].contains("crawford_double"),
        "{:?}",
        g[1]
    );
}

#[test]
fn text_files_that_are_not_matches_are_skipped_in_directories() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.txt", "notes about the archive\n");
    write(dir.path(), "m.txt", MATCH);
    let out = tempfile::tempdir().unwrap();
    let o = run(&[&dir.path().display().to_string()], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty());
    assert_eq!(rows(out.path(), "bg_games.csv").len(), 2);
    assert!(
        stderr(&o).contains("1 other file skipped"),
        "{}",
        stderr(&o)
    );
    // A backgammon run's line says nothing of Go.
    let line = stderr(&o);
    assert!(line.contains("backgammon: 1 match, 2 games"), "{line}");
    assert!(
        !line.contains("Go game") && !line.contains("illegal move"),
        "{line}"
    );
}

#[test]
fn a_file_that_is_not_a_match_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "notes.mat", "just some notes\n");
    let out = tempfile::tempdir().unwrap();
    let o = run(&[&f], out.path(), "");
    assert!(o.status.success());
    let e = rows(out.path(), "errors.csv");
    assert_eq!(e.len(), 1, "{e:?}");
}

/// Our legal-play generator finds exactly the distinct resulting positions
/// GNU Backgammon's move generator finds, on every (position, roll) of the
/// fixtures (`scripts/gnubg_legal.py`).
#[test]
fn legal_play_counts_agree_with_gnubg() {
    use recount::bg::position::ids::board_from_position_id;
    use recount::bg::position::moves::legal_plays;
    let oracle = csv_file(&repo().join("fixtures/expected/bg-legal.csv"));
    assert!(oracle.len() > 5000);
    let mut differ = Vec::new();
    for o in &oracle {
        let board = board_from_position_id(&o["position_id"], 0).unwrap();
        let d = o["dice"].as_bytes();
        let dice = (d[0] - b'0', d[1] - b'0');
        let plays = legal_plays(&board, 0, dice);
        let ours = if plays.len() == 1 && plays[0].moves.is_empty() {
            0
        } else {
            plays.len()
        };
        if ours.to_string() != o["legal_count"] {
            differ.push(format!(
                "{} {}: ours {ours}, gnubg {}",
                o["position_id"], o["dice"], o["legal_count"]
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(10)]
    );
}

/// Every legal play of the sample of (position, roll) pairs in
/// `fixtures/expected/bg-notation.csv` is written as GNU Backgammon writes
/// it (`scripts/gnubg_notation.py`): joined steps, hits on the way,
/// counts of moves alike.
#[test]
fn plays_are_written_as_gnubg_writes_them() {
    use recount::bg::position::ids::board_from_position_id;
    use recount::bg::position::moves::legal_plays;
    use recount::bg::position::notation::gnubg_notation;
    let oracle = csv_file(&repo().join("fixtures/expected/bg-notation.csv"));
    assert!(oracle.len() > 1000);
    let mut differ = Vec::new();
    let mut plays_seen = 0;
    for o in &oracle {
        let board = board_from_position_id(&o["position_id"], 0).unwrap();
        let d = o["dice"].as_bytes();
        let dice = (d[0] - b'0', d[1] - b'0');
        let mut ours: Vec<String> = legal_plays(&board, 0, dice)
            .iter()
            .map(|p| gnubg_notation(&board, 0, &p.moves))
            .collect();
        ours.sort();
        plays_seen += ours.len();
        if ours.join(";") != o["plays"] {
            differ.push(format!(
                "{} {}: ours {}, gnubg {}",
                o["position_id"],
                o["dice"],
                ours.join(";"),
                o["plays"]
            ));
        }
    }
    assert!(plays_seen > 20_000, "{plays_seen}");
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(5)]
    );
}

const MONEY: &str = "; [Jacoby \"On\"]
; [Beaver \"On\"]

0 point match

 Game 1
 ann : 0                        bob : 0
  1)                             31: 8/5 6/5
  2)  Doubles => 2                Beavers => 4
  3)  Raccoons => 8
  4) 42: 8/4 6/4                 65: 24/13
      Wins 8 points
";

#[test]
fn money_play_beavers_and_raccoons() {
    let g = findings_of(MONEY);
    assert_eq!(g[0]["match_length"], "0");
    assert_eq!(g[0]["crawford"], "");
    assert_eq!(g[0]["beavers"], "2", "{:?}", g[0]);
    assert_eq!(g[0]["cube"], "8");
    // The taker (bob) keeps the cube through the beaver and the raccoon.
    assert_eq!(g[0]["cube_owner"], "1");
    assert_eq!(g[0]["ending"], "resign");
    assert_eq!(g[0]["findings"], "0", "{:?}", g[0]);
    // The XGID of money play with Jacoby writes the rules field 1.
    assert!(g[0]["xgid"].ends_with(":1:0:10"), "{}", g[0]["xgid"]);
    // Beavers off: a finding.
    let g = findings_of(&MONEY.replace("[Beaver \"On\"]", "[Beaver \"Off\"]"));
    assert!(
        g[0]["finding_kinds"].contains("beaver_not_allowed"),
        "{:?}",
        g[0]
    );
}

#[test]
fn a_beaver_in_match_play_is_a_finding() {
    let text = MATCH.replace(
        "  3)  Doubles => 2                Drops\n      Wins 1 point",
        "  3)  Doubles => 2                Beavers => 4\n      Wins 4 points",
    );
    let g = findings_of(&text);
    assert!(
        g[0]["finding_kinds"].contains("beaver_in_match"),
        "{:?}",
        g[0]
    );
}

/// A real match replayed as a money session (Jacoby on, beavers on): every
/// evaluated cube decision satisfies the seed's relations
/// (`backgammon-cube-beavers-raccoons.txt`).
#[test]
fn money_cube_rows_satisfy_the_seed_relations() {
    let text = fs::read_to_string(
        repo().join("fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat"),
    )
    .unwrap();
    let money = format!(
        "; [Jacoby \"On\"]\n; [Beaver \"On\"]\n{}",
        text.lines()
            .map(|l| if l.contains("point match") {
                "0 point match"
            } else {
                l
            })
            .collect::<Vec<_>>()
            .join("\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "money.mat", &money);
    let out = tempfile::tempdir().unwrap();
    let o = run(&[&f, "--all-cube-decisions"], out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows(out.path(), "bg_cube.csv");
    let num = |r: &Row, c: &str| -> f64 { r[c].parse().unwrap() };
    let mut evaluated = 0;
    for r in &rows {
        assert_eq!(r["match_length"], "0");
        if !r["reason"].is_empty() {
            assert!(r["nd"].is_empty() && r["p_win"].is_empty(), "{r:?}");
            continue;
        }
        evaluated += 1;
        let dt = num(r, "dt");
        assert!((num(r, "take") + dt).abs() < 1e-6, "{r:?}");
        assert!((num(r, "pass") + 1.0).abs() < 1e-6, "{r:?}");
        assert!((num(r, "beaver") + 2.0 * dt).abs() < 1e-5, "{r:?}");
        assert!((num(r, "raccoon") - 4.0 * dt).abs() < 1e-5, "{r:?}");
        assert_eq!(num(r, "dp"), 1.0);
        assert!(num(r, "doubler_error") >= 0.0, "{r:?}");
    }
    assert!(
        evaluated >= 10,
        "only {evaluated} evaluated decisions of {}",
        rows.len()
    );
}

/// Cube decisions of a real match: every recorded double has a row, each
/// one evaluated.
#[test]
fn recorded_doubles_have_cube_rows() {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &["fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat"],
        out.path(),
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = rows(out.path(), "bg_games.csv");
    let doubles: usize = games
        .iter()
        .map(|g| g["doubles"].parse::<usize>().unwrap())
        .sum();
    let cube = rows(out.path(), "bg_cube.csv");
    assert_eq!(cube.len(), doubles);
    for r in &cube {
        assert!(r["actual_action"].starts_with("Double"), "{r:?}");
        // Every position evaluated: GNU Backgammon's nets are built in.
        assert!(!r["evaluator"].is_empty(), "{r:?}");
        assert!(r["reason"].is_empty(), "{r:?}");
    }
}

/// `bg_cube.csv` writes the Crawford state and the cube's owner in the
/// words of `bg_games.csv`: the game's `crawford`, the owner's number.
#[test]
fn cube_rows_share_the_games_vocabulary() {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &["fixtures/bg/real", "--all-cube-decisions"],
        out.path(),
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = rows(out.path(), "bg_games.csv");
    let crawford: BTreeMap<&str, &str> = games
        .iter()
        .map(|g| (g["game_key"].as_str(), g["crawford"].as_str()))
        .collect();
    let cube = rows(out.path(), "bg_cube.csv");
    for r in &cube {
        assert_eq!(r["crawford"], crawford[r["game_key"].as_str()], "{r:?}");
        assert!(["", "0", "1"].contains(&r["cube_owner"].as_str()), "{r:?}");
    }
    let seen = |c: &str, v: &str| cube.iter().any(|r| r[c] == v);
    assert!(seen("crawford", "post") && seen("crawford", "pre"));
    assert!(seen("cube_owner", "0") && seen("cube_owner", "1") && seen("cube_owner", ""));
}
