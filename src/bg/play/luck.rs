//! The luck of a roll, as GNU Backgammon defines it (`analysis.c`:
//! `LuckNormal`, `LuckFirst`), always at 0-ply and cubeful: the value of
//! the roll thrown (the best play's score with it) minus the mean of that
//! over the 36 rolls. A roll with no legal play is worth the position as
//! it stands. The opening roll, which also decides who moves first, is
//! averaged over the 30 non-double rolls: 15 with the player to move
//! rolling them, 15 with the opponent rolling them first.

use crate::bg::play::rolls::with_roll_leaves;
use crate::bg::play::value::CubeContext;
use crate::bg::position::board::Board;
use crate::bg::position::moves::legal_positions_into;

/// The value for `mover` of rolling `dice` at `before`: the best play's
/// score, or the unchanged position's when no play is legal.
///
/// # Errors
/// A position no evaluator covers.
pub fn roll_value(
    ctx: &CubeContext,
    before: &Board,
    mover: usize,
    dice: (u8, u8),
) -> Result<f32, String> {
    let scorer = ctx.scorer(1 - mover);
    let best = with_roll_leaves(
        ctx,
        before,
        mover,
        dice,
        |out| legal_positions_into(before, mover, dice, out),
        |leaves| {
            // The first of the best.
            let mut best: Option<f32> = None;
            scorer.for_each_score(leaves, |score| {
                if best.is_none_or(|b| score.total_cmp(&b).is_gt()) {
                    best = Some(score);
                }
            });
            best
        },
    )?;
    match best {
        Some(best) => Ok(best),
        None => ctx.score_after(before, mover, None),
    }
}

/// The luck of `dice` rolled by `mover` at `before`; `rolled` is the
/// roll's own value ([`roll_value`]), which the play's analysis has
/// already found.
///
/// # Errors
/// A position no evaluator covers.
pub fn luck(
    ctx: &CubeContext,
    before: &Board,
    mover: usize,
    dice: (u8, u8),
    rolled: f32,
) -> Result<f32, String> {
    let (hi, lo) = (dice.0.max(dice.1), dice.0.min(dice.1));
    let opening = *before == Board::start() && hi != lo;
    let mut sum = 0.0f32;
    // gnubg's order of the sum, so the mean rounds as gnubg's does.
    for i in 1..=6u8 {
        for j in 1..=i {
            if opening && i == j {
                continue;
            }
            let v = if (i, j) == (hi, lo) {
                rolled
            } else {
                roll_value(ctx, before, mover, (i, j))?
            };
            sum += if i == j || opening { v } else { 2.0 * v };
        }
    }
    if opening {
        // The opponent wins the opening roll with the same dice.
        let them = 1 - mover;
        for i in 1..=6u8 {
            for j in i + 1..=6 {
                sum += -roll_value(ctx, before, them, (j, i))?;
            }
        }
        Ok(rolled - sum / 30.0)
    } else {
        Ok(rolled - sum / 36.0)
    }
}

/// GNU Backgammon's marks for a roll's luck: lucky above 0.3, very lucky
/// above 0.6, unlucky and very unlucky below −0.3 and −0.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LuckClass {
    VeryUnlucky,
    Unlucky,
    None,
    Lucky,
    VeryLucky,
}

impl LuckClass {
    pub fn of(luck: f32) -> LuckClass {
        if luck > 0.6 {
            LuckClass::VeryLucky
        } else if luck > 0.3 {
            LuckClass::Lucky
        } else if luck < -0.6 {
            LuckClass::VeryUnlucky
        } else if luck < -0.3 {
            LuckClass::Unlucky
        } else {
            LuckClass::None
        }
    }

    /// The mark as a column value: empty for an unmarked roll.
    pub fn name(self) -> &'static str {
        match self {
            LuckClass::VeryUnlucky => "very_unlucky",
            LuckClass::Unlucky => "unlucky",
            LuckClass::None => "",
            LuckClass::Lucky => "lucky",
            LuckClass::VeryLucky => "very_lucky",
        }
    }
}
