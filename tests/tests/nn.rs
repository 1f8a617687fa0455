//! GNU Backgammon's 0-ply evaluation reproduced with the built-in nets: on
//! the positions of `fixtures/expected/bg-nn-cases.csv` (from the real
//! matches, every class; `scripts/gnubg_nn_oracle.py`), the five outputs
//! of the `gnubg` PyPI package. Contact, crashed and race positions need no
//! file: the nets are built in. Two-sided bearoffs need gnubg's
//! `gnubg_ts0.bd`, read from `.gnubg-data/` when
//! `scripts/get-gnubg-weights.sh` has fetched it (as `.ci/run` does), and
//! skipped otherwise.

use super::util::{csv_file, repo};
use recount::bg::eval::gnubg::probabilities;
use recount::bg::eval::nn::Weights;
use recount::bg::position::ids::board_from_position_id;
use std::collections::BTreeMap;

const COLS: [&str; 5] = [
    "p_win",
    "p_win_gammon",
    "p_win_backgammon",
    "p_lose_gammon",
    "p_lose_backgammon",
];

/// Per class: rows, rows equal bit for bit, rows within 1e-5, worst
/// difference; and the first rows off by more than 1e-5.
type Tally = (BTreeMap<String, (usize, usize, usize, f32)>, Vec<String>);

fn tally(w: &Weights) -> Tally {
    let rows = csv_file(&repo().join("fixtures/expected/bg-nn-cases.csv"));
    assert!(rows.len() >= 10_000);
    let mut by_class: BTreeMap<String, (usize, usize, usize, f32)> = BTreeMap::new();
    let mut first_bad = Vec::new();
    for r in &rows {
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        let (p, class) = probabilities(w, &board, 0).expect("not over");
        assert_eq!(class.name(), r["class"], "{}", r["position_id"]);
        let want = COLS.map(|c| r[c].parse::<f32>().unwrap());
        let worst = (0..5)
            .map(|i| (p[i] - want[i]).abs())
            .fold(0.0f32, f32::max);
        let e = by_class.entry(r["class"].clone()).or_default();
        e.0 += 1;
        e.1 += usize::from((0..5).all(|i| p[i].to_bits() == want[i].to_bits()));
        if worst <= 1e-5 {
            e.2 += 1;
        } else if first_bad.len() < 5 {
            first_bad.push(format!(
                "{} {}: {p:?} vs {want:?}",
                r["class"], r["position_id"]
            ));
        }
        e.3 = e.3.max(worst);
    }
    for (class, (n, exact, close, worst)) in &by_class {
        eprintln!("{class}: {exact} of {n} bit for bit, {close} within 1e-5 (worst {worst:e})");
    }
    (by_class, first_bad)
}

/// The built-in nets give gnubg's outputs bit for bit on every contact,
/// crashed and race position (races include gnubg's race-backgammon
/// estimate, `bg::race_bg`, and the sanity rules read its 16-bit bearoff
/// table); two-sided bearoffs (the database recount builds) bit for bit;
/// one-sided bearoffs (our replay of gnubg's table) within 1e-5.
#[test]
fn embedded_nets_reproduce_gnubg_bit_for_bit() {
    let (by_class, first_bad) = tally(Weights::embedded());
    for (class, least) in [
        ("contact", 2000),
        ("crashed", 2000),
        ("race", 2000),
        ("bearoff_ts", 800),
    ] {
        let (n, exact, _, _) = by_class[class];
        assert!(n >= least, "{class}: {n} rows");
        assert_eq!(exact, n, "{class}: {first_bad:?}");
    }
    let (n, _, close, _) = by_class["bearoff_os"];
    assert_eq!(close, n, "bearoff_os: {first_bad:?}");
}

/// A weights file given by path, binary or text, reads to the same nets
/// as the built-in ones.
/// Skipped without `.gnubg-data/`.
#[test]
fn weights_files_load_like_the_embedded_nets() {
    let data = repo().join(".gnubg-data");
    for name in ["gnubg.wd", "gnubg.weights"] {
        let path = data.join(name);
        if !path.is_file() {
            recount::note_skipped_test(&format!("no {}", path.display()));
            continue;
        }
        let w = Weights::load(&path).unwrap();
        assert_eq!(w.source, path.display().to_string());
        let rows = csv_file(&repo().join("fixtures/expected/bg-nn-cases.csv"));
        for r in rows.iter().step_by(7) {
            let board = board_from_position_id(&r["position_id"], 0).unwrap();
            if r["class"] == "bearoff_ts" {
                continue;
            }
            let (a, _) = probabilities(&w, &board, 0).unwrap();
            let (b, _) = probabilities(Weights::embedded(), &board, 0).unwrap();
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "{name}");
        }
    }
}
