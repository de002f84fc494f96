//! What a seeker sends and what the lobby shows of the pools (docs/protocol.md section 7.6).

use serde::{Deserialize, Serialize};

use plateau_match::model::TimeControl;
use plateau_store::players::Player;

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

/// One pool as the lobby shows it, and a seek in it as an open challenge (`accept` takes it).
pub use plateau_protocol::server::{PoolView, SeekerView};

/// The answer to a seek or an accepted challenge (docs/protocol.md section 7.6), sent as the
/// protocol's `LobbyMessage::Seeking`.
#[derive(Clone, PartialEq, Debug)]
pub struct Seeking {
    /// The pool entered.
    pub pool: PoolInfo,
    /// The seek's number.
    pub seek: u64,
    /// The pool's recent wait (`PoolView::estimate_seconds`).
    pub estimate_seconds: Option<u64>,
}

/// A pool named in a `seeking` answer.
#[derive(Clone, PartialEq, Debug)]
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
    /// The players this one blocks: never seated with it (docs/protocol.md section 7.8).
    pub blocks: Vec<plateau_store::players::PlayerId>,
}
