//! Checker-play analysis at 0-ply, as GNU Backgammon's `analyse match`
//! makes it: every legal play of a roll (one per distinct resulting
//! position) scored cubefully for the mover ([`value`]), ranked best
//! first; the recorded play's loss and its class by gnubg's thresholds;
//! and the luck of the roll ([`luck`]).

pub mod luck;
pub mod plied;
pub mod rolls;
pub mod value;

use crate::bg::position::board::Board;
use crate::bg::position::moves::legal_plays;
use crate::bg::position::play::Play;
use rolls::with_roll_leaves;
use value::CubeContext;

/// The plays of one roll, best first.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// Each distinct play and its score (normalised equity for the
    /// mover), best first; plays of equal score keep the order of the
    /// move generator.
    pub plays: Vec<(Play, f32)>,
}

impl Ranked {
    /// The best score; a roll with no legal play leaves the board as it
    /// is, and that position's score is the roll's value.
    pub fn best(&self) -> Option<f32> {
        self.plays.first().map(|p| p.1)
    }

    /// The rank and score of the play that leads to `after`: 1 + the
    /// plays scored strictly better, so plays of equal score share a rank.
    pub fn find(&self, after: &Board) -> Option<(usize, f32)> {
        let (_, score) = self.plays.iter().find(|(p, _)| p.after == *after)?;
        let better = self.plays.iter().filter(|(_, s)| s > score).count();
        Some((better + 1, *score))
    }
}

/// Every legal play of `dice` by `mover` from `before`, scored and ranked.
///
/// # Errors
/// A position no evaluator covers.
pub fn rank_plays(
    ctx: &CubeContext,
    before: &Board,
    mover: usize,
    dice: (u8, u8),
) -> Result<Ranked, String> {
    let plays = legal_plays(before, mover, dice);
    let scorer = ctx.scorer(1 - mover);
    let scores = with_roll_leaves(
        ctx,
        before,
        mover,
        dice,
        |out| out.extend(plays.iter().map(|p| p.after)),
        |leaves| {
            let mut scores = Vec::with_capacity(leaves.len());
            scorer.for_each_score(leaves, |s| scores.push(s));
            scores
        },
    )?;
    let mut plays: Vec<(Play, f32)> = plays.into_iter().zip(scores).collect();
    // Stable: equal scores keep the generator's order.
    plays.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(Ranked { plays })
}

/// GNU Backgammon's marks for a play's (or a cube action's) loss, with its
/// default thresholds in normalised equity: doubtful above 0.03, bad above
/// 0.06, very bad above 0.12 (`show analysis` of gnubg 1.08).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skill {
    None,
    Doubtful,
    Bad,
    VeryBad,
}

impl Skill {
    pub const THRESHOLDS: [f32; 3] = [0.03, 0.06, 0.12];

    /// The mark of a loss (≥ 0).
    pub fn of(loss: f32) -> Skill {
        let [doubtful, bad, very_bad] = Skill::THRESHOLDS;
        if loss > very_bad {
            Skill::VeryBad
        } else if loss > bad {
            Skill::Bad
        } else if loss > doubtful {
            Skill::Doubtful
        } else {
            Skill::None
        }
    }

    /// The mark as a column value: empty for an unmarked play.
    pub fn name(self) -> &'static str {
        match self {
            Skill::None => "",
            Skill::Doubtful => "doubtful",
            Skill::Bad => "bad",
            Skill::VeryBad => "very_bad",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::cube::met::kazaross_xg2;
    use crate::bg::cube::MoneyRules;
    use crate::bg::eval::nn::Weights;
    use value::Stakes;

    #[test]
    fn thresholds_are_strict() {
        assert_eq!(Skill::of(0.03), Skill::None);
        assert_eq!(Skill::of(0.0301), Skill::Doubtful);
        assert_eq!(Skill::of(0.07), Skill::Bad);
        assert_eq!(Skill::of(0.5), Skill::VeryBad);
    }

    #[test]
    fn the_opening_31_makes_the_five_point() {
        let ctx = CubeContext {
            stakes: Stakes::Money(MoneyRules {
                jacoby: false,
                beavers: false,
            }),
            cube: 1,
            owner: None,
            met: kazaross_xg2(),
            weights: Some(Weights::embedded()),
            deep: false,
        };
        let r = rank_plays(&ctx, &Board::start(), 0, (3, 1)).unwrap();
        assert_eq!(r.plays.len(), 16);
        let best =
            crate::bg::position::notation::gnubg_notation(&Board::start(), 0, &r.plays[0].0.moves);
        assert_eq!(best, "8/5 6/5");
        assert!(r.plays.windows(2).all(|w| w[0].1 >= w[1].1));
        assert_eq!(r.find(&r.plays[3].0.after).map(|f| f.0), Some(4));
    }
}
