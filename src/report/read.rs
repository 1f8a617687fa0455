//! Reports read back as text cells: a table's header and rows, from a run's
//! rows in memory (`recount check`) or from a report file (`recount diff`).

use super::{RowBuf, Table};
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

    /// Reads a report file.
    ///
    /// # Errors
    /// When the file cannot be read or is not CSV; the message names it.
    pub fn read(path: &Path) -> Result<TableRows, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        TableRows::parse(&bytes)
            .map_err(|e| format!("'{}' is not a CSV report: {e}", path.display()))
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
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
