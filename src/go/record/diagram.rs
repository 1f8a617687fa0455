//! Endgame diagrams as Go writers publish them.
//!
//! Two forms are read:
//! - the seed's (`go-endgame-count-and-move-values.txt`): rows of `X`
//!   (Black), `O` (White), `x`/`o` (a dead black/white stone, as the
//!   seed counts it: a prisoner), `.` (empty) and digits for a numbered sequence,
//!   each diagram followed by its caption. The first diagram without digits
//!   is the position; a diagram with digits is a sequence, its caption
//!   saying who starts ("sequence after Black's start"); a diagram without
//!   digits after a sequence is the follower it draws, checked against the
//!   sequence played out. The last row faces the rest of the board: chains
//!   touching it are the outer stones, alive.
//! - Sensei's Library markup: `$$B` / `$$W` headers (who plays move 1),
//!   `$$ | . X O |` rows, `-`/`+` border lines, moves 1–9 and 0 for 10. Sides
//!   drawn with a border are the board's edges; chains touching an open side
//!   are outer stones. Each diagram gives a sequence; the position is the
//!   first diagram without its numbers.
//!
//! The diagram is the whole board (its edges are the board's edges). A
//! line `prisoners: black=N white=M` anywhere in the text states the
//! stones each side captured before the position (Black's prisoners first).
//! [`Diagram::record`] makes the position a finished game to count.

use crate::go::board::{Board, Color};
use crate::go::record::{Event, GoRecord, Markup, MoveAt};
use std::fmt;

/// A numbered sequence of a diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    pub starter: Color,
    /// The moves in order: (x, y) from the top left, move 1 first.
    pub moves: Vec<(u8, u8)>,
    /// The follower drawn after it, if the diagram has one, as
    /// [`Board::encode`] writes it.
    pub drawn_follower: Option<String>,
}

/// A parsed diagram file.
#[derive(Clone)]
pub struct Diagram {
    pub board: Board,
    /// Sides facing the rest of the board: `[top, bottom, left, right]`.
    pub open: [bool; 4],
    pub sequences: Vec<Sequence>,
    /// The first diagram's dead stones (`x`, `o`): (x, y) from the top left.
    pub dead: Vec<(u8, u8)>,
    /// Stones captured before the position, `[by Black, by White]`.
    pub prisoners: [u32; 2],
}

impl Diagram {
    /// The position as a Go record of a finished game: its stones set up
    /// (dead ones included), each dead stone marked as the other side's
    /// territory (`TB`/`TW`, as players mark a count), the prisoners stated,
    /// `komi`, and two passes; no result is recorded.
    pub fn record(&self, komi: Option<f64>) -> GoRecord {
        let b = &self.board;
        let mut events = Vec::new();
        for p in b.points() {
            if let Some(stone) = b.at(p) {
                let (x, y) = b.xy(p);
                events.push(Event::Setup {
                    stone: Some(stone),
                    x,
                    y,
                });
            }
        }
        events.push(Event::SetupDone);
        for color in [Color::Black, Color::White] {
            events.push(Event::Move {
                color,
                at: MoveAt::Pass,
            });
        }
        let mut markup = Markup::default();
        for &(x, y) in &self.dead {
            match b.get(x, y) {
                Some(Color::White) => markup.black.push((x, y)),
                Some(Color::Black) => markup.white.push((x, y)),
                None => {}
            }
        }
        GoRecord {
            width: b.width(),
            height: b.height(),
            komi,
            charset: "UTF-8",
            events,
            markup: Some(markup),
            prisoners: self.prisoners,
            ..GoRecord::default()
        }
    }

    /// Whether board point (x, y) lies on an open side.
    pub fn on_open_side(&self, x: u8, y: u8) -> bool {
        let (w, h) = (self.board.width(), self.board.height());
        (self.open[0] && y == 0)
            || (self.open[1] && y + 1 == h)
            || (self.open[2] && x == 0)
            || (self.open[3] && x + 1 == w)
    }
}

/// Why a diagram could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError(pub String);

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DiagramError {}

fn err<T>(msg: impl Into<String>) -> Result<T, DiagramError> {
    Err(DiagramError(msg.into()))
}

/// One drawn grid: cells as read, row by row.
struct Grid {
    rows: Vec<Vec<Cell>>,
    caption: String,
    /// Sensei header colour, if any.
    header: Option<Color>,
    borders: [bool; 4],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Stone(Color),
    /// A stone drawn dead (`x`, `o`).
    Dead(Color),
    Move(u8),
}

/// Whether text looks like a diagram file (either form).
pub fn sniff(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("$$")) || text.lines().any(is_plain_row)
}

/// Reads a diagram file.
///
/// # Errors
/// A message naming what is wrong: no diagram, rows of unequal length, a
/// sequence whose starter cannot be told, or a sequence drawn on a different
/// position.
pub fn parse(text: &str) -> Result<Diagram, DiagramError> {
    let sensei = text.lines().any(|l| l.trim_start().starts_with("$$"));
    let grids = if sensei {
        sensei_grids(text)?
    } else {
        plain_grids(text)
    };
    let Some(first) = grids.first() else {
        return err("no diagram found: write rows of X, O and . (or Sensei's Library $$ rows)");
    };
    let (w, h) = (first.rows[0].len(), first.rows.len());
    if w > 52 || h > 52 {
        return err(format!("the diagram is {w}×{h}; at most 52×52"));
    }
    for g in &grids {
        if g.rows.len() != h || g.rows.iter().any(|r| r.len() != w) {
            return err(format!(
                "every diagram of the file must be {w} points wide and {h} rows high, with rows of equal length"
            ));
        }
    }
    let stones_of = |g: &Grid| -> Vec<Vec<Option<Color>>> {
        g.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Stone(s) | Cell::Dead(s) => Some(*s),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    let position = stones_of(first);
    let board = board_of(&position);
    let mut dead = Vec::new();
    for (y, r) in first.rows.iter().enumerate() {
        for (x, c) in r.iter().enumerate() {
            if matches!(c, Cell::Dead(_)) {
                dead.push((x as u8, y as u8));
            }
        }
    }
    let open = if sensei {
        first.borders.map(|b| !b)
    } else {
        [false, true, false, false]
    };
    let mut sequences: Vec<Sequence> = Vec::new();
    for (i, g) in grids.iter().enumerate() {
        let mut numbered: Vec<(u8, u8, u8)> = Vec::new();
        for (y, r) in g.rows.iter().enumerate() {
            for (x, c) in r.iter().enumerate() {
                if let Cell::Move(n) = c {
                    numbered.push((*n, x as u8, y as u8));
                }
            }
        }
        if numbered.is_empty() {
            if i > 0 {
                // A follower drawn after a sequence.
                if let Some(seq) = sequences.last_mut() {
                    if seq.drawn_follower.is_none() {
                        seq.drawn_follower = Some(board_of(&stones_of(g)).encode());
                    }
                }
            }
            continue;
        }
        if stones_of(g) != position {
            return err(format!(
                "diagram {} draws its sequence on another position than the first diagram",
                i + 1
            ));
        }
        numbered.sort_unstable();
        for (k, &(n, _, _)) in numbered.iter().enumerate() {
            if n as usize != k + 1 {
                return err(format!(
                    "diagram {}: moves must be numbered 1, 2, 3… without gaps or repeats",
                    i + 1
                ));
            }
        }
        let starter = match g.header.or_else(|| starter_in(&g.caption)) {
            Some(c) => c,
            None => {
                return err(format!(
                    "diagram {}: cannot tell who starts; say \"Black's start\" or \"White's start\" in the line after it (or use $$B / $$W)",
                    i + 1
                ))
            }
        };
        sequences.push(Sequence {
            starter,
            moves: numbered.iter().map(|&(_, x, y)| (x, y)).collect(),
            drawn_follower: None,
        });
    }
    Ok(Diagram {
        board,
        open,
        sequences,
        dead,
        prisoners: prisoners_in(text)?,
    })
}

/// The prisoners a `prisoners: black=N white=M` line states (none without
/// one).
fn prisoners_in(text: &str) -> Result<[u32; 2], DiagramError> {
    let Some(at) = text.find("prisoners: ") else {
        return Ok([0, 0]);
    };
    let rest = &text[at + "prisoners: ".len()..];
    let count = |key: &str| -> Option<u32> {
        let v = &rest[rest.find(key)? + key.len()..];
        let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    match (count("black="), count("white=")) {
        (Some(b), Some(w)) => Ok([b, w]),
        _ => err("write the prisoners as `prisoners: black=N white=M` (stones each side captured)"),
    }
}

fn board_of(stones: &[Vec<Option<Color>>]) -> Board {
    let mut b = Board::new(stones[0].len() as u8, stones.len() as u8);
    for (y, r) in stones.iter().enumerate() {
        for (x, s) in r.iter().enumerate() {
            b.set(x as u8, y as u8, *s);
        }
    }
    b.finish_setup();
    b
}

/// Who starts, from a caption: the first of "black"/"white" it names.
fn starter_in(caption: &str) -> Option<Color> {
    let lower = caption.to_ascii_lowercase();
    match (lower.find("black"), lower.find("white")) {
        (Some(b), Some(w)) => Some(if b < w { Color::Black } else { Color::White }),
        (Some(_), None) => Some(Color::Black),
        (None, Some(_)) => Some(Color::White),
        (None, None) => None,
    }
}

fn is_plain_row(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.chars().any(|c| matches!(c, 'X' | 'O' | '.'))
        && t.chars()
            .all(|c| matches!(c, 'X' | 'O' | 'x' | 'o' | '.' | ' ' | '\t') || c.is_ascii_digit())
}

fn plain_cell(c: char) -> Option<Cell> {
    match c {
        'X' => Some(Cell::Stone(Color::Black)),
        'O' => Some(Cell::Stone(Color::White)),
        'x' => Some(Cell::Dead(Color::Black)),
        'o' => Some(Cell::Dead(Color::White)),
        '.' => Some(Cell::Empty),
        '0' => Some(Cell::Move(10)),
        d if d.is_ascii_digit() => Some(Cell::Move(d as u8 - b'0')),
        _ => None,
    }
}

fn plain_grids(text: &str) -> Vec<Grid> {
    let mut grids: Vec<Grid> = Vec::new();
    let mut in_rows = false;
    for line in text.lines() {
        if is_plain_row(line) {
            let row: Vec<Cell> = line.chars().filter_map(plain_cell).collect();
            if !in_rows {
                grids.push(Grid {
                    rows: Vec::new(),
                    caption: String::new(),
                    header: None,
                    borders: [true; 4],
                });
                in_rows = true;
            }
            grids.last_mut().expect("pushed").rows.push(row);
        } else {
            in_rows = false;
            if let Some(g) = grids.last_mut() {
                if g.caption.trim().is_empty() {
                    g.caption = line.trim().to_string();
                }
            }
        }
    }
    grids
}

fn sensei_cell(c: char) -> Option<Cell> {
    match c {
        'X' | 'B' | '#' | 'Y' | 'Z' => Some(Cell::Stone(Color::Black)),
        'O' | 'W' | '@' | 'Q' | 'P' => Some(Cell::Stone(Color::White)),
        '.' | ',' | 'C' | 'S' | 'T' | 'M' | '_' => Some(Cell::Empty),
        'a'..='z' => Some(Cell::Empty),
        '0' => Some(Cell::Move(10)),
        d if d.is_ascii_digit() => Some(Cell::Move(d as u8 - b'0')),
        _ => None,
    }
}

fn sensei_grids(text: &str) -> Result<Vec<Grid>, DiagramError> {
    let mut grids: Vec<Grid> = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let Some(body) = t.strip_prefix("$$") else {
            continue;
        };
        // A header: $$B, $$W, $$Bc… (colour of move 1, then options/title).
        let header = match body.chars().next() {
            Some('B') => Some(Color::Black),
            Some('W') => Some(Color::White),
            _ => None,
        };
        if header.is_some() || grids.is_empty() {
            grids.push(Grid {
                rows: Vec::new(),
                caption: body.get(1..).unwrap_or("").trim().to_string(),
                header,
                borders: [false; 4],
            });
            if header.is_some() {
                continue;
            }
        }
        let g = grids.last_mut().expect("pushed");
        let content = body.trim();
        if content.is_empty() {
            continue;
        }
        if content.chars().all(|c| matches!(c, '-' | '+' | ' ')) {
            // A border line: the top edge before the rows, the bottom after.
            if g.rows.is_empty() {
                g.borders[0] = true;
            } else {
                g.borders[1] = true;
            }
            continue;
        }
        if content.starts_with('|') {
            g.borders[2] = true;
        }
        if content.ends_with('|') && content.len() > 1 {
            g.borders[3] = true;
        }
        let row: Vec<Cell> = content
            .chars()
            .filter(|c| !matches!(c, '|' | ' '))
            .map(|c| {
                sensei_cell(c).ok_or_else(|| {
                    DiagramError(format!("unknown Sensei's Library diagram symbol '{c}'"))
                })
            })
            .collect::<Result<_, _>>()?;
        if !row.is_empty() {
            g.rows.push(row);
        }
    }
    grids.retain(|g| !g.rows.is_empty());
    Ok(grids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_seeds_form() {
        let d = parse(
            "X . . . . O
X X X O O O

initial position

X . 3 1 2 O
X X X O O O

sequence after Black's start

X . X X O O
X X X O O O

Black follower: Black has 1 point more than White.
",
        )
        .unwrap();
        assert_eq!(d.board.encode(), "X4O/XXXOOO");
        assert_eq!(d.open, [false, true, false, false]);
        assert_eq!(d.sequences.len(), 1);
        let s = &d.sequences[0];
        assert_eq!(s.starter, Color::Black);
        assert_eq!(s.moves, [(3, 0), (4, 0), (2, 0)]);
        assert_eq!(s.drawn_follower.as_deref(), Some("X1XXOO/XXXOOO"));
    }

    #[test]
    fn reads_sensei_markup() {
        let d = parse(
            "$$W White first
$$ +-----------+
$$ | X 2 1 3 . O
$$ | X X X O O O
",
        )
        .unwrap();
        assert_eq!(d.open, [false, true, false, true]);
        assert_eq!(d.sequences[0].starter, Color::White);
        assert_eq!(d.sequences[0].moves, [(2, 0), (1, 0), (3, 0)]);
    }

    #[test]
    fn dead_stones_and_prisoners_make_a_record_to_count() {
        let d = parse(
            "# prisoners: black=2 white=1
X . o . X O
X X X X O O
",
        )
        .unwrap();
        assert_eq!(d.board.encode(), "X1O1XO/XXXXOO");
        assert_eq!(d.dead, [(2, 0)]);
        assert_eq!(d.prisoners, [2, 1]);
        let r = d.record(Some(0.5));
        assert_eq!((r.width, r.height, r.komi), (6, 2, Some(0.5)));
        assert_eq!(r.prisoners, [2, 1]);
        let m = r.markup.unwrap();
        assert_eq!((m.black, m.white), (vec![(2, 0)], vec![]));
        assert_eq!(
            r.events
                .iter()
                .filter(|e| matches!(e, Event::Setup { .. }))
                .count(),
            10
        );
        assert!(parse("prisoners: black=one\nX O\n").is_err());
    }

    #[test]
    fn errors_say_what_to_write() {
        let e = parse("X . 1 O\nX X O O\n").err().unwrap();
        assert!(e.0.contains("Black's start"), "{e}");
        assert!(parse("no board here").is_err());
        let e = parse("X . 1 O\nX X O\n\nBlack's start\n").err().unwrap();
        assert!(e.0.contains("equal length"), "{e}");
    }
}
