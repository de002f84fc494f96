//! The JSON bodies of the HTTP API about tournaments (docs/protocol.md section 7.9).

use schemars::JsonSchema;
use serde::Serialize;

use super::TimeControl;

/// Where a tournament stands: `"waiting"` for its start, `"running"` or `"finished"`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentPhase {
    /// Created; players join until it starts.
    Waiting,
    /// Started: games are being paired and played.
    Running,
    /// Over: the standings are final.
    Finished,
}

/// A tournament's settings and where it stands (docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentInfo {
    /// Its id.
    pub id: String,
    /// Its name, as its creator gave it.
    pub name: String,
    /// Registry name of the game played.
    pub game: String,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// Whether its games change ratings.
    pub rated: bool,
    /// The rating a player needs in that game to join, if any.
    pub min_rating: Option<i64>,
    /// An arena's length, in minutes.
    pub minutes: u32,
    /// When it starts (Unix milliseconds).
    pub starts_at: i64,
    /// When it stops pairing (Unix milliseconds): the start plus its length.
    pub ends_at: i64,
    /// Waiting, running or finished.
    pub phase: TournamentPhase,
    /// The creator's name.
    pub creator: String,
    /// Players who joined and have not withdrawn.
    pub players: u32,
}

/// `GET /api/tournaments` (docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tournaments {
    /// The tournaments waiting or running, latest start first.
    pub live: Vec<TournamentInfo>,
    /// The last finished ones, latest start first, at most 20.
    pub finished: Vec<TournamentInfo>,
}

/// One line of a tournament's standings.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentStanding {
    /// Place, from 1.
    pub place: u32,
    /// The player's name.
    pub name: String,
    /// False once the player withdrew.
    pub active: bool,
    /// An arena's points: 2 a win, 1 a draw, doubled on a streak of two wins or more.
    pub points: u32,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// On a streak: the next game counts double.
    pub on_fire: bool,
}

/// One game of a tournament.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentGame {
    /// The match (watchable at `/m/{id}`); `null` for the instant it is being made.
    pub match_id: Option<String>,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Each seat's rank (1 for the best) once the game is over, else `null`.
    pub ranks: Option<Vec<u8>>,
}

/// `GET /api/tournaments/{id}` and the answers of creating, joining and withdrawing (docs/
/// protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentDetail {
    /// Settings and phase.
    pub tournament: TournamentInfo,
    /// The standings, first place first.
    pub standings: Vec<TournamentStanding>,
    /// Its games, in the order they were paired.
    pub games: Vec<TournamentGame>,
}
