//! One message of a match's WebSocket, read by the session and passed here to the lobby: acting,
//! resigning, offers, chat, a fresh state; the answer is the refusal, if any (the match's
//! messages come from its actor).

use plateau_engine::Seat;
use plateau_protocol::ClientMessage;

use crate::lobby::Lobby;
use crate::model::{ApiError, Code};

/// Handles one message of connection `conn` (of `player`, if any); returns the reply for it, if
/// any. A `ping` and an `auth` are the session's (it answers the one and keeps the seat the
/// other gives).
pub(super) async fn handle(
    lobby: &Lobby,
    id: &str,
    conn: u64,
    seat: Option<Seat>,
    player: Option<crate::players::PlayerId>,
    peer: Option<std::net::IpAddr>,
    message: ClientMessage,
) -> Option<String> {
    let need_seat = || {
        seat.ok_or_else(|| {
            ApiError::new(
                Code::AuthSeat,
                "spectators cannot act: connect with a seat token",
            )
        })
    };
    let result = match message {
        ClientMessage::Ping | ClientMessage::Auth(_) => return None,
        ClientMessage::Sync => {
            lobby.snapshot(id, conn).await;
            return None;
        }
        ClientMessage::Act { version, actions } => match need_seat() {
            Ok(s) => lobby.act(id, conn, s, version, actions).await,
            Err(e) => Err(e),
        },
        ClientMessage::Resign => match need_seat() {
            Ok(s) => lobby.resign(id, s).await,
            Err(e) => Err(e),
        },
        ClientMessage::Offer(kind) => match need_seat() {
            Ok(s) => lobby.offer(id, s, kind, peer).await,
            Err(e) => Err(e),
        },
        ClientMessage::Decline(kind) => match need_seat() {
            Ok(s) => lobby.decline(id, s, kind).await,
            Err(e) => Err(e),
        },
        // A muted or banned player's line is refused before the match sees it.
        ClientMessage::Chat(text) => match player.map(|p| lobby.sanctions().check_may_chat(p)) {
            Some(Err(e)) => Err(e),
            _ => lobby.chat(id, conn, text).await,
        },
        ClientMessage::Mute { name, mute } => lobby.mute(id, conn, name, mute).await,
    };
    result.err().map(|e| e.to_ws_json())
}
