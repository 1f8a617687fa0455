//! Match equity tables: the chance of winning the match from every score,
//! as GNU Backgammon stores and extends them, with the lookups its cube
//! formulas use (match winning chances after a game won for 1, 2, 3, 4 or
//! 6 times the cube, gammon prices).
//!
//! The default table is Kazaross-XG2 (Neil Kazaross, transcribed for GNU
//! Backgammon by Michael Petch), shipped in `data/met/`; `--met FILE` loads
//! another of GNU Backgammon's XML tables with explicit values.

use std::sync::OnceLock;

/// Largest away score kept (GNU Backgammon's MAXSCORE).
pub const MAX_SCORE: usize = 64;
/// Cube levels for which gammon prices are kept (1 to 64).
const MAX_CUBE_LEVEL: usize = 7;

/// A match equity table. `pre[i][j]`: player 0's chance when player 0 is
/// `i + 1` away and player 1 `j + 1` away; `post[k][n]`: the trailer's
/// chance post-Crawford, `n + 1` away against the leader's 1-away (`k` is
/// the trailer).
pub struct Met {
    pub name: String,
    /// The file it was read from (`--met`); none for the shipped table.
    pub file: Option<String>,
    pub length: usize,
    pre: Vec<[f32; MAX_SCORE]>,
    post: [[f32; MAX_SCORE]; 2],
    /// Gammon prices per cube level and away scores: win gammon and lose
    /// gammon, win backgammon and lose backgammon, for player 0.
    prices: Vec<[[f32; 4]; MAX_SCORE]>,
    prices_post: Vec<[[[f32; 4]; 2]; MAX_SCORE]>,
    /// This table's number among those read, for the cache of
    /// [`Met::results`] (an address could be reused by a later table).
    id: u64,
}

impl Met {
    /// This table's number among those read: tells tables apart in caches.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// The shipped default table.
pub fn kazaross_xg2() -> &'static Met {
    static MET: OnceLock<Met> = OnceLock::new();
    MET.get_or_init(|| {
        Met::from_xml(include_str!("../../../data/met/Kazaross-XG2.xml"))
            .expect("the shipped Kazaross-XG2 table reads")
    })
}

/// The values of every `<me>` element inside `section`.
fn values(section: &str) -> Result<Vec<Vec<f32>>, String> {
    let mut rows = Vec::new();
    for row in section.split("<row>").skip(1) {
        let row = row.split("</row>").next().unwrap_or_default();
        let mut vals = Vec::new();
        for me in row.split("<me>").skip(1) {
            let v = me.split("</me>").next().unwrap_or_default().trim();
            // A match equity is a chance: NaN, infinite or out of range it
            // would carry into every cubeful value at that score.
            let equity = v
                .parse::<f32>()
                .ok()
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or_else(|| format!("'{v}' is not a match equity (a number from 0 to 1)"))?;
            vals.push(equity);
        }
        rows.push(vals);
    }
    Ok(rows)
}

fn section<'a>(xml: &'a str, tag: &str) -> Result<&'a str, String> {
    let open = xml
        .find(&format!("<{tag}"))
        .ok_or_else(|| format!("no <{tag}> element"))?;
    let rest = &xml[open..];
    let close = rest
        .find(&format!("</{tag}>"))
        .ok_or_else(|| format!("<{tag}> is not closed"))?;
    let head_end = rest.find('>').unwrap_or(0);
    if !rest[..head_end].contains("explicit") {
        return Err(format!(
            "<{tag}> is not an explicit table (tables generated from parameters are not supported)"
        ));
    }
    Ok(&rest[..close])
}

impl Met {
    /// Reads one of GNU Backgammon's XML tables (explicit values).
    ///
    /// # Errors
    /// A table that is not explicit, not square, or holds no values.
    pub fn from_xml(xml: &str) -> Result<Met, String> {
        let name = xml
            .split("<name>")
            .nth(1)
            .and_then(|s| s.split("</name>").next())
            .unwrap_or("unnamed")
            .trim()
            .to_string();
        let pre_rows = values(section(xml, "pre-crawford-table")?)?;
        let n = pre_rows.len();
        if n == 0 || pre_rows.iter().any(|r| r.len() != n) || n > MAX_SCORE {
            return Err(format!(
                "the pre-Crawford table is not square (or over {MAX_SCORE})"
            ));
        }
        let post_rows = values(section(xml, "post-crawford-table")?)?;
        let post_row = post_rows
            .first()
            .filter(|r| !r.is_empty())
            .ok_or("the post-Crawford table is empty")?;
        let mut met = Met {
            name,
            file: None,
            length: n,
            pre: vec![[0.0; MAX_SCORE]; MAX_SCORE],
            post: [[0.0; MAX_SCORE]; 2],
            prices: Vec::new(),
            prices_post: Vec::new(),
            id: {
                static TABLES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                TABLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
        };
        for (i, row) in pre_rows.iter().enumerate() {
            met.pre[i][..n].copy_from_slice(row);
        }
        // The post-Crawford table is kept up to n − 1 and extended from
        // there (its n-away entry is not a legal score), as gnubg does.
        for k in 0..2 {
            let row = post_rows.get(k).unwrap_or(post_row);
            let keep = (n - 1).min(row.len());
            met.post[k][..keep].copy_from_slice(&row[..keep]);
            extend_post(&mut met.post[k], keep);
        }
        met.extend_pre();
        met.gammon_prices();
        Ok(met)
    }

    /// Zadeh's post-Crawford recursion for the scores beyond the table
    /// (gammon rate 0.25, free drops 0.015 at 2-away and 0.004 at 4-away).
    fn extend_pre(&mut self) {
        const STDDEV: [f32; 12] = [
            0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72, 1.77,
        ];
        let sd = |n: usize| if n > 10 { 1.77 } else { STDDEV[n] };
        let n = self.length;
        for i in n..MAX_SCORE {
            let s0 = i + 1;
            for j in 0..=i {
                let s1 = j + 1;
                let games = (s0 + s1) as f32 / 2.0;
                let sigma = (sd(s0) * sd(s0) + sd(s1) * sd(s1)).sqrt() * games.sqrt();
                let diff = (s0 - s1) as f32;
                self.pre[i][j] = if 6.0 * sigma > diff {
                    normal_area(diff, 6.0 * sigma, sigma)
                } else {
                    0.0
                };
            }
        }
        for i in 0..MAX_SCORE {
            let from = if i < n { n } else { i + 1 };
            for j in from..MAX_SCORE {
                self.pre[i][j] = 1.0 - self.pre[j][i];
            }
        }
    }

    fn gammon_prices(&mut self) {
        self.prices = vec![[[0.0; 4]; MAX_SCORE]; MAX_CUBE_LEVEL * MAX_SCORE];
        self.prices_post = vec![[[[0.0; 4]; 2]; MAX_SCORE]; MAX_CUBE_LEVEL];
        let m = MAX_SCORE as i32;
        for level in 0..MAX_CUBE_LEVEL {
            let cube = 1 << level;
            for j in 0..MAX_SCORE {
                for k in 0..MAX_SCORE {
                    let s = [m - j as i32 - 1, m - k as i32 - 1];
                    self.prices[level * MAX_SCORE + j][k] = self.price(s, m, cube, false);
                }
                self.prices_post[level][j][0] =
                    self.price([m - 1, m - j as i32 - 1], m, cube, false);
                self.prices_post[level][j][1] =
                    self.price([m - j as i32 - 1, m - 1], m, cube, false);
            }
        }
    }

    /// Gammon and backgammon prices at a score (gnubg's getGammonPrice).
    fn price(&self, score: [i32; 2], length: i32, cube: i32, crawford: bool) -> [f32; 4] {
        let me = |pts, who| self.me(score, length, 0, pts, who, crawford);
        let (win, wg, wbg) = (me(cube, 0), me(2 * cube, 0), me(3 * cube, 0));
        let (lose, lg, lbg) = (me(cube, 1), me(2 * cube, 1), me(3 * cube, 1));
        let center = (win + lose) / 2.0;
        let mut p = [0.0f32; 4];
        if (win - center).abs() > 1.0e-7 {
            p[0] = (wg - center) / (win - center) - 1.0;
            p[1] = (center - lg) / (win - center) - 1.0;
            p[2] = (wbg - center) / (win - center) - (p[0] + 1.0);
            p[3] = (center - lbg) / (win - center) - (p[1] + 1.0);
        }
        p.map(|x| x.max(0.0))
    }

    /// The gammon prices a game is played with (gnubg's SetCubeInfoMatch):
    /// `[win gammon, lose gammon, win backgammon, lose backgammon]` for
    /// player 0.
    pub fn prices_at(&self, score: [u32; 2], length: u32, cube: u32, crawford: bool) -> [f32; 4] {
        let level = (cube.max(1).trailing_zeros() as usize).min(MAX_CUBE_LEVEL - 1);
        let a0 = (length - score[0] - 1) as usize;
        let a1 = (length - score[1] - 1) as usize;
        if (a0 == 0 || a1 == 0) && !crawford {
            if a0 == 0 {
                self.prices_post[level][a1][0]
            } else {
                self.prices_post[level][a0][1]
            }
        } else {
            self.prices[level * MAX_SCORE + a0][a1]
        }
    }

    /// Player `player`'s chance of winning the match at `score`, before a
    /// game (gnubg's getMEAtScore): the post-Crawford table once a player
    /// is one point away, except in the Crawford game itself.
    pub fn at_score(&self, score: [i32; 2], length: i32, player: usize, crawford: bool) -> f32 {
        let (n0, n1) = (length - score[0] - 1, length - score[1] - 1);
        self.chance(n0, n1, !crawford && (n0 == 0 || n1 == 0), player)
    }

    /// Player `player`'s chance of winning the match after `who` wins
    /// `points` points from `score` (gnubg's getME).
    pub fn me(
        &self,
        score: [i32; 2],
        length: i32,
        player: usize,
        points: i32,
        who: usize,
        crawford: bool,
    ) -> f32 {
        let n0 = length - (score[0] + if who == 0 { points } else { 0 }) - 1;
        let n1 = length - (score[1] + if who == 1 { points } else { 0 }) - 1;
        // The next game is post-Crawford when a player is 1-away now.
        let post = crawford || length - score[0] == 1 || length - score[1] == 1;
        self.chance(n0, n1, post, player)
    }

    /// Player `player`'s chance with player 0 `n0 + 1` and player 1
    /// `n1 + 1` away (a negative one has won), from the post-Crawford
    /// table when `post`.
    fn chance(&self, n0: i32, n1: i32, post: bool, player: usize) -> f32 {
        let for0 = if n0 < 0 {
            1.0
        } else if n1 < 0 {
            0.0
        } else if post {
            if n0 == 0 {
                1.0 - self.post[1][n1 as usize]
            } else {
                self.post[0][n0 as usize]
            }
        } else {
            self.pre[n0 as usize][n1 as usize]
        };
        if player == 0 {
            for0
        } else {
            1.0 - for0
        }
    }

    /// Player `k`'s chances after winning (`[0..5]`) or losing (`[5..10]`)
    /// 1, 2, 3, 4 or 6 times `cube` (gnubg's getMEMultiple, one cube value).
    pub fn results(
        &self,
        score: [u32; 2],
        length: u32,
        cube: u32,
        crawford: bool,
        k: usize,
    ) -> [f32; 10] {
        // The cube formulas ask for the same few rows again and again
        // (every evaluation of a game is at its score): a small cache per
        // thread, keyed by everything the row depends on.
        type Key = (u64, [u32; 2], u32, u32, bool, usize);
        type Slot = Option<(Key, [f32; 10])>;
        const SLOTS: usize = 64;
        thread_local! {
            static CACHE: std::cell::RefCell<[Slot; SLOTS]> =
                const { std::cell::RefCell::new([None; SLOTS]) };
        }
        let key: Key = (self.id, score, length, cube, crawford, k);
        let slot = (score[0] as usize * 31
            + score[1] as usize * 7
            + cube.trailing_zeros() as usize * 3
            + k)
            % SLOTS;
        let cached = CACHE.with(|c| c.borrow()[slot]);
        if let Some((_, row)) = cached.filter(|(k, _)| *k == key) {
            return row;
        }
        let row = self.compute_results(score, length, cube, crawford, k);
        CACHE.with(|c| c.borrow_mut()[slot] = Some((key, row)));
        row
    }

    fn compute_results(
        &self,
        score: [u32; 2],
        length: u32,
        cube: u32,
        crawford: bool,
        k: usize,
    ) -> [f32; 10] {
        const MULT: [i32; 5] = [1, 2, 3, 4, 6];
        let s = [score[0] as i32, score[1] as i32];
        let len = length as i32;
        // After the game the next one is post-Crawford when a player is
        // 1-away now.
        let post = crawford || len - s[0] == 1 || len - s[1] == 1;
        let mut out = [0.0; 10];
        for (i, m) in MULT.iter().enumerate() {
            out[i] = self.me(s, len, k, m * cube as i32, k, post);
            out[5 + i] = self.me(s, len, k, m * cube as i32, 1 - k, post);
        }
        out
    }
}

/// Zadeh's post-Crawford recursion from `from` on.
fn extend_post(row: &mut [f32; MAX_SCORE], from: usize) {
    const G: f32 = 0.25;
    for i in from..MAX_SCORE {
        let back4 = if i >= 4 { row[i - 4] } else { 1.0 };
        let back2 = if i >= 2 { row[i - 2] } else { 1.0 };
        row[i] = G * 0.5 * back4 + (1.0 - G) * 0.5 * back2;
        if i == 1 {
            row[i] -= 0.015;
        }
        if i == 3 {
            row[i] -= 0.004;
        }
    }
}

/// Area under a centred normal curve of deviation `sigma` between `lo` and
/// `hi`.
fn normal_area(lo: f32, hi: f32, sigma: f32) -> f32 {
    let phi = |x: f32| (erf(x / sigma / std::f32::consts::SQRT_2) + 1.0) / 2.0;
    phi(hi) - phi(lo)
}

/// The error function (Abramowitz and Stegun 7.1.26, error < 1.5e-7).
fn erf(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs() as f64);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-(x as f64) * x as f64).exp();
    (if x >= 0.0 { y } else { -y }) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_shipped_table() {
        let m = kazaross_xg2();
        assert_eq!(m.length, 25);
        assert!(m.name.contains("Kazaross"));
        // DMP is even; 2-away 1-away (Crawford) favours the leader.
        assert!((m.pre[0][0] - 0.5).abs() < 1e-6);
        assert!((m.pre[0][1] - 0.67736).abs() < 1e-6);
        // Post-Crawford: the trailer 2-away against 1-away (free drop).
        assert!((m.post[0][1] - 0.48803).abs() < 1e-6);
        // Symmetric completion.
        for i in 0..MAX_SCORE {
            for j in 0..MAX_SCORE {
                if i != j {
                    assert!((m.pre[i][j] + m.pre[j][i] - 1.0).abs() < 2e-5, "{i} {j}");
                }
            }
        }
    }

    #[test]
    fn lookups_after_a_game() {
        let m = kazaross_xg2();
        // 7-point match, 0-0: winning 7 points wins the match.
        assert_eq!(m.me([0, 0], 7, 0, 7, 0, false), 1.0);
        assert_eq!(m.me([0, 0], 7, 1, 7, 0, false), 0.0);
        // Winning 1 point at 0-0 leaves 6-away against 7-away.
        assert!((m.me([0, 0], 7, 0, 1, 0, false) - m.pre[5][6]).abs() < 1e-7);
        let r = m.results([0, 0], 7, 1, false, 0);
        assert!(r[0] > 0.5 && r[1] > r[0] && r[5] < 0.5 && r[6] < r[5]);
        // Gammon prices are positive at a normal score.
        let p = m.prices_at([0, 0], 7, 1, false);
        assert!(p.iter().all(|&x| x > 0.0), "{p:?}");
    }

    #[test]
    fn rejects_tables_it_cannot_read() {
        assert!(Met::from_xml("<met></met>").is_err());
        assert!(Met::from_xml(
            "<met><pre-crawford-table type=\"zadeh\"></pre-crawford-table></met>"
        )
        .is_err());
        let shipped = include_str!("../../../data/met/Kazaross-XG2.xml");
        let first = "<me>0.500000</me>";
        assert!(shipped.contains(first));
        for bad in ["nan", "inf", "1.7", "-0.3", ""] {
            let xml = shipped.replacen(first, &format!("<me>{bad}</me>"), 1);
            let Err(e) = Met::from_xml(&xml) else {
                panic!("a table with '{bad}' was read")
            };
            assert!(
                e.contains(&format!(
                    "'{bad}' is not a match equity (a number from 0 to 1)"
                )),
                "{e}"
            );
        }
    }
}
