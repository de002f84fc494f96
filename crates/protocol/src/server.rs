//! What the server sends (docs/protocol.md): the messages of the match WebSocket (section 4.1)
//! and of the lobby's (section 7.6), and the JSON bodies of the HTTP API (sections 2, 3 and 7).
//!
//! Each type serializes to its documented shape and describes it to the JSON Schema
//! (`crate::schema`). What a game defines (an observation, a config) is any JSON there; the
//! engine's own types (an action's parts, an outcome, a record) are described by the shapes in
//! `crate::shapes`, which the API tests hold to the engine's serialization.

use std::collections::BTreeMap;

use plateau_engine::{ActionInfo, Actor, Outcome, Record};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::shapes;
use crate::{Code, OfferKind};

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

/// The offers open now (docs/protocol.md section 7.4): per kind, the seats that offer.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Offers {
    /// The seats that offer a rematch (once finished).
    pub rematch: Vec<u8>,
    /// The seats that offer an agreed ending.
    pub agreement: Vec<u8>,
    /// The seats that agree to take back a turn, the one whose turn it is (who asked) first.
    pub takeback: Vec<u8>,
}

impl Offers {
    /// The seats of kind `kind`.
    pub fn of(&mut self, kind: OfferKind) -> &mut Vec<u8> {
        match kind {
            OfferKind::Rematch => &mut self.rematch,
            OfferKind::Agreement => &mut self.agreement,
            OfferKind::Takeback => &mut self.takeback,
        }
    }
}

/// The kind of a clock (docs/protocol.md section 4.1, `clocks`): a time control's kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// No clock.
    None,
    /// Each move within a time.
    PerMove,
    /// A base time and an increment per move.
    Fischer,
    /// The clocks the game's rules set.
    Game,
}

/// The clocks of a `state` (docs/protocol.md section 4.1): `{"kind": "fischer", "remaining_ms":
/// [287000, 301250], "running": 1, "running_seats": [1], "first_move_ms": [null, null]}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clocks {
    /// The time control's kind.
    pub kind: ClockKind,
    /// Milliseconds left per seat when the message was sent, never below 0; `null` without a
    /// clock.
    pub remaining_ms: Option<Vec<u64>>,
    /// The one seat whose clock runs, else `null`.
    pub running: Option<u8>,
    /// Every seat whose clock runs, in seat order; a seat waiting for its first move is not
    /// among them.
    pub running_seats: Vec<u8>,
    /// Per seat: for a seat to act that has not moved yet, the milliseconds before its clock
    /// starts anyway, else `null`; `null` as a whole without a clock.
    pub first_move_ms: Option<Vec<Option<u64>>>,
}

/// How a finished rated match moved a seat's rating (docs/protocol.md section 4.1, `ratings`):
/// `{"before": 1500, "after": 1524}`, the numbers people read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingChange {
    /// The rating before the match.
    pub before: i64,
    /// The rating after it.
    pub after: i64,
}

/// One entry of a `state`'s move list (docs/protocol.md section 4.1, `moves`):
/// `{"by": {"seat": 0}, "text": "c2-c3", "info": {"kind": "move", …}}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveView<'a> {
    /// Who played it.
    #[schemars(with = "shapes::By")]
    pub by: Actor,
    /// Its move-list text (the game's display notation) as this viewer may see it.
    pub text: &'a str,
    /// Its parts as this viewer may know them (`Game::display_info`).
    #[schemars(with = "shapes::Info")]
    pub info: &'a ActionInfo,
}

/// A `state` message (docs/protocol.md section 4.1, "`state`"). A whole one (`snapshot: true`)
/// has every field but `observation_patch` and `observation_removed`; a delta leaves out what
/// cannot have changed for its reader (`id`, `game`, `rated`, `seat`, `seed_hash`, `clocks`
/// without a clock) and `seats`/`offers` when they did not change, carries the move list from
/// `moves_from` on, and of an observation that is a JSON object only the top-level fields that
/// changed (`observation_patch`) and those gone (`observation_removed`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct State<'a> {
    /// `true` in a whole state; absent in a delta.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(with = "Option<shapes::True>")]
    pub snapshot: bool,
    /// The match's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The game's registry name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<&'a str>,
    /// Whether the match is rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// The seat this connection plays, `null` for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-null-when-given" = true))]
    pub seat: Option<Option<u8>>,
    /// SHA-256 of the seed, 64 hex digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_hash: Option<&'a str>,
    /// Where the match stands.
    pub status: Status,
    /// This viewer's version (section 1).
    pub version: u64,
    /// The seats that may act now, increasing.
    pub to_act: Vec<u8>,
    /// The game's observation for this viewer, whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub observation: Option<&'a RawValue>,
    /// The observation's top-level fields that changed, each whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    pub observation_patch: Option<BTreeMap<&'a str, &'a RawValue>>,
    /// The observation's top-level fields that are gone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub observation_removed: Vec<String>,
    /// This seat's legal actions in canonical notation, sorted by byte order.
    pub legal: Vec<String>,
    /// The parts of each legal action, in `legal`'s order.
    #[schemars(with = "Vec<shapes::Info>")]
    pub legal_info: Vec<ActionInfo>,
    /// How many moves of its list the client keeps before `moves`.
    pub moves_from: usize,
    /// The move list from `moves_from` on.
    pub moves: Vec<MoveView<'a>>,
    /// The seats, when they changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<&'a [SeatView]>,
    /// The offers, when they changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offers: Option<&'a Offers>,
    /// The clocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Clocks>,
    /// The outcome: `null` in a whole state of a match not finished; left out of its deltas.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Option<shapes::Outcome>>")]
    #[schemars(extend("x-null-when-given" = true))]
    pub outcome: Option<Option<Outcome>>,
    /// The seed, 64 hex digits, once finished (`null` before, in a whole state).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-null-when-given" = true))]
    pub seed: Option<Option<String>>,
    /// Once a rated match is finished: per seat, how its rating moved (`null` for a seat whose
    /// rating did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<&'a [Option<RatingChange>]>,
}

/// A chat room (docs/protocol.md section 7.5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// The seats' room.
    Players,
    /// The spectators' room.
    Spectators,
}

/// LINE, a chat line (docs/protocol.md section 7.5): `{"room": "players", "name": "Alice",
/// "seat": 0, "text": "…", "at": 1764467800000}`; a `chat` message over the WebSocket.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatLine<'a> {
    /// The room it was written in.
    pub room: Room,
    /// Who wrote it.
    pub name: &'a str,
    /// The writer's seat, `null` for a spectator.
    pub seat: Option<u8>,
    /// The line.
    pub text: &'a str,
    /// When, in Unix milliseconds.
    pub at: i64,
}

/// A `chat` message: a chat line with its `type`, as the backlog lists them.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ChatMessage<'a> {
    /// A chat line.
    Chat(ChatLine<'a>),
}

/// A message of the match WebSocket, server to client (docs/protocol.md section 4.1), each a
/// JSON object with its `type`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[expect(
    clippy::large_enum_variant,
    reason = "a message is built to be written at once, never kept: boxing its state would only cost an allocation"
)]
pub enum MatchMessage<'a> {
    /// A whole state or a delta.
    State(State<'a>),
    /// The refusal of one client message: `{"type": "error", "code", "message"}`.
    Error(ErrorBody<'a>),
    /// The rematch was created: `{"type": "rematch", "id", "seat", "token"}`.
    Rematch {
        /// The new match's id.
        id: &'a str,
        /// This connection's seat in it, `null` for a spectator.
        seat: Option<u8>,
        /// That seat's token, `null` for a spectator.
        token: Option<&'a str>,
    },
    /// A chat line (section 7.5).
    Chat(ChatLine<'a>),
    /// The last lines of the connection's room, sent after its first `state` (section 7.5).
    ChatBacklog {
        /// The room.
        room: Room,
        /// The lines, oldest first, at most 100.
        lines: Vec<ChatMessage<'a>>,
    },
    /// The answer to `ping`.
    Pong,
}

/// A time control (docs/protocol.md section 3.2): `{"kind": "none"}`, `{"kind": "per_move",
/// "seconds": S}`, `{"kind": "fischer", "base_seconds": B, "increment_seconds": I}` or
/// `{"kind": "game"}`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControlView {
    /// No clock.
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
        /// Seconds added after each move, 0 to 3600.
        increment_seconds: u32,
    },
    /// The clocks the game's rules set.
    Game,
}

/// An open challenge in a pool (docs/protocol.md section 7.6): `{"seek": 17, "name": "Alice",
/// "kind": "guest", "rating": 1500, "since": 1764466800000, "bots_after_seconds": null}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekerView {
    /// The seek's number, for `accept`.
    pub seek: u64,
    /// Who seeks.
    pub name: String,
    /// Guest or account.
    pub kind: PlayerKind,
    /// The seeker's shown rating in the pool's game.
    pub rating: i64,
    /// Unix ms since when it waits.
    pub since: i64,
    /// After how many seconds of waiting bots may fill its table (`null`: people only).
    pub bots_after_seconds: Option<u64>,
}

/// POOL, a pool as the lobby shows it (docs/protocol.md section 7.6).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PoolView {
    /// The game's registry name.
    pub game: String,
    /// The table size.
    pub seats: u8,
    /// The clock.
    #[schemars(with = "TimeControlView")]
    pub time_control: serde_json::Value,
    /// Rated or casual.
    pub rated: bool,
    /// Seekers waiting now.
    pub waiting: usize,
    /// Its seeks as open challenges, the longest waiting first, at most 20.
    pub seekers: Vec<SeekerView>,
    /// How long its seekers waited lately, in seconds (the median of the last 15 seated);
    /// `null` before any.
    pub estimate_seconds: Option<u64>,
}

/// The pool a `seeking` names (docs/protocol.md section 7.6).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PoolInfo {
    /// The game's registry name.
    pub game: String,
    /// The table size.
    pub seats: u8,
    /// The clock.
    pub time_control: TimeControlView,
    /// Rated or casual.
    pub rated: bool,
}

/// A message of the lobby's WebSocket, server to client (docs/protocol.md section 7.6).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyMessage<'a> {
    /// The counts and the pools, on connecting and when they change.
    Lobby {
        /// Players with an open WebSocket (lobby or match).
        online: usize,
        /// Live matches with a person at the table.
        playing: usize,
        /// The pools with seekers.
        pools: &'a [PoolView],
    },
    /// The answer to a `seek` or an `accept`.
    Seeking {
        /// The pool entered.
        pool: PoolInfo,
        /// The seek's number.
        seek: u64,
        /// The pool's recent wait in seconds, `null` before any.
        estimate_seconds: Option<u64>,
    },
    /// This connection's seek was paired: its seat and token in the new match.
    Paired {
        /// The match's id.
        id: &'a str,
        /// The seat, from 0.
        seat: usize,
        /// The seat's token, 64 hex digits.
        token: &'a str,
        /// The match page.
        url: String,
    },
    /// The answer to `cancel`.
    Cancelled,
    /// The answer to `fill` (`paired` follows).
    Filling,
    /// One of the player's correspondence matches waits for its move.
    Turn {
        /// The match's id.
        id: &'a str,
        /// Its game's registry name.
        game: &'a str,
    },
    /// The answer to `ping`.
    Pong,
    /// The refusal of one client message.
    Error(ErrorBody<'a>),
}

/// `GET /health` (docs/protocol.md section 2): `{"status": "ok", "database": "ok",
/// "matches_in_memory": 3}`, or `degraded` and `unreachable` with a `503`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// `"ok"` or `"degraded"`.
    #[schemars(with = "shapes::HealthWord")]
    pub status: &'static str,
    /// `"ok"` or `"unreachable"`.
    #[schemars(with = "shapes::DatabaseWord")]
    pub database: &'static str,
    /// How many matches the server holds in memory now.
    pub matches_in_memory: usize,
}

/// One game of `GET /api/games` (docs/protocol.md section 3.1).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    /// The registry name (`"mad"`).
    pub name: &'static str,
    /// The title people read (`"MAD"`).
    pub title: &'static str,
    /// The fewest seats.
    pub min_seats: usize,
    /// The most seats.
    pub max_seats: usize,
    /// The default table size.
    pub default_seats: usize,
    /// Whether chance plays a part.
    pub chance: bool,
    /// Whether seats hide things from one another.
    pub hidden_information: bool,
    /// Whether several seats may act at once.
    pub simultaneous: bool,
    /// Whether the game's rules set clocks of their own.
    pub rule_clock: bool,
    /// The game's default config as JSON, every field present.
    pub default_config: serde_json::Value,
    /// The bot names a seat takes, weakest first.
    pub bots: &'static [&'static str],
    /// The bots "Play the computer" offers, weakest first.
    pub levels: Vec<&'static str>,
    /// The game has an agreed ending (section 7.4).
    pub agreement: bool,
    /// Agreeing is a draw (every seat first) rather than the rule naming a winner.
    pub agreement_draw: bool,
}

/// `GET /api/games` (docs/protocol.md section 3.1): `{"games": [GAME, …]}`.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Games {
    /// The games one can create.
    pub games: Vec<GameView>,
}

/// A link to take a free seat (docs/protocol.md section 3.2): `{"seat": 1, "url":
/// "/m/3f9a0c12d4e5b678?join=1"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    /// The free human seat.
    pub seat: u8,
    /// The match page with `?join=` that seat.
    pub url: String,
}

/// The answer of `POST /api/matches` (201) and of `POST /api/matches/{id}/join` (200)
/// (docs/protocol.md sections 3.2 and 3.5).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grant<'a> {
    /// The match's id.
    pub id: &'a str,
    /// SHA-256 of the match's seed, 64 hex digits.
    pub seed_hash: &'a str,
    /// The seat taken, `null` when the creator took none.
    pub seat: Option<u8>,
    /// Its token, 64 hex digits, `null` with no seat.
    pub token: Option<&'a str>,
    /// The match page.
    pub url: String,
    /// One link per human seat still free.
    pub invites: Vec<Invite>,
}

/// SUMMARY, one match's public facts (docs/protocol.md section 3.3).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// The game's title.
    pub title: &'a str,
    /// Where the match stands.
    pub status: Status,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// The game's config as given at creation (`null` = the default).
    pub config: &'a serde_json::Value,
    /// The time control.
    pub time_control: TimeControlView,
    /// Unix ms of creation.
    pub created_at: i64,
    /// The spectators' version; `null` for a live game with hidden information whose match is
    /// not in memory (only its actor knows which entries a spectator saw).
    pub version: Option<u64>,
    /// Whether the outcome changes the players' ratings.
    pub rated: bool,
    /// For a rated match that changed no rating, why (section 7.3); else `null`.
    #[schemars(with = "Option<shapes::Unrated>")]
    pub unrated: Option<&'a str>,
    /// Unix ms when it finished, else `null`.
    pub ended_at: Option<i64>,
    /// The outcome once finished, else `null`.
    #[schemars(with = "Option<shapes::Outcome>")]
    pub outcome: Option<&'a Outcome>,
    /// SHA-256 of the seed, 64 hex digits.
    pub seed_hash: String,
    /// The seed, 64 hex digits, once finished; else `null`.
    pub seed: Option<String>,
    /// The id of the rematch once one was created, else `null`.
    pub rematch: Option<&'a str>,
}

/// `GET /api/matches` (docs/protocol.md section 3.3): `{"matches": [SUMMARY, …]}`.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Matches<'a> {
    /// The matches, newest first, at most 100.
    pub matches: Vec<Summary<'a>>,
}

/// The text of a replay's or a history's step (docs/protocol.md sections 3.7 and 3.9): an
/// action's text, or an early ending as the record writes it (`{"resign": 2}`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum StepText {
    /// An action's text.
    Action(String),
    /// An early ending.
    Ending(#[schemars(with = "shapes::Ending")] plateau_engine::Ending),
}

/// One step of `GET /api/matches/{id}/replay` (docs/protocol.md section 3.7): `{"by", "text",
/// "info", "observation"}`, `by` and `text` `null` at the start, `info` only for an action.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayStep {
    /// Who played the step's action; `null` for the start and an ending.
    #[schemars(with = "Option<shapes::By>")]
    pub by: Option<Actor>,
    /// The action (display notation, or canonical where a spectator could not see it) or the
    /// ending; `null` at the start.
    pub text: Option<StepText>,
    /// The action's parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<shapes::Info>")]
    pub info: Option<ActionInfo>,
    /// The spectators' observation after it.
    pub observation: serde_json::Value,
}

/// `GET /api/matches/{id}/replay` (docs/protocol.md section 3.7).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Replay<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// SHA-256 of the seed.
    pub seed_hash: &'a str,
    /// The seed, 64 hex digits.
    pub seed: Option<String>,
    /// The server's own check of the record: the seed matches its hash and draws every chance
    /// outcome.
    pub verified: bool,
    /// The outcome.
    #[schemars(with = "Option<shapes::Outcome>")]
    pub outcome: Option<&'a Outcome>,
    /// The start, then one step per action and per early ending.
    pub steps: Vec<ReplayStep>,
}

/// One step of `GET /api/matches/{id}/history` (docs/protocol.md section 3.9).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryStep {
    /// Who played the entry that made this version, `null` when the viewer may not see it, at
    /// the start and for an ending.
    #[schemars(with = "Option<shapes::By>")]
    pub by: Option<Actor>,
    /// The entry as the move list shows it, or the ending; `null` as for `by`.
    pub text: Option<StepText>,
    /// How many entries of the viewer's move list were played by then.
    pub moves: usize,
    /// The viewer's observation then.
    pub observation: serde_json::Value,
    /// The action's parts, for a step whose action the viewer sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<shapes::Info>")]
    pub info: Option<ActionInfo>,
}

/// `GET /api/matches/{id}/history` (docs/protocol.md section 3.9).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct History<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The seat the caller plays, `null` for a spectator.
    pub seat: Option<u8>,
    /// One step per version of this viewer, from 0.
    pub steps: &'a [HistoryStep],
}

/// `GET` and `POST /api/matches/{id}/analysis` (docs/protocol.md section 3.8), by `status`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnalysisStatus<'a> {
    /// Nobody asked for it (or it was lost to a restart).
    None,
    /// In line.
    Queued {
        /// The analyses in line.
        waiting: usize,
    },
    /// Being computed.
    Running {
        /// Seat decisions judged so far.
        done: usize,
        /// Seat decisions to judge (0 until the game is replayed).
        total: usize,
    },
    /// It failed (the reason is in the server's log); it may be asked for again.
    Failed,
    /// Done: the analysis, the bots crate's `Analysis` (`"format": "plateau-analysis/1"`,
    /// docs/bots.md, "Analysis") as stored.
    Done {
        /// The stored analysis.
        #[schemars(with = "shapes::Analysis")]
        analysis: &'a RawValue,
    },
}

/// `GET /api/matches/{id}/chat` (docs/protocol.md section 7.5): both rooms' lines.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatLog<'a> {
    /// The players' room.
    pub players: Vec<ChatLine<'a>>,
    /// The spectators' room.
    pub spectators: Vec<ChatLine<'a>>,
}

/// `GET /api/me` (docs/protocol.md section 7.1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Me {
    /// The session's player, `null` without a session.
    pub player: Option<PlayerView>,
    /// Whether `POST /api/guest` may rename the player now: a guest until its first rated game.
    pub can_rename: bool,
}

/// The answer of `POST /api/guest`, `/api/account` and `/api/login` (docs/protocol.md section
/// 7.1): `{"player": PLAYER}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Signed {
    /// The session's player now.
    pub player: PlayerView,
}

/// `GET /api/me/games` (docs/protocol.md section 7.1).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MyGames<'a> {
    /// The live matches where one of the player's seats is to act.
    pub waiting: Vec<Summary<'a>>,
    /// The player's live matches, newest first, at most 50.
    pub playing: Vec<Summary<'a>>,
}

/// A player's standing in one game (docs/protocol.md section 7.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// The shown rating (mu times 60).
    pub rating: i64,
    /// The shown deviation (sigma times 60).
    pub deviation: i64,
    /// Rated games played.
    pub games: u32,
    /// Won (first alone).
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn (first, shared).
    pub draws: u32,
    /// Fewer than 10 rated games in that game.
    pub provisional: bool,
}

/// A point of a rating's history (docs/protocol.md section 7.3): `{"at", "rating", "match"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint<'a> {
    /// Unix ms.
    pub at: i64,
    /// The shown rating then.
    pub rating: i64,
    /// The match that made it, `null` for the starting point.
    #[serde(rename = "match")]
    pub match_id: Option<&'a str>,
}

/// One finished match of a profile's `recent` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecentMatch<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// The game's title.
    pub title: &'a str,
    /// The player's seat.
    pub seat: usize,
    /// The table size.
    pub seats: usize,
    /// The seat's rank (1 is best).
    pub rank: Option<u8>,
    /// `win` (first alone), `draw` (first, shared) or `loss`.
    #[schemars(with = "shapes::Result")]
    pub result: &'static str,
    /// Whether the match was rated.
    pub rated: bool,
    /// Why a rated match changed no rating, else `null`.
    #[schemars(with = "Option<shapes::Unrated>")]
    pub unrated: Option<&'a str>,
    /// How the player's shown rating moved, `null` for a casual match.
    pub rating_change: Option<i64>,
    /// The other players' names.
    pub opponents: Vec<&'a str>,
    /// Unix ms when it finished.
    pub ended_at: Option<i64>,
}

/// `GET /api/players/{name}` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Profile<'a> {
    /// The name.
    pub name: &'a str,
    /// Guest, account or bot.
    pub kind: PlayerKind,
    /// Unix ms of creation.
    pub created_at: i64,
    /// Per game with a rated game: the standing.
    pub ratings: BTreeMap<&'a str, Standing>,
    /// Per game: the shown rating before the first rated game, then after each, oldest first.
    pub history: BTreeMap<&'a str, Vec<RatingPoint<'a>>>,
    /// The finished matches, latest first, at most 50.
    pub recent: Vec<RecentMatch<'a>>,
}

/// One player of a leaderboard (docs/protocol.md section 7.3): the name and kind, then the
/// fields of a `Standing`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leader<'a> {
    /// The name.
    pub name: &'a str,
    /// Guest or account.
    pub kind: PlayerKind,
    /// The shown rating.
    pub rating: i64,
    /// The shown deviation.
    pub deviation: i64,
    /// Rated games played.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
    /// Always false here: the list holds players past their provisional games.
    pub provisional: bool,
}

/// `GET /api/leaderboard/{game}` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard<'a> {
    /// The game's registry name.
    pub game: &'a str,
    /// A newcomer's shown rating.
    pub start: i64,
    /// People past their provisional games, best first, at most 100.
    pub players: Vec<Leader<'a>>,
}

/// `GET /api/matches/{id}/record` (docs/protocol.md section 3.6): the engine's record.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct RecordBody(#[schemars(with = "shapes::Record")] pub Record);
