//! `--shard K/N`: the K-th of N deterministic parts of a run's input.
//!
//! Each source (a file, or a member of an archive) belongs to one part, by
//! a stable hash of its name as the reports write it (`source`, `member`):
//! the same on every machine and in every version, independent of the
//! thread count and of the other sources. Every part reads the same
//! archives (their members are only found by reading them), but parses and
//! processes only its own sources. With [`ShardBy::File`] the hash is of
//! the file's name alone: a part opens only its own files, which is what
//! an input of many archives needs. `recount merge` puts the parts back
//! together in the order one run would have written.

use crate::hash::Fnv;
use crate::ingest::Origin;
use std::fmt;
use std::str::FromStr;

/// The K-th (from 1) of N parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
    pub by: ShardBy,
}

/// What the parts are made of (`--shard-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ShardBy {
    /// Each file and each archive member: balanced however few archives
    /// the input is, but every part reads every archive through.
    #[default]
    Member,
    /// Each file named or found, with all its members: a part opens only
    /// its own files.
    File,
}

impl ShardBy {
    pub fn name(self) -> &'static str {
        match self {
            ShardBy::Member => "member",
            ShardBy::File => "file",
        }
    }
}

impl Shard {
    /// Whether the source at `origin` is in this part.
    pub fn owns(&self, origin: &Origin) -> bool {
        match self.by {
            ShardBy::Member => self.owns_name(&origin.path, origin.member.as_deref()),
            ShardBy::File => self.owns_file(&origin.path),
        }
    }

    /// Whether this part reads the file at `path` at all.
    pub fn owns_file(&self, path: &str) -> bool {
        self.by == ShardBy::Member || self.owns_name(path, None)
    }

    /// Whether the source named `path` (and `member` inside it) is in this
    /// part.
    pub fn owns_name(&self, path: &str, member: Option<&str>) -> bool {
        part_of(path, member, self.count) == self.index - 1
    }
}

/// The part (from 0) of `count` that the source `path`, `member` is in:
/// FNV-1a over both names (a 0 byte between; no member is another byte,
/// so `a` and `a` with an empty member differ), then a 64-bit finaliser
/// so that names differing in their last characters spread evenly.
pub fn part_of(path: &str, member: Option<&str>, count: u32) -> u32 {
    let mut h = Fnv::default();
    h.write(path.as_bytes());
    match member {
        Some(m) => {
            h.write(&[0]);
            h.write(m.as_bytes());
        }
        None => h.write(&[1]),
    }
    (mix(h.0) % u64::from(count)) as u32
}

/// A hash of `parts` (each followed by a 0 byte) that never changes.
pub fn stable_hash(parts: &[&[u8]]) -> u64 {
    let mut h = Fnv::default();
    for p in parts {
        h.write(p);
        h.write(&[0]);
    }
    mix(h.0)
}

/// splitmix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!("'{s}' is not a shard: write K/N, the K-th of N parts (1 <= K <= N), as 2/8")
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard {
            index,
            count,
            by: ShardBy::Member,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_written_k_of_n() {
        let s: Shard = "2/8".parse().unwrap();
        assert_eq!((s.index, s.count), (2, 8));
        assert_eq!(s.to_string(), "2/8");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn each_source_is_in_exactly_one_part() {
        for n in 1..=5 {
            for i in 0..200 {
                let path = format!("games/{i}.sgf");
                let owners = (1..=n)
                    .filter(|&k| {
                        let s = Shard {
                            index: k,
                            count: n,
                            by: ShardBy::Member,
                        };
                        s.owns_name(&path, None)
                    })
                    .count();
                assert_eq!(owners, 1, "{path} in {n} parts");
            }
        }
    }

    #[test]
    fn parts_are_fixed_and_balanced() {
        // Fixed forever: a change would move sources between the parts of
        // shard runs made by different versions.
        assert_eq!(
            [
                part_of("a.sgf", None, 7),
                part_of("games.tar.gz", Some("x/1.sgf"), 7),
                part_of("games.tar.gz", Some(""), 7),
                part_of("games.tar.gz", None, 7),
            ],
            [2, 6, 3, 0]
        );
        let mut sizes = [0u32; 4];
        for i in 0..40_000 {
            sizes[part_of("kgs.tar.gz", Some(&format!("2003/{i:05}.sgf")), 4) as usize] += 1;
        }
        for s in sizes {
            assert!((9_700..=10_300).contains(&s), "{sizes:?}");
        }
    }
}
