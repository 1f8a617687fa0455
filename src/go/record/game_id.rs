//! A game's identity, whatever file, archive, charset or header it came
//! in: a 64-bit hash of its board size, its setup and its moves, the same
//! on every machine and run, written as 16 hexadecimal digits.
//!
//! Normalised first: each setup node's points in board order (so `AB[dd][pp]`
//! and `AB[pp][dd]` are one game), passes one way (`B[]` and `B[tt]`), and
//! nothing of the header (players, result, comments, variations).

use crate::go::board::Color;
use crate::go::record::{Event, GoRecord, MoveAt};
use crate::hash::Fnv;

fn colour(c: Option<Color>) -> u8 {
    match c {
        Some(Color::Black) => b'B',
        Some(Color::White) => b'W',
        None => b'E',
    }
}

impl GoRecord {
    /// The game's key ([`self`](crate::go::record::game_id)).
    pub fn game_id(&self) -> String {
        // FNV-1a: enough to tell games apart (two of a billion distinct games
        // share a key with odds of about 3%).
        let mut h = Fnv::default();
        h.write(&[b'Z', self.width, self.height]);
        let mut setup: Vec<(u8, u8, u8)> = Vec::new();
        for e in &self.events {
            match e {
                Event::Setup { stone, x, y } => setup.push((*y, *x, colour(*stone))),
                Event::SetupDone => {
                    setup.sort_unstable();
                    for &(y, x, c) in &setup {
                        h.write(&[b'S', c, x, y]);
                    }
                    setup.clear();
                    h.write(b";");
                }
                Event::Move { color, at } => {
                    h.write(&[b'M', colour(Some(*color))]);
                    match at {
                        MoveAt::Pass => h.write(b"-"),
                        MoveAt::Point(x, y) => h.write(&[b'@', *x, *y]),
                        MoveAt::OffBoard(raw) => {
                            h.write(b"?");
                            h.write(raw.as_bytes());
                            h.write(b"]");
                        }
                    }
                }
            }
        }
        h.hex()
    }
}

#[cfg(test)]
mod tests {
    use crate::go::record::read_record;
    use crate::sgf::reader::parse_tree;

    fn id(sgf: &str) -> String {
        read_record(&parse_tree(sgf.as_bytes()).unwrap())
            .unwrap()
            .game_id()
    }

    #[test]
    fn the_same_game_in_any_header_has_one_id() {
        let a = id("(;GM[1]SZ[19]PB[a]RE[B+R]AB[dd][pp];W[qd];B[];W[tt])");
        assert_eq!(a.len(), 16);
        assert_eq!(
            a,
            id("(;SZ[19]CA[UTF-8]PB[b]C[x]AB[pp][dd];W[qd];B[tt];W[](;C[end])(;B[aa]))")
        );
        assert_ne!(a, id("(;SZ[19]AB[dd][pp];W[qd];B[];W[];B[aa])"));
        assert_ne!(a, id("(;SZ[13]AB[dd][pp];W[qd];B[];W[])"));
        assert_ne!(a, id("(;SZ[19]AB[dd][pp];B[qd];B[];W[])"));
        // Pinned: a key must not change between versions.
        assert_eq!(id("(;GM[1]FF[4]SZ[9];B[ee])"), "5b47da2f7962a65c");
    }
}
