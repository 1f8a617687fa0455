//! What a file holds, judged from its first block: the one place recount
//! decides between binary data, a backgammon match (which format) and Go
//! SGF.

use crate::ingest::MatchFormat;

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Not text: why.
    Binary(String),
    /// UTF-16 or UTF-32 text (a byte-order mark first): not read
    /// ([`WIDE_TEXT`] says what to do).
    WideText,
    /// A backgammon match: eXtreme Gammon's binary file (its `RGMH` magic
    /// number), a BGBlitz `.bgf` (a JSON header line naming the body's
    /// compression or encoding, or gzip or SMILE data after it), a FIBS oldmoves log (a `Score is` line and an `X`/`O`
    /// names line, no SGF tree), a GamesGrid `.sgg` or TrueMoneyGames `.tmg`
    /// log (their `Game` lines), a Snowie text position (40 `;` fields),
    /// an XG text position (an `XGID=` line first), a BGBlitz one (its
    /// board diagram and `Position-ID:` line), a
    /// `.mat` export ("N point match" and no SGF tree) or GNU
    /// Backgammon's SGF (`GM[6]` in the first tree's root), in the format
    /// its first character says (an SGF tree opens with `(`).
    Match(MatchFormat),
    /// Go SGF (or anything else, judged game tree by game tree).
    Go,
}

/// Why a UTF-16 or UTF-32 file is not read, and what to do.
pub const WIDE_TEXT: &str = "UTF-16 or UTF-32 text (it starts with a byte-order mark), which \
     recount does not read: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)";

/// Decides what a file holds from its first block `head`.
pub fn sniff(head: &[u8]) -> Content {
    // UTF-32 LE's mark begins with UTF-16 LE's.
    let marks: [&[u8]; 3] = [b"\xFF\xFE", b"\xFE\xFF", b"\x00\x00\xFE\xFF"];
    if marks.iter().any(|m| head.starts_with(m)) {
        return Content::WideText;
    }
    if head.starts_with(b"RGMH") {
        return Content::Match(MatchFormat::Xg);
    }
    if looks_like_bgf(head) {
        return Content::Match(MatchFormat::Bgf);
    }
    if let Some(why) = looks_binary(head) {
        return Content::Binary(why);
    }
    let text = &head[..head.len().min(4096)];
    let sgf = text.windows(2).any(|w| w == b"(;");
    if looks_like_snowie_txt(text) {
        return Content::Match(MatchFormat::SnowieTxt);
    }
    if !sgf && looks_like_xg_txt(text) {
        return Content::Match(MatchFormat::XgTxt);
    }
    if !sgf && looks_like_bgblitz_txt(text) {
        return Content::Match(MatchFormat::BgBlitzTxt);
    }
    if !sgf && looks_like_sgg(text) {
        return Content::Match(MatchFormat::Sgg);
    }
    if !sgf && looks_like_tmg(text) {
        return Content::Match(MatchFormat::Tmg);
    }
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

/// A BGBlitz `.bgf` match: a first line that is a JSON object naming how
/// the body is stored (`"compression"`, `"encoding"`, or bgfparser's
/// `"compress"`, `"useSmile"`), or followed by gzip data or SMILE's `:)`
/// header.
fn looks_like_bgf(head: &[u8]) -> bool {
    let Some(nl) = head.iter().take(4096).position(|&b| b == b'\n') else {
        return false;
    };
    let line = head[..nl].trim_ascii();
    if !(line.starts_with(b"{") && line.ends_with(b"}")) {
        return false;
    }
    let body = &head[nl + 1..];
    let names: [&[u8]; 4] = [
        b"\"compression\"",
        b"\"encoding\"",
        b"\"compress\"",
        b"\"useSmile\"",
    ];
    names.iter().any(|n| line.windows(n.len()).any(|w| w == *n))
        || body.starts_with(&[0x1F, 0x8B])
        || body.starts_with(b":)\n")
}

/// The lines of `head`, trimmed.
fn lines(head: &[u8]) -> impl Iterator<Item = &[u8]> {
    head.split(|&b| b == b'\n').map(<[u8]>::trim_ascii)
}

/// `Game 12` then `sep`, a space and a digit: a GamesGrid (`Game 1. 0-0/7`,
/// `sep` `.`) or TrueMoneyGames (`Game 1: 0-0`, `sep` `:`) game line.
fn game_line(l: &[u8], sep: u8) -> bool {
    let Some(rest) = l.strip_prefix(b"Game ") else {
        return false;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0
        && rest.get(digits) == Some(&sep)
        && rest.get(digits + 1) == Some(&b' ')
        && rest.get(digits + 2).is_some_and(u8::is_ascii_digit)
}

/// A Snowie text position: a first line of fields separated by `;` (40
/// of them; 20 are enough here, so that a cut or garbled one reaches the
/// reader, which says what is wrong), the first five numbers.
fn looks_like_snowie_txt(head: &[u8]) -> bool {
    let Some(first) = lines(head).find(|l| !l.is_empty()) else {
        return false;
    };
    let fields: Vec<&[u8]> = first.split(|&b| b == b';').collect();
    fields.len() >= 20
        && fields[..5].iter().all(|f| {
            let f = f.trim_ascii();
            let f = f.strip_prefix(b"-").unwrap_or(f);
            !f.is_empty() && f.iter().all(u8::is_ascii_digit)
        })
}

/// An eXtreme Gammon text position: the first line that is not blank
/// opens with `XGID=`, or (a note pasted above it) a line opens with
/// `XGID=` and another with `eXtreme Gammon Version:`.
fn looks_like_xg_txt(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let xgid = |l: &[u8]| l.starts_with(b"XGID=");
    lines(head).find(|l| !l.is_empty()).is_some_and(xgid)
        || (lines(head).any(xgid) && lines(head).any(|l| l.starts_with(b"eXtreme Gammon Version:")))
}

/// A BGBlitz text position: a diagram's header line (points 13 to 18
/// first) and a `Position-ID:` line; or a header line first (so that a
/// diagram cut before its IDs reaches the reader, which says what is
/// wrong).
fn looks_like_bgblitz_txt(head: &[u8]) -> bool {
    let header = |l: &[u8]| l.starts_with(b"+13-14-15-16-17-18");
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    lines(head).find(|l| !l.is_empty()).is_some_and(header)
        || (lines(head).any(header) && lines(head).any(|l| l.starts_with(b"Position-ID:")))
}

/// A GamesGrid `.sgg` log: an `A vs. B` line and a `Game 1. 0-0/7` line
/// or one of GamesGrid's option lines (so that a log cut before its first
/// game reaches the reader, which says what is missing).
fn looks_like_sgg(head: &[u8]) -> bool {
    let option = |l: &[u8]| {
        [
            &b"Crawford: "[..],
            b"Jacoby: ",
            b"Doubling Cube: ",
            b"Match Length: ",
        ]
        .iter()
        .any(|o| l.starts_with(o))
    };
    // A player's name may be empty: `vs. bob`.
    lines(head).any(|l| l.starts_with(b"vs. ") || l.windows(4).any(|w| w == b" vs."))
        && lines(head).any(|l| game_line(l, b'.') || option(l))
}

/// A TrueMoneyGames `.tmg` log: a `Game 1: 0-0` line and a record line
/// (`-3 4 13/9 24/23`: a number, a record type, text).
fn looks_like_tmg(head: &[u8]) -> bool {
    let record = |l: &[u8]| {
        let l = l.strip_prefix(b"-").unwrap_or(l);
        let n = l.iter().take_while(|b| b.is_ascii_digit()).count();
        let rest = &l[n..];
        let gap = rest.iter().take_while(|b| **b == b' ').count();
        let k = rest[gap..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        n > 0 && gap > 0 && k > 0 && rest.get(gap + k) == Some(&b' ')
    };
    lines(head).any(|l| game_line(l, b':')) && lines(head).any(record)
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
/// and no SGF tree, or a first line that is one of the tags gnubg and XG
/// write above it (`; [Player 1 "ann"]`), so that a file cut short after
/// them reaches the reader, which says what is missing.
fn looks_like_match_file(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    let has = |needle: &[u8]| {
        head.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    !has(b"(;") && (has(b"point match") || lines(head).find(|l| !l.is_empty()).is_some_and(mat_tag))
}

/// A `.mat` export's tag line: `; [Name "value"]`, the name one of those
/// gnubg and XG write.
fn mat_tag(line: &[u8]) -> bool {
    const NAMES: [&str; 13] = [
        "Site",
        "Match ID",
        "Player 1",
        "Player 2",
        "Event",
        "EventDate",
        "EventTime",
        "Round",
        "Variation",
        "Unrated",
        "Crawford",
        "CubeLimit",
        "Jacoby",
    ];
    let Some(tag) = line.strip_prefix(b"; [").and_then(|t| t.strip_suffix(b"]")) else {
        return false;
    };
    NAMES.iter().any(|n| {
        tag.strip_prefix(n.as_bytes())
            .is_some_and(|rest| rest.starts_with(b" \"") && rest.ends_with(b"\""))
    })
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
        for bom in [
            &b"\xFF\xFE(\0;\0"[..],
            b"\xFE\xFF\0(\0;",
            b"\0\0\xFE\xFF\0\0\0(",
        ] {
            assert_eq!(sniff(bom), Content::WideText);
        }
    }

    #[test]
    fn bgblitz_files_by_their_header_line() {
        let bgf = Content::Match(MatchFormat::Bgf);
        let header = br#"{"version":"1","compression":"gzip","encoding":"smile"}"#;
        assert_eq!(sniff(&[&header[..], b"\n\x1f\x8b\x08\0\0"].concat()), bgf);
        assert_eq!(
            sniff(b"{\"format\":\"BGF\",\"compress\":false,\"useSmile\":false}\n{}"),
            bgf
        );
        assert_eq!(sniff(b"{\"format\":\"BGF\"}\n:)\n\x03\xfa"), bgf);
        // Other JSON (an OGS game) is not one.
        assert_eq!(sniff(b"{\"game_id\": 1}\n"), Content::Go);
        assert_eq!(sniff(b"{\"game_id\": 1,\n\"encoding\": 2}"), Content::Go);
    }

    #[test]
    fn snowie_positions_by_their_forty_fields() {
        let mut f = vec!["0"; 40];
        (f[5], f[6]) = ("ann", "");
        f[13] = "-2";
        let line = f.join(";");
        assert_eq!(
            sniff(line.as_bytes()),
            Content::Match(MatchFormat::SnowieTxt)
        );
        // Cut short, or a field garbled: still the reader's to refuse.
        let snowie = Content::Match(MatchFormat::SnowieTxt);
        assert_eq!(sniff(f[..30].join(";").as_bytes()), snowie);
        assert_eq!(sniff(f[..10].join(";").as_bytes()), Content::Go);
        f[2] = "x";
        assert_eq!(sniff(f.join(";").as_bytes()), Content::Go);
    }

    #[test]
    fn bgblitz_and_xg_text_positions_by_their_first_lines() {
        let xg = Content::Match(MatchFormat::XgTxt);
        let bgblitz = Content::Match(MatchFormat::BgBlitzTxt);
        let id = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10";
        assert_eq!(sniff(format!("\n{id}\n\nX:a   O:b\n").as_bytes()), xg);
        assert_eq!(sniff(format!("\u{feff}{id}").as_bytes()), xg);
        let noted = format!("a note\n{id}\n\neXtreme Gammon Version: 2.10\n");
        assert_eq!(sniff(noted.as_bytes()), xg);
        let header = " +13-14-15-16-17-18------19-20-21-22-23-24-+   O: b  167\n";
        assert_eq!(sniff(header.as_bytes()), bgblitz);
        let quoted =
            format!("a note\n{header} Position-ID: 4HPwATDgc/ABMA    Match-ID: cAkgAAAAAAAA\n");
        assert_eq!(sniff(quoted.as_bytes()), bgblitz);
        // A .mat export quoting an XGID in a comment stays a .mat.
        assert_eq!(
            sniff(format!("; {id}\n 7 point match\n Game 1\n").as_bytes()),
            Content::Match(MatchFormat::Mat)
        );
    }

    #[test]
    fn a_mat_export_cut_after_its_tags_is_still_a_match() {
        let mat = Content::Match(MatchFormat::Mat);
        let tags = "; [Site \"BackgammonGalaxy\"]\n; [Match ID \"917002\"]\n; [Player 1 \"ann\"";
        assert_eq!(sniff(tags.as_bytes()), mat);
        assert_eq!(sniff(b"\n; [Player 1 \"ann\"]\n"), mat);
        // Tags gnubg does not write, or not first, are not enough.
        assert_eq!(sniff(b"; [Colour \"red\"]\n"), Content::Go);
        assert_eq!(sniff(b"notes\n; [Site \"x\"]\n"), Content::Go);
        assert_eq!(sniff(b"; [Site x]\n"), Content::Go);
    }

    #[test]
    fn gamesgrid_and_truemoneygames_logs_by_their_game_lines() {
        let sgg = b"ann vs. bob\nCrawford: Yes\nGame 1. 0-0/7\n1\t31:\n";
        assert_eq!(sniff(sgg), Content::Match(MatchFormat::Sgg));
        let tmg = b"Player1: 1 ann 1500\n\nGame 1: 0-0\n -1 1 31:\n -1 4 8/5 6/5\n";
        assert_eq!(sniff(tmg), Content::Match(MatchFormat::Tmg));
        assert_eq!(sniff(b"Game 1: 0-0\nnothing else\n"), Content::Go);
        assert_eq!(
            sniff(b"ann vs. bob\nJacoby: No\n"),
            Content::Match(MatchFormat::Sgg)
        );
        assert_eq!(sniff(b"(;GM[1]C[ann vs. bob])"), Content::Go);
        assert_eq!(
            sniff(b" vs. bob\nGame 1. 0-0/1\n"),
            Content::Match(MatchFormat::Sgg)
        );
        assert_eq!(
            sniff(b" 7 point match\n Game 1\n"),
            Content::Match(MatchFormat::Mat)
        );
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
