//! The fleet (rules/naval.md section 2): six ships in importance order, then three buoys, and
//! their footprints on the board.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::bits::{Bits, Cell, SIDE};

/// A ship, in importance order (section 2): the order in which a turn's orders are given and
/// resolve (section 5.3a, 5.6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Ship {
    /// The 2x6 carrier.
    Carrier = 0,
    /// The 1x5 cruiser.
    Cruiser = 1,
    /// The 1x4 battleship.
    Battleship = 2,
    /// The 1x3 frigate.
    Frigate = 3,
    /// The 1x3 submarine.
    Submarine = 4,
    /// The 1x2 corvette.
    Corvette = 5,
}

/// Number of ships per player.
pub const SHIPS: usize = 6;

impl Ship {
    /// Every ship in importance order.
    pub const ALL: [Ship; SHIPS] = [
        Ship::Carrier,
        Ship::Cruiser,
        Ship::Battleship,
        Ship::Frigate,
        Ship::Submarine,
        Ship::Corvette,
    ];

    /// The index 0 (carrier) to 5 (corvette), for per-ship arrays and bit sets.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The bit of this ship in a per-ship bit set (`Board::sunk`, `Turn::given`).
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The ship with index `i`, if any.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Ship> {
        if i < SHIPS { Some(Ship::ALL[i]) } else { None }
    }

    /// The piece this ship is.
    #[must_use]
    pub const fn piece(self) -> Piece {
        Piece::ALL[self as usize]
    }

    /// The notation name (section 13b): `carrier` .. `corvette`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.piece().name()
    }

    /// The next ship in importance order, if any.
    #[must_use]
    pub const fn next(self) -> Option<Ship> {
        Ship::from_index(self as usize + 1)
    }
}

/// A piece of a fleet: the six ships, then the three buoys (decoys, section 2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Piece {
    /// The carrier.
    Carrier = 0,
    /// The cruiser.
    Cruiser = 1,
    /// The battleship.
    Battleship = 2,
    /// The frigate.
    Frigate = 3,
    /// The submarine.
    Submarine = 4,
    /// The corvette.
    Corvette = 5,
    /// The first buoy.
    Buoy1 = 6,
    /// The second buoy.
    Buoy2 = 7,
    /// The third buoy.
    Buoy3 = 8,
}

/// Number of pieces per player: six ships and three buoys.
pub const PIECES: usize = 9;

/// Notation names of the pieces, by index (section 13b).
pub const PIECE_NAMES: [&str; PIECES] = [
    "carrier",
    "cruiser",
    "battleship",
    "frigate",
    "submarine",
    "corvette",
    "buoy1",
    "buoy2",
    "buoy3",
];

/// Long side of each piece.
const LENGTH: [u8; PIECES] = [6, 5, 4, 3, 3, 2, 1, 1, 1];
/// Short side of each piece (the carrier is 2 wide).
const WIDTH: [u8; PIECES] = [2, 1, 1, 1, 1, 1, 1, 1, 1];
/// Cells (= max life) of each piece.
const SIZE: [u8; PIECES] = [12, 5, 4, 3, 3, 2, 1, 1, 1];

impl Piece {
    /// Every piece: the ships in importance order, then the buoys.
    pub const ALL: [Piece; PIECES] = [
        Piece::Carrier,
        Piece::Cruiser,
        Piece::Battleship,
        Piece::Frigate,
        Piece::Submarine,
        Piece::Corvette,
        Piece::Buoy1,
        Piece::Buoy2,
        Piece::Buoy3,
    ];

    /// The index 0 to 8, for per-piece arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with index `i`, if any.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i < PIECES {
            Some(Piece::ALL[i])
        } else {
            None
        }
    }

    /// Whether it is a buoy.
    #[inline]
    #[must_use]
    pub const fn is_buoy(self) -> bool {
        self as usize >= SHIPS
    }

    /// Its orientations, as the `vertical` flags of its placements (section 13b): a buoy has
    /// one (`false`: `vertical` means nothing to it), a ship two, lying along a row (`false`)
    /// first, then along a column (`true`).
    #[must_use]
    pub const fn orientations(self) -> &'static [bool] {
        if self.is_buoy() {
            &[false]
        } else {
            &[false, true]
        }
    }

    /// The ship, unless it is a buoy.
    #[inline]
    #[must_use]
    pub const fn ship(self) -> Option<Ship> {
        Ship::from_index(self as usize)
    }

    /// The notation name (section 13b).
    #[must_use]
    pub const fn name(self) -> &'static str {
        PIECE_NAMES[self as usize]
    }

    /// The piece of a notation name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its cells, which is its life (section 2; E5 of section 8 divides by it).
    #[must_use]
    pub const fn size(self) -> u8 {
        SIZE[self as usize]
    }

    /// The footprint with its top-left cell at `cell`, `vertical` putting the long side along a
    /// column (section 13b); `None` if it leaves the board. Buoys ignore `vertical`.
    #[must_use]
    pub fn footprint(self, cell: Cell, vertical: bool) -> Option<Bits> {
        let (len, wid) = (LENGTH[self as usize], WIDTH[self as usize]);
        let (h, w) = if vertical && !self.is_buoy() {
            (len, wid)
        } else {
            (wid, len)
        };
        if cell.row() + h > SIDE || cell.col() + w > SIDE {
            return None;
        }
        Some(Bits::rect(
            i32::from(cell.row()),
            i32::from(cell.col()),
            i32::from(h),
            i32::from(w),
        ))
    }

    /// Every footprint on the board, as (top-left cell, vertical, cells): lying along a row
    /// first, then along a column (ships only), each in row-major order of the top-left cell.
    /// Made once per process: layouts, placements and the determinization's model filter it.
    #[must_use]
    pub fn footprints(self) -> &'static [(Cell, bool, Bits)] {
        static TABLE: OnceLock<Vec<Vec<(Cell, bool, Bits)>>> = OnceLock::new();
        let table = TABLE.get_or_init(|| {
            Piece::ALL
                .iter()
                .map(|&p| {
                    p.orientations()
                        .iter()
                        .flat_map(|&v| {
                            Cell::all().filter_map(move |c| p.footprint(c, v).map(|m| (c, v, m)))
                        })
                        .collect()
                })
                .collect()
        });
        &table[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table holds every footprint that fits on the board, in its documented order.
    #[test]
    fn the_footprint_table_lists_every_placement_in_order() {
        for p in Piece::ALL {
            let expected: Vec<(Cell, bool, Bits)> = p
                .orientations()
                .iter()
                .flat_map(|&v| Cell::all().filter_map(move |c| Some((c, v, p.footprint(c, v)?))))
                .collect();
            assert_eq!(p.footprints(), &expected[..], "{p:?}");
        }
        // The carrier (2x6) fits 13 x 9 ways lying along a row, as many along a column.
        assert_eq!(Piece::Carrier.footprints().len(), 2 * 13 * 9);
        assert_eq!(Piece::Buoy1.footprints().len(), 196);
    }

    #[test]
    fn ships_are_the_first_pieces() {
        for ship in Ship::ALL {
            assert_eq!(ship.piece().ship(), Some(ship));
            assert_eq!(ship.name(), PIECE_NAMES[ship.index()]);
        }
        assert_eq!(Piece::Buoy2.ship(), None);
        assert_eq!(Ship::Corvette.next(), None);
        assert_eq!(Piece::from_name("buoy3"), Some(Piece::Buoy3));
        let total: u32 = Piece::ALL.iter().map(|p| u32::from(p.size())).sum();
        assert_eq!(total, 32);
    }

    #[test]
    fn footprints_stay_on_the_board() {
        let carrier = Piece::Carrier.footprint(Cell::at(2, 2), false).unwrap();
        assert_eq!(carrier.count(), 12);
        assert_eq!(Piece::Carrier.footprint(Cell::at(13, 0), false), None);
        assert_eq!(Piece::Cruiser.footprint(Cell::at(10, 0), true), None);
        assert_eq!(
            Piece::Buoy1
                .footprint(Cell::at(13, 13), true)
                .unwrap()
                .count(),
            1
        );
    }
}
