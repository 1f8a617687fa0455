//! Readers: bytes in, game records out. `split` cuts a stream into game
//! trees, `sgf` reads one tree's main line, `charset` decodes its text.

pub mod charset;
pub mod sgf;
pub mod split;
