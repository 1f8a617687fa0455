//! The per-game scoring row: dead stones, each rule interpretation's score,
//! and the audit of the recorded result against the declared rules.

use crate::analysis::go_game::RulesUsed;
use crate::discover::Origin;
use crate::go::board::{Board, Color};
use crate::go::dead::{
    doubt, doubtful_stones, estimate_with_notes, from_markup, hopeless, DeadPolicy, DeadReader,
    DeadSource, EstimateNotes,
};
use crate::go::reconcile::{single_changes, Change};
use crate::go::record::GoRecord;
use crate::go::replay::{sgf_point, stone_count, Replay};
use crate::go::result::{parse_result, EndKind, GameResult};
use crate::go::rules::Rules;
use crate::go::scoring::{count, fmt_points, score, song, traditional, winner, Counts};
use crate::go::song::SongParams;
use crate::go::territory::{settle_refereed, PointKind, Settlement};
use crate::report::rows::{GoScoreRow, SummaryRow};
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
    /// No `RE`, but the record ends with two passes: scored, nothing to
    /// compare with.
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

/// The interpretations computed side by side, in column order.
pub const INTERPRETATIONS: [&str; 7] = [
    "count",
    "japanese",
    "chinese",
    "aga",
    "new_zealand",
    "group_tax",
    "song",
];

/// How to score.
#[derive(Debug, Clone, Copy)]
pub struct ScoreSettings {
    pub dead: DeadPolicy,
    pub playouts: u32,
    /// Mixed into the playouts' seed (`--seed`).
    pub seed: u64,
    pub song: SongParams,
    /// Look for the single changes that would make a mismatch agree
    /// (`--agrees-if`).
    pub agrees_if: bool,
}

/// A scored game: the row and the numbers the run summary adds up.
pub struct Scored {
    pub row: GoScoreRow,
    pub verdict: Verdict,
    pub dead_source: DeadSource,
    /// Each interpretation's score (komi included) and the declared rules'
    /// score, when the game was scored.
    pub scores: Option<([f64; 7], f64)>,
    /// The settled final position, when the game was counted (the endgame
    /// zones read it too, so the estimator runs once).
    pub settlement: Option<Settlement>,
    /// A winner flip whose count is RE's margin for the other colour.
    pub same_margin_flip: bool,
    /// A mismatch whose RE is the count with a surely dead chain left on
    /// the board (`dead_left_on_board`).
    pub dead_left: bool,
}

/// Scores one replayed game under its declared `rules` (from `RU`, or
/// `--rules` when `used.source` says `default`).
pub fn go_score(
    origin: &Origin,
    game: u32,
    record: &GoRecord,
    replay: &Replay,
    rules: Rules,
    used: RulesUsed,
    settings: &ScoreSettings,
) -> Scored {
    let rules_known = used.source == "ru";
    let result = parse_result(&record.result_raw);
    let mut row = GoScoreRow {
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game,
        result_raw: record.result_raw.clone(),
        result_kind: result.kind,
        recorded_winner: letter(result.winner),
        recorded_margin: result.margin,
        rules: used.name.to_string(),
        rules_source: used.source,
        ..GoScoreRow::default()
    };
    let unrecorded = record.result_raw.is_empty() && replay.final_passes >= 2;
    let counted = matches!(result.kind, EndKind::Score | EndKind::Draw);
    // A count with no move and no white stone: the record holds the
    // handicap at most, not the position the players counted.
    let no_game = counted && replay.moves == 0 && replay.board.stone_counts().1 == 0;
    if (!counted && !unrecorded) || no_game {
        row.verdict = Verdict::NotScored;
        row.reason = match result.kind {
            _ if no_game => format!(
                "RE[{}] is a count, but the record holds no move: the counted position is not in it",
                record.result_raw
            ),
            EndKind::Unknown if record.result_raw.is_empty() => "no result (RE) recorded".into(),
            EndKind::Unknown => format!("RE[{}] gives no counted result", record.result_raw),
            k => format!("the game ended by {}", serde_plain(k)),
        };
        return Scored {
            row,
            verdict: Verdict::NotScored,
            dead_source: DeadSource::None,
            scores: None,
            settlement: None,
            same_margin_flip: false,
            dead_left: false,
        };
    }
    let d = decide_dead(record, replay, settings);
    let (s, source) = (d.settle(&replay.board), d.source);
    let counts = Counts {
        captures: replay.captures,
        komi: record.komi.unwrap_or(0.0),
        handicap: record.handicap.unwrap_or(0),
    };
    let scores = interpretations(&s, &counts, settings.song);
    let declared = score(&rules, &s, &counts);
    fill_settlement(&mut row, &s, source);
    row.doubtful_stones = d
        .ownership
        .as_ref()
        .map(|own| doubtful_stones(&replay.board, own));
    row.score_count = Some(scores[0]);
    row.traditional = traditional(scores[0]);
    row.score_japanese = Some(scores[1]);
    row.score_chinese = Some(scores[2]);
    row.score_aga = Some(scores[3]);
    row.score_new_zealand = Some(scores[4]);
    row.score_group_tax = Some(scores[5]);
    let sg = song(&s, &counts, settings.song);
    row.song_lu_black = Some(sg.lu[0]);
    row.song_lu_white = Some(sg.lu[1]);
    row.song_chips_black = Some(sg.chips[0]);
    row.song_chips_white = Some(sg.chips[1]);
    row.song_score = Some(sg.score);
    row.song_score_komi = Some(scores[6]);
    row.song_term_zh = sg.term.chinese();
    row.song_term_en = sg.term.english();
    row.score_declared = Some(declared);
    let (w, margin) = winner(declared);
    row.score_winner = letter(w);
    row.score_margin = Some(margin);
    let verdict = if unrecorded {
        row.reason = "no result (RE) recorded; the game ends with two passes".into();
        Verdict::NoResult
    } else if !rules_known {
        row.reason = format!(
            "RU[{}] names no known rules: scored as {}",
            record.rules_raw, used.name
        );
        Verdict::RulesUnknown
    } else {
        audit(&result, w, margin, &mut row.reason)
    };
    // Chain fates explain a count only where they were decided.
    if settings.agrees_if
        && matches!(verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
        && source != DeadSource::None
    {
        // Only against a recorded score (not `B+` without a margin).
        if let Some(target) = recorded_score(&result) {
            row.agrees_if = agrees_if(&d, &replay.board, &s, &rules, &counts, target);
            row.agrees_if_one_change = Some(!row.agrees_if.is_empty());
        }
    }
    // RE reached only by leaving a surely dead chain on the board: the
    // record's error, whatever the estimate says elsewhere (with no stone
    // taken off, there is none to leave).
    let mut dead_left = false;
    if matches!(verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
        && source != DeadSource::None
    {
        if let Some(target) = recorded_score(&result) {
            if let Some((left, why)) =
                dead_left_on_board(&d, &replay.board, &rules, &counts, target)
            {
                dead_left = true;
                row.reason = join(
                    &row.reason,
                    &format!("RE is the count with {left} left on the board, though {why}"),
                );
            }
        }
    }
    // A margin no count on this board can reach: the record is wrong.
    let board_points = record.width as f64 * record.height as f64;
    let most = board_points + (replay.captures[0] + replay.captures[1]) as f64 + counts.komi.abs();
    if result.margin.is_some_and(|m| m > most) {
        row.reason = join(
            &row.reason,
            "RE margin exceeds what any count on this board can give",
        );
    }
    if record.komi.is_none() {
        row.reason = join(&row.reason, "no komi (KM) recorded: counted as 0");
    }
    row.verdict = verdict;
    Scored {
        row,
        verdict,
        dead_source: source,
        scores: Some((scores, declared)),
        settlement: Some(s),
        same_margin_flip: verdict == Verdict::WinnerFlip
            && for_the_other_colour(&result, w, margin),
        dead_left,
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
fn dead_left_on_board(
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

/// The dead stones of a replayed game as the policy decided them, with the
/// estimator's ownership when it decided (the referee rule reads it).
pub struct DeadStones {
    pub dead: Vec<bool>,
    pub ownership: Option<Vec<f32>>,
    pub source: DeadSource,
    /// The estimator's notes on its corrections (for `recount explain`;
    /// empty unless estimated).
    pub notes: EstimateNotes,
}

impl DeadStones {
    /// Settles `board` with these dead stones.
    pub fn settle(&self, board: &Board) -> Settlement {
        settle_refereed(board, &self.dead, self.ownership.as_deref(), &[])
    }

    /// Settles `board` with another dead-stone map, read as these were,
    /// except that the referee's rule leaves alone the regions of the
    /// chains whose fate differs: the ownership read the other fate.
    fn settle_as(&self, board: &Board, dead: &[bool]) -> Settlement {
        let mut flipped = vec![false; dead.len()];
        for p in board.points().filter(|&p| dead[p] != self.dead[p]) {
            flipped[p] = true;
            for q in board.neighbours(p) {
                flipped[q] = true;
            }
        }
        settle_refereed(board, dead, self.ownership.as_deref(), &flipped)
    }
}

/// Decides the dead stones of a replayed game by the policy.
pub fn decide_dead(record: &GoRecord, replay: &Replay, settings: &ScoreSettings) -> DeadStones {
    let board = &replay.board;
    match (settings.dead, &record.markup) {
        (DeadPolicy::Auto | DeadPolicy::Markup, Some(m)) => DeadStones {
            dead: from_markup(board, m),
            ownership: None,
            source: DeadSource::Markup,
            notes: EstimateNotes::default(),
        },
        (DeadPolicy::Auto | DeadPolicy::Estimate, _) => {
            let (dead, ownership, notes) =
                estimate_with_notes(board, settings.playouts, settings.seed);
            DeadStones {
                dead,
                ownership: Some(ownership),
                source: DeadSource::Estimate,
                notes,
            }
        }
        (DeadPolicy::Markup | DeadPolicy::None, _) => DeadStones {
            dead: vec![false; board.index_len()],
            ownership: None,
            source: DeadSource::None,
            notes: EstimateNotes::default(),
        },
    }
}

/// Decides the dead stones of a replayed game by the policy and settles
/// its final position.
pub fn settle_game(
    record: &GoRecord,
    replay: &Replay,
    settings: &ScoreSettings,
) -> (Settlement, DeadSource) {
    let d = decide_dead(record, replay, settings);
    (d.settle(&replay.board), d.source)
}

/// The recorded result as a score, Black minus White: `None` without a
/// margin.
fn recorded_score(recorded: &GameResult) -> Option<f64> {
    match (recorded.kind, recorded.winner, recorded.margin) {
        (EndKind::Draw, _, _) => Some(0.0),
        (_, Some(Color::Black), Some(m)) => Some(m),
        (_, Some(Color::White), Some(m)) => Some(-m),
        _ => None,
    }
}

/// The single changes that would make the declared rules' count equal
/// `target` (see [`crate::go::reconcile`]), `; `-joined; most doubtful
/// chains first when the estimator decided.
fn agrees_if(
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

/// Every interpretation's score, in [`INTERPRETATIONS`] order (Song with
/// the record's komi).
fn interpretations(s: &Settlement, c: &Counts, song_params: SongParams) -> [f64; 7] {
    let [japanese, chinese, aga, new_zealand, group_tax] =
        RULE_SET_INTERPRETATIONS.map(|(_, r)| score(&r, s, c));
    [
        count(s, c),
        japanese,
        chinese,
        aga,
        new_zealand,
        group_tax,
        song(s, c, song_params).score as f64 - c.komi,
    ]
}

/// The interpretations that are a rule set's own scoring, with their names.
pub const RULE_SET_INTERPRETATIONS: [(&str, Rules); 5] = [
    ("japanese", Rules::JAPANESE),
    ("chinese", Rules::CHINESE),
    ("aga", Rules::AGA),
    ("new_zealand", Rules::NEW_ZEALAND),
    ("group_tax", Rules::STONE_SCORING),
];

fn fill_settlement(row: &mut GoScoreRow, s: &Settlement, source: DeadSource) {
    row.dead_source = source;
    row.dead_black = Some(s.dead[0]);
    row.dead_white = Some(s.dead[1]);
    row.territory_black = Some(s.territory[0]);
    row.territory_white = Some(s.territory[1]);
    row.seki_eyes_black = Some(s.seki_eyes[0]);
    row.seki_eyes_white = Some(s.seki_eyes[1]);
    row.seki_points = Some(s.seki_points);
    row.dame = Some(s.dame);
    row.must_fill_black = Some(s.fills[0]);
    row.must_fill_white = Some(s.fills[1]);
}

/// Whether `RE` names the other winner than the count `w` but the same
/// `margin`: that points at `RE` rather than the count (early KGS records
/// give `B+` whoever won).
fn for_the_other_colour(recorded: &GameResult, w: Option<Color>, margin: f64) -> bool {
    recorded.winner.is_some()
        && w.is_some()
        && recorded.winner != w
        && recorded.margin.is_some_and(|m| (m - margin).abs() < 1e-6)
}

/// Compares the recomputed result with `RE`.
fn audit(recorded: &GameResult, w: Option<Color>, margin: f64, reason: &mut String) -> Verdict {
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

fn letter(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::Black) => "B",
        Some(Color::White) => "W",
        None => "",
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}; {b}")
    }
}

fn serde_plain(k: EndKind) -> &'static str {
    match k {
        EndKind::Resign => "resignation",
        EndKind::Time => "time",
        EndKind::Forfeit => "forfeit",
        EndKind::Void => "a void result",
        _ => "other means",
    }
}

/// Totals over scored games, for `summary.csv`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct ScoreStats {
    /// Games scored (ended by counting, position counted).
    pub scored: u64,
    pub winner_differs: [u64; 7],
    pub abs_difference: [f64; 7],
    pub verdicts: [u64; 6],
    pub dead_sources: [u64; 3],
    /// Mismatches (margin or winner) that one change to the settled
    /// position explains (`agrees_if_one_change`), of those tried.
    pub agrees_if_one_change: u64,
    pub agrees_if_tried: u64,
    /// Mismatches (margin or winner) of estimated games with doubtful
    /// stones (`doubtful_stones` > 0).
    pub mismatch_doubtful: u64,
    /// Winner flips whose count is RE's margin for the other colour.
    pub winner_flip_same_margin: u64,
    /// Mismatches whose RE leaves a dead chain on the board: in atari with
    /// no way out, or captured whoever moves first.
    pub mismatch_dead_left: u64,
}

impl ScoreStats {
    /// The totals of one game.
    pub fn of(s: &Scored) -> ScoreStats {
        let mut t = ScoreStats::default();
        t.verdicts[Verdict::ALL
            .iter()
            .position(|v| *v == s.verdict)
            .unwrap_or(0)] = 1;
        t.agrees_if_one_change = (s.row.agrees_if_one_change == Some(true)) as u64;
        t.agrees_if_tried = s.row.agrees_if_one_change.is_some() as u64;
        t.mismatch_doubtful = (matches!(s.verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
            && s.row.doubtful_stones.is_some_and(|n| n > 0)) as u64;
        t.winner_flip_same_margin = s.same_margin_flip as u64;
        t.mismatch_dead_left = s.dead_left as u64;
        if let Some((scores, declared)) = s.scores {
            t.scored = 1;
            t.dead_sources[s.dead_source as usize] = 1;
            let declared_winner = winner(declared).0;
            for (i, sc) in scores.iter().enumerate() {
                t.winner_differs[i] = (winner(*sc).0 != declared_winner) as u64;
                t.abs_difference[i] = (sc - declared).abs();
            }
        }
        t
    }

    /// The `summary.csv` rows.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        for (i, name) in INTERPRETATIONS.iter().enumerate() {
            rows.push(SummaryRow {
                metric: "interpretation",
                name,
                games: self.scored,
                winner_differs: Some(self.winner_differs[i]),
                mean_abs_difference: (self.scored > 0)
                    .then(|| self.abs_difference[i] / self.scored as f64),
            });
        }
        for (i, v) in Verdict::ALL.iter().enumerate() {
            rows.push(SummaryRow {
                metric: "verdict",
                name: v.name(),
                games: self.verdicts[i],
                ..SummaryRow::default()
            });
        }
        let audit = |name, games| SummaryRow {
            metric: "audit",
            name,
            games,
            ..SummaryRow::default()
        };
        // Only when looked for (`--agrees-if`): 0 would say "none".
        if self.agrees_if_tried > 0 {
            rows.push(audit("agrees_if_tried", self.agrees_if_tried));
            rows.push(audit("agrees_if_one_change", self.agrees_if_one_change));
        }
        rows.push(audit(
            "winner_flip_same_margin",
            self.winner_flip_same_margin,
        ));
        rows.push(audit(
            "mismatch_dead_left_on_board",
            self.mismatch_dead_left,
        ));
        // Only where dead stones were estimated.
        if self.dead_sources[DeadSource::Estimate as usize] > 0 {
            rows.push(audit("mismatch_doubtful", self.mismatch_doubtful));
        }
        for (i, name) in ["markup", "estimate", "none"].iter().enumerate() {
            rows.push(SummaryRow {
                metric: "dead_source",
                name,
                games: self.dead_sources[i],
                ..SummaryRow::default()
            });
        }
        rows
    }
}

impl std::ops::AddAssign for ScoreStats {
    fn add_assign(&mut self, o: ScoreStats) {
        self.scored += o.scored;
        for i in 0..7 {
            self.winner_differs[i] += o.winner_differs[i];
            self.abs_difference[i] += o.abs_difference[i];
        }
        for i in 0..Verdict::ALL.len() {
            self.verdicts[i] += o.verdicts[i];
        }
        for i in 0..3 {
            self.dead_sources[i] += o.dead_sources[i];
        }
        self.agrees_if_one_change += o.agrees_if_one_change;
        self.agrees_if_tried += o.agrees_if_tried;
        self.mismatch_doubtful += o.mismatch_doubtful;
        self.winner_flip_same_margin += o.winner_flip_same_margin;
        self.mismatch_dead_left += o.mismatch_dead_left;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
