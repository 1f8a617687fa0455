//! The board diagram BGBlitz and eXtreme Gammon draw in their text
//! position exports: a header line numbering the points 13 to 24, five
//! rows of the top half, a middle row marked `BAR`, five rows of the
//! bottom half and a footer line numbering the points 12 to 1, seen by X,
//! who plays from the top right (24) round to the bottom right (1).
//!
//! ```text
//!  +13-14-15-16-17-18------19-20-21-22-23-24-+
//!  |    X           X |   | X  O  O  O  O  O | +---+
//!  |                  |   | X  O  O  O  O  O | | 2 |
//!  ...
//!  |                  |BAR|                  |
//!  ...
//!  |       O          |   | X  X  X  X     X |
//!  +12-11-10--9--8--7-------6--5--4--3--2--1-+
//! ```
//!
//! A point's checkers stack from the board's edge towards the middle, one
//! letter a row; a taller stack ends in a number, which XG writes as the
//! stack's whole count and BGBlitz as the checkers beyond the letters
//! drawn ([`Overflow`]). Checkers on the bar stand in the bar column. The
//! cube, when owned, is a box right of the board in its owner's half.
//! X is the bottom player, recount's player 1 (the XGID's bottom side), O
//! the top player, player 0. The columns are found from the point numbers
//! of the header and footer lines, not assumed.

use crate::bg::position::board::{Board, BAR, CHECKERS};

/// Lines of a diagram, header and footer included.
pub const LINES: usize = 13;

/// What a number at the end of a stack says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// The stack's whole count (XG).
    Total,
    /// The checkers beyond the letters drawn (BGBlitz).
    Extra,
}

/// A diagram read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram<'a> {
    pub board: Board,
    /// The cube box: its value and the owner whose half it is drawn in
    /// (`None` on the middle row); `None` when the diagram has no box.
    pub cube: Option<(u32, Option<usize>)>,
    /// The text after the header and the footer line (BGBlitz writes the
    /// players' names and pip counts there).
    pub header_tail: &'a str,
    pub footer_tail: &'a str,
}

/// The header line of a diagram.
pub fn is_header(line: &str) -> bool {
    line.trim_start().starts_with("+13-14-15-16-17-18")
}

/// The point numbers on a header or footer line, each with the column of
/// its last digit (where the point's checkers are drawn), up to the
/// board's right edge; and the column of that edge.
fn labels(line: &str) -> (Vec<(u32, usize)>, usize) {
    let b = line.as_bytes();
    let start = b.iter().position(|&c| c == b'+').unwrap_or(0);
    let end = b
        .get(start + 1..)
        .and_then(|rest| rest.iter().position(|&c| c == b'+'))
        .map_or(b.len(), |i| start + 1 + i);
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        if b[i].is_ascii_digit() {
            let from = i;
            while i < end && b[i].is_ascii_digit() {
                i += 1;
            }
            let n = line[from..i].parse().unwrap_or(0);
            out.push((n, i - 1));
        } else {
            i += 1;
        }
    }
    (out, end)
}

/// One cell of a row: the (trimmed) text within one column of `col`.
fn cell(row: &str, col: usize) -> &[u8] {
    let b = row.as_bytes();
    let from = col.saturating_sub(1).min(b.len());
    let to = (col + 2).min(b.len());
    b[from..to].trim_ascii()
}

/// What a cell holds.
enum Cell {
    Empty,
    /// Player 1 (`X`) or 0 (`O`).
    Checker(usize),
    Number(u32),
}

fn read_cell(row: &str, col: usize) -> Result<Cell, String> {
    match cell(row, col) {
        b"" => Ok(Cell::Empty),
        b"X" => Ok(Cell::Checker(1)),
        b"O" => Ok(Cell::Checker(0)),
        n if n.len() <= 2 && n.iter().all(u8::is_ascii_digit) => Ok(Cell::Number(
            std::str::from_utf8(n)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0),
        )),
        other => Err(format!("'{}'", String::from_utf8_lossy(other))),
    }
}

/// The stack of one column in one half: its owner and count (`None`
/// when empty). `rows` run from the board's edge to the middle.
fn stack(rows: &[&str], col: usize, overflow: Overflow) -> Result<Option<(usize, u32)>, String> {
    let (mut owner, mut letters, mut number) = (None, 0u32, None);
    for row in rows {
        match read_cell(row, col)? {
            Cell::Empty => {}
            Cell::Checker(p) => {
                if owner.is_some_and(|o| o != p) || number.is_some() {
                    return Err("X and O, or a checker after the count, in one stack".into());
                }
                owner = Some(p);
                letters += 1;
            }
            Cell::Number(n) => {
                if owner.is_none() || number.is_some() {
                    return Err(format!("a count {n} with no checker under it"));
                }
                number = Some(n);
            }
        }
    }
    let count = match (number, overflow) {
        (None, _) => letters,
        (Some(n), Overflow::Total) => n,
        (Some(n), Overflow::Extra) => letters + n,
    };
    Ok(owner.map(|p| (p, count)))
}

/// Reads the diagram whose header is `lines[0]`.
///
/// # Errors
/// When the diagram stops early, a header or footer does not number the
/// points, a cell holds anything but `X`, `O`, a count or blanks, one
/// stack mixes the players, or a player has more than fifteen checkers.
pub fn read_diagram<'a>(lines: &[&'a str], overflow: Overflow) -> Result<Diagram<'a>, String> {
    if lines.len() < LINES {
        return Err(format!(
            "the board diagram stops after {} of its {LINES} lines",
            lines.len()
        ));
    }
    let (top, edge) = labels(lines[0]);
    let (bottom, _) = labels(lines[12]);
    let top_points: Vec<u32> = top.iter().map(|l| l.0).collect();
    let bottom_points: Vec<u32> = bottom.iter().map(|l| l.0).collect();
    if top_points != (13..=24).collect::<Vec<_>>() {
        return Err("the diagram's header does not number the points 13 to 24".into());
    }
    if bottom_points != (1..=12).rev().collect::<Vec<_>>() {
        return Err("the diagram's footer does not number the points 12 to 1".into());
    }
    let bar = lines[6]
        .find("BAR")
        .map(|i| i + 1)
        .ok_or("the diagram's middle row has no BAR")?;
    let mut board = Board::empty();
    for (half, points) in [(0, &top), (1, &bottom)] {
        // Each half's rows from the board's edge to the middle.
        let rows: Vec<&str> = if half == 0 {
            lines[1..6].to_vec()
        } else {
            lines[7..12].iter().rev().copied().collect()
        };
        let rows = rows.as_slice();
        let line = |e: String| format!("the diagram's {} half: {e}", ["top", "bottom"][half]);
        for &(point, col) in points.iter() {
            if let Some((p, n)) =
                stack(rows, col, overflow).map_err(|e| line(format!("point {point}: {e}")))?
            {
                let i = point as usize - 1;
                let idx = if p == 1 { i } else { 23 - i };
                board.checkers[p][idx] = u8::try_from(n).unwrap_or(u8::MAX);
            }
        }
        if let Some((p, n)) = stack(rows, bar, overflow).map_err(|e| line(format!("bar: {e}")))? {
            let bar = &mut board.checkers[p][BAR];
            *bar = bar.saturating_add(u8::try_from(n).unwrap_or(u8::MAX));
        }
    }
    for (p, name) in [(1, "X"), (0, "O")] {
        let n: u32 = board.checkers[p].iter().map(|&c| c as u32).sum();
        if n > CHECKERS as u32 {
            return Err(format!("the diagram has {n} checkers of {name}"));
        }
    }
    let mut cube = None;
    for (r, row) in lines.iter().enumerate().take(12).skip(1) {
        let tail = row.get(edge + 1..).unwrap_or("").trim();
        let Some(inner) = tail.strip_prefix('|').and_then(|t| t.strip_suffix('|')) else {
            continue;
        };
        let inner = inner.trim();
        if inner.is_empty() || !inner.bytes().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let value = inner
            .parse::<u32>()
            .ok()
            .filter(|v| v.is_power_of_two())
            .ok_or_else(|| format!("diagram line {}: cube {inner}", r + 1))?;
        let owner = match r {
            1..=5 => Some(0),
            7..=11 => Some(1),
            _ => None,
        };
        cube = Some((value, owner));
    }
    Ok(Diagram {
        board,
        cube,
        header_tail: lines[0].get(edge + 1..).unwrap_or("").trim(),
        footer_tail: lines[12]
            .get(labels(lines[12]).1 + 1..)
            .unwrap_or("")
            .trim(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XG's drawing of the position of `XGID=-B-CBBB---a---A---ABcbbbd-`
    /// (fixtures/bg/xgtext/01_checkerPosition_EN.txt).
    const XG: &str = " +13-14-15-16-17-18------19-20-21-22-23-24-+
 |    X           X |   | X  O  O  O  O  O | +---+
 |                  |   | X  O  O  O  O  O | | 2 |
 |                  |   |    O           O | +---+
 |                  |   |                O |
 |                  |   |                  |
 |                  |BAR|                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |          X       |
 |                  |   | X  X  X  X     X |
 |       O          |   | X  X  X  X     X |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+";

    fn read(text: &str, overflow: Overflow) -> Result<Diagram<'_>, String> {
        let lines: Vec<&str> = text.lines().collect();
        read_diagram(&lines, overflow)
    }

    #[test]
    fn reads_points_bar_and_cube() {
        let d = read(XG, Overflow::Total).unwrap();
        let (x, o) = (d.board.checkers[1], d.board.checkers[0]);
        assert_eq!((x[0], x[1], x[2], x[3], x[4], x[5]), (2, 0, 3, 2, 2, 2));
        assert_eq!((x[13], x[17], x[18]), (1, 1, 2));
        // O on X's 20-point is O's 5-point.
        assert_eq!((o[4], o[3], o[0], o[14]), (3, 2, 4, 1));
        assert_eq!(d.board.pips(1), 111);
        assert_eq!(d.board.pips(0), 52);
        assert_eq!(d.cube, Some((2, Some(0))));
        assert!(is_header(XG.lines().next().unwrap()));
        assert_eq!(labels(""), (vec![], 0));
    }

    #[test]
    fn counts_bar_checkers_and_tall_stacks() {
        let mut lines: Vec<String> = XG.lines().map(str::to_string).collect();
        // X's checkers on the 14 and 18 moved to the bar, and O's
        // 24-point stack shown as 4 + count.
        lines[1].replace_range(6..7, " ");
        lines[1].replace_range(18..19, " ");
        lines[5].replace_range(22..23, "X");
        lines[4].replace_range(22..23, "X");
        lines[4].replace_range(41..42, "O");
        lines[5].replace_range(41..42, "1");
        let text = lines.join("\n");
        let d = read(&text, Overflow::Extra).unwrap();
        assert_eq!(d.board.checkers[1][BAR], 2);
        assert_eq!(d.board.checkers[0][0], 5);
        let d = read(&text, Overflow::Total).unwrap();
        assert_eq!(d.board.checkers[0][0], 1);
    }

    #[test]
    fn refuses_what_is_not_a_board() {
        let lines: Vec<&str> = XG.lines().collect();
        assert!(read_diagram(&lines[..9], Overflow::Total)
            .unwrap_err()
            .contains("stops after 9"));
        let mixed = XG.replacen("| X  O  O  O  O  O | +", "| O  O  O  O  O  O | +", 1);
        assert!(read(&mixed, Overflow::Total)
            .unwrap_err()
            .contains("X and O"));
        let mut lines: Vec<String> = XG.lines().map(str::to_string).collect();
        lines[5].replace_range(41..42, "O");
        lines[1].replace_range(3..4, "O");
        let sixteen = lines.join("\n");
        assert!(read(&sixteen, Overflow::Total)
            .unwrap_err()
            .contains("16 checkers of O"));
        let mixed = XG.replacen("|    X           X |", "|    X           ? |", 1);
        assert!(read(&mixed, Overflow::Total).unwrap_err().contains("'?'"));
        let no_bar = XG.replace("BAR", "   ");
        assert!(read(&no_bar, Overflow::Total).is_err());
        let footer = XG.replace("-6--5-", "-6--7-");
        assert!(read(&footer, Overflow::Total).is_err());
    }
}
