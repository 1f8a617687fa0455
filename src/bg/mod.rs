//! Backgammon: the board and its legal plays, position and match
//! identifiers, replay of recorded matches, the audit of results and cube
//! actions, and the board features of seed
//! `backgammon-program-board-evaluation.txt`.

pub mod audit;
pub mod board;
pub mod features;
pub mod ids;
pub mod moves;
pub mod record;
pub mod replay;
