//! Cells, squares and board geometry (rules/chakart.md sections 2 and 3).
//!
//! A board is 64 one-byte cells, square `rank * 8 + file` with a1 = 0, h1 = 7, a8 = 56. A cell is
//! empty, one of the four items, or a piece: `0x10 | colour << 3 | kind`, plus `FROZEN` for a piece
//! Bowser immobilized (`s u o c t l`) and `HIDDEN` for a queen after its stealth move (`i`).

use serde::{Deserialize, Serialize};

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

/// White, the first seat.
pub const WHITE: u8 = 0;
/// Black, the second seat.
pub const BLACK: u8 = 1;

/// No square.
pub const NONE: u8 = 64;

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
pub const fn piece(color: u8, kind: Kind) -> u8 {
    PIECE | (color << 3) | kind as u8
}

/// Whether the cell holds a piece (of any colour, frozen or hidden included).
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

/// Colour of a piece cell.
#[inline]
#[must_use]
pub const fn color(c: u8) -> u8 {
    (c >> 3) & 1
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
pub const fn is_own(c: u8, side: u8) -> bool {
    is_piece(c) && color(c) == side
}

/// Whether the cell holds `side`'s opponent's hidden queen.
#[inline]
#[must_use]
pub const fn is_enemy_hidden(c: u8, side: u8) -> bool {
    c & HIDDEN != 0 && color(c) != side
}

/// Whether the cell looks empty to `side`: empty, or the opponent's hidden queen (ruling 17).
#[inline]
#[must_use]
pub const fn looks_empty(c: u8, side: u8) -> bool {
    c == EMPTY || is_enemy_hidden(c, side)
}

/// Whether the cell holds an enemy piece that `side` can see.
#[inline]
#[must_use]
pub const fn is_visible_enemy(c: u8, side: u8) -> bool {
    is_piece(c) && color(c) != side && c & HIDDEN == 0
}

/// Whether the cell is a king of `side`, frozen or not (`k`/`l`).
#[inline]
#[must_use]
pub const fn is_king_of(c: u8, side: u8) -> bool {
    is_own(c, side) && kind_of(c) == Kind::King as u8
}

/// File 0 to 7 of a square.
#[inline]
#[must_use]
pub const fn file(sq: u8) -> u8 {
    sq & 7
}

/// Rank 0 to 7 of a square.
#[inline]
#[must_use]
pub const fn rank(sq: u8) -> u8 {
    sq >> 3
}

/// The square `(df, dr)` away from `sq`, or `NONE` off the board.
#[inline]
#[must_use]
pub const fn offset(sq: u8, df: i8, dr: i8) -> u8 {
    let f = file(sq) as i8 + df;
    let r = rank(sq) as i8 + dr;
    if f < 0 || f > 7 || r < 0 || r > 7 {
        NONE
    } else {
        (r * 8 + f) as u8
    }
}

/// The rank where `side`'s pawns promote (its last rank): 7 for White, 0 for Black.
#[inline]
#[must_use]
pub const fn last_rank(side: u8) -> u8 {
    if side == WHITE { 7 } else { 0 }
}

/// The rank where `side`'s pieces start (its first rank).
#[inline]
#[must_use]
pub const fn first_rank(side: u8) -> u8 {
    if side == WHITE { 0 } else { 7 }
}

/// Forward rank step of `side`'s pawns.
#[inline]
#[must_use]
pub const fn forward(side: u8) -> i8 {
    if side == WHITE { 1 } else { -1 }
}

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

/// `RAY[dir][sq]`: the next square from `sq` in direction `DIRS[dir]`, or `NONE`.
pub static RAY: [[u8; 64]; 8] = {
    let mut t = [[NONE; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[d][sq] = offset(sq as u8, DIRS[d].0, DIRS[d].1);
            sq += 1;
        }
        d += 1;
    }
    t
};

/// `JUMPS[sq]`: the knight targets of `sq`, `NONE`-padded.
pub static JUMPS: [[u8; 8]; 64] = {
    let mut t = [[NONE; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut n = 0;
        let mut j = 0;
        while j < 8 {
            let to = offset(sq as u8, KNIGHT[j].0, KNIGHT[j].1);
            if to != NONE {
                t[sq][n] = to;
                n += 1;
            }
            j += 1;
        }
        sq += 1;
    }
    t
};

/// Square name, `a1` to `h8`.
#[must_use]
pub fn square_name(sq: u8) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file(sq)) as char);
    s.push((b'1' + rank(sq)) as char);
    s
}

/// Reads a square name such as `e4`.
#[must_use]
pub fn parse_square(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

/// Sort key giving the byte order of square names (file first, then rank): chance outcomes are
/// listed in byte order of their text (ruling 13).
#[inline]
#[must_use]
pub const fn name_order(sq: u8) -> u8 {
    file(sq) * 8 + rank(sq)
}

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
            Some(if color(c) == WHITE {
                base.to_ascii_uppercase()
            } else {
                base
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
        WHITE
    } else {
        BLACK
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

/// Serde for a 64-cell board, as a list of 64 numbers (serde derives arrays only up to 32).
pub mod board_serde {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Writes the cells as a sequence.
    ///
    /// # Errors
    /// Those of the serializer.
    pub fn serialize<S: Serializer>(board: &[u8; 64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(board.iter())
    }

    /// Reads exactly 64 cells.
    ///
    /// # Errors
    /// When the sequence does not hold 64 numbers.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 64], D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        v.try_into().map_err(|v: Vec<u8>| {
            D::Error::custom(format!("a board has 64 cells, not {}", v.len()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for ch in "prnbqkPRNBQKsuoctlSUOCTLiImedw".chars() {
            let c = letter_cell(ch).unwrap();
            assert_eq!(cell_letter(c), Some(ch));
        }
        for ch in "MEDWxX1".chars() {
            assert_eq!(letter_cell(ch), None, "{ch}");
        }
    }

    #[test]
    fn geometry() {
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(square_name(28), "e4");
        assert_eq!(offset(0, -1, 0), NONE);
        assert_eq!(JUMPS[0].iter().filter(|s| **s != NONE).count(), 2);
        assert_eq!(RAY[0][60], NONE);
    }
}
