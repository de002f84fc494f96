//! The properties Plateau's fuzz targets check (docs/reliability.md, "Fuzzing"), in one place for
//! both callers: the coverage-guided fuzzer (`fuzz/`, outside the workspace) and the test that
//! replays the committed corpus (`tests/corpus.rs`), so a crash once found stays tested in CI.
//!
//! Each check takes the fuzzer's raw bytes and returns normally when the property holds (bad input
//! refused with an error is fine); a broken property panics with what broke. The targets:
//!
//! | target | input | property |
//! |---|---|---|
//! | `position_<game>` | position text (FEN for Chakart, `naval/1` JSON) | no panic; a text that reads writes back the same and reads again |
//! | `action_<game>` | byte 0 a walk's seed, byte 1 its plies, the rest an action text | no panic; applied ⇔ its canonical text is in the legal list; a refusal changes nothing |
//! | `config` | byte 0 the game, byte 1 the seats, the rest a config as JSON | no panic; an accepted config plays random plies |
//! | `record` | a `Record` as JSON | no panic in reading or replaying it |
//! | `client_message` | one WebSocket text message | no panic in `plateau_lobby::ws::parse_client_message` |

mod games;
pub mod seeds;

pub use games::{action, config, position, walk};

/// Every target's name, as the fuzz script and the corpus folders (`fuzz/corpus/<target>/`) name
/// them.
pub const TARGETS: &[&str] = &[
    "position_mad",
    "position_moonleap",
    "position_chakart",
    "position_naval",
    "action_mad",
    "action_moonleap",
    "action_chakart",
    "action_naval",
    "config",
    "record",
    "client_message",
];

/// Runs target `target`'s check on `data`.
///
/// # Panics
/// When the property breaks (that is the finding), or for a name not in `TARGETS`.
pub fn check(target: &str, data: &[u8]) {
    match target.split_once('_') {
        Some(("position", game)) => position(game, data),
        Some(("action", game)) => action(game, data),
        _ => match target {
            "config" => config(data),
            "record" => record(data),
            "client_message" => client_message(data),
            other => panic!(
                "unknown fuzz target `{other}` (known: {})",
                TARGETS.join(", ")
            ),
        },
    }
}

/// A `Record` read from JSON and replayed with its game's rules: any error is fine, a panic is not.
pub fn record(data: &[u8]) {
    let Ok(record) = serde_json::from_slice::<plateau_engine::Record>(data) else {
        return;
    };
    let Ok(entry) = plateau_registry::find(&record.game) else {
        return;
    };
    if let Ok(replay) = record.replay(entry) {
        // A replay that succeeds ends in a state every viewer can be shown.
        let _ = replay.state.position_text();
        let _ = replay.state.outcome();
    }
}

/// One client message read by the match service's parser: any error is fine, a panic is not.
pub fn client_message(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = plateau_lobby::ws::parse_client_message(text);
    }
}
