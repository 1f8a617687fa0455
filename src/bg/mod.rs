//! Backgammon, from a match file to its cube and checker-play analysis; nothing here knows
//! about files or reports.
//!
//! - [`position`]: the board in GNU Backgammon's layout, its legal plays,
//!   Position ID / Match ID and XGID, and the board features of seed
//!   `backgammon-program-board-evaluation.txt`.
//! - [`mod@format`]: match files read into a record (`.mat`, GNU Backgammon SGF,
//!   eXtreme Gammon `.xg`, FIBS oldmoves logs).
//! - [`game`]: the record, each game's replay with full legality, and the
//!   match audit (score, Crawford, cube rules).
//! - [`eval`]: cubeless probabilities: exact bearoff databases, our race
//!   evaluator, GNU Backgammon's nets.
//! - [`score`]: a match's score before a game.
//! - [`cube`]: cube decisions from those probabilities, money and match
//!   play, with match equity tables.
//! - [`play`]: checker plays scored cubefully and ranked, and the luck of
//!   each roll.

pub mod cube;
pub mod eval;
pub mod format;
pub mod game;
pub mod play;
pub mod position;
pub mod score;
