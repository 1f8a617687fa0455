//! gnubg's `CalculateHalfInputs`: the 25 inputs of one side facing the
//! other ([`half_inputs`]).

use super::*;

/// gnubg's `CalculateHalfInputs(anBoard, anBoardOpp, afInput)`: the inputs
/// `I_BREAK_CONTACT..=I_BACKRESCAPES` of the side `me` facing `opp`.
/// `I_OFF1..=I_OFF3` are left alone. The integer counts are gnubg's,
/// computed from the sides' masks where that is shorter; every `f32` is
/// made by the same operations on the same values as in gnubg.
#[inline(never)]
pub(super) fn half_inputs(t: &Tables, me: &Side, opp: &Side, out: &mut [f32]) {
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
