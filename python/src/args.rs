//! What Python passes in, read and checked: a game's name, a config, a seat; refusals as
//! Python's exceptions.

use plateau_engine::{DynGame, GameEntry, Seat};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value;

/// The registry's entry of `game`, or `KeyError` naming the known games.
pub(crate) fn entry(game: &str) -> PyResult<&'static GameEntry> {
    plateau_registry::find(game).map_err(|e| PyKeyError::new_err(e.to_string()))
}

/// A config given as JSON text (`None`: the game's default).
pub(crate) fn config(text: Option<&str>) -> PyResult<Value> {
    text.map_or(Ok(Value::Null), |t| {
        serde_json::from_str(t).map_err(|e| PyValueError::new_err(format!("config: {e}")))
    })
}

pub(crate) fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A seat number from Python, checked against the table.
pub(crate) fn seat(state: &dyn DynGame, seat: usize) -> PyResult<Seat> {
    if seat < state.seats() {
        Ok(Seat(seat as u8))
    } else {
        Err(PyValueError::new_err(format!(
            "no seat {seat} at a table of {} (seats count from 0)",
            state.seats()
        )))
    }
}
