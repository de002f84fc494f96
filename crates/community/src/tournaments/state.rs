//! What a tournament is in memory and in the store: its settings (`Setup`), its changing state
//! (`State`, written whole on each change over the version read), and the rules' clock.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use plateau_lobby::lobby::Lobby;
use plateau_lobby::model::{ApiError, Code, TimeControl};
use plateau_store::StoreError;
use plateau_store::tournaments::{StoredTournament, TournamentStatus};
use plateau_tournament::Tournament;

/// The rules' clock at `real_ms` (Unix milliseconds) when a tournament's minute lasts `minute`:
/// the same as the real one with a real minute, faster in tests that shorten the minute.
pub(super) fn rules_ms(real_ms: i64, minute: Duration) -> u64 {
    let real = u128::try_from(real_ms).unwrap_or(0);
    let minute = minute.as_millis().max(1);
    u64::try_from(real * 60_000 / minute).unwrap_or(u64::MAX)
}

/// The real time (Unix milliseconds) of the rules' `rules_ms`: the inverse of `rules_ms`.
pub(super) fn real_ms(rules_ms: u64, minute: Duration) -> i64 {
    let real = u128::from(rules_ms) * minute.as_millis() / 60_000;
    i64::try_from(real).unwrap_or(i64::MAX)
}

/// What a tournament's creator chose, stored once (the row's `settings`; written again only to
/// name a deleted creator anew). The kind, rounds and tables' size are the rules' settings, in
/// the state's `Tournament`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Setup {
    pub(super) name: String,
    pub(super) game: String,
    pub(super) time_control: TimeControl,
    /// An arena's length; 0 for a Swiss or tables.
    #[serde(default)]
    pub(super) minutes: u32,
    pub(super) rated: bool,
    pub(super) min_rating: Option<i64>,
    pub(super) creator: String,
    /// Made by the server's schedule (`schedule`), not by a player.
    #[serde(default)]
    pub(super) scheduled: bool,
}

/// A player of a tournament as a match seats them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Member {
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) created_at: i64,
}

/// What changes as a tournament runs (the row's `state`), written whole on each change.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct State {
    /// The rules' value: players, games, results, the arena's clock (in `run::rules_ms`).
    pub(super) tournament: Tournament,
    /// The match of each game, by the game's index: its id is chosen and written with the
    /// pairing, before the match is made.
    pub(super) matches: Vec<GameMatch>,
    /// Every player who ever joined, by player id.
    pub(super) members: BTreeMap<i64, Member>,
}

/// The match of one game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct GameMatch {
    /// Chosen at the pairing: making the match again under it does nothing.
    pub(super) id: String,
    /// Whether the match was made (written once it was): a made match missing from the store
    /// was called off.
    pub(super) made: bool,
}

/// One tournament as read from the store.
pub(super) struct Live {
    pub(super) id: String,
    pub(super) setup: Setup,
    pub(super) state: State,
    pub(super) starts_at: i64,
    pub(super) finished: bool,
    /// The row's version this was read at (one more after each save).
    pub(super) version: i64,
    /// A player who joined with the change being made: the save counts them among the
    /// tournament's entrants (`Store::player_tournaments`). Not stored.
    pub(super) entrant: Option<plateau_lobby::players::PlayerId>,
}

impl Live {
    /// A new tournament, nobody in it yet, not stored.
    pub(super) fn new(id: String, setup: Setup, tournament: Tournament, starts_at: i64) -> Live {
        Live {
            id,
            setup,
            state: State {
                tournament,
                matches: Vec::new(),
                members: BTreeMap::new(),
            },
            starts_at,
            finished: false,
            version: 0,
            entrant: None,
        }
    }

    /// Writes the state (and whether it is over) to the store, if the row is still at the
    /// version this was read at: `Ok(true)` written (the version is the row's again), `Ok(false)`
    /// another writer changed it first (read it again and redo the change).
    pub(super) async fn save(&mut self, lobby: &Lobby) -> Result<bool, ApiError> {
        let state = serde_json::to_string(&self.state)
            .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?;
        let status = if self.finished {
            TournamentStatus::Finished
        } else {
            TournamentStatus::Live
        };
        match lobby
            .store()
            .save_tournament(self.id.clone(), status, state, self.version, self.entrant)
            .await
        {
            Ok(()) => {
                self.version += 1;
                Ok(true)
            }
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(ApiError::store(e)),
        }
    }

    pub(super) fn from_row(row: &StoredTournament) -> Result<Live, String> {
        let setup: Setup = serde_json::from_str(&row.settings).map_err(|e| e.to_string())?;
        let state: State = serde_json::from_str(&row.state).map_err(|e| e.to_string())?;
        Ok(Live {
            id: row.id.clone(),
            setup,
            state,
            starts_at: row.starts_at_ms,
            finished: row.status == TournamentStatus::Finished,
            version: row.version,
            entrant: None,
        })
    }
}

/// The tournaments of the store: the HTTP operations on them, and the task that runs the live
/// ones this node is the runner of (docs/architecture.md section 5.3).
pub struct Tournaments {
    pub(super) lobby: Arc<Lobby>,
    /// What this node's lobby sockets follow, told of every change written here.
    pub(super) feed: Arc<super::feed::Feed>,
}
