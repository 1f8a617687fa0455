//! What a file holds, judged from its first block: the one place recount
//! decides between binary data, a backgammon match (which format) and Go
//! SGF.

use crate::ingest::MatchFormat;

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Not text: why.
    Binary(String),
    /// A backgammon match: eXtreme Gammon's binary file (its `RGMH` magic
    /// number), a FIBS oldmoves log (a `Score is` line and an `X`/`O`
    /// names line, no SGF tree), a `.mat` export ("N point match" and no SGF tree) or GNU
    /// Backgammon's SGF (`GM[6]` in the first tree's root), in the format
    /// its first character says (an SGF tree opens with `(`).
    Match(MatchFormat),
    /// Go SGF (or anything else, judged game tree by game tree).
    Go,
}

/// Decides what a file holds from its first block `head`.
pub fn sniff(head: &[u8]) -> Content {
    if head.starts_with(b"RGMH") {
        return Content::Match(MatchFormat::Xg);
    }
    if let Some(why) = looks_binary(head) {
        return Content::Binary(why);
    }
    let text = &head[..head.len().min(4096)];
    let sgf = text.windows(2).any(|w| w == b"(;");
    if !sgf && looks_like_oldmoves(text) {
        return Content::Match(MatchFormat::Oldmoves);
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

/// A FIBS oldmoves log: a line opening `Score is ` and a names line
/// `NAME is X - NAME is O` (the first name may be empty).
fn looks_like_oldmoves(head: &[u8]) -> bool {
    let lines = || head.split(|&b| b == b'\n').map(<[u8]>::trim_ascii);
    lines().any(|l| l.starts_with(b"Score is "))
        && lines().any(|l| {
            l.ends_with(b" is O")
                && (l.starts_with(b"is X - ") || l.windows(8).any(|w| w == b" is X - "))
        })
}

/// GNU Backgammon's SGF: the first game tree's root says `GM[6]`. Only
/// that property counts: a `GM[6]` inside a value (a comment) or in a
/// later tree does not make the file a match.
fn looks_like_bg_sgf(head: &[u8]) -> bool {
    root_gm(head).is_some_and(|gm| gm.trim_ascii() == b"6")
}

/// The first value of `GM` in the root node of the first game tree in
/// `head` (the root read property by property, values skipped whole).
fn root_gm(head: &[u8]) -> Option<&[u8]> {
    let mut i = head.iter().position(|&b| b == b'(')? + 1;
    let skip_ws = |i: &mut usize| {
        while head.get(*i).is_some_and(u8::is_ascii_whitespace) {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if head.get(i) != Some(&b';') {
        return None;
    }
    i += 1;
    loop {
        skip_ws(&mut i);
        let start = i;
        while head.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        let ident = crate::sgf::reader::Ident::from_written(&head[start..i]);
        skip_ws(&mut i);
        if head.get(i) != Some(&b'[') {
            // The end of the root node (`;`, `(`, `)`), stray text, or the
            // end of the block.
            if i == start && i < head.len() && !matches!(head[i], b';' | b'(' | b')') {
                i += 1;
                continue;
            }
            return None;
        }
        let mut first: Option<&[u8]> = None;
        while head.get(i) == Some(&b'[') {
            let open = i + 1;
            i = open;
            loop {
                match head.get(i)? {
                    b'\\' => i += 2,
                    b']' => break,
                    _ => i += 1,
                }
            }
            first.get_or_insert(&head[open..i]);
            i += 1;
            skip_ws(&mut i);
        }
        if ident.is("GM") {
            return first;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_roots_gm_decides() {
        let bg = Content::Match(MatchFormat::GnubgSgf);
        assert_eq!(sniff(b"(;FF[4]GM[6];B[52yeqs])"), bg);
        assert_eq!(
            sniff(b"\xEF\xBB\xBF ( ; FF[4] C[a \\] b] gm [6];W[31])"),
            bg
        );
        assert_eq!(
            sniff(b"(;GM[1]FF[4];B[aa])(;GM[6]FF[4])(;GM[3])"),
            Content::Go
        );
        assert_eq!(
            sniff(b"(;GM[1]C[see GM[6\\] and GM[6]];B[aa])"),
            Content::Go
        );
        assert_eq!(sniff(b"(;C[GM[6]];B[aa])"), Content::Go);
        assert_eq!(sniff(b"(;FF[4];GM[6])"), Content::Go);
        assert_eq!(sniff(b"(;FF[4]C[never closed GM[6]"), Content::Go);
        assert_eq!(root_gm(b"(;FF[4] 12 GM[6])"), Some(&b"6"[..]));
    }

    #[test]
    fn xg_files_by_their_magic_number() {
        let xg = Content::Match(MatchFormat::Xg);
        assert_eq!(sniff(b"RGMH\x01\0\0\0\x28\x20\0\0"), xg);
        assert!(matches!(sniff(b"RGM\0\x01\0\0\0"), Content::Binary(_)));
    }

    #[test]
    fn oldmoves_logs_by_their_score_and_names_lines() {
        let log = b"Score is 0-0 in a 5 point match.\n  ann is X - bob is O\nX: (3 1) 8-5 6-5\n";
        assert_eq!(sniff(log), Content::Match(MatchFormat::Oldmoves));
        let empty_name = b"Score is 0-0 in a 1 point match.\n   is X - bob is O\n";
        assert_eq!(sniff(empty_name), Content::Match(MatchFormat::Oldmoves));
        // A .mat export that quotes one in a comment is still a .mat.
        assert_eq!(
            sniff(b"; Score is 1-0 ann is X - bob is O\n 5 point match\n Game 1\n"),
            Content::Match(MatchFormat::Mat)
        );
    }
}
