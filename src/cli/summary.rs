//! The summary line of a run.

use crate::cli::config::Config;
use crate::commands::run::Summary;
use crate::go::audit::Verdict;

/// The line a run ends with on stderr: what was read, what failed, the
/// speed, and the totals of each analysis that ran.
pub fn summary_line(s: &Summary, c: &Config) -> String {
    let secs = s.elapsed.as_secs_f64();
    let t = &s.tally;
    let rate = if secs > 0.0 {
        (t.games + t.bg.games) as f64 / secs
    } else {
        0.0
    };
    let skipped = if s.skipped > 0 {
        format!(" ({} other files skipped)", s.skipped)
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
            "; {} mismatches whose RE leaves a dead chain on the board",
            sc.mismatch_dead_left
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
            "; {} games counted: {}{explained}{left}{split}",
            sc.scored,
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
            "; backgammon: {} matches, {} games, {} plays, {} illegal plays, {} games with findings",
            t.matches, t.bg.games, t.bg.plays, t.bg.illegal_plays, t.bg.games_with_findings
        )
    } else {
        String::new()
    };
    format!(
        "recount: {} files{skipped}, {} Go games, {} error rows, {} illegal moves in {secs:.2} s \
         ({rate:.0} games/s){audit}{zones}{bg}; reports in {}",
        t.files,
        t.games,
        t.errors,
        t.illegal_moves,
        c.out.display()
    )
}
