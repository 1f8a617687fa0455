//! The figures `report.html` shows, gathered from a run's reports (CSV or
//! Parquet) in one pass over each: totals, counts by kind, histograms and
//! the games worth a look. Only the reports the page needs are read, row
//! by row; lists of games are cut at a fixed length (the totals are not).

use crate::go::dead::decide::DeadSettings;
use crate::report::read::{find, stream};
use crate::report::Table;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Most games listed in each table of games.
pub const LISTED: usize = 500;
/// Most players shown (those with the most moves).
pub const PLAYERS: usize = 50;
/// Histograms put differences beyond ± this many points in their end bins.
pub const SPAN: i64 = 15;
/// Most plays listed among the largest errors.
pub const LARGEST: usize = 20;

/// gnubg's marks of a play's loss, from none up (`bg_plays.csv`'s `mark`,
/// `none` for an empty one).
pub const MARKS: [&str; 4] = ["none", "doubtful", "bad", "very_bad"];

/// The bins of the unforced plays' losses (EMG): a loss of 0, then up to
/// each bound, the last one beyond.
pub const LOSS_BINS: [(&str, f64); 7] = [
    ("0", 0.0),
    ("0-0.03", 0.03),
    ("0.03-0.06", 0.06),
    ("0.06-0.12", 0.12),
    ("0.12-0.25", 0.25),
    ("0.25-0.5", 0.5),
    ("over 0.5", f64::INFINITY),
];

/// gnubg's marks of a roll's luck, from the luckiest (`bg_plays.csv`'s
/// `luck_mark`, `none` for an empty one).
pub const LUCK_MARKS: [&str; 5] = ["very_lucky", "lucky", "none", "unlucky", "very_unlucky"];

/// The interpretations' score columns in `go_scores.csv`, with their names
/// (as `go_interpretations.csv` has them).
pub const SCORES: [(&str, &str); 7] = [
    ("count", "score_count"),
    ("japanese", "score_japanese"),
    ("chinese", "score_chinese"),
    ("aga", "score_aga"),
    ("new_zealand", "score_new_zealand"),
    ("stone_scoring", "score_stone_scoring"),
    ("song", "song_score_komi"),
];

/// A row's cells, looked up by column name.
pub struct Row<'a> {
    table: Table,
    columns: &'a [String],
    cells: &'a [String],
    missing: &'a RefCell<BTreeSet<String>>,
}

impl Row<'_> {
    /// The cell of `column`; empty when the report has no such column
    /// (noted in [`Figures::missing`]).
    pub fn get(&self, column: &str) -> &str {
        match self.columns.iter().position(|c| c == column) {
            Some(i) => self.cells[i].as_str(),
            None => {
                let file = self.table.file(crate::report::Format::Csv);
                self.missing
                    .borrow_mut()
                    .insert(format!("{file}: {column}"));
                ""
            }
        }
    }

    fn number(&self, column: &str) -> Option<f64> {
        self.get(column).parse().ok()
    }
}

/// A run's reports in `dir`, read table by table, with the columns asked
/// of a report that lacks them (`file: column`), as a report of another
/// version of recount may: gathered while the figures are, for the page
/// to say so.
struct Reports<'a> {
    dir: &'a Path,
    missing: RefCell<BTreeSet<String>>,
}

impl Reports<'_> {
    /// Streams `table`'s rows to `f`; `Ok(false)` when the run wrote no
    /// such report.
    fn each(&self, table: Table, mut f: impl FnMut(&Row)) -> Result<bool, String> {
        let Some(path) = find(self.dir, table) else {
            return Ok(false);
        };
        stream(&path, |columns, cells| {
            f(&Row {
                table,
                columns,
                cells,
                missing: &self.missing,
            })
        })?;
        Ok(true)
    }
}

/// Counts by integer bin, the ends holding everything beyond ±[`SPAN`].
#[derive(Debug, Default, Clone)]
pub struct Histogram {
    pub bins: BTreeMap<i64, u64>,
    pub total: u64,
}

impl Histogram {
    pub fn add(&mut self, v: f64) {
        *self
            .bins
            .entry((v.round() as i64).clamp(-SPAN, SPAN))
            .or_default() += 1;
        self.total += 1;
    }
}

/// A game worth a look, as a table row of the page.
#[derive(Debug, Clone)]
pub struct Listed {
    pub game_key: String,
    pub cells: Vec<String>,
    /// The recount command that shows it, when there is one.
    pub command: Option<String>,
}

/// A bounded list: the first [`LISTED`] games and how many there were.
#[derive(Debug, Default, Clone)]
pub struct Listing {
    pub games: Vec<Listed>,
    pub total: u64,
}

impl Listing {
    fn push(&mut self, game: impl FnOnce() -> Listed) {
        self.total += 1;
        if self.games.len() < LISTED {
            self.games.push(game());
        }
    }
}

/// Cube decisions of one kind: how many, how many were errors, the error.
#[derive(Debug, Default, Clone, Copy)]
pub struct CubeTally {
    pub decisions: u64,
    pub errors: u64,
    pub error: f64,
}

/// The plays of `bg_plays.csv`, those of a match that repeats an earlier
/// one left out (as the players' statistics leave them out).
#[derive(Debug, Default, Clone)]
pub struct Plays {
    /// Rows counted, and rows of repeated matches left out.
    pub rows: u64,
    pub repeated: u64,
    /// Rated plays with two or more distinct choices: gnubg's decisions.
    pub unforced: u64,
    /// One legal play, and rolls with none.
    pub forced: u64,
    pub no_play: u64,
    /// Plays not rated, by reason.
    pub not_rated: BTreeMap<String, u64>,
    /// Unforced plays by mark ([`MARKS`]): how many, their total loss.
    pub marks: [(u64, f64); 4],
    /// Unforced plays by loss ([`LOSS_BINS`]).
    pub losses: [u64; 7],
    /// Rolls whose luck was rated, by mark ([`LUCK_MARKS`]).
    pub luck: [u64; 5],
    /// The [`LARGEST`] losses of unforced plays, largest first (the
    /// first met first among equals).
    pub largest: Vec<Loss>,
}

/// One of the largest losses: the play (`game_key` and play number), who
/// played, the dice, the play and the best one, the loss, and the
/// position's gnubg ID (Position ID:Match ID).
#[derive(Debug, Clone)]
pub struct Loss {
    pub play: String,
    pub player: String,
    pub dice: String,
    pub played: String,
    pub best: String,
    pub loss: f64,
    pub gnubg_id: String,
    /// The `recount explain --play` command that shows its roll's plays
    /// ranked, when there is one.
    pub command: Option<String>,
}

impl Plays {
    /// Counts one row of `bg_plays.csv`; `command` makes the explain
    /// command of a play kept among the largest losses.
    fn add(&mut self, r: &Row, command: impl FnOnce() -> Option<String>) {
        self.rows += 1;
        let luck = LUCK_MARKS
            .iter()
            .position(|m| *m == or_none(r.get("luck_mark")));
        if let (Some(i), false) = (luck, r.get("luck").is_empty()) {
            self.luck[i] += 1;
        }
        let Some(loss) = r.number("loss") else {
            *self.not_rated.entry(r.get("reason").into()).or_default() += 1;
            return;
        };
        match r.get("choices") {
            "0" => self.no_play += 1,
            "1" => self.forced += 1,
            _ => {
                self.unforced += 1;
                if let Some(i) = MARKS.iter().position(|m| *m == or_none(r.get("mark"))) {
                    self.marks[i].0 += 1;
                    self.marks[i].1 += loss;
                }
                let bin = LOSS_BINS.iter().position(|(_, top)| loss <= *top);
                self.losses[bin.unwrap_or(LOSS_BINS.len() - 1)] += 1;
                self.keep_if_largest(loss, r, command);
            }
        }
    }

    fn keep_if_largest(&mut self, loss: f64, r: &Row, command: impl FnOnce() -> Option<String>) {
        if self.largest.len() == LARGEST && loss <= self.largest[LARGEST - 1].loss {
            return;
        }
        let at = self.largest.partition_point(|l| l.loss >= loss);
        let play = Loss {
            play: format!("{} play {}", r.get("game_key"), r.get("play")),
            player: r.get("player_name").into(),
            dice: r.get("dice").into(),
            played: r.get("played").into(),
            best: r.get("best_play").into(),
            loss,
            gnubg_id: format!("{}:{}", r.get("position_id"), r.get("match_id")),
            command: command(),
        };
        self.largest.insert(at, play);
        self.largest.truncate(LARGEST);
    }
}

/// `mark`, or `none` when empty.
fn or_none(mark: &str) -> &str {
    if mark.is_empty() {
        "none"
    } else {
        mark
    }
}

/// One player's figures over the run (`bg_stats.csv`, `player` scope).
#[derive(Debug, Clone)]
pub struct Player {
    pub key: String,
    pub name: String,
    pub matches: u64,
    pub games: u64,
    pub moves: u64,
    pub error_rate: Option<f64>,
    pub checker_error_rate: Option<f64>,
    pub cube_error_rate: Option<f64>,
    pub pr: Option<f64>,
    pub luck_rate: Option<f64>,
    pub luck_rating: String,
    pub rating: String,
}

/// Everything the page shows.
#[derive(Debug, Default)]
pub struct Figures {
    /// Reports a run writes that the directory lacks, and columns the
    /// page reads that a report lacks (`file: column`, the reports of
    /// another version of recount).
    pub missing: Vec<String>,
    /// `summary.csv`'s `read` rows (name, count, unit), and its `run` row.
    pub read: Vec<(String, u64, String)>,
    pub stopped: Option<(String, u64)>,
    pub settings: Vec<(String, String)>,
    pub errors_by_stage: BTreeMap<String, u64>,
    pub errors: Listing,
    // Go
    pub go_games: u64,
    /// `go_games.csv` rows whose game an earlier row holds.
    pub go_repeated: u64,
    pub verdicts: BTreeMap<String, u64>,
    /// Games with a score under every interpretation.
    pub scored: u64,
    /// `go_interpretations.csv`: name, games, winner_differs, mean difference.
    pub interpretations: Vec<(String, u64, u64, Option<f64>)>,
    /// Games whose winners under interpretations i and j differ.
    pub winner_pairs: [[u64; 7]; 7],
    /// Each interpretation's score less the declared rules' score.
    pub vs_declared: [Histogram; 7],
    /// The declared rules' score less the score `RE` gives.
    pub vs_record: Histogram,
    pub mismatches: Listing,
    pub contested: Listing,
    pub zone_status: BTreeMap<String, u64>,
    /// Solved zones by type: the move values (differences).
    pub zone_values: BTreeMap<String, Histogram>,
    // Backgammon
    pub bg_games: u64,
    pub bg_matches: u64,
    /// Matches an earlier match of the run repeats.
    pub bg_repeated: u64,
    pub endings: BTreeMap<String, u64>,
    pub findings: BTreeMap<String, u64>,
    pub finding_games: Listing,
    pub cube_by_type: BTreeMap<String, CubeTally>,
    pub cube_by_score: BTreeMap<String, CubeTally>,
    /// `None` when the run rated no play (`bg_plays.csv` has no row).
    pub plays: Option<Plays>,
    pub players: Vec<Player>,
    pub player_count: u64,
}

/// The sign of a score: who wins.
fn winner(score: f64) -> i8 {
    if score > 0.0 {
        1
    } else if score < 0.0 {
        -1
    } else {
        0
    }
}

/// `s` quoted for a POSIX shell where it needs it.
pub fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./-+:@%,=".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The arguments naming a game's file to `recount explain`: the file,
/// and an archive's member with `--member` (explain reads compressed
/// files and archives as a run does).
fn record_path(source: &str, member: &str) -> String {
    let src = shell_word(source);
    if member.is_empty() {
        src
    } else {
        format!("{src} --member {}", shell_word(member))
    }
}

impl Figures {
    /// Reads the figures from the reports in `dir`.
    ///
    /// # Errors
    /// A report that cannot be read.
    pub fn gather(dir: &Path) -> Result<Figures, String> {
        let reports = Reports {
            dir,
            missing: RefCell::default(),
        };
        let mut f = Figures::default();
        reports.each(Table::Summary, |r| {
            let count = r.number("count").unwrap_or(0.0) as u64;
            match r.get("metric") {
                "read" => f
                    .read
                    .push((r.get("name").into(), count, r.get("unit").into())),
                "run" => f.stopped = Some((r.get("name").into(), count)),
                "go_game_ids" if r.get("name") == "duplicates" => f.go_repeated = count,
                "bg_match_hashes" if r.get("name") == "duplicates" => f.bg_repeated = count,
                _ => {}
            }
        })?;
        reports.each(Table::Settings, |r| {
            f.settings
                .push((r.get("setting").into(), r.get("value").into()));
        })?;
        reports.each(Table::Errors, |r| {
            *f.errors_by_stage.entry(r.get("stage").into()).or_default() += 1;
            f.errors.push(|| Listed {
                game_key: r.get("file_key").into(),
                cells: vec![
                    r.get("game").into(),
                    r.get("stage").into(),
                    r.get("reason").into(),
                ],
                command: None,
            });
        })?;
        f.gather_go(&reports)?;
        f.gather_bg(&reports)?;
        // A run writes every report, empty or not: one not there was lost.
        let files = Table::ALL
            .into_iter()
            .filter(|&t| find(dir, t).is_none())
            .map(|t| format!("{} (the whole report)", t.file(crate::report::Format::Csv)));
        f.missing = files.chain(reports.missing.into_inner()).collect();
        Ok(f)
    }

    /// A `read` count of `summary.csv` (0 when it has none).
    fn read_count(&self, name: &str) -> u64 {
        self.read
            .iter()
            .find(|(n, ..)| n == name)
            .map_or(0, |(_, count, _)| *count)
    }

    /// The value of a setting of the run, if `settings.csv` has it.
    pub fn setting(&self, name: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(s, _)| s == name)
            .map(|(_, v)| v.as_str())
    }

    /// `recount explain` for a game of `go_scores.csv`, with the options
    /// that made its count: `--rules` where the run's audited games
    /// without a known `RU` under the rules it named, and
    /// the run's dead-stone and Song settings where they are not the
    /// defaults.
    fn explain_command(&self, r: &Row) -> String {
        let mut cmd = format!(
            "recount explain {} --game {}",
            record_path(r.get("source"), r.get("member")),
            r.get("game")
        );
        // `default` is Japanese, explain's own default too.
        if r.get("rules_source") == "option" {
            cmd += &format!(" --rules {}", r.get("rules"));
        }
        let d = DeadSettings::default();
        let defaults = [
            ("dead_stones", "auto".to_string()),
            ("playouts", d.playouts.to_string()),
            ("seed", d.seed.to_string()),
            ("votes", d.votes.to_string()),
            ("song_eyes", "2".to_string()),
        ];
        for (name, default) in defaults {
            if let Some(v) = self.setting(name).filter(|v| *v != default) {
                cmd += &format!(" --{} {}", name.replace('_', "-"), shell_word(v));
            }
        }
        cmd
    }

    /// The `recount explain --play` command of a `bg_plays.csv` row, with
    /// the run's evaluation settings; none when the run's reports name a
    /// match equity table of its own but not its file (reports written
    /// before `met_file`).
    fn play_command(&self, r: &Row) -> Option<String> {
        let met = self.setting("met")?;
        let met_file = self.setting("met_file").filter(|f| !f.is_empty());
        if met_file.is_none() && met != crate::bg::cube::met::kazaross_xg2().name {
            return None;
        }
        let mut cmd = format!(
            "recount explain {} --game {} --play {}",
            record_path(r.get("source"), r.get("member")),
            r.get("game"),
            r.get("play")
        );
        if let Some(p) = self.setting("plies").filter(|p| *p != "0") {
            cmd += &format!(" --plies {p}");
        }
        if let Some(file) = met_file {
            cmd += &format!(" --met {}", shell_word(file));
        }
        match self.setting("weights") {
            Some(w) if w.starts_with("none") => cmd += " --no-nets",
            Some(w) if !w.starts_with("built-in") => {
                cmd += &format!(" --weights {}", shell_word(w))
            }
            _ => {}
        }
        Some(cmd)
    }

    fn gather_go(&mut self, reports: &Reports) -> Result<(), String> {
        self.go_games = self.read_count("go_games");
        reports.each(Table::GoInterpretations, |r| {
            self.interpretations.push((
                r.get("interpretation").into(),
                r.number("games").unwrap_or(0.0) as u64,
                r.number("winner_differs").unwrap_or(0.0) as u64,
                r.number("mean_abs_difference"),
            ));
        })?;
        let mut scores = Vec::new();
        reports.each(Table::GoScores, |r| {
            let verdict = r.get("verdict");
            *self.verdicts.entry(verdict.into()).or_default() += 1;
            scores.clear();
            scores.extend(SCORES.iter().filter_map(|(_, c)| r.number(c)));
            if let (7, Some(declared)) = (scores.len(), r.number("score_declared")) {
                self.scored += 1;
                for (i, a) in scores.iter().enumerate() {
                    self.vs_declared[i].add(a - declared);
                    for (j, b) in scores.iter().enumerate() {
                        self.winner_pairs[i][j] += u64::from(winner(*a) != winner(*b));
                    }
                }
                let sign = match r.get("recorded_winner") {
                    "B" => Some(1.0),
                    "W" => Some(-1.0),
                    _ => None,
                };
                if let (Some(sign), Some(margin)) = (sign, r.number("recorded_margin")) {
                    self.vs_record.add(declared - sign * margin);
                }
            }
            let mismatch = matches!(verdict, "margin_mismatch" | "winner_flip");
            let contested = r.number("doubtful_stones").is_some_and(|n| n > 0.0);
            if mismatch || contested {
                let game = Listed {
                    game_key: r.get("game_key").into(),
                    cells: [
                        "verdict",
                        "result_raw",
                        "score_declared",
                        "dead_source",
                        "doubtful_stones",
                        "reason",
                    ]
                    .map(|c| r.get(c).to_string())
                    .to_vec(),
                    command: Some(self.explain_command(r)),
                };
                if mismatch {
                    self.mismatches.push(|| game.clone());
                }
                if contested {
                    self.contested.push(|| game);
                }
            }
        })?;
        reports.each(Table::GoZones, |r| {
            *self.zone_status.entry(r.get("status").into()).or_default() += 1;
            if r.get("status") == "solved" {
                if let Some(v) = r.number("difference") {
                    let t = r.get("zone_type").to_string();
                    self.zone_values.entry(t).or_default().add(v);
                }
            }
        })?;
        Ok(())
    }

    fn gather_bg(&mut self, reports: &Reports) -> Result<(), String> {
        self.bg_matches = self.read_count("bg_matches");
        // The matches that repeat an earlier one, by `file_key`: one key
        // a repeated match.
        let mut repeated = BTreeSet::new();
        reports.each(Table::BgGames, |r| {
            self.bg_games += 1;
            if !r.get("duplicate_of").is_empty() {
                repeated.insert(r.get("file_key").to_string());
            }
            *self.endings.entry(r.get("ending").into()).or_default() += 1;
            let kinds = r.get("finding_kinds");
            let mut seen: Vec<&str> = kinds.split(';').filter(|k| !k.is_empty()).collect();
            seen.sort_unstable();
            seen.dedup();
            for k in &seen {
                *self.findings.entry((*k).into()).or_default() += 1;
            }
            if !seen.is_empty() {
                self.finding_games.push(|| Listed {
                    game_key: r.get("game_key").into(),
                    cells: vec![
                        format!("{} – {}", r.get("player_0"), r.get("player_1")),
                        kinds.into(),
                        r.get("finding_details").into(),
                    ],
                    command: None,
                });
            }
        })?;
        reports.each(Table::BgCube, |r| {
            let (doubler, taker) = (r.number("doubler_error"), r.number("taker_error"));
            if doubler.is_none() && taker.is_none() {
                return;
            }
            let mut count = |kind: String, error: f64| {
                let score = match (r.get("away_on_roll"), r.get("away_opponent")) {
                    ("", _) | (_, "") => "money".to_string(),
                    (a, b) => format!("{a}-away / {b}-away"),
                };
                for t in [
                    self.cube_by_type.entry(kind).or_default(),
                    self.cube_by_score.entry(score).or_default(),
                ] {
                    t.decisions += 1;
                    t.errors += u64::from(error > 0.0);
                    t.error += error;
                }
            };
            let action = r.get("actual_action");
            count(format!("doubler: {action}"), doubler.unwrap_or(0.0));
            if action.starts_with("Double, ") {
                count(format!("taker: {action}"), taker.unwrap_or(0.0));
            }
        })?;
        let mut plays = Plays::default();
        reports.each(Table::BgPlays, |r| {
            let key = r.get("game_key");
            let file = key.rsplit_once('#').map_or(key, |(file, _)| file);
            if repeated.contains(file) {
                plays.repeated += 1;
            } else {
                plays.add(r, || self.play_command(r));
            }
        })?;
        self.plays = (plays.rows + plays.repeated > 0).then_some(plays);
        reports.each(Table::BgStats, |r| {
            if r.get("scope") != "player" {
                return;
            }
            self.player_count += 1;
            let n = |c: &str| r.number(c).unwrap_or(0.0) as u64;
            self.players.push(Player {
                key: r.get("player_key").into(),
                name: r.get("player_name").into(),
                matches: n("matches"),
                games: n("games"),
                moves: n("total_moves"),
                error_rate: r.number("error_rate"),
                checker_error_rate: r.number("checker_error_rate"),
                cube_error_rate: r.number("cube_error_rate"),
                pr: r.number("pr"),
                luck_rate: r.number("luck_rate"),
                luck_rating: r.get("luck_rating").into(),
                rating: r.get("overall_rating").into(),
            });
            if self.players.len() > 4 * PLAYERS {
                self.keep_top_players();
            }
        })?;
        self.keep_top_players();
        Ok(())
    }

    /// Keeps the [`PLAYERS`] players with the most moves (then by key).
    fn keep_top_players(&mut self) {
        self.players
            .sort_by(|a, b| b.moves.cmp(&a.moves).then_with(|| a.key.cmp(&b.key)));
        self.players.truncate(PLAYERS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_name_the_record_as_a_shell_reads_it() {
        assert_eq!(record_path("kgs/a.sgf", ""), "kgs/a.sgf");
        assert_eq!(record_path("it's here.sgf", ""), r"'it'\''s here.sgf'");
        assert_eq!(record_path("a.sgf.gz", ""), "a.sgf.gz");
        assert_eq!(
            record_path("k.tar.gz", "2003/a.sgf"),
            "k.tar.gz --member 2003/a.sgf"
        );
        assert_eq!(
            record_path("k.ZIP", "in.7z!/a b.sgf"),
            "k.ZIP --member 'in.7z!/a b.sgf'"
        );
    }

    #[test]
    fn histograms_put_the_far_ends_in_their_end_bins() {
        let mut h = Histogram::default();
        for v in [-40.0, -0.5, 0.4, 2.5, 99.0] {
            h.add(v);
        }
        let bins: Vec<(i64, u64)> = h.bins.into_iter().collect();
        assert_eq!(bins, [(-SPAN, 1), (-1, 1), (0, 1), (3, 1), (SPAN, 1)]);
        assert_eq!(h.total, 5);
    }
}
