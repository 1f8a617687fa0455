//! The estimate beside the players' own marking: on a record with
//! `TB`/`TW` whose dead stones were estimated (`--dead-stones estimate`),
//! the chains the estimator gives another fate than the marking does, each
//! with the kind of position it lies in (column `marking_differs`), and how
//! sure the estimate is of its verdicts (columns `certainty`,
//! `contested_chains`).

use crate::go::board::{Board, Color};
use crate::go::dead::decide::DeadStones;
use crate::go::dead::doubtful_chains;
use crate::go::replay::chain_label;
use crate::go::settle::{PointKind, Settlement};

/// The kind of position a chain lies in, the first that fits in this
/// order. A rough sort of where the estimator and the players part, for
/// the validation's confusion table (`scripts/validate-marked.sh`), not a
/// reading of the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The estimator took it off as a bent four in the corner.
    BentFour,
    /// It touches a seki point or a seki eye in either count.
    Seki,
    /// It has at most 3 liberties and touches a chain of the other colour
    /// that has at most 3 too.
    Race,
    /// A stone of it lies within 5 lines of two edges.
    Corner,
    /// Where it is alive, it touches no territory or seki eye of its own,
    /// and where it is dead, only the other side's territory and stones:
    /// stones inside the other side's area with no eye.
    Invasion,
    /// Where it is alive, it touches a dame point or a point its side must
    /// fill.
    Dame,
    Other,
}

impl Kind {
    /// The name the reports write.
    pub fn name(self) -> &'static str {
        match self {
            Kind::BentFour => "bent_four",
            Kind::Seki => "seki",
            Kind::Race => "race",
            Kind::Corner => "corner",
            Kind::Invasion => "invasion",
            Kind::Dame => "dame",
            Kind::Other => "other",
        }
    }
}

/// A chain the estimate and the marking judge otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Differs {
    pub color: Color,
    /// Its first stone in reading order, as chains are named.
    pub point: (u8, u8),
    pub stones: usize,
    /// The estimate's verdict (the marking's is the other).
    pub estimated_dead: bool,
    pub kind: Kind,
}

impl Differs {
    /// One entry of `marking_differs`, e.g. `W chain at dk (2 stones)
    /// dead, marked alive: race`.
    pub fn describe(&self) -> String {
        let fate = |dead| if dead { "dead" } else { "alive" };
        format!(
            "{} {}, marked {}: {}",
            chain_label(self.color, self.point, self.stones),
            fate(self.estimated_dead),
            fate(!self.estimated_dead),
            self.kind.name()
        )
    }
}

/// The chains of `board` whose fate in `estimate` (settled as
/// `estimated`) differs from `marking`'s (settled as `marked`), in reading
/// order.
pub fn marking_differs(
    board: &Board,
    estimate: &DeadStones,
    estimated: &Settlement,
    marking: &DeadStones,
    marked: &Settlement,
) -> Vec<Differs> {
    board
        .chains()
        .filter(|&p| board.at(p).is_some() && estimate.dead[p] != marking.dead[p])
        .map(|p| {
            let color = board.at(p).unwrap_or(Color::Black);
            let stones = board.chain_stones(p);
            let (alive_in, dead_in) = if estimate.dead[p] {
                (marked, estimated)
            } else {
                (estimated, marked)
            };
            Differs {
                color,
                point: board.xy(p),
                stones: stones.len(),
                estimated_dead: estimate.dead[p],
                kind: kind(
                    board,
                    estimate,
                    &stones,
                    [estimated, marked],
                    alive_in,
                    dead_in,
                ),
            }
        })
        .collect()
}

/// The kind of position of the chain of `stones` ([`Kind`]'s order).
fn kind(
    board: &Board,
    estimate: &DeadStones,
    stones: &[usize],
    both: [&Settlement; 2],
    alive_in: &Settlement,
    dead_in: &Settlement,
) -> Kind {
    let color = board.at(stones[0]).unwrap_or(Color::Black);
    let named = |pt: (u8, u8)| stones.contains(&board.index(pt.0, pt.1));
    let bent_four = estimate
        .notes
        .bent_four
        .iter()
        .any(|bf| named(bf.inside.1) || bf.defender.iter().any(|&(_, pt, _)| named(pt)));
    if bent_four {
        return Kind::BentFour;
    }
    let around: Vec<usize> = stones
        .iter()
        .flat_map(|&q| board.neighbours(q))
        .filter(|&n| board.on_board(n) && board.at(n) != Some(color))
        .collect();
    let seki = around.iter().any(|&n| {
        both.iter().any(|s| {
            matches!(
                s.kinds[n],
                Some(PointKind::Seki) | Some(PointKind::SekiEye(_))
            )
        })
    });
    if seki {
        return Kind::Seki;
    }
    let short = |q: usize| board.liberties(q, 4).len() <= 3;
    if short(stones[0])
        && around
            .iter()
            .any(|&n| board.at(n) == Some(color.opponent()) && short(n))
    {
        return Kind::Race;
    }
    let (w, h) = (board.width(), board.height());
    let near = |v: u8, len: u8| v < 5 || v + 5 >= len;
    if stones.iter().any(|&q| {
        let (x, y) = board.xy(q);
        near(x, w) && near(y, h)
    }) {
        return Kind::Corner;
    }
    let kinds: Vec<Option<PointKind>> = around.iter().map(|&n| alive_in.kinds[n]).collect();
    let own_eye = kinds.iter().any(
        |k| matches!(k, Some(PointKind::Territory(c)) | Some(PointKind::SekiEye(c)) if *c == color),
    );
    let theirs = |n: &usize| {
        dead_in.kinds[*n] == Some(PointKind::Territory(color.opponent()))
            || board.at(*n) == Some(color.opponent())
    };
    if !own_eye && around.iter().all(theirs) {
        return Kind::Invasion;
    }
    if kinds
        .iter()
        .any(|k| matches!(k, Some(PointKind::Dame) | Some(PointKind::Fill(_))))
    {
        return Kind::Dame;
    }
    Kind::Other
}

/// How sure an estimate is of its verdicts: `contested` when the vote of
/// estimates was split, some chain's fate was a coin flip of the playouts
/// ([`crate::go::dead::DOUBTFUL`]), a correction after them turned it
/// (`EstimateNotes::overruled`), or the settlement `s` keeps it alive in
/// a seki or in a large race ([`in_large_race`]), else `sure`; and the
/// chains contested, in reading order, named as `B chain at dg (1 stone)`.
///
/// Seki and races are the settlement's reading of the shapes, not the
/// playouts': on the marked games of the tune half (`docs/accuracy.md`,
/// "Dead stones against the players' marking") they are behind three of the
/// four `sure` verdicts the players' marking showed wrong, and on the
/// RE-only archives a `sure` game with either disagrees with `RE` about
/// twice as often as one without.
pub fn certainty(
    board: &Board,
    estimate: &DeadStones,
    s: &Settlement,
) -> (&'static str, Vec<String>) {
    let mut named: Vec<(Color, (u8, u8), usize)> = estimate
        .ownership
        .as_deref()
        .map(|own| doubtful_chains(board, own))
        .unwrap_or_default()
        .iter()
        .map(|c| (c.color, c.point, c.stones))
        .collect();
    let shapes = [in_seki(board, s), in_large_race(board, s)];
    for c in estimate
        .notes
        .overruled
        .iter()
        .chain(shapes.iter().flatten())
    {
        if !named.contains(c) {
            named.push(*c);
        }
    }
    named.sort_by_key(|&(_, (x, y), _)| (y, x));
    let chains: Vec<String> = named
        .iter()
        .map(|&(c, p, n)| chain_label(c, p, n))
        .collect();
    let split = estimate.vote.as_ref().is_some_and(|t| t.split());
    let word = if split || !chains.is_empty() {
        "contested"
    } else {
        "sure"
    };
    (word, chains)
}

/// The living chains of `board` next to a liberty the settlement `s`
/// counts as shared in a seki: colour, first stone, stones.
fn in_seki(board: &Board, s: &Settlement) -> Vec<(Color, (u8, u8), usize)> {
    let mut seen = vec![false; board.index_len()];
    let mut chains = Vec::new();
    for p in board
        .points()
        .filter(|&p| s.kinds[p] == Some(PointKind::Seki))
    {
        for q in board.neighbours(p) {
            let Some(c) = board.at(q) else { continue };
            if seen[q] || s.kinds[q] != Some(PointKind::Stone(c)) {
                continue;
            }
            let stones = board.chain_stones(q);
            for &r in &stones {
                seen[r] = true;
            }
            // Point indices run in reading order.
            let first = stones.iter().copied().min().unwrap_or(q);
            chains.push((c, board.xy(first), stones.len()));
        }
    }
    chains
}

/// Stones each side of a large race must have at least.
const LARGE_RACE_STONES: usize = 10;

/// The living chains of `board` (by the settlement `s`) of at least
/// [`LARGE_RACE_STONES`] stones and at most two liberties that touch such
/// a chain of the other colour: two large groups short of liberties side
/// by side, whoever moves first may capture. On the RE-only KGS archives
/// 82 `sure` games had such a race, and 7 of them (8.5%) disagreed with
/// `RE`, against 4.1% of the others; 20 stones, the size of the tune
/// half's case (2017-01-06-18), caught 5 of them and none that disagreed,
/// 5 stones 438 of which 6.6% disagreed.
fn in_large_race(board: &Board, s: &Settlement) -> Vec<(Color, (u8, u8), usize)> {
    let large_and_short = |q: usize| {
        board
            .at(q)
            .is_some_and(|c| s.kinds[q] == Some(PointKind::Stone(c)))
            && board.chain_len(q) >= LARGE_RACE_STONES
            && board.liberties(q, 3).as_slice().len() <= 2
    };
    // `chains` gives each chain at its first stone in reading order.
    board
        .chains()
        .filter(|&p| large_and_short(p))
        .filter_map(|p| {
            let c = board.at(p)?;
            let stones = board.chain_stones(p);
            let beside = stones.iter().any(|&q| {
                board
                    .neighbours(q)
                    .into_iter()
                    .any(|n| board.at(n) == Some(c.opponent()) && large_and_short(n))
            });
            beside.then(|| (c, board.xy(p), stones.len()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::dead::{DeadSource, EstimateNotes};
    use crate::go::record::Markup;

    fn stones(dead: Vec<bool>) -> DeadStones {
        DeadStones {
            dead,
            ownership: None,
            source: DeadSource::Estimate,
            notes: EstimateNotes::default(),
            vote: None,
            marked: None,
        }
    }

    /// The players mark White's lone stone inside Black's area dead; an
    /// estimate that leaves it on the board differs on that chain alone,
    /// an eyeless invasion; one that agrees differs on none.
    #[test]
    fn an_invader_left_alive_differs_from_the_marking() {
        let b = Board::from_diagram(
            ". . . . . . . X O . . . .
             . . . . . . . X O . . . .
             . . . . . O . X O . . . .
             . . . . . . . X O . . . .
             . . . . . . . X O . . . .
             . . . . . . . X O . . . .
             . . . . . . . X O . . . .",
        );
        let m = Markup {
            black: (0..7).flat_map(|x| (0..7).map(move |y| (x, y))).collect(),
            white: (9..13).flat_map(|x| (0..7).map(move |y| (x, y))).collect(),
        };
        let marking = DeadStones::marked(&b, &m);
        let marked = marking.settle(&b);
        let alive = stones(vec![false; b.index_len()]);
        let d = marking_differs(&b, &alive, &alive.settle(&b), &marking, &marked);
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].describe(),
            "W chain at fc (1 stone) alive, marked dead: invasion"
        );
        let same = stones(marking.dead.clone());
        assert!(marking_differs(&b, &same, &same.settle(&b), &marking, &marked).is_empty());
    }

    #[test]
    fn an_estimate_without_coin_flips_is_sure() {
        let b = Board::from_diagram("X X . O . X");
        let mut own = vec![0.0; b.index_len()];
        for (x, o) in [(0, 1.0), (1, 1.0), (3, -1.0), (5, 1.0)] {
            own[b.index(x, 0)] = o;
        }
        let mut d = stones(vec![false; b.index_len()]);
        d.ownership = Some(own.clone());
        let s = d.settle(&b);
        assert_eq!(certainty(&b, &d, &s), ("sure", vec![]));
        own[b.index(3, 0)] = -0.1; // White's stone near the bar
        d.ownership = Some(own);
        assert_eq!(
            certainty(&b, &d, &s),
            ("contested", vec!["W chain at da (1 stone)".to_string()])
        );
    }

    /// An estimate of `b` whose playouts kept every stone for its owner
    /// and whose dead stones are none.
    fn unanimous(b: &Board) -> DeadStones {
        let mut d = stones(vec![false; b.index_len()]);
        d.ownership = Some(
            (0..b.index_len())
                .map(|p| b.at(p).map_or(0.0, |c| c.sign()))
                .collect(),
        );
        d
    }

    /// White's one-eyed group and Black's stone at (3,0) share the liberty
    /// (2,0) that neither can fill: the settlement's seki makes the
    /// verdict contested, with the chains beside the shared liberty named,
    /// however unanimous the playouts.
    #[test]
    fn a_seki_is_contested() {
        let b = Board::from_diagram(
            ". O . X . X .
             O O O O X X X",
        );
        let d = unanimous(&b);
        let s = d.settle(&b);
        assert_eq!(s.seki_points, 1);
        assert_eq!(
            certainty(&b, &d, &s),
            (
                "contested",
                vec![
                    "W chain at ba (5 stones)".to_string(),
                    "B chain at da (1 stone)".to_string()
                ]
            )
        );
    }

    /// Black's chain on the top edge and White's below it have one
    /// liberty each: with ten stones a side the race makes the verdict
    /// contested, both chains named; with nine it is too small to count.
    #[test]
    fn a_large_race_is_contested() {
        let race = |n: usize| {
            let row = |c: &str| format!("{} . .", vec![c; n].join(" "));
            let b = Board::from_diagram(&format!(
                "{}\n{}\n{}\n{}",
                row("X"),
                row("O"),
                vec!["X"; n + 2].join(" "),
                vec!["."; n + 2].join(" ")
            ));
            let d = unanimous(&b);
            let s = d.settle(&b);
            certainty(&b, &d, &s)
        };
        assert_eq!(
            race(10),
            (
                "contested",
                vec![
                    "B chain at aa (10 stones)".to_string(),
                    "W chain at ab (10 stones)".to_string()
                ]
            )
        );
        assert_eq!(race(9), ("sure", vec![]));
    }
}
