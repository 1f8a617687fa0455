//! A seki that only a dead group kept: once the dead stones are off, the
//! partner has liberties to spare and captures.

use super::{liberties, without_dead, ChainFate};
use crate::go::board::Board;

/// Living chains left in a seki that the dead stones alone kept, taken
/// off; returns their indices in `chains`. Such a chain has one or two
/// liberties and no way out: each liberty touches only the chain and the
/// other side's stones, and no dead stone of the other side touches the
/// chain. Its partners, the other side's chains beside those liberties,
/// have no liberty but the shared ones, and each touches a dead chain of
/// the first chain's colour: once that is taken off, the partner has
/// three liberties or more, fills a shared liberty safely and captures,
/// whoever moves first. In 2017-02-25-13 (marked games, tune half)
/// White's three stones at `ra` share their two liberties with Black's
/// 11 at `qa`, which White's dead 19-stone group at `ja` shuts in: the
/// players took all of White's stones off (B+5.5), where the estimate
/// kept the three alive and their liberties dame (W+2.5). A chain the
/// opponent can reach only by filling the shared liberties of a real
/// seki, whose partner has no other liberty once the dead stones are
/// off, is left alone, and so is a false seki whose partner has
/// liberties of its own: players count those as seki
/// (docs/estimator-log.md).
#[inline(never)]
pub(super) fn dead_in_freed_seki(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    pass_alive: &[bool],
) -> Vec<usize> {
    let dead_beside = |stones: &[usize], color| {
        stones.iter().any(|&q| {
            board
                .neighbours(q)
                .iter()
                .any(|&m| board.at(m) == Some(color) && chains[chain_of[m]].dead)
        })
    };
    // The candidates and their partners, read on the board as it is.
    let mut found: Vec<(usize, Vec<usize>, Vec<usize>)> = Vec::new();
    for (i, ch) in chains.iter().enumerate() {
        if ch.dead || pass_alive[ch.stones[0]] {
            continue;
        }
        if board.liberties(ch.stones[0], 3).as_slice().len() > 2 {
            continue;
        }
        let libs = liberties(board, &ch.stones);
        if libs.is_empty() || dead_beside(&ch.stones, ch.color.opponent()) {
            continue;
        }
        let mut partners: Vec<usize> = Vec::new();
        let shut = libs.iter().all(|&l| {
            let mut touches_other = false;
            for m in board.neighbours(l) {
                match board.at(m) {
                    _ if !board.on_board(m) => {}
                    Some(c) if c == ch.color.opponent() => {
                        touches_other = true;
                        if !partners.contains(&chain_of[m]) {
                            partners.push(chain_of[m]);
                        }
                    }
                    Some(_) if chain_of[m] == i => {}
                    _ => return false,
                }
            }
            touches_other
        });
        let seki = shut
            && partners.iter().all(|&j| {
                let pc = &chains[j];
                !pc.dead
                    && dead_beside(&pc.stones, ch.color)
                    && liberties(board, &pc.stones)
                        .iter()
                        .all(|l| libs.contains(l))
            });
        if seki {
            found.push((i, libs, partners));
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let cleaned = without_dead(board, chains);
    let turned: Vec<usize> = found
        .into_iter()
        .filter(|(_, _, partners)| {
            partners
                .iter()
                .all(|&j| liberties(&cleaned, &chains[j].stones).len() >= 3)
        })
        .map(|(i, _, _)| i)
        .collect();
    for &i in &turned {
        chains[i].dead = true;
    }
    turned
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;

    /// White's three stones on the right share their two liberties with
    /// Black's chain, which White's ring shuts in. With the ring dead,
    /// Black has liberties to spare and captures the three: no seki.
    /// With the ring alive, it is a seki and the three stay.
    #[test]
    fn a_seki_that_only_a_dead_ring_kept_is_dead() {
        let b = Board::from_diagram(
            "O O X O .
             O X X O X
             O X . O X
             O X X X X
             O O O O O
             . . . . .",
        );
        for (ring_dead, three_dead) in [(true, true), (false, false)] {
            let (mut chains, chain_of) = fates(
                &b,
                &[
                    ((0, 0), ring_dead, -0.9),
                    ((2, 0), false, 0.9),
                    ((3, 0), false, 0.9),
                ],
            );
            let pass_alive = vec![false; b.index_len()];
            let turned = dead_in_freed_seki(&b, &mut chains, &chain_of, &pass_alive);
            assert_eq!(chains[2].dead, three_dead, "ring dead: {ring_dead}");
            assert_eq!(turned.len(), usize::from(three_dead));
            assert!(!chains[1].dead);
        }
    }

    /// A chain with a liberty of its own outside the shared ones (here
    /// Black's at the bottom right) has a way out: left alone.
    #[test]
    fn a_chain_that_can_extend_is_left_alone() {
        let b = Board::from_diagram(
            "O O X O .
             O X X O X
             O X . O .
             O X X X X
             O O O O O
             . . . . .",
        );
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((0, 0), true, -0.9),
                ((2, 0), false, 0.9),
                ((3, 0), false, 0.9),
            ],
        );
        let pass_alive = vec![false; b.index_len()];
        assert!(dead_in_freed_seki(&b, &mut chains, &chain_of, &pass_alive).is_empty());
    }
}
