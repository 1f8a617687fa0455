//! GNU Backgammon's two-sided bearoff database (`gnubg_ts0.bd`, gnubg's
//! "Bearoff2" evaluator), built in memory by our own replay of the dynamic
//! programme of gnubg's generator (`makebearoff.c`; [`TwoSided::build`],
//! kept by [`two_sided`]). The build equals gnubg's file value for value
//! (the tests compare all 924² × 4 values when the file is there, and a
//! checksum and recorded entries always); [`TwoSided::load`] still reads
//! such a file, for that comparison.
//!
//! It covers the positions where both players have at most six checkers
//! (for `gnubg_ts0.bd`), all on their own six home points, and holds for
//! each the exact equity of the player on roll under perfect play: the
//! cubeless one and, in a "cubeful" file, three money-game cubeful ones.
//!
//! **File format** (from gnubg's `bearoff.c` and `makebearoff.c`, read to
//! learn the layout; this reader is our own):
//!
//! * a 40-byte ASCII header, `gnubg-TS-PP-CC-F` padded with `x` to 39
//!   bytes and ended by `\n`: `TS` marks a two-sided database, `PP` the
//!   number of points (06), `CC` the most checkers per side (06), `F` is
//!   `1` when the cubeful equities are stored too. `gnubg_ts0.bd` has
//!   `gnubg-TS-06-06-1`.
//! * then one record per pair of one-sided positions, `n × n` records with
//!   `n = C(PP + CC, PP)` (924 for six points and six checkers). Record
//!   `us · n + them` belongs to the position where the player on roll has
//!   one-sided bearoff index `us` (gnubg's `PositionBearoff` of its
//!   `anBoard[1]`, our [`OneSided::index`]) and the opponent has index
//!   `them` (of `anBoard[0]`): the player on roll is the major index.
//! * each record is one little-endian `u16` (cubeless file) or four
//!   (cubeful file, 8 bytes), in this order:
//!   1. the cubeless equity,
//!   2. the cubeful equity when the player on roll owns the cube,
//!   3. the cubeful equity with the cube centred,
//!   4. the cubeful equity when the opponent owns the cube.
//!
//!   Each maps an equity `E` in [−1, +1] to `u = (E + 1) · 32767.5`
//!   (the generator keeps it as a signed 16-bit `s` and writes
//!   `s + 0x8000`, so 0 is −1 and 65535 is +1); gnubg reads it back as
//!   `u / 32767.5 − 1`. So `gnubg_ts0.bd` is 40 + 924² × 8 = 6,830,248
//!   bytes.
//!
//! No gammon is possible with at most six checkers a side, so the cubeless
//! equity is `2 · P(win) − 1`. The cubeful equities are money-game
//! equities per unit of cube value, with perfect cube play by both sides
//! from the next turn on, and **without** a double by the player on roll
//! at this turn: they are the no-double equities gnubg's cubeful
//! evaluation takes for its leaves (its `CFMONEY` macro picks one of the
//! three by cube ownership) and then applies its own double/take logic to.
//! The generator builds them by averaging, over the 21 rolls, the best
//! move's value, where the value of the opponent's resulting position
//! includes the opponent's own cube decision: with `ND` its no-double
//! equity and `DT` its equity after a take (per unit cube, so `2 · DT` at
//! the doubled cube), the doubled value is `min(2 · DT, 1)` (the taker
//! passes when taking is worse than −1) and the opponent doubles when
//! `DT ≥ ND / 2`.
//! Values are 16-bit fixed point all along (the total over the rolls
//! divided by 36 with truncation); [`TwoSided::build`] gives the details.
//!
//! **Evaluation**, as gnubg 1.1.0a16 (compiled with `-ffast-math`) gives
//! it at 0-ply: `P(win) = ((u · f32(1/32767.5)) − 1 + 1) · 0.5` in f32 (the
//! division by 32767.5 became a multiplication by the rounded reciprocal;
//! the `− 1` of the read and the `+ 1` of the probability are both kept,
//! so the round trip through the equity can round off low bits for small
//! `u`), and the four other outputs are 0. gnubg's source has two forms,
//! `E / 2 + 0.5` (`BearoffEvalTwoSided`) and `(E + 1) / 2` (its cubeful
//! leaf evaluation); with `E = u · f32(1/32767.5) − 1` both give the same
//! f32 for every `u`. A true division by 32767.5 would differ for 191 of
//! the 65,536 values of `u`. The tests check this bit for bit against
//! gnubg's outputs, one of whose rows needs the multiplication.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::bg::cube::{two_sided_efficiency, Owner};
use crate::bg::eval::bearoff::{for_each_play, OneSided, ROLLS};
use crate::bg::eval::table_cache;
use crate::bg::position::board::{Board, BAR};

/// Length of the file header.
pub const HEADER_LEN: usize = 40;
/// Home points the database spreads over (the only layout we read; it is
/// what gnubg ships).
pub const POINTS: usize = 6;
/// Most checkers per side of the database we build (gnubg's `gnubg_ts0.bd`).
pub const CHECKERS: u8 = 6;
/// One-sided positions per side of the database we build: C(12, 6).
pub const SIDE_POSITIONS: usize = 924;

/// makebearoff's 16-bit equity +1 (`EQUITY_P1`); −1 is its complement.
const WIN: i16 = i16::MAX;

/// `f32(1 / 32767.5)`: gnubg's `us / 32767.5f` as compiled with
/// `-ffast-math` (a multiplication by the rounded reciprocal).
const INV_SCALE: f32 = (1.0f64 / 32767.5f64) as f32;

/// The four stored equities of one position, from the point of view of
/// the player on roll; see the module documentation for what they are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equities {
    /// Cubeless equity, `2 · P(win) − 1`.
    pub cubeless: f32,
    /// Money-game cubeful equity (per unit cube) when the player on roll
    /// owns the cube and does not redouble at this turn.
    pub owned: f32,
    /// Money-game cubeful equity with the cube centred, when the player
    /// on roll does not double at this turn.
    pub centered: f32,
    /// Money-game cubeful equity when the opponent owns the cube.
    pub opponent_owns: f32,
}

impl Equities {
    /// The money cubeful equity for the cube position `owner` (gnubg's
    /// `CFMONEY`): the no-double equity of the player on roll.
    pub fn money(&self, owner: Owner) -> f32 {
        match owner {
            Owner::Centred => self.centered,
            Owner::OnRoll => self.owned,
            Owner::Opponent => self.opponent_owns,
        }
    }

    /// gnubg's match-play cube efficiencies of this position for the cube
    /// as it is (`owner`) and for the doubled cube the opponent owns,
    /// from the exact money equities ([`two_sided_efficiency`]); `win` is
    /// the database's P(win), `x_max` the class's efficiency (0.6).
    pub fn match_efficiencies(&self, win: f32, owner: Owner, x_max: f32) -> (f32, f32) {
        (
            self.match_efficiency(win, owner, x_max),
            self.match_efficiency(win, Owner::Opponent, x_max),
        )
    }

    /// The match-play cube efficiency for the cube position `owner`.
    pub fn match_efficiency(&self, win: f32, owner: Owner, x_max: f32) -> f32 {
        two_sided_efficiency(win, self.cubeless, self.money(owner), owner, x_max)
    }
}

/// GNU Backgammon's two-sided bearoff database: built by
/// [`TwoSided::build`] (what [`two_sided`] keeps), or read from a file.
/// Clones share the values.
#[derive(Clone)]
pub struct TwoSided {
    /// Most checkers per side the file covers.
    checkers: u8,
    /// One-sided positions per side, C(6 + checkers, 6).
    side_positions: usize,
    /// Values per record: 4 in a cubeful file, else 1.
    per_record: usize,
    /// The records, `per_record` values each, in file order.
    values: Arc<[u16]>,
}

static EXACT: OnceLock<TwoSided> = OnceLock::new();

/// The six-checker two-sided database, built by [`TwoSided::build`] on
/// first use (or read from the cache directory, [`table_cache`]) and kept
/// for the life of the process (6.8 MB).
pub fn two_sided() -> &'static TwoSided {
    EXACT.get_or_init(|| {
        let len = SIDE_POSITIONS * SIDE_POSITIONS * 4;
        let values =
            table_cache::load_or_build("gnubg-ts0", len, || TwoSided::build().values.to_vec());
        TwoSided {
            checkers: CHECKERS,
            side_positions: SIDE_POSITIONS,
            per_record: 4,
            values: values.into(),
        }
    })
}

/// `C(n, k)` for the small numbers the header allows.
fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// A two-digit decimal header field at `at` (gnubg reads it with `atoi`;
/// we insist on the digits it writes).
fn header_number(header: &[u8], at: usize, len: usize) -> Option<usize> {
    let field = header.get(at..at + len)?;
    if field.iter().all(u8::is_ascii_digit) {
        std::str::from_utf8(field).ok()?.parse().ok()
    } else {
        None
    }
}

/// gnubg's conversion of a stored value to an equity, as compiled:
/// `u · f32(1/32767.5) − 1`, in f32.
fn equity(u: u16) -> f32 {
    u as f32 * INV_SCALE - 1.0
}

impl std::fmt::Debug for TwoSided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoSided")
            .field("checkers", &self.checkers)
            .finish_non_exhaustive()
    }
}

/// makebearoff's `CubeEquity` with a cash worth +1 (`EQUITY_P1`): the
/// value for the player on roll of a position whose no-double equity is
/// `nd` and whose equity after double/take is `dt` per unit cube. It
/// doubles when `dt ≥ nd / 2` (integer division, truncating); the
/// opponent then passes when `dt ≥ 16383` (half of +1), which gives +1,
/// and otherwise takes, which gives `2 · dt`.
fn cube_equity(nd: i16, dt: i16) -> i16 {
    if dt >= nd / 2 {
        if dt >= WIN / 2 {
            WIN
        } else {
            (2 * dt as i32) as i16
        }
    } else {
        nd
    }
}

impl TwoSided {
    /// Builds the six-checker cubeful database (the content of gnubg's
    /// `gnubg_ts0.bd`) by makebearoff's dynamic programme
    /// (`BearOff2`/`CubeEquity` in gnubg's `makebearoff.c`), in its 16-bit
    /// arithmetic: an equity `E` is the `i16` `s ≈ E · 32767.5 − 0.5`, +1
    /// is 32767 and −1 is its complement −32768, and the sign change of
    /// the opponent's equity is the complement `!s = −s − 1`.
    ///
    /// A side with nothing left has won (+1 everywhere when it is on roll,
    /// −1 when it is not). Otherwise each of the four values is, over the
    /// 21 rolls, the best play's value for the player on roll, summed with
    /// weight 1 for doubles and 2 for the others, and the total divided by
    /// 36 truncating toward zero. The value of a play is the complement of
    /// a value of the opponent's resulting record `[c, own, cen, opp]`
    /// (opponent on roll):
    ///
    /// * cubeless: `!c`;
    /// * we own the cube (the opponent may not double): `!opp`;
    /// * cube centred: `!cube_equity(cen, opp)` (the opponent doubles or
    ///   not, we take or pass);
    /// * the opponent owns the cube: `!cube_equity(own, opp)`.
    ///
    /// Each play is chosen per value. Every play lowers the one-sided
    /// index of the mover, so the records are computed by increasing sum
    /// of the two indices, the order in which gnubg builds them.
    ///
    /// The moves are precomputed as, per one-sided position and roll, the
    /// list of distinct resulting positions; the table is then 855,000
    /// maxima over those lists. Takes about a quarter of a second in
    /// release mode, on one thread (see [`crate::bg::eval::bearoff::one_sided`] for why not rayon).
    pub fn build() -> TwoSided {
        const N: usize = SIDE_POSITIONS;
        // Results of each position's plays, by roll: `children[starts[p ·
        // 21 + r]..starts[p · 21 + r + 1]]`.
        let mut starts = Vec::with_capacity(N * ROLLS.len() + 1);
        let mut children: Vec<u16> = Vec::with_capacity(N * ROLLS.len() * 8);
        let mut scratch = Vec::new();
        starts.push(0u32);
        for pos in 0..N {
            let points = OneSided::points(pos);
            for &(a, b, _) in &ROLLS {
                if pos > 0 {
                    scratch.clear();
                    for_each_play(&points, a, b, &mut |c| scratch.push(c as u16));
                    scratch.sort_unstable();
                    scratch.dedup();
                    children.extend_from_slice(&scratch);
                }
                starts.push(children.len() as u32);
            }
        }
        // `records[us · N + them]`: the four values for the side on roll
        // with index `us`; `mover[…]` the same position's four play values
        // for the side that has just moved (see above).
        let mut records = vec![[0i16; 4]; N * N];
        let mut mover = vec![[0i16; 4]; N * N];
        for sum in 0..2 * N - 1 {
            for us in sum.saturating_sub(N - 1)..=sum.min(N - 1) {
                let them = sum - us;
                let r = if us == 0 {
                    [WIN; 4]
                } else if them == 0 {
                    [!WIN; 4]
                } else {
                    let row = &mover[them * N..(them + 1) * N];
                    let mut total = [0i32; 4];
                    for (k, &(a, b, _)) in ROLLS.iter().enumerate() {
                        let at = us * ROLLS.len() + k;
                        let plays = &children[starts[at] as usize..starts[at + 1] as usize];
                        let mut best = [i16::MIN; 4];
                        for &j in plays {
                            let v = row[j as usize];
                            for t in 0..4 {
                                best[t] = best[t].max(v[t]);
                            }
                        }
                        let weight = if a == b { 1 } else { 2 };
                        for t in 0..4 {
                            total[t] += weight * best[t] as i32;
                        }
                    }
                    total.map(|t| (t / 36) as i16)
                };
                records[us * N + them] = r;
                mover[us * N + them] = [
                    !r[0],
                    !r[3],
                    !cube_equity(r[2], r[3]),
                    !cube_equity(r[1], r[3]),
                ];
            }
        }
        let values: Vec<u16> = records
            .iter()
            .flatten()
            .map(|&s| (s as u16) ^ 0x8000)
            .collect();
        TwoSided {
            checkers: CHECKERS,
            side_positions: N,
            per_record: 4,
            values: values.into(),
        }
    }

    /// Reads the whole database from `path`. Errors name the file and say
    /// whether it is missing or unreadable, not a two-sided gnubg bearoff
    /// database, of an unsupported layout, or truncated.
    pub fn load(path: &Path) -> Result<TwoSided, String> {
        let bytes = std::fs::read(path).map_err(|e| {
            format!(
                "cannot read the two-sided bearoff database {}: {e} \
                 (scripts/get-gnubg-weights.sh fetches gnubg_ts0.bd)",
                path.display()
            )
        })?;
        Self::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses a database already in memory (the file's whole content).
    pub fn from_bytes(bytes: &[u8]) -> Result<TwoSided, String> {
        let header = bytes.get(..HEADER_LEN).ok_or_else(|| {
            format!(
                "truncated: {} bytes, shorter than the {HEADER_LEN}-byte header",
                bytes.len()
            )
        })?;
        if !header.starts_with(b"gnubg") {
            return Err("not a GNU Backgammon bearoff database (no \"gnubg\" header)".into());
        }
        if &header[6..8] != b"TS" {
            return Err(format!(
                "not a two-sided bearoff database (type {:?}, expected \"TS\")",
                String::from_utf8_lossy(&header[6..8])
            ));
        }
        let points =
            header_number(header, 9, 2).ok_or("malformed header: no number of points at byte 9")?;
        let checkers = header_number(header, 12, 2)
            .ok_or("malformed header: no number of checkers at byte 12")?;
        let cubeful =
            header_number(header, 15, 1).ok_or("malformed header: no cubeful flag at byte 15")?;
        if points != POINTS {
            return Err(format!(
                "unsupported database: {points} points (only {POINTS} are supported)"
            ));
        }
        if !(1..=15).contains(&checkers) {
            return Err(format!(
                "malformed header: {checkers} checkers (1 to 15 allowed)"
            ));
        }
        if cubeful > 1 {
            return Err(format!("malformed header: cubeful flag {cubeful}"));
        }
        let side_positions = binomial(POINTS + checkers, POINTS);
        let per_record = if cubeful == 1 { 4 } else { 1 };
        let expected = HEADER_LEN + side_positions * side_positions * per_record * 2;
        if bytes.len() < expected {
            return Err(format!(
                "truncated: {} bytes, a {POINTS}-point {checkers}-checker {} database has {expected}",
                bytes.len(),
                if cubeful == 1 { "cubeful" } else { "cubeless" }
            ));
        }
        if bytes.len() > expected {
            return Err(format!(
                "{} bytes, more than the {expected} of a {POINTS}-point {checkers}-checker database",
                bytes.len()
            ));
        }
        let values = bytes[HEADER_LEN..]
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect::<Vec<u16>>()
            .into();
        Ok(TwoSided {
            checkers: checkers as u8,
            side_positions,
            per_record,
            values,
        })
    }

    /// Most checkers per side the database covers (6 for `gnubg_ts0.bd`).
    pub fn max_checkers(&self) -> u8 {
        self.checkers
    }

    /// Whether the file stores the cubeful equities.
    pub fn is_cubeful(&self) -> bool {
        self.per_record == 4
    }

    /// The raw stored values of the record for one-sided indices `us` (the
    /// player on roll) and `them` ([`OneSided::index`]): 4 values in a
    /// cubeful file (see the module documentation), else 1. Panics when an
    /// index is out of range.
    pub fn record(&self, us: usize, them: usize) -> &[u16] {
        assert!(
            us < self.side_positions && them < self.side_positions,
            "bearoff indices ({us}, {them}) out of range"
        );
        let at = (us * self.side_positions + them) * self.per_record;
        &self.values[at..at + self.per_record]
    }

    /// The record of `board` with `on_roll` to play, or `None` when gnubg
    /// would not use the database: a side has more than
    /// [`max_checkers`](Self::max_checkers) checkers or one outside its
    /// home board (or on the bar), or the game is over (a side has no
    /// checker left; gnubg classifies that as finished, not bearoff).
    fn lookup(&self, board: &Board, on_roll: usize) -> Option<&[u16]> {
        let side = |p: usize| -> Option<usize> {
            let row = &board.checkers[p];
            if row[POINTS..=BAR].iter().any(|&n| n > 0) {
                return None;
            }
            let total: u32 = row[..POINTS].iter().map(|&n| n as u32).sum();
            if total == 0 || total > self.checkers as u32 {
                return None;
            }
            let points: [u8; POINTS] = row[..POINTS].try_into().ok()?;
            Some(OneSided::index(&points))
        };
        let us = side(on_roll)?;
        let them = side(1 - on_roll)?;
        Some(self.record(us, them))
    }

    /// Cubeless probabilities [win, 0, 0, 0, 0] for the player on roll,
    /// exactly as gnubg's 0-ply evaluation gives them (f32 arithmetic as
    /// compiled), or None when the position is not covered (a side with
    /// more than 6 checkers or outside its home board, or a finished game).
    pub fn probabilities(&self, board: &Board, on_roll: usize) -> Option<[f32; 5]> {
        let record = self.lookup(board, on_roll)?;
        let win = (equity(record[0]) + 1.0) * 0.5;
        Some([win, 0.0, 0.0, 0.0, 0.0])
    }

    /// The stored equities of `board` for the player `on_roll` (see
    /// [`Equities`]), converted as gnubg reads them (`u / 32767.5 − 1`), or
    /// None when the position is not covered (as for
    /// [`probabilities`](Self::probabilities)) or the file is cubeless.
    pub fn equities(&self, board: &Board, on_roll: usize) -> Option<Equities> {
        if !self.is_cubeful() {
            return None;
        }
        let r = self.lookup(board, on_roll)?;
        Some(Equities {
            cubeless: equity(r[0]),
            owned: equity(r[1]),
            centered: equity(r[2]),
            opponent_owns: equity(r[3]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg::position::ids::board_from_position_id;
    use std::path::PathBuf;

    fn db() -> &'static TwoSided {
        two_sided()
    }

    /// gnubg's own file, when `scripts/get-gnubg-weights.sh` has fetched
    /// it (CI does).
    fn gnubg_file() -> Option<TwoSided> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".gnubg-data/gnubg_ts0.bd");
        path.is_file()
            .then(|| TwoSided::load(&path).unwrap_or_else(|e| panic!("{e}")))
    }

    /// The built table as gnubg's file would hold it.
    fn file_bytes(db: &TwoSided) -> Vec<u8> {
        let mut bytes = format!("{:x<39}\n", "gnubg-TS-06-06-1").into_bytes();
        bytes.extend(db.values.iter().flat_map(|v| v.to_le_bytes()));
        bytes
    }

    /// FNV-1a (64 bits) of the values as the file stores them (little
    /// endian, after the header).
    fn checksum(db: &TwoSided) -> u64 {
        db.values
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .fold(0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// FNV-1a of the 6,830,208 bytes after the header of gnubg's
    /// `gnubg_ts0.bd` (gnubg 1.1.0a16's PyPI wheel).
    const GNUBG_TS0_CHECKSUM: u64 = 0x30e1_e7b5_54a9_b16a;

    fn cases() -> Vec<(String, [f32; 5])> {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/expected/bg-nn-cases.csv");
        let mut reader = csv::Reader::from_path(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let mut out = Vec::new();
        for row in reader.records() {
            let row = row.expect("csv row");
            if &row[1] != "bearoff_ts" {
                continue;
            }
            let mut expected = [0f32; 5];
            for (k, e) in expected.iter_mut().enumerate() {
                *e = row[2 + k].parse().expect("number");
            }
            out.push((row[0].to_string(), expected));
        }
        out
    }

    #[test]
    fn matches_gnubg_bit_for_bit() {
        let db = db();
        let cases = cases();
        assert_eq!(cases.len(), 862, "bearoff_ts rows in the fixture");
        let mut worst = 0f32;
        let mut inexact = Vec::new();
        // Rows where gnubg's source arithmetic without -ffast-math (a true
        // division by 32767.5, then `/ 2 + 0.5`) would give another f32.
        let mut unoptimised_differs = 0;
        for (id, expected) in &cases {
            let board = board_from_position_id(id, 0).expect("valid position id");
            let got = db
                .probabilities(&board, 0)
                .unwrap_or_else(|| panic!("{id}: not covered by the database"));
            let u = db.lookup(&board, 0).unwrap()[0];
            if (u as f32 / 32767.5f32 - 1.0) / 2.0 + 0.5 != got[0] {
                unoptimised_differs += 1;
            }
            for k in 0..5 {
                let d = (got[k] - expected[k]).abs();
                worst = worst.max(d);
                assert!(
                    d <= 1e-6,
                    "{id}: output {k} is {} where gnubg gives {}",
                    got[k],
                    expected[k]
                );
                if got[k].to_bits() != expected[k].to_bits() {
                    inexact.push((id.clone(), k, got[k], expected[k]));
                }
            }
        }
        // The fixture does tell the compiled arithmetic from the source's.
        assert!(unoptimised_differs >= 1);
        assert!(
            inexact.is_empty(),
            "{} outputs within 1e-6 (worst {worst:e}) but not bit-exact, e.g. {:?}",
            inexact.len(),
            &inexact[..inexact.len().min(5)]
        );
    }

    #[test]
    fn header_and_layout() {
        let db = db();
        assert_eq!(db.max_checkers(), 6);
        assert!(db.is_cubeful());
        assert_eq!(db.side_positions, 924);
        assert_eq!(db.values.len(), 924 * 924 * 4);
        // One checker on the six-point is the last position with one
        // checker (index 6); six on the six-point the last of all.
        assert_eq!(OneSided::index(&[0, 0, 0, 0, 0, 1]), 6);
        assert_eq!(OneSided::index(&[0, 0, 0, 0, 0, 6]), 923);
        // Rows for a side with nothing left: the player on roll has won
        // (+1 everywhere), the opponent has (−1).
        assert_eq!(db.record(0, 5), &[u16::MAX; 4]);
        assert_eq!(db.record(5, 0), &[0; 4]);
    }

    #[test]
    fn on_roll_is_the_major_index() {
        // One checker each on the ace point: the player on roll wins.
        let db = db();
        let mut board = Board::empty();
        board.checkers[0][0] = 1;
        board.checkers[1][0] = 1;
        assert_eq!(db.probabilities(&board, 0).unwrap()[0], 1.0);
        // Player on roll with six on the six-point, the opponent with one
        // on the ace point: the player on roll has lost (the opponent
        // bears off next turn whatever happens).
        let mut board = Board::empty();
        board.checkers[0][5] = 6;
        board.checkers[1][0] = 1;
        assert_eq!(db.probabilities(&board, 0).unwrap()[0], 0.0);
        assert_eq!(db.probabilities(&board, 1).unwrap()[0], 1.0);
        let e = db.equities(&board, 0).unwrap();
        assert_eq!(
            (e.cubeless, e.owned, e.centered, e.opponent_owns),
            (-1.0, -1.0, -1.0, -1.0)
        );
    }

    #[test]
    fn cubeful_equities_are_consistent() {
        // Owning the cube is never worse than a centred cube, which is
        // never worse than the opponent owning it; cubeless sits between
        // the owned and the opponent-owned equity.
        let db = db();
        for us in 1..db.side_positions {
            for them in 1..db.side_positions {
                let r: Vec<u32> = db.record(us, them).iter().map(|&u| u as u32).collect();
                assert!(r[1] >= r[2] && r[2] >= r[3], "({us}, {them}): {r:?}");
                assert!(
                    r[1] + 1 >= r[0] && r[0] + 1 >= r[3],
                    "({us}, {them}): {r:?}"
                );
            }
        }
    }

    #[test]
    fn not_covered() {
        let db = db();
        // Seven checkers for the player on roll.
        let mut board = Board::empty();
        board.checkers[0][0] = 7;
        board.checkers[1][0] = 1;
        assert_eq!(db.probabilities(&board, 0), None);
        // A checker outside the home board.
        let mut board = Board::empty();
        board.checkers[0][6] = 1;
        board.checkers[1][0] = 1;
        assert_eq!(db.probabilities(&board, 1), None);
        // On the bar.
        board.checkers[0][6] = 0;
        board.checkers[0][BAR] = 1;
        assert_eq!(db.probabilities(&board, 0), None);
        // Game over.
        let mut board = Board::empty();
        board.checkers[1][0] = 1;
        assert_eq!(db.probabilities(&board, 0), None);
        assert_eq!(db.probabilities(&Board::start(), 0), None);
    }

    #[test]
    fn equals_gnubg_file_entry_by_entry() {
        let Some(file) = gnubg_file() else {
            eprintln!("no .gnubg-data/gnubg_ts0.bd: compared by checksum and fixtures only");
            return;
        };
        let built = db();
        assert_eq!(
            (file.max_checkers(), file.side_positions, file.per_record),
            (built.max_checkers(), built.side_positions, built.per_record)
        );
        let mut differ = 0;
        let mut worst = 0;
        for (at, (&b, &f)) in built.values.iter().zip(file.values.iter()).enumerate() {
            if b != f {
                differ += 1;
                worst = worst.max(b.abs_diff(f));
                if differ <= 5 {
                    eprintln!("record {} value {}: built {b}, gnubg {f}", at / 4, at % 4);
                }
            }
        }
        assert_eq!(
            differ,
            0,
            "{differ} of {} values differ from gnubg's file, by up to {worst}",
            built.values.len()
        );
        assert_eq!(checksum(&file), GNUBG_TS0_CHECKSUM);
    }

    #[test]
    fn checksum_is_gnubg_files() {
        assert_eq!(checksum(db()), GNUBG_TS0_CHECKSUM);
    }

    #[test]
    fn fixture_records_from_gnubg_file() {
        // (us, them, record) as gnubg_ts0.bd stores them.
        let fixtures: [(usize, usize, [u16; 4]); 12] = [
            (1, 1, [65535; 4]),
            (6, 6, [53247, 53247, 49151, 49151]),
            (27, 27, [49445, 53140, 52530, 48516]),
            (83, 83, [46712, 53261, 52053, 45078]),
            (100, 200, [59360, 62311, 62127, 59155]),
            (200, 100, [26007, 28714, 21477, 19309]),
            (400, 399, [40717, 47274, 44944, 37972]),
            (500, 700, [58137, 62866, 62523, 57663]),
            (909, 27, [2493, 2615, 764, 682]),
            (923, 923, [42674, 50621, 48657, 40024]),
            (923, 1, [0; 4]),
            (1, 923, [65535; 4]),
        ];
        for (us, them, want) in fixtures {
            assert_eq!(db().record(us, them), want, "record ({us}, {them})");
        }
    }

    #[test]
    fn hand_computed_record() {
        // One checker on our six-point against one on their ace point:
        // we win exactly when this roll bears off, 27 rolls of 36 (all but
        // 1-1, 2-1, 3-1, 4-1 and 3-2), whatever the cube. In 16 bits:
        // (27 · 32767 − 9 · 32768) / 36 = 16383 (truncated), stored +0x8000.
        let six = OneSided::index(&[0, 0, 0, 0, 0, 1]);
        let ace = OneSided::index(&[1, 0, 0, 0, 0, 0]);
        assert_eq!(db().record(six, ace), [16383 + 0x8000; 4]);
        let e = equity(db().record(six, ace)[0]);
        assert!((e - 0.5).abs() < 1e-4, "{e}");
    }

    #[test]
    fn cube_equity_rules() {
        // No double when the take is worth less than half the no-double.
        assert_eq!(cube_equity(10_000, 4_999), 10_000);
        // Double, take: twice the take.
        assert_eq!(cube_equity(10_000, 5_000), 10_000);
        assert_eq!(cube_equity(10_000, 16_382), 32_764);
        // Double, pass from half of +1 on.
        assert_eq!(cube_equity(10_000, 16_383), WIN);
        // Integer halving truncates toward zero: -3 / 2 = -1.
        assert_eq!(cube_equity(-3, -1), -2);
        assert_eq!(cube_equity(-3, -2), -3);
    }

    #[test]
    fn load_errors() {
        let missing = TwoSided::load(Path::new("/nonexistent/gnubg_ts0.bd"));
        assert!(missing.err().unwrap().contains("cannot read"));
        let bytes = file_bytes(db());
        let whole = TwoSided::from_bytes(&bytes).expect("a well-formed file");
        assert_eq!(whole.values, db().values);
        let err = TwoSided::from_bytes(&bytes[..bytes.len() - 1])
            .err()
            .unwrap();
        assert!(err.contains("truncated"), "{err}");
        let err = TwoSided::from_bytes(&bytes[..10]).err().unwrap();
        assert!(err.contains("truncated"), "{err}");
        let mut one_sided = bytes[..HEADER_LEN].to_vec();
        one_sided[6..8].copy_from_slice(b"OS");
        let err = TwoSided::from_bytes(&one_sided).err().unwrap();
        assert!(err.contains("not a two-sided"), "{err}");
        let err = TwoSided::from_bytes(&[b'x'; 64]).err().unwrap();
        assert!(err.contains("not a GNU Backgammon"), "{err}");
    }

    #[test]
    fn build_time() {
        let start = std::time::Instant::now();
        let db = TwoSided::build();
        let elapsed = start.elapsed();
        eprintln!("built {} values in {elapsed:?}", db.values.len());
    }
}
