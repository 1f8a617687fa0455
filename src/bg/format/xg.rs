//! Reader for eXtreme Gammon's match files (`.xg`) and position files
//! (`.xgp`), from the layout XG publishes ("XG file format", the Delphi
//! records of `xg_format.pas`).
//!
//! A file is a 8,232-byte "RichGameFormat" header (`RGMH`), a thumbnail,
//! then a ZLibArchive: the members' data, their directory and, in the last
//! 36 bytes, the archive record (CRC-32 of data and directory, member
//! count, sizes). The member `temp.xg` holds the game in records of 2,560
//! bytes: a match header, then per game a game header, cube and move
//! records and a game footer, and a match footer. Every position is an
//! array of 26 signed bytes from player 1's side (positive: player 1's
//! checkers on their points 1–24, index 25 their bar; negative: player 2's,
//! index 0 their bar); a move is up to four (from, to) pairs in the
//! mover's numbering, 0-based, 24 the bar, −1 off (and −1 as `from` ends
//! the list). XG's player 1 is recount's player 0.

use crate::bg::format::mat::MatError;
use crate::bg::game::record::{
    Action, GameRecord, MatchRecord, Step, XgCube, XgPlay, BAR_POINT, OFF_POINT,
};
use crate::bg::position::board::{Board, BAR, CHECKERS};
use std::io::Read;

/// One record of `temp.xg`.
const RECORD: usize = 2560;
/// The RichGameFormat header.
const HEADER: usize = 8232;
/// The archive record at the end of the file.
const ARCHIVE_RECORD: usize = 36;
/// One entry of the archive's directory.
const FILE_ENTRY: usize = 532;
/// The most `temp.xg` may unpack to (204,800 records); more is an error,
/// so a small file cannot make the reader unpack gigabytes.
pub const MAX_GAME_FILE: u64 = 512 << 20;
/// XG's "not analysed" value of an error or a luck.
const NOT_ANALYSED: f64 = -1000.0;

fn err(why: impl Into<String>) -> MatError {
    MatError(why.into())
}

/// Reads a whole `.xg` or `.xgp` file.
///
/// # Errors
/// When the container cannot be read: a wrong magic number, a file cut
/// short (the archive's directory is at its end), a CRC that does not
/// match, corrupt zlib data, a game file over [`MAX_GAME_FILE`], or no
/// match header.
pub fn read_xg(bytes: &[u8]) -> Result<MatchRecord, MatError> {
    read_xg_within(bytes, MAX_GAME_FILE)
}

/// [`read_xg`] with `limit` bytes the game file may unpack to.
fn read_xg_within(bytes: &[u8], limit: u64) -> Result<MatchRecord, MatError> {
    let member = game_file(bytes)?;
    let mut m = MatchRecord {
        format: "xg",
        ..MatchRecord::default()
    };
    let mut reader = Records::new(member, limit);
    let mut state = Reading::default();
    let mut index = 0u32;
    while let Some(rec) = reader.next_record()? {
        index += 1;
        state.record(index, &rec, &mut m)?;
    }
    if let Some(crc) = reader.crc_mismatch() {
        return Err(err(crc));
    }
    if index == 0 || !state.header_seen {
        return Err(err("the XG game file has no match header: not a match"));
    }
    state.close_game(&mut m);
    if let Some(cut) = reader.cut {
        if let Some(g) = m.games.last_mut() {
            g.unread.push((index + 1, cut));
        }
    }
    if m.games.is_empty() {
        return Err(err("the XG file holds a match header but no game"));
    }
    Ok(m)
}

/// The member `temp.xg` as stored: its bytes, whether compressed, and its
/// size and CRC-32 from the directory.
struct Member<'a> {
    data: &'a [u8],
    compressed: bool,
    size: u32,
    crc: u32,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    u32_at(b, at) as i32
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(u64::from_le_bytes(
        b[at..at + 8].try_into().expect("8 bytes"),
    ))
}

/// Finds `temp.xg` through the archive record and directory at the end of
/// the file, checking the archive's CRC-32.
fn game_file(bytes: &[u8]) -> Result<Member<'_>, MatError> {
    if !bytes.starts_with(b"RGMH") {
        return Err(err("not an XG file: no RGMH magic number"));
    }
    if bytes.len() < HEADER + ARCHIVE_RECORD {
        return Err(err(format!(
            "truncated XG file: {} bytes, shorter than its header and archive record",
            bytes.len()
        )));
    }
    let end = bytes.len() - ARCHIVE_RECORD;
    let arc = &bytes[end..];
    let (crc, count) = (u32_at(arc, 0), i32_at(arc, 4));
    let (dir_size, data_size) = (i32_at(arc, 12), i32_at(arc, 16));
    let compressed_dir = i32_at(arc, 20) != 0;
    let cut =
        || err("truncated or corrupt XG file: the archive record at its end does not fit the file");
    let dir_start = end
        .checked_sub(usize::try_from(dir_size).map_err(|_| cut())?)
        .ok_or_else(cut)?;
    let data_start = dir_start
        .checked_sub(usize::try_from(data_size).map_err(|_| cut())?)
        .filter(|&s| s >= HEADER)
        .ok_or_else(cut)?;
    if !(1..=64).contains(&count) {
        return Err(cut());
    }
    let mut sum = flate2::Crc::new();
    sum.update(&bytes[data_start..end]);
    if sum.sum() != crc {
        return Err(err(
            "corrupt XG file: the archive's CRC-32 does not match its data",
        ));
    }
    let want = count as usize * FILE_ENTRY;
    let dir = if compressed_dir {
        let mut out = Vec::with_capacity(want);
        flate2::read::ZlibDecoder::new(&bytes[dir_start..end])
            .take(want as u64)
            .read_to_end(&mut out)
            .map_err(|e| {
                err(format!(
                    "corrupt XG file: its directory does not unpack: {e}"
                ))
            })?;
        out
    } else {
        bytes[dir_start..end].to_vec()
    };
    if dir.len() < want {
        return Err(err(
            "corrupt XG file: its directory is shorter than its entries",
        ));
    }
    for entry in dir.chunks_exact(FILE_ENTRY) {
        let len = usize::from(entry[0]).min(255);
        if !entry[1..1 + len].eq_ignore_ascii_case(b"temp.xg") {
            continue;
        }
        let (size, stored) = (u32_at(entry, 516), u32_at(entry, 520) as usize);
        let start = data_start.checked_add(stored).filter(|&s| s <= dir_start);
        let stop = start
            .and_then(|s| s.checked_add(size as usize))
            .filter(|&e| e <= dir_start);
        let (Some(start), Some(stop)) = (start, stop) else {
            return Err(cut());
        };
        return Ok(Member {
            data: &bytes[start..stop],
            compressed: entry[528] == 0,
            size: u32_at(entry, 512),
            crc: u32_at(entry, 524),
        });
    }
    Err(err("the XG archive has no game file (temp.xg)"))
}

/// `temp.xg` record by record, unpacked as it is read.
struct Records<'a> {
    inner: Box<dyn Read + 'a>,
    crc: flate2::Crc,
    expect: (u32, u32),
    read: u64,
    limit: u64,
    /// Why the records stopped before a whole record: a finding.
    cut: Option<String>,
}

impl<'a> Records<'a> {
    fn new(m: Member<'a>, limit: u64) -> Records<'a> {
        let inner: Box<dyn Read + 'a> = if m.compressed {
            Box::new(flate2::read::ZlibDecoder::new(m.data))
        } else {
            Box::new(m.data)
        };
        Records {
            inner,
            crc: flate2::Crc::new(),
            expect: (m.size, m.crc),
            read: 0,
            limit,
            cut: None,
        }
    }

    fn next_record(&mut self) -> Result<Option<Vec<u8>>, MatError> {
        let mut rec = vec![0u8; RECORD];
        let mut filled = 0;
        while filled < RECORD {
            match self.inner.read(&mut rec[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(err(format!(
                        "corrupt XG file: its game file does not unpack after {} records: {e}",
                        self.read / RECORD as u64
                    )))
                }
            }
        }
        self.crc.update(&rec[..filled]);
        self.read += filled as u64;
        if self.read > self.limit {
            return Err(err(format!(
                "oversized XG file: its game file unpacks to more than {} MiB",
                self.limit >> 20
            )));
        }
        if filled == RECORD {
            return Ok(Some(rec));
        }
        if filled > 0 {
            self.cut = Some(format!(
                "the game file ends inside a record ({filled} of {RECORD} bytes); the record is lost"
            ));
        }
        Ok(None)
    }

    /// After the last record: a size or CRC-32 that differs from the
    /// directory's.
    fn crc_mismatch(&self) -> Option<String> {
        let (size, crc) = self.expect;
        if self.read != u64::from(size) {
            Some(format!(
                "corrupt XG file: its game file unpacks to {} bytes, the directory says {size}",
                self.read
            ))
        } else if self.crc.sum() != crc {
            Some("corrupt XG file: the game file's CRC-32 does not match".into())
        } else {
            None
        }
    }
}

/// What the records tell as they are read.
#[derive(Default)]
struct Reading {
    header_seen: bool,
    version: i32,
    game: Option<GameRecord>,
    /// XG's analysis of a no-double decision, for the roll that follows.
    no_double: Option<XgCube>,
    /// Records that belong to no game (before the first game header),
    /// given to the next game as findings.
    orphans: Vec<(u32, String)>,
}

/// The record types of `temp.xg`.
const HEADER_MATCH: u8 = 0;
const HEADER_GAME: u8 = 1;
const CUBE: u8 = 2;
const MOVE: u8 = 3;
const FOOTER_GAME: u8 = 4;
const FOOTER_MATCH: u8 = 5;

impl Reading {
    /// Takes record number `n` (1-based, the `line` of its actions).
    fn record(&mut self, n: u32, rec: &[u8], m: &mut MatchRecord) -> Result<(), MatError> {
        let kind = rec[8];
        if !self.header_seen {
            if kind != HEADER_MATCH || &rec[556..560] != b"DMLI" {
                return Err(err(
                    "the XG game file does not open with a match header: not a match",
                ));
            }
            self.match_header(rec, m);
            return Ok(());
        }
        match kind {
            HEADER_GAME => {
                self.close_game(m);
                let mut g = game_header(rec, self.version);
                g.unread.append(&mut self.orphans);
                self.game = Some(g);
            }
            CUBE | MOVE | FOOTER_GAME => {
                let Some(g) = self.game.as_mut() else {
                    self.orphans.push((
                        n,
                        format!("record {n}: a record of type {kind} outside a game; skipped"),
                    ));
                    return Ok(());
                };
                let read = match kind {
                    CUBE => cube(n, rec, g, &mut self.no_double),
                    MOVE => play(n, rec, g, self.no_double.take()),
                    _ => game_footer(n, rec, g),
                };
                if let Err(why) = read {
                    g.unread.push((n, format!("record {n}: {why}")));
                }
            }
            FOOTER_MATCH => self.close_game(m),
            other => {
                let why = if other == HEADER_MATCH {
                    format!("record {n}: a second match header; skipped")
                } else {
                    format!("record {n}: unknown record type {other}; skipped")
                };
                match self.game.as_mut() {
                    Some(g) => g.unread.push((n, why)),
                    None => self.orphans.push((n, why)),
                }
            }
        }
        Ok(())
    }

    fn close_game(&mut self, m: &mut MatchRecord) {
        if let Some(g) = self.game.take() {
            m.games.push(g);
        }
        self.no_double = None;
    }

    /// Players, match length and rules.
    fn match_header(&mut self, rec: &[u8], m: &mut MatchRecord) {
        self.header_seen = true;
        self.version = i32_at(rec, 552);
        let ansi = |at: usize| short_string(&rec[at..at + 41]);
        m.players = [ansi(9), ansi(50)];
        if self.version >= 24 {
            for (p, at) in [(0, 880), (1, 1138)] {
                let name = wide_string(&rec[at..at + 258]);
                if !name.is_empty() {
                    m.players[p] = name;
                }
            }
        }
        let length = i32_at(rec, 92);
        m.length = if length == 99999 {
            0
        } else {
            u32::try_from(length).unwrap_or(0)
        };
        let on = |at: usize| if rec[at] != 0 { "On" } else { "Off" }.to_string();
        m.tags.push(("Crawford".into(), on(100)));
        m.tags.push(("Jacoby".into(), on(101)));
        m.tags.push(("Beaver".into(), on(102)));
        let variation = match i32_at(rec, 96) {
            0 => "Standard".to_string(),
            1 => "Nackgammon".into(),
            2 => "Hypergammon".into(),
            3 => "Longgammon".into(),
            v => format!("{v}"),
        };
        m.tags.push(("Variation".into(), variation));
        if let Some(date) = delphi_date(f64_at(rec, 128)) {
            m.tags.push(("EventDate".into(), date));
        }
        let event = if self.version >= 24 {
            wide_string(&rec[622..880])
        } else {
            short_string(&rec[136..265])
        };
        if !event.is_empty() {
            m.tags.push(("Event".into(), event));
        }
    }
}

/// A Delphi short string: a length byte, then that many Windows-1252 bytes.
fn short_string(b: &[u8]) -> String {
    let len = usize::from(b[0]).min(b.len() - 1);
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&b[1..1 + len]);
    text.trim().to_string()
}

/// UTF-16LE up to the first NUL.
fn wide_string(b: &[u8]) -> String {
    let units: Vec<u16> = b
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0)
        .collect();
    String::from_utf16_lossy(&units).trim().to_string()
}

/// A Delphi `TDateTime` (days since 1899-12-30) as `YYYY.MM.DD`; `None`
/// for zero or a value outside years 1900–9999.
fn delphi_date(days: f64) -> Option<String> {
    if !(1.0..2_958_466.0).contains(&days) {
        return None;
    }
    // Days since 1970-01-01 (day 25,569 of the Delphi count), then the date.
    let (year, month, d) = crate::text::civil_from_days(days.floor() as i64 - 25_569);
    Some(format!("{year:04}.{month:02}.{d:02}"))
}

/// A `PositionEngine` (26 signed bytes from player 1's side) as a board.
fn position(b: &[u8]) -> Result<Board, String> {
    let mut board = Board::empty();
    for (i, &v) in b[..26].iter().enumerate() {
        let v = v as i8;
        let n = v.unsigned_abs();
        match (i, v.signum()) {
            (_, 0) => {}
            (25, 1) => board.checkers[0][BAR] = n,
            (0, -1) => board.checkers[1][BAR] = n,
            (1..=24, 1) => board.checkers[0][i - 1] = n,
            (1..=24, -1) => board.checkers[1][24 - i] = n,
            _ => {
                return Err(format!(
                    "position: {v} checkers of the wrong player at index {i}"
                ))
            }
        }
    }
    for p in 0..2 {
        if board.on_board(p) > CHECKERS {
            return Err(format!(
                "position: player {p} has {} checkers on the board",
                board.on_board(p)
            ));
        }
    }
    Ok(board)
}

/// XG's player: 1 is player 1 (recount's 0); −1 (or 2) player 2.
fn player(v: i32) -> Result<usize, String> {
    match v {
        1 => Ok(0),
        -1 | 2 => Ok(1),
        v => Err(format!("unknown player {v}")),
    }
}

/// XG's analysis levels (its PLAYERLEVEL table).
fn level(v: i32) -> String {
    match v {
        0 => "1-ply".into(),
        1 => "2-ply".into(),
        2 => "3-ply".into(),
        12 => "3-ply red".into(),
        3 => "4-ply".into(),
        4 => "5-ply".into(),
        5 => "6-ply".into(),
        6 => "7-ply".into(),
        100 => "rollout".into(),
        1000 => "XG Roller".into(),
        1001 => "XG Roller+".into(),
        1002 => "XG Roller++".into(),
        v => format!("level {v}"),
    }
}

fn analysed(v: f64) -> Option<f64> {
    (v != NOT_ANALYSED && v.is_finite()).then_some(v)
}

fn game_header(rec: &[u8], version: i32) -> GameRecord {
    let mut g = GameRecord {
        number: u32::try_from(i32_at(rec, 48)).unwrap_or(0),
        ..GameRecord::default()
    };
    let (s1, s2) = (i32_at(rec, 12), i32_at(rec, 16));
    match (u32::try_from(s1), u32::try_from(s2)) {
        (Ok(a), Ok(b)) => g.score = Some([a, b]),
        _ => g
            .unread
            .push((0, format!("game header: negative score {s1}-{s2}"))),
    }
    g.crawford_marked = Some(rec[20] != 0);
    match position(&rec[21..47]) {
        Ok(b) if b != Board::start() => g.setup = Some(b),
        Ok(_) => {}
        Err(why) => g.unread.push((0, format!("game header: {why}"))),
    }
    let autos = if version >= 26 { i32_at(rec, 64) } else { 0 };
    if autos != 0 {
        g.unread.push((
            0,
            format!("game header: {autos} automatic doubles, which recount does not follow; the cube values are off"),
        ));
    }
    g
}

/// A cube record: a double and its answer, or a roll without a double (its
/// analysis kept for the roll that follows).
fn cube(
    n: u32,
    rec: &[u8],
    g: &mut GameRecord,
    no_double: &mut Option<XgCube>,
) -> Result<(), String> {
    let p = player(i32_at(rec, 12))?;
    let (double, take, beaver_r) = (i32_at(rec, 16), i32_at(rec, 20), i32_at(rec, 24));
    let flag = i16::from_le_bytes([rec[120], rec[121]]);
    let mut a = XgCube {
        node: n,
        eval: level(i32_at(rec, 232)),
        double_error: analysed(f64_at(rec, 200)),
        take_error: analysed(f64_at(rec, 216)),
        ..XgCube::default()
    };
    if !matches!(flag, -100 | -1000) {
        a.p_win = Some(f32_at(rec, 124 + 12));
        a.nd = Some(f32_at(rec, 152));
        a.dt = Some(f32_at(rec, 156));
    }
    let has_analysis = a.nd.is_some() || a.double_error.is_some() || a.take_error.is_some();
    match double {
        0 => {
            *no_double = has_analysis.then_some(a);
            return Ok(());
        }
        1 => {}
        v => return Err(format!("cube record: unknown double value {v}")),
    }
    if has_analysis {
        g.xg_cubes.push(a);
    }
    g.actions.push((
        n,
        Action::Double {
            player: p,
            value: 0,
        },
    ));
    let taker = 1 - p;
    match take {
        0 => g.actions.push((n, Action::Drop { player: taker })),
        1 => g.actions.push((n, Action::Take { player: taker })),
        2 => {
            g.actions.push((
                n,
                Action::Beaver {
                    player: taker,
                    value: 0,
                },
            ));
            if beaver_r == 2 {
                g.actions.push((
                    n,
                    Action::Beaver {
                        player: p,
                        value: 0,
                    },
                ));
            }
        }
        // Not answered (the game stops at the double).
        _ => {}
    }
    Ok(())
}

/// A move record: the roll, the play, the stated position and XG's
/// analysis.
fn play(n: u32, rec: &[u8], g: &mut GameRecord, no_double: Option<XgCube>) -> Result<(), String> {
    let p = player(i32_at(rec, 64))?;
    let die = |at: usize| {
        u8::try_from(i32_at(rec, at))
            .ok()
            .filter(|d| (1..=6).contains(d))
    };
    let (Some(d0), Some(d1)) = (die(100), die(104)) else {
        return Err(format!(
            "move record: dice {} and {} are not 1 to 6",
            i32_at(rec, 100),
            i32_at(rec, 104)
        ));
    };
    let pairs: Vec<i32> = (0..8).map(|k| i32_at(rec, 68 + 4 * k)).collect();
    let steps = steps(&pairs)?;
    g.stated.push((n, position(&rec[9..35])?));
    if let Some(mut a) = no_double {
        a.node = n;
        g.xg_cubes.push(a);
    }
    let (error, luck) = (analysed(f64_at(rec, 2312)), analysed(f64_at(rec, 2320)));
    if error.is_some() || luck.is_some() {
        g.xg_plays.push(XgPlay {
            node: n,
            eval: level(i32_at(rec, 2472)),
            error,
            luck,
        });
    }
    g.actions.push((n, Action::played(p, (d0, d1), steps)));
    Ok(())
}

/// XG's (from, to) pairs, 0-based in the mover's numbering (24 the bar, −1
/// off; a `from` of −1 ends the list), as steps; all zeros is no move.
fn steps(pairs: &[i32]) -> Result<Vec<Step>, String> {
    if pairs.iter().all(|&v| v == 0) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for pair in pairs.chunks_exact(2) {
        let (from, to) = (pair[0], pair[1]);
        if from == -1 {
            break;
        }
        let from = match from {
            24 => BAR_POINT,
            0..=23 => from as u8 + 1,
            v => return Err(format!("move record: unknown 'from' point {v}")),
        };
        let to = match to {
            -1 => OFF_POINT,
            0..=23 => to as u8 + 1,
            v => return Err(format!("move record: unknown 'to' point {v}")),
        };
        out.push(Step {
            from,
            to,
            hit: false,
        });
    }
    Ok(out)
}

/// A game footer: the winner, the points and how the game ended (0 drop,
/// 1–3 single to backgammon, +100 a resignation, +1000 a settlement).
fn game_footer(n: u32, rec: &[u8], g: &mut GameRecord) -> Result<(), String> {
    let winner = player(i32_at(rec, 24)).map_err(|e| format!("game footer: {e} as the winner"))?;
    let points = u32::try_from(i32_at(rec, 28))
        .map_err(|_| format!("game footer: {} points won", i32_at(rec, 28)))?;
    let termination = i32_at(rec, 32);
    g.result_raw = format!("winner {winner}, {points} points, termination {termination}");
    g.actions
        .push((n, Action::result(winner, points, termination >= 1000)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_from_player_1s_side() {
        // The opening position as XG stores it.
        let mut raw = [0u8; 26];
        for (i, n) in [
            (6, 5i8),
            (8, 3),
            (13, 5),
            (24, 2),
            (1, -2),
            (12, -5),
            (17, -3),
            (19, -5),
        ] {
            raw[i] = n as u8;
        }
        assert_eq!(position(&raw).unwrap(), Board::start());
        raw[25] = 1;
        raw[23] = 1;
        assert!(position(&raw).unwrap_err().contains("17 checkers"));
        raw[23] = 0;
        raw[0] = 1;
        assert!(position(&raw).is_err());
    }

    #[test]
    fn move_pairs_are_zero_based_with_bar_and_off() {
        let s = steps(&[24, 20, 5, -1, -1, 0, 0, 0]).unwrap();
        assert_eq!(
            s,
            vec![
                Step {
                    from: 25,
                    to: 21,
                    hit: false
                },
                Step {
                    from: 6,
                    to: 0,
                    hit: false
                }
            ]
        );
        assert!(steps(&[0; 8]).unwrap().is_empty());
        assert!(steps(&[30, 1, -1, 0, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn delphi_dates() {
        assert_eq!(delphi_date(45_969.5).as_deref(), Some("2025.11.08"));
        assert_eq!(delphi_date(2.0).as_deref(), Some("1900.01.01"));
        assert_eq!(delphi_date(0.0), None);
    }

    /// A test file: the fixture's game file, changed by `edit`, packed
    /// again in a container (compressed members and directory, CRCs as XG
    /// writes them).
    fn fixture(edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let file =
            include_bytes!("../../../fixtures/bg/xg/charlot1-charlot2_7p_2025-11-08-2305.xg");
        let m = game_file(file).unwrap();
        let mut game = Vec::new();
        flate2::read::ZlibDecoder::new(m.data)
            .read_to_end(&mut game)
            .unwrap();
        edit(&mut game);
        pack(&game)
    }

    fn zlib(b: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn pack(game: &[u8]) -> Vec<u8> {
        let mut out = b"RGMH".to_vec();
        out.resize(HEADER, 0);
        let data = zlib(game);
        let mut entry = vec![0u8; FILE_ENTRY];
        entry[0] = 7;
        entry[1..8].copy_from_slice(b"temp.xg");
        let mut crc = flate2::Crc::new();
        crc.update(game);
        for (at, v) in [
            (512, game.len() as u32),
            (516, data.len() as u32),
            (520, 0),
            (524, crc.sum()),
        ] {
            entry[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        let dir = zlib(&entry);
        let mut sum = flate2::Crc::new();
        sum.update(&data);
        sum.update(&dir);
        out.extend_from_slice(&data);
        out.extend_from_slice(&dir);
        for v in [
            sum.sum(),
            1,
            1,
            dir.len() as u32,
            data.len() as u32,
            1,
            0,
            0,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    #[test]
    fn the_fixture_repacked_reads_the_same() {
        let file =
            include_bytes!("../../../fixtures/bg/xg/charlot1-charlot2_7p_2025-11-08-2305.xg");
        let m = read_xg(file).unwrap();
        assert_eq!(read_xg(&fixture(|_| {})).unwrap(), m);
        assert_eq!(m.players, ["charlot1".to_string(), "charlot2".into()]);
        assert_eq!((m.length, m.games.len()), (7, 4));
        assert_eq!(m.tag("EventDate"), Some("2025.11.08"));
    }

    #[test]
    fn unknown_records_and_bad_moves_are_findings() {
        let bytes = fixture(|g| {
            g[RECORD * 5 + 8] = 9; // record 6: unknown type
            g[RECORD * 7 + 68..RECORD * 7 + 72].copy_from_slice(&40i32.to_le_bytes()); // record 8: from point 40
            g[RECORD * 9 + 100..RECORD * 9 + 104].copy_from_slice(&7i32.to_le_bytes());
            // record 10: a die of 7
        });
        let m = read_xg(&bytes).unwrap();
        let unread: Vec<&str> = m.games[0].unread.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(unread.len(), 3, "{unread:?}");
        assert!(
            unread[0].contains("record 6: unknown record type 9"),
            "{unread:?}"
        );
        assert!(unread[1].contains("unknown 'from' point 40"), "{unread:?}");
        assert!(unread[2].contains("dice 7"), "{unread:?}");
        assert_eq!(m.games.len(), 4);
    }

    #[test]
    fn a_stated_position_that_is_not_the_replayed_one_is_a_finding() {
        use crate::bg::game::audit::audit_match;
        use crate::bg::game::replay::{FindingKind, KeepCube};
        // Record 4 (player 1's first move): one more checker of theirs on
        // their 24-point, one fewer on the 13.
        let bytes = fixture(|g| {
            let rec = &mut g[RECORD * 3..RECORD * 4];
            rec[9 + 24] = rec[9 + 24].wrapping_add(1);
            rec[9 + 13] = rec[9 + 13].wrapping_sub(1);
        });
        let mut kinds = Vec::new();
        audit_match(&read_xg(&bytes).unwrap(), false, KeepCube::None, |g| {
            kinds.extend(g.replayed.findings.iter().map(|f| (f.kind, f.line)));
        });
        assert_eq!(kinds, [(FindingKind::PositionMismatch, 4)]);
    }

    #[test]
    fn broken_containers_are_errors() {
        let good = fixture(|_| {});
        let cut = read_xg(&good[..good.len() - 100]).unwrap_err().0;
        assert!(cut.contains("truncated or corrupt"), "{cut}");
        let mut flipped = good.clone();
        flipped[HEADER + 40] ^= 0x55;
        assert!(read_xg(&flipped).unwrap_err().0.contains("CRC-32"));
        // A cut record inside a consistent archive: a finding.
        let short = fixture(|g| g.truncate(g.len() - 100));
        let m = read_xg(&short).unwrap();
        assert!(m.games[3]
            .unread
            .iter()
            .any(|(_, w)| w.contains("ends inside a record")));
        // Too big once unpacked.
        let e = read_xg_within(&good, 100 * RECORD as u64).unwrap_err().0;
        assert!(e.starts_with("oversized XG file"), "{e}");
        // Corrupt zlib data with the CRCs made to fit.
        let mut bad = fixture(|_| {});
        let end = bad.len() - ARCHIVE_RECORD;
        let data_len = u32_at(&bad[end..], 16) as usize;
        let start = end - u32_at(&bad[end..], 12) as usize - data_len;
        bad[start + 10..start + 30].fill(0xff);
        let mut sum = flate2::Crc::new();
        sum.update(&bad[start..end]);
        let crc = sum.sum().to_le_bytes();
        bad[end..end + 4].copy_from_slice(&crc);
        let e = read_xg(&bad).unwrap_err().0;
        assert!(e.starts_with("corrupt XG file"), "{e}");
    }

    /// Random bytes of the game file changed, the container kept valid:
    /// the reader and the replay take every record without a panic, and the
    /// damage shows as findings.
    #[test]
    fn mutated_game_files_never_panic() {
        use crate::bg::game::audit::audit_match;
        use crate::bg::game::replay::KeepCube;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut findings = 0;
        for _ in 0..200 {
            let edits: Vec<(u64, u8)> = (0..1 + next() % 8)
                .map(|_| (next(), next() as u8))
                .collect();
            let bytes = fixture(|g| {
                for &(at, v) in &edits {
                    // Mostly the fields read: type, player, dice, moves, positions.
                    let rec = (at as usize / 97) % (g.len() / RECORD);
                    let field =
                        [8, 12, 24, 28, 40, 64, 68, 72, 100, 104, 9, 21, 2312][at as usize % 13];
                    g[rec * RECORD + field] = v;
                }
            });
            if let Ok(m) = read_xg(&bytes) {
                audit_match(&m, true, KeepCube::All, |g| {
                    findings += g.replayed.findings.len()
                });
            }
        }
        assert!(findings > 200, "{findings}");
    }

    #[test]
    fn what_is_not_an_xg_file() {
        assert!(read_xg(b"hello").is_err());
        let mut b = b"RGMH".to_vec();
        b.resize(9000, 0);
        let e = read_xg(&b).unwrap_err().0;
        assert!(e.contains("archive record"), "{e}");
    }
}
