//! `recount merge SHARD_DIR… --out DIR`: the reports of the N shards of a
//! run (`--shard K/N`) put together into exactly the bytes one run over the
//! whole input writes: rows in input order (by each unit's place, from
//! `shard_units.csv`), `duplicate_of` filled again over all the games,
//! totals added up, the summary, Parquet and the page written again.
//! The output directory is replaced as a run's is: all at once, or not at
//! all.

use crate::analysis::bg_plays::PlayerTotals;
use crate::commands::run::End;
use crate::commands::shard::{unit_tables, Meta, UnitIndex, Units};
use crate::commands::tally::Tally;
use crate::ingest::Shard;
use crate::report::duplicates::{write_cell, Duplicates, MARKED};
use crate::report::{Format, ReportDir, RowBuf, SettingRow, Sink, Table};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Why the shards cannot be merged (exit status 2).
#[derive(Debug)]
pub enum MergeError {
    /// The directories are not the shards of one run, said for a person.
    Shards(String),
    /// The merged reports cannot be written.
    Write { dir: PathBuf, source: io::Error },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Shards(why) => f.write_str(why),
            MergeError::Write { dir, source } if dir.is_file() => write!(
                f,
                "cannot write the merged reports to '{}': it is a file, not a directory; choose \
                 another --out",
                dir.display()
            ),
            MergeError::Write { dir, source } => write!(
                f,
                "cannot write the merged reports to '{}': {source}; check free space and permissions",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// What a merge did.
#[derive(Debug, Clone)]
pub struct Merged {
    pub shards: u32,
    pub tally: Tally,
}

/// One shard's directory, open for reading.
struct Part {
    dir: PathBuf,
    meta: Meta,
    units: Units,
    /// Each unit table's CSV, past its header, as [`Table::ALL`] (`None`
    /// for the tables written only at a run's end).
    tables: Vec<Option<Records>>,
    cells: GameCells,
}

/// Merges the shards in `dirs` into `out`.
///
/// # Errors
/// Directories that are not all the shards of one run (each named), a
/// shard file that does not match its reports, reports that cannot be
/// written.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, MergeError> {
    let shards = |why: String| MergeError::Shards(why);
    let mut parts = open_parts(dirs)?;
    let settings = same_settings(&parts)?;
    let first = &parts[0].meta;
    let (formats, zones) = (first.formats(), first.zones);
    let write = |source: io::Error| MergeError::Write {
        dir: out.to_path_buf(),
        source,
    };
    for p in &parts {
        if same_dir(&p.dir, out) {
            return Err(shards(format!(
                "--out '{}' is one of the shards; merge into another directory",
                out.display()
            )));
        }
    }
    let mut sink = ReportDir::create(out, formats).map_err(write)?;
    sink.begin().map_err(write)?;
    let mut duplicates = Duplicates::default();
    let mut players = PlayerTotals::default();
    // Each shard's next unit, and the shards by their next unit's place,
    // smallest first.
    let mut next: Vec<Option<UnitIndex>> = Vec::new();
    let mut heap = BinaryHeap::new();
    for (i, p) in parts.iter_mut().enumerate() {
        let u = p.units.next_unit().map_err(shards)?;
        if let Some(u) = &u {
            heap.push(Reverse((u.place, i)));
        }
        next.push(u);
    }
    while let Some(Reverse((place, i))) = heap.pop() {
        let p = &mut parts[i];
        let unit = next[i].take().expect("a shard in the heap has a next unit");
        let mut rows = unit_rows(p, &unit)?;
        duplicates.mark(&mut rows);
        sink.record(&rows).map_err(write)?;
        players += unit.players;
        next[i] = p.units.next_unit().map_err(shards)?;
        if let Some(u) = &next[i] {
            if u.place <= place {
                return Err(shards(format!(
                    "{}: shard_units.csv is out of order; run the shard again",
                    p.dir.display()
                )));
            }
            heap.push(Reverse((u.place, i)));
        }
    }
    for p in &mut parts {
        check_consumed(p)?;
    }
    let mut tally = Tally::default();
    let mut skipped = 0;
    for p in &parts {
        tally += p.meta.tally.clone();
        skipped += p.meta.skipped;
    }
    tally.bg.players = players;
    let end = End {
        tally: &tally,
        skipped,
        settings: &settings,
        zones,
        stopped: None,
        game_ids: duplicates.counts(),
    };
    sink.record(&end.rows())
        .and_then(|_| sink.finish())
        .map_err(write)?;
    Ok(Merged {
        shards: parts.len() as u32,
        tally,
    })
}

/// Opens every shard and checks that they are the N parts of one run:
/// each part once, the same input, the same formats; sorted by part.
fn open_parts(dirs: &[PathBuf]) -> Result<Vec<Part>, MergeError> {
    let shards = |why: String| MergeError::Shards(why);
    let mut parts = Vec::new();
    for dir in dirs {
        let meta = Meta::read(dir).map_err(shards)?;
        let units = Units::open(dir).map_err(shards)?;
        let mut tables = Vec::new();
        for t in Table::ALL {
            tables.push(if unit_tables().any(|u| u == t) {
                Some(Records::open(dir, t).map_err(shards)?)
            } else {
                None
            });
        }
        parts.push(Part {
            dir: dir.clone(),
            meta,
            units,
            tables,
            cells: GameCells::new(),
        });
    }
    let shard_of = |p: &Part| -> Result<Shard, MergeError> {
        p.meta
            .shard
            .parse()
            .map_err(|e: String| shards(format!("{}: {e}", p.dir.display())))
    };
    let Some(first) = parts.first() else {
        return Err(shards("no shard directories given".into()));
    };
    let count = shard_of(first)?.count;
    let mut seen: Vec<Option<PathBuf>> = vec![None; count as usize];
    for p in &parts {
        let s = shard_of(p)?;
        let name = p.dir.display();
        if s.count != count {
            return Err(shards(format!(
                "{name} is shard {s} but {} is shard {}: give the shards of one run",
                first.dir.display(),
                first.meta.shard
            )));
        }
        if let Some(other) = &seen[s.index as usize - 1] {
            return Err(shards(format!(
                "{name} and {} are both shard {s}; give each shard once",
                other.display()
            )));
        }
        seen[s.index as usize - 1] = Some(p.dir.clone());
        let m = (&p.meta, &first.meta);
        if (m.0.entries, &m.0.entries_hash) != (m.1.entries, &m.1.entries_hash) {
            return Err(shards(format!(
                "{name} read other paths than {} ({} paths against {}): run every shard on the same paths",
                first.dir.display(),
                m.0.entries,
                m.1.entries
            )));
        }
        if m.0.shard_by != m.1.shard_by {
            return Err(shards(format!(
                "{name} was made --shard-by {} but {} --shard-by {}: run every shard the same way",
                m.0.shard_by,
                first.dir.display(),
                m.1.shard_by
            )));
        }
        if m.0.formats() != m.1.formats() || m.0.zones != m.1.zones {
            return Err(shards(format!(
                "{name} was run with other settings (--format, --no-html or the zones) than {}: run every shard with the same options",
                first.dir.display()
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| seen[*k as usize - 1].is_none())
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(shards(format!(
            "shard {} missing: give the --out directories of all {count} shards",
            missing.join(", ")
        )));
    }
    parts.sort_by_key(|p| shard_of(p).map(|s| s.index).unwrap_or(0));
    Ok(parts)
}

/// The shards' `settings.csv`, which must be the same: their rows.
fn same_settings(parts: &[Part]) -> Result<Vec<SettingRow>, MergeError> {
    let read = |p: &Part| {
        let path = p.dir.join(Table::Settings.file(Format::Csv));
        let bytes = std::fs::read(&path)
            .map_err(|e| MergeError::Shards(format!("{}: {e}", path.display())))?;
        let mut rows = Vec::new();
        for r in csv::Reader::from_reader(&bytes[..]).records() {
            let r = r.map_err(|e| {
                MergeError::Shards(format!("{}: {e}; run the shard again", path.display()))
            })?;
            rows.push(SettingRow {
                setting: r.get(0).unwrap_or_default().to_string(),
                value: r.get(1).unwrap_or_default().to_string(),
            });
        }
        Ok(rows)
    };
    let first = read(&parts[0])?;
    for p in &parts[1..] {
        let rows = read(p)?;
        if rows != first {
            // The first setting that differs, by name.
            let value = |rows: &[SettingRow], name: &str| {
                rows.iter()
                    .find(|r| r.setting == name)
                    .map_or("(none)".to_string(), |r| r.value.clone())
            };
            let name = first
                .iter()
                .chain(&rows)
                .map(|r| r.setting.as_str())
                .find(|&n| value(&first, n) != value(&rows, n))
                .unwrap_or("their order");
            return Err(MergeError::Shards(format!(
                "{} was run with other settings than {} ({name}: {} against {}): run every shard with the same options",
                p.dir.display(),
                parts[0].dir.display(),
                value(&rows, name),
                value(&first, name),
            )));
        }
    }
    Ok(first)
}

/// A unit's rows, read from its shard's reports; its `go_games.csv` and
/// `bg_games.csv` rows with `duplicate_of` emptied, to be filled over all
/// the shards.
fn unit_rows(p: &mut Part, unit: &UnitIndex) -> Result<RowBuf, MergeError> {
    let mut rows = RowBuf::default();
    let mut record = Vec::new();
    for t in unit_tables() {
        let table = p.tables[t as usize].as_mut().expect("unit tables are open");
        for _ in 0..unit.rows[t as usize] {
            if !table.next(&mut record).map_err(MergeError::Shards)? {
                return Err(MergeError::Shards(format!(
                    "{}: {} ends before the rows shard_units.csv gives it; run the shard again",
                    p.dir.display(),
                    t.file(Format::Csv)
                )));
            }
            if MARKED.contains(&t) {
                let (raw, id, key) = p.cells.undo_duplicate(t, &record, &table.path)?;
                rows.push_raw_game(t, &raw, id, key);
            } else {
                rows.push_raw(t, &record);
            }
        }
    }
    Ok(rows)
}

/// Reads `go_games.csv` and `bg_games.csv` rows back into cells, with one
/// CSV reader for all of them (building a reader costs more than reading
/// a row).
struct GameCells {
    reader: csv::Reader<io::Cursor<Vec<u8>>>,
    cells: csv::ByteRecord,
    /// For each of [`MARKED`]: its number of columns and where `game_key`
    /// and its `game_id` (`match_hash` in `bg_games.csv`) are.
    layouts: [(usize, usize, usize); MARKED.len()],
}

impl GameCells {
    fn new() -> GameCells {
        let layout = |table: Table| {
            let columns = table.columns();
            assert_eq!(columns.last().map(String::as_str), Some("duplicate_of"));
            let at = |name: &str| {
                columns
                    .iter()
                    .position(|c| c == name)
                    .expect("a column of the table")
            };
            let id = if table == Table::BgGames {
                "match_hash"
            } else {
                "game_id"
            };
            (columns.len(), at("game_key"), at(id))
        };
        GameCells {
            // Rows of two tables, of two lengths: each checked below.
            reader: csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(io::Cursor::new(Vec::new())),
            cells: csv::ByteRecord::new(),
            layouts: MARKED.map(layout),
        }
    }

    /// A row of `table` without its `duplicate_of` (the last cell), its
    /// `game_id` (`match_hash` in `bg_games.csv`) and its `game_key`.
    fn undo_duplicate(
        &mut self,
        table: Table,
        record: &[u8],
        path: &str,
    ) -> Result<(Vec<u8>, String, String), MergeError> {
        let bad = || {
            MergeError::Shards(format!(
                "{path}: a row is not a {} row; run the shard again",
                table.name()
            ))
        };
        let marked = MARKED.iter().position(|t| *t == table).ok_or_else(bad)?;
        let (columns, key, id) = self.layouts[marked];
        *self.reader.get_mut() = io::Cursor::new(record.to_vec());
        self.reader.seek(csv::Position::new()).map_err(|_| bad())?;
        if !matches!(self.reader.read_byte_record(&mut self.cells), Ok(true))
            || self.cells.len() != columns
        {
            return Err(bad());
        }
        let cell = |i: usize| String::from_utf8_lossy(self.cells.get(i).unwrap_or_default());
        let mut written = Vec::new();
        let duplicate_of = cell(columns - 1);
        if !duplicate_of.is_empty() {
            write_cell(&mut written, &duplicate_of);
        }
        written.push(b'\n');
        let keep = record
            .len()
            .checked_sub(written.len())
            .filter(|&k| record[k..] == written[..] && k > 0 && record[k - 1] == b',')
            .ok_or_else(bad)?;
        let mut raw = record[..keep].to_vec();
        raw.push(b'\n');
        Ok((raw, cell(id).into_owned(), cell(key).into_owned()))
    }
}

/// Checks that a shard's reports hold no unit rows beyond those its
/// `shard_units.csv` gives (the `player` rows at the end of
/// `bg_stats.csv` are the shard's own totals, made again here).
fn check_consumed(p: &mut Part) -> Result<(), MergeError> {
    let mut record = Vec::new();
    for t in unit_tables().filter(|t| *t != Table::BgStats) {
        let table = p.tables[t as usize].as_mut().expect("unit tables are open");
        if table.next(&mut record).map_err(MergeError::Shards)? {
            return Err(MergeError::Shards(format!(
                "{}: {} has rows shard_units.csv does not give; run the shard again",
                p.dir.display(),
                t.file(Format::Csv)
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` name the same directory.
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A report's CSV read one record at a time, as written: a record ends at
/// a line break outside quotes (a quoted cell may hold one).
struct Records {
    reader: BufReader<File>,
    path: String,
}

impl Records {
    /// Opens `table`'s CSV in `dir` and checks its header.
    fn open(dir: &Path, table: Table) -> Result<Records, String> {
        let path = dir.join(table.file(Format::Csv));
        let shown = path.display().to_string();
        let file = File::open(&path)
            .map_err(|e| format!("{shown}: {e}; a shard's reports are read from its CSV files"))?;
        let mut records = Records {
            reader: BufReader::with_capacity(1 << 16, file),
            path: shown,
        };
        let mut header = Vec::new();
        if !records.next(&mut header)? || header != table.header() {
            return Err(format!(
                "{}: its header is not this version's; run the shards again with this version",
                records.path
            ));
        }
        Ok(records)
    }

    /// Reads the next record into `out`; `false` at the end.
    fn next(&mut self, out: &mut Vec<u8>) -> Result<bool, String> {
        out.clear();
        loop {
            let n = self
                .reader
                .read_until(b'\n', out)
                .map_err(|e| format!("{}: {e}", self.path))?;
            if n == 0 {
                return if out.is_empty() {
                    Ok(false)
                } else {
                    Err(format!(
                        "{}: the last row is cut off; run the shard again",
                        self.path
                    ))
                };
            }
            let quotes = out.iter().filter(|&&b| b == b'"').count();
            if quotes % 2 == 0 && out.ends_with(b"\n") {
                return Ok(true);
            }
        }
    }
}
