//! Tygem's `.gib`: a header of `\[KEY=VALUE\]` lines between `\HS` and
//! `\HE`, then the game between `\GS` and `\GE`: an `INI` line (its fourth
//! field the handicap) and one `STO 0 N C X Y` line per move (move `N` by
//! colour `C`, 1 Black and 2 White, at column `X`, row `Y` from the top
//! left, from 0).
//!
//! Learned from Sensei's Library's page "GIB" (the `GRLT`, `ZIPSU`,
//! `GONGJE` fields of `GAMEINFOMAIN`, the `W`, `Z`, `G`, `C` fields of
//! `GAMETAG`, `STO` lines), Sabaki's `src/modules/fileformats/gib.js` (the
//! `name (rank)` players, the handicap layout), and komu/gib2sgf's
//! `src/gib.rs` (`GAMEDATE` written `2020- 3-13-…`, `GAMEPLACE`, `SKI`
//! lines). What is read: players and ranks, komi, handicap (as Tygem lays
//! its stones), result, date, place, moves; a `SKI` line is a pass by the
//! player whose turn it is. GIB does not name its rules (`RU` is left
//! out: `--rules` applies) nor a board size (19×19); the clock fields
//! are not read.

use super::{margin_text, point, tygem_handicap, SgfOut, Stone, Translated};

/// The header's values, by key, first occurrence kept.
struct Header<'a> {
    fields: Vec<(&'a [u8], &'a [u8])>,
}

impl<'a> Header<'a> {
    fn get(&self, key: &str) -> Option<&'a [u8]> {
        self.fields
            .iter()
            .find(|(k, _)| *k == key.as_bytes())
            .map(|&(_, v)| v)
    }

    /// A `KEY:VALUE,KEY:VALUE` field's value (`GAMEINFOMAIN`).
    fn info(&self, field: &str, key: &str) -> Option<&'a [u8]> {
        self.get(field)?.split(|&c| c == b',').find_map(|item| {
            let (k, v) = split_once(item, b':')?;
            (k == key.as_bytes()).then_some(v)
        })
    }

    /// A `GAMETAG` item: its key is one letter before the value (`G65`).
    fn tag(&self, letter: u8) -> Option<&'a [u8]> {
        self.get("GAMETAG")?
            .split(|&c| c == b',')
            .find_map(|item| item.strip_prefix(&[letter][..]))
    }
}

fn split_once(b: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let i = b.iter().position(|&c| c == sep)?;
    Some((&b[..i], &b[i + 1..]))
}

fn number(b: &[u8]) -> Option<i64> {
    std::str::from_utf8(b).ok()?.trim().parse().ok()
}

/// `name (rank)` split; a name without a rank in brackets is all name.
fn name_and_rank(raw: &[u8]) -> (&[u8], &[u8]) {
    let raw = raw.trim_ascii();
    if raw.ends_with(b")") {
        if let Some(open) = raw.iter().rposition(|&c| c == b'(') {
            return (raw[..open].trim_ascii(), &raw[open + 1..raw.len() - 1]);
        }
    }
    (raw, b"")
}

/// `RE` from a result code and a margin in tenths of a point: 0 and 1 a
/// count won by Black or White, 3 and 4 a resignation, 7 and 8 a loss on
/// time (Sensei's Library, "GIB").
fn result(code: i64, tenths: Option<i64>) -> Option<String> {
    Some(match code {
        0 | 1 => {
            let who = if code == 0 { "B" } else { "W" };
            match tenths {
                Some(t) => format!("{who}+{}", margin_text(t as f64 / 10.0)),
                None => format!("{who}+"),
            }
        }
        3 => "B+R".into(),
        4 => "W+R".into(),
        7 => "B+T".into(),
        8 => "W+T".into(),
        _ => return None,
    })
}

/// A date as GIB writes it (`2020- 3-13-23-21-56` or `2016:03:26:17:29`):
/// its first three numbers as `YYYY-MM-DD`.
fn date(raw: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(raw).ok()?;
    let mut parts = text
        .split(['-', ':', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<u32>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

pub(super) fn to_sgf(bytes: &[u8]) -> Result<Translated, String> {
    let lines: Vec<&[u8]> = bytes
        .split(|&c| c == b'\n')
        .map(<[u8]>::trim_ascii)
        .collect();
    let header = Header {
        fields: lines
            .iter()
            .filter_map(|l| {
                let inner = l.strip_prefix(b"\\[")?.strip_suffix(b"\\]")?;
                split_once(inner, b'=')
            })
            .collect(),
    };
    let mut notes = Vec::new();
    let mut sgf = SgfOut::new(19, 19);
    for (name_key, nick_key, name_id, rank_id) in [
        ("GAMEBLACKNAME", "GAMEBLACKNICK", "PB", "BR"),
        ("GAMEWHITENAME", "GAMEWHITENICK", "PW", "WR"),
    ] {
        let (name, rank) = header
            .get(name_key)
            .map(name_and_rank)
            .unwrap_or((b"", b""));
        let name = if name.is_empty() {
            header.get(nick_key).unwrap_or_default()
        } else {
            name
        };
        sgf.text(name_id, name);
        sgf.text(rank_id, rank);
    }
    let komi = header
        .info("GAMEINFOMAIN", "GONGJE")
        .or_else(|| header.get("GAMEGONGJE"))
        .or_else(|| header.tag(b'G'))
        .and_then(number);
    if let Some(k) = komi {
        sgf.prop("KM", margin_text(k as f64 / 10.0).as_bytes());
    }
    let code = header
        .info("GAMEINFOMAIN", "GRLT")
        .map(|c| (c, header.info("GAMEINFOMAIN", "ZIPSU")))
        .or_else(|| header.tag(b'W').map(|c| (c, header.tag(b'Z'))));
    if let Some((code, tenths)) = code {
        match number(code).and_then(|c| result(c, tenths.and_then(number))) {
            Some(re) => sgf.prop("RE", re.as_bytes()),
            None => notes.push(format!(
                "GIB result code {} is not one we know; no result read",
                String::from_utf8_lossy(code)
            )),
        }
    }
    let when = header
        .get("GAMEDATE")
        .or_else(|| header.info("GAMEINFOSUB", "GDATE"))
        .or_else(|| header.tag(b'C'))
        .and_then(date);
    if let Some(d) = when {
        sgf.prop("DT", d.as_bytes());
    }
    sgf.text("PC", header.get("GAMEPLACE").unwrap_or_default());
    let mut handicap = 0;
    let mut next = Stone::Black;
    let mut moves = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let fields: Vec<&[u8]> = line
            .split(u8::is_ascii_whitespace)
            .filter(|f| !f.is_empty())
            .collect();
        let bad = |what: &str| {
            format!(
                "GIB line {}: {what}: '{}'",
                i + 1,
                String::from_utf8_lossy(line)
            )
        };
        match fields.first().copied() {
            Some(b"INI") => {
                let h = fields.get(3).and_then(|f| number(f));
                handicap = h.ok_or_else(|| bad("the handicap is not a number"))?;
                if handicap >= 2 {
                    next = Stone::White;
                }
            }
            Some(b"STO") => {
                let n = |k: usize| fields.get(k).and_then(|f| number(f));
                let stone = match n(3) {
                    Some(1) => Stone::Black,
                    Some(2) => Stone::White,
                    _ => return Err(bad("the colour is not 1 or 2")),
                };
                let (x, y) = n(4)
                    .zip(n(5))
                    .ok_or_else(|| bad("the point is not two numbers"))?;
                let at = u32::try_from(x)
                    .ok()
                    .zip(u32::try_from(y).ok())
                    .and_then(|(x, y)| point(x, y))
                    .ok_or_else(|| bad("the point is outside any board"))?;
                moves.push((stone, Some(at)));
                next = stone.other();
            }
            Some(b"SKI") => {
                moves.push((next, None));
                next = next.other();
            }
            _ => {}
        }
    }
    if header.fields.is_empty() && moves.is_empty() {
        return Err("GIB file with no header values and no moves".into());
    }
    if (2..=9).contains(&handicap) {
        sgf.prop("HA", handicap.to_string().as_bytes());
        sgf.points("AB", &tygem_handicap(handicap as u32));
    } else if handicap > 9 {
        notes.push(format!(
            "GIB handicap {handicap} has no Tygem layout; no handicap stones placed"
        ));
    }
    for (stone, at) in moves {
        sgf.play(stone, at);
    }
    Ok(sgf.finish(notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(gib: &str) -> String {
        String::from_utf8(to_sgf(gib.as_bytes()).unwrap().sgf).unwrap()
    }

    #[test]
    fn header_fields_and_moves() {
        let gib = "\\HS\r\n\\[GAMEBLACKNAME=kim (3D)\\]\r\n\\[GAMEWHITENAME=lee (2D)\\]\r\n\
            \\[GAMEINFOMAIN=GBKIND:3,GRLT:1,ZIPSU:35,GONGJE:65,TCNT:3\\]\r\n\
            \\[GAMEDATE=2020- 3-13-23-21-56\\]\r\n\\[GAMEPLACE=Tygem Baduk\\]\r\n\\HE\r\n\
            \\GS\r\n2 1 0\r\n3 0 &4\r\nINI 0 1 0 &4\r\nSTO 0 2 1 16 3\r\nSTO 0 3 2 15 16\r\nSKI 0 4\r\n\\GE\r\n";
        assert_eq!(
            sgf(gib),
            "(;GM[1]FF[4]SZ[19]PB[kim]BR[3D]PW[lee]WR[2D]KM[6.5]RE[W+3.5]DT[2020-03-13]PC[Tygem Baduk];B[qd];W[pq];B[])"
        );
    }

    #[test]
    fn gametag_fallbacks_and_handicap() {
        let gib = "\\HS\n\\[GAMEBLACKNICK=a]b\\]\n\\[GAMETAG=S1,R3,D5,G5,W3,Z0,T30-3-1200,C2016:03:26:17:29\\]\n\\HE\n\\GS\nINI 0 1 3 &4\nSTO 0 1 2 9 9\n\\GE\n";
        assert_eq!(
            sgf(gib),
            "(;GM[1]FF[4]SZ[19]PB[a\\]b]KM[0.5]RE[B+R]DT[2016-03-26]HA[3]AB[dp][pd][dd];W[jj])"
        );
    }

    #[test]
    fn malformed_lines_are_errors_not_empty_games() {
        assert!(to_sgf(b"\\HS\n\\HE\n")
            .unwrap_err()
            .contains("no header values"));
        let e = to_sgf(b"\\HS\n\\[GAMEBLACKNAME=a\\]\nSTO 0 1 3 1 1\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("colour"), "{e}");
        assert!(to_sgf(b"\\HS\n\\[G=a\\]\nSTO 0 1 1 x 1\n")
            .unwrap_err()
            .contains("two numbers"));
        assert!(to_sgf(b"\\HS\n\\[G=a\\]\nSTO 0 1 1 99 1\n")
            .unwrap_err()
            .contains("outside"));
        let t = to_sgf(b"\\HS\n\\[GAMEINFOMAIN=GRLT:5,ZIPSU:0\\]\nSTO 0 1 1 1 1\n").unwrap();
        assert_eq!(
            t.notes,
            ["GIB result code 5 is not one we know; no result read"]
        );
    }

    #[test]
    fn names_keep_their_bytes() {
        // EUC-KR bytes pass through untouched, for the charset detection.
        let gib = b"\\HS\n\\[GAMEBLACKNAME=\xb1\xe8\xc3\xb6 (9D)\\]\nSTO 0 1 1 3 3\n";
        let t = to_sgf(gib).unwrap();
        assert!(t.sgf.windows(8).any(|w| w == b"PB[\xb1\xe8\xc3\xb6]"));
    }
}
