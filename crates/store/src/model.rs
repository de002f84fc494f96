//! The shapes a match is made of and stored with: who fills each seat, the time control and
//! where the match stands (docs/protocol.md sections 1 and 3.2), read from JSON with refusals in
//! the protocol's words.

use plateau_bots::Level;
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

/// A match's time control (docs/protocol.md section 3.2): the protocol's, stored as it is sent.
pub use plateau_protocol::server::TimeControl;

/// Where a match stands (docs/protocol.md section 1): the protocol's word, stored as it is sent.
pub use plateau_protocol::server::Status;

/// Milliseconds since the Unix epoch, from the system clock.
#[must_use]
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
