//! Backgammon: the board and its legal plays, position and match
//! identifiers, replay of recorded matches, the audit of results and cube
//! actions, and the board features of seed
//! `backgammon-program-board-evaluation.txt`.

pub mod audit;
pub mod bearoff;
pub mod bearoff_ts;
pub mod board;
pub mod cube;
pub mod eval;
pub mod features;
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
