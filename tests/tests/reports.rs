//! The reports as a whole: replaced only by a run that completes (signals,
//! a kill, a failed write keep the previous ones), one run at a time per
//! directory, bounded by `--max-games`, cells capped at 64 KiB.

use super::util::{self, bin, read, repo, stderr};
use recount::commands::run::{run, Control, Settings, Stopped};
use recount::go::dead::decide::DeadSettings;
use recount::ingest::{expand, ReadLimits};
use recount::report::{Format, RowBuf, Sink, Table};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Every report's file name, CSV and Parquet.
fn tables() -> impl Iterator<Item = String> {
    Table::ALL
        .into_iter()
        .flat_map(|t| [t.file(Format::Csv), t.file(Format::Parquet)])
}

/// Every file and directory in `out`, with the files' bytes.
fn snapshot(out: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(out)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = if e.file_type().unwrap().is_file() {
                fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (name, bytes)
        })
        .collect()
}

/// Complete reports of the kgs fixtures in `out`, in both formats.
fn reports_in(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let o = util::run(&["fixtures/go/kgs", "--quiet", "--format", "both"], out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let snap = snapshot(out);
    for t in tables() {
        assert!(snap.contains_key(&t), "{t} written");
    }
    snap
}

/// Starts recount on `args` with `--out out`, without waiting.
fn spawn(args: &[&str], out: &Path) -> Child {
    bin()
        .args(args)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A named pipe nobody writes: a run reading it blocks for good.
fn fifo(dir: &Path) -> PathBuf {
    let p = dir.join("slow.sgf");
    let ok = Command::new("mkfifo").arg(&p).status().unwrap();
    assert!(ok.success());
    p
}

/// Waits until the run has opened its temporary directory in `out`.
fn wait_for_tmp(out: &Path) {
    let start = Instant::now();
    while !snapshot(out).keys().any(|k| k.starts_with(".recount-tmp-")) {
        assert!(start.elapsed() < Duration::from_secs(20), "the run started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(ok.success());
}

/// `n` copies of the kgs fixtures, enough games for a run of a few seconds.
fn many_games(dir: &Path, n: usize) -> PathBuf {
    let games = dir.join("many");
    fs::create_dir(&games).unwrap();
    let kgs: Vec<_> = fs::read_dir(repo().join("fixtures/go/kgs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    for i in 0..n {
        for f in &kgs {
            let name = format!("{i:03}-{}", f.file_name().unwrap().to_string_lossy());
            fs::copy(f, games.join(name)).unwrap();
        }
    }
    games
}

#[test]
fn a_signal_keeps_the_previous_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let before = reports_in(&out);
    let slow = fifo(tmp.path());
    let many = many_games(tmp.path(), 20);
    for (sig, status, input) in [
        ("INT", 130, &slow),
        ("TERM", 143, &slow),
        ("INT", 130, &many),
        ("TERM", 143, &many),
    ] {
        let child = spawn(&[input.to_str().unwrap(), "--agrees-if", "-j", "2"], &out);
        wait_for_tmp(&out);
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        kill(&child, sig);
        let o = child.wait_with_output().unwrap();
        assert!(sent.elapsed() < Duration::from_secs(10), "stops soon");
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(status), "SIG{sig}: {e}");
        assert!(e.contains(&format!("interrupted by SIG{sig}")), "{e}");
        assert!(e.contains("previous reports"), "{e}");
        assert_eq!(snapshot(&out), before, "SIG{sig} on {}", input.display());
    }
}

#[test]
fn a_killed_run_leaves_the_reports_and_the_next_run_cleans_up() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let before = reports_in(&out);
    let slow = fifo(tmp.path());
    let mut child = spawn(&[slow.to_str().unwrap()], &out);
    wait_for_tmp(&out);
    child.kill().unwrap();
    child.wait().unwrap();
    // The dead run's directory is there, hidden, and holds no report.
    let left = snapshot(&out);
    let stale: Vec<_> = left
        .keys()
        .filter(|k| k.starts_with(".recount-tmp-"))
        .collect();
    assert_eq!(stale.len(), 1, "{left:?}");
    for t in tables() {
        assert_eq!(left[&t], before[&t], "{t} untouched by the killed run");
    }
    // The next run removes it and writes the same reports.
    assert_eq!(reports_in(&out), before);
}

#[test]
fn a_failed_write_keeps_the_previous_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let before = reports_in(&out);
    // Files may not grow past 20 KiB (and the signal that would kill the
    // process is ignored): the reports' writes fail part way, like a full disk.
    let o = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 40; exec \"$0\" fixtures --quiet --out \"$1\"")
        .arg(env!("CARGO_BIN_EXE_recount"))
        .arg(&out)
        .current_dir(repo())
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("cannot write reports"), "{e}");
    assert!(e.contains("the previous reports were kept"), "{e}");
    assert_eq!(snapshot(&out), before);
}

#[test]
fn one_run_at_a_time_per_out() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let before = reports_in(&out);
    let slow = fifo(tmp.path());
    let mut first = spawn(&[slow.to_str().unwrap()], &out);
    wait_for_tmp(&out);
    let start = Instant::now();
    let o = util::run(&["fixtures/go/kgs"], &out, "");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(start.elapsed() < Duration::from_secs(10), "at once");
    assert!(
        e.contains(&format!(
            "another recount run is writing to {}; wait for it or choose another --out",
            out.display()
        )),
        "{e}"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    // Once the first has gone, the directory is free again.
    assert_eq!(reports_in(&out), before);
}

#[test]
fn max_games_keeps_the_first_games_in_input_order() {
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all");
    reports_in(&all);
    let all_games = read(&all, "go_games.csv");
    let total = all_games.lines().count() - 1;
    assert!(total > 4, "{total}");
    let mut first = None;
    for j in ["1", "2"] {
        let out = tmp.path().join(format!("j{j}"));
        let o = util::run(&["fixtures/go/kgs", "--max-games", "3", "-j", j], &out, "");
        let e = stderr(&o);
        assert!(o.status.success(), "{e}");
        assert!(e.contains("--max-games 3 reached"), "{e}");
        let games = read(&out, "go_games.csv");
        let want: Vec<&str> = all_games.lines().take(4).collect();
        assert_eq!(games.lines().collect::<Vec<_>>(), want);
        assert_eq!(read(&out, "go_scores.csv").lines().count(), 4);
        let summary = read(&out, "summary.csv");
        assert!(
            summary.ends_with("run,stopped_at_max_games,3,records\n"),
            "{summary}"
        );
        let snap = snapshot(&out);
        match &first {
            None => first = Some(snap),
            Some(f) => assert_eq!(&snap, f, "the same bytes for any thread count"),
        }
    }
    // `-q` keeps the notice quiet; summary.csv still records the limit.
    let out = tmp.path().join("quiet");
    let o = util::run(&["fixtures/go/kgs", "--max-games", "3", "-q"], &out, "");
    assert!(
        o.status.success() && stderr(&o).is_empty(),
        "{}",
        stderr(&o)
    );
    assert!(read(&out, "summary.csv").ends_with("run,stopped_at_max_games,3,records\n"));
    // A limit the input does not reach changes nothing.
    let out = tmp.path().join("roomy");
    let o = util::run(
        &[
            "fixtures/go/kgs",
            "--quiet",
            "--format",
            "both",
            "--max-games",
            &total.to_string(),
        ],
        &out,
        "",
    );
    assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
    assert_eq!(snapshot(&out), snapshot(&all));
    let o = util::run(&["fixtures/go/kgs", "--max-games", "0"], &out, "");
    assert_eq!(o.status.code(), Some(2));
}

/// Keeps rows in memory and asks to stop after `stop_after` units.
struct StopAfter {
    units: usize,
    stop_after: usize,
    rows: RowBuf,
    finished: bool,
}

impl Sink for StopAfter {
    fn record(&mut self, rows: &RowBuf) -> std::io::Result<bool> {
        self.rows.append(rows);
        self.units += 1;
        Ok(self.units < self.stop_after)
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.finished = true;
        Ok(())
    }
}

fn settings() -> Settings<'static> {
    Settings {
        limits: ReadLimits {
            max_game_bytes: 1 << 20,
        },
        scores: false,
        dead: DeadSettings {
            playouts: 8,
            votes: 1,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn a_sink_that_asks_to_stop_stops_the_run() {
    let entries = expand(&[repo().join("fixtures/go/kgs")], &mut std::io::empty()).unwrap();
    let mut sink = StopAfter {
        units: 0,
        stop_after: 1,
        rows: RowBuf::default(),
        finished: false,
    };
    let control = Control::default();
    let s = run(&entries, settings(), 2, false, &mut sink, &control).unwrap();
    assert_eq!(s.stopped, Some(Stopped::BySink));
    assert!(sink.finished);
    // One batch of up to 32 games was recorded, then the summary.
    let games = sink
        .rows
        .bytes(Table::GoGames)
        .split(|&b| b == b'\n')
        .count()
        - 1;
    assert_eq!(games as u64, s.tally.games);
    assert!(games > 0 && games <= 32, "{games}");
    let summary = String::from_utf8(sink.rows.bytes(Table::Summary).to_vec()).unwrap();
    assert!(
        summary.ends_with(&format!("run,stopped_by_sink,{games},records\n")),
        "{summary}"
    );
}

/// The cell of `column` in every row of `table`.
fn column(out: &Path, table: &str, column: &str) -> Vec<String> {
    util::rows(out, table)
        .into_iter()
        .map(|mut r| r.remove(column).unwrap())
        .collect()
}

fn assert_cut(cell: &str, name: &str) {
    assert!(cell.len() <= 64 << 10, "{}", cell.len());
    let kept = cell.find("… [truncated: ").expect("a marker");
    assert!(name.starts_with(&cell[..kept]));
    assert!(kept > 60_000, "{kept}");
    assert_eq!(
        &cell[kept..],
        format!("… [truncated: {} bytes]", name.len() - kept)
    );
}

#[test]
fn huge_player_names_are_cut_at_64_kib() {
    let tmp = tempfile::tempdir().unwrap();
    let name = "Ünïcode-player".repeat(20_000);
    let sgf = fs::read_to_string(repo().join("fixtures/go/kgs/2000-10-16-1.sgf")).unwrap();
    let sgf = sgf.replace("PB[Spirit]", &format!("PB[{name}]"));
    fs::write(tmp.path().join("big-name.sgf"), sgf).unwrap();
    let mat = fs::read_to_string(
        repo().join("fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat"),
    )
    .unwrap();
    fs::write(
        tmp.path().join("big-name.mat"),
        mat.replace("charlot1", &name),
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = util::run(&[tmp.path().to_str().unwrap(), "--quiet"], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let black = column(&out, "go_games.csv", "black");
    assert_eq!(black.len(), 1);
    assert_cut(&black[0], &name);
    let players = column(&out, "bg_games.csv", "player_0");
    assert!(!players.is_empty());
    for p in &players {
        assert_cut(p, &name);
    }
    // No line of any report is longer than a few cells.
    for t in Table::ALL {
        let text = read(&out, t.file_name());
        assert!(text.lines().all(|l| l.len() < 4 << 16), "{t:?}");
    }
}
