//! An expectations file read into entries. What can be checked before any
//! record is read is checked here (known keys, one record, a report, values
//! of the right kinds); each error names the file, the entry and what to
//! write instead.

use super::value::{Expected, Want};
use crate::report::Table;
use std::fmt;
use std::path::{Path, PathBuf};
use toml_edit::{Document, Item, TableLike, Value};

/// The keys an entry may have, in the order the documentation gives them.
pub const ENTRY_KEYS: [&str; 11] = [
    "name", "source", "file", "text", "member", "game", "komi", "options", "report", "where",
    "expect",
];

/// A read expectations file.
#[derive(Debug)]
pub struct ExpectFile {
    pub path: PathBuf,
    pub entries: Vec<Entry>,
}

/// What an entry reads: a file (relative to the expectations file), or a
/// record written inline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Record {
    File(PathBuf),
    Text(String),
}

/// One reading: a record read with options, and the values one row of a
/// report must hold.
#[derive(Debug, Clone)]
pub struct Entry {
    /// 1-based place in the file.
    pub index: usize,
    pub name: Option<String>,
    /// Line of the entry in the file (1-based).
    pub line: usize,
    /// Where the reading comes from (free text).
    pub source: String,
    pub record: Record,
    pub member: Option<String>,
    pub game: Option<u32>,
    /// A diagram's komi.
    pub komi: Option<f64>,
    /// `recount run`'s options, as typed.
    pub options: Vec<String>,
    /// The report, named or the one whose columns hold every column the
    /// entry names; `None` when no report has them all (each column none
    /// has is then a failure).
    pub report: Option<Table>,
    /// More columns that pick the row (`where`).
    pub filters: Vec<Expected>,
    pub expect: Vec<Expected>,
}

impl Entry {
    /// How messages name the entry: `entry 3 "seed-03"`, or `entry 3
    /// (line 12)` without a name.
    pub fn label(&self) -> String {
        match &self.name {
            Some(n) => format!("entry {} {n:?}", self.index),
            None => format!("entry {} (line {})", self.index, self.line),
        }
    }
}

/// A file that cannot be used as it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub file: PathBuf,
    /// The entry's label, when the problem is in one.
    pub entry: Option<String>,
    pub message: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file.display())?;
        if let Some(e) = &self.entry {
            write!(f, "{e}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Malformed {}

/// Reads the expectations file at `path`.
///
/// # Errors
/// When it cannot be read, is not TOML, or an entry is not one recount can
/// check; the message says what to write.
pub fn load(path: &Path) -> Result<ExpectFile, Malformed> {
    let fail = |entry: Option<String>, message: String| Malformed {
        file: path.to_path_buf(),
        entry,
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        let message = if e.kind() == std::io::ErrorKind::InvalidData {
            "it is not UTF-8 text; save it as UTF-8 (TOML files are)".to_string()
        } else {
            format!("cannot read it: {e}")
        };
        fail(None, message)
    })?;
    parse(&text, path).map_err(|(entry, message)| fail(entry, message))
}

type Problem = (Option<String>, String);

/// Reads the text of an expectations file found at `path` (records are
/// relative to its folder).
fn parse(text: &str, path: &Path) -> Result<ExpectFile, Problem> {
    let doc = Document::parse(text).map_err(|e| (None, toml_error(text, &e)))?;
    for (key, _) in doc.iter() {
        if key != "entry" {
            return Err((
                None,
                format!("unknown key `{key}` at the top level; write each reading as an [[entry]]"),
            ));
        }
    }
    let tables = entry_tables(doc.get("entry"))?;
    if tables.is_empty() {
        return Err((
            None,
            "no [[entry]] in the file; see docs/expectations.md".into(),
        ));
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let entries = tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let line = t.1.map_or(0, |offset| line_of(text, offset));
            read_entry(i + 1, line, t.0, dir)
        })
        .collect::<Result<_, _>>()?;
    Ok(ExpectFile {
        path: path.to_path_buf(),
        entries,
    })
}

/// An entry's table and its offset in the text.
type Located<'a> = (&'a dyn TableLike, Option<usize>);

/// The entries as tables, with their offsets in the text.
fn entry_tables(item: Option<&Item>) -> Result<Vec<Located<'_>>, Problem> {
    let shape = || {
        (
            None,
            "`entry` must be a list of tables: write each one under an [[entry]] line".to_string(),
        )
    };
    match item {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(a)) => Ok(a
            .iter()
            .map(|t| (t as &dyn TableLike, t.span().map(|s| s.start)))
            .collect()),
        Some(Item::Value(Value::Array(a))) => a
            .iter()
            .map(|v| match v {
                Value::InlineTable(t) => Ok((t as &dyn TableLike, t.span().map(|s| s.start))),
                _ => Err(shape()),
            })
            .collect(),
        Some(_) => Err(shape()),
    }
}

/// `path` with `.` and `dir/..` folded away, as written (no link is
/// followed): `fixtures/expectations/../go/a.sgf` is `fixtures/go/a.sgf`.
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn toml_error(text: &str, e: &toml_edit::TomlError) -> String {
    let line = e
        .span()
        .map(|s| format!("line {}: ", line_of(text, s.start)));
    format!(
        "{}not TOML: {}",
        line.unwrap_or_default(),
        e.message().trim_end()
    )
}

fn read_entry(index: usize, line: usize, t: &dyn TableLike, dir: &Path) -> Result<Entry, Problem> {
    let name = match t.get("name") {
        Some(v) => Some(string(v, "name").map_err(|m| (None, m))?),
        None => None,
    };
    let label = match &name {
        Some(n) => format!("entry {index} {n:?}"),
        None => format!("entry {index} (line {line})"),
    };
    let fail = |message: String| (Some(label.clone()), message);
    for (key, _) in t.iter() {
        if !ENTRY_KEYS.contains(&key) {
            let near = super::value::nearest(key, ENTRY_KEYS)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            return Err(fail(format!(
                "unknown key `{key}`; {near}an entry has {}",
                ENTRY_KEYS.join(", ")
            )));
        }
    }
    let record = match (t.get("file"), t.get("text")) {
        (Some(f), None) => {
            let f = string(f, "file").map_err(&fail)?;
            if f.is_empty() || f == "-" {
                return Err(fail("`file` must name a file".into()));
            }
            let path = lexical(&dir.join(&f));
            if !path.exists() {
                return Err(fail(format!(
                    "the record '{}' does not exist (`file` is relative to the expectations file's folder)",
                    path.display()
                )));
            }
            Record::File(path)
        }
        (None, Some(x)) => Record::Text(string(x, "text").map_err(&fail)?),
        (Some(_), Some(_)) => return Err(fail("give `file` or `text`, not both".into())),
        (None, None) => return Err(fail(
            "no record: give `file` (a record's path) or `text` (a record or diagram written out)"
                .into(),
        )),
    };
    let options = match t.get("options") {
        None => Vec::new(),
        Some(v) => match v.as_array() {
            Some(a) => a
                .iter()
                .map(|o| {
                    o.as_str().map(str::to_string).ok_or_else(|| {
                        fail(
                            "`options` must be a list of strings, e.g. [\"--rules\", \"chinese\"]"
                                .into(),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            None => {
                return Err(fail(
                    "`options` must be a list of strings, e.g. [\"--rules\", \"chinese\"]".into(),
                ))
            }
        },
    };
    let game = match t.get("game") {
        None => None,
        Some(v) => match v.as_integer() {
            Some(n) if (1..=i64::from(u32::MAX)).contains(&n) => Some(n as u32),
            _ => return Err(fail("`game` must be a game's number, 1 or more".into())),
        },
    };
    let komi = match t.get("komi") {
        None => None,
        Some(v) => Some(number(v, "komi").map_err(&fail)?),
    };
    let member = match t.get("member") {
        None => None,
        Some(v) => Some(string(v, "member").map_err(&fail)?),
    };
    let filters = match t.get("where") {
        None => Vec::new(),
        Some(v) => values(v, "where").map_err(&fail)?,
    };
    let expect = match t.get("expect") {
        None => Vec::new(),
        Some(v) => values(v, "expect").map_err(&fail)?,
    };
    if expect.is_empty() {
        return Err(fail(
            "nothing expected: add `expect = { column = value }` with a report's columns".into(),
        ));
    }
    let named: Vec<&str> = filters
        .iter()
        .chain(&expect)
        .map(|e| e.column.as_str())
        .collect();
    let report = match t.get("report") {
        Some(v) => {
            let r = string(v, "report").map_err(&fail)?;
            let names: Vec<&str> = Table::ALL.iter().map(|t| t.name()).collect();
            Some(Table::from_name(&r).ok_or_else(|| {
                fail(format!(
                    "no report is named `{r}`; the reports are {}",
                    names.join(", ")
                ))
            })?)
        }
        None => report_of(&named).map_err(&fail)?,
    };
    Ok(Entry {
        index,
        name,
        line,
        source: match t.get("source") {
            Some(v) => string(v, "source").map_err(&fail)?,
            None => String::new(),
        },
        record,
        member,
        game,
        komi,
        options,
        report,
        filters,
        expect,
    })
}

/// The one report whose columns hold every column named (or, when none
/// does, the one that holds the most of them: the others are then reported
/// missing from it); `None` when no report holds any.
///
/// # Errors
/// When several do (name one with `report`).
fn report_of(named: &[&str]) -> Result<Option<Table>, String> {
    let held = |t: &Table| {
        let columns = t.columns();
        named
            .iter()
            .filter(|n| columns.iter().any(|c| c == *n))
            .count()
    };
    let most = Table::ALL.iter().map(held).max().unwrap_or(0);
    let fits: Vec<Table> = Table::ALL
        .into_iter()
        .filter(|t| most > 0 && held(t) == most)
        .collect();
    match fits[..] {
        [] => Ok(None),
        [t] => Ok(Some(t)),
        _ if most < named.len() => Ok(None),
        _ => Err(format!(
            "the columns {} are in {}: name the report with `report = \"{}\"` (or another)",
            named.join(", "),
            fits.iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(" and "),
            fits[0].name()
        )),
    }
}

fn string(item: &Item, key: &str) -> Result<String, String> {
    item.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("`{key}` must be a string in quotes"))
}

fn number(item: &Item, key: &str) -> Result<f64, String> {
    item.as_float()
        .or_else(|| item.as_integer().map(|n| n as f64))
        .ok_or_else(|| format!("`{key}` must be a number"))
}

/// A table of column = value (`expect`, `where`); a value is a string, a
/// number, a boolean, or `{ value = N, tolerance = T }`.
fn values(item: &Item, key: &str) -> Result<Vec<Expected>, String> {
    let t = item
        .as_table_like()
        .ok_or_else(|| format!("`{key}` must be a table: `{key} = {{ column = value }}`"))?;
    t.iter()
        .map(|(column, v)| {
            let bad = |what: &str| {
                format!(
                    "`{key}.{column}`: {what}; write a string, a number, true/false, or \
                     {{ value = N, tolerance = T }}"
                )
            };
            let (value, tolerance) = match v.as_table_like() {
                Some(inner) => {
                    for (k, _) in inner.iter() {
                        if k != "value" && k != "tolerance" {
                            return Err(bad(&format!("unknown key `{k}`")));
                        }
                    }
                    let value = inner.get("value").ok_or_else(|| bad("no `value`"))?;
                    let tolerance = match inner.get("tolerance") {
                        None => None,
                        Some(t) => {
                            match t.as_float().or_else(|| t.as_integer().map(|n| n as f64)) {
                                Some(t) if t >= 0.0 && t.is_finite() => Some(t),
                                _ => return Err(bad("the tolerance must be a number, 0 or more")),
                            }
                        }
                    };
                    (value, tolerance)
                }
                None => (v, None),
            };
            let want = match value.as_value() {
                Some(Value::String(s)) => Want::Text(s.value().clone()),
                Some(Value::Integer(n)) => Want::Number(*n.value() as f64),
                Some(Value::Float(f)) if f.value().is_finite() => Want::Number(*f.value()),
                Some(Value::Boolean(b)) => Want::Bool(*b.value()),
                _ => return Err(bad("not a value recount can compare")),
            };
            if tolerance.is_some() && !matches!(want, Want::Number(_)) {
                return Err(bad("a tolerance needs a number"));
            }
            Ok(Expected {
                column: column.to_string(),
                want,
                tolerance,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<ExpectFile, String> {
        parse(text, Path::new("fixtures/expectations/x.toml")).map_err(|(e, m)| match e {
            Some(e) => format!("{e}: {m}"),
            None => m,
        })
    }

    #[test]
    fn a_three_line_file_is_an_entry() {
        let f = read("[[entry]]\ntext = \"X.XXOO\\nXXXOOO\\n\"\nexpect = { score_count = 1 }\n")
            .unwrap();
        let e = &f.entries[0];
        assert_eq!(e.report, Some(Table::GoScores));
        assert_eq!(e.expect[0].want, Want::Number(1.0));
        assert_eq!(e.label(), "entry 1 (line 1)");
        assert!(matches!(e.record, Record::Text(_)));
    }

    #[test]
    fn every_part_of_an_entry_is_read() {
        let f = read(
            r#"# a comment
[[entry]]
name = "cube"
source = "gnubg"
file = "../bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat"
game = 2
options = ["--all-cube-decisions"]
report = "bg_cube"
where = { line = 12 }

[entry.expect]
nd = { value = 0.5, tolerance = 1e-5 }
proper_action = "No double, take"
"#,
        )
        .unwrap();
        let e = &f.entries[0];
        assert_eq!((e.index, e.line), (1, 2));
        assert_eq!(e.label(), "entry 1 \"cube\"");
        assert_eq!(e.game, Some(2));
        assert_eq!(e.options, ["--all-cube-decisions"]);
        assert_eq!(e.report, Some(Table::BgCube));
        assert_eq!(e.filters[0].column, "line");
        assert_eq!(e.expect[0].tolerance, Some(1e-5));
        assert_eq!(e.expect[1].want, Want::Text("No double, take".into()));
        let Record::File(p) = &e.record else { panic!() };
        assert_eq!(
            p,
            Path::new("fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat")
        );
        assert_eq!(lexical(Path::new("../a/./b/../c")), Path::new("../a/c"));
    }

    #[test]
    fn errors_name_the_entry_and_what_to_write() {
        let e = read("[[entry]]\ntext = \"X\"\nexpct = { a = 1 }\n").unwrap_err();
        assert!(
            e.contains("entry 1 (line 1): unknown key `expct`; did you mean `expect`?"),
            "{e}"
        );
        let e = read(
            "[[entry]]\nname = \"n\"\nfile = \"nope.sgf\"\nexpect = { verdict = \"agrees\" }\n",
        )
        .unwrap_err();
        assert!(
            e.contains("entry 1 \"n\": the record") && e.contains("does not exist"),
            "{e}"
        );
        let e = read("[[entry]]\ntext = \"X\"\n").unwrap_err();
        assert!(e.contains("nothing expected"), "{e}");
        let e = read("[[entry]]\ntext = \"X\"\nexpect = { game = 1 }\n").unwrap_err();
        assert!(e.contains("name the report"), "{e}");
        let e =
            read("[[entry]]\ntext = \"X\"\nreport = \"scores\"\nexpect = { a = 1 }\n").unwrap_err();
        assert!(e.contains("no report is named `scores`"), "{e}");
        let e =
            read("[[entry]]\ntext = \"X\"\nexpect = { a = { value = \"x\", tolerance = 1 } }\n")
                .unwrap_err();
        assert!(e.contains("a tolerance needs a number"), "{e}");
        let e = read("[[entry]\n").unwrap_err();
        assert!(e.starts_with("line 1: not TOML"), "{e}");
        let e = read("rules = 1\n").unwrap_err();
        assert!(e.contains("unknown key `rules` at the top level"), "{e}");
        assert!(read("").unwrap_err().contains("no [[entry]]"));
        let dir = tempfile::tempdir().unwrap();
        let latin1 = dir.path().join("latin1.toml");
        std::fs::write(&latin1, b"[[entry]]\nname = \"caf\xe9\"\n").unwrap();
        let e = load(&latin1).unwrap_err();
        assert!(
            e.message.contains("not UTF-8 text; save it as UTF-8"),
            "{e:?}"
        );
    }

    #[test]
    fn columns_no_report_has_leave_the_report_open() {
        let f = read("[[entry]]\ntext = \"X\"\nexpect = { score_japanes = 1 }\n").unwrap();
        assert_eq!(f.entries[0].report, None);
        let f =
            read("[[entry]]\ntext = \"X\"\nexpect = { score_japanes = 1, verdict = \"agrees\" }\n")
                .unwrap();
        assert_eq!(f.entries[0].report, Some(Table::GoScores));
    }
}
