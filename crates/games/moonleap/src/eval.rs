//! A heuristic value of a running game, for bots: each seat's score if its astronauts stood a
//! little further on. The game crate offers it as a plain method (it knows nothing of bots); the
//! registry wraps it into the bots' evaluator (greedy look-ahead).
//!
//! Scores are counted at the end (rules/moonleap.md "End & scoring": number × cell value, number ×
//! the off-board multiplier for an astronaut never entered), and astronauts only move forward. So
//! an astronaut on cell `c` is credited with the mean value of the `REACH` cells from `c` on (the
//! track's values grow along it, with blank cells in between), and one off the board with the
//! off-board multiplier. The utility (rank based, `Outcome::utility`) is then estimated pairwise:
//! seat `i` beats seat `j` with probability `1 / (1 + exp(-(v_i - v_j) / SPREAD))`, and its
//! utility is the mean of those over the other seats.

use plateau_engine::{Game, Seat};

use crate::MoonLeap;
use crate::state::{ASTRONAUTS, Colour};

/// How many cells, from its own on, an astronaut's value is averaged over.
const REACH: usize = 4;
/// Points of estimated score difference that make a pairwise win about 73% likely.
const SPREAD: f64 = 25.0;

impl MoonLeap {
    /// Writes into `out[s]`, for every seat `s` (`out.len()` must be the seat count), the
    /// expected `Outcome::utility` of `s`, in [0, 1]: the result once the game is over, otherwise
    /// the estimate of this module's documentation. The values sum to `seats / 2`, as utilities
    /// do. Mercenaries score for no one and are left out.
    ///
    /// # Panics
    /// If `out.len()` is not the number of seats.
    pub fn evaluation(&self, out: &mut [f64]) {
        let seats = Game::seats(self);
        assert_eq!(out.len(), seats, "one value per seat");
        if let Some(outcome) = self.outcome() {
            for (s, v) in out.iter_mut().enumerate() {
                *v = outcome.utility(Seat(s as u8));
            }
            return;
        }
        let mut estimate = [0.0; 4];
        for (seat, e) in Seat::all(seats).zip(estimate.iter_mut()) {
            *e = (1..=ASTRONAUTS as u8)
                .map(|n| f64::from(n) * self.prospect(self.cell_of(Colour::of(seat), n)))
                .sum();
        }
        for (i, v) in out.iter_mut().enumerate() {
            let wins: f64 = (0..seats)
                .filter(|&j| j != i)
                .map(|j| 1.0 / (1.0 + (-(estimate[i] - estimate[j]) / SPREAD).exp()))
                .sum();
            *v = wins / (seats as f64 - 1.0);
        }
    }

    /// What an astronaut on `cell` (`None`: off the board) is expected to be worth per point of
    /// its number.
    fn prospect(&self, cell: Option<u8>) -> f64 {
        let board = self.board();
        let Some(cell) = cell else {
            return f64::from(board.offboard_multiplier());
        };
        let last = (usize::from(cell) + REACH - 1).min(board.len());
        let cells = usize::from(cell)..=last;
        let count = cells.clone().count() as f64;
        let total: i32 = cells.map(|c| board.value(c as u8)).sum();
        f64::from(total) / count
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Actor, Game};

    use crate::{Config, MoonLeap};

    fn values(state: &MoonLeap) -> Vec<f64> {
        let mut out = vec![0.0; Game::seats(state)];
        state.evaluation(&mut out);
        let sum: f64 = out.iter().sum();
        assert!((sum - out.len() as f64 / 2.0).abs() < 1e-9, "{out:?}");
        out
    }

    #[test]
    fn the_start_is_even_for_every_seat() {
        for seats in 2..=4 {
            let start = MoonLeap::new(&Config::default(), seats).unwrap();
            for v in values(&start) {
                assert!((v - 0.5).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn entering_an_astronaut_raises_its_seats_value() {
        let mut game = MoonLeap::new(&Config::default(), 2).unwrap();
        // Seat 0 rolls a 5 and enters astronaut 5 on cell 1: 5 × (mean of cells 1-4 = -2.75)
        // instead of 5 × -5 off the board.
        let roll = game.parse_action("r5").unwrap();
        game.apply(Actor::Chance, &roll).unwrap();
        let mut legal = Vec::new();
        game.legal_actions(plateau_engine::Seat(0), &mut legal);
        game.apply(Actor::Seat(plateau_engine::Seat(0)), &legal[0])
            .unwrap();
        let v = values(&game);
        let expected = 1.0 / (1.0 + (-(5.0 * (-2.75 + 5.0)) / 25.0f64).exp());
        assert!((v[0] - expected).abs() < 1e-9, "{v:?}");
    }
}
