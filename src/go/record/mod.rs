//! A Go game record: the typed facts of one SGF game tree's main line
//! (board, komi, handicap, rules, result, players) and its setup and moves
//! as a list of events for [`crate::go::replay`].

pub mod diagram;
mod game_id;
pub mod result;

use crate::go::board::{Color, MAX_SIDE};
use crate::go::record::result::{parse_result, GameResult};
use crate::sgf::charset::Charset;
use crate::sgf::reader::{unescape, Tree};
use crate::text::single_line;
use std::fmt;

/// Where a move goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveAt {
    Pass,
    Point(u8, u8),
    /// Not a point of this board (kept as written, for the finding).
    OffBoard(String),
}

/// One step of the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `AB`/`AW` (Some) or `AE` (None) on one point.
    Setup {
        stone: Option<Color>,
        x: u8,
        y: u8,
    },
    /// End of a node's setup: the board rebuilds its chains.
    SetupDone,
    Move {
        color: Color,
        at: MoveAt,
    },
}

/// The game facts recount reports; text already decoded.
#[derive(Debug, Clone, Default)]
pub struct GoRecord {
    pub width: u8,
    pub height: u8,
    pub komi: Option<f64>,
    /// `KM` as written (empty without one): a komi that could not be read
    /// is told from a missing one.
    pub komi_raw: String,
    pub handicap: Option<u32>,
    pub rules_raw: String,
    pub result_raw: String,
    /// `RE` read ([`result::parse_result`]).
    pub result: GameResult,
    pub black: String,
    pub white: String,
    /// `BR`, `WR`: the players' ranks as written.
    pub black_rank: String,
    pub white_rank: String,
    pub date: String,
    /// `EV`, `RO`, `PC`: event, round, place.
    pub event: String,
    pub round: String,
    pub place: String,
    /// `TM` (main time, seconds as written), `OT` (overtime as written).
    pub time_limit: String,
    pub overtime: String,
    /// `AP`: the program that wrote the file.
    pub program: String,
    pub charset: &'static str,
    pub events: Vec<Event>,
    pub variations_ignored: u32,
    /// `TB`/`TW` territory markup on the last node (KGS, CGoban): the
    /// points each side counted as territory, dead stones' points included.
    pub markup: Option<Markup>,
    /// Things a reader should know about how the record was read.
    pub notes: Vec<String>,
    /// Stones captured before the first event, `[by Black, by White]`:
    /// those a diagram states; none for SGF.
    pub prisoners: [u32; 2],
}

impl GoRecord {
    /// `SZ` as SGF writes it: `19`, or `13:2` for a rectangle.
    pub fn size_text(&self) -> String {
        if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        }
    }

    /// Points black after the setup before the first move (a point set
    /// twice, or turned white or empty later, counts once or not at all).
    pub fn handicap_stones(&self) -> u32 {
        let mut black = vec![false; self.width as usize * self.height as usize];
        for e in self
            .events
            .iter()
            .take_while(|e| !matches!(e, Event::Move { .. }))
        {
            if let Event::Setup { stone, x, y } = *e {
                if let Some(b) = black.get_mut(y as usize * self.width as usize + x as usize) {
                    *b = stone == Some(Color::Black);
                }
            }
        }
        black.iter().filter(|&&b| b).count() as u32
    }
}

/// Territory markup: `TB` and `TW` points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Markup {
    pub black: Vec<(u8, u8)>,
    pub white: Vec<(u8, u8)>,
}

/// Why a game tree is not a Go record we can replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// `GM` names another game; backgammon is `GM[6]`.
    NotGo { gm: String },
    /// `SZ` unreadable or outside 1..=52.
    BadSize { sz: String },
}

impl RecordError {
    /// The `stage` column of the errors report.
    pub fn stage(&self) -> &'static str {
        match self {
            RecordError::NotGo { .. } => "unsupported",
            RecordError::BadSize { .. } => "record",
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotGo { gm } if gm == "6" => {
                f.write_str("a backgammon game (GM[6]) inside a Go collection: not read")
            }
            RecordError::NotGo { gm } => write!(f, "GM[{gm}] is not Go (GM[1]); skipped"),
            RecordError::BadSize { sz } => {
                write!(
                    f,
                    "board size SZ[{sz}] is not a size from 1 to 52; cannot replay"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Reads the record of one parsed game tree.
///
/// # Errors
/// [`RecordError`] when the tree is not a Go game or its board size is
/// unusable.
pub fn read_record(tree: &Tree<'_>) -> Result<GoRecord, RecordError> {
    read_record_with(tree, None)
}

/// [`read_record`], its text in the charset `forced` (`--charset`) when
/// given, else as `CA` says, checked against the text
/// ([`Charset::choose`]).
///
/// # Errors
/// As [`read_record`].
pub fn read_record_with(
    tree: &Tree<'_>,
    forced: Option<&'static encoding_rs::Encoding>,
) -> Result<GoRecord, RecordError> {
    if tree.node_count() == 0 {
        return Err(RecordError::BadSize { sz: String::new() });
    }
    let charset = Charset::choose(tree.get(0, "CA"), forced, tree.values.iter().copied());
    let mut notes: Vec<String> = charset.note().map(str::to_string).into_iter().collect();
    let mut text = |name: &str| root_text(tree, &charset, name, &mut notes);
    let gm = text("GM");
    if !gm.is_empty() && gm != "1" {
        return Err(RecordError::NotGo { gm });
    }
    let sz = text("SZ");
    let (width, height) = parse_size(&sz).ok_or(RecordError::BadSize { sz: sz.clone() })?;
    let mut rec = GoRecord {
        width,
        height,
        rules_raw: text("RU"),
        result_raw: text("RE"),
        black: text("PB"),
        white: text("PW"),
        black_rank: text("BR"),
        white_rank: text("WR"),
        date: text("DT"),
        event: text("EV"),
        round: text("RO"),
        place: text("PC"),
        time_limit: text("TM"),
        overtime: text("OT"),
        program: text("AP"),
        charset: charset.name(),
        variations_ignored: tree.variations_ignored,
        ..GoRecord::default()
    };
    rec.result = parse_result(&rec.result_raw);
    let km = text("KM");
    let ha = text("HA");
    if sz.is_empty() && tree.get(0, "SZ").is_some() {
        notes.push("SZ[] is empty: read as 19".into());
    }
    if let Some(n) = result::margin_note(&rec.result_raw) {
        notes.push(n);
    }
    if !km.is_empty() {
        rec.komi_raw = km.clone();
        match parse_komi(&km) {
            Some(k) => {
                rec.komi = Some(k);
                // Kept as written: the audit then shows what it does.
                let points = width as f64 * height as f64;
                if k.abs() > points {
                    notes.push(format!("KM[{km}] is more than the board's {points} points"));
                }
            }
            None => notes.push(format!("KM[{km}] is not a number; komi left empty")),
        }
    }
    if !ha.is_empty() {
        match ha.parse::<u32>() {
            Ok(h) => rec.handicap = Some(h),
            _ => notes.push(format!("HA[{ha}] is not a number; handicap left empty")),
        }
    }
    let bad_setup = read_events(tree, &mut rec);
    if bad_setup > 0 {
        notes.push(format!("{bad_setup} setup points off the board ignored"));
    }
    if let Some(h) = rec.handicap.filter(|&h| h >= 2) {
        let stones = rec.handicap_stones();
        if stones == 0 {
            notes.push(format!(
                "HA[{h}] without AB setup stones: replayed as recorded (no stones added)"
            ));
        } else if stones != h {
            notes.push(format!(
                "HA[{h}] but {stones} black setup stones before the first move"
            ));
        }
    }
    if tree.stray_bytes > 0 {
        notes.push(format!(
            "{} stray characters outside values skipped",
            tree.stray_bytes
        ));
    }
    rec.notes = notes;
    Ok(rec)
}

/// Decodes a root property's text (empty when absent), noting once any
/// decoding trouble.
fn root_text(tree: &Tree<'_>, charset: &Charset, name: &str, notes: &mut Vec<String>) -> String {
    let Some(raw) = tree.get(0, name) else {
        return String::new();
    };
    let raw = unescape(raw);
    let (s, replaced) = charset.decode(&raw);
    let note = "text has bytes invalid in its charset: replaced";
    if replaced && !notes.iter().any(|x| x.ends_with("replaced")) {
        notes.push(note.to_string());
    }
    single_line(s.trim())
}

/// `KM` as a number: a finite decimal, its decimal point written as a
/// point or, as European writers do, a comma (`6,5`), or a half written
/// `½` (`6½`).
fn parse_komi(km: &str) -> Option<f64> {
    let k = km.trim();
    if let Some(whole) = k.strip_suffix('½') {
        let negative = whole.starts_with('-');
        let w = match whole.trim_start_matches(['-', '+']) {
            "" => 0.0,
            digits if digits.bytes().all(|b| b.is_ascii_digit()) => digits.parse().ok()?,
            _ => return None,
        };
        let k: f64 = w + 0.5;
        return Some(if negative { -k } else { k });
    }
    result::decimal(k).filter(|k| k.is_finite())
}

/// Reads `SZ`: `19`, `13:2` (columns:rows); absent means 19.
fn parse_size(sz: &str) -> Option<(u8, u8)> {
    let parse = |s: &str| {
        s.trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=MAX_SIDE).contains(n))
    };
    if sz.is_empty() {
        return Some((19, 19));
    }
    match sz.split_once(':') {
        Some((w, h)) => Some((parse(w)?, parse(h)?)),
        None => parse(sz).map(|n| (n, n)),
    }
}

/// An SGF coordinate letter: `a`–`z` are 0–25, `A`–`Z` 26–51.
fn coord(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

fn point(v: &[u8], w: u8, h: u8) -> Option<(u8, u8)> {
    match v {
        [a, b] => {
            let (x, y) = (coord(*a)?, coord(*b)?);
            (x < w && y < h).then_some((x, y))
        }
        _ => None,
    }
}

/// Calls `f` on each point of a list property, with `aa:cc` rectangles
/// expanded (without building a list: a rectangle repeated costs no
/// memory); returns how many values are not points of the board.
fn for_each_point(values: &[&[u8]], w: u8, h: u8, mut f: impl FnMut(u8, u8)) -> u32 {
    let mut bad = 0;
    for v in values {
        let v = v.trim_ascii();
        let rect = match v.iter().position(|&c| c == b':') {
            Some(k) => point(&v[..k], w, h).zip(point(&v[k + 1..], w, h)),
            None => point(v, w, h).map(|p| (p, p)),
        };
        match rect {
            Some(((x0, y0), (x1, y1))) => {
                for y in y0.min(y1)..=y0.max(y1) {
                    for x in x0.min(x1)..=x0.max(x1) {
                        f(x, y);
                    }
                }
            }
            None => bad += 1,
        }
    }
    bad
}

/// What one node does to each point, in the order points are first named:
/// a point named twice keeps its last value, so a node costs at most the
/// points of the board whatever its lists repeat.
struct PointSet<T: Copy> {
    width: usize,
    slot: Vec<Option<T>>,
    order: Vec<(u8, u8)>,
}

impl<T: Copy> PointSet<T> {
    fn new(w: u8, h: u8) -> Self {
        PointSet {
            width: w as usize,
            slot: vec![None; w as usize * h as usize],
            order: Vec::new(),
        }
    }

    fn set(&mut self, x: u8, y: u8, v: T) {
        let s = &mut self.slot[y as usize * self.width + x as usize];
        if s.is_none() {
            self.order.push((x, y));
        }
        *s = Some(v);
    }

    /// The points named and their last values, in first-named order; the
    /// set is empty again after.
    fn drain(&mut self) -> impl Iterator<Item = (u8, u8, T)> + '_ {
        let (slot, width) = (&mut self.slot, self.width);
        self.order.drain(..).map(move |(x, y)| {
            let v = slot[y as usize * width + x as usize]
                .take()
                .expect("a named point has a value");
            (x, y, v)
        })
    }
}

fn read_markup(
    tree: &Tree<'_>,
    props: &[crate::sgf::reader::Prop],
    w: u8,
    h: u8,
) -> Option<Markup> {
    let mut m = Markup::default();
    let mut any = false;
    for p in props {
        let list = match p.ident.as_bytes() {
            b"TB" => &mut m.black,
            b"TW" => &mut m.white,
            _ => continue,
        };
        any = true;
        let mut seen = PointSet::new(w, h);
        for &(x, y) in list.iter() {
            seen.set(x, y, ());
        }
        for_each_point(tree.prop_values(p), w, h, |x, y| seen.set(x, y, ()));
        list.clear();
        list.extend(seen.drain().map(|(x, y, ())| (x, y)));
    }
    any.then_some(m)
}

fn read_events(tree: &Tree<'_>, rec: &mut GoRecord) -> u32 {
    let (w, h) = (rec.width, rec.height);
    let mut bad_setup = 0u32;
    let mut setup: PointSet<Option<Color>> = PointSet::new(w, h);
    for i in 0..tree.node_count() {
        let props = tree.node(i);
        for p in props {
            let stone = match p.ident.as_bytes() {
                b"AB" => Some(Color::Black),
                b"AW" => Some(Color::White),
                b"AE" => None,
                _ => continue,
            };
            // Points, or rectangles `aa:cc` (FF[4] compressed lists).
            bad_setup += for_each_point(tree.prop_values(p), w, h, |x, y| setup.set(x, y, stone));
        }
        let before = rec.events.len();
        rec.events.extend(
            setup
                .drain()
                .map(|(x, y, stone)| Event::Setup { stone, x, y }),
        );
        if rec.events.len() > before {
            rec.events.push(Event::SetupDone);
        }
        for p in props {
            let color = match p.ident.as_bytes() {
                b"B" => Color::Black,
                b"W" => Color::White,
                _ => continue,
            };
            let v = tree.prop_values(p)[0].trim_ascii();
            let at = if v.is_empty() || (v == b"tt" && w <= 19 && h <= 19) {
                MoveAt::Pass
            } else {
                match point(v, w, h) {
                    Some((x, y)) => MoveAt::Point(x, y),
                    None => MoveAt::OffBoard(String::from_utf8_lossy(v).into_owned()),
                }
            };
            rec.events.push(Event::Move { color, at });
        }
        if i + 1 == tree.node_count() {
            rec.markup = read_markup(tree, props, w, h);
        }
    }
    bad_setup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_komi_larger_than_the_board_is_noted() {
        let r = record("(;GM[1]SZ[9]KM[375];B[ee])").unwrap();
        assert_eq!(r.komi, Some(375.0));
        assert!(
            r.notes
                .iter()
                .any(|n| n == "KM[375] is more than the board's 81 points"),
            "{:?}",
            r.notes
        );
        let r = record("(;GM[1]SZ[9]KM[-7.5];B[ee])").unwrap();
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    #[test]
    fn komi_is_read_with_a_decimal_comma_or_a_half_sign() {
        for (km, want) in [
            ("6.5", Some(6.5)),
            (" 6.50", Some(6.5)),
            ("6,5", Some(6.5)),
            ("-6,5", Some(-6.5)),
            ("6½", Some(6.5)),
            ("½", Some(0.5)),
            ("-7½", Some(-7.5)),
            ("0", Some(0.0)),
            ("6,5,0", None),
            ("6.5,0", None),
            ("a½", None),
            ("1e400", None),
            ("six", None),
        ] {
            assert_eq!(parse_komi(km), want, "{km}");
        }
    }
    use crate::sgf::reader::parse_tree;

    fn record(sgf: &str) -> Result<GoRecord, RecordError> {
        read_record(&parse_tree(sgf.as_bytes()).unwrap())
    }

    #[test]
    fn reads_root_facts_and_moves() {
        let r = record("(;GM[1]SZ[9]KM[6.5]HA[2]AB[cc][gg]RU[Japanese]RE[W+R];W[ee];B[];W[tt])")
            .unwrap();
        assert_eq!((r.width, r.komi, r.handicap), (9, Some(6.5), Some(2)));
        assert_eq!(r.handicap_stones(), 2);
        assert_eq!(r.events.len(), 6);
        assert_eq!(
            r.events[3],
            Event::Move {
                color: Color::White,
                at: MoveAt::Point(4, 4)
            }
        );
        assert_eq!(
            r.events[4],
            Event::Move {
                color: Color::Black,
                at: MoveAt::Pass
            }
        );
        // tt is a pass on boards up to 19×19.
        assert_eq!(
            r.events[5],
            Event::Move {
                color: Color::White,
                at: MoveAt::Pass
            }
        );
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    #[test]
    fn rectangles_sizes_and_compressed_lists() {
        let r = record("(;SZ[13:2]AB[aa:cb];B[ma];W[na])").unwrap();
        assert_eq!((r.width, r.height, r.size_text().as_str()), (13, 2, "13:2"));
        assert_eq!(r.handicap_stones(), 6);
        assert_eq!(
            r.events[7],
            Event::Move {
                color: Color::Black,
                at: MoveAt::Point(12, 0)
            }
        );
        assert_eq!(
            r.events[8],
            Event::Move {
                color: Color::White,
                at: MoveAt::OffBoard("na".into())
            }
        );
        // On a 21×21 board tt is a point.
        let r = record("(;SZ[21];B[tt])").unwrap();
        assert_eq!(
            r.events[0],
            Event::Move {
                color: Color::Black,
                at: MoveAt::Point(19, 19)
            }
        );
    }

    #[test]
    fn not_go_and_bad_sizes() {
        assert_eq!(
            record("(;GM[6];W[31hefe])").unwrap_err().stage(),
            "unsupported"
        );
        assert!(record("(;GM[6])")
            .unwrap_err()
            .to_string()
            .contains("backgammon"));
        assert!(matches!(
            record("(;SZ[60])"),
            Err(RecordError::BadSize { .. })
        ));
        assert!(matches!(
            record("(;SZ[x])"),
            Err(RecordError::BadSize { .. })
        ));
    }

    #[test]
    fn notes_for_handicap_without_stones_and_bad_komi() {
        let r = record("(;HA[3]KM[abc];B[dd])").unwrap();
        assert_eq!(r.komi, None);
        assert!(r.notes.iter().any(|n| n.contains("KM[abc]")));
        assert!(r.notes.iter().any(|n| n.contains("HA[3] without AB")));
    }

    #[test]
    fn repeated_rectangles_cost_what_the_board_holds() {
        let sgf = format!(
            "(;GM[1]FF[4]SZ[52]{};B[aa])",
            "AB[aa:ZZ]AW[aa:ZZ]".repeat(20_000)
        );
        let r = record(&sgf).unwrap();
        // One event per point, the setup's end, the move.
        assert_eq!(r.events.len(), 52 * 52 + 2);
        assert_eq!(r.handicap_stones(), 0);
        assert!(r.events[..52 * 52].iter().all(|e| matches!(
            e,
            Event::Setup {
                stone: Some(Color::White),
                ..
            }
        )));
        let r = record(&format!("(;SZ[9]{})", "TB[aa:ii]".repeat(1000))).unwrap();
        assert_eq!(r.markup.unwrap().black.len(), 81);
    }

    #[test]
    fn handicap_stones_are_distinct_black_points() {
        let r = record("(;SZ[9]HA[2]AB[cc][cc][gg]AW[gg];AB[ee];B[aa];AB[ff])").unwrap();
        // cc twice counts once, gg turned white, ee in a later setup node.
        assert_eq!(r.handicap_stones(), 2);
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        let r = record("(;SZ[9]HA[3]AB[cc][cc][gg]AW[gg];B[aa])").unwrap();
        assert!(r
            .notes
            .iter()
            .any(|n| n == "HA[3] but 1 black setup stones before the first move"));
    }

    #[test]
    fn empty_size_and_unreadable_margins_are_noted() {
        let r = record("(;SZ[]RE[B+1e400];B[aa])").unwrap();
        assert_eq!(r.width, 19);
        assert_eq!(r.result.margin, None);
        assert_eq!(r.result.winner, Some(Color::Black));
        assert_eq!(
            r.notes,
            [
                "SZ[] is empty: read as 19",
                "RE[B+1e400]: the margin is not a finite number; no margin read"
            ]
        );
        assert!(record("(;RE[W+7.5];B[aa])").unwrap().notes.is_empty());
    }

    #[test]
    fn off_board_setup_points_are_noted() {
        let r = record("(;SZ[9]AB[cc][zz]AW[jj:kk];B[aa])").unwrap();
        assert_eq!(r.handicap_stones(), 1);
        assert!(
            r.notes
                .iter()
                .any(|n| n == "2 setup points off the board ignored"),
            "{:?}",
            r.notes
        );
    }
}
