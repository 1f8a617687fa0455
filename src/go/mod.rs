//! Go: the board, the record read from SGF, the recorded result, rule sets
//! and tolerant replay.

pub mod board;
pub mod record;
pub mod replay;
pub mod result;
pub mod rules;
