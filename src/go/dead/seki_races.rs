//! Eyeless capturing races that neither side wins, even moving first:
//! a seki the playouts break by filling liberties in the wrong order.

use super::ChainFate;
use crate::go::board::{Board, Color};
use crate::go::replay::chain_label;

/// A race [`revive_sekis`] read as a seki, for `recount explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SekiRace {
    /// The chain revived and its rival: colour, a stone (column, row from
    /// the top), stones.
    pub chain: (Color, (u8, u8), usize),
    pub rival: (Color, (u8, u8), usize),
    /// Outside liberties of the chain and of its rival.
    pub outside: [usize; 2],
    pub shared: usize,
}

impl SekiRace {
    /// One line for a person, e.g. `W chain at mj (13 stones) against B
    /// chain at nh (11 stones): 1 and 2 outside liberties, 3 shared`.
    pub fn describe(&self) -> String {
        let label = |(c, p, n): (Color, (u8, u8), usize)| chain_label(c, p, n);
        format!(
            "{} against {}: {} and {} outside liberties, {} shared",
            label(self.chain),
            label(self.rival),
            self.outside[0],
            self.outside[1],
            self.shared
        )
    }
}

/// How a liberty race ends for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Lose,
    Seki,
    Win,
}

impl Outcome {
    fn flipped(self) -> Outcome {
        match self {
            Outcome::Lose => Outcome::Win,
            Outcome::Seki => Outcome::Seki,
            Outcome::Win => Outcome::Lose,
        }
    }
}

/// The end of a race between two eyeless chains with `mine` and `theirs`
/// outside liberties and `shared` liberties in common, for the side to
/// move, with best play. A move fills one of the opponent's outside
/// liberties, or a shared one (never the mover's last), or passes; two
/// passes in a row end the race as a seki. Outside liberties that cannot
/// be filled safely (eyes) are outside this model.
fn race(mine: u8, theirs: u8, shared: u8, passed: bool) -> Outcome {
    if theirs + shared == 1 {
        return Outcome::Win;
    }
    let mut best = if passed {
        Outcome::Seki
    } else {
        race(theirs, mine, shared, true).flipped()
    };
    if theirs > 0 {
        best = best.max(race(theirs - 1, mine, shared, false).flipped());
    }
    if shared > 0 && mine + shared >= 2 {
        best = best.max(race(theirs, mine, shared - 1, false).flipped());
    }
    best
}

/// The largest liberty counts the race model is asked about: a chain with
/// more is not in a seki of this kind (and the model's search stays small).
const MAX_LIBERTIES: usize = 6;

/// The liberties of chain `i`, sorted, counting as liberties the points of
/// the dead chains beside it other than `rival` (capturing them gives the
/// chain room that no race count sees, so such points fail
/// [`safe_fills`]).
fn liberties(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    i: usize,
    rival: usize,
) -> Vec<usize> {
    let mut libs: Vec<usize> = chains[i]
        .stones
        .iter()
        .flat_map(|&q| board.neighbours(q))
        .filter(|&m| {
            board.on_board(m)
                && match board.at(m) {
                    None => true,
                    Some(_) => chain_of[m] != rival && chain_of[m] != i && chains[chain_of[m]].dead,
                }
        })
        .collect();
    libs.sort_unstable();
    libs.dedup();
    libs
}

/// Whether chain `i` is walled in by living chains of the other colour
/// besides `rival`, none of them in atari: a race between two sides'
/// groups. A rival touching no other chain is inside chain `i`'s eye
/// space (a nakade shape, not a race), and a wall in atari gives chain
/// `i` room by its capture.
fn walled_in(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    pass_alive: &[bool],
    (i, rival): (usize, usize),
) -> bool {
    let other = chains[i].color.opponent();
    // Each wall chain once (a long wall touches the chain many times).
    let mut walls: Vec<usize> = chains[i]
        .stones
        .iter()
        .flat_map(|&q| board.neighbours(q))
        .filter(|&m| board.at(m) == Some(other))
        .map(|m| chain_of[m])
        .filter(|&k| k != rival && !chains[k].dead)
        .collect();
    walls.sort_unstable();
    walls.dedup();
    !walls.is_empty()
        && walls.iter().all(|&k| {
            pass_alive[chains[k].stones[0]] || liberties(board, chains, chain_of, k, i).len() >= 2
        })
}

/// Whether a `color` stone can fill each of `points` from a living chain
/// of its own beside it and keep two liberties: an outside liberty of a
/// race, not an eye or a point inside the other side's territory.
fn safe_fills(
    board: &Board,
    chains: &[ChainFate],
    chain_of: &[usize],
    color: Color,
    points: &[usize],
) -> bool {
    points.iter().all(|&p| {
        board.is_legal(color, p)
            && board.liberties_after(color, p) >= 2
            && board
                .neighbours(p)
                .iter()
                .any(|&m| board.at(m) == Some(color) && !chains[chain_of[m]].dead)
    })
}

/// A dead chain that shares two liberties or more with one living,
/// not pass-alive opponent chain, neither of them with an eye among its
/// liberties, is revived when the race between the two ends in seki
/// whoever moves first: then neither can be captured, and the players
/// leave both on the board (GNU Go reads such races so too). Returns the
/// races, by the index of the chain revived.
#[inline(never)]
pub(super) fn revive_sekis(
    board: &Board,
    chains: &mut [ChainFate],
    chain_of: &[usize],
    pass_alive: &[bool],
) -> Vec<(usize, SekiRace)> {
    let mut races = Vec::new();
    for i in 0..chains.len() {
        let ch = &chains[i];
        if !ch.dead || ch.doomed {
            continue;
        }
        let libs = liberties(board, chains, chain_of, i, usize::MAX);
        if libs.len() > MAX_LIBERTIES {
            continue;
        }
        // The living opponent chains sharing two liberties or more.
        let mut rivals: Vec<usize> = libs
            .iter()
            .flat_map(|&l| board.neighbours(l))
            .filter(|&m| board.at(m) == Some(ch.color.opponent()))
            .map(|m| chain_of[m])
            .filter(|&j| !chains[j].dead && !pass_alive[chains[j].stones[0]])
            .collect();
        rivals.sort_unstable();
        rivals.dedup();
        let mut in_race = rivals.iter().filter_map(|&j| {
            let theirs = liberties(board, chains, chain_of, j, i);
            let shared = libs.iter().filter(|l| theirs.contains(l)).count();
            (shared >= 2).then_some((j, theirs, shared))
        });
        let (Some((j, theirs, shared)), None) = (in_race.next(), in_race.next()) else {
            continue;
        };
        if theirs.len() > MAX_LIBERTIES {
            continue;
        }
        // A shared liberty touching a third chain would join it to the
        // side that fills it: more room than the count sees.
        let (common, own_out): (Vec<usize>, Vec<usize>) =
            libs.iter().partition(|l| theirs.contains(l));
        let only_the_two = common.iter().all(|&l| {
            board
                .neighbours(l)
                .iter()
                .all(|&m| board.at(m).is_none() || chain_of[m] == i || chain_of[m] == j)
        });
        if !only_the_two
            || !walled_in(board, chains, chain_of, pass_alive, (i, j))
            || !walled_in(board, chains, chain_of, pass_alive, (j, i))
        {
            continue;
        }
        let their_out: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|l| !libs.contains(l))
            .collect();
        if !safe_fills(board, chains, chain_of, ch.color.opponent(), &own_out)
            || !safe_fills(board, chains, chain_of, ch.color, &their_out)
        {
            continue;
        }
        let (a, b, s) = (own_out.len() as u8, their_out.len() as u8, shared as u8);
        if race(a, b, s, false) == Outcome::Seki && race(b, a, s, false) == Outcome::Seki {
            chains[i].dead = false;
            let label = |k: usize| {
                let ch = &chains[k];
                (ch.color, board.xy(ch.stones[0]), ch.stones.len())
            };
            races.push((
                i,
                SekiRace {
                    chain: label(i),
                    rival: label(j),
                    outside: [own_out.len(), their_out.len()],
                    shared,
                },
            ));
        }
    }
    races
}

#[cfg(test)]
mod tests {
    use super::super::tests::fates;
    use super::*;

    #[test]
    fn races_end_as_the_liberty_counts_say() {
        // Two outside liberties against one, three shared: neither side
        // can fill the shared ones without being captured (seki).
        assert_eq!(race(2, 1, 3, false), Outcome::Seki);
        assert_eq!(race(1, 2, 3, false), Outcome::Seki);
        // Two shared, none outside: seki.
        assert_eq!(race(0, 0, 2, false), Outcome::Seki);
        // No shared liberty: the side to move wins with as many liberties.
        assert_eq!(race(2, 2, 0, false), Outcome::Win);
        assert_eq!(race(1, 2, 0, false), Outcome::Lose);
        // Three outside against none, two shared: the side with the
        // outside liberties wins whoever moves first.
        assert_eq!(race(3, 0, 2, false), Outcome::Win);
        assert_eq!(race(0, 3, 2, false), Outcome::Lose);
        // One shared liberty: a plain race, the mover wins when even.
        assert_eq!(race(1, 1, 1, false), Outcome::Win);
    }

    /// The races `revive_sekis` reads as seki on `diagram`, whose White
    /// chain at (3,0) is dead-marked between two living walls and Black's
    /// living chain at (5,0); and whether that White chain lives.
    fn revived(diagram: &str) -> (Vec<String>, bool) {
        let b = Board::from_diagram(diagram);
        let (mut chains, chain_of) = fates(
            &b,
            &[
                ((1, 0), false, 1.0),
                ((3, 0), true, 0.3),
                ((5, 0), false, 0.6),
                ((7, 0), false, 1.0),
            ],
        );
        let races = revive_sekis(&b, &mut chains, &chain_of, &vec![false; b.index_len()]);
        let lines = races.iter().map(|(_, r)| r.describe()).collect();
        (lines, !chains[1].dead)
    }

    #[test]
    fn an_eyeless_race_neither_side_wins_is_revived() {
        // White's column 3 and Black's column 5 share the three points of
        // column 4. White has one outside liberty, (2,0), which Black
        // fills from its wall; Black has two, (6,0) and (6,2), which White
        // fills from its wall. Neither wins moving first: a seki, so the
        // dead-marked White chain lives.
        let (lines, lives) = revived(
            ". X . O . X . O . O
             X X X O . X O O O O
             . X X O . X . O . O",
        );
        assert!(lives);
        assert_eq!(
            lines,
            ["W chain at da (3 stones) against B chain at fa (3 stones): 1 and 2 outside liberties, 3 shared"]
        );
        // With a third outside liberty for Black, Black wins moving first:
        // no seki, and White stays dead.
        let (lines, lives) = revived(
            ". X . O . X . O . O
             X X X O . X . O O O
             . X X O . X . O . O",
        );
        assert!(!lives && lines.is_empty());
    }
}
