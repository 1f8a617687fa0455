//! Capturing races between two one-eyed chains where one eye is big and
//! the other small: big eye beats small eye.

use super::{liberties, ChainFate};
use crate::go::board::{Board, Color};
use crate::go::replay::chain_label;

/// A race [`dead_in_eye_races`] decided, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EyeRace {
    /// The chain taken off and the chain that captures it: colour, a
    /// stone (column, row from the top), stones.
    pub loser: (Color, (u8, u8), usize),
    pub winner: (Color, (u8, u8), usize),
    /// The points of each one's eye (the winner's counting the loser's
    /// dead stones inside), loser first.
    pub eyes: [usize; 2],
    /// Each one's liberties in the race count, loser first.
    pub liberties: [usize; 2],
}

impl EyeRace {
    /// One line for a person, e.g. `W chain at mi (22 stones), a 1-point
    /// eye, against B chain at if (30 stones), a 5-point eye: 1 liberty
    /// against 5`.
    pub fn describe(&self) -> String {
        let label = |(c, p, n): (Color, (u8, u8), usize)| chain_label(c, p, n);
        format!(
            "{}, a {}-point eye, against {}, a {}-point eye: {} {} against {}",
            label(self.loser),
            self.eyes[0],
            label(self.winner),
            self.eyes[1],
            self.liberties[0],
            if self.liberties[0] == 1 {
                "liberty"
            } else {
                "liberties"
            },
            self.liberties[1]
        )
    }
}

/// The liberties an eye of 1 to 6 points is worth in a capturing race,
/// before the other side's stones inside are taken off: 1, 2, 3, 5, 8,
/// 12 (the standard big-eye liberty counts; a killing shape of four
/// points, the pyramid or bent four, takes five moves to fill and
/// capture, the defender taking back the stones played inside).
const EYE_LIBERTIES: [usize; 7] = [0, 1, 2, 3, 5, 8, 12];

/// The smallest big eye: eyes of one to three points count as many
/// liberties as they have empty points and are equals in a race (small
/// eyes); from four points an eye counts more than its points.
const BIG_EYE: usize = 4;

/// The largest small eye taken for the loser's: a three-point eye that
/// is all empty makes two eyes when its owner plays the middle, so it is
/// no single eye to count.
const SMALL_EYE: usize = 2;

/// A chain's side of the race: its one eye and its liberties outside the
/// eye and the shared ones.
struct Side {
    /// The eye's points, the other side's dead stones inside included.
    eye: Vec<usize>,
    /// The other side's (dead) stones inside the eye.
    eye_stones: usize,
    outside: Vec<usize>,
}

/// The closed region of chain `i` through its liberty `start`: the empty
/// points and the other side's dead stones reached from it, when every
/// point beside them is a stone of chain `i` (or off the board) and there
/// are at most `max` of them; `None` otherwise.
fn eye_through(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    i: usize,
    start: usize,
    max: usize,
) -> Option<Vec<usize>> {
    let other = chains[i].color.opponent();
    let mut region = vec![start];
    let mut k = 0;
    while k < region.len() {
        let p = region[k];
        k += 1;
        for m in board.neighbours(p) {
            if !board.on_board(m) || region.contains(&m) {
                continue;
            }
            match board.at(m) {
                Some(_) if chain_of[m] == i => {}
                None => region.push(m),
                Some(c) if c == other && chains[chain_of[m]].dead => region.push(m),
                Some(_) => return None,
            }
            if region.len() > max {
                return None;
            }
        }
    }
    Some(region)
}

/// Chain `i`'s side of a race against chain `rival`, whose liberties are
/// `theirs`: `None` unless exactly one of its liberties outside the
/// shared ones lies in a closed region of its own ([`eye_through`]) of at
/// most `max` points.
fn side(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    i: usize,
    libs: &[usize],
    theirs: &[usize],
    max: usize,
) -> Option<Side> {
    let mut eye: Option<Vec<usize>> = None;
    let mut outside = Vec::new();
    for &l in libs {
        if theirs.contains(&l) || eye.as_ref().is_some_and(|e| e.contains(&l)) {
            continue;
        }
        // A closed region larger than `max` counts as no eye and fails
        // below: it is neither a way out nor an eye to count.
        match eye_through(board, chains, chain_of, i, l, max.max(EYE_LIBERTIES.len())) {
            Some(region) if eye.is_none() && region.len() <= max => eye = Some(region),
            Some(_) => return None,
            None => outside.push(l),
        }
    }
    let eye = eye?;
    let eye_stones = eye.iter().filter(|&&p| board.at(p).is_some()).count();
    Some(Side {
        eye,
        eye_stones,
        outside,
    })
}

/// Living chains that lose a capturing race of one eye against one big
/// eye, taken off; returns the races. Big eye beats small eye (a
/// go proverb): when each of two chains of both colours has one eye and
/// they share liberties, the shared liberties count for the chain with
/// the bigger eye only, since the other cannot fill them without putting
/// itself in atari first, and a big eye counts more liberties than its
/// points (1, 2, 3, 5, 8 and 12 for eyes of one to six points, less the
/// other side's stones inside). The race is then a plain count: the
/// small-eyed chain's eye and outside liberties against the big-eyed
/// chain's eye, outside and shared liberties; no seki is possible (it
/// takes equal small eyes). A chain is taken off when it loses moving
/// first. Both chains must be alive in the estimate and share a
/// liberty; the loser's eye has one or two points, the winner's four to
/// six, each a region closed by that chain alone (the other side's stones
/// inside dead); every shared liberty touches the two chains only; the
/// loser has no way out (each outside liberty touches no empty point, and
/// the winner's side can fill it and keep two liberties), touches no dead
/// stone of the other side outside its own eye, and each other
/// chain of the other side beside it has more liberties than the loser's
/// count, or is pass-alive; the winner shares no liberty with a third
/// living chain of the loser's colour that is not pass-alive. The
/// playouts, whose moves put no chain of two or more stones in atari and
/// answer each capture and throw-in locally, can keep both chains alive:
/// in 2017-01-06-18 (marked games, tune half) White's 22 stones at `mi`,
/// one eye at `pn`, share `li` with Black's 30 at `if`, whose eye space
/// holds White's four dead stones at `jg` in a pyramid four; Black's eye
/// counts 8 − 4 = 4 liberties and `li` is Black's, 5 against White's 1,
/// and the players took White's 22 stones off (B+67.5), where the
/// estimate kept them (B+20.5).
#[inline(never)]
pub(super) fn dead_in_eye_races(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    pass_alive: &[bool],
) -> Vec<EyeRace> {
    let mut races = Vec::new();
    let mut turned = Vec::new();
    for i in 0..chains.len() {
        let ch = &chains[i];
        if ch.dead || pass_alive[ch.stones[0]] {
            continue;
        }
        let libs = liberties(board, &ch.stones);
        // A one- or two-point eye and at least one more liberty.
        if libs.len() < 2 {
            continue;
        }
        let other = ch.color.opponent();
        let mut rivals: Vec<usize> = libs
            .iter()
            .flat_map(|&l| board.neighbours(l))
            .filter(|&m| board.at(m) == Some(other))
            .map(|m| chain_of[m])
            .filter(|&j| !chains[j].dead)
            .collect();
        rivals.sort_unstable();
        rivals.dedup();
        for &j in &rivals {
            if let Some(race) = decide(board, chains, chain_of, pass_alive, (i, j), &libs) {
                turned.push(i);
                races.push(race);
                break;
            }
        }
    }
    for i in turned {
        chains[i].dead = true;
    }
    races
}

/// The race of chain `i` (liberties `libs`) against chain `j`, when `i`
/// is the small-eyed loser of [`dead_in_eye_races`].
fn decide(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    pass_alive: &[bool],
    (i, j): (usize, usize),
    libs: &[usize],
) -> Option<EyeRace> {
    let theirs = liberties(board, &chains[j].stones);
    let shared: Vec<usize> = libs
        .iter()
        .copied()
        .filter(|l| theirs.contains(l))
        .collect();
    if shared.is_empty()
        || !shared.iter().all(|&l| {
            board.neighbours(l).iter().all(|&m| {
                !board.on_board(m)
                    || (board.at(m).is_some() && (chain_of[m] == i || chain_of[m] == j))
            })
        })
    {
        return None;
    }
    let loser = side(board, chains, chain_of, i, libs, &theirs, SMALL_EYE)?;
    let winner = side(
        board,
        chains,
        chain_of,
        j,
        &theirs,
        libs,
        EYE_LIBERTIES.len() - 1,
    )?;
    if winner.eye.len() < BIG_EYE {
        return None;
    }
    let color = chains[i].color;
    let other = color.opponent();
    let loser_count = eye_liberties(loser.eye.len(), loser.eye_stones) + loser.outside.len();
    let winner_count =
        eye_liberties(winner.eye.len(), winner.eye_stones) + winner.outside.len() + shared.len();
    if winner_count <= loser_count {
        return None;
    }
    // No way out for the loser: each outside liberty is closed by stones
    // and the winner's side can fill it.
    let closed = loser.outside.iter().all(|&l| {
        board.is_legal(other, l)
            && board.liberties_after(other, l) >= 2
            && board.neighbours(l).iter().all(|&m| {
                !board.on_board(m)
                    || match board.at(m) {
                        None => false,
                        Some(_) if chain_of[m] == i => true,
                        Some(c) => c == other && !chains[chain_of[m]].dead,
                    }
            })
    });
    if !closed {
        return None;
    }
    // The loser's neighbours of the other colour: the winner, or walls it
    // cannot capture in time; no dead stone to take for room.
    let mut walls: Vec<usize> = chains[i]
        .stones
        .iter()
        .flat_map(|&q| board.neighbours(q))
        .filter(|&m| board.at(m) == Some(other) && !loser.eye.contains(&m))
        .map(|m| chain_of[m])
        .filter(|&k| k != j)
        .collect();
    walls.sort_unstable();
    walls.dedup();
    let walls_hold = walls.iter().all(|&k| {
        !chains[k].dead
            && (pass_alive[chains[k].stones[0]]
                || liberties(board, &chains[k].stones).len() > loser_count)
    });
    if !walls_hold {
        return None;
    }
    // The winner races no third chain of the loser's colour.
    let third = theirs.iter().any(|&l| {
        board.neighbours(l).iter().any(|&m| {
            board.at(m) == Some(color)
                && chain_of[m] != i
                && !chains[chain_of[m]].dead
                && !pass_alive[m]
        })
    });
    if third {
        return None;
    }
    let label = |k: usize| {
        let ch = &chains[k];
        (ch.color, board.xy(ch.stones[0]), ch.stones.len())
    };
    Some(EyeRace {
        loser: label(i),
        winner: label(j),
        eyes: [loser.eye.len(), winner.eye.len()],
        liberties: [loser_count, winner_count],
    })
}

/// The liberties an eye of `points` points with `stones` of the other
/// side's stones inside counts in a race ([`EYE_LIBERTIES`]), at least
/// one.
fn eye_liberties(points: usize, stones: usize) -> usize {
    EYE_LIBERTIES[points].saturating_sub(stones).max(1)
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;

    /// The races [`dead_in_eye_races`] decides on `diagram`, whose Black
    /// chain at (3,0) and White chain at (4,0) the estimate keeps alive;
    /// and whether White's chain is taken off.
    fn decided(diagram: &str) -> (Vec<String>, bool) {
        let b = Board::from_diagram(diagram);
        let (mut chains, chain_of) = fates(&b, &[((3, 0), false, 0.5), ((4, 0), false, 0.5)]);
        let races = dead_in_eye_races(&b, &mut chains, &chain_of, &vec![false; b.index_len()]);
        assert!(!chains[0].dead);
        (races.iter().map(|r| r.describe()).collect(), chains[1].dead)
    }

    /// Black's chain has a four-point eye (a pyramid four, 5 liberties in
    /// a race) and White's a one-point eye; they share one liberty, which
    /// counts for the bigger eye: 6 against 1, and White is dead whoever
    /// moves first.
    #[test]
    fn a_small_eye_loses_to_a_big_eye() {
        let (lines, white_dead) = decided(
            ". . . X O . O
             X . X X O O O
             X X X . O O O
             X X X X O O O",
        );
        assert!(white_dead);
        assert_eq!(
            lines,
            ["W chain at ea (11 stones), a 1-point eye, against B chain at da (11 stones), a 4-point eye: 1 liberty against 6"]
        );
    }

    /// With two of the eye's points filled, Black's eye is small too: two
    /// small eyes are equals, the shared liberty counts for neither, and
    /// nothing is decided.
    #[test]
    fn small_eyes_are_equals() {
        let (lines, white_dead) = decided(
            ". . X X O . O
             X X X X O O O
             X X X . O O O
             X X X X O O O",
        );
        assert!(!white_dead && lines.is_empty());
    }

    /// A White chain with a second eye, or with liberties on open ground
    /// (a way out), is left alone, whatever the count.
    #[test]
    fn two_eyes_or_a_way_out_are_left_alone() {
        let (lines, white_dead) = decided(
            ". . . X O . O
             X . X X O O O
             X X X . O O .
             X X X X O O O",
        );
        assert!(!white_dead && lines.is_empty());
        let (lines, white_dead) = decided(
            ". . . X O . O .
             X . X X O O O .
             X X X . O O . .
             X X X X O O O .",
        );
        assert!(!white_dead && lines.is_empty());
    }

    #[test]
    fn big_eyes_count_more_than_their_points() {
        assert_eq!(eye_liberties(1, 0), 1);
        assert_eq!(eye_liberties(3, 1), 2);
        assert_eq!(eye_liberties(4, 0), 5);
        assert_eq!(eye_liberties(5, 4), 4);
        assert_eq!(eye_liberties(6, 0), 12);
    }
}
