//! The run: discovery → parallel processing → ordered sinks.
//!
//! One thread streams sources into numbered units, a rayon pool turns each
//! unit into formatted rows, and the collector writes them strictly in unit
//! order (sources sorted by path, members in archive order, games in file
//! order), so reports are byte-identical for any thread count. A window caps
//! how far reading may run ahead of writing, which bounds memory.

use crate::analysis::bg_match::{bg_match_rows, read_match, BgRow, BgSettings};
use crate::analysis::go_game::go_game_row;
use crate::analysis::go_score::{go_score, ScoreSettings, ScoreStats};
use crate::analysis::go_zones::zone_rows;
use crate::bg::game::replay::KeepCube;
use crate::commands::shard::{self, Meta, ShardRun};
use crate::commands::tally::Tally;
use crate::go::dead::decide::DeadSettings;
use crate::go::dead::DeadPolicy;
use crate::go::endgame::position::{Moment, ZoneSettings};
use crate::go::game::{Game, GameSettings};
use crate::go::record::read_record_with;
use crate::go::record::RecordError;
use crate::go::rules::RulesChoice;
use crate::ingest::Stage;
use crate::ingest::{read_entry, Entry, Origin, Payload, Place, Progress, ReadLimits, Unit};
use crate::report::duplicates::{Duplicates, GameIds};
use crate::report::keys::file_key;
use crate::report::{ErrorRow, Extra, RowBuf, SettingRow, Sink, SummaryRow, Table};
use crate::sgf::reader::parse_tree;
use crate::text::single_line;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    pub default_rules: RulesChoice,
    /// How dead stones are decided.
    pub dead: DeadSettings,
    pub limits: ReadLimits,
    /// Also check each game tree with the strict `sgf-parse` reader.
    pub check_sgf: bool,
    /// `--charset`: every Go game's text read in this charset.
    pub charset: Option<&'static encoding_rs::Encoding>,
    /// Score every game (`go_scores.csv`); off with `--no-scores`.
    pub scores: bool,
    pub score: ScoreSettings,
    /// Endgame zones of each Go game (`go_zones.csv`), when asked for.
    pub zones: Option<ZoneSettings>,
    /// Backgammon reports: positions, cube decisions, match equity table.
    pub bg: BgSettings<'a>,
}

/// The command line's defaults.
impl Default for Settings<'_> {
    fn default() -> Self {
        Settings {
            default_rules: RulesChoice::default(),
            dead: DeadSettings::default(),
            limits: ReadLimits {
                max_game_bytes: 16 << 20,
            },
            check_sgf: false,
            charset: None,
            scores: true,
            score: ScoreSettings::default(),
            zones: None,
            bg: BgSettings::default(),
        }
    }
}

impl Settings<'_> {
    /// The `settings.csv` rows: every setting that shapes a report, by
    /// its option's name.
    pub fn rows(&self) -> Vec<SettingRow> {
        let d = &self.dead;
        let policy = match d.policy {
            DeadPolicy::Auto => "auto",
            DeadPolicy::Markup => "markup",
            DeadPolicy::Estimate => "estimate",
            DeadPolicy::None => "none",
        };
        let mut rows: Vec<(&'static str, String)> = vec![
            ("rules", self.default_rules.preset.name().into()),
            ("rules_given", self.default_rules.given.to_string()),
            ("dead_stones", policy.into()),
            ("playouts", d.playouts.to_string()),
            ("seed", d.seed.to_string()),
            ("votes", d.votes.to_string()),
            ("song_eyes", self.score.song.eyes_per_group.to_string()),
            ("agrees_if", self.score.agrees_if.to_string()),
            ("no_scores", (!self.scores).to_string()),
            ("check_sgf", self.check_sgf.to_string()),
            (
                "charset",
                self.charset.map_or("auto".into(), |c| c.name().into()),
            ),
            (
                "max_game_mib",
                (self.limits.max_game_bytes >> 20).to_string(),
            ),
        ];
        if let Some(z) = &self.zones {
            rows.push(match z.moment {
                Moment::At(n) => ("zones_at", n.to_string()),
                Moment::FromEnd(k) => ("zones_from_end", k.to_string()),
            });
            rows.push(("zone_max_empty", z.max_empty.to_string()));
            rows.push(("zone_max_points", z.max_points.to_string()));
            rows.push(("zone_budget", z.budget.to_string()));
            rows.push(("zone_timing", z.timing.to_string()));
        }
        let bg = &self.bg;
        rows.push(("positions", bg.positions.to_string()));
        rows.push(("plays", bg.plays.to_string()));
        rows.push(("plies", bg.cube.plies.to_string()));
        let all = matches!(bg.decisions, KeepCube::All);
        rows.push(("all_cube_decisions", all.to_string()));
        rows.push(("met", bg.cube.met.name.clone()));
        rows.push(("met_file", bg.cube.met.file.clone().unwrap_or_default()));
        let nets = bg
            .cube
            .weights
            .map_or("none (--no-nets)".into(), |w| w.source.clone());
        rows.push(("weights", nets));
        rows.into_iter()
            .map(|(setting, value)| SettingRow {
                setting: setting.into(),
                value,
            })
            .collect()
    }

    /// What each Go game needs computed: its end settled where it is
    /// scored, and its position at the zones' moment.
    pub fn game(&self) -> GameSettings {
        GameSettings {
            default_rules: self.default_rules,
            dead: self.dead,
            count: self.scores,
            always_settle: false,
            zones_at: self.zones.map(|z| z.moment),
        }
    }
}

/// The outcome of a whole run.
#[derive(Debug, Clone)]
pub struct Summary {
    pub tally: Tally,
    pub skipped: u64,
    pub elapsed: Duration,
    /// Why the run ended before its input did, if it did.
    pub stopped: Option<Stopped>,
    /// The games and matches that repeat one read before.
    pub game_ids: GameIds,
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
            let msg = crate::text::panic_message(&*panic);
            rows = RowBuf::default();
            Some((
                Stage::Internal,
                format!("internal error while processing ({msg}); please report it"),
            ))
        }
    };
    if let Some((stage, reason)) = error {
        tally.errors = 1;
        // A backgammon match is read whole: its failure is the file's.
        let game = match unit.payload {
            Payload::Match(..) => 0,
            _ => unit.game,
        };
        rows.push(Table::Errors, &error_row(&unit.origin, game, stage, reason));
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
        Payload::Translated(_, t) => &t.sgf,
        Payload::Match(format, b) => {
            let m = read_match(*format, b).map_err(|e| (Stage::Parse, e.to_string()))?;
            let bg = bg_match_rows(&unit.origin, &m, &settings.bg, |row| match row {
                BgRow::Game(r) => rows.push_bg_game(&r),
                BgRow::Position(r) => rows.push(Table::BgPositions, &r),
                BgRow::Cube(r) => rows.push(Table::BgCube, &r),
                BgRow::Play(r) => rows.push(Table::BgPlays, &r),
                BgRow::Stats(r) => rows.push(Table::BgStats, &r),
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
    let mut record =
        read_record_with(&tree, settings.charset).map_err(|e| (record_stage(&e), e.to_string()))?;
    if let Payload::Translated(format, t) = &unit.payload {
        let said = [format.note()].into_iter().chain(t.notes.iter().cloned());
        record.notes.splice(0..0, said);
    }
    let game = Game::compute(record, &settings.game());
    let mut row = go_game_row(&unit.origin, unit.game, &game);
    if settings.check_sgf {
        row.sgf_check = crate::sgf::strict::check(bytes);
    }
    rows.push_go_game(&row);
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
        file_key: file_key(origin),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: (game > 0).then_some(game),
        stage,
        reason: single_line(&reason),
    }
}

/// One processed batch on its way to the collector.
struct Done {
    seq: u64,
    rows: RowBuf,
    units: Vec<UnitDone>,
    bytes: u64,
}

/// One unit of a batch: its place, its rows in each table, its totals.
struct UnitDone {
    place: Place,
    rows: [u32; Table::ALL.len()],
    tally: Tally,
}

/// A numbered batch of units, with their places, for the workers.
struct Batch {
    seq: u64,
    units: Vec<Unit>,
    places: Vec<Place>,
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
    /// The run is stopping: nobody waits any more.
    halted: bool,
}

impl Window {
    /// Waits until unit `seq` of `bytes` bytes may be read ahead (or the
    /// run stops).
    fn admit(&self, seq: u64, bytes: u64) {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // The next unit to write is always admitted, so the run cannot stall.
        while !w.halted
            && seq > w.written
            && (seq >= w.written + WINDOW_UNITS || w.bytes + bytes > WINDOW_BYTES)
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

    /// Wakes the reader for good: the run is stopping.
    fn halt(&self) {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        w.halted = true;
        self.moved.notify_all();
    }
}

/// What may end a run early, besides the end of its input.
#[derive(Debug, Default, Clone)]
pub struct Control {
    /// Most records read (`--max-games`): Go game trees, match files, and
    /// sources that could not be read (each one error row). Reading stops
    /// before the next one, so the reports hold the first ones in input
    /// order, whatever the thread count.
    pub max_records: Option<u64>,
    /// Set (by a signal handler) to a signal's number to interrupt the run:
    /// the collector checks it at least every [`POLL`].
    pub interrupt: Arc<AtomicUsize>,
    /// Set by the run once it has aborted the sink after an interrupt:
    /// from then on the process may exit at any moment without harm (a
    /// reader blocked on a slow input need not be waited for).
    pub aborted: Arc<AtomicBool>,
    /// `--shard K/N`: read only that part of the input, and write the
    /// shard files `recount merge` needs.
    pub shard: Option<ShardRun>,
}

/// How often the collector looks at [`Control::interrupt`] while waiting.
const POLL: Duration = Duration::from_millis(50);

/// Why a run ended before its input did; the reports are still written
/// (`summary.csv` has a `run` row saying so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// `--max-games` records were read and more were there.
    MaxRecords(u64),
    /// The sink asked to stop ([`Sink::record`] returned `Ok(false)`).
    BySink,
}

impl Stopped {
    /// The `summary.csv` row: `run,stopped_at_max_games,N` (the limit) or
    /// `run,stopped_by_sink,N` (the games and matches recorded).
    fn row(self, tally: &Tally) -> SummaryRow {
        match self {
            Stopped::MaxRecords(n) => SummaryRow::new("run", "stopped_at_max_games", n, "records"),
            Stopped::BySink => SummaryRow::new(
                "run",
                "stopped_by_sink",
                tally.games + tally.matches,
                "records",
            ),
        }
    }
}

/// Why a run did not write its reports.
#[derive(Debug)]
pub enum RunError {
    /// Writing the reports failed; the sink was aborted.
    Write(std::io::Error),
    /// A signal (its number) interrupted the run; the sink was aborted.
    Interrupted(i32),
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Write(e)
    }
}

/// Runs the whole pipeline over `entries`, writing to `sink`.
///
/// The sink's rows arrive in input order. The run stops early, still
/// writing the summary and finishing the sink, when `control.max_records`
/// is reached or the sink asks to (`Summary::stopped` says which).
///
/// # Errors
/// A failure to write the reports, or an interrupt (`control.interrupt`
/// set): then reading stops, units not yet started are skipped, the sink
/// is aborted (for [`crate::report::ReportDir`]: the previous reports stay)
/// and the run returns once the games in progress end.
pub fn run(
    entries: &[Entry],
    settings: Settings,
    threads: usize,
    show_progress: bool,
    sink: &mut dyn Sink,
    control: &Control,
) -> Result<Summary, RunError> {
    let start = Instant::now();
    let progress = Arc::new(Progress::default());
    let bar = progress_bar(entries, show_progress);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("recount-worker-{i}"))
        .build()
        .map_err(std::io::Error::other)?;
    let window = Window::default();
    let (unit_tx, unit_rx) = mpsc::sync_channel::<Batch>(64);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut tally = Tally::default();
    let stop = AtomicBool::new(false);
    let limit_hit = AtomicBool::new(false);
    let interrupted = || match control.interrupt.load(Ordering::Relaxed) {
        0 => None,
        sig => Some(sig as i32),
    };
    if let Some(sig) = interrupted() {
        sink.abort();
        control.aborted.store(true, Ordering::SeqCst);
        return Err(RunError::Interrupted(sig));
    }
    let begun = sink.begin().and_then(|()| match control.shard {
        Some(_) => sink.extra(Extra::ShardUnits, &shard::units_header()),
        None => Ok(()),
    });
    if let Err(e) = begun {
        sink.abort();
        return Err(e.into());
    }
    let mut stopped = None;
    let mut signal = None;
    let mut duplicates = Duplicates::default();
    let written = std::thread::scope(|s| -> std::io::Result<()> {
        let progress_r = Arc::clone(&progress);
        let (window_r, stop_r, limit_r) = (&window, &stop, &limit_hit);
        s.spawn(move || {
            let reader = Reader {
                settings: &settings,
                window: window_r,
                stop: stop_r,
                limit_hit: limit_r,
                max_records: control.max_records,
                shard: control.shard.map(|s| s.shard),
            };
            reader.read(entries, &progress_r, unit_tx);
        });
        s.spawn(move || process_batches(&pool, unit_rx, done_tx, stop_r, &settings));
        let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
        let mut next = 0u64;
        let mut said = Instant::now();
        let mut failure = None;
        // Nothing more is recorded: failed, interrupted or asked to stop.
        let mut closed = false;
        let halt = |closed: &mut bool| {
            *closed = true;
            stop.store(true, Ordering::Relaxed);
            window.halt();
        };
        loop {
            if !closed {
                if let Some(sig) = interrupted() {
                    signal = Some(sig);
                    sink.abort();
                    control.aborted.store(true, Ordering::SeqCst);
                    halt(&mut closed);
                }
            }
            let done = match done_rx.recv_timeout(POLL) {
                Ok(done) => done,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            pending.insert(done.seq, done);
            let mut released = 0;
            while let Some(mut done) = pending.remove(&next) {
                if !closed {
                    duplicates.mark(&mut done.rows);
                    let recorded = sink.record(&done.rows).and_then(|go_on| {
                        if control.shard.is_some() {
                            sink.extra(Extra::ShardUnits, &unit_lines(&done.units))?;
                        }
                        Ok(go_on)
                    });
                    match recorded {
                        Ok(true) => {}
                        Ok(false) => {
                            stopped = Some(Stopped::BySink);
                            halt(&mut closed);
                        }
                        Err(e) => {
                            failure = Some(e);
                            sink.abort();
                            halt(&mut closed);
                        }
                    }
                    for unit in done.units {
                        tally += unit.tally;
                    }
                }
                released += done.bytes;
                next += 1;
            }
            window.release(next, released);
            bar.set_position(progress.bytes.load(Ordering::Relaxed));
            // The counts a few times a second, however the batches fall.
            if said.elapsed() >= Duration::from_millis(200) {
                said = Instant::now();
                bar.set_message(format!("{} games, {} errors", tally.games, tally.errors));
            }
        }
        failure.map_or(Ok(()), Err)
    });
    bar.finish_and_clear();
    if let Some(sig) = signal {
        return Err(RunError::Interrupted(sig));
    }
    written?;
    if stopped.is_none() && limit_hit.load(Ordering::Relaxed) {
        stopped = control.max_records.map(Stopped::MaxRecords);
    }
    let skipped = progress.skipped.load(Ordering::Relaxed);
    let zones = settings.zones.is_some();
    let game_ids = duplicates.counts();
    let end = End {
        tally: &tally,
        skipped,
        settings: &settings.rows(),
        zones,
        stopped,
        game_ids,
    };
    let meta = control
        .shard
        .map(|run| Meta::new(&run, entries, zones, skipped, &tally).to_json());
    let finished = sink
        .record(&end.rows())
        .and_then(|_| meta.map_or(Ok(()), |m| sink.extra(Extra::ShardMeta, &m)))
        .and_then(|()| sink.finish());
    if let Err(e) = finished {
        sink.abort();
        return Err(e.into());
    }
    Ok(Summary {
        tally,
        skipped,
        elapsed: start.elapsed(),
        stopped,
        game_ids,
    })
}

/// The progress bar over the entries' bytes (hidden unless `show`).
fn progress_bar(entries: &[Entry], show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let total_bytes: u64 = entries
        .iter()
        .filter(|e| !e.skip)
        .filter_map(|e| std::fs::metadata(&e.path).ok())
        .map(|m| m.len())
        .sum();
    let bar = ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {binary_bytes}/{binary_total_bytes} {msg}",
        )
        .expect("valid template"),
    );
    bar
}

/// `shard_units.csv`'s lines for a batch's units.
fn unit_lines(units: &[UnitDone]) -> Vec<u8> {
    let mut out = Vec::new();
    for u in units {
        out.extend(shard::unit_line(u.place, &u.rows, &u.tally.bg.players));
    }
    out
}

/// The reading thread: streams the entries into numbered batches of units
/// for the workers, within the window, until told to stop or the record
/// limit is reached.
struct Reader<'a> {
    settings: &'a Settings<'a>,
    window: &'a Window,
    stop: &'a AtomicBool,
    limit_hit: &'a AtomicBool,
    max_records: Option<u64>,
    /// Only this part's units are sent on.
    shard: Option<crate::ingest::Shard>,
}

impl Reader<'_> {
    /// Reads every entry, in order.
    fn read(&self, entries: &[Entry], progress: &Arc<Progress>, unit_tx: mpsc::SyncSender<Batch>) {
        let mut seq = 0u64;
        let mut batch: Vec<Unit> = Vec::with_capacity(BATCH_UNITS);
        let mut places: Vec<Place> = Vec::with_capacity(BATCH_UNITS);
        let mut batch_bytes = 0u64;
        let mut records = 0u64;
        let mut halted = false;
        let mut place = Place::default();
        // The last origin offered, and whether it is this shard's.
        let mut owner: Option<(Arc<Origin>, bool)> = None;
        // Sends the batch as one numbered piece of work.
        let mut send = |batch: &mut Vec<Unit>, places: &mut Vec<Place>, bytes: &mut u64| -> bool {
            if batch.is_empty() {
                return true;
            }
            self.window.admit(seq, *bytes);
            let work = Batch {
                seq,
                units: std::mem::replace(batch, Vec::with_capacity(BATCH_UNITS)),
                places: std::mem::replace(places, Vec::with_capacity(BATCH_UNITS)),
            };
            let ok = !self.stop.load(Ordering::Relaxed) && unit_tx.send(work).is_ok();
            seq += 1;
            *bytes = 0;
            ok
        };
        for (index, entry) in entries.iter().enumerate() {
            if halted || self.stop.load(Ordering::Relaxed) {
                break;
            }
            let streams_before = progress.streams.load(Ordering::Relaxed);
            let mut emit = |unit: Unit| {
                // A reader may offer a unit after being told to stop.
                if halted {
                    return false;
                }
                // Reading the entry has moved the count at least once.
                let stream = progress.streams.load(Ordering::Relaxed) - streams_before;
                place = if (index as u64, stream) == (place.entry, place.stream) {
                    Place {
                        unit: place.unit + 1,
                        ..place
                    }
                } else {
                    Place {
                        entry: index as u64,
                        stream,
                        unit: 0,
                    }
                };
                if let Some(shard) = self.shard {
                    let mine = match &owner {
                        Some((o, mine)) if Arc::ptr_eq(o, &unit.origin) => *mine,
                        _ => shard.owns(&unit.origin),
                    };
                    owner = Some((Arc::clone(&unit.origin), mine));
                    if !mine {
                        return true;
                    }
                }
                if self.max_records.is_some_and(|n| records >= n) {
                    self.limit_hit.store(true, Ordering::Relaxed);
                    halted = true;
                    return false;
                }
                records += 1;
                batch_bytes += unit.payload_bytes();
                batch.push(unit);
                places.push(place);
                let go_on = batch.len() < BATCH_UNITS && batch_bytes < BATCH_BYTES
                    || send(&mut batch, &mut places, &mut batch_bytes);
                halted = !go_on;
                go_on
            };
            read_entry(entry, self.settings.limits, self.shard, progress, &mut emit);
        }
        send(&mut batch, &mut places, &mut batch_bytes);
    }
}

/// The workers: each batch processed on the pool, its rows and totals sent
/// to the collector under the batch's number.
fn process_batches(
    pool: &rayon::ThreadPool,
    unit_rx: mpsc::Receiver<Batch>,
    done_tx: mpsc::Sender<Done>,
    stop: &AtomicBool,
    settings: &Settings,
) {
    pool.install(|| {
        unit_rx
            .into_iter()
            .par_bridge()
            .for_each_with(done_tx, |tx, work| {
                let mut done = Done {
                    seq: work.seq,
                    rows: RowBuf::default(),
                    units: Vec::with_capacity(work.units.len()),
                    bytes: 0,
                };
                for (unit, place) in work.units.iter().zip(work.places) {
                    done.bytes += unit.payload_bytes();
                    // Stopping: what is not started is not needed.
                    if stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    let (rows, tally) = process(unit, settings);
                    done.rows.append(&rows);
                    done.units.push(UnitDone {
                        place,
                        rows: rows.rows(),
                        tally,
                    });
                }
                let _ = tx.send(done);
            });
    });
}

/// What a run's end writes from: its totals, its settings, how it ended.
pub struct End<'a> {
    pub tally: &'a Tally,
    pub skipped: u64,
    pub settings: &'a [SettingRow],
    /// The zones were asked for.
    pub zones: bool,
    pub stopped: Option<Stopped>,
    pub game_ids: GameIds,
}

impl End<'_> {
    /// The rows written at a run's end: `summary.csv`, `settings.csv`,
    /// `go_interpretations.csv` and the `player` scope of `bg_stats.csv`.
    pub fn rows(&self) -> RowBuf {
        let End {
            tally,
            skipped,
            settings,
            zones,
            stopped,
            game_ids,
        } = *self;
        let mut summary = RowBuf::default();
        let read = [
            ("files", tally.files, "files"),
            ("files_skipped", skipped, "files"),
            ("go_games", tally.games, "games"),
            ("bg_matches", tally.matches, "matches"),
            ("bg_games", tally.bg.games, "games"),
            ("error_rows", tally.errors, "rows"),
        ];
        for (name, count, unit) in read {
            summary.push(Table::Summary, &SummaryRow::new("read", name, count, unit));
        }
        if tally.games > 0 {
            for row in game_ids.go_rows() {
                summary.push(Table::Summary, &row);
            }
        }
        if tally.matches > 0 {
            for row in game_ids.bg_rows() {
                summary.push(Table::Summary, &row);
            }
        }
        for row in settings {
            summary.push(Table::Settings, row);
        }
        for row in tally.scoring.interpretation_rows() {
            summary.push(Table::GoInterpretations, &row);
        }
        for row in tally.scoring.rows() {
            summary.push(Table::Summary, &row);
        }
        if zones {
            for row in tally.zones.rows() {
                summary.push(Table::Summary, &row);
            }
        }
        if tally.matches > 0 {
            for row in tally.bg.rows() {
                summary.push(Table::Summary, &row);
            }
            for row in tally.bg.players.rows() {
                summary.push(Table::BgStats, &row);
            }
        }
        if let Some(why) = stopped {
            summary.push(Table::Summary, &why.row(tally));
        }
        summary
    }
}
