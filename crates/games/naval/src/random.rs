//! Uniform random actions without building the legal list, for fast playouts (the benchmark and
//! bots' rollouts).
//!
//! In battle a ship has up to ~1,800 legal orders (588 cells to shoot, hundreds of area aims);
//! listing them for every order would dominate a playout. `random_action` counts each kind of
//! order with bit-board popcounts, draws one index uniformly and decodes it, so it picks exactly
//! the distribution of a uniform choice from `legal_actions`.

use plateau_engine::{Actor, Game, Seat, ToAct};
use rand::Rng;

use crate::action::{Ability, Action, Order};
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
        let mut g =
            Naval::start(&crate::state::Config::default()).expect("the default config is valid");
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
                            seat: rng.random_range(0..4),
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
                let ship = self.turn.next;
                let order = self.random_order(seat.0, ship, rng);
                Some((Actor::Seat(seat), Action::Order { ship, order }))
            }
        }
    }

    /// A uniformly random legal order for ship `ship` of seat `s` (the set `list_orders` writes).
    fn random_order<R: Rng + ?Sized>(&self, s: u8, ship: u8, rng: &mut R) -> Order {
        let opponents = (0..4u8).filter(|&t| t != s && !self.boards[t as usize].out);
        let mut fire = [crate::bits::Bits::EMPTY; 4];
        let mut total = 1u32;
        for t in opponents.clone() {
            fire[t as usize] = self.fire_targets(s, t);
            total += fire[t as usize].count();
        }
        let energy = self.boards[s as usize].energy[ship as usize];
        let abilities = Ability::of_ship(ship);
        let mut counts = [0u32; 2];
        for (i, ab) in abilities.iter().enumerate() {
            if energy < self.config.costs.of(*ab) {
                continue;
            }
            counts[i] = match ab {
                Ability::Shield => self.shield_centres(s).count(),
                Ability::Torpedo => opponents
                    .clone()
                    .map(|t| 14 * self.torpedo_dirs(s, t).count() as u32)
                    .sum(),
                Ability::Emp => opponents
                    .clone()
                    .filter(|&t| {
                        self.boards[t as usize].emp_left == 0 && !self.boards[t as usize].immune
                    })
                    .count() as u32,
                Ability::Bombing => {
                    opponents.clone().count() as u32
                        * (ab.aims(false).count() + ab.aims(true).count())
                }
                _ => opponents.clone().count() as u32 * ab.aims(false).count(),
            };
            total += counts[i];
        }
        let mut n = rng.random_range(0..total);
        if n == 0 {
            return Order::Pass;
        }
        n -= 1;
        for t in opponents.clone() {
            let k = fire[t as usize].count();
            if n < k {
                let cell = fire[t as usize].nth(n).unwrap_or(0);
                return Order::Fire { target: t, cell };
            }
            n -= k;
        }
        for (i, &ab) in abilities.iter().enumerate() {
            if n >= counts[i] {
                n -= counts[i];
                continue;
            }
            match ab {
                Ability::Shield => {
                    let cell = self.shield_centres(s).nth(n).unwrap_or(0);
                    return Order::Special {
                        ability: ab,
                        target: s,
                        cell,
                        vertical: false,
                    };
                }
                Ability::Torpedo => {
                    for t in opponents.clone() {
                        for dir in self.torpedo_dirs(s, t) {
                            if n < 14 {
                                return Order::Torpedo {
                                    target: t,
                                    dir,
                                    lane: n as u8,
                                };
                            }
                            n -= 14;
                        }
                    }
                }
                Ability::Emp => {
                    let target = opponents
                        .clone()
                        .filter(|&t| {
                            self.boards[t as usize].emp_left == 0 && !self.boards[t as usize].immune
                        })
                        .nth(n as usize)
                        .unwrap_or(0);
                    return Order::Emp { target };
                }
                _ => {
                    let orientations: &[bool] = if ab == Ability::Bombing {
                        &[false, true]
                    } else {
                        &[false]
                    };
                    for t in opponents.clone() {
                        for &vertical in orientations {
                            let aims = ab.aims(vertical);
                            if n < aims.count() {
                                let cell = aims.nth(n).unwrap_or(0);
                                return Order::Special {
                                    ability: ab,
                                    target: t,
                                    cell,
                                    vertical,
                                };
                            }
                            n -= aims.count();
                        }
                    }
                }
            }
        }
        Order::Pass
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use plateau_engine::{Game, Seat};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::Config;

    /// Every sampled order is in the legal list, and with enough draws every kind shows up.
    #[test]
    fn random_orders_are_legal_and_cover_the_list() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut g = Naval::new(&Config::default(), 4).unwrap();
        while !matches!(g.phase, Phase::Battle) {
            let (actor, a) = g.random_action(&mut rng).unwrap();
            g.apply(actor, &a).unwrap();
        }
        for e in &mut g.boards[g.current as usize].energy {
            *e = 1000;
        }
        let seat = Seat(g.current);
        for ship in 0..6 {
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
            assert_eq!(
                kinds.len(),
                3,
                "ship {ship}: pass or fire, and both specials"
            );
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
