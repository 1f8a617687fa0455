//! Legal plays: every way a roll can be played under the rules of
//! backgammon, and the check of a recorded play against them.
//!
//! The rules enforced: checkers on the bar enter before any other moves; a
//! checker may not land on a point the opponent holds (two or more); a
//! single opponent checker there is hit and goes to the bar; bearing off
//! only with all fifteen in the home board, with an exact die or, from the
//! highest occupied point, a larger one; both dice must be used when
//! possible (all four moves of doubles), and when only one die can be used
//! the larger must be used if it can.

use crate::bg::game::record::{Step, BAR_POINT, OFF_POINT};
use crate::bg::position::board::{Board, BAR};
use crate::bg::position::notation::gnubg_notation;
use crate::bg::position::play::{Move, Play};

/// All legal plays of `dice` by player `p`, one per distinct resulting
/// position, in GNU Backgammon's order (`eval.c`, `GenerateMoves`): a
/// depth-first search from the highest point down, with the dice in the
/// order given and then swapped; a play keeps its place from its first
/// finding, and the notation of the finding that moves the most checkers
/// and pips. The order matters to gnubg's results: it evaluates a roll's
/// plays in it, incrementally (see [`crate::bg::eval::nn::Base`]). Empty
/// when the roll cannot be played at all.
pub fn legal_plays(board: &Board, p: usize, dice: (u8, u8)) -> Vec<Play> {
    let g = generate(board, p, dice, true);
    let moves = g.moves.unwrap_or_default();
    g.afters
        .into_iter()
        .zip(moves)
        .map(|(after, moves)| Play { moves, after })
        .collect()
}

/// The positions of [`legal_plays`], in its order, without the plays'
/// notation: what a search that only values the positions needs.
pub fn legal_positions(board: &Board, p: usize, dice: (u8, u8)) -> Vec<Board> {
    generate(board, p, dice, false).afters
}

/// [`legal_positions`] into `out` (emptied first), its room reused: a
/// caller keeping one vector for many rolls allocates nothing here.
pub fn legal_positions_into(board: &Board, p: usize, dice: (u8, u8), out: &mut Vec<Board>) {
    out.clear();
    *out = generate_into(board, p, dice, false, std::mem::take(out)).afters;
}

/// `f` of an empty vector of boards the thread keeps from use to use,
/// its room kept for the next (the callers that search roll after roll
/// allocate nothing). A use inside another gets a vector of its own.
pub fn with_spare_boards<T>(f: impl FnOnce(&mut Vec<Board>) -> T) -> T {
    with_spare(&SPARE_BOARDS, f)
}

/// `f` of the emptied vector a thread keeps in `spare`, put back after
/// ([`with_spare_boards`] and the like).
#[inline(always)]
pub fn with_spare<E, T>(
    spare: &'static std::thread::LocalKey<std::cell::Cell<Vec<E>>>,
    f: impl FnOnce(&mut Vec<E>) -> T,
) -> T {
    let mut kept = spare.take();
    kept.clear();
    let out = f(&mut kept);
    spare.set(kept);
    out
}

/// The search's plays; their moves only with `notation`.
fn generate(board: &Board, p: usize, dice: (u8, u8), notation: bool) -> Generator {
    generate_into(board, p, dice, notation, Vec::new())
}

thread_local! {
    /// The room of [`Generator::hashes`], kept from search to search.
    static HASHES: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
    /// The room of [`with_spare_boards`].
    static SPARE_BOARDS: std::cell::Cell<Vec<Board>> = const { std::cell::Cell::new(Vec::new()) };
}

/// [`generate`], the positions kept in `afters` (empty).
fn generate_into(
    board: &Board,
    p: usize,
    dice: (u8, u8),
    notation: bool,
    afters: Vec<Board>,
) -> Generator {
    debug_assert!(afters.is_empty());
    let mut hashes = HASHES.take();
    hashes.clear();
    let opp = &board.checkers[1 - p];
    let mut blocked = 0u32;
    let mut occ = 0u32;
    for i in 0..24 {
        blocked |= u32::from(opp[23 - i] >= 2) << i;
    }
    for (i, &n) in board.checkers[p].iter().enumerate() {
        occ |= u32::from(n > 0) << i;
    }
    let mut g = Generator {
        p,
        blocked,
        afters,
        hashes,
        index: Vec::new(),
        moves: notation.then(Vec::new),
        max_moves: 0,
        max_pips: 0,
        path: [NO_MOVE; 4],
    };
    let mut root = Node {
        board: *board,
        hash: 0,
        occ,
    };
    let (a, b) = (dice.0 as usize, dice.1 as usize);
    let more = if a == b { a } else { 0 };
    g.search(&mut root, &[a, b, more, more], 0, 23, 0);
    if a != b {
        g.search(&mut root, &[b, a, 0, 0], 0, 23, 0);
    }
    HASHES.set(std::mem::take(&mut g.hashes));
    g
}

/// Up to this many plays a position is looked for among them one by one
/// (by hash first); beyond, through [`Generator::index`].
const LINEAR_SEARCH: usize = 24;

/// A filler for the unused entries of [`Generator::path`].
const NO_MOVE: Move = Move {
    from: 0,
    to: None,
    hit: false,
    die: 0,
};

/// Random keys of a hash of positions: a position's hash is the sum of
/// `KEYS[p][i]` over every checker of player `p` on index `i`, so a
/// checker moved changes it by two keys. Two positions of one search are
/// equal when their hashes are and their boards compare equal.
static KEYS: [[u64; 25]; 2] = {
    let mut keys = [[0u64; 25]; 2];
    // splitmix64.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut k = 0;
    while k < 50 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[k / 25][k % 25] = z ^ (z >> 31);
        k += 1;
    }
    keys
};

/// A position reached by the search: the board, its hash relative to the
/// search's starting position (see [`KEYS`]) and the mover's occupied
/// points (bit i: index i, bit 24 the bar).
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    hash: u64,
    occ: u32,
}

/// The search of [`legal_plays`] (gnubg's `GenerateMovesSub` and
/// `SaveMoves`).
struct Generator {
    p: usize,
    /// The points (mover's numbering, bit i: index i) the opponent holds
    /// with two or more: a hit only takes a single checker, so they stay
    /// held throughout the search.
    blocked: u32,
    /// The kept plays' positions, in the order found.
    afters: Vec<Board>,
    /// Their hashes ([`Node::hash`]).
    hashes: Vec<u64>,
    /// Once there are more than [`LINEAR_SEARCH`] plays, an open-addressed
    /// table of them by hash: `1 + position in afters`, 0 for a free slot;
    /// empty before.
    index: Vec<u32>,
    /// Their moves, when the plays' notation is wanted.
    moves: Option<Vec<Vec<Move>>>,
    /// The most checker moves and pips of the plays kept: a play that
    /// moves fewer is not legal.
    max_moves: usize,
    max_pips: usize,
    /// The moves of the play being searched, `path[..depth]`.
    path: [Move; 4],
}

impl Generator {
    /// Moves one checker by `roll[depth]` from each point at or below
    /// `top` (the bar first when occupied) and goes deeper; returns
    /// whether no checker could move, so the caller keeps the play so far.
    /// Each move is made on `node` and taken back after its search, no
    /// node copied (a copy read whole just after a checker's byte was
    /// written waits for that store).
    fn search(
        &mut self,
        node: &mut Node,
        roll: &[usize; 4],
        depth: usize,
        top: usize,
        pips: usize,
    ) -> bool {
        if depth > 3 || roll[depth] == 0 {
            return true;
        }
        let d = roll[depth];
        if node.occ & 1 << BAR != 0 {
            if let Some(undo) = self.step(node, BAR, d) {
                self.go_on(node, undo.mv, roll, depth, 23, pips + d);
                node.undo(self.p, &undo);
                return false;
            }
            return true;
        }
        let mut used = false;
        // The occupied points at or below `top`, from the highest down.
        let mut from_set = node.occ & ((2u32 << top) - 1);
        while from_set != 0 {
            let from = 31 - from_set.leading_zeros() as usize;
            from_set &= !(1 << from);
            if let Some(undo) = self.step(node, from, d) {
                // Doubles: later checkers from no higher point, so each
                // set of moves is found once.
                let next = if roll[0] == roll[1] { from } else { 23 };
                self.go_on(node, undo.mv, roll, depth, next, pips + d);
                node.undo(self.p, &undo);
                used = true;
            }
        }
        !used
    }

    /// [`step`] on a node, made in place: the mover has a checker on
    /// `from`, and none on the bar unless `from` is the bar. With what
    /// takes it back.
    #[inline(always)]
    fn step(&self, node: &mut Node, from: usize, d: usize) -> Option<Undo> {
        let p = self.p;
        let landing = from as isize - d as isize;
        let undo = |mv: Move| Undo {
            mv,
            hash: node.hash,
            occ: node.occ,
        };
        if landing < 0 {
            // Bearing off: all home, and an exact die or, from the highest
            // occupied point, a larger one.
            if node.occ & !0x3f != 0 || (landing < -1 && node.occ >> (from + 1) != 0) {
                return None;
            }
            let off = undo(Move {
                from,
                to: None,
                hit: false,
                die: d as u8,
            });
            node.leave(p, from);
            return Some(off);
        }
        let landing = landing as usize;
        if self.blocked >> landing & 1 != 0 {
            return None;
        }
        let opp = 23 - landing;
        let hit = node.board.checkers[1 - p][opp] == 1;
        let done = undo(Move {
            from,
            to: Some(landing),
            hit,
            die: d as u8,
        });
        node.leave(p, from);
        if hit {
            node.board.checkers[1 - p][opp] = 0;
            node.board.checkers[1 - p][BAR] += 1;
            node.hash = node
                .hash
                .wrapping_add(KEYS[1 - p][BAR])
                .wrapping_sub(KEYS[1 - p][opp]);
        }
        node.board.checkers[p][landing] += 1;
        node.occ |= 1 << landing;
        node.hash = node.hash.wrapping_add(KEYS[p][landing]);
        Some(done)
    }

    fn go_on(
        &mut self,
        node: &mut Node,
        mv: Move,
        roll: &[usize; 4],
        depth: usize,
        top: usize,
        pips: usize,
    ) {
        self.path[depth] = mv;
        if self.search(node, roll, depth + 1, top, pips) {
            self.save(node, depth + 1, pips);
        }
    }

    /// Keeps the play of `path[..n]` unless it moves fewer checkers or
    /// pips than one kept (then it is not legal); one that moves more
    /// makes those kept illegal.
    fn save(&mut self, after: &Node, n: usize, pips: usize) {
        if n < self.max_moves || pips < self.max_pips {
            return;
        }
        if n > self.max_moves || pips > self.max_pips {
            self.afters.clear();
            self.hashes.clear();
            self.index.clear();
            self.moves.iter_mut().for_each(Vec::clear);
        }
        self.max_moves = n;
        self.max_pips = pips;
        if let Some(i) = self.find(after) {
            if let Some(moves) = &mut self.moves {
                let kept = &mut moves[i];
                let kept_pips: usize = kept.iter().map(|m| m.die as usize).sum();
                if n > kept.len() || pips > kept_pips {
                    *kept = self.path[..n].to_vec();
                }
            }
            return;
        }
        self.afters.push(after.board);
        self.hashes.push(after.hash);
        if let Some(moves) = &mut self.moves {
            moves.push(self.path[..n].to_vec());
        }
        let len = self.afters.len();
        if !self.index.is_empty() && 2 * len <= self.index.len() {
            self.insert(len - 1);
        } else if len > LINEAR_SEARCH {
            // (Re)built at four times the plays, so it stays at most half
            // full until the next rebuild.
            self.index = vec![0; (4 * len).next_power_of_two()];
            for i in 0..len {
                self.insert(i);
            }
        }
    }

    /// The first slot of `hash` in [`Generator::index`] (its size a power
    /// of two); later ones follow it.
    #[inline(always)]
    fn slot(&self, hash: u64) -> usize {
        (hash >> 32) as usize & (self.index.len() - 1)
    }

    /// Enters play `i` into the index.
    fn insert(&mut self, i: usize) {
        let mask = self.index.len() - 1;
        let mut s = self.slot(self.hashes[i]);
        while self.index[s] != 0 {
            s = (s + 1) & mask;
        }
        self.index[s] = i as u32 + 1;
    }

    /// Where the position of `node` is among the kept plays.
    #[inline(always)]
    fn find(&self, node: &Node) -> Option<usize> {
        let same = |i: usize| self.hashes[i] == node.hash && self.afters[i] == node.board;
        if self.index.is_empty() {
            return (0..self.hashes.len()).find(|&i| same(i));
        }
        let mask = self.index.len() - 1;
        let mut s = self.slot(node.hash);
        loop {
            let k = self.index[s] as usize;
            if k == 0 {
                return None;
            }
            if same(k - 1) {
                return Some(k - 1);
            }
            s = (s + 1) & mask;
        }
    }
}

/// A move made on a [`Node`] and the node's hash and occupied points
/// before it, to take it back ([`Node::undo`]).
struct Undo {
    mv: Move,
    hash: u64,
    occ: u32,
}

impl Node {
    /// Takes back `p`'s move of `undo`, made by [`Generator::step`].
    #[inline(always)]
    fn undo(&mut self, p: usize, undo: &Undo) {
        let Move { from, to, hit, .. } = undo.mv;
        self.board.checkers[p][from] += 1;
        if let Some(landing) = to {
            self.board.checkers[p][landing] -= 1;
            if hit {
                let opp = 23 - landing;
                self.board.checkers[1 - p][opp] = 1;
                self.board.checkers[1 - p][BAR] -= 1;
            }
        }
        self.hash = undo.hash;
        self.occ = undo.occ;
    }

    /// Takes one of `p`'s checkers off index `from`.
    #[inline(always)]
    fn leave(&mut self, p: usize, from: usize) {
        let n = &mut self.board.checkers[p][from];
        *n -= 1;
        if *n == 0 {
            self.occ &= !(1 << from);
        }
        self.hash = self.hash.wrapping_sub(KEYS[p][from]);
    }
}

/// Whether every checker of `p` is in the home board (points 1-6).
fn all_home(board: &Board, p: usize) -> bool {
    board.checkers[p][6..].iter().all(|&n| n == 0)
}

/// Moves one checker of `p` from `from` by `d` pips if the rules allow it.
pub fn step(board: &Board, p: usize, from: usize, d: usize) -> Option<(Board, Move)> {
    let row = &board.checkers[p];
    if row[from] == 0 || (row[BAR] > 0 && from != BAR) {
        return None;
    }
    // The bar is one beyond the 24-point: index 24 moves like point 25.
    let landing = from as isize - d as isize;
    let mut after = *board;
    after.checkers[p][from] -= 1;
    if landing < 0 {
        // Bearing off: all home, and an exact die or, from the highest
        // occupied point, a larger one.
        if !all_home(board, p) || (landing < -1 && row[from + 1..6].iter().any(|&n| n > 0)) {
            return None;
        }
        let off = Move {
            from,
            to: None,
            hit: false,
            die: d as u8,
        };
        return Some((after, off));
    }
    let landing = landing as usize;
    let opp = 23 - landing;
    let theirs = board.checkers[1 - p][opp];
    if theirs >= 2 {
        return None;
    }
    let hit = theirs == 1;
    if hit {
        after.checkers[1 - p][opp] = 0;
        after.checkers[1 - p][BAR] += 1;
    }
    after.checkers[p][landing] += 1;
    Some((
        after,
        Move {
            from,
            to: Some(landing),
            hit,
            die: d as u8,
        },
    ))
}

/// Why a recorded play is not legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// A short kind for counting: `no_checker`, `bar_first`,
    /// `blocked_point`, `bear_off_early`, `too_few_dice`,
    /// `smaller_die`, `wrong_distance`, `cannot_move`, `not_legal`.
    pub kind: &'static str,
    pub why: String,
}

/// Checks a recorded play (steps in the mover's numbering) against the
/// legal plays, returning the legal play it is.
///
/// # Errors
/// When no legal play leads to the position the steps describe, with the
/// first rule the play breaks.
pub fn check_play(
    board: &Board,
    p: usize,
    dice: (u8, u8),
    steps: &[Step],
) -> Result<Play, Illegal> {
    let illegal = |kind, why: String| Err(Illegal { kind, why });
    // The mover's checkers after the written steps, moved as written.
    let mut row = board.checkers[p];
    for s in steps {
        if s.from > BAR_POINT || s.to >= s.from {
            return illegal(
                "wrong_distance",
                format!("{}/{} does not move forward", s.from, s.to),
            );
        }
        let from = if s.from == BAR_POINT {
            BAR
        } else {
            s.from as usize - 1
        };
        if row[from] == 0 {
            let at = if from == BAR {
                "the bar".to_string()
            } else {
                format!("point {}", s.from)
            };
            return illegal("no_checker", format!("no checker of the mover on {at}"));
        }
        row[from] -= 1;
        if s.to != OFF_POINT {
            row[s.to as usize - 1] += 1;
        }
    }
    let written_hits = steps.iter().filter(|s| s.hit).count();
    let hits_off = |pl: &&Play| (pl.moves.iter().filter(|m| m.hit).count()).abs_diff(written_hits);
    // Fast path: make the written steps die by die (a combined step like
    // 13/7 with 6-1 may go through either point, hitting or not), and keep
    // the ways that use as many dice as the rules demand.
    let mut reached = Vec::new();
    let mut dice_left: Vec<u8> = if dice.0 == dice.1 {
        vec![dice.0; 4]
    } else {
        vec![dice.0, dice.1]
    };
    let mut path = Vec::with_capacity(4);
    realize(
        board,
        p,
        steps,
        None,
        &mut dice_left,
        &mut path,
        &mut reached,
    );
    if !reached.is_empty() {
        let (most, big) = most_dice(board, p, dice);
        let best = reached
            .iter()
            .filter(|pl| pl.moves.len() == most && big.is_none_or(|b| pl.moves[0].die == b))
            .min_by_key(hits_off);
        if let Some(pl) = best {
            return Ok(pl.clone());
        }
    }
    // Slow path: the steps may be listed interleaved (`5/off 2/off` for
    // 5/3/1/off 2/off); any legal play that leaves the mover's checkers
    // where the steps put them is the play.
    let legal = legal_plays(board, p, dice);
    let best = legal
        .iter()
        .filter(|pl| pl.after.checkers[p] == row)
        .min_by_key(hits_off);
    if let Some(pl) = best {
        return Ok(pl.clone());
    }
    Err(explain(board, p, dice, steps, &legal))
}

/// The most dice the roll lets `p` use, and, when that is one die of a
/// non-double that could be either, the die that must be used (the larger).
/// Stops at the first way to use them all, the usual case.
fn most_dice(board: &Board, p: usize, dice: (u8, u8)) -> (usize, Option<u8>) {
    fn depth(board: &Board, p: usize, dice: &[u8], max_from: usize, doubles: bool) -> usize {
        let Some((&d, rest)) = dice.split_first() else {
            return 0;
        };
        let top = if doubles { max_from } else { BAR };
        let mut best = 0;
        for from in (0..=top).rev() {
            if let Some((after, _)) = step(board, p, from, d as usize) {
                best = best.max(1 + depth(&after, p, rest, from, doubles));
                if best == dice.len() {
                    break;
                }
            }
        }
        best
    }
    if dice.0 == dice.1 {
        let d = [dice.0; 4];
        return (depth(board, p, &d, BAR, true), None);
    }
    let ab = depth(board, p, &[dice.0, dice.1], BAR, false);
    if ab == 2 {
        return (2, None);
    }
    let ba = depth(board, p, &[dice.1, dice.0], BAR, false);
    let most = ab.max(ba);
    if most == 1 {
        let big = dice.0.max(dice.1);
        let big_playable = (0..=BAR).any(|f| step(board, p, f, big as usize).is_some());
        return (1, big_playable.then_some(big));
    }
    (most, None)
}

/// Makes the written steps die by die, collecting every play they can make.
/// `at` is where the current step's checker is, once it started.
fn realize(
    board: &Board,
    p: usize,
    steps: &[Step],
    at: Option<usize>,
    dice: &mut Vec<u8>,
    path: &mut Vec<Move>,
    out: &mut Vec<Play>,
) {
    let Some(s) = steps.first() else {
        if !out.iter().any(|pl| pl.after == *board) {
            out.push(Play {
                moves: path.clone(),
                after: *board,
            });
        }
        return;
    };
    let from = at.unwrap_or(if s.from == BAR_POINT {
        BAR
    } else {
        s.from as usize - 1
    });
    // The step's target as an index; `None` is off.
    let target = (s.to != OFF_POINT).then(|| s.to as usize - 1);
    for k in 0..dice.len() {
        if dice[..k].contains(&dice[k]) {
            continue;
        }
        let d = dice.remove(k);
        if let Some((after, mv)) = step(board, p, from, d as usize) {
            path.push(mv);
            match (mv.to, target) {
                (None, None) => realize(&after, p, &steps[1..], None, dice, path, out),
                (Some(t), Some(goal)) if t == goal => {
                    realize(&after, p, &steps[1..], None, dice, path, out)
                }
                // Still on the way to the target (or to off).
                (Some(t), goal) if goal.is_none_or(|g| t > g) => {
                    realize(&after, p, steps, Some(t), dice, path, out)
                }
                _ => {}
            }
            path.pop();
        }
        dice.insert(k, d);
    }
}

/// The first rule a written play breaks, for the finding.
fn explain(board: &Board, p: usize, dice: (u8, u8), steps: &[Step], legal: &[Play]) -> Illegal {
    let mk = |kind, why: String| Illegal { kind, why };
    let example = legal
        .first()
        .map(|pl| gnubg_notation(board, p, &pl.moves))
        .unwrap_or_default();
    let can_move = legal.first().is_some_and(|pl| !pl.moves.is_empty());
    if !can_move {
        return mk(
            "cannot_move",
            format!(
                "no legal move with {}{}, but a play is written",
                dice.0, dice.1
            ),
        );
    }
    if steps.is_empty() {
        return mk(
            "too_few_dice",
            format!("no move written, but the roll can be played (e.g. {example})"),
        );
    }
    let row = &board.checkers[p];
    if row[BAR] > 0 {
        let entering = steps.iter().filter(|s| s.from == BAR_POINT).count();
        let first_other = steps.iter().position(|s| s.from != BAR_POINT);
        if first_other.is_some() && entering < row[BAR] as usize {
            return mk(
                "bar_first",
                format!(
                    "{} checker(s) on the bar must enter before any other move",
                    row[BAR]
                ),
            );
        }
    }
    for s in steps {
        if s.to != OFF_POINT {
            let idx = s.to as usize - 1;
            if board.checkers[1 - p][23 - idx] >= 2 {
                return mk(
                    "blocked_point",
                    format!("lands on point {}, which the opponent holds", s.to),
                );
            }
        }
    }
    if steps.iter().any(|s| s.to == OFF_POINT) {
        let outside: u32 = row[6..].iter().map(|&n| n as u32).sum();
        let moved_in = steps.iter().filter(|s| s.from > 6 && s.to <= 6).count() as u32;
        if outside > moved_in {
            return mk(
                "bear_off_early",
                "bears off while checkers are outside the home board".into(),
            );
        }
    }
    let pips: u32 = steps.iter().map(|s| (s.from - s.to) as u32).sum();
    let roll: u32 = if dice.0 == dice.1 {
        4 * dice.0 as u32
    } else {
        (dice.0 + dice.1) as u32
    };
    let bears_off = steps.iter().any(|s| s.to == OFF_POINT);
    let max_moves = legal[0].moves.len();
    if pips > roll {
        if !bears_off {
            return mk(
                "wrong_distance",
                format!("moves {pips} pips with a roll of {}{}", dice.0, dice.1),
            );
        }
    } else if pips < roll && !bears_off {
        let dice_count = if dice.0 == dice.1 { 4 } else { 2 };
        if max_moves == 1 && dice.0 != dice.1 {
            let big = dice.0.max(dice.1) as u32;
            if pips < big {
                return mk(
                    "smaller_die",
                    format!(
                        "only one die can be played and the larger ({big}) must be: e.g. {example}"
                    ),
                );
            }
        }
        return mk(
            "too_few_dice",
            format!(
                "plays {pips} of {roll} pips, but {max_moves} of {dice_count} dice can be played (e.g. {example})"
            ),
        );
    }
    mk(
        "not_legal",
        format!(
            "not one of the {} legal plays of {}{} (e.g. {example})",
            legal.len(),
            dice.0,
            dice.1
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<Step> {
        crate::bg::format::mat::read_play(&text.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn opening_rolls_have_the_known_number_of_plays() {
        // Distinct positions after each opening roll from the start.
        let b = Board::start();
        let n = |d| legal_plays(&b, 0, d).len();
        assert_eq!(n((3, 1)), 16);
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let plays = legal_plays(&b, 0, (d1, d2));
                let want = if d1 == d2 { 4 } else { 2 };
                assert!(plays.iter().all(|p| p.moves.len() == want), "{d1}{d2}");
                for pl in &plays {
                    assert_eq!(pl.after.on_board(0), 15);
                    assert_eq!(
                        b.pips(0) - pl.after.pips(0),
                        (d1 as u32 + d2 as u32) * (want as u32 / 2)
                    );
                }
            }
        }
    }

    /// Calls `visit` with every position of `games` random games from the
    /// start (contact, doubles with many plays, bar entries and bearoffs),
    /// the player on roll and the random dice it then plays, each game
    /// going on by a random legal play of those dice.
    fn random_positions(seed: u64, games: usize, mut visit: impl FnMut(&Board, usize, (u8, u8))) {
        let mut seed = seed;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..games {
            let mut b = Board::start();
            for ply in 0..200 {
                let p = ply % 2;
                let dice = (1 + next(6) as u8, 1 + next(6) as u8);
                visit(&b, p, dice);
                let plays = legal_plays(&b, p, dice);
                if plays.is_empty() {
                    continue;
                }
                b = plays[next(plays.len() as u64) as usize].after;
                if b.on_board(p) == 0 {
                    break;
                }
            }
        }
    }

    #[test]
    fn positions_are_the_plays_positions_in_order() {
        let mut many = 0;
        random_positions(0x9e37_79b9_7f4a_7c15, 40, |b, p, dice| {
            let plays = legal_plays(b, p, dice);
            let afters: Vec<Board> = plays.iter().map(|pl| pl.after).collect();
            assert_eq!(legal_positions(b, p, dice), afters, "{b:?} {dice:?}");
            many += usize::from(plays.len() > LINEAR_SEARCH);
        });
        assert!(many > 50, "plays beyond the linear search: {many}");
    }

    /// The search as first written, for [`same_plays_as_the_plain_search`]:
    /// [`step`] from every point, a linear search of the plays kept.
    fn plain_search(board: &Board, p: usize, dice: (u8, u8)) -> Vec<(Board, Vec<Move>)> {
        struct S {
            p: usize,
            kept: Vec<(Board, Vec<Move>)>,
            max: (usize, usize),
            path: Vec<Move>,
        }
        fn go(
            s: &mut S,
            b: &Board,
            roll: &[usize; 4],
            depth: usize,
            top: usize,
            pips: usize,
        ) -> bool {
            if depth > 3 || roll[depth] == 0 {
                return true;
            }
            let d = roll[depth];
            let froms: Vec<usize> = if b.checkers[s.p][BAR] > 0 {
                vec![BAR]
            } else {
                (0..=top).rev().collect()
            };
            let mut used = false;
            for from in froms {
                if let Some((after, mv)) = step(b, s.p, from, d) {
                    let next = if from == BAR || roll[0] != roll[1] {
                        23
                    } else {
                        from
                    };
                    s.path.push(mv);
                    if go(s, &after, roll, depth + 1, next, pips + d) {
                        let n = s.path.len();
                        if n >= s.max.0 && pips + d >= s.max.1 {
                            if n > s.max.0 || pips + d > s.max.1 {
                                s.kept.clear();
                            }
                            s.max = (n, pips + d);
                            match s.kept.iter_mut().find(|k| k.0 == after) {
                                Some(k) => {
                                    let kept_pips: usize = k.1.iter().map(|m| m.die as usize).sum();
                                    if n > k.1.len() || pips + d > kept_pips {
                                        k.1 = s.path.clone();
                                    }
                                }
                                None => s.kept.push((after, s.path.clone())),
                            }
                        }
                    }
                    s.path.pop();
                    used = true;
                    if from == BAR {
                        break;
                    }
                }
            }
            !used
        }
        let mut s = S {
            p,
            kept: Vec::new(),
            max: (0, 0),
            path: Vec::new(),
        };
        let (a, b) = (dice.0 as usize, dice.1 as usize);
        let more = if a == b { a } else { 0 };
        go(&mut s, board, &[a, b, more, more], 0, 23, 0);
        if a != b {
            go(&mut s, board, &[b, a, 0, 0], 0, 23, 0);
        }
        s.kept
    }

    #[test]
    fn same_plays_as_the_plain_search() {
        let mut boards = 0;
        random_positions(0x1234_5678_9abc_def1, 60, |b, p, _| {
            for d1 in 1..=6u8 {
                for d2 in 1..=6u8 {
                    let want = plain_search(b, p, (d1, d2));
                    let got: Vec<(Board, Vec<Move>)> = legal_plays(b, p, (d1, d2))
                        .into_iter()
                        .map(|pl| (pl.after, pl.moves))
                        .collect();
                    assert_eq!(got, want, "{b:?} {p} {d1}{d2}");
                }
            }
            boards += 1;
        });
        assert!(boards > 2000, "{boards}");
    }

    #[test]
    fn recorded_plays_are_checked() {
        let b = Board::start();
        assert!(check_play(&b, 0, (3, 1), &steps("8/5 6/5")).is_ok());
        // A combined move through an open point, and one too far.
        assert!(check_play(&b, 0, (6, 1), &steps("13/6")).is_ok());
        let e = check_play(&b, 0, (6, 1), &steps("13/5")).unwrap_err();
        assert_eq!(e.kind, "wrong_distance", "{e:?}");
        let e = check_play(&b, 0, (6, 1), &steps("9/3 6/5")).unwrap_err();
        assert_eq!(e.kind, "no_checker", "{e:?}");
    }

    #[test]
    fn plays_come_in_gnubgs_order() {
        // gnubg 1.1.0a16's GenerateMoves for the opening 3-1: the 3 first,
        // from the highest point down, then the 1.
        let start = Board::start();
        let plays = legal_plays(&start, 0, (3, 1));
        let first: Vec<String> = plays
            .iter()
            .take(3)
            .map(|p| gnubg_notation(&start, 0, &p.moves))
            .collect();
        assert_eq!(first, ["24/23 24/21", "24/20", "24/21 8/7"]);
        assert_eq!(plays.len(), 16);
    }

    #[test]
    fn bar_entry_and_blocks() {
        let mut b = Board::start();
        // Player 0 has a checker on the bar; player 1 holds its 6 and 8
        // points = player 0's 19 and 17.
        b.checkers[0][23] = 1;
        b.checkers[0][BAR] = 1;
        // 6-6: entering needs point 19 (index 18) = opponent's 6-point: held.
        assert!(legal_plays(&b, 0, (6, 6)).is_empty());
        assert!(check_play(&b, 0, (6, 6), &[]).is_ok());
        let e = check_play(&b, 0, (6, 6), &steps("13/7(2)")).unwrap_err();
        assert_eq!(e.kind, "cannot_move");
        let e = check_play(&b, 0, (5, 2), &steps("13/8 13/11")).unwrap_err();
        assert_eq!(e.kind, "bar_first", "{e:?}");
        assert!(check_play(&b, 0, (5, 2), &steps("bar/20 13/11")).is_ok());
        assert!(check_play(&b, 0, (5, 2), &steps("bar/23 13/8")).is_ok());
    }

    #[test]
    fn bearing_off_rules() {
        let mut b = Board::empty();
        b.checkers[0][4] = 1; // 5-point
        b.checkers[0][1] = 2; // 2-point
        b.checkers[1][0] = 2; // far away, on player 0's 24-point
                              // 6-1: the 6 bears off the 5 (highest point), then the 1 moves.
        assert!(check_play(&b, 0, (6, 1), &steps("5/off 2/1")).is_ok());
        assert!(check_play(&b, 0, (6, 1), &steps("5/off 2/off")).is_err());
        // A larger die may not bear off from below a higher checker.
        let e = check_play(&b, 0, (6, 3), &steps("2/off 2/off")).unwrap_err();
        assert_ne!(e.kind, "no_checker");
        // Outside checker: no bearing off.
        b.checkers[0][9] = 1;
        let e = check_play(&b, 0, (6, 1), &steps("5/off 10/9")).unwrap_err();
        assert_eq!(e.kind, "bear_off_early", "{e:?}");
    }

    #[test]
    fn larger_die_rule() {
        // One checker left, on the 11-point; the opponent holds the
        // 5-point. 11/6/5 and 11/10/5 are blocked, so only one die can be
        // played, and it must be the 5.
        let mut b = Board::empty();
        b.checkers[0][10] = 1;
        b.checkers[1][23 - 4] = 2;
        let plays = legal_plays(&b, 0, (5, 1));
        assert_eq!(plays.len(), 1, "{plays:?}");
        assert_eq!(plays[0].moves[0].die, 5);
        assert!(check_play(&b, 0, (5, 1), &steps("11/6")).is_ok());
        let e = check_play(&b, 0, (5, 1), &steps("11/10")).unwrap_err();
        assert_eq!(e.kind, "smaller_die", "{e:?}");
    }
}
