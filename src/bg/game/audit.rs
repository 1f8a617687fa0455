//! The match audit: replays each game with the cube rules that apply to
//! it, follows the score from game to game, finds the Crawford game, and
//! checks the record's score lines and results against all that.

use crate::bg::game::record::MatchRecord;
use crate::bg::game::replay::{
    replay_game, CubeRules, Finding, FindingKind, KeepCube, ReplayedGame,
};
use crate::bg::score::MatchScore;

/// Where a game stands in the Crawford rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crawford {
    /// Money play, or the rule is off.
    NotApplicable,
    Before,
    /// The first game in which one player is one point from winning:
    /// no doubling.
    Crawford,
    Post,
}

impl Crawford {
    pub fn name(self) -> &'static str {
        match self {
            Crawford::NotApplicable => "",
            Crawford::Before => "pre",
            Crawford::Crawford => "crawford",
            Crawford::Post => "post",
        }
    }
}

/// One game after the audit.
#[derive(Debug, Clone)]
pub struct AuditedGame {
    /// 1-based position of the game in the file.
    pub index: u32,
    /// Score before the game as the audit follows it.
    pub score: [u32; 2],
    pub crawford: Crawford,
    pub rules: CubeRules,
    /// Points the game adds to the winner's score (the record's `Wins` when
    /// written, else the replayed value).
    pub awarded: Option<(usize, u32)>,
    pub replayed: ReplayedGame,
}

impl AuditedGame {
    /// The game is the Crawford game: no doubling.
    pub fn crawford_game(&self) -> bool {
        self.crawford == Crawford::Crawford
    }

    /// The score the game starts at, in a match of `length` points.
    pub fn match_score(&self, length: u32) -> MatchScore {
        MatchScore {
            length,
            score: self.score,
            crawford_game: self.crawford_game(),
        }
    }
}

/// The match-wide rules read from the tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchRules {
    pub crawford: bool,
    pub beavers: bool,
    pub jacoby: bool,
    pub cube_limit: u32,
}

impl MatchRules {
    /// Tags as written, with the usual defaults: Crawford on in match play
    /// (gnubg's convention), beavers allowed and Jacoby off in money play
    /// unless a tag says otherwise, no cube limit unless `CubeLimit`.
    pub fn of(m: &MatchRecord) -> MatchRules {
        MatchRules {
            crawford: m.tag_flag("Crawford").unwrap_or(true),
            beavers: m.tag_flag("Beaver").unwrap_or(true),
            jacoby: m.tag_flag("Jacoby").unwrap_or(false),
            cube_limit: m
                .tag("CubeLimit")
                .and_then(|v| v.trim().parse().ok())
                .filter(|&v| v > 0)
                .unwrap_or(u32::MAX),
        }
    }
}

/// Audits every game of the match in order, calling `each` per game so the
/// caller can write rows without holding the whole match's positions.
pub fn audit_match(
    m: &MatchRecord,
    keep_positions: bool,
    keep_cube: KeepCube,
    mut each: impl FnMut(AuditedGame),
) {
    let rules = MatchRules::of(m);
    let money = m.length == 0;
    let mut score = [0u32; 2];
    let mut crawford_seen = false;
    let mut match_over = false;
    for (i, game) in m.games.iter().enumerate() {
        let mut extra: Vec<Finding> = Vec::new();
        let mut note = |kind, text: String| {
            extra.push(Finding {
                kind,
                line: 0,
                text,
            })
        };
        // A position (a set-up position as the file's first game, or one
        // with nothing played from it, as position files hold one after
        // another) is a game in the middle of a match: its score and
        // Crawford mark are where the match stands, not claims to check
        // against the games before it.
        let position = game.setup.is_some() && (i == 0 || game.actions.is_empty());
        if position {
            if let Some(written) = game.score {
                score = written;
            }
            crawford_seen = false;
            match_over = false;
        }
        if let Some(written) = game.score {
            if written != score {
                note(
                    FindingKind::ScoreLine,
                    format!(
                        "score line says {}-{}, the results before it give {}-{}",
                        written[0], written[1], score[0], score[1]
                    ),
                );
                // Follow the record from here, so one slip is one finding.
                score = written;
            }
        }
        if match_over {
            note(
                FindingKind::AfterMatchEnd,
                format!("a game after the match was won ({}-{})", score[0], score[1]),
            );
        }
        let crawford = if money || !rules.crawford {
            Crawford::NotApplicable
        } else if crawford_seen {
            Crawford::Post
        } else if m.length > 1 && (score[0] + 1 == m.length) != (score[1] + 1 == m.length) {
            crawford_seen = true;
            if position && game.crawford_marked == Some(false) {
                Crawford::Post
            } else {
                Crawford::Crawford
            }
        } else {
            Crawford::Before
        };
        if let Some(marked) = game.crawford_marked {
            if marked != (crawford == Crawford::Crawford) {
                note(
                    FindingKind::CrawfordMark,
                    format!(
                        "the record {} this game as the Crawford game; by the score ({}-{}) it {}",
                        if marked { "marks" } else { "does not mark" },
                        score[0],
                        score[1],
                        if crawford == Crawford::Crawford {
                            "is"
                        } else {
                            "is not"
                        }
                    ),
                );
            }
        }
        let cube_rules = CubeRules {
            money,
            crawford_game: crawford == Crawford::Crawford,
            beavers: rules.beavers,
            jacoby: rules.jacoby,
            limit: rules.cube_limit,
            need: (!money).then(|| (score.map(|s| m.length.saturating_sub(s)), m.length)),
        };
        let mut replayed = replay_game(game, cube_rules, keep_positions, keep_cube);
        let awarded = replayed
            .recorded
            .or_else(|| replayed.winner.zip(replayed.points));
        let before = score;
        if let Some((w, pts)) = awarded {
            score[w] += pts;
        }
        if !money {
            let won = score.iter().any(|&s| s >= m.length);
            if let Some((w, _)) = awarded {
                let claims_match = game.actions.iter().any(|(_, a)| {
                    matches!(
                        a,
                        crate::bg::game::record::Action::Wins {
                            and_match: true,
                            ..
                        }
                    )
                });
                if claims_match && !won {
                    note(
                        FindingKind::Result,
                        format!(
                            "'and the match' but player {w} has {} of {} points",
                            score[w], m.length
                        ),
                    );
                }
            }
            match_over |= won;
        }
        replayed.findings.extend(extra);
        each(AuditedGame {
            index: i as u32 + 1,
            score: before,
            crawford,
            rules: cube_rules,
            awarded,
            replayed,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::game::record::GameRecord;
    use crate::bg::position::board::Board;

    /// Two positions of a 7-point match, one after the other, as a
    /// position file holds them: each starts at its own score, and the
    /// file's Crawford flag decides between the Crawford game and after.
    #[test]
    fn positions_start_at_their_written_score_and_crawford_flag() {
        let position = |score, crawford| GameRecord {
            score: Some(score),
            setup: Some(Board::start()),
            setup_turn: Some(1),
            crawford_marked: Some(crawford),
            ..GameRecord::default()
        };
        let m = MatchRecord {
            length: 7,
            games: vec![
                position([6, 3], false),
                position([6, 3], true),
                position([2, 1], false),
            ],
            ..MatchRecord::default()
        };
        let mut seen = Vec::new();
        audit_match(&m, false, KeepCube::None, |g| {
            let kinds: Vec<&str> = g.replayed.findings.iter().map(|f| f.kind.name()).collect();
            seen.push((g.score, g.crawford, kinds));
        });
        assert_eq!(
            seen,
            [
                // Undecided, as positions are: no finding.
                ([6, 3], Crawford::Post, vec![]),
                ([6, 3], Crawford::Crawford, vec![]),
                ([2, 1], Crawford::Before, vec![]),
            ]
        );
    }
}
