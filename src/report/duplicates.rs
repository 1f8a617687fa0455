//! One game, one key: `duplicate_of` names, for each `go_games.csv` row
//! whose `game_id` an earlier row of the run has, that first row by its
//! `game_key` (so the two join). Filled
//! by the collector as rows are written, in report order, so it is the
//! same whatever the thread count or the order the paths were given.

use crate::report::{RowBuf, SummaryRow, Table};
use rustc_hash::FxHashMap;

/// A `go_games.csv` row in a [`RowBuf`]: where its line ends (the `\n`
/// after its last cell, `duplicate_of`), its `game_id` and `game_key`.
#[derive(Debug, Clone)]
pub struct GameRow {
    pub end: usize,
    pub id: String,
    pub key: String,
}

/// The first row of each `game_id` seen so far.
#[derive(Debug, Default)]
pub struct Duplicates {
    first: FxHashMap<String, String>,
    /// Rows that repeat an earlier row's game.
    pub repeated: u64,
}

impl Duplicates {
    /// Fills `duplicate_of` in `rows`, the next rows of the report.
    pub fn mark(&mut self, rows: &mut RowBuf) {
        if rows.go_games.is_empty() {
            return;
        }
        let old = std::mem::take(&mut rows.bufs[Table::GoGames.index()]);
        let mut new = Vec::with_capacity(old.len());
        let mut from = 0;
        for g in std::mem::take(&mut rows.go_games) {
            new.extend_from_slice(&old[from..g.end]);
            from = g.end;
            match self.first.get(&g.id) {
                Some(first) => {
                    self.repeated += 1;
                    write_cell(&mut new, first);
                }
                None => {
                    self.first.insert(g.id, g.key);
                }
            }
        }
        new.extend_from_slice(&old[from..]);
        rows.bufs[Table::GoGames.index()] = new;
    }

    /// Distinct games seen.
    pub fn distinct(&self) -> u64 {
        self.first.len() as u64
    }

    /// The `summary.csv` rows: `go_game_ids,distinct` and
    /// `go_game_ids,duplicates` (rows whose game an earlier row holds).
    /// The counts `summary.csv` gives.
    pub fn counts(&self) -> GameIds {
        GameIds {
            distinct: self.distinct(),
            repeated: self.repeated,
        }
    }
}

/// How many distinct `game_id`s a run saw, and how many rows repeated one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameIds {
    pub distinct: u64,
    pub repeated: u64,
}

impl GameIds {
    /// `summary.csv`'s `go_game_ids` rows.
    pub fn rows(&self) -> [SummaryRow; 2] {
        [
            SummaryRow::new("go_game_ids", "distinct", self.distinct, "games"),
            SummaryRow::new("go_game_ids", "duplicates", self.repeated, "rows"),
        ]
    }
}

/// `text` as one CSV cell, quoted where it must be.
pub fn write_cell(out: &mut Vec<u8>, text: &str) {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record([text])
        .expect("writing to memory cannot fail");
    let cell = w.into_inner().expect("writing to memory cannot fail");
    out.extend_from_slice(&cell[..cell.len() - 1]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::GoGameRow;

    fn row(source: &str, id: &str) -> GoGameRow {
        GoGameRow {
            game_key: format!("{source}#1"),
            source: source.into(),
            game: 1,
            game_id: id.into(),
            ..GoGameRow::default()
        }
    }

    #[test]
    fn later_rows_name_the_first_of_their_game() {
        let mut d = Duplicates::default();
        let mut a = RowBuf::default();
        a.push_go_game(&row("a.sgf", "1"));
        a.push_go_game(&row("b,c.sgf", "2"));
        let mut b = RowBuf::default();
        b.push_go_game(&row("d.sgf", "1"));
        let mut c = RowBuf::default();
        c.push_go_game(&row("e.sgf", "2"));
        a.append(&b);
        d.mark(&mut a);
        d.mark(&mut c);
        let text = String::from_utf8(a.bytes(Table::GoGames).to_vec()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with(",1,"), "{}", lines[0]);
        assert!(lines[1].ends_with(",2,"), "{}", lines[1]);
        assert!(lines[2].ends_with(",1,a.sgf#1"), "{}", lines[2]);
        let c = String::from_utf8(c.bytes(Table::GoGames).to_vec()).unwrap();
        assert!(c.ends_with(",2,\"b,c.sgf#1\"\n"), "{c}");
        assert_eq!((d.repeated, d.distinct()), (2, 2));
        assert_eq!(
            d.counts(),
            GameIds {
                distinct: 2,
                repeated: 2
            }
        );
    }
}
