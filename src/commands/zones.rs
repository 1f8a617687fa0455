//! `recount zones FILE`: one position's endgame zones drawn on the board,
//! and each zone's followers and four move values as a readable table.

use crate::commands::{read_game, read_game_from, InputError};
use crate::go::board::Color;
use crate::go::dead::decide::DeadSettings;
use crate::go::endgame::local_game::Follower;
use crate::go::endgame::move_values::{fmt_value, MoveValues, ZoneType};
use crate::go::endgame::position::{
    diagram_zones, Outcome, PositionZones, ZoneResult, ZoneSettings,
};
use crate::go::endgame::zones::Fixed;
use crate::go::game::{Game, GameSettings};
use crate::go::record::diagram;
use crate::go::rules::RulesChoice;
use std::fmt::Write as _;
use std::path::Path;

/// The legend of the drawing.
pub const LEGEND: &str = "X O safe stones   x o stones in a zone   b w settled territory   \
                          # @ dead Black / White stones in settled territory   \
                          1-9 A-Z empty points of zone 1, 2, …";

/// What `recount zones` prints for the file at `path`: a diagram (the
/// seed's form or Sensei's Library markup) or an SGF game at a move.
///
/// # Errors
/// A message for a person when the file, game or move cannot be read.
pub fn zones_table(
    path: &Path,
    member: Option<&str>,
    game: u32,
    s: &ZoneSettings,
    default_rules: RulesChoice,
    dead: &DeadSettings,
) -> Result<String, InputError> {
    // A game's file as `recount explain` reads it (an archive's member, a
    // compressed file, another server's format, a backgammon match to be
    // refused), else a diagram.
    let packed = super::is_packed_input(path, member);
    let bytes = if packed {
        Vec::new()
    } else {
        std::fs::read(path).map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            action: "open",
            source,
        })?
    };
    let text = String::from_utf8_lossy(&bytes);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let is_game = packed
        || text.contains("(;")
        || crate::ingest::translate(&name, &bytes).is_some()
        || !matches!(crate::ingest::sniff(&bytes), crate::ingest::Content::Go);
    let (pz, title) = if is_game {
        // A pipe is read once: its bytes, read above, are the game's.
        let record = if packed {
            read_game(path, member, game)?
        } else {
            read_game_from(path, bytes.as_slice(), member, game)?
        };
        let g = Game::compute(
            record,
            &GameSettings {
                default_rules,
                dead: *dead,
                count: false,
                always_settle: false,
                zones_at: Some(s.moment),
            },
        );
        let pz = g.zones(s).map_err(|message| InputError::Unusable {
            what: format!("game {game}"),
            message,
        })?;
        let title = format!(
            "{} game {game}, position after move {}",
            super::shown(path, member),
            pz.move_number
        );
        (pz, title)
    } else {
        let d = diagram::parse(&text).map_err(|e| InputError::Unusable {
            what: format!("'{}'", path.display()),
            message: e.to_string(),
        })?;
        let sides: Vec<&str> = ["top", "bottom", "left", "right"]
            .iter()
            .zip(d.open)
            .filter(|(_, o)| *o)
            .map(|(n, _)| *n)
            .collect();
        let outer = if sides.is_empty() {
            "no open side: only pass-alive stones are safe".to_string()
        } else {
            format!("outer stones: those touching the {} side", sides.join("/"))
        };
        let title = format!("{} (diagram; {outer})", path.display());
        (diagram_zones(&d, s), title)
    };
    Ok(render(&pz, &title, s.timing))
}

fn zone_mark(i: usize) -> char {
    // No X or O: those are stones.
    const MARKS: &[u8] = b"123456789ABCDEFGHIJKLMNPQRSTUVWYZ";
    MARKS.get(i).map_or('?', |&m| m as char)
}

/// The drawing and the table.
pub fn render(pz: &PositionZones, title: &str, timing: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}\n");
    draw_board(&mut out, pz);
    let _ = writeln!(out, "\n{LEGEND}\n");
    for (i, z) in pz.zones.iter().enumerate() {
        write_zone(&mut out, pz, i, z, timing);
    }
    for m in &pz.drawn_mismatches {
        let _ = writeln!(out, "note: {m}");
    }
    write_hot_zones(&mut out, pz);
    write_counts(&mut out, pz);
    out
}

/// Draws the board with its column and row letters: safe and zone stones,
/// settled territory and prisoners, and each zone's empty points by its mark.
fn draw_board(out: &mut String, pz: &PositionZones) {
    let b = &pz.board;
    let mut zone_of = vec![usize::MAX; b.index_len()];
    for (i, z) in pz.zones.iter().enumerate() {
        for &p in &z.zone.points {
            zone_of[p] = i;
        }
    }
    let letters: String = (0..b.width())
        .map(|x| {
            format!(
                " {}",
                crate::go::replay::sgf_point(x, 0)
                    .chars()
                    .next()
                    .unwrap_or('?')
            )
        })
        .collect();
    let _ = writeln!(out, "  {letters}");
    for y in 0..b.height() {
        let row_letter = crate::go::replay::sgf_point(0, y)
            .chars()
            .nth(1)
            .unwrap_or('?');
        let _ = write!(out, "{row_letter} ");
        for x in 0..b.width() {
            let p = b.index(x, y);
            let c = match (pz.fixed[p], b.at(p)) {
                (Some(Fixed::Stone(Color::Black)), _) => 'X',
                (Some(Fixed::Stone(Color::White)), _) => 'O',
                (Some(Fixed::Territory(Color::Black)), _) => 'b',
                (Some(Fixed::Territory(Color::White)), _) => 'w',
                (Some(Fixed::Prisoner(Color::White)), _) => '#',
                (Some(Fixed::Prisoner(Color::Black)), _) => '@',
                (None, Some(Color::Black)) => 'x',
                (None, Some(Color::White)) => 'o',
                (None, None) => zone_mark(zone_of[p]),
            };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
}

/// One row of a zone's table: the label `k`, then `v`.
fn row(out: &mut String, k: &str, v: String) {
    let _ = writeln!(out, "  {k:<16}{v}");
}

/// The table of zone `i`: its points, then what became of it (settled, not
/// searched, or the followers, move values and given sequences), then the
/// search's size.
fn write_zone(out: &mut String, pz: &PositionZones, i: usize, z: &ZoneResult, timing: bool) {
    let b = &pz.board;
    let pts: Vec<String> = z
        .zone
        .points
        .iter()
        .map(|&p| {
            let (x, y) = b.xy(p);
            crate::go::replay::sgf_point(x, y)
        })
        .collect();
    let _ = writeln!(
        out,
        "zone {} ({}): {} point{}, {} empty: {}",
        i + 1,
        zone_mark(i),
        pts.len(),
        if pts.len() == 1 { "" } else { "s" },
        z.zone.empties,
        pts.join(" ")
    );
    match &z.outcome {
        Outcome::Territory(c) => row(
            out,
            "settled",
            format!(
                "{}'s territory: count {}",
                if *c == Color::Black { "Black" } else { "White" },
                fmt_value(z.mean_count().unwrap_or(0.0))
            ),
        ),
        Outcome::TooLarge => row(
            out,
            "not searched",
            "too large (raise --zone-max-empty / --zone-max-points; 64 points at most)".into(),
        ),
        Outcome::Budget(n) => row(
            out,
            "not searched",
            format!("search stopped after {n} nodes (raise --zone-budget)"),
        ),
        Outcome::Solved {
            black,
            white,
            values,
        } => write_solved(out, pz, i, z, (black, white), values),
    }
    let mut search = format!("{} nodes", z.nodes);
    if timing {
        let _ = write!(search, ", {:.3} ms", z.micros as f64 / 1000.0);
    }
    row(out, "search", search);
}

/// A solved zone's rows: both followers, the four move values, the tally
/// and the zone's type, then each given sequence checked against the search.
fn write_solved(
    out: &mut String,
    pz: &PositionZones,
    i: usize,
    z: &ZoneResult,
    (black, white): (&Follower, &Follower),
    values: &MoveValues,
) {
    let b = &pz.board;
    let (bc, wc) = (black.count, white.count);
    let seq = |line: &str| {
        if line.is_empty() {
            "(no move)".to_string()
        } else {
            line.to_string()
        }
    };
    row(
        out,
        "black follower",
        format!(
            "{:<28} count {bc}",
            seq(&z.line_text(b, &black.line, Color::Black))
        ),
    );
    row(
        out,
        "white follower",
        format!(
            "{:<28} count {wc}",
            seq(&z.line_text(b, &white.line, Color::White))
        ),
    );
    row(out, "difference", values.difference_text(bc, wc));
    row(out, "naive sum", values.naive_sum_text(bc, wc));
    row(out, "corrected sum", values.corrected_sum_text(bc, wc));
    row(
        out,
        "tally",
        values.tally_text(black.net_moves(true), white.net_moves(false)),
    );
    row(out, "modern", values.modern_text());
    row(out, "type", values.zone_type.describe().into());
    for g in pz.given.iter().filter(|g| g.zone == i) {
        let f = if g.starter == Color::Black {
            black
        } else {
            white
        };
        let agrees = g.problem.is_none()
            && f.count == g.count
            && f.net_moves(g.starter == Color::Black) == g.net_moves;
        let who = if g.starter == Color::Black {
            "given (Black)"
        } else {
            "given (White)"
        };
        let mut v = format!(
            "{:<28} count {}, net moves {}",
            z.line_text(b, &g.line, g.starter),
            g.count,
            g.net_moves
        );
        if let Some(p) = &g.problem {
            let _ = write!(v, " ({p})");
        }
        v.push_str(if agrees {
            ": agrees with the search"
        } else {
            ": DIFFERS from the search"
        });
        row(out, who, v);
    }
}

/// The zones by modern move value, biggest first: where to play.
fn write_hot_zones(out: &mut String, pz: &PositionZones) {
    let mut hot: Vec<(usize, f64, &'static str)> = pz
        .zones
        .iter()
        .enumerate()
        .filter_map(|(i, z)| match &z.outcome {
            Outcome::Solved { values, .. } if values.zone_type != ZoneType::Settled => {
                values.modern.map(|m| (i, m, values.zone_type.describe()))
            }
            _ => None,
        })
        .collect();
    hot.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if !hot.is_empty() {
        let list: Vec<String> = hot
            .iter()
            .map(|(i, m, t)| format!("zone {} {} ({t})", i + 1, fmt_value(*m)))
            .collect();
        let _ = writeln!(out, "\nmoves by modern value: {}", list.join(", "));
    }
}

/// The position's count (settled part plus the zones' mean counts) and
/// the game's final count, where known.
fn write_counts(out: &mut String, pz: &PositionZones) {
    if let (Some(base), Some(total)) = (pz.base_count, pz.estimated_count()) {
        let _ = writeln!(
            out,
            "\ncount: settled part {base}, plus the zones' mean counts {}: {}",
            fmt_value(total - base as f64),
            fmt_value(total)
        );
    }
    if let Some(f) = pz.final_count {
        let _ = writeln!(
            out,
            "final count of the game (territory and prisoners, no komi): {f}"
        );
    }
}
