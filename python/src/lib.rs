//! `plateau._plateau`: the extension module under the Python package `plateau` (python/README.md).
//!
//! A thin layer over the engine's text-driven view of a game (`DynGame`, docs/architecture.md
//! section 2.4): actions go in and out as their canonical text, observations as JSON, states as
//! their serialized form (section 2.2), and as ids of a fixed action space per game (`actions`,
//! from the engine's typed actions). The Python package builds the rest (tensors, the OpenSpiel
//! bridge) on these few calls, so no rule is written twice.
//!
//! By module: `state` (`State`), `bot` (`Bot`), `random_game` (the driver's seeded random game),
//! `actions` (the action spaces), `args` (what Python passes in, checked), `digest`.

mod actions;
mod args;
mod bot;
mod digest;
mod random_game;
mod state;

use pyo3::prelude::*;
use serde_json::{Value, json};

use bot::Bot;
use random_game::random_game_json;
use state::State;

/// Every registered game as a JSON text: a list of objects with `name`, `title`, `min_seats`,
/// `max_seats`, `default_seats`, `chance`, `hidden_information`, `simultaneous`,
/// `default_config` (an object) and `levels` (seat count -> the five levels, weakest first, each
/// `{"level", "bot", "rating"}`).
#[pyfunction]
fn games_json() -> String {
    let games: Vec<Value> = plateau_registry::GAMES
        .iter()
        .map(|g| {
            let info = g.info;
            let levels: serde_json::Map<String, Value> = (info.min_seats..=info.max_seats)
                .filter_map(|n| {
                    let table = plateau_registry::bot_factory(info.name).ok()?.levels_at(n)?;
                    let rows = table
                        .iter()
                        .map(|l| {
                            json!({"level": l.level.name(), "bot": l.spec.to_string(), "rating": l.rating})
                        })
                        .collect();
                    Some((n.to_string(), Value::Array(rows)))
                })
                .collect();
            json!({
                "name": info.name,
                "title": info.title,
                "min_seats": info.min_seats,
                "max_seats": info.max_seats,
                "default_seats": info.default_seats,
                "chance": info.chance,
                "hidden_information": info.hidden_information,
                "simultaneous": info.simultaneous,
                "default_config": g.default_config(),
                "levels": levels,
            })
        })
        .collect();
    Value::Array(games).to_string()
}

/// The extension module.
#[pymodule]
fn _plateau(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(random_game_json, m)?)?;
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    Ok(())
}
