//! GNU Backgammon's sigmoid (`lib/sigmoid.h`): a table of e^x at tenths,
//! interpolated linearly, constant beyond ±10. Every net's hidden and
//! output units use it, in the scalar code ([`crate::bg::eval::nn`]) and
//! in the AVX-512 kernels ([`crate::bg::eval::nn_avx512`]) alike.

/// `exp(k / 10) / 10` for k = 0..99, rounded to `f32` as gnubg's table of
/// literals is: the table of its sigmoid.
pub(crate) static TABLE: std::sync::LazyLock<[f32; 100]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|k| ((k as f64 / 10.0).exp() / 10.0) as f32));

/// The sigmoid beyond +10 and beyond −10: gnubg's literals, rounded to
/// `f32` as its compiler rounds them.
#[allow(clippy::excessive_precision)]
pub(crate) const SIGMOID_FAR_POSITIVE: f32 = 1.0 / 19931.370438230298;
#[allow(clippy::excessive_precision)]
pub(crate) const SIGMOID_FAR_NEGATIVE: f32 = 19930.370438230298 / 19931.370438230298;

/// gnubg's approximation of 1 / (1 + e^x): linear interpolation of e^x
/// between tenths, constant beyond ±10. (The constants are gnubg's
/// literals, rounded to `f32` as its compiler rounds them.)
pub fn sigmoid(x: f32) -> f32 {
    sigmoid_in(&TABLE, x)
}

/// [`sigmoid`] with the table at hand (the hot loops load it once). The
/// two halves are one computation on |x| (10·|x| is −10·x exactly for a
/// negative x), so the sign costs no branch.
#[inline(always)]
pub(crate) fn sigmoid_in(e: &[f32; 100], x: f32) -> f32 {
    let negative = x.is_sign_negative();
    let ax = x.abs();
    let x1 = 10.0 * ax;
    // Beyond ±10 (and for NaN) the index is any valid one: the constant
    // is chosen below. Selections only, so a loop of these vectorises.
    let i = (x1 as i32).clamp(0, 99);
    let r = 1.0 / (1.0 + e[i as usize] * ((10 - i) as f32 + x1));
    let near = if negative { 1.0 - r } else { r };
    let far = if negative {
        SIGMOID_FAR_NEGATIVE
    } else {
        SIGMOID_FAR_POSITIVE
    };
    if ax < 10.0 {
        near
    } else {
        far
    }
}

/// The sigmoid of the original branching form, for the test that the two
/// agree bit for bit.
#[cfg(test)]
#[allow(clippy::excessive_precision)]
fn sigmoid_branching(x: f32) -> f32 {
    if !x.is_sign_negative() {
        if x < 10.0 {
            let x1 = 10.0 * x;
            let i = x1 as i32;
            1.0 / (1.0 + TABLE[i as usize] * ((10 - i) as f32 + x1))
        } else {
            1.0 / 19931.370438230298
        }
    } else if x > -10.0 {
        let x1 = -10.0 * x;
        let i = x1 as i32;
        1.0 - 1.0 / (1.0 + TABLE[i as usize] * ((10 - i) as f32 + x1))
    } else {
        19930.370438230298 / 19931.370438230298
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_table_is_exp_of_tenths() {
        // Two of gnubg's literals.
        assert_eq!(TABLE[1], 0.110_517_09_f32);
        assert_eq!(TABLE[99], 1_993.037_f32);
        // Close to the true logistic function.
        for x in [-9.5f32, -3.0, -0.05, 0.0, 0.3, 2.0, 7.7] {
            let exact = 1.0 / (1.0 + (x as f64).exp());
            assert!((sigmoid(x) as f64 - exact).abs() < 2e-3, "{x}");
        }
        assert_eq!(sigmoid(0.0), 0.5);
        // The branchless form is the original bit for bit.
        for k in -120_000..=120_000 {
            let x = k as f32 * 1.0e-4;
            for x in [x, x * 1.37, -0.0, 0.0, f32::MAX, f32::MIN] {
                assert_eq!(sigmoid(x).to_bits(), sigmoid_branching(x).to_bits(), "{x}");
            }
        }
    }
}
