//! The command line: what the user typed ([`args`]), checked and resolved
//! into the settings recount runs with ([`config`]), the run's summary line
//! ([`summary`]), and [`main`], which runs the subcommand asked for and
//! turns its outcome into an exit status.

pub mod args;
pub mod config;
pub mod summary;

use crate::cli::args::{
    CheckArgs, Cli, Command, DiffArgs, ExplainArgs, MergeArgs, ReportArgs, RunArgs, ZonesArgs,
};
use crate::cli::config::{Config, ConfigError, Eval};
use crate::commands::check::CheckError;
use crate::commands::diff::DiffError;
use crate::commands::merge::MergeError;
use crate::commands::report::ReportError;
use crate::commands::{check, diff, explain, explain_play, merge, report, run, zones, InputError};
use clap::Parser;
use signal_hook::consts::{SIGINT, SIGTERM};
use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Why a command could not do what was asked (exit status 2).
#[derive(Debug)]
pub enum Error {
    /// An option or path that cannot be used.
    Config(ConfigError),
    /// The game or diagram `explain` or `zones` was asked for.
    Input(InputError),
    /// The reports cannot be written.
    Write {
        dir: std::path::PathBuf,
        source: io::Error,
    },
    /// Standard output cannot be written (other than a closed pipe).
    Output(io::Error),
    /// Expectations files that cannot be checked as written.
    Check(CheckError),
    /// Two runs that cannot be compared.
    Diff(DiffError),
    /// A run's page that cannot be made again.
    Report(ReportError),
    /// Shards that cannot be merged.
    Merge(MergeError),
    /// A file of `recount diff --changes` that cannot be written.
    Changes {
        path: std::path::PathBuf,
        source: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config(e) => e.fmt(f),
            Error::Input(e) => e.fmt(f),
            Error::Write { dir, source } => write!(
                f,
                "cannot write reports to '{}': {source}; check free space and permissions",
                dir.display()
            ),
            Error::Output(e) => write!(f, "cannot write to standard output: {e}"),
            Error::Check(e) => e.fmt(f),
            Error::Diff(e) => e.fmt(f),
            Error::Report(e) => e.fmt(f),
            Error::Merge(e) => e.fmt(f),
            Error::Changes { path, source } => write!(
                f,
                "cannot write the changes to '{}': {source}; choose another --changes",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Error {
        Error::Config(e)
    }
}

impl From<InputError> for Error {
    fn from(e: InputError) -> Error {
        Error::Input(e)
    }
}

/// Parses the command line and runs it. Exit status: 0 when the command
/// completed (a run with error rows included, unless `--strict`), 1 for
/// error rows under `--strict`, 2 when it could not happen; a closed pipe
/// on standard output is success.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    crate::bg::eval::table_cache::use_default_dir();
    let (name, result) = match cli.command {
        None => ("recount", run_main(cli.run)),
        Some(Command::Run(a)) => ("recount", run_main(a)),
        Some(Command::Explain(a)) => ("recount explain", explain_main(a)),
        Some(Command::Zones(a)) => ("recount zones", zones_main(a)),
        Some(Command::Check(a)) => ("recount check", check_main(a)),
        Some(Command::Diff(a)) => ("recount diff", diff_main(a)),
        Some(Command::Report(a)) => ("recount report", report_main(a)),
        Some(Command::Merge(a)) => ("recount merge", merge_main(a)),
    };
    match result {
        Ok(code) => code,
        Err(Error::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Error::Check(e)) => {
            // One line per problem, each naming its file and entry.
            for m in &e.0 {
                let _ = writeln!(io::stderr(), "{name}: {m}");
            }
            ExitCode::from(2)
        }
        Err(e) => {
            let _ = writeln!(io::stderr(), "{name}: {e}");
            ExitCode::from(2)
        }
    }
}

/// A run over archives: the reports, and the summary line on stderr.
///
/// The reports are replaced only when the run completes (see
/// [`crate::report::ReportDir`]). `SIGINT` and `SIGTERM` interrupt it: reading
/// stops, the new reports are dropped, the previous ones stay, and the exit
/// status is 130 or 143; a second signal ends the process at once (the
/// next run removes what it left). A failure to write keeps the previous
/// reports too (status 2), and so does another run holding `--out`'s lock
/// (status 2, at once).
fn run_main(args: RunArgs) -> Result<ExitCode, Error> {
    let interrupt = Arc::new(AtomicUsize::new(0));
    let signalled = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        // In this order: the second signal finds `signalled` set.
        let registered = signal_hook::flag::register_conditional_shutdown(
            sig,
            128 + sig,
            Arc::clone(&signalled),
        )
        .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&signalled)))
        .and_then(|_| signal_hook::flag::register_usize(sig, Arc::clone(&interrupt), sig as usize));
        // Without the handler the signal keeps its default action; the old
        // reports are still safe, only the temporary directory stays behind.
        let _ = registered;
    }
    let (config, mut sink) = Config::open(args)?;
    if config.entries.iter().all(|e| e.skip) {
        // Not an error (an empty directory or list gives empty reports),
        // but rarely what was meant: `find … | recount -` that found none.
        let _ = writeln!(
            io::stderr(),
            "recount: warning: the paths given hold no game file or archive to read; the \
             reports will be empty"
        );
    }
    // Panics inside a game are caught and reported as error rows; keep the
    // default hook from printing them as well.
    std::panic::set_hook(Box::new(|_| {}));
    let settings = config.settings();
    let control = run::Control {
        max_records: config.max_games,
        interrupt: Arc::clone(&interrupt),
        aborted: Arc::new(AtomicBool::new(false)),
        shard: config.shard,
    };
    // Once the run has dropped its reports after a signal, give it a
    // moment to end by itself (the games in progress), then exit: a reader
    // blocked on a slow input (a pipe, a network file) must not hold the
    // process.
    let (aborted, out) = (Arc::clone(&control.aborted), config.out.clone());
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(50));
        if aborted.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(500));
            let sig = interrupt.load(Ordering::SeqCst) as i32;
            std::process::exit(interrupted(sig, &out).into());
        }
    });
    let summary = run::run(
        &config.entries,
        settings,
        config.threads,
        config.progress,
        &mut sink,
        &control,
    );
    drop(sink);
    let summary = match summary {
        Ok(s) => s,
        Err(run::RunError::Interrupted(sig)) => {
            return Ok(ExitCode::from(interrupted(sig, &config.out)))
        }
        Err(run::RunError::Write(source)) => {
            return Err(Error::Write {
                dir: config.out.clone(),
                source: io::Error::new(
                    source.kind(),
                    format!("{source}; the previous reports were kept"),
                ),
            })
        }
    };
    // The limit the user set is news, not a warning: `-q` keeps it quiet
    // (summary.csv records it either way).
    if let (Some(run::Stopped::MaxRecords(n)), true) = (summary.stopped, config.summary) {
        let _ = writeln!(
            io::stderr(),
            "recount: --max-games {n} reached: reading stopped, the reports hold the first {n} \
             games and match files"
        );
    }
    if let Some(run::Stopped::BySink) = summary.stopped {
        let _ = writeln!(
            io::stderr(),
            "recount: the reports asked to stop the run early"
        );
    }
    if config.summary {
        let _ = writeln!(io::stderr(), "{}", summary::summary_line(&summary, &config));
    }
    Ok(if config.strict && summary.tally.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Says (once, whichever thread gets here first) that the run was
/// interrupted; the exit status, 128 + the signal's number.
fn interrupted(sig: i32, out: &std::path::Path) -> u8 {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::SeqCst) {
        let name = if sig == SIGTERM { "SIGTERM" } else { "SIGINT" };
        let _ = writeln!(
            io::stderr(),
            "recount: interrupted by {name}; the run was stopped and the previous reports in '{}' \
             are untouched",
            out.display()
        );
    }
    (128 + sig) as u8
}

/// `recount merge SHARD_DIR… --out DIR`: the shards' reports put
/// together, and a line on stderr saying so.
fn merge_main(a: MergeArgs) -> Result<ExitCode, Error> {
    let merged = merge::merge(&a.shards, &a.out).map_err(Error::Merge)?;
    let t = &merged.tally;
    let _ = writeln!(
        io::stderr(),
        "recount merge: {} shards, {} files, {} Go games, {} backgammon matches, {} error rows -> {}",
        merged.shards,
        t.files,
        t.games,
        t.matches,
        t.errors,
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `recount explain FILE`: one game's board and arithmetic on stdout.
fn explain_main(a: ExplainArgs) -> Result<ExitCode, Error> {
    let (rules, dead, score) = a.score.resolve()?;
    let member = a.member.as_deref();
    let play = a.play.is_some();
    if (play && a.score.given()) || (!play && a.eval.given()) {
        return Err(Error::Config(ConfigError::ExplainOptions { play }));
    }
    let text = match a.play {
        Some(play) => {
            let eval = Eval::resolve(&a.eval)?;
            explain_play::explain_play(&a.file, member, a.game, play, &eval.cube_settings())?
        }
        None => explain::explain(&a.file, member, a.game, rules, &dead, &score)?,
    };
    print(&text)
}

/// `recount zones FILE`: one position's zones and move values on stdout.
fn zones_main(a: ZonesArgs) -> Result<ExitCode, Error> {
    let (rules, dead, _) = a.score.resolve()?;
    let zs = a.zones.resolve(true).expect("always resolved");
    let text = zones::zones_table(&a.file, a.member.as_deref(), a.game, &zs, rules, &dead)?;
    print(&text)
}

/// `recount check FILE…`: a line per value that does not hold, a total;
/// status 1 when one does not hold.
fn check_main(a: CheckArgs) -> Result<ExitCode, Error> {
    // Panics inside a record are caught as error rows; keep them quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let checked = check::check(&a.files, a.update).map_err(Error::Check)?;
    print(&checked.text)?;
    Ok(if checked.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `recount diff RUN_A RUN_B`: what changed, report by report; status 1
/// when anything did.
fn diff_main(a: DiffArgs) -> Result<ExitCode, Error> {
    let d = diff::diff(&a.run_a, &a.run_b, &a.ignore).map_err(Error::Diff)?;
    if let Some(path) = &a.changes {
        std::fs::write(path, d.changes_csv()).map_err(|source| Error::Changes {
            path: path.clone(),
            source,
        })?;
    }
    print(&d.render())?;
    Ok(if d.differs() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `recount report OUT_DIR`: the page made again; its path on stdout.
fn report_main(a: ReportArgs) -> Result<ExitCode, Error> {
    let (page, missing) = report::rebuild(&a.out_dir).map_err(Error::Report)?;
    if !missing.is_empty() {
        let _ = writeln!(
            io::stderr(),
            "recount: warning: the directory lacks what the page reads ({}): a report lost, or \
             written by another version of recount? Run recount again to have every figure",
            missing.join(", ")
        );
    }
    print(&format!("{}\n", page.display()))
}

/// Writes a subcommand's text to stdout.
fn print(text: &str) -> Result<ExitCode, Error> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Output)?;
    Ok(ExitCode::SUCCESS)
}
