//! The estimator's random games: from a finished position both sides play
//! on until neither has a move left, and each point's owner at the end is
//! counted; [`ownership`] runs them in batches until every stone's fate is
//! clear. The games are seeded from the position, so a game always gets
//! the same answer.
//!
//! The policy is light. When the last move captured stones that leave a
//! killing shape ([`crate::go::dead::nakade`]), the captured side replays at its
//! vital point. Else a move answers the last one locally: take the biggest
//! chain it left in atari; save an own chain in atari by extending or by a
//! counter-capture; shorten the liberties of a weak opponent chain beside
//! an own chain it cut to two liberties, as a capturing race is played.
//! Else, one time in four, a shape move next to it ([`crate::go::dead::patterns`]);
//! else a random legal move. No move fills an own eye or puts a chain of
//! two or more stones in atari (which also keeps most seki alive), none
//! captures into a snapback ([`Board::captures_into_snapback`]), and none
//! ataris a chain in seki inside the mover's group
//! ([`crate::go::dead::nakade::atari_into_one_eye`]).

use super::{from_bar, is_doubtful, PassAlive, DEAD_THRESHOLD};
use crate::go::board::{Board, Color, EmptyRegions, Liberties, BORDER_BLACK, BORDER_WHITE};
use crate::go::dead::nakade;
use crate::go::dead::patterns;
use crate::rng::Rng;

/// Playouts are run in batches of this many; after each batch the estimate
/// stops if no stone's verdict changed (see [`STABLE_FROM`]).
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

/// With this many doubtful stones or more ([`super::DOUBTFUL`] from the bar:
/// a chain of two stones in a race or a seki, or two lone stones), the
/// estimate goes on to [`MANY_DOUBTFUL_STABLE_FROM`] playouts before it
/// stops on stable verdicts. Over twelve `--seed`s of the KGS archives,
/// from six stones this raised the mean of exact-margin games by 2.3 and
/// of winners by 1.4, for 3% more time; two added 0.9 and 0.2, no seed
/// losing, for about 2% more (three: 0.4 and none; one: 1.1 and 0.2 for
/// 4.4%; two, going on to 96: 1.3 and 0.3 for about 5%).
const MANY_DOUBTFUL: usize = 2;

/// See [`MANY_DOUBTFUL`].
const MANY_DOUBTFUL_STABLE_FROM: u32 = 64;

/// A first, stricter look after this many playouts: most finished games
/// are clear-cut by then.
const FIRST_BATCH: u32 = 8;

/// The distance from the bar every stone needs after [`FIRST_BATCH`]
/// playouts (a living stone then needs seven playouts of eight; 0.25
/// there lost a dozen games on the KGS archives).
const FIRST_CLEAR_MARGIN: f32 = 0.35;

/// A second look after this many playouts, halfway to the first batch's
/// end, with its own margin; then a look every [`LOOK_EVERY`] playouts.
/// Over twelve `--seed`s of the KGS archives the looks at 12 (with 0.3)
/// and between batches left the means of exact-margin games and winners
/// as they were, for 6% fewer playouts; 0.25 at 12 took 8% fewer still
/// but lost 0.9 and 0.6 of them, and a look every 4 playouts lost 0.2 and
/// 0.1 (`docs/estimator-log.md`, "the reading's two-eyes cut, more looks for the
/// early stop").
const SECOND_LOOK: u32 = 12;

/// See [`SECOND_LOOK`]: a living stone then needs ten playouts of twelve.
const SECOND_CLEAR_MARGIN: f32 = 0.3;

/// From the first batch's end on, the early stop looks this often.
const LOOK_EVERY: u32 = 8;

/// Whether the estimate looks for an early stop ([`clear_cut`]) after
/// `n` playouts: at [`FIRST_BATCH`], [`SECOND_LOOK`], then every
/// [`LOOK_EVERY`] from [`BATCH`] on.
fn looks_at(n: u32) -> bool {
    n == FIRST_BATCH || n == SECOND_LOOK || (n >= BATCH && n.is_multiple_of(LOOK_EVERY))
}

/// Whether every stone not fixed by Benson is far from the dead threshold
/// after `n` playouts (owner's mean ownership at least 0.25 away from the
/// 0.2 bar; 0.35 at the first look and 0.3 at the second: more playouts
/// rarely change such a verdict, measured on the KGS archives).
fn clear_cut(board: &Board, own: &[i32], n: u32, pass_alive: &[bool]) -> bool {
    let margin = if n < SECOND_LOOK {
        FIRST_CLEAR_MARGIN
    } else if n < BATCH {
        SECOND_CLEAR_MARGIN
    } else {
        CLEAR_MARGIN
    };
    board.points().all(|p| match board.at(p) {
        None => true,
        Some(_) if pass_alive[p] => true,
        Some(c) => {
            let mine = own[p] as f32 / n as f32 * c.sign();
            from_bar(mine) > margin
        }
    })
}

/// How many stones not fixed by Benson are doubtful after `n` playouts:
/// their owner's mean ownership is within [`super::DOUBTFUL`] of the dead
/// bar.
fn doubtful(board: &Board, own: &[i32], n: u32, pass_alive: &[bool]) -> usize {
    board
        .points()
        .filter(|&p| {
            board
                .at(p)
                .is_some_and(|c| !pass_alive[p] && is_doubtful(own[p] as f32 / n as f32 * c.sign()))
        })
        .count()
}

/// Whether `p`, all of whose neighbours are `color`'s stones or off the
/// board, is a true eye of `color`: at most one diagonal the opponent's
/// (none on the edge).
fn eye_diagonals(board: &Board, color: Color, p: usize) -> bool {
    let d = board.diagonals_around(p);
    let bad = d.stones(color.opponent());
    if d.off_board() > 0 {
        bad == 0
    } else {
        bad <= 1
    }
}

/// Adds one finished playout to the ownership counts: stones, and empty
/// regions bordered by one colour, are that colour's (read from the
/// board's area masks, or region by region on a board too large for
/// them).
fn count_ownership(b: &Board, own: &mut [i32], scratch: &mut EmptyRegions) {
    if let Some(areas) = b.area_masks() {
        for (mask, d) in areas.iter().zip([1, -1]) {
            for (i, &word) in mask.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    own[64 * i + w.trailing_zeros() as usize] += d;
                    w &= w - 1;
                }
            }
        }
        return;
    }
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
/// In order: take the chain the last move made when it is down to one
/// liberty (every opponent stone beside the move is of that chain); save
/// an own chain it put in atari by extending (when that gives room) or by
/// taking an opponent chain in atari around it; and, when it cut an own
/// chain of two or more stones down to two liberties, shorten the
/// liberties of an opponent chain beside it that has no more (a capturing
/// race is won by the side that fills the other's liberties, which random
/// moves elsewhere leave to chance).
fn capture_near(b: &Board, color: Color, last: Option<usize>) -> Option<usize> {
    let last = last?;
    if b.at(last) == Some(color.opponent()) {
        if let Some(l) = b
            .atari_liberty(last)
            .filter(|&l| b.is_legal(color, l) && !b.captures_into_snapback(color, l))
        {
            return Some(l);
        }
    }
    // Chains already looked at (a chain often touches the point twice).
    let mut seen = [usize::MAX; 4];
    for (k, &q) in b.neighbours(last).iter().enumerate() {
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
/// edge moves: [`crate::go::dead::patterns`]): one of them at random, legal,
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
            // A chain in atari is told from its liberty sums; one that
            // is not has too many liberties for `most` = 1.
            let libs = match b.atari_liberty(m) {
                Some(l) => Liberties::one(l),
                None if most == 1 => continue,
                None => b.liberties(m, 3),
            };
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
/// mover's group. Inline, so that the common answers, told from the
/// neighbours' counts, cost no call.
#[inline]
fn playable(b: &Board, color: Color, p: usize, lone_atari_ok: bool) -> bool {
    // Two empty neighbours: no eye, legal, two liberties, no seki atari
    // (the common case, told without the tests below).
    let around = b.around(p);
    if around.empty() >= 2 {
        return true;
    }
    // Most points left late in a playout are eyes of one side or the
    // other: the tests that turn them down come first.
    let own = around.stones(color);
    if own + around.off_board() == 4 && eye_diagonals(b, color, p) {
        return false;
    }
    legal_and_safe(b, color, p, lone_atari_ok && own == 0)
}

/// [`playable`]'s tests beyond the neighbours' counts; `lone` where a
/// self-atari of a lone stone is allowed and `p` touches no own stone.
#[inline(never)]
fn legal_and_safe(b: &Board, color: Color, p: usize, lone: bool) -> bool {
    b.is_legal(color, p)
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

/// Each point's mean ownership (from +1 always Black to −1 always White)
/// after at most `playouts` random games from `board`, seeded from the
/// position mixed with `seed`. Points inside `pass_alive`'s territories
/// are not played.
pub(super) fn ownership(
    board: &Board,
    playouts: u32,
    seed: u64,
    pass_alive: &PassAlive,
) -> Vec<f32> {
    let n = board.index_len();
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
    // The points a playout may play, empty at its start, and whether a
    // point is among them: every playout starts from these.
    let first_empties: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&p| board.at(p).is_none())
        .collect();
    let mut first_listed = vec![false; n];
    for &p in &first_empties {
        first_listed[p] = true;
    }
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
        if looks_at(i) && clear_cut(board, &own, i, &pass_alive.stones) {
            break;
        }
        // Or, from STABLE_FROM on, once no stone crossed the bar during
        // the last batch: the stones left near it are coin flips that more
        // playouts do not settle. Many such stones get more playouts first.
        if i > 0 && i % BATCH == 0 {
            let now: Vec<bool> = board
                .points()
                .filter_map(|p| {
                    let c = board.at(p)?;
                    let m = own[p] as f32 * c.sign();
                    Some(m < -DEAD_THRESHOLD * i as f32)
                })
                .collect();
            if i >= STABLE_FROM
                && now == verdicts
                && (i >= MANY_DOUBTFUL_STABLE_FROM
                    || doubtful(board, &own, i, &pass_alive.stones) < MANY_DOUBTFUL)
            {
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
        empties.clone_from(&first_empties);
        listed.copy_from_slice(&first_listed);
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
    ownership
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_look_asks_its_own_margin() {
        // One black stone, kept `kept` times in `n` playouts.
        let b = Board::from_diagram("X .");
        let clear = |kept: i32, n: u32| {
            let mut own = vec![0; b.index_len()];
            own[b.index(0, 0)] = 2 * kept - n as i32;
            looks_at(n) && clear_cut(&b, &own, n, &vec![false; b.index_len()])
        };
        // Kept seven of eight at the first look, ten of twelve at the
        // second, twelve of sixteen later; kept at most three, five and
        // seven times for a clear death.
        assert!(clear(7, 8) && !clear(6, 8) && clear(3, 8) && !clear(4, 8));
        assert!(clear(10, 12) && !clear(9, 12) && clear(5, 12) && !clear(6, 12));
        assert!(clear(12, 16) && !clear(11, 16) && clear(7, 16) && !clear(8, 16));
        // No look between those, then one every 8 playouts.
        assert!(!clear(10, 10) && !clear(14, 14) && clear(24, 24) && !clear(28, 28));
    }

    #[test]
    fn doubtful_stones_are_counted_near_the_bar_and_off_pass_alive_chains() {
        // After 10 playouts: Black's pair kept 6 times (mine 0.2, on the
        // bar's doubtful side), White's stone lost 4 times (its own 0.2),
        // Black's last stone kept 9 times (0.8: clear).
        let b = Board::from_diagram("X X . O . X");
        let mut own = vec![0; b.index_len()];
        for (x, o) in [(0, 2), (1, 2), (3, -2), (5, 8)] {
            own[b.index(x, 0)] = o;
        }
        let none_fixed = vec![false; b.index_len()];
        assert_eq!(doubtful(&b, &own, 10, &none_fixed), 3);
        let mut fixed = none_fixed.clone();
        fixed[b.index(0, 0)] = true;
        assert_eq!(doubtful(&b, &own, 10, &fixed), 2);
        own[b.index(5, 0)] = 3; // 0.3: now doubtful too
        assert_eq!(doubtful(&b, &own, 10, &fixed), 3);
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
}
