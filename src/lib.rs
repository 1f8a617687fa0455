//! recount: batch re-scoring of Go and backgammon game archives.
//!
//! Data flows one way, each folder one job:
//!
//! ```text
//! cli/        the command line: arguments, their checked configuration, the summary line
//! commands/   the subcommands: run (the parallel pipeline), explain, zones, check
//!             (expectations files against the run's rows), diff (two runs' reports),
//!             report (a run's page made again)
//! expect/     expectations files: entries read, values compared, values rewritten
//! ingest/     paths, archives and streams in; one decision per file on what it holds; units out
//! sgf/        SGF: collections split into game trees, a tolerant reader, charsets, a strict check
//! go/         Go from a record to its count: board, rules, record, replay, dead stones,
//!             settling, scoring, the audit, endgame zones
//! bg/         backgammon from a match file to its cube and play analysis: position,
//!             formats, game records and replay, the audit, evaluators, the cube, plays and luck
//! analysis/   pure: a computed game and the settings in, typed rows and totals out
//! report/     the row types, the tables they go to, the sinks that write them (CSV,
//!             Parquet), reading them back, the page of their figures (report.html)
//! ```
//!
//! `go/` and `bg/` never import each other, and nothing imports upward:
//! `cli` → `commands` → `analysis` → `report` → `go`, `bg`, `ingest` →
//! `sgf`, `text`, `hash` (`report`'s rows hold the domain's enums: verdicts, stages,
//! statuses, sources). One exception: `recount check` reads each entry's
//! options with the command line's own parser and resolver (`cli::args`,
//! `cli::config`), so an entry takes exactly what `recount run` takes.

// The crate's pages are read with their private items
// (`cargo doc --document-private-items`), where links to them resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod bg;
pub mod cli;
pub mod commands;
pub mod expect;
pub mod go;
pub mod hash;
pub mod ingest;
pub mod report;
mod rng;
pub mod sgf;
pub mod text;

/// Says that a test skipped a check for want of a tool (DuckDB, chromium,
/// gnubg's files): on stderr, and appended to the file
/// `RECOUNT_SKIP_LOG` names, so that `scripts/test.sh` can list every
/// skip after the run (cargo hides a passing test's stderr).
#[doc(hidden)]
pub fn note_skipped_test(why: &str) {
    eprintln!("skipped: {why}");
    if let Some(log) = std::env::var_os("RECOUNT_SKIP_LOG") {
        use std::io::Write;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log);
        if let Ok(mut file) = file {
            let _ = writeln!(file, "{why}");
        }
    }
}
