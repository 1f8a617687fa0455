//! Backgammon: the board and its legal plays ([`board`], [`moves`]),
//! records and their replay ([`record`], [`replay`]) and the match audit
//! ([`audit`]); position and match identifiers ([`ids`]); the board
//! features of seed `backgammon-program-board-evaluation.txt`
//! ([`features`]); evaluators ([`eval`]: exact bearoff databases
//! [`bearoff`], [`bearoff_ts`]; our race evaluator [`race`]; GNU
//! Backgammon's nets [`nn`], [`nn_inputs`], [`gnubg_eval`], [`race_bg`]);
//! and cube decisions ([`cube`], with match equity tables [`met`]).

pub mod audit;
pub mod bearoff;
pub mod bearoff_ts;
pub mod board;
pub mod cube;
pub mod eval;
pub mod features;
pub mod format;
pub mod gnubg_eval;
pub mod ids;
pub mod met;
pub mod moves;
pub mod nn;
pub mod nn_inputs;
pub mod race;
pub mod race_bg;
pub mod record;
pub mod replay;
