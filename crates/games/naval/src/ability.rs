//! The twelve special abilities (rules/naval.md section 9) with their areas (sections 6.5 and
//! 6.5a), and the directions a torpedo travels (section 3).

use plateau_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::bits::{Bits, Cell, SIDE};
use crate::piece::Ship;

/// The twelve special abilities (section 9), two per ship.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Corvette: 3x3 shield on the owner's board (section 10).
    Shield,
    /// Corvette: 5x5 spy satellite.
    Satellite,
    /// Submarine: torpedo along a lane of an adjacent board.
    Torpedo,
    /// Submarine: 5x5 sonar.
    Sonar,
    /// Frigate: 5x5 rockets, each cell shot with probability 1/2.
    Rockets,
    /// Frigate: 4x4 ballistic missile, reveals the frigate.
    Missile,
    /// Battleship: 7x7 anti-submarine charges.
    Charges,
    /// Battleship: 7x7 radar.
    Radar,
    /// Cruiser: 2x2 artillery.
    Artillery,
    /// Cruiser: 3x3 heavy artillery.
    Heavy,
    /// Carrier: 8-cell linear bombing.
    Bombing,
    /// Carrier: electromagnetic pulse on a whole player.
    Emp,
}

/// Every ability, in the order of the section 9 table.
pub const ABILITIES: [Ability; 12] = [
    Ability::Shield,
    Ability::Satellite,
    Ability::Torpedo,
    Ability::Sonar,
    Ability::Rockets,
    Ability::Missile,
    Ability::Charges,
    Ability::Radar,
    Ability::Artillery,
    Ability::Heavy,
    Ability::Bombing,
    Ability::Emp,
];

impl Ability {
    /// Notation name (section 13b).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ability::Shield => "shield",
            Ability::Satellite => "satellite",
            Ability::Torpedo => "torpedo",
            Ability::Sonar => "sonar",
            Ability::Rockets => "rockets",
            Ability::Missile => "missile",
            Ability::Charges => "charges",
            Ability::Radar => "radar",
            Ability::Artillery => "artillery",
            Ability::Heavy => "heavy",
            Ability::Bombing => "bombing",
            Ability::Emp => "emp",
        }
    }

    /// The ship that carries it (section 9).
    #[must_use]
    pub const fn ship(self) -> Ship {
        match self {
            Ability::Shield | Ability::Satellite => Ship::Corvette,
            Ability::Torpedo | Ability::Sonar => Ship::Submarine,
            Ability::Rockets | Ability::Missile => Ship::Frigate,
            Ability::Charges | Ability::Radar => Ship::Battleship,
            Ability::Artillery | Ability::Heavy => Ship::Cruiser,
            Ability::Bombing | Ability::Emp => Ship::Carrier,
        }
    }

    /// The two abilities of `ship`, in the order of the section 9 table.
    #[must_use]
    pub const fn of_ship(ship: Ship) -> [Ability; 2] {
        match ship {
            Ship::Corvette => [Ability::Shield, Ability::Satellite],
            Ship::Submarine => [Ability::Torpedo, Ability::Sonar],
            Ship::Frigate => [Ability::Rockets, Ability::Missile],
            Ship::Battleship => [Ability::Charges, Ability::Radar],
            Ship::Cruiser => [Ability::Artillery, Ability::Heavy],
            Ship::Carrier => [Ability::Bombing, Ability::Emp],
        }
    }

    /// Whether it is aimed at a cell of an opponent's board with a rectangular area (section 6.5a):
    /// every ability but the shield, the torpedo and the EMP.
    #[must_use]
    pub const fn is_area(self) -> bool {
        !matches!(self, Ability::Shield | Ability::Torpedo | Ability::Emp)
    }

    /// Whether it takes an orientation: the bombing line only.
    #[must_use]
    pub const fn has_orientation(self) -> bool {
        matches!(self, Ability::Bombing)
    }

    /// Its orientations, as the `vertical` flags of its orders: the bombing line has two
    /// (`false` first), every other ability one (`false`).
    #[must_use]
    pub const fn orientations(self) -> &'static [bool] {
        if self.has_orientation() {
            &[false, true]
        } else {
            &[false]
        }
    }

    /// Area shape (rows, cols) and the aim's offset inside it (row, col), for `vertical` (section
    /// 6.5 and the sizes of section 9). Only the bombing line has an orientation.
    pub(crate) const fn geometry(self, vertical: bool) -> (u8, u8, u8, u8) {
        match self {
            Ability::Satellite | Ability::Sonar | Ability::Rockets => (5, 5, 2, 2),
            Ability::Missile => (4, 4, 1, 1),
            Ability::Charges | Ability::Radar => (7, 7, 3, 3),
            Ability::Artillery => (2, 2, 0, 0),
            Ability::Heavy | Ability::Shield | Ability::Torpedo => (3, 3, 1, 1),
            Ability::Bombing if vertical => (8, 1, 3, 0),
            Ability::Bombing => (1, 8, 0, 3),
            Ability::Emp => (1, 1, 0, 0),
        }
    }

    /// The aim that needs no shift (section 6.5a): the aim clamped coordinate by coordinate.
    #[must_use]
    pub fn normalise(self, cell: Cell, vertical: bool) -> Cell {
        let (h, w, oh, ow) = self.geometry(vertical);
        Cell::at(
            cell.row().clamp(oh, SIDE - h + oh),
            cell.col().clamp(ow, SIDE - w + ow),
        )
    }

    /// The normalised aims, one per distinct area (section 6.5a).
    #[must_use]
    pub fn aims(self, vertical: bool) -> Bits {
        let (h, w, oh, ow) = self.geometry(vertical);
        Bits::rect(
            i32::from(oh),
            i32::from(ow),
            i32::from(SIDE - h + 1),
            i32::from(SIDE - w + 1),
        )
    }

    /// The cells covered when aimed at `cell`, shifted inward to keep its full size (section 6.5).
    #[must_use]
    pub fn area(self, cell: Cell, vertical: bool) -> Bits {
        let (h, w, oh, ow) = self.geometry(vertical);
        let n = self.normalise(cell, vertical);
        Bits::rect(
            i32::from(n.row()) - i32::from(oh),
            i32::from(n.col()) - i32::from(ow),
            i32::from(h),
            i32::from(w),
        )
    }
}

/// Direction of travel of a torpedo (section 3 table).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// Along a row, entering at the left edge.
    Right,
    /// Along a row, entering at the right edge.
    Left,
    /// Along a column, entering at the top edge.
    Down,
    /// Along a column, entering at the bottom edge.
    Up,
}

/// All directions.
pub const DIRS: [Dir; 4] = [Dir::Right, Dir::Left, Dir::Down, Dir::Up];

impl Dir {
    /// Notation word.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Right => "right",
            Dir::Left => "left",
            Dir::Down => "down",
            Dir::Up => "up",
        }
    }

    /// Whether its lane is a row (right, left) rather than a column.
    #[must_use]
    pub const fn along_row(self) -> bool {
        matches!(self, Dir::Right | Dir::Left)
    }

    /// The lane's cells in travel order; `lane` (0 to 13) is a row for right/left, a column for
    /// down/up.
    pub fn lane(self, lane: u8) -> impl Iterator<Item = Cell> {
        (0..SIDE).map(move |i| match self {
            Dir::Right => Cell::at(lane, i),
            Dir::Left => Cell::at(lane, SIDE - 1 - i),
            Dir::Down => Cell::at(i, lane),
            Dir::Up => Cell::at(SIDE - 1 - i, lane),
        })
    }

    /// The direction the table of section 3 gives from `shooter` to an adjacent `target`.
    #[must_use]
    pub const fn between(shooter: Seat, target: Seat) -> Option<Dir> {
        match (shooter.0, target.0) {
            (0, 1) | (3, 2) => Some(Dir::Right),
            (1, 0) | (2, 3) => Some(Dir::Left),
            (0, 3) | (1, 2) => Some(Dir::Down),
            (3, 0) | (2, 1) => Some(Dir::Up),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abilities_belong_to_their_ships() {
        assert_eq!(
            Ability::of_ship(Ship::Corvette),
            [Ability::Shield, Ability::Satellite]
        );
        assert_eq!(
            Ability::of_ship(Ship::Carrier),
            [Ability::Bombing, Ability::Emp]
        );
        for a in ABILITIES {
            assert!(Ability::of_ship(a.ship()).contains(&a));
        }
    }

    #[test]
    fn areas_shift_inward_and_keep_their_size() {
        let corner = Cell::at(0, 0);
        assert_eq!(Ability::Rockets.normalise(corner, false), Cell::at(2, 2));
        assert_eq!(Ability::Rockets.area(corner, false).count(), 25);
        assert_eq!(Ability::Bombing.area(Cell::at(4, 12), false).count(), 8);
        assert_eq!(Ability::Artillery.aims(false).count(), 13 * 13);
    }
}
