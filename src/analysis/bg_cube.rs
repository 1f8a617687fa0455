//! Cube analysis rows (`bg_cube.csv`): for each cube decision the replay
//! kept, the position's evaluation, the no double / double, take / double,
//! pass equities, the proper action, the action taken and what it cost.

use crate::bg::cube::met::Met;
use crate::bg::cube::{
    match_decision_from, match_decision_with, money_decision, money_decision_exact, Decision,
    MatchCube, MoneyRules, Owner, Probs,
};
use crate::bg::eval::bearoff_ts::two_sided;
use crate::bg::eval::nn::Weights;
use crate::bg::eval::{classify, evaluate_with, Evaluation};
use crate::bg::game::audit::AuditedGame;
use crate::bg::game::record::MatchRecord;
use crate::bg::game::replay::{Answer, CubeChoice, CubePoint};
use crate::bg::play::plied::Plied;
use crate::bg::play::value::{CubeContext, CubeState, Stakes};
use crate::bg::position::ids::{match_id, position_id, GameState, MatchState};
use crate::ingest::Origin;
use crate::report::keys::game_key;
use crate::report::BgCubeRow;

/// What the cube analysis evaluates with.
#[derive(Clone, Copy)]
pub struct CubeSettings<'a> {
    /// The match equity table for match-play decisions.
    pub met: &'a Met,
    /// GNU Backgammon's nets (none with `--no-nets`: contact positions are
    /// not estimated).
    pub weights: Option<&'a Weights>,
    /// The look-ahead of the play and cube analysis (`--plies`): 0, or
    /// gnubg's n-ply evaluation with its pruning nets ([`crate::bg::play::plied`]).
    pub plies: u8,
}

/// The row of one cube decision, and whether it was evaluated (a row that
/// was not says why in its reason).
pub fn cube_row(
    origin: &Origin,
    m: &MatchRecord,
    g: &AuditedGame,
    point: &CubePoint,
    settings: &CubeSettings,
) -> (BgCubeRow, bool) {
    let met = settings.met;
    let me = point.player;
    let owner = owner_seen(point);
    let money = m.length == 0;
    let state = decision_state(m, g, me, (point.cube, point.cube_owner), None);
    let mut row = BgCubeRow {
        game_key: game_key(origin, g.index),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: g.index,
        line: point.line,
        player: me,
        match_length: m.length,
        away_on_roll: (!money).then(|| m.length.saturating_sub(g.score[me])),
        away_opponent: (!money).then(|| m.length.saturating_sub(g.score[1 - me])),
        crawford: g.crawford.name(),
        jacoby: money && g.rules.jacoby,
        beavers: money && g.rules.beavers,
        cube: point.cube,
        cube_owner: point.cube_owner,
        position_id: position_id(&point.board, me),
        match_id: match_id(&state),
        actual_action: actual(point.choice),
        ..BgCubeRow::default()
    };
    let recorded = &m.games[g.index as usize - 1].cube_analysis;
    if let Some(a) = recorded.iter().find(|a| a.node == point.line) {
        row.gnubg_eval = a.eval.clone();
        row.gnubg_p_win = Some(a.no_double[0]);
        row.gnubg_nd = Some(a.no_double[6]);
        row.gnubg_dt = Some(a.double_take[6]);
    }
    let xg = &m.games[g.index as usize - 1].xg_cubes;
    if let Some(a) = xg.iter().find(|a| a.node == point.line) {
        row.xg_eval = a.eval.clone();
        (row.xg_p_win, row.xg_nd, row.xg_dt) = (a.p_win, a.nd, a.dt);
        (row.xg_double_error, row.xg_take_error) = (single(a.double_error), single(a.take_error));
    }
    row.class = classify(&point.board).name();
    let eval = match evaluate_with(&point.board, me, settings.weights) {
        Ok(e) => e,
        Err(why) => {
            row.reason = why;
            return (row, false);
        }
    };
    if let Some(why) = unscorable(m, g, met) {
        row.reason = why;
        return (row, false);
    }
    row.evaluator = eval.evaluator;
    row.plies = u32::from(settings.plies);
    let rules = MoneyRules {
        jacoby: g.rules.jacoby,
        beavers: g.rules.beavers,
    };
    let c = MatchCube {
        at: g.match_score(m.length),
        on_roll: me,
        cube: point.cube,
        owner: point.cube_owner,
    };
    let decided = if settings.plies > 0 {
        plied_decision(point, settings, money, rules, &c)
    } else {
        Ok(static_decision(
            point,
            &eval,
            settings.met,
            money,
            rules,
            &c,
        ))
    };
    let (p, d, mwc, efficiency) = match decided {
        Ok(v) => v,
        Err(why) => {
            row.reason = why;
            return (row, false);
        }
    };
    row.efficiency = efficiency;
    [
        row.p_win,
        row.p_win_gammon,
        row.p_win_backgammon,
        row.p_lose_gammon,
        row.p_lose_backgammon,
    ] = p.map(Some);
    fill_equities(&mut row, &d, money && g.rules.beavers, owner);
    if let Some((nd, dt, dp)) = mwc {
        row.nd_mwc = Some(nd);
        row.dt_mwc = Some(dt);
        row.dp_mwc = Some(dp);
        // Errors in match winning chance: the doubler maximises, the taker
        // minimises the doubler's chance.
        let double = dt.min(dp);
        let best = nd.max(double);
        if let CubeChoice::Double(answer) = point.choice {
            row.doubler_error_mwc = Some(best - double);
            // A beaver has no match-play value (it is not allowed there).
            row.taker_error_mwc = answer.and_then(|a| match a {
                Answer::Take => Some(dt - double),
                Answer::Pass => Some(dp - double),
                Answer::Beaver => None,
            });
        } else {
            row.doubler_error_mwc = Some(best - nd);
        }
    }
    (row, true)
}

/// Another program's stored value (XG's, BGBlitz's) in the reports'
/// single precision.
pub fn single(v: Option<f64>) -> Option<f32> {
    v.map(|v| v as f32)
}

/// The cube's owner seen from the player who may double.
fn owner_seen(point: &CubePoint) -> Owner {
    match point.cube_owner {
        None => Owner::Centred,
        Some(o) if o == point.player => Owner::OnRoll,
        Some(_) => Owner::Opponent,
    }
}

/// A decision's cubeless probabilities, its equities (with match winning
/// chances in match play) and the 0-ply cube efficiency, when there is one.
type Decided = (Probs, Decision, Option<(f32, f32, f32)>, Option<f32>);

/// The 0-ply decision, from the cube formulas. gnubg's two-sided bearoff
/// database holds exact cubeful money equities: gnubg uses them instead
/// of the formulas in money play, and derives the cube efficiency from
/// them in match play.
fn static_decision(
    point: &CubePoint,
    eval: &Evaluation,
    met: &Met,
    money: bool,
    rules: MoneyRules,
    c: &MatchCube,
) -> Decided {
    let me = point.player;
    let owner = owner_seen(point);
    let p = eval.probs;
    let exact = (eval.evaluator == "gnubg_ts")
        .then(|| two_sided().equities(&point.board, me))
        .flatten();
    if money {
        let d = match exact {
            Some(e) => money_decision_exact(&p, e.money(owner), e.opponent_owns, owner, rules),
            None => money_decision(&p, owner, rules, eval.efficiency),
        };
        return (p, d, None, Some(eval.efficiency));
    }
    // Two-sided bearoffs: the efficiency of each cube position from the
    // exact money equity with that cube owner (the doubled cube is the
    // opponent's); the report gives the no-double one.
    let (x_nd, x_dt) = match exact {
        Some(e) => e.match_efficiencies(p[0], owner, eval.efficiency),
        None => (eval.efficiency, eval.efficiency),
    };
    let md = match_decision_with(&p, c, met, x_nd, x_dt);
    (
        p,
        md.decision,
        Some((md.nd_mwc, md.dt_mwc, md.dp_mwc)),
        Some(x_nd),
    )
}

/// The decision at the settings' look-ahead, as gnubg's
/// `GeneralCubeDecisionE`: no double and double/take valued together
/// ([`Plied::value`] at the top of the tree).
fn plied_decision(
    point: &CubePoint,
    settings: &CubeSettings,
    money: bool,
    rules: MoneyRules,
    c: &MatchCube,
) -> Result<Decided, String> {
    let me = point.player;
    let ctx = CubeContext {
        stakes: if money {
            Stakes::Money(rules)
        } else {
            Stakes::Match(c.at)
        },
        cube: point.cube,
        owner: point.cube_owner,
        met: settings.met,
        weights: settings.weights,
        deep: settings.plies >= 2,
    };
    let plied = Plied::new(&ctx)?;
    let states = [
        Some(ctx.actual()),
        Some(CubeState {
            cube: 2 * point.cube,
            owner: Some(1 - me),
        }),
    ];
    let (p, v) = plied.value(&point.board, me, &states, settings.plies, true)?;
    let (nd, dt) = (v[0].expect("no double"), v[1].expect("double, take"));
    let owner = owner_seen(point);
    if money {
        return Ok((
            p,
            money_decision_exact(&p, nd, dt, owner, rules),
            None,
            None,
        ));
    }
    let md = match_decision_from(&p, c, settings.met, nd, dt);
    Ok((
        p,
        md.decision,
        Some((md.nd_mwc, md.dt_mwc, md.dp_mwc)),
        None,
    ))
}

/// The match state of a decision by `on_roll` (the game under way) for
/// its Match ID: the cube as `(value, owner)`, the dice when rolled.
pub fn decision_state(
    m: &MatchRecord,
    g: &AuditedGame,
    on_roll: usize,
    (cube, cube_owner): (u32, Option<usize>),
    dice: Option<(u8, u8)>,
) -> MatchState {
    MatchState {
        on_roll,
        turn: on_roll,
        dice,
        cube,
        cube_owner,
        crawford: g.crawford_game(),
        state: GameState::Playing,
        double_offered: false,
        resignation: 0,
        match_length: m.length,
        score: g.score,
        jacoby: g.rules.jacoby,
        cube_limit: 1024,
    }
}

/// Why a match-play game's decisions have no match winning chances: a
/// match longer than the table, or a game played after the match was won.
pub fn unscorable(m: &MatchRecord, g: &AuditedGame, met: &Met) -> Option<String> {
    if m.length == 0 {
        return None;
    }
    if m.length as usize > met.length {
        return Some(format!(
            "a {}-point match is longer than the match equity table ({} points)",
            m.length, met.length
        ));
    }
    let [a, b] = g.score;
    (a >= m.length || b >= m.length).then(|| {
        format!(
            "the game is played after the match was won ({a}-{b} in a {}-point match)",
            m.length
        )
    })
}

fn actual(choice: CubeChoice) -> &'static str {
    match choice {
        CubeChoice::NoDouble => "No double",
        CubeChoice::Double(None) => "Double",
        CubeChoice::Double(Some(Answer::Take)) => "Double, take",
        CubeChoice::Double(Some(Answer::Pass)) => "Double, pass",
        CubeChoice::Double(Some(Answer::Beaver)) => "Double, beaver",
    }
}

/// Equities, the taker's options and the errors, per unit cube.
fn fill_equities(row: &mut BgCubeRow, d: &Decision, beavers: bool, owner: Owner) {
    row.cubeless = Some(d.cubeless);
    row.nd = Some(d.nd);
    row.dt = Some(d.dt);
    row.dp = Some(d.dp);
    row.take = Some(-d.dt);
    row.pass = Some(-d.dp);
    if beavers {
        row.beaver = Some(-2.0 * d.dt);
        row.raccoon = Some(4.0 * d.dt);
    }
    row.proper_action = d.action.name(owner);
    // What the double is worth to the doubler: the taker answers with the
    // option worst for the doubler.
    let mut double = d.dt.min(d.dp);
    if beavers {
        double = double.min(2.0 * d.dt);
    }
    let best = d.nd.max(double);
    match row.actual_action {
        "No double" => row.doubler_error = Some(best - d.nd),
        _ => {
            row.doubler_error = Some(best - double);
            let taker_best = double;
            row.taker_error = match row.actual_action {
                "Double, take" => Some(d.dt - taker_best),
                "Double, pass" => Some(d.dp - taker_best),
                "Double, beaver" => Some(2.0 * d.dt - taker_best),
                _ => None,
            };
        }
    }
}
