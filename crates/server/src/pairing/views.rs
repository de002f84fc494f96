//! What a seeker sends and what the lobby shows of the pools (docs/protocol.md section 7.6).

use serde::{Deserialize, Serialize};

use crate::model::TimeControl;
use crate::players::{Player, PlayerKind};

/// A seek as the lobby WebSocket receives it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The message type, `"seek"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    #[serde(default)]
    pub time_control: TimeControl,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// Seconds after which bots may fill the empty seats (`None`: wait for people).
    #[serde(default)]
    pub bots_after_seconds: Option<u32>,
    /// The bots' level, a catalogue bot name (default `club`).
    #[serde(default)]
    pub bot: Option<String>,
}

/// A pool: seekers in one share everything but their ratings.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
pub struct PoolKey {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock, as JSON (so the key orders and hashes).
    pub time_control: String,
    /// Rated or casual.
    pub rated: bool,
}

/// One pool as the lobby shows it.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PoolView {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    pub time_control: serde_json::Value,
    /// Rated or casual.
    pub rated: bool,
    /// Seekers waiting now.
    pub waiting: usize,
    /// Its seekers as open challenges, the longest waiting first, at most `SEEKERS_SHOWN`.
    pub seekers: Vec<SeekerView>,
    /// How long a seeker of this pool waited lately, in seconds (the median of the last
    /// pairings); `None` before any.
    pub estimate_seconds: Option<u64>,
}

/// A seek as the lobby shows it: an open challenge (`accept` takes it).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeekerView {
    /// The seek's number, for `accept`.
    pub seek: u64,
    /// Who seeks.
    pub name: String,
    /// `"guest"` or `"account"`.
    pub kind: PlayerKind,
    /// Their shown rating in the pool's game.
    pub rating: i64,
    /// Unix ms since when they wait.
    pub since: i64,
    /// After how many seconds of waiting bots may fill their table (`None`: people only).
    pub bots_after_seconds: Option<u64>,
}

/// The answer to a seek or an accepted challenge (docs/protocol.md section 7.6).
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Seeking {
    /// `"seeking"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The pool entered.
    pub pool: PoolInfo,
    /// The seek's number.
    pub seek: u64,
    /// The pool's recent wait (`PoolView::estimate_seconds`).
    pub estimate_seconds: Option<u64>,
}

/// A pool named in a `seeking` answer.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PoolInfo {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
}

/// This connection's seek was paired: its seat and token in the new match.
#[derive(Serialize)]
pub(super) struct Paired<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) id: &'a str,
    pub(super) seat: usize,
    pub(super) token: &'a str,
    pub(super) url: String,
}

/// A pool's match could not be created.
#[derive(Serialize)]
pub(super) struct Failed<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) code: &'static str,
    pub(super) message: &'a str,
}

/// Who seeks, from where, and whose seek it accepts, if any.
pub struct SeekerId {
    /// The lobby connection.
    pub conn: u64,
    /// Its player.
    pub player: Player,
    /// The key of its address where the limits per address apply (a table bots may fill
    /// counts as a match this address created, docs/protocol.md section 6).
    pub address: Option<String>,
    /// The seek accepted (`accept`), if any.
    pub partner: Option<u64>,
}
