//! FNV-1a, 64 bits: a hash with fixed constants, so that what it keys
//! (a game's `game_id`, a backgammon match's `match_hash`, a file's
//! shard) is the same on every machine, build and run.

/// The running hash: [`Fnv::default`] is FNV-1a's offset basis.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Adds `bytes`, one at a time.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash as 16 hexadecimal digits, as the reports write keys.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_test_vectors_hold() {
        // FNV-1a 64 of "" and "a", from the algorithm's reference page.
        assert_eq!(Fnv::default().0, 0xcbf2_9ce4_8422_2325);
        let mut h = Fnv::default();
        h.write(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
    }
}
