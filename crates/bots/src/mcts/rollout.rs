//! The playout after the tree: random or policy actions to the end or the evaluator's cut-off.

use plateau_engine::driver::Next;
use plateau_engine::{Game, Seat, ToAct};
use rand::Rng;

use super::{MAX_SEATS, Mcts};
use crate::eval::Evaluator;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// Plays random actions (chance by its probabilities) until the end or `limit` actions, and
    /// returns every seat's utility (by the evaluator after a cut-off).
    pub(super) fn playout(&mut self, state: &mut G, limit: usize) -> [f64; MAX_SEATS] {
        let seats = state.seats().min(MAX_SEATS);
        let mut rewards = [0.5; MAX_SEATS];
        let policy = self.evaluator.has_playout_policy();
        for _ in 0..limit {
            let stepped = if policy {
                self.policy_step(state)
            } else {
                self.driver
                    .random_step(state, &mut self.legal, &mut self.rng)
            };
            if !stepped {
                break;
            }
        }
        if let (ToAct::Terminal, Some(outcome)) = (state.to_act(), state.outcome()) {
            for (i, r) in rewards.iter_mut().enumerate().take(seats) {
                *r = outcome.utility(Seat(i as u8));
            }
            return rewards;
        }
        self.evaluator.evaluate(state, &mut rewards[..seats]);
        rewards
    }

    /// One playout step with the evaluator's policy (`Evaluator::playout_action`), a random legal
    /// action where it has none; the same contract as `Driver::random_step`.
    pub(super) fn policy_step(&mut self, state: &mut G) -> bool {
        match self.driver.next(state, |_, seats| seats.lowest()) {
            Next::Over => false,
            Next::Chance => self.driver.draw(state, &mut self.rng).is_ok(),
            Next::Seat(s) => {
                let action = match self.evaluator.playout_action(state, s, &mut self.rng) {
                    Some(a) => a,
                    None => {
                        state.legal_actions(s, &mut self.legal);
                        if self.legal.is_empty() {
                            return false;
                        }
                        let i = self.rng.random_range(0..self.legal.len());
                        self.legal.swap_remove(i)
                    }
                };
                self.driver.play(state, s, &action).is_ok()
            }
        }
    }
}
