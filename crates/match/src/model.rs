//! The shapes the service shares between its HTTP routes, its WebSocket and its storage: seats,
//! time controls, statuses and the coded errors of docs/protocol.md section 5.

use plateau_protocol::server::{ErrorBody, MatchMessage};

use plateau_store::players::Player;

pub use plateau_store::model::{SeatSpec, Status, TimeControl, unix_ms};

/// One seat as the lobby and the `state` message show it (docs/protocol.md section 3.3).
pub use plateau_protocol::server::SeatView as SeatInfo;

/// Whether `text` holds a character that changes the direction of the text (the bidirectional
/// overrides U+202A to U+202E and isolates U+2066 to U+2069). A text people write and others read
/// (a chat line, a report, a tournament's name) is refused with one: shown on a page, it would
/// turn around the words that follow it there (docs/protocol.md section 7.5).
#[must_use]
pub fn turns_text(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
}

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
pub fn line_view(line: &plateau_store::ChatLine) -> plateau_protocol::server::ChatLine<'_> {
    plateau_protocol::server::ChatLine {
        room: room_view(line.room),
        name: &line.player.name,
        seat: line.seat,
        text: &line.text,
        at: line.at,
        seq: line.seq,
    }
}

/// A chat room as clients are sent it.
#[must_use]
pub fn room_view(room: plateau_store::Room) -> plateau_protocol::server::Room {
    match room {
        plateau_store::Room::Players => plateau_protocol::server::Room::Players,
        plateau_store::Room::Spectators => plateau_protocol::server::Room::Spectators,
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
    pub fn store(e: plateau_store::StoreError) -> ApiError {
        use plateau_store::StoreError;
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
        crate::metrics::error_sent(self.code);
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
