//! Bent four in the corner is dead. Three of the attacker's stones on the
//! edge from the corner point, sharing their only two liberties with the
//! defender's group around them, look like a seki: neither side plays
//! there. But the defender cannot capture them without leaving a straight
//! three, and the attacker, once the group's outside liberties are
//! filled, throws in at the liberty beside the corner: the defender's
//! capture of four stones leaves a bent four in the corner, a ko the
//! attacker starts when no ko threat is left. Japanese rules (1989) count
//! such a group dead without playing it out; under area scoring the
//! attacker removes the threats for nothing, so players of every rule set
//! take it off (Sensei's Library, "Bent four in the corner is dead").
//! The playouts, which fill no shared liberty, keep the group alive.

use super::ChainFate;
use crate::go::board::{Board, Color};
use crate::go::replay::chain_label;

/// A group [`dead_in_bent_four`] took off, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BentFour {
    /// The defender's chains taken off: colour, a stone (column, row from
    /// the top), stones.
    pub defender: Vec<(Color, (u8, u8), usize)>,
    /// The attacker's three stones in the corner.
    pub inside: (Color, (u8, u8)),
}

impl BentFour {
    /// One line for a person, e.g. `B chain at ea (8 stones) around W
    /// chain at aa (3 stones)`.
    pub fn describe(&self) -> String {
        let defender: Vec<String> = self
            .defender
            .iter()
            .map(|&(c, p, n)| chain_label(c, p, n))
            .collect();
        format!(
            "{} around {}",
            defender.join(", "),
            chain_label(self.inside.0, self.inside.1, 3)
        )
    }
}

/// Takes off every group in a precursor of the bent four in the corner
/// (see the module's comment) and keeps the attacker's stones inside
/// alive. The group must have no way out: each of its liberties outside
/// the corner lies in an empty region that touches a living stone of the
/// attacker and no living stone of the defender's outside the group, and
/// that the playouts do not give to the defender (no eye, no room to make
/// one, no other group to join); and no chain of the group may be
/// pass-alive. Returns the groups taken off.
pub(super) fn dead_in_bent_four(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    ownership: &[f32],
    pass_alive: &[bool],
) -> Vec<BentFour> {
    let mut taken = Vec::new();
    let (w, h) = (i32::from(board.width()), i32::from(board.height()));
    if w < 5 || h < 5 {
        return taken;
    }
    for (cx, cy) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
        let inward = |c: i32| if c == 0 { 1 } else { -1 };
        let (sx, sy) = (inward(cx), inward(cy));
        // Along one edge (e) and the other (f), both ways round.
        for ((ex, ey), (fx, fy)) in [((sx, 0), (0, sy)), ((0, sy), (sx, 0))] {
            // The point i steps along e and j along f from the corner.
            let pt = |i: i32, j: i32| {
                board.index((cx + i * ex + j * fx) as u8, (cy + i * ey + j * fy) as u8)
            };
            let corner = pt(0, 0);
            let Some(attacker) = board.at(corner) else {
                continue;
            };
            let (l1, l2) = (pt(0, 1), pt(3, 0));
            if board.chain_len(corner) != 3
                || board.at(pt(1, 0)) != Some(attacker)
                || board.at(pt(2, 0)) != Some(attacker)
                || board.at(l1).is_some()
                || board.at(l2).is_some()
                || board.liberties(corner, 3).len() != 2
            {
                continue;
            }
            // Every point around the three stones and their two
            // liberties: a stone of the defender's group.
            let defender = attacker.opponent();
            let around = [pt(1, 1), pt(2, 1), pt(3, 1), pt(4, 0), pt(0, 2)];
            if around.iter().any(|&q| board.at(q) != Some(defender)) {
                continue;
            }
            let mut group: Vec<usize> = around.iter().map(|&q| chain_of[q]).collect();
            group.sort_unstable();
            group.dedup();
            if group
                .iter()
                .any(|&i| chains[i].dead || pass_alive[chains[i].stones[0]])
            {
                continue;
            }
            let no_way_out = group.iter().all(|&i| {
                chains[i].stones.iter().all(|&s| {
                    board.neighbours(s).iter().all(|&l| {
                        !board.on_board(l)
                            || board.at(l).is_some()
                            || l == l1
                            || l == l2
                            || closed_to(board, chains, chain_of, &group, l, ownership)
                    })
                })
            });
            if !no_way_out {
                continue;
            }
            for &i in &group {
                chains[i].dead = true;
            }
            chains[chain_of[corner]].dead = false;
            taken.push(BentFour {
                defender: group
                    .iter()
                    .map(|&i| {
                        let ch = &chains[i];
                        (ch.color, board.xy(ch.stones[0]), ch.stones.len())
                    })
                    .collect(),
                inside: (attacker, board.xy(corner)),
            });
        }
    }
    taken
}

/// Whether the empty region through `liberty`, beside the defender's
/// `group`, gives it no way out: it touches a living stone of the other
/// colour, no living stone of the defender's outside the group, and the
/// playouts do not give it to the defender.
fn closed_to(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    group: &[usize],
    liberty: usize,
    ownership: &[f32],
) -> bool {
    let defender = chains[group[0]].color;
    let mut attacker_alive = false;
    let mut region = vec![liberty];
    let mut i = 0;
    while let Some(&q) = region.get(i) {
        i += 1;
        for n in board.neighbours(q) {
            if !board.on_board(n) {
                continue;
            }
            let Some(c) = board.at(n) else {
                if !region.contains(&n) {
                    region.push(n);
                }
                continue;
            };
            let i = chain_of[n];
            if chains[i].dead {
                continue;
            }
            if c == defender {
                if !group.contains(&i) {
                    return false;
                }
            } else {
                attacker_alive = true;
            }
        }
    }
    let mean = region.iter().map(|&q| ownership[q]).sum::<f32>() / region.len() as f32;
    attacker_alive && mean * defender.sign() <= 0.0
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;

    /// White's three stones in Black's corner share their liberties
    /// (0,1) and (3,0) with Black's chain around them, whose only other
    /// liberty, (5,0), lies between it and White's living stones.
    const PRECURSOR: &str = "O O O . X . O . .
                             . X X X X O O . .
                             X X O O O O . O .
                             O O O . O . O O O
                             . O . O O O O . O
                             O O O . O O . O O
                             . O . O O . O O .
                             O O O O . O O . O
                             . O . O O O O O .";

    /// Every chain of `b` alive, as the playouts leave a seki.
    fn all_alive(b: &Board) -> (Vec<ChainFate>, Vec<usize>) {
        fates(
            b,
            &b.chains()
                .map(|p| (b.xy(p), false, 1.0))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn the_group_around_a_bent_four_precursor_is_dead() {
        for turn in 0..4 {
            // Every corner, both ways round: the board turned a quarter
            // and mirrored.
            let mut b = Board::from_diagram(PRECURSOR);
            for _ in 0..turn {
                b = turned(&b);
            }
            for b in [b.clone(), mirrored(&b)] {
                let (mut chains, chain_of) = all_alive(&b);
                let own = vec![0.0; b.index_len()];
                let none = vec![false; b.index_len()];
                let taken = dead_in_bent_four(&b, &mut chains, &chain_of, &own, &none);
                assert_eq!(taken.len(), 1, "turn {turn}\n{}", b.encode());
                let black: Vec<bool> = chains
                    .iter()
                    .filter(|c| c.color == Color::Black)
                    .map(|c| c.dead)
                    .collect();
                assert_eq!(black, [true], "turn {turn}");
                assert!(chains
                    .iter()
                    .filter(|c| c.color == Color::White)
                    .all(|c| !c.dead));
                assert_eq!(taken[0].defender[0].2, 7);
            }
        }
        let b = Board::from_diagram(PRECURSOR);
        let (mut chains, chain_of) = all_alive(&b);
        let own = vec![0.0; b.index_len()];
        let none = vec![false; b.index_len()];
        let taken = dead_in_bent_four(&b, &mut chains, &chain_of, &own, &none);
        assert_eq!(
            taken[0].describe(),
            "B chain at ea (7 stones) around W chain at aa (3 stones)"
        );
    }

    #[test]
    fn a_group_with_a_way_out_or_another_shape_lives() {
        let cases = [
            // The outside liberty is an eye of Black's.
            "O O O . X . X O .
             . X X X X X X O .
             X X O O O O O O .
             O O O . O . O O O
             . O . O O O O . O",
            // The outside liberty joins another black group.
            "O O O . X . X X X
             . X X X X O X . X
             X X O O O O X X X
             O O O . O . O O O
             . O . O O O O . O",
            // Four white stones on the edge: capturing them leaves a
            // straight four, alive.
            "O O O O . X O . .
             . X X X X X O . .
             X X O O O O O O .
             O O O . O . O O O
             . O . O O O O . O",
            // A third liberty in the corner: no seki to begin with.
            "O O O . X . O . .
             . . X X X O O . .
             X X O O O O . O .
             O O O . O . O O O
             . O . O O O O . O",
        ];
        for diagram in cases {
            let b = Board::from_diagram(diagram);
            let (mut chains, chain_of) = all_alive(&b);
            let own = vec![0.0; b.index_len()];
            let none = vec![false; b.index_len()];
            let taken = dead_in_bent_four(&b, &mut chains, &chain_of, &own, &none);
            assert!(taken.is_empty(), "{diagram}");
            assert!(chains.iter().all(|c| !c.dead), "{diagram}");
        }
    }

    #[test]
    fn a_region_the_playouts_give_the_group_is_a_way_out() {
        let b = Board::from_diagram(PRECURSOR);
        let (mut chains, chain_of) = all_alive(&b);
        let mut own = vec![0.0; b.index_len()];
        own[b.index(5, 0)] = 0.6;
        let none = vec![false; b.index_len()];
        assert!(dead_in_bent_four(&b, &mut chains, &chain_of, &own, &none).is_empty());
        own[b.index(5, 0)] = -0.6;
        assert_eq!(
            dead_in_bent_four(&b, &mut chains, &chain_of, &own, &none).len(),
            1
        );
    }

    /// `b` turned a quarter clockwise (a square board).
    fn turned(b: &Board) -> Board {
        let n = b.width();
        let mut t = Board::new(n, n);
        for y in 0..n {
            for x in 0..n {
                t.set(n - 1 - y, x, b.get(x, y));
            }
        }
        t.finish_setup();
        t
    }

    /// `b` mirrored left to right.
    fn mirrored(b: &Board) -> Board {
        let (w, h) = (b.width(), b.height());
        let mut m = Board::new(w, h);
        for y in 0..h {
            for x in 0..w {
                m.set(w - 1 - x, y, b.get(x, y));
            }
        }
        m.finish_setup();
        m
    }
}
