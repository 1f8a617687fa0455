//! What a `--shard K/N` run writes beside its reports for `recount merge`,
//! and reading it back: `shard.json` (the shard, its input and settings,
//! its totals) and `shard_units.csv` (each unit's place in the input and
//! its rows in each report, in the order the reports hold them).

use crate::analysis::bg_plays::PlayerTotals;
use crate::commands::tally::Tally;
use crate::ingest::shard::stable_hash;
use crate::ingest::{Entry, Place, Shard};
use crate::report::{Formats, Table};
use crate::text::escape_path;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version of the two files' layout; `merge` reads only its own.
pub const LAYOUT: u32 = 1;

/// A shard run: its part, and the formats asked for (a shard always
/// writes CSV too, which `merge` reads; the merged reports are written in
/// these formats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRun {
    pub shard: Shard,
    pub formats: Formats,
}

/// `shard.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Meta {
    pub layout: u32,
    /// `K/N`.
    pub shard: String,
    /// `--shard-by`: `member` or `file`.
    pub shard_by: String,
    /// The paths the run read, in order: their count and a hash of them
    /// (every shard of a run must read the same).
    pub entries: u64,
    pub entries_hash: String,
    pub csv: bool,
    pub parquet: bool,
    pub html: bool,
    /// The zones were asked for (their summary rows are written).
    pub zones: bool,
    /// Files skipped in this part.
    pub skipped: u64,
    /// This part's totals; the players' statistics are per unit, in
    /// `shard_units.csv`, so that they add up in input order.
    pub tally: Tally,
}

impl Meta {
    pub fn new(
        run: &ShardRun,
        entries: &[Entry],
        zones: bool,
        skipped: u64,
        tally: &Tally,
    ) -> Meta {
        let mut tally = tally.clone();
        tally.bg.players = PlayerTotals::default();
        Meta {
            layout: LAYOUT,
            shard: run.shard.to_string(),
            shard_by: run.shard.by.name().into(),
            entries: entries.len() as u64,
            entries_hash: entries_hash(entries),
            csv: run.formats.csv,
            parquet: run.formats.parquet,
            html: run.formats.html,
            zones,
            skipped,
            tally,
        }
    }

    pub fn formats(&self) -> Formats {
        Formats {
            csv: self.csv,
            parquet: self.parquet,
            html: self.html,
        }
    }

    /// Reads `shard.json` in `dir`.
    ///
    /// # Errors
    /// A missing, unreadable or foreign file, said for a person.
    pub fn read(dir: &Path) -> Result<Meta, String> {
        let path = dir.join(crate::report::Extra::ShardMeta.file_name());
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e}; give the --out directories of the runs made with --shard K/N",
                path.display()
            )
        })?;
        Meta::from_json(&text, &path.display().to_string())
    }

    /// Reads `shard.json`'s text; `shown` names it in errors.
    ///
    /// # Errors
    /// Text that is not this version's shard file.
    pub fn from_json(text: &str, shown: &str) -> Result<Meta, String> {
        let meta: Meta = serde_json::from_str(text)
            .map_err(|e| format!("{shown}: not a recount shard file ({e})"))?;
        if meta.layout != LAYOUT {
            return Err(format!(
                "{shown}: written by another version of recount (layout {}, this one reads {LAYOUT}); run the shards again with this version",
                meta.layout
            ));
        }
        Ok(meta)
    }

    pub fn to_json(&self) -> Vec<u8> {
        let mut text = serde_json::to_vec_pretty(self).expect("totals serialize");
        text.push(b'\n');
        text
    }
}

/// A hash of the paths read, in order, as hex.
fn entries_hash(entries: &[Entry]) -> String {
    let names: Vec<String> = entries.iter().map(|e| escape_path(&e.path)).collect();
    let parts: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
    format!("{:016x}", stable_hash(&parts))
}

/// The reports whose rows units write, in `shard_units.csv`'s columns:
/// the others (`settings`, `go_interpretations`, `summary`) are written
/// once at the end of a run, from its totals.
pub fn unit_tables() -> impl Iterator<Item = Table> {
    Table::ALL.into_iter().filter(|t| {
        !matches!(
            t,
            Table::Settings | Table::GoInterpretations | Table::Summary
        )
    })
}

/// `shard_units.csv`'s header: `entry,stream,unit`, a column of row counts per
/// report, and `players` (the unit's players' statistics, JSON).
pub fn units_header() -> Vec<u8> {
    let mut cells = vec!["entry".to_string(), "stream".into(), "unit".into()];
    cells.extend(unit_tables().map(|t| t.name().to_string()));
    cells.push("players".into());
    line(&cells)
}

/// One unit's line in `shard_units.csv`.
pub fn unit_line(place: Place, rows: &[u32; Table::ALL.len()], players: &PlayerTotals) -> Vec<u8> {
    let mut cells = vec![
        place.entry.to_string(),
        place.stream.to_string(),
        place.unit.to_string(),
    ];
    cells.extend(unit_tables().map(|t| rows[t as usize].to_string()));
    cells.push(if players.players.is_empty() {
        String::new()
    } else {
        serde_json::to_string(players).expect("statistics serialize")
    });
    line(&cells)
}

fn line(cells: &[String]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(cells)
        .expect("writing to memory cannot fail");
    w.into_inner().expect("writing to memory cannot fail")
}

/// One unit read back from `shard_units.csv`.
#[derive(Debug, Clone, Default)]
pub struct UnitIndex {
    pub place: Place,
    /// Its rows in each report, as [`Table::ALL`].
    pub rows: [u32; Table::ALL.len()],
    pub players: PlayerTotals,
}

/// Reads `shard_units.csv` (a file in a shard's directory, or its bytes),
/// line by line.
pub struct Units {
    reader: csv::Reader<Box<dyn std::io::Read>>,
    record: csv::StringRecord,
    path: String,
}

impl Units {
    /// # Errors
    /// The file cannot be opened, or its header is not this version's.
    pub fn open(dir: &Path) -> Result<Units, String> {
        let path = dir.join(crate::report::Extra::ShardUnits.file_name());
        let shown = path.display().to_string();
        let file = std::fs::File::open(&path).map_err(|e| format!("{shown}: {e}"))?;
        Units::new(Box::new(file), shown)
    }

    /// Reads the file's bytes; `shown` names it in errors.
    ///
    /// # Errors
    /// A header that is not this version's.
    pub fn from_bytes(bytes: Vec<u8>, shown: String) -> Result<Units, String> {
        Units::new(Box::new(std::io::Cursor::new(bytes)), shown)
    }

    fn new(from: Box<dyn std::io::Read>, shown: String) -> Result<Units, String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(from);
        let header = reader.byte_headers().map_err(|e| format!("{shown}: {e}"))?;
        let want = units_header();
        let mut want = csv::Reader::from_reader(&want[..]);
        if header != want.byte_headers().expect("our header") {
            return Err(format!(
                "{shown}: its columns are not this version's; run the shards again with this version"
            ));
        }
        Ok(Units {
            reader,
            record: csv::StringRecord::new(),
            path: shown,
        })
    }

    /// The next unit, or `None` at the end.
    ///
    /// # Errors
    /// A line that cannot be read or is not a unit's.
    pub fn next_unit(&mut self) -> Result<Option<UnitIndex>, String> {
        let bad = |e: &dyn std::fmt::Display, path: &str| format!("{path}: {e}");
        if !self
            .reader
            .read_record(&mut self.record)
            .map_err(|e| bad(&e, &self.path))?
        {
            return Ok(None);
        }
        let r = &self.record;
        let number = |i: usize| -> Result<u64, String> {
            r.get(i).and_then(|c| c.parse().ok()).ok_or_else(|| {
                format!(
                    "{}: line {} is not a unit's",
                    self.path,
                    r.position().map_or(0, |p| p.line())
                )
            })
        };
        let mut unit = UnitIndex {
            place: Place {
                entry: number(0)?,
                stream: number(1)?,
                unit: number(2)? as u32,
            },
            ..UnitIndex::default()
        };
        for (i, t) in unit_tables().enumerate() {
            unit.rows[t as usize] = number(3 + i)? as u32;
        }
        let players = r.get(r.len() - 1).unwrap_or_default();
        if !players.is_empty() {
            unit.players = serde_json::from_str(players).map_err(|e| bad(&e, &self.path))?;
        }
        Ok(Some(unit))
    }
}
