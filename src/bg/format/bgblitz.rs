//! Reader for BGBlitz's text position export (`.txt`, "copy position"):
//! a board diagram (see [`super::diagram`]; BGBlitz writes a tall stack
//! as four letters and the count beyond them) with the players' names and
//! pip counts after its header (`O: Green  52`) and footer (`X: Red
//! 111`), a `Position-ID: … Match-ID: …` line, an `XGID=` line, the
//! score line (`Green - 6 Red - 3 in a 7 point match.`), who is to move
//! and the dice (`Red to move 1-2`, `Red to move.` before the roll), then
//! BGBlitz's evaluation: ranked plays (`1.   0.124 mwp /  -0.492
//! 19/18, 14/12`) or a cube action table. These lines are English in
//! every language BGBlitz writes (English, German, French, Japanese);
//! only the names and the evaluation's headings are translated.
//!
//! The position comes from the diagram and those lines; the file's own
//! Position-ID, Match-ID and XGID are then checked against the IDs
//! recount writes for it, each disagreement a `position_mismatch`
//! finding. Only the Crawford flag (and Jacoby in money play), which the
//! lines do not say, is taken from the Match-ID. A file of several
//! positions, each from its diagram on, is one game per position.

use crate::bg::format::diagram::{is_header, read_diagram, Overflow};
use crate::bg::format::mat::MatError;
use crate::bg::format::textpos::{check_ids, read_positions, side_name, Position};
use crate::bg::game::record::MatchRecord;
use crate::bg::position::ids::match_state_from_id;

/// Reads a BGBlitz text position export.
///
/// # Errors
/// When the file has no board diagram, a diagram does not read (cut
/// short, a stray character, more than fifteen checkers of a player), or
/// a position has no score line or no line saying who is to move.
pub fn read_bgblitz_txt(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    read_positions(
        bytes,
        "bgblitz",
        is_header,
        "no board diagram (a '+13-14-15-16-17-18' line)",
        read_position,
    )
}

/// `O: Green  52`: the side, the name and the pip count.
fn side_label(tail: &str) -> Option<(usize, &str, u32)> {
    let (side, rest) = match tail.split_once(':')? {
        ("X", rest) => (1, rest),
        ("O", rest) => (0, rest),
        _ => return None,
    };
    let rest = rest.trim();
    let (name, pips) = rest.rsplit_once(' ').unwrap_or(("", rest));
    Some((side, name.trim(), pips.parse().ok()?))
}

/// `Green - 6 Red - 3 in a 7 point match.`: the first name, its score,
/// the second name, its score and the match length (0 when the line
/// names no match: money play, a guess).
fn score_line(line: &str) -> Option<(&str, u32, &str, u32, u32)> {
    let line = line.trim().trim_end_matches('.');
    let (scores, length) = match line.rsplit_once(" in a ") {
        Some((s, rest)) => (s, rest.strip_suffix(" point match")?.trim().parse().ok()?),
        None => (line, 0),
    };
    let (first, rest) = scores.split_once(" - ")?;
    let (n1, rest) = rest.split_once(' ')?;
    let (second, n2) = rest.rsplit_once(" - ")?;
    Some((
        first.trim(),
        n1.parse().ok()?,
        second.trim(),
        n2.trim().parse().ok()?,
        length,
    ))
}

/// One position: `lines` from its diagram's header, which is line
/// `first` (0-based) of the file.
fn read_position(lines: &[&str], first: usize) -> Result<Position, String> {
    let at = |i: usize| (first + i + 1) as u32;
    let d = read_diagram(lines, Overflow::Extra).map_err(|e| format!("line {}: {e}", at(0)))?;
    let mut pips = Vec::new();
    let mut names = [String::new(), String::new()];
    for (i, tail) in [(0, d.header_tail), (12, d.footer_tail)] {
        let want = if i == 0 { 0 } else { 1 };
        match side_label(tail) {
            Some((side, name, n)) if side == want => {
                names[side] = name.to_string();
                pips.push((at(i), side, n));
            }
            _ => {
                return Err(format!(
                    "line {}: '{tail}' is not '{}: NAME PIPS'",
                    at(i),
                    ["O", "X"][want]
                ))
            }
        }
    }
    let side_of = |name: &str| -> Option<usize> {
        if name == names[1] {
            Some(1)
        } else if name == names[0] {
            Some(0)
        } else {
            None
        }
    };
    let (mut score, mut length, mut on_roll, mut dice) = (None, 0, None, None);
    let (mut pid, mut mid, mut xg) = (None, None, None);
    let mut best = None;
    for (i, line) in lines.iter().enumerate().skip(13) {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("Position-ID:") {
            let mut words = rest.split_whitespace();
            pid = words.next().map(|w| (at(i), w.to_string()));
            if words.next() == Some("Match-ID:") {
                mid = words.next().map(|w| (at(i), w.to_string()));
            }
        } else if t.starts_with("XGID=") {
            xg = Some((at(i), t.to_string()));
        } else if score.is_none()
            && (t.contains(" point match") || on_roll.is_none() && t.contains(" - "))
        {
            let (a, n1, b, n2, len) = score_line(t)
                .ok_or_else(|| format!("line {}: '{t}' is not a score line", at(i)))?;
            let mut s = [0; 2];
            for (name, n) in [(a, n1), (b, n2)] {
                let p = side_of(name)
                    .ok_or_else(|| format!("line {}: '{name}' is neither player", at(i)))?;
                s[p] = n;
            }
            score = Some(s);
            length = len;
        } else if let Some((name, roll)) = t.split_once(" to move") {
            on_roll = Some(
                side_of(name)
                    .ok_or_else(|| format!("line {}: '{name}' is neither player", at(i)))?,
            );
            let roll = roll.trim().trim_end_matches('.');
            dice = match roll.as_bytes() {
                [] => None,
                [a @ b'1'..=b'6', b'-', b @ b'1'..=b'6'] => Some((a - b'0', b - b'0')),
                _ => return Err(format!("line {}: dice '{roll}'", at(i))),
            };
        } else if best.is_none() && t.starts_with("1.") {
            best = Some(best_play(t));
        } else if best.is_none() && is_cube_verdict(t) {
            best = Some(cube_verdict(t));
        }
    }
    let score = score.ok_or("no score line ('A - 1 B - 2 in a 7 point match.')")?;
    let on_roll = on_roll.ok_or("no 'NAME to move' line")?;
    let (cube, owner) = d.cube.unwrap_or((1, None));
    // The Crawford flag (and Jacoby) only the Match-ID says.
    let from_id = mid.as_ref().and_then(|(_, m)| match_state_from_id(m).ok());
    let crawford = from_id.as_ref().is_some_and(|m| m.crawford);
    let jacoby = from_id.as_ref().is_some_and(|m| m.jacoby);
    let mut pos = Position {
        names,
        length,
        score,
        board: d.board,
        on_roll,
        dice,
        double_offered: false,
        cube,
        owner,
        crawford,
        jacoby,
        beavers: None,
        cube_limit: 1024,
        disagreements: Vec::new(),
        tags: Vec::new(),
    };
    for (line, side, n) in pips {
        let what = format!("{} pip count", side_name(side));
        pos.differ(line, &what, n, d.board.pips(side));
    }
    check_ids(&mut pos, pid, mid, xg);
    if let Some(tags) = best {
        pos.tags.extend(tags);
    }
    Ok(pos)
}

/// The ranked play `1.   0.124 mwp /  -0.492            19/18, 14/12`:
/// the play and its equity (the last number before the play).
fn best_play(line: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let play_at = words
        .iter()
        .position(|w| *w != "/" && w.contains('/'))
        .unwrap_or(words.len());
    let equity = words[..play_at]
        .iter()
        .rev()
        .find(|w| w.parse::<f64>().is_ok())
        .map(|w| w.to_string())
        .unwrap_or_default();
    vec![
        ("BestPlay".into(), words[play_at..].join(" ")),
        ("BestEquity".into(), equity),
    ]
}

/// The verdict line of the cube action table: `Cube Action:  :  No
/// Double / Take     EMG` (its heading translated, the colons kept).
fn is_cube_verdict(line: &str) -> bool {
    line.split_once(':')
        .is_some_and(|(_, rest)| rest.trim_start().starts_with(':'))
}

fn cube_verdict(line: &str) -> Vec<(String, String)> {
    let rest = line.split_once(':').map_or("", |x| x.1);
    let rest = rest.trim_start().trim_start_matches(':').trim();
    // The evaluation's unit (`EMG`) closes the line.
    let verdict = match rest.rsplit_once(char::is_whitespace) {
        Some((v, unit)) if unit.bytes().all(|c| c.is_ascii_uppercase()) => v.trim(),
        _ => rest,
    };
    vec![("BestCubeAction".into(), verdict.to_string())]
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKER: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bg/bgblitz/01_checkerPosition_EN.txt"
    ));

    #[test]
    fn reads_the_checker_play_position() {
        let m = read_bgblitz_txt(CHECKER.as_bytes()).unwrap();
        assert_eq!(m.players, ["Green".to_string(), "Red".into()]);
        assert_eq!(m.length, 7);
        let g = &m.games[0];
        assert_eq!(g.score, Some([6, 3]));
        assert_eq!(g.setup_turn, Some(1));
        assert_eq!(g.setup_cube, Some((2, Some(0))));
        assert_eq!(g.setup.unwrap().pips(1), 111);
        assert_eq!(g.disagreements, Vec::<(u32, String)>::new());
        assert_eq!(m.tag("Dice"), Some("12"));
        assert_eq!(m.tag("BestPlay"), Some("19/18, 14/12"));
        assert_eq!(m.tag("BestEquity"), Some("-0.492"));
    }

    #[test]
    fn wrong_ids_and_pips_are_disagreements() {
        let bad = CHECKER
            .replace("b9sBCIC5bYDQAA", "b9sBCIC5bYDQAB")
            .replace("X: Red  111", "X: Red  112");
        let g = &read_bgblitz_txt(bad.as_bytes()).unwrap().games[0];
        let lines: Vec<u32> = g.disagreements.iter().map(|d| d.0).collect();
        assert_eq!(lines, [13, 15], "{:?}", g.disagreements);
    }

    #[test]
    fn positions_one_after_another() {
        let cube = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/bg/bgblitz/02_NDT_EN.txt"
        ));
        let m = read_bgblitz_txt(format!("{CHECKER}\n{cube}").as_bytes()).unwrap();
        assert_eq!(m.games.len(), 2);
        let g = &m.games[1];
        assert_eq!(
            (g.number, g.score, g.setup_cube),
            (2, Some([5, 0]), Some((1, None)))
        );
        assert_eq!(g.unread.len(), 1, "a 9-point match after a 7-point one");
        assert_eq!(m.tag("BestCubeAction"), Some("No Double / Take"));
        let wrong = cube.replace("dB7GGAJsZuJgAg", "dB7GGAJsZuJgAA");
        let m = read_bgblitz_txt(format!("{CHECKER}\n{wrong}").as_bytes()).unwrap();
        let line = CHECKER.lines().count() as u32 + 1 + 15;
        assert_eq!(m.games[1].disagreements[0].0, line);
    }

    #[test]
    fn lines_of_the_score_and_the_cube_verdict() {
        assert_eq!(
            score_line("Grün - 6 Rot - 3 in a 7 point match."),
            Some(("Grün", 6, "Rot", 3, 7))
        );
        assert_eq!(score_line("ann - 1 bob - 2"), Some(("ann", 1, "bob", 2, 0)));
        assert_eq!(score_line("nothing"), None);
        assert_eq!(
            cube_verdict(" Videau:               :  Pas de double / Prendre  EMG")[0].1,
            "Pas de double / Prendre"
        );
        assert!(is_cube_verdict(
            " Cube Action:          :  No Double / Take     EMG"
        ));
        assert!(!is_cube_verdict(
            " No Double             :  0.226   ( 0.000)"
        ));
        assert!(read_bgblitz_txt(b"Green - 6 Red - 3 in a 7 point match.").is_err());
        let cut: String = CHECKER.lines().take(8).collect::<Vec<_>>().join("\n");
        assert!(read_bgblitz_txt(cut.as_bytes())
            .unwrap_err()
            .0
            .contains("stops after 8"));
    }
}
