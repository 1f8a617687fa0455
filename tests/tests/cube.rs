//! Cube math against GNU Backgammon: fed gnubg's own 0-ply probabilities,
//! our no double / double, take / double, pass equities and proper action
//! equal its `eval` output (`fixtures/expected/bg-cube-cases.csv`, made by
//! `scripts/gnubg_cube_oracle.py`), for money (Jacoby on and off, beavers)
//! and match play (several scores, Crawford and post-Crawford); and our
//! bearoff database and race evaluator against its values.

use super::util;

use super::util::{csv_file, repo};
use recount::bg::cube::met::kazaross_xg2;
use recount::bg::cube::{match_decision, money_decision, MatchCube, MoneyRules, Owner};
use recount::bg::eval::bearoff::one_sided;
use recount::bg::eval::race::race_probabilities;
use recount::bg::eval::{classify, cube_efficiency, Class};
use recount::bg::position::ids::board_from_position_id;
use recount::bg::score::MatchScore;
use std::collections::HashMap;

type Row = HashMap<String, String>;

fn f(r: &Row, c: &str) -> f32 {
    r[c].trim_start_matches('+').parse().unwrap()
}

fn class_of(evaluator: &str) -> Option<Class> {
    match evaluator {
        "contact" | "crashed" => Some(Class::Contact),
        "race" => Some(Class::Race),
        "bearoff_os" => Some(Class::Bearoff),
        // gnubg evaluates two-sided bearoffs from exact cubeful equities
        // in its two-sided database, not with the cube formulas: the
        // tests two_sided_bearoff_* below.
        _ => None,
    }
}

#[test]
fn cube_decisions_equal_gnubg_at_0_ply() {
    let cases = csv_file(&repo().join("fixtures/expected/bg-cube-cases.csv"));
    let met = kazaross_xg2();
    let (mut checked, mut money, mut matches) = (0, 0, 0);
    let mut worst = 0.0f32;
    let mut ties = Vec::new();
    for r in &cases {
        let Some(class) = class_of(&r["evaluator"]) else {
            continue;
        };
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        assert_eq!(classify(&board), class, "case {}", r["case"]);
        let x = cube_efficiency(class, &board, 0);
        let p = [
            f(r, "p_win"),
            f(r, "p_win_gammon"),
            f(r, "p_win_backgammon"),
            f(r, "p_lose_gammon"),
            f(r, "p_lose_backgammon"),
        ];
        let owner = match r["cube_owner"].as_str() {
            "centred" => None,
            "on_roll" => Some(0),
            _ => Some(1),
        };
        let length: u32 = r["match_length"].parse().unwrap();
        let o = match owner {
            None => Owner::Centred,
            Some(0) => Owner::OnRoll,
            Some(_) => Owner::Opponent,
        };
        // gnubg prints six decimals (seven for chances): agree to that.
        let mut check = |ours: f32, col: &str| {
            let diff = (ours - f(r, col)).abs();
            worst = worst.max(diff);
            assert!(
                diff < 2e-5,
                "case {} {col}: ours {ours}, gnubg {}",
                r["case"],
                r[col]
            );
        };
        let d = if length == 0 {
            money += 1;
            let rules = MoneyRules {
                jacoby: r["jacoby"] == "1",
                beavers: r["beavers"] == "1",
            };
            money_decision(&p, o, rules, x)
        } else {
            matches += 1;
            let c = match_cube(r, owner);
            let md = match_decision(&p, &c, met, x);
            if !r["dt_mwc"].is_empty() {
                check(md.nd_mwc, "nd_mwc");
                check(md.dt_mwc, "dt_mwc");
                check(md.dp_mwc, "dp_mwc");
            }
            md.decision
        };
        check(d.nd, "nd");
        if !r["dt"].is_empty() {
            check(d.dt, "dt");
            check(d.dp, "dp");
        }
        let ours = d.action.name(o);
        if ours != r["proper_action"] {
            // Equal equities (a tie within gnubg's 1e-5) may be named
            // either way by float rounding; anything else is a mismatch.
            let tie = (d.nd - d.dt).abs() <= 1e-5 || (d.nd - d.dp).abs() <= 1e-5;
            assert!(
                tie,
                "case {}: ours {ours}, gnubg {}",
                r["case"], r["proper_action"]
            );
            ties.push(r["case"].clone());
        }
        checked += 1;
    }
    assert!(
        money > 200 && matches > 500,
        "{money} money, {matches} match cases"
    );
    assert!(ties.len() <= 5, "ties named otherwise: {ties:?}");
    eprintln!(
        "{checked} cube decisions agree with gnubg; largest difference {worst:e}; ties named otherwise: {ties:?}"
    );
}

/// Our exact one-sided bearoff database against GNU Backgammon's
/// `gnubg_os0.bd` (stored in 16-bit fixed point, 1/65535): gnubg builds it
/// with rounded values, so near-ties may pick another play; most entries
/// agree to a unit or two of 1/65535.
#[test]
fn bearoff_database_matches_gnubg() {
    let rows = csv_file(&repo().join("fixtures/expected/bearoff-os.csv"));
    let db = one_sided();
    let unit = 1.0 / 65535.0;
    let (mut close, mut worst) = (0usize, 0.0f32);
    for r in &rows {
        let pts: Vec<u8> = r["points"].split('-').map(|n| n.parse().unwrap()).collect();
        let pts: [u8; 6] = pts.try_into().unwrap();
        let ours = db.rolls(&pts);
        let mut row_worst = 0.0f32;
        for n in 0..=18 {
            let theirs = f(r, &format!("p{n}")) * unit;
            let mine = ours.get(n).copied().unwrap_or(0.0);
            row_worst = row_worst.max((mine - theirs).abs());
        }
        let g = db.gammon_rolls(&pts);
        for n in 0..=6 {
            let theirs = f(r, &format!("g{n}")) * unit;
            row_worst = row_worst.max((g.get(n).copied().unwrap_or(0.0) - theirs).abs());
        }
        let mean = (db.mean_rolls(&pts) - f(r, "mean_rolls")).abs();
        assert!(mean < 5e-4, "{}: mean {mean}", r["points"]);
        assert!(row_worst < 5e-3, "{}: {row_worst}", r["points"]);
        close += usize::from(row_worst <= 2.5 * unit);
        worst = worst.max(row_worst);
    }
    assert!(
        close * 10 >= rows.len() * 9,
        "{close} of {} within 2 units",
        rows.len()
    );
    eprintln!(
        "bearoff: {close} of {} positions within 2/65535; worst {worst:e}",
        rows.len()
    );
}

/// The race evaluator against GNU Backgammon's race network on the race
/// positions of the fixtures: the error is measured and bounded.
#[test]
fn race_evaluator_error_against_gnubg() {
    let rows = csv_file(&repo().join("fixtures/expected/bg-race-cases.csv"));
    let (mut n, mut sum_win, mut sum_gammon, mut worst) = (0usize, 0.0f64, 0.0f64, 0.0f32);
    for r in rows.iter().filter(|r| r["evaluator"] == "race_net") {
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        let Some(p) = race_probabilities(&board, 0) else {
            panic!("{} is a race for gnubg but not for us", r["position_id"]);
        };
        let dw = (p[0] - f(r, "p_win")).abs();
        let dg = (p[1] - f(r, "p_win_gammon")).abs() + (p[3] - f(r, "p_lose_gammon")).abs();
        sum_win += dw as f64;
        sum_gammon += dg as f64;
        worst = worst.max(dw);
        n += 1;
    }
    assert!(n > 300, "{n} race positions");
    let (mean_win, mean_gammon) = (sum_win / n as f64, sum_gammon / n as f64);
    eprintln!(
        "race: {n} positions, mean |p_win − gnubg| {mean_win:.4}, worst {worst:.4}, mean gammon error {mean_gammon:.4}"
    );
    assert!(mean_win < 0.01, "mean win error {mean_win}");
    assert!(worst < 0.1, "worst win error {worst}");
    assert!(mean_gammon < 0.03, "mean gammon error {mean_gammon}");
}

/// GNU Backgammon's own cube analysis in an SGF export (`DA`) is reported
/// beside ours.
#[test]
fn recorded_gnubg_analysis_is_reported() {
    let out = tempfile::tempdir().unwrap();
    let o = util::run(
        &[
            "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.sgf",
            "--all-cube-decisions",
        ],
        out.path(),
        "",
    );
    assert!(o.status.success(), "{}", util::stderr(&o));
    let rows = util::rows(out.path(), "bg_cube.csv");
    let with = rows.iter().filter(|r| r["gnubg_eval"] == "2C").count();
    assert!(with >= 20, "{with} rows carry gnubg's analysis");
    for r in rows.iter().filter(|r| !r["gnubg_nd"].is_empty()) {
        let nd: f32 = r["gnubg_nd"].parse().unwrap();
        // Match play: gnubg stores match winning chances.
        assert!((0.0..=1.0).contains(&nd), "{r:?}");
        // Where we evaluate too, the two agree to a few percent.
        if !r["nd_mwc"].is_empty() {
            let ours: f32 = r["nd_mwc"].parse().unwrap();
            assert!((ours - nd).abs() < 0.03, "{r:?}");
        }
    }
}

/// `--met` loads another of GNU Backgammon's tables; a file that is not
/// one stops the run with exit status 2 and says what to give instead.
#[test]
fn met_option() {
    let out = tempfile::tempdir().unwrap();
    let f = "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat";
    let a = util::run(&[f, "--all-cube-decisions"], &out.path().join("a"), "");
    let b = util::run(
        &[
            f,
            "--all-cube-decisions",
            "--met",
            "data/met/Kazaross-XG2.xml",
        ],
        &out.path().join("b"),
        "",
    );
    assert!(a.status.success() && b.status.success());
    assert_eq!(
        util::read(&out.path().join("a"), "bg_cube.csv"),
        util::read(&out.path().join("b"), "bg_cube.csv")
    );
    let bad = util::run(&[f, "--met", "Cargo.toml"], &out.path().join("c"), "");
    assert_eq!(bad.status.code(), Some(2));
    let msg = util::stderr(&bad);
    assert!(
        msg.contains("not a match equity table") && msg.contains("met/"),
        "{msg}"
    );
}

/// Money decisions in two-sided bearoffs come from GNU Backgammon's
/// database's exact cubeful equities (our build of it), as gnubg takes
/// them.
#[test]
fn two_sided_bearoff_money_decisions_equal_gnubg() {
    use recount::bg::cube::money_decision_exact;
    let ts = recount::bg::eval::bearoff_ts::two_sided();
    let cases = csv_file(&repo().join("fixtures/expected/bg-cube-cases.csv"));
    let mut checked = 0;
    for r in cases
        .iter()
        .filter(|r| r["evaluator"] == "bearoff_ts" && r["match_length"] == "0")
    {
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        let e = ts.equities(&board, 0).unwrap();
        let p = ts.probabilities(&board, 0).unwrap();
        let (owner, nd) = match r["cube_owner"].as_str() {
            "centred" => (Owner::Centred, e.centered),
            "on_roll" => (Owner::OnRoll, e.owned),
            _ => (Owner::Opponent, e.opponent_owns),
        };
        let rules = MoneyRules {
            jacoby: r["jacoby"] == "1",
            beavers: r["beavers"] == "1",
        };
        let d = money_decision_exact(&p, nd, e.opponent_owns, owner, rules);
        assert!((d.nd - f(r, "nd")).abs() < 2e-5, "case {}", r["case"]);
        if !r["dt"].is_empty() {
            assert!((d.dt - f(r, "dt")).abs() < 2e-5, "case {}", r["case"]);
        }
        assert_eq!(
            d.action.name(owner),
            r["proper_action"],
            "case {}",
            r["case"]
        );
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

/// Match-play decisions in two-sided bearoffs: gnubg derives the cube
/// efficiency of each cube position (no double, and the doubled cube the
/// opponent owns) from the database's exact money equities. The cases
/// cover live cubes at several scores, dead cubes (Crawford game, 2-away
/// 2-away, a cube that wins the match), post-Crawford and owned 2-cubes.
#[test]
fn two_sided_bearoff_match_decisions_equal_gnubg() {
    use recount::bg::cube::match_decision_with;
    let ts = recount::bg::eval::bearoff_ts::two_sided();
    let met = kazaross_xg2();
    let cases = csv_file(&repo().join("fixtures/expected/bg-cube-cases.csv"));
    let (mut checked, mut derived, mut dead, mut post_crawford) = (0, 0, 0, 0);
    let mut worst = 0.0f32;
    for r in cases
        .iter()
        .filter(|r| r["evaluator"] == "bearoff_ts" && r["match_length"] != "0")
    {
        let board = board_from_position_id(&r["position_id"], 0).unwrap();
        let e = ts.equities(&board, 0).unwrap();
        let p = ts.probabilities(&board, 0).unwrap();
        assert_eq!(p[0], f(r, "p_win"), "case {}", r["case"]);
        let (owner, o) = match r["cube_owner"].as_str() {
            "centred" => (None, Owner::Centred),
            "on_roll" => (Some(0), Owner::OnRoll),
            _ => (Some(1), Owner::Opponent),
        };
        let c = match_cube(r, owner);
        let x = cube_efficiency(Class::Bearoff, &board, 0);
        let (x_nd, x_dt) = e.match_efficiencies(p[0], o, x);
        derived += (x_nd != x || x_dt != x) as usize;
        dead += r["proper_action"].contains("dead cube") as usize;
        post_crawford += c.at.post_crawford() as usize;
        let md = match_decision_with(&p, &c, met, x_nd, x_dt);
        let mut check = |ours: f32, col: &str| {
            let diff = (ours - f(r, col)).abs();
            worst = worst.max(diff);
            assert!(
                diff < 1e-5,
                "case {} {col}: ours {ours}, gnubg {} (x {x_nd}, {x_dt})",
                r["case"],
                r[col]
            );
        };
        check(md.decision.nd, "nd");
        check(md.nd_mwc, "nd_mwc");
        if !r["dt"].is_empty() {
            check(md.decision.dt, "dt");
            check(md.decision.dp, "dp");
            check(md.dt_mwc, "dt_mwc");
            check(md.dp_mwc, "dp_mwc");
        }
        assert_eq!(
            md.decision.action.name(o),
            r["proper_action"],
            "case {}",
            r["case"]
        );
        checked += 1;
    }
    assert!(checked >= 300, "{checked} cases");
    assert!(derived >= 100, "{derived} cases with a derived efficiency");
    assert!(
        dead >= 20 && post_crawford >= 20,
        "{dead} dead, {post_crawford} post-Crawford"
    );
    eprintln!(
        "{checked} two-sided bearoff match decisions agree with gnubg ({derived} with a derived efficiency); largest difference {worst:e}"
    );
}

/// The match-play cube position of an oracle case, the player on roll
/// numbered 0.
fn match_cube(r: &std::collections::HashMap<String, String>, owner: Option<usize>) -> MatchCube {
    let length: u32 = r["match_length"].parse().unwrap();
    let away = |c: &str| -> u32 { r[c].parse().unwrap() };
    MatchCube {
        at: MatchScore {
            length,
            score: [
                length - away("away_on_roll"),
                length - away("away_opponent"),
            ],
            crawford_game: r["crawford"] == "1",
        },
        on_roll: 0,
        cube: r["cube"].parse().unwrap(),
        owner,
    }
}
