//! The second stage of the command line: what the user typed, checked and
//! resolved into the settings the rest of recount uses (presets looked up,
//! tables and weights loaded, paths expanded, the output opened). Nothing
//! after this sees clap's types.

use crate::analysis::bg_cube::CubeSettings;
use crate::analysis::bg_match::BgSettings;
use crate::analysis::go_score::ScoreSettings;
use crate::bg::cube::met::{kazaross_xg2, Met};
use crate::bg::eval::nn::Weights;
use crate::bg::game::replay::KeepCube;
use crate::cli::args::{DeadStonesArg, EvalArgs, FormatArg, RunArgs, ScoreArgs, ZoneArgs};
use crate::commands::run::Settings;
use crate::commands::shard::ShardRun;
use crate::go::dead::decide::DeadSettings;
use crate::go::dead::DeadPolicy;
use crate::go::endgame::position::{Moment, ZoneSettings};
use crate::go::rules::{Preset, RulesChoice, UnknownRules};
use crate::go::score::song::SongParams;
use crate::ingest::Shard;
use crate::ingest::{expand, Entry, ReadLimits};
use crate::report::sink::Locked;
use crate::report::{Formats, ReportDir};
use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// An option that cannot be used as given; each says what to do.
#[derive(Debug)]
pub enum ConfigError {
    Rules(UnknownRules),
    MetUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    MetUnusable {
        path: PathBuf,
        message: String,
    },
    Weights {
        message: String,
        from: String,
    },
    Paths(String),
    Out {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Another run holds the lock on `--out`.
    Locked(Locked),
    /// `--charset` names no charset.
    Charset(String),
    /// `--agrees-if` with `--no-scores`: nothing is counted to agree.
    AgreesIfWithoutScores,
    /// `recount explain` given options of the other game: backgammon's
    /// without `--play`, or Go's with it.
    ExplainOptions {
        play: bool,
    },
    /// `--shard` with `--max-games`: the first N records of a part are not
    /// a part of the first N records.
    ShardMaxGames,
    /// `--plies 1` or `2` with `--no-nets`: the look-ahead is gnubg's.
    PliesWithoutNets(u8),
    /// `--plies 1` or `2` with nets that lack the pruning nets, from
    /// where it names.
    PliesWithoutPruning {
        plies: u8,
        source: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Rules(e) => write!(f, "{e}; choose one with --rules"),
            ConfigError::MetUnreadable { path, source } => write!(
                f,
                "cannot read the match equity table '{}': {source}; give the path of one of GNU \
                 Backgammon's met/*.xml files, or leave out --met for the built-in Kazaross-XG2",
                path.display()
            ),
            ConfigError::MetUnusable { path, message } => write!(
                f,
                "'{}' is not a match equity table recount can use: {message}; give one of GNU Backgammon's met/*.xml files with explicit tables",
                path.display()
            ),
            ConfigError::Weights { message, from } => write!(
                f,
                "{message} (named by {from}); give a gnubg.weights or gnubg.wd file of GNU \
                 Backgammon 1.01, or leave out {from} to use the built-in nets"
            ),
            ConfigError::Paths(e) => write!(f, "{e}; check the path and try again"),
            ConfigError::Locked(e) => e.fmt(f),
            ConfigError::Charset(name) => write!(
                f,
                "--charset '{name}' is not a charset recount knows; give a label of the WHATWG Encoding Standard such as UTF-8, GBK, Big5, Shift_JIS, EUC-KR or windows-1252"
            ),
            ConfigError::PliesWithoutNets(plies) => write!(
                f,
                "--plies {plies} looks ahead with GNU Backgammon's nets, which --no-nets turns off; leave out --no-nets, or use --plies 0"
            ),
            ConfigError::PliesWithoutPruning { plies, source } => write!(
                f,
                "--plies {plies} needs GNU Backgammon's pruning nets, which the weights file {source} lacks; use the built-in nets, a gnubg.weights or gnubg.wd with all six nets, or --plies 0"
            ),
            ConfigError::ExplainOptions { play: true } => f.write_str(
                "--play explains a backgammon play, which Go's options (--rules, --dead-stones, --playouts, --seed, --votes, --song-eyes, --agrees-if) do not change; leave them out"
            ),
            ConfigError::ExplainOptions { play: false } => f.write_str(
                "--plies, --met, --weights and --no-nets are for a backgammon play: name it with --play N (and the game with --game), or leave them out to explain a Go game's count"
            ),
            ConfigError::AgreesIfWithoutScores => f.write_str(
                "--agrees-if looks for the change that makes a count agree, and --no-scores counts nothing; leave out one of them"
            ),
            ConfigError::ShardMaxGames => f.write_str(
                "--shard and --max-games cannot be used together (the shards' first records are not the run's first records); leave out one of them"
            ),
            ConfigError::Out { path, .. } if path.is_file() => write!(
                f,
                "cannot write reports to '{}': it is a file, not a directory; choose another --out",
                path.display()
            ),
            ConfigError::Out { path, source } => write!(
                f,
                "cannot write reports to '{}': {source}; choose another --out",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl ScoreArgs {
    /// The default rules (name and value), how dead stones are decided, and
    /// the scoring settings.
    ///
    /// # Errors
    /// When `--rules` names no preset.
    pub fn resolve(&self) -> Result<(RulesChoice, DeadSettings, ScoreSettings), ConfigError> {
        let default_rules = match &self.rules {
            Some(name) => RulesChoice {
                preset: name.parse::<Preset>().map_err(ConfigError::Rules)?,
                given: true,
            },
            None => RulesChoice::default(),
        };
        let policy = match self.dead_stones {
            DeadStonesArg::Auto => DeadPolicy::Auto,
            DeadStonesArg::Markup => DeadPolicy::Markup,
            DeadStonesArg::Estimate => DeadPolicy::Estimate,
            DeadStonesArg::None => DeadPolicy::None,
        };
        let dead = DeadSettings {
            policy,
            playouts: self.playouts,
            seed: self.seed,
            votes: self.votes,
        };
        let score = ScoreSettings {
            song: SongParams {
                eyes_per_group: self.song_eyes,
            },
            agrees_if: self.agrees_if,
        };
        Ok((default_rules, dead, score))
    }
}

impl ZoneArgs {
    /// The settings, when zones were asked for (or `always`: the final
    /// position when no move is named).
    pub fn resolve(&self, always: bool) -> Option<ZoneSettings> {
        let moment = match (self.zones_at, self.zones_from_end) {
            (Some(n), _) => Moment::At(n),
            (None, Some(k)) => Moment::FromEnd(k),
            (None, None) if always => Moment::FromEnd(0),
            (None, None) => return None,
        };
        // clap holds each limit to 1..=64.
        Some(ZoneSettings {
            moment,
            max_empty: self.zone_max_empty as usize,
            max_points: self.zone_max_points as usize,
            budget: self.zone_budget,
            timing: self.zone_timing,
            no_hope: self.zone_no_hope,
        })
    }
}

/// The environment variable naming a weights file to use instead of the
/// built-in nets (`--weights` comes first).
pub const WEIGHTS_ENV: &str = "RECOUNT_GNUBG_WEIGHTS";

/// The backgammon nets a run evaluates with.
pub enum Nets {
    /// gnubg 1.1.0a16's, built into the binary.
    BuiltIn,
    /// Read from a file named by `--weights` or [`WEIGHTS_ENV`].
    File(Box<Weights>),
    /// None (`--no-nets`): contact positions are not estimated.
    Off,
}

impl Nets {
    /// None with `no_nets`; else the file `given` (`--weights`), else the
    /// file the environment variable's value `env` names (when not empty),
    /// else the built-in nets. A relative path is resolved against the
    /// current directory once, here, so a run gives the same reports from
    /// any directory; a file named and not usable is an error, never a
    /// silent fall-back to other nets.
    ///
    /// # Errors
    /// The file named cannot be read or is not a weights file of GNU
    /// Backgammon 1.01; the message says where the name came from.
    pub fn choose(
        given: Option<&Path>,
        env: Option<std::ffi::OsString>,
        no_nets: bool,
    ) -> Result<Nets, ConfigError> {
        if no_nets {
            return Ok(Nets::Off);
        }
        let (path, from) = match (given, env.filter(|v| !v.is_empty())) {
            (Some(p), _) => (p.to_path_buf(), "--weights".to_string()),
            (None, Some(v)) => (PathBuf::from(v), format!("${WEIGHTS_ENV}")),
            (None, None) => return Ok(Nets::BuiltIn),
        };
        let fail = |message: String| ConfigError::Weights {
            message,
            from: from.clone(),
        };
        let path = std::path::absolute(&path).map_err(|e| {
            fail(format!(
                "cannot resolve the weights file '{}': {e}",
                path.display()
            ))
        })?;
        Weights::load(&path)
            .map(|w| Nets::File(Box::new(w)))
            .map_err(|e| fail(e.0))
    }
}

/// How backgammon positions are evaluated ([`EvalArgs`] resolved): the
/// look-ahead, the match equity table, the nets.
pub struct Eval {
    pub plies: u8,
    /// The match equity table given with `--met`; the shipped one without.
    pub met: Option<Met>,
    pub nets: Nets,
}

impl Eval {
    /// # Errors
    /// A table or weights file that cannot be read or used, or a look-ahead
    /// the nets cannot make.
    pub fn resolve(a: &EvalArgs) -> Result<Eval, ConfigError> {
        let met = match &a.met {
            None => None,
            Some(path) => {
                let xml =
                    std::fs::read_to_string(path).map_err(|source| ConfigError::MetUnreadable {
                        path: path.clone(),
                        source,
                    })?;
                let mut met = Met::from_xml(&xml).map_err(|message| ConfigError::MetUnusable {
                    path: path.clone(),
                    message,
                })?;
                met.file = Some(path.display().to_string());
                Some(met)
            }
        };
        let nets = Nets::choose(
            a.weights.as_deref(),
            std::env::var_os(WEIGHTS_ENV),
            a.no_nets,
        )?;
        nets.look_ahead(a.plies)?;
        Ok(Eval {
            plies: a.plies,
            met,
            nets,
        })
    }

    /// The cube and play analysis's settings, borrowing the tables.
    pub fn cube_settings(&self) -> CubeSettings<'_> {
        CubeSettings {
            met: self.met.as_ref().unwrap_or_else(|| kazaross_xg2()),
            weights: match &self.nets {
                Nets::BuiltIn => Some(Weights::embedded()),
                Nets::File(w) => Some(w),
                Nets::Off => None,
            },
            plies: self.plies,
        }
    }
}

impl Nets {
    /// Whether these nets can look `plies` ahead: gnubg's look-ahead needs
    /// its nets and pruning nets.
    ///
    /// # Errors
    /// `plies` is 1 or 2 and the nets are off or lack the pruning nets.
    fn look_ahead(&self, plies: u8) -> Result<(), ConfigError> {
        match self {
            _ if plies == 0 => Ok(()),
            Nets::Off => Err(ConfigError::PliesWithoutNets(plies)),
            Nets::File(w) if w.pruning.is_none() => Err(ConfigError::PliesWithoutPruning {
                plies,
                source: w.source.clone(),
            }),
            _ => Ok(()),
        }
    }
}

/// Everything a run needs, resolved from [`RunArgs`].
pub struct Config {
    pub entries: Vec<Entry>,
    pub default_rules: RulesChoice,
    pub dead: DeadSettings,
    pub score: ScoreSettings,
    pub limits: ReadLimits,
    pub check_sgf: bool,
    /// `--charset`: the charset every Go game's text is read in.
    pub charset: Option<&'static encoding_rs::Encoding>,
    pub scores: bool,
    pub zones: Option<ZoneSettings>,
    pub positions: bool,
    pub plays: bool,
    pub decisions: KeepCube,
    pub eval: Eval,
    pub threads: usize,
    pub progress: bool,
    pub summary: bool,
    pub strict: bool,
    /// Where the reports go, and in which formats.
    pub out: PathBuf,
    pub formats: Formats,
    /// `--max-games`: most records read.
    pub max_games: Option<u64>,
    /// `--shard K/N`, with the formats asked for (a shard also writes CSV,
    /// which `recount merge` reads).
    pub shard: Option<ShardRun>,
}

impl Config {
    /// The settings of the run, borrowing this configuration's tables.
    pub fn settings(&self) -> Settings<'_> {
        Settings {
            default_rules: self.default_rules,
            dead: self.dead,
            limits: self.limits,
            check_sgf: self.check_sgf,
            charset: self.charset,
            scores: self.scores,
            score: self.score,
            zones: self.zones,
            bg: BgSettings {
                positions: self.positions,
                plays: self.plays,
                decisions: self.decisions,
                cube: self.eval.cube_settings(),
            },
        }
    }
}

impl Config {
    /// Checks and resolves a run's flags, and opens its reports.
    ///
    /// # Errors
    /// An option that cannot be used, a path on the command line that
    /// cannot be read, an output directory that cannot be written.
    pub fn open(a: RunArgs) -> Result<(Config, ReportDir), ConfigError> {
        let config = Config::resolve(a)?;
        let sink = ReportDir::create(&config.out, config.formats).map_err(|source| match source
            .get_ref()
            .and_then(|e| e.downcast_ref::<Locked>())
        {
            Some(locked) => ConfigError::Locked(locked.clone()),
            None => ConfigError::Out {
                path: config.out.clone(),
                source,
            },
        })?;
        Ok((config, sink))
    }

    /// Checks and resolves a run's flags without opening any output (what
    /// `recount check` runs each record with).
    ///
    /// # Errors
    /// An option that cannot be used, a path that cannot be read.
    pub fn resolve(a: RunArgs) -> Result<Config, ConfigError> {
        let (default_rules, dead, score) = a.score.resolve()?;
        let threads = match a.threads {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let eval = Eval::resolve(&a.eval)?;
        let charset = match &a.charset {
            None => None,
            Some(name) => Some(
                crate::sgf::charset::encoding_for(name.as_bytes())
                    .ok_or_else(|| ConfigError::Charset(name.clone()))?,
            ),
        };
        if a.shard.is_some() && a.max_games.is_some() {
            return Err(ConfigError::ShardMaxGames);
        }
        if a.no_scores && a.score.agrees_if {
            return Err(ConfigError::AgreesIfWithoutScores);
        }
        let entries = expand(&a.paths, &mut std::io::stdin().lock()).map_err(ConfigError::Paths)?;
        let formats = Formats {
            csv: a.format != FormatArg::Parquet,
            parquet: a.format != FormatArg::Csv,
            html: !a.no_html,
        };
        let shard = a.shard.map(|shard| ShardRun {
            shard: Shard {
                by: a.shard_by,
                ..shard
            },
            formats,
        });
        Ok(Config {
            entries,
            default_rules,
            dead,
            score,
            // clap holds the limit to 1..=4096 MiB.
            limits: ReadLimits {
                max_game_bytes: a.max_game_mib << 20,
            },
            check_sgf: a.check_sgf,
            charset,
            scores: !a.no_scores,
            zones: a.zones.resolve(false),
            positions: a.positions,
            plays: a.plays,
            decisions: if a.all_cube_decisions {
                KeepCube::All
            } else {
                KeepCube::Recorded
            },
            eval,
            threads,
            progress: !a.quiet && std::io::stderr().is_terminal(),
            summary: !a.quiet,
            strict: a.strict,
            out: a.out,
            formats: Formats {
                csv: formats.csv || shard.is_some(),
                ..formats
            },
            max_games: a.max_games,
            shard,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_ahead_needs_the_nets_and_their_pruning_nets() {
        let without_pruning = Weights {
            pruning: None,
            source: "three-nets.weights".into(),
            ..Weights::embedded().clone()
        };
        let with_pruning = Nets::File(Box::new(Weights::embedded().clone()));
        let without_pruning = Nets::File(Box::new(without_pruning));
        for nets in [&Nets::BuiltIn, &with_pruning, &Nets::Off, &without_pruning] {
            assert!(nets.look_ahead(0).is_ok());
        }
        for plies in [1, 2] {
            assert!(Nets::BuiltIn.look_ahead(plies).is_ok());
            assert!(with_pruning.look_ahead(plies).is_ok());
            let e = Nets::Off.look_ahead(plies).unwrap_err().to_string();
            assert!(e.contains("--no-nets") && e.contains("--plies 0"), "{e}");
            let e = without_pruning.look_ahead(plies).unwrap_err().to_string();
            assert!(
                e.contains("three-nets.weights") && e.contains("pruning"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_run_chooses_its_nets() {
        let got = |g: Option<&Path>, env: Option<&str>, off: bool| {
            Nets::choose(g, env.map(Into::into), off).map_err(|e| e.to_string())
        };
        assert!(matches!(got(None, None, false), Ok(Nets::BuiltIn)));
        assert!(matches!(got(None, Some(""), false), Ok(Nets::BuiltIn)));
        assert!(matches!(
            got(None, Some("/nonexistent/x"), true),
            Ok(Nets::Off)
        ));
        let e = got(None, Some("no/such/gnubg.wd"), false).err().unwrap();
        assert!(e.contains("$RECOUNT_GNUBG_WEIGHTS"), "{e}");
        assert!(e.contains("built-in nets"), "{e}");
        // Relative paths are resolved against the current directory.
        let abs = std::env::current_dir().unwrap().join("no/such/gnubg.wd");
        assert!(e.contains(&abs.display().to_string()), "{e}");
        // The flag comes before the environment.
        let e = got(Some(Path::new("/nonexistent/w")), Some(""), false)
            .err()
            .unwrap();
        assert!(e.contains("named by --weights"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let wd = dir.path().join("gnubg.wd");
        std::fs::write(&wd, crate::bg::eval::nn::EMBEDDED_WD).unwrap();
        let Ok(Nets::File(w)) = Nets::choose(None, Some(wd.clone().into()), false) else {
            panic!("a weights file named by the environment is read");
        };
        assert_eq!(w.source, wd.display().to_string());
    }
}
