//! The backgammon board in GNU Backgammon's layout.
//!
//! `checkers[p][i]` is the number of player `p`'s checkers on that player's
//! own point `i + 1` (so index 0 is the ace point, 23 the 24-point, where
//! the back checkers start) and `checkers[p][24]` is the bar. Checkers
//! borne off are the ones missing from fifteen. Player 0 is the left
//! column of a `.mat` file (gnubg's player 0, `W` in its SGF), player 1 the
//! right one (`B`).
//!
//! Point `i` of one player is point `23 - i` of the other.

/// Index of the bar in a player's row.
pub const BAR: usize = 24;
/// Checkers per player.
pub const CHECKERS: u8 = 15;

/// Both players' checkers; see the module documentation for the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub checkers: [[u8; 25]; 2],
}

impl Board {
    /// The starting position: two on the 24-point, five on the 13, three on
    /// the 8 and five on the 6, for each player.
    pub fn start() -> Board {
        let mut row = [0u8; 25];
        row[23] = 2;
        row[12] = 5;
        row[7] = 3;
        row[5] = 5;
        Board {
            checkers: [row, row],
        }
    }

    /// An empty board (every checker borne off).
    pub fn empty() -> Board {
        Board {
            checkers: [[0; 25]; 2],
        }
    }

    /// Why no game can reach this position, if none can: a player with
    /// more than [`CHECKERS`] on the board and the bar, or a point holding
    /// both players' checkers. (A record's setup may say so; the
    /// evaluators and the move generator assume neither.)
    pub fn impossible(&self) -> Option<String> {
        for p in 0..2 {
            let n: u32 = self.checkers[p].iter().map(|&c| u32::from(c)).sum();
            if n > u32::from(CHECKERS) {
                return Some(format!(
                    "player {p} has {n} checkers on the board and the bar (a side has {CHECKERS})"
                ));
            }
        }
        (0..24)
            .find(|&i| self.checkers[0][i] > 0 && self.checkers[1][23 - i] > 0)
            .map(|i| format!("player 0's {}-point holds checkers of both players", i + 1))
    }

    /// Checkers of player `p` still on the board or the bar.
    pub fn on_board(&self, p: usize) -> u8 {
        in_play(&self.checkers[p]) as u8
    }

    /// Checkers player `p` has borne off.
    pub fn off(&self, p: usize) -> u8 {
        CHECKERS.saturating_sub(self.on_board(p))
    }

    /// Player `p`'s pip count: the dice total needed to bear every checker
    /// off (the bar counts 25).
    pub fn pips(&self, p: usize) -> u32 {
        self.checkers[p]
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 1) * n as u32)
            .sum()
    }

    /// Checkers of the opponent of `p` on `p`'s point `i` (0..24).
    pub fn opponent_at(&self, p: usize, i: usize) -> u8 {
        self.checkers[1 - p][23 - i]
    }
}

/// The indices of `row` that hold `k` checkers or more (`k` in 1..=127),
/// as a mask (bit `i`: index `i`), eight points at a time: adding
/// 0x80 - `k` to a byte's low seven bits sets its top bit (or its own top
/// bit is set) exactly when the byte is `k` or more, with no carry into
/// the next byte; a multiplication then gathers the eight top bits into
/// one byte, byte `j`'s into bit `j`.
#[inline(always)]
pub fn points_with(row: &[u8; 25], k: u8) -> u32 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let add = u64::from_ne_bytes([0x80 - k; 8]);
    let eight = |at: usize| {
        let x = u64::from_le_bytes(row[at..at + 8].try_into().expect("eight points"));
        let top = (((x & LOW) + add) | x) & !LOW;
        ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    eight(0) | eight(8) << 8 | eight(16) << 16 | u32::from(row[24] >= k) << 24
}

/// The checkers of `row` still in play (on the bar included), eight
/// points at a time: the top byte of a word times 0x0101…01 is the sum of
/// its eight bytes, which no carry disturbs while the row holds at most
/// 255 (a side has 15).
#[inline]
pub fn in_play(row: &[u8; 25]) -> u32 {
    let eight = |at: usize| {
        let x = u64::from_le_bytes(row[at..at + 8].try_into().expect("eight points"));
        (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    };
    eight(0) + eight(8) + eight(16) + row[24] as u32
}

/// The highest set bit's index in a mask of points; -1 for none.
#[inline]
pub fn msb(x: u32) -> i32 {
    31 - x.leading_zeros() as i32
}

/// The indices of `row` that hold checkers ([`points_with`] one or more).
#[inline(always)]
pub fn occupied(row: &[u8; 25]) -> u32 {
    points_with(row, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_positions() {
        assert_eq!(Board::start().impossible(), None);
        let mut b = Board::start();
        b.checkers[0][BAR] = 1;
        assert!(b.impossible().unwrap().contains("player 0 has 16 checkers"));
        let mut b = Board::empty();
        b.checkers[0][2] = 1;
        b.checkers[1][21] = 1;
        assert!(b
            .impossible()
            .unwrap()
            .contains("3-point holds checkers of both"));
        b.checkers[1][21] = 0;
        b.checkers[1][BAR] = 15;
        assert_eq!(b.impossible(), None);
    }

    #[test]
    fn the_checkers_in_play_are_counted_point_by_point() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            let mut row = [0u8; 25];
            for _ in 0..15 {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                // A checker on a random point, or borne off.
                let p = (rng >> 33) as usize % 26;
                if p < 25 {
                    row[p] += 1;
                }
            }
            let plain: u32 = row.iter().map(|&n| n as u32).sum();
            assert_eq!(in_play(&row), plain, "{row:?}");
        }
        let mut all = [0u8; 25];
        all[7] = 15;
        assert_eq!(in_play(&all), 15);
    }

    #[test]
    fn points_with_k_checkers_are_found_eight_at_a_time() {
        let mut g = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut row = [0u8; 25];
            for n in &mut row {
                g ^= g << 13;
                g ^= g >> 7;
                g ^= g << 17;
                // Mostly empty points, any count else (255 included).
                *n = if g.is_multiple_of(3) {
                    (g >> 8) as u8
                } else {
                    0
                };
            }
            for k in [1, 2, 3, 127] {
                let want = (0..25).fold(0u32, |m, i| m | u32::from(row[i] >= k) << i);
                assert_eq!(points_with(&row, k), want, "{row:?} {k}");
            }
        }
    }

    #[test]
    fn start_has_fifteen_each_and_167_pips() {
        let b = Board::start();
        for p in 0..2 {
            assert_eq!(b.on_board(p), 15);
            assert_eq!(b.off(p), 0);
            assert_eq!(b.pips(p), 167);
        }
        // Player 0's ace point is player 1's 24-point (two back checkers).
        assert_eq!(b.opponent_at(0, 0), 2);
        assert_eq!(b.opponent_at(0, 23), 0);
        assert_eq!(b.opponent_at(0, 18), 5);
    }
}
