//! The input vectors of GNU Backgammon's neural nets (race, contact and
//! crashed nets, and the base inputs of its pruning nets), computed as gnubg
//! computes them, `f32` for `f32`.
//!
//! Written from a reading of gnubg 1.08.003's `eval.c` (`CalculateHalfInputs`,
//! `CalculateRaceInputs`, `CalculateContactInputs`,
//! `CalculateCrashedInputs`, `menOffAll`, `menOffNonCrashed`, `Escapes`,
//! `Escapes1`, `ComputeTable0/1`) and `lib/inputs.c` (`baseInputs`), the
//! source of the PyPI build `gnubg` 1.1.0a16 whose `gnubg.weights` file
//! (version line `GNU Backgammon 1.01`) holds nets of 250 (contact,
//! crashed), 214 (race) and 200 (pruning) inputs. gnubg 1.00 (2013) differs
//! in one input: its `I_PIPLOSS` "strong board" test counted home points
//! holding any checker, 1.08 counts made points (two or more) only.
//!
//! # Layout
//!
//! gnubg evaluates `anBoard[2][25]`, `anBoard[1]` being the player on roll
//! and `anBoard[0]` the opponent, each row in its owner's own numbering
//! (index 0 = ace point, 24 = bar): that is our [`Board`] row
//! `checkers[on_roll]` and `checkers[1 - on_roll]`.
//!
//! * Base inputs ([`BASE_INPUTS`] = 200, `baseInputs`): the opponent's row
//!   first (inputs 0..100), then the player on roll's (100..200); per point
//!   0..23 four units `[n == 1, n == 2, n >= 3, (n - 3) / 2 if n > 3]`, then
//!   the bar in a cumulative code `[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if
//!   n > 3]`.
//! * Contact and crashed nets ([`CONTACT_INPUTS`] = 250): the base inputs,
//!   then two blocks of [`MORE_INPUTS`] = 25 (offsets [`I_OFF1`] ..
//!   [`I_BACKRESCAPES`]): inputs 200..225 describe the player on roll
//!   (`CalculateHalfInputs(anBoard[1], anBoard[0])`), 225..250 the opponent.
//!   The three "men off" units of each block differ between the two nets:
//!   the crashed net puts the player on roll's borne-off count in the first
//!   block (`menOffAll`, steps of five), while the contact net puts the
//!   *opponent's* count there and the player's in the second (gnubg:
//!   "I accidentally switched sides (0 and 1) when I trained the net";
//!   `menOffNonCrashed`, steps of three). Hence the two functions
//!   [`contact_inputs`] and [`crashed_inputs`].
//! * Race net ([`RACE_INPUTS`] = 214, `CalculateRaceInputs`): per side, the
//!   opponent first, [`HALF_RACE_INPUTS`] = 107: points 0..22 in the four
//!   non-cumulative units (92 inputs), fourteen one-hot units "exactly k + 1
//!   checkers off" (k = 0..13), and the number of crossovers still to make
//!   / 10.
//!
//! # Arithmetic
//!
//! gnubg computes in `f32` from integer counts. Its builds use
//! `-ffast-math`, so every division by a constant is compiled as a
//! multiplication by the constant's `f32` reciprocal (`div_const`); this
//! module does the same, operation for operation. The escape tables gnubg
//! fills at start-up (`anEscapes`, `anEscapes1`) are rebuilt here from
//! their definitions, once, behind a [`OnceLock`]; its tables of ways to
//! hit (`aanCombination`, `aIntermediate`, `aaRoll`) become mask
//! expressions, roll by roll (`Shots`).
//!
//! # Speed
//!
//! The integer counts behind the `f32` inputs are gnubg's, not its loops:
//! each row is read once into bit masks, running sums over its points and
//! escape counts (`Side`) that the half inputs of both blocks share, and
//! the 21 rolls' shots are straight-line mask code (`Shots`; without a
//! checker on the bar and with AVX-512, a roll to a vector lane,
//! `no_bar_512`). Contact and
//! crashed inputs take 3.5 to 4 times less time than the loops as first
//! transcribed, which the tests keep as a reference to compare with, bit
//! for bit (`tests::same_as_reference`, `tests::timing_against_reference`).
//!
//! # Checked
//!
//! Bit for bit against the vectors gnubg 1.1.0a16 (PyPI) hands to
//! `NeuralNetEvaluate`, captured with an interposed `NeuralNetEvaluate` on
//! about 150,000 positions (every position ID of `fixtures/expected` plus
//! random positions with blots, bar checkers, checkers off, crashed boards
//! and races), both players on roll: no difference. The test
//! `matches_gnubg_input_vectors` repeats the comparison on a file of such
//! vectors when one is present.

use std::sync::OnceLock;

use crate::bg::position::board::Board;

/// Base inputs: four per point and bar, for both sides (gnubg:
/// `NUM_PRUNING_INPUTS`, the input count of its pruning nets).
pub const BASE_INPUTS: usize = 25 * 4 * 2;
/// Extra inputs per side of the contact and crashed nets (gnubg:
/// `MORE_INPUTS`).
pub const MORE_INPUTS: usize = 25;
/// Inputs of the contact and crashed nets (gnubg: `NUM_INPUTS`).
pub const CONTACT_INPUTS: usize = BASE_INPUTS + 2 * MORE_INPUTS;
/// Race inputs per side (gnubg: `HALF_RACE_INPUTS`).
pub const HALF_RACE_INPUTS: usize = 23 * 4 + 14 + 1;
/// Inputs of the race net (gnubg: `NUM_RACE_INPUTS`).
pub const RACE_INPUTS: usize = 2 * HALF_RACE_INPUTS;

/// Race: first of the fourteen "exactly k + 1 checkers off" units (gnubg:
/// `RI_OFF`).
pub const RI_OFF: usize = 92;
/// Race: crossovers still to make by the checkers outside the home board
/// (each checker counts one per quadrant boundary still ahead of it), / 10
/// (gnubg: `RI_NCROSS`).
pub const RI_NCROSS: usize = 92 + 14;

// Offsets within one side's block of `MORE_INPUTS` (gnubg's enum in
// eval.c, same names, same order). "We" are the side the block describes
// ("me"), "they" the other side. Points are indices in our numbering (0 =
// our ace point, 24 = our bar) unless said otherwise; their rearmost
// checker is "their back".

/// Checkers off, first unit. Contact net (`menOffNonCrashed`, n <= 8):
/// n / 3 for n <= 2, else 1. Crashed net (`menOffAll`): n / 5 for n <= 5,
/// else 1.
pub const I_OFF1: usize = 0;
/// Checkers off, second unit. Contact: 0 for n <= 2, (n - 3) / 3 for
/// 3..=5, else 1. Crashed: 0 for n <= 5, (n - 5) / 5 for 6..=10, else 1.
pub const I_OFF2: usize = 1;
/// Checkers off, third unit. Contact: (n - 6) / 3 from 6 on, else 0.
/// Crashed: (n - 10) / 5 from 11 on, else 0.
pub const I_OFF3: usize = 2;
/// Pips to break contact: over our checkers on points i not yet past their
/// back `b` (i > b), the sum of (i + 1 - b), / 167 (15 + 152, the start
/// position's count).
pub const I_BREAK_CONTACT: usize = 3;
/// Our rearmost checker's point (24 on the bar) / 24.
pub const I_BACK_CHEQUER: usize = 4;
/// Our rearmost anchor (two or more), at or behind our rearmost checker and
/// never the bar, / 24; -1 / 24 if we have no point.
pub const I_BACK_ANCHOR: usize = 5;
/// Our most advanced anchor in their home board (points 18..=23, not past
/// our back anchor), else our anchor on points 17 down to 12 nearest their
/// home: (24 - point) / 6, i.e. their point number / 6; 2 if none.
pub const I_FORWARD_ANCHOR: usize = 6;
/// Pips they lose to our hits: per roll the largest loss (the hit point
/// plus one) by gnubg's rules, summed over the 36 rolls, / (12 * 36).
/// Blots on our points 0 and 1 count only if we have three or more home
/// points made; an exactly-made home point never breaks to hit.
pub const I_PIPLOSS: usize = 7;
/// Rolls (of 36) hitting at least one of their checkers, / 36.
pub const I_P1: usize = 8;
/// Rolls (of 36) hitting at least two of their checkers (gnubg's count),
/// / 36.
pub const I_P2: usize = 9;
/// Rolls (of 36) letting their back checker pass our points (`Escapes`
/// over the 12 points in front of it), / 36.
pub const I_BACKESCAPES: usize = 10;
/// Containment: 1 - (fewest escaping rolls for a checker of theirs on our
/// points 8 down to their back) / 36.
pub const I_ACONTAIN: usize = 11;
/// `I_ACONTAIN` squared.
pub const I_ACONTAIN2: usize = 12;
/// Containment as `I_ACONTAIN`, for a checker of theirs on our points 8
/// down to 0, wherever their back is.
pub const I_CONTAIN: usize = 13;
/// `I_CONTAIN` squared.
pub const I_CONTAIN2: usize = 14;
/// Mobility: over our checkers on points 6..=24, the sum of (point - 5) x
/// checkers x rolls escaping their points (`Escapes` on their row), / 3600.
pub const I_MOBILITY: usize = 15;
/// One-sided moment: with A our mean point rounded up, the mean of
/// (point - A)^2 over our checkers past A, rounded up, / 400.
pub const I_MOMENT2: usize = 16;
/// With checkers on our bar: gnubg's pip loss to their closed home points
/// (doubled with two or more on the bar), / (36 * 49 / 6); else 0.
pub const I_ENTER: usize = 17;
/// (36 - (n - 6)^2) / 36 with n their closed home points.
pub const I_ENTER2: usize = 18;
/// Timing: 24 per checker on our bar, plus the point numbers (indices) of
/// our spare checkers (on points above both 11 and their back: all but two
/// of a point, a blot counting one; from there down to point 6: all; home
/// points: all but two), minus those of the home board gaps the spares so
/// far can fill (two checkers per point), / 100.
pub const I_TIMING: usize = 19;
/// Backbone: with P our rearmost made point among 1..=23 and each other
/// made point Q in front of it, weight 11 if P - Q <= 6, 13 - (P - Q) up to
/// 11, else 0; 1 - (sum of weight x count(P)) / 11 / (sum of count(P)), 0
/// with fewer than two made points. (gnubg never moves P on.)
pub const I_BACKBONE: usize = 20;
/// Back game: with two or more anchors in their home board (points
/// 18..=23), (our checkers there and on the bar - 3) / 4; else 0.
pub const I_BACKG: usize = 21;
/// Back game: with exactly one such anchor, (checkers there and on the
/// bar) / 8; else 0.
pub const I_BACKG1: usize = 22;
/// Free pips: pips (point + 1) of our checkers behind their back, already
/// past all their checkers, / 100.
pub const I_FREEPIP: usize = 23;
/// As `I_BACKESCAPES`, counting only rolls whose total passes our first
/// made point in front of their back checker (`Escapes1`; 0 with none).
pub const I_BACKRESCAPES: usize = 24;

/// gnubg's escape tables, rebuilt from their definitions once (see the
/// module documentation), and tables of ours taken from its code.
struct Tables {
    /// `anEscapes`: rolls (of 36) that escape a checker facing the 12
    /// points of the mask (bit d - 1 = point d pips ahead made).
    escapes: [u8; 0x1000],
    /// `anEscapes1`: as above, counting only rolls whose total lands past
    /// the first made point; 0 for the empty mask.
    escapes1: [u8; 0x1000],
    /// `I_ENTER`'s pip loss before scaling (gnubg's loop over pairs of
    /// home points in `CalculateHalfInputs`), indexed by their closed home
    /// points (bit i: their point i holds two or more), plus 64 with two
    /// or more of ours on the bar: it depends on nothing else.
    enter: [u16; 128],
    /// `points[n]`: the four base units of a point holding n checkers.
    points: [[f32; 4]; 256],
    /// `bars[n]`: those of a bar holding n.
    bars: [[f32; 4]; 256],
    /// `points[n]` and `bars[n]` without their zeros, for [`base_units`].
    point_units: [NonZero; 256],
    bar_units: [NonZero; 256],
    /// `placed[25 s + i][n]`: [`base_units`]'s entries for point `i` (24:
    /// the bar) of block `s` holding `n` checkers (at most a side's
    /// fifteen), their input numbers in place: copied whole, not built
    /// unit by unit.
    placed: Box<[[NonZero; PLACED_COUNTS]; 50]>,
}

/// Checkers a point may hold in [`Tables::placed`].
const PLACED_COUNTS: usize = 16;

/// The units of a point or bar that are not zero: `(unit, value)`, the
/// first `len` of `at`.
#[derive(Clone, Copy)]
struct NonZero {
    len: usize,
    at: [(u32, f32); 4],
}

impl NonZero {
    /// `self` with its input numbers moved up by `at`.
    fn placed(mut self, at: u32) -> NonZero {
        for (j, _) in &mut self.at[..self.len] {
            *j += at;
        }
        self
    }

    fn of(units: [f32; 4]) -> NonZero {
        let mut z = NonZero {
            len: 0,
            at: [(0, 0.0); 4],
        };
        for (j, x) in (0u32..).zip(units) {
            if x != 0.0 {
                z.at[z.len] = (j, x);
                z.len += 1;
            }
        }
        z
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

fn tables() -> &'static Tables {
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
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

    // Entering: gnubg's loop, their closed points read from the index.
    let mut enter = [0u16; 128];
    for (index, slot) in enter.iter_mut().enumerate() {
        let closed = |i: usize| index >> i & 1 == 1;
        let two = index >= 64;
        let mut loss = 0;
        for i in 0..6 {
            if closed(i) {
                loss += 4 * (i + 1);
                for j in (i + 1)..6 {
                    if closed(j) {
                        loss += 2 * (i + j + 2);
                    } else if two {
                        loss += 2 * (i + 1);
                    }
                }
            } else if two {
                for j in (i + 1)..6 {
                    if closed(j) {
                        loss += 2 * (j + 1);
                    }
                }
            }
        }
        *slot = loss as u16;
    }
    let point_nonzero: [NonZero; 256] = std::array::from_fn(|n| NonZero::of(point_units(n as u8)));
    let bar_nonzero: [NonZero; 256] = std::array::from_fn(|n| NonZero::of(bar_units(n as u8)));
    let placed = Box::new(std::array::from_fn(|k| {
        let (side, point) = (k / 25, k % 25);
        let units = if point < 24 {
            &point_nonzero
        } else {
            &bar_nonzero
        };
        let at = (side * 100 + point * 4) as u32;
        std::array::from_fn(|n| units[n].placed(at))
    }));
    Tables {
        escapes,
        escapes1,
        enter,
        points: std::array::from_fn(|n| point_units(n as u8)),
        bars: std::array::from_fn(|n| bar_units(n as u8)),
        point_units: point_nonzero,
        bar_units: bar_nonzero,
        placed,
    }
}

/// The mask of made points among the (up to) 12 points in front of a
/// checker `n` points from the far end of the row (gnubg: the index built
/// in `Escapes`): bit i is point `24 - n + i` made, for i < min(n, 12).
#[inline]
fn escape_mask(made: u32, n: i32) -> usize {
    if n <= 0 {
        return 0;
    }
    let m = n.min(12);
    ((made >> (24 - n)) & ((1 << m) - 1)) as usize
}

/// gnubg's `Escapes(anBoard, n)`, the row given by its made points (bits
/// 0..=24).
#[inline]
fn escapes(t: &Tables, made: u32, n: i32) -> i32 {
    t.escapes[escape_mask(made, n)] as i32
}

/// gnubg's `Escapes1(anBoard, n)`, the row given by its made points.
#[inline]
fn escapes1(t: &Tables, made: u32, n: i32) -> i32 {
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
fn div_const(x: f32, c: f32) -> f32 {
    x * (1.0 / c)
}

/// The four units of a point (gnubg: `inpvec`).
fn point_units(n: u8) -> [f32; 4] {
    let spare = if n > 3 {
        div_const((n - 3) as f32, 2.0)
    } else {
        0.0
    };
    let unit = |b: bool| if b { 1.0 } else { 0.0 };
    [unit(n == 1), unit(n == 2), unit(n >= 3), spare]
}

/// The four units of the bar (gnubg: `inpvecb`, cumulative).
fn bar_units(n: u8) -> [f32; 4] {
    let [_, _, three, spare] = point_units(n);
    let unit = |b: bool| if b { 1.0 } else { 0.0 };
    [unit(n >= 1), unit(n >= 2), three, spare]
}

/// gnubg's rows: `[anBoard[0], anBoard[1]]` = [opponent, player on roll].
#[inline]
fn rows(board: &Board, on_roll: usize) -> [&[u8; 25]; 2] {
    assert!(on_roll < 2, "player {on_roll} does not exist");
    [&board.checkers[1 - on_roll], &board.checkers[on_roll]]
}

/// The base inputs (gnubg: `baseInputs`) into `out[..BASE_INPUTS]`: the
/// opponent's points 1..24 and bar, then the player on roll's. These are
/// also the whole input of gnubg's pruning nets.
pub fn base_inputs(board: &Board, on_roll: usize, out: &mut [f32]) {
    base(tables(), board, on_roll, out);
}

/// [`base_inputs`], the units read from the tables.
fn base(t: &Tables, board: &Board, on_roll: usize, out: &mut [f32]) {
    for (block, row) in out[..BASE_INPUTS]
        .chunks_exact_mut(100)
        .zip(rows(board, on_roll))
    {
        let (points, bar) = block.split_at_mut(96);
        for (units, &n) in points.chunks_exact_mut(4).zip(row) {
            units.copy_from_slice(&t.points[n as usize]);
        }
        bar.copy_from_slice(&t.bars[row[24] as usize]);
    }
}

/// The base inputs that are not zero, as `(index, value)` in index
/// order, into `out`; returns how many. A net summing only these sums
/// what it would over [`base_inputs`] (gnubg skips the zeros too), with
/// no pass over the 200 inputs to find them.
pub fn base_units(board: &Board, on_roll: usize, out: &mut [(u32, f32); BASE_INPUTS]) -> usize {
    let t = tables();
    let mut k = 0;
    for (side, row) in rows(board, on_roll).into_iter().enumerate() {
        let block = side as u32 * 100;
        // The occupied points in order, by a mask: most points are
        // empty, and a branch on each mispredicts.
        let mut occupied = row
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, &n)| m | (u32::from(n != 0) << i));
        while occupied != 0 {
            let point = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let n = row[point] as usize;
            let fallback;
            let units = match t.placed[25 * side + point].get(n) {
                Some(units) => units,
                None => {
                    let units = if point < 24 {
                        &t.point_units
                    } else {
                        &t.bar_units
                    };
                    fallback = units[n].placed(block + point as u32 * 4);
                    &fallback
                }
            };
            if k + 4 <= out.len() {
                // All four slots written, the first `len` kept.
                out[k..k + 4].copy_from_slice(&units.at);
            } else {
                out[k..k + units.len].copy_from_slice(&units.at[..units.len]);
            }
            k += units.len;
        }
    }
    k
}

/// The race net's inputs (gnubg: `CalculateRaceInputs`), the opponent's
/// half first. Meant for race positions (no checker on either bar or
/// 24-point): checkers there are not encoded.
pub fn race_inputs(board: &Board, on_roll: usize, out: &mut [f32; RACE_INPUTS]) {
    let t = tables();
    for (half, row) in out
        .chunks_exact_mut(HALF_RACE_INPUTS)
        .zip(rows(board, on_roll))
    {
        debug_assert!(row[23] == 0 && row[24] == 0, "not a race position");
        let mut men_off: i32 = 15;
        for (units, &nc) in half[..RI_OFF].chunks_exact_mut(4).zip(row) {
            men_off -= nc as i32;
            units.copy_from_slice(&t.points[nc as usize]);
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
pub fn contact_inputs(board: &Board, on_roll: usize, out: &mut [f32; CONTACT_INPUTS]) {
    two_sided_inputs(board, on_roll, out, None, false);
}

/// [`contact_inputs`], the row of the player on roll read through `memo`
/// when there is one.
pub fn contact_inputs_with(
    board: &Board,
    on_roll: usize,
    out: &mut [f32; CONTACT_INPUTS],
    memo: Option<&mut SideMemo>,
) {
    two_sided_inputs(board, on_roll, out, memo, false);
}

/// The crashed net's inputs (gnubg: `CalculateCrashedInputs`).
pub fn crashed_inputs(board: &Board, on_roll: usize, out: &mut [f32; CONTACT_INPUTS]) {
    two_sided_inputs(board, on_roll, out, None, true);
}

/// [`crashed_inputs`], the row of the player on roll read through `memo`
/// when there is one.
pub fn crashed_inputs_with(
    board: &Board,
    on_roll: usize,
    out: &mut [f32; CONTACT_INPUTS],
    memo: Option<&mut SideMemo>,
) {
    two_sided_inputs(board, on_roll, out, memo, true);
}

/// The contact or `crashed` net's inputs: the base inputs, then each
/// side's "men off" units and half inputs, the opponent's side read anew
/// and the player on roll's through `memo` when there is one. The two
/// nets differ only in their "men off" units.
#[inline(always)]
fn two_sided_inputs(
    board: &Board,
    on_roll: usize,
    out: &mut [f32; CONTACT_INPUTS],
    memo: Option<&mut SideMemo>,
    crashed: bool,
) {
    let t = tables();
    let [b0, b1] = rows(board, on_roll);
    let mut theirs = Side::EMPTY;
    theirs.read(t, b0);
    let s0 = &theirs;
    let mut own = Side::EMPTY;
    let s1 = match memo {
        Some(m) => m.side(t, b1),
        None => {
            own.read(t, b1);
            &own
        }
    };
    base(t, board, on_roll, out);
    let (first, second) = out[BASE_INPUTS..].split_at_mut(MORE_INPUTS);
    if crashed {
        men_off_all(s1, &mut first[I_OFF1..I_OFF1 + 3]);
        men_off_all(s0, &mut second[I_OFF1..I_OFF1 + 3]);
    } else {
        men_off_non_crashed(s0, &mut first[I_OFF1..I_OFF1 + 3]);
        men_off_non_crashed(s1, &mut second[I_OFF1..I_OFF1 + 3]);
    }
    half_inputs(t, s1, s0, first);
    half_inputs(t, s0, s1, second);
}

/// The last row of a player on roll read into a [`Side`], kept across the
/// positions of a roll's plays: there the player on roll is the one who
/// did not move, whose row changes only when a play hits.
#[derive(Debug, Clone)]
pub struct SideMemo {
    side: Side,
    /// Whether `side` was read from a row.
    read: bool,
}

impl Default for SideMemo {
    fn default() -> SideMemo {
        SideMemo {
            side: Side::EMPTY,
            read: false,
        }
    }
}

impl SideMemo {
    /// The side of `row`, read anew unless it is the one kept.
    fn side(&mut self, t: &Tables, row: &[u8; 25]) -> &Side {
        if !self.read || self.side.n != *row {
            self.side.read(t, row);
            self.read = true;
        }
        &self.side
    }
}

/// gnubg's `menOffAll`: checkers off in steps of five.
fn men_off_all(side: &Side, out: &mut [f32]) {
    let off = side.off();
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
fn men_off_non_crashed(side: &Side, out: &mut [f32]) {
    let off = side.off();
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

/// One side's row as [`half_inputs`] reads it, worked out once per call:
/// each row is "we" in one block of inputs and "they" in the other. The
/// row holds at most 15 checkers, as every [`Board`] does.
#[derive(Debug, Clone)]
struct Side {
    /// The row, in its owner's numbering.
    n: [u8; 25],
    /// Points (bits 0..=24) holding one or more checkers.
    occ: u32,
    /// Points holding exactly one.
    blot: u32,
    /// Points holding exactly two.
    two: u32,
    /// Points holding two or more.
    made: u32,
    /// `esc[i]`: gnubg's `Escapes(row, i)`, rolls escaping a checker `i`
    /// points from the far end of this row.
    esc: [u8; 25],
    /// `sums[k]`: over the points below k (k = 0..=25), packed without
    /// carries: checkers (bits 0..16), their pips counted i + 1 on point i
    /// (bits 16..32), and i^2 summed (bits 32..64). Sums over a run of
    /// points are differences of two.
    sums: [u64; 26],
    /// `contain[k - 15]`: the fewest escapes `esc[i]` for i in 15..k, or
    /// 36 (k = 15..=25).
    contain: [u8; 11],
    /// `I_MOMENT2` before scaling: it depends on this row only.
    moment: i32,
}

/// The checkers in a run of `Side::sums`.
#[inline]
fn checkers(sums: u64) -> i32 {
    (sums & 0xffff) as i32
}

/// Their pips (i + 1 for point i).
#[inline]
fn pips(sums: u64) -> i32 {
    (sums >> 16 & 0xffff) as i32
}

/// The made points among `points` (a mask of points 12..=23) and the sum
/// of their numbers, six points at a time from a table.
#[inline]
fn made_points(points: u32) -> [i32; 2] {
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
fn ceil_div(x: i32, j: i32) -> i32 {
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
    fn off(&self) -> i32 {
        15 - checkers(self.sums[25])
    }

    /// A side to [`Side::read`] a row into.
    const EMPTY: Side = Side {
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
    fn new(t: &Tables, n: &[u8; 25]) -> Side {
        let mut s = Side::EMPTY;
        s.read(t, n);
        s
    }

    /// Reads the row `n` (at most 15 checkers: the sums' fields and
    /// `ceil_div` rely on it) into this side, in place: a side built on
    /// the stack and copied into place cost a tenth of reading it.
    #[inline(always)]
    fn read(&mut self, t: &Tables, n: &[u8; 25]) {
        debug_assert!(n.iter().map(|&c| c as u32).sum::<u32>() <= 15, "{n:?}");
        // Eight points at a time: the high bit of each byte of
        // `at_least(x, k)` is set where that byte of x is k or more
        // (for k in 1..=127, any byte: no carry crosses a byte), and
        // `gather` packs those bits into a byte, point i at bit i.
        fn at_least(x: u64, k: u8) -> u64 {
            const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
            (((x & LOW7) + u64::from_ne_bytes([0x80 - k; 8])) | x) & !LOW7
        }
        fn gather(m: u64) -> u32 {
            ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
        }
        let bar = n[24];
        let (mut occ, mut made, mut three) = (
            ((bar >= 1) as u32) << 24,
            ((bar >= 2) as u32) << 24,
            ((bar >= 3) as u32) << 24,
        );
        for (k, chunk) in n[..24].chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            occ |= gather(at_least(x, 1)) << (8 * k);
            made |= gather(at_least(x, 2)) << (8 * k);
            three |= gather(at_least(x, 3)) << (8 * k);
        }
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

/// The highest set bit's index; -1 for 0.
#[inline]
fn msb(x: u32) -> i32 {
    31 - x.leading_zeros() as i32
}

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
struct Shots {
    /// Their blots that count.
    blots: u32,
    /// All their blots.
    all_blots: u32,
    /// Their made points.
    theirs: u32,
    /// Our checkers that may hit.
    hitters: u32,
    /// Their blots in their own numbering.
    opp_blot: u32,
    /// Their made points in their own numbering.
    opp_made: u32,
    /// Our made points.
    made: u32,
    /// `direct[d]`: the hitters with a direct shot of d pips.
    direct: [u32; 7],
    /// `hit[d]`: the blots they hit.
    hit: [u32; 7],
    /// `top[d]`: the most advanced of them, as its bit (0: none).
    top: [u32; 7],
    /// `alone[d]`: `top[d]` if that point holds fewer than two.
    alone: [u32; 7],
}

/// The pip loss of a shot of `pips_way` pips by the hitters `h` (their
/// most advanced, our point j, takes the blot on j - pips_way, which loses
/// j - pips_way + 1); below 1 when `h` is empty.
#[inline(always)]
fn shot_pips(h: u32, pips_way: u32) -> i32 {
    25 - pips_way as i32 - h.trailing_zeros() as i32
}

impl Shots {
    fn new(me: &Side, opp: &Side) -> Shots {
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
struct Tally {
    pips: i32,
    one: i32,
    two: i32,
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
fn double_no_bar<const D: u32>(s: &Shots, t: &mut Tally) {
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
fn pair_no_bar<const A: u32, const B: u32>(s: &Shots, t: &mut Tally) {
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
    chequers: i32,
    pips: i32,
    /// A checker has left the board for a direct shot.
    entering: bool,
    /// gnubg's count would exceed one even if it were only one before an
    /// indirect shot.
    second: bool,
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
fn no_bar_512_available() -> bool {
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
unsafe fn no_bar_512(s: &Shots) -> Tally {
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
fn pip_loss(me: &Side, opp: &Side) -> Tally {
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

/// gnubg's `CalculateHalfInputs(anBoard, anBoardOpp, afInput)`: the inputs
/// `I_BREAK_CONTACT..=I_BACKRESCAPES` of the side `me` facing `opp`.
/// `I_OFF1..=I_OFF3` are left alone. The integer counts are gnubg's,
/// computed from the sides' masks where that is shorter; every `f32` is
/// made by the same operations on the same values as in gnubg.
#[inline(never)]
fn half_inputs(t: &Tables, me: &Side, opp: &Side, out: &mut [f32]) {
    let a = |i: i32| me.n[i as usize] as i32;

    // Their rearmost checker, in their numbering (-1: none), and the
    // point of ours it faces (-1: they are on the bar).
    let opp_back = msb(opp.occ);
    let n_opp_back = 23 - opp_back;

    // Break contact (our checkers not yet past their back) and free pips
    // (those past it).
    {
        let b = n_opp_back;
        let free = pips(me.sums[b.max(0) as usize]);
        let ahead = me.sums[25] - me.sums[(b + 1) as usize];
        let np = pips(ahead) - b * checkers(ahead);
        out[I_BREAK_CONTACT] = div_const(np as f32, 15.0 + 152.0);
        out[I_FREEPIP] = div_const(free as f32, 100.0);
    }

    // Timing. Points 6..=23 count all their checkers, but above both 11
    // and their back only the spares (all but two of a point, a blot
    // counting one): two less for each made point there.
    {
        let m = n_opp_back.max(11);
        let run = me.sums[24] - me.sums[6];
        let [made, made_at] = made_points(me.made & 0x00ff_ffff & !((2u32 << m) - 1));
        let mut no = a(24) + checkers(run) - 2 * made;
        let mut tm = 24 * a(24) + pips(run) - checkers(run) - 2 * made_at;
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
        let n_back = msb(me.occ);
        out[I_BACK_CHEQUER] = div_const(n_back as f32, 24.0);

        let top = if n_back == 24 { 23 } else { n_back };
        let anchor = if top < 0 {
            -1
        } else {
            msb(me.made & ((2u32 << top) - 1))
        };
        out[I_BACK_ANCHOR] = div_const(anchor as f32, 24.0);

        // The lowest made point of 18..=anchor, else the highest of
        // 12..=17.
        let home = if anchor >= 18 {
            me.made & ((2u32 << anchor) - 1) & !((1 << 18) - 1)
        } else {
            0
        };
        let outfield = me.made & (0x3f << 12);
        let n = if home != 0 {
            24 - home.trailing_zeros() as i32
        } else if outfield != 0 {
            24 - msb(outfield)
        } else {
            0
        };
        out[I_FORWARD_ANCHOR] = if n == 0 {
            2.0
        } else {
            div_const(n as f32, 6.0)
        };
    }

    // Pip loss and hitting chances.
    {
        let t = pip_loss(me, opp);
        out[I_PIPLOSS] = div_const(t.pips as f32, 12.0 * 36.0);
        out[I_P1] = div_const(t.one as f32, 36.0);
        out[I_P2] = div_const(t.two as f32, 36.0);
    }

    // Escapes of their back checker.
    out[I_BACKESCAPES] = div_const(escapes(t, me.made, opp_back) as f32, 36.0);
    out[I_BACKRESCAPES] = div_const(escapes1(t, me.made, opp_back) as f32, 36.0);

    // Containment: the fewest escapes from our points 8 down to their back
    // (`I_ACONTAIN`), and from 8 down to 0 (`I_CONTAIN`).
    {
        // gnubg: from i = 15 up to 24 - their back (point 24 included when
        // they are on the bar), then on to 23, starting again when they
        // are on the bar: the second minimum is over 15..24 either way.
        let end = (24 - n_opp_back).clamp(15, 25) as usize;
        let n = me.contain[end - 15] as i32;
        out[I_ACONTAIN] = div_const((36 - n) as f32, 36.0);
        out[I_ACONTAIN2] = out[I_ACONTAIN] * out[I_ACONTAIN];
        let n = me.contain[24 - 15] as i32;
        out[I_CONTAIN] = div_const((36 - n) as f32, 36.0);
        out[I_CONTAIN2] = out[I_CONTAIN] * out[I_CONTAIN];
    }

    // Mobility.
    {
        let mut n = 0i32;
        for i in 6..25 {
            n += (i as i32 - 5) * me.n[i] as i32 * opp.esc[i] as i32;
        }
        out[I_MOBILITY] = div_const(n as f32, 3600.0);
    }

    out[I_MOMENT2] = div_const(me.moment as f32, 400.0);

    // Entering from the bar.
    let closed = opp.made & 0x3f;
    out[I_ENTER] = if a(24) > 0 {
        let index = closed as usize | ((a(24) > 1) as usize) << 6;
        div_const(t.enter[index] as f32, 36.0 * (49.0f32 / 6.0))
    } else {
        0.0
    };
    {
        let n = closed.count_ones() as i32;
        out[I_ENTER2] = div_const((36 - (n - 6) * (n - 6)) as f32, 36.0);
    }

    // Backbone. (As in gnubg, every made point is weighed with the count
    // of the rearmost made point P, which is never updated: the sum of
    // weight x count(P) is count(P) x the sum of the weights.)
    {
        let made = me.made & 0x00ff_fffe;
        let (mut w, mut tot) = (0i32, 0i32);
        if made != 0 {
            let pa = msb(made);
            let mut rest = made & !(1 << pa);
            while rest != 0 {
                let d = pa - rest.trailing_zeros() as i32;
                rest &= rest - 1;
                w += if d <= 6 {
                    11
                } else if d <= 11 {
                    13 - d
                } else {
                    0
                };
                tot += 1;
            }
            w *= a(pa);
            tot *= a(pa);
        }
        out[I_BACKBONE] = if tot != 0 {
            1.0 - div_const(w as f32, 11.0) / tot as f32
        } else {
            0.0
        };
    }

    // Back game.
    {
        let n_ac = (me.made & (0x3f << 18)).count_ones();
        out[I_BACKG] = 0.0;
        out[I_BACKG1] = 0.0;
        if n_ac >= 1 {
            let tot = checkers(me.sums[25] - me.sums[18]);
            if n_ac > 1 {
                out[I_BACKG] = div_const((tot - 3) as f32, 4.0);
            } else {
                out[I_BACKG1] = div_const(tot as f32, 8.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::position::ids::board_from_position_id;

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// A small deterministic generator of arbitrary (not necessarily
    /// reachable) positions: blots, stacks, bar checkers, checkers off.
    struct Gen(u64);
    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> usize {
            (self.next() % n) as usize
        }
        fn board(&mut self) -> Board {
            let mut b = Board::empty();
            for p in 0..2 {
                let n = 15
                    - if self.below(3) == 0 {
                        self.below(15)
                    } else {
                        0
                    };
                for _ in 0..n {
                    loop {
                        let i = if self.below(25) == 0 {
                            24
                        } else {
                            self.below(24)
                        };
                        if i == 24 || b.opponent_at(p, i) == 0 {
                            b.checkers[p][i] += 1;
                            break;
                        }
                    }
                }
            }
            b
        }
    }

    fn swapped(b: &Board) -> Board {
        Board {
            checkers: [b.checkers[1], b.checkers[0]],
        }
    }

    /// gnubg's loop for `aHit`, transcribed literally, to check [`hits`].
    fn hits_literal(t: &reference::Tables, me: &[u8; 25], opp: &[u8; 25]) -> [u32; 39] {
        let a = |i: i32| me[i as usize] as i32;
        let o = |i: i32| opp[i as usize] as i32;
        let n_board = (0..6).filter(|&i| a(i) >= 2).count();
        let mut hit = [0u32; 39];
        let first_blot = if n_board > 2 { 23 } else { 21 };
        for i in (0..=first_blot).rev() {
            if o(i) != 1 {
                continue;
            }
            for j in (24 - i)..25 {
                if a(j) == 0 || (j < 6 && a(j) == 2) {
                    continue;
                }
                // gnubg's aanCombination[d - 1]: the ways covering d pips.
                let d = j + i - 23;
                for (w, way) in t.ways.iter().enumerate().filter(|(_, w)| w.pips == d) {
                    let blocked = if way.all {
                        way.faces > 1
                            && way
                                .inter
                                .iter()
                                .take_while(|&&x| x > 0)
                                .any(|&x| o(i - x) > 1)
                    } else {
                        o(i - way.inter[0]) > 1 && o(i - way.inter[1]) > 1
                    };
                    if !blocked {
                        hit[w] |= 1 << j;
                    }
                }
            }
        }
        hit
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn no_bar_vector_counts_are_the_scalar_ones() {
        if !no_bar_512_available() {
            eprintln!("no AVX-512F and AVX-512CD on this CPU: no_bar_512 is not used here");
            return;
        }
        let t = tables();
        let mut g = Gen(91);
        let mut shots = 0;
        for _ in 0..100_000 {
            let b = g.board();
            for p in 0..2 {
                let me = Side::new(t, &b.checkers[p]);
                let opp = Side::new(t, &b.checkers[1 - p]);
                if me.n[24] != 0 {
                    continue;
                }
                let s = Shots::new(&me, &opp);
                let mut want = Tally::default();
                every_roll!(double_no_bar, pair_no_bar, &s, &mut want);
                // SAFETY: the features were checked above.
                let got = unsafe { no_bar_512(&s) };
                assert_eq!(
                    (got.pips, got.one, got.two),
                    (want.pips, want.one, want.two),
                    "{b:?}, {p} hitting"
                );
                shots += usize::from(want.one > 0);
            }
        }
        assert!(shots > 50_000, "{shots}");
    }

    #[test]
    fn a_kept_side_gives_the_same_inputs() {
        let mut g = Gen(5);
        let mut memo = SideMemo::default();
        let (mut x, mut y) = ([0f32; CONTACT_INPUTS], [0f32; CONTACT_INPUTS]);
        let mut b = g.board();
        for k in 0..20_000 {
            // Mostly the row of player 0 (on roll) stays, as in a roll's
            // plays; now and then it changes.
            let next = g.board();
            b.checkers[1] = next.checkers[1];
            if k % 7 == 0 {
                b.checkers[0] = next.checkers[0];
            }
            contact_inputs_with(&b, 0, &mut x, Some(&mut memo));
            contact_inputs(&b, 0, &mut y);
            assert_eq!(bits(&x), bits(&y), "contact: {b:?}");
            crashed_inputs_with(&b, 0, &mut x, Some(&mut memo));
            crashed_inputs(&b, 0, &mut y);
            assert_eq!(bits(&x), bits(&y), "crashed: {b:?}");
        }
    }

    #[test]
    fn hit_masks_match_the_literal_loop() {
        let t = reference::tables();
        let mut g = Gen(77);
        for _ in 0..20_000 {
            let b = g.board();
            for p in 0..2 {
                let (me, opp) = (&b.checkers[p], &b.checkers[1 - p]);
                assert_eq!(
                    reference::hits(t, me, opp),
                    hits_literal(t, me, opp),
                    "{b:?}"
                );
            }
        }
    }

    #[test]
    fn base_units_are_the_base_inputs_not_zero() {
        let mut g = Gen(91);
        for _ in 0..5_000 {
            let b = g.board();
            for p in 0..2 {
                let mut dense = [0.0f32; BASE_INPUTS];
                base_inputs(&b, p, &mut dense);
                let want: Vec<(u32, u32)> = (0..BASE_INPUTS as u32)
                    .zip(dense)
                    .filter(|&(_, x)| x != 0.0)
                    .map(|(i, x)| (i, x.to_bits()))
                    .collect();
                let mut units = [(0u32, 0.0f32); BASE_INPUTS];
                let n = base_units(&b, p, &mut units);
                let got: Vec<(u32, u32)> =
                    units[..n].iter().map(|&(i, x)| (i, x.to_bits())).collect();
                assert_eq!(got, want, "{b:?}");
            }
        }
    }

    #[test]
    fn ceil_div_is_division() {
        for j in 1..20 {
            for x in 0..10_000 {
                assert_eq!(ceil_div(x, j), (x + j - 1) / j, "{x} / {j}");
            }
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(BASE_INPUTS, 200);
        assert_eq!(CONTACT_INPUTS, 250);
        assert_eq!(HALF_RACE_INPUTS, 107);
        assert_eq!(RACE_INPUTS, 214);
        assert_eq!(I_BACKRESCAPES + 1, MORE_INPUTS);
        let t = reference::tables();
        assert_eq!(t.ways.len(), 39);
        assert_eq!(t.rolls.len(), 21);
        // 21 rolls weigh 36: six doubles once, fifteen others twice.
        let w: usize = t.rolls.iter().map(|r| if r.double { 1 } else { 2 }).sum();
        assert_eq!(w, 36);
        // gnubg's aanCombination: ways to cover 1..=24 pips.
        let counts: Vec<usize> = (1..=24)
            .map(|p| t.ways.iter().filter(|w| w.pips == p).count())
            .collect();
        assert_eq!(
            counts,
            [1, 2, 3, 4, 3, 5, 3, 4, 3, 2, 1, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1]
        );
    }

    /// The reciprocals are the `f32` literals found in gnubg 1.1.0a16's
    /// machine code.
    #[test]
    fn reciprocals_are_gnubgs() {
        for (c, bits) in [
            (15.0 + 152.0, 0x3bc4_3730u32),
            (24.0, 0x3d2a_aaab),
            (6.0, 0x3e2a_aaab),
            (12.0 * 36.0, 0x3b17_b426),
            (36.0, 0x3ce3_8e39),
            (100.0, 0x3c23_d70a),
            (3600.0, 0x3991_a2b4),
            (400.0, 0x3b23_d70a),
            (36.0 * (49.0f32 / 6.0), 0x3b5e_e95c),
            (11.0, 0x3dba_2e8c),
            (5.0, 0x3e4c_cccd),
            (3.0, 0x3eaa_aaab),
        ] {
            assert_eq!(div_const(1.0, c).to_bits(), bits, "1 / {c}");
        }
    }

    #[test]
    fn escape_tables() {
        let t = tables();
        // Nothing in front: every roll escapes; Escapes1 is 0 by definition.
        assert_eq!(t.escapes[0], 36);
        assert_eq!(t.escapes1[0], 0);
        // Everything made.
        assert_eq!(t.escapes[0xfff], 0);
        // A six-point prime right in front: no single die lands, no escape.
        assert_eq!(t.escapes[0x3f], 0);
        // One point 6 pips ahead: 51, 42 (twice each), 33 and 66 fail.
        assert_eq!(t.escapes[1 << 5], 30);
        // ... and of the 30, the rolls of 7 or more pass it: 61 52 43 (6),
        // 62 53 44 (5), 63 54 (4), 64 55 (3), 65 (2).
        assert_eq!(t.escapes1[1 << 5], 20);
        // One point 1 pip ahead: only 11 fails (gnubg looks at the total's
        // point and the two single-die points, so 21 escapes with the 2).
        assert_eq!(t.escapes[1], 35);
        // Only points 12 pips ahead: 66 alone fails.
        assert_eq!(t.escapes[1 << 11], 35);
        assert_eq!(t.escapes1[1 << 11], 0);
        // The start position, seen from a back checker: our 6, 8 and 13
        // points are 5, 7 and 12 pips ahead: 41 32 61 52 43 (x2), 55, 66.
        let board = Board::start();
        let start = Side::new(t, &board.checkers[0]);
        assert_eq!(escapes(t, start.made, 23), 24);
        assert_eq!(escapes1(t, start.made, 23), 18);
        assert_eq!(start.esc[23], 24);
        // The same tables as the reference implementation's.
        let r = reference::tables();
        assert!(t.escapes == r.escapes && t.escapes1 == r.escapes1);
    }

    #[test]
    fn start_position() {
        let b = Board::start();
        let mut v = [f32::NAN; CONTACT_INPUTS];
        contact_inputs(&b, 0, &mut v);
        for side in 0..2 {
            let base = &v[side * 100..side * 100 + 100];
            for i in 0..24 {
                let want: [f32; 4] = match i {
                    5 | 12 => [0.0, 0.0, 1.0, 1.0],
                    7 => [0.0, 0.0, 1.0, 0.0],
                    23 => [0.0, 1.0, 0.0, 0.0],
                    _ => [0.0; 4],
                };
                assert_eq!(base[4 * i..4 * i + 4], want, "point {i}");
            }
            assert_eq!(base[96..100], [0.0; 4], "bar");
        }
        let half = &v[BASE_INPUTS..BASE_INPUTS + MORE_INPUTS];
        assert_eq!(half, &v[BASE_INPUTS + MORE_INPUTS..]);
        let q = |x: i32, c: f32| div_const(x as f32, c);
        let want: [(usize, f32); 25] = [
            (I_OFF1, 0.0),
            (I_OFF2, 0.0),
            (I_OFF3, 0.0),
            // 6x5 + 8x3 + 13x5 + 24x2 = 167.
            (I_BREAK_CONTACT, q(167, 167.0)),
            (I_BACK_CHEQUER, q(23, 24.0)),
            (I_BACK_ANCHOR, q(23, 24.0)),
            // The anchor on their ace point.
            (I_FORWARD_ANCHOR, q(1, 6.0)),
            // No blots.
            (I_PIPLOSS, 0.0),
            (I_P1, 0.0),
            (I_P2, 0.0),
            (I_BACKESCAPES, q(24, 36.0)),
            // Fewest escapes from our 9..1 points: 22 rolls.
            (I_ACONTAIN, q(14, 36.0)),
            (I_ACONTAIN2, q(14, 36.0) * q(14, 36.0)),
            (I_CONTAIN, q(14, 36.0)),
            (I_CONTAIN2, q(14, 36.0) * q(14, 36.0)),
            (I_MOBILITY, half[I_MOBILITY]),
            // Mean point 152 / 15 -> 11; (12 - 11)^2 x 5 + (23 - 11)^2 x 2
            // = 293 over 7 checkers -> 42.
            (I_MOMENT2, q(42, 400.0)),
            (I_ENTER, 0.0),
            // One closed point in their home: 36 - 25.
            (I_ENTER2, q(11, 36.0)),
            // 12 x 3 + 7 x 3 + 5 x 3 - (4 + 3 + 2 + 1) x 2 = 52.
            (I_TIMING, q(52, 100.0)),
            // Reference 23 (two): 13-point 11 apart weighs 2; the 8 and 6
            // points are too far: w = 4, tot = 6.
            (I_BACKBONE, 1.0 - q(4, 11.0) / 6.0),
            (I_BACKG, 0.0),
            // One anchor: 2 checkers / 8.
            (I_BACKG1, q(2, 8.0)),
            (I_FREEPIP, 0.0),
            (I_BACKRESCAPES, q(18, 36.0)),
        ];
        for (i, w) in want {
            assert_eq!(
                half[i].to_bits(),
                w.to_bits(),
                "input {i}: {} vs {w}",
                half[i]
            );
        }
        // Values printed by gnubg 1.1.0a16 for the start position.
        assert_eq!(half[I_MOBILITY], 0.620_555_6);
        assert_eq!(half[I_BACKBONE], 0.939_393_94);
        assert_eq!(half[I_BREAK_CONTACT], 1.0);
        // The crashed net's vector differs only in the men-off units, all 0
        // here.
        let mut c = [f32::NAN; CONTACT_INPUTS];
        crashed_inputs(&b, 1, &mut c);
        assert_eq!(bits(&c), bits(&v));
    }

    #[test]
    fn men_off_units() {
        let mut b = Board::start();
        // Player 0 on roll has borne off 7 (taken from the 13-point and
        // 6-point), player 1 has 2 off.
        b.checkers[0][12] = 0;
        b.checkers[0][5] = 3;
        b.checkers[1][12] = 3;
        let mut v = [0f32; CONTACT_INPUTS];
        contact_inputs(&b, 0, &mut v);
        let first = BASE_INPUTS;
        let second = BASE_INPUTS + MORE_INPUTS;
        // Contact: the first block carries the opponent's count (2).
        assert_eq!(v[first..first + 3], [div_const(2.0, 3.0), 0.0, 0.0]);
        assert_eq!(v[second..second + 3], [1.0, 1.0, div_const(1.0, 3.0)]);
        crashed_inputs(&b, 0, &mut v);
        // Crashed: the first block carries the player on roll's (7).
        assert_eq!(v[first..first + 3], [1.0, div_const(2.0, 5.0), 0.0]);
        assert_eq!(v[second..second + 3], [div_const(2.0, 5.0), 0.0, 0.0]);
    }

    #[test]
    fn race_start_like() {
        // Each side: five on the 6, 5, 4 points (no crossovers), then one
        // moved to the 12-point (one quadrant: 1 crossover) by player 1.
        let mut b = Board::empty();
        for p in 0..2 {
            b.checkers[p][3] = 5;
            b.checkers[p][4] = 5;
            b.checkers[p][5] = 5;
        }
        b.checkers[1][5] = 3;
        b.checkers[1][11] = 1;
        let mut v = [f32::NAN; RACE_INPUTS];
        race_inputs(&b, 0, &mut v);
        // Opponent (player 1) first: one off, 6-point three, 12-point one.
        let opp = &v[..HALF_RACE_INPUTS];
        assert_eq!(opp[5 * 4..5 * 4 + 4], [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(opp[3 * 4..3 * 4 + 4], [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(opp[11 * 4..11 * 4 + 4], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(opp[RI_OFF..RI_OFF + 2], [1.0, 0.0]);
        assert_eq!(opp[RI_NCROSS], div_const(1.0, 10.0));
        let me = &v[HALF_RACE_INPUTS..];
        assert!(me[RI_OFF..RI_OFF + 14].iter().all(|&x| x == 0.0));
        assert_eq!(me[RI_NCROSS], 0.0);
    }

    /// Playing the other side of the same position swaps the halves.
    #[test]
    fn symmetry() {
        // Degenerate boards do not panic.
        let mut v = [0f32; CONTACT_INPUTS];
        contact_inputs(&Board::empty(), 0, &mut v);
        crashed_inputs(&Board::empty(), 1, &mut v);
        let mut r = [0f32; RACE_INPUTS];
        race_inputs(&Board::empty(), 0, &mut r);
        assert!(r[RI_OFF + 14 - 1] == 0.0 && r[RI_OFF - 1] == 0.0);

        let mut g = Gen(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let b = g.board();
            let s = swapped(&b);
            for on_roll in 0..2 {
                // The same position, the players' numbers exchanged.
                let mut x = [0f32; CONTACT_INPUTS];
                let mut y = [0f32; CONTACT_INPUTS];
                contact_inputs(&b, on_roll, &mut x);
                contact_inputs(&s, 1 - on_roll, &mut y);
                assert_eq!(bits(&x), bits(&y));
                // The other player on roll: base halves and blocks swap.
                contact_inputs(&b, 1 - on_roll, &mut y);
                assert_eq!(bits(&x[..100]), bits(&y[100..200]));
                assert_eq!(bits(&x[100..200]), bits(&y[..100]));
                assert_eq!(bits(&x[200..225]), bits(&y[225..250]));
                assert_eq!(bits(&x[225..250]), bits(&y[200..225]));
                crashed_inputs(&b, on_roll, &mut x);
                crashed_inputs(&b, 1 - on_roll, &mut y);
                assert_eq!(bits(&x[200..225]), bits(&y[225..250]));
                assert_eq!(bits(&x[225..250]), bits(&y[200..225]));
                // The crashed and contact vectors share all but the
                // men-off units.
                let mut z = [0f32; CONTACT_INPUTS];
                contact_inputs(&b, on_roll, &mut z);
                for i in (0..CONTACT_INPUTS).filter(|i| (i + 25) % 25 >= 3 || *i < 200) {
                    assert_eq!(x[i].to_bits(), z[i].to_bits(), "input {i}");
                }
                if b.checkers.iter().all(|r| r[23] == 0 && r[24] == 0) {
                    let mut r = [0f32; RACE_INPUTS];
                    let mut r2 = [0f32; RACE_INPUTS];
                    race_inputs(&b, on_roll, &mut r);
                    race_inputs(&b, 1 - on_roll, &mut r2);
                    assert_eq!(bits(&r[..107]), bits(&r2[107..]));
                }
                for v in x.iter().chain(&y) {
                    assert!(v.is_finite());
                }
            }
        }
    }

    /// Positions to compare the implementation with [`super::reference`]
    /// on: seeded random games from the start (a random legal play of a
    /// random roll, games restarted when one side is off), and from each
    /// position of them every position a legal play of any of the 21 rolls
    /// leads to, for either player; then arbitrary positions of [`Gen`],
    /// and sparse ones (few checkers left, many on the bar) as in crashed
    /// positions and races. Each position once.
    fn corpus(seeds: usize) -> Vec<Board> {
        use crate::bg::position::moves::legal_plays;
        use crate::rng::Rng;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut add = |b: Board| {
            if seen.insert(b) {
                out.push(b);
            }
        };
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut b, mut p) = (Board::start(), 0);
        for _ in 0..seeds {
            add(b);
            for mover in 0..2 {
                for d1 in 1..=6u8 {
                    for d2 in 1..=d1 {
                        for play in legal_plays(&b, mover, (d1, d2)) {
                            add(play.after);
                        }
                    }
                }
            }
            let dice = (rng.below(6) as u8 + 1, rng.below(6) as u8 + 1);
            let plays = legal_plays(&b, p, dice);
            if !plays.is_empty() {
                b = plays[rng.below(plays.len())].after;
            }
            if b.on_board(p) == 0 {
                (b, p) = (Board::start(), 0);
            } else {
                p = 1 - p;
            }
        }
        let mut g = Gen(0x0123_4567_89ab_cdef);
        for _ in 0..seeds * 4 {
            add(g.board());
        }
        for _ in 0..seeds * 4 {
            // Up to six checkers a side, a third of them on the bar, the
            // rest mostly at home.
            let mut b = Board::empty();
            for p in 0..2 {
                for _ in 0..=g.below(6) {
                    loop {
                        let i = match g.below(6) {
                            0 => 24,
                            1 => g.below(24),
                            _ => g.below(6),
                        };
                        if i == 24 || b.opponent_at(p, i) == 0 {
                            b.checkers[p][i] += 1;
                            break;
                        }
                    }
                }
            }
            add(b);
        }
        out
    }

    /// Every input of the contact, crashed and race vectors equals the
    /// reference implementation's to the bit, both players on roll, over
    /// positions of every class ([`corpus`]).
    #[test]
    fn same_as_reference() {
        use crate::bg::eval::gnubg::{classify, GnubgClass};
        // Fewer in unoptimised builds (`cargo test`): about 2.7 million
        // positions in release, 0.3 million otherwise.
        let boards = corpus(if cfg!(debug_assertions) { 400 } else { 3000 });
        let mut classes = [0usize; 6];
        let (mut x, mut y) = ([0f32; CONTACT_INPUTS], [0f32; CONTACT_INPUTS]);
        let (mut rx, mut ry) = ([0f32; RACE_INPUTS], [0f32; RACE_INPUTS]);
        let mut races = 0;
        for b in &boards {
            for on_roll in 0..2 {
                classes[classify(b, on_roll) as usize] += 1;
                contact_inputs(b, on_roll, &mut x);
                reference::contact_inputs(b, on_roll, &mut y);
                assert_eq!(bits(&x), bits(&y), "contact, {on_roll} on roll: {b:?}");
                crashed_inputs(b, on_roll, &mut x);
                reference::crashed_inputs(b, on_roll, &mut y);
                assert_eq!(bits(&x), bits(&y), "crashed, {on_roll} on roll: {b:?}");
                if b.checkers.iter().all(|r| r[23] == 0 && r[24] == 0) {
                    races += 1;
                    race_inputs(b, on_roll, &mut rx);
                    reference::race_inputs(b, on_roll, &mut ry);
                    assert_eq!(bits(&rx), bits(&ry), "race, {on_roll} on roll: {b:?}");
                }
            }
        }
        eprintln!(
            "{} positions; by class (over, bearoff2, bearoff1, race, crashed, \
             contact) x 2 on roll: {classes:?}; race inputs {races}",
            boards.len()
        );
        for c in [GnubgClass::Race, GnubgClass::Crashed, GnubgClass::Contact] {
            assert!(classes[c as usize] >= 1000, "{c:?}: {classes:?}");
        }
    }

    /// `cargo test --release --lib nn_inputs::tests::timing_against_reference
    /// -- --ignored --nocapture` prints the cost of one call, new and
    /// reference, on the positions of [`corpus`] (race inputs on its race
    /// positions): the best of seven rounds, each timing every function
    /// once in turn, so that both see the same load of the machine.
    #[test]
    #[ignore]
    fn timing_against_reference() {
        let boards = corpus(1000);
        // The plays of every roll from the positions of the fixtures'
        // games, the kind of position `recount --plays` evaluates.
        let ids = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/expected/bg-ids.csv"
        ))
        .unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut plays = Vec::new();
        for id in ids.lines().skip(1).filter_map(|l| l.split(',').nth(6)) {
            let Ok(b) = board_from_position_id(id, 0) else {
                continue;
            };
            for d1 in 1..=6u8 {
                for d2 in 1..=d1 {
                    for play in crate::bg::position::moves::legal_plays(&b, 0, (d1, d2)) {
                        let after = play.after;
                        if after.on_board(0) > 0 && seen.insert(after) {
                            plays.push(after);
                        }
                    }
                }
            }
        }
        let races: Vec<Board> = boards
            .iter()
            .filter(|b| b.checkers.iter().all(|r| r[23] == 0 && r[24] == 0))
            .copied()
            .collect();
        fn time<const N: usize>(
            boards: &[Board],
            f: fn(&Board, usize, &mut [f32; N]),
            best: &mut f64,
        ) -> u32 {
            let mut v = [0f32; N];
            let mut sum = 0u32;
            let t0 = std::time::Instant::now();
            for b in boards {
                f(std::hint::black_box(b), 0, &mut v);
                sum = sum.wrapping_add(v[N - 1].to_bits() ^ v[N / 2].to_bits());
            }
            *best = best.min(t0.elapsed().as_nanos() as f64 / boards.len() as f64);
            sum
        }
        let mut best = [f64::INFINITY; 8];
        for _ in 0..7 {
            let real = [
                time(&plays, contact_inputs, &mut best[6]),
                time(&plays, reference::contact_inputs, &mut best[7]),
            ];
            assert_eq!(real[0], real[1]);
            let sums = [
                time(&boards, contact_inputs, &mut best[0]),
                time(&boards, reference::contact_inputs, &mut best[1]),
                time(&boards, crashed_inputs, &mut best[2]),
                time(&boards, reference::crashed_inputs, &mut best[3]),
                time(&races, race_inputs, &mut best[4]),
                time(&races, reference::race_inputs, &mut best[5]),
            ];
            assert_eq!([sums[0], sums[2], sums[4]], [sums[1], sums[3], sums[5]]);
        }
        let [new, old, cnew, cold, rnew, rold, pnew, pold] = best;
        eprintln!(
            "{} positions: contact_inputs {new:.0} ns (reference {old:.0} ns, x{:.2}); \
             crashed_inputs {cnew:.0} ns (reference {cold:.0} ns, x{:.2}); {} races: \
             race_inputs {rnew:.1} ns (reference {rold:.1} ns, x{:.2})",
            boards.len(),
            old / new,
            cold / cnew,
            races.len(),
            rold / rnew
        );
        eprintln!(
            "{} plays from the fixtures' game positions: contact_inputs {pnew:.0} ns \
             (reference {pold:.0} ns, x{:.2})",
            plays.len(),
            pold / pnew
        );
    }

    /// `cargo test --release --lib bg::nn_inputs::tests::timing --
    /// --ignored --nocapture` prints the cost of one call.
    #[test]
    #[ignore]
    fn timing() {
        let mut g = Gen(12345);
        let boards: Vec<Board> = (0..10_000).map(|_| g.board()).collect();
        let mut v = [0f32; CONTACT_INPUTS];
        let mut sum = 0f32;
        contact_inputs(&boards[0], 0, &mut v);
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            for b in &boards {
                contact_inputs(b, 0, &mut v);
                sum += v[210];
            }
        }
        let dt = t0.elapsed().as_nanos() as f64 / 200_000.0;
        let mut r = [0f32; RACE_INPUTS];
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            for b in &boards {
                race_inputs(b, 0, &mut r);
                sum += r[106];
            }
        }
        let dr = t0.elapsed().as_nanos() as f64 / 200_000.0;
        // Positions of real games (the fixtures' position IDs).
        let ids = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/expected/bg-ids.csv"
        ))
        .unwrap_or_default();
        let real: Vec<Board> = ids
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').nth(6))
            .filter_map(|id| board_from_position_id(id, 0).ok())
            .filter(|b| b.on_board(0) > 0 && b.on_board(1) > 0)
            .collect();
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            for b in &real {
                contact_inputs(b, 0, &mut v);
                sum += v[210];
            }
        }
        let dg = t0.elapsed().as_nanos() as f64 / (20 * real.len().max(1)) as f64;
        let start = Board::start();
        let t0 = std::time::Instant::now();
        for _ in 0..200_000 {
            contact_inputs(std::hint::black_box(&start), 0, &mut v);
            sum += v[210];
        }
        let ds = t0.elapsed().as_nanos() as f64 / 200_000.0;
        eprintln!(
            "contact_inputs {dt:.0} ns (random boards), {dg:.0} ns ({} game \
             positions), {ds:.0} ns (start); race_inputs {dr:.0} ns per call ({sum})",
            real.len()
        );
    }
}

/// The implementation as it stood before the rewrite for speed (commit
/// 8905eb6), kept verbatim but for visibility, as the reference the
/// rewrite is compared with bit for bit (`tests::same_as_reference`) and
/// timed against (`tests::timing_against_reference`). It shares only the
/// definitional tables (`Tables`, checked on their own by the tests
/// `sizes` and `escape_tables`) and the input layout constants.
#[cfg(test)]
#[allow(dead_code)]
mod reference {
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
}
