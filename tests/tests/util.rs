//! Runs the real binary in temporary directories.
#![allow(dead_code)]

use recount::analysis::bg_match::BgSettings;
use recount::analysis::go_score::ScoreSettings;
use recount::bg::game::replay::KeepCube;
use recount::commands::run::Settings;
use recount::go::dead::decide::DeadSettings;
use recount::go::endgame::position::ZoneSettings;
use recount::ingest::ReadLimits;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_recount"));
    c.current_dir(repo());
    // The bearoff tables are kept in the build's directory, not the user's.
    c.env("RECOUNT_CACHE_DIR", table_cache());
    c
}

/// Where the tests' runs keep the bearoff tables.
pub fn table_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("table-cache")
}

/// Runs recount with `args` (a subcommand such as `explain`), checks that
/// it succeeded and returns what it printed.
pub fn stdout_of(args: &[&str]) -> String {
    let o = bin().args(args).output().expect("recount runs");
    assert!(o.status.success(), "recount {args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Runs recount with `args` and `--out out`, feeding `stdin`.
pub fn run(args: &[&str], out: &Path, stdin: &str) -> Output {
    let mut child = bin()
        .args(args)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("recount runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn read(out: &Path, table: &str) -> String {
    fs::read_to_string(out.join(table)).unwrap()
}

/// Rows of a CSV report as maps from column to value.
pub fn rows(out: &Path, table: &str) -> Vec<std::collections::HashMap<String, String>> {
    csv_file(&out.join(table))
}

/// Rows of any CSV file as maps from column to value.
pub fn csv_file(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The `go_scores.csv` row of a one-game `file` scored with estimated dead
/// stones (the run must succeed).
pub fn estimated_score_row(file: &str) -> std::collections::HashMap<String, String> {
    estimated_score_row_with(file, &[])
}

/// [`estimated_score_row`] with more options (`--seed N`…).
pub fn estimated_score_row_with(
    file: &str,
    more: &[&str],
) -> std::collections::HashMap<String, String> {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = vec![file, "--dead-stones", "estimate"];
    args.extend_from_slice(more);
    let o = run(&args, tmp.path(), "");
    assert!(o.status.success(), "{file}: {}", stderr(&o));
    rows(tmp.path(), "go_scores.csv").swap_remove(0)
}

/// Asserts that `recount explain` with `args` prints each of `lines`
/// as a whole line.
pub fn explain_prints(args: &[&str], lines: &[&str]) {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    let text = stdout_of(&all);
    for line in lines {
        assert!(text.lines().any(|l| l == *line), "{line}\n{text}");
    }
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Settings for feeding malformed input to `process`: every check and
/// report on (`--check-sgf`, `--agrees-if`, positions, every cube
/// decision, and the zones on a small budget when `zones`), games up to
/// `max_game_bytes`, and a cheap estimator of `playouts`, one vote.
pub fn every_analysis(max_game_bytes: u64, playouts: u32, zones: bool) -> Settings<'static> {
    Settings {
        limits: ReadLimits { max_game_bytes },
        check_sgf: true,
        dead: DeadSettings {
            playouts,
            votes: 1,
            ..Default::default()
        },
        score: ScoreSettings {
            agrees_if: true,
            ..Default::default()
        },
        zones: zones.then(|| ZoneSettings {
            budget: 20_000,
            ..Default::default()
        }),
        bg: BgSettings {
            positions: true,
            decisions: KeepCube::All,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// One run over every bundled fixture with every report filled (zones,
/// plays, positions, every cube decision; CSV and Parquet, the page),
/// shared by the tests of the reports as tables and as a page; made once
/// per test binary, in Cargo's temporary folder for integration tests.
pub fn fixtures_run() -> &'static Path {
    static OUT: OnceLock<PathBuf> = OnceLock::new();
    OUT.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fixtures-run");
        let _ = std::fs::remove_dir_all(&out);
        let o = run(
            &[
                "fixtures",
                "--zones-from-end",
                "10",
                "--agrees-if",
                "--plays",
                "--positions",
                "--all-cube-decisions",
                "--format",
                "both",
                "--quiet",
            ],
            &out,
            "",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        out
    })
}
