//! A backgammon position: the board ([`board`]), a play's steps and
//! result ([`play`]), the legal plays of a roll ([`moves`]), a play's text
//! as gnubg writes it ([`notation`]), GNU Backgammon's Position ID /
//! Match ID and eXtreme Gammon's XGID ([`ids`]), and the board features of
//! an early program ([`features`], after seed
//! `backgammon-program-board-evaluation.txt`).

pub mod board;
pub mod features;
pub mod ids;
pub mod moves;
pub mod notation;
pub mod play;
