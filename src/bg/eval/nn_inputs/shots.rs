//! gnubg's shots at blots, roll by roll: the pip loss and hitting counts
//! of `I_PIPLOSS`, `I_P1` and `I_P2` ([`pip_loss`]).

use super::*;

/// What the shots of one side at the other's blots depend on (gnubg's
/// `aHit` and `aRoll` part of `CalculateHalfInputs`), as masks of points
/// counted from our bar: bit r is our point 24 - r (r = 0: our bar, 24:
/// our ace point), which is their point r - 1. The most advanced of a set
/// of our checkers is then its lowest bit, isolated and located without
/// variable shifts.
///
/// gnubg loops over the blots and over 39 ways (`aIntermediate`) to fill
/// `aHit`, the points of our checkers that can hit one of theirs each way,
/// then over the 21 rolls and their ways. Here each way's set is a mask
/// expression: a direct shot of d pips reaches a blot d points further
/// from our bar; a shot using k dice of a double d is blocked when any of
/// its intermediate points d, .., (k - 1)d points before the blot is
/// theirs, one using both dice of (a, b) when both a and b points before it
/// are. Blots on our points 0 and 1 count only with three or more of our
/// home points made; a hitter is any of our checkers except one of exactly
/// two on a home point. Each roll is its own monomorphised function (`D`,
/// or `A` > `B`), so that every shift is a constant.
pub(super) struct Shots {
    /// Their blots that count.
    pub(super) blots: u32,
    /// All their blots.
    pub(super) all_blots: u32,
    /// Their made points.
    pub(super) theirs: u32,
    /// Our checkers that may hit.
    pub(super) hitters: u32,
    /// Their blots in their own numbering.
    pub(super) opp_blot: u32,
    /// Their made points in their own numbering.
    pub(super) opp_made: u32,
    /// Our made points.
    pub(super) made: u32,
    /// `direct[d]`: the hitters with a direct shot of d pips.
    pub(super) direct: [u32; 7],
    /// `hit[d]`: the blots they hit.
    pub(super) hit: [u32; 7],
    /// `top[d]`: the most advanced of them, as its bit (0: none).
    pub(super) top: [u32; 7],
    /// `alone[d]`: `top[d]` if that point holds fewer than two.
    pub(super) alone: [u32; 7],
}

/// The pip loss of a shot of `pips_way` pips by the hitters `h` (their
/// most advanced, our point j, takes the blot on j - pips_way, which loses
/// j - pips_way + 1); below 1 when `h` is empty.
#[inline(always)]
fn shot_pips(h: u32, pips_way: u32) -> i32 {
    25 - pips_way as i32 - h.trailing_zeros() as i32
}

impl Shots {
    pub(super) fn new(me: &Side, opp: &Side) -> Shots {
        let ours = |x: u32| (x.reverse_bits() >> 7) & 0x01ff_ffff;
        let all_blots = (opp.blot & 0x00ff_ffff) << 1;
        let n_board = (me.made & 0x3f).count_ones();
        let blots = all_blots & if n_board > 2 { !0 } else { 0x007f_ffff };
        let hitters = ours(me.occ & !(me.two & 0x3f));
        let made = ours(me.made);
        let direct: [u32; 7] = std::array::from_fn(|d| (blots >> d) & hitters);
        let top = direct.map(|h| h & h.wrapping_neg());
        Shots {
            blots,
            all_blots,
            theirs: (opp.made & 0x00ff_ffff) << 1,
            hitters,
            opp_blot: opp.blot,
            opp_made: opp.made,
            made,
            direct,
            hit: std::array::from_fn(|d| blots & hitters << d),
            top,
            alone: top.map(|t| t & !made),
        }
    }

    /// The blots hit by a shot of `pips_way` pips, but those in `blocked`.
    #[inline(always)]
    fn hits(&self, blocked: u32, pips_way: u32) -> u32 {
        self.blots & !blocked & self.hitters << pips_way
    }

    /// Whether a shot of `pips_way` pips hitting the blots `g`, with
    /// intermediate landing points `inter` (bit x: x pips from the
    /// hitter), touches down on one of their blots, for the most advanced
    /// hitter, whose blot is the one nearest to our bar (as gnubg checks
    /// it). In 64 bits: a landing point r + x and a blot r' show as bits
    /// r_blot + x and r' + pips_way.
    #[inline(always)]
    fn lands(&self, g: u32, pips_way: u32, inter: u32) -> bool {
        let first = (g & g.wrapping_neg()) as u64;
        (first * inter as u64) & ((self.all_blots as u64) << pips_way) != 0
    }

    /// The hitters of a shot with both dice of (A, B), A > B.
    #[inline(always)]
    fn both<const A: u32, const B: u32>(&self) -> u32 {
        let blocked = (self.theirs << A) & (self.theirs << B);
        ((self.blots & !blocked) >> (A + B)) & self.hitters
    }

    /// The hitters of the shots with 1, 2, 3 and 4 dice of the double D.
    #[inline(always)]
    fn double<const D: u32>(&self) -> [u32; 4] {
        let b2 = self.theirs << D;
        let b3 = b2 | self.theirs << (2 * D);
        let b4 = b3 | self.theirs << (3 * D);
        [
            self.direct[D as usize],
            ((self.blots & !b2) >> (2 * D)) & self.hitters,
            ((self.blots & !b3) >> (3 * D)) & self.hitters,
            ((self.blots & !b4) >> (4 * D)) & self.hitters,
        ]
    }
}

/// The sums over the 36 rolls: pip loss, rolls hitting one or more, two
/// or more (gnubg: `nChequers > 0`, `> 1`).
#[derive(Default)]
pub(super) struct Tally {
    pub(super) pips: i32,
    pub(super) one: i32,
    pub(super) two: i32,
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, weight: i32, pips: i32, one: bool, two: bool) {
        self.pips += pips * weight;
        self.one += weight * one as i32;
        self.two += weight * two as i32;
    }
}

// No checker on our bar. Without branches, from the blots each way hits:
// a roll's pip loss is that of the blot nearest to our bar it hits (the
// one the most advanced hitter of its way takes: 25 - r for bit r).
// gnubg's count of checkers hit exceeds one when two hitters have a
// direct shot (a double's, or one of each die from two points or from one
// holding two or more), or an indirect shot lands on a blot on its way.

/// The pip loss of the blots `g` hit by a roll (0 without any).
#[inline(always)]
fn roll_pips(g: u32) -> i32 {
    (25 - g.trailing_zeros() as i32).max(0)
}

#[inline(always)]
pub(super) fn double_no_bar<const D: u32>(s: &Shots, t: &mut Tally) {
    let b2 = s.theirs << D;
    let b3 = b2 | s.theirs << (2 * D);
    let b4 = b3 | s.theirs << (3 * D);
    let g = [
        s.hit[D as usize],
        s.hits(b2, 2 * D),
        s.hits(b3, 3 * D),
        s.hits(b4, 4 * D),
    ];
    let all = g[0] | g[1] | g[2] | g[3];
    let two = (g[0] & g[0].wrapping_sub(1) != 0)
        | s.lands(g[1], 2 * D, 1 << D)
        | s.lands(g[2], 3 * D, 1 << D | 1 << (2 * D))
        | s.lands(g[3], 4 * D, 1 << D | 1 << (2 * D) | 1 << (3 * D));
    t.add(1, roll_pips(all), all != 0, two);
}

#[inline(always)]
pub(super) fn pair_no_bar<const A: u32, const B: u32>(s: &Shots, t: &mut Tally) {
    let (a, b) = (A as usize, B as usize);
    let g = s.hits((s.theirs << A) & (s.theirs << B), A + B);
    let all = s.hit[a] | s.hit[b] | g;
    // The same most advanced hitter for both dice counts once, unless its
    // point holds two or more.
    let two = (s.top[a] != 0) & (s.top[b] != 0) & (s.alone[a] & s.alone[b] == 0)
        | s.lands(g, A + B, 1 << A | 1 << B);
    t.add(2, roll_pips(all), all != 0, two);
}

// One checker on our bar. gnubg's loops, way by way in its order, come
// down to counts without branches: a direct shot hits from the bar, and
// then from the most advanced hitter on the board if that is the first
// checker to leave the board and the roll's other way (`other` pips: the
// other die, or two dice of a double) enters; an indirect shot counts from
// the bar only. (gnubg looks at their point x + 1 for an indirect shot's
// landing point x here, not at x - 1: kept as it is.)

/// gnubg's count of checkers hit and pip loss so far in one roll.
#[derive(Default)]
struct Roll {
    pub(super) chequers: i32,
    pub(super) pips: i32,
    /// A checker has left the board for a direct shot.
    pub(super) entering: bool,
    /// gnubg's count would exceed one even if it were only one before an
    /// indirect shot.
    pub(super) second: bool,
}

impl Roll {
    #[inline(always)]
    fn direct_from_bar(&mut self, s: &Shots, h: u32, pips_way: u32, other: u32) {
        let bar = (h & 1) as i32;
        // Our points 23 down to 1.
        let board = h & 0x00ff_fffe;
        let leaves = (board != 0) & !self.entering & (s.opp_made >> (other - 1) & 1 == 0);
        self.entering |= leaves;
        self.chequers += bar + leaves as i32;
        self.pips = self
            .pips
            .max(bar * (25 - pips_way as i32))
            .max(leaves as i32 * shot_pips(board, pips_way));
    }

    #[inline(always)]
    fn indirect_from_bar(&mut self, s: &Shots, h: u32, pips_way: u32, inter: u32) {
        let bar = h & 1 == 1;
        self.second |= bar & ((s.opp_blot >> 1) & inter != 0);
        self.chequers = self.chequers.max(bar as i32);
        self.pips = self.pips.max(bar as i32 * (25 - pips_way as i32));
    }

    #[inline(always)]
    fn tally(&self, t: &mut Tally, weight: i32) {
        t.add(
            weight,
            self.pips,
            self.chequers > 0,
            self.chequers > 1 || self.second,
        );
    }
}

#[inline(always)]
fn double_one_on_bar<const D: u32>(s: &Shots, t: &mut Tally) {
    let h = s.double::<D>();
    let mut r = Roll::default();
    r.direct_from_bar(s, h[0], D, 2 * D);
    r.indirect_from_bar(s, h[1], 2 * D, 1 << D);
    r.indirect_from_bar(s, h[2], 3 * D, 1 << D | 1 << (2 * D));
    r.indirect_from_bar(s, h[3], 4 * D, 1 << D | 1 << (2 * D) | 1 << (3 * D));
    r.tally(t, 1);
}

#[inline(always)]
fn pair_one_on_bar<const A: u32, const B: u32>(s: &Shots, t: &mut Tally) {
    let mut r = Roll::default();
    r.direct_from_bar(s, s.direct[B as usize], B, A);
    r.direct_from_bar(s, s.direct[A as usize], A, B);
    r.indirect_from_bar(s, s.both::<A, B>(), A + B, 1 << A | 1 << B);
    r.tally(t, 2);
}

/// Calls `$double::<D>` for the six doubles and `$pair::<A, B>` for the
/// fifteen other rolls.
macro_rules! every_roll {
    ($double:ident, $pair:ident, $s:expr, $t:expr) => {{
        let (s, t) = ($s, $t);
        $double::<1>(s, t);
        $double::<2>(s, t);
        $double::<3>(s, t);
        $double::<4>(s, t);
        $double::<5>(s, t);
        $double::<6>(s, t);
        $pair::<2, 1>(s, t);
        $pair::<3, 1>(s, t);
        $pair::<3, 2>(s, t);
        $pair::<4, 1>(s, t);
        $pair::<4, 2>(s, t);
        $pair::<4, 3>(s, t);
        $pair::<5, 1>(s, t);
        $pair::<5, 2>(s, t);
        $pair::<5, 3>(s, t);
        $pair::<5, 4>(s, t);
        $pair::<6, 1>(s, t);
        $pair::<6, 2>(s, t);
        $pair::<6, 3>(s, t);
        $pair::<6, 4>(s, t);
        $pair::<6, 5>(s, t);
    }};
}

/// Whether [`no_bar_512`] can run: the CPU has AVX-512F and AVX-512CD
/// (the detection is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn no_bar_512_available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512cd")
}

/// The 21 rolls of [`double_no_bar`] and [`pair_no_bar`], a roll to a
/// lane: the fifteen non-doubles in one register, the six doubles in
/// another, every shift by a lane's own count. A landing test
/// (`Shots::lands`: the most advanced hitter's blot `first` times the
/// intermediate points, against the blots shifted by the way's pips)
/// becomes `first` shifted down by the pips left after each
/// intermediate point, against the blots: the same bits met, in 32 bits.
/// The counts are integers, summed in any order.
///
/// # Safety
/// The CPU has AVX-512F and AVX-512CD.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) unsafe fn no_bar_512(s: &Shots) -> Tally {
    use std::arch::x86_64::*;
    let set = |x: u32| _mm512_set1_epi32(x as i32);
    let (blots, all_blots) = (set(s.blots), set(s.all_blots));
    let (theirs, hitters, open) = (set(s.theirs), set(s.hitters), set(!s.made));
    let zero = _mm512_setzero_si512();
    let sll = |x: __m512i, n: __m512i| _mm512_sllv_epi32(x, n);
    let srl = |x: __m512i, n: __m512i| _mm512_srlv_epi32(x, n);
    let and = |x: __m512i, y: __m512i| _mm512_and_si512(x, y);
    let andnot = |x: __m512i, y: __m512i| _mm512_andnot_si512(x, y);
    let or = |x: __m512i, y: __m512i| _mm512_or_si512(x, y);
    let lowest = |x: __m512i| and(x, _mm512_sub_epi32(zero, x));
    let nonzero = |live: __mmask16, x: __m512i| _mm512_mask_test_epi32_mask(live, x, x);
    // Per lane: 25 - (index of the lowest bit) for a mask of bits 1..=24,
    // 0 for an empty one.
    let roll_pips = |live: __mmask16, all: __m512i| {
        let lz = _mm512_lzcnt_epi32(lowest(all));
        _mm512_maskz_sub_epi32(nonzero(live, all), lz, set(6))
    };

    // Non-doubles (A, B), A > B, in the order of `every_roll`.
    let pairs = live_lanes_16(15);
    let a = _mm512_setr_epi32(2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 0);
    let b = _mm512_setr_epi32(1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5, 0);
    let ab = _mm512_add_epi32(a, b);
    let hit_a = and(blots, sll(hitters, a));
    let hit_b = and(blots, sll(hitters, b));
    let g = andnot(
        and(sll(theirs, a), sll(theirs, b)),
        and(blots, sll(hitters, ab)),
    );
    let all = or(or(hit_a, hit_b), g);
    let top_a = lowest(and(srl(blots, a), hitters));
    let top_b = lowest(and(srl(blots, b), hitters));
    let first = lowest(g);
    let lands = nonzero(pairs, and(or(srl(first, b), srl(first, a)), all_blots));
    let apart = _mm512_mask_testn_epi32_mask(
        nonzero(pairs, top_a) & nonzero(pairs, top_b),
        and(and(top_a, open), and(top_b, open)),
        and(and(top_a, open), and(top_b, open)),
    );
    let pair_pips = _mm512_reduce_add_epi32(roll_pips(pairs, all));
    let pair_one = nonzero(pairs, all).count_ones() as i32;
    let pair_two = (apart | lands).count_ones() as i32;

    // Doubles D = 1..=6.
    let doubles = live_lanes_16(6);
    let d = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    let (d2, d3) = (
        _mm512_add_epi32(d, d),
        _mm512_add_epi32(d, _mm512_add_epi32(d, d)),
    );
    let d4 = _mm512_add_epi32(d2, d2);
    let b2 = sll(theirs, d);
    let b3 = or(b2, sll(theirs, d2));
    let b4 = or(b3, sll(theirs, d3));
    let g0 = and(blots, sll(hitters, d));
    let g1 = andnot(b2, and(blots, sll(hitters, d2)));
    let g2 = andnot(b3, and(blots, sll(hitters, d3)));
    let g3 = andnot(b4, and(blots, sll(hitters, d4)));
    let all = or(or(g0, g1), or(g2, g3));
    let (f1, f2, f3) = (lowest(g1), lowest(g2), lowest(g3));
    let landing = or(
        srl(f1, d),
        or(
            or(srl(f2, d2), srl(f2, d)),
            or(srl(f3, d3), or(srl(f3, d2), srl(f3, d))),
        ),
    );
    let two = nonzero(doubles, and(g0, _mm512_sub_epi32(g0, set(1))))
        | nonzero(doubles, and(landing, all_blots));
    Tally {
        pips: 2 * pair_pips + _mm512_reduce_add_epi32(roll_pips(doubles, all)),
        one: 2 * pair_one + nonzero(doubles, all).count_ones() as i32,
        two: 2 * pair_two + two.count_ones() as i32,
    }
}

/// The mask of the first `n` of 16 lanes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn live_lanes_16(n: u32) -> u16 {
    ((1u32 << n) - 1) as u16
}

/// The pip loss and hitting counts of `I_PIPLOSS`, `I_P1` and `I_P2`
/// before scaling: per roll the largest loss inflicted and gnubg's count of
/// checkers hit, summed over the 36 rolls (see [`Shots`]).
#[inline(never)]
pub(super) fn pip_loss(me: &Side, opp: &Side) -> Tally {
    let mut t = Tally::default();
    let s = Shots::new(me, opp);
    // No blot, or no hitter behind the blot farthest from our bar.
    if s.blots == 0 || s.hitters & ((1 << msb(s.blots)) - 1) == 0 {
        return t;
    }
    match me.n[24] {
        #[cfg(target_arch = "x86_64")]
        0 if no_bar_512_available() => {
            // SAFETY: the CPU has AVX-512F and AVX-512CD, checked just now.
            return unsafe { no_bar_512(&s) };
        }
        0 => every_roll!(double_no_bar, pair_no_bar, &s, &mut t),
        1 => every_roll!(double_one_on_bar, pair_one_on_bar, &s, &mut t),
        _ => {
            // Two or more on the bar: direct shots from the bar only.
            let from_bar = |d: usize| s.direct[d] & 1 != 0;
            for d in 1..7 {
                t.add(
                    1,
                    if from_bar(d) { 25 - d as i32 } else { 0 },
                    from_bar(d),
                    false,
                );
            }
            for a in 2..7 {
                for b in 1..a {
                    let pips = [b, a]
                        .map(|d| if from_bar(d) { 25 - d as i32 } else { 0 })
                        .into_iter()
                        .fold(0, i32::max);
                    let n = from_bar(a) as i32 + from_bar(b) as i32;
                    t.add(2, pips, n > 0, n > 1);
                }
            }
        }
    }
    t
}
