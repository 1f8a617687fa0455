//! GNU Backgammon's net arithmetic ([`crate::bg::eval::nn`]) on AVX-512
//! registers, sixteen hidden units to an instruction: the same
//! operations on every value in the same order, each rounded once (no
//! fused multiply-add), so the same bits as the scalar code, in about
//! half the time.
//!
//! * Inputs: sixteen compared at once, the ones that count (not zero, or
//!   not the base's) packed into a list by one compress instruction.
//! * Hidden sums: every listed row times its value added to the sums in
//!   list order (`w × 1` is `w`, so gnubg's skipped multiplication by one
//!   changes nothing).
//! * Sigmoid: gnubg's table of `exp(k / 10) / 10` looked up by permutes.
//! * Outputs: gnubg's four partial sums over every fourth hidden unit,
//!   for four outputs at once (sixteen lanes), the weights interleaved
//!   once when the net is read ([`interleave_outputs`]).
//!
//! Used only where the CPU has AVX-512F and the net has a multiple of 16
//! hidden units and 5 outputs (gnubg's main nets and its 16-unit pruning
//! nets); elsewhere the scalar code runs, compiled for AVX2.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use crate::bg::eval::four_lists::add_four_lists;

/// Room for a list of `N` inputs as `(index, value)`, left uninitialised:
/// [`differences`] and [`nonzero`] write the entries they list and hand
/// back those alone (zeroing the room for every evaluation cost more
/// than a tenth of an incremental one).
pub struct List<const N: usize> {
    index: [MaybeUninit<u32>; N],
    value: [MaybeUninit<f32>; N],
}

impl<const N: usize> Default for List<N> {
    fn default() -> List<N> {
        List {
            index: [MaybeUninit::uninit(); N],
            value: [MaybeUninit::uninit(); N],
        }
    }
}

impl<const N: usize> List<N> {
    /// Lists `units` (at most `N`) as they are.
    pub fn of_units(&mut self, units: &[(u32, f32)]) -> (&[u32], &[f32]) {
        let units = &units[..units.len().min(N)];
        for (k, &(i, x)) in units.iter().enumerate() {
            self.index[k] = MaybeUninit::new(i);
            self.value[k] = MaybeUninit::new(x);
        }
        // SAFETY: the first `units.len()` entries were just written.
        unsafe { self.written(units.len()) }
    }

    /// The first `k` entries, written.
    ///
    /// # Safety
    /// Entries `0..k` were written, `k <= N`.
    unsafe fn written(&self, k: usize) -> (&[u32], &[f32]) {
        (
            std::slice::from_raw_parts(self.index.as_ptr().cast(), k),
            std::slice::from_raw_parts(self.value.as_ptr().cast(), k),
        )
    }
}

/// Whether the kernels can run: the CPU has AVX-512F. (The detection is
/// cached by the standard library.)
#[inline(always)]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// Whether a net of `hidden` units and `outputs` outputs fits the output
/// kernels: [`outputs_x4`] takes a multiple of 4 units up to 16,
/// [`outputs`] and the hidden sums' kernels a multiple of 16.
pub fn fits(hidden: usize, outputs: usize) -> bool {
    hidden.is_multiple_of(4) && hidden <= 256 && outputs == 5
}

/// The output weights (`5 × hidden`, output-major) rearranged for
/// [`outputs`]: for each group of four hidden units, outputs 0–3's four
/// weights (sixteen values), then output 4's weights in order after all
/// groups.
pub fn interleave_outputs(weights: &[f32], hidden: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(weights.len());
    for m in 0..hidden / 4 {
        for o in 0..4 {
            out.extend_from_slice(&weights[o * hidden + 4 * m..o * hidden + 4 * m + 4]);
        }
    }
    out.extend_from_slice(&weights[4 * hidden..5 * hidden]);
    out
}

/// Lists in `list` the inputs that differ from `base` by their bits, each
/// as `(i, input[i] - base[i])`, in index order. (A differing zero adds
/// ±0, which changes no sum; as the scalar code, every differing lane is
/// listed.)
///
/// # Safety
/// The CPU has AVX-512F; `input` and `base` have the same length, at
/// most `N - 15` (each block's store writes sixteen entries).
#[target_feature(enable = "avx512f")]
pub unsafe fn differences<'a, const N: usize>(
    input: &[f32],
    base: &[f32],
    list: &'a mut List<N>,
) -> (&'a [u32], &'a [f32]) {
    debug_assert!(base.len() == input.len());
    list_lanes(input.len(), list, |at, live| {
        let x = _mm512_maskz_loadu_ps(live, input.as_ptr().add(at));
        let y = _mm512_maskz_loadu_ps(live, base.as_ptr().add(at));
        let differ =
            _mm512_mask_cmpneq_epi32_mask(live, _mm512_castps_si512(x), _mm512_castps_si512(y));
        (differ, _mm512_sub_ps(x, y))
    })
}

/// Lists in `list` the inputs that are not zero (`x != 0.0`: a NaN is
/// listed, −0 is not), in index order.
///
/// # Safety
/// The CPU has AVX-512F; `input.len()` is at most `N - 15` (each block's
/// store writes sixteen entries).
#[target_feature(enable = "avx512f")]
pub unsafe fn nonzero<'a, const N: usize>(
    input: &[f32],
    list: &'a mut List<N>,
) -> (&'a [u32], &'a [f32]) {
    list_lanes(input.len(), list, |at, live| {
        let x = _mm512_maskz_loadu_ps(live, input.as_ptr().add(at));
        let set = _mm512_mask_cmp_ps_mask::<_CMP_NEQ_UQ>(live, x, _mm512_setzero_ps());
        (set, x)
    })
}

/// Lists in `list`, in index order, the lanes of `n` inputs that `pick`
/// keeps: `pick(at, live)` gives, for the block of sixteen from `at`
/// (`live` its lanes below `n`), the lanes kept and their values.
///
/// # Safety
/// The CPU has AVX-512F; `n + 15 <= N`.
#[inline(always)]
unsafe fn list_lanes<const N: usize>(
    n: usize,
    list: &mut List<N>,
    mut pick: impl FnMut(usize, __mmask16) -> (__mmask16, __m512),
) -> (&[u32], &[f32]) {
    debug_assert!(n + 15 <= N);
    let (index, value) = (list.index.as_mut_ptr(), list.value.as_mut_ptr());
    let mut k = 0;
    let mut at = 0;
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    while at < n {
        let (keep, x) = pick(at, live_lanes(n - at));
        if keep != 0 {
            let i = _mm512_add_epi32(lanes, _mm512_set1_epi32(at as i32));
            store_packed(index.add(k), value.add(k), keep, i, x);
            k += keep.count_ones() as usize;
        }
        at += 16;
    }
    list.written(k)
}

/// Packs the lanes of `i` and `x` that `keep` selects to the front of two
/// registers and stores all sixteen lanes of each at `index` and `value`
/// (the lanes after the packed ones are written too, and overwritten by
/// the next store or never read). Packing in a register and storing it
/// whole is much faster than the compress instruction's masked store to
/// memory on some processors (AMD Zen 4 runs that one in microcode).
///
/// # Safety
/// The CPU has AVX-512F; `index` and `value` have room for 16 entries.
#[inline(always)]
unsafe fn store_packed(
    index: *mut MaybeUninit<u32>,
    value: *mut MaybeUninit<f32>,
    keep: __mmask16,
    i: __m512i,
    x: __m512,
) {
    _mm512_storeu_si512(index.cast(), _mm512_maskz_compress_epi32(keep, i));
    _mm512_storeu_ps(value.cast(), _mm512_maskz_compress_ps(keep, x));
}

/// The mask of the first `left` of 16 lanes (all of them from 16 on).
fn live_lanes(left: usize) -> __mmask16 {
    if left >= 16 {
        0xffff
    } else {
        (1u16 << left) - 1
    }
}

/// `sums = start + Σ value[r] × row index[r]` of `weights` (`inputs ×
/// hidden`, input-major), each sum's additions in list order.
///
/// # Safety
/// The CPU has AVX-512F; `hidden % 16 == 0`; `start` and `sums` hold
/// `hidden` values; every index names a row of `weights`.
#[target_feature(enable = "avx512f")]
pub unsafe fn hidden_sums(
    weights: &[f32],
    hidden: usize,
    start: &[f32],
    index: &[u32],
    value: &[f32],
    sums: &mut [f32],
) {
    debug_assert!(hidden.is_multiple_of(16) && start.len() >= hidden && sums.len() >= hidden);
    debug_assert!(index
        .iter()
        .all(|&i| (i as usize + 1) * hidden <= weights.len()));
    let mut at = 0;
    // Eight registers (128 units) at a time, the sums held in registers
    // across all rows.
    while hidden - at >= 128 {
        sums_block::<8>(weights, hidden, at, start, index, value, sums);
        at += 128;
    }
    while at < hidden {
        sums_block::<1>(weights, hidden, at, start, index, value, sums);
        at += 16;
    }
}

/// The sixteen hidden sums of four positions, `start + Σ x × row i`
/// over each position's `(i, x)` in order: [`hidden_sums`] of a 16-unit
/// net four times, the four chains of additions interleaved.
///
/// # Safety
/// The CPU has AVX-512F; `start` holds 16 values; every index names a
/// row of `weights` (`inputs × 16`).
#[target_feature(enable = "avx512f")]
pub unsafe fn sums16_x4(
    weights: &[f32],
    start: &[f32],
    lists: [&[(u32, f32)]; 4],
) -> [[f32; 16]; 4] {
    debug_assert!(start.len() >= 16);
    debug_assert!(lists.iter().all(|l| l
        .iter()
        .all(|&(i, _)| (i as usize + 1) * 16 <= weights.len())));
    let w = weights.as_ptr();
    let mut a = [_mm512_loadu_ps(start.as_ptr()); 4];
    add_four_lists(&mut a, lists, |a, (i, x)| {
        *a = _mm512_add_ps(
            *a,
            _mm512_mul_ps(_mm512_loadu_ps(w.add(i as usize * 16)), _mm512_set1_ps(x)),
        )
    });
    let mut sums = [[0.0f32; 16]; 4];
    for (a, s) in a.iter().zip(&mut sums) {
        _mm512_storeu_ps(s.as_mut_ptr(), *a);
    }
    sums
}

/// [`hidden_sums`] for units `at .. at + 16 V`.
#[inline(always)]
unsafe fn sums_block<const V: usize>(
    weights: &[f32],
    hidden: usize,
    at: usize,
    start: &[f32],
    index: &[u32],
    value: &[f32],
    sums: &mut [f32],
) {
    let mut a = [_mm512_setzero_ps(); V];
    for (v, a) in a.iter_mut().enumerate() {
        *a = _mm512_loadu_ps(start.as_ptr().add(at + 16 * v));
    }
    let w = weights.as_ptr();
    for (&i, &x) in index.iter().zip(value) {
        let row = w.add(i as usize * hidden + at);
        let x = _mm512_set1_ps(x);
        for (v, a) in a.iter_mut().enumerate() {
            *a = _mm512_add_ps(*a, _mm512_mul_ps(_mm512_loadu_ps(row.add(16 * v)), x));
        }
    }
    for (v, a) in a.iter().enumerate() {
        _mm512_storeu_ps(sums.as_mut_ptr().add(at + 16 * v), *a);
    }
}

/// The sigmoids of `-(beta × s)` of sixteen sums, as
/// [`crate::bg::eval::sigmoid::sigmoid`] computes each.
#[inline(always)]
unsafe fn sigmoid16(table: &[__m512; 8], beta: __m512, s: __m512) -> __m512 {
    use crate::bg::eval::sigmoid::{SIGMOID_FAR_NEGATIVE, SIGMOID_FAR_POSITIVE};
    let sign = _mm512_set1_epi32(i32::MIN);
    // x = -(beta × s): the product, its sign flipped.
    let x = _mm512_xor_si512(_mm512_castps_si512(_mm512_mul_ps(beta, s)), sign);
    let negative = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
    let ax = _mm512_castsi512_ps(_mm512_andnot_si512(sign, x));
    let x1 = _mm512_mul_ps(_mm512_set1_ps(10.0), ax);
    // Out of range (|x| ≥ 10, NaN) the index is any valid one: the
    // constant is chosen below.
    let i = _mm512_min_epi32(
        _mm512_max_epi32(_mm512_cvttps_epi32(x1), _mm512_setzero_si512()),
        _mm512_set1_epi32(99),
    );
    // Entries 32q .. 32q + 31 of the table are registers 2q and 2q + 1.
    let quarter = _mm512_srli_epi32::<5>(i);
    let mut e = _mm512_permutex2var_ps(table[0], i, table[1]);
    for q in 1..4 {
        let part = _mm512_permutex2var_ps(table[2 * q], i, table[2 * q + 1]);
        let here = _mm512_cmpeq_epi32_mask(quarter, _mm512_set1_epi32(q as i32));
        e = _mm512_mask_blend_ps(here, e, part);
    }
    let t = _mm512_add_ps(
        _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_set1_epi32(10), i)),
        x1,
    );
    let one = _mm512_set1_ps(1.0);
    let r = _mm512_div_ps(one, _mm512_add_ps(one, _mm512_mul_ps(e, t)));
    let near = _mm512_mask_blend_ps(negative, r, _mm512_sub_ps(one, r));
    let far = _mm512_mask_blend_ps(
        negative,
        _mm512_set1_ps(SIGMOID_FAR_POSITIVE),
        _mm512_set1_ps(SIGMOID_FAR_NEGATIVE),
    );
    let inside = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(ax, _mm512_set1_ps(10.0));
    _mm512_mask_blend_ps(inside, far, near)
}

/// The net's five outputs from its hidden sums: the hidden sigmoids,
/// then per output gnubg's four partial sums (unit `4m + k` into sum
/// `k`, `m` rising), `threshold + ((p0 + p2) + (p1 + p3))` and the output
/// sigmoid.
///
/// # Safety
/// The CPU has AVX-512F; `hidden % 16 == 0`, `hidden ≤ 256`; `sums`
/// holds `hidden` values, `interleaved` is [`interleave_outputs`] of the
/// net's output weights, `threshold` its five output thresholds.
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn outputs(
    table: &[f32; 100],
    hidden: usize,
    beta_hidden: f32,
    beta_output: f32,
    sums: &[f32],
    interleaved: &[f32],
    threshold: &[f32],
    out: &mut [f32],
) {
    debug_assert!(hidden.is_multiple_of(16) && hidden <= 256 && sums.len() >= hidden);
    debug_assert!(interleaved.len() == 5 * hidden && threshold.len() == 5 && out.len() >= 5);
    let regs = table_registers(table);
    // Written for every hidden unit before it is read.
    let mut act = MaybeUninit::<[f32; 256]>::uninit();
    let act = act.as_mut_ptr().cast::<f32>();
    activations(&regs, beta_hidden, sums, hidden, act);
    let r = output_sums(hidden, act, interleaved, threshold);
    let y = sigmoid16(&regs, _mm512_set1_ps(beta_output), r);
    _mm512_mask_storeu_ps(out.as_mut_ptr(), live_lanes(5), y);
}

/// [`outputs`] of four positions of a small net (at most 16 units, as
/// the pruning nets): the same bits, with the table read once, the hidden
/// sigmoids of an 8-unit net two positions to a register (the four
/// positions' units are a multiple of 16), and the twenty output
/// sigmoids in two registers, not four.
///
/// # Safety
/// The CPU has AVX-512F; `hidden % 4 == 0`, `hidden ≤ 16`; each of `sums`
/// holds `hidden` values; `interleaved` and `threshold` as for
/// [`outputs`].
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn outputs_x4(
    table: &[f32; 100],
    hidden: usize,
    beta_hidden: f32,
    beta_output: f32,
    sums: [&[f32]; 4],
    interleaved: &[f32],
    threshold: &[f32],
    out: &mut [[f32; 5]; 4],
) {
    debug_assert!(fits(hidden, 5) && hidden <= 16 && sums.iter().all(|s| s.len() >= hidden));
    debug_assert!(interleaved.len() == 5 * hidden && threshold.len() == 5);
    let regs = table_registers(table);
    // The four positions' sums one after another: a sigmoid is of each
    // lane alone, so the blocks of sixteen may straddle positions.
    let mut all = [0.0f32; 64];
    for (k, s) in sums.iter().enumerate() {
        all[k * hidden..(k + 1) * hidden].copy_from_slice(&s[..hidden]);
    }
    let mut act = [0.0f32; 64];
    activations(&regs, beta_hidden, &all, 4 * hidden, act.as_mut_ptr());
    let r: [__m512; 4] = std::array::from_fn(|k| {
        output_sums(hidden, act.as_ptr().add(k * hidden), interleaved, threshold)
    });
    // Positions 0 to 2 in lanes 0..14 (five each), position 3 alone.
    let first_two = _mm512_permutex2var_ps(
        r[0],
        _mm512_setr_epi32(0, 1, 2, 3, 4, 16, 17, 18, 19, 20, 0, 0, 0, 0, 0, 0),
        r[1],
    );
    let three = _mm512_permutex2var_ps(
        first_two,
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18, 19, 20, 0),
        r[2],
    );
    let beta = _mm512_set1_ps(beta_output);
    let mut y = [0.0f32; 32];
    _mm512_storeu_ps(y.as_mut_ptr(), sigmoid16(&regs, beta, three));
    _mm512_storeu_ps(y.as_mut_ptr().add(16), sigmoid16(&regs, beta, r[3]));
    for (k, out) in out.iter_mut().enumerate() {
        let at = if k < 3 { 5 * k } else { 16 };
        out.copy_from_slice(&y[at..at + 5]);
    }
}

/// The sigmoid's table of 100 entries in eight registers, the last 28
/// lanes zero.
#[inline(always)]
unsafe fn table_registers(table: &[f32; 100]) -> [__m512; 8] {
    std::array::from_fn(|r| {
        _mm512_maskz_loadu_ps(
            live_lanes(100usize.saturating_sub(16 * r)),
            table.as_ptr().add((16 * r).min(96)),
        )
    })
}

/// `act[i]` = the hidden sigmoid of `sums[i]` for `i < n` (`n % 16 == 0`).
#[inline(always)]
unsafe fn activations(regs: &[__m512; 8], beta_hidden: f32, sums: &[f32], n: usize, act: *mut f32) {
    let beta = _mm512_set1_ps(beta_hidden);
    for at in (0..n).step_by(16) {
        let s = _mm512_loadu_ps(sums.as_ptr().add(at));
        _mm512_storeu_ps(act.add(at), sigmoid16(regs, beta, s));
    }
}

/// The five output sums of one position before their sigmoid, in lanes
/// 0..4: per output gnubg's four partial sums, pairwise, plus the
/// threshold.
#[inline(always)]
unsafe fn output_sums(
    hidden: usize,
    act: *const f32,
    interleaved: &[f32],
    threshold: &[f32],
) -> __m512 {
    // Lanes 4o + k: output o's partial sum k (o < 4); output 4's four in
    // a register of their own.
    let mut p = _mm512_setzero_ps();
    let mut q = _mm_setzero_ps();
    let w = interleaved.as_ptr();
    let w4 = w.add(4 * hidden);
    for m in 0..hidden / 4 {
        let a = _mm_loadu_ps(act.add(4 * m));
        p = _mm512_add_ps(
            p,
            _mm512_mul_ps(_mm512_broadcast_f32x4(a), _mm512_loadu_ps(w.add(16 * m))),
        );
        q = _mm_add_ps(q, _mm_mul_ps(a, _mm_loadu_ps(w4.add(4 * m))));
    }
    // Per output o (lane o): its four partial sums side by side in four
    // registers, then gnubg's pairwise sums, five lanes at once.
    let q = _mm512_castps128_ps512(q);
    let part = |k: i32| {
        let at = _mm512_setr_epi32(
            k,
            4 + k,
            8 + k,
            12 + k,
            16 + k,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        );
        _mm512_permutex2var_ps(p, at, q)
    };
    let t = _mm512_maskz_loadu_ps(live_lanes(5), threshold.as_ptr());
    _mm512_add_ps(
        t,
        _mm512_add_ps(
            _mm512_add_ps(part(0), part(2)),
            _mm512_add_ps(part(1), part(3)),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::eval::sigmoid::{sigmoid, TABLE};

    #[test]
    fn the_vector_sigmoid_is_the_scalar_one() {
        if !available() {
            eprintln!("no AVX-512F on this CPU: the kernels are not used here");
            return;
        }
        let mut padded = [0.0f32; 128];
        padded[..100].copy_from_slice(&*TABLE);
        // Every tenth's edges, both signs, the far constants' edges and
        // the odd values; then a sweep of bit patterns.
        let mut xs: Vec<f32> = (-1100..=1100).map(|k| k as f32 / 100.0).collect();
        for x in [0.0, -0.0, 10.0, -10.0, 9.999_999, -9.999_999, 1e30, -1e30] {
            xs.push(x);
        }
        xs.extend([
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ]);
        xs.extend((0..200_000u32).map(|k| f32::from_bits(k.wrapping_mul(2_654_435_761))));
        while !xs.len().is_multiple_of(16) {
            xs.push(0.5);
        }
        for chunk in xs.chunks(16) {
            let mut got = [0.0f32; 16];
            // SAFETY: AVX-512F checked above.
            unsafe {
                let regs: [__m512; 8] =
                    std::array::from_fn(|r| _mm512_loadu_ps(padded.as_ptr().add(16 * r)));
                // beta 1 and the sum negated: the sigmoid of x itself.
                let s = _mm512_loadu_ps(chunk.as_ptr());
                let neg = _mm512_castsi512_ps(_mm512_xor_si512(
                    _mm512_castps_si512(s),
                    _mm512_set1_epi32(i32::MIN),
                ));
                _mm512_storeu_ps(got.as_mut_ptr(), sigmoid16(&regs, _mm512_set1_ps(1.0), neg));
            }
            for (&x, &g) in chunk.iter().zip(&got) {
                assert_eq!(g.to_bits(), sigmoid(x).to_bits(), "sigmoid({x:e})");
            }
        }
    }

    #[test]
    fn interleaving_keeps_every_weight() {
        let h = 32;
        let w: Vec<f32> = (0..5 * h).map(|k| k as f32).collect();
        let v = interleave_outputs(&w, h);
        assert_eq!(v.len(), w.len());
        // Group 1, output 2, unit 3 of the group: unit 7 of output 2.
        assert_eq!(v[16 + 2 * 4 + 3], w[2 * h + 7]);
        assert_eq!(&v[4 * h..], &w[4 * h..]);
    }
}
