//! GNU Backgammon's neural nets, read from its weights files and evaluated
//! as it evaluates them: one hidden layer, its table-based sigmoid, inputs
//! summed in the same order, so the outputs agree with its 0-ply
//! evaluation.
//!
//! The nets of gnubg 1.1.0a16 (its PyPI wheel) are built in: its binary
//! `gnubg.wd`, copied to `data/gnubg/` (provenance in its README) and read
//! once, on first use ([`Weights::embedded`]). `--weights FILE` or
//! `$RECOUNT_GNUBG_WEIGHTS` name another file, in either of gnubg's two
//! formats, told apart by their first bytes:
//!
//! * text (`gnubg.weights`): a version line (`GNU Backgammon 1.01`), then
//!   per net a header `inputs hidden outputs trained beta_hidden
//!   beta_output` and the weights: hidden weights input by input, output
//!   weights output by output, hidden thresholds, output thresholds
//!   (gnubg's `lib/neuralnet.c`, `NeuralNetLoad`).
//! * binary (`gnubg.wd`; gnubg's `eval.c` checks the two leading floats,
//!   `lib/neuralnet.c` `NeuralNetLoadBinary` reads each net): the `f32`
//!   magic 472.3782 and the `f32` version 1.01, then per net four `i32`
//!   (inputs, hidden, outputs, trained), two `f32` (beta_hidden,
//!   beta_output) and the same four arrays of `f32`, all little-endian.
//!
//! Both hold six nets in the order contact, race, crashed, then the three
//! pruning nets, which pick the best replies inside a plied evaluation.

use crate::bg::eval::four_lists::add_four_lists;
#[cfg(target_arch = "x86_64")]
use crate::bg::eval::nn_avx512;
use crate::bg::eval::nn_inputs::{CONTACT_INPUTS, RACE_INPUTS};
use crate::bg::eval::sigmoid::{sigmoid_in, TABLE};
use std::path::Path;

/// One net: inputs → hidden (sigmoid) → outputs (sigmoid).
#[derive(Debug, Clone)]
pub struct Net {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    beta_hidden: f32,
    beta_output: f32,
    /// `inputs × hidden`, input-major.
    hidden_weights: Aligned,
    /// `outputs × hidden`, output-major.
    output_weights: Vec<f32>,
    hidden_threshold: Aligned,
    output_threshold: Vec<f32>,
    /// The output weights as the AVX-512 kernels read them
    /// ([`crate::bg::eval::nn_avx512::interleave_outputs`]); empty where
    /// they do not run.
    output_interleaved: Aligned,
}

/// `f32` values starting on a 64-byte boundary: a row of 16 or 128
/// hidden weights then fills whole cache lines, and an AVX-512 load of
/// sixteen never straddles two (from a plain `Vec`, every such load of
/// the hidden weights did, which cost the nets about a tenth of their
/// time).
#[derive(Debug, Clone, Default)]
struct Aligned {
    lines: Vec<Line>,
    len: usize,
}

/// Sixteen `f32`, one cache line.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([f32; 16]);

impl From<Vec<f32>> for Aligned {
    fn from(v: Vec<f32>) -> Aligned {
        let lines = v
            .chunks(16)
            .map(|c| {
                let mut line = Line::default();
                line.0[..c.len()].copy_from_slice(c);
                line
            })
            .collect();
        Aligned {
            lines,
            len: v.len(),
        }
    }
}

impl std::ops::Deref for Aligned {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        // SAFETY: `Line` is 16 `f32` and nothing else (`repr(C)`, its size
        // a multiple of its alignment), so the lines are `16 × lines.len()`
        // initialised `f32` in a row, and `len` is at most that.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast(), self.len) }
    }
}

impl Net {
    /// The hidden units' sums of `input`, thresholds included.
    #[inline(always)]
    pub fn hidden_sums(&self, input: &[f32], acc: &mut [f32]) {
        let h = self.hidden;
        acc[..h].copy_from_slice(&self.hidden_threshold);
        self.add_inputs(input, &mut acc[..h]);
    }

    /// Adds `input`'s weighted contributions to the hidden sums `acc`,
    /// skipping zeros, as gnubg.
    #[inline(always)]
    pub fn add_inputs(&self, input: &[f32], acc: &mut [f32]) {
        let mut rows = [(0u32, 0.0f32); MAX_INPUTS];
        let mut k = 0;
        for (i, &x) in input.iter().enumerate().take(self.inputs) {
            if x != 0.0 {
                rows[k] = (i as u32, x);
                k += 1;
            }
        }
        self.add_rows(&rows[..k], acc);
    }

    /// Adds `x` times row `i` of the hidden weights to `acc` for each
    /// `(i, x)` in order (a 1 without a multiplication, as gnubg), a block
    /// of hidden units at a time so the block's sums stay in registers.
    /// Each sum gets the same additions in the same order as row by row.
    #[inline(always)]
    fn add_rows(&self, rows: &[(u32, f32)], acc: &mut [f32]) {
        const BLOCK: usize = 64;
        let h = self.hidden;
        let mut start = 0;
        while start < h {
            let len = BLOCK.min(h - start);
            let mut a = [0.0f32; BLOCK];
            a[..len].copy_from_slice(&acc[start..start + len]);
            for &(i, x) in rows {
                let at = i as usize * h + start;
                let w = &self.hidden_weights[at..at + len];
                if len == BLOCK {
                    let w: &[f32; BLOCK] = w.try_into().expect("a block of weights");
                    if x == 1.0 {
                        for (s, &w) in a.iter_mut().zip(w) {
                            *s += w;
                        }
                    } else {
                        for (s, &w) in a.iter_mut().zip(w) {
                            *s += w * x;
                        }
                    }
                } else if x == 1.0 {
                    for (s, &w) in a.iter_mut().zip(w) {
                        *s += w;
                    }
                } else {
                    for (s, &w) in a.iter_mut().zip(w) {
                        *s += w * x;
                    }
                }
            }
            acc[start..start + len].copy_from_slice(&a[..len]);
            start += len;
        }
    }

    /// The outputs from hidden sums. The output sums are made as GNU
    /// Backgammon's vectorised build makes them: four partial sums over
    /// every fourth hidden unit, added pairwise, then the threshold.
    #[inline(always)]
    pub fn outputs_from_sums(&self, sums: &[f32], out: &mut [f32]) {
        let h = self.hidden;
        let mut acc = [0.0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        let e = &*TABLE;
        for (a, &s) in acc.iter_mut().zip(sums) {
            *a = sigmoid_in(e, -(self.beta_hidden * s));
        }
        for (o, slot) in out.iter_mut().enumerate().take(self.outputs) {
            let w = &self.output_weights[o * h..(o + 1) * h];
            let mut part = [0.0f32; 4];
            let (whole, rest) = acc.split_at(h - h % 4);
            for (a4, w4) in whole.chunks_exact(4).zip(w.chunks_exact(4)) {
                for k in 0..4 {
                    part[k] += a4[k] * w4[k];
                }
            }
            for (k, (a, w)) in rest.iter().zip(&w[whole.len()..]).enumerate() {
                part[k] += a * w;
            }
            let r = self.output_threshold[o] + ((part[0] + part[2]) + (part[1] + part[3]));
            *slot = sigmoid_in(e, -(r * self.beta_output));
        }
    }

    /// Forward pass; `out` gets `self.outputs` values.
    pub fn evaluate(&self, input: &[f32], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx512() {
            let mut list = nn_avx512::List::<LIST_ROOM>::default();
            let input = &input[..self.inputs];
            let mut sums = [0.0f32; MAX_HIDDEN];
            // SAFETY: `avx512` checked the CPU and the net's shape; the
            // list holds every input.
            unsafe {
                let (index, value) = nn_avx512::nonzero(input, &mut list);
                self.evaluate_512(&self.hidden_threshold, index, value, &mut sums, out);
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_avx2(input, out) };
        }
        self.evaluate_any(input, out)
    }

    /// [`Net::evaluate`] compiled for AVX2: the same operations in the same
    /// order on wider registers (Rust fuses no multiply-add), so the same
    /// bits, in about half the time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, input: &[f32], out: &mut [f32]) {
        self.evaluate_any(input, out)
    }

    #[inline(always)]
    fn evaluate_any(&self, input: &[f32], out: &mut [f32]) {
        let mut sums = [0.0f32; MAX_HIDDEN];
        self.hidden_sums(input, &mut sums);
        self.outputs_from_sums(&sums[..self.hidden], out);
    }

    /// Forward pass from the inputs that are not zero, `(index, value)`
    /// in index order: the sums [`Net::evaluate`] makes of the whole input
    /// (it skips the zeros, and `w × 1` is `w`), so the same bits.
    pub fn evaluate_units(&self, units: &[(u32, f32)], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx512() {
            let mut list = nn_avx512::List::<LIST_ROOM>::default();
            let (index, value) = list.of_units(units);
            let mut sums = [0.0f32; MAX_HIDDEN];
            // SAFETY: `avx512` checked the CPU and the net's shape.
            unsafe { self.evaluate_512(&self.hidden_threshold, index, value, &mut sums, out) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_units_avx2(units, out) };
        }
        self.evaluate_units_any(units, out)
    }

    /// [`Net::evaluate_units`] for AVX2, as [`Net::evaluate_avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_units_avx2(&self, units: &[(u32, f32)], out: &mut [f32]) {
        self.evaluate_units_any(units, out)
    }

    #[inline(always)]
    fn evaluate_units_any(&self, units: &[(u32, f32)], out: &mut [f32]) {
        match self.hidden {
            16 => return self.evaluate_units_small::<16>(units, out),
            8 => return self.evaluate_units_small::<8>(units, out),
            _ => {}
        }
        let mut sums = [0.0f32; MAX_HIDDEN];
        let h = self.hidden;
        sums[..h].copy_from_slice(&self.hidden_threshold);
        self.add_rows(units, &mut sums[..h]);
        self.outputs_from_sums(&sums[..h], out);
    }

    /// [`Net::evaluate_units`] for a net of `H` hidden units, the sums in
    /// registers.
    #[inline(always)]
    fn evaluate_units_small<const H: usize>(&self, units: &[(u32, f32)], out: &mut [f32]) {
        let mut acc: [f32; H] = self.hidden_threshold[..H].try_into().expect("H thresholds");
        for &(i, x) in units {
            let at = i as usize * H;
            let w: &[f32; H] = self.hidden_weights[at..at + H]
                .try_into()
                .expect("a row of H weights");
            for (s, &w) in acc.iter_mut().zip(w) {
                *s += w * x;
            }
        }
        self.outputs_from_sums(&acc, out);
    }

    /// [`Net::evaluate_units`] of four positions side by side, the same
    /// sums in the same order for each, so the same bits. A small net's
    /// hidden sums are one chain of additions per position, each waiting
    /// for the one before; four chains interleaved keep the adder busy.
    pub fn evaluate_units_4(&self, lists: [&[(u32, f32)]; 4], out: &mut [[f32; 5]; 4]) {
        #[cfg(target_arch = "x86_64")]
        if self.hidden == 16 && self.avx512() {
            // SAFETY: `avx512` checked the CPU and the net's shape.
            return unsafe { self.evaluate_units_4_512(lists, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if self.hidden == 8 && self.outputs_512() {
            // SAFETY: `outputs_512` checked the CPU and the net's shape.
            return unsafe { self.evaluate_units_4_8_512(lists, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if self.hidden == 8 && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_units_4_avx2(lists, out) };
        }
        for (units, out) in lists.into_iter().zip(out) {
            self.evaluate_units(units, out);
        }
    }

    /// [`Net::evaluate_units_4`] of a 16-unit net by the AVX-512 kernels.
    ///
    /// # Safety
    /// [`Net::avx512`] holds and the net has 16 hidden units.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn evaluate_units_4_512(&self, lists: [&[(u32, f32)]; 4], out: &mut [[f32; 5]; 4]) {
        let sums = nn_avx512::sums16_x4(&self.hidden_weights, &self.hidden_threshold, lists);
        self.outputs_x4(sums.each_ref().map(|s| &s[..]), out);
    }

    /// [`Net::evaluate_units_4`] of an 8-unit net, compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_units_4_avx2(&self, lists: [&[(u32, f32)]; 4], out: &mut [[f32; 5]; 4]) {
        for (acc, out) in self.sums8_x4(lists).iter().zip(out) {
            self.outputs_from_sums(acc, out);
        }
    }

    /// [`Net::evaluate_units_4`] of an 8-unit net: the sums as
    /// [`Net::evaluate_units_4_avx2`] makes them, the outputs by the
    /// AVX-512 kernel (its vector sigmoids gnubg's bit for bit).
    ///
    /// # Safety
    /// [`Net::outputs_512`] holds and the net has 8 hidden units.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn evaluate_units_4_8_512(&self, lists: [&[(u32, f32)]; 4], out: &mut [[f32; 5]; 4]) {
        let sums = self.sums8_x4(lists);
        self.outputs_x4(sums.each_ref().map(|s| &s[..]), out);
    }

    /// [`nn_avx512::outputs_x4`] of this net.
    ///
    /// # Safety
    /// [`Net::outputs_512`] holds and the net has at most 16 hidden units.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn outputs_x4(&self, sums: [&[f32]; 4], out: &mut [[f32; 5]; 4]) {
        nn_avx512::outputs_x4(
            &TABLE,
            self.hidden,
            self.beta_hidden,
            self.beta_output,
            sums,
            &self.output_interleaved,
            &self.output_threshold,
            out,
        );
    }

    /// The hidden sums of an 8-unit net for four positions, their chains
    /// of additions side by side.
    #[inline(always)]
    fn sums8_x4(&self, lists: [&[(u32, f32)]; 4]) -> [[f32; 8]; 4] {
        const H: usize = 8;
        let start: [f32; H] = self.hidden_threshold[..H].try_into().expect("H thresholds");
        let mut acc = [start; 4];
        let row = |i: u32| -> &[f32; H] {
            let at = i as usize * H;
            self.hidden_weights[at..at + H]
                .try_into()
                .expect("a row of H weights")
        };
        add_four_lists(&mut acc, lists, |acc, (i, x)| {
            for (s, &w) in acc.iter_mut().zip(row(i)) {
                *s += w * x;
            }
        });
        acc
    }

    /// Forward pass from `base`, as GNU Backgammon evaluates a roll's
    /// plays (`NeuralNetEvaluate` with an incremental state): the first
    /// position of a class is evaluated in full and becomes the base;
    /// later ones start from the base's hidden sums and add only the
    /// inputs that differ, by their difference. The rounding differs from
    /// a full pass, by up to about 1e-3 in a probability; reproducing it
    /// is what makes recount's figures gnubg's.
    pub fn evaluate_from(&self, input: &[f32], base: &mut Option<Base>, out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx512() {
            // SAFETY: `avx512` checked the CPU and the net's shape.
            return unsafe { self.evaluate_from_512(input, base, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_from_avx2(input, base, out) };
        }
        self.evaluate_from_any(input, base, out)
    }

    /// [`Net::evaluate_from`] for AVX2, as [`Net::evaluate_avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_from_avx2(&self, input: &[f32], base: &mut Option<Base>, out: &mut [f32]) {
        self.evaluate_from_any(input, base, out)
    }

    /// Whether the AVX-512 kernels evaluate this net.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx512(&self) -> bool {
        self.hidden.is_multiple_of(16) && self.outputs_512()
    }

    /// Whether [`nn_avx512::outputs`] evaluates this net's outputs.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn outputs_512(&self) -> bool {
        !self.output_interleaved.is_empty() && nn_avx512::available()
    }

    /// The outputs of `start` plus the listed rows, the sums left in
    /// `sums`, by the AVX-512 kernels.
    ///
    /// # Safety
    /// [`Net::avx512`] holds; every index names an input of the net.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn evaluate_512(
        &self,
        start: &[f32],
        index: &[u32],
        value: &[f32],
        sums: &mut [f32; MAX_HIDDEN],
        out: &mut [f32],
    ) {
        let h = self.hidden;
        nn_avx512::hidden_sums(&self.hidden_weights, h, start, index, value, &mut sums[..h]);
        nn_avx512::outputs(
            &TABLE,
            h,
            self.beta_hidden,
            self.beta_output,
            &sums[..h],
            &self.output_interleaved,
            &self.output_threshold,
            out,
        );
    }

    /// [`Net::evaluate_from`] by the AVX-512 kernels.
    ///
    /// # Safety
    /// [`Net::avx512`] holds.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn evaluate_from_512(&self, input: &[f32], base: &mut Option<Base>, out: &mut [f32]) {
        let n = self.inputs;
        let input = &input[..n];
        let mut list = nn_avx512::List::<LIST_ROOM>::default();
        let mut sums = [0.0f32; MAX_HIDDEN];
        match base {
            Some(b) if b.input.len() == n => {
                let (index, value) = nn_avx512::differences(input, &b.input, &mut list);
                self.evaluate_512(&b.sums[..self.hidden], index, value, &mut sums, out);
            }
            _ => {
                let (index, value) = nn_avx512::nonzero(input, &mut list);
                self.evaluate_512(&self.hidden_threshold, index, value, &mut sums, out);
                *base = Some(Base {
                    input: input.to_vec(),
                    sums,
                });
            }
        }
    }

    #[inline(always)]
    fn evaluate_from_any(&self, input: &[f32], base: &mut Option<Base>, out: &mut [f32]) {
        let n = self.inputs;
        match base {
            Some(b) if b.input.len() == n => {
                let mut sums = b.sums;
                let h = self.hidden;
                let acc = &mut sums[..h];
                let mut changed = [(0u32, 0.0f32); MAX_INPUTS];
                let mut k = 0;
                // Most inputs are the base's: compare eight at once, by
                // their bits, and visit only the lanes that differ (a
                // differing zero adds ±0, which changes no sum).
                let chunks = input[..n].chunks(8).zip(b.input.chunks(8));
                for (c, (xs, ys)) in chunks.enumerate() {
                    let mut differ = 0u32;
                    for (j, (x, y)) in xs.iter().zip(ys).enumerate() {
                        differ |= u32::from(x.to_bits() != y.to_bits()) << j;
                    }
                    while differ != 0 {
                        let j = differ.trailing_zeros() as usize;
                        differ &= differ - 1;
                        changed[k] = ((c * 8 + j) as u32, xs[j] - ys[j]);
                        k += 1;
                    }
                }
                self.add_rows(&changed[..k], acc);
                self.outputs_from_sums(acc, out);
            }
            _ => {
                let mut sums = [0.0f32; MAX_HIDDEN];
                self.hidden_sums(input, &mut sums);
                self.outputs_from_sums(&sums[..self.hidden], out);
                *base = Some(Base {
                    input: input[..n].to_vec(),
                    sums,
                });
            }
        }
    }
}

/// The most hidden units a net may have.
const MAX_HIDDEN: usize = 256;

/// The most inputs a net may have.
const MAX_INPUTS: usize = CONTACT_INPUTS;

/// Room for a list of a net's inputs: the AVX-512 kernels write sixteen
/// entries at a time.
#[cfg(target_arch = "x86_64")]
const LIST_ROOM: usize = MAX_INPUTS + 16;

/// The base of incremental evaluations ([`Net::evaluate_from`]): a
/// position's inputs and its hidden units' sums.
#[derive(Debug, Clone)]
pub struct Base {
    input: Vec<f32>,
    sums: [f32; MAX_HIDDEN],
}

/// A net's output weights as the AVX-512 kernels read them, or none
/// where the kernels cannot evaluate it.
fn interleaved(output_weights: &[f32], hidden: usize, outputs: usize) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if nn_avx512::fits(hidden, outputs) {
        return nn_avx512::interleave_outputs(output_weights, hidden);
    }
    let _ = (output_weights, hidden, outputs);
    Vec::new()
}

/// The nets of a weights file.
#[derive(Debug, Clone)]
pub struct Weights {
    pub contact: Net,
    pub race: Net,
    pub crashed: Net,
    /// The small nets gnubg picks a ply's best replies with (its
    /// `nnpContact`, `nnpCrashed`, `nnpRace`); `None` for a text file
    /// that ends after the three main nets.
    pub pruning: Option<Pruning>,
    /// Where they were read from: a file's path, or the built-in copy.
    pub source: String,
}

/// gnubg's pruning nets: each reads the 200 base inputs
/// ([`crate::bg::eval::nn_inputs::base_inputs`]).
#[derive(Debug, Clone)]
pub struct Pruning {
    pub contact: Net,
    pub crashed: Net,
    pub race: Net,
}

/// The inputs of a pruning net (gnubg's `NUM_PRUNING_INPUTS`).
pub const PRUNING_INPUTS: usize = 200;

/// Why a weights file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// gnubg's `gnubg.wd` (1.1.0a16), built in: `data/gnubg/README.md`.
pub(crate) static EMBEDDED_WD: &[u8] = include_bytes!("../../../data/gnubg/gnubg.wd");

/// Where the built-in nets came from, for [`Weights::source`].
pub const EMBEDDED_SOURCE: &str = "built-in gnubg.wd (gnubg 1.1.0a16)";

/// The leading `f32` of a binary weights file (gnubg's
/// `WEIGHTS_MAGIC_BINARY`), and the version that follows it.
const WD_MAGIC: f32 = 472.3782;
const WD_VERSION: f32 = 1.01;

/// The nets a file holds, in order, with the inputs each must have.
const NETS: [(&str, usize); 6] = [
    ("contact", CONTACT_INPUTS),
    ("race", RACE_INPUTS),
    ("crashed", CONTACT_INPUTS),
    ("pruning contact", PRUNING_INPUTS),
    ("pruning crashed", PRUNING_INPUTS),
    ("pruning race", PRUNING_INPUTS),
];

/// A net's header: its shape and the two betas of its sigmoids.
struct Header {
    inputs: usize,
    hidden: usize,
    outputs: usize,
    beta_hidden: f32,
    beta_output: f32,
}

impl Header {
    /// Checks the shape the evaluation needs: five outputs, at most 256
    /// hidden units (its accumulator) and, for the nets used, the inputs
    /// our input encodings give; and positive betas.
    fn check(&self, name: &str, inputs: usize) -> Result<(), String> {
        if self.inputs != inputs || !(1..=256).contains(&self.hidden) || self.outputs != 5 {
            return Err(format!(
                "the {name} net has an unexpected shape {}×{}×{}",
                self.inputs, self.hidden, self.outputs
            ));
        }
        // gnubg refuses other betas too (`NeuralNetLoad`).
        if !(self.beta_hidden > 0.0 && self.beta_output > 0.0) {
            return Err(format!(
                "the {name} net's betas {} and {} are not positive",
                self.beta_hidden, self.beta_output
            ));
        }
        Ok(())
    }

    /// Checks that every value of the net is a number: a NaN or infinite
    /// weight would make every position it reads saturate a sigmoid,
    /// quietly, where gnubg's nets hold none.
    fn check_values(&self, name: &str, values: &[f32]) -> Result<(), String> {
        match values.iter().position(|v| !v.is_finite()) {
            Some(k) => Err(format!(
                "the {name} net's value {} of {} after its header is {}, not a finite number",
                k + 1,
                values.len(),
                values[k]
            )),
            None => Ok(()),
        }
    }

    /// The number of `f32` that follow the header.
    fn values(&self) -> usize {
        (self.inputs + self.outputs + 1) * self.hidden + self.outputs
    }

    /// The net, its arrays read from `v` in the files' order.
    fn net(self, v: &mut impl Iterator<Item = f32>) -> Net {
        let mut take = |n: usize| -> Vec<f32> { v.by_ref().take(n).collect() };
        let hidden_weights = take(self.inputs * self.hidden).into();
        let output_weights = take(self.outputs * self.hidden);
        Net {
            hidden_weights,
            output_interleaved: interleaved(&output_weights, self.hidden, self.outputs).into(),
            output_weights,
            hidden_threshold: take(self.hidden).into(),
            output_threshold: take(self.outputs),
            inputs: self.inputs,
            hidden: self.hidden,
            outputs: self.outputs,
            beta_hidden: self.beta_hidden,
            beta_output: self.beta_output,
        }
    }
}

impl Weights {
    /// The built-in nets (gnubg 1.1.0a16's `gnubg.wd`), parsed on first
    /// use.
    pub fn embedded() -> &'static Weights {
        static NETS: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
            Weights::parse_wd(EMBEDDED_WD, EMBEDDED_SOURCE).expect("the built-in gnubg.wd reads")
        });
        &NETS
    }

    /// Reads a weights file, text (`gnubg.weights`) or binary
    /// (`gnubg.wd`), told apart by its content.
    ///
    /// # Errors
    /// A missing or unreadable file, neither format, another version, a
    /// truncated file or nets of unexpected sizes.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let bytes = std::fs::read(path).map_err(|e| {
            WeightsError(format!(
                "cannot read the weights file '{}': {e}",
                path.display()
            ))
        })?;
        let source = path.display().to_string();
        if bytes.starts_with(&WD_MAGIC.to_le_bytes()) {
            Weights::parse_wd(&bytes, &source)
        } else if bytes.starts_with(b"GNU Backgammon ") {
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                WeightsError(format!("'{source}': a text weights file that is not UTF-8"))
            })?;
            Weights::parse(text, &source)
        } else {
            Err(WeightsError(format!(
                "'{source}': not a GNU Backgammon weights file (neither a gnubg.weights text file \
                 nor a gnubg.wd binary one)"
            )))
        }
    }

    /// Parses a binary weights file (`gnubg.wd`) already in memory.
    fn parse_wd(bytes: &[u8], source: &str) -> Result<Weights, WeightsError> {
        let err = |m: String| WeightsError(format!("'{source}': {m}"));
        let word = |k: usize| -> Option<[u8; 4]> { bytes.get(4 * k..4 * k + 4)?.try_into().ok() };
        if !bytes.len().is_multiple_of(4) {
            return Err(err(format!(
                "{} bytes, not a whole number of 4-byte values",
                bytes.len()
            )));
        }
        let float = |k: usize| word(k).map(f32::from_le_bytes);
        if float(0) != Some(WD_MAGIC) {
            return Err(err("not a gnubg.wd binary weights file".into()));
        }
        match float(1) {
            Some(WD_VERSION) => {}
            Some(v) => {
                return Err(err(format!(
                    "binary weights version {v} is not supported (expected 1.01)"
                )))
            }
            None => return Err(err("the file ends after its magic number".into())),
        }
        let mut at = 2;
        let mut nets = Vec::with_capacity(3);
        for (name, inputs) in NETS {
            let ends = || err(format!("the file ends inside the {name} net"));
            let int = |k: usize| -> Result<usize, WeightsError> {
                let v = i32::from_le_bytes(word(k).ok_or_else(ends)?);
                usize::try_from(v)
                    .map_err(|_| err(format!("the {name} net's header has a negative size {v}")))
            };
            let header = Header {
                inputs: int(at)?,
                hidden: int(at + 1)?,
                outputs: int(at + 2)?,
                // at + 3: how many positions it was trained on, unused.
                beta_hidden: float(at + 4).ok_or_else(ends)?,
                beta_output: float(at + 5).ok_or_else(ends)?,
            };
            int(at + 3)?;
            header.check(name, inputs).map_err(err)?;
            at += 6;
            let n = header.values();
            let data = bytes.get(4 * at..4 * (at + n)).ok_or_else(ends)?;
            at += n;
            let values: Vec<f32> = data
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            header.check_values(name, &values).map_err(err)?;
            nets.push(header.net(&mut values.into_iter()));
        }
        if 4 * at != bytes.len() {
            return Err(err(format!(
                "{} bytes after the six nets",
                bytes.len() - 4 * at
            )));
        }
        let [contact, race, crashed, p_contact, p_crashed, p_race] =
            <[Net; 6]>::try_from(nets).expect("six nets read");
        Ok(Weights {
            contact,
            race,
            crashed,
            pruning: Some(Pruning {
                contact: p_contact,
                crashed: p_crashed,
                race: p_race,
            }),
            source: source.to_string(),
        })
    }

    /// Parses a text weights file (`gnubg.weights`); the pruning nets
    /// after the first three are not read.
    fn parse(text: &str, source: &str) -> Result<Weights, WeightsError> {
        let err = |m: String| WeightsError(format!("'{source}': {m}"));
        let mut lines = text.lines();
        let version = lines.next().unwrap_or_default().trim();
        if !version.starts_with("GNU Backgammon ") {
            return Err(err(format!(
                "not a GNU Backgammon weights file (first line '{version}')"
            )));
        }
        if version != "GNU Backgammon 1.01" {
            return Err(err(format!(
                "weights version '{version}' is not supported (expected 'GNU Backgammon 1.01')"
            )));
        }
        let mut words = lines.flat_map(str::split_whitespace).peekable();
        let next_net = |(name, inputs): (&str, usize),
                        words: &mut dyn Iterator<Item = &str>|
         -> Result<Net, WeightsError> {
            let mut num = |what: &str| -> Result<f32, WeightsError> {
                let w = words
                    .next()
                    .ok_or_else(|| err(format!("the file ends inside the {name} net ({what})")))?;
                w.parse::<f32>()
                    .map_err(|_| err(format!("'{w}' is not a number ({name} net, {what})")))
            };
            let mut h = [0.0f32; 6];
            for v in &mut h {
                *v = num("header")?;
            }
            // h[3]: how many positions it was trained on, unused.
            let header = Header {
                inputs: h[0] as usize,
                hidden: h[1] as usize,
                outputs: h[2] as usize,
                beta_hidden: h[4],
                beta_output: h[5],
            };
            header.check(name, inputs).map_err(err)?;
            let values: Vec<f32> = (0..header.values())
                .map(|_| num("weights"))
                .collect::<Result<_, _>>()?;
            header.check_values(name, &values).map_err(err)?;
            Ok(header.net(&mut values.into_iter()))
        };
        let contact = next_net(NETS[0], &mut words)?;
        let race = next_net(NETS[1], &mut words)?;
        let crashed = next_net(NETS[2], &mut words)?;
        // The pruning nets follow, in gnubg's files; a file without them
        // serves every analysis but the plied one.
        let pruning = if words.peek().is_some() {
            Some(Pruning {
                contact: next_net(NETS[3], &mut words)?,
                crashed: next_net(NETS[4], &mut words)?,
                race: next_net(NETS[5], &mut words)?,
            })
        } else {
            None
        };
        Ok(Weights {
            contact,
            race,
            crashed,
            pruning,
            source: source.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::eval::sigmoid::sigmoid;

    /// Every value of a net, header included, as bits.
    fn bits(n: &Net) -> Vec<u32> {
        let shape = [n.inputs, n.hidden, n.outputs].map(|v| v as u32);
        shape
            .into_iter()
            .chain([n.beta_hidden, n.beta_output].map(f32::to_bits))
            .chain(n.hidden_weights.iter().map(|v| v.to_bits()))
            .chain(n.output_weights.iter().map(|v| v.to_bits()))
            .chain(n.hidden_threshold.iter().map(|v| v.to_bits()))
            .chain(n.output_threshold.iter().map(|v| v.to_bits()))
            .collect()
    }

    fn same_nets(a: &Weights, b: &Weights) {
        for (name, x, y) in [
            ("contact", &a.contact, &b.contact),
            ("race", &a.race, &b.race),
            ("crashed", &a.crashed, &b.crashed),
        ] {
            let (x, y) = (bits(x), bits(y));
            assert_eq!(x.len(), y.len(), "{name}");
            let differ = x.iter().zip(&y).filter(|(p, q)| p != q).count();
            assert_eq!(differ, 0, "{name}: {differ} values differ");
        }
    }

    /// A binary weights file of six nets of `inputs` × 1 × 5 (the used
    /// ones of the sizes the inputs need), every value `v`.
    fn tiny_wd(v: f32) -> Vec<u8> {
        let mut out = Vec::new();
        let f = |out: &mut Vec<u8>, x: f32| out.extend(x.to_le_bytes());
        f(&mut out, WD_MAGIC);
        f(&mut out, WD_VERSION);
        for (_, inputs) in NETS {
            for n in [inputs as i32, 1, 5, 0] {
                out.extend(n.to_le_bytes());
            }
            f(&mut out, 0.1);
            f(&mut out, 1.0);
            for _ in 0..inputs + 11 {
                f(&mut out, v);
            }
        }
        out
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let p = "w";
        let e = Weights::parse("hello\n", p).unwrap_err();
        assert!(e.0.contains("not a GNU Backgammon weights file"), "{e}");
        let e = Weights::parse("GNU Backgammon 0.90\n", p).unwrap_err();
        assert!(e.0.contains("not supported"), "{e}");
        let e = Weights::parse("GNU Backgammon 1.01\n250 128 5 0 0.1 1.0\n0.5\n", p).unwrap_err();
        assert!(e.0.contains("ends inside the contact net"), "{e}");
        let e = Weights::parse("GNU Backgammon 1.01\n2 1 5 0 0.1 1.0\n0.5\n", p).unwrap_err();
        assert!(e.0.contains("unexpected shape 2×1×5"), "{e}");
        let mut values = vec!["0.5"; 261];
        values[2] = "inf";
        let text = format!(
            "GNU Backgammon 1.01\n250 1 5 0 0.1 1.0\n{}\n",
            values.join("\n")
        );
        let e = Weights::parse(&text, p).unwrap_err();
        assert!(
            e.0.contains("the contact net's value 3 of 261 after its header is inf, not a finite"),
            "{e}"
        );
        let e = Weights::load(Path::new("/nonexistent/gnubg.weights")).unwrap_err();
        assert!(e.0.contains("cannot read"), "{e}");
    }

    #[test]
    fn binary_errors_say_what_is_wrong() {
        let p = "w.wd";
        let good = tiny_wd(0.0);
        assert!(Weights::parse_wd(&good, p).is_ok());
        let e = Weights::parse_wd(&good[4..], p).unwrap_err();
        assert!(e.0.contains("not a gnubg.wd"), "{e}");
        let mut v = good.clone();
        v[4..8].copy_from_slice(&1.0f32.to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("version 1 is not supported"), "{e}");
        let e = Weights::parse_wd(&good[..good.len() - 4], p).unwrap_err();
        assert!(e.0.contains("ends inside the pruning race net"), "{e}");
        let e = Weights::parse_wd(&good[..100], p).unwrap_err();
        assert!(e.0.contains("ends inside the contact net"), "{e}");
        let mut v = good.clone();
        v.extend(0.0f32.to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("4 bytes after the six nets"), "{e}");
        let mut v = good.clone();
        v[8..12].copy_from_slice(&(-3i32).to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("negative size -3"), "{e}");
        let mut v = good.clone();
        v[24..28].copy_from_slice(&0.0f32.to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("betas 0 and 1 are not positive"), "{e}");
        let e = Weights::parse_wd(&tiny_wd(f32::NAN), p).unwrap_err();
        assert!(
            e.0.contains("the contact net's value 1 of 261 after its header is NaN"),
            "{e}"
        );
        let mut v = good.clone();
        // Its first value: after the magic and version, the contact net
        // (header, 261 values) and the race net's header.
        let race = 4 * (2 + 6 + CONTACT_INPUTS + 11 + 6);
        v[race..race + 4].copy_from_slice(&f32::NEG_INFINITY.to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("the race net's value 1 of"), "{e}");
        let mut v = good;
        v[12..16].copy_from_slice(&300i32.to_le_bytes());
        let e = Weights::parse_wd(&v, p).unwrap_err();
        assert!(e.0.contains("unexpected shape 250×300×5"), "{e}");
    }

    #[test]
    fn load_tells_the_formats_apart_by_content() {
        let dir = tempfile::tempdir().unwrap();
        // A binary file under the text file's name, and the reverse.
        let wd = dir.path().join("gnubg.weights");
        std::fs::write(&wd, EMBEDDED_WD).unwrap();
        let w = Weights::load(&wd).unwrap();
        same_nets(&w, Weights::embedded());
        let text = dir.path().join("nets.wd");
        std::fs::write(&text, "GNU Backgammon 1.01\n250 128 5 0 0.1 1.0\n").unwrap();
        let e = Weights::load(&text).unwrap_err();
        assert!(e.0.contains("ends inside the contact net"), "{e}");
        let other = dir.path().join("other");
        std::fs::write(&other, "<xml/>").unwrap();
        let e = Weights::load(&other).unwrap_err();
        assert!(e.0.contains("neither a gnubg.weights text file"), "{e}");
    }

    #[test]
    fn the_embedded_nets_are_gnubgs_shapes() {
        let w = Weights::embedded();
        assert_eq!(w.source, EMBEDDED_SOURCE);
        for (n, inputs) in [(&w.contact, 250), (&w.race, 214), (&w.crashed, 250)] {
            assert_eq!((n.inputs, n.hidden, n.outputs), (inputs, 128, 5));
            assert_eq!((n.beta_hidden, n.beta_output), (0.1, 1.0));
        }
    }

    #[test]
    fn aligned_values_keep_every_value_and_start_a_cache_line() {
        for n in [0usize, 1, 15, 16, 17, 250 * 128 + 3] {
            let v: Vec<f32> = (0..n).map(|k| k as f32 * 0.5).collect();
            let a = Aligned::from(v.clone());
            assert_eq!(&*a, v.as_slice(), "{n} values");
            assert_eq!(a.as_ptr() as usize % 64, 0, "{n} values");
        }
        let w = Weights::embedded();
        for net in [&w.contact, &w.race, &w.crashed] {
            for values in [&net.hidden_weights, &net.hidden_threshold] {
                assert_eq!(values.as_ptr() as usize % 64, 0);
            }
        }
    }

    /// The built-in `gnubg.wd` holds exactly the nets of gnubg's
    /// `gnubg.weights` (when `scripts/get-gnubg-weights.sh` has fetched
    /// it, as CI does): every weight, bit for bit.
    #[test]
    fn the_embedded_nets_equal_gnubg_weights() {
        let text = Path::new(env!("CARGO_MANIFEST_DIR")).join(".gnubg-data/gnubg.weights");
        if !text.is_file() {
            crate::note_skipped_test(&format!(
                "no {} (scripts/get-gnubg-weights.sh)",
                text.display()
            ));
            return;
        }
        let text = std::fs::read_to_string(&text).unwrap();
        let w = Weights::parse(&text, "gnubg.weights").unwrap();
        same_nets(&w, Weights::embedded());
    }

    #[test]
    fn evaluating_the_units_not_zero_gives_the_same_bits() {
        let w = Weights::embedded();
        let p = w.pruning.as_ref().expect("the embedded pruning nets");
        let mut next = xorshift(7u64);
        for net in [&p.contact, &p.crashed, &p.race, &w.contact] {
            for _ in 0..300 {
                // Mostly zeros and ones, some fractions, as the base inputs.
                let input: Vec<f32> = (0..net.inputs)
                    .map(|_| match next() % 8 {
                        0..=4 => 0.0,
                        5 | 6 => 1.0,
                        _ => (next() % 13) as f32 * 0.5,
                    })
                    .collect();
                let units: Vec<(u32, f32)> = (0..net.inputs as u32)
                    .zip(input.iter().copied())
                    .filter(|&(_, x)| x != 0.0)
                    .collect();
                let (mut a, mut b) = ([0.0f32; 5], [0.0f32; 5]);
                net.evaluate(&input, &mut a);
                net.evaluate_units(&units, &mut b);
                assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
            }
        }
    }

    #[test]
    fn four_positions_side_by_side_give_each_ones_bits() {
        let w = Weights::embedded();
        let p = w.pruning.as_ref().expect("the embedded pruning nets");
        let mut next = xorshift(11u64);
        for net in [&p.contact, &p.crashed, &p.race, &w.contact] {
            for _ in 0..200 {
                // Lists of different lengths.
                let lists: Vec<Vec<(u32, f32)>> = (0..4)
                    .map(|_| {
                        let mut units = Vec::new();
                        for i in 0..net.inputs as u32 {
                            if next().is_multiple_of(5) {
                                units.push((i, (next() % 9) as f32 * 0.5));
                            }
                        }
                        units
                    })
                    .collect();
                let mut four = [[0.0f32; 5]; 4];
                net.evaluate_units_4([&lists[0], &lists[1], &lists[2], &lists[3]], &mut four);
                for (units, got) in lists.iter().zip(four) {
                    let mut one = [0.0f32; 5];
                    net.evaluate_units(units, &mut one);
                    assert_eq!(got.map(f32::to_bits), one.map(f32::to_bits));
                }
            }
        }
    }

    /// A small deterministic generator for the random-input tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Random inputs as the encodings make them (mostly zeros and ones,
    /// some fractions) with some beyond them (negative, large) that
    /// drive the sigmoids past ±10.
    fn random_inputs(n: usize, next: &mut impl FnMut() -> u64) -> Vec<f32> {
        (0..n)
            .map(|_| match next() % 16 {
                0..=8 => 0.0,
                9..=11 => 1.0,
                12 | 13 => (next() % 13) as f32 * 0.25,
                14 => -((next() % 1000) as f32) / 37.0,
                _ => (next() % 100_000) as f32 / 7.0,
            })
            .collect()
    }

    #[test]
    fn every_evaluation_path_gives_the_scalar_codes_bits() {
        let w = Weights::embedded();
        let p = w.pruning.as_ref().expect("the embedded pruning nets");
        let mut next = xorshift(11u64);
        for net in [&w.contact, &w.race, &w.crashed, &p.contact, &p.race] {
            for _ in 0..40 {
                let mut base = None;
                let mut scalar_base = None;
                let mut input = random_inputs(net.inputs, &mut next);
                for step in 0..25 {
                    let (mut a, mut b) = ([0.0f32; 5], [0.0f32; 5]);
                    net.evaluate(&input, &mut a);
                    net.evaluate_any(&input, &mut b);
                    assert_eq!(
                        a.map(f32::to_bits),
                        b.map(f32::to_bits),
                        "full, step {step}"
                    );
                    net.evaluate_from(&input, &mut base, &mut a);
                    net.evaluate_from_any(&input, &mut scalar_base, &mut b);
                    assert_eq!(
                        a.map(f32::to_bits),
                        b.map(f32::to_bits),
                        "from, step {step}"
                    );
                    // The next position: a few inputs changed.
                    let fresh = random_inputs(net.inputs, &mut next);
                    for _ in 0..1 + next() % 30 {
                        let i = (next() % net.inputs as u64) as usize;
                        input[i] = fresh[i];
                    }
                }
            }
        }
    }

    #[test]
    fn a_tiny_net_evaluates_by_hand() {
        let w = Weights::parse_wd(&tiny_wd(0.0), "t").unwrap();
        let mut out = [0.0; 5];
        w.contact.evaluate(&[1.0; 250], &mut out);
        // Every weight zero: every output is sigmoid(0) = 0.5.
        assert_eq!(out, [0.5; 5]);
        let net = Net {
            inputs: 2,
            hidden: 1,
            outputs: 5,
            beta_hidden: 1.0,
            beta_output: 1.0,
            hidden_weights: vec![1.0, 2.0].into(),
            output_weights: vec![1.0, 0.0, 0.0, 0.0, 0.0],
            hidden_threshold: vec![0.0].into(),
            output_threshold: vec![0.0; 5],
            output_interleaved: Aligned::default(),
        };
        net.evaluate(&[1.0, 0.0], &mut out);
        // Hidden: sigmoid(-1); output 0: sigmoid(-sigmoid(-1)).
        assert_eq!(out[0], sigmoid(-sigmoid(-1.0)));
        assert_eq!(out[1..], [0.5; 4]);
    }
}
