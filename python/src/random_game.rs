//! `plateau.random_game`'s trace: a seeded random game played by the engine's driver.

use plateau_engine::chance::{self, Seed};
use plateau_engine::driver::{Driver, Next};
use plateau_engine::{Actor, Seat, ToAct};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde_json::json;

use crate::actions;
use crate::args::{config, entry, value_error};
use crate::digest::{digest, ids_digest, outcomes_digest};

/// A uniformly random game through the engine's driver (chance drawn as a match draws it, one
/// `f64` per chance node from a ChaCha20 generator seeded with `seed`; each seat's action drawn
/// uniformly from its legal list), as a JSON text of parallel lists, one entry per step:
/// `{"actors": [seat, or -1 for chance], "actions": [the seat's action id, or the outcome's
/// position in the chance list], "legal": [digest], "positions": [digest or null], "ranks",
/// "utilities"}`. `legal` is, at a seat's step, the digest of its legal ids in increasing order
/// (each as 4 bytes little-endian), at a chance step that of its outcomes in order (each its text,
/// a zero byte and its probability as 8 bytes little-endian); `positions` the digest of the
/// position text after the step, at every `position_every`-th step and the last (null at the
/// others). A digest is the first 8 bytes of the SHA-256 of those bytes, read as a little-endian
/// integer. At a simultaneous node the lowest seat of the set acts, as the driver's random
/// playouts do. What the package's tests hold the OpenSpiel bridge to, game by game.
#[pyfunction]
#[pyo3(signature = (game, seed, config=None, seats=None, max_actions=100_000, position_every=1))]
pub(crate) fn random_game_json(
    game: &str,
    seed: u64,
    config: Option<&str>,
    seats: Option<usize>,
    max_actions: usize,
    position_every: usize,
) -> PyResult<String> {
    let entry = entry(game)?;
    let codec = actions::codec(entry.info.name).expect("every registered game has action ids");
    let mut state = entry
        .new_game(
            &self::config(config)?,
            seats.unwrap_or(entry.info.default_seats),
        )
        .map_err(value_error)?;
    let mut rng = Seed::from_u64(seed).rng();
    let mut driver: Driver<String> = Driver::checked();
    let (mut actors, mut ids, mut legal, mut positions) = (vec![], vec![], vec![], vec![]);
    for step in 0..max_actions {
        match driver.next(&*state, |_, seats| seats.lowest()) {
            Next::Over => break,
            Next::Chance => {
                // The outcomes listed once, for their digest and the draw (`chance::sample`, the
                // driver's own draw: one `f64`, so the same games).
                let outcomes = state.chance_texts();
                if outcomes.is_empty() {
                    return Err(PyRuntimeError::new_err("a chance node has no outcome"));
                }
                let index = chance::sample(&outcomes, &mut rng);
                state
                    .apply_text(Actor::Chance, &outcomes[index].0)
                    .map_err(value_error)?;
                actors.push(-1);
                ids.push(index as u32);
                legal.push(outcomes_digest(&outcomes));
            }
            Next::Seat(seat) => {
                // The legal list once, for both its digest and the draw (the draw the random
                // bot's `DynGame::random_action` makes, so the same games).
                let (listed, id, action) = codec
                    .random_legal(&*state, seat, &mut rng)
                    .ok_or_else(|| PyRuntimeError::new_err("a seat to act has no action"))?;
                driver
                    .play(&mut *state, seat, &action)
                    .map_err(value_error)?;
                actors.push(seat.index() as i32);
                ids.push(id);
                legal.push(ids_digest(&listed));
            }
        }
        let due = (step + 1) % position_every.max(1) == 0 || state.to_act() == ToAct::Terminal;
        positions.push(due.then(|| digest(state.position_text().as_bytes())));
    }
    let outcome = state.outcome();
    Ok(json!({
        "actors": actors,
        "actions": ids,
        "legal": legal,
        "positions": positions,
        "ranks": outcome.as_ref().map(|o| o.ranks.iter().map(|&r| u32::from(r)).collect::<Vec<_>>()),
        "utilities": outcome.as_ref().map(|o| Seat::all(o.seats()).map(|s| o.utility(s)).collect::<Vec<_>>()),
    })
    .to_string())
}
