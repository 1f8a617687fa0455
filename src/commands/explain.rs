//! `recount explain`: one game's final board and the arithmetic of every
//! interpretation, for a person to check by eye.

use crate::analysis::go_score::{go_score, ScoreSettings, RULE_SET_INTERPRETATIONS};
use crate::commands::{read_game, InputError};
use crate::go::board::{Board, Color};
use crate::go::dead::decide::DeadSettings;
use crate::go::dead::decide::DeadStones;
use crate::go::dead::{doubtful_chains, hopeless_chains, read_out, DeadSource, Fate};
use crate::go::game::{End, Game, GameSettings};
use crate::go::replay::{chain_label, sgf_letter, sgf_point};
use crate::go::rules::{Preset, RulesChoice};
use crate::go::score::Counts;
use crate::go::score::{count, count_points, fmt_points, handicap_bonus, points, traditional};
use crate::go::settle::PointKind;
use crate::go::settle::Settlement;
use crate::ingest::Origin;
use crate::report::GoScoreRow;
use std::fmt::Write as _;
use std::path::Path;

/// The legend of the board drawing.
pub const LEGEND: &str = "X O living stones   x o dead stones   b w territory   \
                          # @ seki eyes (Black, White)   * seki   . dame   \
                          ! territory its owner must fill";

/// Explains game `game` (1-based) of the SGF file at `path`.
///
/// # Errors
/// A message for a person when the file or game cannot be read.
pub fn explain(
    path: &Path,
    member: Option<&str>,
    index: u32,
    default_rules: RulesChoice,
    dead: &DeadSettings,
    settings: &ScoreSettings,
) -> Result<String, InputError> {
    // One game: always look for the change that would make it agree.
    let settings = &ScoreSettings {
        agrees_if: true,
        ..*settings
    };
    let record = read_game(path, member, index)?;
    // The board is shown settled even when RE says the game was not counted.
    let game = Game::compute(
        record,
        &GameSettings {
            default_rules,
            dead: *dead,
            count: true,
            always_settle: true,
            zones_at: None,
        },
    );
    let origin = Origin {
        path: crate::text::escape_path(path),
        member: member.map(str::to_string),
    };
    let scored = go_score(&origin, index, &game, settings);
    let end = game.end.as_ref().expect("explain settles every game");
    let (board, s, counts) = (&game.replay.board, &end.settlement, game.counts);
    let mut out = String::new();
    let w = &mut out;
    write_header(w, &super::shown(path, member), index, &game, end);
    write_board(w, board, s);
    write_totals(w, board, s, &counts);
    write_interpretations(w, s, &counts, &scored.row);
    write_verdict(w, game.rules_used.preset, &scored.row);
    if end.dead.source == DeadSource::Estimate {
        write_estimate_notes(w, board, s, &end.dead);
    }
    Ok(out)
}

/// The game, its rules, and where its dead stones came from.
fn write_header(w: &mut String, shown: &str, game: u32, g: &Game, end: &End) {
    let (record, counts, used) = (&g.record, g.counts, &g.rules_used);
    let (dead, source) = (&end.dead, end.dead.source);
    let _ = writeln!(
        w,
        "{shown} game {game}: {} (B) vs {} (W), {}, {} -> {}",
        record.black,
        record.white,
        recorded("RE", &record.result_raw),
        recorded("RU", &record.rules_raw),
        used.preset
    );
    let vote = dead.vote.as_ref().map_or(String::new(), |t| {
        let counts: Vec<String> = t.keys.iter().map(|&c| fmt_points(c)).collect();
        format!(
            " ({} of {} votes give this count; the votes' counts: {})",
            t.for_it,
            t.cast(),
            counts.join(", ")
        )
    });
    let _ = writeln!(
        w,
        "board {}, komi {}, handicap {}, dead stones: {}{vote}",
        record.size_text(),
        fmt_points(counts.komi),
        counts.handicap,
        source.name()
    );
    let _ = writeln!(w);
}

/// The settled board, with its legend.
fn write_board(w: &mut String, board: &Board, s: &Settlement) {
    let letters: String = (0..board.width())
        .map(|x| format!(" {}", sgf_letter(x)))
        .collect();
    let _ = writeln!(w, "  {letters}");
    for y in 0..board.height() {
        let _ = write!(w, "{} ", sgf_letter(y));
        for x in 0..board.width() {
            let ch = match s.kinds[board.index(x, y)] {
                Some(PointKind::Stone(Color::Black)) => 'X',
                Some(PointKind::Stone(Color::White)) => 'O',
                Some(PointKind::Dead(Color::Black)) => 'x',
                Some(PointKind::Dead(Color::White)) => 'o',
                Some(PointKind::Territory(Color::Black)) => 'b',
                Some(PointKind::Territory(Color::White)) => 'w',
                Some(PointKind::SekiEye(Color::Black)) => '#',
                Some(PointKind::SekiEye(Color::White)) => '@',
                Some(PointKind::Seki) => '*',
                Some(PointKind::Fill(_)) => '!',
                _ => '.',
            };
            let _ = write!(w, " {ch}");
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(w, "{LEGEND}");
    let _ = writeln!(w);
}

/// Each side's totals, and the points the settling had to decide: false
/// eyes, unclosed boundaries, the must-fill rule.
fn write_totals(w: &mut String, board: &Board, s: &Settlement, counts: &Counts) {
    let _ = writeln!(w, "                 Black  White");
    let row = |w: &mut String, name: &str, b: u32, wh: u32| {
        let _ = writeln!(w, "{name:<16} {b:>5}  {wh:>5}");
    };
    row(w, "living stones", s.stones[0], s.stones[1]);
    row(w, "territory", s.territory[0], s.territory[1]);
    row(w, "seki eyes", s.seki_eyes[0], s.seki_eyes[1]);
    row(w, "must fill", s.fills[0], s.fills[1]);
    row(w, "captures", counts.captures[0], counts.captures[1]);
    row(w, "dead stones", s.dead[1], s.dead[0]);
    row(w, "areas (groups)", s.areas[0], s.areas[1]);
    let _ = writeln!(w, "seki points {}, dame {}", s.seki_points, s.dame);
    for &(eye, chain) in &s.false_eyes {
        let (name, (x, y), (cx, cy)) = (
            board.at(chain).map_or('?', |c| c.letter()),
            board.xy(eye),
            board.xy(chain),
        );
        let _ = writeln!(
            w,
            "no eye: {name} at {} (the chain at {} would have to fill it once the seki's shared liberties are filled)",
            sgf_point(x, y),
            sgf_point(cx, cy)
        );
    }
    let names = |points: &[usize]| -> String {
        let names: Vec<String> = points
            .iter()
            .map(|&p| {
                let (x, y) = board.xy(p);
                sgf_point(x, y)
            })
            .collect();
        names.join(" ")
    };
    for rf in &s.refereed {
        let ((x, y), owner) = (board.xy(rf.at), rf.owner);
        let mut line = format!(
            "unclosed boundary: {} area at {} ({} points) is {owner:?}'s for the referee",
            owner.letter(),
            sgf_point(x, y),
            rf.points,
        );
        if !rf.gaps.is_empty() {
            line += &format!("; dame at the gap {}", names(&rf.gaps));
        }
        if !rf.blocks.is_empty() {
            line += &format!(" and where {owner:?} blocks, {}", names(&rf.blocks));
        }
        let _ = writeln!(w, "{line}");
    }
    if !s.fill_chains.is_empty() {
        let filled: Vec<String> = s
            .dame_filled
            .iter()
            .map(|&(d, c)| {
                let (x, y) = board.xy(d);
                format!("{} {}", c.letter(), sgf_point(x, y))
            })
            .collect();
        let _ = writeln!(
            w,
            "dame filled, the most urgent first: {}",
            filled.join(", ")
        );
        for &(point, chain) in &s.fill_chains {
            let Some(PointKind::Fill(color)) = s.kinds[point] else {
                continue;
            };
            let ((x, y), at) = (board.xy(point), board.xy(chain));
            let _ = writeln!(
                w,
                "must fill: {} at {}: {} is left in atari by the dame",
                color.letter(),
                sgf_point(x, y),
                chain_label(color, at, board.chain_len(chain))
            );
        }
    }
    let _ = writeln!(w);
}

/// The arithmetic of every interpretation.
fn write_interpretations(w: &mut String, s: &Settlement, counts: &Counts, row: &GoScoreRow) {
    let [cb, cw] = count_points(s, counts);
    let _ = writeln!(w, "count         B {cb} (territory {} + seki eyes {} + captures {} + dead {}) - W {cw} - komi {} = {}",
        s.territory[0], s.seki_eyes[0], counts.captures[0], s.dead[1], fmt_points(counts.komi), fmt_points(cb as f64 - cw as f64 - counts.komi));
    for preset in RULE_SET_INTERPRETATIONS {
        let (name, r) = (preset.name(), preset.rules());
        let [b, wh] = points(&r, s, counts.captures);
        let bonus = handicap_bonus(&r, counts.handicap);
        let _ = writeln!(
            w,
            "{name:<13} B {} - W {} - komi {} - handicap bonus {} = {}",
            fmt_points(b),
            fmt_points(wh),
            fmt_points(counts.komi),
            fmt_points(bonus),
            fmt_points(b - wh - counts.komi - bonus)
        );
    }
    if let (Some(lb), Some(lw), Some(ss)) = (row.song_lu_black, row.song_lu_white, row.song_score) {
        let _ = writeln!(w, "song          Lu B {lb} + chips {} - (Lu W {lw} + chips {}) = {ss} ({} {}); with komi {}",
            row.song_chips_black.unwrap_or(0), row.song_chips_white.unwrap_or(0), row.song_term_zh, row.song_term_en, fmt_points(ss as f64 - counts.komi));
    }
    let _ = writeln!(w, "traditional   {}", traditional(count(s, counts)));
    let _ = writeln!(w);
}

/// A root property as the record gives it, or that it gives none.
fn recorded(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("no {name}")
    } else {
        format!("{name}[{value}]")
    }
}

/// The audit's verdict, and the single change that would reconcile it.
fn write_verdict(w: &mut String, rules: Preset, row: &GoScoreRow) {
    let _ = writeln!(
        w,
        "verdict ({} rules): {}{}",
        rules,
        row.verdict.name(),
        if row.reason.is_empty() {
            String::new()
        } else {
            format!(" ({})", row.reason)
        }
    );
    match row.agrees_if_one_change {
        Some(true) => {
            let _ = writeln!(w, "agrees with RE if: {}", row.agrees_if);
        }
        Some(false) => {
            let _ = writeln!(
                w,
                "no single change (one chain's fate, the must-fill rule) makes it agree with RE"
            );
        }
        None => {}
    }
}

/// What the estimator decided beyond the playouts: hopeless chains, its
/// corrections, coin flips and the fights read out.
fn write_estimate_notes(w: &mut String, board: &Board, s: &Settlement, dead: &DeadStones) {
    let notes = &dead.notes;
    let hopeless = hopeless_chains(board).into_iter();
    section(
        w,
        "in atari with no way out (dead whatever the playouts say):",
        hopeless.map(|(c, point, n)| chain_label(c, point, n)),
    );
    section(
        w,
        "taken off beside an open area (a finished game leaves none between the colours):",
        notes.open_area.iter().map(|c| c.describe()),
    );
    section(
        w,
        "taken off as a bent four in the corner (dead under Japanese rules; a ko the attacker starts once no threat is left):",
        notes.bent_four.iter().map(|b| b.describe()),
    );
    section(
        w,
        "taken off as losing a race of one eye against a big eye (big eye beats small eye):",
        notes.eye_races.iter().map(|r| r.describe()),
    );
    section(
        w,
        "taken off as left in a seki that only dead stones kept (the partner has liberties to spare once they are off):",
        notes
            .freed_seki
            .iter()
            .map(|&(c, point, n)| chain_label(c, point, n)),
    );
    section(
        w,
        "kept alive in a seki (an eyeless race neither side wins, even moving first):",
        notes.seki_races.iter().map(|r| r.describe()),
    );
    // Whether the chain through a point is counted dead in the end
    // (the corrections after the playouts may revive a chain).
    let counted_dead =
        |(x, y): (u8, u8)| matches!(s.kinds[board.index(x, y)], Some(PointKind::Dead(_)));
    if let Some(own) = &dead.ownership {
        section(
            w,
            "coin flips of the playouts (owner's mean ownership, +1 always kept and -1 always lost, within 0.2 of the dead bar at +0.2):",
            doubtful_chains(board, own).into_iter().map(|c| {
                let fate = if counted_dead(c.point) {
                    "dead"
                } else {
                    "alive"
                };
                format!(
                    "{}: {fate}, owner's mean ownership {:+.2}",
                    chain_label(c.color, c.point, c.stones),
                    c.mine
                )
            }),
        );
    }
    section(
        w,
        "read out (closed fights the playouts cannot judge):",
        read_out(board).into_iter().map(|f| {
            // The corrections for racing chains and dame stones come
            // after the reading and may revive a chain it killed.
            let note = if f.fate == Fate::Dead && !counted_dead(f.point) {
                " (overruled: counted alive by the corrections for races and dame stones)"
            } else {
                ""
            };
            format!("{}{note}", f.describe())
        }),
    );
}

/// `title` and the `lines` under it, indented; nothing when there are
/// no lines.
fn section(w: &mut String, title: &str, lines: impl Iterator<Item = String>) {
    let mut lines = lines.peekable();
    if lines.peek().is_none() {
        return;
    }
    let _ = writeln!(w, "{title}");
    for line in lines {
        let _ = writeln!(w, "  {line}");
    }
}
