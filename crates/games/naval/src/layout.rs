//! The thorough policy's layout (rules/naval.md section 4.5a; nothing here changes the rules):
//! the placement starts from a random layout, and the policy moves one piece at a time towards a
//! layout that is slower to find and sink, then says `ready`.
//!
//! A layout's cost adds, for each ship but the corvette, minus the cover of its cells (`cover`:
//! the middle of the board, where most footprints lie) and `TOUCH` for each cell of another ship
//! beside it; for the corvette, plus the cover (and the same `TOUCH`); for each buoy, the cover of
//! its cell and `BUOY_NEAR` for each ship cell within two steps of it. So the ships gather in the
//! middle without sharing a side, the corvette hides in a corner, and the buoys go to the other
//! corners. Each move is the one that lowers the cost most, every other piece staying put (a
//! local search: the layout it stops at depends on the random one it started from).
//!
//! Why the corvette: a fleet is out when its last ship sinks (section 12.1), and the hunt for the
//! last ship on a board looks last where the fewest footprints lie, the corners. Measured against
//! three greedy bots (docs/bots.md section 1, four seats, 25% is parity, 1000 games a seed): a
//! greedy bot that placed its pieces this way won 62.9% and 63.0% (seeds 5 and 6), where the
//! former layout (the corvette in the middle with the other ships) won 34.5% and 37.3% and the
//! random layout 24.1%; the small ships all in the corners 51.2%, the corvette and the submarine
//! 56.3%, the carrier alone 22.7%. The former measurements: the whole fleet towards the edges
//! 16.2%, buoys in the middle 26.6%, ships kept apart without regard to the cover about 20%.

use std::sync::OnceLock;

use plateau_engine::Seat;

use crate::action::Action;
use crate::bits::{Bits, CELLS};
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// Cost of each cell of another ship beside a ship's footprint: about the cover the carrier loses
/// from the middle to an edge (2.5 to 1.2), so ships keep apart unless the board is crowded
/// (0.3, 1 and 3 measured the same within their intervals).
const TOUCH: f32 = 1.0;
/// Cost of each ship cell within two steps of a buoy: a buoy hit is chased (its neighbours shot
/// until it shows sunk, section 11.3), which must not lead to the corvette in its corner (with 0:
/// 60.0% and 61.9% at seeds 5 and 6, against 62.9% and 63.0%).
const BUOY_NEAR: f32 = 1.0;
/// Least fall of the cost for a move to be worth making (rounding aside).
const LEAST_GAIN: f32 = 1e-3;

/// Expected ship cells on each cell, by `Cell::index`, when every ship lies uniformly over its
/// own footprints (the counted odds of an untouched board, `Naval::odds`, without the pieces
/// excluding each other): 0.04 in a corner, 0.21 in the middle, 29 in all.
fn cover() -> &'static [f32; CELLS] {
    static COVER: OnceLock<[f32; CELLS]> = OnceLock::new();
    COVER.get_or_init(|| {
        let mut cover = [0f32; CELLS];
        for ship in Ship::ALL {
            let footprints = ship.piece().footprints();
            let share = 1.0 / footprints.len() as f32;
            for (_, _, cells) in footprints {
                for c in cells.iter() {
                    cover[c.index()] += share;
                }
            }
        }
        cover
    })
}

/// The cost of `piece` lying on `cells` (module documentation), `others` the other pieces'
/// cells and `ships` every ship cell of its board.
fn piece_cost(piece: Piece, cells: Bits, others: Bits, ships: Bits) -> f32 {
    let covered: f32 = cells.iter().map(|c| cover()[c.index()]).sum();
    if piece.is_buoy() {
        let one = cells | cells.beside();
        let two = one | one.beside();
        covered + BUOY_NEAR * (two & ships).count() as f32
    } else {
        let touching = TOUCH * (cells.beside() & others & ships).count() as f32;
        if piece == Piece::Corvette {
            touching + covered
        } else {
            touching - covered
        }
    }
}

impl Naval {
    /// The cost of `seat`'s layout (module documentation) over its pieces not hit yet: how easy
    /// its fleet is to find, for the evaluation (`eval`). A hit piece is found, and its cost no
    /// longer counts. Reads `seat`'s own board only.
    #[must_use]
    pub fn layout_cost(&self, seat: Seat) -> f32 {
        let b = self.board(seat);
        let ships = b.ships();
        Piece::ALL
            .into_iter()
            .map(|p| (p, b.mask(p)))
            .filter(|&(_, m)| !m.is_empty() && !m.meets(b.hit))
            .map(|(p, m)| piece_cost(p, m, b.occ & !m, ships))
            .sum()
    }

    /// The thorough policy's placement action for `seat` (module documentation): the piece move
    /// that lowers the layout's cost most, or `ready` when no move lowers it, when `seat` is
    /// already ready, or when its placement moves are spent (section 4.5a). Reads `seat`'s own
    /// board only; the action is always legal while `seat` places.
    pub(crate) fn placement_move(&self, seat: Seat) -> Action {
        let b = self.board(seat);
        if b.ready || b.moves >= self.config.placement_moves {
            return Action::Ready;
        }
        let ships = b.ships();
        let cost =
            |piece: Piece, cells: Bits, others: Bits| piece_cost(piece, cells, others, ships);
        let mut best: Option<(f32, Action)> = None;
        for piece in Piece::ALL {
            let here = b.mask(piece);
            let others = b.occ & !here;
            let now = cost(piece, here, others);
            for &(cell, vertical, cells) in piece.footprints() {
                if cells.meets(others) {
                    continue;
                }
                let gain = now - cost(piece, cells, others);
                if gain > LEAST_GAIN && best.as_ref().is_none_or(|&(g, _)| gain > g) {
                    let action = Action::Place {
                        piece,
                        cell,
                        vertical,
                    };
                    best = Some((gain, action));
                }
            }
        }
        best.map_or(Action::Ready, |(_, action)| action)
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Actor, Game};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::bits::Cell;
    use crate::state::Phase;

    /// The four corner cells.
    fn corners() -> impl Iterator<Item = Cell> {
        ["a1", "a14", "n1", "n14"]
            .into_iter()
            .map(|c| Cell::parse(c).unwrap())
    }

    /// The cover adds up to the fleet's 29 cells and is least in the corners.
    #[test]
    fn the_cover_counts_the_fleet_and_is_least_in_the_corners() {
        let cover = cover();
        let total: f32 = cover.iter().sum();
        assert!((total - 29.0).abs() < 1e-3, "{total}");
        let least = cover.iter().copied().fold(f32::INFINITY, f32::min);
        for c in corners() {
            assert_eq!(cover[c.index()], least, "{c}");
        }
        let middle = Cell::parse("g7").unwrap();
        assert!(cover[middle.index()] > 3.0 * least);
    }

    /// From seeded random layouts, every move is legal and the search says `ready` by itself,
    /// well before the moves allowed run out; the ships end up sharing no side, off the board's
    /// outer ring but the corvette, which lies on a corner, and the buoys on the three other
    /// corners.
    #[test]
    fn the_layout_gathers_ships_apart_and_hides_the_corvette_in_a_corner() {
        let corners = corners().fold(Bits::EMPTY, |a, c| a | Bits::cell(c));
        let ring = !Bits::rect(1, 1, 12, 12) & Bits::rect(0, 0, 14, 14);
        for seed in 0..8 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = Naval::new(&crate::Config::default(), 4).unwrap();
            while g.phase != Phase::Placement {
                let (actor, a) = g.random_action(&mut rng).unwrap();
                g.apply_legal(actor, &a);
            }
            let seat = Seat(1);
            for moves in 0.. {
                let a = g.placement_move(seat);
                g.apply(Actor::Seat(seat), &a)
                    .expect("a legal placement action");
                if a == Action::Ready {
                    // Stopped by itself (7 to 9 moves on these seeds), not by the limit of 40.
                    assert!(moves < 20, "{moves} moves");
                    break;
                }
            }
            let b = g.board(seat);
            assert!(b.ready);
            for ship in Ship::ALL {
                let cells = b.mask(ship.piece());
                let others = b.ships() & !cells;
                assert!(
                    !cells.beside().meets(others),
                    "seed {seed}: {ship:?} touches"
                );
                if ship == Ship::Corvette {
                    assert!(
                        cells.meets(corners),
                        "seed {seed}: corvette off the corners"
                    );
                } else {
                    assert!(!cells.meets(ring), "seed {seed}: {ship:?} on the edge");
                }
            }
            let buoys = [Piece::Buoy1, Piece::Buoy2, Piece::Buoy3]
                .iter()
                .fold(Bits::EMPTY, |a, &p| a | b.mask(p));
            assert!(buoys.within(corners), "seed {seed}: buoys off the corners");
            assert!(
                !(buoys | b.mask(Piece::Corvette)).beside().meets(buoys),
                "seed {seed}: a buoy beside the corvette"
            );
        }
    }
}
