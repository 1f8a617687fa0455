//! Reports read back as text cells: a table's header and rows, from a run's
//! rows in memory (`recount check`) or from a report file, CSV or Parquet
//! (`recount diff`, `recount report`), whole or streamed row by row.

use super::{Format, RowBuf, Table, WRITE_AGAIN};
use std::path::Path;

/// One report's columns and rows, every cell as the CSV writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableRows {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl TableRows {
    /// Reads CSV text whose first record is the header.
    ///
    /// # Errors
    /// A record that is not CSV, or has another number of cells than the
    /// header, with its line.
    pub fn parse(csv_text: &[u8]) -> Result<TableRows, String> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(csv_text);
        let columns = r
            .headers()
            .map_err(|e| format!("cannot read the header: {e}"))?
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| e.to_string())?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(TableRows { columns, rows })
    }

    /// The rows recorded for `table` in `buf`, under the table's header.
    pub fn of(table: Table, buf: &RowBuf) -> TableRows {
        let mut text = table.header();
        text.extend_from_slice(buf.bytes(table));
        TableRows::parse(&text).expect("recount's own rows are CSV")
    }

    /// Reads a report file, CSV or (named `.parquet`) Parquet.
    ///
    /// # Errors
    /// When the file cannot be read or is not a report; the message names
    /// it.
    pub fn read(path: &Path) -> Result<TableRows, String> {
        let mut rows = Vec::new();
        let columns = stream(path, |_, r| rows.push(r.to_vec()))?;
        Ok(TableRows { columns, rows })
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// The file of `table` in a run's output directory: its CSV, else its
/// Parquet; `None` when neither is there.
pub fn find(dir: &Path, table: Table) -> Option<std::path::PathBuf> {
    [Format::Csv, Format::Parquet]
        .into_iter()
        .map(|f| dir.join(table.file(f)))
        .find(|p| p.is_file())
}

/// Streams a report file's rows to `row` with the columns, each cell as
/// the CSV writes it; returns the columns. A file named `.parquet` is read
/// as Parquet, any other as CSV.
///
/// # Errors
/// When the file cannot be read or is not a report; the message names it.
pub fn stream(
    path: &Path,
    mut row: impl FnMut(&[String], &[String]),
) -> Result<Vec<String>, String> {
    if path.extension().is_some_and(|e| e == "parquet") {
        return super::parquet::stream(path, row);
    }
    let fail = |e: csv::Error| {
        format!(
            "'{}' is not a CSV report as recount writes it ({e}); {WRITE_AGAIN}",
            path.display()
        )
    };
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(std::io::BufReader::with_capacity(1 << 16, file));
    let columns: Vec<String> = r
        .headers()
        .map_err(fail)?
        .iter()
        .map(String::from)
        .collect();
    let mut record = csv::StringRecord::new();
    let mut cells: Vec<String> = Vec::with_capacity(columns.len());
    while r.read_record(&mut record).map_err(fail)? {
        cells.clear();
        cells.extend(record.iter().map(String::from));
        row(&columns, &cells);
    }
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ErrorRow;

    #[test]
    fn rows_read_back_as_written() {
        let mut buf = RowBuf::default();
        buf.push(
            Table::Errors,
            &ErrorRow {
                source: "a, \"b\".sgf".into(),
                reason: "bad".into(),
                ..ErrorRow::default()
            },
        );
        let t = TableRows::of(Table::Errors, &buf);
        assert_eq!(t.columns, Table::Errors.columns());
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][t.column("source").unwrap()], "a, \"b\".sgf");
        assert_eq!(t.rows[0][t.column("reason").unwrap()], "bad");
        assert!(TableRows::parse(b"a,b\n1,2,3\n").is_err());
    }
}
