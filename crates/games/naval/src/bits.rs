//! 14x14 bit boards (rules/naval.md section 2: one 14x14 board per player).
//!
//! A board is 256 bits: four `u64` words of four rows each, 16 bits per row (columns 14 and 15 stay
//! empty). A rectangle is a row mask shifted into place, and walking the set bits from the lowest
//! visits cells in row-major order, the resolution order of section 6.4.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Board side, rows and columns (rules/naval.md section 2).
pub const SIDE: u8 = 14;
/// Number of cells of a board.
pub const CELLS: usize = 196;

/// A cell of a board, `row * 14 + col` with row and column 0 to 13 (row 0 at the top); never off
/// the board. Written `<column letter><row + 1>` (`f7`, rules/naval.md section 13b); serialized
/// as its index 0 to 195.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i` (0 to 195), if there is one.
    #[inline]
    #[must_use]
    pub const fn new(i: u8) -> Option<Cell> {
        if (i as usize) < CELLS {
            Some(Cell(i))
        } else {
            None
        }
    }

    /// The cell at row `r` and column `c` (each 0 to 13).
    ///
    /// # Panics
    /// If either is 14 or more.
    #[inline]
    #[must_use]
    pub const fn at(r: u8, c: u8) -> Cell {
        assert!(
            r < SIDE && c < SIDE,
            "a cell has a row and a column from 0 to 13"
        );
        Cell(r * SIDE + c)
    }

    /// The cell of bit `b` of word `w` of a `Bits` (a set bit: row and column are on the board,
    /// since `Bits` keeps columns 14 and 15 and the rows past 13 empty).
    #[inline]
    const fn of_bit(w: usize, b: u32) -> Cell {
        Cell((w as u8 * 4 + (b / 16) as u8) * SIDE + (b % 16) as u8)
    }

    /// All 196 cells in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> + Clone {
        (0..CELLS as u8).map(Cell)
    }

    /// The index 0 to 195.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, 0 (written 1) to 13.
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / SIDE
    }

    /// The column, 0 (written `a`) to 13.
    #[inline]
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % SIDE
    }

    /// Reads a cell written `a1` to `n14`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !('a'..='n').contains(&letter) {
            return None;
        }
        let digits = chars.as_str();
        let number: u8 = digits.parse().ok()?;
        if !(1..=SIDE).contains(&number) || digits.starts_with('0') {
            return None;
        }
        Some(Cell::at(number - 1, letter as u8 - b'a'))
    }
}

impl Cell {
    /// Appends the cell's name (`f7`, as `Display` writes it) to `out`: the action texts, which
    /// the move lists and the tests write by the thousand, are built without the formatting
    /// machinery.
    pub fn push_name(self, out: &mut String) {
        out.push(char::from(b'a' + self.col()));
        push_number(out, u16::from(self.row()) + 1);
    }

    /// The cell's name, `a1` to `n14` (as `Display` writes it, without the formatting machinery).
    #[must_use]
    pub fn name(self) -> String {
        let mut name = String::with_capacity(3);
        self.push_name(&mut name);
        name
    }
}

/// Appends `n` in decimal to `out`, as `Display` writes it.
pub(crate) fn push_number(out: &mut String, n: u16) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    // `n % 10` is a digit.
    out.push(char::from(b'0' + (n % 10) as u8));
}

impl fmt::Display for Cell {
    /// `f7`: the column letter, then the row number from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let i = u8::deserialize(d)?;
        Cell::new(i)
            .ok_or_else(|| serde::de::Error::custom(format!("cell {i} is off the board (0-195)")))
    }
}

/// A set of cells of one board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bits(pub [u64; 4]);

const ROW_MASK: u64 = (1 << SIDE) - 1;
const FULL_WORD: u64 = ROW_MASK | ROW_MASK << 16 | ROW_MASK << 32 | ROW_MASK << 48;

impl Bits {
    /// No cell.
    pub const EMPTY: Bits = Bits([0; 4]);
    /// The cells whose row and column add up to an even number (every ship of two or more cells
    /// covers one): columns 0, 2, .. 12 of even rows, 1, 3, .. 13 of odd rows.
    pub const CHECKER: Bits = Bits([
        0x2AAA_1555_2AAA_1555,
        0x2AAA_1555_2AAA_1555,
        0x2AAA_1555_2AAA_1555,
        0x0000_0000_2AAA_1555,
    ]);
    /// Every cell of the board.
    pub const FULL: Bits = Bits([FULL_WORD, FULL_WORD, FULL_WORD, FULL_WORD & 0xFFFF_FFFF]);

    #[inline]
    const fn slot(c: Cell) -> (usize, u32) {
        let r = c.row();
        ((r / 4) as usize, ((r % 4) as u32) * 16 + c.col() as u32)
    }

    /// The set holding only `c`.
    #[must_use]
    pub const fn cell(c: Cell) -> Bits {
        let (w, b) = Bits::slot(c);
        let mut words = [0; 4];
        words[w] = 1 << b;
        Bits(words)
    }

    /// Whether `c` is in the set.
    #[must_use]
    pub const fn has(self, c: Cell) -> bool {
        let (w, b) = Bits::slot(c);
        self.0[w] >> b & 1 != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn set(&mut self, c: Cell) {
        let (w, b) = Bits::slot(c);
        self.0[w] |= 1 << b;
    }

    /// Removes `c`.
    pub fn unset(&mut self, c: Cell) {
        let (w, b) = Bits::slot(c);
        self.0[w] &= !(1 << b);
    }

    /// The rectangle of `h` rows and `w` columns whose top-left cell is `(r0, c0)`; the part outside
    /// the board is dropped.
    #[must_use]
    pub fn rect(r0: i32, c0: i32, h: i32, w: i32) -> Bits {
        let (r1, c1) = ((r0 + h).min(SIDE as i32), (c0 + w).min(SIDE as i32));
        let (r0, c0) = (r0.max(0), c0.max(0));
        let mut out = Bits::EMPTY;
        if r0 >= r1 || c0 >= c1 {
            return out;
        }
        let mask = ((1u64 << (c1 - c0)) - 1) << c0;
        for r in r0..r1 {
            out.0[(r / 4) as usize] |= mask << ((r % 4) * 16);
        }
        out
    }

    /// The up-to-8 in-board cells around `c`, without `c` (sections 7.1, 8 E4, 11.3).
    #[must_use]
    pub fn around(c: Cell) -> Bits {
        let mut b = Bits::rect(i32::from(c.row()) - 1, i32::from(c.col()) - 1, 3, 3);
        b.unset(c);
        b
    }

    /// Every cell moved `rows` down and `cols` right (negative: up, left); cells that leave the
    /// board are dropped. `rows` and `cols` must lie in -13 to 13.
    #[inline]
    #[must_use]
    pub fn shifted(self, rows: i32, cols: i32) -> Bits {
        debug_assert!(rows.abs() < i32::from(SIDE) && cols.abs() < i32::from(SIDE));
        // Columns first, within each 16-bit row: the columns that would leave the board are
        // masked out before the shift, so no bit crosses into the next row.
        let keep = if cols >= 0 {
            ROW_MASK >> cols
        } else {
            ROW_MASK & !((1 << -cols) - 1)
        };
        let keep = keep | keep << 16 | keep << 32 | keep << 48;
        let w = self.0.map(|x| {
            let x = x & keep;
            if cols >= 0 { x << cols } else { x >> -cols }
        });
        // Then rows: a 256-bit shift by 16 bits a row, the rows past 13 masked off at the end.
        let bits = rows.unsigned_abs() * 16;
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        let mut out = [0u64; 4];
        for (i, o) in out.iter_mut().enumerate() {
            let (src, carry) = if rows >= 0 {
                (i.checked_sub(words), i.checked_sub(words + 1))
            } else {
                (
                    Some(i + words).filter(|&j| j < 4),
                    Some(i + words + 1).filter(|&j| j < 4),
                )
            };
            let main = src.map_or(0, |j| w[j]);
            let spill = carry.map_or(0, |j| w[j]);
            *o = match (rows >= 0, rest) {
                (_, 0) => main,
                (true, r) => main << r | spill >> (64 - r),
                (false, r) => main >> r | spill << (64 - r),
            };
        }
        Bits(out) & Bits::FULL
    }

    /// The cells sharing a side with a cell of the set (a cell of the set among them only when
    /// another cell of the set is beside it).
    #[inline]
    #[must_use]
    pub fn beside(self) -> Bits {
        self.shifted(1, 0) | self.shifted(-1, 0) | self.shifted(0, 1) | self.shifted(0, -1)
    }

    /// Row `r` (0 to 13) as 14 bits, bit `c` for column `c`.
    #[inline]
    #[must_use]
    pub const fn row(self, r: u8) -> u16 {
        (self.0[(r / 4) as usize] >> ((r % 4) * 16)) as u16
    }

    /// Number of cells.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// Whether every cell of `self` is in `other`.
    #[must_use]
    pub fn within(self, other: Bits) -> bool {
        (self & !other).is_empty()
    }

    /// Whether the two sets share a cell.
    #[must_use]
    pub fn meets(self, other: Bits) -> bool {
        !(self & other).is_empty()
    }

    /// The cells in row-major order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut words = self.0;
        let mut w = 0usize;
        std::iter::from_fn(move || {
            while w < 4 {
                if words[w] != 0 {
                    let b = words[w].trailing_zeros();
                    words[w] &= words[w] - 1;
                    return Some(Cell::of_bit(w, b));
                }
                w += 1;
            }
            None
        })
    }

    /// The first cell in row-major order.
    #[must_use]
    pub fn first(self) -> Option<Cell> {
        self.iter().next()
    }

    /// The `n`-th cell (0-based) in row-major order, if the set has that many.
    #[must_use]
    pub fn nth(self, mut n: u32) -> Option<Cell> {
        for (w, &word) in self.0.iter().enumerate() {
            let k = word.count_ones();
            if n < k {
                let mut x = word;
                for _ in 0..n {
                    x &= x - 1;
                }
                let b = x.trailing_zeros();
                return Some(Cell::of_bit(w, b));
            }
            n -= k;
        }
        None
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    fn bitand(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Bits {
    type Output = Bits;
    fn bitor(self, o: Bits) -> Bits {
        Bits([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl BitAndAssign for Bits {
    fn bitand_assign(&mut self, o: Bits) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bits {
    fn bitor_assign(&mut self, o: Bits) {
        *self = *self | o;
    }
}

impl Not for Bits {
    type Output = Bits;
    /// The complement within the board.
    fn not(self) -> Bits {
        Bits([
            !self.0[0] & Bits::FULL.0[0],
            !self.0[1] & Bits::FULL.0[1],
            !self.0[2] & Bits::FULL.0[2],
            !self.0[3] & Bits::FULL.0[3],
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_board_has_196_cells_in_row_major_order() {
        assert_eq!(Bits::FULL.count(), 196);
        let cells: Vec<Cell> = Bits::FULL.iter().collect();
        assert_eq!(cells, Cell::all().collect::<Vec<Cell>>());
        assert_eq!(Bits::FULL.nth(195), Cell::new(195));
        assert_eq!(Bits::FULL.nth(196), None);
        assert_eq!(Cell::new(196), None);
        assert!(serde_json::from_str::<Cell>("196").is_err());
    }

    /// Shifting moves every cell by the offset and drops those leaving the board, in every
    /// direction and at every distance, including across the words of the bit board.
    #[test]
    fn shifts_move_each_cell_and_drop_those_leaving_the_board() {
        let mut checked = 0;
        for rows in -13..=13 {
            for cols in -13..=13 {
                for c in Cell::all() {
                    let (r, k) = (i32::from(c.row()) + rows, i32::from(c.col()) + cols);
                    let moved = Bits::cell(c).shifted(rows, cols);
                    if (0..14).contains(&r) && (0..14).contains(&k) {
                        assert_eq!(
                            moved,
                            Bits::cell(Cell::at(r as u8, k as u8)),
                            "{c} by {rows},{cols}"
                        );
                        checked += 1;
                    } else {
                        assert!(moved.is_empty(), "{c} by {rows},{cols}");
                    }
                }
                // A whole board moved keeps the cells that stay on it.
                let expected = (14 - rows.abs()) * (14 - cols.abs());
                assert_eq!(Bits::FULL.shifted(rows, cols).count() as i32, expected);
            }
        }
        assert!(checked > 30_000, "{checked}");
        let plus = |c: Cell| {
            let (r, k) = (i32::from(c.row()), i32::from(c.col()));
            Bits::rect(r - 1, k, 3, 1) | Bits::rect(r, k - 1, 1, 3)
        };
        for c in Cell::all() {
            let mut expected = plus(c);
            expected.unset(c);
            assert_eq!(Bits::cell(c).beside(), expected, "{c}");
        }
        let pair = Bits::cell(Cell::at(0, 0)) | Bits::cell(Cell::at(0, 1));
        assert_eq!(pair.row(0), 0b11);
        assert_eq!(Bits::FULL.row(13), 0x3FFF);
        assert_eq!(Bits::cell(Cell::at(9, 13)).row(9), 1 << 13);
        assert_eq!(
            pair.beside().count(),
            5,
            "each of the pair is beside the other"
        );
    }

    #[test]
    fn rectangles_and_neighbourhoods_clip_at_edges() {
        assert_eq!(Bits::rect(12, 12, 3, 3).count(), 4);
        assert_eq!(Bits::around(Cell::at(0, 0)).count(), 3);
        assert_eq!(Bits::around(Cell::at(5, 5)).count(), 8);
        assert_eq!(Bits::around(Cell::at(13, 7)).count(), 5);
        assert_eq!((!Bits::rect(0, 0, 14, 7)).count(), 98);
    }
}
