//! `report.html`: its figures are the reports' totals; it needs nothing
//! from the network; `recount report` makes the same page again from CSV
//! or Parquet; and in a real browser (Debian's chromium, headless) it loads
//! without a console message and draws a page that is not blank.
//!
//! The browser tests need `chromium` (`bash scripts/get-test-tools.sh`);
//! without it they say so and pass, unless `RECOUNT_TEST_TOOLS=1` (set by
//! `.ci/run`), where they fail.

use super::util::{bin, fixtures_run, rows, stderr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every `data-figure="name">value<` of a page, by name.
fn figures(html: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in html.split("data-figure=\"").skip(1) {
        let (name, rest) = part.split_once('"').unwrap();
        let value = rest.split_once('>').unwrap().1.split('<').next().unwrap();
        let name = name.replace("&amp;", "&").replace("&#39;", "'");
        assert!(
            out.insert(name.clone(), value.to_string()).is_none(),
            "{name} twice"
        );
    }
    out
}

fn page(out: &Path) -> String {
    std::fs::read_to_string(out.join("report.html")).unwrap()
}

/// Counts of `column`'s values in `table`.
fn counts(out: &Path, table: &str, column: &str) -> BTreeMap<String, u64> {
    let mut c = BTreeMap::new();
    for r in rows(out, table) {
        *c.entry(r[column].clone()).or_default() += 1;
    }
    c
}

fn sign(v: &str) -> i32 {
    let v: f64 = v.parse().unwrap();
    (v > 0.0) as i32 - (v < 0.0) as i32
}

#[test]
fn the_pages_figures_are_the_reports_totals() {
    let out = fixtures_run();
    let got = figures(&page(out));
    let mut want: BTreeMap<String, String> = BTreeMap::new();
    for r in rows(out, "summary.csv")
        .iter()
        .filter(|r| r["metric"] == "read")
    {
        want.insert(format!("read.{}", r["name"]), r["count"].clone());
    }
    for (stage, n) in counts(out, "errors.csv", "stage") {
        want.insert(format!("errors.{stage}"), n.to_string());
    }
    want.insert("errors".into(), rows(out, "errors.csv").len().to_string());
    let scores = rows(out, "go_scores.csv");
    want.insert(
        "go.games".into(),
        rows(out, "go_games.csv").len().to_string(),
    );
    for (v, n) in counts(out, "go_scores.csv", "verdict") {
        want.insert(format!("verdict.{v}"), n.to_string());
    }
    let mismatches = scores
        .iter()
        .filter(|r| ["margin_mismatch", "winner_flip"].contains(&r["verdict"].as_str()))
        .count();
    want.insert("mismatches".into(), mismatches.to_string());
    let contested = scores
        .iter()
        .filter(|r| r["doubtful_stones"].parse::<u32>().is_ok_and(|n| n > 0))
        .count();
    want.insert("contested".into(), contested.to_string());
    // The winner under each interpretation against the declared rules',
    // counted here from the scores, and as go_interpretations.csv has it.
    let columns = recount::report::html::figures::SCORES;
    let scored: Vec<_> = scores
        .iter()
        .filter(|r| !r["score_declared"].is_empty())
        .collect();
    want.insert("go.scored".into(), scored.len().to_string());
    for (name, column) in columns {
        let differs = scored
            .iter()
            .filter(|r| sign(&r[column]) != sign(&r["score_declared"]))
            .count();
        want.insert(
            format!("interpretation.{name}.winner_differs"),
            differs.to_string(),
        );
        want.insert(
            format!("interpretation.{name}.games"),
            scored.len().to_string(),
        );
        for (other, c2) in columns {
            let n = scored
                .iter()
                .filter(|r| sign(&r[column]) != sign(&r[c2]))
                .count();
            want.insert(format!("winner_pair.{name}.{other}"), n.to_string());
        }
    }
    for r in rows(out, "go_interpretations.csv") {
        let name = &r["interpretation"];
        assert_eq!(
            want[&format!("interpretation.{name}.winner_differs")],
            r["winner_differs"]
        );
    }
    for (s, n) in counts(out, "go_zones.csv", "status") {
        want.insert(format!("go_zone_status.{s}"), n.to_string());
    }
    let mut solved: BTreeMap<String, u64> = BTreeMap::new();
    for z in rows(out, "go_zones.csv")
        .iter()
        .filter(|z| z["status"] == "solved")
    {
        *solved.entry(z["zone_type"].clone()).or_default() += 1;
    }
    for (t, n) in solved {
        want.insert(format!("go_zone_type.{t}"), n.to_string());
    }
    let copied = |file: &str| -> Vec<std::collections::HashMap<String, String>> {
        rows(out, file)
            .into_iter()
            .filter(|r| !r["duplicate_of"].is_empty())
            .collect()
    };
    want.insert(
        "go.duplicates".into(),
        copied("go_games.csv").len().to_string(),
    );
    let copies: std::collections::BTreeSet<String> = copied("bg_games.csv")
        .into_iter()
        .map(|r| r["file_key"].clone())
        .collect();
    want.insert("bg.duplicates".into(), copies.len().to_string());
    let games = rows(out, "bg_games.csv");
    want.insert("bg.games".into(), games.len().to_string());
    let matches: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g["file_key"].as_str()).collect();
    want.insert("bg.matches".into(), matches.len().to_string());
    for (e, n) in counts(out, "bg_games.csv", "ending") {
        want.insert(format!("bg_ending.{e}"), n.to_string());
    }
    let mut findings: BTreeMap<String, u64> = BTreeMap::new();
    for g in &games {
        let mut kinds: Vec<&str> = g["finding_kinds"]
            .split(';')
            .filter(|k| !k.is_empty())
            .collect();
        kinds.dedup();
        for k in kinds {
            *findings.entry(k.into()).or_default() += 1;
        }
    }
    want.insert(
        "finding_games".into(),
        games
            .iter()
            .filter(|g| g["findings"] != "0")
            .count()
            .to_string(),
    );
    for (k, n) in findings {
        want.insert(format!("bg_finding.{k}"), n.to_string());
    }
    let mut cube: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for c in rows(out, "bg_cube.csv") {
        if c["doubler_error"].is_empty() && c["taker_error"].is_empty() {
            continue;
        }
        let action = &c["actual_action"];
        let mut add = |who: &str, error: &str| {
            let e = cube.entry(format!("{who}: {action}")).or_default();
            e.0 += 1;
            e.1 += u64::from(error.parse::<f64>().unwrap_or(0.0) > 0.0);
        };
        add("doubler", &c["doubler_error"]);
        if action.starts_with("Double, ") {
            add("taker", &c["taker_error"]);
        }
    }
    assert!(cube.len() >= 3, "{cube:?}");
    for (k, (decisions, errors)) in cube {
        want.insert(format!("cube.{k}.decisions"), decisions.to_string());
        want.insert(format!("cube.{k}.errors"), errors.to_string());
    }
    plays_figures(out, &copies, &mut want);
    let players: Vec<_> = rows(out, "bg_stats.csv")
        .into_iter()
        .filter(|r| r["scope"] == "player")
        .collect();
    want.insert("players".into(), players.len().to_string());
    let rate = |v: &str| {
        v.parse::<f64>()
            .map_or("–".to_string(), |v| format!("{v:.2}"))
    };
    // The page lists the players with the most moves (then by key).
    let mut shown: Vec<_> = players.iter().collect();
    let moves = |p: &&std::collections::HashMap<String, String>| {
        p["total_moves"].parse::<u64>().unwrap_or(0)
    };
    shown.sort_by(|a, b| {
        moves(b)
            .cmp(&moves(a))
            .then_with(|| a["player_key"].cmp(&b["player_key"]))
    });
    for p in shown.iter().take(recount::report::html::figures::PLAYERS) {
        let k = &p["player_key"];
        want.insert(format!("player.{k}.moves"), p["total_moves"].clone());
        want.insert(format!("player.{k}.error_rate"), rate(&p["error_rate"]));
        want.insert(format!("player.{k}.luck_rate"), rate(&p["luck_rate"]));
    }
    // Every figure counted here is on the page, with the same value; the
    // page's cube-by-score figures are sums the cube rows above add up to.
    for (k, v) in &want {
        assert_eq!(got.get(k), Some(v), "figure {k}");
    }
    let by_score: u64 = got
        .iter()
        .filter(|(k, _)| k.starts_with("cube_score.") && k.ends_with(".decisions"))
        .map(|(_, v)| v.parse::<u64>().unwrap())
        .sum();
    assert!(by_score > 0);
    let left: Vec<_> = got
        .keys()
        .filter(|k| !want.contains_key(*k) && !k.starts_with("cube_score."))
        .collect();
    assert!(left.is_empty(), "figures not checked: {left:?}");
}

#[test]
fn the_page_loads_nothing_and_is_made_again_from_csv_or_parquet() {
    let out = fixtures_run();
    let html = page(out);
    for outside in ["src=", "href=", "url(", "<script", "<link", "@import"] {
        assert!(!html.contains(outside), "{outside}");
    }
    assert!(html.matches("<svg").count() >= 10);
    // Again from the CSVs, and from the Parquet files alone.
    let tmp = tempfile::tempdir().unwrap();
    for ext in ["csv", "parquet"] {
        let dir = tmp.path().join(ext);
        std::fs::create_dir(&dir).unwrap();
        for e in std::fs::read_dir(out).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == ext) {
                std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
            }
        }
        let o = bin().arg("report").arg(&dir).output().unwrap();
        assert!(
            o.status.success() && stderr(&o).is_empty(),
            "{}",
            stderr(&o)
        );
        assert_eq!(page(&dir), html, "from {ext}");
    }
    assert!(!html.contains("data-figure=\"missing\""));
    // A column renamed (another version's reports) is said, on the page
    // and on stderr.
    let old = tmp.path().join("old");
    std::fs::create_dir(&old).unwrap();
    for e in std::fs::read_dir(tmp.path().join("csv")).unwrap() {
        let p = e.unwrap().path();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if p.ends_with("go_scores.csv") {
            let (header, rows) = text.split_once('\n').unwrap();
            assert!(header.contains(",verdict,"), "{header}");
            text = format!("{}\n{rows}", header.replace(",verdict,", ",old_verdict,"));
        }
        std::fs::write(old.join(p.file_name().unwrap()), text).unwrap();
    }
    let o = bin().arg("report").arg(&old).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("go_scores.csv: verdict"),
        "{}",
        stderr(&o)
    );
    assert!(figures(&page(&old))["missing"].contains("go_scores.csv: verdict"));
    // A report missing from the directory is not taken for a run without
    // it.
    let dir = tmp.path().join("csv");
    std::fs::remove_file(dir.join("bg_stats.csv")).unwrap();
    let o = bin().arg("report").arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bg_stats.csv (the whole report)"),
        "{}",
        stderr(&o)
    );
    let text = page(&dir);
    assert!(
        text.contains("<code>bg_stats.csv</code> is missing")
            && !text.contains("No play was rated"),
        "{text}"
    );
    assert_eq!(figures(&text)["missing"], "bg_stats.csv (the whole report)");
    let o = bin().arg("report").arg(tmp.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds no reports of a run"),
        "{}",
        stderr(&o)
    );
    // A run that read nothing says so.
    let empty = tmp.path().join("empty");
    let o = super::util::run(&["fixtures/malformed/empty.zip", "-q"], &empty, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = page(&empty);
    assert!(text.contains("No Go game was read.") && text.contains("No backgammon game"));
    assert_eq!(figures(&text)["errors.archive"], "1");
    // --no-html writes none, and removes an older run's.
    let dir = tmp.path().join("csv");
    let o = super::util::run(&["fixtures/go/kgs", "-q", "--no-html"], &dir, "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dir.join("report.html").exists());
}

/// Debian's chromium, or `None` (said) when it is not installed and the
/// run does not require it.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromium"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let why = "chromium is not installed (bash scripts/get-test-tools.sh installs it)";
        assert!(std::env::var_os("RECOUNT_TEST_TOOLS").is_none(), "{why}");
        recount::note_skipped_test(why);
    }
    found
}

/// Runs headless chromium on `page` with `args`, in a fresh profile and
/// with everything that would reach the network off.
fn headless(chromium: &Path, page: &Path, args: &[&str]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap()
}

/// The page's console messages, as chromium logs them.
fn console(o: &Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect()
}

#[test]
fn in_a_browser_the_page_loads_without_errors_and_is_drawn() {
    let Some(chromium) = chromium() else { return };
    let out = fixtures_run();
    let tmp = tempfile::tempdir().unwrap();
    // The console is read: a page with an error shows it.
    let broken = tmp.path().join("broken.html");
    let html = page(out);
    std::fs::write(
        &broken,
        html.replace("</body>", "<script>noSuchFunction()</script></body>"),
    )
    .unwrap();
    let o = headless(&chromium, &broken, &["--dump-dom"]);
    assert!(
        console(&o).iter().any(|l| l.contains("noSuchFunction")),
        "{}",
        stderr(&o)
    );
    // The page itself: no message, every figure in the DOM as in the file.
    let path = out.join("report.html");
    let o = headless(&chromium, &path, &["--dump-dom"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(console(&o), Vec::<String>::new());
    let dom = String::from_utf8(o.stdout).unwrap();
    assert_eq!(figures(&dom), figures(&html));
    // A screenshot: mostly white, with text and bars in several colours.
    let shot = tmp.path().join("shot.png");
    let o = headless(
        &chromium,
        &path,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    assert_eq!(pixels.len(), 1280 * 2400);
    let ink = pixels
        .iter()
        .filter(|p| p[..3].iter().any(|&c| c < 200))
        .count();
    let blue = pixels.iter().filter(|p| p[2] > 140 && p[0] < 90).count();
    let share = |n: usize| n as f64 / pixels.len() as f64;
    assert!(share(ink) > 0.02 && share(ink) < 0.6, "ink {}", share(ink));
    assert!(share(blue) > 0.002, "bars {}", share(blue));
}

/// The checker-play figures, counted from `bg_plays.csv` without the plays
/// of the repeated matches `copies` (by `file_key`).
fn plays_figures(
    out: &Path,
    copies: &std::collections::BTreeSet<String>,
    want: &mut BTreeMap<String, String>,
) {
    use recount::report::html::figures::{LARGEST, LOSS_BINS};
    let (copied, plays): (Vec<_>, Vec<_>) = rows(out, "bg_plays.csv").into_iter().partition(|r| {
        let key = &r["game_key"];
        copies.contains(key.rsplit_once('#').unwrap().0)
    });
    assert!(!copied.is_empty() && !plays.is_empty());
    let mut put = |k: String, v: &dyn ToString| {
        want.insert(k, v.to_string());
    };
    put("plays".into(), &plays.len());
    put("plays.repeated".into(), &copied.len());
    let rated = |r: &&std::collections::HashMap<String, String>| !r["loss"].is_empty();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in plays.iter().filter(|r| !rated(r)) {
        *reasons.entry(&r["reason"]).or_default() += 1;
    }
    for (reason, n) in reasons {
        put(format!("plays.not_rated.{reason}"), &n);
    }
    let with = |choices: &'static str| {
        plays
            .iter()
            .filter(move |r| rated(r) && r["choices"] == choices)
    };
    put("plays.forced".into(), &with("1").count());
    put("plays.no_play".into(), &with("0").count());
    let mut unforced: Vec<_> = plays
        .iter()
        .filter(|r| rated(r) && !["0", "1"].contains(&r["choices"].as_str()))
        .collect();
    put("plays.unforced".into(), &unforced.len());
    for mark in ["none", "doubtful", "bad", "very_bad"] {
        let n = unforced
            .iter()
            .filter(|r| r["mark"] == mark || (mark == "none" && r["mark"].is_empty()))
            .count();
        put(format!("play_mark.{mark}"), &n);
    }
    let loss = |r: &std::collections::HashMap<String, String>| r["loss"].parse::<f64>().unwrap();
    for (i, (name, top)) in LOSS_BINS.iter().enumerate() {
        let low = if i == 0 {
            f64::NEG_INFINITY
        } else {
            LOSS_BINS[i - 1].1
        };
        let n = unforced
            .iter()
            .filter(|r| loss(r) > low && loss(r) <= *top)
            .count();
        put(format!("play_loss.{name}"), &n);
    }
    for mark in ["very_lucky", "lucky", "none", "unlucky", "very_unlucky"] {
        let n = plays
            .iter()
            .filter(|r| !r["luck"].is_empty())
            .filter(|r| r["luck_mark"] == mark || (mark == "none" && r["luck_mark"].is_empty()))
            .count();
        put(format!("luck_mark.{mark}"), &n);
    }
    unforced.sort_by(|a, b| loss(b).total_cmp(&loss(a)));
    for (i, r) in unforced.iter().take(LARGEST).enumerate() {
        put(format!("largest.{}", i + 1), &format!("{:.4}", loss(r)));
    }
}

/// Each of the largest losses on the page comes with the `recount explain
/// --play` command that shows it: run as a shell runs it, each says the
/// same loss.
#[test]
fn the_pages_play_commands_show_those_plays() {
    let checked = run_play_commands(&page(fixtures_run()), "");
    assert_eq!(checked, recount::report::html::figures::LARGEST);
}

/// A run with a match equity table of its own (`--met FILE`, a table
/// named otherwise) gives its explain commands that table.
#[test]
fn the_pages_play_commands_name_the_runs_own_table() {
    let dir = tempfile::tempdir().unwrap();
    let xml = std::fs::read_to_string(super::util::repo().join("data/met/Kazaross-XG2.xml"))
        .unwrap()
        .replacen("<name>", "<name>Own copy of ", 1);
    let met = dir.path().join("own table.xml");
    std::fs::write(&met, xml).unwrap();
    let met = met.to_str().unwrap();
    let out = dir.path().join("out");
    let f = "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat";
    let o = super::util::run(&[f, "--plays", "--met", met], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let checked = run_play_commands(&page(&out), met);
    assert!(checked > 0);
}

/// Runs every `recount explain --play` command of the page's largest
/// losses as a shell runs it, each of which names `met` when it is not
/// empty; each must say the page's loss. Returns how many ran.
fn run_play_commands(html: &str, met: &str) -> usize {
    let unescape = |s: &str| {
        s.replace("&#39;", "'")
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    };
    let mut checked = 0;
    for row in html.split("<tr>").filter(|r| r.contains("--play ")) {
        let cmd = row
            .split("<code>")
            .nth(1)
            .unwrap()
            .split("</code>")
            .next()
            .unwrap();
        let cmd = unescape(cmd);
        assert_eq!(
            cmd.contains(&format!("--met '{met}'")),
            !met.is_empty(),
            "{cmd}"
        );
        let figure = row.split("data-figure=\"largest.").nth(1).unwrap();
        let loss = figure.split_once('>').unwrap().1.split('<').next().unwrap();
        let args = cmd.strip_prefix("recount ").unwrap();
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("\"$RECOUNT\" {args}"))
            .env("RECOUNT", env!("CARGO_BIN_EXE_recount"))
            .env("RECOUNT_CACHE_DIR", super::util::table_cache())
            .current_dir(super::util::repo())
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        let said = text
            .split(", loss ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(
            format!("{:.4}", said.parse::<f64>().unwrap()),
            loss,
            "{cmd}"
        );
        checked += 1;
    }
    checked
}
