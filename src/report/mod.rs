//! Reports: the row types, the tables they go to, and the sinks that write
//! them. Workers format rows into a [`RowBuf`]; the collector hands buffers
//! to a [`Sink`] in input order, so output never depends on thread timing.

pub mod bg_rows;
mod cells;
pub mod columns;
pub mod duplicates;
pub mod go_rows;
pub mod html;
pub mod keys;
pub mod parquet;
pub mod read;
pub mod sink;

pub use bg_rows::{BgCubeRow, BgGameRow, BgPlayRow, BgPositionRow, BgStatsRow};
pub use go_rows::{
    ErrorRow, GoGameRow, GoInterpretationRow, GoScoreRow, GoZoneRow, SettingRow, SummaryRow,
};
pub use sink::{Extra, Formats, ReportDir, Sink};

use columns::{Kind, Typed};
use serde::Serialize;

/// A report file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Parquet,
}

impl Format {
    /// The file name's extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
        }
    }
}

/// The tables recount writes, one file each per format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    GoGames,
    GoScores,
    GoZones,
    GoInterpretations,
    BgGames,
    BgPositions,
    BgCube,
    BgPlays,
    BgStats,
    Errors,
    Settings,
    Summary,
}

impl Table {
    pub const ALL: [Table; 12] = [
        Table::GoGames,
        Table::GoScores,
        Table::GoZones,
        Table::GoInterpretations,
        Table::BgGames,
        Table::BgPositions,
        Table::BgCube,
        Table::BgPlays,
        Table::BgStats,
        Table::Errors,
        Table::Settings,
        Table::Summary,
    ];

    pub fn file_name(self) -> &'static str {
        match self {
            Table::GoGames => "go_games.csv",
            Table::GoScores => "go_scores.csv",
            Table::GoZones => "go_zones.csv",
            Table::GoInterpretations => "go_interpretations.csv",
            Table::BgGames => "bg_games.csv",
            Table::BgPositions => "bg_positions.csv",
            Table::BgCube => "bg_cube.csv",
            Table::BgPlays => "bg_plays.csv",
            Table::BgStats => "bg_stats.csv",
            Table::Errors => "errors.csv",
            Table::Settings => "settings.csv",
            Table::Summary => "summary.csv",
        }
    }

    /// The table's file in `format`: `go_scores.parquet`.
    pub fn file(self, format: Format) -> String {
        format!("{}.{}", self.name(), format.extension())
    }

    /// The report's name: its file name without `.csv` (`go_scores`).
    pub fn name(self) -> &'static str {
        let file = self.file_name();
        &file[..file.len() - ".csv".len()]
    }

    /// The table named `name`, with or without `.csv`.
    pub fn from_name(name: &str) -> Option<Table> {
        let name = name.strip_suffix(".csv").unwrap_or(name);
        Table::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The columns that name a row: one row per key in a run's report
    /// (`recount diff` matches rows by them). None is ever empty, except
    /// those a row's kind has not (`game` of an error row for a whole
    /// file; `file_key`, `game_key` and `player` in `bg_stats.csv`'s wider
    /// scopes).
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Table::GoGames | Table::GoScores | Table::BgGames => &["game_key"],
            Table::GoZones => &["game_key", "zone_id"],
            Table::BgPositions | Table::BgPlays => &["game_key", "play"],
            Table::BgCube => &["game_key", "line", "player"],
            Table::BgStats => &["scope", "file_key", "game_key", "player", "player_key"],
            Table::Errors => &["file_key", "game"],
            Table::GoInterpretations => &["interpretation"],
            Table::Settings => &["setting"],
            Table::Summary => &["metric", "name"],
        }
    }

    /// The column names of the header.
    pub fn columns(self) -> Vec<String> {
        let header = self.header();
        let line = String::from_utf8_lossy(&header);
        line.trim_end().split(',').map(str::to_string).collect()
    }

    /// The column types, taken from the row type's field types.
    pub fn kinds(self) -> &'static [Kind] {
        match self {
            Table::GoGames => GoGameRow::KINDS,
            Table::GoScores => GoScoreRow::KINDS,
            Table::GoZones => GoZoneRow::KINDS,
            Table::GoInterpretations => GoInterpretationRow::KINDS,
            Table::BgGames => BgGameRow::KINDS,
            Table::BgPositions => BgPositionRow::KINDS,
            Table::BgCube => BgCubeRow::KINDS,
            Table::BgPlays => BgPlayRow::KINDS,
            Table::BgStats => BgStatsRow::KINDS,
            Table::Errors => ErrorRow::KINDS,
            Table::Settings => SettingRow::KINDS,
            Table::Summary => SummaryRow::KINDS,
        }
    }

    /// The header line, taken from the row type's field names.
    pub fn header(self) -> Vec<u8> {
        match self {
            Table::GoGames => header_of::<GoGameRow>(),
            Table::GoScores => header_of::<GoScoreRow>(),
            Table::GoZones => header_of::<GoZoneRow>(),
            Table::GoInterpretations => header_of::<GoInterpretationRow>(),
            Table::BgGames => header_of::<BgGameRow>(),
            Table::BgPositions => header_of::<BgPositionRow>(),
            Table::BgCube => header_of::<BgCubeRow>(),
            Table::BgPlays => header_of::<BgPlayRow>(),
            Table::BgStats => header_of::<BgStatsRow>(),
            Table::Errors => header_of::<ErrorRow>(),
            Table::Settings => header_of::<SettingRow>(),
            Table::Summary => header_of::<SummaryRow>(),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

fn header_of<T: Serialize + Default>() -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(true)
        .from_writer(Vec::new());
    w.serialize(T::default())
        .expect("serializing a default row cannot fail");
    let bytes = w.into_inner().expect("writing to memory cannot fail");
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    bytes[..end].to_vec()
}

/// What to do about a report that does not read back (CSV or Parquet):
/// said after the problem.
pub(crate) const WRITE_AGAIN: &str =
    "it was changed or cut short since: write it again with recount run";

/// The most bytes of text a cell holds (before CSV quoting). Longer text
/// (a 15 MB player name, a move list of 200,000 plays) is cut at a char
/// boundary and ends with `… [truncated: N bytes]`, N the bytes cut off,
/// the whole at most this long: every report then loads with a CSV
/// reader's default line limits (DuckDB's is 2 MB).
pub const MAX_CELL: usize = 64 << 10;

/// `text`, cut to [`MAX_CELL`] bytes with the marker when longer.
pub fn cap_cell(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_CELL {
        return text.into();
    }
    let marker = |cut: usize| format!("… [truncated: {cut} bytes]");
    // The marker with the most digits N can have.
    let mut keep = MAX_CELL - marker(text.len()).len();
    while !text.is_char_boundary(keep) {
        keep -= 1;
    }
    format!("{}{}", &text[..keep], marker(text.len() - keep)).into()
}

/// CSV rows formatted by one worker, per table.
#[derive(Debug, Default)]
pub struct RowBuf {
    bufs: [Vec<u8>; Table::ALL.len()],
    /// Rows in each table.
    rows: [u32; Table::ALL.len()],
    /// Each `go_games.csv` and `bg_games.csv` row's id and key, where its
    /// (last) cell `duplicate_of` is: filled in report order by
    /// [`duplicates::Duplicates`].
    marked: Vec<duplicates::GameRow>,
}

impl RowBuf {
    /// Appends one row to `table`, its text cells cut to [`MAX_CELL`].
    ///
    /// The `csv` writer is quadratic in a long quoted cell: for each
    /// buffer-full of output it searches the rest of the cell for a quote.
    /// So the writer's buffer is made to hold the row's longest cell (one
    /// search), and no cell is longer than [`MAX_CELL`].
    pub fn push<T: Serialize>(&mut self, table: Table, row: &T) {
        let mut probe = cells::Cells::default();
        // Rows hold only strings and numbers: serializing cannot fail.
        row.serialize(&mut probe).expect("row serializes");
        let buf = std::mem::take(&mut self.bufs[table.index()]);
        let capacity = |longest: usize| (2 * longest + 16).max(512);
        let buf = if probe.longest <= MAX_CELL {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .buffer_capacity(capacity(probe.longest))
                .from_writer(buf);
            w.serialize(row).expect("row serializes");
            w.into_inner()
        } else {
            let mut cut = cells::Cells {
                collect: true,
                ..cells::Cells::default()
            };
            row.serialize(&mut cut).expect("row serializes");
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .buffer_capacity(capacity(MAX_CELL))
                .from_writer(buf);
            w.write_record(&cut.cells).expect("row serializes");
            w.into_inner()
        };
        self.bufs[table.index()] = buf.expect("writing to memory cannot fail");
        self.rows[table.index()] += 1;
    }

    /// Appends one row already written: `record`, its CSV line.
    pub fn push_raw(&mut self, table: Table, record: &[u8]) {
        self.bufs[table.index()].extend_from_slice(record);
        self.rows[table.index()] += 1;
    }

    /// Appends a `go_games.csv` or `bg_games.csv` row already written,
    /// its `duplicate_of` cell left empty (`record` ends `,\n`), for
    /// [`duplicates::Duplicates`] to fill: `id` its `game_id` or
    /// `match_hash`, `key` its `game_key`.
    pub fn push_raw_game(&mut self, table: Table, record: &[u8], id: String, key: String) {
        self.push_raw(table, record);
        self.mark_last(table, id, key);
    }

    /// Appends a `go_games.csv` row, noting its `game_id` and its
    /// `game_key` for `duplicate_of`.
    pub fn push_go_game(&mut self, row: &GoGameRow) {
        self.push(Table::GoGames, row);
        self.mark_last(Table::GoGames, row.game_id.clone(), row.game_key.clone());
    }

    /// Appends a `bg_games.csv` row, noting its `match_hash` and its
    /// `game_key` for `duplicate_of`.
    pub fn push_bg_game(&mut self, row: &BgGameRow) {
        self.push(Table::BgGames, row);
        self.mark_last(Table::BgGames, row.match_hash.clone(), row.game_key.clone());
    }

    /// Notes `table`'s last row for [`duplicates::Duplicates`].
    fn mark_last(&mut self, table: Table, id: String, key: String) {
        let end = self.bufs[table.index()].len() - 1;
        self.marked.push(duplicates::GameRow {
            table,
            end,
            id,
            key,
        });
    }

    /// Appends another buffer's rows, table by table.
    pub fn append(&mut self, other: &RowBuf) {
        let offset = |t: Table| self.bufs[t.index()].len();
        let moved: Vec<_> = other
            .marked
            .iter()
            .map(|g| duplicates::GameRow {
                end: g.end + offset(g.table),
                ..g.clone()
            })
            .collect();
        self.marked.extend(moved);
        for (mine, theirs) in self.bufs.iter_mut().zip(&other.bufs) {
            mine.extend_from_slice(theirs);
        }
        for (mine, theirs) in self.rows.iter_mut().zip(other.rows) {
            *mine += theirs;
        }
    }

    pub fn bytes(&self, table: Table) -> &[u8] {
        &self.bufs[table.index()]
    }

    /// The rows in each table, as [`Table::ALL`].
    pub fn rows(&self) -> [u32; Table::ALL.len()] {
        self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        name: String,
        n: u64,
        x: f64,
        maybe: Option<u32>,
        none: Option<u32>,
        flag: bool,
        note: &'static str,
    }

    fn row(name: String) -> Row {
        Row {
            name,
            n: 7,
            x: 0.1 + 0.2,
            maybe: Some(3),
            none: None,
            flag: true,
            note: "a, \"quoted\" note",
        }
    }

    fn plain(r: &Row) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(r).unwrap();
        w.into_inner().unwrap()
    }

    fn cells_of(bytes: &[u8]) -> Vec<String> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes);
        let rec = r.records().next().unwrap().unwrap();
        rec.iter().map(str::to_string).collect()
    }

    #[test]
    fn long_cells_are_cut_at_64_kib_with_a_marker() {
        // Two-byte chars, so the cut falls inside one; commas and quotes,
        // so the cell is quoted.
        let long = "é,\"".repeat(200_000);
        let mut b = RowBuf::default();
        b.push(Table::Errors, &row(long.clone()));
        let got = cells_of(b.bytes(Table::Errors));
        let want = cells_of(&plain(&row(String::new())));
        assert_eq!(got[1..], want[1..], "the other cells as csv writes them");
        let cell = &got[0];
        assert!(cell.len() <= MAX_CELL, "{}", cell.len());
        assert!(cell.len() > MAX_CELL - 40, "{}", cell.len());
        let kept = cell.find("… [truncated: ").unwrap();
        assert!(long.starts_with(&cell[..kept]));
        assert_eq!(
            &cell[kept..],
            format!("… [truncated: {} bytes]", long.len() - kept)
        );
        // At the limit, nothing is cut; rows are what csv writes.
        let fits = "x".repeat(MAX_CELL);
        let mut b = RowBuf::default();
        b.push(Table::Errors, &row(fits.clone()));
        b.push(Table::Errors, &row("short".into()));
        let mut want = plain(&row(fits));
        want.extend(plain(&row("short".into())));
        assert_eq!(b.bytes(Table::Errors), &want[..]);
    }

    #[test]
    fn a_huge_cell_is_written_in_linear_time() {
        // 36 MB in one quoted cell took the csv writer over a minute.
        let huge = ";B[aa],".repeat(36 << 20 >> 3);
        let start = std::time::Instant::now();
        let mut b = RowBuf::default();
        b.push(Table::GoGames, &row(huge));
        assert!(b.bytes(Table::GoGames).len() < 2 * MAX_CELL);
        // A cell just under the limit: one buffer, one search.
        let mut b = RowBuf::default();
        for _ in 0..100 {
            b.push(Table::GoGames, &row(",".repeat(MAX_CELL - 1)));
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn tables_are_named_and_keyed_by_their_columns() {
        for t in Table::ALL {
            assert_eq!(Table::from_name(t.name()), Some(t));
            assert_eq!(Table::from_name(t.file_name()), Some(t));
            let columns = t.columns();
            assert_eq!(t.kinds().len(), columns.len(), "{t:?}");
            assert!(
                t.keys().iter().all(|k| columns.iter().any(|c| c == k)),
                "{t:?}"
            );
        }
        assert_eq!(Table::GoScores.name(), "go_scores");
        assert_eq!(Table::from_name("go_score"), None);
    }

    #[test]
    fn headers_are_snake_case_and_one_line() {
        for t in Table::ALL {
            let h = String::from_utf8(t.header()).unwrap();
            assert!(h.ends_with('\n') && h.matches('\n').count() == 1, "{h}");
            assert!(h.trim_end().split(',').all(|c| c
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')));
        }
    }
}
