//! Parquet reports: each table's rows exactly as its CSV holds them, in
//! the same order, each column stored as its row type's field type
//! ([`Kind`]: text, 64-bit integer, float, double, boolean; an empty cell
//! is null).
//!
//! Rows arrive as the CSV text workers format ([`super::RowBuf`]) and are
//! gathered column by column into row groups of at most
//! [`GROUP_ROWS`] rows or about [`GROUP_BYTES`] bytes, each written out
//! when full: memory stays bounded whatever the run's size. The bytes
//! depend only on the rows (no time, no path is written), so a run's
//! Parquet reports are as deterministic as its CSVs.
//!
//! The `parquet` crate is used without its Arrow layer: its column writers
//! and row reader are all a report needs.

use super::columns::Kind;
use super::{Table, WRITE_AGAIN};
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, FloatType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::record::Field;
use parquet::schema::types::{Type, TypePtr};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// Most rows in a row group.
pub const GROUP_ROWS: usize = 1 << 16;
/// A row group is written once its cells hold about this many bytes.
pub const GROUP_BYTES: usize = 16 << 20;

/// The Parquet schema of `table`: its columns, each optional, typed by
/// [`Table::kinds`].
pub fn schema(table: Table) -> TypePtr {
    let fields = table
        .columns()
        .iter()
        .zip(table.kinds())
        .map(|(name, kind)| {
            let (physical, logical) = match kind {
                Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                Kind::Int => (Physical::INT64, None),
                Kind::Float32 => (Physical::FLOAT, None),
                Kind::Float64 => (Physical::DOUBLE, None),
                Kind::Bool => (Physical::BOOLEAN, None),
            };
            let field = Type::primitive_type_builder(name, physical)
                .with_logical_type(logical)
                .with_repetition(Repetition::OPTIONAL)
                .build()
                .expect("a primitive column is a valid schema");
            Arc::new(field)
        })
        .collect();
    let root = Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
        .expect("a flat list of columns is a valid schema");
    Arc::new(root)
}

/// One column's values in the row group being gathered (nulls left out)
/// and its definition levels (1 a value, 0 null).
struct ColumnBuf {
    values: Values,
    defined: Vec<i16>,
}

enum Values {
    Text(Vec<ByteArray>),
    Int(Vec<i64>),
    Float32(Vec<f32>),
    Float64(Vec<f64>),
    Bool(Vec<bool>),
}

impl Values {
    fn new(kind: Kind) -> Values {
        match kind {
            Kind::Text => Values::Text(Vec::new()),
            Kind::Int => Values::Int(Vec::new()),
            Kind::Float32 => Values::Float32(Vec::new()),
            Kind::Float64 => Values::Float64(Vec::new()),
            Kind::Bool => Values::Bool(Vec::new()),
        }
    }

    /// Adds the value of a non-empty cell; `None` when it is not of the
    /// column's kind.
    fn push(&mut self, cell: &[u8]) -> Option<()> {
        let text = || std::str::from_utf8(cell).ok();
        match self {
            Values::Text(v) => v.push(ByteArray::from(cell.to_vec())),
            Values::Int(v) => v.push(text()?.parse().ok()?),
            Values::Float32(v) => v.push(text()?.parse().ok()?),
            Values::Float64(v) => v.push(text()?.parse().ok()?),
            Values::Bool(v) => v.push(text()?.parse().ok()?),
        }
        Some(())
    }
}

/// One table's Parquet file being written, to a file ([`ParquetTable::create`])
/// or any writer ([`ParquetTable::new`]: memory, for the Python package).
pub struct ParquetTable<W: Write + Send = BufWriter<File>> {
    table: Table,
    writer: SerializedFileWriter<W>,
    columns: Vec<ColumnBuf>,
    names: Vec<String>,
    rows: usize,
    bytes: usize,
}

fn io_error(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(e) => io::Error::other(e),
        e => io::Error::other(e.to_string()),
    }
}

impl ParquetTable {
    /// Creates `path` for `table`'s rows.
    ///
    /// # Errors
    /// When the file cannot be created.
    pub fn create(path: &Path, table: Table) -> io::Result<ParquetTable> {
        ParquetTable::new(
            BufWriter::with_capacity(1 << 16, File::create(path)?),
            table,
        )
    }

    /// Writes the last row group and the footer, and syncs the file.
    ///
    /// # Errors
    /// When writing or syncing fails.
    pub fn finish(self) -> io::Result<()> {
        let file = self.into_inner()?;
        let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()
    }
}

/// `table`'s rows, CSV records as [`super::RowBuf`] holds them, as the
/// bytes of a Parquet file.
///
/// # Errors
/// A row that is not the table's (a bug).
pub fn to_bytes(table: Table, csv_rows: &[u8]) -> io::Result<Vec<u8>> {
    let mut t = ParquetTable::new(Vec::new(), table)?;
    t.append(csv_rows)?;
    t.into_inner()
}

impl<W: Write + Send> ParquetTable<W> {
    /// Starts `table`'s Parquet file in `writer`.
    ///
    /// # Errors
    /// When writing the file's start fails.
    pub fn new(writer: W, table: Table) -> io::Result<ParquetTable<W>> {
        let file = writer;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("recount {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer =
            SerializedFileWriter::new(file, schema(table), Arc::new(props)).map_err(io_error)?;
        Ok(ParquetTable {
            table,
            writer,
            columns: table
                .kinds()
                .iter()
                .map(|&k| ColumnBuf {
                    values: Values::new(k),
                    defined: Vec::new(),
                })
                .collect(),
            names: table.columns(),
            rows: 0,
            bytes: 0,
        })
    }

    /// Appends rows given as CSV records without a header, as
    /// [`super::RowBuf`] holds them.
    ///
    /// # Errors
    /// A write that fails; a row that is not the table's (a bug: its cell
    /// count or a cell's type is wrong), said with the column.
    pub fn append(&mut self, csv_rows: &[u8]) -> io::Result<()> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(csv_rows);
        let mut record = csv::ByteRecord::new();
        let table = self.table;
        let bad = |what: String| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {what}", table.file_name()),
            )
        };
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| bad(e.to_string()))?
        {
            if record.len() != self.columns.len() {
                return Err(bad(format!(
                    "a row of {} cells, not {}",
                    record.len(),
                    self.columns.len()
                )));
            }
            for (i, (c, cell)) in self.columns.iter_mut().zip(&record).enumerate() {
                if cell.is_empty() {
                    c.defined.push(0);
                    continue;
                }
                c.defined.push(1);
                c.values.push(cell).ok_or_else(|| {
                    bad(format!(
                        "column {}: '{}' is not a {:?} value",
                        self.names[i],
                        String::from_utf8_lossy(cell),
                        table.kinds()[i]
                    ))
                })?;
            }
            self.rows += 1;
            self.bytes += record.as_slice().len() + 8 * record.len();
            if self.rows >= GROUP_ROWS || self.bytes >= GROUP_BYTES {
                self.write_group()?;
            }
        }
        Ok(())
    }

    /// Writes the rows gathered as one row group.
    fn write_group(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(io_error)?;
        for c in &mut self.columns {
            let mut column = group
                .next_column()
                .map_err(io_error)?
                .expect("the schema has a column per buffer");
            let defined = Some(&c.defined[..]);
            let written = match &mut c.values {
                Values::Text(v) => column
                    .typed::<ByteArrayType>()
                    .write_batch(v, defined, None),
                Values::Int(v) => column.typed::<Int64Type>().write_batch(v, defined, None),
                Values::Float32(v) => column.typed::<FloatType>().write_batch(v, defined, None),
                Values::Float64(v) => column.typed::<DoubleType>().write_batch(v, defined, None),
                Values::Bool(v) => column.typed::<BoolType>().write_batch(v, defined, None),
            };
            written.map_err(io_error)?;
            column.close().map_err(io_error)?;
            c.defined.clear();
            match &mut c.values {
                Values::Text(v) => v.clear(),
                Values::Int(v) => v.clear(),
                Values::Float32(v) => v.clear(),
                Values::Float64(v) => v.clear(),
                Values::Bool(v) => v.clear(),
            }
        }
        group.close().map_err(io_error)?;
        self.rows = 0;
        self.bytes = 0;
        Ok(())
    }

    /// Writes the last row group and the footer; returns the writer.
    ///
    /// # Errors
    /// When writing fails.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.write_group()?;
        self.writer.into_inner().map_err(io_error)
    }
}

/// Streams the rows of a Parquet report to `row` with the columns, each
/// cell as the CSV report writes it (null as an empty cell, numbers as the
/// `csv` crate formats them); returns the columns.
///
/// # Errors
/// When the file cannot be read or is not a Parquet file of flat columns.
pub fn stream(
    path: &Path,
    mut row: impl FnMut(&[String], &[String]),
) -> Result<Vec<String>, String> {
    // The parquet crate panics on some damaged files (a column chunk of
    // negative length): such a file is an error like any other.
    caught_quietly(|| stream_rows(path, &mut row)).unwrap_or_else(|panic| {
        Err(format!(
            "'{}' is not a Parquet report as recount writes it (its reader stopped: {}); \
             {WRITE_AGAIN}",
            path.display(),
            crate::text::panic_message(&*panic)
        ))
    })
}

/// `f`'s result, or its panic caught without the panic hook's message
/// (the caller says what went wrong); a panic elsewhere is printed as
/// before.
fn caught_quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    use std::cell::Cell;
    thread_local!(static QUIET: Cell<bool> = const { Cell::new(false) });
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    outcome
}

/// [`stream`], which may panic where the parquet crate does.
fn stream_rows(
    path: &Path,
    row: &mut impl FnMut(&[String], &[String]),
) -> Result<Vec<String>, String> {
    let fail = |e: ParquetError| {
        format!(
            "'{}' is not a Parquet report as recount writes it ({e}); {WRITE_AGAIN}",
            path.display()
        )
    };
    let file = File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let reader = SerializedFileReader::new(file).map_err(fail)?;
    let columns: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let mut cells = Vec::with_capacity(columns.len());
    for r in reader {
        let r = r.map_err(fail)?;
        cells.clear();
        for (_, field) in r.get_column_iter() {
            cells.push(cell_text(field));
        }
        row(&columns, &cells);
    }
    Ok(columns)
}

/// A value as the CSV report writes it.
fn cell_text(field: &Field) -> String {
    match field {
        Field::Null => String::new(),
        Field::Str(s) => s.clone(),
        Field::Bool(b) => b.to_string(),
        Field::Long(i) => i.to_string(),
        Field::Float(f) => ryu::Buffer::new().format(*f).to_string(),
        Field::Double(f) => ryu::Buffer::new().format(*f).to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::read::TableRows;
    use crate::report::{GoZoneRow, RowBuf};

    #[test]
    fn rows_read_back_as_the_csv_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("go_zones.parquet");
        let mut rows = RowBuf::default();
        for i in 0..3u32 {
            rows.push(
                Table::GoZones,
                &GoZoneRow {
                    game_key: format!("a, \"b\".sgf#{i}"),
                    zone_id: i,
                    naive_sum: (i != 1).then_some(-(i as i32)),
                    modern_value: Some(1.0 / 3.0),
                    mean_count: Some(f64::from(i) * 0.1),
                    zone_points: "é".repeat(i as usize),
                    ..GoZoneRow::default()
                },
            );
        }
        let mut t = ParquetTable::create(&path, Table::GoZones).unwrap();
        t.append(rows.bytes(Table::GoZones)).unwrap();
        t.finish().unwrap();
        let mut got = TableRows::default();
        got.columns = stream(&path, |_, r| got.rows.push(r.to_vec())).unwrap();
        assert_eq!(got, TableRows::of(Table::GoZones, &rows));
        // In memory, the same bytes as the file.
        let bytes = to_bytes(Table::GoZones, rows.bytes(Table::GoZones)).unwrap();
        assert_eq!(bytes, std::fs::read(&path).unwrap());
        // Row groups end at GROUP_ROWS rows or about GROUP_BYTES bytes.
        let groups = |rows: usize, reason: &str| {
            let mut buf = RowBuf::default();
            for _ in 0..rows {
                let row = crate::report::ErrorRow {
                    file_key: "a.sgf".into(),
                    reason: reason.into(),
                    ..Default::default()
                };
                buf.push(Table::Errors, &row);
            }
            let mut t = ParquetTable::create(&path, Table::Errors).unwrap();
            t.append(buf.bytes(Table::Errors)).unwrap();
            t.finish().unwrap();
            let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
            let n = r.metadata().num_row_groups();
            assert_eq!(stream(&path, |_, _| {}).unwrap().len(), 6);
            n
        };
        assert_eq!(groups(GROUP_ROWS + 1, "x"), 2);
        assert_eq!(groups(3 * GROUP_BYTES / 60_000, &"y".repeat(60_000)), 3);
        assert_eq!(groups(0, ""), 0);
        // A cell of the wrong type is an error naming the column.
        let mut t = ParquetTable::create(&path, Table::Errors).unwrap();
        let e = t.append(b"k,s,,x,parse,why\n").unwrap_err().to_string();
        assert!(e.contains("errors.csv: column game: 'x'"), "{e}");
    }

    #[test]
    fn a_damaged_file_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("errors.parquet");
        let mut buf = RowBuf::default();
        for i in 0..3 {
            let row = crate::report::ErrorRow {
                file_key: format!("{i}.sgf"),
                reason: "why".into(),
                ..Default::default()
            };
            buf.push(Table::Errors, &row);
        }
        let good = to_bytes(Table::Errors, buf.bytes(Table::Errors)).unwrap();
        // Every byte of the footer's metadata changed to a few values: each
        // read ends in rows or an error, and some in the parquet crate's
        // own panic (a column chunk of negative length), caught.
        let (mut errors, mut caught) = (0, 0);
        for at in good.len().saturating_sub(600)..good.len() - 8 {
            for value in [0x00, 0x2d, 0x7f, 0xff] {
                let mut bad = good.clone();
                bad[at] = value;
                std::fs::write(&path, &bad).unwrap();
                if let Err(e) = stream(&path, |_, _| {}) {
                    assert!(e.contains("write it again with recount run"), "{e}");
                    errors += 1;
                    caught += usize::from(e.contains("its reader stopped"));
                }
            }
        }
        assert!(
            errors > 0 && caught > 0,
            "{errors} errors, {caught} panics caught"
        );
    }
}
