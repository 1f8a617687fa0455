//! `recount explain MATCH --game N --play K`: one recorded play of a
//! backgammon match, every legal play of its roll ranked as the analysis
//! ranks them (GNU Backgammon's hint, at `--plies`), and the play's row
//! of `bg_plays.csv` in words, for a person to check by eye or paste
//! into gnubg.

use crate::analysis::bg_cube::CubeSettings;
use crate::analysis::bg_match::read_match;
use crate::analysis::bg_plays::{PlayRater, RankedPlay};
use crate::bg::game::audit::audit_match;
use crate::bg::game::record::MatchRecord;
use crate::bg::game::replay::KeepCube;
use crate::commands::InputError;
use crate::ingest::{Origin, Payload};
use crate::report::BgPlayRow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Explains play `play` of game `game` (both 1-based, as `bg_plays.csv`
/// numbers them) of the match at `path` (or its archive's `member`).
///
/// # Errors
/// A message for a person when the match, game or play cannot be read.
pub fn explain_play(
    path: &Path,
    member: Option<&str>,
    game: u32,
    play: u32,
    settings: &CubeSettings,
) -> Result<String, InputError> {
    let m = read_match_file(path, member)?;
    crate::bg::eval::warm_up(settings.weights.is_some());
    let shown = super::shown(path, member);
    let unusable = |message: String| InputError::Unusable {
        what: shown.clone(),
        message,
    };
    let mut games = Vec::new();
    audit_match(&m, true, KeepCube::Recorded, |g| games.push(g));
    let count = games.len();
    let g = games.get(game as usize - 1).ok_or_else(|| {
        unusable(format!(
            "the match holds {count} game(s); choose one with --game 1..{count}"
        ))
    })?;
    let plays = &g.replayed.positions;
    let pos = plays.iter().find(|p| p.play_no == play).ok_or_else(|| {
        unusable(format!(
            "game {game} holds {} play(s); choose one with --play 1..{}",
            plays.len(),
            plays.len()
        ))
    })?;
    let origin = Origin {
        path: crate::text::escape_path(path),
        member: member.map(str::to_string),
    };
    let (row, ranked) = PlayRater::new(&m, g, settings).explain(&origin, &m, g, pos);

    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(
        w,
        "{shown}, game {game}, play {play} (line {}): {} (player {}) to play {}",
        row.line, row.player_name, row.player, row.dice
    );
    let stakes = match m.length {
        0 => "money play".to_string(),
        n => {
            let s = g.match_score(n);
            let crawford = if s.crawford_game {
                ", Crawford game"
            } else {
                ""
            };
            format!(
                "{n}-point match, score {}-{} (player 0-player 1){crawford}",
                s.score[0], s.score[1]
            )
        }
    };
    let owner = match row.cube_owner {
        None => "centred".to_string(),
        Some(o) => format!("owned by player {o}"),
    };
    let _ = writeln!(w, "{stakes}; cube {} {owner}", row.cube);
    let _ = writeln!(
        w,
        "gnubg ID {}:{} (paste it with `set gnubgid` in gnubg)",
        row.position_id, row.match_id
    );
    let _ = writeln!(w);
    match row.choices {
        None => {
            let _ = writeln!(w, "Not rated: {}", row.reason);
            return Ok(out);
        }
        Some(0) => {
            let _ = writeln!(w, "{} cannot be played: no legal play.\n", row.dice);
        }
        Some(_) => write_ranking(w, &row, &ranked),
    }
    write_verdict(w, &row);
    Ok(out)
}

/// Every legal play, best first, the played one marked.
fn write_ranking(w: &mut String, row: &BgPlayRow, ranked: &[RankedPlay]) {
    let _ = writeln!(
        w,
        "The {} legal plays of {} (distinct positions), as GNU Backgammon's analyse match\n\
         scores them at {}-ply (the mover's equity, normalised; the loss against the best):",
        ranked.len(),
        row.dice,
        row.plies
    );
    let width = ranked
        .iter()
        .map(|r| r.play.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        w,
        "       {:width$}  {:>9}  {:>7}  plies",
        "play", "equity", "loss"
    );
    let best = ranked[0].equity;
    for (i, r) in ranked.iter().enumerate() {
        let mark = if r.played { '*' } else { ' ' };
        let _ = writeln!(
            w,
            "{mark} {:>3}  {:width$}  {:>+9.5}  {:>7.5}  {}",
            i + 1,
            r.play,
            r.equity,
            best - r.equity,
            r.plies
        );
    }
    let _ = writeln!(w, "(* the play recorded)");
    let _ = writeln!(w);
}

/// The play's `bg_plays.csv` figures in words, each as the report writes
/// it.
fn write_verdict(w: &mut String, row: &BgPlayRow) {
    let c = cells(row);
    let cell = |k: &str| c.get(k).map_or("", String::as_str);
    let or_no_mark = |m: &'static str| if m.is_empty() { "no mark" } else { m };
    let played = if row.played.is_empty() {
        NO_PLAY
    } else {
        &row.played
    };
    if cell("loss").is_empty() {
        let _ = writeln!(w, "played {played}: not rated ({})", row.reason);
    } else {
        let _ = write!(
            w,
            "played {played}: rank {} of {}, equity {}, loss {} ({})",
            cell("rank"),
            cell("choices"),
            cell("equity"),
            cell("loss"),
            or_no_mark(row.mark)
        );
        if !cell("loss_mwc").is_empty() {
            let _ = write!(w, ", {} in match winning chances", cell("loss_mwc"));
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(w, "best {}: equity {}", row.best_play, cell("best_equity"));
    if cell("luck").is_empty() {
        let _ = writeln!(w, "luck of {}: not rated", row.dice);
    } else {
        let _ = writeln!(
            w,
            "luck of {}: {} ({}; against the mean of the 36 rolls, at 0-ply)",
            row.dice,
            cell("luck"),
            or_no_mark(row.luck_mark)
        );
    }
}

/// The played column of a roll that cannot be played, in words.
pub const NO_PLAY: &str = "(no legal play)";

/// `row`'s cells by column, formatted as `bg_plays.csv` writes them.
fn cells(row: &BgPlayRow) -> BTreeMap<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(row).expect("a report row serializes");
    let bytes = w.into_inner().expect("writing to memory cannot fail");
    let mut r = csv::Reader::from_reader(&bytes[..]);
    let header = r.headers().expect("the row's header").clone();
    let record = r.records().next().and_then(Result::ok).unwrap_or_default();
    header
        .iter()
        .zip(record.iter())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The match of `path`, or of its archive's `member`, read by a run's own
/// reader (so it is the match a run's rows name).
fn read_match_file(path: &Path, member: Option<&str>) -> Result<MatchRecord, InputError> {
    let (mut found, mut other) = (None, None::<String>);
    super::each_unit(path, &mut |unit| {
        if unit.origin.member.as_deref() != member {
            if let (Some(m), Payload::Match(..)) = (&unit.origin.member, &unit.payload) {
                other.get_or_insert_with(|| m.clone());
            }
            return true;
        }
        found = Some(unit.payload);
        false
    });
    let unusable = |message: String| InputError::Unusable {
        what: super::shown(path, member),
        message,
    };
    match found {
        Some(Payload::Match(format, bytes)) => {
            read_match(format, &bytes).map_err(|e| unusable(e.to_string()))
        }
        Some(Payload::Failed { reason, .. }) => Err(unusable(reason)),
        Some(_) => Err(unusable(
            "a Go record, not a backgammon match: leave out --play (and the backgammon options) \
             to explain its count"
                .into(),
        )),
        None => Err(unusable(match other {
            Some(m) => format!(
                "no backgammon match there; name one with --member, as the reports' member \
                 column does (e.g. --member {m})"
            ),
            None => "no backgammon match in it".into(),
        })),
    }
}
