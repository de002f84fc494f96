//! Energy (rules/naval.md section 8): each ship's meter from 0 to 1000, what fills it (E1 the
//! pass, E2 and E3 a normal shot's hits, E4 enemy misses next to it, E5 being hit) and what a
//! special costs when it resolves (section 5.7).

use plateau_engine::Seat;

use crate::ability::Ability;
use crate::bits::{Bits, Cell};
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// The top of every ship's meter.
pub const MAX_ENERGY: u16 = 1000;

/// Adds `x` to a meter, capped at `MAX_ENERGY`.
fn add(e: &mut u16, x: u16) {
    *e = e.saturating_add(x).min(MAX_ENERGY);
}

impl Naval {
    /// E1: `ship` of seat `s` passed.
    pub(crate) fn gain_for_pass(&mut self, s: Seat, ship: Ship) {
        let g = self.config.gains.pass;
        add(&mut self.boards[s.index()].energy[ship.index()], g);
    }

    /// The cost of `ability`, taken from `ship` of seat `s` when its order resolves (5.7).
    pub(crate) fn pay(&mut self, s: Seat, ship: Ship, ability: Ability) {
        let cost = self.config.costs.of(ability);
        let e = &mut self.boards[s.index()].energy[ship.index()];
        *e = e.saturating_sub(cost);
    }

    /// E2/E3: the shooter's `ship` hit a piece with a normal shot: 200 for the first hit on a
    /// fresh piece, 100 for the hit that sinks, 75 for any other.
    pub(crate) fn gain_for_hit(&mut self, s: Seat, ship: Ship, fresh: bool, sank: bool) {
        let gains = self.config.gains;
        let g = if fresh {
            gains.first_hit
        } else if sank {
            gains.sink
        } else {
            gains.hit
        };
        add(&mut self.boards[s.index()].energy[ship.index()], g);
    }

    /// E5: `piece` of seat `t`, hit and still afloat, gains `1000 / size` (buoys gain nothing).
    pub(crate) fn gain_for_damage(&mut self, t: Seat, piece: Piece) {
        if let Some(ship) = piece.ship() {
            let g = MAX_ENERGY / u16::from(piece.size());
            add(&mut self.boards[t.index()].energy[ship.index()], g);
        }
    }

    /// E4: an enemy miss on `c` pays each unsunk ship of seat `t` 25 per cell of it among the 8
    /// around `c`, at most 100 per ship for the whole action resolving (`Turn::miss_gain`).
    pub(crate) fn gain_for_near_miss(&mut self, t: Seat, c: Cell) {
        let gains = self.config.gains;
        let around = Bits::around(c);
        let b = &mut self.boards[t.index()];
        for ship in Ship::ALL {
            if b.is_sunk(ship) {
                continue;
            }
            let n = (b.mask(ship.piece()) & around).count() as u16;
            if n > 0 {
                let j = ship.index();
                let room = gains.miss_cap.saturating_sub(self.turn.miss_gain[j]);
                let g = (n * gains.miss_per_cell).min(room);
                self.turn.miss_gain[j] += g;
                add(&mut b.energy[j], g);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::add;

    #[test]
    fn meters_stop_at_the_top() {
        let mut e = 950;
        add(&mut e, 75);
        assert_eq!(e, 1000);
        add(&mut e, u16::MAX);
        assert_eq!(e, 1000);
    }
}
