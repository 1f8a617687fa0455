//! Go, from a record to its count; nothing here knows about files or
//! reports.
//!
//! - [`board`]: stones, chains, captures, suicide and simple ko.
//! - [`rules`]: rule sets as plain values, presets by name.
//! - [`record`]: the typed record of one SGF game tree, its result (`RE`)
//!   and the endgame diagrams of the seeds.
//! - [`repetition`]: position keys and their history (superko, cycles).
//! - [`replay`]: tolerant replay of a record to its final position.
//! - [`dead`]: which stones are dead at the end (markup or the estimator).
//! - [`settle`]: the settled final position: Benson's life, territory,
//!   seki, the must-fill rule.
//! - [`score`]: each rule interpretation's count of a settled position,
//!   Song-dynasty Lu and chips among them.
//! - [`audit`]: a count against the recorded result, and the single
//!   changes that would reconcile them.
//! - [`endgame`]: independent zones, their local games and move values.

pub mod audit;
pub mod board;
pub mod dead;
pub mod endgame;
pub mod game;
pub mod record;
pub mod repetition;
pub mod replay;
pub mod rules;
pub mod score;
pub mod settle;
