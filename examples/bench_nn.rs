//! Evaluations per second with GNU Backgammon's nets: the positions of
//! `fixtures/expected/bg-nn-cases.csv` (real matches, every class),
//! `ROUNDS` times, on all cores with rayon. Peer:
//! `scripts/bench_gnubg_eval.py`. Run by `scripts/bench-bg.sh`.
//!
//!     cargo run --release --example bench_nn [-- ROUNDS]

use rayon::prelude::*;
use recount::bg::eval::gnubg::probabilities;
use recount::bg::eval::nn::Weights;
use recount::bg::position::ids::board_from_position_id;
use recount::cli::config::{Nets, WEIGHTS_ENV};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    // The nets a run would use: $RECOUNT_GNUBG_WEIGHTS (e.g. a file with
    // gnubg_ts0.bd beside it, as gnubg evaluates two-sided bearoffs), else
    // the built-in ones, whose parse time is the start-up cost printed.
    let parse = Instant::now();
    let env = std::env::var_os(WEIGHTS_ENV);
    let nets = match Nets::choose(None, env, false) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("bench_nn: {e}");
            std::process::exit(2);
        }
    };
    let weights = match &nets {
        Nets::File(w) => w,
        _ => Weights::embedded(),
    };
    println!(
        "nets from {} in {:.2} ms",
        weights.source,
        parse.elapsed().as_secs_f64() * 1e3
    );
    let text = std::fs::read_to_string("fixtures/expected/bg-nn-cases.csv")
        .expect("run from the repository root");
    let boards: Vec<_> = text
        .lines()
        .skip(1)
        .map(|l| board_from_position_id(l.split(',').next().unwrap(), 0).unwrap())
        .collect();
    // Build the bearoff tables before timing.
    let _ = recount::bg::eval::bearoff::one_sided();
    let _ = recount::bg::eval::bearoff::gnubg_rounded();
    let start = Instant::now();
    let done: usize = (0..rounds)
        .into_par_iter()
        .map(|_| {
            boards
                .iter()
                .filter(|b| probabilities(weights, b, 0).is_some())
                .count()
        })
        .sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{done} evaluations in {secs:.3} s: {:.0} evaluations/s ({} threads)",
        done as f64 / secs,
        rayon::current_num_threads()
    );
}
