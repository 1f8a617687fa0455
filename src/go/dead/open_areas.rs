//! Chains reaching into the other side's open area are dead: a finished
//! game leaves no open area between living stones of both colours.

use super::{without_dead, ChainFate};
use crate::go::board::{Board, Color, EmptyRegions, BORDER_BLACK, BORDER_WHITE};
use crate::go::replay::chain_label;
use crate::go::settle::territory::MAX_SEKI_REGION;

/// Mean ownership a region open between the colours needs for
/// [`dead_beside_open_areas`] to give it to one side. On the KGS archives,
/// bars from 0.1 to 0.3 and regions from 7 to 14 points gained alike
/// (0.5 gained 4 exact-margin games fewer).
const OPEN_AREA_OWNERSHIP: f32 = 0.3;

/// Owner's mean ownership from which a chain beside an open area stays
/// alive whatever the area: the playouts kept it nine times in ten (as
/// accurate as no such bound on the KGS archives; it guards living walls
/// on the far side of an area).
const OPEN_AREA_KEPT: f32 = 0.8;

/// A chain `dead_beside_open_areas` took off, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAreaChain {
    pub color: Color,
    /// A stone of the chain (column, row from the top).
    pub point: (u8, u8),
    pub stones: usize,
    /// Points of the open area it reached into.
    pub area: usize,
}

impl OpenAreaChain {
    /// One line for a person, e.g. `B chain at pq (1 stone), in a
    /// 38-point area the playouts give to White`.
    pub fn describe(&self) -> String {
        format!(
            "{}, in a {}-point area the playouts give to {:?}",
            chain_label(self.color, self.point, self.stones),
            self.area,
            self.color.opponent()
        )
    }
}

/// A finished game leaves no open area between living stones of both
/// colours. A region bordered by both, larger than any seki's shared
/// liberties ([`MAX_SEKI_REGION`]), that the playouts give mostly to one
/// side ([`OPEN_AREA_OWNERSHIP`]) is that side's area behind an unclosed
/// boundary, and the other side's chains reaching into it are dead stones
/// the players took off, unless the playouts kept them nearly always
/// ([`OPEN_AREA_KEPT`]) or they enclose an area of their own with a
/// living chain of their colour ([`beside_a_living_chains_area`]: on the
/// marked KGS games, a 16-stone chain joined so two ways to its living
/// group, 2017-02-23-31). The playouts keep such chains alive when they
/// run out into the area or make a seki there, and the count then has
/// tens of points of dame and often the wrong winner. The area owner's
/// dead chains beside a chain taken off lost their race to it, and live
/// (unless doomed). Repeated until no chain changes: a chain taken off
/// can open the area of the chains beside it, and an area stays the side's
/// it was given to in an earlier round. Returns the chains taken off.
pub(super) fn dead_beside_open_areas(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    ownership: &[f32],
    pass_alive: &[bool],
) -> Vec<OpenAreaChain> {
    let mut taken = Vec::new();
    // Chains revived beside a chain taken off: they stay.
    let mut revived = vec![false; chains.len()];
    // Per point: the side an open area belongs to, and its size.
    let mut area: Vec<Option<(Color, usize)>> = vec![None; board.index_len()];
    // Per point: the side an open area of an earlier round belonged to.
    // Taking chains off frees their points, whose ownership leans to their
    // side, into the area: its mean can then fall under the bar, but the
    // area stays the side's it was (on the KGS archives, over twelve
    // seeds: 43 games changed, all to `RE`'s count, none lost).
    let mut given: Vec<Option<Color>> = vec![None; board.index_len()];
    // The regions of the final position one colour encloses alone.
    let enclosed = own_areas(board, chains, chain_of);
    loop {
        area.iter_mut().for_each(|a| *a = None);
        let live = without_dead(board, chains);
        live.empty_regions(&mut EmptyRegions::default(), |pts, border| {
            if border != BORDER_BLACK | BORDER_WHITE || pts.len() <= MAX_SEKI_REGION {
                return;
            }
            let mean = pts.iter().map(|&q| ownership[q]).sum::<f32>() / pts.len() as f32;
            let given_to = |c: Color| pts.iter().any(|&q| given[q] == Some(c));
            let owner = if mean >= OPEN_AREA_OWNERSHIP {
                Color::Black
            } else if mean <= -OPEN_AREA_OWNERSHIP {
                Color::White
            } else if given_to(Color::Black) && !given_to(Color::White) {
                Color::Black
            } else if given_to(Color::White) && !given_to(Color::Black) {
                Color::White
            } else {
                return;
            };
            for &q in pts {
                area[q] = Some((owner, pts.len()));
            }
        });
        for (g, a) in given.iter_mut().zip(&area) {
            if let Some((c, _)) = a {
                *g = Some(*c);
            }
        }
        // Per chain: the size of the other side's open area it reaches.
        let reach: Vec<Option<usize>> = chains
            .iter()
            .map(|ch| {
                let theirs = ch.color.opponent();
                ch.stones.iter().find_map(|&q| {
                    board.neighbours(q).iter().find_map(|&m| match area[m] {
                        Some((c, len)) if c == theirs => Some(len),
                        _ => None,
                    })
                })
            })
            .collect();
        let joined = beside_a_living_chains_area(&enclosed, chains, &reach, pass_alive);
        let mut now_taken = Vec::new();
        for (i, ch) in chains.iter_mut().enumerate() {
            if ch.dead || ch.mine >= OPEN_AREA_KEPT || pass_alive[ch.stones[0]] || revived[i] {
                continue;
            }
            if let Some(len) = reach[i].filter(|_| !joined[i]) {
                ch.dead = true;
                now_taken.push(i);
                taken.push(OpenAreaChain {
                    color: ch.color,
                    point: board.xy(ch.stones[0]),
                    stones: ch.stones.len(),
                    area: len,
                });
            }
        }
        if now_taken.is_empty() {
            return taken;
        }
        // The area owner's dead chains beside a chain taken off were dead
        // because they lost the race with it: they live. (In a corner the
        // playouts give to White, Black's chain kills White's chain on the
        // edge, and dies with it: the players kept White's.)
        for i in now_taken {
            let beside: Vec<usize> = chains[i]
                .stones
                .iter()
                .flat_map(|&q| board.neighbours(q))
                .filter(|&m| board.at(m) == Some(chains[i].color.opponent()))
                .map(|m| chain_of[m])
                .collect();
            for j in beside {
                if chains[j].dead && !chains[j].doomed {
                    chains[j].dead = false;
                    revived[j] = true;
                }
            }
        }
    }
}

/// The chains beside each empty region of `board` bordered by one colour
/// alone (by that colour's chains only), each list in order.
fn own_areas(board: &Board, chains: &[ChainFate], chain_of: &[usize]) -> Vec<Vec<usize>> {
    let mut areas = Vec::new();
    board.empty_regions(&mut EmptyRegions::default(), |pts, border| {
        let color = match border {
            BORDER_BLACK => Color::Black,
            BORDER_WHITE => Color::White,
            _ => return,
        };
        let mut beside: Vec<usize> = pts
            .iter()
            .flat_map(|&q| board.neighbours(q))
            .filter(|&m| board.at(m) == Some(color))
            .map(|m| chain_of[m])
            .filter(|&j| j < chains.len())
            .collect();
        beside.sort_unstable();
        beside.dedup();
        areas.push(beside);
    });
    areas
}

/// Per chain: it encloses one of `own_areas` together with a chain of its
/// colour that lives (kept nearly always by the playouts, or
/// pass-alive) and reaches into no open area of the other side (`reach`
/// none): the two are connected through their area, which the other
/// side enters only to be captured.
fn beside_a_living_chains_area(
    own_areas: &[Vec<usize>],
    chains: &[ChainFate],
    reach: &[Option<usize>],
    pass_alive: &[bool],
) -> Vec<bool> {
    let lives = |j: usize| {
        let ch = &chains[j];
        !ch.dead && reach[j].is_none() && (ch.mine >= OPEN_AREA_KEPT || pass_alive[ch.stones[0]])
    };
    let mut joined = vec![false; chains.len()];
    for beside in own_areas.iter().filter(|b| b.iter().any(|&j| lives(j))) {
        for &j in beside {
            joined[j] = true;
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;
    #[test]
    fn a_chain_in_the_other_sides_open_area_is_taken_off() {
        // A white stone in a 24-point area between Black's and White's
        // walls that the playouts mostly give to Black.
        let b = Board::from_diagram(
            "X X . . . . . O O
             X X . . . . . O O
             X X . . O . . O O
             X X . . . . . O O
             X X . . . . . O O",
        );
        let n = b.index_len();
        let owned_by = |v: f32| {
            let mut own = vec![0.0; n];
            for p in b.points().filter(|&p| b.at(p).is_none()) {
                own[p] = v;
            }
            own
        };
        let verdicts = [
            ((0, 0), false, 0.9),
            ((7, 0), false, 0.9),
            ((4, 2), false, 0.4),
        ];
        let no_pass_alive = vec![false; n];
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let taken =
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.5), &no_pass_alive);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        // The stone is taken off; White's wall, kept nearly always, stays.
        assert_eq!(dead, [false, false, true]);
        assert_eq!(
            taken.iter().map(|t| t.describe()).collect::<Vec<_>>(),
            ["W chain at ec (1 stone), in a 24-point area the playouts give to Black"]
        );
        // An area the playouts share evenly belongs to nobody.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        assert!(
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.1), &no_pass_alive)
                .is_empty()
        );
        // A pass-alive chain stays whatever the area.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let mut pass_alive = no_pass_alive.clone();
        pass_alive[b.index(4, 2)] = true;
        assert!(
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.5), &pass_alive)
                .is_empty()
        );
        // A region no larger than a seki's shared liberties is no open
        // area: White's chain beside five such points stays.
        let b = Board::from_diagram(
            "X . . O
             X . O O
             X . . O",
        );
        let (mut chains, chain_of) = fates(&b, &[((0, 0), false, 0.9), ((3, 0), false, 0.4)]);
        let own = vec![0.5; b.index_len()];
        assert!(dead_beside_open_areas(
            &b,
            &mut chains,
            &chain_of,
            &own,
            &vec![false; b.index_len()]
        )
        .is_empty());
    }

    #[test]
    fn a_chain_enclosing_its_own_area_with_a_living_chain_stays() {
        // Black's chain in column 3 reaches into the 15-point area the
        // playouts give to White, and encloses column 2 with Black's
        // chain in column 1: the two are connected through that area.
        let b = Board::from_diagram(
            ". X . X . . . O O
             X X . X . . . O O
             . X . X . . . O O
             X X . X . . . O O
             . X . X . . . O O",
        );
        let white_area = vec![-0.5; b.index_len()];
        let no_pass_alive = vec![false; b.index_len()];
        let run = |beside: f32| {
            let verdicts = [
                ((1, 0), false, beside),
                ((3, 0), false, 0.4),
                ((7, 0), false, 0.9),
            ];
            let (mut chains, chain_of) = fates(&b, &verdicts);
            dead_beside_open_areas(&b, &mut chains, &chain_of, &white_area, &no_pass_alive);
            chains.iter().map(|c| c.dead).collect::<Vec<_>>()
        };
        assert_eq!(run(0.9), [false, false, false]);
        // Beside a chain the playouts did not keep nearly always, it is
        // taken off, and then that chain too: column 2 joins the area.
        assert_eq!(run(0.4), [true, true, false]);
    }

    #[test]
    fn an_area_stays_its_sides_when_the_chains_taken_off_join_it() {
        // White's chain at (3,2) reaches into the 12-point area Black's
        // (mean 0.5) and is taken off. Its points, which leaned White's
        // way (-0.4), and the 3-point pocket below it (0.0) then join the
        // area: 18 points whose mean, 0.27, is under the bar. It is still
        // Black's, so White's stone at (4,4), which reached only the
        // pocket, is taken off too, as the players did.
        let b = Board::from_diagram(
            "X X . . . . . O O
             X X . . . . . O O
             X X . O O O . O O
             X X X . . . X O O
             X X X X O X X O O",
        );
        let mut own = vec![0.0; b.index_len()];
        for p in b.points().filter(|&p| b.at(p).is_none()) {
            own[p] = if b.xy(p).1 == 3 { 0.0 } else { 0.5 };
        }
        for x in 3..6 {
            own[b.index(x, 2)] = -0.4;
        }
        let verdicts = [
            ((0, 0), false, 0.9),
            ((7, 0), false, 0.9),
            ((6, 3), false, 0.9),
            ((3, 2), false, 0.4),
            ((4, 4), false, 0.4),
        ];
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let taken = dead_beside_open_areas(
            &b,
            &mut chains,
            &chain_of,
            &own,
            &vec![false; b.index_len()],
        );
        assert_eq!(
            taken.iter().map(|t| t.describe()).collect::<Vec<_>>(),
            [
                "W chain at dc (3 stones), in a 12-point area the playouts give to Black",
                "W chain at ee (1 stone), in a 18-point area the playouts give to Black",
            ]
        );
    }

    #[test]
    fn the_area_owners_chain_that_lost_a_race_to_a_chain_taken_off_lives() {
        // In an area the playouts give to White, Black's stone at (5,2)
        // is taken off; White's stone beside it, which the playouts
        // captured in their race (dead), lives.
        let b = Board::from_diagram(
            "X X . . . . . O O
             X X . . . . . O O
             X X . . O X . O O
             X X . . . . . O O
             X X . . . . . O O",
        );
        let verdicts = [
            ((0, 0), false, 0.9),
            ((7, 0), false, 0.9),
            ((4, 2), true, -0.5),
            ((5, 2), false, 0.4),
        ];
        let white_area = vec![-0.5; b.index_len()];
        let no_pass_alive = vec![false; b.index_len()];
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let taken = dead_beside_open_areas(&b, &mut chains, &chain_of, &white_area, &no_pass_alive);
        assert_eq!(taken.len(), 1);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        assert_eq!(dead, [false, false, false, true]);
        // Doomed (say, in atari with no way out), it stays dead.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        chains[2].doomed = true;
        dead_beside_open_areas(&b, &mut chains, &chain_of, &white_area, &no_pass_alive);
        assert!(chains[2].dead);
    }
}
