//! Settling a final position once the dead stones are decided: Benson's
//! unconditional life ([`life`]), territory, seki and dame
//! ([`territory`]), and the points a chain in atari must fill
//! ([`must_fill`]); the outcome is a [`Settlement`].

pub mod life;
pub mod must_fill;
pub mod settlement;
pub mod territory;

pub use settlement::{PointKind, Refereed, Settlement};
