//! The implementation as it stood before the rewrite for speed (commit
//! 8905eb6), kept verbatim but for visibility, as the reference the
//! rewrite is compared with bit for bit (`tests::same_as_reference`) and
//! timed against (`tests::timing_against_reference`). It shares only the
//! definitional tables (`Tables`, checked on their own by the tests
//! `sizes` and `escape_tables`) and the input layout constants.

use super::*;

/// One way of hitting with part or all of a roll (gnubg: `Inter`, an entry
/// of `aIntermediate`).
#[derive(Clone, Copy)]
pub(super) struct Way {
    /// Pips covered (distance from hitter to blot).
    pub(super) pips: i32,
    /// Dice used (1 = a direct shot).
    pub(super) faces: u8,
    /// Every intermediate point must be open (doubles); otherwise one of
    /// the two (two different dice).
    pub(super) all: bool,
    /// Distances of the intermediate landing points, 0-terminated.
    pub(super) inter: [i32; 3],
}

/// One of the 21 rolls: its ways to hit in order of increasing pips
/// (gnubg: `aaRoll`).
#[derive(Clone, Copy)]
pub(super) struct Roll {
    pub(super) double: bool,
    /// Indices into `Tables::ways`: the smaller die, the larger die, both;
    /// or for doubles one, two, three and four dice.
    pub(super) ways: [usize; 4],
    pub(super) n_ways: usize,
}

pub(super) struct Tables {
    /// `anEscapes`: rolls (of 36) that escape a checker facing the 12
    /// points of the mask (bit d - 1 = point d pips ahead made).
    pub(super) escapes: [u8; 0x1000],
    /// `anEscapes1`: as above, counting only rolls whose total lands past
    /// the first made point; 0 for the empty mask.
    pub(super) escapes1: [u8; 0x1000],
    pub(super) ways: Vec<Way>,
    pub(super) rolls: Vec<Roll>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

pub(super) fn tables() -> &'static Tables {
    TABLES.get_or_init(build_tables)
}

pub(super) fn build_tables() -> Tables {
    // Escapes. A roll (a, b) escapes a checker unless the point a + b
    // ahead is made or both single-die points are made; doubles count
    // once, other rolls twice. (Like gnubg, only the total's point and the
    // two single-die points are looked at, also for doubles.)
    let mut escapes = [0u8; 0x1000];
    let mut escapes1 = [0u8; 0x1000];
    for mask in 0..0x1000usize {
        let made = |pips: usize| mask >> (pips - 1) & 1 == 1;
        // Pips to the first made point, minus one (gnubg's `low`).
        let low = mask.trailing_zeros() as usize;
        let (mut c, mut c1) = (0u8, 0u8);
        for a in 1..=6 {
            for b in 1..=a {
                if made(a + b) || (made(a) && made(b)) {
                    continue;
                }
                let w = if a == b { 1 } else { 2 };
                c += w;
                if a + b - 1 > low {
                    c1 += w;
                }
            }
        }
        escapes[mask] = c;
        escapes1[mask] = if mask == 0 { 0 } else { c1 };
    }

    // Ways to hit.
    let mut ways = Vec::with_capacity(39);
    let mut direct = [0usize; 7];
    for (d, slot) in direct.iter_mut().enumerate().skip(1) {
        *slot = ways.len();
        ways.push(Way {
            pips: d as i32,
            faces: 1,
            all: true,
            inter: [0; 3],
        });
    }
    let mut rolls = Vec::with_capacity(21);
    for a in 1..=6i32 {
        for b in 1..=a {
            if a == b {
                let mut r = Roll {
                    double: true,
                    ways: [direct[a as usize], 0, 0, 0],
                    n_ways: 4,
                };
                for f in 2..=4 {
                    let mut inter = [0; 3];
                    for (k, x) in inter.iter_mut().enumerate().take(f - 1) {
                        *x = a * (k as i32 + 1);
                    }
                    r.ways[f - 1] = ways.len();
                    ways.push(Way {
                        pips: a * f as i32,
                        faces: f as u8,
                        all: true,
                        inter,
                    });
                }
                rolls.push(r);
            } else {
                let both = ways.len();
                ways.push(Way {
                    pips: a + b,
                    faces: 2,
                    all: false,
                    inter: [b, a, 0],
                });
                rolls.push(Roll {
                    double: false,
                    ways: [direct[b as usize], direct[a as usize], both, 0],
                    n_ways: 3,
                });
            }
        }
    }
    debug_assert_eq!(ways.len(), 39);
    debug_assert_eq!(rolls.len(), 21);
    Tables {
        escapes,
        escapes1,
        ways,
        rolls,
    }
}

/// The points of `row` holding two or more, as bits 0..=24.
#[inline]
pub(super) fn made_mask(row: &[u8; 25]) -> u32 {
    let mut m = 0;
    for (i, &n) in row.iter().enumerate() {
        if n >= 2 {
            m |= 1 << i;
        }
    }
    m
}

/// The mask of made points among the (up to) 12 points in front of a
/// checker `n` points from the far end of the row (gnubg: the index built
/// in `Escapes`): bit i is point `24 - n + i` made, for i < min(n, 12).
#[inline]
pub(super) fn escape_mask(made: u32, n: i32) -> usize {
    if n <= 0 {
        return 0;
    }
    let m = n.min(12);
    ((made >> (24 - n)) & ((1 << m) - 1)) as usize
}

/// gnubg's `Escapes(anBoard, n)`, the row given by its `made_mask`.
#[inline]
pub(super) fn escapes(t: &Tables, made: u32, n: i32) -> i32 {
    t.escapes[escape_mask(made, n)] as i32
}

/// gnubg's `Escapes1(anBoard, n)`, the row given by its `made_mask`.
#[inline]
pub(super) fn escapes1(t: &Tables, made: u32, n: i32) -> i32 {
    t.escapes1[escape_mask(made, n)] as i32
}

/// `x / c` as gnubg's build computes it. gnubg is compiled with
/// `-ffast-math` (its configure script's default, and the PyPI build's
/// `meson.build`), under which GCC turns every division by a constant into
/// a multiplication by the constant's reciprocal, rounded to `f32` (seen in
/// the machine code of `CalculateHalfInputs`, `EvalContact`, `EvalCrashed`
/// and `EvalRace` of gnubg 1.1.0a16: `mulss` by 1/167, 1/24, 1/6, 1/432,
/// 1/36, 1/100, 1/3600, 1/400, 1/294, 1/11, 1/4, 1/8, 1/5, 1/3, 1/10, and a
/// single `divss`, by the backbone's variable divisor). The result differs
/// from a true division in the last bit for about half of the values.
#[inline]
pub(super) fn div_const(x: f32, c: f32) -> f32 {
    x * (1.0 / c)
}

/// The four units of a point (gnubg: `inpvec`).
#[inline]
pub(super) fn point_units(n: u8, out: &mut [f32]) {
    out[0] = if n == 1 { 1.0 } else { 0.0 };
    out[1] = if n == 2 { 1.0 } else { 0.0 };
    out[2] = if n >= 3 { 1.0 } else { 0.0 };
    out[3] = if n > 3 {
        div_const((n - 3) as f32, 2.0)
    } else {
        0.0
    };
}

/// The four units of the bar (gnubg: `inpvecb`, cumulative).
#[inline]
pub(super) fn bar_units(n: u8, out: &mut [f32]) {
    out[0] = if n >= 1 { 1.0 } else { 0.0 };
    out[1] = if n >= 2 { 1.0 } else { 0.0 };
    out[2] = if n >= 3 { 1.0 } else { 0.0 };
    out[3] = if n > 3 {
        div_const((n - 3) as f32, 2.0)
    } else {
        0.0
    };
}

/// gnubg's rows: `[anBoard[0], anBoard[1]]` = [opponent, player on roll].
#[inline]
pub(super) fn rows(board: &Board, on_roll: usize) -> [&[u8; 25]; 2] {
    assert!(on_roll < 2, "player {on_roll} does not exist");
    [&board.checkers[1 - on_roll], &board.checkers[on_roll]]
}

/// The base inputs (gnubg: `baseInputs`) into `out[..BASE_INPUTS]`: the
/// opponent's points 1..24 and bar, then the player on roll's. These are
/// also the whole input of gnubg's pruning nets.
pub(super) fn base_inputs(board: &Board, on_roll: usize, out: &mut [f32]) {
    let out = &mut out[..BASE_INPUTS];
    for (side, row) in rows(board, on_roll).into_iter().enumerate() {
        let block = &mut out[side * 100..side * 100 + 100];
        for i in 0..24 {
            point_units(row[i], &mut block[4 * i..4 * i + 4]);
        }
        bar_units(row[24], &mut block[96..100]);
    }
}

/// The race net's inputs (gnubg: `CalculateRaceInputs`), the opponent's
/// half first. Meant for race positions (no checker on either bar or
/// 24-point): checkers there are not encoded.
pub(super) fn race_inputs(board: &Board, on_roll: usize, out: &mut [f32; RACE_INPUTS]) {
    for (side, row) in rows(board, on_roll).into_iter().enumerate() {
        let half = &mut out[side * HALF_RACE_INPUTS..(side + 1) * HALF_RACE_INPUTS];
        debug_assert!(row[23] == 0 && row[24] == 0, "not a race position");
        let mut men_off: i32 = 15;
        for i in 0..23 {
            let nc = row[i];
            men_off -= nc as i32;
            point_units(nc, &mut half[4 * i..4 * i + 4]);
        }
        for k in 0..14 {
            half[RI_OFF + k] = if men_off == k as i32 + 1 { 1.0 } else { 0.0 };
        }
        let mut n_cross: u32 = 0;
        for k in 1..4 {
            for &nc in &row[6 * k..6 * k + 6] {
                n_cross += nc as u32 * k as u32;
            }
        }
        half[RI_NCROSS] = div_const(n_cross as f32, 10.0);
    }
}

/// The contact net's inputs (gnubg: `CalculateContactInputs`). Note the
/// switched "men off" units (see the module documentation): this is not
/// the crashed net's input.
pub(super) fn contact_inputs(board: &Board, on_roll: usize, out: &mut [f32; CONTACT_INPUTS]) {
    let t = tables();
    base_inputs(board, on_roll, out);
    let [b0, b1] = rows(board, on_roll);
    let (first, second) = out[BASE_INPUTS..].split_at_mut(MORE_INPUTS);
    men_off_non_crashed(b0, &mut first[I_OFF1..I_OFF1 + 3]);
    half_inputs(t, b1, b0, first);
    men_off_non_crashed(b1, &mut second[I_OFF1..I_OFF1 + 3]);
    half_inputs(t, b0, b1, second);
}

/// The crashed net's inputs (gnubg: `CalculateCrashedInputs`).
pub(super) fn crashed_inputs(board: &Board, on_roll: usize, out: &mut [f32; CONTACT_INPUTS]) {
    let t = tables();
    base_inputs(board, on_roll, out);
    let [b0, b1] = rows(board, on_roll);
    let (first, second) = out[BASE_INPUTS..].split_at_mut(MORE_INPUTS);
    men_off_all(b1, &mut first[I_OFF1..I_OFF1 + 3]);
    half_inputs(t, b1, b0, first);
    men_off_all(b0, &mut second[I_OFF1..I_OFF1 + 3]);
    half_inputs(t, b0, b1, second);
}

pub(super) fn men_off(row: &[u8; 25]) -> i32 {
    15 - row.iter().map(|&n| n as i32).sum::<i32>()
}

/// gnubg's `menOffAll`: checkers off in steps of five.
pub(super) fn men_off_all(row: &[u8; 25], out: &mut [f32]) {
    let off = men_off(row);
    if off <= 5 {
        out[0] = if off != 0 {
            div_const(off as f32, 5.0)
        } else {
            0.0
        };
        out[1] = 0.0;
        out[2] = 0.0;
    } else if off <= 10 {
        out[0] = 1.0;
        out[1] = div_const((off - 5) as f32, 5.0);
        out[2] = 0.0;
    } else {
        out[0] = 1.0;
        out[1] = 1.0;
        out[2] = div_const(off as f32 - 10.0, 5.0);
    }
}

/// gnubg's `menOffNonCrashed`: checkers off in steps of three (a contact
/// position has at most eight off).
pub(super) fn men_off_non_crashed(row: &[u8; 25], out: &mut [f32]) {
    let off = men_off(row);
    if off <= 2 {
        out[0] = if off != 0 {
            div_const(off as f32, 3.0)
        } else {
            0.0
        };
        out[1] = 0.0;
        out[2] = 0.0;
    } else if off <= 5 {
        out[0] = 1.0;
        out[1] = div_const((off - 3) as f32, 3.0);
        out[2] = 0.0;
    } else {
        out[0] = 1.0;
        out[1] = 1.0;
        out[2] = div_const((off - 6) as f32, 3.0);
    }
}

/// Hits available with one roll (gnubg: the `aRoll` entry).
#[derive(Clone, Copy, Default)]
struct RollHits {
    /// Largest pip loss inflicted.
    pips: i32,
    /// Checkers hit (gnubg's heuristic count).
    chequers: i32,
}

#[inline]
pub(super) fn msb(x: u32) -> i32 {
    31 - x.leading_zeros() as i32
}

/// For each of the 39 ways to hit, the points (bits, 24 = bar) of our
/// checkers that can hit one of their blots that way (gnubg: `aHit`, built
/// at the start of the "Piploss" part of `CalculateHalfInputs`). gnubg
/// loops over blots, hitters and ways; this computes the same sets with
/// masks, way by way.
///
/// Blots on our points 0 and 1 count only with three or more of our home
/// points made; a hitter is any of our checkers except one of exactly two
/// on a home point; a way is blocked when, seen from the blot, all its
/// intermediate points (doubles) or both of them (two different dice) are
/// theirs.
pub(super) fn hits(t: &Tables, me: &[u8; 25], opp: &[u8; 25]) -> [u32; 39] {
    let n_board = me[..6].iter().filter(|&&n| n >= 2).count();
    let lowest_blot = if n_board > 2 { 0 } else { 2 };
    // In our numbering: their blots and their made points.
    let (mut blots, mut theirs) = (0u64, 0u64);
    for p in 0..24 {
        match opp[23 - p] {
            0 => {}
            1 => {
                if p >= lowest_blot {
                    blots |= 1 << p;
                }
            }
            _ => theirs |= 1 << p,
        }
    }
    let mut hitters = 0u64;
    for (j, &n) in me.iter().enumerate() {
        if n != 0 && !(j < 6 && n == 2) {
            hitters |= 1 << j;
        }
    }
    let mut hit = [0u32; 39];
    if blots == 0 {
        return hit;
    }
    for (h, way) in hit.iter_mut().zip(&t.ways) {
        let blocked = if way.all {
            way.inter
                .iter()
                .take_while(|&&x| x > 0)
                .fold(0, |m, &x| m | theirs >> x)
        } else {
            (theirs >> way.inter[0]) & (theirs >> way.inter[1])
        };
        *h = ((blots & !blocked) << way.pips & hitters) as u32;
    }
    hit
}

/// gnubg's `CalculateHalfInputs(anBoard, anBoardOpp, afInput)`: the inputs
/// `I_BREAK_CONTACT..=I_BACKRESCAPES` of the side `me` facing `opp` (each
/// row in its owner's numbering). `I_OFF1..=I_OFF3` are left alone.
pub(super) fn half_inputs(t: &Tables, me: &[u8; 25], opp: &[u8; 25], out: &mut [f32]) {
    let a = |i: i32| me[i as usize] as i32;
    let o = |i: i32| opp[i as usize] as i32;
    let me_made = made_mask(me);
    let opp_made = made_mask(opp);
    // Their point i (their numbering) holds two or more.
    let o_made = |i: i32| opp_made >> i & 1 == 1;

    // Their rearmost checker, in our numbering (-1: they are on the bar).
    let mut opp_back = 24i32;
    while opp_back >= 0 && o(opp_back) == 0 {
        opp_back -= 1;
    }
    let n_opp_back = 23 - opp_back;

    // Break contact.
    {
        let mut np = 0i32;
        for i in (n_opp_back + 1).max(0)..25 {
            np += (i + 1 - n_opp_back) * a(i);
        }
        out[I_BREAK_CONTACT] = div_const(np as f32, 15.0 + 152.0);
    }

    // Free pips.
    {
        let mut p = 0i32;
        for i in 0..n_opp_back.min(25) {
            p += (i + 1) * a(i);
        }
        out[I_FREEPIP] = div_const(p as f32, 100.0);
    }

    // Timing.
    {
        let mut tm = 24 * a(24);
        let mut no = a(24);
        let m = n_opp_back.max(11);
        let mut i = 23;
        while i > m {
            let c = a(i);
            if c != 0 && c != 2 {
                let ns = if c > 2 { c - 2 } else { 1 };
                no += ns;
                tm += i * ns;
            }
            i -= 1;
        }
        while i >= 6 {
            let c = a(i);
            no += c;
            tm += i * c;
            i -= 1;
        }
        for i in (0..6).rev() {
            let c = a(i);
            if c > 2 {
                tm += i * (c - 2);
                no += c - 2;
            } else if c < 2 {
                let nm = 2 - c;
                if no >= nm {
                    tm -= i * nm;
                    no -= nm;
                }
            }
        }
        out[I_TIMING] = div_const(tm as f32, 100.0);
    }

    // Back checker, back anchor, forward anchor.
    {
        let mut n_back = 24i32;
        while n_back >= 0 && a(n_back) == 0 {
            n_back -= 1;
        }
        out[I_BACK_CHEQUER] = div_const(n_back as f32, 24.0);

        let mut i = if n_back == 24 { 23 } else { n_back };
        while i >= 0 && a(i) < 2 {
            i -= 1;
        }
        out[I_BACK_ANCHOR] = div_const(i as f32, 24.0);

        let mut n = 0i32;
        for j in 18..=i {
            if a(j) >= 2 {
                n = 24 - j;
                break;
            }
        }
        if n == 0 {
            for j in (12..=17).rev() {
                if a(j) >= 2 {
                    n = 24 - j;
                    break;
                }
            }
        }
        out[I_FORWARD_ANCHOR] = if n == 0 {
            2.0
        } else {
            div_const(n as f32, 6.0)
        };
    }

    // Pip loss and hitting chances.
    {
        let hit = hits(t, me, opp);

        let mut rolls = [RollHits::default(); 21];
        if a(24) == 0 {
            for (roll, rh) in t.rolls.iter().zip(rolls.iter_mut()) {
                let mut used = -1i32;
                for &r in &roll.ways[..roll.n_ways] {
                    let h = hit[r];
                    if h == 0 {
                        continue;
                    }
                    let way = &t.ways[r];
                    let k = msb(h);
                    if way.faces == 1 {
                        // Direct shot from the most advanced hitter.
                        if used != k || a(k) > 1 {
                            rh.chequers += 1;
                        }
                        used = k;
                        rh.pips = rh.pips.max(k - way.pips + 1);
                        if roll.double && h & !(1u32 << k) != 0 {
                            rh.chequers += 1;
                        }
                    } else {
                        // Indirect shot.
                        if rh.chequers == 0 {
                            rh.chequers = 1;
                        }
                        rh.pips = rh.pips.max(k - way.pips + 1);
                        if way
                            .inter
                            .iter()
                            .take_while(|&&x| x > 0)
                            .any(|&x| o(23 - k + x) == 1)
                        {
                            rh.chequers += 1;
                        }
                    }
                }
            }
        } else if a(24) == 1 {
            for (roll, rh) in t.rolls.iter().zip(rolls.iter_mut()) {
                // Set once a die is used off the bar: the other must enter.
                let mut entering = false;
                for (j, &r) in roll.ways[..roll.n_ways].iter().enumerate() {
                    let h = hit[r];
                    if h == 0 {
                        continue;
                    }
                    let way = &t.ways[r];
                    if way.faces == 1 {
                        let mut k = msb(h);
                        while k > 0 {
                            if h >> k & 1 == 1 {
                                if entering && k != 24 {
                                    break;
                                }
                                if k != 24 {
                                    // gnubg takes the pips of the roll's
                                    // other way (1 - j): the other die, or
                                    // for doubles two dice.
                                    let other = t.ways[roll.ways[1 - j]].pips;
                                    if o_made(other - 1) {
                                        break;
                                    }
                                    entering = true;
                                }
                                rh.chequers += 1;
                                rh.pips = rh.pips.max(k - way.pips + 1);
                            }
                            k -= 1;
                        }
                    } else {
                        // Indirect shots count from the bar only.
                        if h & 1 << 24 == 0 {
                            continue;
                        }
                        if rh.chequers == 0 {
                            rh.chequers = 1;
                        }
                        rh.pips = rh.pips.max(25 - way.pips);
                        // (gnubg looks at their point x + 1 here, not at the
                        // landing point x - 1: kept as it is.)
                        if way
                            .inter
                            .iter()
                            .take_while(|&&x| x > 0)
                            .any(|&x| o(x + 1) == 1)
                        {
                            rh.chequers += 1;
                        }
                    }
                }
            }
        } else {
            // Two or more on the bar: direct shots from the bar only.
            for (roll, rh) in t.rolls.iter().zip(rolls.iter_mut()) {
                for &r in &roll.ways[..2] {
                    if hit[r] & 1 << 24 == 0 {
                        continue;
                    }
                    let way = &t.ways[r];
                    if way.faces != 1 {
                        continue;
                    }
                    rh.chequers += 1;
                    rh.pips = rh.pips.max(25 - way.pips);
                }
            }
        }

        let (mut np, mut n1, mut n2) = (0i32, 0i32, 0i32);
        for (roll, rh) in t.rolls.iter().zip(rolls.iter()) {
            let w = if roll.double { 1 } else { 2 };
            np += rh.pips * w;
            if rh.chequers > 0 {
                n1 += w;
                if rh.chequers > 1 {
                    n2 += w;
                }
            }
        }
        out[I_PIPLOSS] = div_const(np as f32, 12.0 * 36.0);
        out[I_P1] = div_const(n1 as f32, 36.0);
        out[I_P2] = div_const(n2 as f32, 36.0);
    }

    // Escapes of their back checker.
    let back = 23 - n_opp_back;
    out[I_BACKESCAPES] = div_const(escapes(t, me_made, back) as f32, 36.0);
    out[I_BACKRESCAPES] = div_const(escapes1(t, me_made, back) as f32, 36.0);

    // Containment.
    {
        let mut n = 36;
        let mut i = 15i32;
        while i < 24 - n_opp_back {
            n = n.min(escapes(t, me_made, i));
            i += 1;
        }
        out[I_ACONTAIN] = div_const((36 - n) as f32, 36.0);
        out[I_ACONTAIN2] = out[I_ACONTAIN] * out[I_ACONTAIN];
        if n_opp_back < 0 {
            // They are on the bar: start again without point 24.
            i = 15;
            n = 36;
        }
        while i < 24 {
            n = n.min(escapes(t, me_made, i));
            i += 1;
        }
        out[I_CONTAIN] = div_const((36 - n) as f32, 36.0);
        out[I_CONTAIN2] = out[I_CONTAIN] * out[I_CONTAIN];
    }

    // Mobility.
    {
        let mut n = 0i32;
        for i in 6..25 {
            let c = a(i);
            if c != 0 {
                n += (i - 5) * c * escapes(t, opp_made, i);
            }
        }
        out[I_MOBILITY] = div_const(n as f32, 3600.0);
    }

    // One-sided moment.
    {
        let (mut j, mut n) = (0i32, 0i32);
        for i in 0..25 {
            j += a(i);
            n += i * a(i);
        }
        if j != 0 {
            n = (n + j - 1) / j;
        }
        let (mut j, mut k) = (0i32, 0i32);
        for i in (n + 1)..25 {
            let c = a(i);
            j += c;
            k += c * (i - n) * (i - n);
        }
        if j != 0 {
            k = (k + j - 1) / j;
        }
        out[I_MOMENT2] = div_const(k as f32, 400.0);
    }

    // Entering from the bar.
    if a(24) > 0 {
        let mut loss = 0i32;
        let two = a(24) > 1;
        for i in 0..6 {
            if o(i) > 1 {
                loss += 4 * (i + 1);
                for j in (i + 1)..6 {
                    if o(j) > 1 {
                        loss += 2 * (i + j + 2);
                    } else if two {
                        loss += 2 * (i + 1);
                    }
                }
            } else if two {
                for j in (i + 1)..6 {
                    if o(j) > 1 {
                        loss += 2 * (j + 1);
                    }
                }
            }
        }
        out[I_ENTER] = div_const(loss as f32, 36.0 * (49.0f32 / 6.0));
    } else {
        out[I_ENTER] = 0.0;
    }
    {
        let n = (0..6).filter(|&i| o(i) > 1).count() as i32;
        out[I_ENTER2] = div_const((36 - (n - 6) * (n - 6)) as f32, 36.0);
    }

    // Backbone. (As in gnubg, every made point is weighed with the count
    // of the rearmost made point, which is never updated.)
    {
        let mut pa = -1i32;
        let (mut w, mut tot) = (0i32, 0i32);
        for np in (1..24).rev() {
            if a(np) >= 2 {
                if pa == -1 {
                    pa = np;
                    continue;
                }
                let d = pa - np;
                let c = if d <= 6 {
                    11
                } else if d <= 11 {
                    13 - d
                } else {
                    0
                };
                w += c * a(pa);
                tot += a(pa);
            }
        }
        out[I_BACKBONE] = if tot != 0 {
            1.0 - div_const(w as f32, 11.0) / tot as f32
        } else {
            0.0
        };
    }

    // Back game.
    {
        let n_ac = (18..24).filter(|&i| a(i) > 1).count();
        out[I_BACKG] = 0.0;
        out[I_BACKG1] = 0.0;
        if n_ac >= 1 {
            let tot: i32 = (18..25).map(a).sum();
            if n_ac > 1 {
                out[I_BACKG] = div_const((tot - 3) as f32, 4.0);
            } else {
                out[I_BACKG1] = div_const(tot as f32, 8.0);
            }
        }
    }
}
