//! A Go game computed once: its record, the rules it is replayed under,
//! the replay (with the position the endgame zones look at, when asked),
//! and, where a count or the zones need it, its end: the dead stones
//! decided and the final position settled. Every analysis reads this; none
//! replays or settles again.

use crate::go::audit::Countable;
use crate::go::dead::decide::{decide_dead, DeadSettings, DeadStones};
use crate::go::endgame::position::{
    game_zones, Moment, PositionZones, Snapshot, Tracker, ZoneSettings,
};
use crate::go::record::GoRecord;
use crate::go::replay::{replay, replay_with, Replay};
use crate::go::rules::{Rules, RulesChoice, RulesUsed};
use crate::go::score::Counts;
use crate::go::settle::Settlement;

/// What to compute of each game.
#[derive(Debug, Clone, Copy)]
pub struct GameSettings {
    /// Rules for games whose `RU` is absent or unknown (`--rules`).
    pub default_rules: RulesChoice,
    pub dead: DeadSettings,
    /// Settle the end of every game whose count is audited (scoring on).
    pub count: bool,
    /// Settle the end of every game, counted or not (`recount explain`).
    pub always_settle: bool,
    /// The move whose position the endgame zones split, when asked for.
    pub zones_at: Option<Moment>,
}

/// The end of a game: its dead stones and its settled final position.
pub struct End {
    pub dead: DeadStones,
    pub settlement: Settlement,
}

/// One game, computed.
pub struct Game {
    pub record: GoRecord,
    /// The record's key ([`GoRecord::game_id`]).
    pub game_id: String,
    pub rules: Rules,
    pub rules_used: RulesUsed,
    pub replay: Replay,
    /// Prisoners, komi and handicap: what a count needs besides the board.
    pub counts: Counts,
    /// Whether the result is a count to audit.
    pub countable: Countable,
    /// The position the zones split, or why the game has none.
    pub snapshot: Option<Result<Snapshot, String>>,
    /// Decided where a count or the zones need it.
    pub end: Option<End>,
}

impl Game {
    /// Replays `record` once and settles its end where `s` needs it.
    pub fn compute(record: GoRecord, s: &GameSettings) -> Game {
        let rules_used = RulesUsed::for_record(&record, s.default_rules);
        let rules = rules_used.rules;
        let (replay, snapshot) = match s.zones_at {
            None => (replay(&record, rules), None),
            Some(moment) => match Tracker::new(&record, rules, moment) {
                Ok(mut tracker) => {
                    let r = replay_with(&record, rules, |r| tracker.observe(r));
                    (r, Some(Ok(tracker.finish())))
                }
                Err(why) => (replay(&record, rules), Some(Err(why))),
            },
        };
        let countable = Countable::of(&record, &replay, rules_used.preset);
        let counts = Counts::of(&record, &replay);
        let zones = matches!(snapshot, Some(Ok(_)));
        let settle =
            s.always_settle || zones || (s.count && !matches!(countable, Countable::No(_)));
        let end = settle.then(|| {
            let (dead, settlement) = decide_dead(&record, &replay, &s.dead);
            End { dead, settlement }
        });
        Game {
            game_id: record.game_id(),
            record,
            rules,
            rules_used,
            replay,
            counts,
            countable,
            snapshot,
            end,
        }
    }

    /// The position at the zones' moment split into endgame zones and
    /// searched, or why the game has none (shorter than the move asked for).
    pub fn zones(&self, s: &ZoneSettings) -> Result<PositionZones, String> {
        let at = match &self.snapshot {
            Some(Ok(at)) => at,
            Some(Err(why)) => return Err(why.clone()),
            None => return Err("no move was asked for the zones".into()),
        };
        let end = self
            .end
            .as_ref()
            .expect("a game with a snapshot has its end settled");
        Ok(game_zones(at, &end.settlement, self.replay.captures, s))
    }
}
