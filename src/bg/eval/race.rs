//! A race evaluator (no contact, not every checker home): each side's
//! number of rolls to bear off, as a distribution, then the two sides
//! played against each other.
//!
//! Design: the sides cannot touch, so each is independent. A side already
//! home takes its exact one-sided bearoff distribution ([`crate::bg::eval::bearoff`]).
//! A side with checkers outside is brought home by deterministic
//! simulation: `SIMULATIONS` dice sequences (seeded by the position, so the
//! result never depends on the run), each die moving the rearmost checker
//! outside the home board — the seed's rule for a separated race, "moving
//! the man farthest away the larger of the two die rolls"
//! (`backgammon-program-board-evaluation.txt`) — until all are home, dice
//! left in that roll bearing off; from there the exact distribution takes
//! over. Against GNU Backgammon's race network on the 431 race positions
//! of the fixtures (`tests/cube.rs`): mean |Δ win| 0.003 (worst 0.055),
//! mean |Δ gammons| 0.017.

use crate::bg::cube::Probs;
use crate::bg::eval::bearoff::one_sided;
use crate::bg::position::board::{Board, BAR};
use crate::rng::Rng;

/// Dice sequences per side.
const SIMULATIONS: usize = 512;
/// Longest distribution kept (rolls).
const MAX_ROLLS: usize = 80;

/// A side's distributions: P(all off after exactly n rolls) and P(first
/// checker off after exactly n rolls).
struct Side {
    off: [f32; MAX_ROLLS],
    first: [f32; MAX_ROLLS],
    /// Fifteen checkers still on the board: the side can be gammoned.
    can_be_gammoned: bool,
}

fn home_points(row: &[u8; 25]) -> [u8; 6] {
    let mut h = [0u8; 6];
    h.copy_from_slice(&row[..6]);
    h
}

fn add_shifted(dst: &mut [f32; MAX_ROLLS], src: &[f32], shift: usize, weight: f32) {
    for (n, &p) in src.iter().enumerate() {
        let at = (n + shift).min(MAX_ROLLS - 1);
        dst[at] += p * weight;
    }
}

/// One die's roll.
fn die(rng: &mut Rng) -> usize {
    (rng.next() >> 33) as usize % 6 + 1
}

fn side(row: &[u8; 25]) -> Side {
    let db = one_sided();
    let mut s = Side {
        off: [0.0; MAX_ROLLS],
        first: [0.0; MAX_ROLLS],
        can_be_gammoned: row.iter().map(|&n| n as u32).sum::<u32>() == 15,
    };
    if row[6..].iter().all(|&n| n == 0) {
        let h = home_points(row);
        add_shifted(&mut s.off, db.rolls(&h), 0, 1.0);
        add_shifted(&mut s.first, db.gammon_rolls(&h), 0, 1.0);
        return s;
    }
    let seed = row.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, &n| {
        (h ^ n as u64).wrapping_mul(0x1000_0000_01b3)
    }) | 1;
    let mut rng = Rng(seed);
    let weight = 1.0 / SIMULATIONS as f32;
    for _ in 0..SIMULATIONS {
        let mut r = *row;
        let mut rolls = 0;
        let mut bore_off = false;
        while r[6..].iter().any(|&n| n > 0) && rolls < MAX_ROLLS {
            let (a, b) = (die(&mut rng), die(&mut rng));
            let dice = if a == b {
                [a; 4]
            } else {
                [a.max(b), a.min(b), 0, 0]
            };
            rolls += 1;
            for d in dice.into_iter().filter(|&d| d > 0) {
                match (6..=BAR).rev().find(|&i| r[i] > 0) {
                    // No contact: nothing blocks; the bar enters like point 25.
                    Some(from) => {
                        r[from] -= 1;
                        r[from - d] += 1;
                    }
                    // Home with dice to spare: bear off with them.
                    None => bore_off |= bear_off(&mut r, d),
                }
            }
        }
        let h = home_points(&r);
        add_shifted(&mut s.off, db.rolls(&h), rolls, weight);
        if bore_off {
            s.first[rolls.min(MAX_ROLLS - 1)] += weight;
        } else {
            add_shifted(&mut s.first, db.gammon_rolls(&h), rolls, weight);
        }
    }
    s
}

/// Plays one die in the home board: bears a checker off the die's point,
/// or from the highest point when none is higher than the die, else moves
/// the highest checker down. Returns whether a checker came off.
fn bear_off(r: &mut [u8; 25], d: usize) -> bool {
    let Some(high) = (0..6).rev().find(|&i| r[i] > 0) else {
        return false;
    };
    if r[d - 1] > 0 {
        r[d - 1] -= 1;
        true
    } else if high < d - 1 {
        r[high] -= 1;
        true
    } else {
        r[high] -= 1;
        r[high - d] += 1;
        false
    }
}

/// P(X > n) for each n, from a distribution.
fn survival(d: &[f32; MAX_ROLLS]) -> [f32; MAX_ROLLS] {
    let mut out = [0.0; MAX_ROLLS];
    let mut left = 1.0f32;
    for n in 0..MAX_ROLLS {
        left -= d[n];
        out[n] = left.max(0.0);
    }
    out
}

/// Cubeless probabilities for the player on roll `p` in a race position;
/// `None` when the position has contact (or is over).
pub fn race_probabilities(board: &Board, p: usize) -> Option<Probs> {
    if board.on_board(0) == 0 || board.on_board(1) == 0 {
        return None;
    }
    if crate::bg::position::features::features(board).contact {
        return None;
    }
    let me = side(&board.checkers[p]);
    let them = side(&board.checkers[1 - p]);
    let (them_left, them_first_left) = (survival(&them.off), survival(&them.first));
    let me_first_left = survival(&me.first);
    // I roll first: finishing on my n-th roll wins if they have not
    // finished in n − 1 rolls.
    let mut win = 0.0f32;
    let mut win_gammon = 0.0f32;
    for n in 1..MAX_ROLLS {
        win += me.off[n] * them_left[n - 1];
        if them.can_be_gammoned {
            win_gammon += me.off[n] * them_first_left[n - 1];
        }
    }
    // They finish on their m-th roll before my (m + 1)-th.
    let mut lose_gammon: f32 = 0.0;
    if me.can_be_gammoned {
        lose_gammon = them.off[1..]
            .iter()
            .zip(&me_first_left[1..])
            .map(|(a, b)| a * b)
            .sum();
    }
    let win = win.clamp(0.0, 1.0);
    Some([
        win,
        win_gammon.min(win),
        0.0,
        lose_gammon.min(1.0 - win),
        0.0,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_race_is_about_even_and_the_leader_is_favoured() {
        let mut b = Board::empty();
        // Both sides: 15 checkers on their 10-point, nothing in contact.
        b.checkers[0][9] = 15;
        b.checkers[1][9] = 15;
        let p = race_probabilities(&b, 0).unwrap();
        // On roll in an even race: a little better than even.
        assert!(p[0] > 0.5 && p[0] < 0.7, "{p:?}");
        // Far behind: few wins.
        b.checkers[1][9] = 0;
        b.checkers[1][3] = 15;
        let q = race_probabilities(&b, 0).unwrap();
        assert!(q[0] < 0.05, "{q:?}");
        assert!(q[3] > 0.3, "gammons when far behind: {q:?}");
    }

    #[test]
    fn contact_is_not_a_race() {
        assert!(race_probabilities(&Board::start(), 0).is_none());
    }

    #[test]
    fn the_same_position_gives_the_same_numbers() {
        let mut b = Board::empty();
        b.checkers[0][14] = 5;
        b.checkers[0][3] = 10;
        b.checkers[1][12] = 7;
        b.checkers[1][2] = 8;
        assert_eq!(race_probabilities(&b, 0), race_probabilities(&b, 0));
    }
}
