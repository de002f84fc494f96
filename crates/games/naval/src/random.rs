//! Uniform random actions without building the legal list, for fast playouts (the benchmark and
//! bots' rollouts).
//!
//! In battle a ship has up to ~1,800 legal orders (588 cells to shoot, hundreds of area aims);
//! listing them for every order would dominate a playout. `random_action` draws the order with
//! `Naval::random_order` (the `orders` module), which counts each family of orders with bit-board
//! popcounts, draws one index uniformly and decodes it: exactly the distribution of a uniform
//! choice from `legal_actions`.

use plateau_engine::{Actor, Game, Seat, ToAct};
use rand::Rng;

use crate::action::Action;
use crate::state::{Naval, Phase};

impl Naval {
    /// Plays one game of random actions (`random_action`) from the start with `rng`, and returns the
    /// battle states after every `every`-th action once at least `min_hits` cells of the living
    /// boards are hit together: late-game positions, where determinization is hardest, for its
    /// tests and benchmark.
    ///
    /// # Panics
    /// If `every` is 0.
    pub fn late_battle_states<R: Rng + ?Sized>(
        rng: &mut R,
        every: usize,
        min_hits: u32,
    ) -> Vec<Naval> {
        let mut out = Vec::new();
        let mut g = Naval::start(&crate::Config::default()).expect("the default config is valid");
        let mut step = 0usize;
        while let Some((actor, a)) = g.random_action(rng) {
            g.apply_legal(actor, &a);
            step += 1;
            let hits: u32 = g
                .boards
                .iter()
                .filter(|b| !b.out)
                .map(|b| b.hit.count())
                .sum();
            if g.phase == Phase::Battle && step.is_multiple_of(every) && hits >= min_hits {
                out.push(g.clone());
            }
        }
        out
    }

    /// A uniformly random legal action of whoever acts now (a random seat of a simultaneous node;
    /// chance outcomes by their probabilities), with that actor; `None` at the end.
    pub fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(Actor, Action)> {
        match self.to_act() {
            ToAct::Terminal => None,
            ToAct::Chance => {
                if let Some(cell) = self.turn.rocket {
                    return Some((
                        Actor::Chance,
                        Action::Rocket {
                            cell,
                            shot: rng.random_bool(0.5),
                        },
                    ));
                }
                if self.phase == Phase::FirstPlayer {
                    return Some((
                        Actor::Chance,
                        Action::First {
                            seat: Seat(rng.random_range(0..4)),
                        },
                    ));
                }
                let mut out = Vec::new();
                self.chance_outcomes(&mut out);
                let i = rng.random_range(0..out.len());
                Some((Actor::Chance, out[i].0))
            }
            ToAct::Simultaneous(set) => {
                let seats: Vec<Seat> = set.iter().collect();
                let seat = seats[rng.random_range(0..seats.len())];
                let mut out = Vec::new();
                self.legal_actions(seat, &mut out);
                let i = rng.random_range(0..out.len());
                Some((Actor::Seat(seat), out[i]))
            }
            ToAct::Player(seat) => {
                let ship = self.turn.next?;
                let order = self.random_order(seat, ship, rng);
                Some((Actor::Seat(seat), Action::Order { ship, order }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use plateau_engine::Game;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::action::Order;
    use crate::{Ability, Config, Ship};

    /// Every sampled order is in the legal list, and with enough draws every kind shows up.
    #[test]
    fn random_orders_are_legal_and_cover_the_list() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut g = Naval::new(&Config::default(), 4).unwrap();
        while !matches!(g.phase, Phase::Battle) {
            let (actor, a) = g.random_action(&mut rng).unwrap();
            g.apply(actor, &a).unwrap();
        }
        for e in &mut g.boards[g.current.index()].energy {
            *e = 1000;
        }
        let seat = g.current;
        for ship in Ship::ALL {
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            let legal: HashSet<Action> = legal.into_iter().collect();
            let mut kinds = HashSet::new();
            for _ in 0..4000 {
                let (_, a) = g.random_action(&mut rng).unwrap();
                assert!(legal.contains(&a), "{a:?} not legal");
                if let Action::Order { order, .. } = a {
                    kinds.insert(order.ability().map_or("plain", Ability::name));
                }
            }
            assert_eq!(kinds.len(), 3, "{ship:?}: pass or fire, and both specials");
            g.apply(
                Actor::Seat(seat),
                &Action::Order {
                    ship,
                    order: Order::Pass,
                },
            )
            .unwrap();
        }
    }
}
