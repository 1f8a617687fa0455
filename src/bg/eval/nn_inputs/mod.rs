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
//! # Files
//!
//! This file: the layout, gnubg's tables, the base, race, contact and
//! crashed inputs. `side.rs`: a side's row read into masks and sums.
//! `shots.rs`: the shots at blots and the pip loss. `half.rs`: the half
//! inputs. `reference.rs`: gnubg's loops as first transcribed, for the
//! tests (`tests.rs`).
//!
//! # Checked
//!
//! Bit for bit against the vectors gnubg 1.1.0a16 (PyPI) hands to
//! `NeuralNetEvaluate`, captured with an interposed `NeuralNetEvaluate` on
//! about 150,000 positions (every position ID of `fixtures/expected` plus
//! random positions with blots, bar checkers, checkers off, crashed boards
//! and races), both players on roll: no difference. The tests keep the
//! outputs these inputs give equal to gnubg's on the fixtures' positions
//! (`tests/tests/nn.rs`, `fixtures/expected/bg-nn-cases.csv`).

use std::sync::OnceLock;

use crate::bg::position::board::{msb, occupied, points_with, Board};

mod half;
#[macro_use]
mod shots;
#[cfg(test)]
#[allow(dead_code)]
mod reference;
mod side;
#[cfg(test)]
mod tests;

use half::*;
use shots::*;
use side::*;

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
        let mut occupied = occupied(row);
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
