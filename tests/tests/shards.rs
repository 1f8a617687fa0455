//! `--shard K/N` and `recount merge`: the shards of a run, run with any
//! thread count and merged in any order, give the bytes of one run (CSV,
//! Parquet, the page), over files, archive members, duplicates, skipped
//! files, error rows and backgammon statistics; and shards that are not
//! one run's are refused, each case said.

use super::archives::{gz, tar};
use super::util::*;
use std::fs;
use std::path::{Path, PathBuf};

/// An input with a bit of everything: Go and backgammon files, a tar.gz
/// of games (one a copy of a loose file: a duplicate; one not a game:
/// skipped; one corrupt: an error row), malformed files.
fn input() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let game = fs::read(repo().join("fixtures/go/clamshell/2019-04-30-1.sgf")).unwrap();
    let members: Vec<(String, Vec<u8>)> = (0..12)
        .map(|i| {
            let moves = ["ee", "cc", "gc", "eg", "ce", "gg"][..1 + i % 6].join("];B[");
            let sgf = format!("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+{i}.5];B[{moves}])");
            (format!("games/{i:02}.sgf"), sgf.into_bytes())
        })
        .chain([
            ("games/copy.sgf".to_string(), game),
            ("games/README".to_string(), b"not a game".to_vec()),
            ("games/cut.sgf".to_string(), b"(;GM[1]SZ[9];B[ee".to_vec()),
        ])
        .collect();
    let members: Vec<(&str, &[u8])> = members.iter().map(|(n, d)| (&n[..], &d[..])).collect();
    fs::write(dir.path().join("games.tar.gz"), gz(&tar(&members))).unwrap();
    let paths = vec![
        dir.path().join("games.tar.gz"),
        repo().join("fixtures/go/clamshell"),
        repo().join("fixtures/go/kgs"),
        repo().join("fixtures/malformed"),
        repo().join("fixtures/bg/money"),
        repo().join("fixtures/bg/gnubg"),
    ];
    (dir, paths)
}

/// Runs recount on `paths` with `args` into `out`; checks it succeeded.
fn recount(paths: &[PathBuf], args: &[&str], out: &Path) {
    let o = bin()
        .args(paths)
        .args(args)
        .args([
            "--plays",
            "--zones-from-end",
            "4",
            "--format",
            "both",
            "-q",
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

fn merge(shards: &[&Path], out: &Path) -> std::process::Output {
    bin()
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Every report file in `dir`, by name (the lock file and the shard files
/// left out).
fn reports(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| !n.starts_with('.') && !n.starts_with("shard"))
        .map(|(n, p)| (n, fs::read(p).unwrap()))
        .collect();
    files.sort();
    files
}

fn assert_same_reports(a: &Path, b: &Path) {
    let (a, b) = (reports(a), reports(b));
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    assert_eq!(a.len(), 25, "12 reports in CSV and Parquet, and the page");
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }
}

/// The `duplicate_of` values of `table` in `dir`, each checked to be a
/// `game_key` of the table.
fn duplicates_named(dir: &Path, table: &str) -> Vec<String> {
    let games = rows(dir, table);
    let keys: std::collections::HashSet<&str> =
        games.iter().map(|r| r["game_key"].as_str()).collect();
    let named: Vec<String> = games
        .iter()
        .map(|r| r["duplicate_of"].clone())
        .filter(|d| !d.is_empty())
        .collect();
    assert!(named.iter().all(|d| keys.contains(d.as_str())), "{named:?}");
    named
}

#[test]
fn shards_merged_in_any_order_are_the_bytes_of_one_run() {
    let (_input, paths) = input();
    let out = tempfile::tempdir().unwrap();
    let one = out.path().join("one");
    recount(&paths, &["-j", "2"], &one);
    // What the input holds, so the comparison below is not of nothing.
    let summary = read(&one, "summary.csv");
    // Skipped: the archive's README and fixtures/malformed/README.md.
    for line in ["read,files_skipped,2,", "read,bg_matches,5,"] {
        assert!(summary.contains(line), "{line} in {summary}");
    }
    // Each duplicate names its first row by that row's key, an archive
    // member's too; the gnubg .mat and SGF of one match are a backgammon
    // duplicate.
    let go = duplicates_named(&one, "go_games.csv");
    assert!(go.len() > 1, "{go:?}");
    assert!(go.iter().any(|d| d.contains(".tar.gz/")), "{go:?}");
    assert!(!duplicates_named(&one, "bg_games.csv").is_empty());
    assert!(read(&one, "errors.csv").contains("truncated SGF"));
    assert!(read(&one, "bg_stats.csv").contains("\nplayer,"));

    let shard = |k: u32, n: u32| out.path().join(format!("s{k}of{n}"));
    for n in [1, 3] {
        for k in 1..=n {
            let threads = if k % 2 == 0 { "1" } else { "2" };
            recount(
                &paths,
                &["--shard", &format!("{k}/{n}"), "-j", threads],
                &shard(k, n),
            );
        }
    }
    let by_file = |k: u32| out.path().join(format!("f{k}"));
    for k in 1..=2 {
        let part = format!("{k}/2");
        recount(
            &paths,
            &["--shard", &part, "--shard-by", "file"],
            &by_file(k),
        );
    }
    // Each shard holds only some of the games.
    let games = |dir: &Path| rows(dir, "go_games.csv").len();
    let parts: Vec<usize> = (1..=3).map(|k| games(&shard(k, 3))).collect();
    assert_eq!(parts.iter().sum::<usize>(), games(&one), "{parts:?}");
    assert!(parts.iter().all(|&g| g > 0 && g < games(&one)), "{parts:?}");

    let merged = out.path().join("merged");
    let (s1, s2, s3) = (shard(1, 3), shard(2, 3), shard(3, 3));
    let o = merge(&[&s3, &s1, &s2], &merged);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_reports(&one, &merged);
    assert!(
        !merged.join("shard.json").exists(),
        "a merged run is not a shard"
    );

    let merged = out.path().join("merged1");
    assert!(merge(&[&shard(1, 1)], &merged).status.success());
    assert_same_reports(&one, &merged);

    // By file: the archive is in one part, whole.
    let merged = out.path().join("merged_by_file");
    assert!(merge(&[&by_file(2), &by_file(1)], &merged).status.success());
    assert_same_reports(&one, &merged);
    let in_archive = |dir: &Path| {
        rows(dir, "go_games.csv")
            .iter()
            .filter(|r| r["source"].ends_with("games.tar.gz"))
            .count()
    };
    let (a, b) = (in_archive(&by_file(1)), in_archive(&by_file(2)));
    assert!((a, b) == (0, 13) || (a, b) == (13, 0), "{a} {b}");
}

#[test]
fn shards_that_are_not_one_runs_are_refused() {
    let (_input, paths) = input();
    let paths = &paths[1..3];
    let out = tempfile::tempdir().unwrap();
    let dir = |name: &str| out.path().join(name);
    let quick = |args: &[&str], into: &str| {
        let o = bin()
            .args(paths)
            .args(args)
            .args(["-q", "--no-html", "--out"])
            .arg(dir(into))
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    quick(&["--shard", "1/2"], "a1");
    quick(&["--shard", "2/2"], "a2");
    quick(&["--shard", "2/2", "--rules", "aga"], "b2");
    quick(&["--shard", "2/3"], "c2");
    quick(&[], "plain");
    let refused = |shards: &[&str], into: &str, says: &str| {
        let shards: Vec<PathBuf> = shards.iter().map(|s| dir(s)).collect();
        let shards: Vec<&Path> = shards.iter().map(|p| p.as_path()).collect();
        let o = merge(&shards, &dir(into));
        assert_eq!(o.status.code(), Some(2), "{shards:?}");
        let e = stderr(&o);
        assert!(e.contains(says), "{says}: {e}");
        if into == "m" {
            assert!(!dir(into).join("summary.csv").exists());
        }
    };
    refused(&["a1"], "m", "shard 2/2 missing");
    refused(&["a1", "a1"], "m", "are both shard 1/2");
    refused(&["a1", "b2"], "m", "other settings");
    refused(&["a1", "b2"], "m", "(rules: aga against japanese)");
    // Settings that shape only some reports count too.
    for (name, args, says) in [
        ("p2", &["--plies", "1"][..], "(plies: 1 against 0)"),
        (
            "k2",
            &["--charset", "GBK"][..],
            "(charset: GBK against auto)",
        ),
    ] {
        quick(&[&["--shard", "2/2"][..], args].concat(), name);
        refused(&["a1", name], "m", says);
    }
    refused(&["a1", "c2"], "m", "is shard 2/3 but");
    quick(&["--shard", "2/2", "--shard-by", "file"], "f2");
    refused(&["a1", "f2"], "m", "--shard-by file but");
    refused(
        &["a1", "plain"],
        "m",
        "give the --out directories of the runs made with --shard",
    );
    refused(&["a1", "a2"], "a1", "is one of the shards");
    // A shard's reports changed or cut short since they were written.
    let damage = |into: &str, file: &str, change: &dyn Fn(String) -> String| {
        std::fs::create_dir(dir(into)).unwrap();
        for e in std::fs::read_dir(dir("a2")).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir(into).join(e.file_name())).unwrap();
        }
        let path = dir(into).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, change(text)).unwrap();
    };
    damage("cut2", "go_games.csv", &|t| t.trim_end().to_string());
    refused(
        &["a1", "cut2"],
        "m",
        "the last row is cut off; run the shard again",
    );
    damage("set2", "settings.csv", &|t| t + "one,two,three\n");
    refused(&["a1", "set2"], "m", "settings.csv: CSV error");
    refused(&["a1", "set2"], "m", "; run the shard again");
    assert!(merge(&[&dir("a2"), &dir("a1")], &dir("ok"))
        .status
        .success());

    // A shard of other paths.
    let o = bin()
        .args(&paths[..1])
        .args(["--shard", "2/2", "-q", "--no-html", "--out"])
        .arg(dir("d2"))
        .output()
        .unwrap();
    assert!(o.status.success());
    refused(&["a1", "d2"], "m", "read other paths");

    // --max-games cannot be sharded; a plain run leaves no shard files.
    let o = bin()
        .args(paths)
        .args(["--shard", "1/2", "--max-games", "3", "--out"])
        .arg(dir("e"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--shard and --max-games"),
        "{}",
        stderr(&o)
    );
    assert!(dir("a1").join("shard_units.csv").exists());
    quick(&[], "a1");
    assert!(!dir("a1").join("shard_units.csv").exists());
    assert!(!dir("a1").join("shard.json").exists());
}
