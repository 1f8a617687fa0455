//! `report.html`: one self-contained page of a run's figures, made from
//! its reports alone (so `recount report OUT_DIR` can make it again from
//! the CSV or Parquet files): what was read and what failed; for Go the
//! verdicts, how often the winner changes between interpretations, the
//! margin differences, the audited mismatches and the estimator's
//! contested games with the `recount explain` command of each, the zones'
//! move values by type; for backgammon the endings and findings, the cube
//! errors by decision and match score, the checker plays' losses (by
//! gnubg's marks, by size, the largest) and the rolls' luck, each player's
//! error rates and luck. Charts are inline SVG; no script, style sheet or font is loaded.
//!
//! Every figure taken from the reports carries a `data-figure` attribute
//! naming it (`verdict.agrees`, `read.go_games`...), so a test can read
//! the page back and compare.

mod charts;
pub mod figures;

use crate::go::audit::Verdict;
use figures::{CubeTally, Figures, Histogram, Listing, LOSS_BINS, LUCK_MARKS, MARKS, SCORES};
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::Path;

/// Most match scores shown in the cube table (those with the most
/// decisions).
const SCORES_SHOWN: usize = 16;

/// The page's file name in the output directory.
pub const FILE: &str = "report.html";

/// Writes the page of the reports in `dir` to `out`, synced; returns
/// what the page reads that the directory lacks ([`Figures::missing`]):
/// a report file, or a column (`file: column`) as another version of
/// recount may write them.
///
/// # Errors
/// A report that cannot be read, a page that cannot be written.
pub fn write(dir: &Path, out: &Path) -> io::Result<Vec<String>> {
    let figures =
        Figures::gather(dir).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let mut file = std::fs::File::create(out)?;
    file.write_all(page(&figures).as_bytes())?;
    file.sync_all()?;
    Ok(figures.missing)
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table cell holding figure `name`.
fn figure(name: &str, value: impl std::fmt::Display) -> String {
    format!("<td class=\"n\" data-figure=\"{}\">{value}</td>", esc(name))
}

/// A table of counts by name, each count figure `prefix.name`.
fn counts<'a>(h: &mut String, rows: impl IntoIterator<Item = (&'a str, u64)>, prefix: &str) {
    h.push_str("<table>\n");
    for (name, n) in rows {
        let cell = figure(&format!("{prefix}.{name}"), n);
        let _ = writeln!(h, "<tr><th>{}</th>{cell}</tr>", esc(name));
    }
    h.push_str("</table>\n");
}

/// The entries of a map of counts, for [`counts`].
fn entries(map: &std::collections::BTreeMap<String, u64>) -> impl Iterator<Item = (&str, u64)> {
    map.iter().map(|(k, n)| (k.as_str(), *n))
}

/// An optional rate to two decimals; `–` when empty.
fn rate(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.2}"))
}

const STYLE: &str = "body{font:14px/1.45 sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-top:1.4em}\
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\
code{font-size:12px;background:#f6f6f6;padding:1px 3px}.charts{display:flex;flex-wrap:wrap;gap:8px}\
.note{color:#555}td.m{white-space:nowrap}";

/// The whole page.
pub fn page(f: &Figures) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        h,
        "<title>recount report</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    );
    h.push_str("<h1>recount report</h1>\n");
    read_section(&mut h, f);
    go_section(&mut h, f);
    bg_section(&mut h, f);
    h.push_str("</body>\n</html>\n");
    h
}

fn read_section(h: &mut String, f: &Figures) {
    if !f.missing.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"note\"><strong>The directory lacks what this page reads</strong> \
             (a report lost, or written by another version of recount?): <span \
             data-figure=\"missing\">{}</span>. The figures made from them are left out or \
             shown as –.</p>",
            esc(&f.missing.join(", "))
        );
    }
    h.push_str("<h2 id=\"read\">What was read</h2>\n<table>\n");
    for (name, count, unit) in &f.read {
        let _ = writeln!(
            h,
            "<tr><th>{}</th>{}<td>{}</td></tr>",
            esc(&name.replace('_', " ")),
            figure(&format!("read.{name}"), count),
            esc(unit)
        );
    }
    h.push_str("</table>\n");
    if let Some((why, n)) = &f.stopped {
        let _ = writeln!(
            h,
            "<p><strong>The run stopped early</strong> ({}: {n}); the reports hold what was read before.</p>",
            esc(why)
        );
    }
    if f.errors.total == 0 {
        h.push_str("<p>Nothing failed: no row in <code>errors.csv</code>.</p>\n");
    } else {
        h.push_str("<h3>What failed (<code>errors.csv</code>), by stage</h3>\n");
        counts(h, entries(&f.errors_by_stage), "errors");
        listing(h, &f.errors, &["file", "game", "stage", "reason"], "errors");
    }
    if !f.settings.is_empty() {
        h.push_str("<details><summary>Settings of the run (<code>settings.csv</code>)</summary>\n<table>\n");
        for (s, v) in &f.settings {
            let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(s), esc(v));
        }
        h.push_str("</table>\n</details>\n");
    }
}

/// A table of listed games, with a line saying how many were left out.
fn listing(h: &mut String, l: &Listing, headers: &[&str], name: &str) {
    h.push_str("<table>\n<tr>");
    for head in headers {
        let _ = write!(h, "<th>{}</th>", esc(head));
    }
    h.push_str("</tr>\n");
    for g in &l.games {
        let _ = write!(h, "<tr><td>{}", esc(&g.game_key));
        if let Some(c) = &g.command {
            let _ = write!(h, "<br><code>{}</code>", esc(c));
        }
        h.push_str("</td>");
        for c in &g.cells {
            let _ = write!(h, "<td>{}</td>", esc(c));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    let _ = write!(
        h,
        "<p class=\"note\"><span data-figure=\"{name}\">{}</span> in all",
        l.total
    );
    if l.total > l.games.len() as u64 {
        let _ = write!(h, "; the first {} are listed", l.games.len());
    }
    h.push_str(".</p>\n");
}

/// Histograms side by side, each titled with how many `things` it counts.
fn histograms(h: &mut String, items: &[(String, &Histogram)], unit: &str, things: &str) {
    h.push_str("<div class=\"charts\">\n");
    for (title, hist) in items {
        let title = format!("{title} ({} {things})", hist.total);
        h.push_str(&charts::histogram(&title, hist, unit));
        h.push('\n');
    }
    h.push_str("</div>\n");
}

fn go_section(h: &mut String, f: &Figures) {
    h.push_str("<h2 id=\"go\">Go</h2>\n");
    if f.go_games == 0 {
        h.push_str("<p>No Go game was read.</p>\n");
        return;
    }
    let _ = writeln!(
        h,
        "<p><span data-figure=\"go.games\">{}</span> games replayed, <span data-figure=\"go.scored\">{}</span> counted under every interpretation; <span data-figure=\"go.duplicates\">{}</span> of them repeat a game read before (<code>go_games.duplicate_of</code>).</p>",
        f.go_games, f.scored, f.go_repeated
    );
    h.push_str("<h3>Verdicts: the count under the declared rules against <code>RE</code></h3>\n");
    let verdicts: Vec<(&str, u64)> = Verdict::ALL
        .iter()
        .map(|v| (v.name(), f.verdicts.get(v.name()).copied().unwrap_or(0)))
        .collect();
    let bars: Vec<(String, f64)> = verdicts
        .iter()
        .map(|(v, n)| (v.to_string(), *n as f64))
        .collect();
    h.push_str(&charts::bars(&bars, "games"));
    h.push('\n');
    counts(h, verdicts.iter().copied(), "verdict");

    h.push_str("<h3>How often the winner changes between interpretations</h3>\n");
    h.push_str("<p class=\"note\">Against the declared rules' count (<code>go_interpretations.csv</code>):</p>\n<table>\n<tr><th>interpretation</th><th>games</th><th>winner differs</th><th>mean |difference|, points</th></tr>\n");
    for (name, games, differs, mean) in &f.interpretations {
        let _ = writeln!(
            h,
            "<tr><th>{}</th>{}{}<td class=\"n\">{}</td></tr>",
            esc(name),
            figure(&format!("interpretation.{name}.games"), games),
            figure(&format!("interpretation.{name}.winner_differs"), differs),
            rate(*mean)
        );
    }
    h.push_str("</table>\n");
    let differs: Vec<(String, f64)> = f
        .interpretations
        .iter()
        .map(|(n, _, d, _)| (n.clone(), *d as f64))
        .collect();
    h.push_str(&charts::bars(
        &differs,
        "games whose winner differs from the declared rules'",
    ));
    h.push_str("\n<p class=\"note\">Between each pair (games whose winners differ):</p>\n<table>\n<tr><th></th>");
    for (name, _) in SCORES {
        let _ = write!(h, "<th>{name}</th>");
    }
    h.push_str("</tr>\n");
    for (i, (a, _)) in SCORES.iter().enumerate() {
        let _ = write!(h, "<tr><th>{a}</th>");
        for (j, (b, _)) in SCORES.iter().enumerate() {
            h.push_str(&figure(
                &format!("winner_pair.{a}.{b}"),
                f.winner_pairs[i][j],
            ));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");

    h.push_str("<h3>Margin differences</h3>\n");
    let mut items = vec![(
        "count under the declared rules − RE".to_string(),
        &f.vs_record,
    )];
    for (i, (name, _)) in SCORES.iter().enumerate() {
        items.push((format!("{name} − declared rules"), &f.vs_declared[i]));
    }
    histograms(h, &items, "points (Black − White)", "games");

    h.push_str("<h3>Audited mismatches</h3>\n<p class=\"note\">Each with the command that shows its count line by line.</p>\n");
    let heads = [
        "game",
        "verdict",
        "RE",
        "count",
        "dead stones",
        "doubtful stones",
        "reason",
    ];
    listing(h, &f.mismatches, &heads, "mismatches");
    h.push_str("<h3>The estimator's contested games</h3>\n<p class=\"note\">Games whose estimated dead stones include chains whose fate was a coin flip of the playouts (<code>doubtful_stones</code>).</p>\n");
    listing(h, &f.contested, &heads, "contested");

    h.push_str("<h3>Endgame zones</h3>\n");
    if f.zone_status.is_empty() {
        h.push_str("<p>No zone was asked for (<code>--zones-at</code>, <code>--zones-from-end</code>).</p>\n");
        return;
    }
    counts(h, entries(&f.zone_status), "go_zone_status");
    h.push_str("<p class=\"note\">Move values (difference of the followers' counts) of the solved zones, by type:</p>\n");
    let items: Vec<(String, &Histogram)> = f
        .zone_values
        .iter()
        .map(|(t, hist)| (t.clone(), hist))
        .collect();
    for (t, hist) in &items {
        let _ = writeln!(
            h,
            "<span hidden data-figure=\"go_zone_type.{}\">{}</span>",
            esc(t),
            hist.total
        );
    }
    histograms(h, &items, "move value, points", "zones");
}

/// The checker plays: how many were decisions, their losses by gnubg's
/// marks and by size, the largest, and the luck of the rolls.
fn plays_section(h: &mut String, f: &Figures) {
    h.push_str("<h3>Checker play</h3>\n");
    let Some(p) = &f.plays else {
        h.push_str("<p>No play was rated (<code>--plays</code>).</p>\n");
        return;
    };
    let plies = f.setting("plies").unwrap_or("?");
    let _ = writeln!(
        h,
        "<p>From <code>bg_plays.csv</code>, rated at {}-ply: <span data-figure=\"plays\">{}</span> plays, <span data-figure=\"plays.repeated\">{}</span> more in matches that repeat one read before left out. <span data-figure=\"plays.unforced\">{}</span> were decisions (two or more distinct plays), <span data-figure=\"plays.forced\">{}</span> forced, <span data-figure=\"plays.no_play\">{}</span> rolls could not be played.</p>",
        esc(plies),
        p.rows,
        p.repeated,
        p.unforced,
        p.forced,
        p.no_play
    );
    if !p.not_rated.is_empty() {
        h.push_str("<p class=\"note\">Not rated, by reason:</p>\n");
        counts(h, entries(&p.not_rated), "plays.not_rated");
    }
    if p.unforced == 0 {
        return;
    }
    h.push_str("<p class=\"note\">The decisions by GNU Backgammon's marks (loss above 0.03 doubtful, 0.06 bad, 0.12 very bad; EMG, per unit of the cube):</p>\n<table>\n<tr><th>mark</th><th>plays</th><th>total loss</th><th>mean loss</th></tr>\n");
    for (mark, (n, loss)) in MARKS.iter().zip(p.marks) {
        let mean = (n > 0).then(|| loss / n as f64);
        let _ = writeln!(
            h,
            "<tr><th>{mark}</th>{}<td class=\"n\">{loss:.3}</td><td class=\"n\">{}</td></tr>",
            figure(&format!("play_mark.{mark}"), n),
            mean.map_or_else(|| "–".to_string(), |m| format!("{m:.4}"))
        );
    }
    h.push_str("</table>\n");
    let bins: Vec<(String, f64)> = LOSS_BINS
        .iter()
        .zip(p.losses)
        .map(|((name, _), n)| (name.to_string(), n as f64))
        .collect();
    h.push_str(&charts::bars(&bins, "decisions by loss, EMG"));
    h.push('\n');
    counts(
        h,
        LOSS_BINS.iter().map(|(name, _)| *name).zip(p.losses),
        "play_loss",
    );
    let _ = writeln!(
        h,
        "<p class=\"note\">The {} largest losses, with the GNU Backgammon ID of the position before the play (<code>set gnubgid</code> in gnubg):</p>",
        p.largest.len()
    );
    h.push_str("<table>\n<tr><th>play</th><th>player</th><th>dice</th><th>played</th><th>best</th><th>loss</th><th>gnubg ID</th></tr>\n");
    for (i, l) in p.largest.iter().enumerate() {
        let _ = writeln!(
            h,
            "<tr><td>{}{}</td><td>{}</td><td>{}</td><td class=\"m\">{}</td><td class=\"m\">{}</td>{}<td><code>{}</code></td></tr>",
            esc(&l.play),
            l.command
                .as_ref()
                .map_or_else(String::new, |c| format!("<br><code>{}</code>", esc(c))),
            esc(&l.player),
            esc(&l.dice),
            esc(&l.played),
            esc(&l.best),
            figure(&format!("largest.{}", i + 1), format!("{:.4}", l.loss)),
            esc(&l.gnubg_id)
        );
    }
    h.push_str("</table>\n");
    h.push_str("<p class=\"note\">The luck of the rolls (GNU Backgammon's marks: above 0.3 lucky, 0.6 very lucky; below −0.3 unlucky, −0.6 very unlucky):</p>\n");
    counts(h, LUCK_MARKS.iter().copied().zip(p.luck), "luck_mark");
}

fn cube_table(h: &mut String, rows: &[(&String, &CubeTally)], prefix: &str, head: &str) {
    let _ = writeln!(
        h,
        "<table>\n<tr><th>{head}</th><th>decisions</th><th>errors</th><th>error, EMG (per cube)</th></tr>"
    );
    for (k, t) in rows {
        let _ = writeln!(
            h,
            "<tr><th>{}</th>{}{}<td class=\"n\">{:.3}</td></tr>",
            esc(k),
            figure(&format!("{prefix}.{k}.decisions"), t.decisions),
            figure(&format!("{prefix}.{k}.errors"), t.errors),
            t.error
        );
    }
    h.push_str("</table>\n");
}

fn bg_section(h: &mut String, f: &Figures) {
    h.push_str("<h2 id=\"backgammon\">Backgammon</h2>\n");
    if f.bg_games == 0 {
        h.push_str("<p>No backgammon game was read.</p>\n");
        return;
    }
    let _ = writeln!(
        h,
        "<p><span data-figure=\"bg.games\">{}</span> games in <span data-figure=\"bg.matches\">{}</span> matches; <span data-figure=\"bg.duplicates\">{}</span> of them repeat a match read before (<code>bg_games.duplicate_of</code>) and count once in the players' statistics.</p>",
        f.bg_games, f.bg_matches, f.bg_repeated
    );
    h.push_str("<h3>Endings</h3>\n");
    counts(h, entries(&f.endings), "bg_ending");
    h.push_str("<h3>Findings of the audit</h3>\n");
    if f.findings.is_empty() {
        h.push_str("<p>No game has a finding.</p>\n");
    } else {
        let rows: Vec<(String, f64)> = f
            .findings
            .iter()
            .map(|(k, n)| (k.clone(), *n as f64))
            .collect();
        h.push_str(&charts::bars(&rows, "games with the finding"));
        h.push('\n');
        counts(h, entries(&f.findings), "bg_finding");
        listing(
            h,
            &f.finding_games,
            &["game", "players", "findings", "details"],
            "finding_games",
        );
    }

    h.push_str("<h3>Cube errors by decision</h3>\n");
    if f.cube_by_type.is_empty() {
        h.push_str("<p>No cube decision was evaluated.</p>\n");
    } else {
        let rows: Vec<(String, f64)> = f
            .cube_by_type
            .iter()
            .map(|(k, t)| (k.clone(), t.error))
            .collect();
        h.push_str(&charts::bars(&rows, "error, EMG (per cube)"));
        let rows: Vec<_> = f.cube_by_type.iter().collect();
        cube_table(h, &rows, "cube", "decision");
        h.push_str("<h3>Cube errors by match score</h3>\n");
        let mut rows: Vec<_> = f.cube_by_score.iter().collect();
        rows.sort_by(|a, b| b.1.decisions.cmp(&a.1.decisions).then_with(|| a.0.cmp(b.0)));
        let shown = rows.len().min(SCORES_SHOWN);
        cube_table(
            h,
            &rows[..shown],
            "cube_score",
            "score (on roll / opponent)",
        );
        if rows.len() > shown {
            let _ = writeln!(
                h,
                "<p class=\"note\">The {shown} scores with the most decisions of {}.</p>",
                rows.len()
            );
        }
    }

    plays_section(h, f);

    h.push_str("<h3>Players: error rates and luck</h3>\n");
    if f.players.is_empty() {
        if f.setting("plays") == Some("true") {
            h.push_str("<p>The run rated plays (<code>--plays</code>), but this directory's <code>bg_stats.csv</code> is missing or has no player rows.</p>\n");
        } else {
            h.push_str("<p>No play was rated (<code>--plays</code>).</p>\n");
        }
        return;
    }
    let _ = writeln!(
        h,
        "<p class=\"note\">From <code>bg_stats.csv</code> (scope <code>player</code>), mEMG per decision as GNU Backgammon gives them; the {} players with the most moves of <span data-figure=\"players\">{}</span>.</p>",
        f.players.len(),
        f.player_count
    );
    let rows: Vec<(String, f64)> = f
        .players
        .iter()
        .filter_map(|p| p.error_rate.map(|r| (p.name.clone(), r)))
        .collect();
    h.push_str(&charts::bars(&rows, "error rate, mEMG"));
    h.push_str("\n<table>\n<tr><th>player</th><th>matches</th><th>games</th><th>moves</th><th>error rate</th><th>chequer play</th><th>cube</th><th>PR</th><th>luck rate</th><th>luck rating</th><th>rating</th></tr>\n");
    for p in &f.players {
        let k = &p.key;
        let _ = writeln!(
            h,
            "<tr><th>{}</th><td class=\"n\">{}</td><td class=\"n\">{}</td>{}{}<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>{}<td>{}</td><td>{}</td></tr>",
            esc(&p.name),
            p.matches,
            p.games,
            figure(&format!("player.{k}.moves"), p.moves),
            figure(&format!("player.{k}.error_rate"), rate(p.error_rate)),
            rate(p.checker_error_rate),
            rate(p.cube_error_rate),
            rate(p.pr),
            figure(&format!("player.{k}.luck_rate"), rate(p.luck_rate)),
            esc(&p.luck_rating),
            esc(&p.rating)
        );
    }
    h.push_str("</table>\n");
}
