//! The local game inside one endgame zone, searched to the end.
//!
//! A zone is a set of at most 64 points (empty points and unsettled stones)
//! fenced off by safe stones and the board's edges (see
//! [`crate::go::endgame::zones`]). Play alternates inside it; either side may pass
//! locally, and two passes in a row end the local game. Safe stones are
//! never captured, so a stone touching a safe stone of its colour is safe
//! too. Ko is simple ko; a play that repeats a position of the current line
//! is not allowed (positional superko along the line).
//!
//! The end position is counted as the seed
//! `go-endgame-count-and-move-values.txt` counts a settled position: Black's
//! points minus White's, points being territory plus prisoners. Unsafe
//! stones the opponent can capture by moving first (the owner answering)
//! are dead: the opponent's prisoners, their points his territory (the
//! Japanese convention: no one spends moves taking dead stones off). An
//! empty region bordered by both colours is dame or a seki liberty; the eye
//! of a group that lives only in seki counts nothing.
//!
//! The search is exact minimax with a transposition table. Lines are cut by
//! the seed `independent-zones-search.en.md`'s "formula of hope": a move is
//! not searched when even its best case (every empty point the mover's, every
//! unsafe enemy stone his prisoner) cannot beat what the mover already has.

use rustc_hash::FxHashMap as HashMap;

/// Largest zone the bit-set board holds.
pub const MAX_POINTS: usize = 64;

/// Stones of each colour on the zone's points, one bit per point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stones {
    pub black: u64,
    pub white: u64,
}

impl Stones {
    fn of(&self, black: bool) -> u64 {
        if black {
            self.black
        } else {
            self.white
        }
    }

    fn set(&mut self, black: bool, v: u64) {
        if black {
            self.black = v;
        } else {
            self.white = v;
        }
    }
}

/// The zone's fixed geometry: which points touch which, and which touch a
/// safe stone (or settled territory) of each colour.
#[derive(Debug, Clone)]
pub struct LocalBoard {
    n: usize,
    all: u64,
    adj: Vec<u64>,
    /// `[black, white]`: points next to a safe stone or wall of that colour.
    safe_touch: [u64; 2],
}

/// One step of a local sequence: a play on zone point `Some(i)` or a pass.
pub type Step = Option<u8>;

/// What a play did.
#[derive(Debug, Clone, Copy)]
struct Played {
    stones: Stones,
    captured: u32,
    ko: Option<u8>,
}

impl LocalBoard {
    /// A zone of `n` points with neighbour lists `adj` (zone indices) and the
    /// points touching safe Black / safe White stones.
    pub fn new(adj: &[Vec<usize>], safe_black: &[bool], safe_white: &[bool]) -> LocalBoard {
        let n = adj.len();
        assert!(n <= MAX_POINTS, "a zone holds at most {MAX_POINTS} points");
        let mask = |flags: &[bool]| {
            flags
                .iter()
                .enumerate()
                .filter(|(_, &f)| f)
                .fold(0u64, |m, (i, _)| m | 1 << i)
        };
        LocalBoard {
            n,
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            adj: adj
                .iter()
                .map(|v| v.iter().fold(0u64, |m, &j| m | 1 << j))
                .collect(),
            safe_touch: [mask(safe_black), mask(safe_white)],
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn empty(&self, s: &Stones) -> u64 {
        self.all & !s.black & !s.white
    }

    fn around(&self, set: u64) -> u64 {
        let mut out = 0;
        let mut bits = set;
        while bits != 0 {
            out |= self.adj[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out & !set
    }

    fn chain(&self, stones: u64, p: usize) -> u64 {
        let mut chain = 1u64 << p;
        let mut frontier = chain;
        while frontier != 0 {
            let q = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let more = self.adj[q] & stones & !chain;
            chain |= more;
            frontier |= more;
        }
        chain
    }

    fn safe(&self, chain: u64, black: bool) -> bool {
        chain & self.safe_touch[usize::from(!black)] != 0
    }

    /// Stones of a colour that belong to no safe chain.
    fn unsafe_stones(&self, s: &Stones, black: bool) -> u64 {
        let own = s.of(black);
        let mut left = own;
        let mut out = 0;
        while left != 0 {
            let c = self.chain(own, left.trailing_zeros() as usize);
            left &= !c;
            if !self.safe(c, black) {
                out |= c;
            }
        }
        out
    }

    /// Plays a stone of `black`'s colour on empty zone point `p`; `None` when
    /// illegal (occupied, simple-ko retake, suicide).
    fn play(&self, s: &Stones, black: bool, p: usize, ko: Option<u8>) -> Option<Played> {
        let bit = 1u64 << p;
        if (s.black | s.white) & bit != 0 || ko == Some(p as u8) {
            return None;
        }
        let mut next = *s;
        next.set(black, s.of(black) | bit);
        let opp = next.of(!black);
        let mut taken = 0u64;
        let mut nb = self.adj[p] & opp;
        while nb != 0 {
            let q = nb.trailing_zeros() as usize;
            nb &= nb - 1;
            let c = self.chain(opp, q);
            nb &= !c;
            if !self.safe(c, !black) && self.around(c) & self.empty(&next) == 0 {
                taken |= c;
            }
        }
        next.set(!black, opp & !taken);
        let own_chain = self.chain(next.of(black), p);
        let libs = self.around(own_chain) & self.empty(&next);
        if libs == 0 && !self.safe(own_chain, black) {
            return None;
        }
        let captured = taken.count_ones();
        let ko = (captured == 1 && own_chain == bit && libs == taken)
            .then(|| taken.trailing_zeros() as u8);
        Some(Played {
            stones: next,
            captured,
            ko,
        })
    }
}

/// A search's answer for one starting player: the count of the end position
/// reached by best play, and that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follower {
    /// Black's points minus White's gained in the zone from here on.
    pub count: i32,
    /// The moves of the line (passes inside it included), starter first;
    /// the closing passes are left out.
    pub line: Vec<Step>,
}

impl Follower {
    /// Stones Black played minus stones White played in the line.
    pub fn net_moves(&self, black_starts: bool) -> i32 {
        self.line
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(i, _)| if (i % 2 == 0) == black_starts { 1 } else { -1 })
            .sum()
    }
}

/// Why a search gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// More nodes than the budget allowed.
    Budget(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    stones: Stones,
    ko: u8,
    black_to_move: bool,
    passes: u8,
}

/// What the table knows of a position: bounds on its value.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lower: i32,
    upper: i32,
    /// The step that decided the last search of the position.
    best: Step,
}

const NO_KO: u8 = u8::MAX;
const INF: i32 = 1 << 20;

/// A local position during the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    s: Stones,
    ko: Option<u8>,
    black: bool,
    passes: u8,
}

impl Node {
    fn key(&self) -> Key {
        Key {
            stones: self.s,
            ko: self.ko.unwrap_or(NO_KO),
            black_to_move: self.black,
            passes: self.passes,
        }
    }
}

/// Searches one zone; keeps its tables between the two followers.
pub struct Search<'a> {
    g: &'a LocalBoard,
    tt: HashMap<Key, Bounds>,
    /// Shortest value-keeping lines: (length, first step, exact) or, when
    /// not exact, no line shorter than the length exists.
    shortest: HashMap<Key, (u32, Step, bool)>,
    settled: HashMap<Stones, i32>,
    captures: HashMap<(Stones, u8, bool, u8, u8), bool>,
    path: Vec<Stones>,
    max_depth: usize,
    /// Nodes visited so far (local-game positions, capture reading included).
    pub nodes: u64,
    budget: u64,
    /// Whether lines are cut by the formula of hope.
    hope: bool,
    /// Cut-offs each play caused, per colour (move ordering).
    history: [Vec<u32>; 2],
}

impl<'a> Search<'a> {
    /// A search of `g` that stops after `budget` nodes.
    pub fn new(g: &'a LocalBoard, budget: u64) -> Search<'a> {
        Search {
            g,
            tt: HashMap::default(),
            shortest: HashMap::default(),
            settled: HashMap::default(),
            captures: HashMap::default(),
            path: Vec::new(),
            max_depth: 3 * g.n + 8,
            nodes: 0,
            budget,
            hope: true,
            history: [vec![0; g.n], vec![0; g.n]],
        }
    }

    /// Turns the formula of hope off (for benchmarks: the same search
    /// without its cuts).
    pub fn without_hope(mut self) -> Search<'a> {
        self.hope = false;
        self
    }

    /// The follower when `black` starts from `start`. Play alternates; either
    /// side may pass locally, and two passes in a row end the line (so a
    /// starter with nothing to gain passes and the line shows the other
    /// side's play, if any).
    /// Of equally good lines the shortest is given: a line stops as soon as
    /// the zone is settled.
    ///
    /// # Errors
    /// [`SearchError::Budget`] when the node budget ran out.
    pub fn follower(&mut self, start: Stones, black: bool) -> Result<Follower, SearchError> {
        let root = Node {
            s: start,
            ko: None,
            black,
            passes: 0,
        };
        self.path.clear();
        self.path.push(start);
        let count = self.exact(root);
        let mut line = Vec::new();
        let mut node = root;
        while node.passes < 2 && self.nodes <= self.budget {
            let v = self.exact(node);
            self.path.push(node.s);
            let (_, step) = self.shortest_line(node, v, u32::MAX);
            line.push(step);
            let (next, _) = self.child(node, step).expect("a chosen step is legal");
            node = next;
        }
        if self.nodes > self.budget {
            return Err(SearchError::Budget(self.budget));
        }
        while line.last() == Some(&None) {
            line.pop();
        }
        Ok(Follower { count, line })
    }

    /// Plays a given line (a diagram's numbered sequence) from `start`,
    /// `black` first, and counts the end as a settled position: the line's
    /// count, its Black-minus-White moves and the stones it leaves.
    ///
    /// # Errors
    /// Which move of the line is illegal.
    pub fn play_line(
        &mut self,
        start: Stones,
        black: bool,
        line: &[Step],
    ) -> Result<(i32, i32, Stones), String> {
        let mut node = Node {
            s: start,
            ko: None,
            black,
            passes: 0,
        };
        let mut gained = 0;
        for (i, &step) in line.iter().enumerate() {
            let (next, gain) = self
                .child(node, step)
                .ok_or_else(|| format!("move {} is illegal", i + 1))?;
            gained += gain;
            node = next;
        }
        let f = Follower {
            count: 0,
            line: line.to_vec(),
        };
        Ok((gained + self.settle(node.s), f.net_moves(black), node.s))
    }

    /// The count of the end position if both pass now.
    pub fn settled_count(&mut self, s: Stones) -> i32 {
        self.settle(s)
    }

    /// The position after `step`, and the count it gains (prisoners).
    fn child(&self, n: Node, step: Step) -> Option<(Node, i32)> {
        match step {
            None => Some((
                Node {
                    s: n.s,
                    ko: None,
                    black: !n.black,
                    passes: n.passes + 1,
                },
                0,
            )),
            Some(p) => {
                let played = self.g.play(&n.s, n.black, p as usize, n.ko)?;
                let sign = if n.black { 1 } else { -1 };
                Some((
                    Node {
                        s: played.stones,
                        ko: played.ko,
                        black: !n.black,
                        passes: 0,
                    },
                    sign * played.captured as i32,
                ))
            }
        }
    }

    /// The steps to try at `n`: a pass first, then the legal plays that do
    /// not repeat a position of the line (none past the depth limit).
    fn steps(&self, n: Node, depth: usize) -> Vec<(Step, Node, i32)> {
        let mut out = vec![(None, self.child(n, None).expect("a pass is legal").0, 0)];
        if depth >= self.max_depth {
            return out;
        }
        let mut empties = self.g.empty(&n.s);
        while empties != 0 {
            let p = empties.trailing_zeros() as u8;
            empties &= empties - 1;
            if let Some((c, gain)) = self.child(n, Some(p)) {
                if !self.path.contains(&c.s) {
                    out.push((Some(p), c, gain));
                }
            }
        }
        out
    }

    /// The exact value of `n` by MTD(f): null-window searches converging on
    /// it from the count if both passed now, cheaper than one open window.
    fn exact(&mut self, n: Node) -> i32 {
        let depth = self.path.len();
        let (mut lower, mut upper) = (-INF, INF);
        let mut g = self.settle(n.s);
        while lower < upper && self.nodes <= self.budget {
            let beta = if g == lower { g + 1 } else { g };
            g = self.alpha_beta(n, depth, beta - 1, beta);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }

    /// Alpha-beta (fail-soft) with the table. Black maximises the count.
    fn alpha_beta(&mut self, n: Node, depth: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if n.passes >= 2 || self.nodes > self.budget {
            return self.settle(n.s);
        }
        let key = n.key();
        if let Some(b) = self.tt.get(&key) {
            if b.lower >= beta || b.lower == b.upper {
                return b.lower;
            }
            if b.upper <= alpha {
                return b.upper;
            }
            alpha = alpha.max(b.lower);
            beta = beta.min(b.upper);
        }
        // Formula of hope for the node: each side can pass from here on, so
        // the value lies between what either could reach alone.
        if self.hope {
            let (lower, upper) = (self.hope(&n.s, false), self.hope(&n.s, true));
            if upper <= alpha || lower == upper {
                return upper;
            }
            if lower >= beta {
                return lower;
            }
        }
        let (a0, b0) = (alpha, beta);
        let sign = if n.black { 1 } else { -1 };
        let mut best = -INF * sign;
        let mut best_step = None;
        let mut steps = self.steps(n, depth);
        // Move ordering: the table's step, then captures, then the rest.
        let hint = self.tt.get(&key).map(|b| b.best);
        let colour = usize::from(!n.black);
        steps.sort_by_key(|&(step, _, gain)| {
            let history = step.map_or(0, |p| self.history[colour][p as usize]);
            (
                Some(step) != hint,
                gain == 0,
                step.is_some(),
                std::cmp::Reverse(history),
            )
        });
        for (step, c, gain) in steps {
            if (n.black && best >= beta) || (!n.black && best <= alpha) {
                break;
            }
            // Formula of hope: a play whose best case cannot beat what the
            // mover is already sure of is not searched; its best case
            // stands in as a bound.
            if step.is_some() && self.hope {
                let hope = gain + self.hope(&c.s, n.black);
                let hopeless = if n.black { hope <= alpha } else { hope >= beta };
                if hopeless {
                    best = if n.black {
                        best.max(hope)
                    } else {
                        best.min(hope)
                    };
                    continue;
                }
            }
            self.path.push(c.s);
            let v = gain + self.alpha_beta(c, depth + 1, alpha - gain, beta - gain);
            self.path.pop();
            if (n.black && v > best) || (!n.black && v < best) {
                best = v;
                best_step = step;
            }
            if n.black {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            // History heuristic: plays that cut elsewhere are tried early.
            if alpha >= beta {
                if let Some(p) = step {
                    self.history[colour][p as usize] += 1;
                }
            }
        }
        let old = self.tt.get(&key).copied();
        let entry = if best <= a0 {
            Bounds {
                lower: old.map_or(-INF, |o| o.lower).min(best),
                upper: best,
                best: best_step,
            }
        } else if best >= b0 {
            Bounds {
                lower: best,
                upper: old.map_or(INF, |o| o.upper).max(best),
                best: best_step,
            }
        } else {
            Bounds {
                lower: best,
                upper: best,
                best: best_step,
            }
        };
        self.tt.insert(key, entry);
        best
    }

    /// Among the steps at `n` that keep its value `v`, the one whose line
    /// (both sides keeping to value-keeping steps) ends soonest, and that
    /// line's length; only lines shorter than `limit` are looked for
    /// (`u32::MAX` when there is none).
    fn shortest_line(&mut self, n: Node, v: i32, limit: u32) -> (u32, Step) {
        if n.passes >= 2 {
            return (0, None);
        }
        let key = n.key();
        match self.shortest.get(&key) {
            Some(&(len, step, true)) => return (len, step),
            Some(&(none_below, _, false)) if limit <= none_below => return (u32::MAX, None),
            _ => {}
        }
        let here = self.path.len();
        let mut best = (u32::MAX, None);
        let mut bound = limit;
        for (step, c, gain) in self.steps(n, here) {
            // The shortest a line through this step can be: a pass that
            // ends it, else the closing passes still to come.
            let least = match step {
                None => 1 + u32::from(c.passes < 2),
                Some(_) => 3,
            };
            if least >= bound || self.nodes > self.budget {
                continue;
            }
            // Does the step keep the value? (A null-window test.)
            self.path.push(c.s);
            let keeps = if n.black {
                gain + self.alpha_beta(c, here + 1, v - 1 - gain, v - gain) >= v
            } else {
                gain + self.alpha_beta(c, here + 1, v - gain, v + 1 - gain) <= v
            };
            if keeps {
                let (len, _) = self.shortest_line(c, v - gain, bound - 1);
                if len < bound - 1 {
                    best = (len + 1, step);
                    bound = len + 1;
                }
            }
            self.path.pop();
        }
        let entry = match best {
            (u32::MAX, _) => (limit, None, false),
            (len, step) => (len, step, true),
        };
        self.shortest.insert(key, entry);
        best
    }

    /// The most the mover (`black` or White) can still gain, as a count: if
    /// the opponent only passed, at best every point of the zone not next
    /// to the opponent's safe stones becomes the mover's territory and every
    /// unsafe enemy stone his prisoner. (The opponent can always pass, so no
    /// line gains more.)
    fn hope(&self, s: &Stones, black: bool) -> i32 {
        let g = self.g;
        let enemy = g.unsafe_stones(s, !black);
        // Points next to the enemy's safe stones, in or around the zone,
        // can never be the mover's territory.
        let enemy_safe = s.of(!black) & !enemy;
        let fenced = g.safe_touch[usize::from(black)] | g.around(enemy_safe);
        let claimable = (g.empty(s) | enemy) & !fenced;
        let best = (claimable.count_ones() + enemy.count_ones()) as i32;
        if black {
            best
        } else {
            -best
        }
    }

    /// Counts an end position: dead stones off, then territory.
    fn settle(&mut self, s: Stones) -> i32 {
        if let Some(&v) = self.settled.get(&s) {
            return v;
        }
        let g = self.g;
        let mut dead = Stones::default();
        for black in [true, false] {
            let own = s.of(black);
            let mut left = g.unsafe_stones(&s, black);
            while left != 0 {
                let p = left.trailing_zeros() as usize;
                let c = g.chain(own, p);
                left &= !c;
                let depth = 2 * (g.around(c) & g.empty(&s)).count_ones().min(5) as u8 + 4;
                if self.capture_read(s, None, !black, true, p as u8, depth) {
                    dead.set(black, dead.of(black) | c);
                }
            }
        }
        let alive = Stones {
            black: s.black & !dead.black,
            white: s.white & !dead.white,
        };
        let mut count = dead.white.count_ones() as i32 - dead.black.count_ones() as i32;
        let open = g.all & !alive.black & !alive.white;
        let unsafe_alive = [
            g.unsafe_stones(&alive, true),
            g.unsafe_stones(&alive, false),
        ];
        // Regions of open points, and which colours border them.
        let mut regions: Vec<(u64, bool, bool)> = Vec::new();
        let mut left = open;
        while left != 0 {
            let r = g.chain(open, left.trailing_zeros() as usize);
            left &= !r;
            let rim = g.around(r);
            let b = rim & alive.black != 0 || r & g.safe_touch[0] != 0;
            let w = rim & alive.white != 0 || r & g.safe_touch[1] != 0;
            regions.push((r, b, w));
        }
        let shared: u64 = regions
            .iter()
            .filter(|r| r.1 && r.2)
            .fold(0, |m, r| m | r.0);
        for &(r, b, w) in &regions {
            if b == w {
                continue;
            }
            let i = usize::from(w);
            let colour = if b { alive.black } else { alive.white };
            // An eye of stones that live only in seki: bordered by unsafe
            // stones alone, which also have a liberty in a shared region.
            let rim = g.around(r) & colour;
            let seki_eye = r & g.safe_touch[i] == 0
                && rim & !unsafe_alive[i] == 0
                && g.around(chains_of(g, colour, rim)) & shared != 0;
            if !seki_eye {
                let size = r.count_ones() as i32;
                count += if b { size } else { -size };
            }
        }
        self.settled.insert(s, count);
        count
    }

    /// Whether the attacker (`attacker_black`) can capture the unsafe chain
    /// through `target`, the owner answering or passing; `depth` plies at
    /// most. The attacker plays on the chain's liberties; the owner there
    /// too, or takes an attacking chain that touches his.
    fn capture_read(
        &mut self,
        s: Stones,
        ko: Option<u8>,
        attacker_black: bool,
        attacker_to_move: bool,
        target: u8,
        depth: u8,
    ) -> bool {
        let g = self.g;
        let owner = s.of(!attacker_black);
        if owner & (1 << target) == 0 {
            return true;
        }
        let chain = g.chain(owner, target as usize);
        if depth == 0 || g.safe(chain, !attacker_black) {
            return false;
        }
        self.nodes += 1;
        let k = (s, ko.unwrap_or(NO_KO), attacker_to_move, target, depth);
        if let Some(&v) = self.captures.get(&k) {
            return v;
        }
        let empty = g.empty(&s);
        let mut candidates = g.around(chain) & empty;
        if !attacker_to_move {
            // Liberties of attacking chains next to the target.
            let attackers = chains_of(g, s.of(attacker_black), g.around(chain));
            candidates |= g.around(attackers) & empty;
        }
        let mover_black = attacker_black == attacker_to_move;
        let mut result = !attacker_to_move;
        if !attacker_to_move && !self.capture_read(s, None, attacker_black, true, target, depth - 1)
        {
            result = false;
        }
        while candidates != 0 && result != attacker_to_move {
            let p = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if let Some(played) = g.play(&s, mover_black, p, ko) {
                let taken = self.capture_read(
                    played.stones,
                    played.ko,
                    attacker_black,
                    !attacker_to_move,
                    target,
                    depth - 1,
                );
                if taken == attacker_to_move {
                    result = attacker_to_move;
                }
            }
        }
        self.captures.insert(k, result);
        result
    }
}

/// The whole chains of `colour` that contain a stone of `set`.
fn chains_of(g: &LocalBoard, colour: u64, set: u64) -> u64 {
    let mut out = 0;
    let mut left = set;
    while left != 0 {
        let c = g.chain(colour, left.trailing_zeros() as usize);
        out |= c;
        left &= !c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of points (a 1×n strip) with safe flags per point.
    fn strip(n: usize, safe_b: &[usize], safe_w: &[usize]) -> LocalBoard {
        let adj: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let mut v = Vec::new();
                if i > 0 {
                    v.push(i - 1);
                }
                if i + 1 < n {
                    v.push(i + 1);
                }
                v
            })
            .collect();
        let flags = |s: &[usize]| (0..n).map(|i| s.contains(&i)).collect::<Vec<_>>();
        LocalBoard::new(&adj, &flags(safe_b), &flags(safe_w))
    }

    #[test]
    fn the_seeds_first_gote_example() {
        // Row 1 of `X . . . . O / X X X O O O`: four zone points, the first
        // two above Black stones, the last two above White ones, Black's wall
        // left and White's right. Hand-read: Black hanes at the third point,
        // White blocks, Black connects: 1 point. White's hane is symmetric.
        let g = strip(4, &[0, 1], &[2, 3]);
        let mut s = Search::new(&g, 1_000_000);
        let b = s.follower(Stones::default(), true).unwrap();
        let w = s.follower(Stones::default(), false).unwrap();
        assert_eq!((b.count, w.count), (1, -1));
        assert_eq!(b.line, [Some(2), Some(3), Some(1)]);
        assert_eq!(w.line, [Some(1), Some(0), Some(2)]);
        assert_eq!((b.net_moves(true), w.net_moves(false)), (1, -1));
        assert_eq!(s.settled_count(Stones::default()), 0);
    }

    #[test]
    fn a_lone_stone_in_enemy_territory_is_dead() {
        // Black walls both sides; one White stone in the middle of 3 points.
        let g = strip(3, &[0, 2], &[]);
        let s0 = Stones {
            black: 0,
            white: 0b010,
        };
        let mut s = Search::new(&g, 1_000_000);
        // Two empty points + the dead stone's point + one prisoner.
        assert_eq!(s.settled_count(s0), 4);
        assert_eq!(s.follower(s0, false).unwrap().count, 4);
    }

    #[test]
    fn the_budget_is_reported() {
        let g = strip(8, &[0], &[7]);
        let mut s = Search::new(&g, 10);
        assert_eq!(
            s.follower(Stones::default(), true),
            Err(SearchError::Budget(10))
        );
    }
}
