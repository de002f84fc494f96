//! What the lobby and the sockets send a match actor, and what it answers.

use axum::extract::ws::Utf8Bytes;
use plateau_engine::Seat;
use tokio::sync::{mpsc, oneshot};

use crate::model::{ApiError, SeatSpec, TimeControl};
use crate::players::{Player, PlayerId};

/// A message for one WebSocket connection.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A JSON text frame.
    Text(Utf8Bytes),
}

/// A seat taken by `join`.
pub(crate) struct Joined {
    pub seat: u8,
    pub token: String,
    pub free: Vec<u8>,
}

/// What a rematch needs to know about the finished match.
pub(crate) struct RematchInfo {
    pub game: String,
    pub config: serde_json::Value,
    pub specs: Vec<SeatSpec>,
    pub players: Vec<Option<Player>>,
    pub control: TimeControl,
    pub rated: bool,
}

pub use plateau_protocol::OfferKind;

pub(crate) type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// A request to a match actor.
pub(crate) enum Command {
    Subscribe {
        conn: u64,
        token: Option<String>,
        player: Option<Player>,
        /// The client's address key (`limits::address_key`), where the limits apply to it.
        from: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: Reply<Option<Seat>>,
    },
    Unsubscribe {
        conn: u64,
    },
    Act {
        seat: Seat,
        version: u64,
        actions: Vec<plateau_protocol::ActionRequest>,
        reply: Reply<()>,
    },
    Snapshot {
        conn: u64,
    },
    Resign {
        seat: Seat,
        reply: Reply<()>,
    },
    Join {
        seat: Option<u8>,
        player: Player,
        reply: Reply<Joined>,
    },
    /// Offer (or accept) an agreed stop or a rematch; for a rematch, the answer holds what the
    /// lobby needs to create it once every human seat has offered.
    Offer {
        seat: Seat,
        kind: OfferKind,
        reply: Reply<Option<RematchInfo>>,
    },
    Decline {
        seat: Seat,
        kind: OfferKind,
        reply: Reply<()>,
    },
    /// The rematch `id` exists; `tokens[new seat]` is the token of that seat's player.
    RematchDone {
        id: String,
        tokens: Vec<Option<String>>,
        reply: Reply<()>,
    },
    Chat {
        conn: u64,
        text: String,
        reply: Reply<()>,
    },
    Mute {
        conn: u64,
        name: String,
        mute: bool,
        reply: Reply<()>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
    /// The match was deleted as an open match nobody started in time.
    Expired,
    /// A quick-pairing table not started in time: called off if a seat's player never opened
    /// it; the answer names those players (none if the match started).
    CallOff {
        reply: oneshot::Sender<Vec<PlayerId>>,
    },
    /// Another node took the match's lease: stop, so its viewers connect again (to the node
    /// that drives it now).
    Moved,
}
