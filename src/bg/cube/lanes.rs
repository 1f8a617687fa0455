//! Arithmetic on one `f32` or on sixteen side by side, so that the match
//! cube formulas are written once and value one position or a roll's
//! plays sixteen at a time with the same bits: each lane makes the same
//! IEEE operations in the same order as the scalar code (Rust never fuses
//! a multiplication and an addition), and a branch becomes a choice
//! between both sides, each computed.
//!
//! [`F32x16`] is plain arrays; inlined into a function compiled for
//! AVX-512 ([`crate::bg::play::value`]'s batch scorer) its loops become
//! one instruction each.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// One value, or sixteen in lanes.
pub trait Lanes:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The lanes where a comparison holds.
    type Mask: Copy;
    fn splat(v: f32) -> Self;
    fn lt(self, o: Self) -> Self::Mask;
    fn le(self, o: Self) -> Self::Mask;
    fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `a` where `m` holds, else `b` (both computed: a division by zero
    /// on the side not taken is harmless).
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// [`f32::min`] in each lane.
    fn min(self, o: Self) -> Self;
}

impl Lanes for f32 {
    type Mask = bool;

    #[inline(always)]
    fn splat(v: f32) -> f32 {
        v
    }

    #[inline(always)]
    fn lt(self, o: f32) -> bool {
        self < o
    }

    #[inline(always)]
    fn le(self, o: f32) -> bool {
        self <= o
    }

    #[inline(always)]
    fn and(a: bool, b: bool) -> bool {
        a && b
    }

    #[inline(always)]
    fn select(m: bool, a: f32, b: f32) -> f32 {
        if m {
            a
        } else {
            b
        }
    }

    #[inline(always)]
    fn min(self, o: f32) -> f32 {
        f32::min(self, o)
    }
}

/// Lanes in a batch.
pub const LANES: usize = 16;

/// Sixteen values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct F32x16(pub [f32; LANES]);

impl F32x16 {
    #[inline(always)]
    fn zip(self, o: F32x16, f: impl Fn(f32, f32) -> f32) -> F32x16 {
        F32x16(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    #[inline(always)]
    fn compare(self, o: F32x16, f: impl Fn(f32, f32) -> bool) -> [bool; LANES] {
        std::array::from_fn(|i| f(self.0[i], o.0[i]))
    }
}

macro_rules! lanewise {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for F32x16 {
            type Output = F32x16;

            #[inline(always)]
            fn $method(self, o: F32x16) -> F32x16 {
                self.zip(o, |a, b| a $op b)
            }
        }
    };
}

lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);
lanewise!(Div, div, /);

impl Neg for F32x16 {
    type Output = F32x16;

    #[inline(always)]
    fn neg(self) -> F32x16 {
        F32x16(self.0.map(|a| -a))
    }
}

impl Lanes for F32x16 {
    type Mask = [bool; LANES];

    #[inline(always)]
    fn splat(v: f32) -> F32x16 {
        F32x16([v; LANES])
    }

    #[inline(always)]
    fn lt(self, o: F32x16) -> [bool; LANES] {
        self.compare(o, |a, b| a < b)
    }

    #[inline(always)]
    fn le(self, o: F32x16) -> [bool; LANES] {
        self.compare(o, |a, b| a <= b)
    }

    #[inline(always)]
    fn and(a: [bool; LANES], b: [bool; LANES]) -> [bool; LANES] {
        std::array::from_fn(|i| a[i] & b[i])
    }

    #[inline(always)]
    fn select(m: [bool; LANES], a: F32x16, b: F32x16) -> F32x16 {
        F32x16(std::array::from_fn(|i| if m[i] { a.0[i] } else { b.0[i] }))
    }

    #[inline(always)]
    fn min(self, o: F32x16) -> F32x16 {
        self.zip(o, f32::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lane_is_the_scalar_operation() {
        let a = F32x16(std::array::from_fn(|i| i as f32 * 0.37 - 2.0));
        let b = F32x16(std::array::from_fn(|i| 1.5 - i as f32 * 0.21));
        let m = a.lt(b);
        let s = F32x16::select(m, a / b, a * b - b);
        for i in 0..LANES {
            let (x, y) = (a.0[i], b.0[i]);
            let want = if x < y { x / y } else { x * y - y };
            assert_eq!(s.0[i].to_bits(), want.to_bits(), "lane {i}");
            assert_eq!(a.min(b).0[i].to_bits(), x.min(y).to_bits());
            assert_eq!(a.le(b)[i], x <= y);
        }
    }
}
