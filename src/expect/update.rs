//! `recount check --update`: expected values rewritten from the current
//! results in the file's own text. Comments, order and layout stay; a value
//! keeps its kind (a number stays a number) where the new one has it, and a
//! `{ value = N, tolerance = T }` keeps its tolerance.

use super::value::number;
use toml_edit::{DocumentMut, Item, TableLike, Value};

/// One expected value to replace: entry `entry` (1-based), column
/// `column`, by the report's cell `cell`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub entry: usize,
    pub column: String,
    pub cell: String,
}

/// `text` with every change made.
///
/// # Errors
/// When the text is not the expectations file the changes were found in.
pub fn rewrite(text: &str, changes: &[Change]) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|e| format!("not TOML: {e}"))?;
    for c in changes {
        let gone = || format!("entry {} has no expected `{}`", c.entry, c.column);
        let entry = entry_mut(doc.get_mut("entry"), c.entry).ok_or_else(gone)?;
        let expect = entry
            .get_mut("expect")
            .and_then(Item::as_table_like_mut)
            .ok_or_else(gone)?;
        let item = expect.get_mut(&c.column).ok_or_else(gone)?;
        let slot = match item.as_table_like_mut() {
            Some(inner) => inner.get_mut("value").ok_or_else(gone)?,
            None => item,
        };
        let old = slot.as_value_mut().ok_or_else(gone)?;
        let decor = old.decor().clone();
        *old = value_like(old, &c.cell);
        *old.decor_mut() = decor;
    }
    Ok(doc.to_string())
}

/// Entry `n` (1-based) of `[[entry]]` tables or an inline list.
fn entry_mut(item: Option<&mut Item>, n: usize) -> Option<&mut dyn TableLike> {
    match item? {
        Item::ArrayOfTables(a) => a.get_mut(n - 1).map(|t| t as &mut dyn TableLike),
        Item::Value(Value::Array(a)) => a
            .get_mut(n - 1)?
            .as_inline_table_mut()
            .map(|t| t as &mut dyn TableLike),
        _ => None,
    }
}

/// The cell as a value of the old one's kind, where it has that kind.
fn value_like(old: &Value, cell: &str) -> Value {
    match old {
        Value::Integer(_) | Value::Float(_) => match (cell.parse::<i64>(), number(cell)) {
            (Ok(n), _) => Value::from(n),
            // `3.0` where an integer was written stays an integer.
            (_, Some(x))
                if matches!(old, Value::Integer(_)) && x.fract() == 0.0 && x.abs() < 1e15 =>
            {
                Value::from(x as i64)
            }
            (_, Some(x)) => Value::from(x),
            _ => Value::from(cell),
        },
        Value::Boolean(_) if cell == "true" || cell == "false" => Value::from(cell == "true"),
        _ => Value::from(cell),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(entry: usize, column: &str, cell: &str) -> Change {
        Change {
            entry,
            column: column.into(),
            cell: cell.into(),
        }
    }

    #[test]
    fn values_change_and_everything_else_stays() {
        let text = r#"# readings
[[entry]]
name = "a"   # the first
text = "X"
expect = { score_count = 3, traditional = "Black has 3 points more than White" }

[[entry]]
text = "Y"
[entry.expect]
# the cube
nd = { value = 0.5, tolerance = 1e-5 }  # gnubg
cube = 2
"#;
        let got = rewrite(
            text,
            &[
                change(1, "score_count", "2.5"),
                change(2, "cube", "4.0"),
                change(1, "traditional", "Black has 2.5 points more than White"),
                change(2, "nd", "0.51"),
                change(2, "cube", "not a number"),
            ],
        )
        .unwrap();
        let want = text
            .replace("score_count = 3,", "score_count = 2.5,")
            .replace("has 3 points", "has 2.5 points")
            .replace("value = 0.5,", "value = 0.51,")
            .replace("cube = 2", "cube = \"not a number\"");
        assert_eq!(got, want);
        assert!(rewrite(text, &[change(3, "nd", "1")]).is_err());
        assert!(rewrite(text, &[change(1, "nd", "1")]).is_err());
    }

    #[test]
    fn inline_lists_of_entries_are_rewritten_too() {
        let text = "entry = [{ text = \"X\", expect = { a = true } }]\n";
        let got = rewrite(text, &[change(1, "a", "false")]).unwrap();
        assert_eq!(got, "entry = [{ text = \"X\", expect = { a = false } }]\n");
    }
}
