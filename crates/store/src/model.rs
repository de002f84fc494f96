//! The shapes a match is made of and stored with: who fills each seat, the time control and
//! where the match stands (docs/protocol.md sections 1 and 3.2), read from JSON with refusals in
//! the protocol's words.

use plateau_bots::Level;
use plateau_protocol::{Code, WireError};
use serde::{Deserialize, Serialize};

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

/// Where a match stands (docs/protocol.md section 1): the protocol's word, stored as it is sent.
pub use plateau_protocol::server::Status;

/// A time control as clients are sent it.
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

/// Milliseconds since the Unix epoch, from the system clock.
#[must_use]
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
