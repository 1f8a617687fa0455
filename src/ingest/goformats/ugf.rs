//! Pandanet's `.ugf` / `.ugi`: sections opened by `[Header]`, `[Data]`,
//! `[Figure]`…; the header `Key=value` lines, the data one move a line,
//! `PD,B1,12,30`: the point as two letters (`A` the first column and
//! row), the colour and player number, the move number (0 for a stone
//! set before the game: handicap), the seconds used.
//!
//! Learned from Sabaki's `src/modules/fileformats/ugf.js` (`PlayerB`,
//! `Hdcp`, `Winner`, the rows counted from the bottom) and Andries
//! Brouwer's `ugi2sgf.c` (`CoordinateType`: `IGS` counts rows from the
//! bottom, `JPN` from the top; passes as `Y`/`Z` points; `Winner`'s
//! codes: `C` a resignation, `F` a forfeit, `D` a draw, `N` no result;
//! `Rule=JPN`; `Date` as `YYYY/MM/DD,…`; `Title`, `Place`). Read:
//! players and ranks, size, handicap and komi, rules, result, date,
//! place, title (as the event), setup stones and moves. Not read: the
//! `[Figure]` commentary, times, pictures. Rows count from the bottom
//! unless `CoordinateType` says `JPN`.

use super::{point, SgfOut, Stone, Translated, MAX_SIDE};

fn split(v: &[u8]) -> Vec<&[u8]> {
    v.split(|&c| c == b',').map(<[u8]>::trim_ascii).collect()
}

/// `RE` from `Winner=W,4.5`, `B,C`, `W,F`, `D`, `N`.
fn result(winner: &[u8]) -> Option<String> {
    let f = split(winner);
    let how = f.get(1).copied().unwrap_or_default();
    match f.first().copied()? {
        who @ (b"B" | b"W") => {
            let who = char::from(who[0]);
            let how = match how {
                b"C" | b"c" => "R".to_string(),
                _ if how.starts_with(b"F") => "F".to_string(),
                _ => String::from_utf8_lossy(how).into_owned(),
            };
            Some(format!("{who}+{how}"))
        }
        b"D" => Some("Draw".into()),
        // `N1,E`, `N1,`: no result (a triple ko).
        code if code.starts_with(b"N") => Some("Void".into()),
        _ => None,
    }
}

/// `YYYY/MM/DD` as `YYYY-MM-DD`.
fn date(raw: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(split(raw).first()?).ok()?;
    let mut p = text.split('/').map(|n| n.trim().parse::<u32>().ok());
    let (y, m, d) = (p.next()??, p.next()??, p.next()??);
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

pub(super) fn to_sgf(bytes: &[u8]) -> Result<Translated, String> {
    let mut section: &[u8] = b"";
    let mut header: Vec<(&[u8], &[u8])> = Vec::new();
    let mut data: Vec<(usize, &[u8])> = Vec::new();
    for (i, line) in bytes.split(|&c| c == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        if line.starts_with(b"[") && line.ends_with(b"]") {
            section = &line[1..line.len() - 1];
            continue;
        }
        match section {
            b"Header" => {
                if let Some(k) = line.iter().position(|&c| c == b'=') {
                    header.push((&line[..k], &line[k + 1..]));
                }
            }
            b"Data" => data.push((i + 1, line)),
            _ => {}
        }
    }
    let get = |key: &str| {
        header
            .iter()
            .find(|(k, _)| *k == key.as_bytes())
            .map(|&(_, v)| v)
    };
    if header.is_empty() {
        return Err("UGF file with no [Header] values".into());
    }
    let size = match get("Size") {
        None => 19,
        Some(s) => std::str::from_utf8(s)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|n| (1..=MAX_SIDE).contains(n))
            .ok_or_else(|| {
                format!(
                    "UGF Size={} is not a board size from 1 to 52",
                    String::from_utf8_lossy(s)
                )
            })?,
    };
    let from_top = get("CoordinateType").is_some_and(|c| c.trim_ascii() == b"JPN");
    let mut notes = Vec::new();
    let mut sgf = SgfOut::new(size, size);
    for (key, name_id, rank_id) in [("PlayerB", "PB", "BR"), ("PlayerW", "PW", "WR")] {
        if let Some(v) = get(key) {
            let f = split(v);
            sgf.text(name_id, f[0]);
            sgf.text(rank_id, f.get(1).copied().unwrap_or_default());
        }
    }
    if let Some(v) = get("Hdcp") {
        let f = split(v);
        if !matches!(f[0], b"" | b"0") {
            sgf.text("HA", f[0]);
        }
        sgf.text("KM", f.get(1).copied().unwrap_or_default());
    }
    match get("Rule").map(<[u8]>::trim_ascii) {
        Some(b"JPN") => sgf.prop("RU", b"Japanese"),
        Some(b"CHN" | b"CH") => sgf.prop("RU", b"Chinese"),
        Some(other) => sgf.text("RU", other),
        None => {}
    }
    if let Some(w) = get("Winner") {
        match result(w) {
            Some(re) => sgf.prop("RE", re.as_bytes()),
            None => notes.push(format!(
                "UGF Winner={} is not a result we know; no result read",
                String::from_utf8_lossy(w)
            )),
        }
    }
    if let Some(d) = get("Date").and_then(date) {
        sgf.prop("DT", d.as_bytes());
    }
    sgf.text("PC", get("Place").unwrap_or_default());
    if let Some(t) = get("Title") {
        let parts: Vec<&[u8]> = split(t).into_iter().filter(|p| !p.is_empty()).collect();
        sgf.text("EV", &parts.join(&b", "[..]));
    }
    let (mut black, mut white, mut plays) = (Vec::new(), Vec::new(), Vec::new());
    let mut next = Stone::Black;
    for (n, line) in data {
        let bad = |what: &str| format!("UGF line {n}: {what}: '{}'", String::from_utf8_lossy(line));
        let f = split(line);
        let (at, who, number) = match f[..] {
            [at, who, number, ..] => (at, who, number),
            _ => return Err(bad("a move is point,colour,number,seconds")),
        };
        let setup = match number {
            b"0" => true,
            _ if number.iter().all(u8::is_ascii_digit) && !number.is_empty() => false,
            _ => return Err(bad("the move number is not a number")),
        };
        let [x, y] = <[u8; 2]>::try_from(at)
            .ok()
            .filter(|p| p.iter().all(u8::is_ascii_uppercase))
            .ok_or_else(|| bad("the point is not two capital letters"))?;
        let stone = match who.first() {
            Some(b'B') => Stone::Black,
            Some(b'W') => Stone::White,
            // `YZ,MK,…`: a pass with no colour.
            _ if matches!(x, b'Y' | b'Z') => next,
            _ => return Err(bad("the colour is not B or W")),
        };
        let at = if matches!(x, b'Y' | b'Z') {
            None
        } else {
            let (x, y) = (u32::from(x - b'A'), u32::from(y - b'A'));
            if y >= size {
                return Err(bad("the row is outside the board"));
            }
            let y = if from_top { y } else { size - 1 - y };
            Some(point(x, y).ok_or_else(|| bad("the point is outside the board"))?)
        };
        if setup {
            let p = at.ok_or_else(|| bad("a pass before the first move"))?;
            match stone {
                Stone::Black => black.push(p),
                Stone::White => white.push(p),
            }
            continue;
        }
        plays.push((stone, at));
        next = stone.other();
    }
    sgf.points("AB", &black);
    sgf.points("AW", &white);
    for (stone, at) in plays {
        sgf.play(stone, at);
    }
    Ok(sgf.finish(notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(ugf: &str) -> String {
        String::from_utf8(to_sgf(ugf.as_bytes()).unwrap().sgf).unwrap()
    }

    #[test]
    fn header_setup_and_moves_from_the_bottom() {
        let ugf = "[Header]\r\nLang=JPN\r\nPlayerB=kato,5d,JPN\r\nPlayerW=cho,9d\r\nSize=9\r\n\
            Hdcp=2,0.5\r\nRule=JPN\r\nWinner=W,C\r\nDate=2001/05/24,10:00,2001/05/24,15:00\r\nTitle=Meijin,,3\r\n\
            [Data]\r\nCC,B1,0,0\r\nGG,B1,0,0\r\nEE,W2,1,30\r\nYA,B1,2,3\r\n[Figure]\r\n.Text,1\r\nhi\r\n";
        assert_eq!(
            sgf(ugf),
            "(;GM[1]FF[4]SZ[9]PB[kato]BR[5d]PW[cho]WR[9d]HA[2]KM[0.5]RU[Japanese]RE[W+R]DT[2001-05-24]EV[Meijin, 3]\
             AB[cg][gc];W[ee];B[])"
        );
    }

    #[test]
    fn rows_from_the_top_and_results() {
        let ugf = "[Header]\nSize=19\nCoordinateType=JPN\nWinner=B,4.5\n[Data]\nPD,B1,1,0\n";
        assert_eq!(sgf(ugf), "(;GM[1]FF[4]SZ[19]RE[B+4.5];B[pd])");
        assert_eq!(result(b"D,"), Some("Draw".into()));
        assert_eq!(result(b"W,F2"), Some("W+F".into()));
        assert_eq!(result(b"N1,E"), Some("Void".into()));
        assert_eq!(result(b"A,"), None);
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(to_sgf(b"[Data]\nPD,B1,1,0\n")
            .unwrap_err()
            .contains("no [Header]"));
        let e = to_sgf(b"[Header]\nSize=9\n[Data]\nDP,B1,1,0\n").unwrap_err();
        assert!(e.contains("line 4") && e.contains("row"), "{e}");
        assert!(to_sgf(b"[Header]\nSize=99\n")
            .unwrap_err()
            .contains("Size=99"));
        assert!(to_sgf(b"[Header]\nSize=9\n[Data]\nCC,X1,1,0\n")
            .unwrap_err()
            .contains("colour"));
        assert!(to_sgf(b"[Header]\nSize=9\n[Data]\nCC\n")
            .unwrap_err()
            .contains("point,colour"));
    }
}
