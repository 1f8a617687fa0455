//! Cube decisions from cubeless probabilities, as GNU Backgammon makes
//! them at 0-ply: in money play Janowski's live-cube equity mixed with the
//! dead-cube equity by the cube efficiency; in match play the same idea in
//! match winning chances, with cash points worked back through the cube
//! levels from a match equity table ([`crate::bg::cube::met`]). Then the no double /
//! double, take / double, pass equities per unit cube, the proper action in
//! gnubg's words, and the beaver and raccoon options of seed
//! `backgammon-cube-beavers-raccoons.txt`.
//!
//! - `money.rs`: money play's cubeful equities and decision;
//! - `match_play.rs`: match play's cubeful match winning chances, the cash
//!   points and the decision;
//! - `decision.rs`: the proper action from the three equities, for both;
//! - `lanes.rs`: one value or sixteen, for the formulas written once;
//! - `met.rs`: the match equity tables.

mod decision;
pub mod lanes;
mod match_play;
pub mod met;
mod money;

pub use decision::{Action, Decision};
pub use match_play::*;
pub use money::*;

/// Cubeless probabilities for the player on roll, in GNU Backgammon's
/// order: win, win gammon, win backgammon, lose gammon, lose backgammon.
/// Gammons include backgammons.
pub type Probs = [f32; 5];

/// Who owns the cube, seen from the player on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Centred,
    OnRoll,
    Opponent,
}
