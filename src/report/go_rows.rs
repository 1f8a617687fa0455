//! Row types: one struct per table; field names are the column names,
//! field types the column types (each struct is declared in
//! [`typed_row!`]).

use super::columns::typed_row;
use crate::go::audit::Verdict;
use crate::go::dead::DeadSource;
use crate::go::endgame::position::ZoneStatus;
use crate::go::record::result::EndKind;
use crate::go::rules::RulesSource;
use crate::ingest::Stage;
use serde::Serialize;

typed_row! {
/// One replayed Go game (`go_games.csv`).
#[derive(Debug, Default, Serialize)]
pub struct GoGameRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    /// The file given or found (an archive's own path for its members).
    pub source: String,
    /// The member inside an archive; empty for plain files.
    pub member: String,
    /// 1-based index of the game tree in its file.
    pub game: u32,
    /// `SZ` as SGF writes it: `19`, or `13:2` for a rectangle.
    pub board_size: String,
    pub komi: Option<f64>,
    /// `HA`, empty when absent.
    pub handicap: Option<u32>,
    /// Black setup stones before the first move.
    pub handicap_stones: u32,
    /// `RU` as written.
    pub rules_raw: String,
    /// The preset the game was replayed under (from `RU`, else `--rules`).
    pub rules: &'static str,
    /// Where `rules` came from: `ru` or `default`.
    pub rules_source: RulesSource,
    pub black: String,
    pub white: String,
    /// `BR`, `WR` as written.
    pub black_rank: String,
    pub white_rank: String,
    pub date: String,
    /// `EV`, `RO`, `PC`: event, round, place.
    pub event: String,
    pub round: String,
    pub place: String,
    /// `TM`, `OT`: main time and overtime as written.
    pub time_limit: String,
    pub overtime: String,
    /// `AP`: the program that wrote the file.
    pub program: String,
    /// `RE` as written.
    pub result_raw: String,
    pub result_kind: EndKind,
    /// `B`, `W` or empty.
    pub result_winner: &'static str,
    pub result_margin: Option<f64>,
    /// Move properties on the main line, passes included.
    pub moves: u32,
    pub passes: u32,
    /// White stones Black captured (Black's prisoners).
    pub captures_by_black: u32,
    /// Black stones White captured.
    pub captures_by_white: u32,
    pub illegal_moves: u32,
    /// The first illegal move: number, move, reason and what replay did.
    pub first_illegal: String,
    /// Plays that removed their own stones (legal or not under `rules`).
    pub suicides: u32,
    /// Moves after two consecutive passes (a resumed game).
    pub moves_after_end: u32,
    pub variations_ignored: u32,
    /// `TB`/`TW` territory markup on the final node.
    pub territory_markup: bool,
    /// Tromp–Taylor area of the final position (no stone removed as dead).
    pub area_black: u32,
    pub area_white: u32,
    /// Charset the text was decoded with.
    pub charset: &'static str,
    /// How the record was read: decoding, odd setup, stray bytes (`; `-joined).
    pub notes: String,
    /// With `--check-sgf`: `ok`, or why the strict `sgf-parse` reader
    /// refuses the record; empty otherwise.
    pub sgf_check: String,
    /// Final position: rows from the top joined by `/`; `X` Black, `O`
    /// White, digits a run of empty points.
    pub final_position: String,
    /// The game's key: a hash of its size, setup and moves
    /// ([`crate::go::record::GoRecord::game_id`]).
    pub game_id: String,
    /// The `game_key` of the first row of the run with the same
    /// `game_id`; empty for the first. Filled by the
    /// collector in report order ([`crate::report::duplicates`]): it must
    /// stay the last column.
    pub duplicate_of: String,
}
}

typed_row! {
/// One game's scoring and audit (`go_scores.csv`). Score columns are Black
/// minus White with komi: positive favours Black. They are empty when the
/// game did not end by counting; `reason` then says why.
#[derive(Debug, Default, Serialize)]
pub struct GoScoreRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    pub source: String,
    pub member: String,
    pub game: u32,
    pub result_raw: String,
    pub result_kind: EndKind,
    pub recorded_winner: &'static str,
    pub recorded_margin: Option<f64>,
    /// The declared rules the audit scores under.
    pub rules: &'static str,
    /// `ru` or `default`.
    pub rules_source: RulesSource,
    /// `markup`, `estimate` or `none`.
    pub dead_source: DeadSource,
    pub dead_black: Option<u32>,
    pub dead_white: Option<u32>,
    /// Estimated dead stones only: stones whose fate was a coin flip in
    /// the playouts (see [`crate::go::dead::doubtful_stones`]).
    pub doubtful_stones: Option<u32>,
    /// Estimated dead stones only: `contested` when the vote of estimates
    /// was split or some chain's fate was a coin flip of the playouts,
    /// else `sure`.
    pub certainty: &'static str,
    /// The contested chains (`; `-joined), e.g. `B chain at dg (1 stone)`.
    pub contested_chains: String,
    /// Estimated dead stones of a record with `TB`/`TW`: the chains the
    /// estimate judges otherwise than the players' marking (`; `-joined),
    /// each with its kind of position, e.g. `W chain at dk (2 stones)
    /// dead, marked alive: race`.
    pub marking_differs: String,
    /// Territory points (dead-stone points included, seki eyes excluded).
    pub territory_black: Option<u32>,
    pub territory_white: Option<u32>,
    pub seki_eyes_black: Option<u32>,
    pub seki_eyes_white: Option<u32>,
    pub seki_points: Option<u32>,
    pub dame: Option<u32>,
    /// Territory points each side must fill once the dame are filled
    /// (not counted under territory scoring).
    pub must_fill_black: Option<u32>,
    pub must_fill_white: Option<u32>,
    /// Modern count: territory + prisoners, minus komi.
    pub score_count: Option<f64>,
    /// The count stated favouring a player.
    pub traditional: String,
    pub score_japanese: Option<f64>,
    pub score_chinese: Option<f64>,
    pub score_aga: Option<f64>,
    pub score_new_zealand: Option<f64>,
    /// Area scoring, 2 points per independent living area.
    pub score_stone_scoring: Option<f64>,
    pub song_lu_black: Option<u32>,
    pub song_lu_white: Option<u32>,
    pub song_chips_black: Option<u32>,
    pub song_chips_white: Option<u32>,
    /// Song score without komi (the period had none).
    pub song_score: Option<i64>,
    /// Song score with the record's komi.
    pub song_score_komi: Option<f64>,
    pub song_term_zh: &'static str,
    pub song_term_en: &'static str,
    /// The score under the declared rules.
    pub score_declared: Option<f64>,
    pub score_winner: &'static str,
    pub score_margin: Option<f64>,
    pub verdict: Verdict,
    /// For a margin mismatch or a winner flip: whether one change to the
    /// settled position (one chain's fate, or the must-fill rule) makes
    /// the count agree with `RE`.
    pub agrees_if_one_change: Option<bool>,
    /// Those changes, most doubtful first (at most 3, `; `-joined), e.g.
    /// `W chain at qd (3 stones) alive`.
    pub agrees_if: String,
    pub reason: String,
    /// As in `go_games.csv`.
    pub game_id: String,
}
}

typed_row! {
/// One endgame zone of a position (`go_zones.csv`): its followers and the
/// four move values of seed `go-endgame-count-and-move-values.txt`.
#[derive(Debug, Default, Serialize)]
pub struct GoZoneRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    pub source: String,
    pub member: String,
    /// 1-based game of the file (1 for a diagram).
    pub game: u32,
    /// The position is the one after this move (0 for a diagram).
    pub move_number: u32,
    /// 1-based, in board order of each zone's first point.
    pub zone_id: u32,
    /// The zone's points as SGF writes them, space separated.
    pub zone_points: String,
    pub size: u32,
    pub empty_points: u32,
    /// `solved`, `territory` (fenced by one colour: nothing to play) or
    /// `not_searched` (see `reason`).
    pub status: ZoneStatus,
    /// Why the zone was not searched, or why a value of a solved zone is
    /// empty (`naive_sum`, `modern_value`).
    pub reason: String,
    /// Counts of the black and white followers (Black's points minus
    /// White's in the zone).
    pub black_count: Option<i32>,
    pub white_count: Option<i32>,
    /// Best lines as SGF moves, starter first (`W[]` a local pass).
    pub black_sequence: String,
    pub white_sequence: String,
    /// (B − W moves in the black sequence) − (B − W moves in the white one).
    pub tally: Option<i32>,
    /// Black follower's count − white follower's count.
    pub difference: Option<i32>,
    /// The traditional sum of values favouring each starter; empty when
    /// a follower favours the other player (said in `reason`).
    pub naive_sum: Option<i32>,
    /// The sum with negative values allowed.
    pub corrected_sum: Option<i32>,
    /// difference ÷ tally to 4 decimals; empty when the tally is not
    /// positive.
    pub modern_value: Option<f64>,
    /// `settled`, `gote`, `black_sente`, `white_sente`, `double_sente`.
    pub zone_type: &'static str,
    /// Who plays reverse sente here (`black`/`white`), if anyone.
    pub reverse_sente: &'static str,
    /// Mean of the followers' counts (the zone's count).
    pub mean_count: Option<f64>,
    /// Search nodes (local positions and capture reading).
    pub nodes: u64,
    /// Search time, with `--zone-timing` only (times vary between runs).
    pub search_ms: Option<f64>,
    /// The position's fixed part: settled territory and prisoners so far.
    pub base_count: Option<i32>,
    /// The game's count at its end (territory scoring, no komi).
    pub final_count: Option<i32>,
    /// A diagram's numbered sequences played out, and whether the search
    /// agrees with them.
    pub given_black_sequence: String,
    pub given_black_count: Option<i32>,
    pub given_black_check: String,
    pub given_white_sequence: String,
    pub given_white_count: Option<i32>,
    pub given_white_check: String,
    /// As in `go_games.csv`.
    pub game_id: String,
}
}

typed_row! {
/// Run totals (`summary.csv`): one row per thing counted, every count a
/// whole number of `unit`s.
#[derive(Debug, Default, Serialize)]
pub struct SummaryRow {
    /// What is counted: `read` (files, games, error rows), `verdict`,
    /// `audit`, `dead_source` (Go); `go_zone_status`, `go_zone_type`
    /// (endgame zones); `bg_ending`, `bg_finding` (backgammon); `run` (a
    /// run that stopped early).
    pub metric: &'static str,
    pub name: &'static str,
    pub count: u64,
    /// `files`, `games`, `matches`, `zones`, `rows` or `records`.
    pub unit: &'static str,
}
}

impl SummaryRow {
    pub fn new(metric: &'static str, name: &'static str, count: u64, unit: &'static str) -> Self {
        SummaryRow {
            metric,
            name,
            count,
            unit,
        }
    }
}

typed_row! {
/// One rule interpretation over the run's scored Go games
/// (`go_interpretations.csv`), against the declared rules' count.
#[derive(Debug, Default, Serialize)]
pub struct GoInterpretationRow {
    /// `count`, `japanese`, `chinese`, `aga`, `new_zealand`,
    /// `stone_scoring` or `song`.
    pub interpretation: &'static str,
    /// Games scored (all of them have a score under every interpretation).
    pub games: u64,
    /// Games whose winner under this interpretation differs from the
    /// winner under the declared rules.
    pub winner_differs: u64,
    /// The sum of |score − declared rules' score| over the games, in
    /// points (exact: scores are whole or half points), and its mean
    /// rounded to four decimals; the mean empty without games.
    pub total_abs_difference: f64,
    pub mean_abs_difference: Option<f64>,
}
}

typed_row! {
/// One setting the run's reports were made with (`settings.csv`), named as
/// its command-line option (`seed`, `dead_stones`...), so a run, or one
/// game of it (`recount explain`), can be made again.
#[derive(Debug, Default, PartialEq, Serialize)]
pub struct SettingRow {
    pub setting: String,
    pub value: String,
}
}

typed_row! {
/// A file, archive member or game that could not be read (`errors.csv`).
#[derive(Debug, Default, Serialize)]
pub struct ErrorRow {
    /// The file's key (`source`, and `/member` inside an archive).
    pub file_key: String,
    pub source: String,
    pub member: String,
    /// 1-based game index, empty when the whole file failed.
    pub game: Option<u32>,
    /// Where it failed.
    pub stage: Stage,
    pub reason: String,
}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{RowBuf, Table};
    use crate::text::single_line;

    #[test]
    fn rows_are_one_line_each() {
        let mut b = RowBuf::default();
        let row = ErrorRow {
            stage: crate::ingest::Stage::Parse,
            reason: single_line("two\r\nlines, \"quoted\""),
            ..ErrorRow::default()
        };
        b.push(Table::Errors, &row);
        assert_eq!(
            std::str::from_utf8(b.bytes(Table::Errors)).unwrap(),
            ",,,,parse,\"two  lines, \"\"quoted\"\"\"\n"
        );
    }
}
