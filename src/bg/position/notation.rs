//! A play written as GNU Backgammon writes it (`FormatMove` in gnubg's
//! `drawboard.c`): `24/13`, `8/5(2) 6/3(2)`, `13/9*/7`, `bar/22* 6/off`.
//!
//! The steps of one checker are joined into one move, the points it
//! passes left out unless it hit there (then kept, each with its `*`);
//! moves are ordered from the highest starting point down (then the
//! highest end); a move made by several checkers alike is written once
//! with its count. A point is marked hit once, at the first move to land
//! there. As gnubg, the board before the play decides what is a hit, and
//! steps are joined by where they start and end, not by which checker
//! made them: the text names the play's resulting position, which is what
//! a play is.

use crate::bg::position::board::{Board, BAR};
use crate::bg::position::play::Move;

/// `moves`, a play by `mover` from `before`, in gnubg's notation.
pub fn gnubg_notation(before: &Board, mover: usize, moves: &[Move]) -> String {
    // Points in the mover's numbering: 25 the bar, 0 off.
    let point = |m: &Move| -> (u8, u8) {
        let from = if m.from == BAR { 25 } else { m.from as u8 + 1 };
        (from, m.to.map_or(0, |t| t as u8 + 1))
    };
    // An opponent's checker on the mover's point `p` (1..=24), before the
    // play.
    let blot = |p: u8| (1..=24).contains(&p) && before.checkers[1 - mover][24 - p as usize] > 0;

    let mut steps: Vec<(u8, u8)> = moves.iter().map(point).collect();
    steps.sort_unstable_by(|a, b| b.cmp(a));
    // Each move's path: its start, the points it hit on the way, its end.
    let mut paths: Vec<Option<Vec<u8>>> = steps.iter().map(|&(f, t)| Some(vec![f, t])).collect();
    for i in 0..paths.len() {
        for j in i + 1..paths.len() {
            let (head, tail) = paths.split_at_mut(j);
            let (Some(pi), Some(pj)) = (&mut head[i], &tail[0]) else {
                continue;
            };
            let end = *pi.last().expect("a path has an end");
            if end != pj[0] {
                continue;
            }
            let next = *pj.last().expect("a path has an end");
            if blot(end) {
                pi.push(next);
            } else {
                *pi.last_mut().expect("a path has an end") = next;
            }
            tail[0] = None;
        }
    }
    // Moves alike, counted.
    let mut counted: Vec<(Vec<u8>, usize)> = Vec::new();
    for path in paths.into_iter().flatten() {
        match counted.iter_mut().find(|(p, _)| *p == path) {
            Some((_, n)) => *n += 1,
            None => counted.push((path, 1)),
        }
    }

    let mut out = String::new();
    let mut marked = [false; 26];
    let name = |p: u8| match p {
        0 => "off".to_string(),
        25 => "bar".to_string(),
        p => p.to_string(),
    };
    for (path, n) in &counted {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&name(path[0]));
        let end = path[path.len() - 1];
        for &p in &path[1..path.len() - 1] {
            out.push('/');
            out.push_str(&name(p));
            out.push('*');
            marked[p as usize] = true;
        }
        out.push('/');
        out.push_str(&name(end));
        if blot(end) && !marked[end as usize] {
            out.push('*');
            marked[end as usize] = true;
        }
        if *n > 1 {
            out.push_str(&format!("({n})"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::position::moves::legal_plays;

    /// The legal plays of `dice` from `board`, written.
    fn written(board: &Board, dice: (u8, u8)) -> Vec<String> {
        let mut w: Vec<String> = legal_plays(board, 0, dice)
            .iter()
            .map(|p| gnubg_notation(board, 0, &p.moves))
            .collect();
        w.sort();
        w
    }

    #[test]
    fn steps_of_one_checker_join_and_alike_moves_count() {
        let start = Board::start();
        let w = written(&start, (6, 5));
        assert!(w.contains(&"24/13".to_string()), "{w:?}");
        assert!(w.contains(&"13/8 13/7".to_string()), "{w:?}");
        let w = written(&start, (3, 3));
        assert!(w.contains(&"8/5(2) 6/3(2)".to_string()), "{w:?}");
        assert!(w.contains(&"13/7(2)".to_string()), "{w:?}");
        assert!(w.contains(&"24/18 13/7".to_string()), "{w:?}");
    }

    #[test]
    fn a_hit_on_the_way_is_kept_and_each_point_is_marked_once() {
        // Player 0 on the 13 (two) and the 11; an opposing blot on player
        // 0's 9-point (the opponent's 16).
        let mut b = Board {
            checkers: [[0; 25]; 2],
        };
        b.checkers[0][12] = 2;
        b.checkers[0][10] = 1;
        b.checkers[1][15] = 1;
        let w = written(&b, (4, 2));
        for p in ["13/9*/7", "13/11 13/9*", "13/9* 11/9"] {
            assert!(w.contains(&p.to_string()), "{p} not in {w:?}");
        }
        let w = written(&b, (4, 3));
        for p in ["13/9*/6", "13/6", "13/9* 11/8"] {
            assert!(w.contains(&p.to_string()), "{p} not in {w:?}");
        }
    }

    #[test]
    fn bear_offs_as_gnubg_wrote_them() {
        // The texts gnubg's `movetupletostring` gave for these steps from
        // this position (the player on roll holds the 1 to 5-points, the
        // opponent a blot on the 4-point); the binding's own tuples of a
        // bear-off are cut short (scripts/gnubg_notation.py).
        let board = crate::bg::position::ids::board_from_position_id("bdsNAAS75wcAAA", 0).unwrap();
        let step = |from: usize, to: usize| Move {
            from: if from == 25 { BAR } else { from - 1 },
            to: (to > 0).then(|| to - 1),
            hit: false,
            die: 0,
        };
        let cases: [(&[(usize, usize)], &str); 8] = [
            (&[(3, 2), (3, 0)], "3/2 3/off"),
            (&[(3, 0), (1, 0)], "3/off 1/off"),
            (&[(5, 2), (1, 0)], "5/2 1/off"),
            (&[(6, 3), (3, 0)], "6/off"),
            (&[(3, 0), (3, 0)], "3/off(2)"),
            (&[(5, 4), (4, 0)], "5/4*/off"),
            (&[(5, 4), (4, 1), (1, 0)], "5/4*/off"),
            (&[(6, 2), (2, 0), (3, 0)], "6/off 3/off"),
        ];
        for (steps, want) in cases {
            let moves: Vec<Move> = steps.iter().map(|&(f, t)| step(f, t)).collect();
            assert_eq!(gnubg_notation(&board, 0, &moves), want, "{steps:?}");
        }
    }
}
