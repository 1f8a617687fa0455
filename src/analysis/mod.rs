//! Analyses: pure functions from a replayed game to a report row. They never
//! write; the pipeline hands their rows to the sinks.

pub mod bg_cube;
pub mod bg_match;
pub mod bg_plays;
pub mod go_game;
pub mod go_score;
pub mod go_zones;
pub mod sum;
