//! A heuristic value of a running game for bots (rules/naval.md sections 8, 9 and 12; nothing here
//! changes the rules): the search scores its cut-off playouts with it, on a determinized state.
//!
//! Each living seat gets a strength: its unhit ship cells, a cell of a damaged ship counting less
//! (everyone sees the hits and aims beside them), its ships' energy as future shots, less while an
//! EMP holds it; what its detections revealed, as shots sure to hit (`KNOWN_CELL` per unhit enemy
//! ship cell in its satellite, sonar and radar areas: what a detection is worth is what it finds);
//! and how hard its pieces not yet hit are to find (`LAYOUT` times minus the thorough layout's
//! cost, `Naval::layout_cost`: what a layout is worth is what it protects), which alone tells the
//! seats apart before the battle. A seat's value is the expected `Outcome::utility` of section
//! 12.5's ranking: the seats already out are beaten in their elimination order, and each living
//! pair is decided by a logistic of the strength difference.

use plateau_engine::Seat;

use crate::piece::Ship;
use crate::state::{Naval, Phase};

/// An unhit cell of a ship that is already hit, in unhit cells of an untouched ship.
const DAMAGED_CELL: f64 = 0.6;
/// Strength per point of energy summed over the ships afloat (1000 energy: 2.5 cells).
const PER_ENERGY: f64 = 0.0025;
/// Strength lost per turn slot still lost to an EMP.
const PER_EMP_TURN: f64 = 1.5;
/// Strength per unhit enemy ship cell inside the seat's own detection areas: a found cell is a
/// later hit, short of the hit itself (the thorough policy values a detection at one hit's worth
/// per such cell, `policy::SCAN_VALUE`, before the odds of finding it).
const KNOWN_CELL: f64 = 0.6;
/// Strength per unit of the layout's cost saved: the thorough layout's gain over a random one
/// (about 1.5 units) is then worth about a cell and a half.
const LAYOUT: f64 = 1.0;
/// Strength difference at which the stronger seat outlasts the weaker with chance 1/(1+e^-1).
const SCALE: f64 = 5.0;

impl Naval {
    /// Each seat's strength (module documentation); 0 for a seat out of the game.
    #[must_use]
    pub fn strength(&self, seat: Seat) -> f64 {
        let b = self.board(seat);
        if b.out {
            return 0.0;
        }
        let mut s = 0.0;
        for k in Ship::ALL {
            if b.is_sunk(k) {
                continue;
            }
            let m = b.mask(k.piece());
            let unhit = f64::from((m & !b.hit).count());
            s += if m.meets(b.hit) {
                DAMAGED_CELL * unhit
            } else {
                unhit
            };
            s += PER_ENERGY * f64::from(b.energy[k.index()]);
        }
        s += KNOWN_CELL * f64::from(self.known_cells(seat))
            - LAYOUT * f64::from(self.layout_cost(seat));
        if b.shield.active {
            // Each charge left saves about a tenth of a cell where the shield covers ships.
            let covered = f64::from((b.shield.area & b.live_ships()).count().min(5)) / 5.0;
            s += 0.1 * f64::from(b.shield.charges) * covered;
        }
        s - PER_EMP_TURN * f64::from(b.emp_left)
    }

    /// Unhit cells of other living seats' ships inside `seat`'s satellite, sonar and radar
    /// areas: what its detections found and nobody has hit yet.
    #[must_use]
    pub fn known_cells(&self, seat: Seat) -> u32 {
        self.opponents(seat)
            .map(|t| {
                let scan = self.scans[seat.index()][t.index()];
                let b = self.board(t);
                (b.live_ships() & !b.hit & (scan.satellite | scan.sonar | scan.radar)).count()
            })
            .sum()
    }

    /// The expected utility of every seat (module documentation), by seat index; each in [0, 1].
    /// A finished game gets its outcome's utilities.
    #[must_use]
    pub fn evaluation(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        if let Some(outcome) = self.result() {
            for (i, v) in out.iter_mut().enumerate() {
                *v = outcome.utility(Seat(i as u8));
            }
            return out;
        }
        if !matches!(
            self.phase,
            Phase::Battle | Phase::Placement | Phase::FirstPlayer
        ) {
            return [0.5; 4];
        }
        let strength: [f64; 4] = std::array::from_fn(|i| self.strength(Seat(i as u8)));
        for (i, v) in out.iter_mut().enumerate() {
            let me = Seat(i as u8);
            if let Some(k) = self.out_order.iter().position(|&s| s == me) {
                *v = k as f64 / 3.0;
                continue;
            }
            let mut beaten = self.out_order.len() as f64;
            for j in Seat::all(4).filter(|&j| j != me && !self.board(j).out) {
                let d = strength[i] - strength[j.index()];
                beaten += 1.0 / (1.0 + (-d / SCALE).exp());
            }
            *v = beaten / 3.0;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Values stay in [0, 1] and sum to what the ranks hand out (0 + 1/3 + 2/3 + 1 = 2), and the
    /// seat with the most unhit cells is valued above the seat with the fewest.
    #[test]
    fn values_are_utilities_that_follow_the_fleets() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let states = Naval::late_battle_states(&mut rng, 41, 20);
        assert!(states.len() >= 5);
        for g in &states {
            let v = g.evaluation();
            assert!(v.iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
            assert!((v.iter().sum::<f64>() - 2.0).abs() < 1e-9, "{v:?}");
            let alive: Vec<Seat> = Seat::all(4).filter(|&s| !g.board(s).out).collect();
            let by = |s: &Seat| g.strength(*s);
            let top = alive
                .iter()
                .copied()
                .max_by(|a, b| by(a).total_cmp(&by(b)))
                .unwrap();
            let low = alive
                .iter()
                .copied()
                .min_by(|a, b| by(a).total_cmp(&by(b)))
                .unwrap();
            if by(&top) > by(&low) {
                assert!(v[top.index()] > v[low.index()], "{v:?}");
            }
        }
    }
}
