//! Reader for BGBlitz's match files (`.bgf`), from the one public
//! description of them (the notes of the Go package kevung/bgfparser).
//!
//! A file is a one-line JSON header naming how the rest is stored
//! (`{"version": "...", "compression": "gzip", "encoding": "smile"}`, or
//! bgfparser's spelling `{"format": "BGF", "compress": true, "useSmile":
//! true}`), then the match as one JSON object: SMILE-encoded
//! ([`super::smile`]) or JSON text, gzip-compressed or not. The object holds
//! the match (`matchlen`, `nameGreen`, `nameRed`, `date`, `useCrawford`,
//! `useJacoby`, ...) and its `games`, each with its starting score, result
//! (`wonPoints`, `wasResignation`, `wasForfeit`) and `moves`: records with a
//! `type`, the `player` (1 green, −1 red), and for a roll (`amove`) the dice
//! (`red`, `green`) and up to four steps `from[i]`→`to[i]` (1–24, 25 the
//! bar, 0 off, −1 unused) with BGBlitz's evaluation (`equity`, whose `cube`
//! is the cube's value at the roll).
//!
//! What the description does not give is read as docs/backgammon.md states
//! (each a guess): green is player 0; the steps are in the mover's own
//! numbering; the cube actions are `adouble` records (with `hasAccepted`,
//! or followed by `atake`/`apass`); `aresign` records change nothing (the
//! game's result says it); the winner is the player whose score the next
//! game (or the final score) shows risen. A record it cannot read is a
//! finding with its reason; so is a cube value that changes with no cube
//! action read.

use crate::bg::format::mat::MatError;
use crate::bg::format::smile::{self, Value};
use crate::bg::game::record::{
    Action, BgblitzPlay, GameRecord, MatchRecord, Step, BAR_POINT, OFF_POINT,
};
use std::io::Read;

/// The most the body may unpack to; more is an error, so a small file
/// cannot make the reader unpack gigabytes (a BGBlitz match with its
/// analysis is a few MiB).
pub const MAX_BODY: u64 = 64 << 20;
/// The most JSON text a body may hold: a JSON tree takes up to 16 times
/// its text (`[0,0,...]`), and the SMILE decoder's own budget does not
/// apply to it.
pub const MAX_JSON_BODY: usize = 16 << 20;
/// The longest header line looked for.
const MAX_HEADER: usize = 4096;

fn err(why: impl Into<String>) -> MatError {
    MatError(why.into())
}

/// How the header says the body is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Storage {
    gzip: bool,
    /// `None`: not stated; the body's SMILE header decides.
    smile: Option<bool>,
}

/// Reads a whole `.bgf` file.
///
/// # Errors
/// No JSON header line, a header naming a compression or encoding other
/// than gzip/none and smile/json, corrupt or cut gzip data, a body over
/// [`MAX_BODY`] once unpacked (JSON text over [`MAX_JSON_BODY`]), SMILE or
/// JSON that does not decode, or a
/// body that is not a match object with games.
pub fn read_bgf(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    read_bgf_within(bytes, MAX_BODY)
}

/// [`read_bgf`] with `limit` bytes the body may unpack to.
fn read_bgf_within(bytes: &[u8], limit: u64) -> Result<MatchRecord, MatError> {
    let (storage, version, body) = header(bytes)?;
    let data = if storage.gzip {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(body)
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| {
                err(format!(
                    "corrupt BGBlitz file: its gzip body does not unpack: {e}"
                ))
            })?;
        out
    } else {
        body.to_vec()
    };
    if data.len() as u64 > limit {
        return Err(err(format!(
            "oversized BGBlitz file: its body unpacks to more than {} MiB",
            limit >> 20
        )));
    }
    let smile = storage.smile.unwrap_or_else(|| data.starts_with(b":)\n"));
    let (root, trailing) = if smile {
        let (v, end) =
            smile::decode(&data).map_err(|e| err(format!("corrupt BGBlitz file: {e}")))?;
        (v, data.len() - end)
    } else {
        if data.len() > MAX_JSON_BODY {
            return Err(err(format!(
                "oversized BGBlitz file: a JSON body of more than {} MiB",
                MAX_JSON_BODY >> 20
            )));
        }
        let v: serde_json::Value = serde_json::from_slice(&data)
            .map_err(|e| err(format!("corrupt BGBlitz file: its body is not JSON: {e}")))?;
        (from_json(v), 0)
    };
    let mut m = match_record(&root)?;
    if let Some(v) = version {
        m.tags.push(("BGBlitz version".into(), v));
    }
    if trailing > 0 {
        if let Some(g) = m.games.last_mut() {
            g.unread.push((
                0,
                format!("{trailing} bytes after the match's SMILE value were not read"),
            ));
        }
    }
    Ok(m)
}

/// The header line: how the body is stored, the version, and the body.
fn header(bytes: &[u8]) -> Result<(Storage, Option<String>, &[u8]), MatError> {
    let head = &bytes[..bytes.len().min(MAX_HEADER)];
    let Some(nl) = head.iter().position(|&b| b == b'\n') else {
        return Err(err("not a BGBlitz file: no JSON header line at its start"));
    };
    let h: serde_json::Value = serde_json::from_slice(head[..nl].trim_ascii()).map_err(|e| {
        err(format!(
            "not a BGBlitz file: its header line is not JSON: {e}"
        ))
    })?;
    let Some(h) = h.as_object() else {
        return Err(err(
            "not a BGBlitz file: its header line is not a JSON object",
        ));
    };
    let body = &bytes[nl + 1..];
    let named = |key: &str, on: &str, off: &str| -> Result<Option<bool>, MatError> {
        match h.get(key) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) if s.eq_ignore_ascii_case(on) => Ok(Some(true)),
            Some(serde_json::Value::String(s)) if s.eq_ignore_ascii_case(off) => Ok(Some(false)),
            Some(v) => Err(err(format!(
                "the BGBlitz header names {key} {v}, which recount does not read (only \"{on}\" or \"{off}\")"
            ))),
        }
    };
    let flag = |key: &str| -> Result<Option<bool>, MatError> {
        match h.get(key) {
            None => Ok(None),
            Some(serde_json::Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(err(format!(
                "the BGBlitz header's {key} is {v}, not true or false"
            ))),
        }
    };
    let either = |a: Option<bool>, b: Option<bool>, what: &str| match (a, b) {
        (Some(x), Some(y)) if x != y => Err(err(format!(
            "the BGBlitz header states the {what} twice, differently"
        ))),
        (a, b) => Ok(a.or(b)),
    };
    let gzip = either(
        named("compression", "gzip", "none")?,
        flag("compress")?,
        "compression",
    )?;
    let smile = either(
        named("encoding", "smile", "json")?,
        flag("useSmile")?,
        "encoding",
    )?;
    // A header that states neither: the body's own magic numbers say.
    let gzip = gzip.unwrap_or_else(|| body.starts_with(&[0x1F, 0x8B]));
    let version = match h.get("version") {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(v @ serde_json::Value::Number(_)) => Some(v.to_string()),
        _ => None,
    };
    Ok((Storage { gzip, smile }, version, body))
}

/// A JSON text value as the SMILE decoder's tree.
fn from_json(v: serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::Str(s),
        J::Array(a) => Value::Array(a.into_iter().map(from_json).collect()),
        J::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, from_json(v))).collect()),
    }
}

fn int(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

/// The match object.
fn match_record(root: &Value) -> Result<MatchRecord, MatError> {
    if !matches!(root, Value::Object(_)) {
        return Err(err(format!(
            "not a BGBlitz match: the body is {}, not an object",
            root.kind()
        )));
    }
    let Some(games) = root.get("games").and_then(Value::as_array) else {
        return Err(err("not a BGBlitz match: no 'games' array"));
    };
    if games.is_empty() {
        return Err(err("the BGBlitz match holds no game"));
    }
    let Some(length) = int(root, "matchlen") else {
        return Err(err("not a BGBlitz match: no 'matchlen'"));
    };
    let name = |k: &str| {
        root.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let mut m = MatchRecord {
        players: [name("nameGreen"), name("nameRed")],
        // BGBlitz's money sessions: no positive length (a guess).
        length: u32::try_from(length).unwrap_or(0),
        format: "bgf",
        ..MatchRecord::default()
    };
    for (key, tag) in [
        ("useCrawford", "Crawford"),
        ("useJacoby", "Jacoby"),
        ("useBeaver", "Beaver"),
        ("useCube", "Cube"),
    ] {
        if let Some(b) = root.get(key).and_then(Value::as_bool) {
            m.tags
                .push((tag.into(), if b { "On" } else { "Off" }.to_string()));
        }
    }
    if let Some(limit) = int(root, "cubeLimit").filter(|&l| l > 0) {
        m.tags.push(("CubeLimit".into(), limit.to_string()));
    }
    if let Some(date) = root.get("date").and_then(Value::as_str) {
        match event_date(date) {
            Some(d) => m.tags.push(("EventDate".into(), d)),
            None => m.tags.push(("Date".into(), date.to_string())),
        }
    }
    for (key, tag) in [("event", "Event"), ("site", "Site"), ("round", "Round")] {
        if let Some(s) = root
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            m.tags.push((tag.into(), s.to_string()));
        }
    }
    let final_score = [int(root, "finalGreen"), int(root, "finalRed")];
    for (i, g) in games.iter().enumerate() {
        let after = match games.get(i + 1) {
            Some(next) => [int(next, "scoreGreen"), int(next, "scoreRed")],
            None => final_score,
        };
        m.games.push(game(i, g, after));
    }
    Ok(m)
}

/// BGBlitz's date (`Nov 2, 2025`) as `YYYY.MM.DD`.
fn event_date(s: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let mut w = s.split([' ', ',']).filter(|w| !w.is_empty());
    let month = w.next()?.to_ascii_lowercase();
    let month = MONTHS.iter().position(|m| month.starts_with(m))? + 1;
    let day: u32 = w.next()?.parse().ok().filter(|d| (1..=31).contains(d))?;
    let year: u32 = w
        .next()?
        .parse()
        .ok()
        .filter(|y| (1900..=9999).contains(y))?;
    Some(format!("{year:04}.{month:02}.{day:02}"))
}

/// BGBlitz's player: 1 green (player 0), −1 red (player 1).
fn player(mv: &Value) -> Result<usize, String> {
    match mv.get("player") {
        Some(v) if v.as_i64() == Some(1) => Ok(0),
        Some(v) if v.as_i64() == Some(-1) => Ok(1),
        Some(v) => Err(format!("unknown player {}", show(v))),
        None => Err("no player".into()),
    }
}

/// A value for a finding's text: a string quoted and cut to 40
/// characters (a finding never carries a whole untrusted string).
fn show(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => format!("'{}'", s.chars().take(40).collect::<String>()),
        other => other.kind().to_string(),
    }
}

/// The cube as the game's records follow it.
struct Cube {
    value: u32,
    /// A double read and not yet answered: the doubler.
    pending: Option<usize>,
}

/// Game `i` (0-based); `after` is the score the next game (or the match's
/// final score) gives, green's first.
fn game(i: usize, g: &Value, after: [Option<i64>; 2]) -> GameRecord {
    let mut rec = GameRecord {
        number: i as u32 + 1,
        ..GameRecord::default()
    };
    if !matches!(g, Value::Object(_)) {
        rec.unread.push((
            0,
            format!("game {}: {}, not an object; not read", i + 1, g.kind()),
        ));
        return rec;
    }
    let before = [int(g, "scoreGreen"), int(g, "scoreRed")];
    match before {
        [Some(a), Some(b)] => match (u32::try_from(a), u32::try_from(b)) {
            (Ok(a), Ok(b)) => rec.score = Some([a, b]),
            _ => rec
                .unread
                .push((0, format!("game header: negative score {a}-{b}"))),
        },
        [None, None] => {}
        _ => rec
            .unread
            .push((0, "game header: only one player's score".into())),
    }
    let moves = match g.get("moves") {
        Some(Value::Array(a)) => a.as_slice(),
        None => &[],
        Some(v) => {
            rec.unread.push((
                0,
                format!("game header: 'moves' is {}, not an array", v.kind()),
            ));
            &[]
        }
    };
    let mut cube = Cube {
        value: 1,
        pending: None,
    };
    for (k, mv) in moves.iter().enumerate() {
        let line = k as u32 + 1;
        if let Err(why) = record(line, mv, &mut rec, &mut cube) {
            rec.unread
                .push((line, format!("move {line}: {why}; skipped")));
        }
    }
    let end = moves.len() as u32 + 1;
    match result(g, before, after) {
        Ok(Some(a)) => rec.actions.push((end, a)),
        Ok(None) => {}
        Err(why) => rec.unread.push((end, format!("game end: {why}"))),
    }
    rec
}

/// One record of `moves`.
fn record(line: u32, mv: &Value, g: &mut GameRecord, cube: &mut Cube) -> Result<(), String> {
    let kind = match mv.get("type") {
        Some(Value::Str(s)) => s.as_str(),
        Some(v) => return Err(format!("a type that is {}", v.kind())),
        None => return Err("no type".into()),
    };
    let shown = || show(mv.get("type").unwrap_or(&Value::Null));
    match kind {
        "amove" => roll(line, mv, g, cube),
        "adouble" => {
            let p = player(mv)?;
            g.actions.push((
                line,
                Action::Double {
                    player: p,
                    value: 0,
                },
            ));
            match mv.get("hasAccepted").and_then(Value::as_bool) {
                Some(true) => {
                    g.actions.push((line, Action::Take { player: 1 - p }));
                    cube.value = cube.value.saturating_mul(2);
                }
                Some(false) => g.actions.push((line, Action::Drop { player: 1 - p })),
                None => cube.pending = Some(p),
            }
            Ok(())
        }
        "atake" => {
            let p = player(mv)?;
            g.actions.push((line, Action::Take { player: p }));
            if cube.pending.take().is_some() {
                cube.value = cube.value.saturating_mul(2);
            }
            Ok(())
        }
        "apass" => {
            let p = player(mv)?;
            g.actions.push((line, Action::Drop { player: p }));
            cube.pending = None;
            Ok(())
        }
        // The game's wonPoints and wasResignation say how it ended.
        "aresign" => player(mv).map(|_| ()),
        _ => Err(format!("unknown move type {}", shown())),
    }
}

/// An `amove`: the roll, its play, and the cube value it was made at.
fn roll(line: u32, mv: &Value, g: &mut GameRecord, cube: &mut Cube) -> Result<(), String> {
    let p = player(mv)?;
    let die = |k: &str| {
        int(mv, k)
            .and_then(|d| u8::try_from(d).ok())
            .filter(|d| (1..=6).contains(d))
    };
    let (Some(d0), Some(d1)) = (die("red"), die("green")) else {
        let shown = |k: &str| mv.get(k).map_or("none".to_string(), show);
        return Err(format!(
            "dice {} and {} are not 1 to 6",
            shown("red"),
            shown("green")
        ));
    };
    let steps = steps(mv.get("from"), mv.get("to"))?;
    follow_cube(line, p, mv, g, cube);
    if let Some(list) = mv.get("moveAnalysis") {
        match analysis(list, &steps) {
            Ok(Some(a)) => g.bgblitz_plays.push(BgblitzPlay { node: line, ..a }),
            Ok(None) => {}
            Err(why) => g
                .unread
                .push((line, format!("move {line}: moveAnalysis: {why}; not read"))),
        }
    }
    g.actions.push((line, Action::played(p, (d0, d1), steps)));
    Ok(())
}

/// BGBlitz's analysis of a roll: the entry marked `played` (or, with no
/// mark, the one whose `move` is the play recorded), its `eq.equity` and
/// `ply`, and the best `eq.equity` of the list. `None` for an empty list.
fn analysis(list: &Value, played: &[Step]) -> Result<Option<BgblitzPlay>, String> {
    let Some(list) = list.as_array() else {
        return Err(format!("{}, not an array", list.kind()));
    };
    if list.is_empty() {
        return Ok(None);
    }
    let equity = |e: &Value| {
        e.get("eq")
            .and_then(|q| q.get("equity"))
            .and_then(Value::as_f64)
    };
    let same = |e: &Value| {
        let m = e.get("move");
        let s = steps(m.and_then(|m| m.get("from")), m.and_then(|m| m.get("to")));
        s.is_ok_and(|mut s| {
            let mut want = played.to_vec();
            let key = |x: &Step| (x.from, x.to);
            s.sort_by_key(key);
            want.sort_by_key(key);
            s == want
        })
    };
    let marked = list
        .iter()
        .find(|e| e.get("played").and_then(Value::as_bool) == Some(true));
    let Some(entry) = marked.or_else(|| list.iter().find(|e| same(e))) else {
        return Err("no entry is the play recorded".into());
    };
    if !same(entry) {
        return Err("the entry marked played is not the play recorded".into());
    }
    let best = list
        .iter()
        .filter_map(equity)
        .filter(|e| e.is_finite())
        .fold(None, |b: Option<f64>, e| Some(b.map_or(e, |b| b.max(e))));
    let own = equity(entry).filter(|e| e.is_finite());
    Ok(Some(BgblitzPlay {
        node: 0,
        eval: int(entry, "ply").map_or(String::new(), |p| format!("{p}-ply")),
        equity: own,
        loss: own.zip(best).map(|(o, b)| loss(b, o)),
    }))
}

/// The loss of a play of equity `own` against the `best`, both as BGBlitz
/// wrote them: their difference with the binary subtraction's last bits
/// rounded away (0.09 − 0.089 is 0.001, not 0.0010000000000000009), to
/// the twelfth decimal, far below any equity's meaning.
fn loss(best: f64, own: f64) -> f64 {
    (((best - own) * 1e12).round() / 1e12).max(0.0)
}

/// The cube value a roll carries (`equity.cube`) against the one the cube
/// actions read give: a change with no action read is a finding, and a
/// doubling is followed as a double by the roller, taken, so that the
/// rest of the game is replayed at the cube BGBlitz states.
fn follow_cube(line: u32, p: usize, mv: &Value, g: &mut GameRecord, cube: &mut Cube) {
    let Some(stated) = mv.get("equity").and_then(|e| e.get("cube")) else {
        return;
    };
    let value = match stated.as_i64().and_then(|c| u32::try_from(c).ok()) {
        Some(c) if c.is_power_of_two() => c,
        _ => {
            g.unread.push((
                line,
                format!(
                    "move {line}: equity.cube {} is not a cube value",
                    show(stated)
                ),
            ));
            return;
        }
    };
    if value == cube.value || cube.pending.is_some() {
        return;
    }
    if value == cube.value.saturating_mul(2) {
        g.unread.push((
            line,
            format!(
                "move {line}: the cube is {value} here, {} by the cube actions read: a cube action not read, followed as a double by player {p}, taken",
                cube.value
            ),
        ));
        g.actions.push((line, Action::Double { player: p, value }));
        g.actions.push((line, Action::Take { player: 1 - p }));
    } else {
        g.unread.push((
            line,
            format!(
                "move {line}: the cube is {value} here, {} by the cube actions read: cube actions not read",
                cube.value
            ),
        ));
    }
    cube.value = value;
}

/// The steps `from[i]`→`to[i]` in the mover's numbering: 1–24, 25 the bar
/// (as `from`), 0 off (as `to`), −1 unused (ends the list).
fn steps(from: Option<&Value>, to: Option<&Value>) -> Result<Vec<Step>, String> {
    let (Some(from), Some(to)) = (from.and_then(Value::as_array), to.and_then(Value::as_array))
    else {
        return Err("no 'from' and 'to' arrays".into());
    };
    if from.len() != to.len() || from.len() > 4 {
        return Err(format!(
            "{} 'from' and {} 'to' points (four each expected)",
            from.len(),
            to.len()
        ));
    }
    let mut out = Vec::new();
    for (f, t) in from.iter().zip(to) {
        let (Some(f), Some(t)) = (f.as_i64(), t.as_i64()) else {
            return Err("a point that is not a number".into());
        };
        if f == -1 {
            break;
        }
        let from = match f {
            25 => BAR_POINT,
            1..=24 => f as u8,
            v => return Err(format!("unknown 'from' point {v}")),
        };
        let to = match t {
            0 => OFF_POINT,
            1..=24 => t as u8,
            v => return Err(format!("unknown 'to' point {v}")),
        };
        out.push(Step {
            from,
            to,
            hit: false,
        });
    }
    Ok(out)
}

/// The game's result: the winner is the player whose score rose by
/// `wonPoints` from this game's score to the next (a negative `wonPoints`
/// names red when the scores do not tell); a forfeit is the loser's
/// concession. `None` for a game without points (not finished).
fn result(
    g: &Value,
    before: [Option<i64>; 2],
    after: [Option<i64>; 2],
) -> Result<Option<Action>, String> {
    let Some(won) = g.get("wonPoints") else {
        return Err("no wonPoints; the result is not read".into());
    };
    let Some(won) = won.as_i64() else {
        return Err(format!("wonPoints {} is not a number", show(won)));
    };
    if won == 0 {
        return Ok(None);
    }
    let points = u32::try_from(won.unsigned_abs())
        .map_err(|_| format!("wonPoints {won} is out of range"))?;
    let rise = |p: usize| match (before[p], after[p]) {
        (Some(b), Some(a)) => a.checked_sub(b),
        _ => None,
    };
    let (rg, rr) = (rise(0), rise(1));
    let by_score = match (rg, rr) {
        (Some(g), Some(0)) if g == i64::from(points) => Some(0),
        (Some(0), Some(r)) if r == i64::from(points) => Some(1),
        (Some(g), Some(0)) if g > 0 => Some(0),
        (Some(0), Some(r)) if r > 0 => Some(1),
        _ => None,
    };
    let Some(winner) = by_score.or((won < 0).then_some(1)) else {
        return Err(format!(
            "wonPoints {won}, but the scores after the game do not tell who won; the result is not read"
        ));
    };
    let forfeit = g.get("wasForfeit").and_then(Value::as_bool) == Some(true);
    Ok(Some(Action::result(winner, points, forfeit)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A small match as JSON text: one game, green opens with 31 (8/5
    /// 6/5), red dances with 66... and resigns a single game.
    const MATCH: &str = r#"{"matchlen": 3, "nameGreen": "ann", "nameRed": "bob",
        "date": "Nov 2, 2025", "finalGreen": 1, "finalRed": 0,
        "useCube": true, "useCrawford": true, "useJacoby": false,
        "games": [{"scoreGreen": 0, "scoreRed": 0, "wonPoints": 1,
          "wasForfeit": false, "wasResignation": true, "moves": [
          {"type": "amove", "player": 1, "red": 3, "green": 1,
           "from": [8, 6, -1, -1], "to": [5, 5, -1, -1], "equity": {"cube": 1}},
          {"type": "amove", "player": -1, "red": 6, "green": 6,
           "from": [-1, -1, -1, -1], "to": [-1, -1, -1, -1], "equity": {"cube": 1}},
          {"type": "aresign", "player": -1}]}]}"#;

    fn gz(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn file(header: &str, body: &[u8]) -> Vec<u8> {
        [header.as_bytes(), b"\n", body].concat()
    }

    #[test]
    fn every_header_the_description_allows() {
        let json = MATCH.as_bytes();
        let want = read_bgf(&file(
            r#"{"version":"1","compression":"none","encoding":"json"}"#,
            json,
        ))
        .unwrap();
        assert_eq!(want.players, ["ann".to_string(), "bob".into()]);
        assert_eq!((want.length, want.games.len()), (3, 1));
        assert_eq!(want.tag("EventDate"), Some("2025.11.02"));
        assert_eq!(want.tag("Crawford"), Some("On"));
        assert_eq!(want.tag("BGBlitz version"), Some("1"));
        let without_version = |m: MatchRecord| {
            let mut m = m;
            m.tags.retain(|(k, _)| k != "BGBlitz version");
            m
        };
        let want = without_version(want);
        for (header, body) in [
            (r#"{"compression":"gzip","encoding":"json"}"#, gz(json)),
            (
                r#"{"format":"BGF","compress":true,"useSmile":false}"#,
                gz(json),
            ),
            (
                r#"{"format":"BGF","compress":false,"useSmile":false}"#,
                json.to_vec(),
            ),
            // Nothing stated: the magic numbers say.
            (r#"{"format":"BGF"}"#, gz(json)),
            (r#"{}"#, json.to_vec()),
        ] {
            let m = read_bgf(&file(header, &body)).unwrap_or_else(|e| panic!("{header}: {e}"));
            assert_eq!(without_version(m), want, "{header}");
        }
        for (header, why) in [
            (r#"{"compression":"xz"}"#, "does not read"),
            (r#"{"encoding":"cbor"}"#, "does not read"),
            (r#"{"compress":"yes"}"#, "not true or false"),
            (r#"{"compression":"gzip","compress":false}"#, "twice"),
            (r#"["gzip"]"#, "not a JSON object"),
            ("version 1", "not JSON"),
        ] {
            let e = read_bgf(&file(header, json)).unwrap_err().0;
            assert!(e.contains(why), "{header}: {e}");
        }
        assert!(read_bgf(b"no newline")
            .unwrap_err()
            .0
            .contains("no JSON header"));
    }

    #[test]
    fn the_small_match_reads_as_its_actions() {
        let m = read_bgf(&file("{}", MATCH.as_bytes())).unwrap();
        let g = &m.games[0];
        assert!(g.unread.is_empty(), "{:?}", g.unread);
        assert_eq!(g.score, Some([0, 0]));
        let acts: Vec<&Action> = g.actions.iter().map(|(_, a)| a).collect();
        assert!(matches!(
            acts[0],
            Action::Roll { player: 0, dice: (3, 1), steps, text } if steps.len() == 2 && text == "8/5 6/5"
        ));
        assert!(matches!(acts[1], Action::Roll { player: 1, steps, .. } if steps.is_empty()));
        assert_eq!(
            acts[2],
            &Action::Wins {
                player: 0,
                points: 1,
                and_match: false
            }
        );
    }

    fn with_moves(moves: &str, won: i64, finals: (i64, i64)) -> MatchRecord {
        let json = format!(
            r#"{{"matchlen": 5, "finalGreen": {}, "finalRed": {}, "games": [{{"scoreGreen": 0, "scoreRed": 0, "wonPoints": {won}, "moves": [{moves}]}}]}}"#,
            finals.0, finals.1
        );
        read_bgf(&file("{}", json.as_bytes())).unwrap()
    }

    const OPEN: &str = r#"{"type":"amove","player":1,"red":3,"green":1,"from":[8,6,-1,-1],"to":[5,5,-1,-1],"equity":{"cube":1}}"#;

    #[test]
    fn cube_actions_as_guessed() {
        // A double taken in one record; the next roll is at cube 2.
        let m = with_moves(
            &format!(
                r#"{OPEN},{{"type":"adouble","player":-1,"hasAccepted":true}},{{"type":"amove","player":-1,"red":6,"green":5,"from":[24,18,-1,-1],"to":[18,13,-1,-1],"equity":{{"cube":2}}}}"#
            ),
            0,
            (0, 0),
        );
        let g = &m.games[0];
        assert!(g.unread.is_empty(), "{:?}", g.unread);
        assert!(matches!(
            g.actions[1].1,
            Action::Double {
                player: 1,
                value: 0
            }
        ));
        assert!(matches!(g.actions[2].1, Action::Take { player: 0 }));
        // A double, then its answer in a record of its own.
        let m = with_moves(
            &format!(r#"{OPEN},{{"type":"adouble","player":-1}},{{"type":"apass","player":1}}"#),
            1,
            (0, 1),
        );
        let acts: Vec<&Action> = m.games[0].actions.iter().map(|(_, a)| a).collect();
        assert!(matches!(acts[2], Action::Drop { player: 0 }));
        assert!(matches!(
            acts[3],
            Action::Wins {
                player: 1,
                points: 1,
                ..
            }
        ));
    }

    #[test]
    fn a_cube_change_without_an_action_is_a_finding_and_followed() {
        let m = with_moves(
            &format!(
                r#"{OPEN},{{"type":"amove","player":-1,"red":6,"green":5,"from":[24,18,-1,-1],"to":[18,13,-1,-1],"equity":{{"cube":2}}}},{{"type":"amove","player":1,"red":2,"green":1,"from":[13,24,-1,-1],"to":[11,23,-1,-1],"equity":{{"cube":8}}}}"#
            ),
            0,
            (0, 0),
        );
        let g = &m.games[0];
        let unread: Vec<&str> = g.unread.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(unread.len(), 2, "{unread:?}");
        assert!(
            unread[0].contains("cube is 2 here, 1 by the cube actions read"),
            "{unread:?}"
        );
        assert!(unread[1].contains("cube is 8 here, 2"), "{unread:?}");
        assert!(matches!(
            g.actions[1].1,
            Action::Double {
                player: 1,
                value: 2
            }
        ));
        assert!(matches!(g.actions[2].1, Action::Take { player: 0 }));
    }

    #[test]
    fn unknown_records_are_findings_and_the_rest_is_read() {
        let m = with_moves(
            &format!(
                r#"{OPEN},{{"type":"abeaver","player":1}},{{"player":1}},{{"type":"amove","player":3,"red":1,"green":1,"from":[],"to":[]}},{{"type":"amove","player":-1,"red":7,"green":1,"from":[],"to":[]}},{{"type":"amove","player":-1,"red":6,"green":1,"from":[30,-1,-1,-1],"to":[1,-1,-1,-1]}},{{"type":"amove","player":-1,"red":6,"green":1,"from":[13,-1],"to":[7,-1,-1]}},{{"type":"amove","player":-1,"red":6,"green":5,"from":[24,18,-1,-1],"to":[18,13,-1,-1],"equity":{{"cube":3}}}}"#
            ),
            2,
            (1, 1),
        );
        let g = &m.games[0];
        let unread: Vec<&str> = g.unread.iter().map(|(_, w)| w.as_str()).collect();
        let want = [
            "move 2: unknown move type 'abeaver'",
            "move 3: no type",
            "move 4: unknown player 3",
            "move 5: dice 7 and 1",
            "move 6: unknown 'from' point 30",
            "move 7: 2 'from' and 3 'to' points",
            "move 8: equity.cube 3 is not a cube value",
            "game end: wonPoints 2, but the scores",
        ];
        assert_eq!(unread.len(), want.len(), "{unread:?}");
        for (u, w) in unread.iter().zip(want) {
            assert!(u.starts_with(w), "{u} / {w}");
        }
        // The two plays read: the opening and the last.
        assert_eq!(g.actions.len(), 2);
    }

    #[test]
    fn the_winner_from_the_scores_or_the_sign() {
        let won = |m: MatchRecord| m.games[0].actions.last().cloned().map(|(_, a)| a);
        assert!(matches!(
            won(with_moves(OPEN, 2, (2, 0))),
            Some(Action::Wins {
                player: 0,
                points: 2,
                ..
            })
        ));
        assert!(matches!(
            won(with_moves(OPEN, 2, (0, 2))),
            Some(Action::Wins {
                player: 1,
                points: 2,
                ..
            })
        ));
        assert!(matches!(
            won(with_moves(OPEN, -2, (0, 0))),
            Some(Action::Wins {
                player: 1,
                points: 2,
                ..
            })
        ));
        assert!(matches!(
            won(with_moves(OPEN, 0, (0, 0))),
            Some(Action::Roll { .. })
        ));
        let json = r#"{"matchlen": 0, "finalGreen": 0, "finalRed": 1, "games": [{"scoreGreen": 0, "scoreRed": 0, "wonPoints": 1, "wasForfeit": true, "moves": []}]}"#;
        let m = read_bgf(&file("{}", json.as_bytes())).unwrap();
        assert_eq!(m.length, 0);
        assert!(matches!(
            won(m),
            Some(Action::Loses {
                player: 0,
                points: 1
            })
        ));
    }

    #[test]
    fn broken_bodies_are_errors() {
        let smile_header = r#"{"compression":"gzip","encoding":"smile"}"#;
        let good = gz(b":)\n\x03\xfa\x87matchlen\xc6\x84games\xf8\xf9\xfb");
        let e = read_bgf(&file(smile_header, &good)).unwrap_err().0;
        assert!(e.contains("holds no game"), "{e}");
        let e = read_bgf(&file(smile_header, &good[..good.len() - 9]))
            .unwrap_err()
            .0;
        assert!(e.starts_with("corrupt BGBlitz file: its gzip body"), "{e}");
        let mut flipped = good.clone();
        flipped[12] ^= 0xFF;
        let e = read_bgf(&file(smile_header, &flipped)).unwrap_err().0;
        assert!(e.starts_with("corrupt BGBlitz file"), "{e}");
        let e = read_bgf(&file(smile_header, &gz(b":)\n\x03\xfa\xf9")))
            .unwrap_err()
            .0;
        assert!(
            e.contains("SMILE byte 5: token 0xF9 is not a property name"),
            "{e}"
        );
        let e = read_bgf(&file(smile_header, &gz(b"{}"))).unwrap_err().0;
        assert!(e.contains("no SMILE header"), "{e}");
        let big = gz(&vec![b' '; 3 << 20]);
        let e = read_bgf_within(&file(smile_header, &big), 1 << 20)
            .unwrap_err()
            .0;
        assert!(e.starts_with("oversized BGBlitz file"), "{e}");
        let e = read_bgf(&file("{}", &vec![b' '; MAX_JSON_BODY + 1]))
            .unwrap_err()
            .0;
        assert!(e.contains("a JSON body of more than 16 MiB"), "{e}");
        let e = read_bgf(&file("{}", b"[1, 2]")).unwrap_err().0;
        assert!(e.contains("an array, not an object"), "{e}");
        let e = read_bgf(&file("{}", br#"{"games": [{}]}"#)).unwrap_err().0;
        assert!(e.contains("no 'matchlen'"), "{e}");
    }

    /// Bytes of the fixture's SMILE body changed, stored without
    /// compression: mostly small-int tokens (players, dice, points, scores,
    /// cube values) made other small ints, so the records reach the reader,
    /// and one round in four any byte. The reader and the replay take every
    /// mutant without a panic, as an error or as findings.
    #[test]
    fn mutated_smile_bodies_never_panic() {
        use crate::bg::game::audit::audit_match;
        use crate::bg::game::replay::KeepCube;
        let fixture =
            include_bytes!("../../../fixtures/bg/bgf/charlot1-charlot2_7p_2025-11-08-2305.bgf");
        let start = fixture.iter().position(|&b| b == b'\n').unwrap() + 1;
        let mut body = Vec::new();
        flate2::read::GzDecoder::new(&fixture[start..])
            .read_to_end(&mut body)
            .unwrap();
        let header = r#"{"compression":"none","encoding":"smile"}"#;
        let mut rng = crate::rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next();
        let (mut read, mut failed, mut findings) = (0, 0, 0);
        let ints: Vec<usize> = (4..body.len())
            .filter(|&i| (0xC0..=0xDF).contains(&body[i]))
            .collect();
        for round in 0..300 {
            let mut b = body.clone();
            for _ in 0..1 + next() % 4 {
                if round % 4 == 0 {
                    let at = 4 + (next() as usize) % (b.len() - 4);
                    b[at] = next() as u8;
                } else {
                    let at = ints[(next() as usize) % ints.len()];
                    b[at] = 0xC0 | (next() as u8 & 0x1F);
                }
            }
            match read_bgf(&file(header, &b)) {
                Ok(m) => {
                    read += 1;
                    audit_match(&m, true, KeepCube::All, |g| {
                        findings += g.replayed.findings.len()
                    });
                }
                Err(_) => failed += 1,
            }
        }
        assert!(read > 150 && failed > 30, "{read} read, {failed} failed");
        assert!(findings > 150, "{findings}");
    }

    #[test]
    fn bgblitz_analysis_of_the_played_move() {
        let alt = r#"{"move":{"from":[8,6,-1,-1],"to":[5,5,-1,-1]},"eq":{"equity":0.10},"played":true,"ply":2},{"move":{"from":[24,13,-1,-1],"to":[21,12,-1,-1]},"eq":{"equity":0.14},"played":false,"ply":2}"#;
        let roll = |list: &str| {
            format!(
                r#"{{"type":"amove","player":1,"red":3,"green":1,"from":[6,8,-1,-1],"to":[5,5,-1,-1],"moveAnalysis":[{list}]}}"#
            )
        };
        let m = with_moves(&roll(alt), 0, (0, 0));
        let a = &m.games[0].bgblitz_plays;
        assert_eq!(a.len(), 1, "{:?}", m.games[0].unread);
        assert_eq!((a[0].node, a[0].eval.as_str()), (1, "2-ply"));
        assert_eq!(a[0].equity, Some(0.10));
        // 0.14 − 0.10 is 0.04000000000000001 in binary: written as 0.04.
        assert_eq!(a[0].loss, Some(0.04));
        // No played mark: the entry whose move is the play.
        let m = with_moves(&roll(&alt.replace(r#""played":true,"#, "")), 0, (0, 0));
        assert_eq!(m.games[0].bgblitz_plays.len(), 1);
        // The mark on another move: a finding, the roll still read.
        let wrong = alt
            .replace(r#""played":true"#, r#""played":"x""#)
            .replace(r#""played":false"#, r#""played":true"#);
        let m = with_moves(&roll(&wrong), 0, (0, 0));
        assert!(m.games[0].bgblitz_plays.is_empty());
        assert!(m.games[0].unread[0].1.contains("not the play recorded"));
        assert_eq!(m.games[0].actions.len(), 1);
    }

    #[test]
    fn bytes_after_the_smile_value_are_a_finding() {
        // {"matchlen":1,"games":[{}]}, then two stray bytes.
        let body = b":)\n\x01\xfa\x87matchlen\xc2\x84games\xf8\xfa\xfb\xf9\xfb\x21\x21";
        let m = read_bgf(&file(r#"{"encoding":"smile"}"#, body)).unwrap();
        let unread: Vec<&str> = m.games[0].unread.iter().map(|(_, w)| w.as_str()).collect();
        assert!(
            unread.contains(&"2 bytes after the match's SMILE value were not read"),
            "{unread:?}"
        );
        // A header that says gzip over a body that is not.
        let e = read_bgf(&file(r#"{"compression":"gzip"}"#, body))
            .unwrap_err()
            .0;
        assert!(e.contains("gzip body does not unpack"), "{e}");
    }

    #[test]
    fn dates() {
        assert_eq!(event_date("Nov 2, 2025").as_deref(), Some("2025.11.02"));
        assert_eq!(
            event_date("December 31, 1999").as_deref(),
            Some("1999.12.31")
        );
        assert_eq!(event_date("2.11.2025"), None);
    }
}
