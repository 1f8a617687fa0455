//! The reports as tables for other tools: every report's row key is
//! unique and never empty, and the keys join the reports without losing
//! or multiplying a row.

use super::util::{self, fixtures_run, repo, stderr};
use recount::report::read::TableRows;
use recount::report::{Format, Table};
use std::collections::{HashMap, HashSet};
use std::path::Path;

type Rows = Vec<HashMap<String, String>>;

fn key_of(row: &HashMap<String, String>, keys: &[&str]) -> String {
    keys.iter()
        .map(|k| row[*k].as_str())
        .collect::<Vec<_>>()
        .join("\u{1f}")
}

#[test]
fn row_keys_are_unique_and_game_keys_never_empty() {
    let out = fixtures_run();
    for t in Table::ALL {
        let rows: Rows = util::rows(out, t.file_name());
        if t != Table::Summary {
            assert!(!rows.is_empty(), "{} has rows", t.name());
        }
        let mut seen = HashSet::new();
        for r in &rows {
            assert!(seen.insert(key_of(r, t.keys())), "{}: {r:?}", t.name());
            let game_row = t != Table::BgStats || r["scope"] == "game";
            if let Some(k) = r.get("game_key").filter(|_| game_row) {
                let file = r
                    .get("member")
                    .filter(|m| !m.is_empty())
                    .map_or_else(|| r["source"].clone(), |m| format!("{}/{m}", r["source"]));
                assert_eq!(*k, format!("{file}#{}", r["game"]), "{}", t.name());
            }
        }
    }
}

/// The same Go game and match loose and inside a tar archive: four games
/// each with its own key, joined one to one, members' keys naming them.
#[test]
fn keys_tell_loose_files_and_archive_members_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    std::fs::create_dir(&dir).unwrap();
    let files = [
        "fixtures/go/kgs/2000-10-16-1.sgf",
        "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat",
    ];
    let mut tar = tar::Builder::new(std::fs::File::create(dir.join("a.tar")).unwrap());
    for f in files {
        let name = Path::new(f).file_name().unwrap();
        std::fs::copy(repo().join(f), dir.join(name)).unwrap();
        tar.append_path_with_name(repo().join(f), Path::new("x").join(name))
            .unwrap();
    }
    tar.finish().unwrap();
    drop(tar);
    let out = tmp.path().join("out");
    let o = util::run(&[dir.to_str().unwrap(), "--quiet"], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let keys = |t: &str| -> Vec<String> {
        util::rows(&out, t)
            .into_iter()
            .map(|r| r["game_key"].clone())
            .collect()
    };
    let go = keys("go_games.csv");
    let d = dir.display();
    assert_eq!(
        go,
        [
            format!("{d}/2000-10-16-1.sgf#1"),
            format!("{d}/a.tar/x/2000-10-16-1.sgf#1")
        ]
    );
    assert_eq!(keys("go_scores.csv"), go);
    let bg: HashSet<String> = keys("bg_games.csv").into_iter().collect();
    let cube = keys("bg_cube.csv");
    assert!(cube.iter().all(|k| bg.contains(k)), "{cube:?}");
    assert!(cube.iter().any(|k| k.contains("/a.tar/x/")), "{cube:?}");
    assert!(cube.iter().any(|k| !k.contains("/a.tar/")), "{cube:?}");
}

#[test]
fn game_keys_join_every_row_to_one_game() {
    let out = fixtures_run();
    let keys = |t: &str| -> HashSet<String> {
        util::rows(out, t)
            .into_iter()
            .map(|r| r["game_key"].clone())
            .collect()
    };
    let go = keys("go_games.csv");
    let bg = keys("bg_games.csv");
    assert_eq!(go.len(), util::rows(out, "go_games.csv").len());
    assert_eq!(keys("go_scores.csv"), go, "go_scores one to one");
    for (t, games) in [
        ("go_zones.csv", &go),
        ("bg_cube.csv", &bg),
        ("bg_plays.csv", &bg),
        ("bg_positions.csv", &bg),
    ] {
        let k = keys(t);
        assert!(!k.is_empty() && k.is_subset(games), "{t}");
    }
    let stats: Rows = util::rows(out, "bg_stats.csv");
    for r in &stats {
        match r["scope"].as_str() {
            "game" => assert!(bg.contains(&r["game_key"]), "{r:?}"),
            "match" => assert!(r["game_key"].is_empty() && !r["file_key"].is_empty()),
            _ => assert!(r["file_key"].is_empty() && !r["player_key"].is_empty()),
        }
    }
}

#[test]
fn parquet_reports_hold_the_csv_rows_with_their_types() {
    let out = fixtures_run();
    for t in Table::ALL {
        let csv = TableRows::read(&out.join(t.file(Format::Csv))).unwrap();
        let parquet = TableRows::read(&out.join(t.file(Format::Parquet))).unwrap();
        assert_eq!(parquet.columns, csv.columns, "{}", t.name());
        assert_eq!(parquet.rows.len(), csv.rows.len(), "{}", t.name());
        for (i, (p, c)) in parquet.rows.iter().zip(&csv.rows).enumerate() {
            assert_eq!(p, c, "{} row {}", t.name(), i + 1);
        }
    }
}

/// The same bytes from one thread and two; a run in one format removes
/// the other format's reports of an older run.
#[test]
fn parquet_reports_are_deterministic_and_never_stale() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |j: &str, format: &str| {
        let out = tmp.path().join(format!("{format}-{j}"));
        let args = [
            "fixtures/go/kgs",
            "fixtures/bg/real",
            "-q",
            "--positions",
            "-j",
            j,
        ];
        let o = util::run(&[&args[..], &["--format", format]].concat(), &out, "");
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (one, two) = (run("1", "parquet"), run("2", "parquet"));
    for t in Table::ALL {
        let name = t.file(Format::Parquet);
        let bytes = std::fs::read(one.join(&name)).unwrap();
        assert_eq!(bytes, std::fs::read(two.join(&name)).unwrap(), "{name}");
        assert!(!one.join(t.file(Format::Csv)).exists());
    }
    let o = util::run(&["fixtures/go/kgs", "-q"], &two, "");
    assert!(o.status.success(), "{}", stderr(&o));
    for t in Table::ALL {
        assert!(two.join(t.file(Format::Csv)).is_file());
        assert!(!two.join(t.file(Format::Parquet)).exists(), "{}", t.name());
    }
}
