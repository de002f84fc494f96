//! `plateau.Bot`: a bot of the registry for one game and one seat.

use std::sync::Mutex;

use plateau_bots::{BotSpec, DynBot};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::args::{entry, seat, value_error};
use crate::state::State;

/// A bot of the registry for one game, kept for a whole game and one seat (its search keeps its
/// tree between moves): `random`, `greedy`, `greedy:<percent>`, `blunder:<percent>`, a level
/// (`beginner` .. `expert`), `mcts:<ms>` or `mcts:i<iterations>` (docs/bots.md).
#[pyclass(module = "plateau._plateau")]
pub(crate) struct Bot {
    spec: String,
    game: &'static str,
    bot: Mutex<Box<dyn DynBot>>,
}

#[pymethods]
impl Bot {
    /// The bot `spec` for `game`, seeded with `seed`. `KeyError` for an unknown game,
    /// `ValueError` for a spec that does not read.
    #[new]
    fn new(game: &str, spec: &str, seed: u64) -> PyResult<Bot> {
        let game = entry(game)?.info.name;
        let parsed: BotSpec = spec.parse().map_err(value_error)?;
        let bot = plateau_registry::new_bot(game, parsed, seed).map_err(value_error)?;
        Ok(Bot {
            spec: parsed.to_string(),
            game,
            bot: Mutex::new(bot),
        })
    }

    /// The bot's spec as text.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The bot's game.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The action the bot plays for `seat` in `state` (canonical text), from what that seat may
    /// know only. `ValueError` for a state of another game or a seat with nothing to play.
    fn act(&self, py: Python<'_>, state: &State, seat: usize) -> PyResult<String> {
        let seat = self::seat(&*state.state, seat)?;
        let game = &*state.state;
        let mut guard = self
            .bot
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the bot failed in an earlier call"))?;
        let bot: &mut Box<dyn DynBot> = &mut guard;
        // The search runs without the interpreter's lock, so other Python threads go on.
        py.detach(|| bot.act(game, seat)).map_err(value_error)
    }
}
