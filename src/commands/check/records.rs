//! An entry's record read as `recount run` reads it, in this process: a
//! file (or a record written inline, put in a temporary file) goes through
//! the run's pipeline into memory; a Go diagram is counted as a finished
//! game and split into zones by the same analyses a run uses.

use crate::analysis::go_game::go_game_row;
use crate::analysis::go_score::go_score;
use crate::cli::args::run_args;
use crate::cli::config::Config;
use crate::commands::run::{self, Control, Settings};
use crate::expect::file::Record;
use crate::go::endgame::position::diagram_zones;
use crate::go::game::Game;
use crate::go::record::diagram;
use crate::ingest::Origin;
use crate::report::sink::Memory;
use crate::report::{RowBuf, Table};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest file looked at as a possible diagram.
const MAX_DIAGRAM_BYTES: u64 = 1 << 20;

/// The text of a record that is a Go diagram (the seed's form or Sensei's
/// Library markup), not an SGF file nor a backgammon match.
pub fn diagram_text(record: &Record) -> Option<String> {
    let text = match record {
        Record::Text(t) => t.clone(),
        Record::File(p) => {
            if std::fs::metadata(p).ok()?.len() > MAX_DIAGRAM_BYTES {
                return None;
            }
            String::from_utf8(std::fs::read(p).ok()?).ok()?
        }
    };
    let other = text.contains("(;") || text.contains("point match");
    (!other && diagram::sniff(&text)).then_some(text)
}

/// The rows of every report for `record` read with `options`; `komi` for a
/// diagram.
///
/// # Errors
/// The options cannot be used (a table or weights file that cannot be
/// read), an inline record cannot be written to a temporary file, or a
/// diagram cannot be read: the message says which.
pub fn rows_of(record: &Record, options: &[String], komi: Option<f64>) -> Result<RowBuf, String> {
    if let Some(text) = diagram_text(record) {
        let name = match record {
            Record::File(p) => p.display().to_string(),
            Record::Text(_) => "(inline diagram)".to_string(),
        };
        return diagram_rows(&text, &name, options, komi);
    }
    match record {
        Record::File(p) => run_rows(p, options),
        Record::Text(t) => {
            let tmp = TempRecord::new(t)
                .map_err(|e| format!("cannot write the inline record to a temporary file: {e}"))?;
            run_rows(&tmp.path, options)
        }
    }
}

/// A run over `path` with `options`, its reports kept in memory.
fn run_rows(path: &Path, options: &[String]) -> Result<RowBuf, String> {
    let mut args = run_args(path, options)?;
    args.quiet = true;
    let config = Config::resolve(args).map_err(|e| e.to_string())?;
    let mut sink = Memory::default();
    run::run(
        &config.entries,
        config.settings(),
        config.threads,
        false,
        &mut sink,
        &Control::default(),
    )
    .map_err(|e| format!("the run failed: {e:?}"))?;
    Ok(sink.rows)
}

/// A diagram's rows: its position counted as a finished game (`go_games`,
/// `go_scores`: dead stones as drawn, the prisoners it states) and its
/// zones (`go_zones`), with the options' rules, dead-stone and zone
/// settings.
fn diagram_rows(
    text: &str,
    name: &str,
    options: &[String],
    komi: Option<f64>,
) -> Result<RowBuf, String> {
    let args = run_args(Path::new(name), options)?;
    let (default_rules, dead, score) = args.score.resolve().map_err(|e| e.to_string())?;
    let zones = args.zones.resolve(true).expect("always resolved");
    let d = diagram::parse(text).map_err(|e| format!("the diagram: {e}"))?;
    let settings = Settings {
        default_rules,
        dead,
        score,
        ..Settings::default()
    };
    let origin = Origin {
        path: name.to_string(),
        member: None,
    };
    let game = Game::compute(d.record(komi), &settings.game());
    let mut rows = RowBuf::default();
    rows.push(Table::GoGames, &go_game_row(&origin, 1, &game));
    rows.push(
        Table::GoScores,
        &go_score(&origin, 1, &game, &settings.score).row,
    );
    for row in diagram_zones(&d, &zones).rows(&origin, 1, zones.timing) {
        rows.push(Table::GoZones, &row);
    }
    Ok(rows)
}

/// An inline record in a file of its own, removed with its folder on drop.
struct TempRecord {
    dir: PathBuf,
    path: PathBuf,
}

impl TempRecord {
    fn new(text: &str) -> std::io::Result<TempRecord> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("recount-check-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let record = TempRecord {
            path: dir.join("record"),
            dir,
        };
        std::fs::write(&record.path, text)?;
        Ok(record)
    }
}

impl Drop for TempRecord {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
