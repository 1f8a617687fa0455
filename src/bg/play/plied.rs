//! GNU Backgammon's n-ply cubeful evaluation, as its `analyse match`
//! makes it at 2-ply ("world class", `eval.c`):
//!
//! - a position is valued by averaging, over the 21 rolls, the value of
//!   the position after the best play of each roll one ply deeper
//!   (`EvaluatePositionCubeful4`), every cube state at once: at each ply
//!   the player on roll may double where the cube allows, and takes the
//!   better of not doubling and doubling (`MakeCubePos`, `GetECF3`); the
//!   leaves are 0-ply cubeful values ([`CubeContext::leaf_values`]) of
//!   the evaluation that chose their play;
//! - the best play of a roll inside the tree is found with the pruning
//!   nets: every play scored cubelessly by them, the few best then by the
//!   0-ply cubeful score (`FindBestMoveInEval`);
//! - a recorded roll's plays are scored at 0-ply, the ones within the move
//!   filter of the best (16 within 0.32, gnubg's "large" filter for
//!   2-ply) again at full depth, then any play left shallower that ranks
//!   above a deeper one, and the recorded play too, so that its loss is
//!   measured at the deepest ply (`FindnSaveBestMoves`);
//! - every cubeful value of a 2-ply analysis, its 0-ply steps included,
//!   takes gnubg's cube efficiencies for 2-ply and deeper
//!   ([`crate::bg::eval::cube_efficiency_deep`], [`CubeContext::deep`]).

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use crate::bg::cube::Probs;
use crate::bg::eval::gnubg::{classify, pruning_probabilities, GnubgClass, NetStates};
use crate::bg::eval::nn::Pruning;
use crate::bg::play::rolls::with_spare_leaves;
use crate::bg::play::value::{CubeContext, CubeState, Leaf, Stakes};
use crate::bg::position::board::Board;
use crate::bg::position::moves::{legal_plays, legal_positions_into, with_spare_boards};
use crate::bg::position::play::Play;

/// Why a plied analysis cannot be made with nets that lack the pruning
/// nets.
pub const NO_PRUNING: &str = "a plied analysis needs GNU Backgammon's pruning nets, which this \
     weights file lacks (use the built-in nets, or a gnubg.weights with all six nets)";

/// Why a plied analysis cannot be made without nets.
pub const NO_NETS: &str = "not estimated: a plied analysis needs GNU Backgammon's nets, and \
     --no-nets turned them off (drop --no-nets to use the built-in ones, or use --plies 0)";

/// How many of a roll's `n` plays the pruning nets keep: 5 + ⌊log₂ n⌋
/// (gnubg's `MIN_PRUNE_MOVES + LogCube(cMoves)`).
fn kept_by_pruning(n: usize) -> usize {
    5 + n.ilog2() as usize
}

/// gnubg's move filter for one ply: up to `extra` plays within
/// `threshold` of the best go one ply deeper.
#[derive(Debug, Clone, Copy)]
pub struct MoveFilter {
    pub extra: usize,
    pub threshold: f32,
}

/// The "large" filter gnubg's analysis uses at 2-ply (`MOVEFILTER_LARGE`:
/// 16 plays within 0.32 after 0-ply, no 1-ply step).
pub const LARGE: MoveFilter = MoveFilter {
    extra: 16,
    threshold: 0.32,
};

/// How deep a recorded roll's plays are scored (gnubg's analysis
/// settings for chequer play).
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    pub plies: u8,
    pub filter: MoveFilter,
    /// A played move that loses more than this at 0-ply, when the filter
    /// passes only the best, is scored again at full depth with the best
    /// (gnubg passes its doubtful threshold).
    pub rethink: f32,
}

/// A play's score as gnubg keeps it (`rScore`, `rScore2`): the mover's
/// normalised cubeful equity it is ranked by, the cubeless equity that
/// breaks ties, and the depth it was scored at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub cubeful: f32,
    pub cubeless: f32,
    pub plies: u8,
}

impl Score {
    /// gnubg's `CompareMoves`: `self` ranks above `other`.
    fn above(&self, other: &Score) -> bool {
        self.cubeful > other.cubeful
            || (self.cubeful == other.cubeful && self.cubeless > other.cubeless)
    }
}

/// A recorded roll's plays as gnubg's analysis leaves them.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// Each play and its score, best first (the deep ones ahead).
    pub plays: Vec<(Play, Score)>,
}

/// The n-ply evaluator of one game's cube context.
pub struct Plied<'a> {
    ctx: &'a CubeContext<'a>,
    pruning: &'a Pruning,
    /// This thread's cache of the context, held while the evaluator
    /// lives (every node and search asks it: no lookup of the thread's
    /// store each time), then handed back ([`Drop`]).
    cache: RefCell<Cache>,
    context: Context,
}

impl<'a> Plied<'a> {
    /// # Errors
    /// Why not, without GNU Backgammon's nets ([`NO_NETS`]) or their
    /// pruning nets ([`NO_PRUNING`]).
    pub fn new(ctx: &'a CubeContext<'a>) -> Result<Plied<'a>, &'static str> {
        let weights = ctx.weights.ok_or(NO_NETS)?;
        let pruning = weights.pruning.as_ref().ok_or(NO_PRUNING)?;
        let context = Context::of(ctx);
        Ok(Plied {
            ctx,
            pruning,
            cache: RefCell::new(take_cache(&context)),
            context,
        })
    }

    /// The score of the position `after` a play by `mover`, `plies` deep
    /// (gnubg's `ScoreMove`); `states` for the incremental 0-ply
    /// evaluation of a roll's plays.
    ///
    /// # Errors
    /// A position no evaluator covers.
    pub fn score(
        &self,
        after: &Board,
        mover: usize,
        plies: u8,
        states: Option<&mut NetStates>,
    ) -> Result<Score, String> {
        let them = 1 - mover;
        let (p, values) = if plies == 0 {
            self.ctx
                .static_values(after, them, &[Some(self.ctx.actual())], false, states)?
        } else {
            self.value(after, them, &[Some(self.ctx.actual())], plies, false)?
        };
        let v = values[0].expect("the cube as it is");
        Ok(Score {
            cubeful: self.ctx.mover_score(v, mover),
            cubeless: -self.ctx.utility(&p, them),
            plies,
        })
    }

    /// `board`'s cubeless probabilities for `on_roll` and its cubeful
    /// values in each state of `cubes`, `plies` deep
    /// (`EvaluatePositionCubeful4`); `top` as in
    /// [`CubeContext::static_values`].
    ///
    /// # Errors
    /// A position no evaluator covers.
    pub fn value(
        &self,
        board: &Board,
        on_roll: usize,
        cubes: &[Option<CubeState>],
        plies: u8,
        top: bool,
    ) -> Result<(Probs, Vec<Option<f32>>), String> {
        let key = ValueKey::new(board, on_roll, cubes, plies, top);
        if let Some(hit) = key.and_then(|k| self.cached(|c| c.values.get(&k).cloned())) {
            return Ok(hit);
        }
        let value = self.value_uncached(board, on_roll, cubes, plies, top)?;
        if let Some(k) = key {
            self.cached(|c| c.keep_value(k, value.clone()));
        }
        Ok(value)
    }

    fn value_uncached(
        &self,
        board: &Board,
        on_roll: usize,
        cubes: &[Option<CubeState>],
        plies: u8,
        top: bool,
    ) -> Result<(Probs, Vec<Option<f32>>), String> {
        let class = classify(board, on_roll);
        // Exact two-sided bearoffs end the tree in money play.
        let exact = class == GnubgClass::Bearoff2 && matches!(self.ctx.stakes, Stakes::Money(_));
        if plies == 0 || class == GnubgClass::Over || exact {
            return self.ctx.static_values(board, on_roll, cubes, top, None);
        }
        let next = self.ctx.cube_states_after(cubes, top, on_roll);
        let mut probs = [0.0f32; 5];
        let mut sums = vec![0.0f32; next.len()];
        // The leaves one ply down, all for the opponent, share their cube
        // states.
        let leaves = (plies == 1).then(|| self.ctx.leaf_valuer(&next, false, 1 - on_roll));
        let mut leaf_values = Vec::with_capacity(next.len());
        for d0 in 1..=6u8 {
            for d1 in 1..=d0 {
                let w = if d0 == d1 { 1.0 } else { 2.0 };
                let (after, leaf) = self.best_play(board, on_roll, (d0, d1))?;
                // A leaf is valued from the incremental evaluation that
                // chose its play, not evaluated again in full as gnubg's
                // uncached run does (the last bits differ: a score by up
                // to about 1e-5).
                let deeper;
                let (p, v) = match (leaf, &leaves) {
                    (Some(leaf), Some(leaves)) => {
                        leaves.values_into(&leaf, &mut leaf_values);
                        (leaf.probs, &leaf_values)
                    }
                    _ => {
                        deeper = self.value(&after, 1 - on_roll, &next, plies - 1, false)?;
                        (deeper.0, &deeper.1)
                    }
                };
                for (s, x) in probs.iter_mut().zip(p) {
                    *s += w * x;
                }
                for (s, x) in sums.iter_mut().zip(v) {
                    *s += w * x.unwrap_or(0.0);
                }
            }
        }
        // Back to `on_roll`'s side; gnubg's build divides by 36 as a
        // multiplication by its reciprocal.
        let sixth = |x: f32| x * (1.0 / 36.0);
        let probs = [
            1.0 - sixth(probs[0]),
            sixth(probs[3]),
            sixth(probs[4]),
            sixth(probs[1]),
            sixth(probs[2]),
        ];
        let values: Vec<Option<f32>> = next
            .iter()
            .zip(sums)
            .map(|(s, v)| {
                s.map(|_| match self.ctx.stakes {
                    Stakes::Money(_) => -sixth(v),
                    Stakes::Match(_) => 1.0 - sixth(v),
                })
            })
            .collect();
        Ok((probs, self.ctx.best_cube_actions(cubes, &values, on_roll)))
    }

    /// The position after `mover`'s best play of `dice` inside the tree
    /// (`FindBestMoveInEval`): a forced play as it is, a roll that cannot
    /// be played leaves the board; with more plays than
    /// [`kept_by_pruning`] the pruning nets pick those the opponent likes
    /// least, and the best of those by the 0-ply cubeful score is played.
    /// With it the evaluation that chose it, where plays were scored.
    fn best_play(
        &self,
        board: &Board,
        mover: usize,
        dice: (u8, u8),
    ) -> Result<(Board, Option<Leaf>), String> {
        let key = (*board, mover as u8, dice);
        if let Some(hit) = self.cached(|c| c.replies.get(&key).copied()) {
            return Ok(hit);
        }
        let best = self.best_play_uncached(board, mover, dice)?;
        self.cached(|c| c.keep_reply(key, best));
        Ok(best)
    }

    fn best_play_uncached(
        &self,
        board: &Board,
        mover: usize,
        dice: (u8, u8),
    ) -> Result<(Board, Option<Leaf>), String> {
        with_spare_boards(|plays| {
            legal_positions_into(board, mover, dice, plays);
            self.best_of(board, mover, plays)
        })
    }

    /// [`Plied::best_play_uncached`] among the legal `plays`.
    fn best_of(
        &self,
        board: &Board,
        mover: usize,
        plays: &mut Vec<Board>,
    ) -> Result<(Board, Option<Leaf>), String> {
        match plays.len() {
            0 => return Ok((*board, None)),
            1 => return Ok((plays[0], None)),
            n if n > kept_by_pruning(n) => {
                if let Some(kept) = self.prune(plays, mover) {
                    // The kept ones after all of them, then all dropped.
                    let all = plays.len();
                    for i in kept {
                        plays.push(plays[i]);
                    }
                    plays.drain(..all);
                }
            }
            _ => {}
        }
        // The plays' 0-ply scores, as [`Plied::score`] makes them, from
        // one scorer; the cubeless tie-break only where it is needed.
        let them = 1 - mover;
        let scorer = self.ctx.scorer(them);
        let utility = self.ctx.utility_for(them);
        let cubeless = |leaf: &Leaf| -utility.of(&leaf.probs);
        with_spare_leaves(|leaves| {
            let mut states = NetStates::default();
            for after in plays.iter() {
                leaves.push(self.ctx.leaf(after, them, Some(&mut states))?);
            }
            let mut best: Option<(usize, f32)> = None;
            let mut i = 0;
            scorer.for_each_score(leaves, |score| {
                let above = match best {
                    None => true,
                    Some((_, b)) if score != b => score > b,
                    Some((b, _)) => cubeless(&leaves[i]) > cubeless(&leaves[b]),
                };
                if above {
                    best = Some((i, score));
                }
                i += 1;
            });
            let (i, _) = best.expect("plays to choose from");
            Ok((plays[i], Some(leaves[i])))
        })
    }

    /// The indices of the plays the pruning nets keep, in gnubg's
    /// order (its `bmovesi`: the worst kept first); `None` where gnubg
    /// scores every play instead: plays that end in a bearoff or a finished
    /// game, or in positions of different classes.
    fn prune(&self, plays: &[Board], mover: usize) -> Option<Vec<usize>> {
        let them = 1 - mover;
        let class = classify(&plays[0], them);
        if matches!(
            class,
            GnubgClass::Over | GnubgClass::Bearoff2 | GnubgClass::Bearoff1
        ) {
            return None;
        }
        if plays[1..]
            .iter()
            .any(|after| classify(after, them) != class)
        {
            return None;
        }
        let utility = self.ctx.utility_for(them);
        let mut probs = Vec::with_capacity(plays.len());
        pruning_probabilities(self.pruning, plays, them, class, &mut probs);
        let scores: Vec<f32> = probs.iter().map(|p| utility.of(p)).collect();
        // The opponent's cubeless equity: the kept plays are those it is
        // lowest after; kept[0] is the worst of them.
        let pm = kept_by_pruning(plays.len());
        let mut kept = vec![0usize; pm];
        for (i, &score) in scores.iter().enumerate() {
            if i < pm {
                kept[i] = i;
                if score > scores[kept[0]] {
                    kept[i] = kept[0];
                    kept[0] = i;
                }
            } else if score < scores[kept[0]] {
                kept[0] = i;
                let mut m = 0;
                for k in 1..pm {
                    if scores[kept[k]] > scores[kept[m]] {
                        m = k;
                    }
                }
                kept[0] = kept[m];
                kept[m] = i;
            }
        }
        Some(kept)
    }

    /// Every legal play of a recorded roll, scored as gnubg's analysis
    /// scores them (`FindnSaveBestMoves`): all at 0-ply, best first; those
    /// the setup's filter passes at its depth, then those
    /// [`Plied::lift_shallow`] lifts; and the `played` one at the
    /// deepest ply any play reached, or with the best at full depth when
    /// the filter passed only the best and the played one lost more than
    /// the setup's `rethink` at 0-ply.
    ///
    /// # Errors
    /// A position no evaluator covers.
    pub fn rank(
        &self,
        before: &Board,
        mover: usize,
        dice: (u8, u8),
        played: Option<&Board>,
        setup: &Setup,
    ) -> Result<Ranked, String> {
        let Setup {
            plies,
            filter,
            rethink,
        } = *setup;
        let mut states = NetStates::default();
        let mut plays = Vec::new();
        for play in legal_plays(before, mover, dice) {
            let s = self.score(&play.after, mover, 0, Some(&mut states))?;
            plays.push((play, s));
        }
        sort(&mut plays);
        if plays.is_empty() || plies == 0 {
            return Ok(Ranked { plays });
        }
        let best = plays[0].1.cubeful;
        let deep = plays
            .iter()
            .take(filter.extra)
            .take_while(|(_, s)| s.cubeful >= best - filter.threshold)
            .count();
        let mut deepest = 0;
        if deep > 1 {
            for (play, s) in &mut plays[..deep] {
                *s = self.score(&play.after, mover, plies, None)?;
            }
            sort(&mut plays[..deep]);
            deepest = plies;
            self.lift_shallow(&mut plays, mover)?;
        }
        let Some(i) = played.and_then(|b| plays.iter().position(|(p, _)| p.after == *b)) else {
            return Ok(Ranked { plays });
        };
        let mut scored = if deepest == 0 { 1 } else { deep };
        let mut moved = false;
        if plays[i].1.plies < deepest {
            plays[i].1 = self.score(&plays[i].0.after, mover, deepest, None)?;
            moved = true;
        }
        if (plays[i].1.cubeful - plays[0].1.cubeful).abs() > rethink && deepest < plies {
            plays[0].1 = self.score(&plays[0].0.after, mover, plies, None)?;
            plays[i].1 = self.score(&plays[i].0.after, mover, plies, None)?;
            scored = 1;
            moved = true;
        }
        // Only a play behind the deep ones is scored again: it joins them.
        if moved {
            let p = plays.remove(i);
            plays.insert(scored, p);
            sort(&mut plays[..=scored]);
        }
        Ok(Ranked { plays })
    }
}

impl Plied<'_> {
    /// gnubg's analysis rule that no play scored at a shallower ply may
    /// rank above one scored deeper (`FindnSaveBestMoves` with
    /// `fAnalyse`): wherever a play ranks above the deeper play before
    /// it, it and every later play scoring above the lowest score met so
    /// far (that play's, then each one scored again) are scored at that
    /// play's depth; the list is sorted again, until nothing changes.
    fn lift_shallow(&self, plays: &mut [(Play, Score)], mover: usize) -> Result<(), String> {
        loop {
            let mut changed = false;
            for i in 1..plays.len() {
                let prev = plays[i - 1].1;
                if plays[i].1.plies < prev.plies && plays[i].1.cubeful > prev.cubeful {
                    changed = true;
                    let mut limit = prev.cubeful;
                    for (play, s) in &mut plays[i..] {
                        if s.cubeful > limit {
                            // A play already that deep keeps its score.
                            if s.plies < prev.plies {
                                *s = self.score(&play.after, mover, prev.plies, None)?;
                            }
                            limit = limit.min(s.cubeful);
                        }
                    }
                }
            }
            sort(plays);
            if !changed {
                return Ok(());
            }
        }
    }

    /// `f` on this evaluator's cache.
    fn cached<T>(&self, f: impl FnOnce(&mut Cache) -> T) -> T {
        f(&mut self.cache.borrow_mut())
    }
}

impl Drop for Plied<'_> {
    fn drop(&mut self) {
        let cache = std::mem::take(self.cache.get_mut());
        CACHES.with(|c| {
            let mut c = c.borrow_mut();
            // One cache a context: an evaluator made while another of its
            // context lived (and so started empty) replaces that one's.
            if let Some(i) = c.iter().position(|(k, _)| *k == self.context) {
                c.remove(i);
            } else if c.len() >= MOST_CONTEXTS {
                c.remove(0);
            }
            c.push((self.context, cache));
        });
    }
}

/// This thread's cache of `context`, taken out of its store: the one
/// kept, or an empty one. Where the store is full, the oldest context's
/// maps, emptied, keep their room: grown again from nothing, their
/// rehashing cost about 2% of a 2-ply analysis (a match meets a new
/// context at each score and cube).
fn take_cache(context: &Context) -> Cache {
    CACHES.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(i) = c.iter().position(|(k, _)| k == context) {
            return c.remove(i).1;
        }
        if c.len() >= MOST_CONTEXTS {
            let (_, mut oldest) = c.remove(0);
            oldest.clear();
            return oldest;
        }
        Cache::default()
    })
}

/// What every cached value depends on besides its position: the game's
/// stakes, the cube, the cube efficiencies, the table and the nets.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Context {
    stakes: Stakes,
    cube: CubeState,
    deep: bool,
    met: u64,
    nets: usize,
}

impl Context {
    fn of(ctx: &CubeContext) -> Context {
        Context {
            stakes: ctx.stakes,
            cube: ctx.actual(),
            deep: ctx.deep,
            met: ctx.met.id(),
            nets: ctx.weights.map_or(0, |w| w as *const _ as usize),
        }
    }
}

/// The most cube states a node of a 2-ply tree carries (a cube decision's
/// two, doubled at each ply).
const MOST_STATES: usize = 8;

/// A node of the tree: its position, who is on roll, its cube states,
/// depth and whether it is the top of a cube decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ValueKey {
    board: Board,
    on_roll: u8,
    plies: u8,
    top: bool,
    states: u8,
    /// Each state's cube value and owner (0 for a state that does not
    /// arise, 1 centred, 2 + the owner), packed small: the key is hashed
    /// and moved for every node.
    cubes: [u32; MOST_STATES],
    owners: [u8; MOST_STATES],
}

impl ValueKey {
    /// `None` for a node with more states than a key holds (not cached).
    fn new(
        board: &Board,
        on_roll: usize,
        cubes: &[Option<CubeState>],
        plies: u8,
        top: bool,
    ) -> Option<ValueKey> {
        let mut key = ValueKey {
            board: *board,
            on_roll: on_roll as u8,
            plies,
            top,
            states: cubes.len() as u8,
            cubes: [0; MOST_STATES],
            owners: [0; MOST_STATES],
        };
        for (i, s) in cubes.iter().enumerate() {
            let i = (i < MOST_STATES).then_some(i)?;
            if let Some(s) = s {
                key.cubes[i] = s.cube;
                key.owners[i] = s.owner.map_or(1, |o| 2 + o as u8);
            }
        }
        Some(key)
    }
}

/// Most entries of each map of a context's cache before it is emptied.
const MOST_ENTRIES: usize = 1 << 16;

/// The contexts a thread keeps caches for, the oldest dropped first: a
/// game's cube decisions and plays meet a few cubes (the cube turned
/// and turned back), and a play's tree repeats the cube decision's after
/// it. With [`MOST_ENTRIES`], at most about 120 MB a thread.
const MOST_CONTEXTS: usize = 4;

/// A best reply's position, mover and dice.
type ReplyKey = (Board, u8, (u8, u8));

/// One thread's values of a context: each a pure function of its key, so
/// a hit gives the bits a new evaluation would, whichever play, game or
/// thread filled it.
#[derive(Default)]
struct Cache {
    replies: FxHashMap<ReplyKey, (Board, Option<Leaf>)>,
    values: FxHashMap<ValueKey, (Probs, Vec<Option<f32>>)>,
}

impl Cache {
    fn clear(&mut self) {
        self.replies.clear();
        self.values.clear();
    }

    fn keep_reply(&mut self, key: ReplyKey, best: (Board, Option<Leaf>)) {
        if self.replies.len() >= MOST_ENTRIES {
            self.replies.clear();
        }
        self.replies.insert(key, best);
    }

    fn keep_value(&mut self, key: ValueKey, value: (Probs, Vec<Option<f32>>)) {
        if self.values.len() >= MOST_ENTRIES {
            self.values.clear();
        }
        self.values.insert(key, value);
    }
}

thread_local! {
    static CACHES: RefCell<Vec<(Context, Cache)>> = const { RefCell::new(Vec::new()) };
}

/// Best first by gnubg's `CompareMoves`, equal plays in their order.
fn sort(plays: &mut [(Play, Score)]) {
    plays.sort_by(|a, b| {
        if b.1.above(&a.1) {
            std::cmp::Ordering::Greater
        } else if a.1.above(&b.1) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::cube::met::kazaross_xg2;
    use crate::bg::eval::nn::Weights;
    use crate::bg::position::ids::{board_from_position_id, match_state_from_id};
    use crate::bg::score::MatchScore;

    #[test]
    fn no_shallower_play_ranks_above_a_deeper_one() {
        // A 21 of a 7-point match (fixtures/bg/real, BoardLord - Llabba,
        // game 1, play 13): 13/11 6/5 is 23rd at 0-ply, behind the 16 the
        // filter sends to 2-ply, but its 0-ply score is above the 2-ply
        // scores of some of them; scored at 2-ply it is the best,
        // -0.332704 in gnubg's `analyse match`, ahead of 6/4 6/5 (-0.337874).
        let (pid, mid) = ("sc5mBgBsvYLBAA", "MAHlAAAAAAAE");
        let m = match_state_from_id(mid).unwrap();
        let before = board_from_position_id(pid, m.on_roll).unwrap();
        let ctx = CubeContext {
            stakes: Stakes::Match(MatchScore {
                length: m.match_length,
                score: m.score,
                crawford_game: m.crawford,
            }),
            cube: m.cube,
            owner: m.cube_owner,
            met: kazaross_xg2(),
            weights: Some(Weights::embedded()),
            deep: true,
        };
        let plied = Plied::new(&ctx).unwrap();
        let setup = Setup {
            plies: 2,
            filter: LARGE,
            rethink: 0.03,
        };
        let ranked = plied
            .rank(&before, m.on_roll, m.dice.unwrap(), None, &setup)
            .unwrap();
        let deep: Vec<f32> = ranked
            .plays
            .iter()
            .filter(|(_, s)| s.plies == 2)
            .map(|(_, s)| s.cubeful)
            .collect();
        // gnubg scores 28 of the 36 plays at 2-ply.
        assert_eq!((deep.len(), ranked.plays.len()), (28, 36));
        assert!((deep[0] - -0.332704).abs() < 1e-6, "{}", deep[0]);
        assert!((deep[1] - -0.337874).abs() < 1e-6, "{}", deep[1]);
        assert_eq!(
            crate::bg::position::notation::gnubg_notation(
                &before,
                m.on_roll,
                &ranked.plays[0].0.moves
            ),
            "13/11 6/5"
        );
    }
}
