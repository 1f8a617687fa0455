//! Online-go.com's game JSON: the object `/api/v1/games/{id}` returns, or
//! its `gamedata` alone (what OGS's own tools save).
//!
//! Read: `width`, `height`; `moves` as `[x, y, milliseconds]` from the top
//! left (`[-1, -1, …]` a pass); `initial_state` `{black, white}` as SGF
//! point pairs one after another (`"pddp"`); `handicap`, `komi`, `rules`
//! (as OGS spells them, `RU` reads them); `players.{black,white}` with
//! `username` and `rank` (OGS's number, 30 for 1 dan: read as `2k`, `1d`,
//! `1p`) — from `gamedata`, else the top level (`ranking`); `winner` (a
//! player id, or `black`/`white`) and `outcome` (`Resignation`,
//! `Timeout`, `N points`…); `start_time` (Unix seconds) as the date;
//! `removed` (the dead stones, point pairs) and `score`'s
//! `scoring_positions` as `TB`/`TW` markup on the last node, so
//! `--dead-stones markup` reads the players' agreement. Not read: the
//! clock, the time control, `game_name`, chat.
//!
//! A handicap game whose `initial_state` holds no black stones placed its
//! handicap as Black's first `handicap` moves (OGS's free placement): they
//! become `AB` setup, and White moves next.
//!
//! The shape was learned from honganhkhoa/Surround's
//! `Surround/Data/TestData.swift` (games as the API returns them) and
//! OGS's API documentation (`/api/v1/games/{id}`).

use super::{margin_text, pairs, point, unix_date, SgfOut, Stone, Translated, MAX_SIDE};
use serde_json::Value;

/// A field of `gamedata`, else of the top level; `null` is absent.
fn field<'v>(game: &'v Value, top: &'v Value, key: &str) -> Option<&'v Value> {
    game.get(key)
        .or_else(|| top.get(key))
        .filter(|v| !v.is_null())
}

fn int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
        .or_else(|| v.as_str()?.trim().parse().ok())
}

fn float(v: &Value) -> Option<f64> {
    v.as_f64()
        .or_else(|| v.as_str()?.trim().parse().ok())
        .filter(|f: &f64| f.is_finite())
}

/// OGS's rank number as a rank: 0 is 30 kyu, 29 is 1 kyu, 30 is 1 dan;
/// a professional's 37 is 1p.
fn rank_text(rank: f64, professional: bool) -> String {
    let r = rank.floor() as i64;
    if professional && r >= 37 {
        format!("{}p", r - 36)
    } else if r >= 30 {
        format!("{}d", r - 29)
    } else {
        format!("{}k", 30 - r.max(0))
    }
}

/// A side's player: name and rank.
fn player(game: &Value, top: &Value, side: &str) -> (String, String) {
    let entries = [game, top].map(|v| v.get("players").and_then(|p| p.get(side)));
    let text = |key: &str| {
        entries
            .iter()
            .flatten()
            .find_map(|p| p.get(key).filter(|v| !v.is_null()))
    };
    let name = text("username")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let pro = text("professional")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let rank = match text("rank").or_else(|| text("ranking")) {
        Some(Value::String(s)) => s.clone(),
        Some(v) => float(v).map(|r| rank_text(r, pro)).unwrap_or_default(),
        None => String::new(),
    };
    (name, rank)
}

/// A side's player id, wherever the JSON gives it.
fn player_id(game: &Value, top: &Value, side: &str) -> Option<i64> {
    field(game, top, &format!("{side}_player_id"))
        .and_then(int)
        .or_else(|| top.get(side).and_then(int))
        .or_else(|| {
            [game, top]
                .iter()
                .find_map(|v| v.get("players")?.get(side)?.get("id").and_then(int))
        })
}

/// `RE` from `winner` and `outcome`, with a note when the outcome is one
/// we do not know.
fn result(game: &Value, top: &Value, notes: &mut Vec<String>) -> Option<String> {
    let outcome = field(game, top, "outcome")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim();
    let lower = outcome.to_ascii_lowercase();
    if lower.starts_with("cancel") {
        return Some("Void".into());
    }
    let winner = field(game, top, "winner")?;
    let who = match winner.as_str().map(str::to_ascii_lowercase).as_deref() {
        Some("black") => "B",
        Some("white") => "W",
        _ => {
            let id = int(winner)?;
            if Some(id) == player_id(game, top, "black") {
                "B"
            } else if Some(id) == player_id(game, top, "white") {
                "W"
            } else {
                notes.push(format!("OGS winner {id} is neither player; no result read"));
                return None;
            }
        }
    };
    let how = if lower.starts_with("resign") {
        "R".to_string()
    } else if lower.starts_with("timeout") || lower.starts_with("time") {
        "T".to_string()
    } else if lower.starts_with("disqualif") || lower.starts_with("abandon") {
        "F".to_string()
    } else if let Some(m) = lower
        .strip_suffix("points")
        .or_else(|| lower.strip_suffix("point"))
        .and_then(|n| n.trim().parse::<f64>().ok())
        .filter(|m| m.is_finite())
    {
        margin_text(m)
    } else {
        if !outcome.is_empty() {
            notes.push(format!(
                "OGS outcome '{outcome}' is not one we know: read as a win without a margin"
            ));
        }
        String::new()
    };
    Some(format!("{who}+{how}"))
}

/// A side of the board (`width`, `height`): absent is 19.
fn side(game: &Value, top: &Value, key: &str) -> Result<u32, String> {
    match field(game, top, key) {
        None => Ok(19),
        Some(v) => int(v)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (1..=MAX_SIDE).contains(n))
            .ok_or_else(|| format!("OGS {key} {v} is not a board side from 1 to 52")),
    }
}

/// Points as OGS lists them: pairs in a string, or `[x, y]` lists.
fn point_list(v: Option<&Value>, what: &str) -> Result<Vec<[u8; 2]>, String> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => pairs(s).map_err(|e| format!("OGS {what}: {e}")),
        Some(Value::Array(list)) => list
            .iter()
            .map(|p| {
                let xy = p.as_array().filter(|a| a.len() >= 2);
                xy.and_then(|a| {
                    let x = u32::try_from(int(&a[0])?).ok()?;
                    let y = u32::try_from(int(&a[1])?).ok()?;
                    point(x, y)
                })
                .ok_or_else(|| format!("OGS {what}: {p} is not a point"))
            })
            .collect(),
        Some(other) => Err(format!("OGS {what} is not a list of points: {other}")),
    }
}

pub(super) fn to_sgf(bytes: &[u8]) -> Result<Translated, String> {
    let top: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("OGS game JSON does not parse: {e}"))?;
    if !top.is_object() {
        return Err("OGS game JSON is not an object".into());
    }
    let game = top
        .get("gamedata")
        .filter(|g| g.is_object())
        .unwrap_or(&top);
    let moves = field(game, &top, "moves")
        .ok_or("OGS game JSON has no 'moves'")?
        .as_array()
        .ok_or("OGS 'moves' is not a list")?;
    let mut notes = Vec::new();
    let (width, height) = (side(game, &top, "width")?, side(game, &top, "height")?);
    let mut sgf = SgfOut::new(width, height);
    sgf.prop("CA", b"UTF-8");
    for (side, name_id, rank_id) in [("black", "PB", "BR"), ("white", "PW", "WR")] {
        let (name, rank) = player(game, &top, side);
        sgf.text(name_id, name.as_bytes());
        sgf.text(rank_id, rank.as_bytes());
    }
    if let Some(k) = field(game, &top, "komi").and_then(float) {
        sgf.prop("KM", margin_text(k).as_bytes());
    }
    let handicap = field(game, &top, "handicap").and_then(int).unwrap_or(0);
    if handicap > 0 {
        sgf.prop("HA", handicap.to_string().as_bytes());
    }
    if let Some(rules) = field(game, &top, "rules").and_then(Value::as_str) {
        sgf.text("RU", rules.as_bytes());
    }
    if let Some(re) = result(game, &top, &mut notes) {
        sgf.prop("RE", re.as_bytes());
    }
    let start = field(game, &top, "start_time").or_else(|| field(game, &top, "end_time"));
    if let Some(t) = start.and_then(int) {
        sgf.prop("DT", unix_date(t).as_bytes());
    }
    let initial = field(game, &top, "initial_state");
    let mut black = point_list(initial.and_then(|i| i.get("black")), "initial_state")?;
    let white = point_list(initial.and_then(|i| i.get("white")), "initial_state")?;
    let mut next = match field(game, &top, "initial_player").and_then(Value::as_str) {
        Some("white") => Stone::White,
        _ => Stone::Black,
    };
    // Free placement: Black's first moves are the handicap stones.
    let placing = if handicap >= 2 && black.is_empty() {
        handicap as usize
    } else {
        0
    };
    let mut plays = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let bad = || format!("OGS move {}: {m} is not [x, y, time]", i + 1);
        let xy = m.as_array().filter(|a| a.len() >= 2).ok_or_else(bad)?;
        let (x, y) = int(&xy[0]).zip(int(&xy[1])).ok_or_else(bad)?;
        let at = if x == -1 && y == -1 {
            None
        } else {
            let p = u32::try_from(x)
                .ok()
                .zip(u32::try_from(y).ok())
                .and_then(|(x, y)| point(x, y));
            Some(p.ok_or_else(|| format!("OGS move {}: ({x}, {y}) is outside any board", i + 1))?)
        };
        if i < placing {
            black.extend(at);
            next = Stone::White;
            continue;
        }
        plays.push((next, at));
        next = next.other();
    }
    sgf.points("AB", &black);
    sgf.points("AW", &white);
    for (stone, at) in plays {
        sgf.play(stone, at);
    }
    let removed = point_list(field(game, &top, "removed"), "removed")?;
    let score = field(game, &top, "score");
    let scored = |side: &str| {
        point_list(
            score.and_then(|s| s.get(side)?.get("scoring_positions")),
            "scoring_positions",
        )
    };
    let (mut tb, mut tw) = (scored("black")?, scored("white")?);
    // A dead stone on both lists is dead whichever its colour: a black
    // stone on a `TW` point, a white one on a `TB` point.
    // Each point once: the lists cost at most the board's points.
    for list in [&mut tb, &mut tw] {
        list.extend(&removed);
        list.sort_unstable();
        list.dedup();
    }
    sgf.points("TB", &tb);
    sgf.points("TW", &tw);
    Ok(sgf.finish(notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(json: &str) -> String {
        String::from_utf8(to_sgf(json.as_bytes()).unwrap().sgf).unwrap()
    }

    #[test]
    fn gamedata_with_dead_stones_and_a_count() {
        let json = r#"{"black_player_id": 1, "white_player_id": 2, "width": 9, "height": 9,
            "komi": 6.5, "handicap": 0, "rules": "japanese", "initial_player": "black",
            "players": {"black": {"username": "ann", "rank": 28.1, "id": 1},
                        "white": {"username": "bo]b", "rank": 31.5, "id": 2}},
            "moves": [[2, 2, 100], [6, 6, 200], [-1, -1, 5], [-1, -1, 6]],
            "initial_state": {"black": "", "white": ""},
            "removed": "gg", "score": {"black": {"scoring_positions": "abaaab"},
            "white": {"scoring_positions": "ii"}},
            "winner": 1, "outcome": "3.5 points", "start_time": 1563570060}"#;
        assert_eq!(
            sgf(json),
            "(;GM[1]FF[4]SZ[9]CA[UTF-8]PB[ann]BR[2k]PW[bo\\]b]WR[2d]KM[6.5]RU[japanese]RE[B+3.5]DT[2019-07-19]\
             ;B[cc];W[gg];B[];W[]TB[aa][ab][gg]TW[gg][ii])"
        );
    }

    #[test]
    fn api_response_handicaps_and_results() {
        // The API's wrapper: names at the top level, fixed handicap stones in initial_state.
        let json = r#"{"players": {"black": {"username": "b", "ranking": 25}, "white": {"username": "w", "ranking": 30}},
            "black": 7, "white": 8, "gamedata": {"handicap": 2, "komi": 0.5, "initial_player": "white",
            "initial_state": {"black": "pddp", "white": ""}, "moves": [[3, 3, 1]], "winner": 8, "outcome": "Resignation"}}"#;
        assert_eq!(
            sgf(json),
            "(;GM[1]FF[4]SZ[19]CA[UTF-8]PB[b]BR[5k]PW[w]WR[1d]KM[0.5]HA[2]RE[W+R]AB[pd][dp];W[dd])"
        );
        // Free placement: Black's first two moves are the handicap.
        let json = r#"{"handicap": 2, "width": 19, "height": 19, "initial_player": "black",
            "moves": [[3, 2, 1], [2, 15, 1], [16, 15, 1]], "winner": "black", "outcome": "Timeout"}"#;
        assert_eq!(
            sgf(json),
            "(;GM[1]FF[4]SZ[19]CA[UTF-8]HA[2]RE[B+T]AB[dc][cp];W[qp])"
        );
        let t = to_sgf(br#"{"moves": [], "winner": 3, "outcome": "Moon"}"#).unwrap();
        assert_eq!(t.notes, ["OGS winner 3 is neither player; no result read"]);
        let t = to_sgf(br#"{"moves": [], "winner": "white", "outcome": "Moon"}"#).unwrap();
        assert!(t.notes[0].contains("'Moon'"));
        assert!(String::from_utf8(t.sgf).unwrap().contains("RE[W+]"));
    }

    #[test]
    fn malformed_json_is_an_error() {
        assert!(to_sgf(b"{\"moves\": [")
            .unwrap_err()
            .contains("does not parse"));
        assert!(to_sgf(b"[1]").unwrap_err().contains("not an object"));
        assert!(to_sgf(b"{\"initial_state\": {}}")
            .unwrap_err()
            .contains("no 'moves'"));
        assert!(to_sgf(b"{\"moves\": [[1]]}")
            .unwrap_err()
            .contains("move 1"));
        assert!(to_sgf(b"{\"moves\": [[-3, 2]]}")
            .unwrap_err()
            .contains("outside"));
        assert!(to_sgf(b"{\"moves\": [], \"width\": 99}")
            .unwrap_err()
            .contains("width"));
        assert!(to_sgf(b"{\"moves\": [], \"removed\": \"abc\"}")
            .unwrap_err()
            .contains("removed"));
    }

    #[test]
    fn ranks() {
        assert_eq!(rank_text(29.9, false), "1k");
        assert_eq!(rank_text(30.0, false), "1d");
        assert_eq!(rank_text(-3.0, false), "30k");
        assert_eq!(rank_text(38.2, true), "2p");
    }
}
