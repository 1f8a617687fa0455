//! Match play's cube: cubeful match winning chances, cash points worked
//! back through the cube levels from a match equity table, and the
//! decision they give.

use super::decision::{best_action, Naming};
use super::lanes::Lanes;
use super::*;
use crate::bg::cube::met::Met;
use crate::bg::score::MatchScore;
use std::cell::RefCell;
use std::rc::Rc;

/// A match-play cube position, players numbered as in the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchCube {
    pub at: MatchScore,
    pub on_roll: usize,
    pub cube: u32,
    pub owner: Option<usize>,
}

impl MatchCube {
    fn with_cube(self, cube: u32, owner: Option<usize>) -> MatchCube {
        MatchCube {
            cube,
            owner,
            ..self
        }
    }

    fn score_i(&self) -> [i32; 2] {
        [self.at.score[0] as i32, self.at.score[1] as i32]
    }

    /// Whether the cube can still change the result (gnubg's fDoCubeful):
    /// not in the Crawford game, not when either side wins the match with
    /// the cube as it is, not at 2-away 2-away.
    fn live(&self) -> bool {
        let (len, s) = (self.at.length, self.at.score);
        !(s[0] + self.cube >= len && s[1] + self.cube >= len
            || s[0] + 2 == len && s[1] + 2 == len
            || self.at.crawford_game)
    }

    /// Whether the player on roll may double (gnubg's GetDPEq): not in the
    /// Crawford game, not when the cube already wins the match, not as the
    /// post-Crawford leader, and only with access to the cube.
    pub fn can_double(&self) -> bool {
        let (len, s, me) = (self.at.length, self.at.score, self.on_roll);
        !self.at.crawford_game
            && s[me] + self.cube < len
            && !(self.at.post_crawford() && s[me] + 1 == len)
            && self.owner.is_none_or(|o| o == me)
    }

    /// The cube after the player on roll doubles and the opponent takes.
    pub fn doubled(self) -> MatchCube {
        self.with_cube(self.cube * 2, Some(1 - self.on_roll))
    }

    /// The player on roll's match winning chance when a double is passed.
    pub fn pass_mwc(&self, met: &Met) -> f32 {
        self.me(met, self.cube, self.on_roll)
    }

    /// Match winning chance of the player on roll if `who` wins `points`.
    fn me(&self, met: &Met, points: u32, who: usize) -> f32 {
        met.me(
            self.score_i(),
            self.at.length as i32,
            self.on_roll,
            points as i32,
            who,
            self.at.crawford_game,
        )
    }

    /// Equity (per unit cube, −1 = lose the cube's value) → match winning
    /// chance, linear between losing and winning the cube's value.
    pub fn eq2mwc(&self, met: &Met, eq: f32) -> f32 {
        let win = self.me(met, self.cube, self.on_roll);
        let lose = self.me(met, self.cube, 1 - self.on_roll);
        eq2mwc_between(eq, win, lose)
    }

    /// Match winning chance → equity per unit cube.
    pub fn mwc2eq(&self, met: &Met, mwc: f32) -> f32 {
        self.mwc2eq_map(met).of(mwc)
    }

    /// [`MatchCube::mwc2eq`] with its table look-ups made once, for many
    /// chances.
    pub fn mwc2eq_map(&self, met: &Met) -> Mwc2Eq {
        Mwc2Eq {
            win: self.me(met, self.cube, self.on_roll),
            lose: self.me(met, self.cube, 1 - self.on_roll),
        }
    }
}

/// Match winning chance → equity per unit cube, linear between the
/// chances after losing and winning the cube's value
/// ([`MatchCube::mwc2eq_map`]).
#[derive(Debug, Clone, Copy)]
pub struct Mwc2Eq {
    win: f32,
    lose: f32,
}

impl Mwc2Eq {
    #[inline(always)]
    pub fn of<L: Lanes>(&self, mwc: L) -> L {
        (L::splat(2.0) * mwc - L::splat(self.win + self.lose)) / L::splat(self.win - self.lose)
    }
}

/// Cubeless match equity (gnubg's `Utility`): gammons and backgammons at
/// the score's prices.
pub fn match_utility(p: &Probs, c: &MatchCube, met: &Met) -> f32 {
    Prices::of(c, met).utility(p)
}

/// The gammon and backgammon prices of a cube position, looked up once
/// for the cubeless equities of many positions of its player on roll
/// ([`match_utility`], the same bits).
#[derive(Debug, Clone, Copy)]
pub struct Prices {
    price: [f32; 4],
    on_roll: usize,
}

impl Prices {
    pub fn of(c: &MatchCube, met: &Met) -> Prices {
        Prices {
            price: met.prices_at(c.at.score, c.at.length, c.cube, c.at.crawford_game),
            on_roll: c.on_roll,
        }
    }

    pub fn utility(&self, p: &Probs) -> f32 {
        utility_at(p, &self.price, self.on_roll)
    }
}

/// [`match_utility`] at the gammon and backgammon prices `price`.
#[inline(always)]
fn utility_at<L: Lanes>(p: &[L; 5], price: &[f32; 4], me: usize) -> L {
    let them = 1 - me;
    let k = L::splat;
    p[0] * k(2.0) - k(1.0) + p[1] * k(price[me]) - p[3] * k(price[them]) + p[2] * k(price[2 + me])
        - p[4] * k(price[2 + them])
}

/// Equity per unit cube to match winning chance, linear between `lose`
/// and `win` (the chances after losing and winning the cube's value), in
/// gnubg's order of operations (its rounding, to the bit).
#[inline(always)]
fn eq2mwc_between<L: Lanes>(eq: L, win: f32, lose: f32) -> L {
    L::splat(0.5) * (eq * L::splat(win - lose) + L::splat(win + lose))
}

/// Gammon and backgammon rates of the games each player wins, by player.
type Rates<L> = ([L; 2], [L; 2]);

/// Gammon and backgammon rates of the games each player wins (none
/// where the player wins none).
#[inline(always)]
fn rates<L: Lanes>(p: &[L; 5], on_roll: usize) -> Rates<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let (mut g, mut bg) = ([zero; 2], [zero; 2]);
    let wins = zero.lt(p[0]);
    g[on_roll] = L::select(wins, (p[1] - p[2]) / p[0], zero);
    bg[on_roll] = L::select(wins, p[2] / p[0], zero);
    let losses = p[0].lt(one);
    g[1 - on_roll] = L::select(losses, (p[3] - p[4]) / (one - p[0]), zero);
    bg[1 - on_roll] = L::select(losses, p[4] / (one - p[0]), zero);
    (g, bg)
}

/// What a cubeful match winning chance ([`cubeful_mwc`]) reads of the
/// match equity table for one cube position: every look-up of gnubg's
/// formulas, made once for all the positions valued in that cube (the
/// plays of a roll), so that valuing one is arithmetic alone. Each value
/// is the one the formulas would look up, so the results keep their
/// bits.
#[derive(Debug, Clone)]
pub struct MatchCubeTable {
    c: MatchCube,
    /// `c.live()`: a dead cube is valued cubeless.
    live: bool,
    /// Gammon and backgammon prices (`Met::prices_at`).
    price: [f32; 4],
    /// The player on roll's chances after winning and after losing the
    /// cube's value (`eq2mwc`).
    win: f32,
    lose: f32,
    /// The results of the game at this cube (`Met::results`).
    results: [f32; 10],
    /// The cube levels of the cash points, the highest one first: the
    /// first `n_levels`.
    levels: [CashLevel; MOST_LEVELS],
    n_levels: usize,
}

/// Most cube levels of the cash points: one more than the live-cube
/// arrays of gnubg's `GetPoints` hold.
const MOST_LEVELS: usize = 7;

/// One cube level of gnubg's `GetPoints`, for each player `k`: the
/// results at the level, and whether the doubled cube is dead there
/// (then the results at the cube of the opponent's automatic redouble).
#[derive(Debug, Clone, Copy, Default)]
struct CashLevel {
    rows: [([f32; 10], Option<[f32; 10]>); 2],
}

impl MatchCubeTable {
    pub fn new(c: &MatchCube, met: &Met) -> MatchCubeTable {
        let len = c.at.length;
        let i = (len - c.at.score[0] - 1) as i64;
        let j = (len - c.at.score[1] - 1) as i64;
        let cube = c.cube as i64;
        let prime = |a: i64, b: i64, v: i64| if a < 2 * v && b >= 2 * v { 2 * v } else { v };
        let mut n_dead = cube;
        while i >= 2 * n_dead && j >= 2 * n_dead {
            n_dead *= 2;
        }
        let mut levels = [CashLevel::default(); MOST_LEVELS];
        let mut n_levels = 0;
        let mut value = n_dead;
        // A dead cube needs no cash points.
        while c.live() && value >= cube && n_levels < MOST_LEVELS {
            let primes = [prime(i, j, value), prime(j, i, value)];
            let row = |k: usize| {
                let r = met.results(c.at.score, len, value as u32, c.at.crawford_game, k);
                let dead = i < 2 * value || j < 2 * value;
                let rp = dead
                    .then(|| met.results(c.at.score, len, primes[k] as u32, c.at.crawford_game, k));
                (r, rp)
            };
            levels[n_levels] = CashLevel {
                rows: [row(0), row(1)],
            };
            n_levels += 1;
            value >>= 1;
        }
        MatchCubeTable {
            c: *c,
            live: c.live(),
            price: met.prices_at(c.at.score, len, c.cube, c.at.crawford_game),
            win: c.me(met, c.cube, c.on_roll),
            lose: c.me(met, c.cube, 1 - c.on_roll),
            results: met.results(c.at.score, len, c.cube, c.at.crawford_game, c.on_roll),
            levels,
            n_levels,
        }
    }

    /// The table of `c` ([`MatchCubeTable::new`]), kept per thread for the
    /// next positions valued in the same cube: the nodes of a 2-ply tree
    /// use a few cubes, over and over, and every roll's plays are scored
    /// in one or two.
    pub fn shared(c: &MatchCube, met: &Met) -> Rc<MatchCubeTable> {
        const KEPT: usize = 16;
        thread_local! {
            static TABLES: RefCell<Vec<(u64, Rc<MatchCubeTable>)>> = const { RefCell::new(Vec::new()) };
        }
        TABLES.with(|t| {
            let mut t = t.borrow_mut();
            if let Some((_, kept)) = t.iter().find(|(id, kept)| *id == met.id() && kept.c == *c) {
                return Rc::clone(kept);
            }
            if t.len() == KEPT {
                t.remove(0);
            }
            let table = Rc::new(MatchCubeTable::new(c, met));
            t.push((met.id(), Rc::clone(&table)));
            table
        })
    }

    /// [`match_utility`] in this cube.
    #[inline(always)]
    pub fn utility<L: Lanes>(&self, p: &[L; 5]) -> L {
        utility_at(p, &self.price, self.c.on_roll)
    }

    /// [`MatchCube::eq2mwc`] in this cube.
    #[inline(always)]
    pub fn eq2mwc<L: Lanes>(&self, eq: L) -> L {
        eq2mwc_between(eq, self.win, self.lose)
    }

    /// Live-cube cash points of both players at every cube level from this
    /// one up (`[player][level]`, this cube's level 0), worked back from
    /// the highest cube that can still be turned (gnubg's GetPoints);
    /// `rates` of `p` ([`rates`]).
    #[inline(always)]
    fn cash_points<L: Lanes>(&self, rates: &Rates<L>) -> [[L; 8]; 2] {
        let (g, bg) = rates;
        let one = L::splat(1.0);
        let mut live = [[L::splat(0.0); 8]; 2];
        for (nk, level) in self.levels[..self.n_levels].iter().rev().enumerate().rev() {
            for k in 0..2 {
                let o = 1 - k;
                let (row, row_p) = &level.rows[k];
                let r = |i: usize| L::splat(row[i]);
                live[k][nk] = match row_p {
                    // The doubled cube will be dead: use the cube the
                    // opponent's automatic redouble gives.
                    Some(row_p) => {
                        let rp = |i: usize| L::splat(row_p[i]);
                        let dtl = (one - g[o] - bg[o]) * rp(6) + g[o] * rp(8) + bg[o] * rp(9);
                        let dp = r(0);
                        let dtw = (one - g[k] - bg[k]) * rp(1) + g[k] * rp(3) + bg[k] * rp(4);
                        (dtl - dp) / (dtl - dtw)
                    }
                    None => {
                        let rdp = r(6);
                        let dp = r(0);
                        let dtw = (one - g[k] - bg[k]) * r(1) + g[k] * r(3) + bg[k] * r(4);
                        one - live[o][nk + 1] * (dp - dtw) / (rdp - dtw)
                    }
                };
            }
        }
        live
    }

    /// [`cubeful_mwc`] in this cube, and in the cube `doubled` (this one
    /// doubled and taken: its cash points are this cube's next level when
    /// this one has more than one, the same operations on the same
    /// values), each with its cube efficiency.
    #[inline(always)]
    pub fn cubeful_mwc_doubled<L: Lanes>(
        &self,
        doubled: &MatchCubeTable,
        p: &[L; 5],
        x: L,
        x_doubled: L,
    ) -> (L, L) {
        let rates = rates(p, self.c.on_roll);
        // All zero at a dead cube, which has no levels.
        let here = self.cash_points(&rates);
        let nd = self.cubeful_mwc_with(p, x, &rates, [here[0][0], here[1][0]]);
        let points = if self.n_levels > 1 && doubled.c.cube == 2 * self.c.cube {
            [here[0][1], here[1][1]]
        } else {
            let live = doubled.cash_points(&rates);
            [live[0][0], live[1][0]]
        };
        let dt = doubled.cubeful_mwc_with(p, x_doubled, &rates, points);
        (nd, dt)
    }

    /// [`cubeful_mwc`] in this cube.
    #[inline(always)]
    pub fn cubeful_mwc<L: Lanes>(&self, p: &[L; 5], x: L) -> L {
        let rates = rates(p, self.c.on_roll);
        let live = self.cash_points(&rates);
        self.cubeful_mwc_with(p, x, &rates, [live[0][0], live[1][0]])
    }

    /// [`cubeful_mwc`] from `p`'s `rates` and, when the cube is live, the
    /// cash points `cp` at this cube. Where the chance of winning decides
    /// a segment each lane takes its own.
    #[inline(always)]
    fn cubeful_mwc_with<L: Lanes>(&self, p: &[L; 5], x: L, rates: &Rates<L>, cp: [L; 2]) -> L {
        let dead = self.eq2mwc(self.utility(p));
        if !self.live {
            return dead;
        }
        let me = self.c.on_roll;
        let (g, bg) = rates;
        let one = L::splat(1.0);
        let r = |i: usize| L::splat(self.results[i]);
        let win_all = (one - g[me] - bg[me]) * r(0) + g[me] * r(1) + bg[me] * r(2);
        let o = 1 - me;
        let lose_all = (one - g[o] - bg[o]) * r(5) + g[o] * r(6) + bg[o] * r(7);
        let (cash, opp_cash) = (r(0), r(5));
        let w = p[0];
        let live = match self.c.owner {
            None => {
                let opp_tg = one - cp[o];
                let tg = cp[me];
                L::select(
                    w.le(opp_tg),
                    from_loss(lose_all, opp_cash, opp_tg, w),
                    L::select(
                        w.lt(tg),
                        opp_cash + (cash - opp_cash) * (w - opp_tg) / (tg - opp_tg),
                        to_win(cash, win_all, tg, w),
                    ),
                )
            }
            Some(owner) if owner == me => {
                let tg = cp[me];
                L::select(
                    w.le(tg),
                    from_loss(lose_all, cash, tg, w),
                    to_win(cash, win_all, tg, w),
                )
            }
            Some(_) => {
                let opp_tg = one - cp[o];
                L::select(
                    w.le(opp_tg),
                    from_loss(lose_all, opp_cash, opp_tg, w),
                    opp_cash + (win_all - opp_cash) * (w - opp_tg) / (one - opp_tg),
                )
            }
        };
        dead * (one - x) + live * x
    }
}

/// The live cube's chance below a cash point: from `lose_all` at no wins
/// up to `at_point` at winning chance `point` (gnubg's first segment;
/// `lose_all` itself where the point is at zero).
#[inline(always)]
fn from_loss<L: Lanes>(lose_all: L, at_point: L, point: L, w: L) -> L {
    L::select(
        L::splat(0.0).lt(point),
        lose_all + (at_point - lose_all) * w / point,
        lose_all,
    )
}

/// The live cube's chance above the player's own cash point `point`: from
/// `at_point` there up to `win_all` at certain wins (`win_all` itself
/// where the point is at one).
#[inline(always)]
fn to_win<L: Lanes>(at_point: L, win_all: L, point: L, w: L) -> L {
    let one = L::splat(1.0);
    L::select(
        point.lt(one),
        at_point + (win_all - at_point) * (w - point) / (one - point),
        win_all,
    )
}

/// Cubeful match winning chance of the player on roll (gnubg's
/// Cl2CfMatch): the dead-cube chance and a live-cube chance piecewise
/// linear between the cash points, mixed by the cube efficiency `x`.
pub fn cubeful_mwc(p: &Probs, c: &MatchCube, met: &Met, x: f32) -> f32 {
    MatchCubeTable::shared(c, met).cubeful_mwc(p, x)
}

/// A match-play decision: the money-style equities (normalised, per unit
/// cube, as gnubg prints them) and the match winning chances.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchDecision {
    pub decision: Decision,
    pub nd_mwc: f32,
    pub dt_mwc: f32,
    pub dp_mwc: f32,
}

/// The 0-ply match cube decision for the player on roll, with cube
/// efficiency `x`.
pub fn match_decision(p: &Probs, c: &MatchCube, met: &Met, x: f32) -> MatchDecision {
    match_decision_with(p, c, met, x, x)
}

/// gnubg's match-play cube efficiency of a two-sided bearoff position
/// (gnubg's `eval.c`, the `CLASS_BEAROFF_TS` case of the match-play leaf
/// in `EvaluatePositionCubeful3`), for the cube position `owner` (the
/// cube as it is, or after a double: the opponent's): the share of the
/// fully live cube that the database's exact money equity shows,
/// `x = (exact − cubeless) / (live − cubeless)`, kept in `[0, x_max]`
/// (`x_max` is gnubg's `rTSCubeX`, 0.6, the class's efficiency).
///
/// * `win`, `cubeless`: the database's P(win) and cubeless equity (gnubg
///   takes the stored equity, not `2 · win − 1`);
/// * `exact`: the database's money cubeful equity for `owner` (with the
///   player on roll not doubling now, gnubg's `CFMONEY`);
/// * `live`: Janowski's money equity with a fully live cube (efficiency
///   1, cube 1, no Jacoby rule, gnubg's `Cl2CfMoney` with `rCubeX = 1`)
///   for the same `owner`: no gammons here, so the take point is 0.2 and
///   the cash point 0.8.
///
/// When `live` and `cubeless` are within 1e-4 of each other (a certain
/// win or loss, or a chance where the two lines cross, such as 50% with
/// the cube centred) the ratio means nothing and gnubg keeps `x_max`.
pub fn two_sided_efficiency(win: f32, cubeless: f32, exact: f32, owner: Owner, x_max: f32) -> f32 {
    let rules = MoneyRules {
        jacoby: false,
        beavers: false,
    };
    let live = cubeful_equity(&[win, 0.0, 0.0, 0.0, 0.0], owner, rules, 1.0);
    let x = if (cubeless - live).abs() > 0.0001 {
        (exact - cubeless) / (live - cubeless)
    } else {
        x_max
    };
    x.clamp(0.0, x_max)
}

/// The 0-ply match cube decision for the player on roll, with cube
/// efficiency `x_nd` for the cube as it is (no double) and `x_dt` for the
/// doubled cube the opponent owns (double, take): the same in every class
/// but two-sided bearoffs, where gnubg derives each from the cube
/// position's exact money equity ([`two_sided_efficiency`]).
pub fn match_decision_with(
    p: &Probs,
    c: &MatchCube,
    met: &Met,
    x_nd: f32,
    x_dt: f32,
) -> MatchDecision {
    let nd_mwc = cubeful_mwc(p, c, met, x_nd);
    let dt_mwc = cubeful_mwc(p, &c.doubled(), met, x_dt);
    match_decision_from(p, c, met, nd_mwc, dt_mwc)
}

/// The match cube decision for the player on roll from the match winning
/// chances of no double and double/take, however found (0-ply formulas,
/// or a look-ahead); `p` gives the cubeless equity and the names.
pub fn match_decision_from(
    p: &Probs,
    c: &MatchCube,
    met: &Met,
    nd_mwc: f32,
    dt_mwc: f32,
) -> MatchDecision {
    let me = c.on_roll;
    let dp_mwc = c.pass_mwc(met);
    let nd = c.mwc2eq(met, nd_mwc);
    let dt = c.mwc2eq(met, dt_mwc);
    let dp = c.mwc2eq(met, dp_mwc);
    let cubeless = match_utility(p, c, met);
    let owner = match c.owner {
        None => Owner::Centred,
        Some(o) if o == me => Owner::OnRoll,
        Some(_) => Owner::Opponent,
    };
    let decision = if c.can_double() {
        let naming = Naming {
            beavers: false,
            jacoby_centred: false,
            no_wins: p[0] <= 0.0,
        };
        best_action(nd, dt, dp, p[1] > 0.0, naming, cubeless)
    } else {
        Decision {
            cubeless,
            nd,
            dt,
            dp,
            action: if owner == Owner::Opponent {
                Action::NotAvailable
            } else {
                Action::DeadCube
            },
            optimal: nd,
        }
    };
    MatchDecision {
        decision,
        nd_mwc,
        dt_mwc,
        dp_mwc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doubled_cube_shares_the_cash_points_bit_for_bit() {
        let met = crate::bg::cube::met::kazaross_xg2();
        let mut rng = crate::rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.unit();
        let mut shared = 0;
        for (length, score, cube, owner) in [
            (7, [0, 0], 1, None),
            (11, [2, 5], 1, None),
            (15, [3, 3], 2, Some(0)),
            (25, [0, 1], 1, None),
            (5, [3, 0], 1, None),
            (3, [1, 1], 1, None),
        ] {
            let at = MatchScore {
                length,
                score,
                crawford_game: false,
            };
            let c = MatchCube {
                at,
                on_roll: 0,
                cube,
                owner,
            };
            let (t, d) = (
                MatchCubeTable::new(&c, met),
                MatchCubeTable::new(&c.doubled(), met),
            );
            shared += usize::from(t.n_levels > 1);
            for _ in 0..200 {
                let w = next();
                let (g, l) = (w * next() * 0.5, (1.0 - w) * next() * 0.5);
                let p = [w, g, g * next() * 0.2, l, l * next() * 0.2];
                let (x, xd) = (next(), next());
                let (nd, dt) = t.cubeful_mwc_doubled(&d, &p, x, xd);
                assert_eq!(nd.to_bits(), t.cubeful_mwc(&p, x).to_bits(), "{c:?} {p:?}");
                assert_eq!(dt.to_bits(), d.cubeful_mwc(&p, xd).to_bits(), "{c:?} {p:?}");
            }
        }
        assert!(shared >= 3, "the test covers shared cash points");
    }

    #[test]
    fn eq2mwc_rounds_as_gnubg_does() {
        // 3-point match at 0-0, the player on roll owning a 2-cube: gnubg's
        // eq2mwc of these cubeless equities, the bits of its build (1.1.0a16),
        // each one unit in the last place below the algebraically equal
        // 0.5 · ((eq + 1) · win + (1 − eq) · lose).
        let at = MatchScore {
            length: 3,
            score: [0, 0],
            crawford_game: false,
        };
        let c = MatchCube {
            at,
            on_roll: 0,
            cube: 2,
            owner: Some(0),
        };
        let met = crate::bg::cube::met::kazaross_xg2();
        for (eq, mwc) in [
            (0xbf7454cc_u32, 0x3e857686_u32),
            (0xbf73d8e3, 0x3e85b4ab),
            (0xbf738f59, 0x3e85d98c),
        ] {
            assert_eq!(c.eq2mwc(met, f32::from_bits(eq)).to_bits(), mwc);
        }
    }

    #[test]
    fn two_sided_efficiency_is_the_share_of_the_live_cube() {
        // P(win) 0.6, no gammons: cubeless 0.2; the fully live centred cube
        // is linear from (0.2, -1) to (0.8, +1), so worth -1 + 2 * 0.4 / 0.6.
        let (win, cubeless) = (0.6f32, 0.2f32);
        let live = -1.0 + 2.0 * (win - 0.2) / 0.6;
        let at = |share: f32| cubeless + share * (live - cubeless);
        let x = |exact| two_sided_efficiency(win, cubeless, exact, Owner::Centred, 0.6);
        assert!((x(at(0.5)) - 0.5).abs() < 1e-5);
        // Kept within [0, 0.6].
        assert_eq!(x(at(0.9)), 0.6);
        assert_eq!(x(at(-0.3)), 0.0);
        // A certain win: the live equity is the cubeless one, no ratio.
        assert_eq!(two_sided_efficiency(1.0, 1.0, 1.0, Owner::OnRoll, 0.6), 0.6);
        // The opponent's cube: live from (0.2, -1) to (1, +1).
        let live = -1.0 + 2.0 * (win - 0.2) / 0.8;
        let exact = cubeless + 0.25 * (live - cubeless);
        let x = two_sided_efficiency(win, cubeless, exact, Owner::Opponent, 0.6);
        assert!((x - 0.25).abs() < 1e-5, "{x}");
    }
}
