//! A backgammon match record: what a match file (`.mat` Jellyfish text,
//! GNU Backgammon SGF, eXtreme Gammon `.xg`, ...) says, before any replay:
//! the match's tags, and per game the score line and the list of actions
//! as the players wrote them.

use crate::bg::position::board::Board;

/// One checker step of a play, in the mover's own numbering as match files
/// write it: `25` is the bar, `0` is off, `1..=24` the mover's points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    /// Written with `*` (a hit is claimed).
    pub hit: bool,
}

/// The written form of a bar and of off, in the mover's numbering.
pub const BAR_POINT: u8 = 25;
pub const OFF_POINT: u8 = 0;

/// Steps written as `from/to` pairs in the mover's numbering (`bar`,
/// `off`), space-separated: the play's text for findings.
pub fn steps_text(steps: &[Step]) -> String {
    let pt = |v: u8| match v {
        BAR_POINT => "bar".to_string(),
        OFF_POINT => "off".to_string(),
        v => v.to_string(),
    };
    steps
        .iter()
        .map(|s| format!("{}/{}", pt(s.from), pt(s.to)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a player did, in the order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A roll and the play made with it; `steps` empty for a dance
    /// (`Cannot Move`, or nothing after the dice).
    Roll {
        player: usize,
        dice: (u8, u8),
        steps: Vec<Step>,
        /// The play as written, for findings.
        text: String,
    },
    /// A roll whose play the writer did not record (Backgammon Studio
    /// writes `????`): the position after it is unknown.
    Unrecorded {
        player: usize,
        dice: (u8, u8),
    },
    /// `Doubles => n`.
    Double {
        player: usize,
        value: u32,
    },
    /// `Beavers => n` (and `Raccoons => n`): the taker redoubles at once,
    /// keeping the cube.
    Beaver {
        player: usize,
        value: u32,
    },
    Take {
        player: usize,
    },
    Drop {
        player: usize,
    },
    /// `Wins n point(s)`: `player` is the winner.
    Wins {
        player: usize,
        points: u32,
        and_match: bool,
    },
    /// `Losses n point(s)` (Backgammon Galaxy): `player` is the loser, who
    /// forfeited (left or ran out of time) when the game is not over.
    Loses {
        player: usize,
        points: u32,
    },
}

impl Action {
    /// A roll and its play, the play's text made from its steps (for
    /// readers whose files store points rather than text).
    pub fn played(player: usize, dice: (u8, u8), steps: Vec<Step>) -> Action {
        let text = steps_text(&steps);
        Action::Roll {
            player,
            dice,
            steps,
            text,
        }
    }

    /// A game's result as a record states it: `Wins` by the winner, or,
    /// when the loser conceded (a forfeit, a settlement), `Loses` by the
    /// loser.
    pub fn result(winner: usize, points: u32, conceded: bool) -> Action {
        if conceded {
            Action::Loses {
                player: 1 - winner,
                points,
            }
        } else {
            Action::Wins {
                player: winner,
                points,
                and_match: false,
            }
        }
    }

    /// The player who acted.
    pub fn player(&self) -> usize {
        match *self {
            Action::Roll { player, .. }
            | Action::Unrecorded { player, .. }
            | Action::Double { player, .. }
            | Action::Beaver { player, .. }
            | Action::Take { player }
            | Action::Drop { player }
            | Action::Wins { player, .. }
            | Action::Loses { player, .. } => player,
        }
    }
}

/// GNU Backgammon's own analysis of a cube decision, from SGF `DA`.
#[derive(Debug, Clone, PartialEq)]
pub struct GnubgCube {
    pub node: u32,
    /// The evaluation as gnubg names it (`2C`: 2-ply cubeful).
    pub eval: String,
    /// No double: win, win gammon, win backgammon, lose gammon, lose
    /// backgammon, cubeless value, cubeful value (match winning chance in
    /// match play, equity in money play).
    pub no_double: [f32; 7],
    /// The same after double, take.
    pub double_take: [f32; 7],
}

impl Eq for GnubgCube {}

/// GNU Backgammon's own analysis of a play, from SGF `A` and `LU`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GnubgPlay {
    pub node: u32,
    /// The played play's evaluation as gnubg names it (`2C`: 2-ply
    /// cubeful); empty when only the luck is given.
    pub eval: String,
    /// The best score less the played one (normalised equity), when the
    /// list has the played play evaluated.
    pub loss: Option<f32>,
    /// The roll's luck.
    pub luck: Option<f32>,
}

impl Eq for GnubgPlay {}

/// eXtreme Gammon's own analysis of a play, from a `.xg` move record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct XgPlay {
    pub node: u32,
    /// XG's level of the move analysis (`3-ply`, `XG Roller+`, ...).
    pub eval: String,
    /// XG's error of the played move, as XG stores it (equity; XG writes
    /// errors as negative numbers).
    pub error: Option<f64>,
    /// XG's luck of the roll.
    pub luck: Option<f64>,
}

impl Eq for XgPlay {}

/// eXtreme Gammon's own analysis of a cube decision, from a `.xg` cube
/// record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct XgCube {
    pub node: u32,
    /// XG's level of the cube analysis.
    pub eval: String,
    /// Win chance after no double (XG's cumulative `Win_S`).
    pub p_win: Option<f32>,
    /// No double and double/take equities, as XG stores them (the doubler's
    /// side).
    pub nd: Option<f32>,
    pub dt: Option<f32>,
    /// XG's errors of the doubler's and the taker's choice.
    pub double_error: Option<f64>,
    pub take_error: Option<f64>,
}

impl Eq for XgCube {}

/// BGBlitz's own analysis of a play, from a `.bgf` roll's `moveAnalysis`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BgblitzPlay {
    pub node: u32,
    /// The depth of the played move's evaluation (`2-ply`).
    pub eval: String,
    /// The played move's equity (`eq.equity`) and the best alternative's
    /// less it (never negative), as BGBlitz gives them.
    pub equity: Option<f64>,
    pub loss: Option<f64>,
}

impl Eq for BgblitzPlay {}

/// One game of a match as recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// The number written after `Game` (SGF: `MI[game:i]` + 1).
    pub number: u32,
    /// The score line at the start of the game, when written.
    pub score: Option<[u32; 2]>,
    pub actions: Vec<(u32, Action)>,
    /// A position set up by the record (SGF `AE/AW/AB`), replacing the
    /// starting position.
    pub setup: Option<Board>,
    /// The SGF writer's result (`RE[W+2R]`), kept for the audit.
    pub result_raw: String,
    /// The SGF writer marked this game as the Crawford game
    /// (`RU[Crawford:CrawfordGame]`).
    pub crawford_marked: Option<bool>,
    /// Lines (or SGF nodes) the reader could not read, with the reason.
    pub unread: Vec<(u32, String)>,
    /// GNU Backgammon analysis properties (`DA`, `A`): number of analysed
    /// decisions.
    pub analysed: u32,
    /// GNU Backgammon's cube analysis (`DA`) by node: its evaluation
    /// (e.g. `2C`, 2-ply cubeful) and the no-double and double/take
    /// outputs (five probabilities, cubeless and cubeful value each).
    pub cube_analysis: Vec<GnubgCube>,
    /// GNU Backgammon's play analysis (`A`, `LU`) by node.
    pub play_analysis: Vec<GnubgPlay>,
    /// eXtreme Gammon's play and cube analysis by record.
    pub xg_plays: Vec<XgPlay>,
    pub xg_cubes: Vec<XgCube>,
    /// BGBlitz's play analysis by record.
    pub bgblitz_plays: Vec<BgblitzPlay>,
    /// Positions the record states before the play on a line (XG stores
    /// each move's starting position): the replay checks them.
    pub stated: Vec<(u32, Board)>,
    /// The cube of a set-up position (value, owner), when the record gives
    /// it (a position file); otherwise the game starts with the cube at 1.
    pub setup_cube: Option<(u32, Option<usize>)>,
    /// The player on roll in a set-up position, when the record gives it.
    pub setup_turn: Option<usize>,
    /// A set-up position given before this player's roll (a position
    /// file's cube decision): with nothing played from it, the replay
    /// keeps it as the player's cube decision (no double recorded).
    pub setup_decision: Option<usize>,
    /// What a position file says of its own position that disagrees with
    /// the position read (its IDs, pip counts, score or cube lines), by
    /// line: the replay makes each a `position_mismatch` finding.
    pub disagreements: Vec<(u32, String)>,
}

/// A whole match file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchRecord {
    /// `Player 1`/`Player 2` tags, or the names on the first score line.
    pub players: [String; 2],
    /// Match length in points; 0 for a money session.
    pub length: u32,
    /// Tags as written (`Crawford`, `Jacoby`, `Beaver`, `CubeLimit`,
    /// `Variation`, `EventDate`, `Site`, ...).
    pub tags: Vec<(String, String)>,
    pub games: Vec<GameRecord>,
    /// Which reader produced it: `mat`, `sgf`, `xg`, ...
    pub format: &'static str,
    /// Things a reader should know about how the record was read.
    pub notes: Vec<String>,
}

impl MatchRecord {
    /// The value of tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A tag read as on/off (`"On"`, `"Off"`, `"true"`, `"1"`...).
    pub fn tag_flag(&self, name: &str) -> Option<bool> {
        let v = self.tag(name)?.trim().to_ascii_lowercase();
        match v.as_str() {
            "on" | "yes" | "true" | "1" => Some(true),
            "off" | "no" | "false" | "0" => Some(false),
            _ => None,
        }
    }
}
