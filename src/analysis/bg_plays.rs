//! Play analysis rows (`bg_plays.csv`) and the players' statistics
//! (`bg_stats.csv`), as GNU Backgammon's `analyse match` and `show
//! statistics` make them (`analysis.c`: `AnalyzeMove`,
//! `updateStatcontext`; `formatgs.c`): each recorded play rated against
//! every legal play of its roll, the luck of each roll, and the cube
//! decisions' errors, summed per player for each game, each match and,
//! by player name, the whole run.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::bg_cube::{decision_state, single, unscorable, CubeSettings};
use crate::bg::cube::{MatchCube, MoneyRules};
use crate::bg::game::audit::AuditedGame;
use crate::bg::game::record::MatchRecord;
use crate::bg::game::replay::{Answer, CubeChoice, CubePoint, Ending, PlayKind, PlayedPosition};
use crate::bg::play::luck::{luck, roll_value, LuckClass};
use crate::bg::play::plied::{Plied, Setup, LARGE};
use crate::bg::play::value::{CubeContext, Stakes};
use crate::bg::play::{rank_plays, Skill};
use crate::bg::position::board::Board;
use crate::bg::position::ids::{match_id, position_id};
use crate::bg::position::notation::gnubg_notation;
use crate::bg::position::play::Play;
use crate::ingest::Origin;
use crate::report::keys::game_key;
use crate::report::{BgCubeRow, BgPlayRow, BgStatsRow};
use crate::text::single_line;

/// One player's counts and sums, gnubg's `statcontext` for one side.
/// Equity sums are normalised (EMG); `_cost` sums are match winning
/// chance in match play and points in money play.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayerStats {
    pub games: u32,
    pub matches: u32,
    pub total_moves: u32,
    pub unforced: u32,
    pub left_out: u32,
    /// Analysed plays by mark: none, doubtful, bad, very bad.
    pub marks: [u32; 4],
    pub checker_error: f64,
    pub checker_cost: f64,
    pub cube_total: u32,
    pub cube_close: u32,
    pub doubles: u32,
    pub takes: u32,
    pub passes: u32,
    /// Missed doubles below and above the cash point, wrong doubles below
    /// the double point and above too good, wrong takes, wrong passes:
    /// their counts, errors and costs.
    pub cube_errors: [(u32, f64, f64); 6],
    /// Rolls by luck mark, from very unlucky to very lucky.
    pub luck_marks: [u32; 5],
    pub luck: f64,
    pub luck_cost: f64,
    pub actual: f64,
    pub luck_adjusted: f64,
    /// Moves of both players where this player played: Snowie's count.
    pub moves_both: u32,
    /// The sample variance of the games' results and of their
    /// luck-adjusted results, as gnubg keeps it game by game
    /// ([`PlayerStats::add_game`]), for money play's confidence
    /// intervals. Not summed across matches.
    pub variance_actual: f64,
    pub variance_luck_adjusted: f64,
}

impl std::ops::AddAssign<&PlayerStats> for PlayerStats {
    /// The run-wide sums, in `f64`.
    fn add_assign(&mut self, o: &PlayerStats) {
        self.add(o, |a, b| *a += b);
    }
}

/// gnubg's running sample variance (`analysis.c`, `UpdateVariance`, in
/// `f32`): `variance` of the first `n - 1` values becomes that of `n`,
/// `sum` being the sum of all `n` and `added` the last.
fn update_variance(variance: &mut f64, sum: f64, added: f64, n: u32) {
    if n <= 1 {
        *variance = 0.0;
        return;
    }
    let (sum, added, n) = (sum as f32, added as f32, n as f32);
    let moved = sum / n - (sum - added) / (n - 1.0);
    let v = *variance as f32 * (1.0 - 1.0 / (n - 1.0)) + n * moved * moved;
    *variance = f64::from(v);
}

/// Adds `v` to `sum` in `f32`, as gnubg's `statcontext` sums: the game
/// and match figures then round as gnubg's do.
fn add32(sum: &mut f64, v: f64) {
    *sum = f64::from(*sum as f32 + v as f32);
}

impl PlayerStats {
    /// Adds a game's statistics to a match's as gnubg's `AddStatcontext`
    /// does, in `f32`.
    pub fn add_game(&mut self, g: &PlayerStats) {
        self.add(g, add32);
        let n = self.games;
        update_variance(&mut self.variance_actual, self.actual, g.actual, n);
        update_variance(
            &mut self.variance_luck_adjusted,
            self.luck_adjusted,
            g.luck_adjusted,
            n,
        );
    }

    /// Adds `o`'s counts, and its sums with `sum`.
    fn add(&mut self, o: &PlayerStats, sum: fn(&mut f64, f64)) {
        self.games += o.games;
        self.matches += o.matches;
        self.total_moves += o.total_moves;
        self.unforced += o.unforced;
        self.left_out += o.left_out;
        for (a, b) in self.marks.iter_mut().zip(o.marks) {
            *a += b;
        }
        self.cube_total += o.cube_total;
        self.cube_close += o.cube_close;
        self.doubles += o.doubles;
        self.takes += o.takes;
        self.passes += o.passes;
        for (a, b) in self.cube_errors.iter_mut().zip(o.cube_errors) {
            a.0 += b.0;
            sum(&mut a.1, b.1);
            sum(&mut a.2, b.2);
        }
        for (a, b) in self.luck_marks.iter_mut().zip(o.luck_marks) {
            *a += b;
        }
        sum(&mut self.checker_error, o.checker_error);
        sum(&mut self.checker_cost, o.checker_cost);
        sum(&mut self.luck, o.luck);
        sum(&mut self.luck_cost, o.luck_cost);
        sum(&mut self.actual, o.actual);
        sum(&mut self.luck_adjusted, o.luck_adjusted);
        self.moves_both += o.moves_both;
    }

    fn cube_error(&self) -> (f64, f64) {
        self.cube_errors
            .iter()
            .fold((0.0, 0.0), |(e, c), k| (e + k.1, c + k.2))
    }

    fn add_cube_error(&mut self, kind: CubeError, error: f32, cost: f32) {
        let k = &mut self.cube_errors[kind as usize];
        k.0 += 1;
        add32(&mut k.1, f64::from(error));
        add32(&mut k.2, f64::from(cost));
    }
}

/// The kinds of cube error, in gnubg's order.
#[derive(Debug, Clone, Copy)]
enum CubeError {
    MissedDoubleBelowCp,
    MissedDoubleAboveCp,
    WrongDoubleBelowDp,
    WrongDoubleAboveTg,
    WrongTake,
    WrongPass,
}

/// A player's name as the key the run-wide statistics group by: lower
/// case, white space runs made one space, trimmed.
pub fn player_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The run-wide statistics: per player key, the first name written under
/// it, the sums and the match lengths they span; and the `match_hash` of
/// each match summed, so that a match read twice (a copy, or gnubg's
/// `.mat` and SGF of one match) counts once.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayerTotals {
    pub players: BTreeMap<String, (String, PlayerStats, Lengths)>,
    #[serde(default)]
    pub matches: BTreeSet<String>,
}

/// The match lengths a player's sums span, which say the unit of their
/// unnormalised figures: match winning chance for match play, whatever
/// the lengths, points for money play (length 0); none when both mix.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lengths {
    #[default]
    None,
    One(u32),
    /// Match play of several lengths.
    Matches,
    /// Money and match play.
    Mixed,
}

impl Lengths {
    fn with(self, o: Lengths) -> Lengths {
        match (self, o) {
            (Lengths::None, x) | (x, Lengths::None) => x,
            (Lengths::One(a), Lengths::One(b)) if a == b => self,
            (Lengths::Mixed, _) | (_, Lengths::Mixed) => Lengths::Mixed,
            (Lengths::One(0), _) | (_, Lengths::One(0)) => Lengths::Mixed,
            _ => Lengths::Matches,
        }
    }
}

impl PlayerTotals {
    /// Adds one match (`hash` its `match_hash`) of `length` points (0:
    /// money) to `name`'s sums.
    pub fn add(&mut self, hash: &str, name: &str, length: u32, s: &PlayerStats) {
        self.matches.insert(hash.to_string());
        self.sum_into(
            player_key(name),
            || single_line(name),
            s,
            Lengths::One(length),
        );
    }

    /// Adds sums `s` over `lengths` to the player under `key`, named by
    /// `name` if the key is new.
    fn sum_into(
        &mut self,
        key: String,
        name: impl FnOnce() -> String,
        s: &PlayerStats,
        lengths: Lengths,
    ) {
        let e = self
            .players
            .entry(key)
            .or_insert_with(|| (name(), PlayerStats::default(), Lengths::None));
        e.1 += s;
        e.2 = e.2.with(lengths);
    }

    /// The `player`-scope rows, by key: the unnormalised figures where
    /// the matches share a unit, `match_length` where they share a
    /// length.
    pub fn rows(&self) -> Vec<BgStatsRow> {
        self.players
            .iter()
            .map(|(key, (name, s, lengths))| {
                let unit = matches!(lengths, Lengths::One(_) | Lengths::Matches);
                let mut row = stats_row(s, None, None, unit);
                row.scope = "player";
                row.player_name = name.clone();
                row.player_key = key.clone();
                if let Lengths::One(l) = lengths {
                    row.match_length = Some(*l);
                }
                row
            })
            .collect()
    }
}

impl std::ops::AddAssign for PlayerTotals {
    /// Adds `o`, one match's totals (the run adds them in report order),
    /// unless its match was summed before: the first copy counts.
    fn add_assign(&mut self, o: PlayerTotals) {
        if !o.matches.is_empty() && o.matches.is_subset(&self.matches) {
            return;
        }
        self.matches.extend(o.matches);
        for (key, (name, s, lengths)) in o.players {
            self.sum_into(key, || name, &s, lengths);
        }
    }
}

/// What rating a game's plays needs, made once per game: the game's
/// stakes and why none of its plays can be rated, if so.
pub struct PlayRater<'a> {
    settings: &'a CubeSettings<'a>,
    stakes: Stakes,
    unscorable: Option<String>,
}

impl<'a> PlayRater<'a> {
    pub fn new(m: &MatchRecord, g: &AuditedGame, settings: &'a CubeSettings<'a>) -> Self {
        PlayRater {
            settings,
            stakes: stakes(m, g),
            unscorable: unscorable(m, g, settings.met),
        }
    }

    fn ctx(&self, pos: &PlayedPosition) -> CubeContext<'a> {
        CubeContext {
            stakes: self.stakes,
            cube: pos.cube,
            owner: pos.cube_owner,
            met: self.settings.met,
            weights: self.settings.weights,
            deep: self.settings.plies >= 2,
        }
    }

    /// The heavy part of a play's analysis, independent of every other
    /// play's: made for a match's plays in parallel.
    pub fn rate(&self, pos: &PlayedPosition) -> Rating {
        self.rate_ranked(pos).1
    }

    fn rate_ranked(&self, pos: &PlayedPosition) -> (Option<Ranking>, Rating) {
        let plies = self.settings.plies;
        rate(pos, &self.ctx(pos), plies, self.unscorable.as_deref())
    }

    /// One play of game `g` explained (`recount explain --play`): its
    /// `bg_plays.csv` row, as a run writes it, and every legal play of its
    /// roll as the analysis ranked them (none where the roll is not rated).
    pub fn explain(
        &self,
        origin: &Origin,
        m: &MatchRecord,
        g: &AuditedGame,
        pos: &PlayedPosition,
    ) -> (BgPlayRow, Vec<RankedPlay>) {
        let (ranking, rating) = self.rate_ranked(pos);
        let ranked = ranking.map_or_else(Vec::new, |r| {
            let text = |play: &Play| gnubg_notation(&pos.before, pos.player, &play.moves);
            let plays = r.plays.iter().zip(&r.plies);
            plays
                .map(|((play, equity), &plies)| RankedPlay {
                    play: text(play),
                    equity: *equity,
                    plies,
                    played: pos.kind == PlayKind::Legal && play.after == pos.after,
                })
                .collect()
        });
        let mut stats: [PlayerStats; 2] = Default::default();
        let row = play_row(origin, m, g, pos, &self.ctx(pos), rating, &mut stats);
        let row = BgPlayRow {
            plies: u32::from(self.settings.plies),
            ..row
        };
        (row, ranked)
    }
}

/// One legal play of a roll as the analysis ranked it: its text, the
/// mover's normalised equity after it, and the depth it was scored at
/// (plays the move filter leaves out keep their 0-ply score).
#[derive(Debug, Clone, PartialEq)]
pub struct RankedPlay {
    pub play: String,
    pub equity: f32,
    pub plies: u8,
    /// The play recorded.
    pub played: bool,
}

/// The play rows of one game from its plays' ratings (in the game's
/// order), its players' statistics added to `stats` in that order, so
/// the sums are the same whatever the thread count.
pub fn play_rows(
    origin: &Origin,
    m: &MatchRecord,
    g: &AuditedGame,
    rater: &PlayRater,
    ratings: impl IntoIterator<Item = Rating>,
    stats: &mut [PlayerStats; 2],
    mut out: impl FnMut(BgPlayRow),
) {
    for (pos, rating) in g.replayed.positions.iter().zip(ratings) {
        let row = play_row(origin, m, g, pos, &rater.ctx(pos), rating, stats);
        out(BgPlayRow {
            plies: u32::from(rater.settings.plies),
            ..row
        });
    }
    let moves = stats[0].total_moves + stats[1].total_moves;
    for s in stats.iter_mut() {
        s.moves_both = moves;
    }
}

fn stakes(m: &MatchRecord, g: &AuditedGame) -> Stakes {
    if m.length == 0 {
        Stakes::Money(MoneyRules {
            jacoby: g.rules.jacoby,
            beavers: g.rules.beavers,
        })
    } else {
        Stakes::Match(g.match_score(m.length))
    }
}

/// An unnormalised amount: match winning chance in match play, points
/// (times the cube) in money play.
fn cost(ctx: &CubeContext, equity: f32, player: usize) -> f32 {
    ctx.loss_mwc(equity, player)
        .unwrap_or(equity * ctx.cube as f32)
}

/// What the analysis finds of one play, before it is counted: the heavy
/// part ([`PlayRater::rate`]).
pub enum Rating {
    /// The roll could not be rated at all, and why.
    Unrated(String),
    Rated {
        choices: u32,
        best_play: String,
        /// The best play's score: the roll's value.
        best: f32,
        luck: Result<f32, String>,
        /// The rank and score of the recorded play; `None` (with the
        /// reason) when it is not rated.
        chosen: Result<(usize, f32), Option<&'static str>>,
    },
}

/// Why a `????` play's row is empty. gnubg's import drops a roll whose
/// play is not recorded (a record ends so when the player resigns after
/// rolling), so its statistics count neither the move nor its luck; nor
/// do recount's, that they stay gnubg's.
const UNRECORDED: &str = "the record writes '????' instead of the play: neither it nor its \
     roll's luck is rated, and the statistics leave the move out (as gnubg's import drops it)";

/// A play's rating, with its roll's plays ranked (none when not rated).
fn rate(
    pos: &PlayedPosition,
    ctx: &CubeContext,
    plies: u8,
    unscorable: Option<&str>,
) -> (Option<Ranking>, Rating) {
    let p = pos.player;
    let unrated = |why: String| (None, Rating::Unrated(why));
    if !pos.before_known {
        return unrated(
            "the position is unknown: an earlier play is not recorded ('????'), or the game \
             starts from an impossible position (the game's findings say which)"
                .into(),
        );
    }
    if pos.kind == PlayKind::Unrecorded {
        return unrated(UNRECORDED.into());
    }
    if let Some(why) = unscorable {
        return unrated(why.into());
    }
    if !(1..=6).contains(&pos.dice.0) || !(1..=6).contains(&pos.dice.1) {
        return unrated(format!(
            "the dice {}-{} are not two dice",
            pos.dice.0, pos.dice.1
        ));
    }
    let ranked = match ranking(pos, ctx, plies) {
        Ok(r) => r,
        Err(why) => return unrated(why),
    };
    let chosen = match pos.kind {
        PlayKind::Legal if ranked.plays.is_empty() => Ok((1, ranked.best)),
        PlayKind::Legal => ranked.find(&pos.after).ok_or(None),
        PlayKind::Illegal => Err(Some("an illegal play is not rated")),
        PlayKind::Unchecked | PlayKind::Unrecorded => Err(None),
    };
    let rating = Rating::Rated {
        choices: ranked.plays.len() as u32,
        best_play: ranked
            .plays
            .first()
            .map(|(play, _)| gnubg_notation(&pos.before, p, &play.moves))
            .unwrap_or_default(),
        best: ranked.best,
        // Always at 0-ply, as gnubg's: from the roll's 0-ply best.
        luck: luck(&ctx.shallow(), &pos.before, p, pos.dice, ranked.best_static),
        chosen,
    };
    (Some(ranked), rating)
}

/// A roll's plays, ranked at the analysis's depth.
struct Ranking {
    /// Each play with its score, best first.
    plays: Vec<(Play, f32)>,
    /// The depth each play was scored at.
    plies: Vec<u8>,
    /// The roll's value: the best play's score, or with no legal play
    /// the position's as it stands.
    best: f32,
    /// The same at 0-ply as gnubg's luck measures it.
    best_static: f32,
}

impl Ranking {
    /// The rank and score of the play that leads to `after`: 1 + the plays
    /// ahead of it that score strictly better, so plays of equal score
    /// share a rank.
    fn find(&self, after: &Board) -> Option<(usize, f32)> {
        let i = self.plays.iter().position(|(p, _)| p.after == *after)?;
        let score = self.plays[i].1;
        let better = self.plays[..i].iter().filter(|(_, s)| *s > score).count();
        Some((better + 1, score))
    }
}

fn ranking(pos: &PlayedPosition, ctx: &CubeContext, plies: u8) -> Result<Ranking, String> {
    let p = pos.player;
    if plies == 0 {
        let ranked = rank_plays(ctx, &pos.before, p, pos.dice)?;
        let best = match ranked.best() {
            Some(b) => b,
            None => ctx.score_after(&pos.before, p, None)?,
        };
        return Ok(Ranking {
            plies: vec![0; ranked.plays.len()],
            plays: ranked.plays,
            best,
            best_static: best,
        });
    }
    let plied = Plied::new(ctx)?;
    let played = (pos.kind == PlayKind::Legal).then_some(&pos.after);
    let setup = Setup {
        plies,
        filter: LARGE,
        rethink: Skill::THRESHOLDS[0],
    };
    let ranked = plied.rank(&pos.before, p, pos.dice, played, &setup)?;
    let best = match ranked.plays.first() {
        Some((_, s)) => s.cubeful,
        None => plied.score(&pos.before, p, plies, None)?.cubeful,
    };
    Ok(Ranking {
        plies: ranked.plays.iter().map(|(_, s)| s.plies).collect(),
        plays: ranked
            .plays
            .into_iter()
            .map(|(play, s)| (play, s.cubeful))
            .collect(),
        best,
        best_static: roll_value(&ctx.shallow(), &pos.before, p, pos.dice)?,
    })
}

/// The row of one play from its rating, its figures added to `stats` in
/// the game's order.
fn play_row(
    origin: &Origin,
    m: &MatchRecord,
    g: &AuditedGame,
    pos: &PlayedPosition,
    ctx: &CubeContext,
    rating: Rating,
    stats: &mut [PlayerStats; 2],
) -> BgPlayRow {
    let p = pos.player;
    let state = decision_state(m, g, p, (pos.cube, pos.cube_owner), Some(pos.dice));
    let mut row = BgPlayRow {
        game_key: game_key(origin, g.index),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: g.index,
        play: pos.play_no,
        line: pos.line,
        player: p,
        player_name: single_line(&m.players[p]),
        dice: format!("{}{}", pos.dice.0, pos.dice.1),
        position_id: position_id(&pos.before, p),
        match_id: match_id(&state),
        cube: pos.cube,
        cube_owner: pos.cube_owner,
        played: pos.play.clone(),
        ..BgPlayRow::default()
    };
    let recorded = &m.games[g.index as usize - 1].play_analysis;
    if let Some(a) = recorded.iter().find(|a| a.node == pos.line) {
        row.gnubg_eval = a.eval.clone();
        row.gnubg_loss = a.loss;
        row.gnubg_luck = a.luck;
    }
    let xg = &m.games[g.index as usize - 1].xg_plays;
    if let Some(a) = xg.iter().find(|a| a.node == pos.line) {
        row.xg_eval = a.eval.clone();
        (row.xg_error, row.xg_luck) = (single(a.error), single(a.luck));
    }
    let bgblitz = &m.games[g.index as usize - 1].bgblitz_plays;
    if let Some(a) = bgblitz.iter().find(|a| a.node == pos.line) {
        row.bgblitz_eval = a.eval.clone();
        (row.bgblitz_equity, row.bgblitz_loss) = (single(a.equity), single(a.loss));
    }
    if pos.kind != PlayKind::Unrecorded {
        stats[p].total_moves += 1;
    }
    let (choices, best, luck, chosen) = match rating {
        Rating::Unrated(why) => {
            stats[p].left_out += 1;
            row.reason = why;
            return row;
        }
        Rating::Rated {
            choices,
            best_play,
            best,
            luck,
            chosen,
        } => {
            row.best_play = best_play;
            (choices, best, luck, chosen)
        }
    };
    row.choices = Some(choices);
    row.best_equity = Some(best);
    match luck {
        Ok(l) => {
            let class = LuckClass::of(l);
            let c = cost(ctx, l, p);
            row.luck = Some(l);
            row.luck_mwc = ctx.loss_mwc(l, p);
            row.luck_mark = class.name();
            let s = &mut stats[p];
            add32(&mut s.luck, f64::from(l));
            add32(&mut s.luck_cost, f64::from(c));
            s.luck_marks[class as usize] += 1;
            add32(&mut s.luck_adjusted, -f64::from(c));
            add32(&mut stats[1 - p].luck_adjusted, f64::from(c));
        }
        Err(why) => row.reason = why,
    }
    let s = &mut stats[p];
    let (rank, equity) = match chosen {
        Ok(c) => c,
        Err(why) => {
            if let Some(why) = why {
                row.reason = why.into();
            }
            s.left_out += 1;
            return row;
        }
    };
    let loss = best - equity;
    let mark = Skill::of(loss);
    row.rank = Some(rank as u32);
    row.equity = Some(equity);
    row.loss = Some(loss);
    row.loss_mwc = ctx.loss_mwc(loss, p);
    row.mark = mark.name();
    s.marks[mark as usize] += 1;
    if choices > 1 {
        s.unforced += 1;
        add32(&mut s.checker_error, f64::from(loss));
        add32(&mut s.checker_cost, f64::from(cost(ctx, loss, p)));
    }
    row
}

/// Adds a cube decision's errors to its players' statistics, as gnubg's
/// statistics count them: every roll where the roller could double (not
/// at the opening), every double, take and pass.
pub fn count_cube(
    m: &MatchRecord,
    g: &AuditedGame,
    point: &CubePoint,
    row: &BgCubeRow,
    settings: &CubeSettings,
    stats: &mut [PlayerStats; 2],
) {
    let (Some(nd), Some(dt), Some(dp)) = (row.nd, row.dt, row.dp) else {
        return;
    };
    let me = point.player;
    let stakes = stakes(m, g);
    if let (Stakes::Match(at), CubeChoice::NoDouble) = (stakes, point.choice) {
        let c = MatchCube {
            at,
            on_roll: me,
            cube: point.cube,
            owner: point.cube_owner,
        };
        if !c.can_double() {
            return;
        }
    }
    // No cube action before the opening roll.
    if point.board == Board::start() {
        return;
    }
    let ctx = CubeContext {
        stakes,
        cube: point.cube,
        owner: point.cube_owner,
        met: settings.met,
        weights: settings.weights,
        deep: false,
    };
    let optimal = if dt >= nd && dp >= nd { dt.min(dp) } else { nd };
    let close = optimal - dt.min(1.0) < 0.16;
    let s = &mut stats[me];
    s.cube_total += 1;
    match point.choice {
        CubeChoice::NoDouble => {
            s.cube_close += u32::from(close);
            if nd < optimal {
                let kind = if dt > 1.0 {
                    CubeError::MissedDoubleAboveCp
                } else {
                    CubeError::MissedDoubleBelowCp
                };
                let e = optimal - nd;
                s.add_cube_error(kind, e, cost(&ctx, e, me));
            }
        }
        CubeChoice::Double(answer) => {
            s.cube_close += 1;
            s.doubles += 1;
            let e = optimal - dt.min(dp);
            if e > 0.0 {
                let kind = if nd > 1.0 {
                    CubeError::WrongDoubleAboveTg
                } else {
                    CubeError::WrongDoubleBelowDp
                };
                s.add_cube_error(kind, e, cost(&ctx, e, me));
            }
            let t = &mut stats[1 - me];
            match answer {
                Some(Answer::Take | Answer::Beaver) => {
                    t.cube_total += 1;
                    t.cube_close += 1;
                    t.takes += 1;
                    if dt > dp {
                        let e = dt - dp;
                        t.add_cube_error(CubeError::WrongTake, e, cost(&ctx, e, me));
                    }
                }
                Some(Answer::Pass) => {
                    t.cube_total += 1;
                    t.cube_close += 1;
                    t.passes += 1;
                    if dp > dt {
                        let e = dp - dt;
                        t.add_cube_error(CubeError::WrongPass, e, cost(&ctx, e, me));
                    }
                }
                None => {}
            }
        }
    }
}

/// Starts a game's statistics with its result: match winning
/// chance gained in match play (gnubg's `getME` after the game less
/// `getMEAtScore` before it), points in money play.
pub fn count_result(
    m: &MatchRecord,
    g: &AuditedGame,
    settings: &CubeSettings,
    stats: &mut [PlayerStats; 2],
) {
    for s in stats.iter_mut() {
        s.games = 1;
    }
    // A game borne off scores what the board and cube give (the Jacoby
    // rule included), whatever the record claims; others as awarded, in
    // whole multiples of the cube up to a backgammon, as gnubg's `.mat`
    // import reads a resignation (`ParseMatMove`: up to the cube a single,
    // up to twice it a gammon, else a backgammon), so a forfeited match
    // (`Losses 4 point` with the cube at 1) is not won in its statistics.
    let r = &g.replayed;
    let board = match r.ending {
        Ending::BoreOff(_) => r.winner.zip(r.points),
        _ => None,
    };
    let as_gnubg = |(w, p): (usize, u32)| (w, r.cube * p.div_ceil(r.cube).clamp(1, 3));
    let Some((w, points)) = board.or(g.awarded.map(as_gnubg)) else {
        return;
    };
    let won = if m.length == 0 {
        points as f32
    } else {
        let met = settings.met;
        let score = [g.score[0] as i32, g.score[1] as i32];
        let (len, craw) = (m.length as i32, g.crawford_game());
        met.me(score, len, w, points as i32, w, craw) - met.at_score(score, len, w, craw)
    };
    // gnubg starts the luck-adjusted result at the actual one; the rolls'
    // luck comes off it after.
    let won = f64::from(won);
    stats[w].actual = won;
    stats[1 - w].actual = -won;
    stats[w].luck_adjusted = won;
    stats[1 - w].luck_adjusted = -won;
}

/// gnubg 1.08's rating names for an error rate per decision (normalised
/// equity), as the PyPI build `gnubg` 1.1.0a16 prints them.
pub fn rating(rate: f32) -> &'static str {
    const BANDS: [(f32, &str); 5] = [
        (0.005, "Super Grandmaster"),
        (0.008, "Grandmaster"),
        (0.013, "Master"),
        (0.020, "Advanced"),
        (0.032, "Intermediate"),
    ];
    BANDS
        .iter()
        .find(|(limit, _)| rate < *limit)
        .map_or("Beginner", |b| b.1)
}

/// gnubg's luck rating of a luck rate (normalised equity per move):
/// its roll marks' bands ([`LuckClass`]) at ten times the rate
/// (`analysis.c`, `getLuckRating`), under `formatgs.c`'s names.
pub fn luck_rating(rate: f32) -> &'static str {
    match LuckClass::of(rate * 10.0) {
        LuckClass::VeryUnlucky => "Go to bed",
        LuckClass::Unlucky => "Bad dice, man!",
        LuckClass::None => "None",
        LuckClass::Lucky => "Good dice, man!",
        LuckClass::VeryLucky => "Go to Las Vegas",
    }
}

/// The FIBS rating difference a chance `r` of winning an `n`-point match
/// stands for (`analysis.c`, `relativeFibsRating`), at most 2,100 below.
fn relative_fibs_rating(r: f32, n: f32) -> f32 {
    let x = -2000.0 / n.sqrt() * (1.0 / r - 1.0).log10();
    x.max(-2100.0)
}

/// The statistics row of one player's sums `s`, with the opponent's
/// where both play the same games (`game` and `match` scopes);
/// `length` is the match's length (0 for money play; `None` for sums
/// over matches, which leave out the figures made per match); `unit`
/// whether the unnormalised sums share a unit and are written.
pub fn stats_row(
    s: &PlayerStats,
    opponent: Option<&PlayerStats>,
    length: Option<u32>,
    unit: bool,
) -> BgStatsRow {
    // In f32, as gnubg computes them (formatgs.c, analysis.c).
    let per_decision = |total: f64, n: u32| (n > 0).then(|| total as f32 / n as f32);
    let per = |total: f64, n: u32| per_decision(total, n).map(|r| 1000.0 * r);
    let band = |total: f64, n: u32| per_decision(total, n).map_or("", rating);
    let (cube_error, cube_cost) = s.cube_error();
    let error = f64::from(s.checker_error as f32 + cube_error as f32);
    let decisions = s.unforced + s.cube_close;
    let unnormalised = |v: f64| unit.then_some(v as f32);
    let [md_dp, md_tg, wd_dp, wd_tg, wt, wp] = s.cube_errors.map(|k| k.0);
    // Match play: gnubg's ratings after Kees van den Doel, the rating
    // lost to chequer and to cube errors per decision and an absolute
    // rating of 2050 less both (analysis.c, absoluteFibsRating).
    let points = length.filter(|&l| l > 0).map(|l| l as f32);
    let chequer = per_decision(s.checker_error, s.unforced);
    let cube = per_decision(cube_error, s.cube_close);
    let chequer_loss = |r: f32, n: f32| r * (8798.0 + 25526.0 / n);
    let cube_loss = |r: f32, n: f32| r * (863.0 - 519.0 / n);
    let fibs_rating = points.filter(|_| decisions > 0).map(|n| {
        2050.0 - (chequer_loss(chequer.unwrap_or(0.0), n) + cube_loss(cube.unwrap_or(0.0), n))
    });
    // The match winning chance the luck-adjusted result gives (a half
    // plus the result less this player's luck plus the opponent's), as a
    // rating difference; gnubg shows it once a game has a result.
    let luck_based_fibs_rating_diff = points.zip(opponent).and_then(|(n, o)| {
        let r = 0.5 + s.actual as f32 - s.luck_cost as f32 + o.luck_cost as f32;
        ((s.actual > 0.0 || o.actual > 0.0) && r > 0.0 && r < 1.0)
            .then(|| relative_fibs_rating(r, n))
    });
    // Money play of two games or more: the points per game won, and
    // gnubg's 95% confidence half-width from the games' variance.
    let money_games = length == Some(0) && s.games > 1;
    let ppg = |total: f64| money_games.then(|| total as f32 / s.games as f32);
    let ci =
        |variance: f64| money_games.then(|| 1.95996 * (variance as f32 / s.games as f32).sqrt());
    BgStatsRow {
        match_length: length,
        games: s.games,
        matches: s.matches,
        total_moves: s.total_moves,
        unforced_moves: s.unforced,
        moves_left_out: s.left_out,
        moves_unmarked: s.marks[0],
        moves_doubtful: s.marks[1],
        moves_bad: s.marks[2],
        moves_very_bad: s.marks[3],
        checker_error: s.checker_error as f32,
        checker_error_unnormalised: unnormalised(s.checker_cost),
        checker_error_rate: per(s.checker_error, s.unforced),
        checker_rating: band(s.checker_error, s.unforced),
        cube_decisions: s.cube_total,
        close_cube_decisions: s.cube_close,
        doubles: s.doubles,
        takes: s.takes,
        passes: s.passes,
        missed_doubles_below_cp: md_dp,
        missed_doubles_above_cp: md_tg,
        wrong_doubles_below_dp: wd_dp,
        wrong_doubles_above_tg: wd_tg,
        wrong_takes: wt,
        wrong_passes: wp,
        cube_error: cube_error as f32,
        cube_error_unnormalised: unnormalised(cube_cost),
        cube_error_rate: per(cube_error, s.cube_close),
        cube_rating: band(cube_error, s.cube_close),
        error: error as f32,
        error_unnormalised: unnormalised(s.checker_cost + cube_cost),
        error_rate: per(error, decisions),
        snowie_error_rate: per(error, s.moves_both),
        pr: per(error, decisions).map(|r| r / 2.0),
        overall_rating: band(error, decisions),
        rolls_very_unlucky: s.luck_marks[0],
        rolls_unlucky: s.luck_marks[1],
        rolls_unmarked: s.luck_marks[2],
        rolls_lucky: s.luck_marks[3],
        rolls_very_lucky: s.luck_marks[4],
        luck: s.luck as f32,
        luck_unnormalised: unnormalised(s.luck_cost),
        luck_rate: per(s.luck, s.total_moves),
        luck_rating: per_decision(s.luck, s.total_moves).map_or("", luck_rating),
        actual_result: unnormalised(s.actual),
        luck_adjusted_result: unnormalised(s.luck_adjusted),
        fibs_rating,
        checker_rating_loss: points.zip(chequer).map(|(n, r)| chequer_loss(r, n)),
        cube_rating_loss: points.zip(cube).map(|(n, r)| cube_loss(r, n)),
        luck_based_fibs_rating_diff,
        actual_advantage: ppg(s.actual),
        actual_advantage_ci: ci(s.variance_actual),
        luck_adjusted_advantage: ppg(s.luck_adjusted),
        luck_adjusted_advantage_ci: ci(s.variance_luck_adjusted),
        ..BgStatsRow::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_case_and_space() {
        assert_eq!(player_key("  Kit  Woolsey "), "kit woolsey");
        assert_eq!(player_key("KIT\tWOOLSEY"), "kit woolsey");
    }

    #[test]
    fn rating_bands() {
        assert_eq!(rating(0.0027), "Super Grandmaster");
        assert_eq!(rating(0.005), "Grandmaster");
        assert_eq!(rating(0.015), "Advanced");
        assert_eq!(rating(0.05), "Beginner");
    }

    #[test]
    fn a_match_summed_before_is_not_summed_again() {
        let s = PlayerStats {
            games: 3,
            luck: 0.25,
            ..PlayerStats::default()
        };
        let one = |hash: &str, name: &str| {
            let mut t = PlayerTotals::default();
            t.add(hash, name, 7, &s);
            t.add(hash, "opponent", 7, &s);
            t
        };
        let mut run = PlayerTotals::default();
        run += one("h", "Ann");
        run += one("h", "ann (copy)");
        run += one("k", "ANN");
        let (name, sums, _) = &run.players["ann"];
        assert_eq!((name.as_str(), sums.games, sums.luck), ("Ann", 6, 0.5));
        assert_eq!(run.players["opponent"].1.games, 6);
        assert!(!run.players.contains_key("ann (copy)"));
    }

    #[test]
    fn lengths_keep_a_unit_while_all_matches_are_match_play_or_all_money() {
        let of = |ls: &[u32]| {
            ls.iter()
                .fold(Lengths::None, |a, &l| a.with(Lengths::One(l)))
        };
        assert_eq!(of(&[]), Lengths::None);
        assert_eq!(of(&[7, 7]), Lengths::One(7));
        assert_eq!(of(&[0, 0]), Lengths::One(0));
        assert_eq!(of(&[7, 9, 7]), Lengths::Matches);
        assert_eq!(of(&[7, 9, 0]), Lengths::Mixed);
        assert_eq!(of(&[0, 7]), Lengths::Mixed);
        assert_eq!(Lengths::Matches.with(Lengths::One(0)), Lengths::Mixed);
        assert_eq!(Lengths::Mixed.with(Lengths::One(7)), Lengths::Mixed);
    }

    #[test]
    fn luck_ratings_are_the_roll_bands_at_ten_times_the_rate() {
        assert_eq!(luck_rating(-0.07), "Go to bed");
        assert_eq!(luck_rating(-0.04), "Bad dice, man!");
        assert_eq!(luck_rating(0.0), "None");
        assert_eq!(luck_rating(0.025), "None");
        assert_eq!(luck_rating(0.031), "Good dice, man!");
        assert_eq!(luck_rating(0.2), "Go to Las Vegas");
    }

    #[test]
    fn an_even_chance_is_no_rating_difference_and_a_sure_loss_is_bounded() {
        assert_eq!(relative_fibs_rating(0.5, 7.0), 0.0);
        // 3 to 1 in a 4-point match: 2000 / 2 × log10(3).
        assert!((relative_fibs_rating(0.75, 4.0) - 477.12).abs() < 0.01);
        assert_eq!(relative_fibs_rating(1e-6, 1.0), -2100.0);
    }

    #[test]
    fn the_running_variance_is_the_sample_variance() {
        // 2, 4 and 9: mean 5, squares 9 + 1 + 16 over two.
        let (mut variance, mut sum) = (0.0, 0.0);
        for (n, x) in [2.0, 4.0, 9.0].into_iter().enumerate() {
            sum += x;
            update_variance(&mut variance, sum, x, n as u32 + 1);
        }
        assert!((variance - 13.0).abs() < 1e-5, "{variance}");
    }
}
