//! What BGBlitz's and eXtreme Gammon's text position exports share once
//! read: a position with its match state, the file's own claims about it
//! that disagree with it (`position_mismatch` findings), and the match
//! record the positions become (one unfinished game a position, as a
//! Snowie position is).

use crate::bg::format::mat::{decode, MatError};
use crate::bg::game::record::{GameRecord, MatchRecord};
use crate::bg::position::board::Board;
use crate::bg::position::ids::{
    match_id, match_state_from_id, position_id, xgid, GameState, MatchState,
};

/// One position as read, with what the file says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Player 0 (O, top) and player 1 (X, bottom).
    pub names: [String; 2],
    /// Points to win the match, 0 for money play.
    pub length: u32,
    pub score: [u32; 2],
    pub board: Board,
    /// The player on roll (the doubler while a double is pending).
    pub on_roll: usize,
    pub dice: Option<(u8, u8)>,
    pub double_offered: bool,
    pub cube: u32,
    pub owner: Option<usize>,
    pub crawford: bool,
    pub jacoby: bool,
    /// Beavers allowed, when the file says.
    pub beavers: Option<bool>,
    pub cube_limit: u32,
    /// The file's claims that disagree with the position, by line.
    pub disagreements: Vec<(u32, String)>,
    /// The program's own verdict (`BestPlay`, `BestEquity`,
    /// `BestCubeAction`, ...), kept as tags.
    pub tags: Vec<(String, String)>,
}

impl Position {
    /// The match state gnubg's Match ID and the XGID describe.
    pub fn state(&self) -> MatchState {
        MatchState {
            on_roll: self.on_roll,
            turn: if self.double_offered {
                1 - self.on_roll
            } else {
                self.on_roll
            },
            dice: self.dice,
            cube: self.cube,
            cube_owner: self.owner,
            crawford: self.crawford && self.length > 0,
            state: GameState::Playing,
            double_offered: self.double_offered,
            resignation: 0,
            match_length: self.length,
            score: self.score,
            jacoby: self.jacoby && self.length == 0,
            cube_limit: self.cube_limit,
        }
    }

    /// Records a disagreement at `line` when the file's `written` value
    /// is not the position's `read` one.
    pub fn differ<T: PartialEq + std::fmt::Display>(
        &mut self,
        line: u32,
        what: &str,
        written: T,
        read: T,
    ) {
        if written != read {
            self.disagreements.push((
                line,
                format!("the file's {what} is {written}, the position's {read}"),
            ));
        }
    }
}

/// The side's name in findings.
pub fn side_name(p: usize) -> &'static str {
    if p == 1 {
        "X"
    } else {
        "O"
    }
}

/// Checks the file's own gnubg Position ID, Match ID and XGID (each with
/// its line) against the ones recount writes for `pos`.
pub fn check_ids(
    pos: &mut Position,
    pid: Option<(u32, String)>,
    mid: Option<(u32, String)>,
    xg: Option<(u32, String)>,
) {
    let state = pos.state();
    let ours = [
        position_id(&pos.board, pos.on_roll),
        match_id(&state),
        xgid(&pos.board, &state),
    ];
    for ((what, theirs), ours) in ["Position-ID", "Match-ID", "XGID"]
        .into_iter()
        .zip([pid, mid, xg])
        .zip(ours)
    {
        let Some((line, theirs)) = theirs else {
            continue;
        };
        // BGBlitz writes a Match ID's dice in the order it shows them
        // (`1-2`), gnubg the larger first: the same roll.
        let same_roll = what == "Match-ID"
            && match_state_from_id(&theirs).is_ok_and(|m| {
                let sorted = |d: Option<(u8, u8)>| d.map(|(a, b)| (a.max(b), a.min(b)));
                MatchState {
                    dice: sorted(m.dice),
                    ..m
                } == MatchState {
                    dice: sorted(state.dice),
                    cube_limit: 1024,
                    ..state.clone()
                }
            });
        if !same_roll {
            pos.differ(line, what, theirs, ours);
        }
    }
}

/// Reads a file of positions, each opening on a line for which `opens`
/// holds and read by `read` (its lines from there to the next opening,
/// and the 0-based number of its first line), into their match record.
///
/// # Errors
/// `missing` when no line opens a position; the first position that
/// does not read.
pub fn read_positions(
    bytes: &[u8],
    format: &'static str,
    opens: fn(&str) -> bool,
    missing: &str,
    read: fn(&[&str], usize) -> Result<Position, String>,
) -> Result<MatchRecord, MatError> {
    let (text, _) = decode(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| opens(lines[i])).collect();
    if starts.is_empty() {
        return Err(MatError(missing.into()));
    }
    let mut positions = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        positions.push(read(&lines[s..end], s).map_err(MatError)?);
    }
    Ok(new_record(format, positions))
}

/// The match record of a file's positions (at least one): the players,
/// match length and rules of the first; one unfinished game a position,
/// the program's verdicts and the dice as tags in file order.
fn new_record(format: &'static str, positions: Vec<Position>) -> MatchRecord {
    let mut m = MatchRecord {
        format,
        ..MatchRecord::default()
    };
    let Some(first) = positions.first() else {
        return m;
    };
    m.players = first.names.clone();
    m.length = first.length;
    let flag = |on: bool| if on { "On" } else { "Off" }.to_string();
    if first.length == 0 {
        m.tags.push(("Jacoby".into(), flag(first.jacoby)));
        if let Some(b) = first.beavers {
            m.tags.push(("Beaver".into(), flag(b)));
        }
    }
    if first.cube_limit != 1024 {
        m.tags
            .push(("CubeLimit".into(), first.cube_limit.to_string()));
    }
    for (i, p) in positions.into_iter().enumerate() {
        let mut unread = Vec::new();
        if p.length != m.length {
            unread.push((
                0,
                format!(
                    "a position of a {}-point match in a file whose first is of a {}-point match: read as the first's",
                    p.length, m.length
                ),
            ));
        }
        if let Some((a, b)) = p.dice {
            m.tags.push(("Dice".into(), format!("{a}{b}")));
        }
        if p.double_offered {
            m.tags
                .push(("CubeOffered".into(), side_name(p.on_roll).into()));
        }
        m.tags.extend(p.tags);
        m.games.push(GameRecord {
            number: i as u32 + 1,
            score: Some(p.score),
            setup: Some(p.board),
            setup_cube: Some((p.cube, p.owner)),
            setup_turn: Some(p.on_roll),
            setup_decision: (p.dice.is_none() && !p.double_offered).then_some(p.on_roll),
            crawford_marked: (p.length > 0).then_some(p.crawford),
            unread,
            disagreements: p.disagreements,
            ..GameRecord::default()
        });
    }
    m
}
