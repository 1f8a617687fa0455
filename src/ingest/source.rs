//! One file or archive member: what it holds, decided once
//! ([`mod@super::sniff`], then [`super::goformats::detect`]), then its Go game
//! trees streamed one by one, or its backgammon match or other server's Go
//! record read whole.

use crate::ingest::goformats;
use crate::ingest::paths::uncompressed;
use crate::ingest::sniff::{sniff, Content, WIDE_TEXT};
use crate::ingest::{Origin, Payload, Progress, ReadLimits, Stage, Unit};
use crate::sgf::split::{split_trees, where_truncated, Chunk};
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Reads one file or member: sniffs what it is, then streams its game trees
/// (Go) or reads it whole (a backgammon match). `optional` is set for a
/// `.txt` file found in a directory or archive: when it is not a match it
/// is counted there as skipped. Returns `false` when `emit` asked to stop.
pub(crate) fn read_source(
    origin: &Arc<Origin>,
    reader: impl Read,
    size_hint: Option<u64>,
    limits: ReadLimits,
    optional: Option<&Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) -> bool {
    // Archive members are mostly a few KiB: a buffer sized to the member
    // avoids clearing 64 KiB for each of them.
    let capacity = size_hint.map_or(1 << 16, |n| (n as usize + 1).clamp(512, 1 << 16));
    let mut reader = BufReader::with_capacity(capacity, reader);
    let mut game = 0u32;
    let unit = |game: u32, payload| Unit {
        origin: Arc::clone(origin),
        game,
        first_of_source: game <= 1,
        payload,
    };
    let head = match reader.fill_buf() {
        Ok(h) => h,
        Err(e) => return emit(unit(0, failed(Stage::Read, format!("cannot read: {e}")))),
    };
    if head.is_empty() {
        return emit(unit(0, failed(Stage::Read, "empty file (0 bytes)".into())));
    }
    let content = sniff(head);
    let name = origin.member.as_deref().unwrap_or(&origin.path);
    // What a backgammon file's name promises and its content is not
    // (asked only of a file that fails).
    let not_a_match = || not_the_match_named(&uncompressed(name));
    if let Content::Binary(why) = content {
        let what = match not_a_match() {
            Some(what) => format!("{what} (binary data: {why})"),
            None => format!("binary data, not SGF: {why}"),
        };
        return emit(unit(0, failed(Stage::Parse, what)));
    }
    if content == Content::WideText {
        return emit(unit(0, failed(Stage::Parse, WIDE_TEXT.into())));
    }
    if let Content::Match(format) = content {
        let payload = match read_whole(&mut reader, capacity, limits, "match file") {
            Ok(bytes) => Payload::Match(format, bytes),
            Err(failure) => failure,
        };
        return emit(unit(1, payload));
    }
    if let Some(format) = goformats::detect(&uncompressed(name), head) {
        let payload = match read_whole(&mut reader, capacity, limits, "game file") {
            Ok(bytes) => match goformats::to_sgf(format, &bytes) {
                Ok(translated) => Payload::Translated(format, translated),
                Err(why) => failed(Stage::Parse, why),
            },
            Err(failure) => failure,
        };
        return emit(unit(1, payload));
    }
    if let Some(progress) = optional {
        progress.skipped.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    let mut go_on = true;
    let result = split_trees(&mut reader, limits.max_game_bytes, |chunk| {
        game += 1;
        let payload = match chunk {
            Chunk::Tree(bytes) => Payload::Tree(bytes),
            Chunk::TooLarge { bytes, limit } => failed(
                Stage::Read,
                format!(
                    "game tree is {:.1} MiB, over the {:.1} MiB limit (--max-game-mib); skipped",
                    mib(bytes),
                    mib(limit)
                ),
            ),
            Chunk::Truncated { inside_value, .. } => failed(
                Stage::Parse,
                format!("truncated SGF: {}", where_truncated(inside_value)),
            ),
        };
        go_on = emit(unit(game, payload));
        go_on
    });
    match result {
        Err(e) => {
            let after = if game == 0 {
                String::new()
            } else {
                format!(" after game {game}")
            };
            emit(unit(
                0,
                failed(Stage::Read, format!("read error{after}: {e}")),
            ))
        }
        Ok(outside) if game == 0 => {
            let what = match not_a_match() {
                Some(what) => what,
                None if outside.nul_bytes > 0 => "binary data, not SGF: no game tree '(;' found",
                None => "no SGF game tree '(;' found in the text",
            };
            emit(unit(
                0,
                failed(Stage::Parse, format!("{what} ({} bytes)", outside.bytes)),
            ))
        }
        Ok(_) => go_on,
    }
}

/// A file read whole, up to `--max-game-mib`; past it, the failure.
fn read_whole(
    reader: &mut impl Read,
    capacity: usize,
    limits: ReadLimits,
    what: &str,
) -> Result<Vec<u8>, Payload> {
    let mut bytes = Vec::with_capacity(capacity);
    let limit = limits.max_game_bytes;
    match reader.take(limit + 1).read_to_end(&mut bytes) {
        Err(e) => Err(failed(Stage::Read, format!("cannot read: {e}"))),
        Ok(_) if bytes.len() as u64 > limit => Err(failed(
            Stage::Read,
            format!(
                "{what} is over the {:.1} MiB limit (--max-game-mib); skipped",
                mib(limit)
            ),
        )),
        Ok(_) => Ok(bytes),
    }
}

fn failed(stage: Stage, reason: String) -> Payload {
    Payload::Failed { stage, reason }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// For a file whose name says it is a backgammon match (`.mat`, `.xg`…)
/// and whose content is none: what the name promised and the content
/// lacks (a `.txt` holds one or SGF).
fn not_the_match_named(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "mat" => "not a backgammon match file: no 'N point match' line and no 'Game N' line",
        "xg" | "xgp" => "not an eXtreme Gammon file: no 'RGMH' magic number at its start",
        "bgf" => "not a BGBlitz .bgf file: no header line naming its body's format",
        "fibs" => "not a FIBS oldmoves log: no 'Score is' line with the players' names",
        "sgg" => "not a GamesGrid .sgg log: no game lines as GamesGrid writes them",
        "tmg" => "not a TrueMoneyGames .tmg log: no game lines as TrueMoneyGames writes them",
        "txt" => {
            "neither a backgammon match or position (no 'N point match' or 'Game N' line, \
             no XGID, no Snowie fields) nor Go SGF (no game tree '(;')"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(data: &[u8]) -> Vec<String> {
        units_named("", data)
    }

    fn units_named(name: &str, data: &[u8]) -> Vec<String> {
        let origin = Arc::new(Origin {
            path: name.into(),
            member: None,
        });
        let mut out = Vec::new();
        read_source(
            &origin,
            data,
            None,
            ReadLimits {
                max_game_bytes: 1 << 20,
            },
            None,
            &mut |u| {
                out.push(match u.payload {
                    Payload::Tree(b) => format!("{} tree {}", u.game, b.len()),
                    Payload::Match(_, b) => format!("{} match {}", u.game, b.len()),
                    Payload::Translated(f, t) => {
                        format!("{} {f:?} {}", u.game, String::from_utf8_lossy(&t.sgf))
                    }
                    Payload::Failed { stage, reason } => format!("{} {stage:?}: {reason}", u.game),
                });
                true
            },
        );
        out
    }

    #[test]
    fn a_match_file_that_holds_none_says_what_its_name_promised() {
        let said = |name: &str, data: &[u8]| units_named(name, data).join("|");
        let e = said("a.mat", b"notes, no match here\n");
        assert!(e.contains("not a backgammon match file"), "{e}");
        let e = said("a.XG", b"\x01\x02\x03\0junk\0\0");
        assert!(
            e.contains("not an eXtreme Gammon file") && e.contains("binary"),
            "{e}"
        );
        let e = said("dir/b.bgf.gz", b"plain words");
        assert!(e.contains("not a BGBlitz"), "{e}");
        let e = said("n.txt", b"shopping list\n");
        assert!(e.contains("neither a backgammon match"), "{e}");
        // Other names, and a .mat that holds SGF, as before.
        let e = said("a.sgf", b"hello");
        assert!(e.contains("no SGF game tree"), "{e}");
        assert_eq!(said("a.mat", b"(;GM[1];B[aa])"), "1 tree 14");
    }

    #[test]
    fn sniffs_sources() {
        assert_eq!(units(b""), ["0 Read: empty file (0 bytes)"]);
        assert!(units(b"\x00\x01\x02junk")[0].starts_with("0 Parse: binary data"));
        assert!(units(b"hello")[0].contains("no SGF game tree"));
        assert_eq!(
            units(b"; [Player 1 \"a\"]\n 7 point match\n"),
            ["1 match 32"]
        );
        assert_eq!(units(b"(;FF[4]GM[6];B[52yeqs])"), ["1 match 23"]);
        assert_eq!(units(b"(;B[aa])(;W[bb]"), ["1 tree 8", "2 Parse: truncated SGF: the data ends before the game tree closes (a '(' is never closed)"]);
    }

    #[test]
    fn other_servers_formats_are_translated_whole() {
        assert_eq!(
            units(b"\\HS\n\\[GAMEBLACKNAME=a\\]\nSTO 0 1 1 3 3\n"),
            ["1 Gib (;GM[1]FF[4]SZ[19]PB[a];B[dd])"]
        );
        assert_eq!(
            units_named("in/x.ngf.gz", b"junk"),
            ["1 Parse: NGF line 2 '' is not a board size from 1 to 52"]
        );
        assert!(units(b"{\"moves\": [[1, 2, 3]]}")[0].starts_with("1 Ogs (;GM[1]"));
    }
}
