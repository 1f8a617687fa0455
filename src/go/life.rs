//! Unconditional life (Benson's algorithm): chains that no sequence of
//! opponent moves can capture, even if their owner always passes.
//!
//! Regions are the connected areas of points not of the colour; a region is
//! vital to a chain when every empty point in it is a liberty of the chain.
//! Chains with fewer than two vital regions are dropped, then regions that
//! touch a dropped chain, until nothing changes. What remains is
//! pass-alive. Recount uses it to fix the status of safe stones before
//! estimating the rest.

use crate::go::board::{Board, Color};

/// Per point: the region index (points not of `color`) or chain id.
pub struct BensonResult {
    /// `alive[p]`: point `p` holds a pass-alive stone of the colour.
    pub alive: Vec<bool>,
    /// `territory[p]`: point `p` lies in a small region (every empty point
    /// a liberty) enclosed by pass-alive chains only: the opponent cannot
    /// live there.
    pub territory: Vec<bool>,
}

/// Runs Benson's algorithm for `color`.
pub fn benson(board: &Board, color: Color) -> BensonResult {
    let n = board.index_len();
    // Chains of the colour, by chain id.
    // Chain number by chain id (head point).
    let mut number = vec![usize::MAX; n];
    let mut chains = 0;
    for p in board.points() {
        if board.at(p) == Some(color) && board.chain_id(p) == p {
            number[p] = chains;
            chains += 1;
        }
    }
    let chain_index = |id: usize| Some(number[id]).filter(|&c| c != usize::MAX);
    // Regions: flood fill over points not of the colour.
    let mut region_of = vec![usize::MAX; n];
    let mut regions: Vec<Region> = Vec::new();
    let mut stack = Vec::new();
    for p in board.points() {
        if board.at(p) == Some(color) || region_of[p] != usize::MAX {
            continue;
        }
        let r = regions.len();
        let mut region = Region::default();
        region_of[p] = r;
        stack.push(p);
        while let Some(q) = stack.pop() {
            region.points.push(q);
            for m in board.neighbours(q) {
                if !board.on_board(m) {
                    continue;
                }
                if board.at(m) == Some(color) {
                    let c = chain_index(board.chain_id(m)).expect("chain of the colour");
                    if !region.chains.contains(&c) {
                        region.chains.push(c);
                    }
                } else if region_of[m] == usize::MAX {
                    region_of[m] = r;
                    stack.push(m);
                }
            }
        }
        regions.push(region);
    }
    // Vital: every empty point of the region is adjacent to the chain.
    // Count, per region, the empty points next to each chain.
    let vital: Vec<Vec<usize>> = regions
        .iter()
        .map(|r| {
            let mut empties = 0u32;
            let mut counts: Vec<(usize, u32)> = Vec::new();
            for &q in r.points.iter().filter(|&&q| board.at(q).is_none()) {
                empties += 1;
                let mut seen: [usize; 4] = [usize::MAX; 4];
                for (k, m) in board.neighbours(q).into_iter().enumerate() {
                    if board.at(m) != Some(color) {
                        continue;
                    }
                    let Some(c) = chain_index(board.chain_id(m)) else {
                        continue;
                    };
                    if seen[..k].contains(&c) {
                        continue;
                    }
                    seen[k] = c;
                    match counts.iter_mut().find(|e| e.0 == c) {
                        Some(e) => e.1 += 1,
                        None => counts.push((c, 1)),
                    }
                }
            }
            r.chains
                .iter()
                .copied()
                .filter(|&c| empties == 0 || counts.iter().any(|e| e.0 == c && e.1 == empties))
                .collect()
        })
        .collect();
    let mut chain_live = vec![true; chains];
    let mut region_live = vec![true; regions.len()];
    loop {
        let mut changed = false;
        let mut vital_count = vec![0u32; chains];
        for (r, v) in vital.iter().enumerate() {
            if region_live[r] {
                for &c in v {
                    vital_count[c] += 1;
                }
            }
        }
        for c in 0..chains {
            if chain_live[c] && vital_count[c] < 2 {
                chain_live[c] = false;
                changed = true;
            }
        }
        for (r, region) in regions.iter().enumerate() {
            if region_live[r] && region.chains.iter().any(|&c| !chain_live[c]) {
                region_live[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut alive = vec![false; n];
    let mut territory = vec![false; n];
    for p in board.points() {
        if board.at(p) == Some(color) {
            alive[p] = chain_index(board.chain_id(p)).is_some_and(|c| chain_live[c]);
        } else {
            let r = region_of[p];
            // Only small regions (vital to a living chain) are certain:
            // the opponent may still live in a large one.
            territory[p] = region_live[r] && !vital[r].is_empty();
        }
    }
    BensonResult { alive, territory }
}

#[derive(Default)]
struct Region {
    points: Vec<usize>,
    chains: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive_map(board: &Board, color: Color) -> String {
        let b = benson(board, color);
        let mut s = String::new();
        for y in 0..board.height() {
            for x in 0..board.width() {
                let p = board.index(x, y);
                s.push(if b.alive[p] {
                    'A'
                } else if b.territory[p] {
                    't'
                } else {
                    '.'
                });
            }
            s.push('/');
        }
        s
    }

    #[test]
    fn two_eyes_live_one_eye_does_not() {
        let b = Board::from_diagram(
            ". X . X O .
             X X X X O .
             O O O O O .
             . . . . . .",
        );
        assert_eq!(alive_map(&b, Color::Black), "tAtA../AAAA../....../....../");
        let one_eye = Board::from_diagram(
            ". X X X O .
             X X X X O .
             O O O O O .
             . . . . . .",
        );
        assert_eq!(
            alive_map(&one_eye, Color::Black),
            "....../....../....../....../"
        );
    }

    #[test]
    fn opponent_stone_inside_does_not_spoil_a_vital_region() {
        // The white stone in the corner eye is dead; the eye is still vital,
        // and the row below is too small for White to live in.
        let b = Board::from_diagram(
            "O X . X
             X X X X
             . . . .",
        );
        assert_eq!(alive_map(&b, Color::Black), "tAtA/AAAA/tttt/");
    }
}
