//! `recount check` on expectations files, and `recount diff` between runs.
//! The readings recount ships (fixtures/expectations/) all hold; a wrong
//! value, a tolerance, an unknown column, `--update` and a malformed file
//! each behave as docs/expectations.md says.

use super::util::{bin, repo, rows, run, stderr};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Output;

fn check(args: &[&str]) -> Output {
    bin()
        .arg("check")
        .args(args)
        .output()
        .expect("recount runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts the exit status, and that stdout or stderr says `text`.
fn says(o: &Output, code: i32, text: &str) {
    let all = format!("{}{}", stdout(o), stderr(o));
    assert_eq!(o.status.code(), Some(code), "{all}");
    assert!(all.contains(text), "{text:?} missing in\n{all}");
}

/// An expectations file in `dir` whose record is `seed-03.txt` of the
/// fixtures (count 3 in the seed: "The count is 4 - 1 = 3").
fn seed_03(dir: &Path, expect: &str) -> String {
    let record = repo().join("fixtures/diagrams/seed-03.txt");
    let path = dir.join("reading.toml");
    fs::write(
        &path,
        format!(
            "# my reading\n[[entry]]\nname = \"seed 3\"\nsource = \"the seed\"\nfile = {:?}\nexpect = {{ {expect} }}\n",
            record.display().to_string()
        ),
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn every_shipped_reading_holds() {
    let mut files: Vec<String> = fs::read_dir(repo().join("fixtures/expectations"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let o = check(&args);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    let total = text.lines().last().unwrap();
    assert!(total.ends_with(" hold, 0 failed"), "{total}");
    // Every seed example is there: 6 counted diagrams, 5 Song positions,
    // 4 move-value positions, 4 beaver and raccoon readings.
    let entries: usize = total
        .split(", ")
        .find_map(|p| p.strip_suffix(" entries"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(entries >= 6 + 5 + 4 + 4 + 128 + 50 + 8, "{total}");
}

#[test]
fn a_wrong_value_fails_with_the_entry_column_values_and_source() {
    let dir = tempfile::tempdir().unwrap();
    let f = seed_03(
        dir.path(),
        "score_count = 4, traditional = \"Black has 3 points more than White\"",
    );
    let o = check(&[&f]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("entry 1 \"seed 3\": score_count: expected 4, got 3.0; source: the seed"),
        "{text}"
    );
    assert!(text.ends_with("2 values: 1 hold, 1 failed\n"), "{text}");
}

#[test]
fn a_tolerance_holds_within_and_fails_beyond() {
    let dir = tempfile::tempdir().unwrap();
    let f = seed_03(dir.path(), "score_count = { value = 3.4, tolerance = 0.5 }");
    assert_eq!(check(&[&f]).status.code(), Some(0));
    let f = seed_03(dir.path(), "score_count = { value = 3.6, tolerance = 0.5 }");
    let o = check(&[&f]);
    says(&o, 1, "expected 3.6 ± 0.5, got 3.0");
}

#[test]
fn a_column_no_report_has_is_a_failure_never_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let f = seed_03(dir.path(), "score_count = 3, score_japanes = 3");
    let o = check(&[&f]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains(
            "score_japanes: go_scores has no column `score_japanes`; did you mean `score_japanese`?"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn update_rewrites_the_values_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let f = seed_03(
        dir.path(),
        "score_count = 4, traditional = \"wrong\", song_score = 2",
    );
    let o = check(&[&f, "--update"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(text.contains("score_count: 4 -> 3.0 (updated)"), "{text}");
    assert!(text.contains("traditional: \"wrong\" -> \"Black has 3 points more than White\""));
    let new = fs::read_to_string(&f).unwrap();
    assert!(
        new.starts_with("# my reading\n[[entry]]\nname = \"seed 3\"\n"),
        "{new}"
    );
    assert!(
        new.contains("expect = { score_count = 3, traditional = \"Black has 3 points more than White\", song_score = 2 }"),
        "{new}"
    );
    assert_eq!(check(&[&f]).status.code(), Some(0));
    // Written beside it and renamed over it: nothing else is left.
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // Through a link, the file it points to is updated; the link stays.
    #[cfg(unix)]
    {
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        let text = fs::read_to_string(&f)
            .unwrap()
            .replace("song_score = 2", "song_score = 9");
        fs::write(&f, text).unwrap();
        let o = check(&[&link.display().to_string(), "--update"]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::read_to_string(&f).unwrap().contains("song_score = 2"));
    }
}

#[test]
fn a_malformed_file_names_the_file_the_entry_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let f = seed_03(dir.path(), "score_count = 3");
    let text = fs::read_to_string(&f)
        .unwrap()
        .replace("expect =", "expct =");
    fs::write(&f, text).unwrap();
    let o = check(&[&f]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "{f}: entry 1 \"seed 3\": unknown key `expct`; did you mean `expect`?"
        )),
        "{e}"
    );
    // Options are recount run's.
    fs::write(
        &f,
        "[[entry]]\ntext = \"X.XXOO\\nXXXOOO\\n\"\noptions = [\"--rulez\", \"x\"]\nexpect = { score_count = 1 }\n",
    )
    .unwrap();
    let o = check(&[&f]);
    says(
        &o,
        2,
        "entry 1 (line 1): options: unexpected argument '--rulez'",
    );
    // And none that would do nothing in an entry.
    for option in ["--out", "--shard"] {
        fs::write(
            &f,
            format!("[[entry]]\ntext = \"X.XXOO\\nXXXOOO\\n\"\noptions = [\"{option}\", \"1/2\"]\nexpect = {{ score_count = 1 }}\n"),
        )
        .unwrap();
        let o = check(&[&f]);
        says(
            &o,
            2,
            &format!("entry 1 (line 1): options: {option} does nothing here"),
        );
    }
    let o = check(&["no/such/file.toml"]);
    says(&o, 2, "no/such/file.toml: cannot read it");
}

#[test]
fn a_three_line_file_reads_a_record_written_inline() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("three.toml");
    let game = "(;GM[1]SZ[5]KM[0.5]RU[Japanese]RE[B+2.5];B[cc];W[];B[])";
    fs::write(
        &f,
        format!("[[entry]]\ntext = {game:?}\nexpect = {{ verdict = \"margin_mismatch\" }}\n"),
    )
    .unwrap();
    let o = check(&[&f.display().to_string()]);
    // A lone stone on 5x5 counts 24 points, not 2.5: the verdict says so.
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn diff_names_every_game_the_rules_change() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("japanese"), dir.path().join("chinese"));
    for (out, rules) in [(&a, "japanese"), (&b, "chinese")] {
        let o = run(&["fixtures", "--rules", rules, "-q"], out, "");
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The games whose go_scores.csv row differs, found here.
    let (ra, rb) = (rows(&a, "go_scores.csv"), rows(&b, "go_scores.csv"));
    assert_eq!(ra.len(), rb.len());
    let changed: BTreeSet<String> = ra
        .iter()
        .zip(&rb)
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x["game_key"].clone())
        .collect();
    assert!(changed.len() >= 10, "{changed:?}");
    let csv = dir.path().join("changes.csv");
    let o = bin()
        .args([
            "diff",
            &a.display().to_string(),
            &b.display().to_string(),
            "--changes",
        ])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    let named: BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  changed "))
        .filter_map(|l| l.split_once(": ").map(|(k, _)| k.to_string()))
        .collect();
    for game in &changed {
        assert!(named.contains(game), "{game} not named in\n{text}");
    }
    assert!(text.contains("go_scores.csv: "), "{text}");
    assert!(text.contains("  changed columns: rules "), "{text}");
    assert!(text.contains("  verdict: "), "{text}");
    assert!(text.contains("  score_winner: "), "{text}");
    let lines = fs::read_to_string(&csv).unwrap();
    assert!(
        lines.starts_with("report,change,key,column,a,b\n"),
        "{lines}"
    );
    for game in &changed {
        assert!(
            lines.contains(&format!("go_scores,changed,{game},rules,japanese,chinese")),
            "{game}"
        );
    }
    // A run against itself: identical, exit 0; ignoring the changed
    // columns of one report leaves the others.
    let same = bin()
        .args(["diff", &a.display().to_string(), &a.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(same.status.code(), Some(0), "{}", stdout(&same));
    let bad = bin()
        .args([
            "diff",
            &a.display().to_string(),
            &b.display().to_string(),
            "--ignore",
            "nope",
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("no report has a column `nope`"));
    let empty = tempfile::tempdir().unwrap();
    let o = bin()
        .args(["diff", &a.display().to_string()])
        .arg(empty.path())
        .output()
        .unwrap();
    says(&o, 2, "holds no reports of a run");
    // A report changed since it was written: its row has a cell too many.
    let damaged = tempfile::tempdir().unwrap();
    for e in fs::read_dir(&a).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), damaged.path().join(e.file_name())).unwrap();
    }
    let scores = damaged.path().join("go_scores.csv");
    let text = fs::read_to_string(&scores).unwrap();
    fs::write(&scores, text.replacen('\n', ",extra\n", 2)).unwrap();
    let o = bin()
        .args(["diff", &a.display().to_string()])
        .arg(damaged.path())
        .output()
        .unwrap();
    says(
        &o,
        2,
        "go_scores.csv' is not a CSV report as recount writes it",
    );
    says(&o, 2, "write it again with recount run");
}

#[test]
fn diff_ignores_the_columns_named() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let game = "fixtures/go/kgs/2000-10-16-1.sgf";
    let o = run(
        &[game, "--zones-from-end", "10", "--zone-timing", "-q"],
        &a,
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // B: A's reports with one zone's timing changed.
    fs::create_dir(&b).unwrap();
    for e in fs::read_dir(&a).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().ends_with(".csv") {
            fs::copy(e.path(), b.join(e.file_name())).unwrap();
        }
    }
    let zones = fs::read_to_string(b.join("go_zones.csv")).unwrap();
    let mut r = csv::Reader::from_reader(zones.as_bytes());
    let header = r.headers().unwrap().clone();
    let col = header.iter().position(|h| h == "search_ms").unwrap();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).unwrap();
    for (i, rec) in r.records().enumerate() {
        let mut cells: Vec<String> = rec.unwrap().iter().map(str::to_string).collect();
        if i == 0 {
            cells[col] = "123456.789".into();
        }
        w.write_record(&cells).unwrap();
    }
    fs::write(b.join("go_zones.csv"), w.into_inner().unwrap()).unwrap();
    let diff = |more: &[&str]| {
        bin()
            .args(["diff", &a.display().to_string(), &b.display().to_string()])
            .args(more)
            .output()
            .unwrap()
    };
    let o = diff(&[]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("go_zones.csv: ") && text.contains("changed columns: search_ms 1"),
        "{text}"
    );
    assert!(text.contains("go_scores.csv: identical"), "{text}");
    let o = diff(&["--ignore", "search_ms"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // A report lost from one directory is said, even where the other's
    // has no rows.
    fs::remove_file(b.join("bg_games.csv")).unwrap();
    let o = diff(&["--ignore", "search_ms"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("bg_games.csv: 0 rows in A, 0 in B")
            && stdout(&o).contains("the file is missing from B's directory"),
        "{}",
        stdout(&o)
    );
    let changes = dir.path().join("changes.csv");
    let o = diff(&[
        "--ignore",
        "search_ms",
        "--changes",
        changes.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(fs::read_to_string(&changes)
        .unwrap()
        .contains("bg_games,file_missing_in_b,bg_games.csv,,,"));
    let o = bin()
        .args(["diff", "nowhere", &a.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'nowhere' does not exist"),
        "{}",
        stderr(&o)
    );
}
