//! Killing shapes (nakade): the eye spaces of three to six points that
//! make only one eye when the other side plays their vital point.
//!
//! The playouts use this after a capture: when the captured side's stones
//! leave such a shape inside the capturer's group, the captured side
//! replays at its centre at once, as a player would. Random moves find that
//! point too late, so groups with a killing shape lived in the playouts.
//! And before an atari: a chain inside the other side's eye-less group
//! whose capture would leave such a shape is in seki with it, and the
//! playouts leave it alone ([`atari_into_one_eye`]).

use crate::go::board::{Board, Color};

/// Eye spaces larger than this are never a killing shape.
const MOST: usize = 6;

/// The vital point of the empty region holding the points `emptied` by a
/// capture of `capturer`'s, when that region is a killing shape bordered
/// only by `capturer`'s stones (and the edge): straight or bent three,
/// pyramid four, bulky five, crossed five or rabbity six. The shape is told
/// by how many of each point's neighbours lie in the region: its vital
/// point is the one with the most.
#[inline]
pub fn vital_point(b: &Board, capturer: Color, emptied: &[usize]) -> Option<usize> {
    // Asked after every move of a playout; most take nothing.
    if emptied.len() < 3 || emptied.len() > MOST {
        return None;
    }
    vital_point_of(b, capturer, emptied)
}

/// [`vital_point`] once three to [`MOST`] points were emptied.
#[inline(never)]
fn vital_point_of(b: &Board, capturer: Color, emptied: &[usize]) -> Option<usize> {
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
    let shape = Shape::of(b, &region);
    shape.killing().then(|| shape.vital())
}

/// Whether `color` playing `p` puts in atari an opponent chain of three to
/// six stones that lies in `color`'s eye space (its stones touch only
/// `color`'s stones and its two liberties), shaped so that its capture
/// would leave one eye (a killing shape or square four), while no chain
/// of `color`'s beside it has another eye (an empty region only `color`
/// borders). Such a chain and the group around it are in seki: the atari
/// only starts a race the group loses, once the other side fills its
/// outside liberties, or wins into one eye. GNU Go and the players read
/// these as seki; the playouts, which filled the shared liberty when they
/// kept two liberties of their own, broke them.
#[inline]
pub fn atari_into_one_eye(b: &Board, color: Color, p: usize) -> bool {
    // A point with two empty neighbours opens onto more room than a seki's
    // shared liberty: the common case, answered first.
    if b.around(p).empty() >= 2 {
        return false;
    }
    b.neighbours(p).iter().any(|&n| {
        b.at(n) == Some(color.opponent())
            && (3..=MOST).contains(&b.chain_len(n))
            && !b.surely_more_liberties_than(n, 2)
            && seki_inside(b, color, n)
    })
}

/// The test of [`atari_into_one_eye`] for the chain through `n` (kept
/// out of line: the playouts seldom get this far).
#[inline(never)]
fn seki_inside(b: &Board, color: Color, n: usize) -> bool {
    let Some((around, libs)) = in_eye_space(b, color, n) else {
        return false;
    };
    // Each empty region beside the chains around is flooded once.
    let mut seen: Vec<usize> = Vec::new();
    !around.chains[..around.len].iter().any(|&q| {
        let mut eye = false;
        b.for_each_stone(q, |s| {
            for l in b.neighbours(s) {
                if !eye && b.on_board(l) && b.at(l).is_none() && !seen.contains(&l) {
                    eye = own_region(b, color, l, &libs, &mut seen);
                }
            }
        });
        eye
    })
}

/// The chains of `color` around (at most [`AROUND`]), for the chain
/// through `n` with exactly two liberties, shaped so that its capture would
/// leave one eye, and touching only `color`'s stones besides them; and its
/// two liberties. No allocation: the playouts ask this often.
fn in_eye_space(b: &Board, color: Color, n: usize) -> Option<(Around, [usize; 2])> {
    let libs = b.liberties(n, 3);
    let [l0, l1] = *libs.as_slice() else {
        return None;
    };
    let libs = [l0, l1];
    let mut stones = [0usize; MOST];
    let mut len = 0;
    b.for_each_stone(n, |s| {
        if len < MOST {
            stones[len] = s;
        }
        len += 1;
    });
    if len > MOST {
        return None;
    }
    let stones = &stones[..len];
    let mut around = Around::default();
    for &s in stones {
        for q in b.neighbours(s) {
            if !b.on_board(q) || stones.contains(&q) || libs.contains(&q) {
                continue;
            }
            if b.at(q) != Some(color) {
                return None;
            }
            let id = b.chain_id(q);
            if !around.chains[..around.len].contains(&id) {
                if around.len == AROUND {
                    return None;
                }
                around.chains[around.len] = id;
                around.len += 1;
            }
        }
    }
    let shape = Shape::of(b, stones);
    (shape.killing() || shape.counts() == SQUARE_FOUR).then_some((around, libs))
}

/// Most distinct chains around a chain in seki that are looked at.
const AROUND: usize = 8;

/// The distinct chains (by id) around a chain, see [`in_eye_space`].
#[derive(Default)]
struct Around {
    chains: [usize; AROUND],
    len: usize,
}

/// Whether the empty region through `p` is bordered only by `color` and
/// holds none of the points `not`; its points join `seen`. Regions past 40
/// points count as bordered by `color` once no other colour has shown up.
fn own_region(b: &Board, color: Color, p: usize, not: &[usize], seen: &mut Vec<usize>) -> bool {
    let start = seen.len();
    seen.push(p);
    let mut k = start;
    while k < seen.len() {
        let r = seen[k];
        k += 1;
        if not.contains(&r) {
            return false;
        }
        for q in b.neighbours(r) {
            if !b.on_board(q) || seen[start..].contains(&q) {
                continue;
            }
            match b.at(q) {
                None if seen.len() - start > 40 => return true,
                None => seen.push(q),
                Some(c) if c != color => return false,
                Some(_) => {}
            }
        }
    }
    true
}

/// The killing shapes by the sorted counts of each point's neighbours in
/// the shape; the last point is the vital one.
const KILLING: &[&[usize]] = &[
    &[1, 1, 2],          // straight or bent three
    &[1, 1, 1, 3],       // pyramid four
    &[1, 2, 2, 2, 3],    // bulky five (the only five with a 2×2 block)
    &[1, 1, 1, 1, 4],    // crossed five
    &[1, 1, 2, 2, 2, 4], // rabbity six
];

/// Square four: dead as it stands, with no vital point to take.
const SQUARE_FOUR: [usize; 4] = [2, 2, 2, 2];

/// At most [`MOST`] points told by shape: each point's count of neighbours
/// among them, sorted by count (then by point), without allocating.
struct Shape {
    counts: [usize; MOST],
    points: [usize; MOST],
    len: usize,
}

impl Shape {
    fn of(b: &Board, points: &[usize]) -> Shape {
        let mut sorted = [(0, 0); MOST];
        for (k, &p) in points.iter().enumerate() {
            let count = b
                .neighbours(p)
                .iter()
                .filter(|q| points.contains(q))
                .count();
            sorted[k] = (count, p);
        }
        sorted[..points.len()].sort_unstable();
        let mut shape = Shape {
            counts: [0; MOST],
            points: [0; MOST],
            len: points.len(),
        };
        for (k, &(c, p)) in sorted[..points.len()].iter().enumerate() {
            shape.counts[k] = c;
            shape.points[k] = p;
        }
        shape
    }

    /// The sorted neighbour counts, which name the shape.
    fn counts(&self) -> &[usize] {
        &self.counts[..self.len]
    }

    fn killing(&self) -> bool {
        KILLING.contains(&self.counts())
    }

    /// The point with the most neighbours: a killing shape's vital point.
    fn vital(&self) -> usize {
        self.points[self.len - 1]
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
    fn an_atari_that_would_capture_into_one_eye_is_seki() {
        // White's bent three in the corner shares its two liberties, (1, 2)
        // and (0, 4), with Black's chain around it, which has no other
        // liberty and no eye: Black's atari on either loses the race or
        // captures into a killing shape. A seki.
        let b = Board::from_diagram(
            "O O O O .
             X X X O .
             O . X O .
             O O X O .
             . X X O .",
        );
        assert!(atari_into_one_eye(&b, Color::Black, b.index(1, 2)));
        assert!(atari_into_one_eye(&b, Color::Black, b.index(0, 4)));
        // With an eye of Black's at (1, 5), the capture gives the second
        // eye: no seki, the atari is played.
        let b = Board::from_diagram(
            "O O O O .
             X X X O .
             O . X O .
             O O X O .
             . X X O .
             X . X O .",
        );
        assert!(!atari_into_one_eye(&b, Color::Black, b.index(1, 2)));
        // Two single white stones inside: no chain of three to keep.
        let b = Board::from_diagram(
            "O O O O .
             X X X O .
             O . X O .
             X O X O .
             . X X O .",
        );
        assert!(!atari_into_one_eye(&b, Color::Black, b.index(1, 2)));
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
