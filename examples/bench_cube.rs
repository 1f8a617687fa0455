//! Cube decisions per second with the exact bearoff evaluator: random
//! bearoff positions (deterministic), each evaluated and given a money
//! decision and a match decision (7-point match, 3-away 5-away), on all
//! cores with rayon. Run by `scripts/bench-cube.sh`.
//!
//!     cargo run --release --example bench_cube [-- POSITIONS]

use rayon::prelude::*;
use recount::bg::cube::met::kazaross_xg2;
use recount::bg::cube::{match_decision, money_decision, MatchCube, MoneyRules, Owner};
use recount::bg::eval::evaluate;
use recount::bg::position::board::Board;
use recount::bg::score::MatchScore;
use std::time::Instant;

fn position(mut seed: u64) -> Board {
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut b = Board::empty();
    for p in 0..2 {
        let n = 1 + next() % 15;
        for _ in 0..n {
            b.checkers[p][(next() % 6) as usize] += 1;
        }
    }
    b
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(400_000);
    let met = kazaross_xg2();
    // Build the bearoff database before timing.
    let _ = evaluate(&position(1), 0);
    let positions: Vec<Board> = (0..n as u64).map(|i| position(i * 7919 + 17)).collect();
    let start = Instant::now();
    let done: usize = positions
        .par_iter()
        .map(|b| {
            let e = evaluate(b, 0).expect("a bearoff position");
            let money = money_decision(
                &e.probs,
                Owner::Centred,
                MoneyRules {
                    jacoby: true,
                    beavers: true,
                },
                e.efficiency,
            );
            let c = MatchCube {
                at: MatchScore {
                    length: 7,
                    score: [4, 2],
                    crawford_game: false,
                },
                on_roll: 0,
                cube: 1,
                owner: None,
            };
            let m = match_decision(&e.probs, &c, met, e.efficiency);
            usize::from(money.nd.is_finite() && m.nd_mwc.is_finite())
        })
        .sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{done} positions, 2 decisions each (money, match) in {secs:.3} s: {:.0} cube decisions/s ({} threads)",
        2.0 * done as f64 / secs,
        rayon::current_num_threads()
    );
}
