//! Killing shapes (nakade): the eye spaces of three to six points that
//! make only one eye when the other side plays their vital point.
//!
//! The playouts use this after a capture: when the captured side's stones
//! leave such a shape inside the capturer's group, the captured side
//! replays at its centre at once, as a player would. Random moves find that
//! point too late, so groups with a killing shape lived in the playouts.

use super::board::{Board, Color};

/// Eye spaces larger than this are never a killing shape.
const MOST: usize = 6;

/// The vital point of the empty region holding the points `emptied` by a
/// capture of `capturer`'s, when that region is a killing shape bordered
/// only by `capturer`'s stones (and the edge): straight or bent three,
/// pyramid four, bulky five, crossed five or rabbity six. The shape is told
/// by how many of each point's neighbours lie in the region: its vital
/// point is the one with the most.
pub fn vital_point(b: &Board, capturer: Color, emptied: &[usize]) -> Option<usize> {
    if emptied.len() < 3 || emptied.len() > MOST {
        return None;
    }
    let mut region: Vec<usize> = Vec::with_capacity(MOST + 1);
    region.push(emptied[0]);
    let mut k = 0;
    while k < region.len() {
        let p = region[k];
        k += 1;
        for q in b.neighbours(p) {
            if !b.on_board(q) || region.contains(&q) {
                continue;
            }
            match b.at(q) {
                None => {
                    if region.len() == MOST {
                        return None;
                    }
                    region.push(q);
                }
                Some(c) if c != capturer => return None,
                Some(_) => {}
            }
        }
    }
    // All captured points must be in this one region.
    if emptied.iter().any(|p| !region.contains(p)) {
        return None;
    }
    let degree = |p: usize| {
        b.neighbours(p)
            .iter()
            .filter(|q| region.contains(q))
            .count()
    };
    let mut degrees: Vec<(usize, usize)> = region.iter().map(|&p| (degree(p), p)).collect();
    degrees.sort_unstable();
    let shape: Vec<usize> = degrees.iter().map(|&(d, _)| d).collect();
    let killing: &[&[usize]] = &[
        &[1, 1, 2],          // straight or bent three
        &[1, 1, 1, 3],       // pyramid four
        &[1, 2, 2, 2, 3],    // bulky five (the only five with a 2×2 block)
        &[1, 1, 1, 1, 4],    // crossed five
        &[1, 1, 2, 2, 2, 4], // rabbity six
    ];
    if killing.contains(&shape.as_slice()) {
        degrees.last().map(|&(_, p)| p)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The region marked `.` inside White's stones; returns its vital point
    /// as (x, y).
    fn vital(rows: &str) -> Option<(u8, u8)> {
        let b = Board::from_diagram(rows);
        let empty: Vec<usize> = b.points().filter(|&p| b.at(p).is_none()).collect();
        vital_point(&b, Color::White, &empty).map(|p| b.xy(p))
    }

    #[test]
    fn the_centre_of_a_straight_three_is_vital() {
        assert_eq!(vital("OOOOO\nO...O\nOOOOO"), Some((2, 1)));
    }

    #[test]
    fn the_corner_of_a_bent_three_is_vital() {
        assert_eq!(vital("OOOO\nO..O\nO.OO\nOOOO"), Some((1, 1)));
    }

    #[test]
    fn pyramid_four_bulky_five_and_rabbity_six_have_one_vital_point() {
        assert_eq!(vital("OOOOO\nO...O\nOO.OO\nOOOOO"), Some((2, 1)));
        assert_eq!(vital("OOOOO\nO...O\nO..OO\nOOOOO"), Some((2, 1)));
        assert_eq!(
            vital("OOOOOO\nOO.OOO\nO...OO\nOO..OO\nOOOOOO"),
            Some((2, 2))
        );
    }

    #[test]
    fn living_shapes_have_none() {
        // Straight four, square four, bent four, and a region White does
        // not surround alone.
        assert_eq!(vital("OOOOOO\nO....O\nOOOOOO"), None);
        assert_eq!(vital("OOOO\nO..O\nO..O\nOOOO"), None);
        assert_eq!(vital("OOOOO\nO...O\nOOO.O\nOOOOO"), None);
        assert_eq!(vital("OOOOX\nO...X\nOOOOX"), None);
    }
}
