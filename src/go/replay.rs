//! Tolerant replay of a Go record to its final position.
//!
//! A move the rules forbid is a finding, not a failure: it is counted,
//! described, and replayed the way the record implies. A move on an occupied
//! point or off the board is skipped; a ko recapture is played; a suicide is
//! played and its stones removed (they go to the opponent's prisoners, as
//! under the rules that allow suicide). Under a superko rule a play that
//! recreates an earlier position (or, situational, position and player to
//! move) is a finding too, and played; under simple ko a cycle of
//! positions (triple ko and the like) is kept for the audit. Moves after
//! two consecutive passes are counted apart: servers resume games to
//! settle disputes.

use crate::go::board::{Board, Color};
use crate::go::record::{Event, GoRecord, MoveAt};
use crate::go::repetition::{History, Key};
use crate::go::rules::{KoRule, Rules};
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
    /// Recreates the position after move `repeats` (0: the position before
    /// the first move) under a superko rule; `situational`: the same player
    /// to move too.
    Superko {
        repeats: u32,
        situational: bool,
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
            Illegal::Superko {
                repeats,
                situational,
            } => {
                let (what, rule) = if situational {
                    ("the position and player to move", "situational")
                } else {
                    ("the position", "positional")
                };
                write!(
                    f,
                    "repeats {what} {} ({rule} superko; stone played)",
                    after_move(repeats)
                )
            }
        }
    }
}

/// `after move 8`, or `before the first move` for 0.
pub fn after_move(n: u32) -> String {
    if n == 0 {
        "before the first move".into()
    } else {
        format!("after move {n}")
    }
}

/// Under simple ko, where a play first recreated an earlier position with
/// the same player to move, and whether a later play ever reached a new
/// one. A cycle never broken (triple ko, eternal life) makes a game no
/// result under Japanese rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// The move that recreated the position.
    pub at: u32,
    /// The move after which that position was first reached (0: before
    /// the first move).
    pub repeats: u32,
    /// The first later play that reached a position not seen before.
    pub broken_at: Option<u32>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} repeats the position and player to move {} (a cycle: triple ko or the like)",
            self.at,
            after_move(self.repeats)
        )?;
        match self.broken_at {
            Some(m) => write!(f, ", left at move {m}"),
            None => f.write_str(", never left"),
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
    /// Moves (not passes) played after the first two consecutive passes.
    pub moves_after_end: u32,
    /// Passes in a row at the end of the record (2 or more: the players
    /// ended the game for counting).
    pub final_passes: u32,
    pub illegal: Vec<Finding>,
    /// Under simple ko: the last cycle of positions, if any (see [`Cycle`]).
    pub cycle: Option<Cycle>,
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

/// Replays `record` under `rules` (which decide whether suicide is legal
/// and which repetitions are).
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
        cycle: None,
    };
    let mut positions = Positions::new(rules.ko, record.events.len());
    let mut consecutive_passes = 0;
    let mut ended = false;
    for event in &record.events {
        match *event {
            Event::Setup { stone, x, y } => {
                positions.set(&r.board, x, y, stone);
                r.board.set(x, y, stone);
            }
            Event::SetupDone => {
                r.board.finish_setup();
                positions.setup_done();
            }
            Event::Move { color, ref at } => {
                positions.before_move(r.moves);
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
                        ended |= consecutive_passes >= 2;
                        r.board.pass();
                        positions.passed(color, r.moves);
                    }
                    MoveAt::OffBoard(ref raw) => {
                        r.illegal.push(finding(Illegal::OffBoard, raw.clone()));
                    }
                    MoveAt::Point(x, y) => {
                        if ended {
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
                        let repeats = positions.played(&r.board, color, (x, y), r.moves);
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
                        match (rules.ko, repeats) {
                            (KoRule::Simple, repeats) => note_cycle(&mut r.cycle, r.moves, repeats),
                            // A ko recapture is already a finding.
                            (_, Some(repeats)) if !ko => {
                                let kind = Illegal::Superko {
                                    repeats,
                                    situational: rules.ko == KoRule::Situational,
                                };
                                r.illegal.push(finding(kind, sgf_point(x, y)));
                            }
                            _ => {}
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

/// Keeps the last cycle: a repetition starts one unless one is under way;
/// a new position ends it.
fn note_cycle(cycle: &mut Option<Cycle>, at: u32, repeats: Option<u32>) {
    match (repeats, cycle.as_mut()) {
        (Some(_), Some(c)) if c.broken_at.is_none() => {}
        (Some(repeats), _) => {
            *cycle = Some(Cycle {
                at,
                repeats,
                broken_at: None,
            })
        }
        (None, Some(c)) if c.broken_at.is_none() => c.broken_at = Some(at),
        (None, _) => {}
    }
}

/// The positions a replay has passed through, keyed as the ko rule
/// compares them: the stones alone (positional superko), or the stones
/// and the player to move (situational superko, and the cycles of simple
/// ko, where only plays count: a pass changes no stone).
struct Positions {
    ko: KoRule,
    board: Key,
    history: History,
    /// A setup changed the board since the last visit (the position
    /// before the first move counts once its setup is done).
    unvisited: bool,
    to_move: Color,
}

impl Positions {
    /// For a record of `events` events (at most one visit each).
    fn new(ko: KoRule, events: usize) -> Positions {
        Positions {
            ko,
            board: Key::default(),
            history: History::with_capacity(events + 1),
            unvisited: true,
            to_move: Color::Black,
        }
    }

    fn key(&self) -> Key {
        match self.ko {
            KoRule::Positional => self.board,
            KoRule::Situational | KoRule::Simple => self.board.with_to_move(self.to_move),
        }
    }

    /// A setup point changes: called before `board` changes it.
    fn set(&mut self, board: &Board, x: u8, y: u8, stone: Option<Color>) {
        let p = board.index(x, y);
        if let Some(old) = board.get(x, y) {
            self.board = self.board.toggled(p, old);
        }
        if let Some(new) = stone {
            self.board = self.board.toggled(p, new);
        }
    }

    fn setup_done(&mut self) {
        self.unvisited = true;
    }

    /// Before move `moves + 1`: the position a setup left is reached.
    fn before_move(&mut self, moves: u32) {
        if std::mem::take(&mut self.unvisited) {
            self.history.visit(self.key(), moves);
        }
    }

    fn passed(&mut self, color: Color, move_number: u32) {
        self.to_move = color.opponent();
        if self.ko == KoRule::Situational {
            self.history.visit(self.key(), move_number);
        }
    }

    /// After `color` played at `at` on `board` (its captures and suicide
    /// done): the earlier move whose position this one repeats, if any.
    fn played(
        &mut self,
        board: &Board,
        color: Color,
        at: (u8, u8),
        move_number: u32,
    ) -> Option<u32> {
        let p = board.index(at.0, at.1);
        // A suicide removed the new stone with its chain: the stones
        // removed are the player's, else the opponent's it captured.
        let suicide = board.at(p).is_none();
        if !suicide {
            self.board = self.board.toggled(p, color);
        }
        let removed = if suicide { color } else { color.opponent() };
        for q in board.emptied().filter(|&q| q != p) {
            self.board = self.board.toggled(q, removed);
        }
        self.to_move = color.opponent();
        self.history.visit(self.key(), move_number)
    }
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
        // Every move after the first two passes in a row, not only the
        // first of each resumption.
        let r = run("(;SZ[5];B[ee];W[];B[];W[cc];B[dd])", Rules::JAPANESE);
        assert_eq!((r.moves_after_end, r.final_passes), (2, 0));
    }

    /// Three kos, each side taking one in turn: after six moves the
    /// position before the first is back, with Black to move.
    const TRIPLE_KO: &str = "(;SZ[13]AB[ba][ab][bc][cf][dg][ch][bg][bk][al][bm]\
        AW[ca][db][cc][bb][bf][ag][bh][ck][dl][cm][bl]\
        ;B[cb];W[cg];B[cl];W[bb];B[bg];W[bl];B[cb];W[cg])";

    #[test]
    fn superko_rules_make_repetitions_illegal() {
        for rules in [Rules::CHINESE, Rules::AGA, Rules::TROMP_TAYLOR] {
            let r = run(TRIPLE_KO, rules);
            let at: Vec<u32> = r.illegal.iter().map(|f| f.move_number).collect();
            assert_eq!(at, [6, 7, 8]);
            assert_eq!(
                r.illegal[1].kind,
                Illegal::Superko {
                    repeats: 1,
                    situational: rules.ko == KoRule::Situational
                }
            );
            assert_eq!(r.cycle, None);
            assert_eq!(
                r.board.encode(),
                run(TRIPLE_KO, Rules::JAPANESE).board.encode()
            );
        }
        assert_eq!(
            run(TRIPLE_KO, Rules::AGA).illegal[0].to_string(),
            "move 6 W[bl]: repeats the position and player to move before the first move (situational superko; stone played)"
        );
    }

    #[test]
    fn simple_ko_keeps_the_last_cycle() {
        let r = run(TRIPLE_KO, Rules::JAPANESE);
        assert!(r.illegal.is_empty());
        let open = Cycle {
            at: 6,
            repeats: 0,
            broken_at: None,
        };
        assert_eq!(r.cycle, Some(open));
        // A play elsewhere leaves it; a later repetition starts another.
        let broken = TRIPLE_KO.replace(";B[cb];W[cg])", ";B[gg])");
        let r = run(&broken, Rules::JAPANESE);
        assert_eq!(
            r.cycle,
            Some(Cycle {
                broken_at: Some(7),
                ..open
            })
        );
        assert_eq!(r.cycle.unwrap().to_string(), "move 6 repeats the position and player to move before the first move (a cycle: triple ko or the like), left at move 7");
        let again = TRIPLE_KO.replace(
            ";B[cb];W[cg])",
            ";B[gg];W[hh];B[cb];W[cg];B[cl];W[bb];B[bg];W[bl])",
        );
        let r = run(&again, Rules::JAPANESE);
        let later = Cycle {
            at: 14,
            repeats: 8,
            broken_at: None,
        };
        assert_eq!(r.cycle, Some(later));
    }

    #[test]
    fn a_single_stone_suicide_repeats_the_board() {
        // Suicide is legal under both, but the board is the one before:
        // positional superko forbids it; with the other player to move it
        // is a new situation, as after a pass.
        let sgf = "(;SZ[3]AW[ba][ab][bb];B[aa])";
        let r = run(sgf, Rules::TROMP_TAYLOR);
        assert_eq!(
            r.illegal[0].kind,
            Illegal::Superko {
                repeats: 0,
                situational: false
            }
        );
        assert!(run(sgf, Rules::NEW_ZEALAND).illegal.is_empty());
    }
}
