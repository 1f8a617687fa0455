//! Reader for GamesGrid (later GridGammon) `.sgg` match logs, as GNU
//! Backgammon's `import sgg` reads them.
//!
//! `NAME_A vs. NAME_B`, option lines (a date line opening with the
//! weekday, `Jacoby: Yes`, `Crawford: Yes`, `Beavers: No`,
//! `Variant: Backgammon`, ...), then per game `Game 3. 4-6*/7` (NAME_A's
//! score first, `*` marks the Crawford game, no `/N`: money) and one line
//! per action: the turn's number, a tab, a second tab for NAME_B, then
//! `43:` (the roll), `43: 13/9, 13/10` (the play), `62: O-O` (no play),
//! `Doubles`, `Beavers`, `Accepts`, `Passes`, `Resigns`, and finally
//! `NAME wins 2 points`. gnubg swaps GamesGrid's players after reading;
//! so does recount: NAME_B is player 0.

use crate::bg::format::mat::{decode, read_play, MatError};
use crate::bg::game::record::{Action, GameRecord, MatchRecord};

/// Reads a whole `.sgg` log.
///
/// # Errors
/// When no `vs.` line names the players, or no `Game` line opens a game.
pub fn read_sgg(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let (text, _) = decode(bytes);
    let mut m = MatchRecord {
        format: "sgg",
        ..MatchRecord::default()
    };
    let mut named = false;
    // The roll line waiting for its play line: (player, dice).
    let mut pending: Option<(usize, (u8, u8))> = None;
    let mut previous = "";
    let mut duplicates = 0;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        if !named {
            if let Some((a, b)) = t.split_once("vs.") {
                m.players = [b.trim().to_string(), a.trim().to_string()];
                named = true;
            }
            continue;
        }
        if let Some((score, crawford, length)) = game_line(t) {
            if m.games.is_empty() {
                m.length = length;
            }
            m.games.push(GameRecord {
                number: m.games.len() as u32 + 1,
                score: Some(score),
                crawford_marked: (length > 0).then_some(crawford),
                ..GameRecord::default()
            });
            pending = None;
            previous = "";
            continue;
        }
        let Some(g) = m.games.last_mut() else {
            option(&mut m.tags, t);
            continue;
        };
        if line == previous {
            // GamesGrid writes some lines twice (gnubg skips them too).
            duplicates += 1;
            continue;
        }
        previous = line;
        // The line untrimmed: a player's name may be empty.
        if let Some((name, rest)) = line.split_once(" wins ") {
            pending = None;
            let name = name.trim();
            let winner = m.players.iter().position(|p| p == name);
            let winner = winner.filter(|_| m.players[0] != m.players[1]);
            let points = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u32>().ok());
            match (winner, points) {
                (Some(player), Some(points)) => g.actions.push((
                    line_no,
                    Action::Wins {
                        player,
                        points,
                        and_match: false,
                    },
                )),
                (None, _) => g.unread.push((
                    line_no,
                    format!("'{t}': the winner is not one player by name"),
                )),
                (_, None) => g
                    .unread
                    .push((line_no, format!("'{t}': no number of points"))),
            }
            continue;
        }
        let Some(body) = numbered(line) else {
            // A comment.
            continue;
        };
        let Some((player, body)) = body else {
            g.unread.push((
                line_no,
                format!("'{t}': not replayed (an automatic double or an unknown line)"),
            ));
            continue;
        };
        match action(player, body, &mut pending) {
            Ok(Some(a)) => g.actions.push((line_no, a)),
            Ok(None) => {}
            Err(why) => g.unread.push((line_no, format!("'{t}': {why}"))),
        }
    }
    if !named {
        return Err(MatError(
            "no 'A vs. B' line: not a GamesGrid .sgg log".into(),
        ));
    }
    if m.games.is_empty() {
        return Err(MatError("no 'Game N. A-B/L' line".into()));
    }
    if duplicates > 0 {
        m.notes.push(format!(
            "{duplicates} line(s) written twice in a row were read once"
        ));
    }
    Ok(m)
}

/// `Game 3. 4-6*/7` → ([6, 4] (player 0 is the second), Crawford marked,
/// length; 0 without `/N`).
fn game_line(t: &str) -> Option<([u32; 2], bool, u32)> {
    let rest = t.strip_prefix("Game ")?;
    let (_, rest) = rest.split_once(". ")?;
    let (score, length) = match rest.split_once('/') {
        Some((s, l)) => (s, l.trim().parse().ok()?),
        None => (rest.trim(), 0),
    };
    let (a, b) = score.split_once('-')?;
    let crawford = a.ends_with('*') || b.ends_with('*');
    let n = |s: &str| s.trim().trim_end_matches('*').parse::<u32>().ok();
    Some(([n(b)?, n(a)?], crawford, length))
}

/// An option line before the first game, kept as a tag (the rules
/// recount knows by their usual names).
fn option(tags: &mut Vec<(String, String)>, t: &str) {
    const DAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    if DAYS.iter().any(|d| t.starts_with(d)) {
        if let Some(date) = date(t) {
            tags.push(("EventDate".into(), date));
        }
        return;
    }
    let Some((key, value)) = t.split_once(':') else {
        return;
    };
    let value = value.trim();
    let yes = || if value == "Yes" { "On" } else { "Off" }.to_string();
    let (key, value) = match key.trim() {
        "Jacoby" => ("Jacoby".to_string(), yes()),
        "Crawford" => ("Crawford".into(), yes()),
        "Beavers" => ("Beaver".into(), yes()),
        "Variant" => ("Variation".into(), value.to_string()),
        k => (k.to_string(), value.to_string()),
    };
    tags.push((key, value));
}

/// `Saturday, November 8, 2025` → `2025.11.08`.
fn date(t: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let mut w = t.split_whitespace().skip(1);
    let name = w.next()?;
    let month = MONTHS.iter().position(|m| *m == name)? + 1;
    let day: u32 = w.next()?.trim_end_matches(',').parse().ok()?;
    let year: u32 = w.next()?.parse().ok()?;
    Some(format!("{year}.{month:02}.{day:02}"))
}

/// A numbered line: `None` when it does not open with a number; then
/// `Some(None)` for a number not followed by a tab, else the player (two
/// tabs: player 0) and the rest.
fn numbered(line: &str) -> Option<Option<(usize, &str)>> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let Some(rest) = line[digits..].strip_prefix('\t') else {
        return Some(None);
    };
    Some(Some(match rest.strip_prefix('\t') {
        Some(rest) => (0, rest),
        None => (1, rest),
    }))
}

/// One action; `None` for a line that changes nothing (a roll line
/// waiting for its play, a resignation: the result follows).
fn action(
    player: usize,
    body: &str,
    pending: &mut Option<(usize, (u8, u8))>,
) -> Result<Option<Action>, String> {
    let b = body.as_bytes();
    if b.len() >= 3
        && (b'1'..=b'6').contains(&b[0])
        && (b'1'..=b'6').contains(&b[1])
        && b[2] == b':'
    {
        let dice = (b[0] - b'0', b[1] - b'0');
        let play = body[3..].trim();
        if play.is_empty() {
            *pending = Some((player, dice));
            return Ok(None);
        }
        let waiting = pending.take();
        if play.to_ascii_lowercase().starts_with("resign") {
            return Ok(None);
        }
        if waiting.is_some_and(|w| w != (player, dice)) {
            return Err("a play after another player's or another roll's line".into());
        }
        let steps = if play.contains("O-O") {
            Vec::new()
        } else {
            let words: Vec<&str> = play.split([',', ' ']).filter(|w| !w.is_empty()).collect();
            read_play(&words)?
        };
        return Ok(Some(Action::Roll {
            player,
            dice,
            steps,
            text: play.to_string(),
        }));
    }
    if body.trim_start().starts_with('-') {
        return Err("a closed-out turn without dice (gnubg assumes 66)".into());
    }
    let lower = body.trim().to_ascii_lowercase();
    let a = if lower.starts_with("double") {
        Action::Double { player, value: 0 }
    } else if lower.starts_with("beaver") || lower.starts_with("raccoon") {
        Action::Beaver { player, value: 0 }
    } else if lower.starts_with("accept") {
        Action::Take { player }
    } else if lower.starts_with("pass") {
        Action::Drop { player }
    } else if lower.starts_with("resign") {
        return Ok(None);
    } else {
        return Err("unknown action".into());
    };
    Ok(Some(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "ann vs. bob
Saturday, November 8, 2025
Jacoby: No
Crawford: Yes
Game 1. 0-0/3
1\t31:
1\t31: 8/5, 6/5
1\t31: 8/5, 6/5
1\t\t62:
1\t\t62: bar/23, 13/7
2\t55: O-O
2\t\tDoubles
2\tPasses
bob wins 1 point

Game 2. 0-1/3
1\t\t11: Automatic double
1\t\t64: 24/18, 13/9
1\tResigns
bob wins 2 points
";

    #[test]
    fn reads_players_swapped_plays_and_cube() {
        let m = read_sgg(LOG.as_bytes()).unwrap();
        assert_eq!(m.players, ["bob".to_string(), "ann".into()]);
        assert_eq!((m.length, m.games.len()), (3, 2));
        assert_eq!(m.tag("EventDate"), Some("2025.11.08"));
        assert_eq!(m.tag_flag("Crawford"), Some(true));
        let g = &m.games[0];
        let acts: Vec<&Action> = g.actions.iter().map(|(_, a)| a).collect();
        assert!(
            matches!(acts[0], Action::Roll { player: 1, dice: (3, 1), steps, .. } if steps.len() == 2)
        );
        assert!(matches!(acts[1], Action::Roll { player: 0, steps, .. } if steps[0].from == 25));
        assert!(matches!(acts[2], Action::Roll { player: 1, steps, .. } if steps.is_empty()));
        assert!(matches!(acts[3], Action::Double { player: 0, .. }));
        assert!(matches!(acts[4], Action::Drop { player: 1 }));
        assert!(matches!(
            acts[5],
            Action::Wins {
                player: 0,
                points: 1,
                ..
            }
        ));
        assert_eq!(m.notes.len(), 1, "the duplicated play line");
        // Game 2: bob's score first (player 0), the automatic double unread.
        let g2 = &m.games[1];
        assert_eq!(g2.score, Some([1, 0]));
        assert_eq!(g2.unread.len(), 1, "{:?}", g2.unread);
        assert_eq!(g2.actions.len(), 2);
    }

    #[test]
    fn names_may_be_empty() {
        let log = b" vs. bob\nGame 1. 0-0/1\n1\t31: 8/5, 6/5\n wins 1 point\n";
        let m = read_sgg(log).unwrap();
        assert_eq!(m.players, ["bob".to_string(), String::new()]);
        assert!(matches!(
            m.games[0].actions[1].1,
            Action::Wins { player: 1, .. }
        ));
        let same = b"a vs. a\nGame 1. 0-0/1\na wins 1 point\n";
        assert_eq!(read_sgg(same).unwrap().games[0].unread.len(), 1);
    }

    #[test]
    fn not_a_log() {
        assert!(read_sgg(b"hello").is_err());
        assert!(read_sgg(b"a vs. b\n").is_err());
        assert_eq!(game_line("Game 2. 6*-3/7"), Some(([3, 6], true, 7)));
        assert_eq!(game_line("Game 2. 6-3"), Some(([3, 6], false, 0)));
    }
}
