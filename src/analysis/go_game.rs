//! The per-game Go row: the record's facts, the replay's counts and the
//! final position.

use crate::go::board::Color;
use crate::go::record::result::parse_result;
use crate::go::record::GoRecord;
use crate::go::replay::Replay;
use crate::go::rules::{self, Rules};
use crate::ingest::Origin;
use crate::report::GoGameRow;

/// Which rules a game was replayed under, and where they came from.
#[derive(Debug, Clone, Copy)]
pub struct RulesUsed {
    pub name: &'static str,
    /// `ru` when read from the record, `default` when `--rules` applied.
    pub source: &'static str,
}

impl RulesUsed {
    /// The rules a game is replayed and scored under: its `RU` when that
    /// names a known preset, else `default` (the `--rules` choice).
    pub fn for_record(record: &GoRecord, default: (&'static str, Rules)) -> (RulesUsed, Rules) {
        match rules::lookup(&record.rules_raw) {
            Some((name, r)) => (RulesUsed { name, source: "ru" }, r),
            None => (
                RulesUsed {
                    name: default.0,
                    source: "default",
                },
                default.1,
            ),
        }
    }
}

/// Builds the `go_games.csv` row of one replayed game.
pub fn go_game_row(
    origin: &Origin,
    game: u32,
    record: &GoRecord,
    rules: RulesUsed,
    replay: &Replay,
) -> GoGameRow {
    let result = parse_result(&record.result_raw);
    let (area_black, area_white) = replay.board.area();
    GoGameRow {
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game,
        board_size: record.size_text(),
        komi: record.komi,
        handicap: record.handicap,
        handicap_stones: record.handicap_stones(),
        rules_raw: record.rules_raw.clone(),
        rules: rules.name.to_string(),
        rules_source: rules.source,
        black: record.black.clone(),
        white: record.white.clone(),
        date: record.date.clone(),
        result_raw: record.result_raw.clone(),
        result_kind: result.kind,
        result_winner: match result.winner {
            Some(Color::Black) => "B",
            Some(Color::White) => "W",
            None => "",
        },
        result_margin: result.margin,
        moves: replay.moves,
        passes: replay.passes,
        captures_by_black: replay.captures[0],
        captures_by_white: replay.captures[1],
        illegal_moves: replay.illegal.len() as u32,
        first_illegal: replay
            .illegal
            .first()
            .map(|f| f.to_string())
            .unwrap_or_default(),
        suicides: replay.suicides,
        moves_after_end: replay.moves_after_end,
        variations_ignored: record.variations_ignored,
        territory_markup: record.markup.is_some(),
        area_black,
        area_white,
        charset: record.charset,
        notes: record.notes.join("; "),
        sgf_check: String::new(),
        final_position: replay.board.encode(),
    }
}
