//! Endgame zones of a position: which points are fixed, the zones left, each
//! zone's followers and move values, searched.
//!
//! Two kinds of position come here:
//! - a diagram ([`crate::go::record::diagram`]): its outer stones (chains touching
//!   an open side) and Benson's pass-alive chains are safe;
//! - a real game at move N: safe are Benson's pass-alive chains and the
//!   stones that stay on the board to the end and are alive there (by the
//!   game's markup, else the estimator); an empty point that is territory at
//!   the end, or a dead stone that stays to the end, touching only its
//!   owner's safe stones and other such points is settled. This reads the
//!   game's end with hindsight, which is what a commentator does when they
//!   say "all outer stones are alive".

use crate::go::board::{Board, Color};
use crate::go::endgame::local_game::{Follower, Search, SearchError, Step};
use crate::go::endgame::move_values::MoveValues;
use crate::go::endgame::zones::{split, Fixed, Zone};
use crate::go::record::diagram::{Diagram, Sequence};
use crate::go::record::{Event, GoRecord};
use crate::go::replay::{replay_with, sgf_point, Replay};
use crate::go::rules::Rules;
use crate::go::settle::life::benson;
use crate::go::settle::{PointKind, Settlement};
use std::time::Instant;

/// When in a game to take the position, and how hard to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneSettings {
    pub moment: Moment,
    /// Zones with more empty points are not searched.
    pub max_empty: usize,
    /// Nor zones with more points in all (stones can be taken, and a zone's
    /// points are the room its local game can come to fill).
    pub max_points: usize,
    /// Search nodes per zone before giving up.
    pub budget: u64,
    /// Fill `search_ms` (off by default: times differ run to run, reports
    /// must not).
    pub timing: bool,
    /// Search without the formula of hope (benchmarks only).
    pub no_hope: bool,
}

impl Default for ZoneSettings {
    fn default() -> ZoneSettings {
        ZoneSettings {
            moment: Moment::FromEnd(0),
            max_empty: 14,
            max_points: 24,
            budget: 500_000,
            timing: false,
            no_hope: false,
        }
    }
}

/// The move of a game whose position is split into zones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// After move N (passes count as moves, as in SGF).
    At(u32),
    /// K moves before the end.
    FromEnd(u32),
}

/// A zone's status in the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneStatus {
    /// Searched to the end: both followers known.
    #[default]
    Solved,
    /// Fenced by one colour, no stone inside.
    Territory,
    /// Over a limit, or the game has no position at the move asked for.
    NotSearched,
    /// The position has no zone left (its one row carries the counts).
    NoZone,
}

impl ZoneStatus {
    pub const ALL: [ZoneStatus; 4] = [
        ZoneStatus::Solved,
        ZoneStatus::Territory,
        ZoneStatus::NotSearched,
        ZoneStatus::NoZone,
    ];

    /// The name the reports write.
    pub fn name(self) -> &'static str {
        match self {
            ZoneStatus::Solved => "solved",
            ZoneStatus::Territory => "territory",
            ZoneStatus::NotSearched => "not_searched",
            ZoneStatus::NoZone => "no_zone",
        }
    }
}

/// What became of one zone.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Fenced by one colour, no stone inside: its territory.
    Territory(Color),
    Solved {
        black: Follower,
        white: Follower,
        values: MoveValues,
    },
    TooLarge,
    Budget(u64),
}

/// One zone analysed.
#[derive(Debug, Clone)]
pub struct ZoneResult {
    pub zone: Zone,
    pub outcome: Outcome,
    pub nodes: u64,
    pub micros: u128,
}

impl Outcome {
    /// The status the reports give this outcome.
    pub fn status(&self) -> ZoneStatus {
        match self {
            Outcome::Territory(_) => ZoneStatus::Territory,
            Outcome::Solved { .. } => ZoneStatus::Solved,
            Outcome::TooLarge | Outcome::Budget(_) => ZoneStatus::NotSearched,
        }
    }
}

impl ZoneResult {
    /// The zone's count as a settled position or the mean of its followers;
    /// `None` when it was not solved.
    pub fn mean_count(&self) -> Option<f64> {
        match &self.outcome {
            Outcome::Territory(c) => Some(signed(*c, self.zone.points.len() as i32) as f64),
            Outcome::Solved { black, white, .. } => Some((black.count + white.count) as f64 / 2.0),
            _ => None,
        }
    }

    /// The line of a follower as SGF moves: `B[ca] W[da] B[]`.
    pub fn line_text(&self, board: &Board, line: &[Step], starter: Color) -> String {
        line_text(board, &self.zone, line, starter)
    }
}

pub fn signed(c: Color, n: i32) -> i32 {
    if c == Color::Black {
        n
    } else {
        -n
    }
}

/// Splits `board` (with `fixed` points) into zones and searches each.
pub fn analyse(board: &Board, fixed: &[Option<Fixed>], s: &ZoneSettings) -> Vec<ZoneResult> {
    split(board, fixed)
        .into_iter()
        .map(|zone| {
            let t = Instant::now();
            let (outcome, nodes) = solve(&zone, s);
            ZoneResult {
                zone,
                outcome,
                nodes,
                micros: t.elapsed().as_micros(),
            }
        })
        .collect()
}

fn solve(zone: &Zone, s: &ZoneSettings) -> (Outcome, u64) {
    if let Some(c) = zone.territory_of {
        return (Outcome::Territory(c), 0);
    }
    let fits = zone.empties <= s.max_empty && zone.points.len() <= s.max_points;
    let Some(local) = zone.local.as_ref().filter(|_| fits) else {
        return (Outcome::TooLarge, 0);
    };
    let mut search = Search::new(local, s.budget);
    if s.no_hope {
        search = search.without_hope();
    }
    let result = search
        .follower(zone.start, true)
        .and_then(|b| Ok((b, search.follower(zone.start, false)?)));
    match result {
        Ok((black, white)) => {
            let values = MoveValues::new(
                black.count,
                white.count,
                black.net_moves(true),
                white.net_moves(false),
            );
            (
                Outcome::Solved {
                    black,
                    white,
                    values,
                },
                search.nodes,
            )
        }
        Err(SearchError::Budget(b)) => (Outcome::Budget(b), search.nodes),
    }
}

pub fn line_text(board: &Board, zone: &Zone, line: &[Step], starter: Color) -> String {
    let mut out = String::new();
    let mut colour = starter;
    for step in line {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push(colour.letter());
        out.push('[');
        if let Some(i) = step {
            let (x, y) = board.xy(zone.points[*i as usize]);
            out.push_str(&sgf_point(x, y));
        }
        out.push(']');
        colour = colour.opponent();
    }
    out
}

/// The fixed points of a diagram: outer stones (chains touching an open
/// side) and Benson's pass-alive chains.
pub fn diagram_fixed(d: &Diagram) -> Vec<Option<Fixed>> {
    let b = &d.board;
    let mut fixed = vec![None; b.index_len()];
    let alive = [benson(b, Color::Black).alive, benson(b, Color::White).alive];
    for p in b.points() {
        let Some(c) = b.at(p) else { continue };
        if fixed[p].is_some() {
            continue;
        }
        let chain = b.chain_stones(p);
        let outer = chain.iter().any(|&q| {
            let (x, y) = b.xy(q);
            d.on_open_side(x, y)
        });
        if outer || alive[c.index()][p] {
            for q in chain {
                fixed[q] = Some(Fixed::Stone(c));
            }
        }
    }
    fixed
}

/// The fixed points of a game's position at move N, read from its end:
/// `board` at move N, `kept[p]` when the stone at `p` stays on the board to
/// the end, and the end's settlement.
pub fn game_fixed(board: &Board, kept: &[bool], end: &Settlement) -> Vec<Option<Fixed>> {
    let mut fixed = vec![None; board.index_len()];
    let alive = [
        benson(board, Color::Black).alive,
        benson(board, Color::White).alive,
    ];
    for p in board.points() {
        if let Some(c) = board.at(p) {
            let lives = kept[p] && end.kinds[p] == Some(PointKind::Stone(c));
            if lives || alive[c.index()][p] {
                fixed[p] = Some(Fixed::Stone(c));
            }
        }
    }
    // Territory at the end, and dead stones that stay to the end, touching
    // only their owner's safe stones and other such points: settled.
    let settled_for = |p: usize| match (end.kinds[p], board.at(p)) {
        (Some(PointKind::Territory(c)), None) => Some(c),
        (Some(PointKind::Dead(d)), Some(s)) if s == d && kept[p] => Some(d.opponent()),
        _ => None,
    };
    let mut core = vec![None; board.index_len()];
    for p in board.points() {
        let Some(c) = settled_for(p) else { continue };
        let inside = board.neighbours(p).iter().all(|&q| {
            !board.on_board(q) || fixed[q] == Some(Fixed::Stone(c)) || settled_for(q) == Some(c)
        });
        if inside {
            core[p] = Some(if board.at(p).is_some() {
                Fixed::Prisoner(c)
            } else {
                Fixed::Territory(c)
            });
        }
    }
    for p in board.points() {
        if core[p].is_some() {
            fixed[p] = core[p];
        }
    }
    fixed
}

/// The count of the fixed part of a position: settled territory, dead
/// stones in it, and prisoners taken so far (`captures`: by Black, by
/// White).
pub fn fixed_count(fixed: &[Option<Fixed>], captures: [u32; 2]) -> i32 {
    let settled: i32 = fixed.iter().flatten().map(|f| f.count()).sum();
    settled + captures[0] as i32 - captures[1] as i32
}

/// A diagram's numbered sequence played out in its zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// Index of the zone holding the sequence's moves.
    pub zone: usize,
    pub starter: Color,
    pub count: i32,
    pub net_moves: i32,
    pub line: Vec<Step>,
    /// Why the sequence could not be evaluated as a follower.
    pub problem: Option<String>,
    /// The whole board after the line, as [`Board::encode`] writes it.
    pub end_position: String,
}

/// Plays a diagram's sequence in the zone of its moves and counts the end
/// position as the search would.
pub fn evaluate_given(
    board: &Board,
    zones: &[ZoneResult],
    seq: &Sequence,
    budget: u64,
) -> Option<Given> {
    let first = seq.moves.first()?;
    let p0 = board.index(first.0, first.1);
    let zi = zones
        .iter()
        .position(|z| z.zone.local_index(p0).is_some())?;
    let zone = &zones[zi].zone;
    let local = zone.local.as_ref()?;
    let mut line = Vec::new();
    let mut problem = None;
    for &(x, y) in &seq.moves {
        match zone.local_index(board.index(x, y)) {
            Some(i) => line.push(Some(i as u8)),
            None => {
                problem = Some(format!(
                    "move {} is outside zone {}",
                    sgf_point(x, y),
                    zi + 1
                ));
                break;
            }
        }
    }
    let mut search = Search::new(local, budget);
    let (count, net_moves, end) =
        match search.play_line(zone.start, seq.starter == Color::Black, &line) {
            Ok(v) => v,
            Err(e) => {
                problem.get_or_insert(e);
                (0, 0, zone.start)
            }
        };
    let mut after = board.clone();
    for (i, &p) in zone.points.iter().enumerate() {
        let (x, y) = board.xy(p);
        let stone = if end.black & 1 << i != 0 {
            Some(Color::Black)
        } else if end.white & 1 << i != 0 {
            Some(Color::White)
        } else {
            None
        };
        after.set(x, y, stone);
    }
    Some(Given {
        zone: zi,
        starter: seq.starter,
        count,
        net_moves,
        line,
        problem,
        end_position: after.encode(),
    })
}

/// One position split and searched, with what its rows need.
pub struct PositionZones {
    pub board: Board,
    /// The position is the one after this move (0: a diagram, or the
    /// setup before the first move).
    pub move_number: u32,
    pub fixed: Vec<Option<Fixed>>,
    pub zones: Vec<ZoneResult>,
    /// Settled territory and prisoners so far (games only).
    pub base_count: Option<i32>,
    /// The game's count at its end (games only).
    pub final_count: Option<i32>,
    /// A diagram's numbered sequences, played out.
    pub given: Vec<Given>,
    /// Followers drawn in a diagram that its sequence does not produce.
    pub drawn_mismatches: Vec<String>,
}

impl PositionZones {
    /// The fixed count plus every zone's mean count, when all were solved.
    pub fn estimated_count(&self) -> Option<f64> {
        let zones: Option<f64> = self.zones.iter().map(ZoneResult::mean_count).sum();
        Some(self.base_count? as f64 + zones?)
    }
}

/// Splits and searches a diagram, and plays out its numbered sequences.
pub fn diagram_zones(d: &Diagram, s: &ZoneSettings) -> PositionZones {
    let fixed = diagram_fixed(d);
    let zones = analyse(&d.board, &fixed, s);
    let given: Vec<Given> = d
        .sequences
        .iter()
        .filter_map(|q| evaluate_given(&d.board, &zones, q, s.budget))
        .collect();
    // Sequences map one to one onto `given` unless one had no zone.
    let mut drawn_mismatches = Vec::new();
    if given.len() == d.sequences.len() {
        for (i, (q, g)) in d.sequences.iter().zip(&given).enumerate() {
            match &q.drawn_follower {
                Some(drawn) if *drawn != g.end_position => drawn_mismatches.push(format!(
                    "sequence {} leaves {} but the diagram after it draws {drawn}",
                    i + 1,
                    g.end_position
                )),
                _ => {}
            }
        }
    } else {
        drawn_mismatches.push("a numbered sequence lies outside every zone".into());
    }
    PositionZones {
        board: d.board.clone(),
        move_number: 0,
        fixed,
        zones,
        base_count: Some(0),
        final_count: None,
        given,
        drawn_mismatches,
    }
}

/// The position of a game at the zones' moment, with which of its stones
/// stay on the board to the end.
#[derive(Clone)]
pub struct Snapshot {
    /// The position is the one after this move (0: the setup).
    pub move_number: u32,
    pub board: Board,
    /// Prisoners taken so far: `[by Black, by White]`.
    pub captures: [u32; 2],
    /// `kept[p]`: the stone at `p` stays on the board to the end.
    pub kept: Vec<bool>,
}

/// Watches a replay go by and keeps the position at the move asked for.
pub struct Tracker {
    n: u32,
    at: Option<Replay>,
    stones: Vec<usize>,
    lost: Vec<usize>,
}

impl Tracker {
    /// A tracker of `record`'s position at `moment` (for move 0, the setup
    /// is replayed here).
    ///
    /// # Errors
    /// When the game is shorter than the move asked for, or than the
    /// moves counted back from its end.
    pub fn new(record: &GoRecord, rules: Rules, moment: Moment) -> Result<Tracker, String> {
        let total = record
            .events
            .iter()
            .filter(|e| matches!(e, Event::Move { .. }))
            .count() as u32;
        let has = match total {
            1 => "the game has 1 move".to_string(),
            t => format!("the game has {t} moves"),
        };
        let n = match moment {
            Moment::At(n) if n > total => {
                return Err(format!(
                    "{has}; move {n} (--zones-at, --at) is past its end"
                ))
            }
            Moment::At(n) => n,
            Moment::FromEnd(k) if k > total => {
                return Err(format!(
                    "{has}; --zones-from-end {k} reaches before its start"
                ))
            }
            Moment::FromEnd(k) => total - k,
        };
        let mut tracker = Tracker {
            n,
            at: None,
            stones: Vec::new(),
            lost: Vec::new(),
        };
        if n == 0 {
            let mut setup = record.clone();
            setup.events.retain(|e| !matches!(e, Event::Move { .. }));
            tracker.observe(&replay_with(&setup, rules, |_| {}));
        }
        Ok(tracker)
    }

    /// Looks at the replay after one more move.
    pub fn observe(&mut self, r: &Replay) {
        if self.at.is_none() && r.moves >= self.n {
            self.stones = r
                .board
                .points()
                .filter(|&p| r.board.at(p).is_some())
                .collect();
            self.at = Some(r.clone());
        } else if let Some(a) = &self.at {
            // A stone of move N captured later is not safe, even if the
            // same colour plays there again.
            let lost = &mut self.lost;
            self.stones.retain(|&p| {
                let same = r.board.at(p) == a.board.at(p);
                if !same {
                    lost.push(p);
                }
                same
            });
        }
    }

    /// The position at the move, once the replay has ended.
    pub fn finish(self) -> Snapshot {
        let at = self.at.expect("move N is reached");
        let mut kept = vec![false; at.board.index_len()];
        for p in at.board.points() {
            kept[p] = at.board.at(p).is_some();
        }
        for p in self.lost {
            kept[p] = false;
        }
        Snapshot {
            move_number: self.n,
            board: at.board,
            captures: at.captures,
            kept,
        }
    }
}

/// Splits and searches a game's position at its snapshot, fixing stones
/// and territory from the game's end: `end` settles the final position,
/// whose prisoners are `final_captures`.
pub fn game_zones(
    at: &Snapshot,
    end: &Settlement,
    final_captures: [u32; 2],
    s: &ZoneSettings,
) -> PositionZones {
    let fixed = game_fixed(&at.board, &at.kept, end);
    let base_count = fixed_count(&fixed, at.captures);
    let fc = |i: usize| (end.territory[i] + end.dead[1 - i] + final_captures[i]) as i32;
    let zones = analyse(&at.board, &fixed, s);
    PositionZones {
        board: at.board.clone(),
        move_number: at.move_number,
        fixed,
        zones,
        base_count: Some(base_count),
        final_count: Some(fc(0) - fc(1)),
        given: Vec::new(),
        drawn_mismatches: Vec::new(),
    }
}
