//! 3×3 shape patterns for the playouts: the local answers (hane, cut,
//! edge moves) that Monte-Carlo Go programs since MoGo (Gelly, Wang, Munos
//! and Teytaud, 2006) play around the last move instead of a random move.
//!
//! A pattern is a 3×3 neighbourhood with the move at its centre, read in
//! any of its 8 rotations and reflections and with the colours either way
//! round. In the diagrams `X` and `O` are the two colours, `x` is "not `X`"
//! (empty or `O`), `o` "not `O`", `.` empty, `?` anything, `#` off the
//! board.

use crate::go::board::Board;
use std::sync::OnceLock;

/// The patterns, rows from the top; the centre is the move.
const PATTERNS: [[&str; 3]; 13] = [
    // Hane enclosing a stone.
    ["XOX", "...", "???"],
    // Hane that does not cut.
    ["XO.", "...", "?.?"],
    // Magari, the bend around a hane.
    ["XO?", "X..", "x.?"],
    // Attachment diagonal to an own stone.
    [".O.", "X..", "..."],
    // An unprotected cut.
    ["XO?", "O.o", "?o?"],
    // A peeped cut.
    ["XO?", "O.X", "???"],
    // Cutting through between two stones.
    ["?X?", "O.O", "ooo"],
    // Cutting a knight's move.
    ["OX?", "o.O", "???"],
    // On the edge: chasing along it.
    ["X.?", "O.?", "###"],
    // On the edge: blocking a cut along it.
    ["OX?", "X.O", "###"],
    // On the edge: blocking a connection along it.
    ["?X?", "x.O", "###"],
    // On the edge: sagari, the descent.
    ["?XO", "x.x", "###"],
    // On the edge: cutting.
    ["?OX", "X.O", "###"],
];

/// Cell codes as the board stores them.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// The 8 neighbours of the centre in code order: row above left to right,
/// left, right, row below left to right, as (column, row) offsets.
const AROUND: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Which cell codes a pattern character allows when `X` is colour `x`.
fn allowed(ch: u8, x: u8) -> Vec<u8> {
    let o = BLACK + WHITE - x;
    match ch {
        b'?' => vec![EMPTY, BLACK, WHITE, EDGE],
        b'.' => vec![EMPTY],
        b'#' => vec![EDGE],
        b'X' => vec![x],
        b'O' => vec![o],
        // Not X: empty or O (the board's edge is neither); not O likewise.
        b'x' => vec![EMPTY, o],
        b'o' => vec![EMPTY, x],
        _ => unreachable!("pattern character {}", ch as char),
    }
}

/// Per 16-bit neighbourhood code: whether some pattern matches.
fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![false; 1 << 16];
        for rows in PATTERNS {
            let cell = |dx: i8, dy: i8| rows[(dy + 1) as usize].as_bytes()[(dx + 1) as usize];
            // The 8 symmetries: swap the axes or not, mirror each or not.
            for sym in 0..8u8 {
                let at = |(dx, dy): (i8, i8)| {
                    let (mut a, mut b) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
                    if sym & 1 != 0 {
                        a = -a;
                    }
                    if sym & 2 != 0 {
                        b = -b;
                    }
                    cell(a, b)
                };
                for x in [BLACK, WHITE] {
                    let choices: Vec<Vec<u8>> = AROUND.iter().map(|&d| allowed(at(d), x)).collect();
                    mark_all(&choices, 0, 0, &mut t);
                }
            }
        }
        t
    })
}

/// Marks every code the per-neighbour `choices` allow, from neighbour `i`
/// on with the bits so far in `code`.
fn mark_all(choices: &[Vec<u8>], i: usize, code: usize, t: &mut [bool]) {
    if i == choices.len() {
        t[code] = true;
        return;
    }
    for &c in &choices[i] {
        mark_all(choices, i + 1, code | (c as usize) << (2 * i), t);
    }
}

/// The 8 points around `p` (some may be off the board), in code order.
pub fn around(b: &Board, p: usize) -> [usize; 8] {
    let s = b.stride();
    [
        p - s - 1,
        p - s,
        p - s + 1,
        p - 1,
        p + 1,
        p + s - 1,
        p + s,
        p + s + 1,
    ]
}

/// The 16-bit neighbourhood code of point `p`.
fn code(b: &Board, p: usize) -> usize {
    around(b, p).iter().enumerate().fold(0, |code, (i, &q)| {
        code | (b.cell_code(q) as usize) << (2 * i)
    })
}

/// Whether empty point `p`'s neighbourhood matches a pattern.
pub fn matches(b: &Board, p: usize) -> bool {
    table()[code(b, p)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hane_matches_in_every_orientation_and_colour() {
        // X O X above an empty row: the point under O is the hane.
        for rows in [
            ". . . . .\n. X O X .\n. . . . .\n. . . . .",
            ". . . . .\n. O X O .\n. . . . .\n. . . . .",
        ] {
            let b = Board::from_diagram(rows);
            assert!(matches(&b, b.index(2, 2)), "{rows}");
        }
        // Turned a quarter: X above O above X in a column, the point
        // right of O.
        let b = Board::from_diagram(
            ". . . . .
             . X . . .
             . O . . .
             . X . . .
             . . . . .",
        );
        assert!(matches(&b, b.index(2, 2)));
        assert!(matches(&b, b.index(0, 2)));
    }

    #[test]
    fn an_empty_neighbourhood_matches_nothing() {
        let b = Board::from_diagram(
            ". . . . .
             . . . . .
             . . . . .
             . . . . .
             . . . . .",
        );
        for y in 0..5 {
            for x in 0..5 {
                assert!(!matches(&b, b.index(x, y)), "({x},{y})");
            }
        }
    }

    #[test]
    fn edge_patterns_match_on_the_first_line() {
        // Sagari, ?XO / x.x / ###: the move descends to the edge under X,
        // beside O's stone above-right.
        let b = Board::from_diagram(
            ". . . . .
             . . . . .
             . . . . .
             . X O . .
             . . . . .",
        );
        assert!(matches(&b, b.index(1, 4)));
        // On the first line with nothing around, no pattern.
        assert!(!matches(&b, b.index(4, 4)));
    }
}
