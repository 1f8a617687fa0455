//! Backgammon rows: reads a match file, audits it game by game and turns
//! each audited game into a `bg_games.csv` row (and, when asked, each
//! position into a `bg_positions.csv` row with its IDs and features).

use rayon::prelude::*;

use crate::analysis::bg_cube::{cube_row, CubeSettings};
use crate::analysis::bg_plays::{
    count_cube, count_result, play_rows, player_key, stats_row, PlayRater, PlayerStats,
    PlayerTotals,
};
use crate::bg::cube::met::kazaross_xg2;
use crate::bg::eval::nn::Weights;
use crate::bg::format::bgblitz::read_bgblitz_txt;
use crate::bg::format::bgf::read_bgf;
use crate::bg::format::fibs::read_oldmoves;
use crate::bg::format::mat::{read_mat, MatError};
use crate::bg::format::sgf::read_bg_sgf;
use crate::bg::format::sgg::read_sgg;
use crate::bg::format::snowie::read_snowie_txt;
use crate::bg::format::tmg::read_tmg;
use crate::bg::format::xg::read_xg;
use crate::bg::format::xgtext::read_xg_txt;
use crate::bg::game::audit::{audit_match, AuditedGame};
use crate::bg::game::record::MatchRecord;
use crate::bg::game::replay::{CubeChoice, Ending, FindingKind, KeepCube, PlayKind};
use crate::bg::position::board::Board;
use crate::bg::position::features::features;
use crate::bg::position::ids::{match_id, position_id, xgid, GameState, MatchState};
use crate::hash::Fnv;
use crate::ingest::{MatchFormat, Origin};
use crate::report::keys::{file_key, game_key};
use crate::report::{BgCubeRow, BgGameRow, BgPlayRow, BgPositionRow, BgStatsRow, SummaryRow};
use crate::text::single_line;

/// What a backgammon run writes.
#[derive(Clone, Copy)]
pub struct BgSettings<'a> {
    /// Write `bg_positions.csv`.
    pub positions: bool,
    /// Which cube decisions go to `bg_cube.csv`.
    pub decisions: KeepCube,
    /// Rate every play and roll (`bg_plays.csv`, `bg_stats.csv`).
    pub plays: bool,
    /// What the cube decisions are evaluated with.
    pub cube: CubeSettings<'a>,
}

impl std::fmt::Debug for BgSettings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BgSettings")
            .field("positions", &self.positions)
            .field("decisions", &self.decisions)
            .field("plays", &self.plays)
            .field("met", &self.cube.met.name)
            .field("weights", &self.cube.weights.map(|w| w.source.as_str()))
            .finish()
    }
}

/// The command line's defaults: the built-in nets.
impl Default for BgSettings<'_> {
    fn default() -> Self {
        BgSettings {
            positions: false,
            decisions: KeepCube::Recorded,
            plays: false,
            cube: CubeSettings {
                met: kazaross_xg2(),
                weights: Some(Weights::embedded()),
                plies: 0,
            },
        }
    }
}

/// One row of a match's reports.
pub enum BgRow<'a> {
    Game(BgGameRow),
    Position(BgPositionRow<'a>),
    Cube(BgCubeRow),
    Play(BgPlayRow),
    Stats(BgStatsRow),
}

/// Counts for the run's totals.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BgCounts {
    pub games: u64,
    pub plays: u64,
    pub illegal_plays: u64,
    /// Games with at least one finding.
    pub games_with_findings: u64,
    pub findings: u64,
    /// Rows in `bg_cube.csv`, and how many were evaluated.
    pub cube_decisions: u64,
    pub cube_evaluated: u64,
    /// Games with each kind of finding, as [`FindingKind::ALL`].
    pub by_kind: [u64; FindingKind::ALL.len()],
    /// Games by ending, as [`Ending::NAMES`].
    pub endings: [u64; Ending::NAMES.len()],
    /// Rows in `bg_plays.csv`, and how many have a loss.
    pub plays_rated: u64,
    pub plays_rows: u64,
    /// The players' statistics over the run (with `--plays`).
    pub players: PlayerTotals,
}

impl BgCounts {
    fn count(&mut self, g: &AuditedGame) {
        let r = &g.replayed;
        self.games += 1;
        self.plays += r.plays as u64;
        self.illegal_plays += r.illegal_plays as u64;
        self.findings += r.findings.len() as u64;
        self.games_with_findings += u64::from(!r.findings.is_empty());
        for (i, kind) in FindingKind::ALL.iter().enumerate() {
            self.by_kind[i] += u64::from(r.findings.iter().any(|f| f.kind == *kind));
        }
        if let Some(i) = Ending::NAMES.iter().position(|n| *n == r.ending.name()) {
            self.endings[i] += 1;
        }
    }

    /// `summary.csv` rows: games by ending, and games with each kind of
    /// finding.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let row = |metric, name, games| SummaryRow::new(metric, name, games, "games");
        let mut out: Vec<SummaryRow> = Ending::NAMES
            .iter()
            .zip(self.endings)
            .map(|(n, g)| row("bg_ending", n, g))
            .collect();
        out.extend(
            FindingKind::ALL
                .iter()
                .zip(self.by_kind)
                .map(|(k, g)| row("bg_finding", k.name(), g)),
        );
        out
    }
}

impl std::ops::AddAssign for BgCounts {
    fn add_assign(&mut self, o: BgCounts) {
        self.games += o.games;
        self.plays += o.plays;
        self.illegal_plays += o.illegal_plays;
        self.games_with_findings += o.games_with_findings;
        self.findings += o.findings;
        self.cube_decisions += o.cube_decisions;
        self.cube_evaluated += o.cube_evaluated;
        for (a, b) in self.by_kind.iter_mut().zip(o.by_kind) {
            *a += b;
        }
        for (a, b) in self.endings.iter_mut().zip(o.endings) {
            *a += b;
        }
        self.plays_rated += o.plays_rated;
        self.plays_rows += o.plays_rows;
        self.players += o.players;
    }
}

/// Reads a match file in the format ingest sniffed.
///
/// # Errors
/// When the bytes hold no match in that format.
pub fn read_match(format: MatchFormat, bytes: &[u8]) -> Result<MatchRecord, MatError> {
    match format {
        MatchFormat::GnubgSgf => read_bg_sgf(bytes),
        MatchFormat::Mat => read_mat(bytes),
        MatchFormat::Xg => read_xg(bytes),
        MatchFormat::Oldmoves => read_oldmoves(bytes),
        MatchFormat::Sgg => read_sgg(bytes),
        MatchFormat::Tmg => read_tmg(bytes),
        MatchFormat::SnowieTxt => read_snowie_txt(bytes),
        MatchFormat::BgBlitzTxt => read_bgblitz_txt(bytes),
        MatchFormat::XgTxt => read_xg_txt(bytes),
        MatchFormat::Bgf => read_bgf(bytes),
    }
}

/// Audits a match game by game and hands each game's rows to `out`, in
/// each report's order: its cube decisions, its positions (when asked
/// for), then its game row. Returns the match's totals.
pub fn bg_match_rows(
    origin: &Origin,
    m: &MatchRecord,
    settings: &BgSettings,
    mut out: impl FnMut(BgRow<'_>),
) -> BgCounts {
    crate::bg::eval::warm_up(settings.cube.weights.is_some());
    let mut counts = BgCounts::default();
    let (positions, plays) = (settings.positions, settings.plays);
    // The statistics count every cube decision, whichever the report keeps.
    let keep = if plays {
        KeepCube::All
    } else {
        settings.decisions
    };
    let mut match_stats: [PlayerStats; 2] = Default::default();
    let mut games = Vec::new();
    audit_match(m, positions || plays, keep, |g| games.push(g));
    let hash = match_hash(m, &games);
    let raters: Vec<PlayRater> = games
        .iter()
        .map(|g| PlayRater::new(m, g, &settings.cube))
        .collect();
    // The heavy work of the whole match, each game's cube decisions and
    // its plays' ratings, in parallel on the run's pool with no wait
    // between games (a game's two kinds of work side by side, so that a
    // thread's caches serve both); then counted and written in order.
    let work: Vec<(Vec<_>, Vec<_>)> = games
        .par_iter()
        .zip(&raters)
        .map(|(g, rater)| {
            let positions = if plays {
                &g.replayed.positions[..]
            } else {
                &[]
            };
            rayon::join(
                || {
                    let points = &g.replayed.cube_points;
                    points
                        .par_iter()
                        .map(|point| cube_row(origin, m, g, point, &settings.cube))
                        .collect()
                },
                || positions.par_iter().map(|pos| rater.rate(pos)).collect(),
            )
        })
        .collect();
    for ((g, rater), (cube_rows, ratings)) in games.iter().zip(&raters).zip(work) {
        counts.count(g);
        let mut stats: [PlayerStats; 2] = Default::default();
        for (point, (row, evaluated)) in g.replayed.cube_points.iter().zip(cube_rows) {
            if plays {
                count_cube(m, g, point, &row, &settings.cube, &mut stats);
            }
            let reported = match settings.decisions {
                KeepCube::None => false,
                KeepCube::Recorded => point.choice != CubeChoice::NoDouble,
                KeepCube::All => true,
            };
            if reported {
                counts.cube_decisions += 1;
                counts.cube_evaluated += u64::from(evaluated);
                out(BgRow::Cube(row));
            }
        }
        if positions {
            // A `????` play has no position after it to describe.
            let described = g.replayed.positions.iter();
            for pos in described.filter(|p| p.kind != PlayKind::Unrecorded) {
                let next = 1 - pos.player;
                let state = id_state(m, g, next, pos.cube, pos.cube_owner, &pos.after);
                out(BgRow::Position(position_row(origin, g, pos, &state)));
            }
        }
        if plays {
            count_result(m, g, &settings.cube, &mut stats);
            play_rows(origin, m, g, rater, ratings, &mut stats, |row| {
                counts.plays_rows += 1;
                counts.plays_rated += u64::from(row.loss.is_some());
                out(BgRow::Play(row));
            });
            for (p, s) in stats.iter().enumerate() {
                let row = scoped_row("game", origin, m, Some(g.index), p, &stats);
                out(BgRow::Stats(row));
                match_stats[p].add_game(s);
            }
        }
        out(BgRow::Game(game_row(origin, m, g, &hash)));
    }
    if plays {
        for s in &mut match_stats {
            s.matches = 1;
        }
        for (p, s) in match_stats.iter().enumerate() {
            let row = scoped_row("match", origin, m, None, p, &match_stats);
            out(BgRow::Stats(row));
            counts.players.add(&hash, &m.players[p], m.length, s);
        }
    }
    counts
}

/// A `game` or `match` statistics row of player `p`, from both players'
/// statistics `s`.
fn scoped_row(
    scope: &'static str,
    origin: &Origin,
    m: &MatchRecord,
    game: Option<u32>,
    p: usize,
    s: &[PlayerStats; 2],
) -> BgStatsRow {
    BgStatsRow {
        scope,
        file_key: file_key(origin),
        game_key: game.map(|g| game_key(origin, g)).unwrap_or_default(),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game,
        player: Some(p),
        player_name: single_line(&m.players[p]),
        player_key: player_key(&m.players[p]),
        ..stats_row(&s[p], Some(&s[1 - p]), Some(m.length), true)
    }
}

/// The match state gnubg's Match ID and the XGID describe, with `on_roll`
/// to roll next (dice not yet rolled).
fn id_state(
    m: &MatchRecord,
    g: &AuditedGame,
    on_roll: usize,
    cube: u32,
    owner: Option<usize>,
    board: &Board,
) -> MatchState {
    let over = board.on_board(0) == 0 || board.on_board(1) == 0;
    MatchState {
        on_roll,
        turn: on_roll,
        dice: None,
        cube,
        cube_owner: owner,
        crawford: g.crawford_game(),
        state: if over {
            GameState::Over
        } else {
            GameState::Playing
        },
        double_offered: false,
        resignation: 0,
        match_length: m.length,
        score: g.score,
        jacoby: g.rules.jacoby,
        // An XGID always names a highest cube; without a CubeLimit tag it
        // gets the common 1024.
        cube_limit: if g.rules.limit == u32::MAX {
            1024
        } else {
            g.rules.limit
        },
    }
}

/// The match's `match_hash`: its players by `player_key` (so that two
/// pairs' identical short matches stay two), its length and each game's
/// content as replayed
/// ([`content_hash`](crate::bg::game::replay::content_hash)).
fn match_hash(m: &MatchRecord, games: &[AuditedGame]) -> String {
    let mut h = Fnv::default();
    for name in &m.players {
        h.write(player_key(name).as_bytes());
        h.write(&[0]);
    }
    h.write(b"M");
    h.write(&m.length.to_le_bytes());
    for g in games {
        h.write(b"G");
        h.write(&g.replayed.content.0.to_le_bytes());
    }
    h.hex()
}

fn game_row(origin: &Origin, m: &MatchRecord, g: &AuditedGame, hash: &str) -> BgGameRow {
    let r = &g.replayed;
    let rec = &m.games[g.index as usize - 1];
    // The player on roll after the last play.
    let mut recorded = r.positions.iter().rev();
    let last = recorded
        .find(|p| p.kind != PlayKind::Unrecorded)
        .map(|p| p.player)
        .or_else(|| {
            rec.actions.iter().rev().find_map(|(_, a)| match a {
                crate::bg::game::record::Action::Roll { player, .. } => Some(*player),
                _ => None,
            })
        });
    let on_roll = last.map_or(rec.setup_turn.unwrap_or(0), |p| 1 - p);
    let state = id_state(m, g, on_roll, r.cube, r.cube_owner, &r.board);
    let kinds: Vec<&str> = r.findings.iter().map(|f| f.kind.name()).collect();
    let details: Vec<String> = r
        .findings
        .iter()
        .map(|f| {
            if f.line > 0 {
                format!("line {}: {}", f.line, f.text)
            } else {
                f.text.clone()
            }
        })
        .collect();
    // No ID or count of a position no game can reach.
    let possible = r.board.impossible().is_none();
    BgGameRow {
        game_key: game_key(origin, g.index),
        file_key: file_key(origin),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: g.index,
        game_number: rec.number,
        format: m.format,
        player_0: single_line(&m.players[0]),
        player_1: single_line(&m.players[1]),
        match_length: m.length,
        score_0: g.score[0],
        score_1: g.score[1],
        score_written: rec
            .score
            .map(|s| format!("{}-{}", s[0], s[1]))
            .unwrap_or_default(),
        crawford: g.crawford.name(),
        plays: r.plays,
        illegal_plays: r.illegal_plays,
        doubles: r.doubles,
        beavers: r.beavers,
        cube: r.cube,
        cube_owner: r.cube_owner,
        winner: r.winner,
        ending: r.ending.name(),
        points: r.points.filter(|_| r.ending != Ending::Unfinished),
        recorded_winner: r.recorded.map(|x| x.0),
        recorded_points: r.recorded.map(|x| x.1),
        findings: r.findings.len() as u32,
        finding_kinds: kinds.join(";"),
        finding_details: single_line(&details.join(" | ")),
        pips_0: possible.then(|| r.board.pips(0)),
        pips_1: possible.then(|| r.board.pips(1)),
        off_0: possible.then(|| r.board.off(0)),
        off_1: possible.then(|| r.board.off(1)),
        position_id: if possible {
            position_id(&r.board, on_roll)
        } else {
            String::new()
        },
        match_id: match_id(&state),
        xgid: if possible {
            xgid(&r.board, &state)
        } else {
            String::new()
        },
        analysed: rec.analysed,
        match_hash: hash.to_string(),
        duplicate_of: String::new(),
    }
}

fn position_row<'a>(
    origin: &'a Origin,
    g: &AuditedGame,
    pos: &'a crate::bg::game::replay::PlayedPosition,
    state: &MatchState,
) -> BgPositionRow<'a> {
    let f = features(&pos.after);
    let [a, b] = &f.side;
    const DICE: [&str; 36] = [
        "11", "12", "13", "14", "15", "16", "21", "22", "23", "24", "25", "26", "31", "32", "33",
        "34", "35", "36", "41", "42", "43", "44", "45", "46", "51", "52", "53", "54", "55", "56",
        "61", "62", "63", "64", "65", "66",
    ];
    let (d0, d1) = (pos.dice.0.clamp(1, 6), pos.dice.1.clamp(1, 6));
    BgPositionRow {
        game_key: game_key(origin, g.index),
        source: &origin.path,
        member: origin.member.as_deref().unwrap_or_default(),
        game: g.index,
        play: pos.play_no,
        line: pos.line,
        player: pos.player,
        dice: DICE[(d0 as usize - 1) * 6 + d1 as usize - 1],
        moves: &pos.play,
        legal: pos.kind == PlayKind::Legal,
        position_id: position_id(&pos.after, state.on_roll),
        match_id: match_id(state),
        xgid: xgid(&pos.after, state),
        cube: pos.cube,
        cube_owner: pos.cube_owner,
        contact: f.contact,
        pips_0: a.pips,
        pips_1: b.pips,
        bar_0: a.bar,
        bar_1: b.bar,
        off_0: a.off,
        off_1: b.off,
        blots_0: a.blots,
        blots_1: b.blots,
        points_0: a.points,
        points_1: b.points,
        home_points_0: a.home_points,
        home_points_1: b.home_points,
        longest_prime_0: a.longest_prime,
        longest_prime_1: b.longest_prime,
        back3_0: a.back3,
        back3_1: b.back3,
        back6_0: a.back6,
        back6_1: b.back6,
        back12_0: a.back12,
        back12_1: b.back12,
        home_0: a.home,
        home_1: b.home,
        blot_odds_0: a.blot_odds,
        blot_odds_1: b.blot_odds,
        blot_shots_0: a.blot_shots,
        blot_shots_1: b.blot_shots,
    }
}
