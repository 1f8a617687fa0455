//! Go: the board, the record read from SGF, the recorded result, rule sets
//! and tolerant replay.

pub mod board;
pub mod dead;
pub mod enclosed;
pub mod life;
pub mod local_game;
pub mod move_values;
pub mod must_fill;
pub mod nakade;
pub mod patterns;
pub mod reconcile;
pub mod record;
pub mod replay;
pub mod result;
pub mod rules;
pub mod scoring;
pub mod song;
pub mod territory;
pub mod zones;
