//! The audit of a counted game: its verdict against `RE` under the
//! declared rules, and the evidence that points at the record rather than
//! the count (a dead chain `RE` leaves on the board, the same margin for
//! the other colour) or at one change to the settled position
//! (`--agrees-if`).

pub mod marking;
pub mod reconcile;

use crate::go::audit::reconcile::{single_changes, Change};
use crate::go::board::{Board, Color};
use crate::go::dead::decide::DeadStones;
use crate::go::dead::{doubt, hopeless, DeadReader};
use crate::go::record::result::{EndKind, GameResult};
use crate::go::record::GoRecord;
use crate::go::replay::Replay;
use crate::go::replay::{sgf_point, stone_count};
use crate::go::rules::{KoRule, Preset, Rules};
use crate::go::score::{fmt_points, score, Counts};
use crate::go::settle::{PointKind, Settlement};
use serde::Serialize;

/// The audit verdict on one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Same winner and margin as `RE`.
    Agrees,
    /// Same winner, another margin.
    MarginMismatch,
    /// The recomputed winner differs from `RE`'s.
    WinnerFlip,
    /// The game did not end by counting (resignation, time…), or the
    /// record does not hold the position counted (a count with no move).
    #[default]
    NotScored,
    /// `RU` absent or unknown: scored under `--rules`, not compared.
    RulesUnknown,
    /// Scored, with nothing to compare: no `RE` but the record ends with
    /// two passes, or under Japanese rules a cycle (triple ko) never
    /// broken makes the game no result.
    NoResult,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [
        Verdict::Agrees,
        Verdict::MarginMismatch,
        Verdict::WinnerFlip,
        Verdict::NotScored,
        Verdict::RulesUnknown,
        Verdict::NoResult,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::MarginMismatch => "margin_mismatch",
            Verdict::WinnerFlip => "winner_flip",
            Verdict::NotScored => "not_scored",
            Verdict::RulesUnknown => "rules_unknown",
            Verdict::NoResult => "no_result",
        }
    }
}

/// The surely dead chains that the count takes off but `RE` leaves on
/// the board: the declared rules' count equals `target` with one of them
/// kept alive. Surely dead: in atari with no way out (`hopeless`), or
/// captured whoever moves first in its closed region while its captors
/// live (`DeadReader`), and then not in a seki once kept (taking it may
/// leave its captors a killing shape: the players' judgement, not their
/// error). Returns the chains in board order, each as `W hk (1 stone)`,
/// several joined by `or`, and why they are dead: `in atari with no way
/// out` when all are, else `captured whoever moves first`. No reading
/// saves such a chain, so there the record is wrong, not the count: the
/// players did not take a dead stone off. A single stone whose capture is
/// a ko is left out: its fate waits on the ko.
pub fn dead_left_on_board(
    d: &DeadStones,
    board: &Board,
    rules: &Rules,
    counts: &Counts,
    target: f64,
) -> Option<(String, &'static str)> {
    let reader = DeadReader::new(board, &d.dead);
    let mut all_in_atari = true;
    let mut left = Vec::new();
    for p in board.chains().filter(|&p| d.dead[p]) {
        // The cheap tests first, the reading last.
        let atari = hopeless(board, p);
        let region = if atari { None } else { reader.region(p) };
        let stones = board.chain_stones(p);
        if (!atari && region.is_none()) || ko_capture(board, &stones) {
            continue;
        }
        let mut dead = d.dead.clone();
        for &q in &stones {
            dead[q] = false;
        }
        let kept = d.settle_as(board, &dead);
        if (score(rules, &kept, counts) - target).abs() >= 1e-6 {
            continue;
        }
        if let Some(region) = region {
            if in_seki(board, &kept, &stones) || !reader.captured(p, &region) {
                continue;
            }
        }
        let (c, (x, y)) = (board.at(p).expect("a stone"), board.xy(p));
        left.push(format!(
            "{} {} ({})",
            c.letter(),
            sgf_point(x, y),
            stone_count(stones.len())
        ));
        all_in_atari &= atari;
    }
    let why = if all_in_atari {
        "in atari with no way out"
    } else {
        "captured whoever moves first"
    };
    (!left.is_empty()).then(|| (left.join(" or "), why))
}

/// Whether the settlement `s` counts the chain `stones` in a seki: a
/// liberty of it is a seki point or a seki eye.
fn in_seki(board: &Board, s: &Settlement, stones: &[usize]) -> bool {
    stones.iter().flat_map(|&q| board.neighbours(q)).any(|l| {
        matches!(
            s.kinds.get(l),
            Some(Some(PointKind::Seki | PointKind::SekiEye(_)))
        )
    })
}

/// Whether taking the one-stone chain `stones` is a ko capture: the
/// capturing stone would touch only the chain's colour (or the edge), so
/// the owner may take back.
fn ko_capture(board: &Board, stones: &[usize]) -> bool {
    let [p] = stones else { return false };
    let (Some(c), Some(l)) = (board.at(*p), board.atari_liberty(*p)) else {
        return false;
    };
    board
        .neighbours(l)
        .iter()
        .all(|&q| q == *p || !board.on_board(q) || board.at(q) == Some(c))
}

/// The recorded result as a score, Black minus White: `None` without a
/// margin.
pub fn recorded_score(recorded: &GameResult) -> Option<f64> {
    match (recorded.kind, recorded.winner, recorded.margin) {
        (EndKind::Draw, _, _) => Some(0.0),
        (_, Some(Color::Black), Some(m)) => Some(m),
        (_, Some(Color::White), Some(m)) => Some(-m),
        _ => None,
    }
}

/// The single changes that would make the declared rules' count equal
/// `target` (see [`crate::go::audit::reconcile`]), `; `-joined; most doubtful
/// chains first when the estimator decided.
pub fn agrees_if(
    d: &DeadStones,
    board: &Board,
    s: &Settlement,
    rules: &Rules,
    counts: &Counts,
    target: f64,
) -> String {
    let how_doubtful = |stones: &[usize]| match &d.ownership {
        Some(own) => doubt(board, own, stones),
        None => 0.0,
    };
    let changes = single_changes(
        board,
        &d.dead,
        s,
        |dead| d.settle_as(board, dead),
        |st| score(rules, st, counts),
        target,
        how_doubtful,
    );
    changes
        .iter()
        .map(Change::describe)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether `RE` names the other winner than the count `w` but the same
/// `margin`: that points at `RE` rather than the count (early KGS records
/// give `B+` whoever won).
pub fn for_the_other_colour(recorded: &GameResult, w: Option<Color>, margin: f64) -> bool {
    recorded.winner.is_some()
        && w.is_some()
        && recorded.winner != w
        && recorded.margin.is_some_and(|m| (m - margin).abs() < 1e-6)
}

/// Compares the recomputed result with `RE`.
pub fn compare(
    recorded: &GameResult,
    w: Option<Color>,
    margin: f64,
    reason: &mut String,
) -> Verdict {
    let recorded_margin = if recorded.kind == EndKind::Draw {
        Some(0.0)
    } else {
        recorded.margin
    };
    if recorded.winner != w {
        let swapped = for_the_other_colour(recorded, w, margin);
        *reason = format!(
            "RE gives {}, the count gives {}{}",
            describe(recorded.winner, recorded_margin),
            describe(w, Some(margin)),
            if swapped {
                ": the same margin, for the other colour"
            } else {
                ""
            }
        );
        Verdict::WinnerFlip
    } else if recorded_margin.is_some_and(|m| (m - margin).abs() > 1e-6) {
        *reason = format!(
            "RE margin {}, counted {}",
            fmt_points(recorded_margin.unwrap_or(0.0)),
            fmt_points(margin)
        );
        Verdict::MarginMismatch
    } else {
        Verdict::Agrees
    }
}

fn describe(w: Option<Color>, margin: Option<f64>) -> String {
    match (w, margin) {
        (None, _) => "a draw".into(),
        (Some(c), Some(m)) => format!("{}+{}", c.letter(), fmt_points(m)),
        (Some(c), None) => format!("{}+", c.letter()),
    }
}

/// Whether a game's count is audited: what its result and record allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Countable {
    /// `RE` is a count or a draw: the count is compared with it.
    Counted,
    /// Counted, with nothing to compare the count with, and why: no `RE`
    /// but the game ends with two passes, or a cycle never broken makes
    /// the game no result under the rules.
    Uncompared(String),
    /// Not counted, and why.
    No(String),
}

impl Countable {
    /// Judges a replayed game by its recorded result and the ko rule of
    /// `rules`, the preset it is scored under.
    pub fn of(record: &GoRecord, replay: &Replay, rules: Preset) -> Countable {
        let result = &record.result;
        let unrecorded = record.result_raw.is_empty() && replay.final_passes >= 2;
        let counted = matches!(result.kind, EndKind::Score | EndKind::Draw);
        // A count with no move and no white stone: the record holds the
        // handicap at most, not the position the players counted.
        let no_game = counted && replay.moves == 0 && replay.board.stone_counts().1 == 0;
        if no_game {
            return Countable::No(format!(
                "RE[{}] is a count, but the record holds no move: the counted position is not in it",
                record.result_raw
            ));
        }
        // Under simple ko nothing forbids a cycle, and one the players
        // never leave ends the game without a result (Japanese rules of
        // 1989, article 12).
        let endless = replay
            .cycle
            .filter(|c| c.broken_at.is_none() && rules.rules().ko == KoRule::Simple);
        if let Some(cycle) = endless.filter(|_| counted || unrecorded) {
            let re = if unrecorded {
                "no result (RE) recorded".to_string()
            } else {
                format!("RE[{}] gives a count", record.result_raw)
            };
            return Countable::Uncompared(format!(
                "{cycle}: under {rules} rules a cycle never broken makes the game no result; {re}"
            ));
        }
        if unrecorded {
            return Countable::Uncompared(
                "no result (RE) recorded; the game ends with two passes".into(),
            );
        }
        if counted {
            return Countable::Counted;
        }
        Countable::No(match result.kind {
            EndKind::Unknown if record.result_raw.is_empty() => "no result (RE) recorded".into(),
            EndKind::Unknown => format!("RE[{}] gives no counted result", record.result_raw),
            k => format!("the game ended by {}", ended_by(k)),
        })
    }
}

/// How a game not counted ended, in words.
fn ended_by(k: EndKind) -> &'static str {
    match k {
        EndKind::Resign => "resignation",
        EndKind::Time => "time",
        EndKind::Forfeit => "forfeit",
        EndKind::Void => "a void result",
        _ => "other means",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::dead::{DeadSource, EstimateNotes};
    use crate::go::settle::territory::settle_refereed;

    #[test]
    fn a_ko_capture_is_told_from_a_plain_one() {
        // The white stone at (1,0) has one liberty, (2,0): a black stone
        // there joins Black's (2,1), so taking it is no ko.
        let plain = Board::from_diagram(
            "X O . O X
             X X X X X",
        );
        let p = plain.index(1, 0);
        assert!(!ko_capture(&plain, &[p]));
        // Here every other neighbour of the liberty (2,0) is White's: a
        // black stone there would have one liberty, at (1,0), once it took
        // the stone: a ko.
        let ko = Board::from_diagram(
            "X O . O .
             . X O . .",
        );
        let p = ko.index(1, 0);
        assert!(ko_capture(&ko, &[p]));
    }

    /// `dead_left_on_board` on `diagram` with the white stone at `stone`
    /// called dead and `RE` the Japanese count with it left on the board.
    fn left_on_board(diagram: &str, stone: (u8, u8)) -> Option<(String, &'static str)> {
        let b = Board::from_diagram(diagram);
        let mut dead = vec![false; b.index_len()];
        dead[b.index(stone.0, stone.1)] = true;
        let d = DeadStones {
            dead,
            ownership: None,
            source: DeadSource::Estimate,
            notes: EstimateNotes::default(),
            vote: None,
            marked: None,
        };
        let counts = Counts {
            captures: [0, 0],
            komi: 0.0,
            handicap: 0,
        };
        let alive = vec![false; b.index_len()];
        let target = score(&Rules::JAPANESE, &d.settle_as(&b, &alive), &counts);
        assert_ne!(target, score(&Rules::JAPANESE, &d.settle(&b), &counts));
        dead_left_on_board(&d, &b, &Rules::JAPANESE, &counts, target)
    }

    #[test]
    fn a_hypothesis_counts_the_flipped_chains_region_as_a_server_does() {
        // The estimate calls the white stone dead and every point inside
        // Black's ring Black's. Kept alive, the stone borders the ring's
        // inside: the referee's rule, reading that ownership, would still
        // give Black the points not touching it; a server counts the whole
        // inside as dame, and so does the hypothesis.
        let b = Board::from_diagram(
            "X X X X X X X
             X . . O . . X
             X . . . . . X
             X X X X X X X",
        );
        let mut dead = vec![false; b.index_len()];
        dead[b.index(3, 1)] = true;
        let d = DeadStones {
            dead,
            ownership: Some(vec![1.0; b.index_len()]),
            source: DeadSource::Estimate,
            notes: EstimateNotes::default(),
            vote: None,
            marked: None,
        };
        let far = b.index(1, 2);
        let kind = |s: &Settlement| s.kinds[far];
        assert_eq!(
            kind(&d.settle(&b)),
            Some(PointKind::Territory(Color::Black))
        );
        let alive = vec![false; b.index_len()];
        let refereed = settle_refereed(&b, &alive, d.ownership.as_deref(), &[]);
        assert_eq!(kind(&refereed), Some(PointKind::Territory(Color::Black)));
        let kept = d.settle_as(&b, &alive);
        assert_eq!(kind(&kept), Some(PointKind::Dame));
        assert_eq!(kept.dame, 9);
    }

    #[test]
    fn a_shut_in_stone_left_on_the_board_is_the_records_error() {
        // Left on the board, the white stone inside Black's ring makes its
        // two liberties dame: Black loses them, the stone's point and the
        // prisoner, 4 points. No reading saves it.
        let left = left_on_board(
            "X X X X X .
             X . O . X .
             X X X X X .
             . . . . . .",
            (2, 1),
        );
        assert_eq!(
            left,
            Some(("W cb (1 stone)".to_string(), "captured whoever moves first"))
        );
        // In atari, it is named as before.
        let left = left_on_board(
            "X X X X . .
             X . O X . .
             X X X X . .
             . . . . . .",
            (2, 1),
        );
        assert_eq!(
            left,
            Some(("W cb (1 stone)".to_string(), "in atari with no way out"))
        );
    }

    #[test]
    fn a_stone_left_in_a_seki_is_the_players_judgement() {
        // Black's chain has no eye: with the white stone on the board the
        // two shared liberties are a seki, which the players may keep
        // whatever the estimate says (taking the stone leaves Black one
        // eye).
        let left = left_on_board(
            "X . O . X O .
             X X X X X O .
             . . O O O O .",
            (2, 0),
        );
        assert_eq!(left, None);
    }
}
