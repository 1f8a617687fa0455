//! A run's totals: what `summary.csv`, `go_interpretations.csv` and the
//! player rows of `bg_stats.csv` are made from. The collector adds each
//! unit's up in input order; a shard writes its own, `merge` adds the
//! shards'.

use crate::analysis::bg_match::BgCounts;
use crate::analysis::go_score::ScoreStats;
use crate::analysis::go_zones::ZoneStats;
use std::ops::AddAssign;

/// Run totals; the collector adds each unit's up, in input order.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Files and archive members read.
    pub files: u64,
    /// Go games replayed (rows in `go_games.csv`).
    pub games: u64,
    /// Backgammon match files read, and their games' counts.
    pub matches: u64,
    pub bg: BgCounts,
    /// Rows in `errors.csv`.
    pub errors: u64,
    pub illegal_moves: u64,
    pub scoring: ScoreStats,
    pub zones: ZoneStats,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.files += o.files;
        self.games += o.games;
        self.matches += o.matches;
        self.bg += o.bg;
        self.errors += o.errors;
        self.illegal_moves += o.illegal_moves;
        self.scoring += o.scoring;
        self.zones += o.zones;
    }
}
