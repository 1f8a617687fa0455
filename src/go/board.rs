//! The Go board: stones, chains, captures, suicide and simple ko.
//!
//! Chains are circular linked lists of stones with a pseudo-liberty count
//! (each stone–empty-neighbour adjacency counts once), the representation
//! fast engines use: placing a stone and finding captures costs a handful of
//! array updates, and a chain is captured when its count reaches zero.
//! The board knows no rules; [`crate::go::replay`] decides what is legal.

/// A player's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the index of per-colour arrays
    /// (`[black, white]`) throughout recount.
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// `B` or `W`, as SGF writes the move properties.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// +1 for Black, −1 for White: ownership (Black positive) times this
    /// is the colour's own share.
    pub fn sign(self) -> f32 {
        match self {
            Color::Black => 1.0,
            Color::White => -1.0,
        }
    }

    fn cell(self) -> u8 {
        match self {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// Largest side SGF coordinates can name (`a`–`z`, `A`–`Z`).
pub const MAX_SIDE: u8 = 52;

/// [`Board::empty_regions`]: the region touches Black stones.
pub const BORDER_BLACK: u8 = 1;
/// [`Board::empty_regions`]: the region touches White stones.
pub const BORDER_WHITE: u8 = 2;

/// Words of the bit masks [`Board::area`] counts with: a board of up to
/// 768 cells with its edge (19 × 19 is 441, 25 × 26 and 52 × 12 fit).
pub const AREA_WORDS: usize = 12;

/// Buffers for [`Board::empty_regions`], reusable across calls.
#[derive(Debug, Default)]
pub struct EmptyRegions {
    seen: Vec<bool>,
    stack: Vec<usize>,
    points: Vec<usize>,
}

/// A few liberties of a chain (see [`Board::liberties`]).
#[derive(Debug, Clone, Copy)]
pub struct Liberties {
    points: [usize; 4],
    len: usize,
}

impl Liberties {
    /// A chain's only liberty `l`.
    pub fn one(l: usize) -> Liberties {
        Liberties {
            points: [l, 0, 0, 0],
            len: 1,
        }
    }

    pub fn as_slice(&self) -> &[usize] {
        &self.points[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// How many of four points (a point's neighbours or its diagonals) are
/// empty, Black, White and off the board: read from one table by their
/// packed cells, with no branch on each point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Around([u8; 4]);

impl Around {
    pub fn empty(self) -> u8 {
        self.0[EMPTY as usize]
    }

    pub fn stones(self, color: Color) -> u8 {
        self.0[color.cell() as usize]
    }

    pub fn off_board(self) -> u8 {
        self.0[EDGE as usize]
    }
}

/// [`Around`] of every four cells packed two bits each.
static AROUND: [Around; 256] = {
    let mut table = [Around([0; 4]); 256];
    let mut code = 0;
    while code < 256 {
        let mut k = 0;
        while k < 4 {
            table[code].0[(code >> (2 * k)) & 3] += 1;
            k += 1;
        }
        code += 1;
    }
    table
};

/// What one play did to the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Played {
    /// Opponent stones removed.
    pub captured: u32,
    /// Own stones removed because the play left them without liberties.
    pub suicided: u32,
}

/// A chain's distinct liberties, as its liberty sums tell them.
enum Libs {
    None,
    One(usize),
    Several,
}

/// What a chain's head holds for the whole chain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ChainInfo {
    /// Stones in the chain.
    size: u16,
    /// Adjacencies of its stones to empty points (each counts once).
    pseudo_libs: u16,
    /// The sum of its pseudo-liberties' point indices and of their
    /// squares. All pseudo-liberties are one point exactly when sum² =
    /// count × squares (Cauchy–Schwarz), so atari and its liberty are
    /// known in O(1), without walking the chain.
    lib_sum: u64,
    lib_squares: u64,
}

impl ChainInfo {
    /// A new stone's chain before its liberties are added.
    fn lone_stone() -> ChainInfo {
        ChainInfo {
            size: 1,
            ..ChainInfo::default()
        }
    }
}

/// Whether a chain of `pseudo_libs` pseudo-liberties, `beside` of them
/// at one empty point (its stones next to it), has a liberty elsewhere.
/// Exact in O(1): the pseudo-liberty count sums the chain's adjacencies to
/// empty points, so it has another liberty exactly when the count exceeds
/// those at the point; a point is at most four of them, so more than four
/// need no count (the common case).
#[inline(always)]
fn liberty_elsewhere(pseudo_libs: u16, beside: impl FnOnce() -> u64) -> bool {
    pseudo_libs > 4 || u64::from(pseudo_libs) > beside()
}

/// A rectangular Go board of up to 52×52 points.
#[derive(Clone)]
pub struct Board {
    width: u8,
    height: u8,
    stride: usize,
    cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    /// Per chain head: the chain's size, pseudo-liberties and liberty
    /// sums ([`ChainInfo`]), one entry read for all four.
    chain: Vec<ChainInfo>,
    /// The point a simple-ko recapture would retake, and who may not play it.
    ko: Option<(u16, Color)>,
    /// Points emptied by the last play (captures and suicide).
    emptied: Vec<u16>,
    /// The entries [`Board::play_logged`] changed, as they were before,
    /// oldest first: [`Board::undo_to`] puts them back in reverse order.
    saved: Vec<Saved>,
    /// Per point: the logged play that last saved it ([`Board::log`]), so
    /// that a play saves each point once however often it changes it.
    /// Sized on the first logged play.
    saved_in: Vec<u32>,
    /// The number of the current logged play (0: none yet).
    play_number: u32,
}

/// One point's entries as they were before a logged play changed them.
#[derive(Debug, Clone, Copy)]
struct Saved {
    point: u16,
    cell: u8,
    head: u16,
    next: u16,
    chain: ChainInfo,
}

/// A position to go back to with [`Board::undo_to`]: how long the undo
/// log was, and the ko then.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    saved: usize,
    ko: Option<(u16, Color)>,
}

impl Board {
    /// An empty board. Sides must be 1..=[`MAX_SIDE`].
    pub fn new(width: u8, height: u8) -> Board {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        let stride = width as usize + 2;
        let n = stride * (height as usize + 2);
        let mut cells = vec![EDGE; n];
        for y in 0..height as usize {
            for x in 0..width as usize {
                cells[(y + 1) * stride + x + 1] = EMPTY;
            }
        }
        Board {
            width,
            height,
            stride,
            cells,
            head: vec![0; n],
            next: vec![0; n],
            chain: vec![ChainInfo::default(); n],
            ko: None,
            emptied: Vec::new(),
            saved: Vec::new(),
            saved_in: Vec::new(),
            play_number: 0,
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The point index of column `x`, row `y`. Indices address a padded
    /// array: use [`Board::points`] to walk the board and
    /// [`Board::on_board`] to test a neighbour.
    pub fn index(&self, x: u8, y: u8) -> usize {
        (y as usize + 1) * self.stride + x as usize + 1
    }

    /// Column and row of a point index.
    pub fn xy(&self, p: usize) -> (u8, u8) {
        ((p % self.stride - 1) as u8, (p / self.stride - 1) as u8)
    }

    /// Size of the padded index space (every index is below it).
    pub fn index_len(&self) -> usize {
        self.cells.len()
    }

    /// Every point of the board, row by row from the top left.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(|&p| self.cells[p] != EDGE)
    }

    /// A stone of every chain, each chain once, at its first stone in
    /// board order.
    pub fn chains(&self) -> impl Iterator<Item = usize> + '_ {
        let mut seen = vec![false; self.cells.len()];
        self.points().filter(move |&p| {
            self.cells[p] != EMPTY && !std::mem::replace(&mut seen[self.chain_id(p)], true)
        })
    }

    /// The distance between two rows in the index space.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The raw cell at `p`: 0 empty, 1 Black, 2 White, 3 off the board
    /// (the codes `go/patterns.rs` reads neighbourhoods in).
    pub fn cell_code(&self, p: usize) -> u8 {
        self.cells[p]
    }

    pub fn on_board(&self, p: usize) -> bool {
        self.cells[p] != EDGE
    }

    /// What the four neighbours of `p` hold ([`Around`]).
    #[inline]
    pub fn around(&self, p: usize) -> Around {
        self.around_of(self.neighbours(p))
    }

    /// What the four diagonal neighbours of `p` hold ([`Around`]).
    #[inline]
    pub fn diagonals_around(&self, p: usize) -> Around {
        let s = self.stride;
        self.around_of([p - s - 1, p - s + 1, p + s - 1, p + s + 1])
    }

    #[inline(always)]
    fn around_of(&self, points: [usize; 4]) -> Around {
        let [a, b, c, d] = points.map(|q| self.cells[q] as usize);
        AROUND[a | b << 2 | c << 4 | d << 6]
    }

    /// The four neighbours of a point (some may be off the board).
    pub fn neighbours(&self, p: usize) -> [usize; 4] {
        [p - 1, p + 1, p - self.stride, p + self.stride]
    }

    /// The stone on point `p`.
    pub fn at(&self, p: usize) -> Option<Color> {
        match self.cells[p] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// An id shared by all stones of a chain (valid while the board is
    /// unchanged).
    pub fn chain_id(&self, p: usize) -> usize {
        self.head[p] as usize
    }

    /// The stones of the chain through `p`.
    pub fn chain_stones(&self, p: usize) -> Vec<usize> {
        let mut v = vec![p];
        let mut s = self.next[p] as usize;
        while s != p {
            v.push(s);
            s = self.next[s] as usize;
        }
        v
    }

    /// Stones in the chain through `q`.
    pub fn chain_len(&self, q: usize) -> usize {
        self.chain[self.head[q] as usize].size as usize
    }

    /// Whether the chain through `q` surely has more than `k` liberties,
    /// told in O(1) from its pseudo-liberty count (one empty point counts
    /// at most four times): `false` means "maybe not", for a cheap filter
    /// before [`Board::liberties`].
    pub fn surely_more_liberties_than(&self, q: usize, k: usize) -> bool {
        self.chain[self.head[q] as usize].pseudo_libs as usize > 4 * k
    }

    /// Calls `f` with every stone of the chain through `q`, without
    /// allocating (for playouts).
    pub fn for_each_stone(&self, q: usize, mut f: impl FnMut(usize)) {
        let mut s = q;
        loop {
            f(s);
            s = self.next[s] as usize;
            if s == q {
                return;
            }
        }
    }

    /// Whether playing `color` on empty `p` is legal under rules that
    /// forbid suicide and with simple ko.
    pub fn is_legal(&self, color: Color, p: usize) -> bool {
        if self.cells[p] != EMPTY || self.ko == Some((p as u16, color)) {
            return false;
        }
        let own = color.cell();
        let ns = self.neighbours(p);
        let cells = ns.map(|n| self.cells[n]);
        // An empty neighbour is a liberty: the common case, checked first.
        if cells.contains(&EMPTY) {
            return true;
        }
        // The neighbours' cells and heads read once: a chain beside `p`
        // often holds two or three of them.
        let heads = ns.map(|n| self.head[n]);
        for (&c, &h) in cells.iter().zip(&heads) {
            if c == EDGE {
                continue;
            }
            // Joining an own chain that keeps another liberty, or taking
            // an opponent chain's last liberty (a capture); its stones
            // beside `p` counted from the cells and heads read.
            let other = liberty_elsewhere(self.chain[h as usize].pseudo_libs, || {
                cells
                    .iter()
                    .zip(&heads)
                    .filter(|&(&c2, &h2)| c2 == c && h2 == h)
                    .count() as u64
            });
            if (c == own) == other {
                return true;
            }
        }
        false
    }

    /// Whether the chain through `q` has a liberty other than the empty
    /// point `p` ([`liberty_elsewhere`]).
    fn has_other_liberty(&self, q: usize, p: usize) -> bool {
        let h = self.head[q] as usize;
        liberty_elsewhere(self.chain[h].pseudo_libs, || self.adjacencies(h, p))
    }

    /// How many neighbours of `p` are stones of the chain whose head is
    /// `h`: its pseudo-liberties at `p`, to take out of its sums.
    fn adjacencies(&self, h: usize, p: usize) -> u64 {
        // The head is a stone of the chain: a neighbour of its colour with
        // its head is one of its stones.
        let color = self.cells[h];
        self.neighbours(p)
            .iter()
            .map(|&n| u64::from(self.cells[n] == color && self.head[n] as usize == h))
            .sum()
    }

    /// The only liberty of the chain through `q` when it is in atari, in
    /// O(1) from its liberty sums.
    pub fn atari_liberty(&self, q: usize) -> Option<usize> {
        match self.liberties_without(self.head[q] as usize, 0, 0) {
            Libs::One(l) => Some(l),
            _ => None,
        }
    }

    /// The liberties of the chain through `q`, at most `limit` (≤ 4) of
    /// them; no allocation, for playouts.
    pub fn liberties(&self, q: usize, limit: usize) -> Liberties {
        let mut libs = Liberties {
            points: [0; 4],
            len: 0,
        };
        let limit = limit.min(4);
        let mut s = q;
        loop {
            for n in self.neighbours(s) {
                if self.cells[n] == EMPTY && !libs.as_slice().contains(&n) {
                    libs.points[libs.len] = n;
                    libs.len += 1;
                    if libs.len >= limit {
                        return libs;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == q {
                return libs;
            }
        }
    }

    /// Liberties the chain of a `color` stone played on empty `p` would
    /// have (up to 2), ignoring captures; 2 when the play captures.
    pub fn liberties_after(&self, color: Color, p: usize) -> usize {
        // Fast paths: two empty neighbours, or an own neighbour chain with
        // more than 8 pseudo-liberties (so at least 3 liberties, one of
        // which may be p).
        let ns = self.neighbours(p);
        if self.around(p).empty() >= 2
            || ns.iter().any(|&n| {
                self.cells[n] == color.cell() && self.chain[self.head[n] as usize].pseudo_libs > 8
            })
        {
            return 2;
        }
        // One liberty found so far (two end the search).
        let mut first: Option<usize> = None;
        let mut add = |l: usize| -> bool {
            match first {
                None => {
                    first = Some(l);
                    false
                }
                Some(f) => f != l,
            }
        };
        for n in self.neighbours(p) {
            match self.cells[n] {
                EMPTY => {
                    if add(n) {
                        return 2;
                    }
                }
                EDGE => {}
                c if c == color.cell() => {
                    // The chain's liberties other than p, from its sums.
                    let h = self.head[n] as usize;
                    match self.liberties_without(h, p, self.adjacencies(h, p)) {
                        Libs::None => {}
                        Libs::One(l) => {
                            if add(l) {
                                return 2;
                            }
                        }
                        Libs::Several => return 2,
                    }
                }
                _ => {
                    if !self.has_other_liberty(n, p) {
                        return 2;
                    }
                }
            }
        }
        usize::from(first.is_some())
    }

    /// Whether a `color` stone on empty `p` captures: a chain of the other
    /// colour beside `p` has no liberty but `p`.
    pub fn captures(&self, color: Color, p: usize) -> bool {
        self.neighbours(p)
            .into_iter()
            .any(|n| self.cells[n] == color.opponent().cell() && !self.has_other_liberty(n, p))
    }

    /// Whether a `color` stone on empty `p` captures a single stone and
    /// joins own stones into a chain whose only liberty is then the point
    /// it took: the opponent retakes there and captures the whole chain
    /// (a snapback, not a ko). A lone capturing stone is a ko, not this.
    pub fn captures_into_snapback(&self, color: Color, p: usize) -> bool {
        let ns = self.neighbours(p);
        if ns.iter().any(|&n| self.cells[n] == EMPTY) {
            return false;
        }
        let mut own = false;
        let mut captured: Option<usize> = None;
        for (i, &n) in ns.iter().enumerate() {
            if self.cells[n] == EDGE {
                continue;
            }
            let h = self.head[n] as usize;
            if ns[..i]
                .iter()
                .any(|&m| matches!(self.cells[m], BLACK | WHITE) && self.head[m] as usize == h)
            {
                continue;
            }
            match self.cells[n] {
                c if c == color.cell() => {
                    if !matches!(
                        self.liberties_without(h, p, self.adjacencies(h, p)),
                        Libs::None
                    ) {
                        return false;
                    }
                    own = true;
                }
                _ => {
                    if !self.has_other_liberty(n, p) {
                        if captured.is_some() || self.chain[h].size != 1 {
                            return false;
                        }
                        captured = Some(n);
                    }
                }
            }
        }
        own && captured.is_some()
    }

    /// Plays on a point index (see [`Board::play`]).
    pub fn play_at(&mut self, color: Color, p: usize) -> Played {
        self.play_at_as::<false>(color, p)
    }

    /// [`Board::play_at`], saving the entries it changes so that
    /// [`Board::undo_to`] can take it back: a reading tries many moves from
    /// one position, and undoing those few points costs far less than
    /// copying the whole board for each.
    pub fn play_logged(&mut self, color: Color, p: usize) -> Played {
        self.play_at_as::<true>(color, p)
    }

    /// The position now, to come back to with [`Board::undo_to`] after
    /// [`Board::play_logged`] plays and passes.
    pub fn mark(&self) -> Mark {
        Mark {
            saved: self.saved.len(),
            ko: self.ko,
        }
    }

    /// Takes back every [`Board::play_logged`] play since `mark` (marks
    /// nest: undo to the latest first).
    pub fn undo_to(&mut self, mark: Mark) {
        for e in self.saved.drain(mark.saved..).rev() {
            let i = e.point as usize;
            self.cells[i] = e.cell;
            self.head[i] = e.head;
            self.next[i] = e.next;
            self.chain[i] = e.chain;
        }
        self.ko = mark.ko;
        self.emptied.clear();
    }

    /// Whether every entry equals `other`'s (for the tests of
    /// [`Board::undo_to`]).
    #[cfg(test)]
    fn same_as(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.head == other.head
            && self.next == other.next
            && self.chain == other.chain
            && self.ko == other.ko
    }

    /// Saves point `p`'s entries before a change when `LOG` is set (a
    /// constant: the playouts' plays pay nothing). Every change to a
    /// point's entries comes after such a call.
    #[inline(always)]
    fn log<const LOG: bool>(&mut self, p: usize) {
        if LOG {
            // Only the entries as they were before this play are needed.
            if self.saved_in[p] == self.play_number {
                return;
            }
            self.saved_in[p] = self.play_number;
            self.saved.push(Saved {
                point: p as u16,
                cell: self.cells[p],
                head: self.head[p],
                next: self.next[p],
                chain: self.chain[p],
            });
        }
    }

    fn play_at_as<const LOG: bool>(&mut self, color: Color, p: usize) -> Played {
        debug_assert_eq!(self.cells[p], EMPTY);
        if LOG {
            self.next_logged_play();
        }
        self.ko = None;
        self.emptied.clear();
        self.add_stone::<LOG>(p, color.cell());
        let mut played = Played::default();
        let mut last_captured = 0;
        for n in self.neighbours(p) {
            if self.cells[n] == color.opponent().cell()
                && self.chain[self.head[n] as usize].pseudo_libs == 0
            {
                last_captured = n;
                played.captured += self.remove_chain::<LOG>(n);
            }
        }
        let h = self.head[p] as usize;
        if self.chain[h].pseudo_libs == 0 {
            played.suicided = self.remove_chain::<LOG>(p);
        } else if played.captured == 1 && self.chain[h].size == 1 && self.chain[h].pseudo_libs == 1
        {
            self.ko = Some((last_captured as u16, color.opponent()));
        }
        played
    }

    /// Numbers a new logged play for [`Board::log`].
    fn next_logged_play(&mut self) {
        if self.saved_in.len() != self.cells.len() || self.play_number == u32::MAX {
            self.saved_in.clear();
            self.saved_in.resize(self.cells.len(), 0);
            self.play_number = 0;
        }
        self.play_number += 1;
    }

    /// The stone at column `x`, row `y` (0-based from the top left, as SGF
    /// counts), if any.
    pub fn get(&self, x: u8, y: u8) -> Option<Color> {
        match self.cells[self.index(x, y)] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The point a simple-ko recapture may not retake now, if any.
    pub fn ko_point(&self) -> Option<usize> {
        self.ko.map(|(p, _)| p as usize)
    }

    /// Whether playing `color` at (`x`, `y`) would retake a ko at once.
    pub fn is_ko_recapture(&self, color: Color, x: u8, y: u8) -> bool {
        self.ko == Some((self.index(x, y) as u16, color))
    }

    /// Plays a stone on an empty point: removes opponent chains left without
    /// liberties, then the player's own chain if it has none (suicide).
    /// The caller checks that the point is empty.
    pub fn play(&mut self, color: Color, x: u8, y: u8) -> Played {
        self.play_at(color, self.index(x, y))
    }

    /// Points the last [`Board::play`] emptied (captured or suicided
    /// stones).
    pub fn emptied(&self) -> impl Iterator<Item = usize> + '_ {
        self.emptied.iter().map(|&p| p as usize)
    }

    /// Makes this board a copy of `other` (same size), reusing its memory:
    /// playouts restart from one position many times.
    pub fn copy_from(&mut self, other: &Board) {
        debug_assert_eq!(self.cells.len(), other.cells.len());
        self.cells.copy_from_slice(&other.cells);
        self.head.copy_from_slice(&other.head);
        self.next.copy_from_slice(&other.next);
        self.chain.copy_from_slice(&other.chain);
        self.ko = other.ko;
        self.emptied.clear();
        self.saved.clear();
    }

    /// A pass: only clears the ko ban.
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Setup (`AB`/`AW`/`AE`): puts or removes a stone without captures.
    /// Call [`Board::finish_setup`] after a node's setup is done.
    pub fn set(&mut self, x: u8, y: u8, stone: Option<Color>) {
        let p = self.index(x, y);
        self.cells[p] = stone.map_or(EMPTY, Color::cell);
    }

    /// Rebuilds the chains after setup changes and clears the ko ban.
    pub fn finish_setup(&mut self) {
        self.ko = None;
        let n = self.cells.len();
        for p in 0..n {
            if matches!(self.cells[p], BLACK | WHITE) {
                self.head[p] = p as u16;
                self.next[p] = p as u16;
                self.chain[p] = ChainInfo::lone_stone();
                for q in self.neighbours(p) {
                    if self.cells[q] == EMPTY {
                        self.add_liberty::<false>(p, q);
                    }
                }
            }
        }
        for p in 0..n {
            let c = self.cells[p];
            if matches!(c, BLACK | WHITE) {
                for q in [p + 1, p + self.stride] {
                    if q < n && self.cells[q] == c && self.head[q] != self.head[p] {
                        self.merge::<false>(self.head[p] as usize, self.head[q] as usize);
                    }
                }
            }
        }
    }

    fn add_stone<const LOG: bool>(&mut self, p: usize, cell: u8) {
        self.log::<LOG>(p);
        self.cells[p] = cell;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.chain[p] = ChainInfo::lone_stone();
        for n in self.neighbours(p) {
            match self.cells[n] {
                EMPTY => self.add_liberty::<LOG>(p, n),
                BLACK | WHITE => {
                    let h = self.head[n] as usize;
                    self.log::<LOG>(h);
                    self.chain[h].pseudo_libs -= 1;
                    self.chain[h].lib_sum -= p as u64;
                    self.chain[h].lib_squares -= (p * p) as u64;
                }
                _ => {}
            }
        }
        for n in self.neighbours(p) {
            if self.cells[n] == cell && self.head[n] != self.head[p] {
                self.merge::<LOG>(self.head[p] as usize, self.head[n] as usize);
            }
        }
    }

    /// Counts empty point `l` as one more pseudo-liberty of the chain whose
    /// head is `h`.
    fn add_liberty<const LOG: bool>(&mut self, h: usize, l: usize) {
        self.log::<LOG>(h);
        self.chain[h].pseudo_libs += 1;
        self.chain[h].lib_sum += l as u64;
        self.chain[h].lib_squares += (l * l) as u64;
    }

    /// The liberties of a chain (by head) once its `k` pseudo-liberties at
    /// point `p` are left out (`k` = 0: all of them), from its sums.
    fn liberties_without(&self, h: usize, p: usize, k: u64) -> Libs {
        let c = self.chain[h];
        let count = c.pseudo_libs as u64 - k;
        if count == 0 {
            return Libs::None;
        }
        let sum = c.lib_sum - k * p as u64;
        let squares = c.lib_squares - k * (p * p) as u64;
        if sum * sum == count * squares {
            Libs::One((sum / count) as usize)
        } else {
            Libs::Several
        }
    }

    /// Joins two chains (given by their heads); the larger keeps its head.
    fn merge<const LOG: bool>(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chain[a].size >= self.chain[b].size {
            (a, b)
        } else {
            (b, a)
        };
        self.log::<LOG>(big);
        let mut s = small;
        loop {
            self.log::<LOG>(s);
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.chain[big].size += self.chain[small].size;
        self.chain[big].pseudo_libs += self.chain[small].pseudo_libs;
        self.chain[big].lib_sum += self.chain[small].lib_sum;
        self.chain[big].lib_squares += self.chain[small].lib_squares;
    }

    /// Removes the chain containing `p`; returns its number of stones.
    fn remove_chain<const LOG: bool>(&mut self, p: usize) -> u32 {
        let mut count = 0;
        let mut s = p;
        loop {
            self.log::<LOG>(s);
            self.cells[s] = EMPTY;
            self.emptied.push(s as u16);
            count += 1;
            s = self.next[s] as usize;
            if s == p {
                break;
            }
        }
        loop {
            for n in self.neighbours(s) {
                if matches!(self.cells[n], BLACK | WHITE) {
                    self.add_liberty::<LOG>(self.head[n] as usize, s);
                }
            }
            s = self.next[s] as usize;
            if s == p {
                break;
            }
        }
        count
    }

    /// Stones of each colour: (black, white).
    pub fn stone_counts(&self) -> (u32, u32) {
        let b = self.cells.iter().filter(|&&c| c == BLACK).count() as u32;
        let w = self.cells.iter().filter(|&&c| c == WHITE).count() as u32;
        (b, w)
    }

    /// Tromp–Taylor area: each side's stones plus the empty points that reach
    /// only that side's stones. No stone is taken off as dead.
    pub fn area(&self) -> (u32, u32) {
        let count = |m: &[u64; AREA_WORDS]| m.iter().map(|w| w.count_ones()).sum();
        match self.area_masks() {
            Some([black, white]) => (count(&black), count(&white)),
            None => self.area_by_regions(),
        }
    }

    /// [`Board::area`] region by region ([`Board::empty_regions`]).
    fn area_by_regions(&self) -> (u32, u32) {
        let (mut black, mut white) = self.stone_counts();
        self.empty_regions(
            &mut EmptyRegions::default(),
            |points, border| match border {
                BORDER_BLACK => black += points.len() as u32,
                BORDER_WHITE => white += points.len() as u32,
                _ => {}
            },
        );
        (black, white)
    }

    /// Each side's area as bit masks (bit p: point p), Black's then
    /// White's: its stones and the empty points that reach only its
    /// stones (Tromp–Taylor), for a board whose cells fit [`AREA_WORDS`]
    /// (`None` for a larger one). The empty points each colour reaches are
    /// grown from its stones through empty points until they stop growing
    /// (as many steps as the longest way through an empty region): several
    /// times faster than region by region.
    pub fn area_masks(&self) -> Option<[[u64; AREA_WORDS]; 2]> {
        if self.cells.len() > 64 * AREA_WORDS {
            return None;
        }
        let mut masks = [[0u64; AREA_WORDS]; 3];
        for (p, &c) in self.cells.iter().enumerate() {
            if c != EDGE {
                masks[c as usize][p / 64] |= 1 << (p % 64);
            }
        }
        let [empty, black, white] = masks;
        let reach = |stones: &[u64; AREA_WORDS]| {
            let mut r = [0u64; AREA_WORDS];
            let mut from = *stones;
            loop {
                let grown = self.grown(&from);
                let mut changed = false;
                for i in 0..AREA_WORDS {
                    let next = r[i] | (grown[i] & empty[i]);
                    changed |= next != r[i];
                    r[i] = next;
                }
                if !changed {
                    return r;
                }
                from = r;
            }
        };
        let (to_black, to_white) = (reach(&black), reach(&white));
        Some([
            std::array::from_fn(|i| black[i] | (to_black[i] & !to_white[i])),
            std::array::from_fn(|i| white[i] | (to_white[i] & !to_black[i])),
        ])
    }

    /// The points beside those of `m` (bit p: cell p); the edge's cells
    /// stand between the rows, so no step wraps from one row to the next
    /// onto a point.
    fn grown(&self, m: &[u64; AREA_WORDS]) -> [u64; AREA_WORDS] {
        let up = |k: usize| -> [u64; AREA_WORDS] {
            std::array::from_fn(|i| {
                let carry = if i > 0 { m[i - 1] >> (64 - k) } else { 0 };
                (m[i] << k) | carry
            })
        };
        let down = |k: usize| -> [u64; AREA_WORDS] {
            std::array::from_fn(|i| {
                let carry = if i + 1 < AREA_WORDS {
                    m[i + 1] << (64 - k)
                } else {
                    0
                };
                (m[i] >> k) | carry
            })
        };
        let (a, b, c, d) = (up(1), down(1), up(self.stride), down(self.stride));
        std::array::from_fn(|i| a[i] | b[i] | c[i] | d[i])
    }

    /// Calls `f` for every connected region of empty points with the
    /// region's points and the colours that border it ([`BORDER_BLACK`],
    /// [`BORDER_WHITE`], both or none). `scratch` is reused between calls.
    pub fn empty_regions(&self, scratch: &mut EmptyRegions, mut f: impl FnMut(&[usize], u8)) {
        let EmptyRegions {
            seen,
            stack,
            points,
        } = scratch;
        seen.clear();
        seen.resize(self.cells.len(), false);
        for p in 0..self.cells.len() {
            if self.cells[p] != EMPTY || seen[p] {
                continue;
            }
            points.clear();
            let mut border = 0u8;
            seen[p] = true;
            stack.push(p);
            while let Some(q) = stack.pop() {
                points.push(q);
                for n in self.neighbours(q) {
                    match self.cells[n] {
                        EMPTY if !seen[n] => {
                            seen[n] = true;
                            stack.push(n);
                        }
                        BLACK => border |= BORDER_BLACK,
                        WHITE => border |= BORDER_WHITE,
                        _ => {}
                    }
                }
            }
            f(points, border);
        }
    }

    /// The position in one line: rows from the top (SGF row `a`) joined by
    /// `/`; in a row `X` is Black, `O` White and a number a run of empty
    /// points. An empty 3×2 board is `3/3`.
    pub fn encode(&self) -> String {
        // A run is at most 52 points: two digits, pushed without the
        // formatting machinery (every game row writes its position).
        fn push_run(s: &mut String, run: u8) {
            if run >= 10 {
                s.push(char::from(b'0' + run / 10));
            }
            s.push(char::from(b'0' + run % 10));
        }
        let mut s = String::with_capacity(self.height as usize * 12);
        for y in 0..self.height {
            if y > 0 {
                s.push('/');
            }
            let row = self.index(0, y);
            let mut run = 0u8;
            for &cell in &self.cells[row..row + self.width as usize] {
                match cell {
                    BLACK | WHITE => {
                        if run > 0 {
                            push_run(&mut s, run);
                            run = 0;
                        }
                        s.push(if cell == BLACK { 'X' } else { 'O' });
                    }
                    _ => run += 1,
                }
            }
            if run > 0 {
                push_run(&mut s, run);
            }
        }
        s
    }

    /// Reads a diagram of `X`, `O` and `.` rows (as tests and the seeds draw
    /// boards); whitespace between points is ignored.
    pub fn from_diagram(rows: &str) -> Board {
        let lines: Vec<Vec<u8>> = rows
            .lines()
            .map(|l| {
                l.bytes()
                    .filter(|b| !b.is_ascii_whitespace())
                    .collect::<Vec<u8>>()
            })
            .filter(|l| !l.is_empty())
            .collect();
        let mut b = Board::new(lines[0].len() as u8, lines.len() as u8);
        for (y, line) in lines.iter().enumerate() {
            for (x, &c) in line.iter().enumerate() {
                let stone = match c {
                    b'X' => Some(Color::Black),
                    b'O' => Some(Color::White),
                    _ => None,
                };
                b.set(x as u8, y as u8, stone);
            }
        }
        b.finish_setup();
        b
    }
}

/// Random positions for tests of the code that reads them.
#[cfg(test)]
pub(crate) mod random {
    use super::{Board, Color};

    /// A small deterministic generator (xorshift), so failures reproduce.
    pub struct Rng(pub u64);

    impl Rng {
        /// A number below `n`.
        pub fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A board of 3 to `2 + sides` points a side with stones anywhere
    /// (chains without liberties included, as setup allows), from 1 in 10
    /// to 9 in 10 of the points, half of them black.
    pub fn board(rng: &mut Rng, sides: u64) -> Board {
        let (w, h) = (3 + rng.below(sides) as u8, 3 + rng.below(sides) as u8);
        let mut b = Board::new(w, h);
        let fill = 1 + rng.below(9);
        for y in 0..h {
            for x in 0..w {
                let stone = match rng.below(10) {
                    k if k < fill / 2 => Some(Color::Black),
                    k if k < fill => Some(Color::White),
                    _ => None,
                };
                b.set(x, y, stone);
            }
        }
        b.finish_setup();
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs of empty points of one and two digits, up to the widest board.
    #[test]
    fn encode_counts_long_runs() {
        let mut b = Board::new(MAX_SIDE, 3);
        b.set(9, 0, Some(Color::Black));
        b.set(0, 1, Some(Color::White));
        b.finish_setup();
        assert_eq!(b.encode(), "9X42/O51/52");
    }

    #[test]
    fn around_counts_neighbours_and_diagonals() {
        let b = Board::from_diagram(
            ". X O .
             X . O .
             . X . .",
        );
        let centre = b.around(b.index(1, 1));
        assert_eq!(
            (
                centre.empty(),
                centre.stones(Color::Black),
                centre.stones(Color::White),
                centre.off_board()
            ),
            (0, 3, 1, 0)
        );
        let corner = b.around(b.index(0, 0));
        assert_eq!((corner.stones(Color::Black), corner.off_board()), (2, 2));
        let diagonals = b.diagonals_around(b.index(1, 1));
        assert_eq!((diagonals.empty(), diagonals.stones(Color::White)), (3, 1));
        let edge = b.diagonals_around(b.index(1, 0));
        assert_eq!(
            (
                edge.off_board(),
                edge.stones(Color::Black),
                edge.stones(Color::White)
            ),
            (2, 1, 1)
        );
    }

    #[test]
    fn captures_a_group_on_the_edge() {
        let mut b = Board::from_diagram(
            ". X O .
             X O . .
             . X . .",
        );
        assert_eq!(
            b.play(Color::Black, 2, 1),
            Played {
                captured: 1,
                suicided: 0
            }
        );
        assert_eq!(b.encode(), "1XO1/X1X1/1X2");
        assert_eq!(
            b.play(Color::Black, 3, 0),
            Played {
                captured: 1,
                suicided: 0
            }
        );
        assert_eq!(b.encode(), "1X1X/X1X1/1X2");
    }

    #[test]
    fn simple_ko_is_flagged_for_one_move() {
        let mut b = Board::from_diagram(
            ". X O .
             X . X O
             . X O .",
        );
        assert_eq!(b.play(Color::White, 1, 1).captured, 1);
        assert!(b.is_ko_recapture(Color::Black, 2, 1));
        assert!(!b.is_ko_recapture(Color::White, 2, 1));
        b.pass();
        assert!(!b.is_ko_recapture(Color::Black, 2, 1));
    }

    #[test]
    fn snapback_is_not_ko() {
        // Black captures two stones; the recapture point is not a ko.
        let mut b = Board::from_diagram(
            ". O X .
             . O X .
             O X . .
             X . . .",
        );
        assert_eq!(b.play(Color::Black, 0, 0).captured, 0);
        assert_eq!(b.play(Color::White, 0, 1).captured, 1);
        assert!(!b.is_ko_recapture(Color::Black, 0, 0));
    }

    #[test]
    fn suicide_removes_the_whole_chain() {
        let mut b = Board::from_diagram(
            ". X O
             X X O
             O O O",
        );
        assert_eq!(
            b.play(Color::Black, 0, 0),
            Played {
                captured: 0,
                suicided: 4
            }
        );
        assert_eq!(b.encode(), "2O/2O/OOO");
    }

    /// `captures_into_snapback` answers as playing the move does: it
    /// captures one stone, the new chain has two stones or more and one
    /// liberty left. Random boards hold such moves (the test counts them).
    #[test]
    fn snapback_captures_agree_with_playing_them() {
        let mut rng = super::random::Rng(0x2545_f491_4f6c_dd1d);
        let mut found = 0;
        for _ in 0..200 {
            let mut b = super::random::board(&mut rng, 9);
            for step in 0..40 {
                let empty: Vec<usize> = b.points().filter(|&p| b.at(p).is_none()).collect();
                if empty.is_empty() {
                    break;
                }
                for &p in &empty {
                    for color in [Color::Black, Color::White] {
                        if !b.is_legal(color, p) {
                            continue;
                        }
                        let mut after = b.clone();
                        let played = after.play_at(color, p);
                        let want = played.captured == 1
                            && after.chain_len(p) >= 2
                            && after.liberties(p, 2).len() == 1;
                        found += usize::from(want);
                        assert_eq!(b.captures_into_snapback(color, p), want, "{}", b.encode());
                    }
                }
                let p = empty[rng.below(empty.len() as u64) as usize];
                let color = [Color::Black, Color::White][step % 2];
                if b.is_legal(color, p) {
                    b.play_at(color, p);
                }
            }
        }
        assert!(found > 10, "only {found} snapback captures met");
    }

    /// Undoing to a mark takes back every logged play since: all entries
    /// equal again, and marks nest as a reading's lines do.
    #[test]
    fn undoing_takes_back_logged_plays_and_passes() {
        // Random boards, then two stretches of up to eight plays on any
        // empty point (so captures, merges and suicides), each side in
        // turn, and a pass: undone to the mark between them, then to the
        // first.
        let mut rng = super::random::Rng(0x2545_f491_4f6c_dd1d);
        let mut captures = 0;
        let mut play_some = |b: &mut Board, rng: &mut super::random::Rng| {
            for step in 0..1 + rng.below(8) {
                let empty: Vec<usize> = b.points().filter(|&p| b.at(p).is_none()).collect();
                if empty.is_empty() {
                    break;
                }
                let p = empty[rng.below(empty.len() as u64) as usize];
                let color = [Color::Black, Color::White][step as usize % 2];
                let played = b.play_logged(color, p);
                captures += played.captured + played.suicided;
            }
            b.pass();
        };
        for round in 0..300 {
            let base = super::random::board(&mut rng, 8);
            let mut b = base.clone();
            let first = b.mark();
            play_some(&mut b, &mut rng);
            let between = b.clone();
            let second = b.mark();
            play_some(&mut b, &mut rng);
            b.undo_to(second);
            assert!(b.same_as(&between), "round {round}, inner mark");
            b.undo_to(first);
            assert!(b.same_as(&base), "round {round}, outer mark");
            assert_eq!(b.emptied().count(), 0);
        }
        assert!(captures > 100, "the plays should capture: {captures}");
    }

    #[test]
    fn undoing_one_play_at_a_time_restores_every_position() {
        // A reading marks before each play and undoes to it: each play
        // must save what it changes as it was before that play, not only
        // before the first play since a mark further back.
        let mut rng = super::random::Rng(0x9e37_79b9_7f4a_7c15);
        let mut captures = 0;
        for round in 0..200 {
            let mut b = super::random::board(&mut rng, 7);
            let mut line = Vec::new();
            for step in 0..12 {
                let empty: Vec<usize> = b.points().filter(|&p| b.at(p).is_none()).collect();
                if empty.is_empty() {
                    break;
                }
                let p = empty[rng.below(empty.len() as u64) as usize];
                line.push((b.mark(), b.clone()));
                let played = b.play_logged([Color::Black, Color::White][step % 2], p);
                captures += played.captured + played.suicided;
            }
            for (k, (mark, before)) in line.into_iter().enumerate().rev() {
                b.undo_to(mark);
                assert!(b.same_as(&before), "round {round}, play {k}");
            }
        }
        assert!(captures > 100, "the plays should capture: {captures}");
    }

    /// The liberty sums answer as walking the chain does, after setup and
    /// after plays that merge and capture chains.
    #[test]
    fn liberty_sums_agree_with_walking_the_chains() {
        let mut rng = super::random::Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..200 {
            let mut b = super::random::board(&mut rng, 10);
            for step in 0..30 {
                for q in b.chains() {
                    let libs = b.liberties(q, 2);
                    let walked = (libs.len() == 1).then(|| libs.as_slice()[0]);
                    assert_eq!(b.atari_liberty(q), walked, "round {round} step {step}");
                }
                let empty: Vec<usize> = b.points().filter(|&p| b.at(p).is_none()).collect();
                if empty.is_empty() {
                    break;
                }
                for &p in &empty {
                    for color in [Color::Black, Color::White] {
                        // By hand: the new chain's liberties other than p
                        // (1 + own chains beside p), up to 2.
                        let mut libs: Vec<usize> = Vec::new();
                        let mut captures = false;
                        for n in b.neighbours(p) {
                            match b.at(n) {
                                None if b.on_board(n) => libs.push(n),
                                Some(c) if c == color => libs.extend(
                                    b.liberties(n, 4).as_slice().iter().filter(|&&l| l != p),
                                ),
                                Some(_) => captures |= b.liberties(n, 2).as_slice() == [p],
                                None => {}
                            }
                        }
                        libs.sort_unstable();
                        libs.dedup();
                        let want = if captures { 2 } else { libs.len().min(2) };
                        assert_eq!(
                            b.liberties_after(color, p),
                            want,
                            "round {round} step {step} at {p}"
                        );
                    }
                }
                let p = empty[rng.below(empty.len() as u64) as usize];
                let color = if step % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if b.is_legal(color, p) {
                    b.play_at(color, p);
                }
            }
        }
    }

    #[test]
    fn merged_chain_is_captured_whole() {
        let mut b = Board::from_diagram(
            ". . . .
             X O O X
             . X X .",
        );
        b.play(Color::White, 1, 0);
        b.play(Color::White, 2, 0);
        assert_eq!(b.play(Color::Black, 0, 0).captured, 0);
        assert_eq!(b.play(Color::Black, 3, 0).captured, 4);
        assert_eq!(b.stone_counts(), (6, 0));
    }

    #[test]
    fn tromp_taylor_area() {
        let b = Board::from_diagram(
            ". X O .
             . X O .
             . X O .",
        );
        assert_eq!(b.area(), (6, 6));
        let b = Board::from_diagram(". X . O");
        assert_eq!(b.area(), (2, 1));
    }

    #[test]
    fn the_area_masks_are_the_flood_fills() {
        let mut rng = crate::rng::Rng(0x2545_f491_4f6c_dd1d);
        // Every shape of board the masks hold, their corners and edges,
        // from nearly empty (long ways through one region) to nearly full.
        for (w, h) in [
            (1, 1),
            (2, 1),
            (1, 7),
            (9, 9),
            (13, 19),
            (19, 19),
            (25, 25),
            (25, 26),
            (52, 2),
            (2, 52),
        ] {
            for density in [1, 5, 20, 50, 90] {
                let mut b = Board::new(w, h);
                for y in 0..h {
                    for x in 0..w {
                        if rng.below(100) < density {
                            let c = [Color::Black, Color::White][rng.below(2)];
                            b.set(x, y, Some(c));
                        }
                    }
                }
                b.finish_setup();
                // Point by point: the stones, and the empty regions one
                // colour alone borders.
                let mut want = [[0u64; AREA_WORDS]; 2];
                let mut put = |side: usize, p: usize| want[side][p / 64] |= 1 << (p % 64);
                for p in b.points() {
                    if let Some(c) = b.at(p) {
                        put(c.index(), p);
                    }
                }
                b.empty_regions(&mut EmptyRegions::default(), |points, border| {
                    let side = match border {
                        BORDER_BLACK => 0,
                        BORDER_WHITE => 1,
                        _ => return,
                    };
                    for &p in points {
                        put(side, p);
                    }
                });
                assert_eq!(b.area_masks(), Some(want), "{w}x{h} at {density}%");
                assert_eq!(b.area(), b.area_by_regions(), "{w}x{h} at {density}%");
            }
        }
        // Past the masks the flood fill counts.
        let mut b = Board::new(MAX_SIDE, MAX_SIDE);
        b.set(3, 3, Some(Color::White));
        b.finish_setup();
        assert_eq!(b.area_masks(), None);
        assert_eq!(b.area(), (0, 52 * 52));
    }
}
