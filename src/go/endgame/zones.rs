//! Splitting a position into independent endgame zones.
//!
//! Safe stones (alive whatever happens: the diagram's outer stones, Benson's
//! pass-alive chains, or in a real game the stones that live to the end) and
//! settled territory fence the board. What is left, empty points and unsafe
//! stones, falls into connected zones that share no point, so each is
//! searched on its own and the results add up (seed
//! `independent-zones-search.en.md`).

use crate::go::board::{Board, Color};
use crate::go::endgame::local_game::{LocalBoard, Stones, MAX_POINTS};

/// What fences a point off from the zones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixed {
    /// A safe stone of this colour.
    Stone(Color),
    /// An empty point already settled as this colour's territory.
    Territory(Color),
    /// A dead stone inside this colour's settled territory: its prisoner.
    Prisoner(Color),
}

impl Fixed {
    /// The colour the point counts for (and fences zones for).
    pub fn color(self) -> Color {
        match self {
            Fixed::Stone(c) | Fixed::Territory(c) | Fixed::Prisoner(c) => c,
        }
    }

    /// What the point adds to the count: 1 for territory, 2 for a
    /// prisoner on territory (signed for the colour), 0 for a stone.
    pub fn count(self) -> i32 {
        let n = match self {
            Fixed::Stone(_) => 0,
            Fixed::Territory(_) => 1,
            Fixed::Prisoner(_) => 2,
        };
        if self.color() == Color::Black {
            n
        } else {
            -n
        }
    }
}

/// One zone: its points and its local game.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Board indices, in board order (row by row from the top left).
    pub points: Vec<usize>,
    /// Empty points at the start.
    pub empties: usize,
    /// The local board, when the zone fits it ([`MAX_POINTS`]).
    pub local: Option<LocalBoard>,
    /// The zone's stones at the start.
    pub start: Stones,
    /// Fenced by one colour only and holding no stone: that colour's
    /// territory, nothing to search.
    pub territory_of: Option<Color>,
}

impl Zone {
    /// The zone point index of board point `p`.
    pub fn local_index(&self, p: usize) -> Option<usize> {
        self.points.binary_search(&p).ok()
    }
}

/// The zones of `board` once `fixed` points are taken out (`fixed[p]` is
/// `Some` for safe stones and settled territory).
pub fn split(board: &Board, fixed: &[Option<Fixed>]) -> Vec<Zone> {
    let n = board.index_len();
    let mut zone_of = vec![usize::MAX; n];
    let mut zones = Vec::new();
    let mut stack = Vec::new();
    for p in board.points() {
        if fixed[p].is_some() || zone_of[p] != usize::MAX {
            continue;
        }
        let id = zones.len();
        let mut points = Vec::new();
        zone_of[p] = id;
        stack.push(p);
        while let Some(q) = stack.pop() {
            points.push(q);
            for r in board.neighbours(q) {
                if board.on_board(r) && fixed[r].is_none() && zone_of[r] == usize::MAX {
                    zone_of[r] = id;
                    stack.push(r);
                }
            }
        }
        points.sort_unstable();
        zones.push(make_zone(board, fixed, points));
    }
    zones
}

fn make_zone(board: &Board, fixed: &[Option<Fixed>], points: Vec<usize>) -> Zone {
    let mut fences = [false; 2];
    let mut start = Stones::default();
    let mut empties = 0;
    let mut adj = Vec::with_capacity(points.len());
    let mut safe = [Vec::new(), Vec::new()];
    for (i, &p) in points.iter().enumerate() {
        match board.at(p) {
            None => empties += 1,
            Some(Color::Black) if i < MAX_POINTS => start.black |= 1 << i,
            Some(Color::White) if i < MAX_POINTS => start.white |= 1 << i,
            Some(_) => {}
        }
        let mut touch = [false; 2];
        let mut nb = Vec::new();
        for r in board.neighbours(p) {
            if !board.on_board(r) {
                continue;
            }
            match fixed[r] {
                Some(f) => touch[f.color().index()] = true,
                None => nb.push(points.binary_search(&r).expect("same zone")),
            }
        }
        fences[0] |= touch[0];
        fences[1] |= touch[1];
        safe[0].push(touch[0]);
        safe[1].push(touch[1]);
        adj.push(nb);
    }
    let territory_of = if empties == points.len() && fences[0] != fences[1] {
        Some(if fences[0] {
            Color::Black
        } else {
            Color::White
        })
    } else {
        None
    };
    let local = (points.len() <= MAX_POINTS).then(|| LocalBoard::new(&adj, &safe[0], &safe[1]));
    Zone {
        points,
        empties,
        local,
        start,
        territory_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_the_unfenced_areas() {
        let b = Board::from_diagram(
            "X . O . . O
             X X X O O O",
        );
        // The bottom row is safe; the lone White stone on top is not.
        let fixed: Vec<Option<Fixed>> = (0..b.index_len())
            .map(|p| {
                let (_, y) = if b.on_board(p) { b.xy(p) } else { (0, 0) };
                match b.at(p) {
                    Some(c) if y == 1 || p == b.index(0, 0) || p == b.index(5, 0) => {
                        Some(Fixed::Stone(c))
                    }
                    _ => None,
                }
            })
            .collect();
        let zones = split(&b, &fixed);
        let pts: Vec<Vec<(u8, u8)>> = zones
            .iter()
            .map(|z| z.points.iter().map(|&p| b.xy(p)).collect())
            .collect();
        assert_eq!(pts, [vec![(1, 0), (2, 0), (3, 0), (4, 0)]]);
        assert_eq!(zones[0].empties, 3);
        assert_eq!(zones[0].start.white, 0b10);
        assert_eq!(zones[0].territory_of, None);
    }
}
