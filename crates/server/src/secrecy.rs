//! The secrecy check (issue 3, "Bad input and abuse"): given a recorded game and every message one
//! connection received, checks that each message says no more than that viewer may know. Generic
//! over any game through `DynGame`, so it applies unchanged to hidden-information games.
//!
//! For each `state` message at version `v` the check rebuilds the state after the record's first
//! `v` log entries and requires:
//! - only the fields of docs/protocol.md section 4.1;
//! - `observation` equal to `observe_json(viewer)` of that state;
//! - `legal` equal to the seat's legal list when it is to act, else empty;
//! - `moves` equal to the move list as this viewer may see it (`Game::display_action`: hidden
//!   actions absent);
//! - `seed` absent until the game is over;
//! - for every other seat whose observation differs from this viewer's, that observation does not
//!   appear anywhere in the message.

use plateau_engine::{DynGame, GameEntry, Record, RecordStep, Seat, ToAct, Viewer};
use serde_json::Value;
use thiserror::Error;

use crate::actor::seats_to_act;

/// A message that says more (or other) than its viewer may know.
#[derive(Debug, Error)]
#[error("message {index} (version {version}): {problem}")]
pub struct Leak {
    /// 0-based index of the message among those checked.
    pub index: usize,
    /// The message's version.
    pub version: u64,
    /// What is wrong.
    pub problem: String,
}

const STATE_FIELDS: &[&str] = &[
    "type",
    "id",
    "game",
    "status",
    "rated",
    "version",
    "seat",
    "to_act",
    "observation",
    "legal",
    "moves",
    "seats",
    "offers",
    "clocks",
    "outcome",
    "seed_hash",
    "seed",
];

/// Every state of `record`: index `v` is the state after `v` log entries, i.e. the first `v` of
/// `Record::steps` (each ending counts as an entry, at its place among the actions).
///
/// # Errors
/// A message if the record does not replay.
pub fn states(entry: &GameEntry, record: &Record) -> Result<Vec<Box<dyn DynGame>>, String> {
    let mut state = entry
        .new_game(&record.config, record.seats.len())
        .map_err(|e| e.to_string())?;
    let mut out = vec![state.clone_box()];
    for step in record.steps() {
        match step {
            RecordStep::Action(index, action) => state
                .apply_text(action.by, &action.action)
                .map_err(|e| format!("action {index}: {e}"))?,
            RecordStep::End(end) => state.end(end.ending).map_err(|e| {
                format!(
                    "the ending ({}) after {} actions: {e}",
                    end.ending, end.after
                )
            })?,
        }
        out.push(state.clone_box());
    }
    Ok(out)
}

/// Checks every message `viewer` received during the game of `record` (which must be the whole
/// game, so every version a message names exists). Non-`state` messages (`error`, `pong`,
/// `rematch`) carry nothing of the state and are skipped.
///
/// # Errors
/// The first `Leak`.
pub fn check_messages(
    entry: &GameEntry,
    record: &Record,
    viewer: Viewer,
    messages: &[Value],
) -> Result<(), Leak> {
    let states = states(entry, record).map_err(|problem| Leak {
        index: 0,
        version: 0,
        problem,
    })?;
    // The move list as this viewer may see it, one item per log entry (`None` when hidden, and
    // for an ending, which is not a move).
    let mut seen = Vec::with_capacity(states.len() - 1);
    for (v, step) in record.steps().enumerate() {
        let RecordStep::Action(_, step) = step else {
            seen.push(None);
            continue;
        };
        let text = states[v]
            .display_text(step.by, &step.action, viewer)
            .map_err(|e| Leak {
                index: 0,
                version: v as u64,
                problem: e.to_string(),
            })?;
        seen.push(text.map(|text| serde_json::json!({"by": step.by, "text": text})));
    }
    for (index, message) in messages.iter().enumerate() {
        if message["type"] != "state" {
            continue;
        }
        let version = message["version"].as_u64().unwrap_or(u64::MAX);
        let leak = |problem: String| Leak {
            index,
            version,
            problem,
        };
        let state = states
            .get(version as usize)
            .ok_or_else(|| leak("no such version in the record".into()))?;
        check_one(&**state, viewer, message).map_err(leak)?;
        let shown = (version as usize).min(seen.len());
        let expected: Vec<&Value> = seen[..shown].iter().flatten().collect();
        if message["moves"] != serde_json::json!(expected) {
            return Err(leak(format!(
                "moves is {} instead of {expected:?}",
                message["moves"]
            )));
        }
    }
    Ok(())
}

fn check_one(state: &dyn DynGame, viewer: Viewer, msg: &Value) -> Result<(), String> {
    let obj = msg.as_object().ok_or("not an object")?;
    if let Some(extra) = obj.keys().find(|k| !STATE_FIELDS.contains(&k.as_str())) {
        return Err(format!("unexpected field `{extra}`"));
    }
    let expected_seat = match viewer {
        Viewer::Seat(s) => Value::from(s.0),
        Viewer::Spectator => Value::Null,
    };
    if msg["seat"] != expected_seat {
        return Err(format!("seat is {} for viewer {viewer:?}", msg["seat"]));
    }
    let mine = state.observe_json(viewer);
    if msg["observation"] != mine {
        return Err("the observation is not this viewer's".into());
    }
    let live = msg["status"] == "live";
    let expected_legal: Vec<String> = match viewer {
        Viewer::Seat(s) if live && seats_to_act(state.to_act()).contains(&s) => {
            state.legal_texts(s)
        }
        _ => Vec::new(),
    };
    if msg["legal"] != serde_json::json!(expected_legal) {
        return Err(format!(
            "legal is {} instead of {expected_legal:?}",
            msg["legal"]
        ));
    }
    let over = state.to_act() == ToAct::Terminal;
    if !over && !msg["seed"].is_null() {
        return Err("the seed before the end".into());
    }
    for other in Seat::all(state.seats()) {
        if viewer == Viewer::Seat(other) {
            continue;
        }
        let theirs = state.observe_json(Viewer::Seat(other));
        if theirs != mine && contains_value(msg, &theirs) {
            return Err(format!("the observation of seat {other} is in the message"));
        }
    }
    Ok(())
}

/// Whether `needle` occurs as `haystack` or as any value nested in it.
fn contains_value(haystack: &Value, needle: &Value) -> bool {
    if haystack == needle {
        return true;
    }
    match haystack {
        Value::Array(items) => items.iter().any(|v| contains_value(v, needle)),
        Value::Object(map) => map.values().any(|v| contains_value(v, needle)),
        _ => false,
    }
}
