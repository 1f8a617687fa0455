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

use rustc_hash::FxHashMap;

use crate::bg::game::record::{Step, BAR_POINT, OFF_POINT};
use crate::bg::position::board::{Board, BAR};

/// One checker moved by one die, in board indices: `from` 0..=23 or
/// [`BAR`], `to` `None` when borne off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub to: Option<usize>,
    pub hit: bool,
    /// The die used (a bear-off may use a die larger than the distance).
    pub die: u8,
}

/// A legal play and the position it leads to.
#[derive(Debug, Clone)]
pub struct Play {
    pub moves: Vec<Move>,
    pub after: Board,
}

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

/// The search's plays; their moves only with `notation`.
fn generate(board: &Board, p: usize, dice: (u8, u8), notation: bool) -> Generator {
    let mut g = Generator {
        p,
        afters: Vec::new(),
        moves: notation.then(Vec::new),
        kept: FxHashMap::default(),
        max_moves: 0,
        max_pips: 0,
        path: Vec::with_capacity(4),
    };
    let (a, b) = (dice.0 as usize, dice.1 as usize);
    let more = if a == b { a } else { 0 };
    g.search(board, &[a, b, more, more], 0, 23, 0);
    if a != b {
        g.search(board, &[b, a, 0, 0], 0, 23, 0);
    }
    g
}

/// Up to this many plays a position is looked for among them one by one;
/// beyond, through [`Generator::kept`].
const LINEAR_SEARCH: usize = 24;

/// The search of [`legal_plays`] (gnubg's `GenerateMovesSub` and
/// `SaveMoves`).
struct Generator {
    p: usize,
    /// The kept plays' positions, in the order found.
    afters: Vec<Board>,
    /// Their moves, when the plays' notation is wanted.
    moves: Option<Vec<Vec<Move>>>,
    /// Where each kept play's position is in `afters`, once there are
    /// more than [`LINEAR_SEARCH`].
    kept: FxHashMap<Board, usize>,
    /// The most checker moves and pips of the plays kept: a play that
    /// moves fewer is not legal.
    max_moves: usize,
    max_pips: usize,
    path: Vec<Move>,
}

impl Generator {
    /// Moves one checker by `roll[depth]` from each point at or below
    /// `top` (the bar first when occupied) and goes deeper; returns
    /// whether no checker could move, so the caller keeps the play so far.
    fn search(
        &mut self,
        board: &Board,
        roll: &[usize; 4],
        depth: usize,
        top: usize,
        pips: usize,
    ) -> bool {
        if depth > 3 || roll[depth] == 0 {
            return true;
        }
        let d = roll[depth];
        if board.checkers[self.p][BAR] > 0 {
            if let Some((after, mv)) = step(board, self.p, BAR, d) {
                self.go_on(&after, mv, roll, depth, 23, pips + d);
                return false;
            }
            return true;
        }
        let mut used = false;
        for from in (0..=top).rev() {
            if let Some((after, mv)) = step(board, self.p, from, d) {
                // Doubles: later checkers from no higher point, so each
                // set of moves is found once.
                let next = if roll[0] == roll[1] { from } else { 23 };
                self.go_on(&after, mv, roll, depth, next, pips + d);
                used = true;
            }
        }
        !used
    }

    fn go_on(
        &mut self,
        after: &Board,
        mv: Move,
        roll: &[usize; 4],
        depth: usize,
        top: usize,
        pips: usize,
    ) {
        self.path.push(mv);
        if self.search(after, roll, depth + 1, top, pips) {
            self.save(after, pips);
        }
        self.path.pop();
    }

    /// Keeps the play of `path` unless it moves fewer checkers or pips
    /// than one kept (then it is not legal); one that moves more makes
    /// those kept illegal.
    fn save(&mut self, after: &Board, pips: usize) {
        let n = self.path.len();
        if n < self.max_moves || pips < self.max_pips {
            return;
        }
        if n > self.max_moves || pips > self.max_pips {
            self.afters.clear();
            self.moves.iter_mut().for_each(Vec::clear);
            self.kept.clear();
        }
        self.max_moves = n;
        self.max_pips = pips;
        let found = if self.afters.len() <= LINEAR_SEARCH {
            self.afters.iter().position(|a| a == after)
        } else {
            if self.kept.is_empty() {
                self.kept
                    .extend(self.afters.iter().enumerate().map(|(i, a)| (*a, i)));
            }
            self.kept.get(after).copied()
        };
        if let Some(i) = found {
            if let Some(moves) = &mut self.moves {
                let kept = &mut moves[i];
                let kept_pips: usize = kept.iter().map(|m| m.die as usize).sum();
                if n > kept.len() || pips > kept_pips {
                    *kept = self.path.clone();
                }
            }
            return;
        }
        if !self.kept.is_empty() {
            self.kept.insert(*after, self.afters.len());
        }
        self.afters.push(*after);
        if let Some(moves) = &mut self.moves {
            moves.push(self.path.clone());
        }
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
        .map(|pl| fmt_moves(&pl.moves))
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

/// A play as match files write it: `13/7 8/7*`, `bar/20`, `6/off`.
pub fn fmt_moves(moves: &[Move]) -> String {
    let mut out = String::new();
    for m in moves {
        if !out.is_empty() {
            out.push(' ');
        }
        if m.from == BAR {
            out.push_str("bar");
        } else {
            out.push_str(&(m.from + 1).to_string());
        }
        out.push('/');
        match m.to {
            Some(t) => out.push_str(&(t + 1).to_string()),
            None => out.push_str("off"),
        }
        if m.hit {
            out.push('*');
        }
    }
    out
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

    #[test]
    fn positions_are_the_plays_positions_in_order() {
        // Random games from the start: contact, doubles with many plays,
        // bar entries and bearoffs.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut many = 0;
        for _ in 0..40 {
            let mut b = Board::start();
            for ply in 0..200 {
                let p = ply % 2;
                let dice = (1 + next(6) as u8, 1 + next(6) as u8);
                let plays = legal_plays(&b, p, dice);
                let afters: Vec<Board> = plays.iter().map(|pl| pl.after).collect();
                assert_eq!(legal_positions(&b, p, dice), afters, "{b:?} {dice:?}");
                many += usize::from(plays.len() > LINEAR_SEARCH);
                if plays.is_empty() {
                    continue;
                }
                b = plays[next(plays.len() as u64) as usize].after;
                if b.on_board(p) == 0 {
                    break;
                }
            }
        }
        assert!(many > 50, "plays beyond the linear search: {many}");
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
        let plays = legal_plays(&Board::start(), 0, (3, 1));
        let first: Vec<String> = plays.iter().take(3).map(|p| fmt_moves(&p.moves)).collect();
        assert_eq!(first, ["24/21 24/23", "24/21 21/20", "24/21 8/7"]);
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
