//! Random playouts for throughput measurements (`plateau bench`): the same loop as the search's
//! playouts, with buffers reused across games.

use std::time::{Duration, Instant};

use plateau_engine::{Actor, Game, ToAct, chance};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What `random_playouts` did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayoutRate {
    /// Games played from the start state to the end.
    pub playouts: u64,
    /// Actions applied in all, chance outcomes included.
    pub actions: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl PlayoutRate {
    /// Playouts per second.
    #[must_use]
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Plays uniformly random games from `start` (chance by its probabilities) until `budget` is spent,
/// at least one game; a game longer than `max_actions` counts as played at that point.
pub fn random_playouts<G: Game>(
    start: &G,
    budget: Duration,
    max_actions: usize,
    seed: u64,
) -> PlayoutRate {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let started = Instant::now();
    let mut rate = PlayoutRate::default();
    loop {
        let mut state = start.clone();
        for _ in 0..max_actions {
            let seat = match state.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    let i = chance::sample(&outcomes, &mut rng);
                    state.apply_legal(Actor::Chance, &outcomes[i].0);
                    rate.actions += 1;
                    continue;
                }
                ToAct::Player(s) => s,
                ToAct::Simultaneous(set) => match set.iter().next() {
                    Some(s) => s,
                    None => break,
                },
            };
            state.legal_actions(seat, &mut legal);
            if legal.is_empty() {
                break;
            }
            let i = rng.random_range(0..legal.len());
            state.apply_legal(Actor::Seat(seat), &legal[i]);
            rate.actions += 1;
        }
        rate.playouts += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    rate.elapsed = started.elapsed();
    rate
}
