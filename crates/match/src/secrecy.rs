//! The secrecy check of the match service (docs/architecture.md section 2.5): given a recorded
//! game and every message one connection received, checks that each message says no more than
//! that viewer may know, field by field, so a single leaked value is caught and named by its path
//! (`observation.boards[2].energy[0]`, `seats[1].hint`). Generic over any game through `DynGame`.
//!
//! A message's version counts the log entries its viewer can see (or that changed what it is
//! shown), so for each `state` message the check rebuilds the states it may show, those after each
//! log position with that version for this viewer, and requires of one of them:
//! - exactly the fields of docs/protocol.md section 4.1;
//! - what comes from the game equal, value by value, to what the viewer may see: `observation` to
//!   `observe_json(viewer)`, `legal` to the seat's legal list when it is to act (else empty),
//!   `to_act`, `outcome` (`null` until the match is finished), and `moves` to the move list as this
//!   viewer may see it (`Game::display_action`: hidden actions absent);
//! - what does not come from the game (`seats`, `offers`, `clocks`, `seed_hash`, ...) in its
//!   documented shape, so it has no room for a value of the game: each field of its type, each
//!   word one of its words, each seat a seat of the match;
//! - `seed` absent until the game is over;
//! - as a last net, no other seat's whole observation (where it differs from this viewer's)
//!   anywhere in the message.

use plateau_engine::{DynGame, Event, GameEntry, Record, Seat, ToAct, Viewer, first_difference_in};
use serde_json::{Map, Value, json};
use thiserror::Error;

use crate::versions::{seats_to_act, states, versions_of};

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
    "legal_info",
    "moves",
    "seats",
    "offers",
    "clocks",
    "outcome",
    "seed_hash",
    "seed",
];

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
    for (v, logged) in record.log.iter().enumerate() {
        let Event::Action { by, action } = &logged.event else {
            seen.push(None);
            continue;
        };
        let shown = states[v]
            .display_entry(*by, action, viewer)
            .map_err(|e| Leak {
                index: 0,
                version: v as u64,
                problem: e.to_string(),
            })?;
        seen.push(
            shown.map(|(text, info)| serde_json::json!({"by": by, "text": text, "info": info})),
        );
    }
    // A message's version is the number of log entries its viewer can see: the states it may
    // show are those after each log position with that version (the entries its viewer cannot
    // see change nothing it is shown).
    let version_at = versions_of(&states, record, viewer).map_err(|problem| Leak {
        index: 0,
        version: 0,
        problem,
    })?;
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
        let positions: Vec<usize> = (0..states.len())
            .filter(|p| version_at[*p] == version)
            .collect();
        if positions.is_empty() {
            return Err(leak("no such version in the record".into()));
        }
        let mut last = String::new();
        let fits = positions.iter().any(|p| {
            let shown = &seen[..*p];
            let expected: Vec<&Value> = shown.iter().flatten().collect();
            match check_one(&*states[*p], viewer, message) {
                Ok(()) if message["moves"] == serde_json::json!(expected) => true,
                Ok(()) => {
                    last = format!("moves is {} instead of {expected:?}", message["moves"]);
                    false
                }
                Err(e) => {
                    last = e;
                    false
                }
            }
        });
        if !fits {
            return Err(leak(last));
        }
    }
    Ok(())
}

fn check_one(state: &dyn DynGame, viewer: Viewer, msg: &Value) -> Result<(), String> {
    let seats = state.seats();
    // A finished rated match's rating changes, the one field a state may leave out.
    let mut rest = msg.clone();
    if let Some(ratings) = rest.as_object_mut().and_then(|m| m.remove("ratings")) {
        check_ratings(&ratings, seats)?;
    }
    let msg = &rest;
    let obj = object(msg, "(the message)", STATE_FIELDS)?;
    // What comes from the game: equal to what this viewer may see, value by value.
    let expected_seat = match viewer {
        Viewer::Seat(s) => Value::from(s.0),
        Viewer::Spectator => Value::Null,
    };
    let status = word(&obj["status"], "status", &["open", "live", "finished"])?;
    let live = status == "live";
    let finished = status == "finished";
    let to_act: Vec<u8> = if live {
        seats_to_act(state.to_act()).iter().map(|s| s.0).collect()
    } else {
        Vec::new()
    };
    let (legal, legal_info): (Vec<String>, Vec<_>) = match viewer {
        Viewer::Seat(s) if to_act.contains(&s.0) => state.listed_legal_info(s).into_iter().unzip(),
        _ => (Vec::new(), Vec::new()),
    };
    let outcome = if finished {
        json!(state.outcome())
    } else {
        Value::Null
    };
    let from_game = [
        ("type", json!("state")),
        ("game", json!(state.info().name)),
        ("seat", expected_seat),
        ("observation", state.observe_json(viewer)),
        ("legal", json!(legal)),
        ("legal_info", json!(legal_info)),
        ("to_act", json!(to_act)),
        ("outcome", outcome),
    ];
    for (field, expected) in &from_game {
        if let Some((path, sent, allowed)) = first_difference_in(field, &obj[*field], expected) {
            return Err(format!(
                "`{path}` is {sent} where this viewer may see {allowed}"
            ));
        }
    }
    // What does not come from the game: its documented shape, with no room for a game value.
    text(&obj["id"], "id")?;
    if !obj["rated"].is_boolean() {
        return Err("`rated` is not a boolean".into());
    }
    number(&obj["version"], "version")?;
    hex64(&obj["seed_hash"], "seed_hash")?;
    match &obj["seed"] {
        Value::Null => {}
        _ if state.to_act() != ToAct::Terminal => return Err("the seed before the end".into()),
        seed => hex64(seed, "seed")?,
    }
    check_seats(&obj["seats"], seats)?;
    let offers = object(
        &obj["offers"],
        "offers",
        &["rematch", "agreement", "takeback"],
    )?;
    for (kind, list) in offers {
        seat_list(list, &format!("offers.{kind}"), seats)?;
    }
    check_clocks(&obj["clocks"], seats)?;
    // The last net: another seat's whole observation copied anywhere.
    let mine = &obj["observation"];
    for other in Seat::all(seats) {
        if viewer == Viewer::Seat(other) {
            continue;
        }
        let theirs = state.observe_json(Viewer::Seat(other));
        if &theirs != mine && contains_value(msg, &theirs) {
            return Err(format!("the observation of seat {other} is in the message"));
        }
    }
    Ok(())
}

/// `seats`: one entry per seat, in order, as docs/protocol.md section 3.3 shows them.
fn check_seats(value: &Value, seats: usize) -> Result<(), String> {
    let list = value.as_array().ok_or("`seats` is not an array")?;
    if list.len() != seats {
        return Err(format!(
            "`seats` has {} entries for {seats} seats",
            list.len()
        ));
    }
    for (i, entry) in list.iter().enumerate() {
        let at = |field: &str| format!("seats[{i}].{field}");
        let seat = object(entry, &format!("seats[{i}]"), SEAT_FIELDS)?;
        if seat["seat"] != json!(i) {
            return Err(format!("`{}` is {}, not {i}", at("seat"), seat["seat"]));
        }
        word(&seat["kind"], &at("kind"), &["human", "bot"])?;
        if !seat["bot"].is_null() {
            text(&seat["bot"], &at("bot"))?;
        }
        if !seat["level"].is_null() {
            number(&seat["level"], &at("level"))?;
        }
        for flag in ["taken", "connected"] {
            if !seat[flag].is_boolean() {
                return Err(format!("`{}` is not a boolean", at(flag)));
            }
        }
        if !seat["player"].is_null() {
            let player = object(&seat["player"], &at("player"), &["name", "kind"])?;
            text(&player["name"], &at("player.name"))?;
            word(
                &player["kind"],
                &at("player.kind"),
                &["guest", "account", "bot"],
            )?;
        }
    }
    Ok(())
}

/// `clocks`: the kind, milliseconds left per seat (or `null`) and the running seats.
fn check_clocks(value: &Value, seats: usize) -> Result<(), String> {
    let clocks = object(value, "clocks", CLOCK_FIELDS)?;
    word(
        &clocks["kind"],
        "clocks.kind",
        &["none", "per_move", "fischer", "game"],
    )?;
    match &clocks["remaining_ms"] {
        Value::Null => {}
        Value::Array(left) if left.len() == seats => {
            for (i, ms) in left.iter().enumerate() {
                number(ms, &format!("clocks.remaining_ms[{i}]"))?;
            }
        }
        _ => {
            return Err(format!(
                "`clocks.remaining_ms` is not {seats} numbers or null"
            ));
        }
    }
    if !clocks["running"].is_null() {
        seat_number(&clocks["running"], "clocks.running", seats)?;
    }
    match &clocks["first_move_ms"] {
        Value::Null => {}
        Value::Array(left) if left.len() == seats => {
            for (i, ms) in left.iter().enumerate() {
                if !ms.is_null() {
                    number(ms, &format!("clocks.first_move_ms[{i}]"))?;
                }
            }
        }
        _ => {
            return Err(format!(
                "`clocks.first_move_ms` is not {seats} numbers or nulls, or null"
            ));
        }
    }
    seat_list(&clocks["running_seats"], "clocks.running_seats", seats)
}

/// `ratings`: per seat, `null` or the rating before and after the match.
fn check_ratings(value: &Value, seats: usize) -> Result<(), String> {
    let list = value
        .as_array()
        .filter(|l| l.len() == seats)
        .ok_or_else(|| format!("`ratings` is not {seats} entries"))?;
    for (i, change) in list.iter().enumerate() {
        if change.is_null() {
            continue;
        }
        let change = object(change, &format!("ratings[{i}]"), &["before", "after"])?;
        number(&change["before"], &format!("ratings[{i}].before"))?;
        number(&change["after"], &format!("ratings[{i}].after"))?;
    }
    Ok(())
}

const SEAT_FIELDS: &[&str] = &[
    "seat",
    "kind",
    "bot",
    "level",
    "taken",
    "player",
    "connected",
];

const CLOCK_FIELDS: &[&str] = &[
    "kind",
    "remaining_ms",
    "running",
    "running_seats",
    "first_move_ms",
];

/// `value` as an object with exactly the keys `keys`.
fn object<'a>(
    value: &'a Value,
    path: &str,
    keys: &[&str],
) -> Result<&'a Map<String, Value>, String> {
    let map = value
        .as_object()
        .ok_or_else(|| format!("`{path}` is not an object"))?;
    if let Some(extra) = map.keys().find(|k| !keys.contains(&k.as_str())) {
        let at = if path.starts_with('(') {
            extra.clone()
        } else {
            format!("{path}.{extra}")
        };
        return Err(format!("unexpected field `{at}`"));
    }
    if let Some(missing) = keys.iter().find(|k| !map.contains_key(**k)) {
        return Err(format!("`{path}` has no field `{missing}`"));
    }
    Ok(map)
}

/// `value` as one of the words `allowed`.
fn word<'a>(value: &'a Value, path: &str, allowed: &[&str]) -> Result<&'a str, String> {
    value
        .as_str()
        .filter(|w| allowed.contains(w))
        .ok_or_else(|| format!("`{path}` is {value}, not one of {allowed:?}"))
}

fn text(value: &Value, path: &str) -> Result<(), String> {
    value
        .as_str()
        .map(|_| ())
        .ok_or_else(|| format!("`{path}` is {value}, not a string"))
}

fn number(value: &Value, path: &str) -> Result<(), String> {
    value
        .as_u64()
        .map(|_| ())
        .ok_or_else(|| format!("`{path}` is {value}, not a whole number"))
}

/// 64 lowercase hex digits (a seed or its SHA-256).
fn hex64(value: &Value, path: &str) -> Result<(), String> {
    value
        .as_str()
        .filter(|h| {
            h.len() == 64
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
        .map(|_| ())
        .ok_or_else(|| format!("`{path}` is {value}, not 64 hex digits"))
}

fn seat_number(value: &Value, path: &str, seats: usize) -> Result<(), String> {
    value
        .as_u64()
        .filter(|s| *s < seats as u64)
        .map(|_| ())
        .ok_or_else(|| format!("`{path}` is {value}, not a seat of the match"))
}

/// Seats of the match, increasing, each once.
fn seat_list(value: &Value, path: &str, seats: usize) -> Result<(), String> {
    let list = value
        .as_array()
        .ok_or_else(|| format!("`{path}` is not an array"))?;
    for (i, seat) in list.iter().enumerate() {
        seat_number(seat, &format!("{path}[{i}]"), seats)?;
    }
    if list.windows(2).any(|w| w[0].as_u64() >= w[1].as_u64()) {
        return Err(format!("`{path}` is not increasing"));
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
