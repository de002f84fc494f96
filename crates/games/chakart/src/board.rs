//! Sides, squares, cells and board geometry (rules/chakart.md sections 2 and 3).
//!
//! A board is 64 one-byte cells indexed by `Square` (a1 = 0, h1 = 7, a8 = 56). A cell is empty,
//! one of the four items, or a piece: `PIECE | side << 3 | kind`, plus `FROZEN` for a piece Bowser
//! immobilized (`s u o c t l`) and `HIDDEN` for a queen after its stealth move (`i`). The cell
//! encoding is what the hot loops scan eight cells at a time; everything outside this module
//! reads a cell through the functions here, never through its bits.

use std::fmt;

use plateau_engine::Seat;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An empty square.
pub const EMPTY: u8 = 0;
/// A mushroom (`m`), dropped by pawns.
pub const MUSHROOM: u8 = 1;
/// An egg (`e`), dropped by knights.
pub const EGG: u8 = 2;
/// A banana (`d`), dropped by rooks.
pub const BANANA: u8 = 3;
/// A bomb (`w`), dropped by bishops.
pub const BOMB: u8 = 4;
/// Marks a piece cell.
pub const PIECE: u8 = 0x10;
/// An immobilized piece (Bowser, section 7).
pub const FROZEN: u8 = 0x20;
/// A queen after its stealth move (section 8).
pub const HIDDEN: u8 = 0x40;
/// The side bit of a piece cell.
const SIDE_BIT: u8 = 8;

/// A side: White (seat 0, moves first) or Black (seat 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Side {
    /// White, the first seat.
    White = 0,
    /// Black, the second seat.
    Black = 1,
}

impl Side {
    /// Both sides, White first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black: the index into per-side arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat playing this side.
    #[must_use]
    pub const fn seat(self) -> Seat {
        Seat(self as u8)
    }

    /// The side of a seat (0 = White, 1 = Black), if it has one.
    #[must_use]
    pub const fn of_seat(seat: Seat) -> Option<Side> {
        match seat.0 {
            0 => Some(Side::White),
            1 => Some(Side::Black),
            _ => None,
        }
    }

    /// `'w'` or `'b'`, as in the FEN's turn field.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// `"White"` or `"Black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// The rank where this side's pawns promote (its last rank): 7 for White, 0 for Black.
    #[inline]
    #[must_use]
    pub const fn last_rank(self) -> u8 {
        match self {
            Side::White => 7,
            Side::Black => 0,
        }
    }

    /// The rank where this side's pieces start (its first rank).
    #[inline]
    #[must_use]
    pub const fn first_rank(self) -> u8 {
        self.other().last_rank()
    }

    /// Forward rank step of this side's pawns.
    #[inline]
    #[must_use]
    pub const fn forward(self) -> i8 {
        match self {
            Side::White => 1,
            Side::Black => -1,
        }
    }
}

/// A square of the board, `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56); never off the board.
/// Written `a1` to `h8`; serialized as its index 0 to 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (0 to 63), if there is one.
    #[inline]
    #[must_use]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 { Some(Square(i)) } else { None }
    }

    /// The square of `file` and `rank` (each 0 to 7).
    ///
    /// # Panics
    /// If either is 8 or more.
    #[inline]
    #[must_use]
    pub const fn at(file: u8, rank: u8) -> Square {
        assert!(
            file < 8 && rank < 8,
            "a square has a file and a rank from 0 to 7"
        );
        Square(rank * 8 + file)
    }

    /// The lowest square of a non-empty square set (bit `i` = square `i`).
    #[inline]
    #[must_use]
    pub const fn lowest(set: u64) -> Square {
        Square(set.trailing_zeros() as u8 & 63)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..64).map(Square)
    }

    /// The index 0 to 63, for arrays and square sets.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's bit in a square set.
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// File 0 (a) to 7 (h).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0 (1) to 7 (8).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `(df, dr)` away, or `None` off the board.
    #[inline]
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 7 || r < 0 || r > 7 {
            None
        } else {
            Some(Square((r * 8 + f) as u8))
        }
    }

    /// The file and rank steps from `self` to `to`.
    #[inline]
    #[must_use]
    pub const fn delta(self, to: Square) -> (i8, i8) {
        (
            to.file() as i8 - self.file() as i8,
            to.rank() as i8 - self.rank() as i8,
        )
    }

    /// Sort key giving the byte order of square names (file first, then rank): chance outcomes
    /// are listed in byte order of their text (ruling 13).
    #[inline]
    #[must_use]
    pub const fn name_order(self) -> u8 {
        self.file() * 8 + self.rank()
    }

    /// The square's name, `a1` to `h8`: a slice of a table rather than a formatted text, as
    /// every observation, action text and move list names many squares.
    #[inline]
    #[must_use]
    pub fn name(self) -> &'static str {
        let at = usize::from(self.0 & 63) * 2;
        &SQUARE_NAMES[at..at + 2]
    }

    /// Reads a square name such as `e4`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::at(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

/// The names of the squares in index order (rank by rank from a1), two bytes each.
const SQUARE_NAMES: &str = concat!(
    "a1b1c1d1e1f1g1h1",
    "a2b2c2d2e2f2g2h2",
    "a3b3c3d3e3f3g3h3",
    "a4b4c4d4e4f4g4h4",
    "a5b5c5d5e5f5g5h5",
    "a6b6c6d6e6f6g6h6",
    "a7b7c7d7e7f7g7h7",
    "a8b8c8d8e8f8g8h8",
);

impl fmt::Display for Square {
    /// The square's name, `a1` to `h8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let i = u8::deserialize(d)?;
        Square::new(i)
            .ok_or_else(|| serde::de::Error::custom(format!("square {i} is off the board (0-63)")))
    }
}

/// A piece type, in the order of the captured-pool digits (section 2): p, r, n, b, q, k.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Kind {
    /// Pawn (Toad).
    Pawn = 0,
    /// Rook (Donkey Kong).
    Rook = 1,
    /// Knight (Yoshi).
    Knight = 2,
    /// Bishop (Wario).
    Bishop = 3,
    /// Queen (Mario).
    Queen = 4,
    /// King (Peach).
    King = 5,
}

impl Kind {
    /// All kinds in pool order.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Rook,
        Kind::Knight,
        Kind::Bishop,
        Kind::Queen,
        Kind::King,
    ];

    /// The kind with index `i` (0 to 5); other values give a king.
    #[must_use]
    pub const fn from_index(i: u8) -> Kind {
        match i {
            0 => Kind::Pawn,
            1 => Kind::Rook,
            2 => Kind::Knight,
            3 => Kind::Bishop,
            4 => Kind::Queen,
            _ => Kind::King,
        }
    }

    /// Lowercase FEN letter: `p r n b q k`.
    #[must_use]
    pub const fn letter(self) -> char {
        [b'p', b'r', b'n', b'b', b'q', b'k'][self as usize] as char
    }

    /// The kind of a lowercase FEN letter.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'p' => Kind::Pawn,
            'r' => Kind::Rook,
            'n' => Kind::Knight,
            'b' => Kind::Bishop,
            'q' => Kind::Queen,
            'k' => Kind::King,
            _ => return None,
        })
    }
}

/// The cell of a normal piece.
#[inline]
#[must_use]
pub const fn piece(side: Side, kind: Kind) -> u8 {
    PIECE | ((side as u8) << 3) | kind as u8
}

/// The same piece cell on the other side (Luigi's and Waluigi's flips, ruling 15).
#[inline]
#[must_use]
pub const fn with_other_side(c: u8) -> u8 {
    c ^ SIDE_BIT
}

/// Whether the cell holds a piece (of any side, frozen or hidden included).
#[inline]
#[must_use]
pub const fn is_piece(c: u8) -> bool {
    c & PIECE != 0
}

/// Whether the cell holds an item.
#[inline]
#[must_use]
pub const fn is_item(c: u8) -> bool {
    c != EMPTY && c <= BOMB
}

/// The side of a piece cell.
#[inline]
#[must_use]
pub const fn side_of(c: u8) -> Side {
    if c & SIDE_BIT == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// Kind index (0 to 5) of a piece cell.
#[inline]
#[must_use]
pub const fn kind_of(c: u8) -> u8 {
    c & 7
}

/// Kind of a piece cell.
#[inline]
#[must_use]
pub const fn kind(c: u8) -> Kind {
    Kind::from_index(c & 7)
}

/// Whether the cell is a piece of `side` (hidden or frozen included).
#[inline]
#[must_use]
pub const fn is_own(c: u8, side: Side) -> bool {
    is_piece(c) && side_of(c) as u8 == side as u8
}

/// Whether the cell holds `side`'s opponent's hidden queen.
#[inline]
#[must_use]
pub const fn is_enemy_hidden(c: u8, side: Side) -> bool {
    c & HIDDEN != 0 && side_of(c) as u8 != side as u8
}

/// Whether the cell looks empty to `side`: empty, or the opponent's hidden queen (ruling 17).
#[inline]
#[must_use]
pub const fn looks_empty(c: u8, side: Side) -> bool {
    c == EMPTY || is_enemy_hidden(c, side)
}

/// Whether the cell holds an enemy piece that `side` can see.
#[inline]
#[must_use]
pub const fn is_visible_enemy(c: u8, side: Side) -> bool {
    is_piece(c) && side_of(c) as u8 != side as u8 && c & HIDDEN == 0
}

/// Whether the cell is a king of `side`, frozen or not (`k`/`l`).
#[inline]
#[must_use]
pub const fn is_king_of(c: u8, side: Side) -> bool {
    is_own(c, side) && kind_of(c) == Kind::King as u8
}

/// The side bits of `side`'s piece cells, to build the masks of cell scans.
#[inline]
#[must_use]
pub const fn side_bits(side: Side) -> u8 {
    (side as u8) << 3
}

/// The side bit alone, for masks that select cells of one side.
pub const SIDE_MASK: u8 = SIDE_BIT;

/// The four orthogonal directions (banana redirects, rook lines).
pub const ORTHO: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The four diagonal directions (bomb redirects, bishop lines).
pub const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// All eight directions: orthogonal first.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
/// The eight knight jumps.
pub const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// `RAY[dir][sq]`: the next square from `sq` in direction `DIRS[dir]`, if on the board.
pub static RAY: [[Option<Square>; 64]; 8] = {
    let mut t = [[None; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[d][sq] = Square(sq as u8).offset(DIRS[d].0, DIRS[d].1);
            sq += 1;
        }
        d += 1;
    }
    t
};

/// `JUMPS[sq]`: the knight targets of `sq`, first, then `None`.
pub static JUMPS: [[Option<Square>; 8]; 64] = {
    let mut t = [[None; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut n = 0;
        let mut j = 0;
        while j < 8 {
            let to = Square(sq as u8).offset(KNIGHT[j].0, KNIGHT[j].1);
            if to.is_some() {
                t[sq][n] = to;
                n += 1;
            }
            j += 1;
        }
        sq += 1;
    }
    t
};

/// The FEN letter of a cell (`None` for an empty square).
#[must_use]
pub fn cell_letter(c: u8) -> Option<char> {
    match c {
        EMPTY => None,
        MUSHROOM => Some('m'),
        EGG => Some('e'),
        BANANA => Some('d'),
        BOMB => Some('w'),
        _ => {
            let base = if c & HIDDEN != 0 {
                'i'
            } else if c & FROZEN != 0 {
                [b's', b'u', b'o', b'c', b't', b'l'][kind_of(c) as usize] as char
            } else {
                kind(c).letter()
            };
            Some(match side_of(c) {
                Side::White => base.to_ascii_uppercase(),
                Side::Black => base,
            })
        }
    }
}

/// The cell of a FEN letter, or `None` for an unknown letter (uppercase item letters included).
#[must_use]
pub fn letter_cell(ch: char) -> Option<u8> {
    let item = match ch {
        'm' => Some(MUSHROOM),
        'e' => Some(EGG),
        'd' => Some(BANANA),
        'w' => Some(BOMB),
        _ => None,
    };
    if item.is_some() {
        return item;
    }
    let side = if ch.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    let lower = ch.to_ascii_lowercase();
    if let Some(k) = Kind::from_letter(lower) {
        return Some(piece(side, k));
    }
    let frozen = match lower {
        's' => Kind::Pawn,
        'u' => Kind::Rook,
        'o' => Kind::Knight,
        'c' => Kind::Bishop,
        't' => Kind::Queen,
        'l' => Kind::King,
        'i' => return Some(piece(side, Kind::Queen) | HIDDEN),
        _ => return None,
    };
    Some(piece(side, frozen) | FROZEN)
}

/// Whether `c` is a cell some position can hold: empty, an item, or a piece with at most one of
/// the frozen and hidden marks, the hidden one on a queen only.
#[must_use]
pub const fn is_valid_cell(c: u8) -> bool {
    if !is_piece(c) {
        return c <= BOMB;
    }
    let extra = c & !(PIECE | FROZEN | HIDDEN | SIDE_BIT | 7);
    let hidden_ok = c & HIDDEN == 0 || (kind_of(c) == Kind::Queen as u8 && c & FROZEN == 0);
    extra == 0 && kind_of(c) <= 5 && hidden_ok
}

#[cfg(test)]
mod tests;
