//! Reports: the row types, the tables they go to, and the sinks that write
//! them. Workers format rows into a [`RowBuf`]; the collector hands buffers
//! to a [`Sink`] in input order, so output never depends on thread timing.

pub mod bg_rows;
pub mod go_rows;
pub mod sink;

pub use bg_rows::{BgCubeRow, BgGameRow, BgPositionRow};
pub use go_rows::{ErrorRow, GoGameRow, GoScoreRow, GoZoneRow, SummaryRow};
pub use sink::{CsvDir, Sink};

use serde::Serialize;

/// The CSV tables recount writes, one file each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    GoGames,
    GoScores,
    GoZones,
    BgGames,
    BgPositions,
    BgCube,
    Errors,
    Summary,
}

impl Table {
    pub const ALL: [Table; 8] = [
        Table::GoGames,
        Table::GoScores,
        Table::GoZones,
        Table::BgGames,
        Table::BgPositions,
        Table::BgCube,
        Table::Errors,
        Table::Summary,
    ];

    pub fn file_name(self) -> &'static str {
        match self {
            Table::GoGames => "go_games.csv",
            Table::GoScores => "go_scores.csv",
            Table::GoZones => "go_zones.csv",
            Table::BgGames => "bg_games.csv",
            Table::BgPositions => "bg_positions.csv",
            Table::BgCube => "bg_cube.csv",
            Table::Errors => "errors.csv",
            Table::Summary => "summary.csv",
        }
    }

    /// The header line, taken from the row type's field names.
    pub fn header(self) -> Vec<u8> {
        match self {
            Table::GoGames => header_of::<GoGameRow>(),
            Table::GoScores => header_of::<GoScoreRow>(),
            Table::GoZones => header_of::<GoZoneRow>(),
            Table::BgGames => header_of::<BgGameRow>(),
            Table::BgPositions => header_of::<BgPositionRow>(),
            Table::BgCube => header_of::<BgCubeRow>(),
            Table::Errors => header_of::<ErrorRow>(),
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

/// CSV rows formatted by one worker, per table.
#[derive(Debug, Default)]
pub struct RowBuf {
    bufs: [Vec<u8>; Table::ALL.len()],
}

impl RowBuf {
    /// Appends one row to `table`.
    pub fn push<T: Serialize>(&mut self, table: Table, row: &T) {
        let buf = std::mem::take(&mut self.bufs[table.index()]);
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .buffer_capacity(512)
            .from_writer(buf);
        // Rows hold only strings and numbers: serializing into memory cannot fail.
        w.serialize(row).expect("row serializes");
        self.bufs[table.index()] = w.into_inner().expect("writing to memory cannot fail");
    }

    /// Appends another buffer's rows, table by table.
    pub fn append(&mut self, other: &RowBuf) {
        for (mine, theirs) in self.bufs.iter_mut().zip(&other.bufs) {
            mine.extend_from_slice(theirs);
        }
    }

    pub fn bytes(&self, table: Table) -> &[u8] {
        &self.bufs[table.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
