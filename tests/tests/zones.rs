//! Endgame zones: the seed `go-endgame-count-and-move-values.txt`'s diagrams
//! (fixtures/zones/, drawn as the seed draws them) give the seed's counts,
//! followers and move values; `recount zones` and `--zones-from-end` runs.
//!
//! Every expected number below is the seed's own, read from its text.

use super::util;

use recount::go::endgame::move_values::ZoneType;
use recount::go::endgame::position::{diagram_zones, Outcome, PositionZones, ZoneSettings};
use recount::go::record::diagram;
use std::fs;

fn zones_of(name: &str) -> PositionZones {
    let path = util::repo().join("fixtures/zones").join(name);
    let text = fs::read_to_string(&path).unwrap();
    let d = diagram::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    diagram_zones(&d, &ZoneSettings::default())
}

#[test]
fn settled_positions_count_as_the_seed_says() {
    // "The count is 1 - 0 = 1", "0 - 1 = -1", "4 - 1 = 3", "3 - 1 = 2",
    // "1 - 3 = -2", "1 - 4 = -3".
    for (i, want) in [1.0, -1.0, 3.0, 2.0, -2.0, -3.0].into_iter().enumerate() {
        let name = format!("seed-settled-{}.txt", i + 1);
        let pz = zones_of(&name);
        assert_eq!(pz.estimated_count(), Some(want), "{name}");
        for z in &pz.zones {
            match &z.outcome {
                Outcome::Territory(_) => {}
                Outcome::Solved { values, .. } => {
                    assert_eq!(values.zone_type, ZoneType::Settled, "{name}");
                    assert_eq!(values.difference, 0, "{name}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

/// The one contested zone of an initial position: its followers' counts,
/// the four move values, the tally and the type.
struct Expected {
    black: i32,
    white: i32,
    difference: i32,
    naive_sum: Option<i32>,
    corrected_sum: i32,
    tally: i32,
    modern: f64,
    zone_type: ZoneType,
}

fn check_initial(name: &str, want: &Expected) {
    let pz = zones_of(name);
    let contested: Vec<_> = pz
        .zones
        .iter()
        .enumerate()
        .filter(|(_, z)| !matches!(z.outcome, Outcome::Territory(_)))
        .collect();
    assert_eq!(contested.len(), 1, "{name}: one zone to play in");
    let (i, z) = contested[0];
    let Outcome::Solved {
        black,
        white,
        values,
    } = &z.outcome
    else {
        panic!("{name}: {:?}", z.outcome)
    };
    assert_eq!(
        (black.count, white.count),
        (want.black, want.white),
        "{name}"
    );
    assert_eq!(values.difference, want.difference, "{name}");
    assert_eq!(values.naive_sum, want.naive_sum, "{name}");
    assert_eq!(values.corrected_sum, want.corrected_sum, "{name}");
    assert_eq!(values.tally, want.tally, "{name}");
    assert_eq!(values.modern, Some(want.modern), "{name}");
    assert_eq!(values.zone_type, want.zone_type, "{name}");
    // The drawn sequences, played out, are best play: same counts and
    // the same Black-minus-White moves as the search's lines.
    assert_eq!(pz.given.len(), 2, "{name}");
    for g in &pz.given {
        assert_eq!(g.zone, i);
        assert_eq!(g.problem, None, "{name}");
        let f = if g.starter == recount::go::board::Color::Black {
            black
        } else {
            white
        };
        assert_eq!(g.count, f.count, "{name}");
        assert_eq!(
            g.net_moves,
            f.net_moves(g.starter == recount::go::board::Color::Black),
            "{name}"
        );
    }
    assert!(pz.drawn_mismatches.is_empty(), "{:?}", pz.drawn_mismatches);
}

#[test]
fn initial_positions_give_the_seeds_move_values() {
    // First: followers 1 and -1, "1 + 1 = 2", "1 - (-1) = 2"; sequences of
    // 3 moves each: tally (2 - 1) - (1 - 2) = 2.
    check_initial(
        "seed-initial-1.txt",
        &Expected {
            black: 1,
            white: -1,
            difference: 2,
            naive_sum: Some(2),
            corrected_sum: 2,
            tally: 2,
            modern: 1.0,
            zone_type: ZoneType::Gote,
        },
    );
    // Second: 3 and 2; the naive sum is inapplicable, "3 + (-2) = 1",
    // "3 - 2 = 1"; Black's start ends with White's answer: Black's sente.
    let second = Expected {
        black: 3,
        white: 2,
        difference: 1,
        naive_sum: None,
        corrected_sum: 1,
        tally: 1,
        modern: 1.0,
        zone_type: ZoneType::BlackSente,
    };
    check_initial("seed-initial-2.txt", &second);
    // The same position in Sensei's Library markup.
    check_initial("sensei-black-sente.txt", &second);
    // Third: -2 and -3, "-2 + 3 = 1", "-2 - (-3) = 1"; White's sente.
    check_initial(
        "seed-initial-3.txt",
        &Expected {
            black: -2,
            white: -3,
            difference: 1,
            naive_sum: None,
            corrected_sum: 1,
            tally: 1,
            modern: 1.0,
            zone_type: ZoneType::WhiteSente,
        },
    );
}

#[test]
fn the_zones_command_prints_the_table() {
    let text = util::stdout_of(&["zones", "fixtures/zones/seed-initial-2.txt"]);
    for line in [
        "black follower  B[ea] W[ka]",
        "naive sum       inapplicable: the white follower favours Black",
        "corrected sum   3 + (-2) = 1",
        "modern          1 / 1 = 1",
        "type            Black's sente; White's reverse sente",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // A game: the position 20 moves before its end, drawn and counted.
    let text = util::stdout_of(&[
        "zones",
        "fixtures/go/kgs/2000-10-16-1.sgf",
        "--from-end",
        "20",
    ]);
    assert!(text.contains("position after move 247"), "{text}");
    assert!(
        text.contains("count: settled part -5, plus the zones' mean counts"),
        "{text}"
    );
    assert!(text.contains("final count of the game"), "{text}");
    let out = util::bin()
        .args(["zones", "fixtures/zones/missing.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open"));
}

#[test]
fn runs_write_go_zones_for_every_game_the_same_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let args = ["fixtures/go/kgs", "--zones-from-end", "12", "-q"];
    let one = util::run(&[&args[..], &["-j", "1"]].concat(), &a, "");
    let two = util::run(&[&args[..], &["-j", "2"]].concat(), &b, "");
    assert!(one.status.success() && two.status.success());
    let csv = util::read(&a, "go_zones.csv");
    assert_eq!(csv, util::read(&b, "go_zones.csv"));
    let games = util::read(&a, "go_games.csv").lines().count() - 1;
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut solved = 0;
    for r in rdr.records() {
        let r = r.unwrap();
        seen.insert((r[col("source")].to_string(), r[col("game")].to_string()));
        match &r[col("status")] {
            "solved" => {
                solved += 1;
                let (b, w): (i32, i32) = (
                    r[col("black_count")].parse().unwrap(),
                    r[col("white_count")].parse().unwrap(),
                );
                assert_eq!(r[col("difference")].parse::<i32>().unwrap(), b - w);
                assert_eq!(r[col("corrected_sum")].parse::<i32>().unwrap(), b - w);
            }
            "territory" | "not_searched" | "no_zone" => {}
            other => panic!("status {other}"),
        }
    }
    // Every game has its zones (or a row saying why not).
    assert_eq!(seen.len(), games);
    assert!(solved > 0);
    // summary.csv counts every zone row once by status, and the solved
    // ones once by type.
    let summary = util::read(&a, "summary.csv");
    let total = |metric: &str| -> usize {
        summary
            .lines()
            .filter(|l| l.starts_with(metric))
            .map(|l| l.split(',').nth(2).unwrap().parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(total("go_zone_status,"), csv.lines().count() - 1);
    assert_eq!(total("go_zone_type,"), solved);
}

#[test]
fn a_move_past_the_end_is_a_row_with_a_reason() {
    // Past the end, or counted back from the end past the start: one
    // not_searched row saying so.
    for (flag, says) in [
        ("--zones-at", "past its end"),
        ("--zones-from-end", "reaches before its start"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["fixtures/go/kgs/2000-10-16-1.sgf", flag, "5000", "-q"];
        assert!(util::run(&args, dir.path(), "").status.success());
        let csv = util::read(dir.path(), "go_zones.csv");
        assert!(csv.contains("not_searched") && csv.contains(says), "{csv}");
        assert_eq!(csv.lines().count(), 2, "{csv}");
    }
}

#[test]
fn a_given_sequence_that_is_not_best_play_is_flagged() {
    // fixtures/zones/given-differs.txt: Black 1 on his own side, White 2
    // answers: count 0 with one move each, where the hane gives 1.
    let pz = zones_of("given-differs.txt");
    let origin = recount::ingest::Origin {
        path: "given-differs.txt".into(),
        member: None,
    };
    let rows = pz.rows(&origin, 1, false);
    let row = rows
        .iter()
        .find(|r| r.status == recount::go::endgame::position::ZoneStatus::Solved)
        .unwrap();
    assert_eq!(row.given_black_sequence, "B[ca] W[da]");
    assert_eq!(row.given_black_count, Some(0));
    assert_eq!(
        row.given_black_check,
        "differs: count 1 by search; net moves 1 by search"
    );
    assert_eq!(row.given_white_check, "agrees");
}
