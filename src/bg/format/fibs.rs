//! Reader for FIBS "oldmoves" logs (the First Internet Backgammon Server's
//! `oldmoves` command, as GNU Backgammon's `import oldmoves` reads them).
//!
//! Each game opens with `Score is 3-1 in a 7 point match.` (no length: a
//! money session) and `name0 is X - name1 is O`; then one line per action:
//! `X: (3 1) 8-5 6-5`, `O: (6 4) can't move`, `X: doubles`, `O: accepts`,
//! `O: rejects`, `X: wins 2 points`. Points run `1`–`24`, `bar`, `off`; a
//! play written in ascending numbers (FIBS's numbering for O) is turned to
//! the mover's own numbering, as gnubg does. X is player 0.

use crate::bg::format::mat::{decode, MatError};
use crate::bg::game::record::{Action, GameRecord, MatchRecord, Step, BAR_POINT, OFF_POINT};

/// Reads a whole oldmoves log.
///
/// # Errors
/// When no `Score is` line opens a game.
pub fn read_oldmoves(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let (text, _) = decode(bytes);
    let mut m = MatchRecord {
        format: "oldmoves",
        ..MatchRecord::default()
    };
    // Whether this game's X is the match's player 1 (names swapped).
    let mut invert = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("Score is ") {
            let (score, length) = score_line(rest)
                .ok_or_else(|| MatError(format!("line {line_no}: unreadable score line '{t}'")))?;
            if m.games.is_empty() {
                m.length = length;
            }
            m.games.push(GameRecord {
                number: m.games.len() as u32 + 1,
                score: Some(score),
                ..GameRecord::default()
            });
            continue;
        }
        let Some(g) = m.games.last_mut() else {
            continue;
        };
        if let Some((x, o)) = names_line(t) {
            if m.players[0].is_empty() && m.players[1].is_empty() {
                m.players = [x, o];
                invert = false;
            } else {
                invert = x == m.players[1] && o == m.players[0];
            }
            if invert {
                if let Some(s) = g.score.as_mut() {
                    s.swap(0, 1);
                }
            }
            continue;
        }
        match action(t, invert) {
            Ok(Some(a)) => g.actions.push((line_no, a)),
            Ok(None) => {}
            Err(why) => g.unread.push((line_no, why)),
        }
    }
    if m.games.is_empty() {
        return Err(MatError(
            "no 'Score is' line: not a FIBS oldmoves log".into(),
        ));
    }
    Ok(m)
}

/// `3-1 in a 7 point match.` → ([3, 1], 7); without a length, money (0).
fn score_line(rest: &str) -> Option<([u32; 2], u32)> {
    let (score, tail) = rest
        .split_once(' ')
        .unwrap_or((rest.trim_end_matches('.'), ""));
    let (a, b) = score.split_once('-')?;
    let length = tail
        .strip_prefix("in a ")
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Some(([a.parse().ok()?, b.parse().ok()?], length))
}

/// `name0 is X - name1 is O` → the names (either may be empty).
fn names_line(t: &str) -> Option<(String, String)> {
    let (x, rest) = match t.strip_prefix("is X - ") {
        Some(rest) => ("", rest),
        None => t.split_once(" is X - ")?,
    };
    let o = rest
        .strip_suffix(" is O")
        .or_else(|| (rest == "is O").then_some(""))?;
    Some((x.trim().to_string(), o.trim().to_string()))
}

/// One action line; `None` for a line that changes nothing (a
/// resignation offer: the result follows).
fn action(t: &str, invert: bool) -> Result<Option<Action>, String> {
    let side = match t.as_bytes().first() {
        Some(b'X') => 0,
        Some(b'O') => 1,
        _ => return Err(format!("unknown line '{t}'")),
    };
    let player = side ^ usize::from(invert);
    let body = t[1..]
        .strip_prefix(':')
        .map(str::trim)
        .ok_or_else(|| format!("unknown line '{t}'"))?;
    let lower = body.to_ascii_lowercase();
    if lower.starts_with("doubles") {
        return Ok(Some(Action::Double { player, value: 0 }));
    }
    if lower.starts_with("accepts") {
        return Ok(Some(Action::Take { player }));
    }
    if lower.starts_with("rejects") {
        return Ok(Some(Action::Drop { player }));
    }
    if lower.starts_with("wants to resign") {
        return Ok(None);
    }
    if let Some(rest) = lower.strip_prefix("wins") {
        let points = rest
            .split_whitespace()
            .find_map(|w| w.parse::<u32>().ok())
            .ok_or_else(|| format!("'{t}': no number of points"))?;
        return Ok(Some(Action::Wins {
            player,
            points,
            and_match: false,
        }));
    }
    let roll = body
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .ok_or_else(|| format!("unknown line '{t}'"))?;
    let dice: Vec<u8> = roll
        .0
        .split_whitespace()
        .filter_map(|d| d.parse().ok())
        .filter(|d| (1..=6).contains(d))
        .collect();
    let &[d0, d1] = dice.as_slice() else {
        return Err(format!("'{t}': the dice are not two numbers 1 to 6"));
    };
    let play = roll.1.trim();
    let steps = if play.eq_ignore_ascii_case("can't move") || play.is_empty() {
        Vec::new()
    } else {
        steps(play).map_err(|why| format!("'{t}': {why}"))?
    };
    Ok(Some(Action::Roll {
        player,
        dice: (d0, d1),
        steps,
        text: play.to_string(),
    }))
}

/// `8-5 6-5`, `bar-22 13-off`, and FIBS's ascending `1-7 12-17` (turned
/// to the mover's numbering, as gnubg judges it from the first step).
fn steps(play: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for w in play.split_whitespace() {
        let (from, to) = w
            .split_once('-')
            .ok_or_else(|| format!("'{w}' is not from-to"))?;
        let point = |s: &str| -> Result<u8, String> {
            match s.trim_end_matches('*').to_ascii_lowercase().as_str() {
                "bar" | "b" => Ok(BAR_POINT),
                "off" | "o" => Ok(OFF_POINT),
                n => n
                    .parse::<u8>()
                    .ok()
                    .filter(|n| (1..=24).contains(n))
                    .ok_or_else(|| format!("bad point in '{w}'")),
            }
        };
        out.push(Step {
            from: point(from)?,
            to: point(to)?,
            hit: false,
        });
    }
    let ascending = out.first().is_some_and(|s| match (s.from, s.to) {
        (BAR_POINT, to) => to < 7,
        (from, OFF_POINT) => from > 18,
        (from, to) => from < to,
    });
    if ascending {
        let flip = |p: u8| {
            if matches!(p, BAR_POINT | OFF_POINT) {
                p
            } else {
                25 - p
            }
        };
        for s in &mut out {
            (s.from, s.to) = (flip(s.from), flip(s.to));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "Score is 0-0 in a 3 point match.
  ann is X - bob is O
X: (3 1) 8-5 6-5
O: (4 1) 12-16 1-2
X: doubles
O: rejects
X: wins 1 point

Score is 0-1 in a 3 point match.
  bob is X - ann is O
X: (6 4) can't move
O: (2 1) bar-23 6-off
O: wins 2 points
";

    #[test]
    fn reads_games_names_and_fibs_numbering() {
        let m = read_oldmoves(LOG.as_bytes()).unwrap();
        assert_eq!((m.length, m.players[0].as_str()), (3, "ann"));
        assert_eq!(m.games.len(), 2);
        let acts: Vec<&Action> = m.games[0].actions.iter().map(|(_, a)| a).collect();
        // O's ascending 12-16 1-2 is 13/9 24/23 in O's own numbering.
        match acts[1] {
            Action::Roll {
                player: 1, steps, ..
            } => assert_eq!(
                steps.iter().map(|s| (s.from, s.to)).collect::<Vec<_>>(),
                [(13, 9), (24, 23)]
            ),
            a => panic!("{a:?}"),
        }
        assert!(matches!(acts[3], Action::Drop { player: 1 }));
        // Game 2: the names are swapped, so X is ann's opponent bob.
        let g2 = &m.games[1];
        assert_eq!(g2.score, Some([1, 0]));
        assert!(
            matches!(g2.actions[0].1, Action::Roll { player: 1, ref steps, .. } if steps.is_empty())
        );
        assert!(matches!(
            g2.actions[2].1,
            Action::Wins {
                player: 0,
                points: 2,
                ..
            }
        ));
    }

    #[test]
    fn names_may_be_empty() {
        let log = b"Score is 0-0 in a 1 point match.\n   is X - bob is O\nX: (3 1) 8-5 6-5\n";
        let m = read_oldmoves(log).unwrap();
        assert_eq!(m.players, [String::new(), "bob".into()]);
        assert_eq!(m.games[0].actions.len(), 1);
    }

    #[test]
    fn bad_lines_are_kept_as_unread() {
        let m = read_oldmoves(
            b"Score is 0-0 in a 1 point match.\n a is X - b is O\nX: (7 1) 8-1\nZ: what\n",
        )
        .unwrap();
        assert_eq!(m.games[0].unread.len(), 2, "{:?}", m.games[0].unread);
        assert!(read_oldmoves(b"hello").is_err());
    }
}
