//! The summary line of a run.

use crate::cli::config::Config;
use crate::commands::run::Summary;
use crate::go::audit::Verdict;

/// `n` and the noun, singular for one: `1 file`, `2 files`.
fn n(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `" (N repeated)"` when `count` is more than 0.
fn repeated(count: u64) -> String {
    if count > 0 {
        format!(" ({count} repeated)")
    } else {
        String::new()
    }
}

/// The line a run ends with on stderr: what was read, what failed, the
/// speed, and the totals of each analysis that ran (Go's counts left out
/// of a run that read backgammon alone).
pub fn summary_line(s: &Summary, c: &Config) -> String {
    let secs = s.elapsed.as_secs_f64();
    let t = &s.tally;
    let rate = if secs > 0.0 {
        (t.games + t.bg.games) as f64 / secs
    } else {
        0.0
    };
    let skipped = if s.skipped > 0 {
        format!(" ({} skipped)", n(s.skipped, "other file", "other files"))
    } else {
        String::new()
    };
    let sc = &s.tally.scoring;
    let verdicts: Vec<String> = Verdict::ALL
        .iter()
        .zip(sc.verdicts)
        .filter(|(v, n)| *n > 0 && **v != Verdict::NotScored)
        .map(|(v, n)| format!("{n} {}", v.name()))
        .collect();
    let explained = if c.score.agrees_if {
        format!(
            " ({} of {} agree with one change)",
            sc.agrees_if_one_change, sc.agrees_if_tried
        )
    } else {
        String::new()
    };
    let left = if sc.mismatch_dead_left > 0 {
        format!(
            "; {} whose RE leaves a dead chain on the board",
            n(sc.mismatch_dead_left, "mismatch", "mismatches")
        )
    } else {
        String::new()
    };
    let split = if sc.votes_held > 0 {
        format!("; {} of {} votes split", sc.votes_split, sc.votes_held)
    } else {
        String::new()
    };
    let audit = if sc.scored > 0 {
        format!(
            "; {} counted: {}{explained}{left}{split}",
            n(sc.scored, "game", "games"),
            verdicts.join(", ")
        )
    } else {
        String::new()
    };
    let zones = if c.zones.is_some() {
        let z = &t.zones.status;
        format!(
            "; zones: {} solved, {} territory, {} not searched",
            z[0], z[1], z[2]
        )
    } else {
        String::new()
    };
    let bg = if t.matches > 0 {
        format!(
            "; backgammon: {}{}, {}, {}, {}, {} with findings",
            n(t.matches, "match", "matches"),
            repeated(s.game_ids.bg_repeated),
            n(t.bg.games, "game", "games"),
            n(t.bg.plays, "play", "plays"),
            n(t.bg.illegal_plays, "illegal play", "illegal plays"),
            n(t.bg.games_with_findings, "game", "games")
        )
    } else {
        String::new()
    };
    let errors = n(t.errors, "error row", "error rows");
    let go = if t.games > 0 || t.matches == 0 {
        format!(
            "{}{}, {errors}, {}",
            n(t.games, "Go game", "Go games"),
            repeated(s.game_ids.repeated),
            n(t.illegal_moves, "illegal move", "illegal moves")
        )
    } else {
        errors
    };
    format!(
        "recount: {}{skipped}, {go} in {secs:.2} s ({rate:.0} games/s){audit}{zones}{bg}; \
         reports in {}",
        n(t.files, "file", "files"),
        c.out.display()
    )
}
