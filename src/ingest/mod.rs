//! Finding game records: expands the paths given into a sorted list of
//! files, then streams each file — plain or compressed (gzip, bzip2, xz,
//! zstd: [`codec`]), a tar, zip or 7z archive, archives inside archives —
//! as sources that know their origin (path, and member inside an archive).
//!
//! Files named on the command line are always read. Inside directories and
//! archives only game files (`.sgf`, `.mgt`, `.mat`, `.xg`, `.xgp`,
//! `.fibs`, `.sgg`, `.tmg`, `.bgf`, the other Go servers' `.gib`, `.ngf`, `.ugf`, `.ugi`, a `.txt`
//! that holds a backgammon match and a `.json` that holds an OGS game:
//! `goformats`) and archives,
//! compressed or not, are taken; other archive members are counted as
//! skipped, a directory's files of other names passed over. Only
//! regular files are read from directories: a
//! FIFO, socket or device found there is counted as skipped. Named on the
//! command line, a FIFO is read (a pipe such as `<(zcat games.sgf.gz)`),
//! a socket or device is an error row. A link inside an archive is an error row naming its target;
//! a compressed member is read decompressed.
//!
//! A Go SGF file is streamed one game tree at a time; a backgammon match
//! (`.mat` text, GNU Backgammon SGF with `GM[6]`, `.xg`, an oldmoves log)
//! is one unit, since its games are audited together (score, Crawford
//! game).

pub mod archive;
mod codec;
mod entry;
mod goformats;
mod memory;
pub mod paths;
mod sevenz;
mod sevenz_header;
pub mod shard;
mod sniff;
mod source;

pub use entry::read_entry;
pub use goformats::{translate, GoFormat, Translated};
pub use paths::expand;
pub use shard::{Shard, ShardBy};
pub use sniff::{sniff, Content, WIDE_TEXT};

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// Where a record came from: the file's path as given or found, and the
/// member's name inside an archive.
///
/// Both are names as text on one line, each distinct name its own text
/// ([`crate::text::escape_name`]): valid UTF-8 is kept as it is, except a
/// backslash, written `\\`; a line break, tab and carriage return are
/// written `\n`, `\t`, `\r`, any other control character `\xNN` (below
/// `\x80`) or `\u{NNNN}`; and each byte that is not valid UTF-8 `\xNN`
/// (so `latin1-\xE9.sgf` is a Latin-1 `é`). A zip member whose entry
/// cannot be read is named as the zip's directory lists it, else `#N`
/// (its place in the archive, from 1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    pub path: String,
    /// Member path inside an archive; a member of an archive inside an
    /// archive is `inner.zip!/a.sgf`.
    pub member: Option<String>,
}

/// One path to read, or why it cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    /// Set when discovery already failed (unreadable directory, missing
    /// path from a `-` list).
    pub problem: Option<String>,
    /// Named by the user (not found inside a directory).
    pub named: bool,
    /// The file's bytes, when it is held in memory rather than on disk
    /// (the Python package's sources): read from these, `path` naming
    /// them. See [`Entry::in_memory`].
    pub data: Option<Arc<[u8]>>,
    /// A file inside a directory whose name is neither a game file nor an
    /// archive (`README`, `.pdf`…): not read, counted as skipped, so that
    /// every file under a directory is accounted for.
    pub skip: bool,
}

/// A unit's place in the input: its entry's index, the count of streams
/// begun and ended in the entry ([`Progress::streams`]) when it was
/// offered, and the units offered before it at that count. Every shard of
/// a run that reads an entry reads the same streams in it, so places
/// order the units of all shards as one run would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Place {
    pub entry: u64,
    pub stream: u64,
    pub unit: u32,
}

/// A game tree's bytes or a failure, with its origin and game index.
#[derive(Debug)]
pub struct Unit {
    pub origin: Arc<Origin>,
    /// 1-based game index in the source; 0 for a failure of the whole source.
    pub game: u32,
    /// True for the first unit of each source file or member.
    pub first_of_source: bool,
    pub payload: Payload,
}

impl Unit {
    /// Bytes the unit holds in memory.
    pub fn payload_bytes(&self) -> u64 {
        match &self.payload {
            Payload::Tree(b) | Payload::Match(_, b) => b.len() as u64,
            Payload::Translated(_, t) => t.sgf.len() as u64,
            Payload::Failed { reason, .. } => reason.len() as u64,
        }
    }
}

#[derive(Debug)]
pub enum Payload {
    /// One Go game tree.
    Tree(Vec<u8>),
    /// A Go record in another server's format, as one SGF game tree.
    Translated(GoFormat, Translated),
    /// A whole backgammon match file, in the format sniffed.
    Match(MatchFormat, Vec<u8>),
    Failed {
        stage: Stage,
        reason: String,
    },
}

/// Counters the reader keeps while streaming (read by the progress bar and
/// the summary).
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes read from disk (compressed bytes for archives).
    pub bytes: AtomicU64,
    /// Files inside directories or archives skipped: by name, or not regular files.
    pub skipped: AtomicU64,
    /// Streams begun and ended (each file, decompressed stream and member
    /// counts twice): with the units offered since it last moved, a
    /// unit's place in the input that every shard of a run agrees on.
    pub streams: AtomicU64,
}

/// Limits for reading.
#[derive(Debug, Clone, Copy)]
pub struct ReadLimits {
    /// Largest game tree kept, in bytes.
    pub max_game_bytes: u64,
}

/// The formats of a backgammon match file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchFormat {
    /// Jellyfish `.mat` text and its dialects.
    Mat,
    /// GNU Backgammon's SGF (`GM[6]`).
    GnubgSgf,
    /// eXtreme Gammon's `.xg` / `.xgp` (binary).
    Xg,
    /// FIBS "oldmoves" logs.
    Oldmoves,
    /// GamesGrid `.sgg` logs.
    Sgg,
    /// TrueMoneyGames `.tmg` logs.
    Tmg,
    /// Snowie's text position export (one line of 40 `;` fields).
    SnowieTxt,
    /// BGBlitz's text position export (a board diagram and its IDs).
    BgBlitzTxt,
    /// eXtreme Gammon's text position export (an `XGID=` line first).
    XgTxt,
    /// BGBlitz's `.bgf` matches (a JSON header line, then the match as
    /// JSON, SMILE-encoded and gzip-compressed as the header says).
    Bgf,
}

/// Where in reading a record failed: the `stage` column of `errors.csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// A path from a `-` list that is missing, an unreadable directory.
    Discover,
    /// Cannot open or read, empty, over `--max-game-mib`.
    #[default]
    Read,
    /// A corrupt or unreadable archive.
    Archive,
    /// Not a game record: binary data, no game tree, truncated SGF, a
    /// match file with no match in it.
    Parse,
    /// A record that cannot be replayed (unusable board size).
    Record,
    /// Another game than Go or backgammon.
    Unsupported,
    /// A bug: a panic caught while processing.
    Internal,
}
