//! Which stones are dead at the end of a game: read from the record's
//! territory markup, or estimated.
//!
//! The estimator fixes Benson's pass-alive chains (and calls dead any stone
//! inside the other side's pass-alive territory, and any chain in atari
//! with no way out: [`hopeless_chains`]), then plays random games
//! to the end from the final position and counts who owns each point at
//! the end. The playouts follow a light policy: when the last move
//! captured stones that leave a killing shape ([`crate::go::nakade`]), the
//! captured side replays at its vital point; else it answers the last move
//! locally (take the biggest chain it left in atari; save an own chain in
//! atari by extending or by a counter-capture; shorten the liberties of a
//! weak opponent chain beside an own chain it cut to two liberties, as a
//! capturing race is played), else a random legal move that neither fills
//! an own eye nor puts a chain of two or more stones in atari (which also
//! keeps most seki alive; no move of the playouts captures into a
//! snapback: [`Board::captures_into_snapback`]), nor ataris a chain in seki inside its group
//! ([`crate::go::nakade::atari_into_one_eye`]). They are seeded from the position, so a game
//! always gets the same answer, and run in batches until every stone is
//! clear-cut. A chain whose owner's mean ownership falls below 0.2 is
//! dead, with two corrections: of two such chains of both colours side by
//! side in a race between two sides' groups one must live (the one kept
//! more often), and a chain whose removal would win no territory (its
//! region touches both colours) stays on the board, as players leave it.
//! Before those corrections, fights closed in a small region with the
//! other side's stones inside are read out ([`crate::go::enclosed`]);
//! [`read_out`] lists them for `recount explain`. Last, chains reaching
//! into the other side's open area are taken off
//! ([`estimate_with_notes`] lists them): a finished game leaves no such area.
//! [`crate::go::territory`] then settles the position and recognises seki.

use crate::go::board::{Board, Color, EmptyRegions, BORDER_BLACK, BORDER_WHITE};
use crate::go::enclosed;
use crate::go::life::{benson, BensonResult};
use crate::go::nakade;
use crate::go::patterns;
use crate::go::record::Markup;
use crate::go::replay::{chain_label, sgf_point, stone_count};
use crate::go::territory::MAX_SEKI_REGION;
use serde::Serialize;

/// Where the dead stones came from (column `dead_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DeadSource {
    /// `TB`/`TW` markup of the record.
    Markup = 0,
    /// The built-in estimator.
    Estimate,
    /// No stone taken off.
    #[default]
    None,
}

/// The `--dead-stones` policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadPolicy {
    /// Markup where the record has it, else estimate.
    Auto,
    Markup,
    Estimate,
    None,
}

/// Dead stones by markup: a black stone on a `TW` point or a white stone on
/// a `TB` point.
pub fn from_markup(board: &Board, markup: &Markup) -> Vec<bool> {
    let mut dead = vec![false; board.index_len()];
    let mut mark = |points: &[(u8, u8)], owner: Color| {
        for &(x, y) in points {
            if board.get(x, y) == Some(owner.opponent()) {
                dead[board.index(x, y)] = true;
            }
        }
    };
    mark(&markup.black, Color::Black);
    mark(&markup.white, Color::White);
    dead
}

/// A chain is dead when its mean ownership (+1 always its own, −1 always
/// the opponent's) falls below 0.2. Random play lets dead stones survive
/// more often than real play would, so the bar is set on the owner's side
/// of even: on the KGS archives with territory markup this reproduced the
/// players' marking best (measured with `scripts/accuracy.sh`).
const DEAD_THRESHOLD: f32 = -0.2;

/// How doubtful the verdict on a chain is: the distance of its owner's
/// mean `ownership` from the dead bar (0 is a coin flip at the bar).
pub fn doubt(board: &Board, ownership: &[f32], stones: &[usize]) -> f32 {
    let Some(c) = stones.first().and_then(|&p| board.at(p)) else {
        return f32::MAX;
    };
    let mean = stones.iter().map(|&q| ownership[q]).sum::<f32>() / stones.len() as f32;
    let mine = mean * c.sign();
    from_bar(mine)
}

/// How far an owner's mean ownership `mine` is from the dead bar.
fn from_bar(mine: f32) -> f32 {
    (mine + DEAD_THRESHOLD).abs()
}

/// How close to the dead bar a chain's owner's mean ownership must be for
/// its fate to count as doubtful (a coin flip of the playouts). On the KGS
/// archives such chains are in 14 of the 34 mismatches whose count GNU Go
/// 3.8 gets right (the estimator's errors), in 18 of the 161 where GNU
/// Go's count is recount's (most likely the record's), and in 282 of the
/// 3,785 games that agree.
pub const DOUBTFUL: f32 = 0.2;

/// The stones of `board` whose chain's fate is doubtful by `ownership`
/// ([`DOUBTFUL`]): a mismatch with none is more likely the record's.
pub fn doubtful_stones(board: &Board, ownership: &[f32]) -> u32 {
    let mut n = 0;
    for p in board.chains() {
        let Some(c) = board.at(p) else { continue };
        let (mut sum, mut len) = (0.0, 0);
        board.for_each_stone(p, |q| {
            sum += ownership[q];
            len += 1;
        });
        let mine = sum / len as f32 * c.sign();
        if from_bar(mine) < DOUBTFUL {
            n += len;
        }
    }
    n
}

/// Playouts are run in batches of this many; after each batch the estimate
/// stops if no stone is near the threshold.
const BATCH: u32 = 16;

/// How far from the dead threshold every stone must be for the estimate to
/// stop before `--playouts` (0.4 cost 45% more time for no accuracy).
const CLEAR_MARGIN: f32 = 0.25;

/// From this many playouts on, the estimate also stops when no stone's
/// verdict changed since the previous batch (measured on the KGS archives:
/// as accurate as going on to `--playouts`, in two thirds of the time; over
/// six `--seed`s, 48 was as accurate as 64 and 32 lost 4 games; 32 pays for
/// the seki rule of the playouts, which cost 8.5% of the time).
const STABLE_FROM: u32 = 32;

/// A first, stricter look after this many playouts: most finished games
/// are clear-cut by then.
const FIRST_BATCH: u32 = 8;

/// The distance from the bar every stone needs after [`FIRST_BATCH`]
/// playouts (a living stone then needs seven playouts of eight; 0.25
/// there lost a dozen games on the KGS archives).
const FIRST_CLEAR_MARGIN: f32 = 0.35;

/// Whether every stone not fixed by Benson is far from the dead threshold
/// after `n` playouts (owner's mean ownership at least 0.25 away from the
/// 0.2 bar, 0.35 at the first look: more playouts rarely change such a
/// verdict, measured on the KGS archives).
fn clear_cut(board: &Board, own: &[i32], n: u32, pass_alive: &[bool]) -> bool {
    board.points().all(|p| match board.at(p) {
        None => true,
        Some(_) if pass_alive[p] => true,
        Some(c) => {
            let mine = own[p] as f32 / n as f32 * c.sign();
            let margin = if n < BATCH {
                FIRST_CLEAR_MARGIN
            } else {
                CLEAR_MARGIN
            };
            from_bar(mine) > margin
        }
    })
}

/// A small, fast, seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Whether `p` is a true eye of `color`: all neighbours its stones, and at
/// most one diagonal the opponent's (none on the edge).
fn is_own_eye(board: &Board, color: Color, p: usize) -> bool {
    let n = board.neighbours(p);
    if n.iter()
        .any(|&q| board.on_board(q) && board.at(q) != Some(color))
    {
        return false;
    }
    let stride = n[3] - p;
    let diagonals = [
        p - stride - 1,
        p - stride + 1,
        p + stride - 1,
        p + stride + 1,
    ];
    let (mut on, mut bad) = (0, 0);
    for d in diagonals {
        if board.on_board(d) {
            on += 1;
            if board.at(d) == Some(color.opponent()) {
                bad += 1;
            }
        }
    }
    if on < 4 {
        bad == 0
    } else {
        bad <= 1
    }
}

/// Adds one finished playout to the ownership counts: stones, and empty
/// regions bordered by one colour, are that colour's.
fn count_ownership(b: &Board, own: &mut [i32], scratch: &mut EmptyRegions) {
    for p in b.points() {
        match b.at(p) {
            Some(Color::Black) => own[p] += 1,
            Some(Color::White) => own[p] -= 1,
            None => {}
        }
    }
    b.empty_regions(scratch, |points, border| {
        let d = match border {
            BORDER_BLACK => 1,
            BORDER_WHITE => -1,
            _ => return,
        };
        for &q in points {
            own[q] += d;
        }
    });
}

/// The playout policy's first choice: answer the last move locally.
/// In order: take the biggest opponent chain next to it that is down to
/// one liberty; save an own chain it put in atari by extending (when that
/// gives room) or by taking an opponent chain in atari around it; and, when
/// it cut an own chain of two or more stones down to two liberties, shorten
/// the liberties of an opponent chain beside it that has no more (a
/// capturing race is won by the side that fills the other's liberties,
/// which random moves elsewhere leave to chance).
fn capture_near(b: &Board, color: Color, last: Option<usize>) -> Option<usize> {
    let last = last?;
    let [n0, n1, n2, n3] = b.neighbours(last);
    let around = [last, n0, n1, n2, n3];
    let opp = color.opponent();
    // Chains already looked at (a chain often touches the point twice).
    let mut seen = [usize::MAX; 5];
    let mut fresh = |k: usize, q: usize| {
        let id = b.chain_id(q);
        if seen[..k].contains(&id) {
            return false;
        }
        seen[k] = id;
        true
    };
    let mut best: Option<(usize, usize)> = None;
    for (k, &q) in around.iter().enumerate() {
        if b.at(q) == Some(opp) && fresh(k, q) {
            if let Some(l) = b
                .atari_liberty(q)
                .filter(|&l| b.is_legal(color, l) && !b.captures_into_snapback(color, l))
            {
                let size = b.chain_len(q);
                if best.is_none_or(|(s, _)| size > s) {
                    best = Some((size, l));
                }
            }
        }
    }
    if let Some((_, l)) = best {
        return Some(l);
    }
    let mut seen = [usize::MAX; 5];
    for (k, &q) in around.iter().enumerate() {
        if b.at(q) != Some(color) {
            continue;
        }
        let id = b.chain_id(q);
        if seen[..k].contains(&id) {
            continue;
        }
        seen[k] = id;
        if let Some(l) = b.atari_liberty(q) {
            if b.is_legal(color, l) && keeps_two_liberties(b, color, l) {
                return Some(l);
            }
            if let Some(c) = weak_neighbour(b, q, 1) {
                return Some(c);
            }
        } else if b.chain_len(q) >= 2
            && !b.surely_more_liberties_than(q, 2)
            && b.liberties(q, 3).len() == 2
        {
            if let Some(c) = weak_neighbour(b, q, 2) {
                return Some(c);
            }
        }
    }
    None
}

/// One move in this many that no local answer takes looks for a shape
/// move ([`pattern_near`]). Over twelve `--seed`s of the KGS archives,
/// a quarter raised the mean of exact-margin games by 6.1 and of winners
/// by 3.0; every move lost 10.4 and 9.3 (six seeds), a half, a third, a
/// fifth and an eighth gained 4 to 7 exact-margin games.
const PATTERN_ODDS: usize = 4;

/// With odds of one in [`PATTERN_ODDS`], a move on a point around the last
/// move whose 3×3 neighbourhood is a shape players answer (hane, cut,
/// edge moves: [`crate::go::patterns`]): one of them at random, legal,
/// not an own eye, no self-atari, no atari on a chain in seki. Played at
/// every chance, such moves start fights the players had settled.
fn pattern_near(b: &Board, color: Color, last: Option<usize>, rng: &mut Rng) -> Option<usize> {
    if rng.below(PATTERN_ODDS) != 0 {
        return None;
    }
    let last = last?;
    let mut found = [0usize; 8];
    let mut n = 0;
    for q in patterns::around(b, last) {
        if b.cell_code(q) == 0 && patterns::matches(b, q) && playable(b, color, q, false) {
            found[n] = q;
            n += 1;
        }
    }
    (n > 0).then(|| found[rng.below(n)])
}

/// A move on a liberty of an opponent chain touching the chain through
/// `q` that has at most `most` liberties: the capture of one in atari, or
/// a safe move (legal, the new chain keeps two liberties) that shortens one
/// with two.
fn weak_neighbour(b: &Board, q: usize, most: usize) -> Option<usize> {
    let color = b.at(q)?;
    let opp = color.opponent();
    let mut found = None;
    // Opponent chains already looked at.
    let mut seen = [usize::MAX; 8];
    let mut n_seen = 0;
    b.for_each_stone(q, |s| {
        if found.is_some() {
            return;
        }
        for m in b.neighbours(s) {
            if b.at(m) != Some(opp) || b.surely_more_liberties_than(m, most) {
                continue;
            }
            let id = b.chain_id(m);
            if seen[..n_seen].contains(&id) {
                continue;
            }
            if n_seen < seen.len() {
                seen[n_seen] = id;
                n_seen += 1;
            }
            let libs = b.liberties(m, 3);
            if libs.len() > most {
                continue;
            }
            if let Some(&l) = libs.as_slice().iter().find(|&&l| {
                b.is_legal(color, l)
                    && if libs.len() == 1 {
                        !b.captures_into_snapback(color, l)
                    } else {
                        keeps_two_liberties(b, color, l)
                    }
            }) {
                found = Some(l);
                return;
            }
        }
    });
    found
}

/// Whether a `color` stone on `p` leaves its chain two liberties or more,
/// counting a capture as room unless it captures into a snapback: the
/// playouts' test of a move that is no self-atari.
fn keeps_two_liberties(b: &Board, color: Color, p: usize) -> bool {
    b.liberties_after(color, p) >= 2 && !b.captures_into_snapback(color, p)
}

/// Whether the playouts may play empty point `p`: legal, not an own eye,
/// no self-atari (of a lone stone too unless `lone_atari_ok`: a throw-in
/// that spoils an eye), and no atari on a chain in seki inside the
/// mover's group.
fn playable(b: &Board, color: Color, p: usize, lone_atari_ok: bool) -> bool {
    let lone = lone_atari_ok && !b.neighbours(p).iter().any(|&q| b.at(q) == Some(color));
    !is_own_eye(b, color, p)
        && b.is_legal(color, p)
        && (lone || keeps_two_liberties(b, color, p))
        && !nakade::atari_into_one_eye(b, color, p)
}

/// A uniformly random legal move that neither fills the player's own eye,
/// nor puts a chain of two or more stones into atari, nor ataris a chain in
/// seki inside its own group (random play would otherwise break every seki
/// and hand out captures).
fn random_move(
    b: &Board,
    color: Color,
    empties: &mut Vec<usize>,
    listed: &mut [bool],
    rng: &mut Rng,
) -> Option<usize> {
    let mut k = empties.len();
    if k == 0 {
        return None;
    }
    let mut j = rng.below(k);
    let mut tries = k;
    while tries > 0 && k > 0 {
        let p = empties[j];
        if b.at(p).is_some() {
            // Stale entry: drop it.
            listed[p] = false;
            empties.swap_remove(j);
            k -= 1;
            if j >= k {
                j = 0;
            }
            tries = tries.min(k);
            continue;
        }
        if playable(b, color, p, true) {
            return Some(p);
        }
        j = if j + 1 >= k { 0 } else { j + 1 };
        tries -= 1;
    }
    None
}

/// One chain's verdict while the estimate is being settled.
struct ChainFate {
    color: Color,
    stones: Vec<usize>,
    /// The owner's mean ownership of the chain's points.
    mine: f32,
    /// Dead whatever else: inside the other side's pass-alive territory,
    /// or in atari with no way out ([`hopeless`]).
    doomed: bool,
    dead: bool,
}

/// Dead stones of both colours side by side cannot both be dead: one of
/// them was alive to capture the other. Such pairs come from capturing
/// races the playouts lose about as often as they win. Where the dead
/// stones and the empty points around them reach living stones of both
/// colours (a race between two sides' groups, not stones inside a dead
/// group), the dead chain of the pair whose owner kept it most often in the
/// playouts is revived, until no such pair is left (ties: the first on the
/// board), so the verdict stays deterministic.
// The corrections after the playouts are not inlined into `estimate`:
// its playout loop then runs 2% faster (measured).
#[inline(never)]
fn revive_races(board: &Board, chains: &mut [ChainFate], chain_of: &[usize]) {
    let n = board.index_len();
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    loop {
        let mut best: Option<usize> = None;
        for (i, ch) in chains.iter().enumerate() {
            if !ch.dead || ch.doomed {
                continue;
            }
            let touches = ch.stones.iter().any(|&q| {
                board
                    .neighbours(q)
                    .iter()
                    .any(|&m| board.at(m) == Some(ch.color.opponent()) && chains[chain_of[m]].dead)
            });
            if !touches || best.is_some_and(|b| ch.mine <= chains[b].mine) {
                continue;
            }
            // Living colours reached through dead stones and empty points.
            seen.iter_mut().for_each(|s| *s = false);
            stack.clear();
            stack.push(ch.stones[0]);
            seen[ch.stones[0]] = true;
            let mut border = 0u8;
            while let Some(q) = stack.pop() {
                for m in board.neighbours(q) {
                    if !board.on_board(m) || seen[m] {
                        continue;
                    }
                    match board.at(m) {
                        Some(c) if !chains[chain_of[m]].dead => {
                            border |= 1 << c.index();
                        }
                        _ => {
                            seen[m] = true;
                            stack.push(m);
                        }
                    }
                }
            }
            if border == 3 {
                best = Some(i);
            }
        }
        match best {
            Some(i) => chains[i].dead = false,
            None => break,
        }
    }
}

/// Benson's verdicts for both colours, as [`estimate`] and [`read_out`]
/// use them.
struct PassAlive {
    black: BensonResult,
    white: BensonResult,
    /// Per point: a pass-alive stone of either colour.
    stones: Vec<bool>,
}

impl PassAlive {
    fn new(board: &Board) -> PassAlive {
        let (black, white) = (benson(board, Color::Black), benson(board, Color::White));
        let stones = (0..board.index_len())
            .map(|p| black.alive[p] || white.alive[p])
            .collect();
        PassAlive {
            black,
            white,
            stones,
        }
    }

    /// Whether a stone of `c` at `p` lies in the other side's pass-alive
    /// territory: dead whatever else.
    fn enclosed(&self, c: Color, p: usize) -> bool {
        match c {
            Color::Black => self.white.territory[p],
            Color::White => self.black.territory[p],
        }
    }
}

/// The closed region of the chain through `p` if its fight is read out:
/// closed, small, and with the other side's stones inside (reading the
/// rest changed no scored game on the KGS archives and cost 15% of the
/// estimator's time).
fn fight_region(board: &Board, p: usize, terrain: &enclosed::Terrain) -> Option<Vec<usize>> {
    enclosed::region(board, p, terrain).filter(|r| r.iter().any(|&q| board.at(q).is_some()))
}

/// Chains whose fight is read out ([`fight_region`]): a living one dies
/// when the opponent captures it even with its owner moving first, a dead
/// one lives when the opponent cannot capture it even moving first,
/// whatever the playouts said (they cannot play the sacrifices some kills
/// need).
#[inline(never)]
fn read_enclosures(board: &Board, chains: &mut [ChainFate], terrain: &enclosed::Terrain) {
    for ch in chains.iter_mut().filter(|c| !c.doomed) {
        let p = ch.stones[0];
        let Some(region) = fight_region(board, p, terrain) else {
            continue;
        };
        let first = if ch.dead {
            ch.color.opponent()
        } else {
            ch.color
        };
        if enclosed::captured(board, p, &region, first) == Some(!ch.dead) {
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
/// fate, in board order: what [`estimate`] decided by reading rather
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

/// Owner's mean ownership below which a chain stays dead even where
/// taking it wins no territory: the playouts (nearly) always captured it.
const DAME_REVIVE_BAR: f32 = -0.8;

/// A dead chain whose removal would leave its points in a region that
/// touches both colours, and that the referee rule would not give to the
/// opponent, wins the opponent a prisoner but no territory: players leave
/// such stones (dame stones in atari, mostly) on the board, and so does
/// the estimate, unless the playouts took them nearly always.
#[inline(never)]
fn revive_in_dame(board: &Board, chains: &mut [ChainFate], ownership: &[f32]) {
    let live = without_dead(board, chains);
    let mut region_of = vec![usize::MAX; board.index_len()];
    let mut regions: Vec<(u8, f32)> = Vec::new();
    live.empty_regions(&mut EmptyRegions::default(), |pts, border| {
        for &q in pts {
            region_of[q] = regions.len();
        }
        let mean = pts.iter().map(|&q| ownership[q]).sum::<f32>() / pts.len() as f32;
        regions.push((border, mean));
    });
    for ch in chains.iter_mut() {
        if !ch.dead || ch.doomed || ch.mine < DAME_REVIVE_BAR {
            continue;
        }
        let (border, mean) = regions[region_of[ch.stones[0]]];
        let theirs = if ch.color == Color::Black {
            -mean
        } else {
            mean
        };
        if border == BORDER_BLACK | BORDER_WHITE && theirs < 0.9 {
            ch.dead = false;
        }
    }
}

/// `board` with the dead chains taken off.
fn without_dead(board: &Board, chains: &[ChainFate]) -> Board {
    let mut live = board.clone();
    for ch in chains.iter().filter(|c| c.dead) {
        for &q in &ch.stones {
            let (x, y) = board.xy(q);
            live.set(x, y, None);
        }
    }
    live.finish_setup();
    live
}

/// Mean ownership a region open between the colours needs for
/// [`dead_beside_open_areas`] to give it to one side. On the KGS archives,
/// bars from 0.1 to 0.3 and regions from 7 to 14 points gained alike
/// (0.5 gained 4 exact-margin games fewer).
const OPEN_AREA_OWNERSHIP: f32 = 0.3;

/// Owner's mean ownership from which a chain beside an open area stays
/// alive whatever the area: the playouts kept it nine times in ten (as
/// accurate as no such bound on the KGS archives; it guards living walls
/// on the far side of an area).
const OPEN_AREA_KEPT: f32 = 0.8;

/// A chain `dead_beside_open_areas` took off, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAreaChain {
    pub color: Color,
    /// A stone of the chain (column, row from the top).
    pub point: (u8, u8),
    pub stones: usize,
    /// Points of the open area it reached into.
    pub area: usize,
}

impl OpenAreaChain {
    /// One line for a person, e.g. `B chain at pq (1 stone), in a
    /// 38-point area the playouts give to White`.
    pub fn describe(&self) -> String {
        format!(
            "{}, in a {}-point area the playouts give to {:?}",
            chain_label(self.color, self.point, self.stones),
            self.area,
            self.color.opponent()
        )
    }
}

/// A finished game leaves no open area between living stones of both
/// colours. A region bordered by both, larger than any seki's shared
/// liberties ([`MAX_SEKI_REGION`]), that the playouts give mostly to one
/// side ([`OPEN_AREA_OWNERSHIP`]) is that side's area behind an unclosed
/// boundary, and the other side's chains reaching into it are dead stones
/// the players took off, unless the playouts kept them nearly always
/// ([`OPEN_AREA_KEPT`]). The playouts keep such chains alive when they
/// run out into the area or make a seki there, and the count then has
/// tens of points of dame and often the wrong winner. The area owner's
/// dead chains beside a chain taken off lost their race to it, and live
/// (unless doomed). Repeated until no chain changes: a chain taken off
/// can open the area of the chains beside it. Returns the chains taken
/// off.
fn dead_beside_open_areas(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    ownership: &[f32],
    pass_alive: &[bool],
) -> Vec<OpenAreaChain> {
    let mut taken = Vec::new();
    // Chains revived beside a chain taken off: they stay.
    let mut revived = vec![false; chains.len()];
    // Per point: the side an open area belongs to, and its size.
    let mut area: Vec<Option<(Color, usize)>> = vec![None; board.index_len()];
    loop {
        area.iter_mut().for_each(|a| *a = None);
        let live = without_dead(board, chains);
        live.empty_regions(&mut EmptyRegions::default(), |pts, border| {
            if border != BORDER_BLACK | BORDER_WHITE || pts.len() <= MAX_SEKI_REGION {
                return;
            }
            let mean = pts.iter().map(|&q| ownership[q]).sum::<f32>() / pts.len() as f32;
            let owner = if mean >= OPEN_AREA_OWNERSHIP {
                Color::Black
            } else if mean <= -OPEN_AREA_OWNERSHIP {
                Color::White
            } else {
                return;
            };
            for &q in pts {
                area[q] = Some((owner, pts.len()));
            }
        });
        let mut now_taken = Vec::new();
        for (i, ch) in chains.iter_mut().enumerate() {
            if ch.dead || ch.mine >= OPEN_AREA_KEPT || pass_alive[ch.stones[0]] || revived[i] {
                continue;
            }
            let theirs = ch.color.opponent();
            let reached = ch.stones.iter().find_map(|&q| {
                board.neighbours(q).iter().find_map(|&m| match area[m] {
                    Some((c, len)) if c == theirs => Some(len),
                    _ => None,
                })
            });
            if let Some(len) = reached {
                ch.dead = true;
                now_taken.push(i);
                taken.push(OpenAreaChain {
                    color: ch.color,
                    point: board.xy(ch.stones[0]),
                    stones: ch.stones.len(),
                    area: len,
                });
            }
        }
        if now_taken.is_empty() {
            return taken;
        }
        // The area owner's dead chains beside a chain taken off were dead
        // because they lost the race with it: they live. (In a corner the
        // playouts give to White, Black's chain kills White's chain on the
        // edge, and dies with it: the players kept White's.)
        for i in now_taken {
            let beside: Vec<usize> = chains[i]
                .stones
                .iter()
                .flat_map(|&q| board.neighbours(q))
                .filter(|&m| board.at(m) == Some(chains[i].color.opponent()))
                .map(|m| chain_of[m])
                .collect();
            for j in beside {
                if chains[j].dead && !chains[j].doomed {
                    chains[j].dead = false;
                    revived[j] = true;
                }
            }
        }
    }
}

/// Estimates the dead stones of a finished position with at most
/// `playouts` random games; returns the dead map and the ownership (per
/// point, from +1 all Black to −1 all White). The playouts are seeded from
/// the position mixed with `seed` (`--seed`): the same pair always gives
/// the same answer, and another seed an independent estimate.
pub fn estimate(board: &Board, playouts: u32, seed: u64) -> (Vec<bool>, Vec<f32>) {
    let (dead, ownership, _) = estimate_with_notes(board, playouts, seed);
    (dead, ownership)
}

/// [`estimate`], with the chains it took off beside an open area
/// (`dead_beside_open_areas`), for `recount explain`.
pub fn estimate_with_notes(
    board: &Board,
    playouts: u32,
    seed: u64,
) -> (Vec<bool>, Vec<f32>, Vec<OpenAreaChain>) {
    let n = board.index_len();
    let pass_alive = PassAlive::new(board);
    let settled = |p: usize| pass_alive.black.territory[p] || pass_alive.white.territory[p];
    let candidates: Vec<usize> = board.points().filter(|&p| !settled(p)).collect();
    let position = board
        .encode()
        .bytes()
        .fold(0x9e37_79b9_7f4a_7c15u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        });
    let mut rng = Rng((position ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut own = vec![0i32; n];
    let max_moves = 3 * candidates.len() + 20;
    let mut empties: Vec<usize> = Vec::with_capacity(candidates.len());
    // Whether a point is in `empties` (stale entries included).
    let mut listed = vec![false; n];
    let mut played = 0;
    let mut b = board.clone();
    let mut scratch = EmptyRegions::default();
    let mut verdicts: Vec<bool> = Vec::new();
    let mut captured: Vec<usize> = Vec::new();
    for i in 0..playouts {
        // Stop early once every stone's fate is clear.
        let check = i == FIRST_BATCH || (i > 0 && i % BATCH == 0);
        if check && clear_cut(board, &own, i, &pass_alive.stones) {
            break;
        }
        // Or, from STABLE_FROM on, once no stone crossed the bar during
        // the last batch: the stones left near it are coin flips that more
        // playouts do not settle.
        if i > 0 && i % BATCH == 0 {
            let now: Vec<bool> = board
                .points()
                .filter_map(|p| {
                    let c = board.at(p)?;
                    let m = own[p] as f32 * c.sign();
                    Some(m < -DEAD_THRESHOLD * i as f32)
                })
                .collect();
            if i >= STABLE_FROM && now == verdicts {
                break;
            }
            verdicts = now;
        }
        played += 1;
        b.copy_from(board);
        let mut color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        empties.clear();
        empties.extend(candidates.iter().copied().filter(|&p| b.at(p).is_none()));
        listed.iter_mut().for_each(|l| *l = false);
        for &p in &empties {
            listed[p] = true;
        }
        let mut passes = 0;
        let mut last: Option<usize> = None;
        let mut vital: Option<usize> = None;
        for _ in 0..max_moves {
            let chosen = vital
                .take()
                .filter(|&v| b.is_legal(color, v))
                .or_else(|| capture_near(&b, color, last))
                .or_else(|| pattern_near(&b, color, last, &mut rng))
                .or_else(|| random_move(&b, color, &mut empties, &mut listed, &mut rng));
            match chosen {
                Some(p) => {
                    b.play_at(color, p);
                    // Captured points are free again.
                    captured.clear();
                    for q in b.emptied() {
                        captured.push(q);
                        if !listed[q] {
                            listed[q] = true;
                            empties.push(q);
                        }
                    }
                    vital = nakade::vital_point(&b, color, &captured);
                    passes = 0;
                    last = Some(p);
                }
                None => {
                    b.pass();
                    passes += 1;
                    last = None;
                    if passes >= 2 {
                        break;
                    }
                }
            }
            color = color.opponent();
        }
        count_ownership(&b, &mut own, &mut scratch);
    }
    let scale = 1.0 / played.max(1) as f32;
    let ownership: Vec<f32> = own.iter().map(|&o| o as f32 * scale).collect();
    // Per chain (by head point): stones, the owner's mean ownership, and
    // whether it is dead.
    let mut dead = vec![false; n];
    let mut chains: Vec<ChainFate> = Vec::new();
    let mut chain_of = vec![usize::MAX; n];
    for p in board.chains() {
        let Some(c) = board.at(p) else { continue };
        let stones = board.chain_stones(p);
        let doomed = pass_alive.enclosed(c, p) || hopeless(board, p);
        let mean: f32 = stones.iter().map(|&q| ownership[q]).sum::<f32>() / stones.len() as f32;
        let mine = mean * c.sign();
        for &q in &stones {
            chain_of[q] = chains.len();
        }
        chains.push(ChainFate {
            color: c,
            stones,
            mine,
            doomed,
            dead: doomed || (!pass_alive.stones[p] && -mine > DEAD_THRESHOLD),
        });
    }
    read_enclosures(
        board,
        &mut chains,
        &enclosed::Terrain::new(board, pass_alive.stones.clone()),
    );
    revive_races(board, &mut chains, &chain_of);
    revive_in_dame(board, &mut chains, &ownership);
    let open_area = dead_beside_open_areas(
        board,
        &mut chains,
        &chain_of,
        &ownership,
        &pass_alive.stones,
    );
    for ch in &chains {
        for &q in &ch.stones {
            dead[q] = ch.dead;
        }
    }
    (dead, ownership, open_area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_marks_stones_on_the_other_sides_territory() {
        let b = Board::from_diagram(
            "X O .
             X O .
             O . .",
        );
        let m = Markup {
            black: vec![(0, 2)],
            white: vec![(2, 0)],
        };
        let dead = from_markup(&b, &m);
        let marked: Vec<_> = b.points().filter(|&p| dead[p]).map(|p| b.xy(p)).collect();
        assert_eq!(marked, [(0, 2)]);
    }

    /// A white stone inside Black's corner and a black one inside White's
    /// side, each group with two eyes of its own: every seed takes both
    /// stones off and nothing else. (An earlier diagram gave Black's wall
    /// no eye outside the corner: random play killed the wall itself in
    /// some seeds, and the stone inside lived in others.)
    #[test]
    fn estimator_finds_a_dead_stone_inside_territory() {
        let b = Board::from_diagram(
            ". . . X O . . . .
             . O . X O . . . .
             . . . X O . . X .
             X X X X O . . . .
             . X . X O O O O O
             X X X X O . . . .
             O O O O O . . . .",
        );
        for seed in 0..6 {
            let (dead, _) = estimate(&b, 64, seed);
            let marked: Vec<_> = b.points().filter(|&p| dead[p]).map(|p| b.xy(p)).collect();
            assert_eq!(marked, [(1, 1), (7, 2)], "seed {seed}");
        }
    }

    /// The chains of `board` with the given (point, dead, owner's mean
    /// ownership) verdicts, as `estimate` hands them to `revive_races`.
    fn fates(board: &Board, verdicts: &[((u8, u8), bool, f32)]) -> (Vec<ChainFate>, Vec<usize>) {
        let mut chain_of = vec![usize::MAX; board.index_len()];
        let mut chains = Vec::new();
        for &((x, y), dead, mine) in verdicts {
            let p = board.index(x, y);
            let stones = board.chain_stones(p);
            for &q in &stones {
                chain_of[q] = chains.len();
            }
            chains.push(ChainFate {
                color: board.at(p).unwrap(),
                stones,
                mine,
                doomed: false,
                dead,
            });
        }
        (chains, chain_of)
    }

    #[test]
    fn a_race_between_two_sides_groups_keeps_the_stronger_one() {
        // Two dead-marked chains side by side, each with a living group of
        // its colour behind it: one of them must live; Black's was kept
        // more often (0.1 against -0.1), so it is revived.
        let b = Board::from_diagram("X . X O . O");
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((0, 0), false, 1.0),
                ((2, 0), true, 0.1),
                ((3, 0), true, -0.1),
                ((5, 0), false, 1.0),
            ],
        );
        revive_races(&b, &mut chains, &chain_of);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        assert_eq!(dead, [false, false, true, false]);
    }

    #[test]
    fn stones_inside_a_dead_group_stay_dead() {
        // A black ring inside White's wall with a white stone in its eye:
        // only White's living stones are around, so both stay dead.
        let b = Board::from_diagram(
            "O O O O O O
             O X X X X O
             O X O . X O
             O X X X X O
             O O O O O O",
        );
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((0, 0), false, 1.0),
                ((1, 1), true, 0.1),
                ((2, 2), true, -0.5),
            ],
        );
        revive_races(&b, &mut chains, &chain_of);
        assert!(chains[1].dead && chains[2].dead);
    }

    #[test]
    fn a_chain_short_of_liberties_beside_is_attacked() {
        // The white pair has one liberty (3,0): take it. With two, (3,0)
        // and (2,2), play one of them; with three, nothing to do.
        let b = Board::from_diagram(
            ". X O . .
             . X O X .
             . . X . .",
        );
        let black = b.index(1, 0);
        assert_eq!(weak_neighbour(&b, black, 2), Some(b.index(3, 0)));
        let b = Board::from_diagram(
            ". X O . .
             . X O X .
             . . . . .",
        );
        let black = b.index(1, 0);
        let l = weak_neighbour(&b, black, 2).map(|p| b.xy(p));
        assert!(l == Some((3, 0)) || l == Some((2, 2)), "{l:?}");
        assert_eq!(weak_neighbour(&b, black, 1), None);
        let b = Board::from_diagram(
            ". X O . .
             . X O . .
             . . . . .",
        );
        assert_eq!(weak_neighbour(&b, b.index(1, 0), 2), None);
    }

    #[test]
    fn a_dead_stone_on_the_boundary_is_left_on_the_board() {
        // The white stone in atari sits between Black's and White's
        // stones: taking it off leaves a region touching both colours
        // (no territory), so it is not counted dead.
        let b = Board::from_diagram(
            ". X X O O
             X O . O O
             . X X O O",
        );
        let own = vec![0.0; b.index_len()];
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.2)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(!chains[0].dead);
        // Inside Black's wall it stays dead; and so does one the playouts
        // always captured.
        let b = Board::from_diagram(
            "X . X O O
             X O X O O
             X X X O O",
        );
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.2)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(chains[0].dead);
        let b = Board::from_diagram(
            ". X X O O
             X O . O O
             . X X O O",
        );
        let (mut chains, _) = fates(&b, &[((1, 1), true, -0.9)]);
        revive_in_dame(&b, &mut chains, &own);
        assert!(chains[0].dead);
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

    #[test]
    fn a_chain_in_the_other_sides_open_area_is_taken_off() {
        // A white stone in a 24-point area between Black's and White's
        // walls that the playouts mostly give to Black.
        let b = Board::from_diagram(
            "X X . . . . . O O
             X X . . . . . O O
             X X . . O . . O O
             X X . . . . . O O
             X X . . . . . O O",
        );
        let n = b.index_len();
        let owned_by = |v: f32| {
            let mut own = vec![0.0; n];
            for p in b.points().filter(|&p| b.at(p).is_none()) {
                own[p] = v;
            }
            own
        };
        let verdicts = [
            ((0, 0), false, 0.9),
            ((7, 0), false, 0.9),
            ((4, 2), false, 0.4),
        ];
        let no_pass_alive = vec![false; n];
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let taken =
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.5), &no_pass_alive);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        // The stone is taken off; White's wall, kept nearly always, stays.
        assert_eq!(dead, [false, false, true]);
        assert_eq!(
            taken.iter().map(|t| t.describe()).collect::<Vec<_>>(),
            ["W chain at ec (1 stone), in a 24-point area the playouts give to Black"]
        );
        // An area the playouts share evenly belongs to nobody.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        assert!(
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.1), &no_pass_alive)
                .is_empty()
        );
        // A pass-alive chain stays whatever the area.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let mut pass_alive = no_pass_alive.clone();
        pass_alive[b.index(4, 2)] = true;
        assert!(
            dead_beside_open_areas(&b, &mut chains, &chain_of, &owned_by(0.5), &pass_alive)
                .is_empty()
        );
        // A region no larger than a seki's shared liberties is no open
        // area: White's chain beside five such points stays.
        let b = Board::from_diagram(
            "X . . O
             X . O O
             X . . O",
        );
        let (mut chains, chain_of) = fates(&b, &[((0, 0), false, 0.9), ((3, 0), false, 0.4)]);
        let own = vec![0.5; b.index_len()];
        assert!(dead_beside_open_areas(
            &b,
            &mut chains,
            &chain_of,
            &own,
            &vec![false; b.index_len()]
        )
        .is_empty());
    }

    #[test]
    fn the_area_owners_chain_that_lost_a_race_to_a_chain_taken_off_lives() {
        // In an area the playouts give to White, Black's stone at (5,2)
        // is taken off; White's stone beside it, which the playouts
        // captured in their race (dead), lives.
        let b = Board::from_diagram(
            "X X . . . . . O O
             X X . . . . . O O
             X X . . O X . O O
             X X . . . . . O O
             X X . . . . . O O",
        );
        let verdicts = [
            ((0, 0), false, 0.9),
            ((7, 0), false, 0.9),
            ((4, 2), true, -0.5),
            ((5, 2), false, 0.4),
        ];
        let white_area = vec![-0.5; b.index_len()];
        let no_pass_alive = vec![false; b.index_len()];
        let (mut chains, chain_of) = fates(&b, &verdicts);
        let taken = dead_beside_open_areas(&b, &mut chains, &chain_of, &white_area, &no_pass_alive);
        assert_eq!(taken.len(), 1);
        let dead: Vec<bool> = chains.iter().map(|c| c.dead).collect();
        assert_eq!(dead, [false, false, false, true]);
        // Doomed (say, in atari with no way out), it stays dead.
        let (mut chains, chain_of) = fates(&b, &verdicts);
        chains[2].doomed = true;
        dead_beside_open_areas(&b, &mut chains, &chain_of, &white_area, &no_pass_alive);
        assert!(chains[2].dead);
    }

    #[test]
    fn chains_sharing_their_only_liberties_are_seki_not_dead() {
        // Column 2 (White) and column 4 (Black) have no eyes and share
        // the five liberties of column 3: whoever fills one is captured,
        // so neither can be taken (seki). The outer groups have two eyes.
        let b = Board::from_diagram(
            ". X O . X O .
             X X O . X O O
             . X O . X O .
             X X O . X O O
             X X O . X O O",
        );
        let (dead, _) = estimate(&b, 128, 0);
        assert!(b.points().all(|p| !dead[p]));
    }

    #[test]
    fn doubtful_stones_are_those_near_the_bar() {
        // Black's pair at 0.1 (0.1 from the dead bar at 0.2: doubtful),
        // White's stone lost 95% of the time (sure), Black's stone at 1.0.
        let b = Board::from_diagram("X X . O . X");
        let mut own = vec![0.0; b.index_len()];
        for (x, o) in [(0, 0.1), (1, 0.1), (3, 0.9), (5, 1.0)] {
            own[b.index(x, 0)] = o;
        }
        assert_eq!(doubtful_stones(&b, &own), 2);
        own[b.index(3, 0)] = -0.1; // White's own 0.1: doubtful too
        assert_eq!(doubtful_stones(&b, &own), 3);
    }

    #[test]
    fn estimator_is_deterministic() {
        let b = Board::from_diagram(
            ". X O .
             X O . O
             O O O .",
        );
        assert_eq!(estimate(&b, 32, 0).1, estimate(&b, 32, 0).1);
        // Another seed draws other playouts: on an open board, another
        // estimate of who owns each point.
        let open = Board::from_diagram(
            ". . . . . .
             . X . . O .
             . . . . . .
             . . . . . .
             . X . . O .
             . . . . . .",
        );
        assert_eq!(estimate(&open, 32, 7).1, estimate(&open, 32, 7).1);
        assert_ne!(estimate(&open, 32, 0).1, estimate(&open, 32, 7).1);
    }

    #[test]
    fn the_estimate_is_deterministic_on_random_positions() {
        use crate::go::board::random;
        // Random positions, legal or not as setup allows: the estimate
        // never panics, calls dead only stones, gives the same answer
        // twice, and read_out and hopeless_chains name stones of the board.
        let mut rng = random::Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..150 {
            let b = random::board(&mut rng, 8);
            let (dead, own) = estimate(&b, 32, 0);
            assert_eq!(estimate(&b, 32, 0), (dead.clone(), own), "round {round}");
            assert!(
                b.points().all(|p| !dead[p] || b.at(p).is_some()),
                "round {round}"
            );
            for f in read_out(&b) {
                assert_eq!(b.get(f.point.0, f.point.1), Some(f.color), "round {round}");
            }
            for (c, (x, y), _) in hopeless_chains(&b) {
                assert_eq!(b.get(x, y), Some(c), "round {round}");
            }
        }
    }
}
