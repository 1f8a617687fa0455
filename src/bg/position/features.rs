//! Board features of an early backgammon program, after the seed
//! `backgammon-program-board-evaluation.txt`, computed for both sides of a
//! position so that archives can be compared on them.
//!
//! The seed describes its evaluation terms for White only ("those for black
//! are exactly the same except that the board direction is reversed"); here
//! every term is computed for each player `p` of a [`Board`], in that
//! player's own numbering (own point 1 is the ace point, 24 the back point).
//!
//! Readings of the seed, where its wording leaves a choice:
//!
//! - **WTOGO** ("the total value of dice throws it will take to get all
//!   whites men home") is read as the ordinary pip count to bear everything
//!   off, the bar counting 25 ([`SideFeatures::pips`]).
//! - **WSIN** counts points with exactly one checker on the board; a
//!   checker on the bar is not a blot (it is in **WBAR**).
//! - **WPTSSUCC** ("the number of side-by-side points held") is read as the
//!   length of the longest run of adjacent held points, i.e. the prime
//!   length, anywhere on own points 1-24. (The other reading, the number of
//!   held points that have a held neighbour, is not computed.)
//! - **WFST3/6/12** ("the first three, six, and twelve points of the board
//!   (those points farthest away from whites home)") count checkers on own
//!   points 22-24, 19-24 and 13-24. The seed numbers the bar as board
//!   position 0 and the points from 1, so the bar is *not* one of these
//!   points: bar checkers are counted only in [`SideFeatures::bar`]; add it
//!   for "everything at or behind".
//! - **WHOME** counts checkers on own points 1-6 (not those borne off).
//! - **WSINCL** and its **ODDS** table: see [`ODDS`] and
//!   [`SideFeatures::blot_odds`]. The seed's estimate is kept as it is
//!   (per opposing checker, distance only); [`SideFeatures::blot_shots`]
//!   next to it is the exact number of rolls that hit, from [`shots_on`].
//! - **"Forces separated"** (the seed's `RUNNING` flag) is
//!   [`Features::contact`] being false.
//!
//! Everything is computed with 32-bit masks over the points and no
//! allocation, since this runs on every position of large archives.

use crate::bg::position::board::{Board, BAR};

/// One side's features; see the module documentation for the readings of
/// the seed `backgammon-program-board-evaluation.txt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SideFeatures {
    /// WTOGO: pip count (the bar counts 25).
    pub pips: u32,
    /// WBAR: checkers on the bar.
    pub bar: u8,
    /// Checkers borne off.
    pub off: u8,
    /// WSIN: points with exactly one checker (on the board, not the bar).
    pub blots: u8,
    /// WPTS: points held (two or more checkers).
    pub points: u8,
    /// WPTSHOME: points held in the home board (own points 1-6).
    pub home_points: u8,
    /// WPTSSUCC, read as the length of the longest run of adjacent held
    /// points (a prime of this length; 1 for isolated points, 0 for none).
    pub longest_prime: u8,
    /// WFST3: checkers on own points 22-24 (the bar not included).
    pub back3: u8,
    /// WFST6: checkers on own points 19-24 (the bar not included).
    pub back6: u8,
    /// WFST12: checkers on own points 13-24 (the bar not included).
    pub back12: u8,
    /// WHOME: checkers on own points 1-6.
    pub home: u8,
    /// WSINCL: the seed's distance-only estimate of the danger to this
    /// side's blots. For each blot and each opposing *checker* 1 to 12 pips
    /// behind it (in the opponent's direction of movement), add
    /// [`ODDS`]`[distance]`; the seed adds "the odds of this black piece
    /// taking the white to the odds of any other black piece which may take
    /// this white", so stacked checkers each count. Opposing checkers on the
    /// bar are at distance (blot's point number) from their entry. Units are
    /// rolls out of 36; being a sum it double-counts rolls that hit in
    /// several ways and ignores blocks, so it can exceed 36.
    pub blot_odds: u32,
    /// Exact number of the opponent's 36 rolls that hit at least one of
    /// this side's blots (see [`shots_on`]).
    pub blot_shots: u8,
}

/// The features of a position: `side[p]` for player `p` of the [`Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Features {
    pub side: [SideFeatures; 2],
    /// False once the forces have separated (the seed's `RUNNING`): no
    /// checker of either side still has to pass a checker of the other.
    /// Checkers on the bar always mean contact (while the other side has
    /// checkers left).
    pub contact: bool,
}

/// The seed's ODDS table, `ODDS[d]` for a distance `d` of 1 to 12 (index 0
/// unused): the number of the 36 rolls that can move one checker exactly
/// `d` pips, ignoring blocks, with doubles moving up to four times
/// ("12=6+6=4+4+4=3+3+3+3"). The seed keeps its values with a "common
/// factor of 105" and does not list them; these are the usual counts out of
/// 36 (checked against an enumeration of the rolls in the tests).
pub const ODDS: [u32; 13] = [0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3];

/// The 21 distinct rolls `(low die, high die, weight)`: weight 2 for
/// non-doubles (two of the 36 rolls), 1 for doubles.
const ROLLS: [(u32, u32, u8); 21] = {
    let mut out = [(0, 0, 0); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[k] = (a, b, if a == b { 1 } else { 2 });
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// Bits 1..=24: the points, as positions `i + 1` of point index `i`.
const POINTS: u32 = 0x01ff_fffe;
/// Bits 1..=6: own points 1-6.
const HOME_BOARD: u32 = 0x7e;

/// A mask over positions 1..=24 in one player's numbering, seen in the
/// other's: position `k` becomes `25 - k`.
#[inline]
fn mirror(mask: u32) -> u32 {
    (mask & POINTS).reverse_bits() >> 6
}

/// Masks of one player's row in its own numbering (position = index + 1):
/// points held, blots, and any checker.
#[inline]
fn row_masks(row: &[u8; 25]) -> (u32, u32, u32) {
    let (mut made, mut blot, mut occ) = (0u32, 0u32, 0u32);
    for (i, &n) in row[..BAR].iter().enumerate() {
        let bit = 1u32 << (i + 1);
        if n >= 2 {
            made |= bit;
        } else if n == 1 {
            blot |= bit;
        }
        if n != 0 {
            occ |= bit;
        }
    }
    (made, blot, occ)
}

#[inline]
fn sat8(n: u32) -> u8 {
    n.min(u8::MAX as u32) as u8
}

#[inline]
fn sum8(s: &[u8]) -> u8 {
    sat8(s.iter().map(|&n| n as u32).sum())
}

/// Number of the 36 rolls with which the opponent hits a position in
/// `targets`, all masks in the defending side's numbering (position =
/// point index + 1, the opponent's bar at position 0, the opponent moving
/// towards higher positions): `blocked` the defender's held points, `opp`
/// the opponent's checkers on the board, `on_bar` the opponent's checkers
/// on the bar. `targets` must be blots (so never blocked).
fn hitting_rolls(targets: u32, blocked: u32, opp: u32, on_bar: u8) -> u8 {
    if targets == 0 {
        return 0;
    }
    // Nobody behind any target: no shot (the common case in races).
    let rearmost = if on_bar > 0 { 0 } else { opp.trailing_zeros() };
    if rearmost >= 31 - targets.leading_zeros() {
        return 0;
    }
    let open = !blocked;
    let is_open = |x: u32| (blocked >> x) & 1 == 0;
    let mut count = 0u8;
    for &(a, b, w) in &ROLLS {
        let reach = if a == b {
            // Doubles: the bar checkers enter first, then whatever steps are
            // left can be shared by any checkers (the entered ones too).
            let mut reach = 0u32;
            let mut movers = opp;
            let mut steps = 4u32;
            if on_bar > 0 {
                if !is_open(a) {
                    continue;
                }
                let entered = (on_bar as u32).min(4);
                steps -= entered;
                reach |= 1 << a;
                if steps > 0 {
                    movers |= 1 << a;
                }
            }
            for _ in 0..steps {
                movers <<= a;
                reach |= movers;
                movers &= open;
            }
            reach
        } else {
            match on_bar {
                0 => {
                    let sa = opp << a;
                    let sb = opp << b;
                    sa | sb | ((sa & open) << b) | ((sb & open) << a)
                }
                // One on the bar: it enters with one die; the other die is
                // played by any checker, the entered one included.
                1 => {
                    let mut reach = 0u32;
                    if is_open(a) {
                        reach |= (1 << a) | (1 << (a + b)) | (opp << b);
                    }
                    if is_open(b) {
                        reach |= (1 << b) | (1 << (a + b)) | (opp << a);
                    }
                    reach
                }
                // Two or more: both dice are used to enter (a blocked entry
                // is never a target).
                _ => (1 << a) | (1 << b),
            }
        };
        if reach & targets != 0 {
            count += w;
        }
    }
    count
}

/// Exact number of the 36 rolls (of the opponent of `p`) that hit the
/// checker(s) of `p` on p's point index `i`, for any `i` in `targets`.
///
/// Only blots can be hit: a target index that does not hold exactly one
/// checker of `p` (or is the bar, 24) is ignored. A roll counts once however
/// many targets it hits. The opponent's plays considered:
///
/// - one die, or both dice one after the other through an intermediate
///   point that `p` does not hold (2+ checkers), in either order; doubles
///   move up to four times, every intermediate point open;
/// - a checker of the opponent on the bar enters first (entering on a blot
///   is a hit); with one on the bar the other die may then be played by any
///   checker, the entered one included; with two or more on the bar both
///   dice of a non-double are spent entering, and doubles leave `4 - n`
///   moves after `n` have entered; a roll whose entry is blocked does
///   nothing.
///
/// Ignored: the rules that both dice (or the larger one) must be played
/// when possible, and bearing-off restrictions (a checker moving past the
/// opponent's home hits nothing anyway). Blots are counted as they stand;
/// hitting one blot on the way to another is allowed.
pub fn shots_on(board: &Board, p: usize, targets: &[usize]) -> u8 {
    let q = 1 - p;
    let (made, blot, _) = row_masks(&board.checkers[p]);
    let (_, _, opp_occ) = row_masks(&board.checkers[q]);
    let mut t = 0u32;
    for &i in targets {
        if i < BAR {
            t |= 1 << (i + 1);
        }
    }
    hitting_rolls(t & blot, made, mirror(opp_occ), board.checkers[q][BAR])
}

/// The features of `board` for both sides; see [`SideFeatures`].
pub fn features(board: &Board) -> Features {
    let masks = [row_masks(&board.checkers[0]), row_masks(&board.checkers[1])];
    let mut out = Features::default();
    for p in 0..2 {
        let q = 1 - p;
        let row = &board.checkers[p];
        let opp_row = &board.checkers[q];
        let (made, blot, _) = masks[p];
        let opp = mirror(masks[q].2);

        let mut pips = 0u32;
        let mut total = 0u32;
        for (i, &n) in row.iter().enumerate() {
            pips += (i as u32 + 1) * n as u32;
            total += n as u32;
        }

        let mut longest = 0u8;
        let mut run = made;
        while run != 0 {
            run &= run << 1;
            longest += 1;
        }

        // WSINCL: the opponent's checker at position k (0 = its bar) is
        // `opp_row[24 - k]`.
        let mut odds = 0u32;
        let mut blots = blot;
        while blots != 0 {
            let t = blots.trailing_zeros() as usize;
            blots &= blots - 1;
            for (d, &o) in ODDS.iter().enumerate().take(t.min(12) + 1).skip(1) {
                odds += o * opp_row[BAR - (t - d)] as u32;
            }
        }

        out.side[p] = SideFeatures {
            pips,
            bar: row[BAR],
            off: sat8(15u32.saturating_sub(total)),
            blots: blot.count_ones() as u8,
            points: made.count_ones() as u8,
            home_points: (made & HOME_BOARD).count_ones() as u8,
            longest_prime: longest,
            back3: sum8(&row[21..24]),
            back6: sum8(&row[18..24]),
            back12: sum8(&row[12..24]),
            home: sum8(&row[..6]),
            blot_odds: odds,
            blot_shots: hitting_rolls(blot, made, opp, opp_row[BAR]),
        };
    }

    // Contact, in player 0's numbering: player 0 moves towards lower
    // positions (its bar is 25), player 1 towards higher ones (its bar is
    // 0). Contact while player 1's rearmost checker is below player 0's.
    let mine = masks[0].2 | (((board.checkers[0][BAR] > 0) as u32) << 25);
    let theirs = mirror(masks[1].2) | (board.checkers[1][BAR] > 0) as u32;
    out.contact = mine != 0 && theirs != 0 && theirs.trailing_zeros() < 31 - mine.leading_zeros();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from `(own point index, count)` lists for each player.
    fn board(p0: &[(usize, u8)], p1: &[(usize, u8)]) -> Board {
        let mut b = Board::empty();
        for &(i, n) in p0 {
            b.checkers[0][i] = n;
        }
        for &(i, n) in p1 {
            b.checkers[1][i] = n;
        }
        b
    }

    /// Player 1's point index for player 0's point index `i`.
    fn other(i: usize) -> usize {
        23 - i
    }

    #[test]
    fn rolls_cover_the_36() {
        assert_eq!(ROLLS.iter().map(|r| r.2 as u32).sum::<u32>(), 36);
    }

    #[test]
    fn odds_table_matches_enumeration() {
        for (d, &odds) in ODDS.iter().enumerate().skip(1) {
            let d = d as u32;
            let mut n = 0;
            for a in 1..=6u32 {
                for b in 1..=6u32 {
                    let can = if a == b {
                        (1..=4).any(|m| m * a == d)
                    } else {
                        a == d || b == d || a + b == d
                    };
                    n += can as u32;
                }
            }
            assert_eq!(odds, n, "distance {d}");
        }
    }

    #[test]
    fn start_position() {
        let f = features(&Board::start());
        assert!(f.contact);
        for s in f.side {
            assert_eq!(
                s,
                SideFeatures {
                    pips: 167,
                    bar: 0,
                    off: 0,
                    blots: 0,
                    points: 4,
                    home_points: 1,
                    longest_prime: 1,
                    back3: 2,
                    back6: 2,
                    back12: 7,
                    home: 5,
                    blot_odds: 0,
                    blot_shots: 0,
                }
            );
        }
    }

    #[test]
    fn counts_bar_off_blots_and_primes() {
        // Player 0: a 5-point prime from its 4- to 8-point, blots on its
        // 10- and 20-points, one on the bar, one off.
        let b = board(
            &[
                (3, 2),
                (4, 2),
                (5, 3),
                (6, 2),
                (7, 2),
                (9, 1),
                (19, 1),
                (BAR, 1),
            ],
            &[(5, 15)],
        );
        let s = features(&b).side[0];
        assert_eq!(s.bar, 1);
        assert_eq!(s.off, 1);
        assert_eq!(s.blots, 2);
        assert_eq!(s.points, 5);
        assert_eq!(s.home_points, 3);
        assert_eq!(s.longest_prime, 5);
        assert_eq!((s.back3, s.back6, s.back12), (0, 1, 1));
        assert_eq!(s.home, 7);
        assert_eq!(s.pips, 4 * 2 + 5 * 2 + 6 * 3 + 7 * 2 + 8 * 2 + 10 + 20 + 25);
    }

    #[test]
    fn direct_shot_six_away() {
        // Player 0's blot on its 11-point, one checker of player 1 six pips
        // behind it (player 0's 5-point).
        let b = board(&[(10, 1)], &[(other(4), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 17);
        let s = features(&b).side[0];
        assert_eq!(s.blot_shots, 17);
        assert_eq!(s.blot_odds, 17);
        // The two blots face each other: player 1's is as exposed.
        assert_eq!(features(&b).side[1].blot_shots, 17);
        // Moved back past player 0's checker, it is safe.
        let b = board(&[(10, 1)], &[(other(12), 1)]);
        assert_eq!(features(&b).side[1].blot_shots, 0);
        assert_eq!(features(&b).side[1].blot_odds, 0);

        // Block the 3-away point: 3-3 no longer gets there (every other
        // combination has an open way round). 17 - 1.
        let b = board(&[(10, 1), (7, 2)], &[(other(4), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 16);
        // The estimate ignores blocks.
        assert_eq!(features(&b).side[0].blot_odds, 17);

        // Block the 2- and 4-away points: 2-4 (both ways) and 2-2 are gone,
        // 1-5 and 3-3 remain: 11 + 2 + 1.
        let b = board(&[(10, 1), (6, 2), (8, 2)], &[(other(4), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 14);
    }

    #[test]
    fn indirect_shot_eight_away() {
        // 2-6, 3-5, 4-4, 2-2: 6 rolls.
        let b = board(&[(10, 1)], &[(other(2), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 6);
        assert_eq!(features(&b).side[0].blot_odds, 6);

        // A point 4 away kills 4-4 and 2-2 (which must stop there): 4.
        let b = board(&[(10, 1), (6, 2)], &[(other(2), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 4);

        // Points 2 and 6 away: 2-6 is blocked both ways, 2-2 at its first
        // step; 3-5 and 4-4 remain: 3.
        let b = board(&[(10, 1), (4, 2), (8, 2)], &[(other(2), 1)]);
        assert_eq!(shots_on(&b, 0, &[10]), 3);
    }

    #[test]
    fn stacked_checkers_count_per_checker_in_the_estimate() {
        let b = board(&[(10, 1)], &[(other(4), 3)]);
        let s = features(&b).side[0];
        assert_eq!(s.blot_odds, 3 * 17);
        assert_eq!(s.blot_shots, 17);
    }

    #[test]
    fn two_blots_count_a_roll_once() {
        // Blots 1 and 2 away from the same checker: 11 and 12 rolls, but
        // 1-2 and 1-1 hit both, so together 11 + 12 - 3 = 20 (every roll
        // with a 1 or a 2).
        let b = board(&[(5, 1), (6, 1)], &[(other(4), 1)]);
        assert_eq!(shots_on(&b, 0, &[5]), 11);
        assert_eq!(shots_on(&b, 0, &[6]), 12);
        assert_eq!(shots_on(&b, 0, &[5, 6]), 20);
        let s = features(&b).side[0];
        assert_eq!(s.blot_shots, 20);
        assert_eq!(s.blot_odds, 11 + 12);
        // Non-blots are not targets.
        assert_eq!(shots_on(&b, 0, &[4, 7, BAR]), 0);
    }

    #[test]
    fn blot_in_front_of_the_bar() {
        // One of player 1 on the bar; player 0's blot on its 5-point: the
        // entering checker hits with any 5, 1-4 and 2-3: 15 (= ODDS[5]).
        let b = board(&[(4, 1)], &[(BAR, 1)]);
        assert_eq!(shots_on(&b, 0, &[4]), 15);
        assert_eq!(features(&b).side[0].blot_odds, 15);
        assert!(features(&b).contact);

        // Two on the bar: only entering hits, so only rolls with a 5: 11.
        let b = board(&[(4, 1)], &[(BAR, 2)]);
        assert_eq!(shots_on(&b, 0, &[4]), 11);
        assert_eq!(features(&b).side[0].blot_odds, 30);

        // Two on the bar, blot on the 6-point: any 6, plus 2-2 and 3-3,
        // whose two spare moves carry an entered checker on: 13.
        let b = board(&[(5, 1)], &[(BAR, 2)]);
        assert_eq!(shots_on(&b, 0, &[5]), 13);
        // Three on the bar: 3-3 keeps one spare move, 2-2 none: 12.
        let b = board(&[(5, 1)], &[(BAR, 3)]);
        assert_eq!(shots_on(&b, 0, &[5]), 12);
        // With four on the bar the doubles have no spare moves: 11.
        let b = board(&[(5, 1)], &[(BAR, 4)]);
        assert_eq!(shots_on(&b, 0, &[5]), 11);

        // Blocked entry: one on the bar, a held 3-point, blot on the
        // 6-point. 3-3 cannot enter at all; 1-5, 2-4 and 2-2 go round the
        // block: 17 - 1.
        let b = board(&[(5, 1), (2, 2)], &[(BAR, 1)]);
        assert_eq!(shots_on(&b, 0, &[5]), 16);
    }

    #[test]
    fn bar_checker_restricts_the_others() {
        // Player 1: one on the bar, one on player 0's 2-point; player 0's
        // blot on its 8-point, 6 from the board checker, 8 from the entry.
        // The board checker may only use one die: any 6 (11), and 3-3
        // (enter, then two moves of 3). The entering checker: 3-5, 4-4,
        // 2-2 (2-6 already counted). 11 + 1 + 2 + 1 + 1 = 16, not the 17 +
        // 6 - overlap a free board checker would give.
        let b = board(&[(7, 1)], &[(BAR, 1), (other(1), 1)]);
        assert_eq!(shots_on(&b, 0, &[7]), 16);
        assert_eq!(features(&b).side[0].blot_odds, 17 + 6);
    }

    #[test]
    fn race_and_contact() {
        // Both sides home: no contact, no shots even with blots.
        let b = board(&[(0, 1), (3, 7), (5, 7)], &[(1, 1), (4, 14)]);
        let f = features(&b);
        assert!(!f.contact);
        assert_eq!(f.side[0].blot_shots, 0);
        assert_eq!(f.side[1].blot_shots, 0);
        assert_eq!(f.side[0].blot_odds, 0);

        // Player 0's rearmost on its 12-point. Player 1's rearmost on its
        // 11-point (player 0's 14-point) has passed it: no contact.
        let b = board(&[(11, 2), (0, 13)], &[(10, 2), (0, 13)]);
        assert!(!features(&b).contact);
        // Player 1's rearmost on its 14-point (player 0's 11-point) still
        // has to pass it.
        let b = board(&[(11, 2), (0, 13)], &[(13, 2), (0, 13)]);
        assert!(features(&b).contact);
        // A checker on the bar is contact.
        let b = board(&[(BAR, 1), (0, 14)], &[(0, 15)]);
        assert!(features(&b).contact);
        // Nothing left on one side: no contact.
        let b = board(&[], &[(0, 15)]);
        assert!(!features(&b).contact);
    }

    // ---- cross-check of the masks against a plain move-by-move search ----

    /// Whether the opponent of the defender hits a target with `dice`
    /// played in this order. Positions in the defender's numbering:
    /// `opp[0]` the opponent's bar, `opp[k]`/`def[k]` point index `k - 1`.
    fn search(opp: &mut [u8; 25], def: &[u8; 25], targets: u32, dice: &[u32]) -> bool {
        let Some((&d, rest)) = dice.split_first() else {
            return false;
        };
        let sources: Vec<usize> = if opp[0] > 0 {
            vec![0]
        } else {
            (1..25).filter(|&k| opp[k] > 0).collect()
        };
        for s in sources {
            let to = s + d as usize;
            if to <= 24 {
                if def[to] >= 2 {
                    continue;
                }
                if def[to] == 1 && (targets >> to) & 1 == 1 {
                    return true;
                }
            }
            opp[s] -= 1;
            if to <= 24 {
                opp[to] += 1;
            }
            let hit = search(opp, def, targets, rest);
            if to <= 24 {
                opp[to] -= 1;
            }
            opp[s] += 1;
            if hit {
                return true;
            }
        }
        false
    }

    fn reference_shots(b: &Board, p: usize, targets: u32) -> u8 {
        let q = 1 - p;
        let mut opp = [0u8; 25];
        let mut def = [0u8; 25];
        opp[0] = b.checkers[q][BAR];
        for k in 1..25 {
            opp[k] = b.checkers[q][24 - k];
            def[k] = b.checkers[p][k - 1];
        }
        let mut n = 0;
        for a in 1..=6u32 {
            for c in 1..=6u32 {
                // Either order of the two dice; doubles four times.
                let hit = if a == c {
                    search(&mut opp, &def, targets, &[a; 4])
                } else {
                    search(&mut opp, &def, targets, &[a, c])
                        || search(&mut opp, &def, targets, &[c, a])
                };
                n += hit as u8;
            }
        }
        n
    }

    /// A small deterministic generator (no dependency needed).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, n: u64) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n) as usize
        }
    }

    fn random_board(rng: &mut Lcg) -> Board {
        let mut b = Board::empty();
        // Spread checkers over a few random places so blots, points and
        // bar checkers all occur.
        for p in 0..2 {
            let places = 2 + rng.next(12);
            let mut left = 15 - rng.next(4) as u8;
            for _ in 0..places {
                if left == 0 {
                    break;
                }
                let i = if rng.next(10) == 0 { BAR } else { rng.next(24) };
                if i < BAR && b.checkers[1 - p][23 - i] > 0 {
                    continue;
                }
                let n = (1 + rng.next(3) as u8).min(left);
                b.checkers[p][i] += n;
                left -= n;
            }
        }
        b
    }

    #[test]
    fn shots_agree_with_a_move_search() {
        let mut rng = Lcg(12345);
        let mut hit_some = 0;
        for _ in 0..3000 {
            let b = random_board(&mut rng);
            let f = features(&b);
            for p in 0..2 {
                let blots = row_masks(&b.checkers[p]).1;
                let want = reference_shots(&b, p, blots);
                assert_eq!(f.side[p].blot_shots, want, "{b:?} side {p}");
                hit_some += (want > 0) as u32;
                // One blot at a time through the public function.
                for i in 0..24 {
                    if b.checkers[p][i] == 1 {
                        assert_eq!(
                            shots_on(&b, p, &[i]),
                            reference_shots(&b, p, 1 << (i + 1)),
                            "{b:?} side {p} point {i}"
                        );
                    }
                }
            }
        }
        assert!(hit_some > 1000, "{hit_some}");
    }

    #[test]
    fn features_are_symmetric() {
        // Swapping the players swaps the sides.
        let mut rng = Lcg(99);
        for _ in 0..500 {
            let b = random_board(&mut rng);
            let swapped = Board {
                checkers: [b.checkers[1], b.checkers[0]],
            };
            let (f, g) = (features(&b), features(&swapped));
            assert_eq!(f.side[0], g.side[1]);
            assert_eq!(f.side[1], g.side[0]);
            assert_eq!(f.contact, g.contact);
            for p in 0..2 {
                assert_eq!(f.side[p].pips, b.pips(p));
                assert_eq!(f.side[p].off, b.off(p));
            }
        }
    }

    /// Timing, not a check: `cargo test --release --lib bg::features --
    /// --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        use std::hint::black_box;
        use std::time::Instant;
        let mut rng = Lcg(7);
        let boards: Vec<Board> = (0..4096).map(|_| random_board(&mut rng)).collect();
        let rounds = 500;
        let n = (boards.len() * rounds) as f64;

        let start = Instant::now();
        let mut acc = 0u64;
        for _ in 0..rounds {
            for b in &boards {
                let f = features(black_box(b));
                acc += f.side[0].blot_shots as u64 + f.side[1].pips as u64;
            }
        }
        let t = start.elapsed().as_nanos() as f64 / n;
        println!("features(): {t:.1} ns/position (acc {acc})");

        let start = Instant::now();
        let mut acc = 0u64;
        for _ in 0..rounds {
            for b in &boards {
                let s = shots_on(black_box(b), 0, black_box(&[3, 5, 7, 9, 11, 13, 15, 17]));
                acc += s as u64;
            }
        }
        let t = start.elapsed().as_nanos() as f64 / n;
        println!("shots_on(), 8 targets: {t:.1} ns/call (acc {acc})");

        let start = Instant::now();
        let mut acc = 0u64;
        for _ in 0..rounds {
            for b in &boards {
                let b = black_box(b);
                for p in 0..2 {
                    let (made, blot, _) = row_masks(&b.checkers[p]);
                    let opp = mirror(row_masks(&b.checkers[1 - p]).2);
                    acc += hitting_rolls(blot, made, opp, b.checkers[1 - p][BAR]) as u64;
                }
            }
        }
        let t = start.elapsed().as_nanos() as f64 / n;
        println!("exact shots, both sides: {t:.1} ns/position (acc {acc})");
    }
}
