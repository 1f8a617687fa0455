//! Every report loads in DuckDB, CSV and Parquet, with sensible types, and
//! joins on its keys with no row lost or repeated
//! (`tests/tests/duckdb_reports.py`, run by DuckDB's Python package).
//!
//! Needs `.venv-duckdb/` (`bash scripts/get-test-tools.sh`); without it
//! the test says so and passes, unless `RECOUNT_TEST_TOOLS=1` (set by
//! `.ci/run`), where it fails.

use super::util::{fixtures_run, repo, rows};
use recount::report::columns::Kind;
use recount::report::Table;
use std::process::Command;

/// The key columns never NULL, with the rows they are for.
const NEVER_NULL: [(&str, &str, &str); 11] = [
    ("go_games", "game_key", ""),
    ("go_scores", "game_key", ""),
    ("go_zones", "game_key", ""),
    ("bg_games", "game_key", ""),
    ("bg_games", "file_key", ""),
    ("bg_positions", "game_key", ""),
    ("bg_cube", "game_key", ""),
    ("bg_plays", "game_key", ""),
    ("bg_stats", "game_key", "scope = 'game'"),
    ("bg_stats", "file_key", "scope <> 'player'"),
    ("errors", "file_key", ""),
];

/// Child, rows, parent, key; whether the parent has several rows per key.
const JOINS: [(&str, &str, &str, &str, bool); 9] = [
    ("go_scores", "", "go_games", "game_key", false),
    ("go_games", "", "go_scores", "game_key", false),
    ("go_zones", "", "go_games", "game_key", false),
    ("bg_positions", "", "bg_games", "game_key", false),
    ("bg_cube", "", "bg_games", "game_key", false),
    ("bg_plays", "", "bg_games", "game_key", false),
    ("bg_stats", "scope = 'game'", "bg_games", "game_key", false),
    ("bg_stats", "scope = 'match'", "bg_games", "file_key", true),
    ("bg_games", "", "bg_games", "file_key", true),
];

fn json_list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(","))
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn every_report_loads_in_duckdb_and_joins_on_its_keys() {
    let python = repo().join(".venv-duckdb/bin/python");
    if !python.is_file() {
        let why = "DuckDB is not installed (bash scripts/get-test-tools.sh installs it)";
        assert!(std::env::var_os("RECOUNT_TEST_TOOLS").is_none(), "{why}");
        recount::note_skipped_test(why);
        return;
    }
    let out = fixtures_run();
    let tables = Table::ALL.iter().map(|t| {
        let kinds = t.kinds().iter().map(|k| {
            quoted(match k {
                Kind::Text => "Text",
                Kind::Int => "Int",
                Kind::Float32 => "Float32",
                Kind::Float64 => "Float64",
                Kind::Bool => "Bool",
            })
        });
        let never_null = NEVER_NULL
            .iter()
            .filter(|(table, ..)| *table == t.name())
            .map(|(_, c, w)| json_list([quoted(c), quoted(w)]));
        format!(
            "{{\"name\":{},\"columns\":{},\"kinds\":{},\"rows\":{},\"keys\":{},\"never_null\":{}}}",
            quoted(t.name()),
            json_list(t.columns().iter().map(|c| quoted(c))),
            json_list(kinds),
            rows(out, t.file_name()).len(),
            json_list(t.keys().iter().map(|k| quoted(k))),
            json_list(never_null),
        )
    });
    let joins = JOINS.iter().map(|(child, w, parent, key, distinct)| {
        format!(
            "{{\"child\":{},\"where\":{},\"parent\":{},\"key\":{},\"distinct\":{distinct}}}",
            quoted(child),
            quoted(w),
            quoted(parent),
            quoted(key)
        )
    });
    let spec = format!(
        "{{\"tables\":{},\"joins\":{}}}",
        json_list(tables),
        json_list(joins)
    );
    let tmp = tempfile::tempdir().unwrap();
    let spec_path = tmp.path().join("spec.json");
    std::fs::write(&spec_path, spec).unwrap();
    let o = Command::new(&python)
        .arg(repo().join("tests/tests/duckdb_reports.py"))
        .arg(&spec_path)
        .arg(out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && said.trim() == "ok",
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
