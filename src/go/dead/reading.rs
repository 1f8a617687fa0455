//! Fates read out rather than played out: chains in atari with no way
//! out, and fights closed in a small region ([`crate::go::dead::enclosed`]).

use super::{ChainFate, PassAlive};
use crate::go::board::{Board, Color};
use crate::go::dead::enclosed;
use crate::go::replay::{sgf_point, stone_count};

/// The closed region of the chain through `p` if its fight is read out:
/// closed, small, and with the other side's stones inside (reading the
/// rest changed no scored game on the KGS archives and cost 15% of the
/// estimator's time), or an eye space ([`is_eye_space`]).
fn fight_region(board: &Board, p: usize, terrain: &enclosed::Terrain) -> Option<Vec<usize>> {
    enclosed::region(board, p, terrain)
        .filter(|r| r.iter().any(|&q| board.at(q).is_some()) || is_eye_space(board, r))
}

/// The sizes of a closed region without the other side's stones that is
/// read out all the same: a small eye space and the liberties outside it,
/// three to five points. Killing a group whose only eye space is a square
/// four needs a sacrifice of three stones inside, which the playouts
/// never play (they put no chain of two or more stones in atari, which
/// keeps seki alive), so such a group lives in every playout: in
/// 2017-02-25-13 (marked games, tune half) White's 19 stones at `ja`,
/// with a square four and one liberty outside. Regions of one or two
/// points, and of up to seven (3% more of the estimator's time, no count
/// changed), were tried and not kept (docs/estimator-log.md).
const EYE_SPACE: std::ops::RangeInclusive<usize> = 3..=5;

/// Whether the closed `region` (the points of a chain's fight) holds no
/// stone of the other side and is of [`EYE_SPACE`]'s size: read only to
/// kill a chain the playouts keep alive, and only while no dead stone of
/// the other side lies beside it ([`read_enclosures`]).
fn is_eye_space(board: &Board, region: &[usize]) -> bool {
    EYE_SPACE.contains(&region.len()) && region.iter().all(|&q| board.at(q).is_none())
}

/// The closed fights of one position as read so far: per chain, its
/// fight's region ([`fight_region`]) and whether the reading captured it
/// with each side moving first. Both depend on the position alone, so
/// every estimate of it shares them (`--votes`).
pub(super) struct Enclosures {
    per_chain: Vec<ChainReading>,
}

#[derive(Default, Clone)]
struct ChainReading {
    /// The fight's region, once looked for (`None` inside: not read out).
    region: Option<Option<Vec<usize>>>,
    /// [`enclosed::captured`] with the owner moving first, and with the
    /// opponent moving first, once read.
    captured: [Option<Option<bool>>; 2],
}

impl Enclosures {
    pub(super) fn new(chains: usize) -> Enclosures {
        Enclosures {
            per_chain: vec![ChainReading::default(); chains],
        }
    }
}

/// Chains whose fight is read out ([`fight_region`]): a living one dies
/// when the opponent captures it even with its owner moving first, a dead
/// one lives when the opponent cannot capture it even moving first,
/// whatever the playouts said (they cannot play the sacrifices some kills
/// need). `chains` and `read` list the position's chains in one order.
#[inline(never)]
pub(super) fn read_enclosures(
    board: &Board,
    chains: &mut [ChainFate],
    terrain: &enclosed::Terrain,
    read: &mut Enclosures,
) {
    // Per point: a stone the playouts (or its being doomed) call dead.
    let mut dead_at = vec![false; board.index_len()];
    for ch in chains.iter().filter(|c| c.dead) {
        for &q in &ch.stones {
            dead_at[q] = true;
        }
    }
    for (ch, known) in chains.iter_mut().zip(&mut read.per_chain) {
        if ch.doomed {
            continue;
        }
        let p = ch.stones[0];
        let Some(region) = known
            .region
            .get_or_insert_with(|| fight_region(board, p, terrain))
        else {
            continue;
        };
        // An eye space is read only to kill a chain the playouts keep
        // alive, and not beside the other side's dead stones: they bound
        // the region as if they stood, but the group takes them (in
        // 2017-03-31-3, marked games, White's 11 stones at `al` read dead
        // beside Black's 12 in atari with no way out).
        if is_eye_space(board, region)
            && (ch.dead
                || ch.stones.iter().chain(region.iter()).any(|&q| {
                    board
                        .neighbours(q)
                        .iter()
                        .any(|&m| dead_at[m] && board.at(m) == Some(ch.color.opponent()))
                }))
        {
            continue;
        }
        // A living chain is read with its owner moving first, a dead one
        // with the opponent.
        let first = if ch.dead {
            ch.color.opponent()
        } else {
            ch.color
        };
        let captured = *known.captured[usize::from(ch.dead)]
            .get_or_insert_with(|| enclosed::captured(board, p, region, first));
        if captured == Some(!ch.dead) {
            ch.dead = !ch.dead;
        }
    }
}

/// How a chain fares in its read-out fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Captured whoever moves first.
    Dead,
    /// Not captured even when the opponent moves first.
    Alive,
    /// Captured only when the opponent moves first (or too long to read):
    /// the playouts decide.
    Unsettled,
}

/// One chain of a read-out fight, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOut {
    pub color: Color,
    /// A stone of the chain (column, row from the top).
    pub point: (u8, u8),
    pub stones: usize,
    /// Points of the fight's region.
    pub region: usize,
    pub fate: Fate,
}

impl ReadOut {
    /// One line for a person, e.g. `B chain at ba (8 stones, 4-point
    /// region): dead, captured whoever moves first`.
    pub fn describe(&self) -> String {
        let (x, y) = self.point;
        let fate = match self.fate {
            Fate::Dead => "dead, captured whoever moves first".to_string(),
            Fate::Alive => format!(
                "alive, not captured even if {:?} moves first",
                self.color.opponent()
            ),
            Fate::Unsettled => format!(
                "unsettled, captured only if {:?} moves first: the playouts decide",
                self.color.opponent()
            ),
        };
        format!(
            "{} chain at {} ({}, {}-point region): {fate}",
            self.color.letter(),
            sgf_point(x, y),
            stone_count(self.stones),
            self.region
        )
    }
}

/// Every chain of `board` whose fight the estimator reads out, with its
/// fate, in board order: what [`estimate`](super::estimate) decided by reading rather
/// than by the playouts.
pub fn read_out(board: &Board) -> Vec<ReadOut> {
    let pass_alive = PassAlive::new(board);
    let terrain = enclosed::Terrain::new(board, pass_alive.stones.clone());
    let mut out = Vec::new();
    for p in board.chains() {
        let Some(c) = board.at(p) else { continue };
        if pass_alive.enclosed(c, p) {
            continue;
        }
        let Some(region) = fight_region(board, p, &terrain) else {
            continue;
        };
        let fate = match (
            enclosed::captured(board, p, &region, c.opponent()),
            enclosed::captured(board, p, &region, c),
        ) {
            (Some(false), _) => Fate::Alive,
            (Some(true), Some(true)) => Fate::Dead,
            _ => Fate::Unsettled,
        };
        // An eye space is read only to kill ([`read_enclosures`]).
        if fate != Fate::Dead && is_eye_space(board, &region) {
            continue;
        }
        out.push(ReadOut {
            color: c,
            point: board.xy(p),
            stones: board.chain_len(p),
            region: region.len(),
            fate,
        });
    }
    out
}

/// Reads out whether a chain `dead` takes off is captured whoever moves
/// first in its closed region ([`enclosed::captured`]), the other side's
/// living stones bounding the region like the edge. No play of the owner
/// inside saves such a chain while its captors live: a stone shut in the
/// other side's area, whose liberties touch only the other side's stones,
/// is the usual case. Its captors, the other side's stones beside it or
/// the region, must all live: dead ones would free it once taken. (A
/// chain in a seki reads so too when its captors are taken as alive: the
/// caller sets seki aside.) For the audit of stones `RE` leaves on the
/// board.
pub struct DeadReader<'a> {
    board: &'a Board,
    dead: &'a [bool],
    /// Per colour (`Color::index`): the other colour's living stones
    /// fixed.
    terrains: [enclosed::Terrain; 2],
}

impl<'a> DeadReader<'a> {
    pub fn new(board: &'a Board, dead: &'a [bool]) -> DeadReader<'a> {
        let terrain = |c: Color| {
            let fixed = (0..board.index_len())
                .map(|q| board.at(q) == Some(c.opponent()) && !dead[q])
                .collect();
            enclosed::Terrain::new(board, fixed)
        };
        DeadReader {
            board,
            dead,
            terrains: [terrain(Color::Black), terrain(Color::White)],
        }
    }

    /// The closed region of the dead chain through `p`, if it has one
    /// small enough to read and its captors live (cheap: before the
    /// reading).
    pub fn region(&self, p: usize) -> Option<Vec<usize>> {
        let (b, dead) = (self.board, self.dead);
        let c = b.at(p).filter(|_| dead[p])?;
        let region = enclosed::region(b, p, &self.terrains[c.index()])?;
        let mut around = b.chain_stones(p);
        around.extend_from_slice(&region);
        around
            .iter()
            .flat_map(|&q| b.neighbours(q))
            .all(|m| b.at(m) != Some(c.opponent()) || !dead[m])
            .then_some(region)
    }

    /// Whether the chain through `p` is captured in its `region` even
    /// when its owner moves first.
    pub fn captured(&self, p: usize, region: &[usize]) -> bool {
        let owner = self.board.at(p).expect("a chain's stone");
        enclosed::captured(self.board, p, region, owner) == Some(true)
    }
}

/// Whether the chain through `p` is in atari with no way out: the
/// opponent may take it, extending leaves it in atari, and no opponent
/// chain beside it is in atari to be taken first. Such a chain is dead
/// whoever moves next, whatever the playouts say: they answer an atari
/// only next to the last move, so a large chain left in atari at the end
/// often survives them while its owner fills the liberties of a chain it
/// cannot catch in time (12 KGS games gained, none lost, 7 of them
/// winners).
pub fn hopeless(board: &Board, p: usize) -> bool {
    let Some(c) = board.at(p) else { return false };
    let Some(l) = board.atari_liberty(p) else {
        return false;
    };
    if !board.is_legal(c.opponent(), l)
        || (board.is_legal(c, l) && board.liberties_after(c, l) >= 2)
    {
        return false;
    }
    let mut counter = false;
    board.for_each_stone(p, |s| {
        counter |= board
            .neighbours(s)
            .iter()
            .any(|&m| board.at(m) == Some(c.opponent()) && board.atari_liberty(m).is_some());
    });
    !counter
}

/// The chains of `board` in atari with no way out (see `hopeless`), each
/// as its colour, a stone (column, row from the top) and its size, in
/// board order: for `recount explain`.
pub fn hopeless_chains(board: &Board) -> Vec<(Color, (u8, u8), usize)> {
    board
        .chains()
        .filter(|&p| hopeless(board, p))
        .filter_map(|p| Some((board.at(p)?, board.xy(p), board.chain_len(p))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;

    /// The reading is kept per chain and per side moving first: a fight
    /// whose outcome depends on who moves first reads the same from what
    /// an earlier estimate read as afresh, whichever fate the playouts
    /// gave the chain each time.
    #[test]
    fn a_fight_read_once_reads_the_same_for_either_fate() {
        // Black's eye space of four points holds a white stone: captured
        // if White moves first, not if Black does.
        let b = Board::from_diagram(
            "O O O O O O O O
             O X X X X X X O
             O X . O . . X O
             O X X X X X X O
             O O O O O O O O",
        );
        let terrain = enclosed::Terrain::new(&b, vec![false; b.index_len()]);
        let black = (1, 1);
        // The fates after reading, from `dead` as the playouts gave it.
        let read = |dead: bool, known: &mut Enclosures| {
            let (mut chains, _) = fates(&b, &[(black, dead, 0.0)]);
            read_enclosures(&b, &mut chains, &terrain, known);
            chains[0].dead
        };
        // Afresh: alive stays alive (Black moves first), dead stays dead
        // (White moves first).
        assert!(!read(false, &mut Enclosures::new(1)));
        assert!(read(true, &mut Enclosures::new(1)));
        // From one memo, in either order.
        let mut known = Enclosures::new(1);
        assert!(!read(false, &mut known));
        assert!(read(true, &mut known));
        let mut known = Enclosures::new(1);
        assert!(read(true, &mut known));
        assert!(!read(false, &mut known));
    }

    /// White's only eye space is a square four in the corner, with one
    /// liberty outside that Black fills safely: read out, White is
    /// captured whoever moves first. Not while the playouts call White
    /// dead (the eye space is read only to kill), and not while Black's
    /// chain beside White is dead: White would take it and gain room
    /// the reading does not see.
    #[test]
    fn an_eye_space_is_read_only_to_kill_beside_living_stones() {
        let b = Board::from_diagram(
            ". . O X . . . . .
             . . O X . . . . .
             O O O . X . . . .
             X X X X . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        let terrain = enclosed::Terrain::new(&b, vec![false; b.index_len()]);
        let read = |white_dead: bool, wall_dead: bool| {
            let (mut chains, _) = fates(
                &b,
                &[
                    ((2, 0), white_dead, 0.0),
                    ((3, 0), wall_dead, 0.0),
                    ((4, 2), false, 1.0),
                    ((0, 3), false, 1.0),
                ],
            );
            read_enclosures(&b, &mut chains, &terrain, &mut Enclosures::new(4));
            chains[0].dead
        };
        assert!(read(false, false));
        assert!(!read(false, true));
        // Dead by the playouts, dead it stays (not read to revive).
        assert!(read(true, false));
        let region = fight_region(&b, b.index(2, 0), &terrain).expect("an eye space");
        assert!(is_eye_space(&b, &region));
        assert_eq!(region.len(), 5);
    }

    #[test]
    fn a_dead_chain_shut_in_by_living_stones_is_read_out_dead() {
        // Read out: whether the chain through `p` is captured whoever
        // moves first, with `dead` the estimate.
        let read = |b: &Board, dead: &[bool], p: usize| {
            let r = DeadReader::new(b, dead);
            r.region(p).is_some_and(|region| r.captured(p, &region))
        };
        // The white stone at (2,1) has two liberties, each touching only
        // Black's ring: captured whoever moves first.
        let shut = Board::from_diagram(
            "X X X X X .
             X . O . X .
             X X X X X .
             . . . . . .",
        );
        let p = shut.index(2, 1);
        let mut dead = vec![false; shut.index_len()];
        dead[p] = true;
        assert!(read(&shut, &dead, p));
        // Only stones the estimate took off are read.
        assert!(!read(&shut, &vec![false; shut.index_len()], p));
        // With Black's ring dead too, the stone would be freed once the
        // ring is taken: not read.
        for q in shut.chain_stones(shut.index(0, 0)) {
            dead[q] = true;
        }
        assert!(!read(&shut, &dead, p));
        // A liberty with two empty points beside it is a way out: White
        // extends there to four liberties.
        let open = Board::from_diagram(
            "X X X . X .
             X . O . . .
             X X X . X .
             . . . . . .",
        );
        let p = open.index(2, 1);
        let mut dead = vec![false; open.index_len()];
        dead[p] = true;
        assert!(!read(&open, &dead, p));
    }
}
