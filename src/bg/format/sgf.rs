//! Reader for GNU Backgammon's SGF (`GM[6]`): one game tree per game, the
//! root's `MI[length:L][game:i][ws:a][bs:b]` giving match length, game
//! index and score, moves like `W[31hefe]` (dice, then from/to letter
//! pairs), and cube actions `double`/`take`/`drop`.
//!
//! Letters name points in White's numbering: `a`..`x` are White's points
//! 1..24 (Black's 24..1), `y` the bar, `z` off. White is gnubg's player 0,
//! the left column of its `.mat` export; Black is player 1.

use crate::bg::format::mat::MatError;
use crate::bg::game::record::{
    Action, GameRecord, GnubgCube, GnubgPlay, MatchRecord, Step, BAR_POINT, OFF_POINT,
};
use crate::bg::position::board::{Board, BAR};
use crate::sgf::reader::{parse_tree, unescape, Tree};
use crate::sgf::split::{split_trees, Chunk};

/// Reads every game tree of a GNU Backgammon SGF file.
///
/// # Errors
/// When no tree is a backgammon game.
pub fn read_bg_sgf(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    let mut m = MatchRecord {
        format: "sgf",
        ..MatchRecord::default()
    };
    let mut trees = 0u32;
    let mut problem: Option<String> = None;
    let split = split_trees(bytes, u64::MAX, |chunk| {
        trees += 1;
        match chunk {
            Chunk::Tree(t) => match parse_tree(&t) {
                Ok(tree) => read_game(&tree, trees, &mut m),
                Err(e) => m.notes.push(format!("game tree {trees}: {e}; skipped")),
            },
            Chunk::Truncated { .. } => {
                problem.get_or_insert(format!("truncated SGF: game tree {trees} never closes"));
            }
            Chunk::TooLarge { .. } => {}
        }
        true
    });
    if let Err(e) = split {
        return Err(MatError(format!("cannot read: {e}")));
    }
    if let Some(p) = problem {
        m.notes.push(p);
    }
    if m.games.is_empty() {
        return Err(MatError(m.notes.first().cloned().unwrap_or_else(|| {
            "no backgammon game tree (GM[6]) in the SGF".into()
        })));
    }
    Ok(m)
}

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(&unescape(v)).trim().to_string()
}

fn read_game(tree: &Tree<'_>, index: u32, m: &mut MatchRecord) {
    if tree.get(0, "GM").map(text).as_deref() != Some("6") {
        m.notes.push(format!(
            "game tree {index}: not a backgammon tree (GM is not 6); skipped"
        ));
        return;
    }
    let mut g = GameRecord {
        number: index,
        ..GameRecord::default()
    };
    let root = tree.node(0);
    for p in root {
        let vals = tree.prop_values(p);
        match p.ident.as_bytes() {
            b"MI" => {
                let mut score = [None, None];
                for v in vals {
                    let v = text(v);
                    let Some((k, x)) = v.split_once(':') else {
                        continue;
                    };
                    let n = x.trim().parse::<u32>().ok();
                    match k.trim() {
                        "length" => m.length = n.unwrap_or(0),
                        "game" => g.number = n.map_or(index, |n| n + 1),
                        "ws" => score[0] = n,
                        "bs" => score[1] = n,
                        _ => {}
                    }
                }
                if let [Some(a), Some(b)] = score {
                    g.score = Some([a, b]);
                }
            }
            b"PW" if m.players[0].is_empty() => m.players[0] = text(vals[0]),
            b"PB" if m.players[1].is_empty() => m.players[1] = text(vals[0]),
            b"RE" => g.result_raw = text(vals[0]),
            b"RU" => {
                let ru = text(vals[0]);
                g.crawford_marked = Some(ru.contains("CrawfordGame"));
                if !m.tags.iter().any(|(k, _)| k == "Crawford") {
                    let on = ru.split(':').any(|r| r.eq_ignore_ascii_case("Crawford"));
                    m.tags
                        .push(("Crawford".into(), if on { "On" } else { "Off" }.into()));
                }
                if ru.contains("Jacoby") && m.tag("Jacoby").is_none() {
                    m.tags.push(("Jacoby".into(), "On".into()));
                }
            }
            b"DT" if m.tag("EventDate").is_none() => {
                m.tags.push(("EventDate".into(), text(vals[0])));
            }
            _ => {}
        }
    }
    for i in 0..tree.node_count() {
        read_node(tree, i, &mut g);
    }
    // gnubg writes the result only in RE (`W+2`, `B+4R` for a resignation).
    if let Some((player, points)) = result_of(&g.result_raw) {
        let last = tree.node_count().saturating_sub(1) as u32;
        g.actions.push((
            last,
            Action::Wins {
                player,
                points,
                and_match: false,
            },
        ));
    }
    m.games.push(g);
}

/// `W+2`, `B+4R` → (winner, points).
fn result_of(re: &str) -> Option<(usize, u32)> {
    let (who, rest) = re.split_once('+')?;
    let player = match who.trim() {
        "W" => 0,
        "B" => 1,
        _ => return None,
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((player, digits.parse().ok()?))
}

/// A point letter in the numbering of `player`: `a`..`x` → 1..24, `y` →
/// bar, `z` → off.
fn letter_point(c: u8, player: usize) -> Option<u8> {
    match c {
        b'a'..=b'x' => {
            let white = c - b'a' + 1;
            Some(if player == 0 { white } else { 25 - white })
        }
        b'y' => Some(BAR_POINT),
        b'z' => Some(OFF_POINT),
        _ => None,
    }
}

fn read_node(tree: &Tree<'_>, i: usize, g: &mut GameRecord) {
    let node_no = i as u32;
    for p in tree.node(i) {
        let vals = tree.prop_values(p);
        let player = match p.ident.as_bytes() {
            b"W" => 0,
            b"B" => 1,
            b"DA" => {
                g.analysed += 1;
                if let Some(a) = vals.first().and_then(|v| cube_analysis(node_no, &text(v))) {
                    g.cube_analysis.push(a);
                }
                continue;
            }
            b"A" => {
                g.analysed += 1;
                let vals: Vec<String> = vals.iter().map(|v| text(v)).collect();
                if let Some(a) = play_analysis(&vals) {
                    let (eval, loss) = a;
                    let entry = play_entry(g, node_no);
                    entry.eval = eval;
                    entry.loss = loss;
                }
                continue;
            }
            b"LU" => {
                // gnubg writes `-inf` for a roll it did not analyse.
                let luck = vals.first().and_then(|v| text(v).trim().parse().ok());
                play_entry(g, node_no).luck = luck.filter(|l: &f32| l.is_finite());
                continue;
            }
            b"AE" | b"AW" | b"AB" => {
                setup(g, p.ident.as_bytes(), vals);
                continue;
            }
            _ => continue,
        };
        let v = text(vals.first().copied().unwrap_or_default());
        let action = match v.to_ascii_lowercase().as_str() {
            "double" => Action::Double {
                player,
                value: 0, // the replay knows the cube
            },
            "take" => Action::Take { player },
            "drop" => Action::Drop { player },
            "beaver" => Action::Beaver { player, value: 0 },
            _ => match read_move(&v, player) {
                Ok(a) => a,
                Err(why) => {
                    g.unread.push((node_no, format!("node {node_no}: {why}")));
                    continue;
                }
            },
        };
        g.actions.push((node_no, action));
    }
}

/// `DA[E ver 3 2C 1 0.000000 1 p0..p6 q0..q6]`: an evaluation (`E`; rollouts
/// are skipped), its ply and cubefulness (`2C`), then the no-double and the
/// double/take outputs, seven numbers each (the last fourteen numbers).
fn cube_analysis(node: u32, v: &str) -> Option<GnubgCube> {
    let words: Vec<&str> = v.split_whitespace().collect();
    if words.first() != Some(&"E") {
        return None;
    }
    let eval = words.get(3)?.to_string();
    let nums: Vec<f32> = words.iter().filter_map(|w| w.parse().ok()).collect();
    let last = nums.get(nums.len().checked_sub(14)?..)?;
    let mut no_double = [0.0; 7];
    let mut double_take = [0.0; 7];
    no_double.copy_from_slice(&last[..7]);
    double_take.copy_from_slice(&last[7..]);
    Some(GnubgCube {
        node,
        eval,
        no_double,
        double_take,
    })
}

/// The play analysis of node `node`, added when new.
fn play_entry(g: &mut GameRecord, node: u32) -> &mut GnubgPlay {
    if g.play_analysis.last().is_none_or(|a| a.node != node) {
        g.play_analysis.push(GnubgPlay {
            node,
            ..GnubgPlay::default()
        });
    }
    g.play_analysis.last_mut().expect("just pushed")
}

/// `A[i][move E ver 3 p0..p4 score 2C …]…`: the played play's index, then
/// each play, best first, with its evaluation (`E`; rollouts `R` are
/// skipped): the played one's evaluation name and the loss, best score
/// less played score.
fn play_analysis(vals: &[String]) -> Option<(String, Option<f32>)> {
    let played: usize = vals.first()?.trim().parse().ok()?;
    let entry = |i: usize| -> Option<(f32, String)> {
        let words: Vec<&str> = vals.get(1 + i)?.split_whitespace().collect();
        (words.get(1) == Some(&"E")).then_some(())?;
        Some((words.get(9)?.parse().ok()?, words.get(10)?.to_string()))
    };
    let (score, eval) = entry(played)?;
    let loss = entry(0).map(|(best, _)| best - score);
    Some((eval, loss))
}

/// `31hefe` → a roll of 3-1 moving h→e and f→e (letters in White's
/// numbering).
fn read_move(v: &str, player: usize) -> Result<Action, String> {
    let b = v.as_bytes();
    if b.len() < 2 || !(b'1'..=b'6').contains(&b[0]) || !(b'1'..=b'6').contains(&b[1]) {
        return Err(format!("unknown move '{v}'"));
    }
    let pairs = &b[2..];
    if !pairs.len().is_multiple_of(2) || pairs.len() > 8 {
        return Err(format!("move '{v}' is not dice then from/to letter pairs"));
    }
    let steps = pairs
        .chunks(2)
        .map(
            |c| match (letter_point(c[0], player), letter_point(c[1], player)) {
                (Some(from), Some(to)) => Ok(Step {
                    from,
                    to,
                    hit: false,
                }),
                _ => Err(format!("bad point letter in move '{v}'")),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    let text = steps
        .iter()
        .map(|s| format!("{}/{}", s.from, s.to))
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Action::Roll {
        player,
        dice: (b[0] - b'0', b[1] - b'0'),
        steps,
        text,
    })
}

/// `AE`/`AW`/`AB` setup: a checker per value (a point may repeat); `AE`
/// empties the points named.
fn setup(g: &mut GameRecord, ident: &[u8], vals: &[&[u8]]) {
    let board = g.setup.get_or_insert_with(Board::start);
    for v in vals {
        for &c in v.iter() {
            let Some(white) = letter_point(c, 0) else {
                continue;
            };
            let (w, b) = match white {
                BAR_POINT => (BAR, BAR),
                OFF_POINT => continue,
                n => (n as usize - 1, 24 - n as usize),
            };
            match ident {
                b"AE" => {
                    board.checkers[0][w] = 0;
                    board.checkers[1][b] = 0;
                }
                // An impossible count is the replay's finding, not an
                // overflow here.
                b"AW" => board.checkers[0][w] = board.checkers[0][w].saturating_add(1),
                _ => board.checkers[1][b] = board.checkers[1][b].saturating_add(1),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gnubgs_play_analysis() {
        let sgf = b"(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]PW[a]PB[b]\
;B[41lpab]A[1][lpab E ver 3 0.5 0.1 0.0 0.1 0.0 -0.005362 2C 0 1 0.0 0]\
[aeab E ver 3 0.5 0.1 0.0 0.1 0.0 -0.023303 2C 0 1 0.0 0]MR[]LU[-0.00536]\
;W[31hefe]LU[-inf])";
        let m = read_bg_sgf(sgf).unwrap();
        let a = &m.games[0].play_analysis;
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].eval, "2C");
        assert!((a[0].loss.unwrap() - 0.017941).abs() < 1e-6);
        assert_eq!(a[0].luck, Some(-0.00536));
        // A roll gnubg did not analyse.
        assert_eq!((a[1].loss, a[1].luck), (None, None));
    }

    #[test]
    fn reads_gnubg_moves_and_cube() {
        let sgf = b"(;FF[4]GM[6]MI[length:7][game:1][ws:0][bs:2]PW[a]PB[b]RU[Crawford]RE[W+2]\
;B[41lpab]A[0][x]\n;W[31fehe]DA[x]\n;B[double]\n;W[take]\n;B[52yeqs])";
        let m = read_bg_sgf(sgf).unwrap();
        assert_eq!(m.length, 7);
        assert_eq!(m.players, ["a".to_string(), "b".into()]);
        assert_eq!(m.tag_flag("Crawford"), Some(true));
        let g = &m.games[0];
        assert_eq!(g.number, 2);
        assert_eq!(g.score, Some([0, 2]));
        assert_eq!(g.analysed, 2);
        let acts: Vec<&Action> = g.actions.iter().map(|(_, a)| a).collect();
        // Black's 41: 13/9 24/23 (the .mat export of the same game).
        match acts[0] {
            Action::Roll {
                player: 1,
                dice: (4, 1),
                steps,
                ..
            } => {
                assert_eq!((steps[0].from, steps[0].to), (13, 9));
                assert_eq!((steps[1].from, steps[1].to), (24, 23));
            }
            a => panic!("{a:?}"),
        }
        // White's 31: 6/5 8/5.
        match acts[1] {
            Action::Roll {
                player: 0, steps, ..
            } => {
                assert_eq!((steps[0].from, steps[0].to), (6, 5));
                assert_eq!((steps[1].from, steps[1].to), (8, 5));
            }
            a => panic!("{a:?}"),
        }
        assert!(matches!(acts[2], Action::Double { player: 1, .. }));
        assert_eq!(*acts[3], Action::Take { player: 0 });
        match acts[4] {
            Action::Roll { steps, .. } => {
                assert_eq!((steps[0].from, steps[0].to), (25, 20));
                assert_eq!((steps[1].from, steps[1].to), (8, 6));
            }
            a => panic!("{a:?}"),
        }
    }

    #[test]
    fn a_go_tree_is_not_a_backgammon_game() {
        assert!(read_bg_sgf(b"(;GM[1]SZ[19];B[aa])").is_err());
    }
}
