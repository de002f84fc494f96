//! The messages of the lobby's WebSocket, server to client (docs/protocol.md section 7.6): the
//! pools and their open challenges.

use schemars::JsonSchema;
use serde::Serialize;

use super::{ErrorBody, PlayerKind, TimeControl, TournamentDetail, Tournaments as TournamentList};

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
    #[schemars(with = "TimeControl")]
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
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
}

/// One side of a challenge (docs/protocol.md section 7.7): `{"name": "Alice", "kind": "guest",
/// "rating": 1500}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeSide {
    /// The player's name.
    pub name: String,
    /// Guest or account.
    pub kind: PlayerKind,
    /// The shown rating in the challenge's game.
    pub rating: i64,
}

/// CHALLENGE, a challenge from one named player to another (docs/protocol.md section 7.7).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeView {
    /// Its number, for `challenge_accept`, `challenge_decline` and `challenge_cancel`.
    pub challenge: u64,
    /// Who challenges.
    pub from: ChallengeSide,
    /// Who is challenged.
    pub to: ChallengeSide,
    /// The game's registry name.
    pub game: String,
    /// The table size (always 2).
    pub seats: u8,
    /// The clock.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// Unix ms when it expires unless answered.
    pub expires_at: i64,
}

/// Why a challenge ended without a match (docs/protocol.md section 7.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// The challenged player said no.
    Declined,
    /// The challenger withdrew it (or closed its last lobby socket).
    Cancelled,
    /// Nobody answered in time.
    Expired,
}

/// A followed player as the friend list shows it (docs/protocol.md section 7.8).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FriendView {
    /// The player's name.
    pub name: String,
    /// Guest or account.
    pub kind: PlayerKind,
    /// Whether it has a socket open (lobby or match) on this node.
    pub online: bool,
    /// A live match it sits at with its socket open (the last by id when several), to watch;
    /// `null` when none.
    pub playing: Option<String>,
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
    /// The player's open challenges, on connecting (when there are some) and whenever they
    /// change: those it was sent and those it sent.
    Challenges {
        /// Challenges waiting for this player's answer, oldest first.
        incoming: &'a [ChallengeView],
        /// Challenges this player sent, oldest first.
        outgoing: &'a [ChallengeView],
    },
    /// The answer to `challenge`: it was sent.
    ChallengeSent {
        /// The challenge's number.
        challenge: u64,
    },
    /// A challenge of this player ended without a match.
    ChallengeEnded {
        /// The challenge's number.
        challenge: u64,
        /// The other player's name.
        name: &'a str,
        /// Why.
        reason: ChallengeEnd,
    },
    /// The players this player follows, with who is online and playing: on connecting and
    /// whenever it changes.
    Friends {
        /// Followed players, by name.
        friends: &'a [FriendView],
    },
    /// A followed tournament as it stands (docs/protocol.md section 7.9, the body of `GET
    /// /api/tournaments/{id}`): on following it and whenever it changes.
    Tournament(&'a TournamentDetail),
    /// The list of tournaments, when followed (the body of `GET /api/tournaments`): on
    /// following it and whenever it changes.
    Tournaments(&'a TournamentList),
    /// The answer to `ping`.
    Pong,
    /// The refusal of one client message.
    Error(ErrorBody<'a>),
}
