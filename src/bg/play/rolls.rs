//! The plays of one roll evaluated at 0-ply, as gnubg evaluates them
//! (in the move generator's order, each net's first position in full and
//! the others from it), and a per-thread cache of those evaluations for
//! the positions of a game's first plays.
//!
//! Those positions come back game after game (every game starts from the
//! same one, and the few plays after it are the same few), and with them
//! the 36 rolls the luck of each play averages over: on an archive of 529
//! real matches, 5,084 of 74,060 plays began at a position some earlier
//! play had, all but 202 of them among a game's first four plays. An
//! evaluation does not depend on the match score or the cube (the
//! [`Leaf`] is valued in the cube as it is afterwards), so one cached roll
//! serves every game; a roll's evaluations are a pure function of its
//! key, so a hit gives the bits a new evaluation would.

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::bg::eval::gnubg::NetStates;
use crate::bg::play::value::{CubeContext, Leaf};
use crate::bg::position::board::Board;
use crate::bg::position::moves::{with_spare, with_spare_boards};

/// `f` of the evaluations of the positions `afters` puts in the vector it
/// is given (the plays of `dice` by `mover` from `before`, in the
/// generator's order), each for the opponent, on roll after it; empty
/// when no play is legal. `afters` is called only when the roll is not in
/// the cache.
///
/// # Errors
/// A position no evaluator covers.
pub fn with_roll_leaves<T>(
    ctx: &CubeContext,
    before: &Board,
    mover: usize,
    dice: (u8, u8),
    afters: impl FnOnce(&mut Vec<Board>),
    f: impl FnOnce(&[Leaf]) -> T,
) -> Result<T, String> {
    let key = worth_keeping(before).then(|| Key {
        board: *before,
        mover: mover as u8,
        dice,
        deep: ctx.deep,
        nets: ctx.weights.map_or(0, |w| w as *const _ as usize),
    });
    if let Some(hit) = key.and_then(|k| CACHE.with(|c| c.borrow().get(&k).cloned())) {
        return Ok(f(&hit));
    }
    with_spare_leaves(|leaves| {
        // Incrementally, as gnubg scores a roll's plays.
        let mut states = NetStates::default();
        with_spare_boards(|boards| {
            afters(boards);
            boards.iter().try_for_each(|after| {
                leaves.push(ctx.leaf(after, 1 - mover, Some(&mut states))?);
                Ok::<(), String>(())
            })
        })?;
        if let Some(k) = key {
            CACHE.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() >= MOST_ROLLS {
                    c.clear();
                }
                c.insert(k, Rc::from(&leaves[..]));
            });
        }
        Ok(f(leaves))
    })
}

/// `f` of an empty vector of leaves the thread keeps from use to use, its
/// room kept for the next (as [`with_spare_boards`] keeps boards). A use
/// inside another gets a vector of its own.
pub fn with_spare_leaves<T>(f: impl FnOnce(&mut Vec<Leaf>) -> T) -> T {
    with_spare(&SPARE_LEAVES, f)
}

/// Whether a position is kept: both sides together have moved at most
/// 16 pips from the starting 167 each (a game's first two or three
/// plays), where positions repeat across games most: on the 529 real
/// matches it kept some 136,000 of 1.5 million rolls and served over
/// 73,000 from them.
fn worth_keeping(board: &Board) -> bool {
    board.pips(0) + board.pips(1) + 16 >= 2 * 167
}

/// Most rolls a thread keeps before it empties its cache (each some
/// hundreds of bytes to a few kilobytes): at most some ten megabytes a
/// thread.
const MOST_ROLLS: usize = 1 << 13;

/// What a roll's evaluations depend on: the position, who moves, the dice
/// in the order the generator tries them, the cube efficiencies' depth
/// and the nets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    board: Board,
    mover: u8,
    dice: (u8, u8),
    deep: bool,
    nets: usize,
}

thread_local! {
    static CACHE: RefCell<FxHashMap<Key, Rc<[Leaf]>>> = RefCell::new(FxHashMap::default());
    static SPARE_LEAVES: std::cell::Cell<Vec<Leaf>> = const { std::cell::Cell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::position::moves::{legal_positions, legal_positions_into};

    #[test]
    fn a_cached_roll_scores_as_a_new_evaluation() {
        let ctx = crate::bg::play::value::tests::money(None);
        let start = Board::start();
        for dice in [(3, 1), (1, 3), (6, 6)] {
            let fresh = |out: &mut Vec<Board>| legal_positions_into(&start, 0, dice, out);
            let bits = |leaves: &[Leaf]| -> Vec<u32> {
                leaves.iter().map(|l| ctx.leaf_score(l).to_bits()).collect()
            };
            let first = with_roll_leaves(&ctx, &start, 0, dice, fresh, bits).unwrap();
            // The second call finds the roll kept: it must not generate.
            let again = with_roll_leaves(&ctx, &start, 0, dice, |_| unreachable!(), bits).unwrap();
            let mut states = NetStates::default();
            let direct: Vec<u32> = legal_positions(&start, 0, dice)
                .iter()
                .map(|a| ctx.score_after(a, 0, Some(&mut states)).unwrap().to_bits())
                .collect();
            assert_eq!(first, direct, "{dice:?}");
            assert_eq!(again, direct, "{dice:?}");
        }
    }

    #[test]
    fn only_early_positions_are_kept() {
        assert!(worth_keeping(&Board::start()));
        let mut late = Board::start();
        // Player 0's six back checkers home: far from the start.
        late.checkers[0][23] = 0;
        late.checkers[0][12] = 0;
        late.checkers[0][0] = 7;
        assert!(!worth_keeping(&late));
    }
}
