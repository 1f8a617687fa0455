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

    /// Adds `bytes` eight at a time (the last word padded with zeros):
    /// each word xored in and multiplied as FNV does a byte, then its
    /// high half folded onto its low half, so that every bit of the word
    /// reaches every bit of later multiplications. A sixth of the
    /// multiplications of [`Fnv::write`], each waiting for the one
    /// before, for data of a fixed length, such as a board after each
    /// play of a replay; not FNV-1a's value.
    pub fn write_words(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).wrapping_mul(0x0000_0100_0000_01b3);
            self.0 ^= self.0 >> 32;
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

    #[test]
    fn a_word_differing_in_any_bit_hashes_otherwise() {
        let hash = |bytes: &[u8]| {
            let mut h = Fnv::default();
            h.write_words(bytes);
            h.write_words(b"more");
            h.0
        };
        let base = [7u8; 12];
        let mut seen = std::collections::HashSet::from([hash(&base)]);
        for byte in 0..base.len() {
            for bit in 0..8 {
                let mut b = base;
                b[byte] ^= 1 << bit;
                let h = hash(&b);
                assert!(seen.insert(h), "byte {byte} bit {bit}");
                // The low half too depends on every bit.
                assert_ne!(h as u32, hash(&base) as u32, "byte {byte} bit {bit}");
            }
        }
    }
}
