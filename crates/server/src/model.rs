//! The shapes the service shares between its HTTP routes, its WebSocket and its storage: seats,
//! time controls, statuses and the coded errors of docs/protocol.md section 5.

use axum::Json;
use axum::response::{IntoResponse, Response};
use plateau_bots::Level;
use serde::{Deserialize, Serialize};

use plateau_protocol::server::{ErrorBody, MatchMessage};

use crate::players::Player;

/// Who fills a seat, as sent in `POST /api/matches` (docs/protocol.md section 3.2).
///
/// JSON: `{"kind": "human"}`, `{"kind": "bot", "bot": "random"}`, `{"kind": "bot", "bot": "expert"}`
/// or `{"kind": "bot", "level": 5}` (the same bot as `expert`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", try_from = "SeatFields")]
pub enum SeatSpec {
    /// A person, who takes the seat with a token.
    Human,
    /// A bot played by the server.
    Bot {
        /// The bot's name (`"random"`, `"expert"`), one of `Catalogue::bots`.
        bot: String,
        /// The lobby's level number, 1 (`beginner`) to 5 (`expert`), when the bot is one of the
        /// five levels (docs/bots.md section 2): the level the bot plays, named by `bot`. `None` for
        /// the other bots (`random`, `greedy`, `mcts`). Matches created before the levels were
        /// played may hold any number 1 to 5 here.
        level: Option<u8>,
    },
}

/// A seat entry as read from JSON: every field is read and checked against the kind, since serde's
/// tagged enums let a field foreign to a variant pass (`{"kind": "human", "name": "x"}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatFields {
    kind: String,
    bot: Option<String>,
    /// Read as any JSON value so that a level out of range or of another type is refused by a
    /// message naming `level`, not by serde's words about `u8`.
    level: Option<serde_json::Value>,
}

impl TryFrom<SeatFields> for SeatSpec {
    type Error = String;

    fn try_from(f: SeatFields) -> Result<SeatSpec, String> {
        let level = match f.level {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .filter(|n| Level::from_number(*n).is_some())
                    .ok_or_else(|| format!("bot level {v}: must be a whole number from 1 to 5"))?,
            ),
        };
        match (f.kind.as_str(), f.bot) {
            ("human", None) if level.is_none() => Ok(SeatSpec::Human),
            ("human", _) => Err("a human seat has no `bot` or `level`".into()),
            ("bot", Some(bot)) => Ok(SeatSpec::Bot { bot, level }),
            // A level alone names its bot.
            ("bot", None) => match level.and_then(|n| Level::from_number(n).map(|l| (n, l))) {
                Some((n, named)) => Ok(SeatSpec::Bot {
                    bot: named.name().to_owned(),
                    level: Some(n),
                }),
                None => Err("missing field `bot` (or `level`, 1 to 5)".into()),
            },
            (other, _) => Err(format!(
                "unknown seat kind `{other}`: expected `human` or `bot`"
            )),
        }
    }
}

impl SeatSpec {
    /// A seat of the bot named `bot`, with its level number when it is one of the five levels.
    #[must_use]
    pub fn bot(bot: &str) -> SeatSpec {
        SeatSpec::Bot {
            bot: bot.to_owned(),
            level: Level::from_name(bot).map(Level::number),
        }
    }

    /// The seat as the service stores it: a level bot with its number. Refuses a `level` that
    /// names another bot than `bot`, or one given to a bot without levels.
    ///
    /// # Errors
    /// A sentence for `request/malformed`.
    pub fn checked(self) -> Result<SeatSpec, String> {
        let SeatSpec::Bot { bot, level } = self else {
            return Ok(self);
        };
        match (Level::from_name(&bot), level) {
            (Some(named), Some(n)) if n != named.number() => Err(format!(
                "bot `{bot}` is level {}, not {n}: give the level by name or by number",
                named.number()
            )),
            (Some(named), _) => Ok(SeatSpec::Bot {
                bot,
                level: Some(named.number()),
            }),
            (None, Some(n)) => Err(format!(
                "bot `{bot}` has no level (level {n} given): name a level (`beginner` to `expert`) or give `level` alone"
            )),
            (None, None) => Ok(SeatSpec::Bot { bot, level: None }),
        }
    }

    /// The name a record gives this seat: `"human"` or the bot's name.
    #[must_use]
    pub fn record_name(&self) -> String {
        match self {
            SeatSpec::Human => "human".to_owned(),
            SeatSpec::Bot { bot, .. } => bot.clone(),
        }
    }
}

/// A match's time control (docs/protocol.md section 3.2). Limits: 1 to 86,400 seconds for a move or
/// a base, 0 to 3,600 seconds of increment.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    try_from = "TimeControlFields"
)]
pub enum TimeControl {
    /// No clock (correspondence).
    #[default]
    None,
    /// Each move within `seconds`.
    PerMove {
        /// Seconds allowed for each move.
        seconds: u32,
    },
    /// Fischer: `base_seconds` each, plus `increment_seconds` after each own move.
    Fischer {
        /// Starting time per seat, in seconds.
        base_seconds: u32,
        /// Seconds added after each move of the seat.
        increment_seconds: u32,
    },
    /// The clocks the game's rules set (`Game::rule_clock_seconds`: Bataille Navale's placement
    /// and turn clocks); refused for a game whose rules set none (`validate`).
    Game,
}

/// A time control as read from JSON: serde's tagged enums ignore a field that does not belong to
/// the kind (`{"kind": "none", "seconds": 5}`), so every field is read here and checked against it.
#[derive(Deserialize)]
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
    pub fn validate(&self, rule_clock: bool) -> Result<(), ApiError> {
        let bad = |what: &str| Err(ApiError::new(Code::TimeControlInvalid, what.to_owned()));
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

pub use plateau_protocol::server::Status;

/// One seat as the lobby and the `state` message show it (docs/protocol.md section 3.3).
pub use plateau_protocol::server::SeatView as SeatInfo;

/// The public view of seat `seat` filled by `spec`, held by `player`.
#[must_use]
pub fn seat_info(
    seat: usize,
    spec: &SeatSpec,
    taken: bool,
    player: Option<&Player>,
    connected: bool,
) -> SeatInfo {
    let (kind, bot, level) = match spec {
        SeatSpec::Human => ("human", None, None),
        SeatSpec::Bot { bot, level } => ("bot", Some(bot.clone()), *level),
    };
    SeatInfo {
        seat: seat as u8,
        kind,
        bot,
        level,
        taken,
        player: player.map(Player::view),
        connected,
    }
}

/// A chat line as clients are sent it (docs/protocol.md section 7.5).
#[must_use]
pub fn line_view(line: &crate::store::ChatLine) -> plateau_protocol::server::ChatLine<'_> {
    plateau_protocol::server::ChatLine {
        room: room_view(line.room),
        name: &line.player.name,
        seat: line.seat,
        text: &line.text,
        at: line.at,
    }
}

/// A chat room as clients are sent it.
#[must_use]
pub fn room_view(room: crate::store::Room) -> plateau_protocol::server::Room {
    match room {
        crate::store::Room::Players => plateau_protocol::server::Room::Players,
        crate::store::Room::Spectators => plateau_protocol::server::Room::Spectators,
    }
}

impl From<TimeControl> for plateau_protocol::server::TimeControlView {
    fn from(control: TimeControl) -> Self {
        use plateau_protocol::server::TimeControlView as View;
        match control {
            TimeControl::None => View::None,
            TimeControl::PerMove { seconds } => View::PerMove { seconds },
            TimeControl::Fischer {
                base_seconds,
                increment_seconds,
            } => View::Fischer {
                base_seconds,
                increment_seconds,
            },
            TimeControl::Game => View::Game,
        }
    }
}

pub use plateau_protocol::Code;

/// A coded error for a client: `{"code", "message"}` over HTTP, `{"type": "error", "code",
/// "message"}` over the WebSocket. The message is for people and never holds internal details
/// (those are logged where the error is made).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ApiError {
    /// The stable code.
    pub code: Code,
    /// A sentence saying what was wrong, naming the offending field or token.
    pub message: String,
}

impl ApiError {
    /// An error with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// `server/internal`; logs `detail` and sends only a generic sentence.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!(%detail, "internal error");
        ApiError::new(Code::Internal, "internal error (see the server log)")
    }

    /// The error a failed store call gives a client: `match/moved` when this node no longer
    /// holds the match's lease (docs/architecture.md section 5.3), `store/unavailable` when the
    /// database does not answer, else `server/internal` (`internal`, which logs `e`).
    #[must_use]
    pub fn store(e: crate::store::StoreError) -> ApiError {
        use crate::store::StoreError;
        match e {
            StoreError::LeaseLost(detail) => {
                tracing::info!(%detail, "write refused: the lease moved");
                ApiError::new(
                    Code::MatchMoved,
                    "another node drives this match now: connect again",
                )
            }
            StoreError::Database(detail) => {
                tracing::warn!(%detail, "the database does not answer");
                ApiError::new(
                    Code::StoreUnavailable,
                    "the database does not answer now: nothing was changed, try again in a moment",
                )
            }
            e => ApiError::internal(e),
        }
    }

    /// `match/not_found` for `id`.
    #[must_use]
    pub fn not_found(id: &str) -> ApiError {
        ApiError::new(Code::MatchNotFound, format!("no match with id `{id}`"))
    }

    /// The WebSocket form: `{"type": "error", "code", "message"}`.
    #[must_use]
    pub fn to_ws_json(&self) -> String {
        serde_json::to_string(&MatchMessage::Error(self.body())).unwrap_or_default()
    }

    /// The HTTP body, and the fields of the WebSocket's `error`.
    #[must_use]
    pub fn body(&self) -> ErrorBody<'_> {
        ErrorBody {
            code: self.code,
            message: &self.message,
        }
    }
}

impl From<plateau_protocol::WireError> for ApiError {
    fn from(e: plateau_protocol::WireError) -> ApiError {
        ApiError::new(e.code, e.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.code.status(), Json(self.body())).into_response()
    }
}

/// Milliseconds since the Unix epoch, from the system clock.
#[must_use]
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
