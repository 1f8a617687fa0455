//! Replaying one backgammon game: every play checked against the legal
//! plays, the cube followed through doubles, beavers, takes and drops,
//! and the game's end (bear-off, drop or resignation) worked out from the
//! position, not taken from the record.

use crate::bg::game::record::{Action, GameRecord, Step, BAR_POINT, OFF_POINT};
use crate::bg::position::board::{Board, BAR};
use crate::bg::position::moves::check_play;
use crate::bg::position::notation::gnubg_notation;
use crate::hash::Fnv;

/// Every kind of finding, replay's and the match audit's; `summary.csv`
/// lists them in this order, and `bg_games.csv` writes their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    IllegalPlay,
    UnreadableLine,
    UnrecordedPlay,
    PositionMismatch,
    TurnOrder,
    AfterGameEnd,
    CubeUnanswered,
    CubeAccess,
    CubeValue,
    CubeLimit,
    CrawfordDouble,
    BeaverInMatch,
    BeaverNotAllowed,
    WinnerMismatch,
    PointsMismatch,
    Result,
    Unfinished,
    ScoreLine,
    CrawfordMark,
    AfterMatchEnd,
    ImpossiblePosition,
}

impl FindingKind {
    pub const ALL: [FindingKind; 21] = [
        FindingKind::IllegalPlay,
        FindingKind::UnreadableLine,
        FindingKind::UnrecordedPlay,
        FindingKind::PositionMismatch,
        FindingKind::TurnOrder,
        FindingKind::AfterGameEnd,
        FindingKind::CubeUnanswered,
        FindingKind::CubeAccess,
        FindingKind::CubeValue,
        FindingKind::CubeLimit,
        FindingKind::CrawfordDouble,
        FindingKind::BeaverInMatch,
        FindingKind::BeaverNotAllowed,
        FindingKind::WinnerMismatch,
        FindingKind::PointsMismatch,
        FindingKind::Result,
        FindingKind::Unfinished,
        FindingKind::ScoreLine,
        FindingKind::CrawfordMark,
        FindingKind::AfterMatchEnd,
        FindingKind::ImpossiblePosition,
    ];

    /// The snake_case name the reports write.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::IllegalPlay => "illegal_play",
            FindingKind::UnreadableLine => "unreadable_line",
            FindingKind::UnrecordedPlay => "unrecorded_play",
            FindingKind::PositionMismatch => "position_mismatch",
            FindingKind::TurnOrder => "turn_order",
            FindingKind::AfterGameEnd => "after_game_end",
            FindingKind::CubeUnanswered => "cube_unanswered",
            FindingKind::CubeAccess => "cube_access",
            FindingKind::CubeValue => "cube_value",
            FindingKind::CubeLimit => "cube_limit",
            FindingKind::CrawfordDouble => "crawford_double",
            FindingKind::BeaverInMatch => "beaver_in_match",
            FindingKind::BeaverNotAllowed => "beaver_not_allowed",
            FindingKind::WinnerMismatch => "winner_mismatch",
            FindingKind::PointsMismatch => "points_mismatch",
            FindingKind::Result => "result",
            FindingKind::Unfinished => "unfinished",
            FindingKind::ScoreLine => "score_line",
            FindingKind::CrawfordMark => "crawford_mark",
            FindingKind::AfterMatchEnd => "after_match_end",
            FindingKind::ImpossiblePosition => "impossible_position",
        }
    }
}

/// A deviation from the rules or from the record's own claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// Line (`.mat`) or node (SGF) where it was seen.
    pub line: u32,
    pub text: String,
}

/// What the match rules allow, for the cube checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CubeRules {
    /// Money play (no match length): beavers, raccoons and Jacoby apply.
    pub money: bool,
    /// This game is the Crawford game: no doubling.
    pub crawford_game: bool,
    pub beavers: bool,
    /// Money play: gammons count only once the cube was turned.
    pub jacoby: bool,
    /// Highest cube value allowed.
    pub limit: u32,
    /// Match play: points each player still needs, and the match length.
    /// Records may write a game's points capped at either (Backgammon
    /// Galaxy does).
    pub need: Option<([u32; 2], u32)>,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// All checkers borne off: 1 single, 2 gammon, 3 backgammon.
    BoreOff(u32),
    /// A double was dropped.
    Dropped,
    /// The loser gave up (a `Wins` with the game not over).
    Resigned,
    /// The loser conceded (`Losses n` with the game not over: a
    /// resignation, a timeout or leaving the match); any number of points.
    Conceded,
    /// The record stops before the game is decided.
    Unfinished,
}

impl Ending {
    /// Every ending's name, in the order `summary.csv` lists them.
    pub const NAMES: [&'static str; 7] = [
        "single",
        "gammon",
        "backgammon",
        "drop",
        "resign",
        "conceded",
        "unfinished",
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ending::BoreOff(1) => "single",
            Ending::BoreOff(2) => "gammon",
            Ending::BoreOff(_) => "backgammon",
            Ending::Dropped => "drop",
            Ending::Resigned => "resign",
            Ending::Conceded => "conceded",
            Ending::Unfinished => "unfinished",
        }
    }
}

/// What is known of a recorded play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayKind {
    /// A legal play from a known position.
    Legal,
    /// Illegal under the rules: made as written where it could be.
    Illegal,
    /// From a position unknown since an unrecorded play: not checked.
    Unchecked,
    /// The record writes `????` instead of the play.
    Unrecorded,
}

/// A play and the positions before and after it, for `bg_positions.csv`
/// and the play analysis.
#[derive(Debug, Clone)]
pub struct PlayedPosition {
    pub line: u32,
    /// Count of plays so far in the game (1-based).
    pub play_no: u32,
    pub player: usize,
    pub dice: (u8, u8),
    /// The play in gnubg's notation (as replayed; the written one when it
    /// was illegal).
    pub play: String,
    pub kind: PlayKind,
    /// Whether `before` is known: false after an unrecorded play.
    pub before_known: bool,
    pub before: Board,
    pub after: Board,
    pub cube: u32,
    pub cube_owner: Option<usize>,
}

/// What the player did at a cube decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeChoice {
    /// Rolled without doubling (kept with `--all-cube-decisions`).
    NoDouble,
    /// Doubled; the answer when the record gives one.
    Double(Option<Answer>),
}

/// The taker's answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Take,
    Pass,
    Beaver,
}

/// A position where the player on roll could double, before the roll.
#[derive(Debug, Clone)]
pub struct CubePoint {
    pub line: u32,
    pub player: usize,
    pub board: Board,
    /// Cube value and owner before the decision.
    pub cube: u32,
    pub cube_owner: Option<usize>,
    pub choice: CubeChoice,
}

/// Which cube decisions a replay keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeepCube {
    #[default]
    None,
    /// Every recorded double.
    Recorded,
    /// Also every roll where the roller could have doubled.
    All,
}

/// The replayed game.
#[derive(Debug, Clone)]
pub struct ReplayedGame {
    pub board: Board,
    pub plays: u32,
    pub illegal_plays: u32,
    pub cube: u32,
    pub cube_owner: Option<usize>,
    pub doubles: u32,
    pub beavers: u32,
    pub winner: Option<usize>,
    pub ending: Ending,
    /// Points the position and cube give the winner (before any match cap).
    pub points: Option<u32>,
    /// The record's own claim: `Wins n` by a player.
    pub recorded: Option<(usize, u32)>,
    pub findings: Vec<Finding>,
    pub positions: Vec<PlayedPosition>,
    pub cube_points: Vec<CubePoint>,
    /// The game's content as replayed ([`content_hash`]): the part of its
    /// match's `match_hash`.
    pub content: Fnv,
}

/// Replays `game`; `keep_positions` keeps every position for the
/// positions report, `keep_cube` the cube decisions for the cube report.
pub fn replay_game(
    game: &GameRecord,
    rules: CubeRules,
    keep_positions: bool,
    keep_cube: KeepCube,
) -> ReplayedGame {
    let mut rp = Replay::start(game, rules, keep_positions, keep_cube);
    if let (Some(p), true) = (game.setup_decision, game.actions.is_empty()) {
        rp.keep_no_double(0, p, false);
    }
    for (line, action) in &game.actions {
        let line = *line;
        let is_result = matches!(action, Action::Wins { .. } | Action::Loses { .. });
        if let (Some(at), false) = (rp.over_at, is_result) {
            rp.find(
                line,
                FindingKind::AfterGameEnd,
                format!("an action after the game ended (line {at})"),
            );
            continue;
        }
        if matches!(action, Action::Roll { .. } | Action::Unrecorded { .. }) {
            rp.check_stated(line, game);
        }
        match action {
            Action::Roll {
                player,
                dice,
                steps,
                text,
            } => rp.roll(line, *player, *dice, steps, text),
            Action::Unrecorded { player, dice } => rp.unrecorded(line, *player, *dice),
            Action::Double { player, value } => rp.double(line, *player, *value),
            Action::Beaver { player, value } => rp.beaver(line, *player, *value),
            Action::Take { player } => rp.take(line, *player),
            Action::Drop { player } => rp.drop_double(line, *player),
            Action::Wins { player, points, .. } => rp.wins(line, *player, *points),
            Action::Loses { player, points } => rp.loser_claim = Some((*player, *points)),
        }
        let after = rp.board_known.then_some(&rp.r.board);
        content_hash(&mut rp.r.content, action, after);
    }
    rp.finish()
}

/// Adds `action` to a game's content hash, `after` the position the
/// replay reached with it (none once the position is unknown). A play is
/// hashed by the position it leaves, so that `13/7` and `13/12 12/7`, or
/// the submoves in another order, are one play; dice high first; a double
/// by who doubled; a result by its winner or loser and points, however
/// written. So the same game read from gnubg's `.mat` and its SGF hashes
/// alike; nothing of the header (the match's hash adds the players) or
/// of any analysis counts.
pub fn content_hash(h: &mut Fnv, action: &Action, after: Option<&Board>) {
    let dice = |(a, b): (u8, u8)| [a.max(b), a.min(b)];
    match action {
        Action::Roll {
            player,
            dice: d,
            text,
            ..
        } => {
            h.write(&[b'R', *player as u8]);
            h.write(&dice(*d));
            match after {
                Some(board) => {
                    for side in &board.checkers {
                        h.write_words(side);
                    }
                }
                None => {
                    h.write(b"?");
                    h.write(text.as_bytes());
                    h.write(&[0]);
                }
            }
        }
        Action::Unrecorded { player, dice: d } => {
            h.write(&[b'U', *player as u8]);
            h.write(&dice(*d));
        }
        // The cube's new value follows from the actions before (and not
        // every format writes it).
        Action::Double { player, .. } => h.write(&[b'D', *player as u8]),
        Action::Beaver { player, .. } => h.write(&[b'B', *player as u8]),
        Action::Take { player } => h.write(&[b'T', *player as u8]),
        Action::Drop { player } => h.write(&[b'P', *player as u8]),
        Action::Wins { player, points, .. } => {
            h.write(&[b'W', *player as u8]);
            h.write(&points.to_le_bytes());
        }
        Action::Loses { player, points } => {
            h.write(&[b'L', *player as u8]);
            h.write(&points.to_le_bytes());
        }
    }
}

/// Starts a game's content hash with its setup, if it has one: the
/// position, the cube and its owner, the player on roll.
fn setup_hash(h: &mut Fnv, game: &GameRecord) {
    let Some(board) = &game.setup else { return };
    h.write(b"S");
    for side in &board.checkers {
        h.write(side);
    }
    let (cube, owner) = game.setup_cube.unwrap_or((1, None));
    h.write(&cube.to_le_bytes());
    h.write(&[owner.map_or(2, |o| o as u8)]);
    h.write(&[game.setup_turn.map_or(2, |p| p as u8)]);
}

/// A game being replayed: the game so far, and what the turn and cube
/// checks remember from one action to the next.
struct Replay {
    r: ReplayedGame,
    rules: CubeRules,
    keep_positions: bool,
    keep_cube: KeepCube,
    last_roller: Option<usize>,
    /// A double offered and not yet answered: (doubler, new value).
    pending: Option<(usize, u32)>,
    /// The last cube action was a beaver: (doubler, taker); a raccoon may follow.
    beavered: Option<(usize, usize)>,
    /// Line where the game ended on the board or by a drop.
    over_at: Option<u32>,
    /// The record's `Losses` line: (loser, points).
    loser_claim: Option<(usize, u32)>,
    /// False after a play the record does not give: the board is unknown.
    board_known: bool,
    /// The player who doubled since the last roll (their roll follows).
    last_cube_doubler: Option<usize>,
    /// The game starts from the opening position (no setup): its first
    /// roll is the opening roll, before which no one may double.
    from_opening: bool,
}

impl Replay {
    /// The game at its start (the record's setup or the opening position,
    /// cube at 1 unless the setup gives it), with a finding for each line the reader could not read.
    fn start(
        game: &GameRecord,
        rules: CubeRules,
        keep_positions: bool,
        keep_cube: KeepCube,
    ) -> Replay {
        let mut r = ReplayedGame {
            board: game.setup.unwrap_or_else(Board::start),
            plays: 0,
            illegal_plays: 0,
            cube: game.setup_cube.map_or(1, |c| c.0),
            cube_owner: game.setup_cube.and_then(|c| c.1),
            doubles: 0,
            beavers: 0,
            winner: None,
            ending: Ending::Unfinished,
            points: None,
            recorded: None,
            findings: Vec::new(),
            positions: Vec::new(),
            cube_points: Vec::new(),
            content: Fnv::default(),
        };
        setup_hash(&mut r.content, game);
        for (line, why) in &game.unread {
            r.findings.push(Finding {
                kind: FindingKind::UnreadableLine,
                line: *line,
                text: why.clone(),
            });
        }
        for (line, why) in &game.disagreements {
            r.findings.push(Finding {
                kind: FindingKind::PositionMismatch,
                line: *line,
                text: why.clone(),
            });
        }
        // A setup no game can reach is not replayed: its plays are
        // neither checked nor analysed, as after an unrecorded play.
        let impossible = game.setup.as_ref().and_then(Board::impossible);
        let board_known = impossible.is_none();
        if let Some(why) = impossible {
            r.findings.push(Finding {
                kind: FindingKind::ImpossiblePosition,
                line: 0,
                text: format!("the record's starting position: {why}; its plays are not checked"),
            });
        }
        Replay {
            r,
            rules,
            keep_positions,
            keep_cube,
            last_roller: None,
            pending: None,
            beavered: None,
            over_at: None,
            loser_claim: None,
            board_known,
            last_cube_doubler: None,
            from_opening: game.setup.is_none(),
        }
    }

    /// Records a finding of `kind` at `line`.
    fn find(&mut self, line: u32, kind: FindingKind, text: String) {
        self.r.findings.push(Finding { kind, line, text });
    }

    /// The position the record states before the play on `line` (XG
    /// stores one per move), against the replayed one.
    fn check_stated(&mut self, line: u32, game: &GameRecord) {
        let Some((_, stated)) = game.stated.iter().find(|(l, _)| *l == line) else {
            return;
        };
        if self.board_known && *stated != self.r.board {
            let id = |b: &Board| crate::bg::position::ids::position_id(b, 0);
            self.find(
                line,
                FindingKind::PositionMismatch,
                format!(
                    "the record states the position {} before this play, the replay has {} (Position IDs from player 0's side)",
                    id(stated),
                    id(&self.r.board)
                ),
            );
        }
    }

    /// The turn checks at a roll, as findings at `line`.
    fn start_turn(&mut self, line: u32, p: usize) {
        for (kind, text) in start_roll(p, &mut self.pending, &mut self.last_roller) {
            self.find(line, kind, text);
        }
    }

    /// A roll and its play: the play checked and made, the position kept,
    /// and the game over once the roller has borne off every checker.
    fn roll(&mut self, line: u32, p: usize, dice: (u8, u8), steps: &[Step], text: &str) {
        self.beavered = None;
        let doubled_now = self.last_cube_doubler == Some(p);
        self.last_cube_doubler = None;
        self.keep_no_double(line, p, doubled_now);
        self.start_turn(line, p);
        self.r.plays += 1;
        let before = self.r.board;
        let (after, play, kind) = self.make_play(line, p, dice, steps, text);
        self.r.board = after;
        self.keep_play(line, p, dice, play, kind, before);
        if self.r.board.on_board(p) == 0 {
            self.bore_off(line, p);
        }
    }

    /// Keeps the play for the positions report and the play analysis.
    fn keep_play(
        &mut self,
        line: u32,
        p: usize,
        dice: (u8, u8),
        play: String,
        kind: PlayKind,
        before: Board,
    ) {
        if self.keep_positions {
            self.r.positions.push(PlayedPosition {
                line,
                play_no: self.r.plays,
                player: p,
                dice,
                play,
                kind,
                before_known: self.board_known,
                before,
                after: self.r.board,
                cube: self.r.cube,
                cube_owner: self.r.cube_owner,
            });
        }
    }

    /// With `--all-cube-decisions`, keeps a roll where the roller could
    /// have doubled and did not as a cube decision (not the opening roll).
    fn keep_no_double(&mut self, line: u32, p: usize, doubled_now: bool) {
        let opening = self.from_opening && self.r.plays == 0;
        if self.keep_cube == KeepCube::All
            && !opening
            && !doubled_now
            && self.board_known
            && self.pending.is_none()
            && self.r.cube_owner != Some(1 - p)
            && !self.rules.crawford_game
        {
            self.r.cube_points.push(cube_point(
                (self.r.board, self.r.cube, self.r.cube_owner),
                line,
                p,
                CubeChoice::NoDouble,
            ));
        }
    }

    /// The position after the play, the play's text and whether it was
    /// legal: an illegal play is a finding, and it and a play on an
    /// unknown board are made as written where they can be.
    fn make_play(
        &mut self,
        line: u32,
        p: usize,
        dice: (u8, u8),
        steps: &[Step],
        text: &str,
    ) -> (Board, String, PlayKind) {
        let checked = if self.board_known {
            check_play(&self.r.board, p, dice, steps)
        } else {
            Err(crate::bg::position::moves::Illegal {
                kind: "unchecked",
                why: String::new(),
            })
        };
        match checked {
            Ok(pl) => (
                pl.after,
                gnubg_notation(&self.r.board, p, &pl.moves),
                PlayKind::Legal,
            ),
            Err(e) if e.kind == "unchecked" => {
                let after = apply_as_written(&self.r.board, p, steps).unwrap_or(self.r.board);
                (after, text.to_owned(), PlayKind::Unchecked)
            }
            Err(e) => {
                self.r.illegal_plays += 1;
                self.find(
                    line,
                    FindingKind::IllegalPlay,
                    format!(
                        "play {} by player {p}, {}{}: '{}' is illegal: {} ({})",
                        self.r.plays, dice.0, dice.1, text, e.why, e.kind
                    ),
                );
                // Go on from the play as written when it can be
                // made at all, so later plays are judged fairly.
                let after = apply_as_written(&self.r.board, p, steps).unwrap_or(self.r.board);
                (after, text.to_owned(), PlayKind::Illegal)
            }
        }
    }

    /// Player `p` has borne off: the winner, the kind of win and its
    /// points (under the Jacoby rule gammons count only once doubled).
    fn bore_off(&mut self, line: u32, p: usize) {
        let kind = gammon_kind(&self.r.board, p);
        self.r.winner = Some(p);
        self.r.ending = Ending::BoreOff(kind);
        let counts = if self.rules.money && self.rules.jacoby && self.r.cube == 1 {
            1
        } else {
            kind
        };
        self.r.points = Some(self.r.cube * counts);
        self.over_at = Some(line);
    }

    /// A roll whose play the record does not give: from here on the board
    /// is unknown and plays are not checked.
    fn unrecorded(&mut self, line: u32, p: usize, dice: (u8, u8)) {
        self.start_turn(line, p);
        self.r.plays += 1;
        let before = self.r.board;
        self.keep_play(line, p, dice, "????".into(), PlayKind::Unrecorded, before);
        self.board_known = false;
        self.find(
            line,
            FindingKind::UnrecordedPlay,
            format!(
                "play {} by player {p}, {}{}: the record writes '????' instead of the play; later plays are not checked",
                self.r.plays, dice.0, dice.1
            ),
        );
    }

    /// A double to `value` (0 when not written): checked against the
    /// cube's owner, the Crawford rule, the turn, the cube's value and its
    /// limit, then pending until answered.
    fn double(&mut self, line: u32, p: usize, value: u32) {
        if let Some((d, _)) = self.pending {
            self.find(
                line,
                FindingKind::CubeUnanswered,
                format!("double while the double by player {d} is not answered"),
            );
        }
        if self.r.cube_owner == Some(1 - p) {
            self.find(
                line,
                FindingKind::CubeAccess,
                format!("player {p} doubles but the opponent owns the cube"),
            );
        }
        if self.rules.crawford_game {
            self.find(
                line,
                FindingKind::CrawfordDouble,
                format!("player {p} doubles in the Crawford game"),
            );
        }
        if self.last_roller == Some(p) {
            self.find(
                line,
                FindingKind::TurnOrder,
                format!("player {p} doubles after their own roll, not before it"),
            );
        }
        let new = self.r.cube * 2;
        if value != 0 && value != new {
            self.find(
                line,
                FindingKind::CubeValue,
                format!("doubles to {value}, but the cube is at {}", self.r.cube),
            );
        }
        if new > self.rules.limit {
            self.find(
                line,
                FindingKind::CubeLimit,
                format!("doubles to {new}, over the cube limit {}", self.rules.limit),
            );
        }
        self.r.doubles += 1;
        self.pending = Some((p, new));
        self.last_cube_doubler = Some(p);
        if self.keep_cube != KeepCube::None && self.board_known {
            self.r.cube_points.push(cube_point(
                (self.r.board, self.r.cube, self.r.cube_owner),
                line,
                p,
                CubeChoice::Double(None),
            ));
        }
    }

    /// A beaver (or a raccoon) to `value` (0 when not written): checked
    /// against the rules, the cube's value and its limit, then made.
    fn beaver(&mut self, line: u32, p: usize, value: u32) {
        // A beaver answers a double by taking it and turning the
        // cube at once; a raccoon is the doubler's redouble after a
        // beaver. Either way the taker keeps the cube and the
        // doubler stays on roll (seed
        // `backgammon-cube-beavers-raccoons.txt`).
        let (doubler, taker, new) = match (self.pending.take(), self.beavered) {
            (Some((d, offered)), _) if d != p => (d, p, offered * 2),
            (None, Some((d, t))) if d == p => (d, t, self.r.cube * 2),
            _ => {
                self.find(
                    line,
                    FindingKind::CubeUnanswered,
                    format!("player {p} beavers with no double or beaver to answer"),
                );
                return;
            }
        };
        if !self.rules.money {
            self.find(
                line,
                FindingKind::BeaverInMatch,
                format!("player {p} beavers in match play, where beavers are not allowed"),
            );
        } else if !self.rules.beavers {
            self.find(
                line,
                FindingKind::BeaverNotAllowed,
                format!("player {p} beavers, but the Beaver tag is off"),
            );
        }
        if value != 0 && value != new {
            self.find(
                line,
                FindingKind::CubeValue,
                format!("beavers to {value}, but the cube goes to {new}"),
            );
        }
        if new > self.rules.limit {
            self.find(
                line,
                FindingKind::CubeLimit,
                format!("beavers to {new}, over the cube limit {}", self.rules.limit),
            );
        }
        self.r.beavers += 1;
        if taker == p {
            answer(&mut self.r.cube_points, Answer::Beaver);
        }
        self.r.cube = new;
        self.r.cube_owner = Some(taker);
        self.beavered = Some((doubler, taker));
    }

    /// A take: the pending double is accepted and the taker owns the cube.
    fn take(&mut self, line: u32, player: usize) {
        match self.pending.take() {
            Some((d, v)) if d != player => {
                self.r.cube = v;
                self.r.cube_owner = Some(player);
                answer(&mut self.r.cube_points, Answer::Take);
            }
            _ => self.find(
                line,
                FindingKind::CubeUnanswered,
                format!("player {player} takes with no double to answer"),
            ),
        }
    }

    /// A drop: the doubler wins the cube's value and the game is over.
    fn drop_double(&mut self, line: u32, player: usize) {
        match self.pending.take() {
            Some((d, _)) if d != player => {
                answer(&mut self.r.cube_points, Answer::Pass);
                self.r.winner = Some(d);
                self.r.ending = Ending::Dropped;
                self.r.points = Some(self.r.cube);
                self.over_at = Some(line);
            }
            _ => self.find(
                line,
                FindingKind::CubeUnanswered,
                format!("player {player} drops with no double to answer"),
            ),
        }
    }

    /// The record's `Wins` line, kept as its claim (a second one is a finding).
    fn wins(&mut self, line: u32, player: usize, points: u32) {
        if self.r.recorded.is_some() {
            self.find(line, FindingKind::Result, "a second 'Wins' line".into());
        }
        self.r.recorded = Some((player, points));
    }

    /// The record's claims (a `Losses` line stands for a missing `Wins`)
    /// judged against the replayed end: the finished game.
    fn finish(mut self) -> ReplayedGame {
        let r = &mut self.r;
        if let (Some((loser, lp)), Some((winner, wp))) = (self.loser_claim, r.recorded) {
            // Galaxy sometimes writes an unnumbered `Losses` line in the
            // winner's column; the `Wins` line names the winner.
            if lp != wp {
                r.findings.push(Finding {
                    kind: FindingKind::Result,
                    line: 0,
                    text: format!(
                        "'Losses {lp}' by player {loser} does not match 'Wins {wp}' by player {winner}"
                    ),
                });
            }
        }
        if r.recorded.is_none() {
            if let Some((loser, lp)) = self.loser_claim {
                r.recorded = Some((1 - loser, lp));
            }
        }
        let from_setup = !self.from_opening;
        judge_result(
            r,
            self.pending,
            self.loser_claim.is_some(),
            self.rules.need,
            from_setup,
        );
        self.r
    }
}

/// The cube decision of `player` in a position (board, cube, owner).
fn cube_point(
    r: (Board, u32, Option<usize>),
    line: u32,
    player: usize,
    choice: CubeChoice,
) -> CubePoint {
    CubePoint {
        line,
        player,
        board: r.0,
        cube: r.1,
        cube_owner: r.2,
        choice,
    }
}

/// Records the answer to the double just kept.
fn answer(points: &mut [CubePoint], a: Answer) {
    if let Some(CubePoint {
        choice: c @ CubeChoice::Double(None),
        ..
    }) = points.last_mut()
    {
        *c = CubeChoice::Double(Some(a));
    }
}

/// The turn checks at a roll: an unanswered double, the same player twice.
fn start_roll(
    p: usize,
    pending: &mut Option<(usize, u32)>,
    last_roller: &mut Option<usize>,
) -> Vec<(FindingKind, String)> {
    let mut out = Vec::new();
    if let Some((doubler, _)) = pending.take() {
        out.push((
            FindingKind::CubeUnanswered,
            format!("a roll while the double by player {doubler} is not answered"),
        ));
    }
    if *last_roller == Some(p) {
        out.push((
            FindingKind::TurnOrder,
            format!("player {p} rolls twice in a row"),
        ));
    }
    *last_roller = Some(p);
    out
}

/// Compares the replayed end with the record's `Wins` line; a game from
/// a set-up position may stop undecided without a finding.
fn judge_result(
    r: &mut ReplayedGame,
    pending: Option<(usize, u32)>,
    conceded: bool,
    need: Option<([u32; 2], u32)>,
    from_setup: bool,
) {
    // Points written capped at what the winner needed are not a mismatch.
    let capped = |w: usize, pts: u32, full: u32| {
        need.is_some_and(|(n, len)| full >= pts && (pts == n[w] || pts == len))
    };
    let mut find = |kind, text: String| {
        r.findings.push(Finding {
            kind,
            line: 0,
            text,
        })
    };
    match (r.ending, r.recorded) {
        (Ending::Unfinished, Some((w, pts))) => {
            // Not over on the board: the loser resigned (or lost on time).
            if pending.is_some() {
                find(
                    FindingKind::CubeUnanswered,
                    "the game ends with a double not answered".into(),
                );
            }
            r.winner = Some(w);
            r.points = Some(pts);
            if conceded {
                r.ending = Ending::Conceded;
                return;
            }
            r.ending = Ending::Resigned;
            let c = r.cube;
            let whole = pts % c == 0 && (1..=3).contains(&(pts / c));
            if !whole && !capped(w, pts, 3 * c) {
                find(
                    FindingKind::Result,
                    format!(
                        "resignation for {pts} point(s) with the cube at {c}: not 1, 2 or 3 times the cube"
                    ),
                );
            }
        }
        // A game from a set-up position (a position file, a study) is
        // not expected to be played out.
        (Ending::Unfinished, None) if from_setup => {}
        (Ending::Unfinished, None) => find(
            FindingKind::Unfinished,
            "the record stops before the game is decided and no result is written".into(),
        ),
        (_, None) => find(
            FindingKind::Result,
            format!(
                "no 'Wins' line; the game ended by {} for player {}",
                r.ending.name(),
                r.winner.unwrap_or_default()
            ),
        ),
        (_, Some((w, pts))) => {
            if Some(w) != r.winner {
                find(
                    FindingKind::WinnerMismatch,
                    format!(
                        "the record says player {w} wins, but player {} won by {}",
                        r.winner.unwrap_or_default(),
                        r.ending.name()
                    ),
                );
            } else if Some(pts) != r.points && !capped(w, pts, r.points.unwrap_or(0)) {
                find(
                    FindingKind::PointsMismatch,
                    format!(
                        "the record says {pts} point(s), but a {} with the cube at {} is worth {}",
                        r.ending.name(),
                        r.cube,
                        r.points.unwrap_or_default()
                    ),
                );
            }
        }
    }
}

/// 1 single, 2 gammon (the loser has borne nothing off), 3 backgammon (and
/// still has a checker on the bar or in the winner's home board).
fn gammon_kind(board: &Board, winner: usize) -> u32 {
    let loser = 1 - winner;
    if board.off(loser) > 0 {
        return 1;
    }
    let row = &board.checkers[loser];
    // The winner's home board is the loser's points 19-24.
    if row[BAR] > 0 || row[18..24].iter().any(|&n| n > 0) {
        3
    } else {
        2
    }
}

/// Makes the written steps without the rules, hitting single checkers on
/// the landing points; `None` when a step has no checker to move.
fn apply_as_written(board: &Board, p: usize, steps: &[Step]) -> Option<Board> {
    let mut b = *board;
    for s in steps {
        if s.from > BAR_POINT || s.to >= s.from {
            return None;
        }
        let from = if s.from == BAR_POINT {
            BAR
        } else {
            s.from as usize - 1
        };
        if b.checkers[p][from] == 0 {
            return None;
        }
        b.checkers[p][from] -= 1;
        if s.to != OFF_POINT {
            let to = s.to as usize - 1;
            let opp = &mut b.checkers[1 - p];
            if opp[23 - to] == 1 {
                opp[23 - to] = 0;
                opp[BAR] += 1;
            }
            b.checkers[p][to] += 1;
        }
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Player 0 bears off the last checker; player 1 has borne off none and
    /// has nothing in player 0's home board: a gammon.
    fn last_roll(wins: u32) -> GameRecord {
        let mut b = Board::empty();
        b.checkers[0][0] = 1;
        b.checkers[1][12] = 15;
        GameRecord {
            setup: Some(b),
            actions: vec![
                (
                    1,
                    Action::Roll {
                        player: 0,
                        dice: (2, 1),
                        steps: vec![Step {
                            from: 1,
                            to: 0,
                            hit: false,
                        }],
                        text: "1/off".into(),
                    },
                ),
                (
                    2,
                    Action::Wins {
                        player: 0,
                        points: wins,
                        and_match: false,
                    },
                ),
            ],
            ..GameRecord::default()
        }
    }

    fn money(jacoby: bool) -> CubeRules {
        CubeRules {
            money: true,
            crawford_game: false,
            beavers: true,
            jacoby,
            limit: u32::MAX,
            need: None,
        }
    }

    #[test]
    fn gammons_and_the_jacoby_rule() {
        let r = replay_game(&last_roll(2), money(false), false, KeepCube::None);
        assert_eq!(r.ending, Ending::BoreOff(2));
        assert_eq!(r.points, Some(2));
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        // Jacoby: the cube was never turned, so the gammon counts single.
        let r = replay_game(&last_roll(1), money(true), false, KeepCube::None);
        assert_eq!(r.points, Some(1));
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        let r = replay_game(&last_roll(2), money(true), false, KeepCube::None);
        assert_eq!(r.findings[0].kind, FindingKind::PointsMismatch);
    }

    #[test]
    fn backgammon_needs_a_checker_in_the_winners_home_or_on_the_bar() {
        let mut g = last_roll(3);
        let b = g.setup.as_mut().unwrap();
        b.checkers[1][12] = 14;
        b.checkers[1][BAR] = 1;
        let r = replay_game(&g, money(false), false, KeepCube::None);
        assert_eq!(r.ending, Ending::BoreOff(3));
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }

    #[test]
    fn an_impossible_setup_is_a_finding_and_its_plays_are_not_checked() {
        for (player, point) in [(1, 12), (1, 22)] {
            let mut g = last_roll(1);
            // Sixteen checkers of player 1, or one on player 0's ace point.
            g.setup.as_mut().unwrap().checkers[player][point] += 1;
            let r = replay_game(&g, money(false), true, KeepCube::All);
            assert_eq!(r.findings[0].kind, FindingKind::ImpossiblePosition);
            assert!(r.positions.iter().all(|p| !p.before_known));
            assert_eq!(r.illegal_plays, 0);
        }
    }

    #[test]
    fn doubling_without_the_cube_and_after_the_end() {
        let mut g = last_roll(2);
        g.actions.insert(
            0,
            (
                0,
                Action::Double {
                    player: 0,
                    value: 2,
                },
            ),
        );
        g.actions.insert(1, (0, Action::Take { player: 1 }));
        g.actions.insert(
            2,
            (
                0,
                Action::Double {
                    player: 0,
                    value: 4,
                },
            ),
        );
        let r = replay_game(&g, money(false), false, KeepCube::None);
        let kinds: Vec<FindingKind> = r.findings.iter().map(|f| f.kind).collect();
        assert!(kinds.contains(&FindingKind::CubeAccess), "{kinds:?}");
    }

    #[test]
    fn one_game_written_two_ways_has_one_content_hash() {
        let step = |from, to| Step {
            from,
            to,
            hit: false,
        };
        let game = |dice, steps: Vec<Step>, value| GameRecord {
            actions: vec![
                (1, Action::played(0, dice, steps)),
                (2, Action::Double { player: 1, value }),
                (3, Action::Drop { player: 0 }),
            ],
            ..GameRecord::default()
        };
        let hash = |g: &GameRecord| {
            let rules = CubeRules {
                money: true,
                crawford_game: false,
                beavers: false,
                jacoby: false,
                limit: 64,
                need: None,
            };
            replay_game(g, rules, false, KeepCube::None).content.0
        };
        // 13/9 in one step and in two, the dice either way round, the
        // cube's new value written (a .mat) or not (gnubg's SGF).
        let mat = game((3, 1), vec![step(13, 9)], 2);
        let sgf = game((1, 3), vec![step(13, 12), step(12, 9)], 0);
        assert_eq!(hash(&mat), hash(&sgf));
        let other = game((3, 1), vec![step(8, 5), step(6, 5)], 2);
        assert_ne!(hash(&mat), hash(&other));
    }
}
