//! A match as the store keeps it: its row and seats, the chat beside its log, how it ended, and
//! the documents derived from it once finished.

use plateau_engine::{LogEntry, Outcome, Seed};

use crate::model::{SeatSpec, Status, TimeControl};
use crate::players::Player;

/// One seat of a stored match.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredSeat {
    /// Who fills it.
    pub spec: SeatSpec,
    /// SHA-256 (hex) of the seat token, once a person took the seat.
    pub token_hash: Option<String>,
    /// The player in the seat: the person who took it, or the bot's player.
    pub player: Option<Player>,
    /// Whether the seat's player has opened the match (connected once); bots always have.
    pub opened: bool,
}

/// A document computed once from a finished match and kept beside it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Derived {
    /// Every position as a spectator sees it (docs/protocol.md section 3.7).
    Replay,
    /// The post-game analysis (docs/protocol.md section 3.8).
    Analysis,
}

impl Derived {
    /// The kind's name in the store.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Derived::Replay => "replay",
            Derived::Analysis => "analysis",
        }
    }
}

/// A match as stored.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredMatch {
    /// 16 lowercase hex digits.
    pub id: String,
    /// Registry name of the game.
    pub game: String,
    /// The game's config as JSON (`null` = default).
    pub config: serde_json::Value,
    /// One per seat.
    pub seats: Vec<StoredSeat>,
    /// The time control.
    pub time_control: TimeControl,
    /// The secret chance seed (revealed only once finished).
    pub seed: Seed,
    /// Where the match stands.
    pub status: Status,
    /// Unix ms of creation.
    pub created_at: i64,
    /// Unix ms when it became live.
    pub started_at: Option<i64>,
    /// The result once finished.
    pub outcome: Option<Outcome>,
    /// The id of its rematch, once created.
    pub rematch: Option<String>,
    /// Whether the outcome changes the players' ratings.
    pub rated: bool,
    /// For a rated match that changed no rating: why (`ratings::Unrated::as_str`).
    pub unrated: Option<String>,
    /// The creating address's key (`limits::address_key`), if a client created it.
    pub creator: Option<String>,
    /// Unix ms when it finished.
    pub ended_at: Option<i64>,
    /// Number of log entries (the version).
    pub version: u64,
    /// The log itself, when it was asked for (else empty): entry `i` is the row with `seq = i`,
    /// each with its time (`at_ms` is always `Some`).
    pub log: Vec<LogEntry>,
    /// The chat of both rooms in order, with the log (else empty).
    pub chat: Vec<ChatLine>,
}

/// Which room of a match's chat (docs/protocol.md section 7.5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// The seats' room.
    Players,
    /// The spectators' room.
    Spectators,
}

impl Room {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }
}

/// One chat line.
#[derive(Clone, PartialEq, Debug)]
pub struct ChatLine {
    /// Position in the match's chat, from 0.
    pub seq: u64,
    /// The room it was written in.
    pub room: Room,
    /// Who wrote it.
    pub player: Player,
    /// The writer's seat, `None` for a spectator.
    pub seat: Option<u8>,
    /// The text as written (trimmed), at most 300 characters, no control characters.
    pub text: String,
    /// Unix ms.
    pub at: i64,
}

/// The unfinished matches one address created (`Store::created_by`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Created {
    /// Open: not started yet.
    pub open: usize,
    /// Live, of bots alone.
    pub bots_only: usize,
    /// Open or live, with a bot and a person.
    pub with_bots: usize,
}

/// How a match ended, stored with its last log entry.
#[derive(Clone, PartialEq, Debug)]
pub struct Finish {
    /// The result.
    pub outcome: Outcome,
    /// Unix ms.
    pub at: i64,
    /// Why a rated match changes no rating, as the match's actor found (an abort, players of one
    /// address); the store adds the daily cap (`ratings::SAME_OPPONENT_PER_DAY`).
    pub unrated: Option<crate::ratings::Unrated>,
}
