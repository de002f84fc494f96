//! The shapes the service shares between its HTTP routes, its WebSocket and its storage: seats,
//! time controls, statuses and the coded errors of docs/protocol.md section 5.

use axum::Json;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::players::{Player, PlayerView};

pub use plateau_store::model::{SeatSpec, Status, TimeControl, unix_ms};

/// One seat as the lobby and the `state` message show it (docs/protocol.md section 3.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeatInfo {
    /// Seat number, from 0.
    pub seat: u8,
    /// `"human"` or `"bot"`.
    pub kind: String,
    /// The bot's name, `null` for a human seat.
    pub bot: Option<String>,
    /// The bot's level, `null` for a human seat.
    pub level: Option<u8>,
    /// Whether the seat is filled (always for a bot).
    pub taken: bool,
    /// Who sits there: the person who took it, or the bot's player; `null` while free.
    pub player: Option<PlayerView>,
    /// Whether a person sits there now (an open socket); false for bots.
    pub connected: bool,
}

impl SeatInfo {
    /// The public view of seat `seat` filled by `spec`, held by `player`.
    #[must_use]
    pub fn new(
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
            kind: kind.to_owned(),
            bot,
            level,
            taken,
            player: player.map(Player::view),
            connected,
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
        serde_json::json!({"type": "error", "code": self.code.as_str(), "message": self.message})
            .to_string()
    }
}

impl From<plateau_protocol::WireError> for ApiError {
    fn from(e: plateau_protocol::WireError) -> ApiError {
        ApiError::new(e.code, e.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"code": self.code.as_str(), "message": self.message});
        (self.code.status(), Json(body)).into_response()
    }
}
