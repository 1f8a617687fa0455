//! GNU Backgammon's 0-ply evaluation with its own neural nets: the
//! position classes as gnubg defines them, the net for each class
//! ([`crate::bg::eval::nn`], inputs from [`crate::bg::eval::nn_inputs`]) and gnubg's output
//! sanity rules. In races the net's backgammon chances are replaced by
//! gnubg's race-backgammon estimate ([`crate::bg::eval::race_bg`]), and the sanity
//! rules read gnubg's own 16-bit one-sided table
//! ([`crate::bg::eval::bearoff::gnubg_rounded`]), as gnubg does. Bearoffs of up to
//! six checkers a side come from gnubg's
//! two-sided database when it lies beside the weights
//! ([`crate::bg::eval::bearoff_ts`]); other bearoffs from our exact one-sided
//! database ([`crate::bg::eval::bearoff`]).

use crate::bg::cube::Probs;
use crate::bg::eval::bearoff::{gnubg_rounded, OneSided};
use crate::bg::eval::bearoff_ts::two_sided;
use crate::bg::eval::nn::{Base, Pruning, Weights, PRUNING_INPUTS};
use crate::bg::eval::nn_inputs::{
    base_units, contact_inputs_with, crashed_inputs_with, race_inputs, SideMemo, CONTACT_INPUTS,
    RACE_INPUTS,
};
use crate::bg::eval::race_bg::race_backgammons;
use crate::bg::position::board::{in_play, Board, BAR};

/// gnubg's position classes (ClassifyPosition), for the databases it ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GnubgClass {
    Over,
    /// Both sides home with at most six checkers each (its two-sided
    /// database).
    Bearoff2,
    /// Both sides home (its one-sided database).
    Bearoff1,
    Race,
    Crashed,
    Contact,
}

impl GnubgClass {
    pub fn name(self) -> &'static str {
        match self {
            GnubgClass::Over => "over",
            GnubgClass::Bearoff2 => "bearoff_ts",
            GnubgClass::Bearoff1 => "bearoff_os",
            GnubgClass::Race => "race",
            GnubgClass::Crashed => "crashed",
            GnubgClass::Contact => "contact",
        }
    }
}

/// gnubg's rows: [opponent, player on roll].
fn rows(board: &Board, on_roll: usize) -> [&[u8; 25]; 2] {
    [&board.checkers[1 - on_roll], &board.checkers[on_roll]]
}

/// Highest occupied index (0..=24), or −1 for an empty side: from the
/// bar down, eight points at a time, the highest non-zero byte of a word
/// holding its highest set bit. (Most positions end at the first or
/// second look: a side's back checkers are far out until the race.)
#[inline(always)]
fn back(row: &[u8; 25]) -> i32 {
    if row[24] != 0 {
        return 24;
    }
    for at in [16, 8, 0] {
        let x = u64::from_le_bytes(row[at..at + 8].try_into().expect("eight points"));
        if x != 0 {
            return at as i32 + (63 - x.leading_zeros() as i32) / 8;
        }
    }
    -1
}

/// The class of the position for the player on roll.
pub fn classify(board: &Board, on_roll: usize) -> GnubgClass {
    let b = rows(board, on_roll);
    let (opp_back, my_back) = (back(b[0]), back(b[1]));
    if opp_back < 0 || my_back < 0 {
        return GnubgClass::Over;
    }
    if my_back + opp_back > 22 {
        // Crashed: a side with few checkers left in play.
        let crashed = |row: &[u8; 25]| {
            let tot = in_play(row) as i32;
            const N: i32 = 6;
            if tot <= N {
                return true;
            }
            let (b0, b1) = (row[0] as i32, row[1] as i32);
            if b0 > 1 {
                tot <= N + b0 || (1 + tot - (b0 + b1) <= N && b1 > 1)
            } else {
                // Unsigned in gnubg: with b1 = 0 the bound is N − 1.
                tot <= N + (b1 - 1).max(-1)
            }
        };
        return if crashed(b[0]) || crashed(b[1]) {
            GnubgClass::Crashed
        } else {
            GnubgClass::Contact
        };
    }
    let home = |row: &[u8; 25]| row[6..].iter().all(|&n| n == 0);
    if home(b[0]) && home(b[1]) {
        if in_play(b[0]) <= 6 && in_play(b[1]) <= 6 {
            GnubgClass::Bearoff2
        } else {
            GnubgClass::Bearoff1
        }
    } else {
        GnubgClass::Race
    }
}

/// gnubg's sanity rules on a net's outputs (race, crashed, contact):
/// certain wins and gammons in races (the roll counts from gnubg's 16-bit
/// one-sided table), no gammons for a side with
/// checkers off, no backgammons once the back checkers are out, the
/// order of the outputs, and tiny contact values set to 0.
fn sanity_check(board: &Board, on_roll: usize, out: &mut Probs) {
    let b = rows(board, on_roll);
    // (Not `b.map(…)`: the array's map called its closure out of line, a
    // sixtieth of a 2-ply analysis.)
    let an_back = [back(b[0]), back(b[1])];
    let ac = [in_play(b[0]), in_play(b[1])];
    let contact = an_back[0] + an_back[1] >= 24;
    // The crossovers and roll counts are read in races only.
    let mut cross = [0i32; 2];
    let mut gammon_cross = [1i32; 2];
    let mut max_turns = [0i32; 2];
    if !contact {
        for j in 0..2 {
            for (i, &n) in b[j].iter().enumerate() {
                let n = n as i32;
                let w = if i == BAR { 5 } else { i as i32 / 6 + 1 };
                cross[j] += n * w;
                gammon_cross[j] += n * (w - 1);
            }
        }
        for i in 0..2 {
            max_turns[i] = if an_back[i] < 6 {
                let mut pts = [0u8; 6];
                pts.copy_from_slice(&b[i][..6]);
                // The last roll count gnubg's 16-bit table keeps non-zero.
                let dist = &gnubg_rounded()[OneSided::index(&pts)][..32];
                dist.iter().rposition(|&p| p != 0).map_or(-1, |n| n as i32)
            } else {
                2 * cross[i]
            };
        }
        if max_turns[1] == 0 {
            max_turns[1] = 1;
        }
    }
    const WIN: usize = 0;
    const WG: usize = 1;
    const WBG: usize = 2;
    const LG: usize = 3;
    const LBG: usize = 4;
    if !contact && cross[0] > 4 * (max_turns[1] - 1) {
        out[WIN] = 1.0;
    }
    if ac[0] < 15 {
        out[WG] = 0.0;
        out[WBG] = 0.0;
    } else if !contact {
        if cross[1] > 8 * gammon_cross[0] {
            out[WG] = 0.0;
        } else if gammon_cross[0] > 4 * (max_turns[1] - 1) {
            out[WG] = 1.0;
        }
        if an_back[0] < 18 {
            out[WBG] = 0.0;
        }
    }
    if !contact && cross[1] > 4 * max_turns[0] {
        out[WIN] = 0.0;
    }
    if ac[1] < 15 {
        out[LG] = 0.0;
        out[LBG] = 0.0;
    } else if !contact {
        if cross[0] > 8 * gammon_cross[1] - 4 {
            out[LG] = 0.0;
        } else if gammon_cross[1] > 4 * max_turns[0] {
            out[LG] = 1.0;
        }
        if an_back[1] < 18 {
            out[LBG] = 0.0;
        }
    }
    out[WG] = out[WG].min(out[WIN]);
    out[LG] = out[LG].min(1.0 - out[WIN]);
    out[WBG] = out[WBG].min(out[WG]);
    out[LBG] = out[LBG].min(out[LG]);
    if contact {
        for v in &mut out[1..5] {
            if *v < 1.0e-4 {
                *v = 0.0;
            }
        }
    }
}

/// gnubg's 0-ply cubeless probabilities for the player on roll, with the
/// nets of `w`; bearoff classes from our exact database.
pub fn probabilities(w: &Weights, board: &Board, on_roll: usize) -> Option<(Probs, GnubgClass)> {
    probabilities_with(w, board, on_roll, None)
}

/// The bases of gnubg's incremental evaluations, one per net (its
/// `NNState`s for race, crashed and contact): fresh for each roll's list
/// of plays, as gnubg starts one at each `ScoreMoves`.
#[derive(Debug, Default, Clone)]
pub struct NetStates {
    nets: Bases,
    /// The side of the player on roll last read for the inputs.
    side: SideMemo,
}

/// The bases of [`NetStates`], one per net.
#[derive(Debug, Default, Clone)]
struct Bases {
    race: Option<Base>,
    crashed: Option<Base>,
    contact: Option<Base>,
}

/// [`probabilities`], evaluating incrementally from `states` when given
/// ([`crate::bg::eval::nn::Net::evaluate_from`]).
pub fn probabilities_with(
    w: &Weights,
    board: &Board,
    on_roll: usize,
    states: Option<&mut NetStates>,
) -> Option<(Probs, GnubgClass)> {
    let class = classify(board, on_roll);
    let mut out = [0.0f32; 5];
    let (memo, states) = match states {
        Some(s) => (Some(&mut s.side), Some(&mut s.nets)),
        None => (None, None),
    };
    let eval = |net: &crate::bg::eval::nn::Net,
                input: &[f32],
                base: Option<&mut Option<Base>>,
                out: &mut [f32]| match base {
        Some(b) => net.evaluate_from(input, b, out),
        None => net.evaluate(input, out),
    };
    match class {
        GnubgClass::Over => return None,
        GnubgClass::Bearoff2 => {
            return two_sided()
                .probabilities(board, on_roll)
                .map(|p| (p, class));
        }
        GnubgClass::Bearoff1 => return bearoff1(board, on_roll).map(|p| (p, class)),
        GnubgClass::Race => {
            let mut input = [0.0f32; RACE_INPUTS];
            race_inputs(board, on_roll, &mut input);
            eval(&w.race, &input, states.map(|s| &mut s.race), &mut out);
            // gnubg overrides the net's backgammons in races.
            race_backgammons(rows(board, on_roll), &mut out);
        }
        GnubgClass::Crashed => {
            let mut input = [0.0f32; CONTACT_INPUTS];
            crashed_inputs_with(board, on_roll, &mut input, memo);
            eval(&w.crashed, &input, states.map(|s| &mut s.crashed), &mut out);
        }
        GnubgClass::Contact => {
            let mut input = [0.0f32; CONTACT_INPUTS];
            contact_inputs_with(board, on_roll, &mut input, memo);
            eval(&w.contact, &input, states.map(|s| &mut s.contact), &mut out);
        }
    }
    sanity_check(board, on_roll, &mut out);
    Some((out, class))
}

/// The pruning net's probabilities for the player on roll of each of
/// `boards`, race, crashed or contact positions of class `class` (gnubg's
/// evaluation in `FindBestMoveInEval`): the 200 base inputs through the
/// class's pruning net, race backgammons and the sanity rules as for the
/// main nets. Each is a full pass: an incremental one gives the same
/// choices on the oracle's matches, and a full pass is what gnubg's
/// vectorised build makes. Four positions go through the net side by
/// side ([`crate::bg::eval::nn::Net::evaluate_units_4`]).
pub fn pruning_probabilities(
    nets: &Pruning,
    boards: &[Board],
    on_roll: usize,
    class: GnubgClass,
    out: &mut Vec<Probs>,
) {
    let net = match class {
        GnubgClass::Race => &nets.race,
        GnubgClass::Crashed => &nets.crashed,
        _ => &nets.contact,
    };
    let mut units = [[(0u32, 0.0f32); PRUNING_INPUTS]; 4];
    out.clear();
    for group in boards.chunks(4) {
        let mut n = [0usize; 4];
        for ((board, units), n) in group.iter().zip(&mut units).zip(&mut n) {
            *n = base_units(board, on_roll, units);
        }
        let mut probs = [[0.0f32; 5]; 4];
        match (&units, group.len()) {
            ([a, b, c, d], 4) => {
                net.evaluate_units_4([&a[..n[0]], &b[..n[1]], &c[..n[2]], &d[..n[3]]], &mut probs)
            }
            _ => {
                for ((units, n), p) in units.iter().zip(n).zip(&mut probs).take(group.len()) {
                    net.evaluate_units(&units[..n], p);
                }
            }
        }
        for (board, mut p) in group.iter().zip(probs) {
            if class == GnubgClass::Race {
                race_backgammons(rows(board, on_roll), &mut p);
            }
            sanity_check(board, on_roll, &mut p);
            out.push(p);
        }
    }
}

/// A sum of `v` as GNU Backgammon's vectorised build makes it: four lanes
/// over the first multiple of four terms, added pairwise, then the rest in
/// order. The lanes are added four at a time, which the compiler keeps as
/// one vector addition (each lane's terms in the same order).
fn lane_sum(v: &[f32]) -> f32 {
    let whole = v.len() - v.len() % 4;
    let mut lanes = [0.0f32; 4];
    for c in v[..whole].chunks_exact(4) {
        for (l, &x) in lanes.iter_mut().zip(c) {
            *l += x;
        }
    }
    let s = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
    match &v[whole..] {
        [] => s,
        [first, more @ ..] => s + more.iter().fold(*first, |r, &x| r + x),
    }
}

/// gnubg's one-sided bearoff evaluation from its 16-bit table: the player
/// on roll wins when the opponent needs at least as many rolls; gammons
/// while a side has all fifteen checkers on the board.
fn bearoff1(board: &Board, on_roll: usize) -> Option<Probs> {
    let table = crate::bg::eval::bearoff::gnubg_rounded();
    let b = rows(board, on_roll);
    let dist = |row: &[u8; 25]| -> Option<[f32; 64]> {
        if row[6..].iter().any(|&n| n > 0) {
            return None;
        }
        let mut pts = [0u8; 6];
        pts.copy_from_slice(&row[..6]);
        let t = &table[crate::bg::eval::bearoff::OneSided::index(&pts)];
        Some(std::array::from_fn(|k| t[k] as f32 * (1.0 / 65535.0)))
    };
    let (opp, me) = (dist(b[0])?, dist(b[1])?);
    let mut out = [0.0f32; 5];
    for i in 0..32 {
        out[0] += me[i] * lane_sum(&opp[i..32]);
    }
    if in_play(b[0]) == 15 {
        for i in 0..32 {
            out[1] += me[i] * lane_sum(&opp[32 + i..64]);
        }
    }
    if in_play(b[1]) == 15 {
        for i in 0..32 {
            out[3] += opp[i] * lane_sum(&me[32 + i + 1..64]);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_back_checker_is_the_highest_point_held() {
        let mut row = [0u8; 25];
        assert_eq!(back(&row), -1);
        // Every point alone, then with checkers on every point below it.
        for i in 0..25 {
            row = [0; 25];
            row[i] = 15;
            assert_eq!(back(&row), i as i32);
            row[..i].fill(1);
            assert_eq!(back(&row), i as i32);
        }
    }

    /// gnubg's sum written out term by term: lane `k % 4` for the first
    /// multiple of four, the lanes added pairwise, the rest after.
    fn lane_sum_by_terms(v: &[f32]) -> f32 {
        let whole = v.len() - v.len() % 4;
        let mut lanes = [0.0f32; 4];
        for (k, &x) in v[..whole].iter().enumerate() {
            lanes[k % 4] += x;
        }
        let mut s = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
        if whole < v.len() {
            let mut rest = v[whole];
            for &x in &v[whole + 1..] {
                rest += x;
            }
            s += rest;
        }
        s
    }

    #[test]
    fn the_lane_sum_adds_in_gnubgs_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for _ in 0..2_000 {
            let v: Vec<f32> = (0..64).map(|_| next() * next()).collect();
            for n in 0..=64 {
                let v = &v[64 - n..];
                assert_eq!(
                    lane_sum(v).to_bits(),
                    lane_sum_by_terms(v).to_bits(),
                    "{n} terms"
                );
            }
        }
    }
}
