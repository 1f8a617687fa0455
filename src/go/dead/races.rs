//! Capturing races the playouts lose about as often as they win: of two
//! dead chains of both colours side by side, one must live.

use super::ChainFate;
use crate::go::board::Board;

/// Dead stones of both colours side by side cannot both be dead: one of
/// them was alive to capture the other. Such pairs come from capturing
/// races the playouts lose about as often as they win. Where the dead
/// stones and the empty points around them reach living stones of both
/// colours (a race between two sides' groups, not stones inside a dead
/// group), the dead chain of the pair whose owner kept it most often in the
/// playouts is revived, until no such pair is left (ties: the first on the
/// board), so the verdict stays deterministic.
// The corrections after the playouts are not inlined into `estimate`:
// its playout loop then runs 2% faster (measured).
#[inline(never)]
pub(super) fn revive_races(board: &Board, chains: &mut [ChainFate], chain_of: &[usize]) {
    let n = board.index_len();
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    loop {
        let mut best: Option<usize> = None;
        for (i, ch) in chains.iter().enumerate() {
            if !ch.dead || ch.doomed {
                continue;
            }
            let touches = ch.stones.iter().any(|&q| {
                board
                    .neighbours(q)
                    .iter()
                    .any(|&m| board.at(m) == Some(ch.color.opponent()) && chains[chain_of[m]].dead)
            });
            if !touches || best.is_some_and(|b| ch.mine <= chains[b].mine) {
                continue;
            }
            // Living colours reached through dead stones and empty points.
            seen.iter_mut().for_each(|s| *s = false);
            stack.clear();
            stack.push(ch.stones[0]);
            seen[ch.stones[0]] = true;
            let mut border = 0u8;
            while let Some(q) = stack.pop() {
                for m in board.neighbours(q) {
                    if !board.on_board(m) || seen[m] {
                        continue;
                    }
                    match board.at(m) {
                        Some(c) if !chains[chain_of[m]].dead => {
                            border |= 1 << c.index();
                        }
                        _ => {
                            seen[m] = true;
                            stack.push(m);
                        }
                    }
                }
            }
            if border == 3 {
                best = Some(i);
            }
        }
        match best {
            Some(i) => chains[i].dead = false,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;
    #[test]
    fn a_race_between_two_sides_groups_keeps_the_stronger_one() {
        // Two dead-marked chains side by side, each with a living group of
        // its colour behind it: one of them must live; Black's was kept
        // more often (0.1 against -0.1), so it is revived.
        let b = Board::from_diagram("X . X O . O");
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((0, 0), false, 1.0),
                ((2, 0), true, 0.1),
                ((3, 0), true, -0.1),
                ((5, 0), false, 1.0),
            ],
        );
        revive_races(&b, &mut chains, &chain_of);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        assert_eq!(dead, [false, false, true, false]);
    }

    #[test]
    fn stones_inside_a_dead_group_stay_dead() {
        // A black ring inside White's wall with a white stone in its eye:
        // only White's living stones are around, so both stay dead.
        let b = Board::from_diagram(
            "O O O O O O
             O X X X X O
             O X O . X O
             O X X X X O
             O O O O O O",
        );
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((0, 0), false, 1.0),
                ((1, 1), true, 0.1),
                ((2, 2), true, -0.5),
            ],
        );
        revive_races(&b, &mut chains, &chain_of);
        assert!(chains[1].dead && chains[2].dead);
    }
}
