//! SGF, the format of Go records and of GNU Backgammon's matches: a stream
//! cut into game trees ([`split`]), one tree's main line read tolerantly
//! ([`reader`]), its text decoded by `CA` ([`charset`]), and a second
//! opinion from the strict `sgf-parse` crate ([`strict`]).

pub mod charset;
pub mod reader;
pub mod split;
pub mod strict;
