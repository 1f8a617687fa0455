//! GNU Backgammon's backgammon chances in races (eval.c's `EvalRaceBG` and
//! `raceBGprob`, with the escape table of bearoffgammon.c's
//! `getRaceBGprobs`), reproduced: gnubg does not trust its race net for
//! backgammons and overwrites the net's backgammon output with this
//! estimate before its sanity rules run.
//!
//! **The situation.** A backgammon is possible in a race when the loser
//! still has all fifteen checkers on the board and some of them in the
//! winner's home board (in a race the winner's checkers are then all home,
//! below the loser's). The loser is backgammoned when the winner bears off
//! before the loser has got every checker out of the winner's home board.
//!
//! **The escape table.** For the loser's checkers in the winner's home
//! board, `n_i` checkers needing `i + 1` pips to get out (`i = 0..6`, at
//! most six checkers), with every roll played to minimise the expected
//! number of rolls until all are out (any die may move any of them, a die
//! at least as large as the distance takes a checker out, and moving them
//! never blocks anything), gnubg's table holds, for `j = 0..4`, integers
//! `bgp[j]` over `36^(j + 1)` dice sequences:
//!
//! * for `j = 0..3`, the number of sequences of `j + 1` rolls that get the
//!   last checker out exactly at roll `j + 1`;
//! * for `j = 4`, `36^5` × P(not out after four rolls).
//!
//! So a row sums to 1 after scaling. We compute it ([`escape_counts`]) by
//! an exact dynamic programme over the 924 configurations of at most six
//! checkers on six points: distributions as integer counts of dice
//! sequences, plays compared by their exact mean (integer arithmetic, no
//! rounding). It agrees with every one of gnubg's 461 entries (up to six
//! checkers on the five points a race allows; checked against
//! bearoffgammon.c during development, the table itself is not copied).
//!
//! **The estimate** ([`race_bg_prob`]). With the winner's 16-bit one-sided
//! bearoff distribution `a_i` (P(off in exactly `i` rolls) × 65535, gnubg's
//! rounded integers: [`crate::bg::eval::bearoff::gnubg_rounded`]) and `A(n) = a_1 +
//! … + a_n`:
//!
//! * winner on roll: `p = Σ_{j=0..4} bgp[j] / 36^(j+1) · A(j + 1) / 65535`
//!   (the winner's `i`-th roll comes after `i − 1` of the loser's);
//! * loser on roll: `p = Σ_{j=1..4} bgp[j] / 36^(j+1) · A(j) / 65535`.
//!
//! in f32 as gnubg computes it, capped at 1. It is used only when
//! `⌈(winner's checkers) / 4⌉ − [winner on roll] ≤ ⌈(loser's pips to
//! escape, counting points 2..6 of the winner's home) / 3⌉` (gnubg's
//! integer formula: `(men + 3) / 4 − s <= (pips + 2) / 3`); otherwise the
//! backgammon chance is 0. With more than six loser checkers in the home
//! board, gnubg instead races the winner's bearoff against the loser's
//! escape treated as a bearoff of its own (both one-sided distributions of
//! the 16-bit table).

use std::sync::OnceLock;

use crate::bg::eval::bearoff::{gnubg_rounded, OneSided};

/// gnubg's `RBG_NPROBS`: roll counts in a row of the escape table.
pub const ESCAPE_ROLLS: usize = 5;
/// Most checkers the escape table covers.
const MAX_CHECKERS: usize = 6;
/// Configurations of at most six checkers on six points, C(12, 6): exactly
/// the one-sided bearoff indices below 924.
const CONFIGS: usize = 924;
/// Roll counts a distribution may span (six checkers six pips away need at
/// most twelve rolls; the build asserts nothing falls off).
const LEN: usize = 16;

/// Escape-time distribution: `c[k]` = number of sequences of `k` rolls
/// (of `36^k`) after which the last checker gets out exactly at roll `k`.
type Counts = [u128; LEN];

static TABLE: OnceLock<Vec<[u64; ESCAPE_ROLLS]>> = OnceLock::new();

/// gnubg's escape-table row for the loser's checkers in the winner's home
/// board: `points[i]` checkers needing `i + 1` pips to get out (the
/// loser's own points 19..24, from its 19-point). `None` with more than
/// six checkers (where gnubg has no row) or none.
pub fn escape_counts(points: &[u8; 6]) -> Option<[u64; ESCAPE_ROLLS]> {
    let n: usize = points.iter().map(|&c| c as usize).sum();
    if n == 0 || n > MAX_CHECKERS {
        return None;
    }
    Some(TABLE.get_or_init(build)[OneSided::index(points)])
}

/// The escape-time distributions of every configuration, in index order
/// (each play lowers the index, so successors come first), turned into
/// gnubg's rows.
fn build() -> Vec<[u64; ESCAPE_ROLLS]> {
    let mut dist: Vec<Counts> = Vec::with_capacity(CONFIGS);
    let mut means: Vec<u128> = Vec::with_capacity(CONFIGS);
    let mut empty = [0u128; LEN];
    empty[0] = 1;
    dist.push(empty);
    means.push(0);
    for idx in 1..CONFIGS {
        let pos = OneSided::points(idx);
        let mut acc = [0u128; LEN];
        for a in 1..=6 {
            for b in a..=6 {
                let mut best: Option<usize> = None;
                let dice: &[&[usize]] = if a == b {
                    &[&[a; 4]]
                } else {
                    &[&[a, b], &[b, a]]
                };
                for d in dice {
                    escape_plays(&mut pos.clone(), d, &mut |c| {
                        if best.is_none_or(|b| means[c] < means[b]) {
                            best = Some(c);
                        }
                    });
                }
                let best = &dist[best.expect("a play")];
                assert_eq!(best[LEN - 1], 0, "escape distribution too long");
                let w = if a == b { 1 } else { 2 };
                for k in 0..LEN - 1 {
                    acc[k + 1] += w * best[k];
                }
            }
        }
        // Mean × 36^(LEN−1), exact: Σ k · c[k] · 36^(LEN−1−k).
        let mean = (1..LEN)
            .map(|k| k as u128 * acc[k] * 36u128.pow((LEN - 1 - k) as u32))
            .sum();
        dist.push(acc);
        means.push(mean);
    }
    dist.iter()
        .map(|c| {
            let mut row = [0u64; ESCAPE_ROLLS];
            let mut out_by_4 = 0u128; // sequences of 5 rolls, out within 4
            for j in 0..ESCAPE_ROLLS - 1 {
                row[j] = c[j + 1] as u64;
                out_by_4 += c[j + 1] * 36u128.pow((ESCAPE_ROLLS - 1 - j) as u32);
            }
            let all = 36u128.pow(ESCAPE_ROLLS as u32);
            row[ESCAPE_ROLLS - 1] = (all - out_by_4.min(all)) as u64;
            row
        })
        .collect()
}

/// Calls `leaf` with the index of every configuration `dice` (played in
/// order) can reach from `pos`: each die moves any checker `d` pips nearer
/// the exit or out.
fn escape_plays(pos: &mut [u8; 6], dice: &[usize], leaf: &mut impl FnMut(usize)) {
    let Some((&d, rest)) = dice.split_first() else {
        leaf(OneSided::index(pos));
        return;
    };
    if pos.iter().all(|&n| n == 0) {
        leaf(0);
        return;
    }
    for from in 0..6 {
        if pos[from] == 0 {
            continue;
        }
        pos[from] -= 1;
        if from >= d {
            pos[from - d] += 1;
            escape_plays(pos, rest, leaf);
            pos[from - d] -= 1;
        } else {
            escape_plays(pos, rest, leaf);
        }
        pos[from] += 1;
    }
}

/// gnubg's one-sided distribution `P(off in exactly n rolls) × 65535`.
fn rounded_rolls(points: &[u8]) -> &'static [u16] {
    let mut p = [0u8; 6];
    p.copy_from_slice(&points[..6]);
    &gnubg_rounded()[OneSided::index(&p)][..32]
}

/// gnubg's `raceBGprob`: the chance that `winner` (its row, every checker
/// home) backgammons `loser`, with `winner_on_roll` telling whose turn it
/// is. Rows in gnubg's layout (index 0 the row owner's ace point).
pub fn race_bg_prob(winner: &[u8; 25], loser: &[u8; 25], winner_on_roll: bool) -> f32 {
    let side = i32::from(winner_on_roll);
    let men_home: i32 = winner[..6].iter().map(|&n| n as i32).sum();
    // gnubg counts the loser's points 19..23 only (its 24-point, the
    // winner's ace point, cannot be occupied in a race).
    let pips: i32 = (18..=22).map(|i| loser[i] as i32 * (i as i32 - 17)).sum();
    if (men_home + 3) / 4 - side > (pips + 2) / 3 {
        return 0.0;
    }
    let mut escape = [0u8; 6];
    escape.copy_from_slice(&loser[18..24]);
    let p = match escape_counts(&escape) {
        Some(bgp) => {
            let a = rounded_rolls(winner);
            let side = side as usize;
            let mut p = 0.0f32;
            let mut scale: u64 = if side == 0 { 36 } else { 1 };
            for (j, &count) in bgp.iter().enumerate().skip(1 - side) {
                scale *= 36;
                let sum: u64 = a[1..=j + side].iter().map(|&v| v as u64).sum();
                p += count as f32 / scale as f32 * sum as f32;
            }
            p * (1.0 / 65535.0)
        }
        None => {
            // gnubg's one-sided bearoff evaluator on a made-up board: the
            // winner's home board against the loser's escape as a bearoff,
            // the winner on roll when it is.
            let ours = rounded_rolls(winner);
            let theirs = rounded_rolls(&escape);
            let (on_roll, other) = if winner_on_roll {
                (ours, theirs)
            } else {
                (theirs, ours)
            };
            let r = one_sided_win(on_roll, other);
            if winner_on_roll {
                r
            } else {
                1.0 - r
            }
        }
    };
    p.min(1.0)
}

/// P(the side on roll, with rolls distribution `on_roll`, finishes first)
/// as gnubg's one-sided bearoff evaluator computes it from the 16-bit
/// distributions: `Σ_i Σ_{j≥i} on_roll[i] · other[j]` in f32, the values
/// scaled by the f32 reciprocal of 65535, each inner sum vectorised as
/// gnubg's build does (four lanes over `j = i, i+1, …`, reduced as `(l0 +
/// l2) + (l1 + l3)` and added, then the last `(32 − i) mod 4` terms one by
/// one).
fn one_sided_win(on_roll: &[u16], other: &[u16]) -> f32 {
    let prob = |v: u16| v as f32 * (1.0 / 65535.0);
    let other: [f32; 32] = std::array::from_fn(|j| prob(other[j]));
    let mut r = 0.0f32;
    for i in 0..32 {
        let a = prob(on_roll[i]);
        let n = 32 - i;
        let lanes_end = i + n / 4 * 4;
        if n >= 4 {
            let mut l = [0.0f32; 4];
            for (k, &b) in other[i..lanes_end].iter().enumerate() {
                l[k % 4] += b * a;
            }
            r += (l[0] + l[2]) + (l[1] + l[3]);
        }
        for &b in &other[lanes_end..] {
            r += b * a;
        }
    }
    r
}

/// gnubg's `EvalRaceBG` on a race net's outputs `out` (`[win, win gammon,
/// win backgammon, lose gammon, lose backgammon]` for the player on roll),
/// with `rows` = [opponent's row, row of the player on roll]: where a side
/// can still be backgammoned, its backgammon output becomes
/// [`race_bg_prob`] (raising the gammon output to it if lower), or 0.
pub fn race_backgammons(rows: [&[u8; 25]; 2], out: &mut [f32; 5]) {
    let men = |r: &[u8; 25]| r[..24].iter().map(|&n| n as u32).sum::<u32>();
    let in_home = |r: &[u8; 25]| r[18..24].iter().any(|&n| n > 0);
    // The player on roll can win a backgammon: the opponent has all
    // fifteen on the board, some in the on-roll player's home board.
    let bg = men(rows[0]) == 15 && in_home(rows[0]);
    let obg = men(rows[1]) == 15 && in_home(rows[1]);
    if !(bg || obg) {
        return;
    }
    let side = usize::from(bg);
    let pr = race_bg_prob(rows[side], rows[1 - side], bg);
    let (g, b) = if bg { (1, 2) } else { (3, 4) };
    if pr > 0.0 {
        out[b] = pr;
        if out[g] < pr {
            out[g] = pr;
        }
    } else {
        out[b] = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(points: [u8; 6]) -> [u64; ESCAPE_ROLLS] {
        escape_counts(&points).unwrap()
    }

    /// Rows worked out by hand.
    #[test]
    fn small_rows_by_hand() {
        // One or two checkers a pip away: out with any roll.
        assert_eq!(row([1, 0, 0, 0, 0, 0]), [36, 0, 0, 0, 0]);
        assert_eq!(row([2, 0, 0, 0, 0, 0]), [36, 0, 0, 0, 0]);
        // Three: a double at once (6 of 36), else the next roll.
        assert_eq!(row([3, 0, 0, 0, 0, 0]), [6, 30 * 36, 0, 0, 0]);
        // Five: two rolls need a double among them (6·36 + 30·6 of 36²),
        // else the third roll.
        assert_eq!(
            row([5, 0, 0, 0, 0, 0]),
            [0, 6 * 36 + 30 * 6, 30 * 30 * 36, 0, 0]
        );
        // One checker two pips away: any roll.
        assert_eq!(row([0, 1, 0, 0, 0, 0]), [36, 0, 0, 0, 0]);
        assert_eq!(escape_counts(&[0; 6]), None);
        assert_eq!(escape_counts(&[7, 0, 0, 0, 0, 0]), None);
    }

    /// Every row is a distribution: it sums to 36^5 on a common scale.
    #[test]
    fn rows_are_distributions() {
        let all = 36u64.pow(5);
        for idx in 1..CONFIGS {
            let p = OneSided::points(idx);
            let r = row(p);
            let total: u64 = (0..4).map(|j| r[j] * 36u64.pow(4 - j as u32)).sum::<u64>() + r[4];
            assert_eq!(total, all, "{p:?} {r:?}");
        }
    }
}
