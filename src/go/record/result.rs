//! The recorded result (`RE`): who won, by what, and how the game ended.

use crate::go::board::Color;
use serde::Serialize;

/// How the recorded game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// Counted: a winner and a margin (`B+3.5`).
    Score,
    Resign,
    Time,
    Forfeit,
    /// `0`, `Draw`, `Jigo`.
    Draw,
    /// No result (`Void`).
    Void,
    /// Absent, `?`, or text we cannot read (a winner may still be known,
    /// as in `B+`).
    #[default]
    Unknown,
}

/// `RE` read into its parts; the raw text is kept by the record.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GameResult {
    pub kind: EndKind,
    pub winner: Option<Color>,
    pub margin: Option<f64>,
}

/// Reads `RE` as SGF `FF[4]` writes it (`B+3.5`, `W+R`, `B+Resign`, `W+T`,
/// `B+F`, `0`, `Draw`, `Void`, `?`), case-insensitively, a margin's decimal
/// comma as a point (`W+6,5`), plus the Chinese, Japanese and Korean
/// wordings of Asian servers (`parse_asian`: 黑中盘胜, 白胜3目半,
/// 黑胜3又3/4子, 흑 6집반 승).
///
/// # Examples
/// ```
/// use recount::go::record::result::{parse_result, EndKind};
/// assert_eq!(parse_result("W+12.5").margin, Some(12.5));
/// assert_eq!(parse_result("W+6,5").margin, Some(6.5));
/// assert_eq!(parse_result("b+resign").kind, EndKind::Resign);
/// ```
pub fn parse_result(raw: &str) -> GameResult {
    let text = raw.trim();
    let lower = text.to_ascii_lowercase();
    let unknown = GameResult::default();
    match lower.as_str() {
        "" | "?" => return unknown,
        "0" | "draw" | "jigo" | "d" | "0.0" => {
            return GameResult {
                kind: EndKind::Draw,
                ..unknown
            };
        }
        "void" => {
            return GameResult {
                kind: EndKind::Void,
                ..unknown
            }
        }
        _ => {}
    }
    if let Some(r) = parse_asian(text) {
        return r;
    }
    let winner = match lower.as_bytes().first() {
        Some(b'b') => Color::Black,
        Some(b'w') => Color::White,
        _ => return unknown,
    };
    let Some(rest) = lower[1..].trim_start().strip_prefix('+') else {
        return unknown;
    };
    let rest = rest.trim();
    let won = GameResult {
        winner: Some(winner),
        ..unknown
    };
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    match word.as_str() {
        "r" | "res" | "resign" | "resignation" => GameResult {
            kind: EndKind::Resign,
            ..won
        },
        "t" | "time" => GameResult {
            kind: EndKind::Time,
            ..won
        },
        "f" | "forfeit" => GameResult {
            kind: EndKind::Forfeit,
            ..won
        },
        "" => match decimal(leading_number(rest)) {
            Some(m) if m.is_finite() => GameResult {
                kind: EndKind::Score,
                margin: Some(m),
                ..won
            },
            _ => won,
        },
        _ => won,
    }
}

/// The number a margin starts with: digits and decimal points or
/// commas, and an exponent (`1e400`) when one follows, so that it is read
/// whole or not at all.
fn leading_number(rest: &str) -> &str {
    let b = rest.as_bytes();
    let mut end = b
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b'.' || **c == b',')
        .count();
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut k = end + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let digits = b[k.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 {
            end = k + digits;
        }
    }
    &rest[..end]
}

/// A note when `RE` names a margin that is not a finite number
/// (`B+1e400`): the winner is read, the margin left empty.
pub fn margin_note(raw: &str) -> Option<String> {
    let lower = raw.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix(['b', 'w'])?
        .trim_start()
        .strip_prefix('+')?
        .trim();
    let num = leading_number(rest);
    if num.is_empty() || parse_result(raw).margin.is_some() {
        return None;
    }
    decimal(num).is_some_and(|m| !m.is_finite()).then(|| {
        format!(
            "RE[{}]: the margin is not a finite number; no margin read",
            raw.trim()
        )
    })
}

/// A decimal number whose point may be written as a comma (`6,5`), as
/// European writers do; infinite ones (`1e400`) included.
pub(crate) fn decimal(num: &str) -> Option<f64> {
    num.replace(',', ".").parse().ok()
}

/// The Chinese, Japanese and Korean wordings of Asian servers and
/// databases: a colour (黑/黒/흑 Black, 白/백 White) and what it did: won
/// (胜/勝/승) or lost (负/負/敗/패, the other colour then wins), by
/// resignation (黑中盘胜, 白中押し勝ち, 백불계승), on time (超时, 時間切れ,
/// 시간), or by a margin in points (目, 点, 집: 白胜3目半, 흑 6집반 승) or
/// in stones (子, two points each: 黑胜3又3/4子 is 7.5 points). The
/// colour is the one nearest before the verb, and the margin is read in
/// its clause only, so that a komi mentioned beside it (黑贴7.5目 白胜2目)
/// is not taken for either. A bare win (黑胜) leaves the margin unknown.
fn parse_asian(text: &str) -> Option<GameResult> {
    let colour = |c: char| match c {
        '黑' | '黒' | '흑' => Some(Color::Black),
        '白' | '백' => Some(Color::White),
        _ => None,
    };
    colour(text.chars().next()?)?;
    const WON: [char; 3] = ['胜', '勝', '승'];
    const LOST: [char; 4] = ['负', '負', '敗', '패'];
    let verb = text.find(|c: char| WON.contains(&c) || LOST.contains(&c));
    // The clause: from the colour nearest before the verb (the text
    // starts with one) to the next colour after it.
    let upto = verb.unwrap_or(text.len());
    let (at, who) = text[..upto]
        .char_indices()
        .rev()
        .find_map(|(i, c)| colour(c).map(|k| (i, k)))?;
    let after_colour = at + text[at..].chars().next()?.len_utf8();
    let clause_end = text[upto..]
        .char_indices()
        .find(|&(_, c)| colour(c).is_some())
        .map_or(text.len(), |(i, _)| upto + i);
    let clause = &text[after_colour..clause_end];
    let lost = verb.is_some_and(|v| text[v..].starts_with(|c: char| LOST.contains(&c)));
    let winner = if lost { who.opponent() } else { who };
    let won = GameResult {
        winner: Some(winner),
        ..GameResult::default()
    };
    let has = |words: &[&str]| words.iter().any(|w| clause.contains(w));
    let kind = if has(&["中盘", "中盤", "中押", "불계"]) {
        EndKind::Resign
    } else if has(&["超时", "时间", "時間", "시간"]) {
        EndKind::Time
    } else if let Some(margin) = asian_margin(clause) {
        return Some(GameResult {
            kind: EndKind::Score,
            margin: Some(margin),
            ..won
        });
    } else if verb.is_some() {
        EndKind::Unknown
    } else {
        return None;
    };
    Some(GameResult { kind, ..won })
}

/// The margin of an Asian result's clause in points: a number (`3`,
/// `3.5`, `3,5`, `3又3/4`, `3 3/4`, `1/4`, full-width digits too) before
/// its unit, points (目, 点, 집) or stones (子, two points each), a half
/// (半, 반) after the unit adding 0.5; `半目` alone is half a point.
/// `None` without a unit or a number (numerals in characters are not
/// read).
fn asian_margin(clause: &str) -> Option<f64> {
    // Full-width digits and points as ASCII.
    let clause: String = clause
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '．' => '.',
            '／' => '/',
            c => c,
        })
        .collect();
    let (at, unit, scale) = [("目", 1.0), ("点", 1.0), ("집", 1.0), ("子", 2.0)]
        .iter()
        .find_map(|&(u, k)| clause.find(u).map(|at| (at, u, k)))?;
    let before = clause[..at].trim_end();
    let is_half = |c: char| c == '半' || c == '반';
    let after = clause[at + unit.len()..].trim_start();
    let extra = if after.starts_with(is_half) { 0.5 } else { 0.0 };
    if let Some(rest) = before.strip_suffix(is_half) {
        if !rest.trim_end().ends_with(|c: char| c.is_ascii_digit()) {
            return Some(0.5 * scale);
        }
    }
    // The number just before the unit: digits, points, commas, slashes,
    // 又 and the spaces between them.
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_ascii_digit() || matches!(c, '.' | ',' | '/' | '又' | ' '))
        .last()?
        .0;
    let number = before[start..].trim().replace(',', ".");
    let parts: Vec<&str> = number
        .split(['又', ' '])
        .filter(|p| !p.is_empty())
        .collect();
    let value = match parts.as_slice() {
        [whole, part] if part.contains('/') => whole.parse::<f64>().ok()? + fraction(part)?,
        [part] if part.contains('/') => fraction(part)?,
        [n] => n.parse::<f64>().ok()?,
        _ => return None,
    };
    Some((value + extra) * scale).filter(|m| m.is_finite())
}

/// `a/b` as a number.
fn fraction(text: &str) -> Option<f64> {
    let (a, b) = text.split_once('/')?;
    let (a, b) = (a.parse::<f64>().ok()?, b.parse::<f64>().ok()?);
    (b != 0.0).then(|| a / b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_usual_forms() {
        let r = parse_result("B+3.5");
        assert_eq!(
            (r.kind, r.winner, r.margin),
            (EndKind::Score, Some(Color::Black), Some(3.5))
        );
        assert_eq!(parse_result("W+R").kind, EndKind::Resign);
        assert_eq!(parse_result("W+Resign").winner, Some(Color::White));
        assert_eq!(parse_result("B+T").kind, EndKind::Time);
        assert_eq!(parse_result("W+Time").kind, EndKind::Time);
        assert_eq!(parse_result("B+F").kind, EndKind::Forfeit);
        assert_eq!(parse_result("Jigo").kind, EndKind::Draw);
        assert_eq!(parse_result("0").kind, EndKind::Draw);
        assert_eq!(parse_result("Void").kind, EndKind::Void);
        assert_eq!(parse_result("?"), GameResult::default());
    }

    #[test]
    fn partial_and_odd_forms() {
        let r = parse_result("B+");
        assert_eq!((r.kind, r.winner), (EndKind::Unknown, Some(Color::Black)));
        assert_eq!(parse_result("W+0.5").margin, Some(0.5));
        assert_eq!(parse_result("B+12").margin, Some(12.0));
        assert_eq!(parse_result("black wins"), GameResult::default());
        let r = parse_result("B+1e400");
        assert_eq!(
            (r.kind, r.winner, r.margin),
            (EndKind::Unknown, Some(Color::Black), None)
        );
        assert_eq!(parse_result("W+1e1").margin, Some(10.0));
        assert_eq!(parse_result("W+3.5e").margin, Some(3.5));
        assert!(margin_note("B+1e400").is_some() && margin_note("B+3.5").is_none());
        assert!(margin_note(&format!("W+{}", "9".repeat(400))).is_some());
        assert_eq!(parse_result("黑中盘胜").kind, EndKind::Resign);
        assert_eq!(parse_result("白中押し勝ち").winner, Some(Color::White));
        let r = parse_result("黑胜");
        assert_eq!((r.kind, r.winner), (EndKind::Unknown, Some(Color::Black)));
    }

    #[test]
    fn asian_margins_in_points_and_stones() {
        let read = |re: &str| {
            let r = parse_result(re);
            (r.kind, r.winner, r.margin)
        };
        let score = |c: Color, m: f64| (EndKind::Score, Some(c), Some(m));
        assert_eq!(read("黑胜3又3/4子"), score(Color::Black, 7.5));
        assert_eq!(read("白胜1/4子"), score(Color::White, 0.5));
        assert_eq!(read("黑胜2子"), score(Color::Black, 4.0));
        assert_eq!(read("白胜3目半"), score(Color::White, 3.5));
        assert_eq!(read("白胜半目"), score(Color::White, 0.5));
        assert_eq!(read("黒3目半勝ち"), score(Color::Black, 3.5));
        assert_eq!(read("黑胜7.5点"), score(Color::Black, 7.5));
        assert_eq!(read("흑 6집반 승"), score(Color::Black, 6.5));
        assert_eq!(read("백 2.5집 승"), score(Color::White, 2.5));
        assert_eq!(read("백불계승").0, EndKind::Resign);
        assert_eq!(read("黑超时胜").0, EndKind::Time);
        // A unit without a number, or a number without a unit: no margin.
        assert_eq!(read("黑胜目"), (EndKind::Unknown, Some(Color::Black), None));
        assert_eq!(read("白胜3"), (EndKind::Unknown, Some(Color::White), None));
        // A loss names the loser; a komi beside the result is neither
        // the winner nor the margin.
        assert_eq!(read("黑负3目"), score(Color::White, 3.0));
        assert_eq!(
            read("흑 불계패"),
            (EndKind::Resign, Some(Color::White), None)
        );
        assert_eq!(read("백 시간패").1, Some(Color::Black));
        assert_eq!(read("黑贴7.5目 白胜2目"), score(Color::White, 2.0));
        assert_eq!(
            read("白胜 黑贴7.5目"),
            (EndKind::Unknown, Some(Color::White), None)
        );
        // Numbers as they are written: spaces, a decimal comma, full width.
        assert_eq!(read("白胜 1 又 1/4 子"), score(Color::White, 2.5));
        assert_eq!(read("黑胜3 3/4子"), score(Color::Black, 7.5));
        assert_eq!(read("黑胜2,5目"), score(Color::Black, 2.5));
        assert_eq!(read("白胜３目半"), score(Color::White, 3.5));
        assert_eq!(read("黑时间胜").0, EndKind::Time);
    }
}
