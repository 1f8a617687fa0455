//! `recount diff RUN_A RUN_B`: two runs' reports compared. Rows are matched
//! by each report's key columns ([`Table::keys`]); for each report it says
//! the rows only in one run, the rows whose values changed, how often each
//! column changed, and how the outcome columns moved (Go verdicts and
//! winners, backgammon winners and endings, proper cube actions); every
//! change can be written as CSV. Output follows the reports' own row order.

use crate::report::read::{find, TableRows};
use crate::report::Table;
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

/// Why two runs cannot be compared (exit status 2).
#[derive(Debug)]
pub enum DiffError {
    /// A directory that holds no run's reports.
    NotARun(PathBuf),
    /// A report that cannot be read.
    Read(String),
    /// `--ignore` names a column no report has.
    UnknownColumn(String),
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::NotARun(p) if !p.exists() => write!(
                f,
                "'{}' does not exist; give two directories written by recount run --out",
                p.display()
            ),
            DiffError::NotARun(p) => write!(
                f,
                "'{}' holds no reports of a run (no summary.csv or summary.parquet); give two directories written by recount run --out",
                p.display()
            ),
            DiffError::Read(e) => f.write_str(e),
            DiffError::UnknownColumn(c) => write!(
                f,
                "--ignore {c}: no report has a column `{c}`; see docs/reports.md"
            ),
        }
    }
}

impl std::error::Error for DiffError {}

/// One row whose values changed: its key and each (column, A's cell, B's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowChange {
    pub key: String,
    pub cells: Vec<(String, String, String)>,
}

/// How many rows went from one value (A's) to another (B's).
pub type Moves = BTreeMap<(String, String), usize>;

/// How one report differs.
#[derive(Debug, Default)]
pub struct TableDiff {
    pub file: &'static str,
    pub rows_a: usize,
    pub rows_b: usize,
    /// Keys of rows only in A, in A's order; only in B, in B's order.
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
    pub changed: Vec<RowChange>,
    /// Changed rows per column, in the header's order.
    pub per_column: Vec<(String, usize)>,
    /// For each outcome column of the report, how many rows went from one
    /// value to another (none: unchanged).
    pub moves: Vec<(String, Moves)>,
    /// Columns one run's report has and the other's has not.
    pub columns_only_a: Vec<String>,
    pub columns_only_b: Vec<String>,
    /// The run (`"A"` or `"B"`) whose directory lacks the report file: its
    /// rows are counted as none.
    pub file_missing_in: Option<&'static str>,
}

impl TableDiff {
    pub fn differs(&self) -> bool {
        !(self.only_a.is_empty()
            && self.only_b.is_empty()
            && self.changed.is_empty()
            && self.columns_only_a.is_empty()
            && self.columns_only_b.is_empty()
            && self.file_missing_in.is_none())
    }
}

/// Two runs compared, report by report in [`Table::ALL`] order.
#[derive(Debug, Default)]
pub struct Diff {
    pub tables: Vec<TableDiff>,
}

/// The columns whose moves a report's diff counts.
fn outcome_columns(t: Table) -> &'static [&'static str] {
    match t {
        Table::GoScores => &["verdict", "score_winner"],
        Table::GoZones => &["status", "zone_type"],
        Table::BgGames => &["winner", "ending"],
        Table::BgCube => &["proper_action"],
        Table::Errors => &["stage"],
        _ => &[],
    }
}

/// Compares the reports of the runs in `a` and `b`, leaving out the
/// columns `ignore` names.
///
/// # Errors
/// A directory without a run's reports, a report that cannot be read, a
/// column to ignore that no report has.
pub fn diff(a: &Path, b: &Path, ignore: &[String]) -> Result<Diff, DiffError> {
    for c in ignore {
        if !Table::ALL.iter().any(|t| t.columns().contains(c)) {
            return Err(DiffError::UnknownColumn(c.clone()));
        }
    }
    for dir in [a, b] {
        if find(dir, Table::Summary).is_none() {
            return Err(DiffError::NotARun(dir.to_path_buf()));
        }
    }
    let read = |dir: &Path, t: Table| -> Result<Option<TableRows>, DiffError> {
        let Some(path) = find(dir, t) else {
            return Ok(None);
        };
        TableRows::read(&path).map(Some).map_err(DiffError::Read)
    };
    let mut out = Diff::default();
    for t in Table::ALL {
        let (ra, rb) = (read(a, t)?, read(b, t)?);
        if ra.is_none() && rb.is_none() {
            continue;
        }
        let empty = |other: &Option<TableRows>| TableRows {
            columns: other
                .as_ref()
                .map(|o| o.columns.clone())
                .unwrap_or_default(),
            rows: Vec::new(),
        };
        let missing = match (&ra, &rb) {
            (None, _) => Some("A"),
            (_, None) => Some("B"),
            _ => None,
        };
        let ta = ra.clone().unwrap_or_else(|| empty(&rb));
        let tb = rb.unwrap_or_else(|| empty(&ra));
        let mut d = compare(t, &ta, &tb, ignore);
        d.file_missing_in = missing;
        out.tables.push(d);
    }
    Ok(out)
}

/// One report of each run compared.
fn compare(t: Table, a: &TableRows, b: &TableRows, ignore: &[String]) -> TableDiff {
    let mut d = TableDiff {
        file: t.file_name(),
        rows_a: a.rows.len(),
        rows_b: b.rows.len(),
        ..TableDiff::default()
    };
    let kept = |c: &String| !ignore.contains(c);
    let only = |x: &TableRows, y: &TableRows| -> Vec<String> {
        x.columns
            .iter()
            .filter(|c| kept(c) && y.column(c).is_none())
            .cloned()
            .collect()
    };
    d.columns_only_a = only(a, b);
    d.columns_only_b = only(b, a);
    let keys = shared_keys(t, a, b);
    // Columns compared: A's order, in both, not ignored, not keys.
    let common: Vec<(usize, usize, &String)> = a
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| kept(c) && !keys.contains(&c.as_str()))
        .filter_map(|(i, c)| b.column(c).map(|j| (i, j, c)))
        .collect();
    let keyed_a = keyed(a, &keys);
    let keyed_b = keyed(b, &keys);
    let in_b: HashMap<&Vec<String>, usize> = keyed_b.iter().map(|(k, i)| (k, *i)).collect();
    let in_a: HashMap<&Vec<String>, usize> = keyed_a.iter().map(|(k, i)| (k, *i)).collect();
    let mut per_column = vec![0usize; common.len()];
    let mut moves: Vec<Moves> = vec![Moves::new(); outcome_columns(t).len()];
    for (key, ia) in &keyed_a {
        let Some(&ib) = in_b.get(key) else {
            d.only_a.push(show_key(&keys, key));
            continue;
        };
        let (ra, rb) = (&a.rows[*ia], &b.rows[ib]);
        let mut cells = Vec::new();
        for (n, &(i, j, c)) in common.iter().enumerate() {
            if ra[i] != rb[j] {
                per_column[n] += 1;
                cells.push((c.clone(), ra[i].clone(), rb[j].clone()));
                if let Some(m) = outcome_columns(t).iter().position(|o| o == c) {
                    *moves[m].entry((ra[i].clone(), rb[j].clone())).or_default() += 1;
                }
            }
        }
        if !cells.is_empty() {
            d.changed.push(RowChange {
                key: show_key(&keys, key),
                cells,
            });
        }
    }
    d.only_b = keyed_b
        .iter()
        .filter(|(k, _)| !in_a.contains_key(k))
        .map(|(k, _)| show_key(&keys, k))
        .collect();
    d.per_column = common
        .iter()
        .zip(per_column)
        .filter(|(_, n)| *n > 0)
        .map(|((_, _, c), n)| ((*c).clone(), n))
        .collect();
    d.moves = outcome_columns(t)
        .iter()
        .zip(moves)
        .filter(|(c, _)| common.iter().any(|(_, _, x)| x == *c))
        .map(|(c, m)| (c.to_string(), m))
        .collect();
    d
}

/// The key columns both reports have: the table's, or in a report written
/// before `game_key` and `file_key` existed, the columns they are made of.
fn shared_keys(t: Table, a: &TableRows, b: &TableRows) -> Vec<&'static str> {
    let both = |k: &str| a.column(k).is_some() && b.column(k).is_some();
    let mut keys: Vec<&'static str> = Vec::new();
    for &k in t.keys() {
        let parts: &[&'static str] = match k {
            "game_key" if !both(k) => &["source", "member", "game"],
            "file_key" if !both(k) => &["source", "member"],
            _ => &[k],
        };
        for &p in parts {
            if both(p) && !keys.contains(&p) {
                keys.push(p);
            }
        }
    }
    keys
}

/// Each row's key values (with the occurrence number appended when a key
/// repeats), and the row's index.
fn keyed(t: &TableRows, keys: &[&str]) -> Vec<(Vec<String>, usize)> {
    let idx: Vec<usize> = keys.iter().filter_map(|k| t.column(k)).collect();
    let mut seen: HashMap<Vec<String>, usize> = HashMap::new();
    t.rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut key: Vec<String> = idx.iter().map(|&c| row[c].clone()).collect();
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            if *n > 1 {
                key.push(format!("#{n}"));
            }
            (key, i)
        })
        .collect()
}

/// A key as people read it: `fixtures/go/a.sgf#3`, `a.tar/b.sgf#1
/// zone_id 2`, `verdict agrees`; in an older run's report `a.tar:b.sgf
/// game 1`.
fn show_key(keys: &[&str], values: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let get = |k: &str| {
        keys.iter()
            .position(|x| *x == k)
            .map(|i| values[i].as_str())
    };
    if let Some(source) = get("source") {
        match get("member").filter(|m| !m.is_empty()) {
            Some(m) => parts.push(format!("{source}:{m}")),
            None => parts.push(source.to_string()),
        }
    }
    for (i, k) in keys.iter().enumerate() {
        if *k == "source" || *k == "member" {
            continue;
        }
        // A game's key names its file too.
        let named = *k == "file_key" && get("game_key").is_some_and(|g| !g.is_empty());
        if named || values[i].is_empty() {
            continue;
        }
        if ["metric", "name", "game_key", "file_key"].contains(k) {
            parts.push(values[i].clone());
        } else {
            parts.push(format!("{k} {}", values[i]));
        }
    }
    parts.extend(values[keys.len()..].iter().cloned());
    parts.join(" ")
}

impl Diff {
    /// Whether any report differs.
    pub fn differs(&self) -> bool {
        self.tables.iter().any(TableDiff::differs)
    }

    /// The text `recount diff` prints: per report its counts, the columns
    /// and outcomes that moved and every row changed or missing; then a
    /// total.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for d in &self.tables {
            if !d.differs() {
                let _ = writeln!(out, "{}: identical ({} rows)", d.file, d.rows_a);
                continue;
            }
            let _ = writeln!(
                out,
                "{}: {} rows in A, {} in B: {} changed, {} only in A, {} only in B",
                d.file,
                d.rows_a,
                d.rows_b,
                d.changed.len(),
                d.only_a.len(),
                d.only_b.len()
            );
            if let Some(run) = d.file_missing_in {
                let _ = writeln!(
                    out,
                    "  the file is missing from {run}'s directory: its rows count as none"
                );
            }
            for (what, cols) in [("A", &d.columns_only_a), ("B", &d.columns_only_b)] {
                if !cols.is_empty() {
                    let _ = writeln!(out, "  columns only in {what}: {}", cols.join(", "));
                }
            }
            if !d.per_column.is_empty() {
                let cols: Vec<String> = d
                    .per_column
                    .iter()
                    .map(|(c, n)| format!("{c} {n}"))
                    .collect();
                let _ = writeln!(out, "  changed columns: {}", cols.join(", "));
            }
            for (column, moves) in &d.moves {
                if moves.is_empty() {
                    let _ = writeln!(out, "  {column}: unchanged");
                    continue;
                }
                let list: Vec<String> = moves
                    .iter()
                    .map(|((a, b), n)| format!("{} -> {}: {n}", shown(a), shown(b)))
                    .collect();
                let _ = writeln!(out, "  {column}: {}", list.join(", "));
            }
            for r in &d.changed {
                let cells: Vec<String> = r
                    .cells
                    .iter()
                    .map(|(c, a, b)| format!("{c} {} -> {}", shown(a), shown(b)))
                    .collect();
                let _ = writeln!(out, "  changed {}: {}", r.key, cells.join("; "));
            }
            for k in &d.only_a {
                let _ = writeln!(out, "  only in A: {k}");
            }
            for k in &d.only_b {
                let _ = writeln!(out, "  only in B: {k}");
            }
        }
        let differ = self.tables.iter().filter(|d| d.differs()).count();
        let sum = |f: fn(&TableDiff) -> usize| self.tables.iter().map(f).sum::<usize>();
        let _ = writeln!(
            out,
            "recount diff: {differ} of {} reports differ: {} rows changed, {} only in A, {} only in B",
            self.tables.len(),
            sum(|d| d.changed.len()),
            sum(|d| d.only_a.len()),
            sum(|d| d.only_b.len()),
        );
        out
    }

    /// Every change as CSV: `report,change,key,column,a,b`; `change` is
    /// `changed` (one line per column), `only_in_a` or `only_in_b`.
    pub fn changes_csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut put = |rec: [&str; 6]| w.write_record(rec).expect("writing to memory");
        put(["report", "change", "key", "column", "a", "b"]);
        for d in &self.tables {
            let report = &d.file[..d.file.len() - ".csv".len()];
            match d.file_missing_in {
                Some("A") => put([report, "file_missing_in_a", d.file, "", "", ""]),
                Some(_) => put([report, "file_missing_in_b", d.file, "", "", ""]),
                None => {}
            }
            for r in &d.changed {
                for (c, a, b) in &r.cells {
                    put([report, "changed", &r.key, c, a, b]);
                }
            }
            for k in &d.only_a {
                put([report, "only_in_a", k, "", "", ""]);
            }
            for k in &d.only_b {
                put([report, "only_in_b", k, "", "", ""]);
            }
        }
        w.into_inner().expect("writing to memory")
    }
}

/// A cell in the text: `(empty)` for nothing.
fn shown(cell: &str) -> &str {
    if cell.is_empty() {
        "(empty)"
    } else {
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> TableRows {
        TableRows::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn rows_are_matched_by_key_and_changes_counted() {
        let a = table(
            "source,member,game,verdict,score_winner,score_declared,search\n\
             a.sgf,,1,agrees,B,6.5,1\n\
             a.sgf,,2,agrees,W,-3.5,2\n\
             b.sgf,,1,agrees,B,1.5,3\n",
        );
        let b = table(
            "source,member,game,verdict,score_winner,score_declared,search\n\
             a.sgf,,2,winner_flip,B,0.5,9\n\
             a.sgf,,1,agrees,B,6.5,9\n\
             c.sgf,,1,agrees,B,2.5,9\n",
        );
        let d = compare(Table::GoScores, &a, &b, &["search".to_string()]);
        assert_eq!(d.only_a, ["b.sgf game 1"]);
        assert_eq!(d.only_b, ["c.sgf game 1"]);
        assert_eq!(d.changed.len(), 1);
        assert_eq!(d.changed[0].key, "a.sgf game 2");
        assert_eq!(
            d.per_column,
            [
                ("verdict".to_string(), 1),
                ("score_winner".into(), 1),
                ("score_declared".into(), 1)
            ]
        );
        assert_eq!(d.moves[0].0, "verdict");
        assert!(d.moves[1].1.contains_key(&("W".into(), "B".into())));
        assert_eq!(d.moves[0].1[&("agrees".into(), "winner_flip".into())], 1);
        let all = Diff { tables: vec![d] };
        assert!(all.differs());
        let text = all.render();
        assert!(
            text.contains(
                "changed a.sgf game 2: verdict agrees -> winner_flip; score_winner W -> B"
            ),
            "{text}"
        );
        assert!(text.contains("  score_winner: W -> B: 1"), "{text}");
        let csv = String::from_utf8(all.changes_csv()).unwrap();
        assert!(
            csv.contains("go_scores,changed,a.sgf game 2,verdict,agrees,winner_flip\n"),
            "{csv}"
        );
        assert!(
            csv.contains("go_scores,only_in_a,b.sgf game 1,,,\n"),
            "{csv}"
        );
        // Ignoring a column that changed in every row leaves the rest.
        let same = compare(Table::GoScores, &a, &a, &[]);
        assert!(!same.differs());
    }

    #[test]
    fn repeated_keys_and_new_columns_are_told_apart() {
        let a = table("metric,name,games\nverdict,agrees,3\nverdict,agrees,4\n");
        let b = table("metric,name,games,extra\nverdict,agrees,3,x\nverdict,agrees,5,x\n");
        let d = compare(Table::Summary, &a, &b, &[]);
        assert_eq!(d.columns_only_b, ["extra"]);
        assert_eq!(d.changed[0].key, "verdict agrees #2");
    }
}
