//! Readers: bytes in, game records out. `split` cuts a stream into game
//! trees, `sgf` reads one tree's main line, `charset` decodes its text,
//! `strict` asks the `sgf-parse` crate for a strict `FF[4]` verdict.

pub mod bg_sgf;
pub mod charset;
pub mod diagram;
pub mod mat;
pub mod sgf;
pub mod split;
pub mod strict;
