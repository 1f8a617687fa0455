//! WBaduk's (Cyberoro's) `.ngf`: a header of fixed lines — the game's
//! name, the board size, White `name rank`, Black `name rank`, …, the
//! handicap (line 6), …, the komi (line 8), the date `YYYYMMDD…` (line
//! 9), …, the result in words (line 11) — then one `PM` line per move,
//! `PMccCxy…`: the colour (`B`/`W`) fifth, then the point as two capital
//! letters with `B` the first column and row from the top left.
//!
//! Learned from Sabaki's `src/modules/fileformats/ngf.js` and KaTrain's
//! `katrain/core/sgf_parser.py` (`parse_ngf`, after fohristiwhirl's
//! gofish): both read an integral komi in an even game as that komi and a
//! half (WBaduk writes `6` for 6.5), place handicap stones as Tygem does,
//! and read the result from `White wins`/`Black lose`, `resign`, `time`
//! and a number. Read: size, players and ranks (`3D` as `3d`, `9DP` as
//! `9p`), handicap, komi, date, result, moves. NGF names no rules (`RU`
//! left out: `--rules` applies); the game's name and the clock are not
//! read.

use super::{margin_text, point, tygem_handicap, SgfOut, Stone, Translated, MAX_SIDE};

fn size_of(line: &[u8]) -> Option<u32> {
    std::str::from_utf8(line)
        .ok()?
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_SIDE).contains(n))
}

/// `name rank` split, the rank as SGF writes it; a last word that is not
/// a rank (`3D`, `12K`, `9DP`) is part of the name.
fn name_and_rank(line: &[u8]) -> (Vec<u8>, String) {
    let line = line.trim_ascii();
    let Some(space) = line.iter().rposition(|&c| c == b' ') else {
        return (line.to_vec(), String::new());
    };
    let word = String::from_utf8_lossy(&line[space + 1..]).to_ascii_uppercase();
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rank = match &word[digits..] {
        "DP" | "P" => "p",
        "D" => "d",
        "K" => "k",
        _ => "",
    };
    if digits == 0 || rank.is_empty() {
        return (line.to_vec(), String::new());
    }
    (
        line[..space].trim_ascii().to_vec(),
        format!("{}{rank}", &word[..digits]),
    )
}

/// `RE` from the result line's words, as Sabaki reads them.
fn result(line: &str) -> Option<String> {
    let who = if line.contains("hite win") || line.contains("lack lose") {
        "W"
    } else if line.contains("lack win") || line.contains("hite lose") {
        "B"
    } else {
        return None;
    };
    let how = if line.contains("resign") {
        "R".to_string()
    } else if line.contains("time") {
        "T".to_string()
    } else {
        line.split_whitespace()
            .rev()
            .find_map(|w| w.parse::<f64>().ok().filter(|m| m.is_finite()))
            .map(margin_text)
            .unwrap_or_default()
    };
    Some(format!("{who}+{how}"))
}

pub(super) fn to_sgf(bytes: &[u8]) -> Result<Translated, String> {
    let lines: Vec<&[u8]> = bytes
        .split(|&c| c == b'\n')
        .map(<[u8]>::trim_ascii)
        .collect();
    let line = |i: usize| lines.get(i).copied().unwrap_or_default();
    let text = |i: usize| String::from_utf8_lossy(line(i)).into_owned();
    let size = size_of(line(1))
        .ok_or_else(|| format!("NGF line 2 '{}' is not a board size from 1 to 52", text(1)))?;
    let mut notes = Vec::new();
    let mut sgf = SgfOut::new(size, size);
    for (i, name_id, rank_id) in [(3, "PB", "BR"), (2, "PW", "WR")] {
        let (name, rank) = name_and_rank(line(i));
        sgf.text(name_id, &name);
        sgf.text(rank_id, rank.as_bytes());
    }
    let handicap = text(5).trim().parse::<u32>().unwrap_or(0);
    if let Ok(mut komi) = text(7).trim().parse::<f64>() {
        if handicap == 0 && komi.is_finite() && komi.fract() == 0.0 && komi != 0.0 {
            notes.push(format!(
                "NGF komi {komi} in an even game read as {} (WBaduk leaves out the half point)",
                komi + 0.5
            ));
            komi += 0.5;
        }
        if komi.is_finite() {
            sgf.prop("KM", margin_text(komi).as_bytes());
        }
    }
    if let Some(re) = result(&text(10)) {
        sgf.prop("RE", re.as_bytes());
    }
    let day = line(8)
        .get(..8)
        .filter(|d| d.iter().all(u8::is_ascii_digit));
    if let Some(d) = day {
        let d = String::from_utf8_lossy(d);
        sgf.prop(
            "DT",
            format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..]).as_bytes(),
        );
    }
    if handicap >= 2 {
        sgf.prop("HA", handicap.to_string().as_bytes());
        if size == 19 && handicap <= 9 {
            sgf.points("AB", &tygem_handicap(handicap));
        } else {
            notes.push(format!(
                "NGF handicap {handicap} on {size}×{size} has no known layout; no handicap stones placed"
            ));
        }
    }
    let mut moves = 0;
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with(b"PM") || l.len() < 7 {
            continue;
        }
        let bad = |what: &str| {
            format!(
                "NGF line {}: {what}: '{}'",
                i + 1,
                String::from_utf8_lossy(l)
            )
        };
        let stone = match l[4].to_ascii_uppercase() {
            b'B' => Stone::Black,
            b'W' => Stone::White,
            _ => return Err(bad("the colour is not B or W")),
        };
        let coord = |c: u8| {
            let c = c.to_ascii_uppercase();
            (b'B'..=b'Z').contains(&c).then(|| u32::from(c - b'B'))
        };
        let at = coord(l[5])
            .zip(coord(l[6]))
            .and_then(|(x, y)| point(x, y))
            .ok_or_else(|| bad("the point is not two letters from B"))?;
        sgf.play(stone, Some(at));
        moves += 1;
    }
    if moves == 0 && lines.len() < 11 {
        return Err(format!(
            "NGF file of {} lines and no moves: not a game record",
            lines.len()
        ));
    }
    Ok(sgf.finish(notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn translated(ngf: &str) -> Translated {
        to_sgf(ngf.as_bytes()).unwrap()
    }

    #[test]
    fn header_lines_and_moves() {
        let ngf = "Rated game\r\n19\r\nlee 9DP\r\nkim jong 3D\r\nwww.cyberoro.com\r\n0\r\n0\r\n6\r\n\
            20070115 [20:30]\r\n5\r\nWhite wins by 2.5 points!\r\n3\r\nPMAABEEBE\r\nPMABWQQBE\r\nPMACBRDBE\r\n";
        let t = translated(ngf);
        assert_eq!(
            String::from_utf8(t.sgf).unwrap(),
            "(;GM[1]FF[4]SZ[19]PB[kim jong]BR[3d]PW[lee]WR[9p]KM[6.5]RE[W+2.5]DT[2007-01-15];B[dd];W[pp];B[qc])"
        );
        assert_eq!(
            t.notes,
            ["NGF komi 6 in an even game read as 6.5 (WBaduk leaves out the half point)"]
        );
    }

    #[test]
    fn handicaps_results_and_names() {
        let ngf = "g\n19\nw\nb\nx\n3\nx\n0\n2010\nx\nBlack wins by resign\nx\nPMAAWEEBE\n";
        assert_eq!(
            String::from_utf8(translated(ngf).sgf).unwrap(),
            "(;GM[1]FF[4]SZ[19]PB[b]PW[w]KM[0]RE[B+R]HA[3]AB[dp][pd][dd];W[dd])"
        );
        assert_eq!(result("White lose on time"), Some("B+T".into()));
        assert_eq!(result("??"), None);
        assert_eq!(name_and_rank(b"a b"), (b"a b".to_vec(), String::new()));
        assert_eq!(name_and_rank(b"a 12K"), (b"a".to_vec(), "12k".into()));
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(to_sgf(b"g\nnineteen\n").unwrap_err().contains("line 2"));
        assert!(to_sgf(b"g\n19\n").unwrap_err().contains("no moves"));
        let e = to_sgf(b"g\n19\nw\nb\n\n0\n\n6\n\n\n\n\nPMAAXEEBE\n").unwrap_err();
        assert!(e.contains("line 13") && e.contains("colour"), "{e}");
        assert!(to_sgf(b"g\n19\n\n\n\n\n\n\n\n\n\n\nPMAAB!EBE\n")
            .unwrap_err()
            .contains("point"));
    }
}
