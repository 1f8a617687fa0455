//! A run done in parts whose rows are not merged (Spark tasks: each task's
//! per-record rows go straight to the engine's output). Each part hands
//! back its totals as a [`Part`]; [`totals`] adds them up into the rows one
//! run writes at its end: `summary.csv`, `settings.csv`,
//! `go_interpretations.csv` and the `player` rows of `bg_stats.csv`. The
//! counts add up in any order; the players' sums are added unit by unit in
//! input order, as one run adds them, so the rows are one run's whatever
//! the parts.
//!
//! A part is what a `--shard` run writes beside its reports (`shard.json`,
//! `shard_units.csv`), with the names of the files it read: a unit's place
//! counts the part's own files, and the names put it in the whole input.

use crate::analysis::bg_plays::PlayerTotals;
use crate::commands::run::End;
use crate::commands::shard::{Meta, Units};
use crate::commands::tally::Tally;
use crate::ingest::{Entry, Shard, ShardBy};
use crate::report::duplicates::GameIds;
use crate::report::sink::Memory;
use crate::report::{Extra, RowBuf, SettingRow};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One part's totals.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Part {
    /// The files the part read, as the reports name them (in any order).
    pub names: Vec<String>,
    /// Its `shard.json`.
    pub meta: String,
    /// Its `shard_units.csv`: the header, and at least every unit with
    /// players' statistics (the others add nothing here).
    pub units: String,
}

/// The shard a part runs as when it was given none: all of its input.
pub const WHOLE: Shard = Shard {
    index: 1,
    count: 1,
    by: ShardBy::Member,
};

impl Part {
    /// The part a run over `entries` into `sink` made (the run had a shard).
    /// Of `shard_units.csv` it keeps the header and the units with
    /// players' statistics, so that a part stays small however many games
    /// it read (a unit's line is one line, its last cell the players';
    /// empty, the line ends in its comma).
    pub fn new(entries: &[Entry], sink: &Memory) -> Part {
        let text = |e: Extra| String::from_utf8_lossy(&sink.extras[e as usize]).into_owned();
        let units = text(Extra::ShardUnits)
            .lines()
            .enumerate()
            .filter(|(i, line)| *i == 0 || !line.ends_with(','))
            .map(|(_, line)| format!("{line}\n"))
            .collect();
        Part {
            names: entries
                .iter()
                .map(|e| e.path.to_string_lossy().into_owned())
                .collect(),
            meta: text(Extra::ShardMeta),
            units,
        }
    }
}

/// The end-of-run rows of all of `parts` together: `game_ids` counted over
/// all their games (by the engine: the ids are per game), `settings` and
/// `zones` as the parts were run with.
///
/// # Errors
/// A part that is not one (its files said for a person), or parts that
/// share a file.
pub fn totals(
    parts: &[Part],
    settings: &[SettingRow],
    zones: bool,
    game_ids: GameIds,
) -> Result<RowBuf, String> {
    let mut all: Vec<&Path> = parts
        .iter()
        .flat_map(|p| p.names.iter().map(Path::new))
        .collect();
    all.sort();
    let count = all.len();
    all.dedup();
    if all.len() != count {
        return Err("two parts read the same file; give each file to one part only".to_string());
    }
    let mut tally = Tally::default();
    let mut skipped = 0;
    // Each unit's players, by its place in the whole input.
    let mut players: Vec<((usize, u64, u32), PlayerTotals)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let shown = format!("part {} (of {} files)", i + 1, part.names.len());
        let meta = Meta::from_json(&part.meta, &shown)?;
        let mut mine: Vec<&Path> = part.names.iter().map(Path::new).collect();
        mine.sort();
        if meta.entries != mine.len() as u64 {
            return Err(format!(
                "{shown}: its shard.json read {} files; give the names of the files it read",
                meta.entries
            ));
        }
        tally += meta.tally;
        skipped += meta.skipped;
        let mut units = Units::from_bytes(part.units.clone().into_bytes(), shown.clone())?;
        while let Some(u) = units.next_unit()? {
            if u.players.players.is_empty() {
                continue;
            }
            let name = mine.get(u.place.entry as usize).ok_or_else(|| {
                format!(
                    "{shown}: a unit of file {} of its {}",
                    u.place.entry + 1,
                    mine.len()
                )
            })?;
            let at = all
                .binary_search(name)
                .expect("every part's names are in all");
            players.push(((at, u.place.stream, u.place.unit), u.players));
        }
    }
    players.sort_by_key(|(place, _)| *place);
    for (_, unit) in players {
        tally.bg.players += unit;
    }
    let end = End {
        tally: &tally,
        skipped,
        settings,
        zones,
        stopped: None,
        game_ids,
    };
    Ok(end.rows())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::run_args;
    use crate::cli::config::Config;
    use crate::commands::run::{run, Control};
    use crate::commands::shard::ShardRun;
    use crate::report::{Formats, Table};

    /// Runs `paths` with `--plays` as one part; its rows and its part.
    fn run_part(paths: &[std::path::PathBuf]) -> (Memory, Part, Vec<SettingRow>) {
        let mut args = run_args(Path::new("-"), &["--plays".to_string()]).unwrap();
        args.paths = paths.to_vec();
        let config = Config::resolve(args).unwrap();
        let control = Control {
            shard: Some(ShardRun {
                shard: WHOLE,
                formats: Formats::default(),
            }),
            ..Control::default()
        };
        let mut sink = Memory::default();
        let settings = config.settings();
        run(&config.entries, settings, 2, false, &mut sink, &control).unwrap();
        let part = Part::new(&config.entries, &sink);
        (sink, part, config.settings().rows())
    }

    fn text(rows: &RowBuf, t: Table) -> String {
        String::from_utf8(rows.bytes(t).to_vec()).unwrap()
    }

    #[test]
    fn parts_add_up_to_the_run_in_any_order() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut files: Vec<_> = ["bg/real", "go/kgs", "malformed"]
            .iter()
            .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let (whole, part, settings) = run_part(&files);
        // A part keeps only the units with players: the matches.
        let matches = text(&whole.rows, Table::BgGames)
            .lines()
            .filter_map(|l| l.split(',').nth(2))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert!(matches > 0);
        assert_eq!(part.units.lines().count(), 1 + matches, "{}", part.units);
        // Three parts of interleaved files, given in another order.
        let parts: Vec<Part> = (0..3)
            .rev()
            .map(|k| {
                let mine: Vec<_> = files.iter().skip(k).step_by(3).cloned().collect();
                run_part(&mine).1
            })
            .collect();
        let summary = text(&whole.rows, Table::Summary);
        let count = |name: &str| -> u64 {
            let line = summary
                .lines()
                .find(|l| l.starts_with(&format!("{name},")))
                .unwrap();
            line.split(',').nth(2).unwrap().parse().unwrap()
        };
        let ids = GameIds {
            distinct: count("go_game_ids,distinct"),
            repeated: count("go_game_ids,duplicates"),
            bg_distinct: count("bg_match_hashes,distinct"),
            bg_repeated: count("bg_match_hashes,duplicates"),
        };
        let got = totals(&parts, &settings, false, ids).unwrap();
        for t in [Table::Summary, Table::Settings, Table::GoInterpretations] {
            assert_eq!(text(&got, t), text(&whole.rows, t), "{}", t.name());
        }
        let players = |s: &str| -> String {
            s.lines()
                .filter(|l| l.starts_with("player,"))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let want = players(&text(&whole.rows, Table::BgStats));
        assert!(want.lines().count() > 2, "{want}");
        assert_eq!(text(&got, Table::BgStats), want);
        assert!(summary.contains("read,files,"), "{summary}");
    }

    #[test]
    fn parts_that_share_a_file_or_miscount_are_refused() {
        let part = Part {
            names: vec!["a.sgf".into()],
            meta: String::new(),
            units: String::new(),
        };
        let twice = totals(
            &[part.clone(), part.clone()],
            &[],
            false,
            GameIds::default(),
        );
        assert!(twice.unwrap_err().contains("same file"));
        let bad = totals(&[part], &[], false, GameIds::default()).unwrap_err();
        assert!(bad.contains("part 1"), "{bad}");
    }
}
