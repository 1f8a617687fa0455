//! `recount._recount`: the command line's run, called from Python.
//!
//! [`run`] reads the options with the command line's own parser and
//! resolver (`recount::cli`), adds the sources given as bytes
//! ([`Entry::in_memory`]), runs the pipeline with the interpreter's lock
//! released, and hands back each report as the bytes of the Parquet file
//! `--format parquet` writes: `recount/__init__.py` opens them with
//! `pyarrow.parquet`. Parquet is the hand-off because recount already
//! writes it, typed column by column (`recount::report::parquet`): Arrow's
//! own crates would add a long build for the same columns.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use recount::cli::args::run_args;
use recount::cli::config::Config;
use recount::commands::parts::{self, Part};
use recount::commands::run::{self as pipeline, Control, RunError};
use recount::commands::shard::ShardRun;
use recount::ingest::Entry;
use recount::report::duplicates::GameIds;
use recount::report::sink::Memory;
use recount::report::{parquet, Formats, Table};
use std::path::{Path, PathBuf};

/// What a run hands back: each report's name and Parquet bytes, in
/// `Table::ALL` order.
type Reports = Vec<(&'static str, Vec<u8>)>;

/// Reports as Python sees them: each name and its Parquet bytes.
type PyReports<'py> = Vec<(&'static str, Bound<'py, PyBytes>)>;

/// Runs recount over `paths` (files, directories, archives, as on the
/// command line) and `sources` (`(name, bytes)` pairs, each read as a
/// file of that name) with the command line's `options`; returns every
/// report as `(name, parquet_bytes)`.
///
/// Options that write files (`--out`, `--format`, `--no-html`) have no
/// effect here; `-j N` sets the worker threads (default: one per core).
///
/// Also hands back the run's [`Part`] as JSON: what [`totals`] adds up
/// when the input is run in parts whose rows are kept apart.
#[pyfunction]
#[pyo3(signature = (paths = Vec::new(), sources = Vec::new(), options = Vec::new()))]
fn run<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    sources: Vec<(PathBuf, PyBackedBytes)>,
    options: Vec<String>,
) -> PyResult<(PyReports<'py>, String)> {
    let sources: Vec<Entry> = sources
        .into_iter()
        .map(|(name, bytes)| Entry::in_memory(name, &bytes[..]))
        .collect();
    let (reports, part) = py
        .detach(|| reports(&options, paths, sources))
        .map_err(|e| match e {
            Failure::Options(m) => PyValueError::new_err(m),
            Failure::Run(m) => PyOSError::new_err(m),
        })?;
    let part = serde_json::to_string(&part).expect("a part serializes");
    Ok((to_python(py, reports), part))
}

fn to_python(py: Python<'_>, reports: Reports) -> PyReports<'_> {
    reports
        .into_iter()
        .map(|(name, bytes)| (name, PyBytes::new(py, &bytes)))
        .collect()
}

/// The rows a run writes at its end (`summary`, `settings`,
/// `go_interpretations`, and the `player` rows of `bg_stats`) for the
/// parts `parts` (the JSON [`run`] handed back) run with `options`;
/// `distinct` and `repeated` count the `game_id`s over all their games,
/// `bg_distinct` and `bg_repeated` the `match_hash`es over their matches.
#[pyfunction]
fn totals<'py>(
    py: Python<'py>,
    parts: Vec<String>,
    options: Vec<String>,
    distinct: u64,
    repeated: u64,
    bg_distinct: u64,
    bg_repeated: u64,
) -> PyResult<PyReports<'py>> {
    let config = config(&options, Vec::new()).map_err(PyValueError::new_err)?;
    let parts = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            serde_json::from_str(p).map_err(|e| format!("part {}: not a recount part ({e})", i + 1))
        })
        .collect::<Result<Vec<Part>, String>>()
        .map_err(PyValueError::new_err)?;
    let ids = GameIds {
        distinct,
        repeated,
        bg_distinct,
        bg_repeated,
    };
    let settings = config.settings();
    let rows = parts::totals(&parts, &settings.rows(), settings.zones.is_some(), ids)
        .map_err(PyValueError::new_err)?;
    let tables = [
        Table::Summary,
        Table::Settings,
        Table::GoInterpretations,
        Table::BgStats,
    ];
    let reports = tables
        .iter()
        .map(|&t| {
            let bytes = parquet::to_bytes(t, rows.bytes(t))
                .map_err(|e| PyOSError::new_err(format!("{}: {e}", t.name())))?;
            Ok((t.name(), bytes))
        })
        .collect::<PyResult<Reports>>()?;
    Ok(to_python(py, reports))
}

/// `names` in the order a run reads them.
#[pyfunction]
fn input_order(mut names: Vec<PathBuf>) -> Vec<PathBuf> {
    names.sort();
    names
}

/// The options resolved as the command line resolves them, for `paths`.
fn config(options: &[String], paths: Vec<PathBuf>) -> Result<Config, String> {
    let mut args = run_args(Path::new("-"), options)?;
    args.paths = paths;
    args.quiet = true;
    Config::resolve(args).map_err(|e| e.to_string())
}

/// Why a run gave no reports.
enum Failure {
    /// An option that cannot be used, a path that cannot be read.
    Options(String),
    /// The run itself failed.
    Run(String),
}

/// The run, in memory; sources sorted among the paths by name, as the
/// command line sorts the files it reads.
fn reports(
    options: &[String],
    paths: Vec<PathBuf>,
    sources: Vec<Entry>,
) -> Result<(Reports, Part), Failure> {
    let config = config(options, paths).map_err(Failure::Options)?;
    let mut entries = config.entries.clone();
    entries.extend(sources);
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let mut sink = Memory::default();
    // With `--shard K/N` the run reads its part only; without, all of it.
    // Either way the shard files give the run's part.
    let control = Control {
        max_records: config.max_games,
        shard: config.shard.or(Some(ShardRun {
            shard: parts::WHOLE,
            formats: Formats::default(),
        })),
        ..Control::default()
    };
    pipeline::run(
        &entries,
        config.settings(),
        config.threads,
        false,
        &mut sink,
        &control,
    )
    .map_err(|e| {
        Failure::Run(match e {
            RunError::Write(e) => format!("the run failed: {e}"),
            RunError::Interrupted(sig) => format!("the run was interrupted by signal {sig}"),
        })
    })?;
    let reports = Table::ALL
        .iter()
        .map(|&t| {
            let bytes = parquet::to_bytes(t, sink.rows.bytes(t))
                .map_err(|e| Failure::Run(format!("{}: {e}", t.name())))?;
            Ok((t.name(), bytes))
        })
        .collect::<Result<Reports, Failure>>()?;
    Ok((reports, Part::new(&entries, &sink)))
}

/// The report names, in the order the command line writes them.
#[pyfunction]
fn report_names() -> Vec<&'static str> {
    Table::ALL.iter().map(|t| t.name()).collect()
}

/// Each report's key columns (what a row is unique by, and sorted by when
/// reports of separate runs are compared).
#[pyfunction]
fn report_keys() -> Vec<(&'static str, Vec<String>)> {
    Table::ALL
        .iter()
        .map(|t| (t.name(), t.keys().iter().map(|k| k.to_string()).collect()))
        .collect()
}

#[pymodule]
fn _recount(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The bearoff tables kept between processes, as the command line keeps
    // them (a Spark worker builds them once, not in every process).
    recount::bg::eval::table_cache::use_default_dir();
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(totals, m)?)?;
    m.add_function(wrap_pyfunction!(input_order, m)?)?;
    m.add_function(wrap_pyfunction!(report_names, m)?)?;
    m.add_function(wrap_pyfunction!(report_keys, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
