//! The run: discovery → parallel processing → ordered sinks.
//!
//! One thread streams sources into numbered units, a rayon pool turns each
//! unit into formatted rows, and the collector writes them strictly in unit
//! order (sources sorted by path, members in archive order, games in file
//! order), so reports are byte-identical for any thread count. A window caps
//! how far reading may run ahead of writing, which bounds memory.

use crate::analysis::bg_match::{bg_match_rows, read_match, BgCounts, BgRow, BgSettings};
use crate::analysis::go_game::go_game_row;
use crate::analysis::go_score::{go_score, ScoreSettings, ScoreStats};
use crate::analysis::go_zones::zone_rows;
use crate::analysis::go_zones::ZoneStats;
use crate::go::dead::decide::DeadSettings;
use crate::go::endgame::position::ZoneSettings;
use crate::go::game::{Game, GameSettings};
use crate::go::record::read_record;
use crate::go::record::RecordError;
use crate::go::rules::Preset;
use crate::ingest::Stage;
use crate::ingest::{read_entry, Entry, Origin, Payload, Progress, ReadLimits, Unit};
use crate::report::{ErrorRow, RowBuf, Sink, Table};
use crate::sgf::reader::parse_tree;
use crate::text::single_line;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ops::AddAssign;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Units are sent to the workers in batches of up to this many (or
/// [`BATCH_BYTES`]): one channel message per game costs more than a game.
const BATCH_UNITS: usize = 32;
const BATCH_BYTES: u64 = 1 << 20;

/// Batches that may be read ahead of the collector.
const WINDOW_UNITS: u64 = 256;
/// Game-tree bytes that may be in flight (read, not yet written).
const WINDOW_BYTES: u64 = 256 << 20;

/// What processing needs to know.
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    /// Rules for games whose `RU` is absent or unknown.
    pub default_rules: Preset,
    /// How dead stones are decided.
    pub dead: DeadSettings,
    pub limits: ReadLimits,
    /// Also check each game tree with the strict `sgf-parse` reader.
    pub check_sgf: bool,
    /// Score every game (`go_scores.csv`); off with `--no-scores`.
    pub scores: bool,
    pub score: ScoreSettings,
    /// Endgame zones of each Go game (`go_zones.csv`), when asked for.
    pub zones: Option<ZoneSettings>,
    /// Backgammon reports: positions, cube decisions, match equity table.
    pub bg: BgSettings<'a>,
}

impl Settings<'_> {
    /// What each Go game needs computed: its end settled where it is
    /// scored, and its position at the zones' moment.
    fn game(&self) -> GameSettings {
        GameSettings {
            default_rules: self.default_rules,
            dead: self.dead,
            count: self.scores,
            always_settle: false,
            zones_at: self.zones.map(|z| z.moment),
        }
    }
}

/// Run totals; workers add theirs up.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Tally {
    /// Files and archive members read.
    pub files: u64,
    /// Go games replayed (rows in `go_games.csv`).
    pub games: u64,
    /// Backgammon match files read, and their games' counts.
    pub matches: u64,
    pub bg: BgCounts,
    /// Rows in `errors.csv`.
    pub errors: u64,
    pub illegal_moves: u64,
    pub scoring: ScoreStats,
    pub zones: ZoneStats,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.files += o.files;
        self.games += o.games;
        self.matches += o.matches;
        self.bg += o.bg;
        self.errors += o.errors;
        self.illegal_moves += o.illegal_moves;
        self.scoring += o.scoring;
        self.zones += o.zones;
    }
}

/// The outcome of a whole run.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    pub tally: Tally,
    pub skipped: u64,
    pub elapsed: Duration,
}

/// Turns one unit into rows. Never panics: a panic inside becomes an
/// `internal` error row.
pub fn process(unit: &Unit, settings: &Settings) -> (RowBuf, Tally) {
    let mut rows = RowBuf::default();
    let mut tally = Tally {
        files: unit.first_of_source as u64,
        ..Tally::default()
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        process_inner(unit, settings, &mut rows)
    }));
    let error = match outcome {
        Ok(Ok(done)) => {
            tally += done;
            None
        }
        Ok(Err((stage, reason))) => Some((stage, reason)),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            rows = RowBuf::default();
            Some((
                Stage::Internal,
                format!("internal error while processing ({msg}); please report it"),
            ))
        }
    };
    if let Some((stage, reason)) = error {
        tally.errors = 1;
        rows.push(
            Table::Errors,
            &error_row(&unit.origin, unit.game, stage, reason),
        );
    }
    (rows, tally)
}

type Failure = (Stage, String);

/// The `stage` of a record that cannot be replayed.
fn record_stage(e: &RecordError) -> Stage {
    match e {
        RecordError::NotGo { .. } => Stage::Unsupported,
        RecordError::BadSize { .. } => Stage::Record,
    }
}

fn process_inner(unit: &Unit, settings: &Settings, rows: &mut RowBuf) -> Result<Tally, Failure> {
    let bytes = match &unit.payload {
        Payload::Tree(b) => b,
        Payload::Match(format, b) => {
            let m = read_match(*format, b).map_err(|e| (Stage::Parse, e.to_string()))?;
            let bg = bg_match_rows(&unit.origin, &m, &settings.bg, |row| match row {
                BgRow::Game(r) => rows.push(Table::BgGames, &r),
                BgRow::Position(r) => rows.push(Table::BgPositions, &r),
                BgRow::Cube(r) => rows.push(Table::BgCube, &r),
            });
            return Ok(Tally {
                matches: 1,
                bg,
                ..Tally::default()
            });
        }
        Payload::Failed { stage, reason } => return Err((*stage, reason.clone())),
    };
    let tree = parse_tree(bytes).map_err(|e| (Stage::Parse, e.to_string()))?;
    let record = read_record(&tree).map_err(|e| (record_stage(&e), e.to_string()))?;
    let game = Game::compute(record, &settings.game());
    let mut row = go_game_row(&unit.origin, unit.game, &game);
    if settings.check_sgf {
        row.sgf_check = crate::sgf::strict::check(bytes);
    }
    rows.push(Table::GoGames, &row);
    let mut tally = Tally {
        games: 1,
        illegal_moves: game.replay.illegal.len() as u64,
        ..Tally::default()
    };
    if let Some(zs) = &settings.zones {
        let (zone_rows, zones) = zone_rows(&unit.origin, unit.game, &game, zs);
        for row in &zone_rows {
            rows.push(Table::GoZones, row);
        }
        tally.zones = zones;
    }
    if settings.scores {
        let scored = go_score(&unit.origin, unit.game, &game, &settings.score);
        rows.push(Table::GoScores, &scored.row);
        tally.scoring = ScoreStats::of(&scored);
    }
    Ok(tally)
}

fn error_row(origin: &Origin, game: u32, stage: Stage, reason: String) -> ErrorRow {
    ErrorRow {
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: (game > 0).then_some(game),
        stage,
        reason: single_line(&reason),
    }
}

/// One processed unit on its way to the collector.
struct Done {
    seq: u64,
    rows: RowBuf,
    tally: Tally,
    bytes: u64,
}

/// Lets the reader run at most [`WINDOW_UNITS`] units and about
/// [`WINDOW_BYTES`] bytes ahead of the writer, so memory stays bounded even
/// when one slow game holds up the ordered output.
#[derive(Default)]
struct Window {
    state: Mutex<WindowState>,
    moved: Condvar,
}

#[derive(Default)]
struct WindowState {
    written: u64,
    bytes: u64,
}

impl Window {
    /// Waits until unit `seq` of `bytes` bytes may be read ahead.
    fn admit(&self, seq: u64, bytes: u64) {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // The next unit to write is always admitted, so the run cannot stall.
        while seq > w.written && (seq >= w.written + WINDOW_UNITS || w.bytes + bytes > WINDOW_BYTES)
        {
            w = self.moved.wait(w).unwrap_or_else(|e| e.into_inner());
        }
        w.bytes += bytes;
    }

    /// Records that units up to `written` (exclusive) and `bytes` bytes
    /// have been written.
    fn release(&self, written: u64, bytes: u64) {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        w.written = written;
        w.bytes -= bytes;
        self.moved.notify_all();
    }
}

/// Runs the whole pipeline over `entries`, writing to `sink`.
///
/// # Errors
/// Only a failure to write the reports stops the run.
pub fn run(
    entries: &[Entry],
    settings: Settings,
    threads: usize,
    show_progress: bool,
    sink: &mut dyn Sink,
) -> std::io::Result<Summary> {
    let start = Instant::now();
    let progress = Arc::new(Progress::default());
    let total_bytes: u64 = entries
        .iter()
        .filter_map(|e| std::fs::metadata(&e.path).ok())
        .map(|m| m.len())
        .sum();
    let bar = if show_progress {
        let bar = ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {binary_bytes}/{binary_total_bytes} {msg}",
            )
            .expect("valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("recount-worker-{i}"))
        .build()
        .map_err(std::io::Error::other)?;
    let window = Window::default();
    let (unit_tx, unit_rx) = mpsc::sync_channel::<(u64, Vec<Unit>)>(64);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut tally = Tally::default();
    let stop = AtomicBool::new(false);
    sink.begin()?;
    let written = std::thread::scope(|s| -> std::io::Result<()> {
        let progress_r = Arc::clone(&progress);
        let (window_r, stop_r) = (&window, &stop);
        s.spawn(move || {
            let mut seq = 0u64;
            let mut batch: Vec<Unit> = Vec::with_capacity(BATCH_UNITS);
            let mut batch_bytes = 0u64;
            // Sends the batch as one numbered piece of work.
            let mut send = |batch: &mut Vec<Unit>, bytes: &mut u64| -> bool {
                if batch.is_empty() {
                    return true;
                }
                window_r.admit(seq, *bytes);
                let work = std::mem::replace(batch, Vec::with_capacity(BATCH_UNITS));
                let ok = !stop_r.load(Ordering::Relaxed) && unit_tx.send((seq, work)).is_ok();
                seq += 1;
                *bytes = 0;
                ok
            };
            for entry in entries {
                if stop_r.load(Ordering::Relaxed) {
                    break;
                }
                let mut emit = |unit: Unit| {
                    batch_bytes += unit.payload_bytes();
                    batch.push(unit);
                    batch.len() < BATCH_UNITS && batch_bytes < BATCH_BYTES
                        || send(&mut batch, &mut batch_bytes)
                };
                read_entry(entry, settings.limits, &progress_r, &mut emit);
            }
            send(&mut batch, &mut batch_bytes);
        });
        s.spawn(move || {
            pool.install(|| {
                unit_rx
                    .into_iter()
                    .par_bridge()
                    .for_each_with(done_tx, |tx, (seq, work)| {
                        let mut done = Done {
                            seq,
                            rows: RowBuf::default(),
                            tally: Tally::default(),
                            bytes: 0,
                        };
                        for unit in &work {
                            let (rows, tally) = process(unit, &settings);
                            done.rows.append(&rows);
                            done.tally += tally;
                            done.bytes += unit.payload_bytes();
                        }
                        let _ = tx.send(done);
                    });
            });
        });
        let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
        let mut next = 0u64;
        let mut failure = None;
        for done in done_rx {
            pending.insert(done.seq, done);
            let mut released = 0;
            while let Some(done) = pending.remove(&next) {
                if failure.is_none() {
                    if let Err(e) = sink.record(&done.rows) {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                tally += done.tally;
                released += done.bytes;
                next += 1;
            }
            window.release(next, released);
            bar.set_position(progress.bytes.load(Ordering::Relaxed));
            if next % 256 == 0 {
                bar.set_message(format!("{} games, {} errors", tally.games, tally.errors));
            }
        }
        failure.map_or(Ok(()), Err)
    });
    bar.finish_and_clear();
    written?;
    let mut summary = RowBuf::default();
    for row in tally.scoring.rows() {
        summary.push(Table::Summary, &row);
    }
    if settings.zones.is_some() {
        for row in tally.zones.rows() {
            summary.push(Table::Summary, &row);
        }
    }
    if tally.matches > 0 {
        for row in tally.bg.rows() {
            summary.push(Table::Summary, &row);
        }
    }
    sink.record(&summary)?;
    sink.finish()?;
    Ok(Summary {
        tally,
        skipped: progress.skipped.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    })
}
