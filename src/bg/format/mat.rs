//! Reader for Jellyfish / GNU Backgammon `.mat` match text, with the
//! dialects of Backgammon Galaxy and Backgammon Studio exports.
//!
//! A file is `;`/`#` comment lines with `[Tag "value"]`, an `N point match`
//! line, then per game a `Game N` line, a score line `name : s0   name : s1`
//! and numbered move lines with two columns (left = player 0). Which column
//! a line's only action is in is decided by where it starts, against the
//! column where the game's two-action lines put their second action, or,
//! in a game with none, the column of the second name on the score line
//! (which a first name longer than its padding pushes right).

use crate::bg::game::record::{Action, GameRecord, MatchRecord, Step, BAR_POINT, OFF_POINT};
use std::borrow::Cow;

/// Why a file could not be read as a match at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatError(pub String);

impl std::fmt::Display for MatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decodes the file's text: UTF-8 (a byte-order mark is dropped), else
/// Windows-1252, which is what older Windows writers use.
pub(crate) fn decode(bytes: &[u8]) -> (Cow<'_, str>, Option<&'static str>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), None),
        Err(_) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            (text, Some("text is not UTF-8: read as Windows-1252"))
        }
    }
}

/// Reads a whole `.mat` file.
///
/// # Errors
/// When the text has no `N point match` line and no game: it is not a
/// match; when it has no game: there is nothing to report.
pub fn read_mat(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let (text, note) = decode(bytes);
    let mut m = MatchRecord {
        format: "mat",
        ..MatchRecord::default()
    };
    if let Some(n) = note {
        m.notes.push(n.into());
    }
    let mut saw_header = false;
    // Column where the right player's entries start, from the score line.
    let mut right_col: Option<usize> = None;
    // The current game's move lines, read once the game is whole.
    let mut pending: Vec<(u32, Result<Vec<Entry>, String>)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        if t.starts_with(';') || t.starts_with('#') {
            if let Some(tag) = read_tag(t) {
                m.tags.push(tag);
            }
            continue;
        }
        if let Some(len) = match_length_line(t) {
            if saw_header {
                m.notes.push(format!(
                    "line {line_no}: a second 'point match' line; ignored"
                ));
            } else {
                m.length = len;
                saw_header = true;
            }
            continue;
        }
        if let Some(n) = game_line(t) {
            if let Some(game) = m.games.last_mut() {
                read_lines(game, &pending, right_col);
            }
            pending.clear();
            m.games.push(GameRecord {
                number: n,
                ..GameRecord::default()
            });
            right_col = None;
            continue;
        }
        let Some(game) = m.games.last_mut() else {
            m.notes
                .push(format!("line {line_no}: text before the first game: {t}"));
            continue;
        };
        if game.score.is_none() && pending.is_empty() {
            if let Some((names, score, col)) = score_line(line) {
                game.score = Some(score);
                right_col = Some(col);
                if m.players[0].is_empty() && m.players[1].is_empty() {
                    m.players = names;
                }
                continue;
            }
        }
        let (body, body_col) = match numbered(line) {
            Some((rest, col)) => (rest, col),
            None => (line, 0),
        };
        pending.push((line_no, entries(body, body_col)));
    }
    if let Some(game) = m.games.last_mut() {
        read_lines(game, &pending, right_col);
    }
    for (tag, name) in [("Player 1", 0), ("Player 2", 1)] {
        if let Some(v) = m.tag(tag) {
            if !v.is_empty() {
                m.players[name] = v.trim().to_string();
            }
        }
    }
    if !saw_header && m.games.is_empty() {
        let why = if m.tags.is_empty() {
            "not a backgammon match file"
        } else {
            "a match export's tags and nothing after them (the file may be cut short)"
        };
        return Err(MatError(format!(
            "no 'N point match' line and no 'Game N' line: {why}"
        )));
    }
    if m.games.is_empty() {
        return Err(MatError(format!(
            "a '{} point match' line but no 'Game N' line after it: no game in the match file",
            m.length
        )));
    }
    if !saw_header {
        m.notes
            .push("no 'N point match' line: read as a money session".into());
    }
    Ok(m)
}

/// `; [Key "Value"]` → (Key, Value).
fn read_tag(t: &str) -> Option<(String, String)> {
    let open = t.find('[')?;
    let close = t.rfind(']')?;
    let inner = t.get(open + 1..close)?.trim();
    let q = inner.find('"')?;
    let key = inner[..q].trim().to_string();
    let value = inner[q..].trim().trim_matches('"').to_string();
    (!key.is_empty()).then_some((key, value))
}

/// `7 point match` → 7.
fn match_length_line(t: &str) -> Option<u32> {
    let (n, rest) = t.split_once(char::is_whitespace)?;
    let rest = rest.trim().to_ascii_lowercase();
    (rest == "point match").then(|| n.parse().ok())?
}

/// `Game 3` → 3.
fn game_line(t: &str) -> Option<u32> {
    let rest = t.strip_prefix("Game ")?;
    rest.trim().parse().ok()
}

/// ` name : 3     other name : 5` → names, scores and the column where the
/// second name starts.
fn score_line(line: &str) -> Option<([String; 2], [u32; 2], usize)> {
    let first = line.find(" : ")?;
    let after = &line[first + 3..];
    let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let s0: u32 = after[..digits].parse().ok()?;
    let rest_start = first + 3 + digits;
    let rest = &line[rest_start..];
    let name1_start = rest_start + (rest.len() - rest.trim_start().len());
    // The second name may be empty (`lasse : 0     : 0`).
    let second = line[name1_start..].rfind(':')? + name1_start;
    let s1: u32 = line[second + 1..].trim().parse().ok()?;
    let names = [
        line[..first].trim().to_string(),
        line[name1_start..second].trim().to_string(),
    ];
    Some((names, [s0, s1], name1_start))
}

/// `  12) rest` → (rest, column of rest).
fn numbered(line: &str) -> Option<(&str, usize)> {
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || !t[digits..].starts_with(')') {
        return None;
    }
    Some((&t[digits + 1..], lead + digits + 1))
}

/// One action's words on a move line, with the column it starts at.
type Entry<'a> = (usize, Vec<&'a str>);

/// The game's move `lines` (each numbered, with its entries) into its
/// actions and unread lines. A line's only entry is the right player's
/// when it starts no more than four columns before where the game's
/// two-entry move lines start their second entry (the left one's is
/// padded to that column); without such a line, before the second name
/// of the score line, `score_col`.
fn read_lines(
    game: &mut GameRecord,
    lines: &[(u32, Result<Vec<Entry>, String>)],
    score_col: Option<usize>,
) {
    let two_entry_col = lines
        .iter()
        .filter_map(|(_, e)| match e.as_deref() {
            // Not a result line: some writers put "Wins" far out.
            Ok([_, (col, ws)]) if !matches!(ws[0], "Wins" | "Losses") => Some(*col),
            _ => None,
        })
        .min();
    let threshold = two_entry_col
        .or(score_col)
        .map_or(20, |c| c.saturating_sub(4).max(8));
    for (line_no, entries) in lines {
        let actions = entries.as_ref().map_err(Clone::clone).and_then(|entries| {
            let two = entries.len() == 2;
            entries
                .iter()
                .enumerate()
                .map(|(k, (col, ws))| {
                    let player = if two {
                        k
                    } else {
                        usize::from(*col >= threshold)
                    };
                    read_action(player, ws)
                })
                .collect::<Result<Vec<_>, _>>()
        });
        match actions {
            Ok(actions) => game
                .actions
                .extend(actions.into_iter().map(|a| (*line_no, a))),
            Err(why) => game.unread.push((*line_no, why)),
        }
    }
}

/// Splits the body of a move line into its one or two entries.
fn entries(body: &str, body_col: usize) -> Result<Vec<Entry<'_>>, String> {
    // Words with their columns.
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut pos = 0;
    for w in body.split_whitespace() {
        let at = body[pos..].find(w).map_or(pos, |o| pos + o);
        words.push((body_col + at, w));
        pos = at + w.len();
    }
    // Group the words into actions, each starting with a keyword or dice.
    let mut groups: Vec<Entry> = Vec::new();
    for (col, w) in words {
        let starts = is_dice(w)
            || matches!(
                w,
                "Doubles" | "Beavers" | "Raccoons" | "Takes" | "Drops" | "Wins" | "Losses"
            );
        // `Cannot Move` belongs to the dice before it.
        if starts && !(w == "Move" && groups.last().is_some_and(|g| g.1.last() == Some(&"Cannot")))
        {
            groups.push((col, vec![w]));
        } else if let Some(g) = groups.last_mut() {
            g.1.push(w);
        } else {
            return Err(format!("unknown token '{w}'"));
        }
    }
    if groups.len() > 2 {
        return Err(format!(
            "{} entries on one line; a move line has at most two",
            groups.len()
        ));
    }
    Ok(groups)
}

fn is_dice(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 3 && b[2] == b':' && (b'1'..=b'6').contains(&b[0]) && (b'1'..=b'6').contains(&b[1])
}

/// One action from its words.
fn read_action(player: usize, ws: &[&str]) -> Result<Action, String> {
    let points = |ws: &[&str]| -> Result<u32, String> {
        ws.get(1)
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("'{}' without a number of points", ws.join(" ")))
    };
    let cube_value = |ws: &[&str]| -> Result<u32, String> {
        match (ws.get(1), ws.get(2).and_then(|n| n.parse().ok())) {
            (Some(&"=>"), Some(v)) => Ok(v),
            _ => Err(format!("'{}': expected '{} => N'", ws.join(" "), ws[0])),
        }
    };
    let no_more = |ws: &[&str], n: usize| -> Result<(), String> {
        match ws.get(n) {
            None => Ok(()),
            Some(w) => Err(format!("unexpected '{w}' after '{}'", ws[..n].join(" "))),
        }
    };
    Ok(match ws[0] {
        "Doubles" => {
            let value = cube_value(ws)?;
            no_more(ws, 3)?;
            Action::Double { player, value }
        }
        "Beavers" | "Raccoons" => {
            let value = cube_value(ws)?;
            no_more(ws, 3)?;
            Action::Beaver { player, value }
        }
        "Takes" => {
            no_more(ws, 1)?;
            Action::Take { player }
        }
        "Drops" => {
            no_more(ws, 1)?;
            Action::Drop { player }
        }
        "Wins" | "Losses" => {
            let n = points(ws)?;
            let tail = ws.get(2..).unwrap_or_default().join(" ");
            let tail = tail.to_ascii_lowercase();
            let (unit, and_match) = match tail.split_once(" and") {
                Some((u, m)) => (u.trim().to_string(), m.trim() == "the match"),
                None => (tail.trim().to_string(), false),
            };
            if !matches!(unit.as_str(), "point" | "points") {
                return Err(format!("'{}': expected 'point(s)'", ws.join(" ")));
            }
            if ws[0] == "Wins" {
                Action::Wins {
                    player,
                    points: n,
                    and_match,
                }
            } else {
                Action::Loses { player, points: n }
            }
        }
        dice => {
            let b = dice.as_bytes();
            let dice = (b[0] - b'0', b[1] - b'0');
            let rest = &ws[1..];
            let text = rest.join(" ");
            if rest == ["????"] {
                return Ok(Action::Unrecorded { player, dice });
            }
            let steps = if rest == ["Cannot", "Move"] || rest.is_empty() {
                Vec::new()
            } else {
                read_play(rest)?
            };
            Action::Roll {
                player,
                dice,
                steps,
                text,
            }
        }
    })
}

/// `bar/21 24/20* 8/4(2) 13/8/5` → steps in the mover's numbering.
pub fn read_play(words: &[&str]) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for w in words {
        let (body, times) = match w.strip_suffix(')').and_then(|s| s.rsplit_once('(')) {
            Some((b, n)) => (
                b,
                n.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("bad repeat count in '{w}'"))?,
            ),
            None => (*w, 1),
        };
        let parts: Vec<&str> = body.split('/').collect();
        if parts.len() < 2 {
            return Err(format!("unknown token '{w}' (a move is written from/to)"));
        }
        let mut chain = Vec::new();
        for pair in parts.windows(2) {
            let (from, _) = point(pair[0]).ok_or_else(|| format!("bad point in '{w}'"))?;
            let (to, hit) = point(pair[1]).ok_or_else(|| format!("bad point in '{w}'"))?;
            chain.push(Step { from, to, hit });
        }
        for _ in 0..times {
            steps.extend_from_slice(&chain);
        }
    }
    Ok(steps)
}

/// A point as written: `1`..`24`, `bar`/`b`/`25`, `off`/`o`/`0`/`-`, with a
/// trailing `*` for a hit.
fn point(s: &str) -> Option<(u8, bool)> {
    let (s, hit) = match s.strip_suffix('*') {
        Some(p) => (p, true),
        None => (s, false),
    };
    let p = match s.to_ascii_lowercase().as_str() {
        "bar" | "b" => BAR_POINT,
        "off" | "o" | "-" => OFF_POINT,
        n => n.parse::<u8>().ok().filter(|&n| n <= 25)?,
    };
    Some((p, hit))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GALAXY: &str = "\u{feff}; [Site \"BackgammonGalaxy\"]
; [Player 1 \"lasse\"]
; [Player 2 \"Carlos Corral\"]
; [Crawford \"On\"]

5 point match

 Game 1
 lasse : 0                       Carlos Corral : 0
  1)                             31: 8/5 6/5
  2) 42: 8/4 6/4                 65: 24/18 18/13
 10)  Doubles => 2                Takes
 11) 65:                         11: 8/7(2) 7/6*(2)
 12) 21: Cannot Move              Doubles => 4
 26)  Drops                       Wins 2 point


 Game 2
 lasse : 0                       Carlos Corral : 2
  1)                             64: bar/18* 6/off
 20)  Losses 3 point                                               Wins 3 point and the match
";

    #[test]
    fn reads_galaxy_columns_and_tokens() {
        let m = read_mat(GALAXY.as_bytes()).unwrap();
        assert_eq!(m.length, 5);
        assert_eq!(m.players, ["lasse".to_string(), "Carlos Corral".into()]);
        assert_eq!(m.tag_flag("crawford"), Some(true));
        assert_eq!(m.games.len(), 2);
        let g = &m.games[0];
        assert_eq!(g.score, Some([0, 0]));
        let acts: Vec<&Action> = g.actions.iter().map(|(_, a)| a).collect();
        assert!(
            matches!(acts[0], Action::Roll { player: 1, dice: (3, 1), steps, .. } if steps.len() == 2)
        );
        assert!(matches!(
            acts[1],
            Action::Roll {
                player: 0,
                dice: (4, 2),
                ..
            }
        ));
        assert!(matches!(
            acts[2],
            Action::Roll {
                player: 1,
                dice: (6, 5),
                ..
            }
        ));
        assert_eq!(
            *acts[3],
            Action::Double {
                player: 0,
                value: 2
            }
        );
        assert_eq!(*acts[4], Action::Take { player: 1 });
        assert!(
            matches!(acts[5], Action::Roll { player: 0, dice: (6, 5), steps, .. } if steps.is_empty())
        );
        match acts[6] {
            Action::Roll {
                player: 1, steps, ..
            } => {
                assert_eq!(steps.len(), 4);
                assert_eq!(
                    steps[2],
                    Step {
                        from: 7,
                        to: 6,
                        hit: true
                    }
                );
            }
            a => panic!("{a:?}"),
        }
        assert!(
            matches!(acts[7], Action::Roll { player: 0, dice: (2, 1), steps, .. } if steps.is_empty())
        );
        assert_eq!(
            *acts[8],
            Action::Double {
                player: 1,
                value: 4
            }
        );
        assert_eq!(*acts[9], Action::Drop { player: 0 });
        assert_eq!(
            *acts[10],
            Action::Wins {
                player: 1,
                points: 2,
                and_match: false
            }
        );
        let g2: Vec<&Action> = m.games[1].actions.iter().map(|(_, a)| a).collect();
        match g2[0] {
            Action::Roll { steps, .. } => assert_eq!(
                steps,
                &vec![
                    Step {
                        from: 25,
                        to: 18,
                        hit: true
                    },
                    Step {
                        from: 6,
                        to: 0,
                        hit: false
                    }
                ]
            ),
            a => panic!("{a:?}"),
        }
        assert_eq!(
            *g2[1],
            Action::Loses {
                player: 0,
                points: 3
            }
        );
        assert_eq!(
            *g2[2],
            Action::Wins {
                player: 1,
                points: 3,
                and_match: true
            }
        );
    }

    #[test]
    fn unnumbered_result_lines_go_by_column() {
        let text = " 7 point match\n\n Game 1\n a : 0                   b : 0\n  1) 31: 8/5 6/5                 41: 13/9 24/23\n      Wins 2 points\n\n Game 2\n a : 2                   b : 0\n  1) 31: 8/5 6/5\n                                  Wins 1 point\n";
        let m = read_mat(text.as_bytes()).unwrap();
        assert!(matches!(
            m.games[0].actions.last().unwrap().1,
            Action::Wins {
                player: 0,
                points: 2,
                ..
            }
        ));
        assert!(matches!(
            m.games[1].actions.last().unwrap().1,
            Action::Wins {
                player: 1,
                points: 1,
                ..
            }
        ));
    }

    #[test]
    fn a_long_first_name_does_not_move_the_right_column() {
        // gnubg pads the first name to 31 columns; a longer one pushes
        // the second name right, but not the move lines' right column.
        let long = "charlot_the_first_with_a_long_name";
        let text = format!(
            " 7 point match\n\n Game 1\n {long} : 0charlot2 : 0\n  1)                             41: 13/9 24/23\n  2) 31: 6/5 8/5                 41: 6/5 9/5\n  3) 31: 24/21 6/5\n"
        );
        let m = read_mat(text.as_bytes()).unwrap();
        assert_eq!(m.players, [long.to_string(), "charlot2".to_string()]);
        let players: Vec<usize> = m.games[0]
            .actions
            .iter()
            .map(|(_, a)| match a {
                Action::Roll { player, .. } => *player,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(players, [1, 0, 1, 0]);
    }

    #[test]
    fn unknown_tokens_are_kept_as_unread_lines() {
        let text =
            "3 point match\n Game 1\n a : 0      b : 0\n  1) 31: 8/5 6/5   Frobs\n  2) 31: 8/x\n";
        let m = read_mat(text.as_bytes()).unwrap();
        let g = &m.games[0];
        assert!(g.actions.is_empty());
        assert_eq!(g.unread.len(), 2, "{:?}", g.unread);
        assert_eq!(g.unread[0].0, 4);
        assert!(g.unread[0].1.contains("Frobs"), "{:?}", g.unread);
        assert_eq!(g.unread[1].0, 5);
        assert!(g.unread[1].1.contains("8/x"), "{:?}", g.unread);
    }

    #[test]
    fn rejects_text_that_is_not_a_match() {
        let e = read_mat(b"hello\nworld\n").unwrap_err();
        assert!(e.0.ends_with(": not a backgammon match file"), "{}", e.0);
        // An export cut short after its tags says so.
        let e = read_mat(b"; [Site \"x\"]\n; [Player 1 \"a\"]\n").unwrap_err();
        assert!(e.0.ends_with("(the file may be cut short)"), "{}", e.0);
        // A header and nothing readable after it: no game, an error.
        let e = read_mat(b"; [Player 1 \"a\"]\n 7 point match\n\n junk line\n").unwrap_err();
        assert_eq!(
            e.0,
            "a '7 point match' line but no 'Game N' line after it: no game in the match file"
        );
    }

    #[test]
    fn money_session_and_chains() {
        let m = read_mat(b"0 point match\n Game 1\n a : 0   b : 0\n 1) 66: 24/18/12 13/7*/1\n")
            .unwrap();
        assert_eq!(m.length, 0);
        match &m.games[0].actions[0].1 {
            Action::Roll { steps, .. } => assert_eq!(steps.len(), 4),
            a => panic!("{a:?}"),
        }
    }
}
