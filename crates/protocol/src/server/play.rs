//! The messages of the match WebSocket, server to client (docs/protocol.md section 4.1): the
//! `state` with its clocks, offers and move list, and the chat lines of a match's two rooms
//! (section 7.5).

use std::collections::BTreeMap;

use plateau_engine::{ActionInfo, Actor, JsonText, ObservationJson, Outcome};
use schemars::JsonSchema;
use serde::{Serialize, Serializer};

use super::{ErrorBody, SeatView, Status};
use crate::{OfferKind, shapes};

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
    pub to_act: &'a [u8],
    /// The game's observation for this viewer, whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub observation: Option<&'a ObservationJson>,
    /// The observation's top-level fields that changed, each whole.
    // Written once (`ObservationJson::patch_from`) for every viewer it goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    pub observation_patch: Option<&'a JsonText>,
    /// The observation's top-level fields that are gone.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub observation_removed: &'a [String],
    /// This seat's legal actions in canonical notation, sorted by byte order.
    // `legal` and `legal_info` borrow the one list the game gives (`DynGame::listed_legal_info`),
    // of which each writes its part: this one the texts.
    #[serde(serialize_with = "texts")]
    #[schemars(with = "Vec<String>")]
    pub legal: &'a [(String, ActionInfo)],
    /// The parts of each legal action, in `legal`'s order.
    #[serde(serialize_with = "infos")]
    #[schemars(with = "Vec<shapes::Info>")]
    pub legal_info: &'a [(String, ActionInfo)],
    /// How many moves of its list the client keeps before `moves`.
    pub moves_from: usize,
    /// The move list from `moves_from` on.
    // Each a `MoveView`, written once for every viewer that sees it alike.
    #[schemars(with = "Vec<MoveView<'a>>")]
    pub moves: Vec<&'a JsonText>,
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

/// `State::legal`: the texts of the listed actions.
fn texts<S: Serializer>(listed: &&[(String, ActionInfo)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(listed.iter().map(|(text, _)| text))
}

/// `State::legal_info`: the parts of the listed actions.
fn infos<S: Serializer>(listed: &&[(String, ActionInfo)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(listed.iter().map(|(_, info)| info))
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
    /// Its number in the match's chat (both rooms), from 0: what a report names it by
    /// (section 7.11).
    pub seq: u64,
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
