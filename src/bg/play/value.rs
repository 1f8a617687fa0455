//! The 0-ply cubeful value of a position, as GNU Backgammon scores plays
//! with it (`eval.c`: `ScoreMove`, `EvaluatePositionCubeful4`, `GetECF3`):
//! the position after a play is evaluated for the opponent, now on roll,
//! who then takes the better of not doubling and doubling (when the cube
//! is theirs to turn; the taker answers with the smaller of take and
//! pass); the mover's score is minus that in money play, and in match
//! play one minus that match winning chance, normalised back to equity
//! per unit cube (`mwc2eq`).

use crate::bg::cube::met::Met;
use crate::bg::cube::{
    cubeful_mwc, money_decision, money_decision_exact, MatchCube, MoneyRules, Owner, Probs,
};
use crate::bg::eval::bearoff_ts::two_sided;
use crate::bg::eval::gnubg::NetStates;
use crate::bg::eval::nn::Weights;
use crate::bg::eval::{evaluate_incrementally, Evaluation};
use crate::bg::position::board::{Board, BAR};
use crate::bg::score::MatchScore;

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
}

impl CubeContext<'_> {
    fn owner_seen_by(&self, on_roll: usize) -> Owner {
        match self.owner {
            None => Owner::Centred,
            Some(o) if o == on_roll => Owner::OnRoll,
            Some(_) => Owner::Opponent,
        }
    }

    fn match_cube(&self, at: MatchScore, on_roll: usize) -> MatchCube {
        MatchCube {
            at,
            on_roll,
            cube: self.cube,
            owner: self.owner,
        }
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
        let eval = evaluate_position(board, on_roll, self.weights, states)?;
        let p = eval.probs;
        let owner = self.owner_seen_by(on_roll);
        // gnubg's two-sided bearoff database holds exact cubeful money
        // equities: used as they are in money play, and to derive the
        // cube efficiency in match play.
        let exact = (eval.evaluator == "gnubg_ts")
            .then(|| two_sided().equities(board, on_roll))
            .flatten();
        match self.stakes {
            Stakes::Money(rules) => {
                let d = match exact {
                    Some(e) => {
                        money_decision_exact(&p, e.money(owner), e.opponent_owns, owner, rules)
                    }
                    None => money_decision(&p, owner, rules, eval.efficiency),
                };
                let may_double = owner != Owner::Opponent;
                Ok(best_of(d.nd, d.dt, d.dp, may_double))
            }
            Stakes::Match(at) => {
                let c = self.match_cube(at, on_roll);
                let (x_nd, x_dt) = match exact {
                    Some(e) => e.match_efficiencies(p[0], owner, eval.efficiency),
                    None => (eval.efficiency, eval.efficiency),
                };
                let nd = cubeful_mwc(&p, &c, self.met, x_nd);
                if !c.can_double() {
                    return Ok(nd);
                }
                let dt = cubeful_mwc(&p, &c.doubled(), self.met, x_dt);
                Ok(best_of(nd, dt, c.pass_mwc(self.met), true))
            }
        }
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
        let them = self.on_roll_value(after, 1 - mover, states)?;
        Ok(match self.stakes {
            Stakes::Money(_) => -them,
            Stakes::Match(at) => self.match_cube(at, mover).mwc2eq(self.met, 1.0 - them),
        })
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

/// gnubg's `GetECF3`: the better of not doubling and doubling for the
/// player on roll, who may double; the taker takes or passes, whichever
/// is worse for the doubler.
fn best_of(nd: f32, dt: f32, dp: f32, may_double: bool) -> f32 {
    if may_double && dt >= nd && dp >= nd {
        dt.min(dp)
    } else {
        nd
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
mod tests {
    use super::*;
    use crate::bg::cube::met::kazaross_xg2;

    fn money(owner: Option<usize>) -> CubeContext<'static> {
        CubeContext {
            stakes: Stakes::Money(MoneyRules {
                jacoby: false,
                beavers: false,
            }),
            cube: 1,
            owner,
            met: kazaross_xg2(),
            weights: Some(Weights::embedded()),
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
}
