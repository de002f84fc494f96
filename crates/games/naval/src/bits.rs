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

impl fmt::Display for Cell {
    /// `f7`: the column letter, then the row number from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
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

    #[test]
    fn rectangles_and_neighbourhoods_clip_at_edges() {
        assert_eq!(Bits::rect(12, 12, 3, 3).count(), 4);
        assert_eq!(Bits::around(Cell::at(0, 0)).count(), 3);
        assert_eq!(Bits::around(Cell::at(5, 5)).count(), 8);
        assert_eq!(Bits::around(Cell::at(13, 7)).count(), 5);
        assert_eq!((!Bits::rect(0, 0, 14, 7)).count(), 98);
    }
}
