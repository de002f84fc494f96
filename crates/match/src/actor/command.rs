//! What the lobby and the sockets send a match actor, and what it answers.

use bytes::Bytes;
use plateau_engine::Seat;
use tokio::sync::{mpsc, oneshot};

use crate::model::{ApiError, SeatSpec, TimeControl};
use plateau_store::players::{Player, PlayerId};

/// A message for one WebSocket connection.
#[derive(Debug)]
pub enum Outgoing {
    /// A JSON text frame: UTF-8, as serde_json writes it (the socket sends it as text).
    Text(Bytes),
}

/// A seat taken by `join`.
pub struct Joined {
    /// The seat's index.
    pub seat: u8,
    /// The seat's token (docs/protocol.md section 7.2), told once.
    pub token: String,
    /// The human seats still free after this one.
    pub free: Vec<u8>,
}

/// What a rematch needs to know about the finished match.
pub struct RematchInfo {
    /// The game's registry name.
    pub game: String,
    /// The game's settings.
    pub config: serde_json::Value,
    /// Who sits at each seat: a human or which bot.
    pub specs: Vec<SeatSpec>,
    /// Each seat's player, where taken.
    pub players: Vec<Option<Player>>,
    /// The clock.
    pub control: TimeControl,
    /// Whether it changes ratings.
    pub rated: bool,
}

pub use plateau_protocol::OfferKind;

/// Where the actor answers a command: its result, or the coded error it was refused with.
pub type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// Connection `conn` opens the match's socket: it is sent the snapshot and every message after
/// it, as the seat its token or player holds (spectator if none); the answer is that seat.
pub struct Subscription {
    /// The connection's number (`Lobby::next_connection`).
    pub conn: u64,
    /// A seat token (docs/protocol.md section 7.2).
    pub token: Option<String>,
    /// The session's player.
    pub player: Option<Player>,
    /// The client's address key (`limits::address_key`), where the limits apply to it.
    pub from: Option<String>,
    /// The players the session's player blocks: muted at this table from now on
    /// (docs/protocol.md section 7.8).
    pub blocks: Vec<PlayerId>,
    /// Where the connection's messages go.
    pub out: mpsc::Sender<Outgoing>,
    /// The seat held, or a refusal.
    pub reply: Reply<Option<Seat>>,
}

/// A request to a match actor.
pub enum Command {
    /// A connection opens the match's socket (`Subscription`). Boxed: the largest command by
    /// far, and every match's queue holds room for 32 commands of the largest size from its
    /// start.
    Subscribe(Box<Subscription>),
    /// Connection `conn` closed.
    Unsubscribe {
        /// The connection's number.
        conn: u64,
    },
    /// `seat` plays `actions`, made at `version` (docs/protocol.md section 4).
    Act {
        /// The connection it came on: an actor that does not serve that connection refuses the
        /// action (`match/moved`) and plays nothing. So an action that crossed its socket's
        /// close (the match unloaded here: it moved, or this node fenced itself) is never
        /// played by the match's next actor while the client, connected again, is shown the
        /// state without it (docs/architecture.md section 5.3).
        conn: u64,
        /// The seat acting.
        seat: Seat,
        /// The version the client saw.
        version: u64,
        /// The actions, in order.
        actions: Vec<plateau_protocol::ActionRequest>,
        /// The asker's span (a socket's: its request id, the match): the act's log lines are
        /// under it.
        span: tracing::Span,
        /// Answered once committed, or with the refusal.
        reply: Reply<()>,
    },
    /// Connection `conn` asks for the whole state again.
    Snapshot {
        /// The connection's number.
        conn: u64,
    },
    /// `seat` resigns.
    Resign {
        /// The seat resigning.
        seat: Seat,
        /// The asker's span, as `Act`'s.
        span: tracing::Span,
        /// Answered once committed.
        reply: Reply<()>,
    },
    /// A moderator ends the match (docs/protocol.md section 7.11): rated or not, it changes no
    /// rating.
    Close {
        /// Answered once committed, or with the refusal (not started, over).
        reply: Reply<()>,
    },
    /// `player` takes seat `seat`, or the lowest free human seat (docs/protocol.md section 3.5).
    Join {
        /// The seat asked for, if any.
        seat: Option<u8>,
        /// Who takes it.
        player: Player,
        /// The seat taken and its token.
        reply: Reply<Joined>,
    },
    /// Offer (or accept) an agreed stop or a rematch; for a rematch, the answer holds what the
    /// lobby needs to create it once every human seat has offered.
    Offer {
        /// The seat offering.
        seat: Seat,
        /// What it offers.
        kind: OfferKind,
        /// What a rematch needs, once every human seat offered it.
        reply: Reply<Option<RematchInfo>>,
    },
    /// `seat` declines (or withdraws) an offer of `kind`.
    Decline {
        /// The seat declining.
        seat: Seat,
        /// Which offer.
        kind: OfferKind,
        /// Answered once told.
        reply: Reply<()>,
    },
    /// The rematch `id` exists; `tokens[new seat]` is the token of that seat's player.
    RematchDone {
        /// The rematch's id.
        id: String,
        /// Per seat of the rematch, its player's token (humans only).
        tokens: Vec<Option<String>>,
        /// Answered once told.
        reply: Reply<()>,
    },
    /// A chat line `text` from connection `conn`.
    Chat {
        /// The connection's number.
        conn: u64,
        /// The line.
        text: String,
        /// Answered once stored, or with the refusal.
        reply: Reply<()>,
    },
    /// Connection `conn`'s player mutes (or unmutes) `name` here.
    Mute {
        /// The connection's number.
        conn: u64,
        /// The player muted.
        name: String,
        /// Mute (`true`) or hear again.
        mute: bool,
        /// Answered once done.
        reply: Reply<()>,
    },
    /// `player` is named `name` now (a moderator renamed it, or the guest itself): its seats,
    /// its connections and its chat lines here show that name from now on.
    Renamed {
        /// Who.
        player: PlayerId,
        /// Its name now.
        name: String,
    },
    /// The service stops: finish the commit in progress, close the sockets, answer, end.
    Shutdown {
        /// Answered as the actor ends.
        reply: oneshot::Sender<()>,
    },
    /// The match was deleted as an open match nobody started in time.
    Expired,
    /// A quick-pairing table not started in time: called off if a seat's player never opened
    /// it; the answer names those players (none if the match started).
    CallOff {
        /// The players who never opened it.
        reply: oneshot::Sender<Vec<PlayerId>>,
    },
    /// Another node took the match's lease: stop, so its viewers connect again (to the node
    /// that drives it now).
    Moved,
}
