//! The subcommands: a batch run over archives ([`run`]), one game counted
//! and drawn ([`explain`]), one position's endgame zones ([`zones`]),
//! expectations files checked ([`check`]), two runs compared ([`diff`]),
//! a run's page made again from its reports ([`report`]);
//! and what the two single-game commands share: reading one game of a file.

pub mod check;
pub mod diff;
pub mod explain;
pub mod merge;
pub mod parts;
pub mod report;
pub mod run;
pub mod shard;
pub mod tally;
pub mod zones;

use crate::go::record::{read_record, GoRecord};
use crate::sgf::reader::parse_tree;
use crate::sgf::split::{split_trees, where_truncated, Chunk};
use std::fmt;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// Why `recount explain` or `recount zones` cannot show what was asked.
#[derive(Debug)]
pub enum InputError {
    /// The file cannot be opened or read.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// The game asked for is cut short or over the size limit: how.
    Truncated {
        path: PathBuf,
        game: u32,
        how: String,
    },
    /// The file holds fewer games than the one asked for.
    NoSuchGame { path: PathBuf, count: u32 },
    /// The game cannot be read or used, or a diagram cannot be read.
    Unusable { what: String, message: String },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io {
                path,
                action,
                source,
            } => write!(f, "cannot {action} '{}': {source}", path.display()),
            InputError::Truncated { path, game, how } => {
                write!(f, "game {game} of '{}' {how}", path.display())
            }
            InputError::NoSuchGame { path, count: 0 } => {
                write!(f, "'{}' holds no SGF game tree '(;'", path.display())
            }
            InputError::NoSuchGame { path, count } => write!(
                f,
                "'{}' holds {count} game(s); choose one with --game 1..{count}",
                path.display()
            ),
            InputError::Unusable { what, message } => write!(f, "{what}: {message}"),
        }
    }
}

impl std::error::Error for InputError {}

/// Reads game `game` (1-based) of the SGF file at `path`, or the one game
/// of a file in another server's format ([`crate::ingest::translate`]).
///
/// # Errors
/// When the file cannot be read, holds no such game, or the game is not a
/// Go record recount can replay.
pub fn read_game(path: &Path, game: u32) -> Result<GoRecord, InputError> {
    let io = |action, source| InputError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let unusable = |message: String| InputError::Unusable {
        what: format!("game {game}"),
        message,
    };
    let mut file = std::fs::File::open(path).map_err(|e| io("open", e))?;
    let mut head = Vec::new();
    (&mut file)
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(|e| io("read", e))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if let Some((format, _)) = crate::ingest::translate(&name, &head) {
        file.read_to_end(&mut head).map_err(|e| io("read", e))?;
        let translated = crate::ingest::translate(&name, &head)
            .map(|(_, t)| t)
            .unwrap_or_else(|| Err(format!("not a {} file", format.name())))
            .map_err(unusable)?;
        if game != 1 {
            return Err(InputError::NoSuchGame {
                path: path.to_path_buf(),
                count: 1,
            });
        }
        let tree = parse_tree(&translated.sgf).map_err(|e| unusable(e.to_string()))?;
        let mut record = read_record(&tree).map_err(|e| unusable(e.to_string()))?;
        let said = [format.note()].into_iter().chain(translated.notes);
        record.notes.splice(0..0, said);
        return Ok(record);
    }
    match crate::ingest::sniff(&head) {
        crate::ingest::Content::Binary(why) => {
            return Err(InputError::Unusable {
                what: format!("'{}'", path.display()),
                message: format!(
                    "binary data, not a game file ({why}); an archive's or a compressed file's game is read from its member, e.g. <(tar -xOf ARCHIVE MEMBER)"
                ),
            })
        }
        crate::ingest::Content::Match(_) => {
            return Err(InputError::Unusable {
                what: format!("'{}'", path.display()),
                message: "a backgammon match; explain shows a Go game (run recount on the file for its reports)".into(),
            })
        }
        crate::ingest::Content::Go => {}
    }
    let file = std::io::Read::chain(std::io::Cursor::new(head), file);
    let mut tree_bytes = None;
    let mut index = 0;
    split_trees(BufReader::new(file), 64 << 20, |chunk| {
        index += 1;
        if index == game {
            tree_bytes = Some(chunk);
            return false;
        }
        true
    })
    .map_err(|e| io("read", e))?;
    let bytes = match tree_bytes {
        Some(Chunk::Tree(b)) => b,
        Some(Chunk::Truncated { inside_value, .. }) => {
            return Err(InputError::Truncated {
                path: path.to_path_buf(),
                game,
                how: format!("is truncated: {}", where_truncated(inside_value)),
            })
        }
        Some(Chunk::TooLarge { .. }) => {
            return Err(InputError::Truncated {
                path: path.to_path_buf(),
                game,
                how: "is over 64 MiB".into(),
            })
        }
        None => {
            return Err(InputError::NoSuchGame {
                path: path.to_path_buf(),
                count: index,
            })
        }
    };
    let tree = parse_tree(&bytes).map_err(|e| unusable(e.to_string()))?;
    read_record(&tree).map_err(|e| unusable(e.to_string()))
}
