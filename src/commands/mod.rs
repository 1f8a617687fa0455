//! The subcommands: a batch run over archives ([`run`]), one game counted
//! and drawn ([`explain`]) or one backgammon play ranked ([`explain_play`]), one position's endgame zones ([`zones`]),
//! expectations files checked ([`check`]), two runs compared ([`diff`]),
//! a run's page made again from its reports ([`report`]);
//! and what the two single-game commands share: reading one game of a file.

pub mod check;
pub mod diff;
pub mod explain;
pub mod explain_play;
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

/// Why a backgammon match cannot be shown as a Go game.
const NOT_GO: &str = "a backgammon match, not a Go game: explain one of its plays with --game N \
     --play K (bg_plays.csv's game and play), or run recount on the file for its reports";

/// Reads game `game` (1-based) of the SGF file at `path`, or the one game
/// of a file in another server's format ([`crate::ingest::translate`]);
/// of a compressed file or an archive's `member` (as `member` names it in
/// the reports), as a run reads them ([`read_packed`]).
///
/// # Errors
/// When the file cannot be read, holds no such game, or the game is not a
/// Go record recount can replay.
pub fn read_game(path: &Path, member: Option<&str>, game: u32) -> Result<GoRecord, InputError> {
    let file = std::fs::File::open(path).map_err(|source| InputError::Io {
        path: path.to_path_buf(),
        action: "open",
        source,
    })?;
    read_game_from(path, file, member, game)
}

/// [`read_game`] from `file`, the bytes of `path`: read once, so that a
/// caller who has read a pipe already hands its bytes on.
///
/// # Errors
/// As [`read_game`].
pub fn read_game_from(
    path: &Path,
    mut file: impl Read,
    member: Option<&str>,
    game: u32,
) -> Result<GoRecord, InputError> {
    let io = |action, source| InputError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let unusable = |message: String| InputError::Unusable {
        what: format!("game {game}"),
        message,
    };
    let mut head = Vec::new();
    (&mut file)
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(|e| io("read", e))?;
    if head.is_empty() {
        // As a run's error row says it.
        return Err(InputError::Unusable {
            what: format!("'{}'", path.display()),
            message: "empty file (0 bytes)".into(),
        });
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if member.is_some() || crate::ingest::paths::is_packed(&name, &head) {
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            // A pipe's first bytes are gone: it cannot be read again.
            return Err(InputError::Unusable {
                what: format!("'{}'", path.display()),
                message: "a compressed stream or an archive through a pipe; give the file \
                          itself (explain reads compressed files and archives)"
                    .into(),
            });
        }
        return read_packed(path, member, game);
    }
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
    let refused = match crate::ingest::sniff(&head) {
        crate::ingest::Content::Binary(why) => {
            Some(format!("binary data, not a game file ({why})"))
        }
        crate::ingest::Content::WideText => Some(crate::ingest::WIDE_TEXT.into()),
        crate::ingest::Content::Match(_) => Some(NOT_GO.into()),
        crate::ingest::Content::Go => None,
    };
    if let Some(message) = refused {
        return Err(InputError::Unusable {
            what: format!("'{}'", path.display()),
            message,
        });
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

/// Whether `path` is read through [`read_packed`]: a compressed file or an
/// archive (a regular file: a pipe's bytes are read once, by the caller),
/// or a member was named.
pub fn is_packed_input(path: &Path, member: Option<&str>) -> bool {
    if member.is_some() {
        return true;
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(512).read_to_end(&mut head));
    read.is_ok() && crate::ingest::paths::is_packed(&name, &head)
}

/// Game `game` of a compressed file, or of the archive member `member`
/// (nested ones as `inner.zip!/a.sgf`), read by the run's own reader so
/// that it is the game a run's row names.
fn read_packed(path: &Path, member: Option<&str>, game: u32) -> Result<GoRecord, InputError> {
    use crate::ingest::Payload;
    let (mut found, mut games) = (None, 0u32);
    // The other members seen (a member's units come together): a few
    // names to suggest and how many; and why the whole file failed.
    let (mut members, mut last) = (Members::default(), None::<String>);
    let mut whole_failure = None;
    each_unit(path, &mut |unit| {
        let here = unit.origin.member.as_deref();
        if here != member {
            match (here, unit.payload) {
                (Some(m), Payload::Tree(_) | Payload::Translated(..))
                    if last.as_deref() != Some(m) =>
                {
                    members.saw(m);
                    last = Some(m.to_string());
                }
                (None, Payload::Failed { reason, .. }) => whole_failure = Some(reason),
                _ => {}
            }
            return true;
        }
        games = games.max(unit.game);
        if unit.game == game || unit.game == 0 {
            found = Some(unit.payload);
            return false;
        }
        true
    });
    let what = match member {
        Some(m) => format!("member '{m}' of '{}'", path.display()),
        None => format!("'{}'", path.display()),
    };
    let unusable = |message: String| InputError::Unusable {
        what: what.clone(),
        message,
    };
    // The whole file failed: said of the file, not of a member.
    if let (None, Some(reason)) = (&found, whole_failure) {
        return Err(InputError::Unusable {
            what: format!("'{}'", path.display()),
            message: reason,
        });
    }
    let (bytes, notes) = match found {
        Some(Payload::Tree(bytes)) => (bytes, Vec::new()),
        Some(Payload::Translated(format, t)) => {
            let notes = [format.note()].into_iter().chain(t.notes).collect();
            (t.sgf, notes)
        }
        Some(Payload::Match(..)) => return Err(unusable(NOT_GO.into())),
        Some(Payload::Failed { reason, .. }) => return Err(unusable(reason)),
        None if games > 0 => {
            return Err(unusable(format!(
                "it holds {games} game(s); choose one with --game 1..{games}"
            )))
        }
        None if member.is_none() && members.count > 0 => {
            return Err(unusable(format!(
                "an archive; name the game's file with --member (the reports' member column), one of: {members}"
            )))
        }
        None if member.is_some() => {
            return Err(unusable(format!(
                "no such member holds a Go game; those that do: {members}"
            )))
        }
        None => return Err(unusable("no game in it".into())),
    };
    let tree = parse_tree(&bytes).map_err(|e| unusable(format!("game {game}: {e}")))?;
    let mut record = read_record(&tree).map_err(|e| unusable(format!("game {game}: {e}")))?;
    record.notes.splice(0..0, notes);
    Ok(record)
}

/// Hands `each` the units a run reads of the file `path` (its records,
/// an archive's members' records, or why it failed), until `each`
/// returns false: the single-game commands read a game as a run does.
fn each_unit(path: &Path, each: &mut dyn FnMut(crate::ingest::Unit) -> bool) {
    use crate::ingest::{read_entry, Entry, Progress, ReadLimits};
    let entry = Entry {
        path: path.to_path_buf(),
        problem: None,
        named: true,
        data: None,
        skip: false,
    };
    let limits = ReadLimits {
        max_game_bytes: 64 << 20,
    };
    let progress = std::sync::Arc::new(Progress::default());
    read_entry(&entry, limits, None, &progress, each);
}

/// The members of an archive that hold Go games: the first few names,
/// and how many.
#[derive(Default)]
struct Members {
    first: Vec<String>,
    count: usize,
}

impl Members {
    const SHOWN: usize = 5;

    fn saw(&mut self, name: &str) {
        if self.first.len() < Self::SHOWN {
            self.first.push(name.to_string());
        }
        self.count += 1;
    }
}

impl fmt::Display for Members {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("none");
        }
        f.write_str(&self.first.join(", "))?;
        if self.count > self.first.len() {
            write!(f, " and {} more", self.count - self.first.len())?;
        }
        Ok(())
    }
}

/// A game's file as the single-game commands name it: the file, and the
/// archive member when there is one.
fn shown(path: &Path, member: Option<&str>) -> String {
    match member {
        Some(m) => format!("{} member {m}", path.display()),
        None => path.display().to_string(),
    }
}
