//! The dead stones of a finished game as the `--dead-stones` policy decides
//! them: the record's markup, or the estimator, with a vote of independent
//! estimates where the first contests a stone ([`super::vote`]).

use crate::go::board::{Board, Color};
use crate::go::dead::vote::{majority, vote_seed, Tally};
use crate::go::dead::{contested, from_markup, DeadPolicy, DeadSource, EstimateNotes, Estimator};
use crate::go::record::{GoRecord, Markup};
use crate::go::replay::Replay;
use crate::go::score::{count, Counts};
use crate::go::settle::territory::settle_refereed;
use crate::go::settle::Settlement;

/// How the dead stones are decided (`--dead-stones`, `--playouts`,
/// `--seed`, `--votes`; the command line's defaults are [`Default`]'s).
#[derive(Debug, Clone, Copy)]
pub struct DeadSettings {
    pub policy: DeadPolicy,
    /// Most random playouts per estimate.
    pub playouts: u32,
    /// Mixed into the playouts' seed (`--seed`).
    pub seed: u64,
    /// Independent estimates that vote on the count (`--votes`; 1: the
    /// plain estimate).
    pub votes: u32,
}

impl Default for DeadSettings {
    fn default() -> DeadSettings {
        DeadSettings {
            policy: DeadPolicy::Auto,
            playouts: 128,
            seed: 0,
            votes: 3,
        }
    }
}

/// The dead stones of a replayed game as the policy decided them, with the
/// estimator's ownership when it decided (the referee rule reads it).
pub struct DeadStones {
    pub dead: Vec<bool>,
    pub ownership: Option<Vec<f32>>,
    pub source: DeadSource,
    /// The estimator's notes on its corrections (for `recount explain`;
    /// empty unless estimated).
    pub notes: EstimateNotes,
    /// With `--votes` above 1: each estimate's count, in the order cast,
    /// and how many gave this one's.
    pub vote: Option<Tally<f64>>,
    /// From markup: per point, the colour of its `TB`/`TW`; the empty
    /// points are counted as marked ([`Settlement::count_as_marked`]).
    pub marked: Option<Vec<Option<Color>>>,
}

impl DeadStones {
    /// The dead stones of the players' marking `m`, counted as marked
    /// when it marks territory: a marking of dead stones alone (no empty
    /// point marked) leaves the territory to the settlement.
    pub fn marked(board: &Board, m: &Markup) -> DeadStones {
        let marked = marked_points(board, m);
        let territory = board
            .points()
            .any(|p| marked[p].is_some() && board.at(p).is_none());
        DeadStones {
            dead: from_markup(board, m),
            ownership: None,
            source: DeadSource::Markup,
            notes: EstimateNotes::default(),
            vote: None,
            marked: territory.then_some(marked),
        }
    }

    /// Settles `board` with these dead stones.
    pub fn settle(&self, board: &Board) -> Settlement {
        self.as_marked(settle_refereed(
            board,
            &self.dead,
            self.ownership.as_deref(),
            &[],
        ))
    }

    /// `s` counted as the players marked it, when they did.
    fn as_marked(&self, mut s: Settlement) -> Settlement {
        if let Some(m) = &self.marked {
            s.count_as_marked(m);
        }
        s
    }

    /// Settles `board` with another dead-stone map, read as these were,
    /// except that the referee's rule leaves alone the regions of the
    /// chains whose fate differs: the ownership read the other fate.
    pub fn settle_as(&self, board: &Board, dead: &[bool]) -> Settlement {
        let mut flipped = vec![false; dead.len()];
        for p in board.points().filter(|&p| dead[p] != self.dead[p]) {
            flipped[p] = true;
            for q in board.neighbours(p) {
                flipped[q] = true;
            }
        }
        let s = settle_refereed(board, dead, self.ownership.as_deref(), &flipped);
        // The players' marking holds for their own dead stones only.
        if dead == self.dead.as_slice() {
            self.as_marked(s)
        } else {
            s
        }
    }
}

/// Decides the dead stones of a replayed game by the policy and settles
/// its final position with them; with `--votes` above 1 and a contested
/// first estimate ([`crate::go::dead::contested`]), the estimate most of
/// the votes' counts agree on, whose settlement the vote made.
pub fn decide_dead(
    record: &GoRecord,
    replay: &Replay,
    settings: &DeadSettings,
) -> (DeadStones, Settlement) {
    let board = &replay.board;
    let settled = |d: DeadStones| {
        let s = d.settle(board);
        (d, s)
    };
    match (settings.policy, &record.markup) {
        (DeadPolicy::Auto | DeadPolicy::Markup, Some(m)) => settled(DeadStones::marked(board, m)),
        (DeadPolicy::Auto | DeadPolicy::Estimate, _) => {
            // The votes share what the estimator reads from the position.
            let mut estimator = Estimator::new(board);
            // Each ballot settled at once: a held vote counts every
            // ballot, and the game's settlement is the chosen one's.
            let estimate = |k| {
                let seed = vote_seed(settings.seed, k);
                let (dead, ownership, notes) = estimator.estimate(settings.playouts, seed);
                settled(DeadStones {
                    dead,
                    ownership: Some(ownership),
                    source: DeadSource::Estimate,
                    notes,
                    vote: None,
                    marked: None,
                })
            };
            let counts = Counts::of(record, replay);
            let v = majority(
                settings.votes,
                estimate,
                |(_, s)| count(s, &counts),
                |(d, _)| d.ownership.as_deref().is_some_and(|o| contested(board, o)),
            );
            let (chosen, settlement) = v.chosen;
            let d = DeadStones {
                vote: v.tally,
                ..chosen
            };
            (d, settlement)
        }
        (DeadPolicy::Markup | DeadPolicy::None, _) => settled(DeadStones {
            dead: vec![false; board.index_len()],
            ownership: None,
            source: DeadSource::None,
            notes: EstimateNotes::default(),
            vote: None,
            marked: None,
        }),
    }
}

/// Per point of `board`, the colour of its `TB`/`TW` (`TB` first where a
/// record marks a point both ways).
pub fn marked_points(board: &Board, m: &Markup) -> Vec<Option<Color>> {
    let mut marked = vec![None; board.index_len()];
    for (points, c) in [(&m.white, Color::White), (&m.black, Color::Black)] {
        for &(x, y) in points {
            if x < board.width() && y < board.height() {
                marked[board.index(x, y)] = Some(c);
            }
        }
    }
    marked
}

/// Decides the dead stones of a replayed game by the policy and settles
/// its final position.
pub fn settle_game(
    record: &GoRecord,
    replay: &Replay,
    settings: &DeadSettings,
) -> (Settlement, DeadSource) {
    let (d, settlement) = decide_dead(record, replay, settings);
    (settlement, d.source)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A marking of territory is counted as marked; one that marks only
    /// the dead stones leaves the territory to the settlement.
    #[test]
    fn only_a_marking_of_territory_is_counted_as_marked() {
        let b = Board::from_diagram(
            ". X O .
             X X O O
             . X O O",
        );
        let stones_only = Markup {
            black: vec![],
            white: vec![],
        };
        assert!(DeadStones::marked(&b, &stones_only).marked.is_none());
        let territory = Markup {
            black: vec![(0, 0)],
            white: vec![(3, 0)],
        };
        let d = DeadStones::marked(&b, &territory);
        assert!(d.marked.is_some());
        // Black's unmarked (0,2) is no one's once the marking counts.
        assert_eq!(d.settle(&b).territory, [1, 1]);
        assert_eq!(
            DeadStones::marked(&b, &stones_only).settle(&b).territory,
            [2, 1]
        );
    }
}
