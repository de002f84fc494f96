//! Random playouts for throughput measurements (`plateau bench`): the same driver and random
//! policy as the search's playouts, with buffers reused across games.

use std::time::{Duration, Instant};

use plateau_engine::Game;
use plateau_engine::driver::Driver;
use rand::SeedableRng;
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
/// at least one game; a game longer than `max_actions` counts as played at that point. The games
/// advance through the engine's driver (docs/architecture.md section 2.3), one
/// `Driver::random_step` at a time.
pub fn random_playouts<G: Game>(
    start: &G,
    budget: Duration,
    max_actions: usize,
    seed: u64,
) -> PlayoutRate {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut driver = Driver::trusted();
    let mut legal = Vec::new();
    let started = Instant::now();
    let mut rate = PlayoutRate::default();
    loop {
        let mut state = start.clone();
        for _ in 0..max_actions {
            if !driver.random_step(&mut state, &mut legal, &mut rng) {
                break;
            }
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
