//! Reader for TrueMoneyGames `.tmg` match logs, as GNU Backgammon's
//! `import tmg` reads them.
//!
//! Option lines (`MatchID: 123`, `Player1: 17 ann 1523.4`,
//! `Player2: ...`, `Startdate: 2004-05-06`, `Jacoby: 1`, `Crawford: 1`,
//! `Beavers: 0`, `Length: 7`, `Variant: 1`), then per game `Game 1: 0-0`
//! (Player1's score first) and one record per line: the action's number
//! (negative for Player2), the record type and its text: `1 41:` (roll;
//! `?`: none, the game was lost on time), `4 13/9 24/23` (play; `0/0`
//! none), `2` automatic double, `5 Double to 2`, `7 Take`, `8 Beaver to
//! 4`, `10 Pass`, `14`/`15`/`16 N NAME wins N points` (single, gammon,
//! backgammon), `17`/`22` out of time, `19` table stake. gnubg swaps the
//! players after reading; so does recount: Player2 is player 0.

use crate::bg::format::mat::{decode, read_play, MatError};
use crate::bg::game::record::{Action, GameRecord, MatchRecord};

/// Reads a whole `.tmg` log.
///
/// # Errors
/// When no `Game N: A-B` line opens a game.
pub fn read_tmg(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let (text, _) = decode(bytes);
    let mut m = MatchRecord {
        format: "tmg",
        ..MatchRecord::default()
    };
    let mut pending: Option<(usize, (u8, u8))> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(score) = game_line(t) {
            m.games.push(GameRecord {
                number: m.games.len() as u32 + 1,
                score: Some(score),
                ..GameRecord::default()
            });
            pending = None;
            continue;
        }
        let record = t.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        match m.games.last_mut() {
            Some(g) if record => match action(t, &mut pending) {
                Ok(Some(a)) => g.actions.push((line_no, a)),
                Ok(None) => {}
                Err(why) => g.unread.push((line_no, format!("'{t}': {why}"))),
            },
            // The players may change options during play: those lines
            // change nothing recount replays.
            Some(_) => {}
            None => option(&mut m, t),
        }
    }
    if m.games.is_empty() {
        return Err(MatError(
            "no 'Game N: A-B' line: not a TrueMoneyGames .tmg log".into(),
        ));
    }
    Ok(m)
}

/// `Game 1: 3-2` → [2, 3] (player 0 is Player2).
fn game_line(t: &str) -> Option<[u32; 2]> {
    let rest = t.strip_prefix("Game ")?;
    let (n, score) = rest.split_once(':')?;
    n.trim().parse::<u32>().ok()?;
    let (a, b) = score.trim().split_once('-')?;
    Some([b.trim().parse().ok()?, a.trim().parse().ok()?])
}

/// An option line before the first game.
fn option(m: &mut MatchRecord, t: &str) {
    let Some((key, value)) = t.split_once(':') else {
        return;
    };
    let value = value.trim();
    let on = || if value == "0" { "Off" } else { "On" }.to_string();
    match key {
        "Player1" | "Player2" => {
            // `Player1: ID NAME RATING`.
            if let Some(name) = value.split_whitespace().nth(1) {
                m.players[usize::from(key == "Player1")] = name.to_string();
            }
        }
        "Length" => m.length = value.parse().unwrap_or(0),
        "Jacoby" => m.tags.push(("Jacoby".into(), on())),
        "Crawford" => m.tags.push(("Crawford".into(), on())),
        "Beavers" => m.tags.push(("Beaver".into(), on())),
        "Startdate" => {
            let date = value.split_whitespace().next().unwrap_or("");
            m.tags.push(("EventDate".into(), date.replace('-', ".")));
        }
        "MatchID" => m.tags.push(("Match ID".into(), value.to_string())),
        "Variant" => {
            let v = match value {
                "1" => "Standard",
                "2" => "Nackgammon",
                v => v,
            };
            m.tags.push(("Variation".into(), v.to_string()));
        }
        k => m.tags.push((k.to_string(), value.to_string())),
    }
}

/// One record line; `None` for a record that changes nothing recount
/// replays (a roll waiting for its play, out of time, a table stake).
fn action(t: &str, pending: &mut Option<(usize, (u8, u8))>) -> Result<Option<Action>, String> {
    let mut w = t.splitn(3, char::is_whitespace);
    let number = w.next().unwrap_or("");
    let player = usize::from(!number.starts_with('-'));
    let kind: u32 = w
        .next()
        .and_then(|k| k.parse().ok())
        .ok_or("no record type")?;
    let rest = w.next().unwrap_or("").trim();
    let a = match kind {
        1 => {
            if rest.starts_with('?') {
                return Ok(None);
            }
            let d: Vec<u8> = rest
                .bytes()
                .take(2)
                .filter(|b| (b'1'..=b'6').contains(b))
                .map(|b| b - b'0')
                .collect();
            let &[d0, d1] = d.as_slice() else {
                return Err("the dice are not two numbers 1 to 6".into());
            };
            *pending = Some((player, (d0, d1)));
            return Ok(None);
        }
        2 => return Err("an automatic double: not replayed".into()),
        4 => {
            let Some((p, dice)) = pending.take() else {
                return Err("a play without its roll".into());
            };
            if p != player {
                return Err("a play by the other player than the roll's".into());
            }
            let steps = if rest.starts_with("0/0") {
                Vec::new()
            } else {
                read_play(&rest.split_whitespace().collect::<Vec<_>>())?
            };
            Action::Roll {
                player,
                dice,
                steps,
                text: rest.to_string(),
            }
        }
        5 => Action::Double {
            player,
            value: cube_value(rest),
        },
        8 => Action::Beaver {
            player,
            value: cube_value(rest),
        },
        7 => Action::Take { player },
        10 => Action::Drop { player },
        14..=16 => {
            let points = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or("no number of points")?;
            Action::Wins {
                player,
                points,
                and_match: false,
            }
        }
        17 | 19 | 22 => return Ok(None),
        k => return Err(format!("unknown record type {k}")),
    };
    Ok(Some(a))
}

/// `Double to 4` → 4; 0 when not written.
fn cube_value(rest: &str) -> u32 {
    rest.split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "MatchID: 9
Player1: 4 ann 1500.00
Player2: 5 bob 1490.00
Jacoby: 1
Length: 0

Game 1: 0-0
 -1 1 31:
 -1 4 8/5 6/5
  2 1 66:
  2 4 0/0
 -3 5 Double to 2
  4 8 Beaver to 4
 -5 7 Take
 -6 1 ?
  6 1 64:
  6 4 24/18 13/9
  7 14 4 ann wins 4 points

Game 2: 4-0
Beavers: 0
  1 2 Automatic to 2
  1 3 what
 -2 4 13/9
";

    #[test]
    fn reads_players_swapped_plays_and_cube() {
        let m = read_tmg(LOG.as_bytes()).unwrap();
        assert_eq!(m.players, ["bob".to_string(), "ann".into()]);
        assert_eq!((m.length, m.games.len()), (0, 2));
        assert_eq!(m.tag_flag("Jacoby"), Some(true));
        let acts: Vec<&Action> = m.games[0].actions.iter().map(|(_, a)| a).collect();
        assert!(
            matches!(acts[0], Action::Roll { player: 0, dice: (3, 1), steps, .. } if steps.len() == 2)
        );
        assert!(matches!(acts[1], Action::Roll { player: 1, steps, .. } if steps.is_empty()));
        assert!(matches!(
            acts[2],
            Action::Double {
                player: 0,
                value: 2
            }
        ));
        assert!(matches!(
            acts[3],
            Action::Beaver {
                player: 1,
                value: 4
            }
        ));
        assert!(matches!(acts[4], Action::Take { player: 0 }));
        assert!(matches!(
            acts[6],
            Action::Wins {
                player: 1,
                points: 4,
                ..
            }
        ));
        let g2 = &m.games[1];
        assert_eq!(g2.score, Some([0, 4]));
        assert_eq!(g2.unread.len(), 3, "{:?}", g2.unread);
        assert!(read_tmg(b"hello").is_err());
    }
}
