//! The per-game Go row: the record's facts, the replay's counts and the
//! final position.

use crate::go::board::Color;
use crate::go::game::Game;
use crate::ingest::Origin;
use crate::report::keys::game_key;
use crate::report::GoGameRow;

/// Builds the `go_games.csv` row of one replayed game.
pub fn go_game_row(origin: &Origin, index: u32, g: &Game) -> GoGameRow {
    let (record, replay, rules) = (&g.record, &g.replay, &g.rules_used);
    let result = record.result;
    let (area_black, area_white) = replay.board.area();
    GoGameRow {
        game_key: game_key(origin, index),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: index,
        board_size: record.size_text(),
        komi: record.komi,
        handicap: record.handicap,
        handicap_stones: record.handicap_stones(),
        rules_raw: record.rules_raw.clone(),
        rules: rules.preset.name(),
        rules_source: rules.source,
        black: record.black.clone(),
        white: record.white.clone(),
        black_rank: record.black_rank.clone(),
        white_rank: record.white_rank.clone(),
        date: record.date.clone(),
        event: record.event.clone(),
        round: record.round.clone(),
        place: record.place.clone(),
        time_limit: record.time_limit.clone(),
        overtime: record.overtime.clone(),
        program: record.program.clone(),
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
        notes: notes(g),
        sgf_check: String::new(),
        final_position: replay.board.encode(),
        game_id: g.game_id.clone(),
        duplicate_of: String::new(),
    }
}

/// The record's notes, how `RU` was read, then the replay's: a cycle of
/// positions under simple ko (under superko each repetition is an
/// illegal move instead).
fn notes(g: &Game) -> String {
    let mut notes = g.record.notes.clone();
    notes.extend(g.rules_used.note.clone());
    notes.extend(g.replay.cycle.map(|c| c.to_string()));
    notes.join("; ")
}
