//! The must-fill rule: once the dame are filled, a chain left in atari
//! must connect inside its own territory, and that point is no territory
//! (it still counts as area). This is how GNU Go and KGS count under
//! territory scoring. The dame are filled as the players would at the
//! end: the most urgent first, each by the side whose stone there is safe.

use crate::go::board::{Board, Color};
use crate::go::settle::{PointKind, Settlement};
use std::cmp::Ordering;

/// Finds territory points that must be filled: when the opponent fills
/// the dame next to a living chain, a chain left with a single liberty
/// inside its own territory has to connect there, which costs that point
/// under territory scoring (Japanese counting; GNU Go and KGS count so).
pub(super) fn mark_fills(live: &Board, s: &mut Settlement) {
    // Fill the dame as the players would at the end, the most urgent first:
    // each dame goes to the side whose stone there is safe (two liberties,
    // no capture), the side whose neighbouring chains are shorter of
    // liberties first (it defends them); between chains as short, the side
    // whose stone there joins two of its chains (it keeps them connected),
    // else Black.
    let mut b = live.clone();
    let dame: Vec<usize> = live
        .points()
        .filter(|&p| s.kinds[p] == Some(PointKind::Dame))
        .collect();
    let need = |b: &Board, c: Color, d: usize| -> usize {
        b.neighbours(d)
            .iter()
            .filter(|&&q| b.at(q) == Some(c))
            .map(|&q| {
                // Four or more (all the same here) are told without a walk.
                if b.surely_more_liberties_than(q, 3) {
                    4
                } else {
                    b.liberties(q, 4).len()
                }
            })
            .min()
            .unwrap_or(4)
    };
    // Whether a `c` stone on `d` would join two chains of `c`.
    let joins = |b: &Board, c: Color, d: usize| -> bool {
        let mut own = b
            .neighbours(d)
            .into_iter()
            .filter(|&q| b.at(q) == Some(c))
            .map(|q| b.chain_id(q));
        own.next().is_some_and(|first| own.any(|id| id != first))
    };
    // A dame's urgency: the liberties of the shortest chain beside it, of
    // either colour (between dame as urgent, the first on the board).
    let urgency = |b: &Board, d: usize| need(b, Color::Black, d).min(need(b, Color::White, d));
    // The dame left, each with its urgency, kept up to date as stones go
    // down (counting every chain's liberties for every dame at each step
    // took a third of the time of scoring without dead stones).
    let mut left: Vec<(usize, usize)> = dame.into_iter().map(|d| (d, urgency(&b, d))).collect();
    while let Some(k) = (0..left.len())
        .filter(|&k| b.at(left[k].0).is_none())
        .min_by_key(|&k| left[k].1)
    {
        let (d, _) = left.remove(k);
        // A stone there must keep two liberties and capture nothing: the
        // owner of a living chain whose last liberty is a dame connects
        // there before the other side can take it.
        let safe = |c: Color| b.is_legal(c, d) && b.liberties_after(c, d) >= 2 && !b.captures(c, d);
        let choice = match (safe(Color::Black), safe(Color::White)) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            (true, true) => Some(
                match need(&b, Color::White, d).cmp(&need(&b, Color::Black, d)) {
                    Ordering::Less => Color::White,
                    Ordering::Greater => Color::Black,
                    Ordering::Equal
                        if joins(&b, Color::White, d) && !joins(&b, Color::Black, d) =>
                    {
                        Color::White
                    }
                    Ordering::Equal => Color::Black,
                },
            ),
            (false, false) => None,
        };
        if let Some(c) = choice {
            b.play_at(c, d);
            s.dame_filled.push((d, c));
            // Only the chains beside `d` changed their liberties: the one
            // the stone joined and the other side's it touches (a safe
            // stone captures nothing).
            let mut touched = [b.chain_id(d); 5];
            for (t, q) in touched[1..].iter_mut().zip(b.neighbours(d)) {
                if b.at(q) == Some(c.opponent()) {
                    *t = b.chain_id(q);
                }
            }
            for e in left.iter_mut() {
                if b.neighbours(e.0)
                    .iter()
                    .any(|&q| b.at(q).is_some() && touched.contains(&b.chain_id(q)))
                {
                    e.1 = urgency(&b, e.0);
                }
            }
        }
    }
    // Then every chain left in atari with its liberty in its own territory
    // must connect there.
    loop {
        let mut changed = false;
        let chains: Vec<usize> = b.chains().collect();
        for p in chains {
            let Some(c) = b.at(p) else { continue };
            let Some(q) = b.atari_liberty(p) else {
                continue;
            };
            if s.kinds[q] == Some(PointKind::Territory(c)) && b.is_legal(c, q) {
                // A stone of the chain that was on the board before the
                // dame were filled, to name it by.
                let stone = b
                    .chain_stones(p)
                    .into_iter()
                    .filter(|&t| live.at(t).is_some())
                    .min()
                    .unwrap_or(p);
                s.fill_chains.push((q, stone));
                b.play_at(c, q);
                s.kinds[q] = Some(PointKind::Fill(c));
                s.territory[c.index()] -= 1;
                s.fills[c.index()] += 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::settle::territory::settle_diagram;

    #[test]
    fn a_dame_becomes_urgent_when_the_other_side_fills_beside_its_chain() {
        // Every empty point is dame. Black's stone and White's have two
        // liberties each. Black fills (1,0) first (its chain is shorter
        // of liberties than any White chain there), leaving it three;
        // White fills (0,1), which both need, its own chain being the
        // shorter. That takes one of Black's three: (2,0), beside Black's
        // chain only, is now as urgent as (1,1) and comes first on the
        // board, and only Black is safe there. Black then takes (1,1)
        // (a tie: Black), nobody can safely fill (1,2) (it would capture,
        // or leave White one liberty), Black fills (2,1), and (2,2) stays.
        let rows = "X . .
                    . . .
                    O . .";
        let b = Board::from_diagram(rows);
        let filled: Vec<((u8, u8), Color)> = settle_diagram(rows, &[])
            .dame_filled
            .iter()
            .map(|&(p, c)| (b.xy(p), c))
            .collect();
        use Color::{Black, White};
        assert_eq!(
            filled,
            [
                ((1, 0), Black),
                ((0, 1), White),
                ((2, 0), Black),
                ((1, 1), Black),
                ((2, 1), Black)
            ]
        );
    }

    #[test]
    fn the_most_urgent_dame_is_filled_first() {
        // White's chain at (6,2)-(6,3) has one point of territory, (6,1),
        // and the dame (5,3). The dame (4,3) next to (5,3) is needed
        // equally by White's living group at (3,3) and Black's at (4,2). In
        // board order, the tie at (4,3) went to Black first; (5,3) was then
        // self-atari for White, Black filled it too and White had to fill
        // (6,1). A player defends the chain short of liberties first: White
        // fills (5,3), then (4,3), and loses nothing.
        let s = settle_diagram(
            ". O . O . O O O .
             O O O O O O . O O
             X X X X X X O X X
             . X O O . . O X .
             X X O . O X X X X
             . X O O O X . X .
             X X O . O X X X X
             . X O . O X . X .",
            &[],
        );
        assert_eq!(s.fills, [0, 0]);
        assert_eq!(s.territory, [8, 8]);
        assert_eq!(s.dame, 2);
    }

    #[test]
    fn no_dame_is_filled_with_a_capture() {
        // Black's chain at (3,1)-(5,1) has only dame liberties: (4,0),
        // (6,0), (4,2). Black fills (4,0) first (White's stone at (3,0)
        // beside it is the shortest chain, and only Black is safe there),
        // which leaves that stone one liberty, (2,0), in White's territory.
        // White then fills (6,0). A white stone on (4,2) would capture
        // Black's chain and give the stone its liberty back, but no dame
        // is filled with a capture (the owner of a living chain connects
        // first; here Black cannot safely, so (4,2) stays empty): White
        // must fill (2,0).
        let rows = ". O . O . X .
                    O O O X X X O
                    . O O O . O O
                    O O . O O O .";
        let (b, s) = (Board::from_diagram(rows), settle_diagram(rows, &[]));
        assert_eq!(s.fills, [0, 1]);
        assert_eq!(s.fill_chains, vec![(b.index(2, 0), b.index(3, 0))]);
        assert_eq!(
            s.dame_filled,
            vec![(b.index(4, 0), Color::Black), (b.index(6, 0), Color::White)]
        );
    }
}
