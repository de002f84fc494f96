//! One seat's board (rules/naval.md sections 2, 6, 10, 11): its pieces, the public markers shot
//! on it, its energies, shield and status; and the areas a seat scanned on another's board.

use serde::{Deserialize, Serialize};

use crate::bits::{Bits, Cell};
use crate::piece::{PIECES, Piece, SHIPS, Ship};

/// The corvette's shield on one board (section 10).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Shield {
    /// A shield is up.
    pub active: bool,
    /// It has absorbed a shot, so its outline and charges are public (section 10.7).
    pub public: bool,
    /// Centre as cast.
    pub centre: Cell,
    /// The 3x3, shifted inward.
    pub area: Bits,
    /// Charges left.
    pub charges: u8,
    /// Cells resolved when it was cast (so a sampled shield never covers a cell resolved since).
    pub cast_resolved: Bits,
}

/// One player's board, fleet and status.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Board {
    /// Top-left cell of each piece, by `Piece::index`.
    pub at: [Cell; PIECES],
    /// Bit p: the piece of index p lies along a column.
    pub vertical: u16,
    /// Pieces placed so far, in piece order (9 once the layout chance nodes are done).
    pub placed: u8,
    /// Footprint of each placed piece, by `Piece::index`.
    pub masks: [Bits; PIECES],
    /// Union of the footprints.
    pub occ: Bits,
    /// Cells shot and hit (public).
    pub hit: Bits,
    /// Cells shot and missed (public).
    pub miss: Bits,
    /// Cells where a shield absorbed a shot (public).
    pub deflected: Bits,
    /// Bit `Ship::bit`: the ship is sunk.
    pub sunk: u8,
    /// Energy of each ship, by `Ship::index`, 0..1000 (section 8).
    pub energy: [u16; SHIPS],
    /// The shield.
    pub shield: Shield,
    /// Turn slots still lost to an EMP.
    pub emp_left: u8,
    /// Immune to EMP until one active turn is played (section 9 rule 5).
    pub immune: bool,
    /// Eliminated.
    pub out: bool,
    /// Placement: ready.
    pub ready: bool,
    /// Placement: moves made.
    pub moves: u8,
    /// The frigate fired a ballistic missile and is shown to all (section 9 rule 6).
    pub frigate_shown: bool,
    /// Public: cells a torpedo passed or fizzled through, holding no unsunk-ship cell at the time.
    pub lane_clear: Bits,
    /// Public: torpedo trigger cells, known to hold a ship cell.
    pub ship_known: Bits,
    /// Public: cells hit or deflected by anti-submarine charges, known submarine cells.
    pub sub_known: Bits,
    /// Public: cells anti-submarine charges showed free of an unhit submarine cell.
    pub sub_clear: Bits,
    /// Public: the hit cells that were the first hit on their piece, one per piece hit (each
    /// raised a block, section 7.1, so everyone saw it happen; section 13).
    pub first_hits: Bits,
}

impl Board {
    /// Hit or missed cells.
    #[must_use]
    pub fn resolved(&self) -> Bits {
        self.hit | self.miss
    }

    /// The piece on `c`, if any.
    #[must_use]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        self.placed_pieces().find(|p| self.masks[p.index()].has(c))
    }

    /// The pieces placed so far, in piece order.
    pub fn placed_pieces(&self) -> impl Iterator<Item = Piece> + use<> {
        Piece::ALL.into_iter().take(usize::from(self.placed))
    }

    /// The footprint of `piece` (empty until it is placed).
    #[inline]
    #[must_use]
    pub fn mask(&self, piece: Piece) -> Bits {
        self.masks[piece.index()]
    }

    /// Cells of unsunk ships.
    #[must_use]
    pub fn live_ships(&self) -> Bits {
        let mut b = Bits::EMPTY;
        for ship in Ship::ALL.into_iter().take(usize::from(self.placed)) {
            if !self.is_sunk(ship) {
                b |= self.mask(ship.piece());
            }
        }
        b
    }

    /// Cells of every ship, sunk or not.
    #[must_use]
    pub fn ships(&self) -> Bits {
        Ship::ALL
            .iter()
            .fold(Bits::EMPTY, |a, s| a | self.mask(s.piece()))
    }

    /// Whether `ship` is sunk.
    #[inline]
    #[must_use]
    pub const fn is_sunk(&self, ship: Ship) -> bool {
        self.sunk & ship.bit() != 0
    }

    /// Whether `piece` lies along a column.
    #[must_use]
    pub const fn is_vertical(&self, piece: Piece) -> bool {
        self.vertical & 1 << piece as u8 != 0
    }

    /// Puts `piece` at `cell` (footprint already checked), recomputing the union.
    pub fn put(&mut self, piece: Piece, cell: Cell, vertical: bool, mask: Bits) {
        let i = piece.index();
        self.at[i] = cell;
        self.vertical = if vertical {
            self.vertical | 1 << i
        } else {
            self.vertical & !(1 << i)
        };
        self.masks[i] = mask;
        self.occ = self.masks[..usize::from(self.placed).max(i + 1)]
            .iter()
            .fold(Bits::EMPTY, |a, m| a | *m);
    }

    /// Hit buoys whose every in-board neighbour is resolved: shown as sunk (section 11.3).
    #[must_use]
    pub fn sunk_buoys(&self) -> Bits {
        let resolved = self.resolved();
        let mut out = Bits::EMPTY;
        for p in SHIPS..usize::from(self.placed) {
            let m = self.masks[p];
            if m.within(self.hit)
                && let Some(c) = m.first()
                && Bits::around(c).within(resolved)
            {
                out |= m;
            }
        }
        out
    }
}

/// Areas one seat scanned on one board; the results follow from the layout (ships never move).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Scan {
    /// Spy satellite areas.
    pub satellite: Bits,
    /// Sonar areas.
    pub sonar: Bits,
    /// Radar areas.
    pub radar: Bits,
}
