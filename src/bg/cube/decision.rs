//! The proper cube action from the no double, double/take and
//! double/pass equities, in GNU Backgammon's words, money and match play
//! alike, with the beaver and raccoon options of seed
//! `backgammon-cube-beavers-raccoons.txt`.

use super::*;

/// GNU Backgammon's names of cube decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    DoubleTake,
    DoublePass,
    NoDoubleTake,
    TooGoodTake,
    TooGoodPass,
    DoubleBeaver,
    NoDoubleBeaver,
    OptionalDoubleTake,
    OptionalDoublePass,
    OptionalDoubleBeaver,
    /// The player on roll may not double (the opponent owns the cube).
    NotAvailable,
    /// Match play: the cube cannot be turned to any use (Crawford game, a
    /// cube that already wins the match, the post-Crawford leader).
    DeadCube,
}

impl Action {
    /// The action as GNU Backgammon writes it; `redouble` when the player
    /// on roll owns the cube.
    pub fn name(self, owner: Owner) -> &'static str {
        let re = owner == Owner::OnRoll;
        match (self, re) {
            (Action::DoubleTake, false) => "Double, take",
            (Action::DoubleTake, true) => "Redouble, take",
            (Action::DoublePass, false) => "Double, pass",
            (Action::DoublePass, true) => "Redouble, pass",
            (Action::NoDoubleTake, false) => "No double, take",
            (Action::NoDoubleTake, true) => "No redouble, take",
            (Action::TooGoodTake, false) => "Too good to double, take",
            (Action::TooGoodTake, true) => "Too good to redouble, take",
            (Action::TooGoodPass, false) => "Too good to double, pass",
            (Action::TooGoodPass, true) => "Too good to redouble, pass",
            (Action::DoubleBeaver, _) => "Double, beaver",
            (Action::NoDoubleBeaver, false) => "No double, beaver",
            (Action::NoDoubleBeaver, true) => "No redouble, beaver",
            (Action::OptionalDoubleTake, false) => "Optional double, take",
            (Action::OptionalDoubleTake, true) => "Optional redouble, take",
            (Action::OptionalDoublePass, false) => "Optional double, pass",
            (Action::OptionalDoublePass, true) => "Optional redouble, pass",
            (Action::OptionalDoubleBeaver, _) => "Optional double, beaver",
            (Action::NotAvailable, _) => "Cube not available",
            (Action::DeadCube, false) => "Never double, take (dead cube)",
            (Action::DeadCube, true) => "Never redouble, take (dead cube)",
        }
    }

    /// Whether the proper action is to double (optional doubles count).
    pub fn doubles(self) -> bool {
        matches!(
            self,
            Action::DoubleTake
                | Action::DoublePass
                | Action::DoubleBeaver
                | Action::OptionalDoubleTake
                | Action::OptionalDoublePass
                | Action::OptionalDoubleBeaver
        )
    }

    /// Whether the taker should pass a double.
    pub fn passes(self) -> bool {
        matches!(
            self,
            Action::DoublePass | Action::TooGoodPass | Action::OptionalDoublePass
        )
    }
}

/// A cube decision, equities per unit cube for the player on roll (in
/// match play normalised equities, as gnubg prints them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    pub cubeless: f32,
    pub nd: f32,
    pub dt: f32,
    pub dp: f32,
    pub action: Action,
    /// The equity of the proper action.
    pub optimal: f32,
}

impl Decision {
    /// The taker's options after a double (seed
    /// `backgammon-cube-beavers-raccoons.txt`): take = −DT, pass = −1,
    /// beaver = −2·DT (only with beavers allowed).
    pub fn taker(&self, rules: MoneyRules) -> (f32, f32, Option<f32>) {
        (-self.dt, -self.dp, rules.beavers.then_some(-2.0 * self.dt))
    }

    /// The doubler's options after a beaver: take = 2·DT, drop = −1,
    /// raccoon = 4·DT.
    pub fn after_beaver(&self) -> (f32, f32, f32) {
        (2.0 * self.dt, -1.0, 4.0 * self.dt)
    }
}

/// Two equities gnubg treats as equal when telling optional doubles.
fn same(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1.0e-5
}

/// What changes the names of decisions: beavers (money play only) and the
/// Jacoby rule with a centred cube (no optional double/pass then).
#[derive(Debug, Clone, Copy)]
pub(super) struct Naming {
    pub(super) beavers: bool,
    pub(super) jacoby_centred: bool,
    /// The player on roll cannot win.
    pub(super) no_wins: bool,
}

/// The proper action from ND, DT and DP, in GNU Backgammon's terms ("too
/// good" needs gammon chances; beaver cases when beavers are allowed and
/// the take is worth between −2 and 0; equities within 1e-5 make a double
/// optional).
pub(super) fn best_action(
    nd: f32,
    dt: f32,
    dp: f32,
    gammons: bool,
    n: Naming,
    cubeless: f32,
) -> Decision {
    let mk = |action, optimal| Decision {
        cubeless,
        nd,
        dt,
        dp,
        action,
        optimal,
    };
    let beaverable = n.beavers && (-2.0..=0.0).contains(&dt);
    // Without any winning chance a double cannot gain: gnubg names such a
    // tie (ND = DT, both a certain loss) "no double".
    if n.no_wins && same(dt, nd) {
        let action = if beaverable {
            Action::NoDoubleBeaver
        } else {
            Action::NoDoubleTake
        };
        return mk(action, nd);
    }
    if dt >= nd && dp >= nd {
        if dp > dt {
            let optional = same(dt, nd);
            if beaverable {
                if dt * 2.0 < nd {
                    return mk(Action::NoDoubleBeaver, dt);
                }
                return mk(
                    if optional {
                        Action::OptionalDoubleBeaver
                    } else {
                        Action::DoubleBeaver
                    },
                    dt,
                );
            }
            return mk(
                if optional {
                    Action::OptionalDoubleTake
                } else {
                    Action::DoubleTake
                },
                dt,
            );
        }
        let optional = same(nd, dp) && gammons && !n.jacoby_centred;
        return mk(
            if optional {
                Action::OptionalDoublePass
            } else {
                Action::DoublePass
            },
            dp,
        );
    }
    let too_good = |take: bool| match (gammons, take) {
        (true, true) => Action::TooGoodTake,
        (true, false) => Action::TooGoodPass,
        (false, true) => Action::NoDoubleTake,
        (false, false) => Action::DoublePass,
    };
    if nd > dt {
        if dt > dp {
            return mk(too_good(false), nd);
        }
        if nd > dp {
            return mk(too_good(true), nd);
        }
        return mk(
            if beaverable {
                Action::NoDoubleBeaver
            } else {
                Action::NoDoubleTake
            },
            nd,
        );
    }
    // DT >= ND > DP: too good, pass.
    mk(too_good(false), nd)
}
