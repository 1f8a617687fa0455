//! One game, one key: `duplicate_of` names, for each `go_games.csv` row
//! whose `game_id` an earlier row of the run has, that first row by its
//! `game_key` (so the two join); and for each `bg_games.csv` row of a
//! match whose `match_hash` an earlier match of the run has, the
//! `game_key` of the same game in that first match. Filled by the
//! collector as rows are written, in report order, so it is the same
//! whatever the thread count or the order the paths were given.

use crate::report::{RowBuf, SummaryRow, Table};
use rustc_hash::FxHashMap;

/// The tables whose last cell is `duplicate_of`.
pub const MARKED: [Table; 2] = [Table::GoGames, Table::BgGames];

/// A `go_games.csv` or `bg_games.csv` row in a [`RowBuf`]: where its line
/// ends (the `\n` after its last cell, `duplicate_of`), its `game_id` or
/// `match_hash`, and its `game_key`.
#[derive(Debug, Clone)]
pub struct GameRow {
    pub table: Table,
    pub end: usize,
    pub id: String,
    pub key: String,
}

/// The first row of each `game_id`, and the first match (its `file_key`)
/// of each `match_hash`, seen so far.
#[derive(Debug, Default)]
pub struct Duplicates {
    go: FxHashMap<String, String>,
    bg: FxHashMap<String, String>,
    /// `go_games.csv` rows that repeat an earlier row's game.
    pub repeated: u64,
    /// Backgammon matches that repeat an earlier match.
    pub bg_repeated: u64,
}

impl Duplicates {
    /// Fills `duplicate_of` in `rows`, the next rows of the reports.
    pub fn mark(&mut self, rows: &mut RowBuf) {
        let marks = std::mem::take(&mut rows.marked);
        for table in MARKED {
            let mut marks = marks.iter().filter(|g| g.table == table).peekable();
            if marks.peek().is_none() {
                continue;
            }
            let old = std::mem::take(&mut rows.bufs[table.index()]);
            let mut new = Vec::with_capacity(old.len());
            let mut from = 0;
            for g in marks {
                new.extend_from_slice(&old[from..g.end]);
                from = g.end;
                if let Some(first) = self.first(g) {
                    write_cell(&mut new, &first);
                }
            }
            new.extend_from_slice(&old[from..]);
            rows.bufs[table.index()] = new;
        }
    }

    /// What `g`'s `duplicate_of` holds, if anything, the row now seen.
    fn first(&mut self, g: &GameRow) -> Option<String> {
        if g.table == Table::GoGames {
            let first = self.go.get(&g.id).cloned();
            match first {
                Some(_) => self.repeated += 1,
                None => {
                    self.go.insert(g.id.clone(), g.key.clone());
                }
            }
            return first;
        }
        // A match's games share its hash: the first match's own later
        // games are not copies.
        let (file, game) = g.key.rsplit_once('#').unwrap_or((&g.key, ""));
        match self.bg.get(&g.id) {
            Some(first) if first != file => {
                self.bg_repeated += u64::from(game == "1");
                Some(format!("{first}#{game}"))
            }
            Some(_) => None,
            None => {
                self.bg.insert(g.id.clone(), file.to_string());
                None
            }
        }
    }

    /// The counts `summary.csv` gives.
    pub fn counts(&self) -> GameIds {
        GameIds {
            distinct: self.go.len() as u64,
            repeated: self.repeated,
            bg_distinct: self.bg.len() as u64,
            bg_repeated: self.bg_repeated,
        }
    }
}

/// How many distinct `game_id`s a run saw and how many rows repeated one;
/// how many distinct `match_hash`es and how many matches repeated one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameIds {
    pub distinct: u64,
    pub repeated: u64,
    pub bg_distinct: u64,
    pub bg_repeated: u64,
}

impl GameIds {
    /// `summary.csv`'s `go_game_ids` rows: the `distinct` games, and the
    /// `duplicates` (rows whose game an earlier row holds).
    pub fn go_rows(&self) -> [SummaryRow; 2] {
        [
            SummaryRow::new("go_game_ids", "distinct", self.distinct, "games"),
            SummaryRow::new("go_game_ids", "duplicates", self.repeated, "rows"),
        ]
    }

    /// `summary.csv`'s `bg_match_hashes` rows: the `distinct` matches, and
    /// the `duplicates` (matches an earlier match repeats).
    pub fn bg_rows(&self) -> [SummaryRow; 2] {
        [
            SummaryRow::new("bg_match_hashes", "distinct", self.bg_distinct, "matches"),
            SummaryRow::new("bg_match_hashes", "duplicates", self.bg_repeated, "matches"),
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
        assert_eq!(
            d.counts(),
            GameIds {
                distinct: 2,
                repeated: 2,
                ..GameIds::default()
            }
        );
    }

    #[test]
    fn a_repeated_match_names_the_same_game_of_the_first() {
        let game = |file: &str, game: u32, hash: &str| crate::report::BgGameRow {
            game_key: format!("{file}#{game}"),
            match_hash: hash.into(),
            ..crate::report::BgGameRow::default()
        };
        let mut d = Duplicates::default();
        let mut rows = RowBuf::default();
        for (file, hash) in [("a.mat", "h"), ("b.sgf", "h"), ("c.mat", "k")] {
            for g in 1..=2 {
                rows.push_bg_game(&game(file, g, hash));
            }
        }
        d.mark(&mut rows);
        let text = String::from_utf8(rows.bytes(Table::BgGames).to_vec()).unwrap();
        let ends: Vec<&str> = text
            .lines()
            .map(|l| l.rsplit(',').next().unwrap())
            .collect();
        // The first match's own second game is not a copy.
        assert_eq!(ends, ["", "", "a.mat#1", "a.mat#2", "", ""]);
        let counts = d.counts();
        assert_eq!((counts.bg_distinct, counts.bg_repeated), (2, 1));
        assert_eq!((counts.distinct, counts.repeated), (0, 0));
    }
}
