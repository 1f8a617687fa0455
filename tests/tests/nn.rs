//! GNU Backgammon's 0-ply evaluation reproduced from its weights: on the
//! positions of `fixtures/expected/bg-nn-cases.csv` (from the real matches,
//! every class; `scripts/gnubg_nn_oracle.py`), each output within 1e-5 of
//! the `gnubg` PyPI package. Needs the weights: `scripts/get-gnubg-weights.sh`
//! (run by `.ci/run`) puts them in `.gnubg-data/`.

use super::util::{csv_file, repo};
use recount::bg::gnubg_eval::probabilities;
use recount::bg::ids::board_from_position_id;
use recount::bg::nn::Weights;
use std::collections::BTreeMap;

#[test]
fn nets_reproduce_gnubg_0_ply() {
    let w = Weights::find(Some(&repo().join(".gnubg-data/gnubg.weights")))
        .expect("GNU Backgammon's weights: run scripts/get-gnubg-weights.sh")
        .unwrap();
    let rows = csv_file(&repo().join("fixtures/expected/bg-nn-cases.csv"));
    assert!(rows.len() >= 10_000);
    let mut by_class: BTreeMap<String, (usize, usize, f32)> = BTreeMap::new();
    let cols = [
        "p_win",
        "p_win_gammon",
        "p_win_backgammon",
        "p_lose_gammon",
        "p_lose_backgammon",
    ];
    let mut first_bad = Vec::new();
    for r in &rows {
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        let (p, class) = probabilities(&w, &board, 0).expect("not over");
        assert_eq!(class.name(), r["class"], "{}", r["position_id"]);
        let worst = cols
            .iter()
            .enumerate()
            .map(|(i, c)| (p[i] - r[*c].parse::<f32>().unwrap()).abs())
            .fold(0.0f32, f32::max);
        let e = by_class.entry(r["class"].clone()).or_default();
        e.0 += 1;
        if worst <= 1e-5 {
            e.1 += 1;
        } else if first_bad.len() < 5 {
            first_bad.push(format!(
                "{} {}: {p:?} vs {:?}",
                r["class"],
                r["position_id"],
                cols.map(|c| &r[c])
            ));
        }
        e.2 = e.2.max(worst);
    }
    for (class, (n, ok, worst)) in &by_class {
        eprintln!("{class}: {ok} of {n} within 1e-5 (worst {worst:e})");
    }
    // Races include gnubg's race-backgammon estimate (`bg::race_bg`) and
    // the sanity rules read its 16-bit bearoff table.
    for class in ["contact", "crashed", "race"] {
        let (n, ok, _) = by_class[class];
        assert!(n >= 2000, "{class}: {n} rows");
        assert_eq!(ok, n, "{class}: {first_bad:?}");
    }
    // Every class, bearoffs too (gnubg's two-sided file; its one-sided
    // table as our replay of its construction gives it).
    for (class, (n, ok, _)) in &by_class {
        assert_eq!(ok, n, "{class}");
    }
}
