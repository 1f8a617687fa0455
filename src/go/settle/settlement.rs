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

impl Settlement {
    /// Counts the empty points as the players marked them (`marked`, per
    /// point: the colour of its `TB`/`TW`), as KGS counts a marked game:
    /// a marked point is its side's territory (a seki eye or a point its
    /// owner must fill included), an unmarked one is no one's (a seki
    /// point stays one). Stones, living or dead, keep their kinds.
    pub fn count_as_marked(&mut self, marked: &[Option<Color>]) {
        self.territory = [0, 0];
        self.seki_eyes = [0, 0];
        self.fills = [0, 0];
        self.seki_points = 0;
        self.dame = 0;
        for (p, kind) in self.kinds.iter_mut().enumerate() {
            let Some(k) = kind else { continue };
            match (*k, marked[p]) {
                (PointKind::Stone(_), _) => {}
                (PointKind::Dead(c), _) => self.territory[c.opponent().index()] += 1,
                (_, Some(c)) => {
                    *k = PointKind::Territory(c);
                    self.territory[c.index()] += 1;
                }
                (PointKind::Seki, None) => self.seki_points += 1,
                (_, None) => {
                    *k = PointKind::Dame;
                    self.dame += 1;
                }
            }
        }
        self.false_eyes.clear();
        self.fill_chains.clear();
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;
    use crate::go::settle::territory::settle;

    /// A seki eye marked as territory counts; territory left unmarked is
    /// no one's; the marked dead stone stays a prisoner on its owner's
    /// territory.
    #[test]
    fn a_marked_count_takes_the_marked_points_and_no_others() {
        let b = Board::from_diagram(
            ". X O . O
             X X O O O
             . X O . X
             X X O O O",
        );
        let mut dead = vec![false; b.index_len()];
        dead[b.index(4, 2)] = true;
        let mut s = settle(&b, &dead);
        assert_eq!(s.territory, [2, 3]);
        let mut marked = vec![None; b.index_len()];
        for (x, y, c) in [
            (0, 0, Color::Black),
            (3, 2, Color::White),
            (4, 2, Color::White),
        ] {
            marked[b.index(x, y)] = Some(c);
        }
        s.count_as_marked(&marked);
        // Black's (0,2) unmarked: dame; White's (3,0) unmarked: dame.
        assert_eq!((s.territory, s.dame, s.dead), ([1, 2], 2, [1, 0]));
        assert_eq!(s.kinds[b.index(0, 2)], Some(PointKind::Dame));
        assert_eq!(s.kinds[b.index(4, 2)], Some(PointKind::Dead(Color::Black)));
    }
}
