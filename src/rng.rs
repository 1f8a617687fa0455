//! xorshift64*: a small, fast generator with the same sequence on every
//! machine, for the seeded random play of the Go estimator and of
//! backgammon race rollouts (reports stay byte-identical run to run).

/// The generator's state; never 0 (seed with an odd number or `| 1`).
pub(crate) struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`, from the high bits (multiply and shift: no
    /// division, and the high bits are xorshift64*'s best).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// A number in [0, 1), from the high 24 bits (a whole `f32`
    /// mantissa): the tests' random chances.
    #[cfg(test)]
    pub fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}
