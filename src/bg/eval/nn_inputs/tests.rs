//! The inputs checked bit for bit against gnubg's vectors, the tables
//! against their definitions, and the rewrite against [`super::reference`].

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
            let got: Vec<(u32, u32)> = units[..n].iter().map(|&(i, x)| (i, x.to_bits())).collect();
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
