//! The 0-ply cubeful value of a position, as GNU Backgammon scores plays
//! with it (`eval.c`: `ScoreMove`, `EvaluatePositionCubeful4`, `GetECF3`):
//! the position after a play is evaluated for the opponent, now on roll,
//! who then takes the better of not doubling and doubling (when the cube
//! is theirs to turn; the taker answers with the smaller of take and
//! pass); the mover's score is minus that in money play, and in match
//! play one minus that match winning chance, normalised back to equity
//! per unit cube (`mwc2eq`).

use crate::bg::cube::lanes::{F32x16, Lanes, LANES};
use crate::bg::cube::met::Met;
use crate::bg::cube::{
    cubeful_equity, MatchCube, MatchCubeTable, MoneyRules, Mwc2Eq, Owner, Prices, Probs,
};
use crate::bg::eval::bearoff_ts::two_sided;
use crate::bg::eval::gnubg::NetStates;
use crate::bg::eval::nn::Weights;
use crate::bg::eval::{cube_efficiency_deep, evaluate_incrementally, Evaluation};
use crate::bg::position::board::{Board, BAR};
use crate::bg::score::MatchScore;
use std::rc::Rc;

/// The game a play is scored in: money play with its rules, or a match at
/// its score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stakes {
    Money(MoneyRules),
    Match(MatchScore),
}

/// What a play's score depends on besides the board: the game, the cube
/// and the evaluator.
#[derive(Clone, Copy)]
pub struct CubeContext<'a> {
    pub stakes: Stakes,
    pub cube: u32,
    /// The cube's owner (a player), `None` while centred.
    pub owner: Option<usize>,
    pub met: &'a Met,
    /// GNU Backgammon's nets; without them contact positions cannot be
    /// scored.
    pub weights: Option<&'a Weights>,
    /// An evaluation of 2-ply or deeper: gnubg's other cube efficiencies
    /// ([`crate::bg::eval::cube_efficiency_deep`]), at every node of it.
    pub deep: bool,
}

/// A cube state a position is valued in (gnubg's `cubeinfo` within a
/// cubeful evaluation): the cube's value and its owner, `None` while
/// centred. The stakes are the context's; who is on roll, the node's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CubeState {
    pub cube: u32,
    pub owner: Option<usize>,
}

impl CubeState {
    fn owner_seen_by(self, on_roll: usize) -> Owner {
        match self.owner {
            None => Owner::Centred,
            Some(o) if o == on_roll => Owner::OnRoll,
            Some(_) => Owner::Opponent,
        }
    }
}

impl CubeContext<'_> {
    fn match_cube(&self, at: MatchScore, on_roll: usize) -> MatchCube {
        MatchCube {
            at,
            on_roll,
            cube: self.cube,
            owner: self.owner,
        }
    }

    /// This context for a 0-ply evaluation of its own, as gnubg measures
    /// luck within any analysis.
    pub fn shallow(&self) -> Self {
        CubeContext {
            deep: false,
            ..*self
        }
    }

    /// The cube as it is.
    pub fn actual(&self) -> CubeState {
        CubeState {
            cube: self.cube,
            owner: self.owner,
        }
    }

    /// Whether `on_roll` may double in cube state `s` (gnubg's
    /// `GetDPEq`): with access to the cube, and in match play not in the
    /// Crawford game, not with the cube already winning the match and not
    /// as the post-Crawford leader.
    pub fn may_double(&self, s: CubeState, on_roll: usize) -> bool {
        match self.stakes {
            Stakes::Money(_) => s.owner.is_none_or(|o| o == on_roll),
            Stakes::Match(at) => self.state_cube(s, at, on_roll).can_double(),
        }
    }

    fn state_cube(&self, s: CubeState, at: MatchScore, on_roll: usize) -> MatchCube {
        MatchCube {
            at,
            on_roll,
            cube: s.cube,
            owner: s.owner,
        }
    }

    /// State `s` after `on_roll` doubles and the opponent takes.
    fn doubled(s: CubeState, on_roll: usize) -> CubeState {
        CubeState {
            cube: 2 * s.cube,
            owner: Some(1 - on_roll),
        }
    }

    /// What a pass of `on_roll`'s double in state `s` is worth to
    /// `on_roll`: one unit of the cube in money play, the match winning
    /// chance in match play.
    fn pass_value(&self, s: CubeState, on_roll: usize) -> f32 {
        match self.stakes {
            Stakes::Money(_) => 1.0,
            Stakes::Match(at) => self.state_cube(s, at, on_roll).pass_mwc(self.met),
        }
    }

    /// The match table of state `s` with `on_roll` to roll (none in money
    /// play).
    fn table(&self, s: CubeState, on_roll: usize) -> Option<Rc<MatchCubeTable>> {
        match self.stakes {
            Stakes::Money(_) => None,
            Stakes::Match(at) => Some(MatchCubeTable::shared(
                &self.state_cube(s, at, on_roll),
                self.met,
            )),
        }
    }

    /// [`CubeContext::mover_score`]'s conversion for `mover`, made once:
    /// none in money play, `mwc2eq` in match play.
    fn mover_scale(&self, mover: usize) -> Option<Mwc2Eq> {
        match self.stakes {
            Stakes::Money(_) => None,
            Stakes::Match(at) => Some(self.match_cube(at, mover).mwc2eq_map(self.met)),
        }
    }

    /// gnubg's leaf of a cubeful evaluation (`EvaluatePositionCubeful4` at
    /// 0-ply): `board`'s cubeless probabilities for `on_roll`, and its
    /// cubeful value in each cube state of `cubes` (`None`: a state that
    /// does not arise) after `on_roll`'s best cube action there; at the
    /// `top` of a cube decision the cube action is already taken.
    ///
    /// # Errors
    /// As [`CubeContext::on_roll_value`].
    pub fn static_values(
        &self,
        board: &Board,
        on_roll: usize,
        cubes: &[Option<CubeState>],
        top: bool,
        states: Option<&mut NetStates>,
    ) -> Result<(Probs, Vec<Option<f32>>), String> {
        let leaf = self.leaf(board, on_roll, states)?;
        Ok(self.leaf_values(&leaf, cubes, top))
    }

    /// [`CubeContext::static_values`] of a position already evaluated.
    pub fn leaf_values(
        &self,
        leaf: &Leaf,
        cubes: &[Option<CubeState>],
        top: bool,
    ) -> (Probs, Vec<Option<f32>>) {
        let mut values = Vec::with_capacity(cubes.len());
        self.leaf_valuer(cubes, top, leaf.on_roll)
            .values_into(leaf, &mut values);
        (leaf.probs, values)
    }

    /// What [`CubeContext::leaf_values`] needs for `on_roll`'s leaves in
    /// `cubes`, made once for many leaves (the 21 rolls' best plays under
    /// a node of a 2-ply tree): each state, the state after a double where
    /// `on_roll` may double it ([`CubeContext::cube_states_after`]), their
    /// match tables and a pass's value.
    pub fn leaf_valuer(
        &self,
        cubes: &[Option<CubeState>],
        top: bool,
        on_roll: usize,
    ) -> LeafValuer<'_> {
        let states = cubes
            .iter()
            .map(|s| {
                s.map(|s| {
                    let doubled = (!top && self.may_double(s, on_roll)).then(|| {
                        let d = Self::doubled(s, on_roll);
                        (d, self.table(d, on_roll), self.pass_value(s, on_roll))
                    });
                    ValuedState {
                        cube: s,
                        table: self.table(s, on_roll),
                        doubled,
                    }
                })
            })
            .collect();
        LeafValuer {
            ctx: self,
            on_roll,
            states,
        }
    }

    /// `board`'s evaluation for `on_roll`, ready to be valued in any cube
    /// state ([`Leaf::value`]). `states` as in
    /// [`crate::bg::eval::evaluate_incrementally`].
    ///
    /// # Errors
    /// As [`CubeContext::on_roll_value`].
    pub fn leaf(
        &self,
        board: &Board,
        on_roll: usize,
        states: Option<&mut NetStates>,
    ) -> Result<Leaf, String> {
        let eval = evaluate_position(board, on_roll, self.weights, states)?;
        let efficiency = if self.deep {
            cube_efficiency_deep(eval.class, board, on_roll)
        } else {
            eval.efficiency
        };
        // gnubg's two-sided bearoff database holds exact cubeful money
        // equities: used as they are in money play, and to derive the
        // cube efficiency in match play.
        let exact = (eval.evaluator == "gnubg_ts")
            .then(|| two_sided().equities(board, on_roll))
            .flatten();
        Ok(Leaf {
            probs: eval.probs,
            on_roll,
            efficiency,
            exact,
        })
    }

    /// The cubeful value for `on_roll` of `board` with `on_roll` to roll,
    /// after their best cube action: equity per unit cube in money play,
    /// match winning chance in match play.
    ///
    /// # Errors
    /// No evaluator covers the position (contact without nets).
    pub fn on_roll_value(
        &self,
        board: &Board,
        on_roll: usize,
        states: Option<&mut NetStates>,
    ) -> Result<f32, String> {
        Ok(self
            .scorer(on_roll)
            .on_roll_value(&self.leaf(board, on_roll, states)?))
    }

    /// What scoring `on_roll`'s positions in the cube as it is needs,
    /// made once for many positions (the plays of a roll).
    pub fn scorer(&self, on_roll: usize) -> Scorer<'_> {
        let s = self.actual();
        let doubled = self
            .may_double(s, on_roll)
            .then(|| Self::doubled(s, on_roll));
        let cubes = match self.table(s, on_roll) {
            None => Cubes::Money { doubled },
            Some(table) => Cubes::Match {
                table,
                doubled: doubled.map(|d| {
                    let dt = self.table(d, on_roll).expect("a match table");
                    (d, dt, self.pass_value(s, on_roll))
                }),
            },
        };
        Scorer {
            ctx: self,
            on_roll,
            cubes,
            // The mover's scores are made from the opponent's values.
            to_score: self.mover_scale(1 - on_roll),
        }
    }

    /// gnubg's `MakeCubePos`: each state of `cubes` as it stays (no
    /// double) and as it becomes when `on_roll` doubles and is taken,
    /// where they may (never at the `top` of a cube decision).
    pub fn cube_states_after(
        &self,
        cubes: &[Option<CubeState>],
        top: bool,
        on_roll: usize,
    ) -> Vec<Option<CubeState>> {
        cubes
            .iter()
            .flat_map(|&s| {
                let doubled = s
                    .filter(|&s| !top && self.may_double(s, on_roll))
                    .map(|s| Self::doubled(s, on_roll));
                [s, doubled]
            })
            .collect()
    }

    /// gnubg's `GetECF3`: for each state of `cubes`, `on_roll`'s value
    /// after the better of not doubling and doubling, from `values` of
    /// the states [`CubeContext::cube_states_after`] gives (the taker takes
    /// or passes, whichever is worse for the doubler).
    pub fn best_cube_actions(
        &self,
        cubes: &[Option<CubeState>],
        values: &[Option<f32>],
        on_roll: usize,
    ) -> Vec<Option<f32>> {
        cubes
            .iter()
            .zip(values.chunks_exact(2))
            .map(|(&s, v)| {
                let nd = v[0]?;
                Some(match (s, v[1]) {
                    (Some(s), Some(dt)) => {
                        let dt = match self.stakes {
                            Stakes::Money(_) => 2.0 * dt,
                            Stakes::Match(_) => dt,
                        };
                        best_of(nd, dt, self.pass_value(s, on_roll), true)
                    }
                    _ => nd,
                })
            })
            .collect()
    }

    /// The score of the position `after` a play by `mover` (the opponent
    /// to roll next): normalised equity per unit cube for the mover, the
    /// value plays are ranked by. `states` as in
    /// [`crate::bg::eval::evaluate_incrementally`].
    ///
    /// # Errors
    /// As [`CubeContext::on_roll_value`].
    pub fn score_after(
        &self,
        after: &Board,
        mover: usize,
        states: Option<&mut NetStates>,
    ) -> Result<f32, String> {
        Ok(self.leaf_score(&self.leaf(after, 1 - mover, states)?))
    }

    /// [`CubeContext::score_after`] of the position after a play,
    /// evaluated for the opponent ([`CubeContext::leaf`]).
    pub fn leaf_score(&self, after: &Leaf) -> f32 {
        self.scorer(after.on_roll).score(after)
    }

    /// The mover's normalised equity from the opponent's cubeful value
    /// (gnubg's `ScoreMove`: inverted, and in match play `mwc2eq`).
    pub fn mover_score(&self, them: f32, mover: usize) -> f32 {
        scaled(self.mover_scale(mover), them)
    }

    /// gnubg's `UtilityME`: the cubeless equity of `p` for `on_roll`,
    /// money equity in money play (gammons always count), at the score's
    /// gammon prices in match play.
    pub fn utility(&self, p: &Probs, on_roll: usize) -> f32 {
        self.utility_for(on_roll).of(p)
    }

    /// [`CubeContext::utility`] of many positions with `on_roll` to
    /// roll: the match's prices looked up once.
    pub fn utility_for(&self, on_roll: usize) -> Utility {
        match self.stakes {
            Stakes::Money(_) => Utility::Money,
            Stakes::Match(at) => {
                Utility::Match(Prices::of(&self.match_cube(at, on_roll), self.met))
            }
        }
    }

    /// A loss in normalised equity as match winning chance for `mover`
    /// (gnubg's `eq2mwc(loss) − eq2mwc(0)`); `None` in money play.
    pub fn loss_mwc(&self, loss: f32, mover: usize) -> Option<f32> {
        match self.stakes {
            Stakes::Money(_) => None,
            Stakes::Match(at) => {
                let c = self.match_cube(at, mover);
                Some(c.eq2mwc(self.met, loss) - c.eq2mwc(self.met, 0.0))
            }
        }
    }
}

/// gnubg's `UtilityME` for one player on roll
/// ([`CubeContext::utility_for`]).
#[derive(Debug, Clone, Copy)]
pub enum Utility {
    /// Money equity: gammons always count.
    Money,
    /// Match play, at the score's prices.
    Match(Prices),
}

impl Utility {
    pub fn of(&self, p: &Probs) -> f32 {
        match self {
            Utility::Money => p[0] * 2.0 - 1.0 + (p[1] - p[3]) + (p[2] - p[4]),
            Utility::Match(prices) => prices.utility(p),
        }
    }
}

/// gnubg's `GetECF3`: the better of not doubling and doubling for the
/// player on roll, who may double; the taker takes or passes, whichever
/// is worse for the doubler.
fn best_of(nd: f32, dt: f32, dp: f32, may_double: bool) -> f32 {
    if may_double {
        doubler_best(nd, dt, dp)
    } else {
        nd
    }
}

/// [`best_of`] for a player who may double, in lanes.
#[inline(always)]
fn doubler_best<L: Lanes>(nd: L, dt: L, dp: L) -> L {
    L::select(L::and(nd.le(dt), nd.le(dp)), dt.min(dp), nd)
}

/// [`CubeContext::on_roll_value`] and [`CubeContext::score_after`] of
/// positions already evaluated ([`Leaf`]) for one player on roll, in the
/// cube as it is: the cube's table look-ups made once.
pub struct Scorer<'c> {
    ctx: &'c CubeContext<'c>,
    on_roll: usize,
    cubes: Cubes,
    /// In match play, [`CubeContext::mover_score`]'s `mwc2eq` for the
    /// mover.
    to_score: Option<Mwc2Eq>,
}

/// The cubes a [`Scorer`] values positions in.
enum Cubes {
    /// Money play: the cube as it is and, where the player on roll may
    /// double, the doubled cube.
    Money { doubled: Option<CubeState> },
    /// Match play: the cube as it is and, where the player on roll may
    /// double, the doubled cube, each with its table, and a pass's match
    /// winning chance.
    Match {
        table: Rc<MatchCubeTable>,
        doubled: Option<(CubeState, Rc<MatchCubeTable>, f32)>,
    },
}

impl Scorer<'_> {
    /// The cubeful value for the player on roll after their best cube
    /// action (gnubg's `GetECF3`).
    pub fn on_roll_value(&self, leaf: &Leaf) -> f32 {
        debug_assert_eq!(leaf.on_roll, self.on_roll);
        let s = self.ctx.actual();
        match &self.cubes {
            Cubes::Money { doubled } => {
                let nd = leaf.value(self.ctx, s);
                match doubled {
                    Some(d) => best_of(nd, 2.0 * leaf.value(self.ctx, *d), 1.0, true),
                    None => nd,
                }
            }
            Cubes::Match { table, doubled } => {
                let doubled = doubled.as_ref().map(|(d, t, pass)| (*d, &**t, *pass));
                leaf.match_value(table, s, doubled)
            }
        }
    }

    /// The score for the mover of the position after their play, the
    /// player on roll being their opponent.
    pub fn score(&self, after: &Leaf) -> f32 {
        scaled(self.to_score, self.on_roll_value(after))
    }

    /// [`Scorer::score`] of each of `leaves` in turn, to `f`: in match
    /// play sixteen at a time ([`match_values`], the same bits).
    pub fn for_each_score(&self, leaves: &[Leaf], mut f: impl FnMut(f32)) {
        let Cubes::Match { table, doubled } = &self.cubes else {
            return leaves.iter().for_each(|l| f(self.score(l)));
        };
        let doubled = doubled.as_ref().map(|(d, t, pass)| (*d, &**t, *pass));
        let s = self.ctx.actual();
        for chunk in leaves.chunks(LANES) {
            let scores = scaled(self.to_score, match_values(table, s, doubled, chunk));
            scores.0[..chunk.len()].iter().for_each(|&s| f(s));
        }
    }
}

/// The match winning chances of up to sixteen leaves (the last repeated
/// to fill the lanes) for the player on roll in cube state `s` of
/// `table`, after their best cube action where they may double
/// (`doubled`: the doubled state, its table and a pass's value): the
/// operations of [`Scorer::on_roll_value`] in each lane, compiled for
/// AVX-512 where the processor has it. (Without, the lanes in the
/// baseline's 4-wide registers still beat one play at a time: 3.4% at
/// 0-ply in four paired runs; AVX2's 8-wide did no better.)
fn match_values(
    table: &MatchCubeTable,
    s: CubeState,
    doubled: Option<(CubeState, &MatchCubeTable, f32)>,
    leaves: &[Leaf],
) -> F32x16 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the processor has AVX-512F.
        return unsafe { match_values_avx512(table, s, doubled, leaves) };
    }
    match_lanes(table, s, doubled, leaves)
}

/// [`match_lanes`] compiled for AVX-512.
///
/// # Safety
/// The processor has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn match_values_avx512(
    table: &MatchCubeTable,
    s: CubeState,
    doubled: Option<(CubeState, &MatchCubeTable, f32)>,
    leaves: &[Leaf],
) -> F32x16 {
    match_lanes(table, s, doubled, leaves)
}

/// [`match_values`]' arithmetic, inlined into each build of it.
#[inline(always)]
fn match_lanes(
    table: &MatchCubeTable,
    s: CubeState,
    doubled: Option<(CubeState, &MatchCubeTable, f32)>,
    leaves: &[Leaf],
) -> F32x16 {
    let last = leaves.len() - 1;
    let lane = |i: usize| &leaves[i.min(last)];
    let efficiencies = |s: CubeState| F32x16(std::array::from_fn(|i| lane(i).match_efficiency(s)));
    let p: [F32x16; 5] = std::array::from_fn(|k| F32x16(std::array::from_fn(|i| lane(i).probs[k])));
    let doubled = doubled.map(|(d, t, pass)| (t, efficiencies(d), pass));
    match_value(table, &p, efficiencies(s), doubled)
}

/// The match winning chance of the player on roll with chances `p` and
/// cube efficiency `x` in `table`'s cube, after their best cube action
/// where they may double (`doubled`: the doubled cube's table, its
/// efficiency and a pass's value): of one leaf, or of sixteen in lanes.
#[inline(always)]
fn match_value<L: Lanes>(
    table: &MatchCubeTable,
    p: &[L; 5],
    x: L,
    doubled: Option<(&MatchCubeTable, L, f32)>,
) -> L {
    match doubled {
        // Both cubes' values share their work.
        Some((d_table, xd, pass)) => {
            let (nd, dt) = table.cubeful_mwc_doubled(d_table, p, x, xd);
            doubler_best(nd, dt, L::splat(pass))
        }
        None => table.cubeful_mwc(p, x),
    }
}

/// The mover's score from the opponent's value `them`, by
/// [`CubeContext::mover_scale`].
#[inline(always)]
fn scaled<L: Lanes>(scale: Option<Mwc2Eq>, them: L) -> L {
    match scale {
        None => -them,
        Some(m) => m.of(L::splat(1.0) - them),
    }
}

/// [`CubeContext::leaf_valuer`]: the cube states of a node's leaves.
pub struct LeafValuer<'c> {
    ctx: &'c CubeContext<'c>,
    on_roll: usize,
    /// Per state (`None`: one that does not arise).
    states: Vec<Option<ValuedState>>,
}

/// A cube state a leaf is valued in, its match table (none in money
/// play), and where the player on roll may double: the doubled state,
/// its table and the value of a pass.
struct ValuedState {
    cube: CubeState,
    table: Option<Rc<MatchCubeTable>>,
    doubled: Option<(CubeState, Option<Rc<MatchCubeTable>>, f32)>,
}

impl LeafValuer<'_> {
    /// `leaf`'s value in each state after the best cube action there
    /// (gnubg's `GetECF3`), into `out` (emptied first): the values of
    /// [`CubeContext::leaf_values`], the same bits. Each state is valued
    /// as [`Scorer::on_roll_value`] values the cube as it is; the two
    /// made one (a scorer holding one such state) gave the same bits but
    /// ran 3% slower at 0-ply and 1.4% at 2-ply in paired runs.
    pub fn values_into(&self, leaf: &Leaf, out: &mut Vec<Option<f32>>) {
        debug_assert_eq!(leaf.on_roll, self.on_roll);
        out.clear();
        out.extend(self.states.iter().map(|s| {
            let s = s.as_ref()?;
            Some(match (&s.table, &s.doubled) {
                (None, None) => leaf.value(self.ctx, s.cube),
                (None, Some((d, _, pass))) => best_of(
                    leaf.value(self.ctx, s.cube),
                    2.0 * leaf.value(self.ctx, *d),
                    *pass,
                    true,
                ),
                (Some(t), doubled) => {
                    let doubled = doubled.as_ref().map(|(d, dt, pass)| {
                        let dt = dt.as_ref().expect("a match table for each state");
                        (*d, &**dt, *pass)
                    });
                    leaf.match_value(t, s.cube, doubled)
                }
            })
        }));
    }
}

/// A position's evaluation for the player on roll, with what its cubeful
/// value in a cube state needs: everything of a score that does not
/// depend on the match score or the cube.
#[derive(Debug, Clone, Copy)]
pub struct Leaf {
    /// The cubeless probabilities for the player on roll.
    pub probs: Probs,
    on_roll: usize,
    efficiency: f32,
    /// The two-sided bearoff database's exact equities, where it holds
    /// the position.
    exact: Option<crate::bg::eval::bearoff_ts::Equities>,
}

impl Leaf {
    /// [`match_value`] of this leaf in state `s` of `table` (`doubled`:
    /// the doubled state, its table and a pass's value).
    #[inline(always)]
    fn match_value(
        &self,
        table: &MatchCubeTable,
        s: CubeState,
        doubled: Option<(CubeState, &MatchCubeTable, f32)>,
    ) -> f32 {
        let doubled = doubled.map(|(d, t, pass)| (t, self.match_efficiency(d), pass));
        match_value(table, &self.probs, self.match_efficiency(s), doubled)
    }

    /// The cube efficiency in match play in cube state `s`: the two-sided
    /// bearoff database's where it holds the position.
    fn match_efficiency(&self, s: CubeState) -> f32 {
        match self.exact {
            Some(e) => e.match_efficiency(
                self.probs[0],
                s.owner_seen_by(self.on_roll),
                self.efficiency,
            ),
            None => self.efficiency,
        }
    }

    /// The cubeful value in cube state `s` before any cube action: money
    /// equity per unit cube, or match winning chance.
    fn value(&self, ctx: &CubeContext, s: CubeState) -> f32 {
        let p = &self.probs;
        match ctx.stakes {
            Stakes::Money(rules) => {
                let owner = s.owner_seen_by(self.on_roll);
                match self.exact {
                    Some(e) => e.money(owner),
                    None => cubeful_equity(p, owner, rules, self.efficiency),
                }
            }
            Stakes::Match(at) => {
                let x = self.match_efficiency(s);
                let c = ctx.state_cube(s, at, self.on_roll);
                MatchCubeTable::shared(&c, ctx.met).cubeful_mwc(p, x)
            }
        }
    }
}

/// The evaluation of `board` for `on_roll`; a finished game (the opponent
/// has borne off) is a certain loss, a gammon or backgammon as the board
/// shows (gnubg's `EvalOver`), with a dead cube.
fn evaluate_position(
    board: &Board,
    on_roll: usize,
    weights: Option<&Weights>,
    states: Option<&mut NetStates>,
) -> Result<Evaluation, String> {
    let winner = 1 - on_roll;
    if board.on_board(winner) > 0 {
        return evaluate_incrementally(board, on_roll, weights, states);
    }
    let row = &board.checkers[on_roll];
    let gammon = board.off(on_roll) == 0;
    // The winner's home board is the loser's points 19-24.
    let backgammon = gammon && (row[BAR] > 0 || row[18..24].iter().any(|&n| n > 0));
    let g = if gammon { 1.0 } else { 0.0 };
    let bg = if backgammon { 1.0 } else { 0.0 };
    let probs: Probs = [0.0, 0.0, 0.0, g, bg];
    Ok(Evaluation {
        probs,
        class: crate::bg::eval::Class::Over,
        evaluator: "over",
        efficiency: 0.0,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::bg::cube::met::kazaross_xg2;

    /// Money play without Jacoby or beavers, the built-in nets.
    pub(in crate::bg::play) fn money(owner: Option<usize>) -> CubeContext<'static> {
        CubeContext {
            stakes: Stakes::Money(MoneyRules {
                jacoby: false,
                beavers: false,
            }),
            cube: 1,
            owner,
            met: kazaross_xg2(),
            weights: Some(Weights::embedded()),
            deep: false,
        }
    }

    #[test]
    fn the_opponent_doubles_when_it_pays() {
        assert_eq!(best_of(0.5, 0.8, 1.0, true), 0.8);
        assert_eq!(best_of(0.5, 1.2, 1.0, true), 1.0);
        assert_eq!(best_of(0.5, 0.4, 1.0, true), 0.5);
        assert_eq!(best_of(0.5, 0.8, 1.0, false), 0.5);
    }

    #[test]
    fn bearing_off_the_last_checker_wins() {
        // Player 0 has borne off all; player 1 has borne off one.
        let mut b = Board::empty();
        b.checkers[1][0] = 14;
        let ctx = money(None);
        let s = ctx.score_after(&b, 0, None).unwrap();
        assert_eq!(s, 1.0);
        // None borne off: a gammon, 2 points per unit cube.
        b.checkers[1][0] = 15;
        assert_eq!(ctx.score_after(&b, 0, None).unwrap(), 2.0);
        // One left in the winner's home board: a backgammon.
        b.checkers[1][0] = 14;
        b.checkers[1][20] = 1;
        assert_eq!(ctx.score_after(&b, 0, None).unwrap(), 3.0);
    }

    #[test]
    fn a_match_score_is_normalised_equity() {
        let at = MatchScore {
            length: 7,
            score: [0, 0],
            crawford_game: false,
        };
        let ctx = CubeContext {
            stakes: Stakes::Match(at),
            ..money(None)
        };
        let mut b = Board::empty();
        b.checkers[1][0] = 14;
        // A single win at the cube's value is +1 whatever the score.
        assert!((ctx.score_after(&b, 0, None).unwrap() - 1.0).abs() < 1e-6);
        assert!(ctx.loss_mwc(0.1, 0).unwrap() > 0.0);
        assert_eq!(money(None).loss_mwc(0.1, 0), None);
    }

    #[test]
    fn leaves_scored_sixteen_at_a_time_keep_every_bit() {
        let mut rng = crate::rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut unit = move || rng.unit();
        // Edge chances (certain wins and losses, no gammons) among random ones.
        let mut probs: Vec<Probs> = vec![
            [0.0, 0.0, 0.0, 0.3, 0.1],
            [1.0, 0.4, 0.05, 0.0, 0.0],
            [0.5, 0.0, 0.0, 0.0, 0.0],
        ];
        for _ in 0..97 {
            let w = unit();
            let (g, l) = (w * unit(), (1.0 - w) * unit());
            probs.push([w, g, g * unit(), l, l * unit()]);
        }
        let scores = [[0, 0], [3, 5], [5, 6], [6, 6], [0, 6]];
        for (score, crawford) in scores.iter().flat_map(|&s| [(s, false), (s, true)]) {
            for (cube, owner) in [(1, None), (2, Some(0)), (2, Some(1)), (4, Some(1))] {
                let ctx = CubeContext {
                    stakes: Stakes::Match(MatchScore {
                        length: 7,
                        score,
                        crawford_game: crawford,
                    }),
                    cube,
                    owner,
                    ..money(None)
                };
                for on_roll in 0..2 {
                    let leaves: Vec<Leaf> = probs
                        .iter()
                        .map(|&probs| Leaf {
                            probs,
                            on_roll,
                            efficiency: 0.6 + 0.1 * unit(),
                            exact: None,
                        })
                        .collect();
                    let scorer = ctx.scorer(on_roll);
                    let mut batch = Vec::new();
                    scorer.for_each_score(&leaves, |s| batch.push(s));
                    let one: Vec<f32> = leaves.iter().map(|l| scorer.score(l)).collect();
                    // The lanes as the baseline builds them, without AVX-512.
                    let Cubes::Match { table, doubled } = &scorer.cubes else {
                        panic!("match play");
                    };
                    let doubled = doubled.as_ref().map(|(d, t, pass)| (*d, &**t, *pass));
                    let baseline: Vec<f32> = leaves
                        .chunks(LANES)
                        .flat_map(|c| {
                            let v = match_lanes(table, ctx.actual(), doubled, c);
                            scaled(scorer.to_score, v).0[..c.len()].to_vec()
                        })
                        .collect();
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
                    let case = format!("{score:?} {crawford} {cube} {owner:?}");
                    assert_eq!(bits(&batch), bits(&one), "{case}");
                    assert_eq!(bits(&baseline), bits(&one), "{case}");
                }
            }
        }
    }
}
