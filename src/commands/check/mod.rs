//! `recount check FILE…`: every entry of expectations files evaluated. Its
//! record is read as a run reads it ([`records`]), the row it names picked
//! from its report, and each expected value held against the row's cell:
//! one line per value that does not hold (entry, column, expected, got, the
//! source), then a total. With `--update`, the expected values that do not
//! hold are rewritten from the results and each change is printed.

pub mod records;

use crate::cli::args::run_args;
use crate::expect::file::{load, Entry, ExpectFile, Malformed, Record};
use crate::expect::update::{rewrite, Change};
use crate::expect::value::{describe_cell, nearest, Expected};
use crate::report::read::TableRows;
use crate::report::{RowBuf, Table};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a check found: the lines to print and the counts.
#[derive(Debug, Default)]
pub struct Checked {
    /// One line per value that does not hold (or was updated), in file
    /// and entry order, then the total.
    pub text: String,
    /// Values that do not hold (after `--update`, those it could not
    /// rewrite: a row or column that is not there).
    pub failed: usize,
}

/// Why a check could not be made: the files, or the records they name,
/// cannot be used as written (exit status 2).
#[derive(Debug)]
pub struct CheckError(pub Vec<Malformed>);

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines: Vec<String> = self.0.iter().map(Malformed::to_string).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for CheckError {}

/// One thing an entry does not hold.
enum Finding {
    /// An expected value the row's cell does not hold.
    Value { expected: Expected, cell: String },
    /// No row, no such column: nothing to compare for `values` of the
    /// expected values.
    Problem { message: String, values: usize },
}

/// Checks every entry of the files at `paths`; with `update`, rewrites the
/// values that do not hold.
///
/// # Errors
/// A file that cannot be read or is not an expectations file, an entry
/// whose options or record cannot be used, a file `--update` cannot write.
pub fn check(paths: &[PathBuf], update: bool) -> Result<Checked, CheckError> {
    let mut files = Vec::new();
    let mut malformed = Vec::new();
    for p in paths {
        match load(p) {
            Ok(f) => {
                malformed.extend(f.entries.iter().filter_map(|e| validate(&f.path, e)));
                files.push(f);
            }
            Err(e) => malformed.push(e),
        }
    }
    if !malformed.is_empty() {
        return Err(CheckError(malformed));
    }
    let mut runs: HashMap<RunKey, Result<RowBuf, String>> = HashMap::new();
    let mut out = Checked::default();
    let (mut entries, mut values, mut updated) = (0, 0, 0);
    for f in &files {
        let mut changes = Vec::new();
        let mut lines = String::new();
        for e in &f.entries {
            entries += 1;
            values += e.expect.len();
            let key = (
                e.record.clone(),
                e.options.clone(),
                e.komi.map(f64::to_bits),
            );
            let rows = runs
                .entry(key)
                .or_insert_with(|| records::rows_of(&e.record, &e.options, e.komi));
            let rows = match rows {
                Ok(r) => r,
                Err(message) => {
                    malformed.push(Malformed {
                        file: f.path.clone(),
                        entry: Some(e.label()),
                        message: message.clone(),
                    });
                    continue;
                }
            };
            for finding in evaluate(e, rows) {
                let source = if e.source.is_empty() {
                    String::new()
                } else {
                    format!("; source: {}", e.source)
                };
                let at = format!("{}: {}", f.path.display(), e.label());
                match finding {
                    Finding::Value { expected, cell } if update => {
                        let _ = writeln!(
                            lines,
                            "{at}: {}: {} -> {} (updated)",
                            expected.column,
                            expected.describe(),
                            describe_cell(&cell)
                        );
                        changes.push(Change {
                            entry: e.index,
                            column: expected.column,
                            cell,
                        });
                        updated += 1;
                    }
                    Finding::Value { expected, cell } => {
                        out.failed += 1;
                        let _ = writeln!(
                            lines,
                            "{at}: {}: expected {}, got {}{source}",
                            expected.column,
                            expected.describe(),
                            describe_cell(&cell)
                        );
                    }
                    Finding::Problem { message, values } => {
                        out.failed += values;
                        let _ = writeln!(lines, "{at}: {message}{source}");
                    }
                }
            }
        }
        if !changes.is_empty() {
            if let Err(message) = write_changes(f, &changes) {
                malformed.push(Malformed {
                    file: f.path.clone(),
                    entry: None,
                    message,
                });
            }
        }
        out.text.push_str(&lines);
    }
    if !malformed.is_empty() {
        return Err(CheckError(malformed));
    }
    let held = values - out.failed - updated;
    let _ = write!(
        out.text,
        "recount check: {} file{}, {entries} entr{}, {values} value{}: {held} hold",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        if entries == 1 { "y" } else { "ies" },
        if values == 1 { "" } else { "s" },
    );
    if update {
        let _ = write!(out.text, ", {updated} updated");
    }
    let _ = writeln!(out.text, ", {} failed", out.failed);
    Ok(out)
}

/// A record read with some options (and a diagram's komi): entries that
/// share one share its run.
type RunKey = (Record, Vec<String>, Option<u64>);

/// The run options that say where and how reports are written or which
/// part of the input is read: an entry's rows are compared in memory, so
/// they would do nothing there.
const NOT_FOR_ENTRIES: [&str; 9] = [
    "--out",
    "-o",
    "--format",
    "--no-html",
    "--quiet",
    "-q",
    "--strict",
    "--shard",
    "--shard-by",
];

/// The first of `options` that would do nothing in an entry.
fn without_effect(options: &[String]) -> Option<&str> {
    options.iter().find_map(|o| {
        let name = o.split_once('=').map_or(o.as_str(), |(name, _)| name);
        NOT_FOR_ENTRIES.contains(&name).then_some(name)
    })
}

/// What can be checked of an entry before its record is read: its options
/// are a run's (and none that would do nothing here), and komi is given
/// only to a diagram.
fn validate(file: &Path, e: &Entry) -> Option<Malformed> {
    let placeholder = match &e.record {
        Record::File(p) => p.clone(),
        Record::Text(_) => PathBuf::from("record"),
    };
    let problem = match run_args(&placeholder, &e.options) {
        Err(message) => Some(format!(
            "options: {message}; an entry takes recount run's options (recount run --help)"
        )),
        Ok(_) => match without_effect(&e.options) {
            Some(option) => Some(format!(
                "options: {option} does nothing here (an entry's rows are compared in memory, \
                 the whole record read); remove it"
            )),
            None if e.komi.is_some() && records::diagram_text(&e.record).is_none() => Some(
                "`komi` is a diagram's: a record's komi is its own (KM); remove it".to_string(),
            ),
            None => None,
        },
    };
    problem.map(|message| Malformed {
        file: file.to_path_buf(),
        entry: Some(e.label()),
        message,
    })
}

/// Every expected value of `e` the row it names does not hold, or why
/// there is nothing to compare.
fn evaluate(e: &Entry, rows: &RowBuf) -> Vec<Finding> {
    let all = e.expect.len();
    let Some(table) = e.report else {
        // No report has the columns named: say which ones none has.
        return e
            .filters
            .iter()
            .chain(&e.expect)
            .filter(|x| !Table::ALL.iter().any(|t| t.columns().contains(&x.column)))
            .map(|x| Finding::Problem {
                message: no_column(&x.column, None),
                values: all,
            })
            .take(1)
            .collect();
    };
    let t = TableRows::of(table, rows);
    let mut findings: Vec<Finding> = Vec::new();
    // A column to pick the row by that is not there: no row to compare.
    if let Some(x) = e.filters.iter().find(|x| t.column(&x.column).is_none()) {
        return vec![Finding::Problem {
            message: no_column(&x.column, Some(table)),
            values: all,
        }];
    }
    let row = match pick(e, table, &t, rows) {
        Ok(row) => row,
        Err(message) => {
            return vec![Finding::Problem {
                message,
                values: all,
            }]
        }
    };
    for x in &e.expect {
        match t.column(&x.column) {
            None => findings.push(Finding::Problem {
                message: no_column(&x.column, Some(table)),
                values: 1,
            }),
            Some(i) if !x.holds(&row[i]) => findings.push(Finding::Value {
                expected: x.clone(),
                cell: row[i].clone(),
            }),
            Some(_) => {}
        }
    }
    findings
}

/// The failure for a column the report (or every report) lacks.
fn no_column(column: &str, table: Option<Table>) -> String {
    let columns = match table {
        Some(t) => t.columns(),
        None => Table::ALL.iter().flat_map(|t| t.columns()).collect(),
    };
    let near = nearest(column, columns.iter().map(String::as_str))
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default();
    match table {
        Some(t) => format!("{column}: {} has no column `{column}`{near}", t.name()),
        None => format!("{column}: no report has a column `{column}`{near}"),
    }
}

/// The one row of `t` the entry names: its member and game where the
/// report has those columns, and its `where` values.
fn pick<'a>(
    e: &Entry,
    table: Table,
    t: &'a TableRows,
    all: &RowBuf,
) -> Result<&'a [String], String> {
    let cell_is = |row: &[String], column: &str, value: &str| {
        t.column(column).is_none_or(|i| row[i] == value)
    };
    let game = e.game.map(|g| g.to_string());
    let matching: Vec<&Vec<String>> = t
        .rows
        .iter()
        .filter(|row| {
            e.member
                .as_deref()
                .is_none_or(|m| cell_is(row, "member", m))
                && game.as_deref().is_none_or(|g| cell_is(row, "game", g))
                && e.filters
                    .iter()
                    .all(|x| x.holds(&row[t.column(&x.column).expect("checked")]))
        })
        .collect();
    match matching[..] {
        [row] => Ok(row),
        [] => {
            let mut why = format!(
                "no {} row is this entry's (the record has {} {0} row{})",
                table.name(),
                t.rows.len(),
                if t.rows.len() == 1 { "" } else { "s" }
            );
            let errors = TableRows::of(Table::Errors, all);
            if let (Some(first), Some(i)) = (errors.rows.first(), errors.column("reason")) {
                let _ = write!(why, "; errors.csv: {}", first[i]);
            }
            Err(why)
        }
        _ => Err(format!(
            "{} {} rows are this entry's: name one with `game`, `member` or `where = {{ column = value }}`",
            matching.len(),
            table.name()
        )),
    }
}

/// Rewrites the file's expected values: written beside it (beside the
/// file a link points to) with its permissions, then renamed over it, so
/// that an update interrupted or short of disk leaves the file as it was.
fn write_changes(f: &ExpectFile, changes: &[Change]) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&f.path).map_err(|e| format!("cannot read it again: {e}"))?;
    let new = rewrite(&text, changes)?;
    let failed = |e: std::io::Error| format!("cannot write the updated values: {e}");
    let target = std::fs::canonicalize(&f.path).map_err(failed)?;
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let tmp = target.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::write(&tmp, new)
        .and_then(|()| std::fs::metadata(&target))
        .and_then(|m| std::fs::set_permissions(&tmp, m.permissions()))
        .and_then(|()| std::fs::rename(&tmp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(failed)
}
