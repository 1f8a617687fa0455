//! The command line: what the user typed ([`Args`]), checked and resolved
//! into a [`Config`] that the rest of recount uses, and [`main`] that runs it
//! and maps the outcome to an exit code.

use crate::analysis::bg_match::BgSettings;
use crate::analysis::go_score::{ScoreSettings, Verdict};
use crate::analysis::go_zones::{Moment, ZoneSettings};
use crate::bg::met::{kazaross_xg2, Met};
use crate::bg::nn::Weights;
use crate::bg::replay::KeepCube;
use crate::discover::{expand, Entry, ReadLimits};
use crate::go::dead::DeadPolicy;
use crate::go::rules;
use crate::go::song::SongParams;
use crate::pipeline::{self, Settings, Summary};
use crate::report::CsvDir;
use clap::Parser;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Re-score archives of Go game records into CSV reports.
///
/// Reads SGF files, directories (recursively), .tar/.tar.gz/.tgz/.zip
/// archives and gzipped files in place; `-` reads a list of paths, one per
/// line, from stdin; Go SGF and backgammon matches (.mat/.txt, GNU
/// Backgammon SGF). Writes go_games.csv, go_scores.csv, bg_games.csv,
/// bg_positions.csv (with --positions), go_zones.csv (with --zones-at or
/// --zones-from-end), errors.csv and summary.csv to --out. `recount explain
/// FILE` shows one game counted; `recount zones FILE` one position's
/// endgame zones and move values.
#[derive(Debug, Parser)]
#[command(name = "recount", version, about, long_about = None)]
pub struct Args {
    /// Files, directories or archives to read; `-` for a list on stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Directory for the CSV reports (created if missing).
    #[arg(short, long, value_name = "DIR", default_value = "recount-out")]
    pub out: PathBuf,

    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    #[command(flatten)]
    pub score: ScoreArgs,

    /// Largest game tree read, in MiB; larger ones become error rows.
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub max_game_mib: u64,

    /// Also check every game with the strict SGF `FF[4]` reader of the
    /// sgf-parse crate (column sgf_check); slower.
    #[arg(long)]
    pub check_sgf: bool,

    /// Replay only, no scoring: go_scores.csv keeps its header alone and
    /// summary.csv counts no scored game.
    #[arg(long)]
    pub no_scores: bool,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with status 1 when any error row was written.
    #[arg(long)]
    pub strict: bool,

    #[command(flatten)]
    pub zones: ZoneArgs,

    /// Backgammon: also write bg_positions.csv, one row per position after
    /// each play with its IDs and board features (large).
    #[arg(long)]
    pub positions: bool,

    /// Backgammon: bg_cube.csv gets every roll where the roller could have
    /// doubled, not only the recorded doubles (finds missed doubles).
    #[arg(long)]
    pub all_cube_decisions: bool,

    /// Backgammon: match equity table for match-play cube decisions, one of
    /// GNU Backgammon's XML tables with explicit values (default: the
    /// shipped Kazaross-XG2).
    #[arg(long, value_name = "FILE")]
    pub met: Option<PathBuf>,

    /// Backgammon: GNU Backgammon's nets from FILE, a gnubg.weights or
    /// gnubg.wd of version 1.01, instead of the built-in ones (gnubg
    /// 1.1.0a16's); gnubg_ts0.bd beside it is read too (default:
    /// $RECOUNT_GNUBG_WEIGHTS when set, else the built-in nets).
    #[arg(long, value_name = "FILE", conflicts_with = "no_nets")]
    pub weights: Option<PathBuf>,

    /// Backgammon: no GNU Backgammon nets: bearoffs and races with
    /// recount's own evaluators, contact positions not estimated (their
    /// bg_cube.csv rows say so in the reason column).
    #[arg(long)]
    pub no_nets: bool,
}

/// `--dead-stones` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DeadStonesArg {
    Auto,
    Markup,
    Estimate,
    None,
}

/// The scoring flags, shared by a run and `recount explain`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// Rules for games whose RU is absent or unknown (japanese, chinese,
    /// aga, korean, new-zealand, tromp-taylor, stone-scoring).
    #[arg(long, value_name = "NAME", default_value = "japanese")]
    pub rules: String,

    /// Where dead stones come from: auto (markup where the record has
    /// TB/TW, else estimate), markup, estimate, none.
    #[arg(long, value_enum, value_name = "SOURCE", default_value = "auto")]
    pub dead_stones: DeadStonesArg,

    /// Most random playouts per game for the dead-stone estimator.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub playouts: u32,

    /// Seed of the estimator's playouts, mixed with each position: the same
    /// seed always gives the same reports; another one gives an independent
    /// estimate, to see which verdicts are coin flips of the playouts.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// Independent estimates of the dead stones per game, each with its
    /// own seed, where the first leaves a stone contested (the playouts
    /// gave it to each side more than a third of the time): the one whose
    /// count most of them give is kept, the earliest on a tie, so use an
    /// odd number (a split vote is noted in the reason column). Three
    /// votes steady the estimator's coin flips for about 1.15 times one
    /// estimate's time; 1 is the plain estimate.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub votes: u32,

    /// Song scoring: basic eyes kept unfilled per independent living group.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub song_eyes: u32,

    /// For every margin mismatch or winner flip, try each single change
    /// to the settled position (one chain's fate, the must-fill rule) and
    /// report those that make the count agree with RE (columns agrees_if,
    /// agrees_if_one_change); about 10% more time on an estimated archive.
    #[arg(long)]
    pub agrees_if: bool,
}

impl ScoreArgs {
    /// The default rules (name and value) and the scoring settings.
    fn resolve(&self) -> Result<((&'static str, rules::Rules), ScoreSettings), String> {
        let default_rules = rules::lookup(&self.rules).ok_or_else(|| {
            let err = self.rules.parse::<rules::Rules>().unwrap_err();
            format!("{err}; choose one with --rules")
        })?;
        let dead = match self.dead_stones {
            DeadStonesArg::Auto => DeadPolicy::Auto,
            DeadStonesArg::Markup => DeadPolicy::Markup,
            DeadStonesArg::Estimate => DeadPolicy::Estimate,
            DeadStonesArg::None => DeadPolicy::None,
        };
        let settings = ScoreSettings {
            dead,
            playouts: self.playouts.max(1),
            seed: self.seed,
            votes: self.votes.max(1),
            song: SongParams {
                eyes_per_group: self.song_eyes,
            },
            agrees_if: self.agrees_if,
        };
        Ok((default_rules, settings))
    }
}

/// The endgame-zone flags, shared by a run and `recount zones`.
#[derive(Debug, clap::Args)]
pub struct ZoneArgs {
    /// Go: the endgame zones of the position after move N (passes count
    /// as moves); a run writes them to go_zones.csv for every game.
    #[arg(
        long = "zones-at",
        alias = "at",
        value_name = "N",
        conflicts_with = "zones_from_end"
    )]
    pub zones_at: Option<u32>,

    /// Go: … of the position K moves before the game's end (`recount
    /// zones` on an SGF file without either flag: the final position).
    #[arg(long = "zones-from-end", alias = "from-end", value_name = "K")]
    pub zones_from_end: Option<u32>,

    /// Zones with more empty points are not searched (their rows say so).
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().max_empty)]
    pub zone_max_empty: usize,

    /// Nor zones with more points in all (at most 64).
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().max_points)]
    pub zone_max_points: usize,

    /// Search nodes per zone before giving up.
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().budget)]
    pub zone_budget: u64,

    /// Fill go_zones.csv's search_ms (times vary between runs, so reports
    /// are then not byte-identical).
    #[arg(long)]
    pub zone_timing: bool,

    /// Search zones without the formula of hope (for benchmarks).
    #[arg(long, hide = true)]
    pub zone_no_hope: bool,
}

impl ZoneArgs {
    /// The settings, when zones were asked for (or `always`).
    fn resolve(&self, always: bool) -> Result<Option<ZoneSettings>, String> {
        let moment = match (self.zones_at, self.zones_from_end) {
            (Some(n), _) => Moment::At(n),
            (None, Some(k)) => Moment::FromEnd(k),
            (None, None) if always => Moment::FromEnd(0),
            (None, None) => return Ok(None),
        };
        if self.zone_max_empty == 0 || self.zone_budget == 0 || self.zone_max_points == 0 {
            return Err(
                "--zone-max-empty, --zone-max-points and --zone-budget must be at least 1".into(),
            );
        }
        Ok(Some(ZoneSettings {
            moment,
            max_empty: self.zone_max_empty,
            max_points: self.zone_max_points.min(64),
            budget: self.zone_budget,
            timing: self.zone_timing,
            no_hope: self.zone_no_hope,
        }))
    }
}

/// `recount zones FILE`: one position's endgame zones and move values.
#[derive(Debug, Parser)]
#[command(name = "recount zones", bin_name = "recount zones", version)]
pub struct ZonesArgs {
    /// A diagram (rows of X, O, . and move numbers, or Sensei's Library
    /// $$ markup) or an SGF file.
    pub file: PathBuf,

    /// Which game of an SGF file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: u32,

    #[command(flatten)]
    pub zones: ZoneArgs,

    #[command(flatten)]
    pub score: ScoreArgs,
}

fn zones_main(args: impl Iterator<Item = std::ffi::OsString>) -> i32 {
    let a = ZonesArgs::parse_from(args);
    let result = a.score.resolve().and_then(|(rules, settings)| {
        let zs = a.zones.resolve(true)?.expect("always resolved");
        crate::zones_table::zones_table(&a.file, a.game.max(1), &zs, rules, &settings)
    });
    print_report("recount zones", result)
}

/// Prints a subcommand's text, or its error on stderr; the exit code.
fn print_report(command: &str, result: Result<String, String>) -> i32 {
    match result {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("{command}: {e}");
            2
        }
    }
}

/// `recount explain FILE`: one game's board and arithmetic.
#[derive(Debug, Parser)]
#[command(name = "recount explain", bin_name = "recount explain", version)]
pub struct ExplainArgs {
    /// The SGF file.
    pub file: PathBuf,

    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: u32,

    #[command(flatten)]
    pub score: ScoreArgs,
}

fn explain_main(args: impl Iterator<Item = std::ffi::OsString>) -> i32 {
    let a = ExplainArgs::parse_from(args);
    let result = a.score.resolve().and_then(|(rules, settings)| {
        crate::explain::explain(&a.file, a.game.max(1), rules, &settings)
    });
    print_report("recount explain", result)
}

/// Everything a run needs, resolved from [`Args`]; no clap types past here.
pub struct Config {
    pub entries: Vec<Entry>,
    pub settings: Settings,
    pub threads: usize,
    pub progress: bool,
    pub summary: bool,
    pub strict: bool,
    pub sink: CsvDir,
}

impl TryFrom<Args> for Config {
    type Error = String;

    fn try_from(a: Args) -> Result<Config, String> {
        let (default_rules, score) = a.score.resolve()?;
        let threads = match a.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let met: &'static Met = match &a.met {
            None => kazaross_xg2(),
            Some(path) => {
                let xml = std::fs::read_to_string(path).map_err(|e| {
                    format!(
                        "cannot read the match equity table '{}': {e}",
                        path.display()
                    )
                })?;
                let met = Met::from_xml(&xml).map_err(|e| {
                    format!(
                        "'{}' is not a match equity table recount can use: {e}; give one of GNU Backgammon's met/*.xml files with explicit tables",
                        path.display()
                    )
                })?;
                Box::leak(Box::new(met))
            }
        };
        let weights =
            Weights::for_run(a.weights.as_deref(), a.no_nets).map_err(|e| e.to_string())?;
        if a.max_game_mib == 0 {
            return Err("--max-game-mib must be at least 1".into());
        }
        let entries = expand(&a.paths, &mut std::io::stdin().lock())
            .map_err(|e| format!("{e}; check the path and try again"))?;
        let sink = CsvDir::create(&a.out).map_err(|e| {
            format!(
                "cannot write reports to '{}': {e}; choose another --out",
                a.out.display()
            )
        })?;
        Ok(Config {
            entries,
            settings: Settings {
                default_rules,
                limits: ReadLimits {
                    max_game_bytes: a.max_game_mib * 1024 * 1024,
                },
                check_sgf: a.check_sgf,
                scores: !a.no_scores,
                score,
                zones: a.zones.resolve(false)?,
                bg: BgSettings {
                    positions: a.positions,
                    cube: if a.all_cube_decisions {
                        KeepCube::All
                    } else {
                        KeepCube::Recorded
                    },
                    met,
                    weights,
                },
            },
            threads,
            progress: !a.quiet && std::io::stderr().is_terminal(),
            summary: !a.quiet,
            strict: a.strict,
            sink,
        })
    }
}

/// Parses the command line, runs, prints the summary; returns the exit code:
/// 0 when the run completed (error rows included, unless `--strict`), 1 for
/// error rows under `--strict`, 2 when the run could not happen.
pub fn main() -> i32 {
    let mut argv = std::env::args_os();
    let sub = std::env::args_os().nth(1);
    if sub.as_ref().is_some_and(|a| a == "explain" || a == "zones") {
        let program = argv.next();
        argv.next();
        let rest = program.into_iter().chain(argv);
        return if sub.is_some_and(|a| a == "zones") {
            zones_main(rest)
        } else {
            explain_main(rest)
        };
    }
    let args = Args::parse();
    let mut config = match Config::try_from(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("recount: {e}");
            return 2;
        }
    };
    // Panics inside a game are caught and reported as error rows; keep the
    // default hook from printing them as well.
    std::panic::set_hook(Box::new(|_| {}));
    let result = pipeline::run(
        &config.entries,
        config.settings,
        config.threads,
        config.progress,
        &mut config.sink,
    );
    match result {
        Ok(summary) => {
            if config.summary {
                eprintln!("{}", summary_line(&summary, &config));
            }
            if config.strict && summary.tally.errors > 0 {
                1
            } else {
                0
            }
        }
        Err(e) => {
            eprintln!(
                "recount: cannot write reports to '{}': {e}; check free space and permissions",
                config.sink.dir().display()
            );
            2
        }
    }
}

fn summary_line(s: &Summary, c: &Config) -> String {
    let secs = s.elapsed.as_secs_f64();
    let t = &s.tally;
    let rate = if secs > 0.0 {
        (t.games + t.bg.games) as f64 / secs
    } else {
        0.0
    };
    let skipped = if s.skipped > 0 {
        format!(" ({} other files skipped by name)", s.skipped)
    } else {
        String::new()
    };
    let sc = &s.tally.scoring;
    let verdicts: Vec<String> = Verdict::ALL
        .iter()
        .zip(sc.verdicts)
        .filter(|(v, n)| *n > 0 && **v != Verdict::NotScored)
        .map(|(v, n)| format!("{n} {}", v.name()))
        .collect();
    let explained = if c.settings.score.agrees_if {
        format!(
            " ({} of {} agree with one change)",
            sc.agrees_if_one_change, sc.agrees_if_tried
        )
    } else {
        String::new()
    };
    let left = if sc.mismatch_dead_left > 0 {
        format!(
            "; {} mismatches whose RE leaves a dead chain on the board",
            sc.mismatch_dead_left
        )
    } else {
        String::new()
    };
    let split = if sc.votes_held > 0 {
        format!("; {} of {} votes split", sc.votes_split, sc.votes_held)
    } else {
        String::new()
    };
    let audit = if sc.scored > 0 {
        format!(
            "; {} games counted: {}{explained}{left}{split}",
            sc.scored,
            verdicts.join(", ")
        )
    } else {
        String::new()
    };
    let zones = if c.settings.zones.is_some() {
        let z = &t.zones.status;
        format!(
            "; zones: {} solved, {} territory, {} not searched",
            z[0], z[1], z[2]
        )
    } else {
        String::new()
    };
    let bg = if t.matches > 0 {
        format!(
            "; backgammon: {} matches, {} games, {} plays, {} illegal plays, {} games with findings",
            t.matches, t.bg.games, t.bg.plays, t.bg.illegal_plays, t.bg.games_with_findings
        )
    } else {
        String::new()
    };
    format!(
        "recount: {} files{skipped}, {} Go games, {} error rows, {} illegal moves in {secs:.2} s \
         ({rate:.0} games/s){audit}{zones}{bg}; reports in {}",
        t.files,
        t.games,
        t.errors,
        t.illegal_moves,
        c.sink.dir().display()
    )
}
