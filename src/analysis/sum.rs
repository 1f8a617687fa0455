//! A sum of `f64`s that does not depend on the order of its terms, so a
//! run's totals are the same bytes whether it ran as one or as shards
//! merged (`f64` addition is not associative).

use serde::{Deserialize, Serialize};

/// Terms are rounded to multiples of 2⁻³² and added as integers: exact for
/// the values summed here (point margins: halves and quarters), whatever
/// the order; 2⁹⁵ of range.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ExactSum(i128);

const SCALE: f64 = 4_294_967_296.0;

impl ExactSum {
    pub fn add(&mut self, v: f64) {
        self.0 += (v * SCALE).round() as i128;
    }

    pub fn value(self) -> f64 {
        self.0 as f64 / SCALE
    }
}

impl std::ops::AddAssign for ExactSum {
    fn add_assign(&mut self, o: ExactSum) {
        self.0 += o.0;
    }
}

/// As a decimal string: JSON numbers are not read back as `i128`s.
impl Serialize for ExactSum {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for ExactSum {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(ExactSum).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_of_terms_does_not_matter() {
        let terms = [0.1, 1e9, -1e9, 0.2, 7.5, 0.75, 1e-3];
        let mut forward = ExactSum::default();
        terms.iter().for_each(|&t| forward.add(t));
        let mut halves = (ExactSum::default(), ExactSum::default());
        terms.iter().rev().enumerate().for_each(|(i, &t)| {
            if i % 2 == 0 {
                halves.0.add(t)
            } else {
                halves.1.add(t)
            }
        });
        halves.0 += halves.1;
        assert_eq!(forward, halves.0);
        // The float sums differ with the order; these do not.
        assert!((forward.value() - 8.551).abs() < 1e-9);
        let mut halves = ExactSum::default();
        [0.5, 3.5, 12.25].iter().for_each(|&t| halves.add(t));
        assert_eq!(halves.value(), 16.25);
        let json = serde_json::to_string(&forward).unwrap();
        assert_eq!(serde_json::from_str::<ExactSum>(&json).unwrap(), forward);
    }
}
