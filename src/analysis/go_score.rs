//! The per-game scoring row: dead stones, each rule interpretation's score,
//! and the audit's verdict and evidence (`audit.rs`) against `RE`; a vote
//! of independent estimates with `--votes` (`vote.rs`).

use crate::analysis::sum::ExactSum;
use crate::go::audit::marking::{certainty, marking_differs, Differs};
use crate::go::audit::{
    agrees_if, compare, dead_left_on_board, for_the_other_colour, recorded_score, Countable,
    Verdict,
};
use crate::go::dead::decide::DeadStones;
use crate::go::dead::vote::Tally;
use crate::go::game::Game;

use crate::go::board::Color;
use crate::go::dead::{doubtful_stones, DeadSource};
use crate::go::rules::{Preset, RulesSource, Ties};
use crate::go::score::song::SongParams;
use crate::go::score::{count, score, song, traditional, winner, Counts};
use crate::go::settle::Settlement;
use crate::ingest::Origin;
use crate::report::go_rows::{GoInterpretationRow, GoScoreRow, SummaryRow};
use crate::report::keys::game_key;

/// One way of reading a settled position's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpretation {
    /// The modern count of seed `go-endgame-count-and-move-values.txt`.
    Count,
    /// A preset's own scoring (Song's with `--song-eyes`).
    Rules(Preset),
}

impl Interpretation {
    /// The name `summary.csv` writes: `count`, or the preset's name.
    pub fn name(self) -> &'static str {
        match self {
            Interpretation::Count => "count",
            Interpretation::Rules(p) => p.name(),
        }
    }
}

/// The interpretations computed side by side, in column order.
pub const INTERPRETATIONS: [Interpretation; 7] = [
    Interpretation::Count,
    Interpretation::Rules(Preset::Japanese),
    Interpretation::Rules(Preset::Chinese),
    Interpretation::Rules(Preset::Aga),
    Interpretation::Rules(Preset::NewZealand),
    Interpretation::Rules(Preset::StoneScoring),
    Interpretation::Rules(Preset::Song),
];

/// How to score.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScoreSettings {
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
    /// A winner flip whose count is RE's margin for the other colour.
    pub same_margin_flip: bool,
    /// With `--agrees-if`, for a mismatch: whether one change explains it.
    pub agrees_if: Option<bool>,
    /// The estimator left some stone doubtful.
    pub doubtful: bool,
    /// A mismatch whose RE is the count with a surely dead chain left on
    /// the board (`dead_left_on_board`).
    pub dead_left: bool,
    /// With `--votes` above 1, for an estimated game: whether its vote
    /// was split.
    pub split_vote: Option<bool>,
}

/// The scoring row of one computed game under its declared rules (from
/// `RU`, or `--rules` when `rules_source` says `default`); its end must be
/// settled when it is countable ([`Game::compute`] with `count`).
pub fn go_score(origin: &Origin, index: u32, g: &Game, settings: &ScoreSettings) -> Scored {
    let (record, replay, rules, used) = (&g.record, &g.replay, g.rules, &g.rules_used);
    let rules_known = used.source != RulesSource::Default;
    let result = record.result;
    let mut row = GoScoreRow {
        game_key: game_key(origin, index),
        source: origin.path.clone(),
        member: origin.member.clone().unwrap_or_default(),
        game: index,
        result_raw: record.result_raw.clone(),
        result_kind: result.kind,
        recorded_winner: letter(result.winner),
        recorded_margin: result.margin,
        rules: used.preset.name(),
        rules_source: used.source,
        game_id: g.game_id.clone(),
        ..GoScoreRow::default()
    };
    let (uncompared, end) = match (&g.countable, &g.end) {
        (Countable::No(reason), _) => {
            row.verdict = Verdict::NotScored;
            row.reason = reason.clone();
            return Scored {
                row,
                verdict: Verdict::NotScored,
                dead_source: DeadSource::None,
                scores: None,
                same_margin_flip: false,
                agrees_if: None,
                doubtful: false,
                dead_left: false,
                split_vote: None,
            };
        }
        (Countable::Uncompared(why), Some(end)) => (Some(why), end),
        (Countable::Counted, Some(end)) => (None, end),
        (_, None) => unreachable!("a countable game's end is settled before scoring"),
    };
    let (d, s) = (&end.dead, &end.settlement);
    let source = d.source;
    let counts = g.counts;
    let scores = interpretations(s, &counts, settings.song);
    // Song's declared score is its reading of Lu and chips (with
    // `--song-eyes`), the interpretation's own.
    let declared = match used.preset {
        Preset::Song => scores[6],
        _ => score(&rules, s, &counts),
    };
    fill_settlement(&mut row, s, source);
    row.doubtful_stones = d
        .ownership
        .as_ref()
        .map(|own| doubtful_stones(&replay.board, own));
    if source == DeadSource::Estimate {
        let (word, chains) = certainty(&replay.board, d, s);
        row.certainty = word;
        row.contested_chains = chains.join("; ");
        if let Some(m) = &record.markup {
            let marking = DeadStones::marked(&replay.board, m);
            let marked = marking.settle(&replay.board);
            row.marking_differs = marking_differs(&replay.board, d, s, &marking, &marked)
                .iter()
                .map(Differs::describe)
                .collect::<Vec<_>>()
                .join("; ");
        }
    }
    row.score_count = Some(scores[0]);
    row.traditional = traditional(scores[0]);
    row.score_japanese = Some(scores[1]);
    row.score_chinese = Some(scores[2]);
    row.score_aga = Some(scores[3]);
    row.score_new_zealand = Some(scores[4]);
    row.score_stone_scoring = Some(scores[5]);
    let sg = song(s, &counts, settings.song);
    row.song_lu_black = Some(sg.lu[0]);
    row.song_lu_white = Some(sg.lu[1]);
    row.song_chips_black = Some(sg.chips[0]);
    row.song_chips_white = Some(sg.chips[1]);
    row.song_score = Some(sg.score);
    row.song_score_komi = Some(scores[6]);
    row.song_term_zh = sg.term.chinese();
    row.song_term_en = sg.term.english();
    row.score_declared = Some(declared);
    let (w, margin) = match winner(declared) {
        // Ing's komi convention: a tie is Black's in an even game, White's
        // in a handicap game.
        (None, m) if rules.ties == Ties::Ing => {
            let handicap = counts.handicap >= 2;
            (Some(if handicap { Color::White } else { Color::Black }), m)
        }
        decided => decided,
    };
    row.score_winner = letter(w);
    row.score_margin = Some(margin);
    let verdict = if let Some(why) = uncompared {
        row.reason = why.clone();
        Verdict::NoResult
    } else if !rules_known {
        let what = if record.rules_raw.trim().is_empty() {
            "no RU".to_string()
        } else {
            format!("RU[{}] names no known rules", record.rules_raw)
        };
        row.reason = format!(
            "{what}: scored as {}, not audited (give --rules with the rules played to audit it)",
            used.preset
        );
        Verdict::RulesUnknown
    } else {
        compare(&result, w, margin, &mut row.reason)
    };
    // The recorded score a mismatch is explained against: chain fates
    // explain a count only where they were decided, and only a recorded
    // score (not `B+` without a margin) can be reached.
    let explained = matches!(verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
        && source != DeadSource::None;
    let target = recorded_score(&result).filter(|_| explained);
    let mut dead_left = false;
    if let Some(target) = target {
        if settings.agrees_if {
            row.agrees_if = agrees_if(d, &replay.board, s, &rules, &counts, target);
            row.agrees_if_one_change = Some(!row.agrees_if.is_empty());
        }
        // RE reached only by leaving a surely dead chain on the board: the
        // record's error, whatever the estimate says elsewhere (with no
        // stone taken off, there is none to leave).
        if let Some((left, why)) = dead_left_on_board(d, &replay.board, &rules, &counts, target) {
            dead_left = true;
            row.reason = join(
                &row.reason,
                &format!("RE is the count with {left} left on the board, though {why}"),
            );
        }
    }
    // A mismatch counted with every stone alive says so: it is the option,
    // not the record, that took no stone off.
    if matches!(verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
        && source == DeadSource::None
    {
        let why = if record.markup.is_none() {
            "no dead stones taken off: the record has no TB/TW markup and --dead-stones \
             asked for no estimate"
        } else {
            "no dead stones taken off (--dead-stones none)"
        };
        row.reason = join(&row.reason, why);
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
        let why = if record.komi_raw.is_empty() {
            "no komi (KM) recorded: counted as 0".to_string()
        } else {
            format!("KM[{}] is not a number: counted as 0", record.komi_raw)
        };
        row.reason = join(&row.reason, &why);
    }
    // First, so that the audit's reasons keep their ends (README, Audit).
    if let Some(t) = d.vote.as_ref().filter(|t| t.split()) {
        row.reason = join(
            &format!(
                "a split vote: {} of {} estimates give this count",
                t.for_it,
                t.cast()
            ),
            &row.reason,
        );
    }
    row.verdict = verdict;
    let (agrees_if, doubtful) = (
        row.agrees_if_one_change,
        row.doubtful_stones.is_some_and(|n| n > 0),
    );
    Scored {
        row,
        verdict,
        dead_source: source,
        scores: Some((scores, declared)),
        same_margin_flip: verdict == Verdict::WinnerFlip
            && for_the_other_colour(&result, w, margin),
        agrees_if,
        doubtful,
        dead_left,
        split_vote: d.vote.as_ref().map(Tally::split),
    }
}

/// Every interpretation's score, in [`INTERPRETATIONS`] order (Song with
/// the record's komi).
fn interpretations(s: &Settlement, c: &Counts, song_params: SongParams) -> [f64; 7] {
    let [japanese, chinese, aga, new_zealand, stone_scoring] =
        RULE_SET_INTERPRETATIONS.map(|p| score(&p.rules(), s, c));
    [
        count(s, c),
        japanese,
        chinese,
        aga,
        new_zealand,
        stone_scoring,
        song(s, c, song_params).score as f64 - c.komi,
    ]
}

/// The interpretations counted by [`score`] with a preset's settings (Song
/// has its own arithmetic of Lu and chips, [`mod@song`]).
pub const RULE_SET_INTERPRETATIONS: [Preset; 5] = [
    Preset::Japanese,
    Preset::Chinese,
    Preset::Aga,
    Preset::NewZealand,
    Preset::StoneScoring,
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

fn letter(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::Black) => "B",
        Some(Color::White) => "W",
        None => "",
    }
}

/// Two reasons as one, `; ` between them when both say something.
fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (false, true) => a.to_string(),
        (false, false) => format!("{a}; {b}"),
    }
}

/// Totals over scored games, for `summary.csv`.
#[derive(Debug, Default, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScoreStats {
    /// Games scored (ended by counting, position counted).
    pub scored: u64,
    pub winner_differs: [u64; 7],
    pub abs_difference: [ExactSum; 7],
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
    /// Scored games whose dead stones a vote of estimates decided
    /// (`--votes`, held where the first estimate contests a stone), and
    /// those whose vote was split.
    pub votes_held: u64,
    pub votes_split: u64,
}

impl ScoreStats {
    /// The totals of one game.
    pub fn of(s: &Scored) -> ScoreStats {
        let mut t = ScoreStats::default();
        t.verdicts[Verdict::ALL
            .iter()
            .position(|v| *v == s.verdict)
            .unwrap_or(0)] = 1;
        t.agrees_if_one_change = (s.agrees_if == Some(true)) as u64;
        t.agrees_if_tried = s.agrees_if.is_some() as u64;
        t.mismatch_doubtful = (matches!(s.verdict, Verdict::MarginMismatch | Verdict::WinnerFlip)
            && s.doubtful) as u64;
        t.winner_flip_same_margin = s.same_margin_flip as u64;
        t.mismatch_dead_left = s.dead_left as u64;
        if let Some(split) = s.split_vote {
            t.votes_held = 1;
            t.votes_split = split as u64;
        }
        if let Some((scores, declared)) = s.scores {
            t.scored = 1;
            t.dead_sources[s.dead_source as usize] = 1;
            let declared_winner = winner(declared).0;
            for (i, sc) in scores.iter().enumerate() {
                t.winner_differs[i] = (winner(*sc).0 != declared_winner) as u64;
                t.abs_difference[i].add((sc - declared).abs());
            }
        }
        t
    }

    /// The `go_interpretations.csv` rows, one per interpretation.
    pub fn interpretation_rows(&self) -> Vec<GoInterpretationRow> {
        INTERPRETATIONS
            .iter()
            .enumerate()
            .map(|(i, interpretation)| GoInterpretationRow {
                interpretation: interpretation.name(),
                games: self.scored,
                winner_differs: self.winner_differs[i],
                total_abs_difference: self.abs_difference[i].value(),
                mean_abs_difference: (self.scored > 0).then(|| {
                    let mean = self.abs_difference[i].value() / self.scored as f64;
                    (mean * 1e4).round() / 1e4
                }),
            })
            .collect()
    }

    /// The `summary.csv` rows: verdicts, audit counts, dead-stone sources.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        for (i, v) in Verdict::ALL.iter().enumerate() {
            rows.push(SummaryRow::new(
                "verdict",
                v.name(),
                self.verdicts[i],
                "games",
            ));
        }
        let audit = |name, games| SummaryRow::new("audit", name, games, "games");
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
        // Only where some vote was held (`--votes` above 1).
        if self.votes_held > 0 {
            rows.push(audit("votes_held", self.votes_held));
            rows.push(audit("votes_split", self.votes_split));
        }
        for (i, source) in DeadSource::ALL.iter().enumerate() {
            rows.push(SummaryRow::new(
                "dead_source",
                source.name(),
                self.dead_sources[i],
                "games",
            ));
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
        self.votes_held += o.votes_held;
        self.votes_split += o.votes_split;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_difference_is_summed_exactly_and_its_mean_rounded() {
        let mut t = ScoreStats {
            scored: 3,
            ..ScoreStats::default()
        };
        for d in [0.5, 0.0, 1.0] {
            t.abs_difference[0].add(d);
        }
        let row = &t.interpretation_rows()[0];
        assert_eq!(row.total_abs_difference, 1.5);
        assert_eq!(row.mean_abs_difference, Some(0.5));
        t.abs_difference[0].add(0.5);
        // 2/3 of a point.
        assert_eq!(t.interpretation_rows()[0].mean_abs_difference, Some(0.6667));
        let none = ScoreStats::default().interpretation_rows();
        assert_eq!(
            (none[0].total_abs_difference, none[0].mean_abs_difference),
            (0.0, None)
        );
    }
}
