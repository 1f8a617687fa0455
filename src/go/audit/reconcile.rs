//! When a count disagrees with the recorded result: which single change to
//! the settled position would make it agree? One chain's fate flipped
//! (a dead chain kept alive, or a living one taken off), or the must-fill
//! points counted as territory after all.
//!
//! An auditor reads this as the place to look: a discrepancy one disputed
//! chain explains is most often a judgement the players made differently
//! from the estimate (or stones they left on the board); one that no single
//! change explains points at the record itself. The changes are tried, not
//! guessed: each is settled and counted in full.

use crate::go::board::{Board, Color};
use crate::go::replay::chain_label;
use crate::go::settle::life::benson;
use crate::go::settle::Settlement;

/// One change that makes the count agree.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The chain through `point` (SGF coordinates) would have to be
    /// `dead` (taken off) or alive (left on the board).
    Chain {
        color: Color,
        point: (u8, u8),
        stones: usize,
        dead: bool,
    },
    /// The must-fill points would have to count as territory.
    NoMustFill,
}

impl Change {
    /// `W chain at qd (3 stones) alive`, `no must-fill`.
    pub fn describe(&self) -> String {
        match self {
            Change::Chain {
                color,
                point: (x, y),
                stones,
                dead,
            } => format!(
                "{} {}",
                chain_label(*color, (*x, *y), *stones),
                if *dead { "dead" } else { "alive" }
            ),
            Change::NoMustFill => "no must-fill".into(),
        }
    }
}

/// Most changes reported for one game.
pub const MAX_CHANGES: usize = 3;

/// Most chains tried for one game, the most doubtful first: each try
/// settles the whole board again, and a final position holds a hundred
/// chains or more (a bound on the work for one game).
pub const MAX_TRIES: usize = 100;

/// The single changes to `dead` (the dead-stone map `base` was settled
/// from) that make `score` equal `target`, most doubtful first: the
/// [`MAX_TRIES`] chains lowest by `doubt` (board order breaks ties), then
/// the must-fill rule. At most [`MAX_CHANGES`]. Pass-alive chains (Benson)
/// are never taken off: no reading of the position kills them.
pub fn single_changes(
    board: &Board,
    dead: &[bool],
    base: &Settlement,
    settle: impl Fn(&[bool]) -> Settlement,
    score: impl Fn(&Settlement) -> f64,
    target: f64,
    doubt: impl Fn(&[usize]) -> f32,
) -> Vec<Change> {
    let agrees = |s: &Settlement| (score(s) - target).abs() < 1e-6;
    let (bb, bw) = (benson(board, Color::Black), benson(board, Color::White));
    let mut chains: Vec<(f32, Vec<usize>)> = Vec::new();
    for p in board.chains() {
        let stones = board.chain_stones(p);
        if !dead[p] && (bb.alive[p] || bw.alive[p]) {
            continue;
        }
        chains.push((doubt(&stones), stones));
    }
    // Stable: equally doubtful chains stay in board order.
    chains.sort_by(|a, b| a.0.total_cmp(&b.0));
    chains.truncate(MAX_TRIES);
    let mut changes = Vec::new();
    let mut flipped = dead.to_vec();
    for (_, stones) in &chains {
        for &q in stones {
            flipped[q] = !dead[q];
        }
        if agrees(&settle(&flipped)) {
            let p = stones[0];
            changes.push(Change::Chain {
                color: board.at(p).expect("a chain's stone"),
                point: board.xy(p),
                stones: stones.len(),
                dead: !dead[p],
            });
            if changes.len() == MAX_CHANGES {
                return changes;
            }
        }
        for &q in stones {
            flipped[q] = dead[q];
        }
    }
    if base.fills != [0, 0] {
        let mut unfilled = base.clone();
        for c in 0..2 {
            unfilled.territory[c] += unfilled.fills[c];
            unfilled.fills[c] = 0;
        }
        if agrees(&unfilled) {
            changes.push(Change::NoMustFill);
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::settle::territory::settle;

    /// Black's points minus White's: territory plus dead stones taken.
    fn points(s: &Settlement) -> f64 {
        (s.territory[0] + s.dead[1]) as f64 - (s.territory[1] + s.dead[0]) as f64
    }

    /// A white stone inside Black's corner, with White's wall outside.
    fn corner() -> Board {
        Board::from_diagram(
            ". O . X O .
             X X X X O .
             O O O O O .",
        )
    }

    #[test]
    fn a_dead_stone_the_record_left_alive_is_found() {
        // With the white stone at (1,0) dead, Black has 3 territory and 1
        // prisoner, White 3 territory: +1. Left on the board, (0,0) and
        // (2,0) touch both colours and are dame: 0 - 3 = -3. A record
        // saying -3 is explained by that stone being alive.
        let b = corner();
        let mut dead = vec![false; b.index_len()];
        dead[b.index(1, 0)] = true;
        let base = settle(&b, &dead);
        assert_eq!(points(&base), 1.0);
        let target = -3.0;
        let changes = single_changes(&b, &dead, &base, |d| settle(&b, d), points, target, |_| 0.0);
        assert_eq!(
            changes,
            [Change::Chain {
                color: Color::White,
                point: (1, 0),
                stones: 1,
                dead: false
            }]
        );
        assert_eq!(changes[0].describe(), "W chain at ba (1 stone) alive");
    }

    #[test]
    fn no_change_explains_an_impossible_count() {
        let b = corner();
        let dead = vec![false; b.index_len()];
        let base = settle(&b, &dead);
        let changes = single_changes(&b, &dead, &base, |d| settle(&b, d), points, 50.0, |_| 0.0);
        assert!(changes.is_empty());
    }
}
