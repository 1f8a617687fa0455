//! Settling a final position: with the dead stones decided, every point is
//! a living stone, a dead stone, territory, a seki point or dame.
//!
//! Territory is an empty region (dead stones taken off) bordered by one
//! colour only. A region bordered by both colours is dame, unless it lies
//! between groups neither of which can live on its own: then it is a seki
//! point, and the eyes of those groups are seki eyes (no territory under
//! Japanese rules). A group is the chains joined through their own
//! regions, or connected across the regions between the colours (a double
//! connection, or a point the opponent cannot play: `join_connected`). It
//! lives on its own when it has two eye regions or one region of 3+
//! points, or Benson's algorithm says so; a one-point eye that a chain of
//! the group would have to fill once its liberties shared with a weak
//! group are filled does not count, and when the rest of the group is
//! reached only through such one-point eyes, the whole group is in seki
//! (`forfeit_false_eyes`). Behind an unclosed boundary the referee's rule
//! decides (`settle_refereed`); last, the must-fill rule
//! ([`crate::go::settle::must_fill`]) takes the points a chain must fill.

use crate::go::board::{Board, Color, EmptyRegions};
use crate::go::settle::life::benson;
use crate::go::settle::must_fill;
use crate::go::settle::{PointKind, Refereed, Settlement};

/// An eye region this large lets its group make two eyes: the group lives
/// on its own and is not in seki (in a finished game the owner would have
/// played the vital point if it were needed).
const MIN_TWO_EYE_SPACE: usize = 3;

/// Largest region of shared liberties recognised as seki.
pub const MAX_SEKI_REGION: usize = 6;

/// Settles `board` with `dead[p]` marking dead stones.
pub fn settle(board: &Board, dead: &[bool]) -> Settlement {
    settle_with(board, dead, None)
}

/// Mean ownership a region bordered by both colours needs to be given to
/// one side as a referee would (an unclosed boundary, not dame).
const REFEREE_OWNERSHIP: f32 = 0.9;

/// Settles `board`; with `ownership` (per point, +1 Black … −1 White, from
/// the estimator), a region bordered by both colours that one side clearly
/// owns is that side's territory, as a referee decides points behind an
/// unclosed boundary, except its points touching the other side's stones
/// (the gaps the owner would fill) and the points next to them (where the
/// owner blocks when the other side pushes in): those are dame. Without
/// ownership such regions are dame, as servers count.
pub fn settle_with(board: &Board, dead: &[bool], ownership: Option<&[f32]>) -> Settlement {
    settle_refereed(board, dead, ownership, &[])
}

/// As [`settle_with`], except that a region holding a point marked in
/// `unrefereed` is counted as a server counts it (dame where it touches
/// both colours): the audit's hypotheses mark a chain whose fate they
/// flip, and the ownership, estimated with the other fate, says nothing
/// of the region around it.
pub fn settle_refereed(
    board: &Board,
    dead: &[bool],
    ownership: Option<&[f32]>,
    unrefereed: &[bool],
) -> Settlement {
    let live = without_dead(board, dead);
    let n = board.index_len();
    let (region_of, regions) = empty_regions(&live);
    // Groups: chains joined through their own single-colour regions.
    let mut parent: Vec<usize> = (0..n).collect();
    join_through_own_regions(&live, &regions, &mut parent);
    let (eyes, big, false_eyes) = independent_life(&live, &regions, &region_of, &mut parent);
    let (in_seki, seki_region) = seki_regions(&live, &regions, &mut parent, &eyes, &big);
    let mut s = stone_kinds(board, &live, dead, false_eyes);
    // Empty and dead-stone points take their region's kind.
    for (r, (pts, border)) in regions.iter().enumerate() {
        let owner = match border {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ if !seki_region[r] => referee(pts, ownership, unrefereed),
            _ => None,
        };
        let seki_eye = owner.is_some() && touches_seki(&live, pts, &mut parent, &in_seki);
        // Behind an unclosed boundary, a point touching the other side's
        // stones is the gap the owner would fill, and a point next to a
        // gap is where the owner blocks when the other side pushes in:
        // both are dame.
        let mut refereed = match owner {
            Some(c) if *border == 3 && !seki_eye => Some(Refereed {
                owner: c,
                at: pts.iter().copied().min().unwrap_or_default(),
                points: pts.len(),
                gaps: Vec::new(),
                blocks: Vec::new(),
            }),
            _ => None,
        };
        for &q in pts {
            let region_kind = match (owner, refereed.as_mut()) {
                (Some(c), _) if seki_eye => PointKind::SekiEye(c),
                (Some(c), Some(rf)) if touches_other(&live, q, c) => {
                    rf.gaps.push(q);
                    PointKind::Dame
                }
                (Some(c), Some(rf)) if next_to_gap(&live, &region_of, r, q, c) => {
                    rf.blocks.push(q);
                    PointKind::Dame
                }
                (Some(c), _) => PointKind::Territory(c),
                (None, _) if seki_region[r] => PointKind::Seki,
                (None, _) => PointKind::Dame,
            };
            count_region_point(&mut s, q, region_kind);
        }
        s.refereed.extend(refereed);
    }
    must_fill::mark_fills(&live, &mut s);
    s.areas = count_areas(&live, &s.kinds);
    s
}

/// The board with the dead stones taken off: what regions and groups are
/// read from.
fn without_dead(board: &Board, dead: &[bool]) -> Board {
    let mut live = board.clone();
    for p in board.points() {
        if dead[p] {
            let (x, y) = board.xy(p);
            live.set(x, y, None);
        }
    }
    live.finish_setup();
    live
}

/// The empty regions of `live` with the colours bordering each (1 Black,
/// 2 White, 3 both), and each point's region (`usize::MAX` for a stone).
fn empty_regions(live: &Board) -> (Vec<usize>, Vec<(Vec<usize>, u8)>) {
    let mut region_of = vec![usize::MAX; live.index_len()];
    let mut regions: Vec<(Vec<usize>, u8)> = Vec::new();
    live.empty_regions(&mut EmptyRegions::default(), |pts, border| {
        for &q in pts {
            region_of[q] = regions.len();
        }
        regions.push((pts.to_vec(), border));
    });
    (region_of, regions)
}

/// Independent life per group: its eye regions and whether it can make two
/// eyes on its own (a big region or Benson), with the eyes it forfeits to a
/// seki; groups are joined across the colours' connections when a seki may
/// be there.
fn independent_life(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    region_of: &[usize],
    parent: &mut [usize],
) -> (Vec<u32>, Vec<bool>, Vec<(usize, usize)>) {
    let n = live.index_len();
    // Independent life per group: two eye regions, a big one, or Benson.
    let (mut eyes, mut big) = eye_regions(live, regions, parent);
    // Connections between the colours, and Benson's algorithm, matter only
    // when some small region between the colours touches groups that lack
    // two eyes (a seki may be there): look for them then, once.
    if seki_candidate(live, regions, parent, &eyes, &big) {
        join_connected(live, regions, parent);
        (eyes, big) = eye_regions(live, regions, parent);
        if seki_candidate(live, regions, parent, &eyes, &big) {
            let benson_b = benson(live, Color::Black);
            let benson_w = benson(live, Color::White);
            for p in live.points() {
                if benson_b.alive[p] || benson_w.alive[p] {
                    let g = find(parent, live.chain_id(p));
                    big[g] = true;
                }
            }
        }
    }
    // Eyes that filling a seki's shared liberties would force the owner
    // to fill do not count (only groups with two small eyes can lose one).
    let false_eyes = if (0..n).any(|g| eyes[g] >= 2 && !big[g]) {
        forfeit_false_eyes(live, regions, region_of, parent, &big, &mut eyes)
    } else {
        Vec::new()
    };
    (eyes, big, false_eyes)
}

/// Seki regions (bordered by both colours, every bordering group unable to
/// live on its own) by region, and the groups in seki by root chain id.
fn seki_regions(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    parent: &mut [usize],
    eyes: &[u32],
    big: &[bool],
) -> (Vec<bool>, Vec<bool>) {
    let independent = |g: usize| big[g] || eyes[g] >= 2;
    let mut in_seki = vec![false; live.index_len()];
    let mut seki_region = vec![false; regions.len()];
    for (r, (pts, border)) in regions.iter().enumerate() {
        // Shared liberties of a seki are few; a large open region between
        // groups is dame (or an unfinished boundary), not seki.
        if *border != 3 || pts.len() > MAX_SEKI_REGION {
            continue;
        }
        let groups: Vec<usize> = pts
            .iter()
            .flat_map(|&q| live.neighbours(q))
            .filter(|&m| live.at(m).is_some())
            .map(|m| find(parent, live.chain_id(m)))
            .collect();
        if groups.iter().all(|&g| !independent(g)) {
            seki_region[r] = true;
            for g in groups {
                in_seki[g] = true;
            }
        }
    }
    (in_seki, seki_region)
}

/// The settlement's stones: each point a dead stone, a living stone or (for
/// now) dame, with the stones counted; the regions' points are set after.
fn stone_kinds(
    board: &Board,
    live: &Board,
    dead: &[bool],
    false_eyes: Vec<(usize, usize)>,
) -> Settlement {
    let mut s = Settlement {
        kinds: vec![None; board.index_len()],
        false_eyes,
        ..Settlement::default()
    };
    for p in board.points() {
        let kind = if let Some(c) = board.at(p).filter(|_| dead[p]) {
            s.dead[c.index()] += 1;
            PointKind::Dead(c)
        } else if let Some(c) = live.at(p) {
            s.stones[c.index()] += 1;
            PointKind::Stone(c)
        } else {
            PointKind::Dame
        };
        s.kinds[p] = Some(kind);
    }
    s
}

/// The side a referee gives a region bordered by both colours: the one
/// the estimate's mean ownership clearly favours, none without ownership
/// or when the region holds an unrefereed point.
fn referee(pts: &[usize], ownership: Option<&[f32]>, unrefereed: &[bool]) -> Option<Color> {
    let own = ownership?;
    if pts.iter().any(|&q| unrefereed.get(q) == Some(&true)) {
        return None;
    }
    let mean = pts.iter().map(|&q| own[q]).sum::<f32>() / pts.len() as f32;
    if mean >= REFEREE_OWNERSHIP {
        Some(Color::Black)
    } else if mean <= -REFEREE_OWNERSHIP {
        Some(Color::White)
    } else {
        None
    }
}

/// Whether an owned region is a seki eye: the first stone next to it
/// belongs to a group in seki.
fn touches_seki(live: &Board, pts: &[usize], parent: &mut [usize], in_seki: &[bool]) -> bool {
    let stone = pts
        .iter()
        .flat_map(|&q| live.neighbours(q))
        .find(|&m| live.at(m).is_some());
    stone.is_some_and(|m| in_seki[find(parent, live.chain_id(m))])
}

/// Whether `q` touches a stone of `c`'s opponent: a gap behind an
/// unclosed boundary.
fn touches_other(live: &Board, q: usize, c: Color) -> bool {
    live.neighbours(q)
        .iter()
        .any(|&m| live.at(m) == Some(c.opponent()))
}

/// Whether `q` is next to a gap of its region `r`: where `c` blocks when
/// the other side pushes in.
fn next_to_gap(live: &Board, region_of: &[usize], r: usize, q: usize, c: Color) -> bool {
    live.neighbours(q)
        .iter()
        .any(|&g| region_of[g] == r && touches_other(live, g, c))
}

/// Counts a region's point `q` as `kind`, and marks it so unless it holds
/// a dead stone (which keeps that kind).
fn count_region_point(s: &mut Settlement, q: usize, kind: PointKind) {
    match kind {
        PointKind::Territory(c) => s.territory[c.index()] += 1,
        PointKind::SekiEye(c) => s.seki_eyes[c.index()] += 1,
        PointKind::Seki => s.seki_points += 1,
        _ => s.dame += 1,
    }
    if !matches!(s.kinds[q], Some(PointKind::Dead(_))) {
        s.kinds[q] = Some(kind);
    }
}

/// Per group (by root chain id): its eye regions (regions bordered by its
/// colour only) and whether one has room for two eyes.
fn eye_regions(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    parent: &mut [usize],
) -> (Vec<u32>, Vec<bool>) {
    let n = live.index_len();
    let (mut eyes, mut big) = (vec![0u32; n], vec![false; n]);
    for (pts, border) in regions {
        if *border == 1 || *border == 2 {
            let stone = pts
                .iter()
                .flat_map(|&q| live.neighbours(q))
                .find(|&m| live.at(m).is_some())
                .expect("a bordered region touches a stone");
            let g = find(parent, live.chain_id(stone));
            eyes[g] += 1;
            big[g] |= pts.len() >= MIN_TWO_EYE_SPACE;
        }
    }
    (eyes, big)
}

/// Whether some small region between the colours touches a group that
/// lacks two eyes: where a seki may be.
fn seki_candidate(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    parent: &mut [usize],
    eyes: &[u32],
    big: &[bool],
) -> bool {
    regions.iter().any(|(pts, border)| {
        *border == 3
            && pts.len() <= MAX_SEKI_REGION
            && pts.iter().flat_map(|&q| live.neighbours(q)).any(|m| {
                live.at(m).is_some() && {
                    let g = find(parent, live.chain_id(m));
                    !big[g] && eyes[g] < 2
                }
            })
    })
}

/// The root of `a` in the union-find forest `parent` (by chain id).
fn find(parent: &mut [usize], mut a: usize) -> usize {
    while parent[a] != a {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    a
}

/// Joins the sets of chains `a` and `b`.
fn join(parent: &mut [usize], a: usize, b: usize) {
    let (x, y) = (find(parent, a), find(parent, b));
    if x != y {
        parent[y] = x;
    }
}

/// Joins the chains around each region bordered by one colour: they form
/// one group with that region as an eye (or territory).
fn join_through_own_regions(live: &Board, regions: &[(Vec<usize>, u8)], parent: &mut [usize]) {
    for (pts, border) in regions {
        if *border == 1 || *border == 2 {
            let mut first = None;
            for m in pts.iter().flat_map(|&q| live.neighbours(q)) {
                if live.at(m).is_some() {
                    let c = live.chain_id(m);
                    match first {
                        None => first = Some(c),
                        Some(f) => join(parent, f, c),
                    }
                }
            }
        }
    }
}

/// Joins chains of one colour that are connected across the regions
/// between the colours: by a shared liberty the opponent cannot play (its
/// stone would be in atari at once), or by two shared liberties (a double
/// connection). A one-eyed group so joined to a living one is no seki.
fn join_connected(live: &Board, regions: &[(Vec<usize>, u8)], parent: &mut [usize]) {
    // Pairs of chains seen sharing one safe liberty so far.
    let mut once: Vec<(usize, usize)> = Vec::new();
    for (pts, border) in regions {
        if *border != 3 {
            continue;
        }
        for &q in pts {
            for c in [Color::Black, Color::White] {
                // The distinct chains of `c` around q (at most four).
                let (mut ids, mut k) = ([0usize; 4], 0);
                for m in live.neighbours(q) {
                    if live.at(m) == Some(c) && !ids[..k].contains(&live.chain_id(m)) {
                        ids[k] = live.chain_id(m);
                        k += 1;
                    }
                }
                if k < 2 {
                    continue;
                }
                let chains = &ids[..k];
                let opp = c.opponent();
                let safe = live.is_legal(opp, q) && live.liberties_after(opp, q) >= 2;
                for (i, &a) in chains.iter().enumerate() {
                    for &b in &chains[i + 1..] {
                        let key = (a.min(b), a.max(b));
                        if !safe || once.contains(&key) {
                            join(parent, a, b);
                        } else {
                            once.push(key);
                        }
                    }
                }
            }
        }
    }
}

/// Finds the one-point eyes a group loses in a seki: an eye is lost when a
/// chain of the group touches it and no other eye, and the chain's other
/// liberties are small regions shared with groups of the other colour that
/// cannot live on their own either. Filling those liberties puts the
/// chain in atari, and saving it fills the eye. The group loses that eye
/// (9 KGS games more agree with `RE`, 1 fewer); and unless the chain,
/// once connected, has two eyes of its own ([`eyes_once_connected`]), it
/// is left with one: in seki, as GNU Go reads such positions (2 games
/// more over twelve seeds, none fewer). Returns each eye lost, with a
/// stone of the chain that would fill it.
fn forfeit_false_eyes(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    region_of: &[usize],
    parent: &mut [usize],
    big: &[bool],
    eyes: &mut [u32],
) -> Vec<(usize, usize)> {
    // Per small region between the colours, per colour: whether every
    // group of the other colour beside it lacks two eyes.
    let weak_shared: Vec<[bool; 2]> = regions
        .iter()
        .map(|(pts, border)| {
            if *border != 3 || pts.len() > MAX_SEKI_REGION {
                return [false; 2];
            }
            let mut strong = [false; 2];
            for m in pts.iter().flat_map(|&q| live.neighbours(q)) {
                if let Some(c) = live.at(m) {
                    let g = find(parent, live.chain_id(m));
                    strong[c.index()] |= big[g] || eyes[g] >= 2;
                }
            }
            [!strong[1], !strong[0]]
        })
        .collect();
    // Eyes lost: the eye point, a stone of the chain, the eye's region.
    let mut lost: Vec<(usize, usize, usize)> = Vec::new();
    for p in live.chains() {
        let Some(c) = live.at(p) else { continue };
        let g = find(parent, live.chain_id(p));
        if big[g] || eyes[g] < 2 {
            continue;
        }
        // The chain's own eye regions (up to two), and whether its other
        // liberties are all shared with weak groups.
        let (mut own, mut shared, mut other) = ([usize::MAX; 2], false, false);
        live.for_each_stone(p, |s| {
            for m in live.neighbours(s) {
                if !live.on_board(m) || live.at(m).is_some() {
                    continue;
                }
                let r = region_of[m];
                if regions[r].1 != 3 {
                    if own[0] == usize::MAX || own[0] == r {
                        own[0] = r;
                    } else {
                        own[1] = r;
                    }
                } else if weak_shared[r][c.index()] {
                    shared = true;
                } else {
                    other = true;
                }
            }
        });
        if shared
            && !other
            && own[0] != usize::MAX
            && own[1] == usize::MAX
            && regions[own[0]].0.len() == 1
            && !lost.iter().any(|&(_, _, r)| r == own[0])
        {
            lost.push((regions[own[0]].0[0], p, own[0]));
            eyes[g] = if eyes_once_connected(live, regions, region_of, p, own[0]) >= 2 {
                eyes[g] - 1
            } else {
                1
            };
        }
    }
    lost.into_iter()
        .map(|(eye, chain, _)| (eye, chain))
        .collect()
}

/// How many eyes the chain through `p` has once it connects to the rest of
/// its group by filling its one-point eye `eye` (region index), and then,
/// while the connected chain touches a single one-point eye, that one too:
/// chains linked only through one-point eyes fill them one by one. Two or
/// more: the group keeps them and lives.
fn eyes_once_connected(
    live: &Board,
    regions: &[(Vec<usize>, u8)],
    region_of: &[usize],
    p: usize,
    eye: usize,
) -> usize {
    let mut filled = vec![eye];
    let mut chains = vec![live.chain_id(p)];
    loop {
        // The chains beside the filled eyes join.
        for &r in &filled {
            for m in regions[r].0.iter().flat_map(|&q| live.neighbours(q)) {
                if live.at(m).is_some() && !chains.contains(&live.chain_id(m)) {
                    chains.push(live.chain_id(m));
                }
            }
        }
        // The eye regions the joined chain touches.
        let mut eyes: Vec<usize> = Vec::new();
        for q in live.points() {
            if live.at(q).is_none() || !chains.contains(&live.chain_id(q)) {
                continue;
            }
            for m in live.neighbours(q) {
                if live.on_board(m) && live.at(m).is_none() {
                    let r = region_of[m];
                    if regions[r].1 != 3 && !filled.contains(&r) && !eyes.contains(&r) {
                        eyes.push(r);
                    }
                }
            }
        }
        match eyes[..] {
            [r] if regions[r].0.len() == 1 => filled.push(r),
            _ => return eyes.len(),
        }
    }
}

/// Connected components of each colour's stones plus territory (seki eyes
/// included: they belong to the group).
fn count_areas(board: &Board, kinds: &[Option<PointKind>]) -> [u32; 2] {
    let colour_of = |k: Option<PointKind>| match k {
        Some(
            PointKind::Stone(c)
            | PointKind::Territory(c)
            | PointKind::SekiEye(c)
            | PointKind::Fill(c),
        ) => Some(c),
        Some(PointKind::Dead(c)) => Some(c.opponent()),
        _ => None,
    };
    let mut seen = vec![false; kinds.len()];
    let mut areas = [0, 0];
    let mut stack = Vec::new();
    for p in board.points() {
        let Some(c) = colour_of(kinds[p]) else {
            continue;
        };
        if seen[p] {
            continue;
        }
        areas[c.index()] += 1;
        seen[p] = true;
        stack.push(p);
        while let Some(q) = stack.pop() {
            for m in board.neighbours(q) {
                if board.on_board(m) && !seen[m] && colour_of(kinds[m]) == Some(c) {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
    }
    areas
}

/// Settles the position `rows` draws (see [`Board::from_diagram`]) with
/// the stones at `dead_points` dead: the unit tests' diagrams.
#[cfg(test)]
pub(crate) fn settle_diagram(rows: &str, dead_points: &[(u8, u8)]) -> Settlement {
    let b = Board::from_diagram(rows);
    let mut dead = vec![false; b.index_len()];
    for &(x, y) in dead_points {
        dead[b.index(x, y)] = true;
    }
    settle(&b, &dead)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_diagram_with_a_dead_stone() {
        // go-endgame-count-and-move-values.txt: Black's points are 4 (3
        // territory + 1 prisoner), White's points are 1.
        let s = settle_diagram(
            "X . O . X O O O O O O . O
             X X X X X X X X X X O O O",
            &[(2, 0)],
        );
        assert_eq!(s.territory, [3, 1]);
        assert_eq!(s.dead, [0, 1]);
        assert_eq!(s.areas, [1, 1]);
    }

    #[test]
    fn behind_an_unclosed_boundary_the_gap_and_the_block_are_dame() {
        // Black's area of five points touches White at (4,2). Counted
        // mechanically it is dame; when the playouts give it to Black, a
        // referee gives Black the three points behind the gap: the gap
        // itself (which Black would fill) stays dame, and so does (3,2),
        // where Black blocks when White pushes in.
        let b = Board::from_diagram(
            ". X X X X O .
             X X . . X O O
             . X . . . O .
             X X X X X O O",
        );
        let none = vec![false; b.index_len()];
        let s = settle(&b, &none);
        assert_eq!((s.territory, s.dame), ([2, 2], 5));
        let own = vec![1.0; b.index_len()];
        let s = settle_with(&b, &none, Some(&own));
        assert_eq!((s.territory, s.dame), ([5, 2], 2));
        assert_eq!(s.kinds[b.index(4, 2)], Some(PointKind::Dame));
        assert_eq!(s.kinds[b.index(3, 2)], Some(PointKind::Dame));
        assert_eq!(
            s.kinds[b.index(3, 1)],
            Some(PointKind::Territory(Color::Black))
        );
        assert_eq!(
            s.refereed,
            [Refereed {
                owner: Color::Black,
                at: b.index(2, 1),
                points: 5,
                gaps: vec![b.index(4, 2)],
                blocks: vec![b.index(3, 2)],
            }]
        );
    }

    #[test]
    fn dame_between_living_groups() {
        let s = settle_diagram(
            ". X . X . O . O .
             X X X X . O O O O
             . X . X . O . O .",
            &[],
        );
        assert_eq!(s.dame, 3);
        assert_eq!(s.seki_points, 0);
        assert_eq!(s.territory, [4, 4]);
        assert_eq!(s.areas, [1, 1]);
    }

    #[test]
    fn an_eye_a_seki_would_force_the_owner_to_fill_is_no_eye() {
        // Black's stone at (3,0) has two liberties: the eye at (4,0) and
        // (2,0), shared with White's one-eyed group. Neither side can play
        // (2,0) (it puts its own chain in atari), so it is a seki; Black's
        // two eyes do not make its group independent, because the eye at
        // (4,0) is what its stone at (3,0) would have to fill. Every eye of
        // a group in seki counts nothing under territory scoring.
        let s = settle_diagram(
            ". O . X . X .
             O O O O X X X",
            &[],
        );
        assert_eq!(s.seki_points, 1);
        assert_eq!(s.seki_eyes, [2, 1]);
        assert_eq!(s.territory, [0, 0]);
        assert_eq!(s.dame, 0);
        // The eye at (4,0), which the stone at (3,0) would fill.
        let b = Board::from_diagram(". O . X . X .\n O O O O X X X");
        assert_eq!(s.false_eyes, vec![(b.index(4, 0), b.index(3, 0))]);
    }

    #[test]
    fn a_chain_that_connects_to_two_eyes_leaves_no_seki() {
        // As above, but Black's wall has a third eye at (8,0): once the
        // stone at (3,0) connects by filling (4,0), its chain keeps the
        // eyes at (6,0) and (8,0). Black then fills (2,0) and captures
        // White's one-eyed group: no seki, (2,0) is dame.
        let s = settle_diagram(
            ". O . X . X . X .
             O O O O X X X X X",
            &[],
        );
        assert_eq!(s.seki_points, 0);
        assert_eq!(s.seki_eyes, [0, 0]);
        assert_eq!(s.territory, [3, 1]);
        assert_eq!(s.dame, 1);
    }

    #[test]
    fn every_point_is_counted_once_on_random_positions() {
        use crate::go::board::random;
        // Random stones (chains without liberties included: setup allows
        // them), random dead stones and random ownership: settling never
        // panics, and stones, territory, seki eyes, fill points, seki
        // points and dame add up to the board, whatever the position.
        let mut rng = random::Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let b = random::board(&mut rng, 11);
            let (w, h) = (b.width(), b.height());
            let dead: Vec<bool> = (0..b.index_len())
                .map(|p| b.at(p).is_some() && rng.below(6) == 0)
                .collect();
            let own: Vec<f32> = (0..b.index_len())
                .map(|_| rng.below(201) as f32 / 100.0 - 1.0)
                .collect();
            for s in [settle(&b, &dead), settle_with(&b, &dead, Some(&own))] {
                let total = s.stones.iter().sum::<u32>()
                    + s.territory.iter().sum::<u32>()
                    + s.seki_eyes.iter().sum::<u32>()
                    + s.fills.iter().sum::<u32>()
                    + s.seki_points
                    + s.dame;
                assert_eq!(total, u32::from(w) * u32::from(h), "round {round}");
                let dead_stones = dead.iter().filter(|&&d| d).count() as u32;
                assert_eq!(s.dead.iter().sum::<u32>(), dead_stones, "round {round}");
            }
        }
    }
}
