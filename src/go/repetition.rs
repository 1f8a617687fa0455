//! Whole-board repetition: a 64-bit key for each position (Zobrist
//! hashing: one pseudo-random number per point and colour, XORed
//! together) and the history of the keys a game has passed through, so
//! that replay can tell a play that recreates an earlier position
//! (superko) and a cycle no play ever leaves (a triple ko under Japanese
//! rules).
//!
//! Two positions with the same key are taken as equal: with 64-bit keys,
//! a game of a few hundred moves mistakes two positions with odds below
//! one in 10^13.

use crate::go::board::Color;
use rustc_hash::FxHashMap;

/// A position's key: the stones on the board, and with
/// [`Key::with_to_move`] the player to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Key(u64);

impl Key {
    /// The key with stone `color` added at (or removed from) point index `p`.
    pub fn toggled(self, p: usize, color: Color) -> Key {
        Key(self.0 ^ point_key(p, color))
    }

    /// The situation: this position with `color` to move.
    pub fn with_to_move(self, color: Color) -> Key {
        match color {
            Color::Black => self,
            Color::White => Key(self.0 ^ WHITE_TO_MOVE),
        }
    }
}

const WHITE_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;

/// The number of stone `color` at point index `p`: SplitMix64's
/// finaliser of the pair, the same on every machine and run.
fn point_key(p: usize, color: Color) -> u64 {
    let mut z = ((p as u64) << 1 | color.index() as u64).wrapping_add(0x632b_e59b_d9b4_e019);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The keys seen so far, each with the move after which it was first
/// seen (0: before the first move).
#[derive(Debug, Default, Clone)]
pub struct History {
    first_seen: FxHashMap<Key, u32>,
}

impl History {
    /// Room for `visits` keys before the table grows.
    pub fn with_capacity(visits: usize) -> History {
        History {
            first_seen: FxHashMap::with_capacity_and_hasher(visits, Default::default()),
        }
    }

    /// Records `key` as reached after move `move_number`; returns the
    /// earlier move after which it was first reached, if it was.
    pub fn visit(&mut self, key: Key, move_number: u32) -> Option<u32> {
        match self.first_seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(move_number);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_add_and_remove_stones_in_any_order() {
        let a = Key::default()
            .toggled(5, Color::Black)
            .toggled(9, Color::White);
        let b = Key::default()
            .toggled(9, Color::White)
            .toggled(5, Color::Black);
        assert_eq!(a, b);
        assert_ne!(a, Key::default().toggled(5, Color::White));
        assert_eq!(
            a.toggled(9, Color::White).toggled(5, Color::Black),
            Key::default()
        );
        assert_ne!(a.with_to_move(Color::White), a);
        assert_eq!(a.with_to_move(Color::Black), a);
    }

    #[test]
    fn history_names_the_first_visit() {
        let mut h = History::default();
        let k = Key::default().toggled(1, Color::Black);
        assert_eq!(h.visit(Key::default(), 0), None);
        assert_eq!(h.visit(k, 1), None);
        assert_eq!(h.visit(Key::default(), 2), Some(0));
        assert_eq!(h.visit(k, 3), Some(1));
    }
}
