//! An independent, deliberately plain MAD rule checker for cross-checking the fast generator.
//!
//! It shares no code with the crate: its own board (a 6 x 4 grid of `(colour, [sails, cannons,
//! shields])`), its own reader of the position text, and its own reading of the rules text
//! (rules/mad.md sections 4 to 8). It does not generate moves: it enumerates every syntactically
//! possible action (all from/to cell pairs with `-` and `x`, the 4 permutations, the 4 rotations,
//! every movement followed by `+` and any of those 8 shifts, and `pass`) and keeps those its
//! checker accepts.
#![allow(dead_code)]

/// A ship: colour `'R'` or `'B'` and its digits sails, cannons, shields.
type Ship = (char, [u8; 3]);

/// A cell as (row 0..6, column 0..4).
type Cell = (usize, usize);

/// An action candidate, before any legality check.
#[derive(Clone, Copy, Debug)]
pub enum Cand {
    /// from, to, capture mark (`x`).
    Move(Cell, Cell, bool),
    /// Two codes of a pair, smaller first.
    Perm([u8; 3], [u8; 3]),
    /// x takes y's place, y takes z's, z takes x's.
    Rot([u8; 3], [u8; 3], [u8; 3]),
    /// A movement then a shift (a `Perm` or `Rot`).
    Bonus(Cell, Cell, bool, usize),
    /// Pass.
    Pass,
}

fn code(s: &str) -> [u8; 3] {
    let b = s.as_bytes();
    [b[0] - b'0', b[1] - b'0', b[2] - b'0']
}

fn shifts() -> Vec<Cand> {
    vec![
        Cand::Perm(code("111"), code("222")),
        Cand::Perm(code("112"), code("221")),
        Cand::Perm(code("121"), code("212")),
        Cand::Perm(code("122"), code("211")),
        Cand::Rot(code("112"), code("121"), code("211")),
        Cand::Rot(code("112"), code("211"), code("121")),
        Cand::Rot(code("122"), code("212"), code("221")),
        Cand::Rot(code("122"), code("221"), code("212")),
    ]
}

/// Every syntactically possible action text, as candidates.
pub fn candidates() -> Vec<Cand> {
    let cells: Vec<Cell> = (0..6).flat_map(|r| (0..4).map(move |c| (r, c))).collect();
    let mut out = Vec::new();
    for &from in &cells {
        for &to in &cells {
            for mark in [false, true] {
                out.push(Cand::Move(from, to, mark));
                for shift in 0..8 {
                    out.push(Cand::Bonus(from, to, mark, shift));
                }
            }
        }
    }
    out.extend(shifts());
    out.push(Cand::Pass);
    out
}

/// A MAD position in the plainest form.
#[derive(Clone, PartialEq, Debug)]
pub struct Board {
    grid: [[Option<Ship>; 4]; 6],
    red_to_move: bool,
    ply: u32,
    since: u32,
    last: char,
    limit: u32,
    positioning_rule: bool,
    over: bool,
}

impl Board {
    /// Reads a well-formed position text (this checker trusts its input).
    pub fn read(text: &str, positioning_rule: bool) -> Board {
        let f: Vec<&str> = text.split(' ').collect();
        let mut grid = [[None; 4]; 6];
        for (i, row) in f[0].split('/').enumerate() {
            let r = 5 - i;
            let mut c = 0;
            let chars: Vec<char> = row.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                if chars[k] == 'R' || chars[k] == 'B' {
                    let digits: String = chars[k + 1..k + 4].iter().collect();
                    grid[r][c] = Some((chars[k], code(&digits)));
                    c += 1;
                    k += 4;
                } else {
                    c += chars[k].to_digit(10).unwrap() as usize;
                    k += 1;
                }
            }
        }
        Board {
            grid,
            red_to_move: f[1] == "r",
            ply: f[2].parse().unwrap(),
            since: f[3].parse().unwrap(),
            last: f[4].chars().next().unwrap(),
            limit: 40,
            positioning_rule,
            over: false,
        }
    }

    /// The position text, written by this module's own code.
    pub fn write(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..6).rev() {
            let mut s = String::new();
            let mut gap = 0;
            for c in 0..4 {
                match self.grid[r][c] {
                    None => gap += 1,
                    Some((colour, d)) => {
                        if gap > 0 {
                            s += &gap.to_string();
                        }
                        gap = 0;
                        s += &format!("{colour}{}{}{}", d[0], d[1], d[2]);
                    }
                }
            }
            if gap > 0 {
                s += &gap.to_string();
            }
            rows.push(s);
        }
        format!(
            "{} {} {} {} {}",
            rows.join("/"),
            if self.red_to_move { "r" } else { "b" },
            self.ply,
            self.since,
            self.last
        )
    }

    fn me(&self) -> char {
        if self.red_to_move { 'R' } else { 'B' }
    }

    fn find(&self, colour: char, d: [u8; 3]) -> Option<Cell> {
        for r in 0..6 {
            for c in 0..4 {
                if self.grid[r][c] == Some((colour, d)) {
                    return Some((r, c));
                }
            }
        }
        None
    }

    fn positioning_now(&self) -> bool {
        self.positioning_rule && self.ply < 2
    }

    /// Section 5.1, read literally: an own ship, 1 or 2 orthogonal steps within its sails, a 2-step
    /// path through at least one empty middle cell that is not a U-turn, a destination that is
    /// empty (mark `-`) or an enemy with shields <= the mover's cannons (mark `x`).
    fn movement_ok(&self, from: Cell, to: Cell, mark: bool) -> bool {
        let Some((colour, d)) = self.grid[from.0][from.1] else {
            return false;
        };
        if colour != self.me() || from == to {
            return false;
        }
        let dist = from.0.abs_diff(to.0) + from.1.abs_diff(to.1);
        if dist > d[0] as usize {
            return false;
        }
        if dist == 2 {
            // Some orthogonal neighbour of `from` that is also a neighbour of `to` must be empty.
            let mut path = false;
            for m in [
                (from.0 + 1, from.1),
                (from.0.wrapping_sub(1), from.1),
                (from.0, from.1 + 1),
                (from.0, from.1.wrapping_sub(1)),
            ] {
                if m.0 < 6
                    && m.1 < 4
                    && m.0.abs_diff(to.0) + m.1.abs_diff(to.1) == 1
                    && self.grid[m.0][m.1].is_none()
                {
                    path = true;
                }
            }
            if !path {
                return false;
            }
        }
        match self.grid[to.0][to.1] {
            None => !mark,
            Some((c2, d2)) => c2 != colour && d[1] >= d2[2] && mark,
        }
    }

    fn shift_ok(&self, shift: &Cand) -> bool {
        let me = self.me();
        match *shift {
            Cand::Perm(a, b) => self.find(me, a).is_some() || self.find(me, b).is_some(),
            Cand::Rot(x, y, z) => {
                [x, y, z]
                    .iter()
                    .filter(|d| self.find(me, **d).is_some())
                    .count()
                    >= 2
            }
            _ => false,
        }
    }

    /// Whether `cand` is a legal turn now (sections 4 to 7).
    pub fn accepts(&self, cand: &Cand, shifts: &[Cand]) -> bool {
        if self.over {
            return false;
        }
        let positioning = self.positioning_now();
        match *cand {
            Cand::Pass => positioning,
            Cand::Perm(..) | Cand::Rot(..) => self.shift_ok(cand),
            Cand::Move(from, to, mark) => !positioning && self.movement_ok(from, to, mark),
            Cand::Bonus(from, to, mark, shift) => {
                if positioning || !self.movement_ok(from, to, mark) {
                    return false;
                }
                let last_row = if self.red_to_move { 5 } else { 0 };
                if from.0.abs_diff(to.0) + from.1.abs_diff(to.1) != 1 || to.0 != last_row {
                    return false;
                }
                if let Some((_, d)) = self.grid[to.0][to.1]
                    && d == [1, 1, 1]
                {
                    return false; // expelling the corvette ends the game
                }
                let mover = self.grid[from.0][from.1].unwrap().1;
                let shift = &shifts[shift];
                let involved = match *shift {
                    Cand::Perm(a, b) => a == mover || b == mover,
                    Cand::Rot(x, y, z) => x == mover || y == mover || z == mover,
                    _ => false,
                };
                if !involved {
                    return false;
                }
                let mut after = self.clone();
                after.move_ship(from, to);
                after.shift_ok(shift)
            }
        }
    }

    fn move_ship(&mut self, from: Cell, to: Cell) -> bool {
        let expelled = self.grid[to.0][to.1].is_some();
        self.grid[to.0][to.1] = self.grid[from.0][from.1].take();
        expelled
    }

    fn do_shift(&mut self, shift: &Cand) {
        let me = self.me();
        match *shift {
            Cand::Perm(a, b) => {
                let (pa, pb) = (self.find(me, a), self.find(me, b));
                if let Some(p) = pa {
                    self.grid[p.0][p.1] = Some((me, b));
                }
                if let Some(p) = pb {
                    self.grid[p.0][p.1] = Some((me, a));
                }
            }
            Cand::Rot(x, y, z) => {
                let (px, py, pz) = (self.find(me, x), self.find(me, y), self.find(me, z));
                for (place, ship) in [(py, x), (pz, y), (px, z)] {
                    if let Some(p) = place {
                        self.grid[p.0][p.1] = Some((me, ship));
                    }
                }
            }
            _ => unreachable!(),
        }
    }

    /// Plays an accepted candidate, then the end checks of section 8.
    pub fn play(&self, cand: &Cand, shifts: &[Cand]) -> Board {
        let mut b = self.clone();
        let expelled = match *cand {
            Cand::Pass => false,
            Cand::Perm(..) | Cand::Rot(..) => {
                b.do_shift(cand);
                false
            }
            Cand::Move(from, to, _) => b.move_ship(from, to),
            Cand::Bonus(from, to, _, shift) => {
                let e = b.move_ship(from, to);
                b.do_shift(&shifts[shift]);
                e
            }
        };
        b.ply += 1;
        if expelled {
            b.since = 0;
            b.last = if self.red_to_move { 'r' } else { 'b' };
        } else {
            b.since += 1;
        }
        b.red_to_move = !b.red_to_move;
        let corvettes = b.find('R', [1, 1, 1]).is_some() && b.find('B', [1, 1, 1]).is_some();
        b.over = !corvettes || b.since >= b.limit;
        b
    }

    /// The text of a candidate (for comparing lists with the crate).
    pub fn text(cand: &Cand, shifts: &[Cand]) -> String {
        let cell = |c: Cell| format!("{}{}", (b'a' + c.1 as u8) as char, c.0 + 1);
        let digits = |d: [u8; 3]| format!("{}{}{}", d[0], d[1], d[2]);
        match *cand {
            Cand::Pass => "pass".into(),
            Cand::Perm(a, b) => format!("P({},{})", digits(a), digits(b)),
            Cand::Rot(x, y, z) => format!("R({}>{}>{})", digits(x), digits(y), digits(z)),
            Cand::Move(f, t, m) => format!("{}{}{}", cell(f), if m { 'x' } else { '-' }, cell(t)),
            Cand::Bonus(f, t, m, s) => format!(
                "{}{}{}+{}",
                cell(f),
                if m { 'x' } else { '-' },
                cell(t),
                Board::text(&shifts[s], shifts)
            ),
        }
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.over
    }
}

/// The brute-force checker with its candidate list.
pub struct Brute {
    cands: Vec<Cand>,
    shifts: Vec<Cand>,
}

impl Default for Brute {
    fn default() -> Self {
        Brute {
            cands: candidates(),
            shifts: shifts(),
        }
    }
}

impl Brute {
    /// The accepted candidates of `b`.
    pub fn legal(&self, b: &Board) -> Vec<Cand> {
        self.cands
            .iter()
            .filter(|c| b.accepts(c, &self.shifts))
            .copied()
            .collect()
    }

    /// The accepted candidates as sorted texts.
    pub fn legal_texts(&self, b: &Board) -> Vec<String> {
        let mut t: Vec<String> = self
            .legal(b)
            .iter()
            .map(|c| Board::text(c, &self.shifts))
            .collect();
        t.sort();
        t
    }

    /// The text of a candidate.
    pub fn text(&self, c: &Cand) -> String {
        Board::text(c, &self.shifts)
    }

    /// Plays an accepted candidate.
    pub fn play(&self, b: &Board, c: &Cand) -> Board {
        b.play(c, &self.shifts)
    }

    /// Perft by brute force.
    pub fn perft(&self, b: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = self.legal(b);
        if depth == 1 {
            return legal.len() as u64;
        }
        legal
            .iter()
            .map(|c| self.perft(&self.play(b, c), depth - 1))
            .sum()
    }
}
