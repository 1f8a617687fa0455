//! Go records in the other servers' formats — Tygem `.gib`, OGS's game
//! JSON, Pandanet `.ugf`/`.ugi`, WBaduk/Cyberoro `.ngf` — each turned into
//! one SGF game tree, so that replay, dead stones, scoring and every report
//! treat them as they treat SGF.
//!
//! Why SGF rather than a record built directly: SGF is the one input the
//! record reader ([`crate::go::record`]) knows, with its tolerances, its
//! notes (`HA` without setup stones, off-board points) and its charset
//! choice; a tree that says what the file says gets all of them, and
//! `--check-sgf` checks what was written. The translation is exact where
//! the format is: points as SGF writes them (`a`–`z`, then `A`–`Z`), text
//! values with `]` and `\` escaped, setup stones as `AB`/`AW`, dead stones
//! as `TB`/`TW` markup on the last node (what `--dead-stones markup`
//! reads). Text stays in the file's bytes (no `CA` written), so a GIB
//! file's EUC-KR or GBK names are decoded by [`crate::sgf::charset`]'s
//! detection, as an SGF file without `CA` is; OGS's JSON is UTF-8 and says
//! `CA[UTF-8]`.
//!
//! A file that is not what its format needs (no moves and no header, a
//! move line that cannot be read, JSON that does not parse) is an error
//! row with the reason, never an empty game.

mod gib;
mod ngf;
mod ogs;
mod ugf;

/// A Go record format other than SGF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoFormat {
    /// Tygem's `.gib`.
    Gib,
    /// Online-go.com's game JSON (`/api/v1/games/{id}` or its `gamedata`).
    Ogs,
    /// Pandanet's `.ugf` / `.ugi`.
    Ugf,
    /// WBaduk's (Cyberoro's) `.ngf`.
    Ngf,
}

impl GoFormat {
    /// The format as `notes` names it.
    pub fn name(self) -> &'static str {
        match self {
            GoFormat::Gib => "Tygem .gib",
            GoFormat::Ogs => "OGS game JSON",
            GoFormat::Ugf => "Pandanet .ugf",
            GoFormat::Ngf => "WBaduk .ngf",
        }
    }

    /// The note every record read from this format carries.
    pub fn note(self) -> String {
        format!("read from {} (translated to SGF)", self.name())
    }
}

/// The format a file holds, from its name (without compression suffixes)
/// and its first block: GIB opens with `\HS` or a `\[GAME…=` line, UGF
/// with its `[Header]` section, OGS's JSON is an object with `moves`,
/// `gamedata` or `initial_state`; NGF has no mark of its own and is told
/// by its `.ngf` name.
pub(crate) fn detect(name: &str, head: &[u8]) -> Option<GoFormat> {
    let start = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = start.trim_ascii_start();
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    if start.starts_with(b"\\HS") || start.starts_with(b"\\[GAME") {
        return Some(GoFormat::Gib);
    }
    if start.starts_with(b"[Header]") {
        return Some(GoFormat::Ugf);
    }
    if start.starts_with(b"{")
        && (has(b"\"moves\"") || has(b"\"gamedata\"") || has(b"\"initial_state\""))
    {
        return Some(GoFormat::Ogs);
    }
    // A `.ngf` that is not one is an error row that says why.
    name.to_ascii_lowercase()
        .ends_with(".ngf")
        .then_some(GoFormat::Ngf)
}

/// A file translated: its SGF game tree, and what the translation could
/// not say in SGF (for the record's `notes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub sgf: Vec<u8>,
    pub notes: Vec<String>,
}

/// Translates a whole file of `format` into one SGF game tree.
///
/// # Errors
/// Why the file is not a record of its format.
pub(crate) fn to_sgf(format: GoFormat, bytes: &[u8]) -> Result<Translated, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match format {
        GoFormat::Gib => gib::to_sgf(bytes),
        GoFormat::Ogs => ogs::to_sgf(bytes),
        GoFormat::Ugf => ugf::to_sgf(bytes),
        GoFormat::Ngf => ngf::to_sgf(bytes),
    }
}

/// A whole file named `name` translated, when it holds one of these
/// formats: for the commands that read one game of one file (`recount
/// explain`, `recount zones`).
pub fn translate(name: &str, bytes: &[u8]) -> Option<(GoFormat, Result<Translated, String>)> {
    let head = &bytes[..bytes.len().min(1 << 16)];
    let format = detect(name, head)?;
    Some((format, to_sgf(format, bytes)))
}

/// A player's colour, as the formats say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stone {
    Black,
    White,
}

impl Stone {
    fn letter(self) -> &'static str {
        match self {
            Stone::Black => "B",
            Stone::White => "W",
        }
    }

    fn other(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// Largest side SGF coordinates can name.
const MAX_SIDE: u32 = 52;

/// An SGF coordinate letter: 0–25 are `a`–`z`, 26–51 `A`–`Z`.
fn letter(v: u32) -> Option<u8> {
    match v {
        0..=25 => Some(b'a' + v as u8),
        26..=51 => Some(b'A' + (v - 26) as u8),
        _ => None,
    }
}

/// A point `(column, row)` from the top left, as SGF writes it; `None`
/// when SGF cannot name it.
fn point(x: u32, y: u32) -> Option<[u8; 2]> {
    Some([letter(x)?, letter(y)?])
}

/// Points written as SGF pairs one after another (`"pddp"`, OGS's
/// `initial_state` and `removed`), checked to be letters SGF knows.
fn pairs(text: &str) -> Result<Vec<[u8; 2]>, String> {
    let b = text.trim().as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(format!("'{text}' is not a list of coordinate pairs"));
    }
    b.chunks(2)
        .map(|c| {
            if c.iter().all(u8::is_ascii_alphabetic) {
                Ok([c[0], c[1]])
            } else {
                Err(format!("'{text}' is not a list of coordinate pairs"))
            }
        })
        .collect()
}

/// An SGF game tree written property by property: a root node, then one
/// node per move.
struct SgfOut {
    out: Vec<u8>,
}

impl SgfOut {
    /// The root node, `GM[1]FF[4]` and the board's size.
    fn new(width: u32, height: u32) -> SgfOut {
        let mut s = SgfOut {
            out: b"(;GM[1]FF[4]".to_vec(),
        };
        let size = if width == height {
            width.to_string()
        } else {
            format!("{width}:{height}")
        };
        s.prop("SZ", size.as_bytes());
        s
    }

    /// One property with one value, `]` and `\` escaped.
    fn prop(&mut self, id: &str, value: &[u8]) {
        self.out.extend_from_slice(id.as_bytes());
        self.value(value);
    }

    /// A text property, left out when empty.
    fn text(&mut self, id: &str, value: &[u8]) {
        let value = value.trim_ascii();
        if !value.is_empty() {
            self.prop(id, value);
        }
    }

    fn value(&mut self, value: &[u8]) {
        self.out.push(b'[');
        for &c in value {
            if c == b']' || c == b'\\' {
                self.out.push(b'\\');
            }
            self.out.push(c);
        }
        self.out.push(b']');
    }

    /// A list of points (`AB`, `TB`…), left out when empty.
    fn points(&mut self, id: &str, points: &[[u8; 2]]) {
        if points.is_empty() {
            return;
        }
        self.out.extend_from_slice(id.as_bytes());
        for p in points {
            self.value(p);
        }
    }

    /// A move in a node of its own; `None` is a pass.
    fn play(&mut self, stone: Stone, at: Option<[u8; 2]>) {
        self.out.push(b';');
        self.out.extend_from_slice(stone.letter().as_bytes());
        self.value(at.as_ref().map_or(&[][..], |p| &p[..]));
    }

    /// The game tree, closed, with the translation's `notes`.
    fn finish(mut self, notes: Vec<String>) -> Translated {
        self.out.push(b')');
        Translated {
            sgf: self.out,
            notes,
        }
    }
}

/// The tygem (and WBaduk) handicap layout on a 19×19 board, as Sabaki's
/// `@sabaki/go-board` (`getHandicapPlacement` with `tygem`) places it:
/// the third stone in the upper left corner, not the lower right.
fn tygem_handicap(stones: u32) -> Vec<[u8; 2]> {
    let (near, far, mid) = (3, 15, 9);
    let mut at = vec![(near, far), (far, near), (near, near), (far, far)];
    if stones == 5 {
        at.push((mid, mid));
    }
    at.extend([(near, mid), (far, mid)]);
    if stones == 7 {
        at.push((mid, mid));
    }
    at.extend([(mid, near), (mid, far), (mid, mid)]);
    at.truncate(stones as usize);
    at.into_iter().filter_map(|(x, y)| point(x, y)).collect()
}

/// A Unix time (seconds) as the UTC date `YYYY-MM-DD`.
fn unix_date(seconds: i64) -> String {
    let (y, m, d) = crate::text::civil_from_days(seconds.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// A margin as SGF writes it: `3.5`, `12` (not `12.0`).
fn margin_text(m: f64) -> String {
    if m.fract() == 0.0 {
        format!("{m:.0}")
    } else {
        m.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_their_first_bytes_and_ngf_by_name() {
        assert_eq!(
            detect("x", b"\\HS\r\n\\[GAMEBLACKNAME=a\\]"),
            Some(GoFormat::Gib)
        );
        assert_eq!(
            detect("x", b"\xEF\xBB\xBF[Header]\nSize=19"),
            Some(GoFormat::Ugf)
        );
        assert_eq!(detect("x", b" {\"moves\": []}"), Some(GoFormat::Ogs));
        assert_eq!(detect("x", b"{\"name\": 1}"), None);
        assert_eq!(detect("x", b"(;GM[1])"), None);
        let ngf = b"game\n19\nw 3D\nb 2D\n\n0\n\n6\n20200101\n";
        assert_eq!(detect("a.NGF", ngf), Some(GoFormat::Ngf));
        assert_eq!(detect("a.txt", ngf), None);
    }

    #[test]
    fn values_are_escaped_and_points_lettered() {
        let mut s = SgfOut::new(19, 19);
        s.text("PB", b" a]b\\c ");
        s.text("PW", b"");
        s.points("AB", &[point(3, 15).unwrap()]);
        s.play(Stone::White, point(26, 0));
        s.play(Stone::Black, None);
        assert_eq!(
            String::from_utf8(s.finish(Vec::new()).sgf).unwrap(),
            "(;GM[1]FF[4]SZ[19]PB[a\\]b\\\\c]AB[dp];W[Aa];B[])"
        );
        assert_eq!(point(52, 0), None);
        assert!(pairs("pdd").is_err() && pairs("p1").is_err());
        assert_eq!(pairs("pddp").unwrap(), [*b"pd", *b"dp"]);
    }

    #[test]
    fn tygem_layout_and_dates() {
        let three: Vec<String> = tygem_handicap(3)
            .iter()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        assert_eq!(three, ["dp", "pd", "dd"]);
        assert_eq!(tygem_handicap(5)[4], *b"jj");
        assert_eq!(tygem_handicap(9).len(), 9);
        assert_eq!(unix_date(1_563_570_060), "2019-07-19");
        assert_eq!(unix_date(0), "1970-01-01");
        assert_eq!(margin_text(12.0), "12");
        assert_eq!(margin_text(3.5), "3.5");
    }
}
