//! Reader for Snowie's text position export (`.txt`), as GNU Backgammon's
//! `import snowietxt` reads it: one line of 40 fields separated by `;`.
//!
//! Fields: 0 match length (0: money), 1 Jacoby (1: on), 2–3 unknown, 4 the
//! player on roll (0 or 1), 5 the name of the player on roll, 6 the
//! other's, 7 Crawford game (1), 8–9 the scores (on roll first), 10 the
//! cube's value, 11 its owner (1 the player on roll, −1 the other, 0
//! centred), 12 the other player's checkers on the bar (written negative),
//! 13–36 the points 1–24 from the player on roll's side (positive: theirs,
//! negative: the other's), 37 the checkers of the player on roll on the
//! bar, 38–39 the dice (0 0: not rolled). gnubg's notes call field 12 the
//! bar of the player on roll, but its import and its export (`export
//! position snowietxt`) both use it for the other player; so does
//! recount. The file is one game: the position, unfinished.

use crate::bg::format::mat::{decode, MatError};
use crate::bg::game::record::{GameRecord, MatchRecord};
use crate::bg::position::board::Board;

/// Bar index of [`Board::checkers`].
const BAR: usize = 24;

/// Reads a Snowie text position.
///
/// # Errors
/// When the file has fewer than 40 fields, a number field does not read,
/// or the position has more than 15 checkers of a player.
pub fn read_snowie_txt(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let (text, _) = decode(bytes);
    let fields: Vec<&str> = text.trim().split(';').map(str::trim).collect();
    if fields.len() < 40 {
        return Err(MatError(format!(
            "{} fields: a Snowie text position has 40",
            fields.len()
        )));
    }
    let num = |i: usize| -> Result<i32, MatError> {
        fields[i]
            .parse()
            .map_err(|_| MatError(format!("field {i}: '{}' is not a number", fields[i])))
    };
    let count = |i: usize| -> Result<u8, MatError> {
        u8::try_from(num(i)?.unsigned_abs())
            .ok()
            .filter(|&n| n <= 15)
            .ok_or_else(|| MatError(format!("field {i}: {} checkers", fields[i])))
    };
    let turn = match num(4)? {
        0 => 0,
        1 => 1,
        t => return Err(MatError(format!("field 4: player on roll {t}"))),
    };
    let other = 1 - turn;
    let mut board = Board::empty();
    board.checkers[other][BAR] = count(12)?;
    board.checkers[turn][BAR] = count(37)?;
    for i in 0..24 {
        let n = num(13 + i)?;
        let c = count(13 + i)?;
        if n > 0 {
            board.checkers[turn][i] = c;
        } else if n < 0 {
            board.checkers[other][23 - i] = c;
        }
    }
    for p in 0..2 {
        if board.on_board(p) > 15 {
            return Err(MatError(format!(
                "player {p} has {} checkers on the board",
                board.on_board(p)
            )));
        }
    }
    let length = u32::try_from(num(0)?)
        .map_err(|_| MatError(format!("field 0: match length {}", fields[0])))?;
    let score = |i: usize| {
        u32::try_from(num(i)?).map_err(|_| MatError(format!("field {i}: score {}", fields[i])))
    };
    let mut scores = [0; 2];
    scores[turn] = score(8)?;
    scores[other] = score(9)?;
    let cube = u32::try_from(num(10)?)
        .ok()
        .filter(|c| c.is_power_of_two())
        .ok_or_else(|| MatError(format!("field 10: cube value {}", fields[10])))?;
    let owner = match num(11)? {
        1 => Some(turn),
        -1 => Some(other),
        _ => None,
    };
    let mut m = MatchRecord {
        format: "snowie",
        length,
        ..MatchRecord::default()
    };
    m.players[turn] = fields[5].to_string();
    m.players[other] = fields[6].to_string();
    let flag = |on: bool| if on { "On" } else { "Off" }.to_string();
    m.tags.push(("Jacoby".into(), flag(num(1)? == 1)));
    let dice = (num(38)?, num(39)?);
    if dice != (0, 0) {
        m.tags
            .push(("Dice".into(), format!("{}{}", dice.0, dice.1)));
    }
    m.games.push(GameRecord {
        number: 1,
        score: Some(scores),
        setup: Some(board),
        setup_cube: Some((cube, owner)),
        setup_turn: Some(turn),
        setup_decision: (dice == (0, 0)).then_some(turn),
        crawford_marked: (length > 0).then_some(num(7)? == 1),
        ..GameRecord::default()
    });
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_position_from_the_side_on_roll() {
        // Player 1 on roll, 3-1 in a 7 point match, cube 2 owned by the
        // other; player 1 has its start position less one checker on the
        // bar, player 0 its start position.
        let mut f = vec![
            "7", "0", "0", "0", "1", "bob", "ann", "0", "3", "1", "2", "-1", "0",
        ];
        let mut points = [0i32; 24];
        for (p, n) in [(24, 2), (13, 5), (8, 3), (6, 4)] {
            points[p - 1] += n;
        }
        for (p, n) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            points[24 - p] -= n;
        }
        let pts: Vec<String> = points.iter().map(i32::to_string).collect();
        f.extend(pts.iter().map(String::as_str));
        f.extend(["1", "5", "2"]);
        let m = read_snowie_txt(f.join(";").as_bytes()).unwrap();
        assert_eq!(m.players, ["ann".to_string(), "bob".into()]);
        let g = &m.games[0];
        assert_eq!(g.score, Some([1, 3]));
        assert_eq!(g.setup_cube, Some((2, Some(0))));
        assert_eq!(g.setup_turn, Some(1));
        let b = g.setup.unwrap();
        assert_eq!(b.checkers[1][BAR], 1);
        assert_eq!(b.checkers[1][5], 4);
        assert_eq!(b.checkers[0], Board::start().checkers[0]);
        assert_eq!(m.tag("Dice"), Some("52"));
        assert!(read_snowie_txt(b"7;0;0").is_err());
        let bad = f.join(";").replacen("-1;0;", "-1;x;", 1);
        assert!(read_snowie_txt(bad.as_bytes()).is_err());
    }
}
