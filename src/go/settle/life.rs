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

/// Benson's verdicts for one colour, per point.
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
    const NONE: u32 = u32::MAX;
    // Chain number by chain id (head point).
    let mut number = vec![NONE; n];
    let mut chains = 0;
    for p in board.points() {
        if board.at(p) == Some(color) && board.chain_id(p) == p {
            number[p] = chains as u32;
            chains += 1;
        }
    }
    let chain_at = |m: usize| -> Option<usize> {
        (board.at(m) == Some(color)).then(|| number[board.chain_id(m)] as usize)
    };
    // Regions: flood fill over points not of the colour. Each region's
    // chains (those next to it) lie in `region_chains[starts[r]..starts[r
    // + 1]]`, each with whether the region is vital to it: every empty
    // point of the region is its liberty (or the region has none).
    let mut region_of = vec![NONE; n];
    let mut starts: Vec<usize> = vec![0];
    let mut region_chains: Vec<usize> = Vec::new();
    let mut vital: Vec<bool> = Vec::new();
    // Per chain: the region's empty points next to it (reset per region),
    // and the last region it was listed in (a region may touch dozens of
    // chains: no scan of its list).
    let mut next_to = vec![0u32; chains];
    let mut listed_in = vec![NONE; chains];
    let mut stack = Vec::new();
    for p in board.points() {
        if board.at(p) == Some(color) || region_of[p] != NONE {
            continue;
        }
        let r = (starts.len() - 1) as u32;
        let first = region_chains.len();
        let mut empties = 0u32;
        region_of[p] = r;
        stack.push(p);
        while let Some(q) = stack.pop() {
            let empty = board.at(q).is_none();
            empties += empty as u32;
            let mut seen = [usize::MAX; 4];
            for (k, m) in board.neighbours(q).into_iter().enumerate() {
                if !board.on_board(m) {
                    continue;
                }
                match chain_at(m) {
                    Some(c) => {
                        if listed_in[c] != r {
                            listed_in[c] = r;
                            region_chains.push(c);
                        }
                        if empty && !seen[..k].contains(&c) {
                            seen[k] = c;
                            next_to[c] += 1;
                        }
                    }
                    None if region_of[m] == NONE => {
                        region_of[m] = r;
                        stack.push(m);
                    }
                    None => {}
                }
            }
        }
        for &c in &region_chains[first..] {
            vital.push(empties == 0 || next_to[c] == empties);
            next_to[c] = 0;
        }
        starts.push(region_chains.len());
    }
    let regions = starts.len() - 1;
    let span = |r: usize| starts[r]..starts[r + 1];
    let mut chain_live = vec![true; chains];
    let mut region_live = vec![true; regions];
    let mut vital_count = vec![0u32; chains];
    loop {
        let mut changed = false;
        vital_count.fill(0);
        for r in (0..regions).filter(|&r| region_live[r]) {
            for i in span(r).filter(|&i| vital[i]) {
                vital_count[region_chains[i]] += 1;
            }
        }
        for c in 0..chains {
            if chain_live[c] && vital_count[c] < 2 {
                chain_live[c] = false;
                changed = true;
            }
        }
        for r in 0..regions {
            if region_live[r] && region_chains[span(r)].iter().any(|&c| !chain_live[c]) {
                region_live[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Only small regions (vital to a living chain) are certain: the
    // opponent may still live in a large one.
    let certain: Vec<bool> = (0..regions)
        .map(|r| region_live[r] && vital[span(r)].contains(&true))
        .collect();
    let mut alive = vec![false; n];
    let mut territory = vec![false; n];
    for p in board.points() {
        if let Some(c) = chain_at(p) {
            alive[p] = chain_live[c];
        } else {
            territory[p] = certain[region_of[p] as usize];
        }
    }
    BensonResult { alive, territory }
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
