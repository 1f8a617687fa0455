//! Tolerant replay of a Go record to its final position.
//!
//! A move the rules forbid is a finding, not a failure: it is counted,
//! described, and replayed the way the record implies. A move on an occupied
//! point or off the board is skipped; a ko recapture is played; a suicide is
//! played and its stones removed (they go to the opponent's prisoners, as
//! under the rules that allow suicide). Moves after two consecutive passes
//! are counted apart: servers resume games to settle disputes.

use crate::go::board::{Board, Color};
use crate::go::record::{Event, GoRecord, MoveAt};
use crate::go::rules::Rules;
use std::fmt;

/// Why a recorded move breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    Occupied,
    OffBoard,
    /// Immediate recapture of a simple ko.
    Ko,
    /// The play left its own chain without liberties (under rules that
    /// forbid suicide).
    Suicide {
        stones: u32,
    },
}

/// One illegal move as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// 1-based count of move properties (passes included).
    pub move_number: u32,
    pub color: Color,
    /// The move as SGF writes it (`dd`, or the raw value when off board).
    pub point: String,
    pub kind: Illegal,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} {}[{}]: ",
            self.move_number,
            self.color.letter(),
            self.point
        )?;
        match self.kind {
            Illegal::Occupied => f.write_str("point already occupied (move skipped)"),
            Illegal::OffBoard => f.write_str("not a point of this board (move skipped)"),
            Illegal::Ko => f.write_str("retakes a ko at once (stone played)"),
            Illegal::Suicide { stones } => {
                write!(f, "suicide of {stones} stone(s) (played, stones removed)")
            }
        }
    }
}

/// The replayed game: final board and what happened on the way.
#[derive(Clone)]
pub struct Replay {
    pub board: Board,
    /// Move properties on the main line, passes included.
    pub moves: u32,
    pub passes: u32,
    /// Stones each side captured: `[by Black, by White]`.
    pub captures: [u32; 2],
    /// Plays that removed their own stones, legal or not.
    pub suicides: u32,
    /// Moves (not passes) played after two consecutive passes.
    pub moves_after_end: u32,
    /// Passes in a row at the end of the record (2 or more: the players
    /// ended the game for counting).
    pub final_passes: u32,
    pub illegal: Vec<Finding>,
}

/// A point as SGF writes it: column then row.
pub fn sgf_point(x: u8, y: u8) -> String {
    [sgf_letter(x), sgf_letter(y)].iter().collect()
}

/// A chain for a person: `B chain at pq (1 stone)`, its colour, a stone
/// of it (column, row from the top) and its size.
pub fn chain_label(color: Color, (x, y): (u8, u8), stones: usize) -> String {
    format!(
        "{} chain at {} ({})",
        color.letter(),
        sgf_point(x, y),
        stone_count(stones)
    )
}

/// `1 stone`, `3 stones`.
pub fn stone_count(n: usize) -> String {
    format!("{n} stone{}", if n == 1 { "" } else { "s" })
}

/// One SGF coordinate: `a`–`z` for lines 0–25, then `A`–`Z`.
pub fn sgf_letter(n: u8) -> char {
    if n < 26 {
        (b'a' + n) as char
    } else {
        (b'A' + n - 26) as char
    }
}

/// Replays `record` under `rules` (which decide whether suicide is legal).
///
/// # Examples
/// ```
/// use recount::go::{record::read_record, replay::replay, rules::Rules};
/// let tree = recount::sgf::reader::parse_tree(b"(;SZ[5];B[aa];W[ba];B[cc];W[ab])").unwrap();
/// let r = replay(&read_record(&tree).unwrap(), Rules::JAPANESE);
/// assert_eq!(r.captures, [0, 1]);
/// assert_eq!(r.board.encode(), "1O3/O4/2X2/5/5");
/// ```
pub fn replay(record: &GoRecord, rules: Rules) -> Replay {
    replay_with(record, rules, |_| {})
}

/// [`replay`], calling `after_move` after every move of the main line
/// (passes and skipped moves included) with the replay so far: a caller
/// can look at the position after move N.
pub fn replay_with(record: &GoRecord, rules: Rules, mut after_move: impl FnMut(&Replay)) -> Replay {
    let mut r = Replay {
        board: Board::new(record.width, record.height),
        moves: 0,
        passes: 0,
        captures: record.prisoners,
        suicides: 0,
        moves_after_end: 0,
        final_passes: 0,
        illegal: Vec::new(),
    };
    let mut consecutive_passes = 0;
    for event in &record.events {
        match *event {
            Event::Setup { stone, x, y } => r.board.set(x, y, stone),
            Event::SetupDone => r.board.finish_setup(),
            Event::Move { color, ref at } => {
                r.moves += 1;
                let finding = |kind, point| Finding {
                    move_number: r.moves,
                    color,
                    point,
                    kind,
                };
                match *at {
                    MoveAt::Pass => {
                        r.passes += 1;
                        consecutive_passes += 1;
                        r.board.pass();
                    }
                    MoveAt::OffBoard(ref raw) => {
                        r.illegal.push(finding(Illegal::OffBoard, raw.clone()));
                    }
                    MoveAt::Point(x, y) => {
                        if consecutive_passes >= 2 {
                            r.moves_after_end += 1;
                        }
                        consecutive_passes = 0;
                        if r.board.get(x, y).is_some() {
                            r.illegal.push(finding(Illegal::Occupied, sgf_point(x, y)));
                            after_move(&r);
                            continue;
                        }
                        let ko = r.board.is_ko_recapture(color, x, y);
                        let played = r.board.play(color, x, y);
                        r.captures[color.index()] += played.captured;
                        if ko {
                            r.illegal.push(finding(Illegal::Ko, sgf_point(x, y)));
                        }
                        if played.suicided > 0 {
                            r.suicides += 1;
                            r.captures[color.opponent().index()] += played.suicided;
                            if !rules.suicide_legal {
                                let kind = Illegal::Suicide {
                                    stones: played.suicided,
                                };
                                r.illegal.push(finding(kind, sgf_point(x, y)));
                            }
                        }
                    }
                }
                after_move(&r);
            }
        }
    }
    r.final_passes = consecutive_passes;
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::record::read_record;
    use crate::sgf::reader::parse_tree;

    fn run(sgf: &str, rules: Rules) -> Replay {
        replay(
            &read_record(&parse_tree(sgf.as_bytes()).unwrap()).unwrap(),
            rules,
        )
    }

    #[test]
    fn illegal_moves_are_findings() {
        // Occupied point, then a ko recapture, then an off-board move.
        let r = run(
            "(;SZ[4]AB[ba][ab][bc]AW[ca][db][cc];B[ba];W[bb];B[cb];W[bb];B[zz])",
            Rules::JAPANESE,
        );
        let kinds: Vec<_> = r.illegal.iter().map(|f| f.kind.clone()).collect();
        assert_eq!(kinds, [Illegal::Occupied, Illegal::Ko, Illegal::OffBoard]);
        assert_eq!(
            r.illegal[0].to_string(),
            "move 1 B[ba]: point already occupied (move skipped)"
        );
        assert_eq!(r.illegal[1].move_number, 4);
        assert_eq!(r.captures, [1, 1]);
    }

    #[test]
    fn suicide_depends_on_rules() {
        let sgf = "(;SZ[3]AW[ba][ab][bb];B[aa])";
        let jp = run(sgf, Rules::JAPANESE);
        assert_eq!(jp.illegal[0].kind, Illegal::Suicide { stones: 1 });
        assert_eq!((jp.suicides, jp.captures), (1, [0, 1]));
        let nz = run(sgf, Rules::NEW_ZEALAND);
        assert!(nz.illegal.is_empty());
        assert_eq!(nz.board.encode(), "1O1/OO1/3");
    }

    #[test]
    fn passes_and_moves_after_end() {
        let r = run("(;SZ[5];B[aa];W[];B[];W[ee];B[])", Rules::JAPANESE);
        assert_eq!(
            (r.moves, r.passes, r.moves_after_end, r.final_passes),
            (5, 3, 1, 1)
        );
    }
}
