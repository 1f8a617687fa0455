//! Expected values and how a report's cell is held against one: text
//! exactly, a number by its value (exactly, or within a tolerance), a
//! boolean by its spelling.

use std::fmt;

/// A value as the expectations file writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Want {
    Text(String),
    Number(f64),
    Bool(bool),
}

impl fmt::Display for Want {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Want::Text(t) if t.is_empty() => f.write_str("(empty)"),
            Want::Text(t) => write!(f, "{t:?}"),
            Want::Number(n) => write!(f, "{n}"),
            Want::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// One expected column of an entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub column: String,
    pub want: Want,
    /// Numbers only: the largest difference that still holds.
    pub tolerance: Option<f64>,
}

impl Expected {
    /// Whether the report's `cell` holds this value.
    pub fn holds(&self, cell: &str) -> bool {
        match &self.want {
            Want::Text(t) => t == cell,
            Want::Bool(b) => cell == if *b { "true" } else { "false" },
            Want::Number(n) => number(cell).is_some_and(|got| {
                let tolerance = self.tolerance.unwrap_or(0.0);
                got == *n || (got - n).abs() <= tolerance
            }),
        }
    }

    /// The expected value as a failure line writes it.
    pub fn describe(&self) -> String {
        match self.tolerance {
            Some(t) => format!("{} ± {t}", self.want),
            None => self.want.to_string(),
        }
    }
}

/// A cell read as a number (`+1.000000` included); `None` when it is not one.
pub fn number(cell: &str) -> Option<f64> {
    cell.trim_start_matches('+')
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
}

/// A cell as a failure line writes it.
pub fn describe_cell(cell: &str) -> String {
    if cell.is_empty() {
        "(empty)".into()
    } else if number(cell).is_some() {
        cell.into()
    } else {
        format!("{cell:?}")
    }
}

/// The column of `columns` nearest to a misspelt `name`, when one is near
/// (at most a third of its letters differ).
pub fn nearest<'a>(name: &str, columns: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    columns
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d > 0 && d * 3 <= name.len().max(3))
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance in chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(want: Want, tolerance: Option<f64>) -> Expected {
        Expected {
            column: "c".into(),
            want,
            tolerance,
        }
    }

    #[test]
    fn cells_are_held_against_values() {
        assert!(e(Want::Number(3.0), None).holds("3"));
        assert!(e(Want::Number(3.0), None).holds("3.0"));
        assert!(e(Want::Number(1.0), None).holds("+1.000000"));
        assert!(!e(Want::Number(3.0), None).holds("3.5"));
        assert!(!e(Want::Number(3.0), None).holds(""));
        assert!(!e(Want::Number(3.0), None).holds("three"));
        assert!(e(Want::Number(0.5), Some(0.01)).holds("0.509"));
        assert!(!e(Want::Number(0.5), Some(0.01)).holds("0.52"));
        assert!(e(Want::Text("agrees".into()), None).holds("agrees"));
        assert!(!e(Want::Text("agrees".into()), None).holds("Agrees"));
        assert!(e(Want::Text(String::new()), None).holds(""));
        assert!(e(Want::Bool(true), None).holds("true"));
        assert!(!e(Want::Bool(true), None).holds("1"));
    }

    #[test]
    fn values_are_described_for_people() {
        assert_eq!(e(Want::Number(0.5), Some(0.01)).describe(), "0.5 ± 0.01");
        assert_eq!(e(Want::Text("W+3".into()), None).describe(), "\"W+3\"");
        assert_eq!(describe_cell(""), "(empty)");
        assert_eq!(describe_cell("7"), "7");
        assert_eq!(describe_cell("B"), "\"B\"");
    }

    #[test]
    fn a_misspelt_column_has_a_neighbour() {
        let cols = ["score_japanese", "score_chinese", "verdict"];
        assert_eq!(nearest("score_japanes", cols), Some("score_japanese"));
        assert_eq!(nearest("verdic", cols), Some("verdict"));
        assert_eq!(nearest("nothing_like_it", cols), None);
    }
}
