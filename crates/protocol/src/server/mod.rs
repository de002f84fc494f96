//! What the server sends (docs/protocol.md): the messages of the match WebSocket (section 4.1)
//! and of the lobby's (section 7.6), and the JSON bodies of the HTTP API (sections 2, 3 and 7).
//!
//! Each type serializes to its documented shape and describes it to the JSON Schema
//! (`crate::schema`). What a game defines (an observation, a config) is any JSON there; the
//! engine's own types (an action's parts, an outcome, a record) are described by the shapes in
//! `crate::shapes`, which the API tests hold to the engine's serialization.
//!
//! By part: what every part shares here (where a match stands, who plays, a seat, a refusal, a
//! time control); the match WebSocket (`play`), the lobby's (`lobby`), and the HTTP bodies about
//! matches (`api`) and players (`players`).

mod api;
mod lobby;
mod moderation;
mod play;
mod players;
mod tournaments;

pub use api::*;
pub use lobby::*;
pub use moderation::*;
pub use play::*;
pub use players::*;
pub use tournaments::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::shapes;
use crate::{Code, WireError};

/// Where a match stands (docs/protocol.md section 1): `"open"`, `"live"` or `"finished"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Some human seat has no player yet, or some player has not opened the match; nobody can act.
    Open,
    /// Every seat is filled, every player opened it and the game runs.
    Live,
    /// The game has an outcome.
    Finished,
}

impl Status {
    /// The word used in the API and in the database.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Live => "live",
            Status::Finished => "finished",
        }
    }

    /// Reads `open`, `live` or `finished`.
    #[must_use]
    pub fn parse(word: &str) -> Option<Status> {
        match word {
            "open" => Some(Status::Open),
            "live" => Some(Status::Live),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// What kind of player (docs/protocol.md section 7.1): `"guest"`, `"account"` or `"bot"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// Plays under a name kept by its session cookie alone.
    Guest,
    /// Has a password: can sign in on another device.
    Account,
    /// One of the server's bots (one player per bot name).
    Bot,
}

impl PlayerKind {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerKind::Guest => "guest",
            PlayerKind::Account => "account",
            PlayerKind::Bot => "bot",
        }
    }

    /// Reads a stored word.
    #[must_use]
    pub fn parse(word: &str) -> Option<PlayerKind> {
        match word {
            "guest" => Some(PlayerKind::Guest),
            "account" => Some(PlayerKind::Account),
            "bot" => Some(PlayerKind::Bot),
            _ => None,
        }
    }
}

/// PLAYER (docs/protocol.md section 7.1): `{"name": "Alice", "kind": "guest"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// Guest, account or bot.
    pub kind: PlayerKind,
}

/// One seat as a SUMMARY and a `state` show it (docs/protocol.md section 3.3):
/// `{"seat": 0, "kind": "human", "bot": null, "level": null, "taken": true, "player": PLAYER,
/// "connected": true}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// Seat number, from 0.
    pub seat: u8,
    /// `"human"` or `"bot"`.
    #[schemars(with = "shapes::SeatKind")]
    pub kind: &'static str,
    /// The bot's name, `null` for a human seat.
    pub bot: Option<String>,
    /// The bot's level number (1 to 5) for the five levels, else `null`.
    pub level: Option<u8>,
    /// Whether the seat is filled (always for a bot).
    pub taken: bool,
    /// Who sits there: the person who took it, or the bot's player; `null` while free.
    pub player: Option<PlayerView>,
    /// Whether a person sits there now (an open socket); false for bots.
    pub connected: bool,
}

/// A coded refusal (docs/protocol.md sections 3 and 5): the body of every HTTP error,
/// `{"code": "match/not_found", "message": "…"}`, and over a WebSocket the fields of an `error`
/// message.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody<'a> {
    /// The stable code (section 5).
    pub code: Code,
    /// A sentence for people, naming the offending field or token.
    pub message: &'a str,
}

/// A match's time control (docs/protocol.md section 3.2), as clients send and are sent it and as
/// the store keeps it: `{"kind": "none"}`, `{"kind": "per_move", "seconds": S}`, `{"kind":
/// "fischer", "base_seconds": B, "increment_seconds": I}` or `{"kind": "game"}`. Limits (checked
/// by `validate`): 1 to 86,400 seconds for a move or a base, 0 to 3,600 seconds of increment.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    deny_unknown_fields,
    try_from = "TimeControlFields"
)]
pub enum TimeControl {
    /// No clock (correspondence).
    #[default]
    None,
    /// Each move within `seconds`.
    PerMove {
        /// Seconds for each move, 1 to 86400.
        seconds: u32,
    },
    /// Fischer: a base per seat and an increment after each of its moves.
    Fischer {
        /// Seconds per seat at the start, 1 to 86400.
        base_seconds: u32,
        /// Seconds added after each move of the seat, 0 to 3600.
        increment_seconds: u32,
    },
    /// The clocks the game's rules set (`Game::rule_clock_seconds`: Bataille Navale's placement
    /// and turn clocks); refused for a game whose rules set none (`validate`).
    Game,
}

/// A time control as read from JSON: serde's tagged enums ignore a field that does not belong to
/// the kind (`{"kind": "none", "seconds": 5}`), so every field is read here and checked against it.
/// (Its schema is never written: the schema describes what the server sends.)
#[derive(Deserialize, JsonSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object with `kind` (`none`, `per_move`, `fischer` or `game`) and its fields"
)]
struct TimeControlFields {
    kind: String,
    seconds: Option<u32>,
    base_seconds: Option<u32>,
    increment_seconds: Option<u32>,
}

impl TryFrom<TimeControlFields> for TimeControl {
    type Error = String;

    fn try_from(f: TimeControlFields) -> Result<TimeControl, String> {
        let given = [
            ("seconds", f.seconds),
            ("base_seconds", f.base_seconds),
            ("increment_seconds", f.increment_seconds),
        ];
        let only = |allowed: &[&str]| match given
            .iter()
            .find(|(name, v)| v.is_some() && !allowed.contains(name))
        {
            Some((name, _)) => Err(format!("`{name}` is not a field of kind `{}`", f.kind)),
            None => Ok(()),
        };
        let need = |name: &str, v: Option<u32>| v.ok_or_else(|| format!("missing field `{name}`"));
        match f.kind.as_str() {
            "none" => only(&[]).map(|()| TimeControl::None),
            "game" => only(&[]).map(|()| TimeControl::Game),
            "per_move" => {
                only(&["seconds"])?;
                Ok(TimeControl::PerMove {
                    seconds: need("seconds", f.seconds)?,
                })
            }
            "fischer" => {
                only(&["base_seconds", "increment_seconds"])?;
                Ok(TimeControl::Fischer {
                    base_seconds: need("base_seconds", f.base_seconds)?,
                    increment_seconds: need("increment_seconds", f.increment_seconds)?,
                })
            }
            other => Err(format!(
                "unknown kind `{other}`: expected `none`, `per_move`, `fischer` or `game`"
            )),
        }
    }
}

impl TimeControl {
    /// Checks the limits above, and that the control suits the game: a game whose rules set clocks
    /// of their own (`rule_clock`, Bataille Navale) is played under them (`game`) or without a clock,
    /// since its timeout rule never ends the game and a spent clock would pass every turn at once;
    /// `game` needs such a game.
    ///
    /// # Errors
    /// `time_control/invalid` naming the field out of range or the mismatch.
    pub fn validate(&self, rule_clock: bool) -> Result<(), WireError> {
        let bad = |what: &str| Err(WireError::new(Code::TimeControlInvalid, what));
        match *self {
            TimeControl::None => Ok(()),
            TimeControl::Game if !rule_clock => {
                bad("`game`: this game's rules set no clock; use `none`, `per_move` or `fischer`")
            }
            TimeControl::Game => Ok(()),
            TimeControl::PerMove { .. } | TimeControl::Fischer { .. } if rule_clock => {
                bad("this game's rules set their own clocks: use `game` (or `none` for no clock)")
            }
            TimeControl::PerMove { seconds } if !(1..=86_400).contains(&seconds) => {
                bad("`seconds` must be between 1 and 86400")
            }
            TimeControl::Fischer { base_seconds, .. } if !(1..=86_400).contains(&base_seconds) => {
                bad("`base_seconds` must be between 1 and 86400")
            }
            TimeControl::Fischer {
                increment_seconds, ..
            } if increment_seconds > 3_600 => bad("`increment_seconds` must be between 0 and 3600"),
            _ => Ok(()),
        }
    }
}
