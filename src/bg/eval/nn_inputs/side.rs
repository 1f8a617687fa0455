//! One side's row read once for the half inputs ([`Side`]): bit masks of
//! its points, running sums and escape counts.

use super::*;

/// One side's row as [`half_inputs`] reads it, worked out once per call:
/// each row is "we" in one block of inputs and "they" in the other. The
/// row holds at most 15 checkers, as every [`Board`] does.
#[derive(Debug, Clone)]
pub(super) struct Side {
    /// The row, in its owner's numbering.
    pub(super) n: [u8; 25],
    /// Points (bits 0..=24) holding one or more checkers.
    pub(super) occ: u32,
    /// Points holding exactly one.
    pub(super) blot: u32,
    /// Points holding exactly two.
    pub(super) two: u32,
    /// Points holding two or more.
    pub(super) made: u32,
    /// `esc[i]`: gnubg's `Escapes(row, i)`, rolls escaping a checker `i`
    /// points from the far end of this row.
    pub(super) esc: [u8; 25],
    /// `sums[k]`: over the points below k (k = 0..=25), packed without
    /// carries: checkers (bits 0..16), their pips counted i + 1 on point i
    /// (bits 16..32), and i^2 summed (bits 32..64). Sums over a run of
    /// points are differences of two.
    pub(super) sums: [u64; 26],
    /// `contain[k - 15]`: the fewest escapes `esc[i]` for i in 15..k, or
    /// 36 (k = 15..=25).
    pub(super) contain: [u8; 11],
    /// `I_MOMENT2` before scaling: it depends on this row only.
    pub(super) moment: i32,
}

/// The checkers in a run of `Side::sums`.
#[inline]
pub(super) fn checkers(sums: u64) -> i32 {
    (sums & 0xffff) as i32
}

/// Their pips (i + 1 for point i).
#[inline]
pub(super) fn pips(sums: u64) -> i32 {
    (sums >> 16 & 0xffff) as i32
}

/// The made points among `points` (a mask of points 12..=23) and the sum
/// of their numbers, six points at a time from a table.
#[inline]
pub(super) fn made_points(points: u32) -> [i32; 2] {
    const RUNS: [[u8; 2]; 64] = {
        let mut r = [[0; 2]; 64];
        let mut x = 0;
        while x < 64 {
            let mut i = 0;
            while i < 6 {
                if x >> i & 1 == 1 {
                    r[x][0] += 1;
                    r[x][1] += i as u8;
                }
                i += 1;
            }
            x += 1;
        }
        r
    };
    debug_assert_eq!(points & !0x00ff_f000, 0);
    let [n1, s1] = RUNS[(points >> 12 & 0x3f) as usize].map(i32::from);
    let [n2, s2] = RUNS[(points >> 18 & 0x3f) as usize].map(i32::from);
    [n1 + n2, s1 + 12 * n1 + s2 + 18 * n2]
}

/// `(x + j - 1) / j` (x >= 0, j >= 1), gnubg's mean rounded up, by a
/// multiplication where x + j - 1 < 9000 and j < 16, as in every
/// position (exact there: with m = ceil(2^17 / j) = (2^17 + e) / j, e < j,
/// the error y e / 2^17 stays below 1 / j for y < 2^17 / 14; the test
/// `ceil_div_is_division` checks every case).
#[inline]
pub(super) fn ceil_div(x: i32, j: i32) -> i32 {
    const RECIP: [u32; 16] = {
        let mut r = [0; 16];
        let mut j = 1;
        while j < 16 {
            r[j] = (1u32 << 17).div_ceil(j as u32);
            j += 1;
        }
        r
    };
    let y = x + j - 1;
    if (0..9000).contains(&y) && (1..16).contains(&j) {
        ((y as u32 * RECIP[j as usize]) >> 17) as i32
    } else {
        y / j
    }
}

impl Side {
    /// Checkers borne off.
    pub(super) fn off(&self) -> i32 {
        15 - checkers(self.sums[25])
    }

    /// A side to [`Side::read`] a row into.
    pub(super) const EMPTY: Side = Side {
        n: [0; 25],
        occ: 0,
        blot: 0,
        two: 0,
        made: 0,
        esc: [0; 25],
        sums: [0; 26],
        contain: [0; 11],
        moment: 0,
    };

    /// A side of the row `n`, for the tests.
    #[cfg(test)]
    pub(super) fn new(t: &Tables, n: &[u8; 25]) -> Side {
        let mut s = Side::EMPTY;
        s.read(t, n);
        s
    }

    /// Reads the row `n` (at most 15 checkers: the sums' fields and
    /// `ceil_div` rely on it) into this side, in place: a side built on
    /// the stack and copied into place cost a tenth of reading it.
    #[inline(always)]
    pub(super) fn read(&mut self, t: &Tables, n: &[u8; 25]) {
        debug_assert!(n.iter().map(|&c| c as u32).sum::<u32>() <= 15, "{n:?}");
        let occ = points_with(n, 1);
        let made = points_with(n, 2);
        let three = points_with(n, 3);
        let sums = &mut self.sums;
        sums[0] = 0;
        let mut sum = 0;
        for (i, &y) in n.iter().enumerate() {
            let i = i as u64;
            sum += y as u64 * (1 | (i + 1) << 16 | (i * i) << 32);
            sums[i as usize + 1] = sum;
        }
        // `escape_mask(made, i)` for i in 0..=24, in one expression: the
        // bar bit is always dropped (below point i, or beyond the 12).
        let points = made & 0x00ff_ffff;
        let esc = &mut self.esc;
        for (i, e) in esc.iter_mut().enumerate() {
            *e = t.escapes[(points >> (24 - i) & 0xfff) as usize];
        }
        let contain = &mut self.contain;
        contain[0] = 36;
        for k in 16..=25 {
            contain[k - 15] = contain[k - 16].min(esc[k - 1]);
        }
        // One-sided moment: with A our mean point rounded up, over the
        // points i > A, the sum of (i - A)^2 = i^2 - 2Ai + A^2 per
        // checker.
        let j = checkers(sum);
        let mut mean = pips(sum) - j;
        if j != 0 {
            mean = ceil_div(mean, j);
        }
        let past = sum - sums[mean as usize + 1];
        let j = checkers(past);
        let squares = (past >> 32) as i32;
        let sum_i = pips(past) - j;
        let mut moment = squares - 2 * mean * sum_i + mean * mean * j;
        if j != 0 {
            moment = ceil_div(moment, j);
        }
        self.n = *n;
        self.occ = occ;
        self.blot = occ & !made;
        self.two = made & !three;
        self.made = made;
        self.moment = moment;
    }
}
