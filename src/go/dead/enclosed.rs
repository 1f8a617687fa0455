//! Life and death of enclosed groups, read out to the end.
//!
//! Random playouts cannot judge a group whose fate needs a sacrifice: the
//! playout policy never puts two or more stones in atari (that keeps seki
//! alive), so a dead group whose killer must throw in two stones (a
//! false seki, a dead shape of three or more points) lives in every
//! playout. When a group and the opponent's stones inside it have all
//! their liberties in a small closed region, though, the whole fight is
//! local and small enough to read exhaustively: every sequence of plays
//! in the region, with passes, down to the capture or to two passes.
//!
//! A chain is dead when the opponent captures it whoever moves first,
//! and safe when the opponent cannot capture it even moving first; the
//! estimate keeps the playouts' verdict on the unsettled ones.
//! Chains that are pass-alive (Benson), have many liberties, or are the
//! opponent's and reach a large open area or hang together with such a
//! chain, bound the region like the edge: they cannot be captured in it,
//! so their other liberties do not matter.

use crate::go::board::{Board, Color, EmptyRegions};
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The most points (empty, or holding the opponent's stones inside the
/// group) a region may have to be read: 3^11 positions at most. On the
/// KGS archives 11 does best: 8 and 9 missed two fights that 10 reads,
/// and 11 reads one more corner seki (2002-08-05-7) for 8% more time;
/// 12 lost games to larger fights the players judged otherwise than best
/// play does (docs/estimator-log.md).
const MAX_REGION: usize = 11;

/// Plies read before a line counts as not captured (cycles count so too).
const MAX_DEPTH: usize = 40;

/// Positions a reading may visit before it gives up (unsettled).
const MAX_NODES: usize = 200_000;

/// What bounds or rules out a region besides the edge, worked out once
/// per position.
pub struct Terrain {
    /// Pass-alive stones: they bound a region instead of joining it.
    fixed: Vec<bool>,
    /// By chain id: the chain touches an empty area larger than
    /// `MAX_REGION` (11). A group with such a chain can run or make room
    /// there, so its region is not read; the opponent's such chains bound
    /// the region instead.
    open: Vec<bool>,
    /// By chain id, once asked: whether the chain has
    /// [`WALL_LIBERTIES`] liberties. A region's search meets the same
    /// bounding chains again and again.
    wall: Vec<Cell<Option<bool>>>,
}

impl Terrain {
    /// The terrain of `board` with its pass-alive stones `fixed`.
    pub fn new(board: &Board, fixed: Vec<bool>) -> Terrain {
        let mut open = vec![false; board.index_len()];
        board.empty_regions(&mut EmptyRegions::default(), |points, _| {
            if points.len() > MAX_REGION {
                for &q in points {
                    for n in board.neighbours(q) {
                        if board.at(n).is_some() {
                            open[board.chain_id(n)] = true;
                        }
                    }
                }
            }
        });
        let wall = vec![Cell::new(None); board.index_len()];
        Terrain { fixed, open, wall }
    }

    /// Whether the chain through `q` cannot be captured in any region:
    /// pass-alive, a wall of [`WALL_LIBERTIES`], or reaching a large open
    /// area.
    fn stands(&self, board: &Board, q: usize) -> bool {
        self.fixed[q] || self.open[board.chain_id(q)] || self.is_wall(board, q)
    }

    /// [`has_wall_liberties`], counted once a chain.
    fn is_wall(&self, board: &Board, q: usize) -> bool {
        let known = &self.wall[board.chain_id(q)];
        known.get().unwrap_or_else(|| {
            let wall = has_wall_liberties(board, q);
            known.set(Some(wall));
            wall
        })
    }
}

/// The closed region of the chain through `p`: the empty points around
/// its group and the opponent's stones inside it, in board order, if the
/// group (the chains of its colour that share those empty points) and the
/// opponent's chains inside have all their liberties there and there are
/// at most `MAX_REGION` (11) such points; with them, the stones of the
/// group's small chains in atari besides the target's
/// (`SMALL_OWN_CHAIN`). Pass-alive chains bound the
/// region instead of joining it, as chains with `WALL_LIBERTIES` (10)
/// liberties do, and the opponent's chains that reach a large open area
/// or share a liberty with such a chain (`linked_to_safe`).
/// The group's chains beside the opponent's stones inside join the group
/// too: taking such a stone leaves an eye only if they survive. (Only
/// those in atari joined until 2026-12-05: in 2017-03-18-21, marked
/// games, Black's eight stones at `da` read alive on the eye that taking
/// White's stone at `ad` leaves, with Black's five at `ae` beside it
/// bounding the region as if they could not be captured.)
pub fn region(board: &Board, p: usize, terrain: &Terrain) -> Option<Vec<usize>> {
    let color = board.at(p)?;
    if terrain.fixed[p] {
        return None;
    }
    // Few chains and points before the region overflows: plain lists.
    let mut region: Vec<usize> = Vec::with_capacity(MAX_REGION + 4);
    let mut seen_chains = vec![board.chain_id(p)];
    let mut todo = vec![p];
    // The group's own small chains besides the target's: their points
    // join the region once it is measured.
    let mut own_stones: Vec<usize> = Vec::new();
    while let Some(c) = todo.pop() {
        if terrain.open[board.chain_id(c)] || board.surely_more_liberties_than(c, MAX_REGION) {
            return None;
        }
        let inner = board.at(c) != Some(color);
        let small_own = !inner
            && board.chain_id(c) != board.chain_id(p)
            && board.chain_len(c) <= SMALL_OWN_CHAIN
            && board.atari_liberty(c).is_some();
        board.for_each_stone(c, |s| {
            if inner && !region.contains(&s) {
                region.push(s);
            }
            if small_own {
                own_stones.push(s);
            }
            for q in board.neighbours(s) {
                if region.len() <= MAX_REGION
                    && board.on_board(q)
                    && board.at(q).is_none()
                    && !region.contains(&q)
                {
                    region.push(q);
                }
            }
        });
        if region.len() > MAX_REGION {
            return None;
        }
        // The empty points next to the region's join it (a play there
        // gives liberties), and so does every chain touching an empty
        // point of the region, unless it is pass-alive.
        let mut i = 0;
        while i < region.len() && region.len() <= MAX_REGION {
            let r = region[i];
            i += 1;
            let inner_stone = board.at(r).is_some();
            for q in board.neighbours(r) {
                if !board.on_board(q) {
                    continue;
                }
                match board.at(q) {
                    // An inner stone's empty neighbours joined with its
                    // chain.
                    None if inner_stone => {}
                    None => {
                        if !region.contains(&q) {
                            region.push(q);
                        }
                    }
                    Some(c) => {
                        let id = board.chain_id(q);
                        if seen_chains.contains(&id) {
                            continue;
                        }
                        // The group's chains beside the opponent's stones
                        // inside join it as those beside its empty points
                        // do: taking such a stone leaves an eye only if
                        // they survive.
                        let joins = if c == color {
                            !terrain.fixed[q] && !terrain.is_wall(board, q)
                        } else {
                            !inner_stone
                                && !terrain.stands(board, q)
                                && !linked_to_safe(board, q, r, terrain)
                        };
                        if joins {
                            seen_chains.push(id);
                            todo.push(q);
                        }
                    }
                }
            }
        }
        if region.len() > MAX_REGION {
            return None;
        }
    }
    region.extend(own_stones);
    region.sort_unstable();
    Some(region)
}

/// The group's own chains in atari of at most this many stones, besides
/// the target's, are read with the region: the opponent may capture one
/// (a stone left in atari in the opponent's eye), and the point it frees
/// must be playable, or the reading misses the retake that keeps a seki.
/// In 2002-12-18-4 White's 27 stones and Black's 7 inside them are in
/// seki; Black may take White's stone at `rr` in its eye, and the reading,
/// unable to play `rr` again, called White's group captured whoever moves
/// first (the count was B+62.5 for GNU Go 3.8's B+4.5). Chains not in
/// atari, or larger, made the estimator a quarter slower and changed no
/// verdict on the KGS archives.
const SMALL_OWN_CHAIN: usize = 2;

/// A chain with this many liberties bounds a region like a pass-alive
/// one: a fight in `MAX_REGION` (11) points hardly takes them all. (On the
/// KGS archives 9 and 10 did best, two games and two winners better than
/// pass-alive chains alone; 12 lost a winner, and 7 lost two games: such
/// chains can be short of liberties in a race.)
const WALL_LIBERTIES: usize = 10;

/// Whether the chain through `q`, next to the region's point `r`,
/// shares a liberty other than `r` with a chain of its colour that is
/// pass-alive, a wall or reaches a large open area: the two hang
/// together, and the attacker of the region cannot cut them there. The
/// opponent's such chains bound the region like walls; joining it, they
/// took it over `MAX_REGION` (11) points with liberties that do not
/// matter to the fight.
fn linked_to_safe(board: &Board, q: usize, r: usize, terrain: &Terrain) -> bool {
    let (color, id) = (board.at(q), board.chain_id(q));
    let safe =
        |m: usize| board.at(m) == color && board.chain_id(m) != id && terrain.stands(board, m);
    let mut linked = false;
    board.for_each_stone(q, |s| {
        for l in board.neighbours(s) {
            if linked || l == r || !board.on_board(l) || board.at(l).is_some() {
                continue;
            }
            linked = board
                .neighbours(l)
                .into_iter()
                .any(|m| board.on_board(m) && safe(m));
        }
    });
    linked
}

/// Whether the chain through `q` has at least [`WALL_LIBERTIES`]
/// liberties: told from the pseudo-liberty count when it can be, else
/// counted without allocating.
fn has_wall_liberties(board: &Board, q: usize) -> bool {
    if board.surely_more_liberties_than(q, WALL_LIBERTIES - 1) {
        return true;
    }
    let mut libs = [0usize; WALL_LIBERTIES];
    let mut n = 0;
    board.for_each_stone(q, |s| {
        for l in board.neighbours(s) {
            if n < WALL_LIBERTIES
                && board.on_board(l)
                && board.at(l).is_none()
                && !libs[..n].contains(&l)
            {
                libs[n] = l;
                n += 1;
            }
        }
    });
    n == WALL_LIBERTIES
}

/// Whether the chain through `target` is captured in its closed
/// [`region`] with best play, `first` moving first; `None` when the
/// reading is too long to finish (`MAX_NODES`).
pub fn captured(board: &Board, target: usize, region: &[usize], first: Color) -> Option<bool> {
    let defender = board.at(target)?;
    let mut reading = Reading {
        target,
        attacker: defender.opponent(),
        region,
        memo: SPARE_MEMO.take(),
        board: board.clone(),
        nodes: 0,
    };
    let captured = reading.captures(first, 0, 0);
    let mut memo = reading.memo;
    if memo.capacity() <= SPARE_MEMO_ROOM {
        memo.clear();
        SPARE_MEMO.set(memo);
    }
    (reading.nodes <= MAX_NODES).then_some(captured)
}

/// The room of the memo a thread hands from one reading to the next, at
/// most: most readings visit a few hundred positions, and a memo grown
/// from nothing each time spent about 2% of the reading's time
/// rehashing; a larger one would cost more to empty than to grow again.
const SPARE_MEMO_ROOM: usize = 1 << 12;

/// A reading's positions by key ([`Reading::key`]).
type Memo = HashMap<u64, Known, BuildHasherDefault<KeyHasher>>;

thread_local! {
    static SPARE_MEMO: Cell<Memo> = Cell::new(Memo::default());
}

/// What the reading knows of a position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// On the current line: meeting it again is a repetition, which is
    /// not a capture.
    OnPath,
    Captured(bool),
}

/// A fast hasher for the reading's small integer keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// One exhaustive reading: whether the attacker captures the target.
struct Reading<'a> {
    target: usize,
    attacker: Color,
    region: &'a [usize],
    /// Positions by (region contents and ko, side to move, passes).
    memo: Memo,
    /// The position on the current line: each move tried is undone
    /// ([`Board::undo_to`]) before the next.
    board: Board,
    nodes: usize,
}

impl Reading<'_> {
    /// The region's contents in base 3, the ko point's place in it, the
    /// side to move and the passes in a row, in one number.
    fn key(&self, b: &Board, attacking: bool, passes: u8) -> u64 {
        let mut k = 0u64;
        for &r in self.region {
            // Empty 0, Black 1, White 2 (a region's points are on the
            // board).
            k = k * 3 + u64::from(b.cell_code(r));
        }
        let ko = b
            .ko_point()
            .and_then(|p| self.region.iter().position(|&r| r == p))
            .map_or(0, |i| i as u64 + 1);
        ((k * (self.region.len() as u64 + 1) + ko) * 2 + attacking as u64) * 2 + passes as u64
    }

    /// Whether the attacker captures the target from the position at
    /// `depth`, `to_move` to play after `passes` passes in a row.
    fn captures(&mut self, to_move: Color, passes: u8, depth: usize) -> bool {
        let b = &self.board;
        if b.at(self.target).is_none() {
            return true;
        }
        if passes >= 2 || depth >= MAX_DEPTH || self.nodes > MAX_NODES {
            return false;
        }
        // Two eyes of the target's own: no line from here captures it
        // (about a quarter of the positions read on the KGS archives).
        if has_two_eyes(b, self.target, self.region) {
            return false;
        }
        self.nodes += 1;
        let attacking = to_move == self.attacker;
        let key = self.key(b, attacking, passes);
        match self.memo.get(&key) {
            Some(Known::Captured(v)) => return *v,
            Some(Known::OnPath) => return false,
            None => {}
        }
        self.memo.insert(key, Known::OnPath);
        // The attacker needs one capturing line, the defender one escape.
        let mut result = !attacking;
        let mark = self.board.mark();
        // The target's liberties first, then the region's other points,
        // then a pass: filling or taking those liberties decides most
        // lines, and the search stops at the first line that decides
        // (a quarter fewer positions on the KGS archives).
        let n = self.region.len();
        let target = b.chain_id(self.target);
        // Which of the region's points are the target's liberties, asked
        // in the first round and remembered for the second (every line
        // tried is taken back, so they do not change; a point past the
        // 64th, which no region reaches, is asked again).
        let mut liberties = 0u64;
        for i in 0..=2 * n {
            let b = &self.board;
            let r = (i < 2 * n).then(|| self.region[i % n]);
            if let Some(r) = r {
                let first_round = i < n;
                let bit = 1u64.checked_shl((i % n) as u32);
                let liberty = match bit {
                    Some(bit) if !first_round => liberties & bit != 0,
                    _ => is_liberty_of(b, target, r),
                };
                if first_round && liberty {
                    liberties |= bit.unwrap_or(0);
                }
                if first_round != liberty {
                    continue;
                }
            }
            // The defender filling its own eye (every neighbour its own
            // stone) captures nothing and only takes a liberty: not read,
            // unless it saves a chain in atari there (a false eye filled to
            // connect). (The attacker's stones inside may need to: a
            // nakade shape is built so.)
            if r.is_some_and(|r| {
                !b.is_legal(to_move, r) || (!attacking && fills_own_eye(b, to_move, r))
            }) {
                continue;
            }
            // Taking the target's last liberty ends the line: no need to
            // play it out (the position after it answers at once).
            if attacking && r.is_some() && b.atari_liberty(self.target) == r {
                result = true;
                break;
            }
            let after = match r {
                Some(r) => {
                    self.board.play_logged(to_move, r);
                    0
                }
                None => {
                    self.board.pass();
                    passes + 1
                }
            };
            let captured = self.captures(to_move.opponent(), after, depth + 1);
            self.board.undo_to(mark);
            if captured == attacking {
                result = attacking;
                break;
            }
        }
        if self.nodes <= MAX_NODES {
            self.memo.insert(key, Known::Captured(result));
        } else {
            self.memo.remove(&key);
        }
        result
    }
}

/// Whether the chain through `target` has two eyes of its own in
/// `region`: empty points whose every neighbour on the board is one of its
/// stones. Such a chain is never captured: the opponent's play in either
/// eye is suicide while the other is empty, and the reading never fills
/// an own eye ([`fills_own_eye`]) of a chain that is not in atari.
fn has_two_eyes(b: &Board, target: usize, region: &[usize]) -> bool {
    let id = b.chain_id(target);
    let own = |q: &usize| !b.on_board(*q) || (b.at(*q).is_some() && b.chain_id(*q) == id);
    region
        .iter()
        .filter(|&&r| b.at(r).is_none() && b.neighbours(r).iter().all(own))
        .nth(1)
        .is_some()
}

/// Whether empty point `r` is a liberty of the chain with id `chain`.
fn is_liberty_of(b: &Board, chain: usize, r: usize) -> bool {
    b.at(r).is_none()
        && b.neighbours(r)
            .iter()
            .any(|&q| b.at(q).is_some() && b.chain_id(q) == chain)
}

/// Whether every neighbour of `r` is a stone of `color` (or the edge) and
/// none of them is in atari: a play there fills an eye and connects no
/// chain that needs it.
fn fills_own_eye(b: &Board, color: Color, r: usize) -> bool {
    b.neighbours(r)
        .iter()
        .all(|&q| !b.on_board(q) || (b.at(q) == Some(color) && b.atari_liberty(q).is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the chain at (x, y) is captured with each side moving
    /// first: (attacker first, defender first); `None` if not enclosed.
    fn reading(diagram: &str, x: u8, y: u8) -> Option<(bool, bool)> {
        let b = Board::from_diagram(diagram);
        let terrain = Terrain::new(&b, vec![false; b.index_len()]);
        let p = b.index(x, y);
        let c = b.at(p).unwrap();
        let r = region(&b, p, &terrain)?;
        Some((
            captured(&b, p, &r, c.opponent()).unwrap(),
            captured(&b, p, &r, c).unwrap(),
        ))
    }

    #[test]
    fn a_false_eye_joined_by_a_chain_that_dies_is_no_eye() {
        // Black's eight stones at (3,0) can take White's stone at (0,3)
        // for an eye, but that eye is false: Black's five stones at
        // (0,4) beside it have no eye and die in White's wall, and White
        // then plays at (0,3) again. Black's corner, with White's two
        // stones at (1,0) inside, cannot make a second eye: both chains
        // are captured whoever moves first. (KGS 2017-03-18-21, top
        // left: Black's five stones bounded the region of the eight,
        // which read alive.)
        let b = ". O O X O . . . .
                 X X . X O . . . .
                 . X X X O . . . .
                 O X O O O . . . .
                 X O O . O . . . .
                 X X X X O . . . .
                 . . . O O . . . .
                 . O O O O . . . .
                 O O . . . . . . .
                 . . . . . . . . .";
        assert_eq!(reading(b, 3, 0), Some((true, true)));
        assert_eq!(reading(b, 0, 4), Some((true, true)));
    }

    #[test]
    fn a_false_seki_in_the_corner_is_dead() {
        // Black's corner chain shares its two liberties, (0,0) and (1,2),
        // with the two white stones inside. White throws in at (0,0);
        // Black takes three stones and is left with a straight three in
        // the corner, which White kills with the placement. Black moving
        // first only hastens the end. (KGS 2003-08-26-22, top left.)
        let b = ". X O . .
                 O X X O .
                 O . X X O
                 X X X O .
                 O O O O .";
        assert_eq!(reading(b, 1, 0), Some((true, true)));
        // The white stones inside are not read: White's stone at (2,0),
        // in atari beside Black's chain, joins their group, and Black
        // could take it for a liberty outside the region.
        assert_eq!(reading(b, 0, 1), None);
    }

    /// White's group has one eye, at (2,5), and shares its other liberty,
    /// (6,2), with Black's seven stones inside it, whose eye holds White's
    /// stone at (5,4) in atari: a seki. If Black takes that stone and then
    /// fills (6,2), White retakes at (5,4) and captures Black's inside
    /// stones; a reading that cannot play on the taken stone's point
    /// misses the retake and calls White's group dead whoever moves first.
    /// (KGS 2002-12-18-4, bottom right.)
    #[test]
    fn a_seki_needing_a_retake_where_a_stone_was_taken_is_safe() {
        let b = "X X X X X X O
                 X . . X O O O
                 X X X O O O .
                 X X O O X X X
                 X O O O X O X
                 X O . O X . X";
        assert_eq!(reading(b, 4, 1), Some((false, false)));
    }

    #[test]
    fn a_real_seki_is_safe_for_both() {
        // White's column 2 and Black's column 4 have no eyes and share the
        // three liberties of column 3: whoever fills two of them is
        // captured, so neither side can capture the other.
        let b = ". X O . X O .
                 X X O . X O O
                 . X O . X O .";
        assert_eq!(reading(b, 2, 0), Some((false, false)));
        assert_eq!(reading(b, 4, 0), Some((false, false)));
    }

    #[test]
    fn two_eyes_are_safe_and_one_small_eye_is_dead() {
        // A black group with two separate one-point eyes, walled in.
        let two = "O O O O O O O
                   O X X X X X O
                   O X . X . X O
                   O X X X X X O
                   O O O O O O O";
        assert_eq!(reading(two, 1, 1), Some((false, false)));
        // The same group with one two-point eye: White fills it.
        let one = "O O O O O O O
                   O X X X X X O
                   O X . . X X O
                   O X X X X X O
                   O O O O O O O";
        assert_eq!(reading(one, 1, 1), Some((true, true)));
        // A straight three lives if Black moves first, dies if White does.
        let three = "O O O O O O O
                     O X X X X X O
                     O X . . . X O
                     O X X X X X O
                     O O O O O O O";
        assert_eq!(reading(three, 1, 1), Some((true, false)));
    }

    #[test]
    fn an_open_group_or_a_large_region_is_not_read() {
        let b = ". . . . .
                 . X X . .
                 . . . . .";
        assert_eq!(reading(b, 1, 1), None);
        let twelve = "O O O O O O O O O O O O O O O O
                      O X X X X X X X X X X X X X X O
                      O X . . . . . . . . . . . . X O
                      O X X X X X X X X X X X X X X O
                      O O O O O O O O O O O O O O O O";
        assert_eq!(reading(twelve, 1, 1), None);
    }

    /// An eye space of eleven points is the largest read (`MAX_REGION`):
    /// White's two stones inside are captured, and Black lives whoever
    /// moves first.
    #[test]
    fn a_region_of_eleven_points_is_read() {
        let eleven = "O O O O O O O O O O O O O O O
                      O X X X X X X X X X X X X X O
                      O X . . . . O O . . . . . X O
                      O X X X X X X X X X X X X X O
                      O O O O O O O O O O O O O O O";
        assert_eq!(reading(eleven, 1, 1), Some((false, false)));
    }

    /// White's stone at (5,0) joins its living group only through the
    /// eye at (4,0). Black's (6,0) puts it in atari; White fills the eye to
    /// connect, and the group keeps its two eyes at (0,0) and (2,0). A
    /// reading that never lets the defender fill its own eye lets Black
    /// take the stone, playing (4,0). (KGS 2003-07-30-21, top: White's group of
    /// 12 stones, alive in `RE`, was read dead whoever moves first.)
    #[test]
    fn a_false_eye_is_filled_to_save_the_chain_it_joins() {
        let b = ". O . O . O . X .
                 O O O O O X X X .
                 X X X X X X . . .
                 . . . . . . . . .";
        assert_eq!(reading(b, 5, 0), Some((false, false)));
    }

    /// Black's stone at (1,0) has one liberty in the corner and one in the
    /// large open area: it bounds White's region like a wall (before, it
    /// ruled the region out). White's group has one eye, at (0,2), and
    /// Black takes (0,0): dead whoever moves first. (KGS 2002-10-12-9,
    /// top left: White's ten stones, dead in `RE` and for GNU Go 3.8.)
    #[test]
    fn an_opponent_chain_reaching_an_open_area_bounds_the_region() {
        let b = ". X . . . .
                 O O X . . .
                 . O X . . .
                 O O X . . .
                 X X X . . .";
        assert_eq!(reading(b, 0, 1), Some((true, true)));
        // Black's own chain reaching the open area still rules out the
        // reading of Black's group.
        assert_eq!(reading(b, 2, 1), None);
    }

    /// Black's stone at (1,0) has two liberties: (0,0) in White's region
    /// and (2,0), which it shares with Black's wall around the nine-point
    /// pocket on the right (the wall reaches the open area). The two hang
    /// together, so the stone bounds White's region; joining it, its
    /// liberties and the pocket would take the region to 12 points, too
    /// many to read. White's group has one eye: dead. (KGS 2002-09-22-6,
    /// bottom right: White's 11 stones at `rn` and `sr`, dead in `RE`,
    /// B+33.5; the playouts kept them alive about half of the time.)
    #[test]
    fn an_opponent_chain_joined_to_a_wall_bounds_the_region() {
        let b = ". X . . . . . X . . . .
                 O O X . . . . X . . . .
                 . O X X X X X X . . . .
                 O O X . . . . . . . . .
                 X X X . . . . . . . . .";
        assert_eq!(reading(b, 0, 1), Some((true, true)));
    }

    /// Black's group has an eye at (1,1) and would take White's stone at
    /// (0,3) for a second, but Black's stone at (0,4) beside it is in
    /// atari, with its liberty in the open area below: whether that eye
    /// is real is decided outside the region, which is therefore not read
    /// (before, the stone bounded the region and the group read alive).
    /// (KGS 2002-01-22-6, left side: Black's 13 stones, dead in `RE`.)
    #[test]
    fn an_own_chain_in_atari_beside_a_stone_inside_joins_the_group() {
        let b = "X X X O . . . .
                 X . X O . . . .
                 . X X O . . . .
                 O X O O . . . .
                 X O . . . . . .
                 . . . . . . . .
                 . . . . . . . .
                 . . . . . . . .";
        assert_eq!(reading(b, 1, 0), None);
        // Out of atari (a second stone at (0,5)) the chain joins the group
        // all the same, and its liberties in the open area below leave
        // the region unread: it may yet be cut off and captured.
        let longer = b.replacen(". . . . . . . .", "X . . . . . . .", 1);
        assert_eq!(reading(&longer, 1, 0), None);
    }

    #[test]
    fn pass_alive_chains_and_long_walls_bound_the_region() {
        // The white wall touches the region; marked pass-alive it bounds
        // it, unmarked its five outside liberties join it, and the empty
        // points beside them (too many). The ten points left of it are no
        // open area.
        let rows = ". . O X .
                    . . O X .
                    . . O X X
                    . . O . X
                    . . O X X";
        let b = Board::from_diagram(rows);
        let p = b.index(3, 2);
        let mut fixed = vec![false; b.index_len()];
        assert!(region(&b, p, &Terrain::new(&b, fixed.clone())).is_none());
        for q in b.points().filter(|&q| b.at(q) == Some(Color::White)) {
            fixed[q] = true;
        }
        let r = region(&b, p, &Terrain::new(&b, fixed)).expect("closed by the wall");
        let points: Vec<_> = r.iter().map(|&q| b.xy(q)).collect();
        assert_eq!(points, [(4, 0), (4, 1), (3, 3)]);
        // One column and ten rows left of the wall: it has ten liberties
        // and bounds the region unmarked, though the ten points are no
        // open area. Black is dead: (3,3) touches the wall, so White fills
        // it from there, and (4,0)-(4,1) is one eye.
        let ten_rows = |rows: &str| format!("{rows}\n{}", ". . O O O\n".repeat(5));
        let long = ten_rows(&rows.replace(". . O", ". O"));
        let long = long.replace(". . O O O", ". O O O");
        let b = Board::from_diagram(&long);
        let p = b.index(2, 2);
        let terrain = Terrain::new(&b, vec![false; b.index_len()]);
        let r = region(&b, p, &terrain).expect("closed by the long wall");
        assert_eq!(r.len(), 3);
        assert_eq!(reading(&long, 2, 2), Some((true, true)));
        // Three columns and five rows: fifteen points, an open area, which
        // the wall reaches, and so bounds the region with five liberties.
        let open = rows.replace(". . O", ". . . O");
        assert_eq!(reading(&open, 4, 2), Some((true, true)));
    }

    /// The reading's shortcut takes only a chain's own two eyes: an eye
    /// bordered by another chain of its colour may be false, and one eye
    /// and a larger space are not two eyes.
    #[test]
    fn two_eyes_are_the_chains_own_single_points() {
        let eyes = |diagram: &str| {
            let b = Board::from_diagram(diagram);
            let region: Vec<_> = b.points().filter(|&p| b.at(p).is_none()).collect();
            has_two_eyes(&b, b.index(1, 0), &region)
        };
        // Black's chain around (0,0) and (2,0), on the edge.
        assert!(eyes(
            ". X . X O
             X X X X O
             O O O O O"
        ));
        // (2,0) is bordered by a second black chain at (3,0).
        assert!(!eyes(
            ". X . X O
             X X X O O
             O O O O O"
        ));
        // One eye at (0,0), and two empty points at (2,0) and (3,0).
        assert!(!eyes(
            ". X . . X
             X X X X X
             O O O O O"
        ));
    }
}
