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
/// comma as a point (`W+6,5`), plus the Chinese and
/// Japanese wordings Asian servers use for a win by resignation (黑中盘胜,
/// 白中押し勝ち) and a bare win (黑胜).
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

fn parse_asian(text: &str) -> Option<GameResult> {
    let winner = match text.chars().next()? {
        '黑' | '黒' => Color::Black,
        '白' => Color::White,
        _ => return None,
    };
    let won = GameResult {
        winner: Some(winner),
        ..GameResult::default()
    };
    if ["中盘", "中盤", "中押"].iter().any(|w| text.contains(w)) {
        Some(GameResult {
            kind: EndKind::Resign,
            ..won
        })
    } else if ["胜", "勝"].iter().any(|w| text.contains(w)) {
        Some(won)
    } else {
        None
    }
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
        let r = parse_result("黑胜3又3/4子");
        assert_eq!((r.kind, r.winner), (EndKind::Unknown, Some(Color::Black)));
    }
}
