//! A settled final position: what each point is, and the totals every
//! count is made from.

use crate::go::board::Color;

/// What a point is once the position is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    Stone(Color),
    /// A dead stone of this colour (the opponent's prisoner).
    Dead(Color),
    /// Empty (or dead-stone) point in this colour's territory.
    Territory(Color),
    /// An eye of this colour's group in seki.
    SekiEye(Color),
    /// A liberty shared by groups in seki.
    Seki,
    /// A point of this colour's territory it must fill after the dame are
    /// filled (its chain would otherwise be in atari).
    Fill(Color),
    Dame,
}

/// Per-colour totals of a settled position (index 0 Black, 1 White).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settlement {
    pub kinds: Vec<Option<PointKind>>,
    /// Living stones on the board.
    pub stones: [u32; 2],
    /// Dead stones of each colour (prisoners for the other side).
    pub dead: [u32; 2],
    /// Territory points, dead-stone points included, seki eyes excluded.
    pub territory: [u32; 2],
    /// Eyes of groups in seki.
    pub seki_eyes: [u32; 2],
    /// Territory points the owner must fill once the dame are filled (a
    /// chain left with that one liberty): no point under territory
    /// scoring, still area. Not included in `territory`.
    pub fills: [u32; 2],
    /// Shared liberties in seki.
    pub seki_points: u32,
    pub dame: u32,
    /// Independent living areas: connected groups of living stones and
    /// their territory (what the group tax charges).
    pub areas: [u32; 2],
    /// One-point eyes that do not count, as a seki would force their owner
    /// to fill them (`forfeit_false_eyes`): the eye, and a stone of the
    /// chain that would have to fill it.
    pub false_eyes: Vec<(usize, usize)>,
    /// The dame as the must-fill rule fills them, in its order: (point,
    /// colour). `recount explain` prints them where a point must be
    /// filled.
    pub dame_filled: Vec<(usize, Color)>,
    /// Each point a chain must fill, with a stone the chain had before the
    /// dame were filled: (fill point, stone).
    pub fill_chains: Vec<(usize, usize)>,
    /// The regions between the colours that the referee's rule gives to
    /// one side, in board order (for `recount explain`).
    pub refereed: Vec<Refereed>,
}

/// A region bordered by both colours that the referee's rule gives to one
/// side: an area behind an unclosed boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refereed {
    pub owner: Color,
    /// Its first point in board order, to name it by.
    pub at: usize,
    /// Its points, dead stones' included.
    pub points: usize,
    /// Its points touching the other side's stones: the gaps the owner
    /// would fill (dame).
    pub gaps: Vec<usize>,
    /// Its points next to a gap: where the owner blocks when the other
    /// side pushes in (dame).
    pub blocks: Vec<usize>,
}
