//! Counting a settled position under each rule interpretation.
//!
//! Every interpretation reads the same [`Settlement`] and prisoner counts;
//! a [`Rules`] value's settings (scoring, tax, handicap bonus) drive the
//! arithmetic, so a rule set's score is found by its preset name. Scores are
//! Black minus White, komi included: positive means Black wins.

pub mod song;

use crate::go::board::Color;
use crate::go::record::GoRecord;
use crate::go::replay::Replay;
use crate::go::rules::{HandicapBonus, Rules, Scoring, Tax};
use crate::go::score::song::{song_score, SongParams, SongScore, SongSide};
use crate::go::settle::Settlement;

/// What counting needs besides the settled board.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counts {
    /// Stones captured during play: `[by Black, by White]`.
    pub captures: [u32; 2],
    pub komi: f64,
    /// Handicap stones (0 for an even game).
    pub handicap: u32,
}

impl Counts {
    /// The numbers of a replayed game: the prisoners taken in the replay,
    /// the record's komi (0 when absent) and handicap.
    pub fn of(record: &GoRecord, replay: &Replay) -> Counts {
        Counts {
            captures: replay.captures,
            komi: record.komi.unwrap_or(0.0),
            handicap: record.handicap.unwrap_or(0),
        }
    }
}

/// Each side's points under `rules`, before komi and handicap bonus.
pub fn points(rules: &Rules, s: &Settlement, captures: [u32; 2]) -> [f64; 2] {
    let mut pts = [0.0; 2];
    for (i, p) in pts.iter_mut().enumerate() {
        let (own, other) = (i, 1 - i);
        *p = match rules.scoring {
            // The group tax under territory scoring is the Song-dynasty
            // reading (seed `song-dynasty-lu-and-chips-scoring.txt`): each
            // independent living group keeps two basic eyes, which count
            // nothing; what is left of a side's territory cannot go below
            // nothing.
            Scoring::Territory if rules.tax == Tax::All => {
                let territory = s.territory[own] + s.seki_eyes[own];
                (territory.saturating_sub(2 * s.areas[own]) + captures[own] + s.dead[other]) as f64
            }
            Scoring::Territory => {
                let eyes = if rules.tax == Tax::None {
                    s.seki_eyes[own]
                } else {
                    0
                };
                (s.territory[own] + eyes + captures[own] + s.dead[other]) as f64
            }
            Scoring::Area => {
                let area = s.stones[own] + s.territory[own] + s.seki_eyes[own] + s.fills[own];
                let tax = if rules.tax == Tax::All {
                    2 * s.areas[own]
                } else {
                    0
                };
                area as f64 - tax as f64
            }
        };
    }
    pts
}

/// The extra points White receives for a handicap under `rules`.
pub fn handicap_bonus(rules: &Rules, handicap: u32) -> f64 {
    if handicap < 2 {
        return 0.0;
    }
    match rules.white_handicap_bonus {
        HandicapBonus::Zero => 0.0,
        HandicapBonus::NMinusOne => (handicap - 1) as f64,
        HandicapBonus::N => handicap as f64,
    }
}

/// Black minus White under `rules`, komi and handicap bonus included.
pub fn score(rules: &Rules, s: &Settlement, c: &Counts) -> f64 {
    let [b, w] = points(rules, s, c.captures);
    b - w - c.komi - handicap_bonus(rules, c.handicap)
}

/// The modern count of the seed `go-endgame-count-and-move-values.txt`:
/// Black's points minus White's, points being territory plus prisoners
/// (dead stones included), minus komi. Seki eyes count as territory here;
/// the Japanese interpretation is the one that taxes them.
pub fn count(s: &Settlement, c: &Counts) -> f64 {
    let [b, w] = count_points(s, c);
    (b as f64) - (w as f64) - c.komi
}

/// Each side's points for [`count`]: territory + seki eyes + captures +
/// the opponent's dead stones.
pub fn count_points(s: &Settlement, c: &Counts) -> [u32; 2] {
    [0, 1].map(|i| s.territory[i] + s.seki_eyes[i] + c.captures[i] + s.dead[1 - i])
}

/// The traditional statement of a count, favouring a player (same seed):
/// "Black has 3 points more than White", "White has 2.5 points more than
/// Black", or "0".
pub fn traditional(count: f64) -> String {
    if count == 0.0 {
        return "0".into();
    }
    let (more, less) = if count > 0.0 {
        ("Black", "White")
    } else {
        ("White", "Black")
    };
    let x = count.abs();
    let unit = if x == 1.0 { "point" } else { "points" };
    format!("{more} has {} {unit} more than {less}", fmt_points(x))
}

/// A point value as people write it: `3`, `6.5`.
pub fn fmt_points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// Song-dynasty Lu and chips (see [`mod@crate::go::score::song`]).
pub fn song(s: &Settlement, c: &Counts, params: SongParams) -> SongScore {
    let side = |i: usize| SongSide {
        territory: s.territory[i] + s.seki_eyes[i],
        prisoners: c.captures[i] + s.dead[1 - i],
        groups: s.areas[i],
    };
    song_score(side(0), side(1), params)
}

/// Winner and margin of a signed score; `None` winner for a draw.
pub fn winner(score: f64) -> (Option<Color>, f64) {
    if score > 0.0 {
        (Some(Color::Black), score)
    } else if score < 0.0 {
        (Some(Color::White), -score)
    } else {
        (None, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;
    use crate::go::settle::territory::settle;

    /// 9×3 board: Black lives on the left with 4 points of territory (one
    /// under a dead white stone); White on the right with 4 points; 3 dame.
    fn position() -> Settlement {
        let b = Board::from_diagram(
            ". X O X . O . O .
             X X X X . O O O O
             . X . X . O . O .",
        );
        let mut dead = vec![false; b.index_len()];
        dead[b.index(2, 0)] = true;
        settle(&b, &dead)
    }

    #[test]
    fn rule_sets_count_their_own_way() {
        let s = position();
        assert_eq!(
            (s.territory, s.dead, s.stones, s.dame),
            ([4, 4], [0, 1], [8, 8], 3)
        );
        let c = Counts {
            captures: [2, 1],
            komi: 6.5,
            handicap: 0,
        };
        // Territory: Black 4 + 2 captures + 1 dead = 7; White 4 + 1 = 5.
        assert_eq!(score(&Rules::JAPANESE, &s, &c), 7.0 - 5.0 - 6.5);
        assert_eq!(count(&s, &c), -4.5);
        // Area: Black 8 + 4 = 12, White 8 + 4 = 12.
        assert_eq!(score(&Rules::CHINESE, &s, &c), -6.5);
        // Group tax: one area each, 2 points each.
        assert_eq!(score(&Rules::STONE_SCORING, &s, &c), 10.0 - 10.0 - 6.5);
        let h = Counts {
            handicap: 4,
            komi: 0.5,
            ..c
        };
        assert_eq!(score(&Rules::CHINESE, &s, &h), -0.5 - 4.0);
        assert_eq!(score(&Rules::AGA, &s, &h), -0.5 - 3.0);
        assert_eq!(score(&Rules::NEW_ZEALAND, &s, &h), -0.5);
    }

    #[test]
    fn traditional_statements() {
        assert_eq!(traditional(3.0), "Black has 3 points more than White");
        assert_eq!(traditional(-1.0), "White has 1 point more than Black");
        assert_eq!(traditional(-2.5), "White has 2.5 points more than Black");
        assert_eq!(traditional(0.0), "0");
    }
}
