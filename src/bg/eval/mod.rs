//! Position evaluators behind one interface: cubeless probabilities for the
//! player on roll, the class of the position, and the cube efficiency GNU
//! Backgammon's 0-ply cube formulas use for that class. The cube analysis
//! never depends on which evaluator answered; a position no evaluator
//! covers is "not estimated" with the reason, never a made-up number.
//!
//! The evaluators: exact bearoff databases, one-sided ([`bearoff`]) and
//! two-sided ([`bearoff_ts`], both built by recount); our race evaluator
//! ([`race`]); GNU Backgammon's nets ([`nn`], their inputs [`nn_inputs`],
//! gnubg's 0-ply evaluation [`gnubg`], its race backgammons [`race_bg`]).

pub mod bearoff;
pub mod bearoff_ts;
pub(crate) mod four_lists;
pub mod gnubg;
pub mod nn;
#[cfg(target_arch = "x86_64")]
pub mod nn_avx512;
pub mod nn_inputs;
pub mod race;
pub mod race_bg;
pub mod sigmoid;
pub mod table_cache;

use crate::bg::cube::Probs;
use crate::bg::eval::bearoff::bearoff_probabilities;
use crate::bg::eval::gnubg::{probabilities_with, GnubgClass, NetStates};
use crate::bg::eval::nn::Weights;
use crate::bg::eval::race::race_probabilities;
use crate::bg::position::board::Board;
use crate::bg::position::features::features;

/// Starts building the bearoff tables the evaluator will read, each on a
/// thread of its own, once per process. Each table takes about half a
/// second and is otherwise built on first use, on the worker that asks,
/// while the other workers wait for it: begun together, the builds
/// overlap, and the first match waits only for the table it needs
/// first. `gnubg`: GNU Backgammon's nets are used (its rounded one-sided
/// table and the two-sided database), else our own evaluators (the exact
/// one-sided table).
pub fn warm_up(gnubg: bool) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let builds: &[fn()] = if gnubg {
            &[
                || {
                    bearoff_ts::two_sided();
                },
                || {
                    bearoff::gnubg_rounded();
                },
            ]
        } else {
            &[|| {
                bearoff::one_sided();
            }]
        };
        for &build in builds {
            // Without a thread of its own a table is built on first use.
            let _ = std::thread::Builder::new()
                .name("recount-tables".into())
                .spawn(build);
        }
    });
}

/// GNU Backgammon's position classes, as far as they matter here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A side has borne off everything.
    Over,
    /// Both sides have every checker in their home board.
    Bearoff,
    /// No contact, not all home.
    Race,
    Contact,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Over => "over",
            Class::Bearoff => "bearoff",
            Class::Race => "race",
            Class::Contact => "contact",
        }
    }
}

/// The class of `board`.
pub fn classify(board: &Board) -> Class {
    if board.on_board(0) == 0 || board.on_board(1) == 0 {
        return Class::Over;
    }
    let home = |p: usize| board.checkers[p][6..].iter().all(|&n| n == 0);
    if home(0) && home(1) {
        Class::Bearoff
    } else if !features(board).contact {
        Class::Race
    } else {
        Class::Contact
    }
}

/// The cube efficiency (the share of the live cube) of GNU Backgammon's
/// 0-ply cubeful formulas (1.08 and later, confirmed with its `show
/// cubeefficiency`): 0.6 in bearoffs, in races 0.60 + 0.0025 × the pips of
/// the player on roll kept between 0.6 and 0.8, and 0.76 in contact (and
/// crashed) positions. In a two-sided bearoff gnubg uses the database's
/// exact money equities instead, and in match play derives the efficiency
/// from them, with 0.6 as its ceiling
/// ([`crate::bg::cube::two_sided_efficiency`]).
pub fn cube_efficiency(class: Class, board: &Board, on_roll: usize) -> f32 {
    match class {
        Class::Over => 0.0,
        Class::Bearoff => 0.6,
        Class::Race => (board.pips(on_roll) as f32 * 0.0025 + 0.60).clamp(0.6, 0.8),
        Class::Contact => 0.76,
    }
}

/// The cube efficiency gnubg uses in evaluations of 2-ply and deeper
/// (`show cubeefficiency`, "2+ ply"): contact and crashed 0.68, races
/// 0.55 + 0.00125 × the pips of the player on roll kept between 0.6 and
/// 0.7, bearoffs 0.6. It goes with the evaluation's setting, not the
/// depth of the node: a 2-ply analysis values its 0-ply steps with it too.
pub fn cube_efficiency_deep(class: Class, board: &Board, on_roll: usize) -> f32 {
    match class {
        Class::Over => 0.0,
        Class::Bearoff => 0.6,
        Class::Race => (board.pips(on_roll) as f32 * 0.00125 + 0.55).clamp(0.6, 0.7),
        Class::Contact => 0.68,
    }
}

/// A position's evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    pub probs: Probs,
    pub class: Class,
    /// Which evaluator answered: `bearoff` (our exact one-sided database),
    /// `race` (our race evaluator), `gnubg_nn` (GNU Backgammon's nets),
    /// `gnubg_ts` (its two-sided bearoff database) or `gnubg_os` (its
    /// 16-bit one-sided table, as our replay of its construction gives it).
    pub evaluator: &'static str,
    pub efficiency: f32,
}

/// Something that turns a position into cubeless probabilities.
pub trait Evaluator: Sync {
    fn name(&self) -> &'static str;
    /// Probabilities for the player on roll, or why this evaluator cannot
    /// tell.
    fn probabilities(&self, board: &Board, on_roll: usize) -> Result<Probs, String>;
}

/// The exact one-sided bearoff database.
pub struct BearoffEvaluator;

impl Evaluator for BearoffEvaluator {
    fn name(&self) -> &'static str {
        "bearoff"
    }
    fn probabilities(&self, board: &Board, on_roll: usize) -> Result<Probs, String> {
        bearoff_probabilities(board, on_roll).ok_or_else(|| "not a bearoff position".to_string())
    }
}

/// The race evaluator of [`crate::bg::eval::race`].
pub struct RaceEvaluator;

impl Evaluator for RaceEvaluator {
    fn name(&self) -> &'static str {
        "race"
    }
    fn probabilities(&self, board: &Board, on_roll: usize) -> Result<Probs, String> {
        race_probabilities(board, on_roll).ok_or_else(|| "not a race position".to_string())
    }
}

/// Evaluates `board` for `on_roll` as GNU Backgammon would when `weights`
/// are loaded (its nets; its two-sided bearoff database when it lies
/// beside them; its 16-bit one-sided table for other bearoffs); without
/// them (`--no-nets`) bearoffs and races with our evaluators and contact
/// not at all.
///
/// # Errors
/// The position is over, or in contact with no nets loaded.
pub fn evaluate_with(
    board: &Board,
    on_roll: usize,
    weights: Option<&Weights>,
) -> Result<Evaluation, String> {
    evaluate_incrementally(board, on_roll, weights, None)
}

/// [`evaluate_with`], GNU Backgammon's nets evaluating incrementally from
/// `states` when given, as gnubg evaluates a roll's plays.
///
/// # Errors
/// As [`evaluate_with`].
pub fn evaluate_incrementally(
    board: &Board,
    on_roll: usize,
    weights: Option<&Weights>,
    states: Option<&mut NetStates>,
) -> Result<Evaluation, String> {
    let Some(w) = weights else {
        return evaluate(board, on_roll);
    };
    let (probs, gnubg_class) = probabilities_with(w, board, on_roll, states)
        .ok_or_else(|| "the game is over".to_string())?;
    // gnubg's class decides its cube efficiency (and saves a board scan).
    let class = match gnubg_class {
        GnubgClass::Over => Class::Over,
        GnubgClass::Bearoff2 | GnubgClass::Bearoff1 => Class::Bearoff,
        GnubgClass::Race => Class::Race,
        GnubgClass::Crashed | GnubgClass::Contact => Class::Contact,
    };
    let evaluator = match gnubg_class {
        GnubgClass::Bearoff2 => "gnubg_ts",
        GnubgClass::Bearoff1 => "gnubg_os",
        _ => "gnubg_nn",
    };
    Ok(Evaluation {
        probs,
        class,
        evaluator,
        efficiency: cube_efficiency(class, board, on_roll),
    })
}

/// The reason of a contact position evaluated without GNU Backgammon's
/// nets: its equities are left empty, not guessed.
pub const NOT_ESTIMATED_CONTACT: &str = "not estimated: a contact position needs GNU Backgammon's \
     nets, and --no-nets turned them off (drop --no-nets to use the built-in ones)";

/// Evaluates `board` for `on_roll` with the evaluator for its class.
///
/// # Errors
/// The position is over, or in contact (which needs GNU Backgammon's
/// nets): the message is the row's reason, saying it was not estimated.
pub fn evaluate(board: &Board, on_roll: usize) -> Result<Evaluation, String> {
    let class = classify(board);
    let evaluator: &dyn Evaluator = match class {
        Class::Bearoff => &BearoffEvaluator,
        Class::Race => &RaceEvaluator,
        Class::Over => return Err("the game is over".into()),
        Class::Contact => return Err(NOT_ESTIMATED_CONTACT.into()),
    };
    Ok(Evaluation {
        probs: evaluator.probabilities(board, on_roll)?,
        class,
        evaluator: evaluator.name(),
        efficiency: cube_efficiency(class, board, on_roll),
    })
}
