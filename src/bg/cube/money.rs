//! Money play's cube: Janowski's live-cube equity mixed with the dead
//! cube's by the cube efficiency, and the decision it gives.

use super::decision::{best_action, Naming};
use super::*;

/// The money-play rules that change cube values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoneyRules {
    pub jacoby: bool,
    pub beavers: bool,
}

/// Cubeless money equity: 2p − 1 plus gammons and backgammons, each at
/// their price (0 under the Jacoby rule with the cube centred: they do not
/// count).
pub fn cubeless_equity(p: &Probs, owner: Owner, rules: MoneyRules) -> f32 {
    let price = if rules.jacoby && owner == Owner::Centred {
        0.0
    } else {
        1.0
    };
    p[0] * 2.0 - 1.0 + (p[1] - p[3]) * price + (p[2] - p[4]) * price
}

/// Janowski's live-cube equity: piecewise linear in the winning chance
/// between the take point and the cash point.
fn live_equity(w: f32, l: f32, p: f32, owner: Owner, jacoby: bool) -> f32 {
    let tp = (l - 0.5) / (w + l + 0.5);
    let cp = (l + 1.0) / (w + l + 0.5);
    match owner {
        Owner::Centred => {
            if p < tp {
                if jacoby {
                    -1.0
                } else {
                    -l + (-1.0 + l) * p / tp
                }
            } else if p < cp {
                -1.0 + 2.0 * (p - tp) / (cp - tp)
            } else if jacoby {
                1.0
            } else {
                1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
            }
        }
        Owner::OnRoll => {
            if p < cp {
                -l + (1.0 + l) * p / cp
            } else {
                1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
            }
        }
        Owner::Opponent => {
            if p < tp {
                -l + (-1.0 + l) * p / tp
            } else {
                -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)
            }
        }
    }
}

/// Cubeful money equity per unit cube: dead-cube (cubeless) equity and
/// live-cube equity mixed by the cube efficiency `x`.
pub fn cubeful_equity(p: &Probs, owner: Owner, rules: MoneyRules, x: f32) -> f32 {
    let dead = cubeless_equity(p, owner, rules);
    // Without wins (or losses) the cube is as good as dead.
    if p[0] <= 1e-7 || p[0] >= 0.999_999_9 {
        return dead;
    }
    let w = 1.0 + (p[1] + p[2]) / p[0];
    let l = 1.0 + (p[3] + p[4]) / (1.0 - p[0]);
    let live = live_equity(w, l, p[0], owner, rules.jacoby);
    dead * (1.0 - x) + live * x
}

/// The 0-ply money cube decision for the player on roll, with cube
/// efficiency `x` (see `eval`).
pub fn money_decision(p: &Probs, owner: Owner, rules: MoneyRules, x: f32) -> Decision {
    let nd = cubeful_equity(p, owner, rules, x);
    let opponent_owns = cubeful_equity(p, Owner::Opponent, rules, x);
    money_decision_exact(p, nd, opponent_owns, owner, rules)
}

/// A money cube decision from cubeful equities per unit cube (no double
/// with the cube as it is, and with the opponent owning it after a double;
/// DT is twice the second): from the cube formulas in [`money_decision`],
/// or exact ones, as GNU Backgammon takes them from its two-sided bearoff
/// database.
pub fn money_decision_exact(
    p: &Probs,
    nd: f32,
    opponent_owns: f32,
    owner: Owner,
    rules: MoneyRules,
) -> Decision {
    let cubeless = cubeless_equity(p, owner, rules);
    let dt = 2.0 * opponent_owns;
    if owner == Owner::Opponent {
        return Decision {
            cubeless,
            nd,
            dt,
            dp: 1.0,
            action: Action::NotAvailable,
            optimal: nd,
        };
    }
    let naming = Naming {
        beavers: rules.beavers,
        jacoby_centred: rules.jacoby && owner == Owner::Centred,
        no_wins: p[0] <= 0.0,
    };
    best_action(nd, dt, 1.0, p[1] > 0.0, naming, cubeless)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: MoneyRules = MoneyRules {
        jacoby: false,
        beavers: false,
    };

    #[test]
    fn take_and_cash_points_without_gammons() {
        // W = L = 1: take point 0.5/2.5 = 20 %, cash point 2/2.5 = 80 %.
        let at = |p: f32| [p, 0.0, 0.0, 0.0, 0.0];
        let live = |p| cubeful_equity(&at(p), Owner::Opponent, NONE, 1.0);
        assert!((live(0.2) + 1.0).abs() < 1e-6);
        let centred = |p| cubeful_equity(&at(p), Owner::Centred, NONE, 1.0);
        assert!((centred(0.8) - 1.0).abs() < 1e-6);
        assert!((centred(0.5) - 0.0).abs() < 1e-6);
        // Dead cube (x = 0) is the cubeless equity.
        assert!((cubeful_equity(&at(0.7), Owner::Centred, NONE, 0.0) - 0.4).abs() < 1e-6);
    }

    #[test]
    fn actions_across_the_window() {
        let d = |p: f32| money_decision(&[p, 0.0, 0.0, 0.0, 0.0], Owner::Centred, NONE, 0.68);
        assert_eq!(d(0.5).action, Action::NoDoubleTake);
        assert_eq!(d(0.74).action, Action::DoubleTake);
        assert_eq!(d(0.9).action, Action::DoublePass);
        // With gammons, a very strong position is too good to double.
        let g = money_decision(&[0.9, 0.6, 0.0, 0.0, 0.0], Owner::Centred, NONE, 0.68);
        assert_eq!(g.action, Action::TooGoodPass);
        // The opponent's cube: the player on roll cannot double.
        let o = money_decision(&[0.9, 0.0, 0.0, 0.0, 0.0], Owner::Opponent, NONE, 0.68);
        assert_eq!(o.action, Action::NotAvailable);
    }

    #[test]
    fn beaver_relations_hold() {
        let rules = MoneyRules {
            jacoby: true,
            beavers: true,
        };
        let d = money_decision(&[0.6, 0.1, 0.0, 0.05, 0.0], Owner::Centred, rules, 0.68);
        let (take, pass, beaver) = d.taker(rules);
        assert_eq!(take, -d.dt);
        assert_eq!(pass, -1.0);
        assert_eq!(beaver, Some(-2.0 * d.dt));
        let (t2, drop, raccoon) = d.after_beaver();
        assert_eq!((t2, drop, raccoon), (2.0 * d.dt, -1.0, 4.0 * d.dt));
    }
}
