//! What the user typed, as clap parses it: the subcommands and their flags.
//! Nothing here is checked beyond what clap checks; [`super::config`]
//! resolves it.

use crate::go::dead::decide::DeadSettings;
use crate::go::endgame::position::ZoneSettings;
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Re-score archives of Go and backgammon game records into reports.
///
/// `recount PATH…` (or `recount run PATH…`) reads files, directories
/// (recursively), tar, zip and 7z archives and gzip, bzip2, xz and zstd
/// compressed files in place, `-` for a list of paths on stdin: Go games
/// (SGF, Tygem .gib, Pandanet .ugf/.ugi, WBaduk .ngf, OGS JSON) and
/// backgammon matches (.mat/.txt, GNU Backgammon SGF, eXtreme Gammon
/// .xg/.xgp, FIBS, GamesGrid .sgg, TrueMoneyGames .tmg, BGBlitz .bgf,
/// Snowie and XG text positions). It writes go_games.csv,
/// go_scores.csv, go_zones.csv (with --zones-at or --zones-from-end),
/// go_interpretations.csv, bg_games.csv, bg_positions.csv (with
/// --positions), bg_cube.csv, bg_plays.csv and bg_stats.csv (these two
/// with --plays), errors.csv, settings.csv and summary.csv (with --format:
/// also or instead as .parquet), and report.html, to --out. A path named
/// like a subcommand is given as `./zones`, or last after `--` (`recount
/// --out DIR -- zones`).
#[derive(Debug, Parser)]
#[command(
    name = "recount",
    version,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub run: RunArgs,
}

/// The subcommands; a run is the default.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Re-score files, directories and archives into reports (the default:
    /// `recount PATH…` is `recount run PATH…`).
    Run(RunArgs),
    /// One Go game's settled board and the arithmetic of every
    /// interpretation; with --play, one backgammon play's roll ranked.
    Explain(ExplainArgs),
    /// One position's endgame zones and move values: a diagram, or an SGF
    /// game at a move.
    Zones(ZonesArgs),
    /// Check expectations files: each entry's record read with its options,
    /// the values one report row must hold (exit 1 when one does not).
    Check(CheckArgs),
    /// Compare two runs' reports row by row (exit 1 when anything changed).
    Diff(DiffArgs),
    /// Make report.html again from a run's reports (CSV or Parquet),
    /// without reading the archives.
    Report(ReportArgs),
    /// Put the reports of a run's N shards (`--shard K/N`) together: the
    /// same bytes one run over all the input writes.
    Merge(MergeArgs),
}

/// `recount merge SHARD_DIR… --out DIR`: shards' reports put together.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The output directories of the N shard runs (any order).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,

    /// Directory for the merged reports (created if missing).
    #[arg(short, long, value_name = "DIR", default_value = "recount-out")]
    pub out: PathBuf,
}

/// `recount report OUT_DIR`: a run's page made again.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The run's output directory (`recount run --out`).
    pub out_dir: PathBuf,
}

/// `recount check FILE…`: expectations files evaluated.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Expectations files (TOML: docs/expectations.md).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Rewrite the expected values that do not hold with the current
    /// results (comments and order kept), and print what changed.
    #[arg(long)]
    pub update: bool,
}

/// `recount diff RUN_A RUN_B`: two runs' reports compared.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The first run's output directory (`recount run --out`).
    pub run_a: PathBuf,

    /// The second run's output directory.
    pub run_b: PathBuf,

    /// A column to leave out of the comparison (repeatable), such as
    /// search_ms.
    #[arg(long, value_name = "COLUMN")]
    pub ignore: Vec<String>,

    /// Write every change to FILE as CSV: report, change, key, column, a, b.
    #[arg(long, value_name = "FILE")]
    pub changes: Option<PathBuf>,
}

/// The flags of a run read from a list (an expectations entry's
/// `options`), for the record at `path`.
///
/// # Errors
/// An option a run does not take, or a value out of its range, in clap's
/// words; a path among the options.
pub fn run_args(path: &Path, options: &[String]) -> Result<RunArgs, String> {
    #[derive(Parser)]
    #[command(name = "options", no_binary_name = true)]
    struct Options {
        #[command(flatten)]
        run: RunArgs,
    }
    let mut argv: Vec<OsString> = vec![path.into()];
    argv.extend(options.iter().map(OsString::from));
    let run = Options::try_parse_from(argv)
        .map_err(|e| {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        })?
        .run;
    if run.paths.len() > 1 {
        return Err(format!(
            "'{}' is not an option: the record is the entry's `file` or `text`",
            run.paths[1].display()
        ));
    }
    Ok(run)
}

/// The flags of a run over archives (`recount PATH…`, `recount run PATH…`).
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Files, directories or archives to read; `-` for a list on stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Directory for the reports (created if missing).
    #[arg(short, long, value_name = "DIR", default_value = "recount-out")]
    pub out: PathBuf,

    /// The reports' format: CSV, Parquet (typed columns, the same rows in
    /// the same order), or both.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "csv")]
    pub format: FormatArg,

    /// Do not write report.html (the page of the run's figures and charts).
    #[arg(long)]
    pub no_html: bool,

    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    #[command(flatten)]
    pub score: ScoreArgs,

    /// Largest game tree read, in MiB; larger ones become error rows.
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub max_game_mib: u64,

    /// Read at most N records (Go games, backgammon match files, and files
    /// that cannot be read, one error row each), in input order: then
    /// reading stops, the reports hold the first N whatever the thread
    /// count, and summary.csv (a `run,stopped_at_max_games` row) and stderr
    /// say the limit was reached.
    #[arg(long, value_name = "N", value_parser = records_limit)]
    pub max_games: Option<u64>,

    /// Read only the K-th of N parts of the input (each file or archive
    /// member in one part, by a hash of its name), and write beside the
    /// reports the files `recount merge` puts the N parts together with.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::ingest::Shard>,

    /// What --shard's parts are made of: each file and archive member
    /// (member: balanced however few archives there are, but each part
    /// reads every archive through), or each file whole (file: a part
    /// opens only its own files; for inputs of many files).
    #[arg(
        long,
        value_enum,
        value_name = "BY",
        default_value = "member",
        requires = "shard"
    )]
    pub shard_by: crate::ingest::ShardBy,

    /// Read every Go game's text in this charset, whatever CA says (a label
    /// of the WHATWG Encoding Standard: UTF-8, GBK, Big5, Shift_JIS, EUC-KR,
    /// windows-1252…); without it, CA checked against the text, or the
    /// charset detected where CA is missing or wrong.
    #[arg(long, value_name = "NAME")]
    pub charset: Option<String>,

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

    /// Backgammon: rate every play and roll as GNU Backgammon's `analyse
    /// match` does at 0-ply (bg_plays.csv), with each player's error rates
    /// and luck per game, per match and over the run (bg_stats.csv).
    #[arg(long)]
    pub plays: bool,

    /// Backgammon: bg_cube.csv gets every roll where the roller could have
    /// doubled, not only the recorded doubles (finds missed doubles).
    #[arg(long)]
    pub all_cube_decisions: bool,

    #[command(flatten)]
    pub eval: EvalArgs,
}

/// How backgammon positions are evaluated: shared by a run and `recount
/// explain --play`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Backgammon: the look-ahead of the play and cube analysis: 0 (GNU
    /// Backgammon's 0-ply), 1, or 2 (its default analysis, "world class":
    /// the pruning nets and its "large" move filter; about a hundred times
    /// the work of 0-ply). The luck of a roll is always 0-ply, as gnubg's.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    pub plies: u8,

    /// Backgammon: match equity table for match-play cube decisions, one of
    /// GNU Backgammon's XML tables with explicit values (default: the
    /// shipped Kazaross-XG2).
    #[arg(long, value_name = "FILE")]
    pub met: Option<PathBuf>,

    /// Backgammon: GNU Backgammon's nets from FILE, a gnubg.weights or
    /// gnubg.wd of version 1.01, instead of the built-in ones (gnubg
    /// 1.1.0a16's) (default: $RECOUNT_GNUBG_WEIGHTS when set, else the
    /// built-in nets).
    #[arg(long, value_name = "FILE", conflicts_with = "no_nets")]
    pub weights: Option<PathBuf>,

    /// Backgammon: no GNU Backgammon nets: bearoffs and races with
    /// recount's own evaluators, contact positions not estimated (their
    /// bg_cube.csv rows say so in the reason column).
    #[arg(long)]
    pub no_nets: bool,
}

impl EvalArgs {
    /// Whether any of these options was given.
    pub fn given(&self) -> bool {
        self.plies != 0 || self.met.is_some() || self.weights.is_some() || self.no_nets
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    Csv,
    Parquet,
    Both,
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
    /// aga, korean, new_zealand, tromp_taylor, stone_scoring, song, ing; `-`
    /// for `_` and other spellings are accepted). Left out: such games are
    /// counted under Japanese rules but not audited (verdict
    /// rules_unknown); given: they are audited under the rules named.
    #[arg(long, value_name = "NAME")]
    pub rules: Option<String>,

    /// Where dead stones come from: auto (markup where the record has
    /// TB/TW, else estimate), markup, estimate, none.
    #[arg(long, value_enum, value_name = "SOURCE", default_value = "auto")]
    pub dead_stones: DeadStonesArg,

    /// Most random playouts per game for the dead-stone estimator.
    #[arg(long, value_name = "N", default_value_t = DeadSettings::default().playouts, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub playouts: u32,

    /// Seed of the estimator's playouts, mixed with each position: the same
    /// seed always gives the same reports; another one gives an independent
    /// estimate, to see which verdicts are coin flips of the playouts.
    #[arg(long, value_name = "N", default_value_t = DeadSettings::default().seed)]
    pub seed: u64,

    /// Independent estimates of the dead stones per game, each with its
    /// own seed, where the first leaves a stone contested (the playouts
    /// gave it to each side more than a third of the time): the one whose
    /// count most of them give is kept, the earliest on a tie, so use an
    /// odd number (a split vote is noted in the reason). Three
    /// votes steady the estimator's coin flips for about 1.15 times one
    /// estimate's time; 1 is the plain estimate.
    #[arg(long, value_name = "N", default_value_t = DeadSettings::default().votes, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub votes: u32,

    /// Song scoring: basic eyes kept unfilled per independent living group.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub song_eyes: u32,

    /// For every margin mismatch or winner flip, try each single change
    /// to the settled position (one chain's fate, the must-fill rule) and
    /// report those that make the count agree with RE (columns agrees_if,
    /// agrees_if_one_change); about 10% more time on an estimated archive.
    #[arg(long)]
    pub agrees_if: bool,
}

impl ScoreArgs {
    /// Whether any of these options was given (a value other than its
    /// default).
    pub fn given(&self) -> bool {
        let d = DeadSettings::default();
        self.rules.is_some()
            || self.dead_stones != DeadStonesArg::Auto
            || (self.playouts, self.seed, self.votes) != (d.playouts, d.seed, d.votes)
            || self.song_eyes != 2
            || self.agrees_if
    }
}

/// The endgame-zone flags, shared by a run and `recount zones`.
#[derive(Debug, clap::Args)]
pub struct ZoneArgs {
    /// Go: the endgame zones of the position after move N (passes count
    /// as moves); in a run, of every game, in go_zones.csv.
    #[arg(
        long = "zones-at",
        visible_alias = "at",
        value_name = "N",
        conflicts_with = "zones_from_end"
    )]
    pub zones_at: Option<u32>,

    /// Go: the endgame zones of the position K moves before the game's
    /// end (`recount zones` on a game without either flag: the final
    /// position).
    #[arg(long = "zones-from-end", visible_alias = "from-end", value_name = "K")]
    pub zones_from_end: Option<u32>,

    /// Zones with more empty points are not searched (their rows say so).
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().max_empty as u64, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub zone_max_empty: u64,

    /// Nor zones with more points in all (at most 64).
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().max_points as u64, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub zone_max_points: u64,

    /// Search nodes per zone before giving up.
    #[arg(long, value_name = "N", default_value_t = ZoneSettings::default().budget, value_parser = clap::value_parser!(u64).range(1..))]
    pub zone_budget: u64,

    /// Fill go_zones.csv's search_ms (times vary between runs, so reports
    /// are then not byte-identical).
    #[arg(long)]
    pub zone_timing: bool,

    /// Search zones without the formula of hope (for benchmarks).
    #[arg(long, hide = true)]
    pub zone_no_hope: bool,
}

/// `--max-games`: a count of at least one.
fn records_limit(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1 (leave --max-games out to read everything)".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{e}: give a whole number of records")),
    }
}

/// `recount zones FILE`: one position's endgame zones and move values.
#[derive(Debug, clap::Args)]
pub struct ZonesArgs {
    /// A diagram (rows of X, O, . and move numbers, or Sensei's Library
    /// $$ markup) or a game's file, as `recount explain` reads it.
    pub file: PathBuf,

    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,

    /// The archive member holding the game, as the reports' member column
    /// names it.
    #[arg(long)]
    pub member: Option<String>,

    #[command(flatten)]
    pub zones: ZoneArgs,

    #[command(flatten)]
    pub score: ScoreArgs,
}

/// `recount explain FILE`: one game's board and arithmetic.
#[derive(Debug, clap::Args)]
#[command(mut_arg("agrees_if", |a| a.help(
    "Always on here: a mismatch is shown with each single change that makes the count agree \
     with RE (accepted for the same options as a run)"
)))]
pub struct ExplainArgs {
    /// The game's file: SGF, another Go server's format (.gib, .ngf,
    /// .ugf, OGS .json), compressed or not, or an archive (with --member);
    /// with --play, a backgammon match in any format a run reads.
    pub file: PathBuf,

    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,

    /// The archive member holding the game, as the reports' member column
    /// names it (`inner.zip!/a.sgf` inside a nested archive).
    #[arg(long)]
    pub member: Option<String>,

    /// Backgammon: the play to explain, as bg_plays.csv numbers it in the
    /// game: every legal play of its roll ranked, with equities, losses and
    /// the roll's luck (FILE is then a match, in any format a run reads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub play: Option<u32>,

    #[command(flatten)]
    pub score: ScoreArgs,

    #[command(flatten)]
    pub eval: EvalArgs,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entrys_options_are_a_runs() {
        let path = Path::new("game.sgf");
        let a = run_args(path, &["--rules".into(), "chinese".into()]).unwrap();
        assert_eq!(
            (a.paths.len(), a.score.rules.as_deref()),
            (1, Some("chinese"))
        );
        let e = run_args(path, &["--rulez".into(), "x".into()]).unwrap_err();
        assert!(e.starts_with("unexpected argument '--rulez'"), "{e}");
        let e = run_args(path, &["other.sgf".into()]).unwrap_err();
        assert!(e.contains("'other.sgf' is not an option"), "{e}");
        let e = run_args(path, &["--playouts".into(), "0".into()]).unwrap_err();
        assert!(e.contains("--playouts"), "{e}");
    }
}
