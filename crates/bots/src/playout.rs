//! Random playouts for throughput measurements (`plateau bench`): the same driver and random
//! policy as the search's playouts, with buffers reused across games.

use std::time::{Duration, Instant};

use plateau_engine::Game;
use plateau_engine::driver::{Driver, Next};
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
/// at least one game; a game longer than `max_actions` counts as played at that point. The games
/// advance through the engine's driver (docs/architecture.md section 2.3), one `random_step` at a
/// time.
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
            if !random_step(&mut driver, &mut state, &mut legal, &mut rng) {
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

/// One step of a random playout: chance by its probabilities, or a uniformly random legal
/// action of the lowest seat to act (listed into `legal`, drawn with one `random_range`).
/// Returns false, playing nothing, when the game is over or stuck (no outcome, no legal action).
///
/// The random playouts of `plateau bench` and of the search use it; its steps are the driver's
/// `next`, `draw` and `play` rather than `Driver::step` with the engine's `RandomPolicy`, which
/// draws the same actions but runs about 3% more instructions in the search's hot loop.
#[inline(always)]
pub(crate) fn random_step<G: Game, R: Rng>(
    driver: &mut Driver<G::Action>,
    state: &mut G,
    legal: &mut Vec<G::Action>,
    rng: &mut R,
) -> bool {
    match driver.next(state, |_, seats| seats.lowest()) {
        Next::Over => false,
        Next::Chance => driver.draw(state, rng).is_ok(),
        Next::Seat(seat) => {
            state.legal_actions(seat, legal);
            if legal.is_empty() {
                return false;
            }
            let i = rng.random_range(0..legal.len());
            driver.play(state, seat, &legal[i]).is_ok()
        }
    }
}
