//! The subcommands: a batch run over archives ([`run`]), one game counted
//! and drawn ([`explain`]), one position's endgame zones ([`zones`]).

pub mod explain;
pub mod run;
pub mod zones;
