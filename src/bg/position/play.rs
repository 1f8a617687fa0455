//! A play as its steps and the position it leads to: what the move
//! generator ([`super::moves`]) finds and the notation ([`super::notation`])
//! writes.

use crate::bg::position::board::Board;
#[cfg(doc)]
use crate::bg::position::board::BAR;

/// One checker moved by one die, in board indices: `from` 0..=23 or
/// [`BAR`], `to` `None` when borne off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub to: Option<usize>,
    pub hit: bool,
    /// The die used (a bear-off may use a die larger than the distance).
    pub die: u8,
}

/// A legal play and the position it leads to.
#[derive(Debug, Clone)]
pub struct Play {
    pub moves: Vec<Move>,
    pub after: Board,
}
