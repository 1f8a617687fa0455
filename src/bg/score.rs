//! A match's score before a game: what the match-play cube decisions, the
//! Match ID and the reports read of it.

/// The score a game starts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchScore {
    /// Points to win the match; 0 for money play.
    pub length: u32,
    /// Points each player has.
    pub score: [u32; 2],
    /// This game is the Crawford game (no doubling).
    pub crawford_game: bool,
}

impl MatchScore {
    /// Points `player` still needs.
    pub fn away(&self, player: usize) -> u32 {
        self.length.saturating_sub(self.score[player])
    }

    /// A post-Crawford game: a player is one point from winning and this
    /// is not the Crawford game.
    pub fn post_crawford(&self) -> bool {
        !self.crawford_game && (self.away(0) == 1 || self.away(1) == 1)
    }
}
