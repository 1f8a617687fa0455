//! Song-dynasty scoring by Lu (路) and chips (筹), after the Thirteen
//! Chapters (棋经十三篇) as read in seed
//! `song-dynasty-lu-and-chips-scoring.txt`.
//!
//! Dead stones are picked up as the capturer's prisoners. Each side's
//! prisoners are filled into the opponent's territory, except the basic
//! eyes that keep each living group alive for ever (two per independent
//! living group by default; [`SongParams::eyes_per_group`]). A side's Lu is
//! the empty points left in its territory. Prisoners that find no room (the
//! board is full, 局满) overflow and count as chips for the capturer.
//! Score = (Lu + chips of Black) − (Lu + chips of White); the period had no
//! komi.

use serde::Serialize;

/// The reading's one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SongParams {
    /// Basic eyes left unfilled per independent living group.
    pub eyes_per_group: u32,
}

impl Default for SongParams {
    fn default() -> SongParams {
        SongParams { eyes_per_group: 2 }
    }
}

/// One side's position for Song scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SongSide {
    /// Territory points (dead-stone points included).
    pub territory: u32,
    /// Prisoners this side holds: captures plus the opponent's dead stones.
    pub prisoners: u32,
    /// Independent living groups.
    pub groups: u32,
}

/// The outcome term of the Thirteen Chapters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SongTerm {
    /// 赢局: won by more Lu, the loser still has Lu.
    WinByLu,
    /// 输筹: the loser has no Lu left and loses by chips.
    LosingChips,
    /// 赢筹: board full, the winner has superfluous prisoners.
    WinningChips,
    /// 实局: board full, no superfluous prisoners.
    FullBoard,
    /// 芇: equal.
    Tie,
}

impl SongTerm {
    pub fn chinese(self) -> &'static str {
        match self {
            SongTerm::WinByLu => "赢局",
            SongTerm::LosingChips => "输筹",
            SongTerm::WinningChips => "赢筹",
            SongTerm::FullBoard => "实局",
            SongTerm::Tie => "芇",
        }
    }

    pub fn english(self) -> &'static str {
        match self {
            SongTerm::WinByLu => "win by more Lu",
            SongTerm::LosingChips => "losing chips",
            SongTerm::WinningChips => "winning chips",
            SongTerm::FullBoard => "full board",
            SongTerm::Tie => "tie",
        }
    }
}

/// Song scoring of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SongScore {
    /// Lu of Black and White.
    pub lu: [u32; 2],
    /// Chips (overflowing prisoners) of Black and White.
    pub chips: [u32; 2],
    /// (Lu + chips of Black) − (Lu + chips of White).
    pub score: i64,
    pub term: SongTerm,
}

/// Scores a position the Song way.
///
/// # Examples
/// ```
/// use recount::go::score::song::{song_score, SongParams, SongSide, SongTerm};
/// // As in the seed's first example: Black 18 Lu, White 14 − 3 = 11 Lu
/// // (Black's 3 prisoners filled into White's territory): Black wins 7.
/// let black = SongSide { territory: 22, prisoners: 3, groups: 2 };
/// let white = SongSide { territory: 16, prisoners: 0, groups: 1 };
/// let s = song_score(black, white, SongParams::default());
/// assert_eq!((s.lu, s.score, s.term), ([18, 11], 7, SongTerm::WinByLu));
/// ```
pub fn song_score(black: SongSide, white: SongSide, p: SongParams) -> SongScore {
    // Room in each side's territory once its basic eyes are kept.
    let room = |s: SongSide| s.territory.saturating_sub(p.eyes_per_group * s.groups);
    let (room_b, room_w) = (room(black), room(white));
    // White's prisoners go into Black's territory and vice versa.
    let filled_b = white.prisoners.min(room_b);
    let filled_w = black.prisoners.min(room_w);
    let lu = [room_b - filled_b, room_w - filled_w];
    let chips = [black.prisoners - filled_w, white.prisoners - filled_b];
    let score = (lu[0] + chips[0]) as i64 - (lu[1] + chips[1]) as i64;
    let term = if score == 0 {
        SongTerm::Tie
    } else {
        let (winner, loser) = if score > 0 { (0, 1) } else { (1, 0) };
        if lu == [0, 0] {
            if chips[winner] > 0 {
                SongTerm::WinningChips
            } else {
                SongTerm::FullBoard
            }
        } else if lu[loser] == 0 {
            SongTerm::LosingChips
        } else {
            SongTerm::WinByLu
        }
    };
    SongScore {
        lu,
        chips,
        score,
        term,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(territory: u32, prisoners: u32, groups: u32) -> SongSide {
        SongSide {
            territory,
            prisoners,
            groups,
        }
    }

    #[test]
    fn seed_losing_chips_example() {
        // Black 3 Lu on the board and 4 prisoners; White 0 Lu, 0 prisoners:
        // Black wins 7; White loses chips (输筹).
        let s = song_score(side(5, 4, 1), side(2, 0, 1), SongParams::default());
        assert_eq!((s.lu, s.chips, s.score), ([3, 0], [4, 0], 7));
        assert_eq!(s.term, SongTerm::LosingChips);
        assert_eq!(s.term.chinese(), "输筹");
    }

    #[test]
    fn seed_full_board_example() {
        // Board full: Black 0 Lu, 7 prisoners; White 0 Lu, 0 prisoners.
        let s = song_score(side(2, 7, 1), side(2, 0, 1), SongParams::default());
        assert_eq!(
            (s.lu, s.chips, s.score, s.term),
            ([0, 0], [7, 0], 7, SongTerm::WinningChips)
        );
        let s = song_score(side(4, 0, 2), side(2, 0, 1), SongParams::default());
        assert_eq!((s.score, s.term), (0, SongTerm::Tie));
    }

    #[test]
    fn eyes_per_group_is_a_parameter() {
        let s = song_score(
            side(10, 0, 2),
            side(10, 0, 1),
            SongParams { eyes_per_group: 0 },
        );
        assert_eq!((s.lu, s.score), ([10, 10], 0));
        let s = song_score(side(10, 0, 2), side(10, 0, 1), SongParams::default());
        assert_eq!((s.lu, s.score, s.term), ([6, 8], -2, SongTerm::WinByLu));
    }
}
