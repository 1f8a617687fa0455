//! What a file holds, judged from its first block: the one place recount
//! decides between binary data, a backgammon match (which format) and Go
//! SGF.

use crate::ingest::MatchFormat;

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Not text: why.
    Binary(String),
    /// A backgammon match: a `.mat` export ("N point match" and no SGF
    /// tree) or GNU Backgammon's SGF (`GM[6]` in the first 4 KiB), in the
    /// format its first character says (an SGF tree opens with `(`).
    Match(MatchFormat),
    /// Go SGF (or anything else, judged game tree by game tree).
    Go,
}

/// Decides what a file holds from its first block `head`.
pub fn sniff(head: &[u8]) -> Content {
    if let Some(why) = looks_binary(head) {
        return Content::Binary(why);
    }
    if !(looks_like_match_file(head) || looks_like_bg_sgf(head)) {
        return Content::Go;
    }
    let start = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = start.iter().find(|b| !b.is_ascii_whitespace());
    Content::Match(if first == Some(&b'(') {
        MatchFormat::GnubgSgf
    } else {
        MatchFormat::Mat
    })
}

/// SGF is text: NUL bytes, or many control bytes, in the first block of a
/// file mean binary data (an image, an executable, a compressed file with
/// the wrong name).
fn looks_binary(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(8192)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c))
        .count();
    if head.contains(&0) || control * 20 > head.len() {
        Some(format!(
            "{control} control bytes in the first {} bytes",
            head.len()
        ))
    } else {
        None
    }
}

/// GNU Backgammon's SGF: `GM[6]` in the first game tree's root.
fn looks_like_bg_sgf(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    head.windows(5).any(|w| w == b"GM[6]")
}

/// A Jellyfish / GNU Backgammon `.mat` export: "N point match" near the top
/// and no SGF tree.
fn looks_like_match_file(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    let has = |needle: &[u8]| {
        head.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    !has(b"(;") && has(b"point match")
}
