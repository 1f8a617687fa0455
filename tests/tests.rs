//! The integration tests, as one test binary (one link instead of nine):
//! each module of `tests/tests/` is one subject, and `util` runs the real
//! binary for them.

mod tests {
    mod util;

    mod archives;
    mod backgammon;
    mod check;
    mod cube;
    mod duckdb;
    mod formats;
    mod fuzz;
    mod goformats;
    mod html;
    mod inputs;
    mod nets;
    mod nn;
    mod plays;
    mod python;
    mod replay;
    mod reports;
    mod robustness;
    mod scoring;
    mod shards;
    mod tables;
    mod zones;
}
