//! Reader for eXtreme Gammon's text position export ("copy position" /
//! export to `.txt`). A position opens with its `XGID=` line, then the
//! names (`X:name   O:name`), the score line (`Score is X:3 O:6 7 pt.(s)
//! match.`, `Score is X:0 O:0. Unlimited Game, Jacoby Beaver` for money;
//! translated in XG's other languages: `Le score est X:3 O:6 match en 7
//! pt(s)`, `Punktzahl ist  X:2 O:4 9 Pkt (e) match.`), the board diagram
//! (see [`super::diagram`]; XG writes a tall stack's whole count), the
//! pip counts (`Pip count  X: 111  O: 52 X-O: 3-6/7`), the cube (`Cube: 2,
//! O own cube`), who is on roll (`X to play 21`, `X on roll, cube
//! action`), XG's ranked plays (`1. 4-ply  19/18 14/12  eq:-0.491`) or
//! its cube analysis (`Best Cube action: No double / Take`), and
//! `eXtreme Gammon Version: 2.10, MET: Kazaross XG2`.
//!
//! The XGID is the position: the other lines are checked against it, by
//! their numbers and the `X`/`O` letters, which XG does not translate,
//! each disagreement a `position_mismatch` finding; lines XG leaves out
//! (the diagram is optional) are not missed. X is the XGID's bottom
//! player (recount's player 1). Each `XGID=` line opening a line starts a
//! position: a file of several positions pasted one after another is one
//! game per position.

use crate::bg::format::diagram::{is_header, read_diagram, Overflow};
use crate::bg::format::mat::MatError;
use crate::bg::format::textpos::{read_positions, side_name, Position};
use crate::bg::game::record::MatchRecord;
use crate::bg::position::ids::{parse_xgid, position_id};

/// Reads an XG text position export.
///
/// # Errors
/// When no line opens with `XGID=`, an XGID does not read (see
/// [`parse_xgid`]), or a diagram is cut short or garbled.
pub fn read_xg_txt(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    read_positions(
        bytes,
        "xgtext",
        |l| l.trim_start().starts_with("XGID="),
        "no 'XGID=' line",
        read_position,
    )
}

/// The number after `key` in `line` (`X:3`, `X: 111`).
fn number_after(line: &str, key: &str) -> Option<u32> {
    let rest = line[line.find(key)? + key.len()..].trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The text after a line's label (`Cube:`, `キューブ:` with either colon).
fn after_label(line: &str) -> Option<&str> {
    let i = line.find([':', '：'])?;
    let colon = line[i..].chars().next()?.len_utf8();
    Some(line[i + colon..].trim())
}

/// A line opening with a side's letter and a space or colon (`X to play
/// 21`, `X: lance ou double`): the side.
fn side_first(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let side = match b.first()? {
        b'X' => 1,
        b'O' => 0,
        _ => return None,
    };
    matches!(b.get(1), Some(b' ' | b':')).then_some(side)
}

/// The cube line: a label, a colon and the cube's value, alone or
/// followed by a comma and its owner (`Cube: 1`, `Cube: 2, O own cube`).
fn is_cube_line(t: &str) -> bool {
    side_first(t).is_none()
        && after_label(t).is_some_and(|rest| {
            let value = rest.split(',').next().unwrap_or("").trim();
            !value.is_empty() && value.bytes().all(|c| c.is_ascii_digit())
        })
}

/// One position: `lines` from its `XGID=` line, which is line `first`
/// (0-based) of the file.
fn read_position(lines: &[&str], first: usize) -> Result<Position, String> {
    let at = |i: usize| (first + i + 1) as u32;
    let id = lines[0].trim();
    let (board, state) = parse_xgid(id).map_err(|e| format!("line {}: {e}", at(0)))?;
    let mut pos = Position {
        names: [String::new(), String::new()],
        length: state.match_length,
        score: state.score,
        board,
        on_roll: state.on_roll,
        dice: state.dice,
        double_offered: state.double_offered,
        cube: state.cube,
        owner: state.cube_owner,
        crawford: state.crawford,
        jacoby: state.jacoby,
        beavers: (state.match_length == 0).then(|| beavers(id)),
        cube_limit: state.cube_limit,
        disagreements: Vec::new(),
        tags: Vec::new(),
    };
    let (mut names_at, mut score_at, mut cube_at, mut turn_at) = (None, None, None, None);
    let mut i = 1;
    while i < lines.len() {
        let t = lines[i].trim();
        if names_at.is_none() && t.starts_with("X:") {
            names_at = Some(i);
            names(&mut pos, t);
        } else if score_at.is_none()
            && number_after(t, "X:").is_some()
            && number_after(t, "O:").is_some()
            && !t.contains("X-O:")
        {
            score_at = Some(i);
            score(&mut pos, at(i), t);
        } else if is_header(lines[i]) {
            let d = read_diagram(&lines[i..], Overflow::Total)
                .map_err(|e| format!("line {}: {e}", at(i)))?;
            diagram(&mut pos, at(i), &d);
            i += crate::bg::format::diagram::LINES;
            continue;
        } else if t.contains("X-O:") {
            pips(&mut pos, at(i), t);
        } else if let Some(v) = t.strip_prefix("eXtreme Gammon Version:") {
            pos.tags.push(("XgVersion".into(), v.trim().to_string()));
        } else if cube_at.is_none() && score_at.is_some() && is_cube_line(t) {
            cube_at = Some(i);
            cube(&mut pos, at(i), t);
        } else if turn_at.is_none() && cube_at.is_some() && side_first(t).is_some() {
            turn_at = Some(i);
            turn(&mut pos, at(i), t);
        } else if turn_at.is_some()
            && t.starts_with("1. ")
            && !pos.tags.iter().any(|t| t.0 == "BestPlay")
        {
            pos.tags.extend(best_play(t));
        }
        i += 1;
    }
    if let Some(t) = turn_at {
        if !pos.tags.iter().any(|t| t.0 == "BestPlay") {
            if let Some(v) = cube_verdict(&lines[t + 1..]) {
                pos.tags.push(("BestCubeAction".into(), v));
            }
        }
    }
    Ok(pos)
}

/// Beavers allowed in money play: bit 2 of the XGID's rules field.
fn beavers(id: &str) -> bool {
    id.split(':')
        .nth(7)
        .and_then(|f| f.parse::<u32>().ok())
        .is_some_and(|r| r & 2 == 2)
}

/// `X:Player 1   O:Player 2`.
fn names(pos: &mut Position, line: &str) {
    let rest = &line[2..];
    let (x, o) = match rest.rfind(" O:") {
        Some(k) => (&rest[..k], &rest[k + 3..]),
        None => (rest, ""),
    };
    pos.names = [o.trim().to_string(), x.trim().to_string()];
}

/// The score line: X's and O's scores and the match length (the first
/// number after them; none in money play).
fn score(pos: &mut Position, line: u32, t: &str) {
    let (x, o) = (number_after(t, "X:"), number_after(t, "O:"));
    pos.differ(line, "X score", x.unwrap_or(0), pos.score[1]);
    pos.differ(line, "O score", o.unwrap_or(0), pos.score[0]);
    let after = t.find("O:").map_or("", |k| &t[k + 2..]);
    let mut numbers = after
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty());
    numbers.next();
    let length = numbers.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    pos.differ(line, "match length", length, pos.length);
}

/// The diagram against the XGID's position and cube.
fn diagram(pos: &mut Position, line: u32, d: &crate::bg::format::diagram::Diagram) {
    if d.board != pos.board {
        let id = |b| position_id(b, pos.on_roll);
        let (drawn, ids) = (id(&d.board), id(&pos.board));
        pos.differ(line, "diagram (as a Position ID)", drawn, ids);
    }
    if let Some((value, owner)) = d.cube {
        pos.differ(line, "diagram's cube", value, pos.cube);
        let side = |o: Option<usize>| o.map_or("centred", side_name);
        pos.differ(line, "diagram's cube owner", side(owner), side(pos.owner));
    }
}

/// `Pip count  X: 111  O: 52 X-O: 3-6/7` against the position and the
/// score.
fn pips(pos: &mut Position, line: u32, t: &str) {
    let (head, scores) = t.split_once("X-O:").unwrap_or((t, ""));
    for (key, p) in [("X:", 1), ("O:", 0)] {
        if let Some(n) = number_after(head, key) {
            let what = format!("{} pip count", side_name(p));
            pos.differ(line, &what, n, pos.board.pips(p));
        }
    }
    let nums: Vec<u32> = scores
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    if let [x, o, ref rest @ ..] = nums[..] {
        pos.differ(line, "X score", x, pos.score[1]);
        pos.differ(line, "O score", o, pos.score[0]);
        pos.differ(
            line,
            "match length",
            rest.first().copied().unwrap_or(0),
            pos.length,
        );
    }
}

/// `Cube: 2, O own cube` (`Videau: 2, O a le videau`): value and owner.
fn cube(pos: &mut Position, line: u32, t: &str) {
    let rest = after_label(t).unwrap_or("");
    let (value, owner) = rest.split_once(',').unwrap_or((rest, ""));
    if let Ok(v) = value.trim().parse::<u32>() {
        pos.differ(line, "cube", v, pos.cube);
    }
    let owner = match owner.split_whitespace().next() {
        Some("X") => "X",
        Some("O") => "O",
        _ => "centred",
    };
    let ours = pos.owner.map_or("centred", side_name);
    pos.differ(line, "cube owner", owner, ours);
}

/// `X to play 21`, `X on roll, cube action`: the side on roll and the
/// dice (the last word, when two dice).
fn turn(pos: &mut Position, line: u32, t: &str) {
    if pos.double_offered {
        // Who XG names while a double is pending is not known here.
        return;
    }
    if let Some(side) = side_first(t) {
        pos.differ(
            line,
            "player on roll",
            side_name(side),
            side_name(pos.on_roll),
        );
    }
    let last = t.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("");
    let dice = match last.as_bytes() {
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Some((a - b'0', b - b'0')),
        _ => None,
    };
    let fmt = |d: Option<(u8, u8)>| d.map_or("none".to_string(), |(a, b)| format!("{a}{b}"));
    // XG writes the larger die first, as the XGID does.
    let sorted = |d: Option<(u8, u8)>| d.map(|(a, b)| (a.max(b), a.min(b)));
    pos.differ(line, "dice", fmt(sorted(dice)), fmt(sorted(pos.dice)));
}

/// XG's first-ranked play: `1. 4-ply  19/18 14/12  eq:-0.491`; the level
/// is the words before the play, the equity follows the last colon.
fn best_play(t: &str) -> Vec<(String, String)> {
    let (body, equity) = t.rsplit_once(':').unwrap_or((t, ""));
    let mut words: Vec<&str> = body.split_whitespace().skip(1).collect();
    // The equity's label (`eq`, `éq`) closes the body.
    words.pop();
    let play_at = words
        .iter()
        .position(|w| w.contains('/'))
        .unwrap_or(words.len());
    let equity = equity.split_whitespace().next().unwrap_or("");
    vec![
        ("BestPlay".into(), words[play_at..].join(" ")),
        ("BestEquity".into(), equity.to_string()),
        ("BestLevel".into(), words[..play_at].join(" ")),
    ]
}

/// The verdict after the cube analysis: the first line not indented
/// after the indented cubeful equities (`Best Cube action: No double /
/// Take`), less its label when it has a colon.
fn cube_verdict(lines: &[&str]) -> Option<String> {
    let last_indented = lines
        .iter()
        .rposition(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())?;
    let line = lines[last_indented + 1..]
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with("eXtreme Gammon"))?;
    Some(after_label(line).unwrap_or(line).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKER: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bg/xgtext/01_checkerPosition_EN.txt"
    ));

    #[test]
    fn reads_the_position_from_its_xgid() {
        let m = read_xg_txt(CHECKER.as_bytes()).unwrap();
        assert_eq!(m.players, ["Player 2".to_string(), "Player 1".into()]);
        assert_eq!((m.format, m.length), ("xgtext", 7));
        let g = &m.games[0];
        assert_eq!(g.score, Some([6, 3]));
        assert_eq!(g.setup_turn, Some(1));
        assert_eq!(g.setup_cube, Some((2, Some(0))));
        assert_eq!(g.disagreements, Vec::<(u32, String)>::new());
        assert_eq!(m.tag("Dice"), Some("21"));
        assert_eq!(m.tag("BestPlay"), Some("19/18 14/12"));
        assert_eq!(m.tag("BestEquity"), Some("-0.491"));
        assert_eq!(m.tag("BestLevel"), Some("4-ply"));
        assert_eq!(m.tag("XgVersion"), Some("2.10, MET: Kazaross XG2"));
    }

    #[test]
    fn lines_that_disagree_with_the_xgid_are_findings() {
        let bad = CHECKER
            .replace("Score is X:3 O:6", "Score is X:4 O:6")
            .replace("Pip count  X: 111", "Pip count  X: 110")
            .replace("O own cube", "X own cube")
            .replace("X to play 21", "O to play 31")
            .replacen("|       O          |", "|       O  O       |", 1);
        let g = &read_xg_txt(bad.as_bytes()).unwrap().games[0];
        let lines: Vec<u32> = g.disagreements.iter().map(|d| d.0).collect();
        assert_eq!(lines, [4, 5, 18, 19, 20, 20], "{:?}", g.disagreements);
    }

    #[test]
    fn money_play_without_a_diagram() {
        let text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10\n\n\
            X:ann   O:bob\n\
            Score is X:0 O:0. Unlimited Game, Jacoby Beaver\n\
            Pip count  X: 167  O: 167 X-O: 0-0\n\
            Cube: 1\n\
            X to play 52\n";
        let m = read_xg_txt(text.as_bytes()).unwrap();
        assert_eq!(m.players, ["bob".to_string(), "ann".into()]);
        assert_eq!(
            (m.length, m.tag("Jacoby"), m.tag("Dice")),
            (0, Some("On"), Some("52"))
        );
        assert!(
            m.games[0].disagreements.is_empty(),
            "{:?}",
            m.games[0].disagreements
        );
        let wrong = text.replace("X:0 O:0.", "X:1 O:0 3 pt.(s) match.");
        let g = &read_xg_txt(wrong.as_bytes()).unwrap().games[0];
        assert_eq!(g.disagreements.len(), 2, "{:?}", g.disagreements);
    }

    #[test]
    fn several_positions_and_bare_xgids() {
        let two = format!("{CHECKER}\n{CHECKER}");
        assert_eq!(read_xg_txt(two.as_bytes()).unwrap().games.len(), 2);
        let ids = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10\n";
        let m = read_xg_txt(ids.as_bytes()).unwrap();
        assert_eq!(
            (m.length, m.tag("Jacoby"), m.tag("Beaver")),
            (0, Some("On"), Some("On"))
        );
        assert!(read_xg_txt(b"XGID=nonsense").is_err());
        assert!(read_xg_txt(b"Score is X:3 O:6 7 pt.(s) match.").is_err());
    }

    #[test]
    fn cube_verdicts_in_each_language() {
        for (line, want) in [
            ("Best Cube action: No double / Take", "No double / Take"),
            (
                "ベストキューブアクション：ダブル / テイク",
                "ダブル / テイク",
            ),
            (
                "Beste Dopplerwürfel Aktion Doppeln / Annehmen",
                "Beste Dopplerwürfel Aktion Doppeln / Annehmen",
            ),
        ] {
            let lines = [
                "",
                "       Double/Pass:   +1.000 (+0.663)",
                "",
                line,
                "",
                "eXtreme Gammon Version: 2.10",
            ];
            assert_eq!(cube_verdict(&lines).as_deref(), Some(want));
        }
    }
}
