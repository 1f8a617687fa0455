//! Expectations files: readings of rules written down as the report values
//! they imply (`docs/expectations.md`). Each entry names a record, the
//! options of `recount run` it is read with, one row of a report and the
//! values expected there. [`mod@file`] reads a file, [`value`] holds a cell
//! against an expected value, [`update`] rewrites expected values in place;
//! `recount check` evaluates the entries.

pub mod file;
pub mod update;
pub mod value;
