//! recount: batch re-scoring of Go and backgammon game archives.
//!
//! Data flows one way: [`discover`] finds sources and streams game trees
//! (Go) or match files (backgammon), [`parse`] reads them, [`go`] and [`bg`]
//! replay and evaluate them, [`analysis`] turns a replayed game into rows,
//! [`report`] writes the rows; [`pipeline`] runs it all in parallel and
//! [`cli`] is the command line.

pub mod analysis;
pub mod bg;
pub mod cli;
pub mod discover;
pub mod explain;
pub mod go;
pub mod parse;
pub mod pipeline;
pub mod report;
mod rng;
pub mod zones_table;
