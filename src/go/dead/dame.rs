//! Dead stones players leave on the board: a chain whose removal would
//! win no territory stays.

use super::{without_dead, ChainFate};
use crate::go::board::{Board, Color, EmptyRegions, BORDER_BLACK, BORDER_WHITE};

/// Owner's mean ownership below which a chain stays dead even where
/// taking it wins no territory: the playouts (nearly) always captured it.
const DAME_REVIVE_BAR: f32 = -0.8;

/// A dead chain whose removal would leave its points in a region that
/// touches both colours, and that the referee rule would not give to the
/// opponent, wins the opponent a prisoner but no territory: players leave
/// such stones (dame stones in atari, mostly) on the board, and so does
/// the estimate, unless the playouts took them nearly always.
#[inline(never)]
pub(super) fn revive_in_dame(board: &Board, chains: &mut [ChainFate], ownership: &[f32]) {
    let live = without_dead(board, chains);
    let mut region_of = vec![usize::MAX; board.index_len()];
    let mut regions: Vec<(u8, f32)> = Vec::new();
    live.empty_regions(&mut EmptyRegions::default(), |pts, border| {
        for &q in pts {
            region_of[q] = regions.len();
        }
        let mean = pts.iter().map(|&q| ownership[q]).sum::<f32>() / pts.len() as f32;
        regions.push((border, mean));
    });
    for ch in chains.iter_mut() {
        if !ch.dead || ch.doomed || ch.mine < DAME_REVIVE_BAR {
            continue;
        }
        let (border, mean) = regions[region_of[ch.stones[0]]];
        let theirs = if ch.color == Color::Black {
            -mean
        } else {
            mean
        };
        if border == BORDER_BLACK | BORDER_WHITE && theirs < 0.9 {
            ch.dead = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;
    #[test]
    fn a_dead_stone_on_the_boundary_is_left_on_the_board() {
        // The white stone in atari sits between Black's and White's
        // stones: taking it off leaves a region touching both colours
        // (no territory), so it is not counted dead.
        let b = Board::from_diagram(
            ". X X O O
             X O . O O
             . X X O O",
        );
        let own = vec![0.0; b.index_len()];
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.2)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(!chains[0].dead);
        // Inside Black's wall it stays dead; and so does one the playouts
        // always captured.
        let b = Board::from_diagram(
            "X . X O O
             X O X O O
             X X X O O",
        );
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.2)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(chains[0].dead);
        let b = Board::from_diagram(
            ". X X O O
             X O . O O
             . X X O O",
        );
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.9)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(chains[0].dead);
    }
}
