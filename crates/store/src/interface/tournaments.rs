//! The store's calls about tournaments: created, saved at the version read, read and listed.

use super::future::BoxFuture;
use crate::error::StoreError;
use crate::players::PlayerId;
use crate::tournaments;

/// Storage of tournaments and who joined them (part of `Store`).
pub trait TournamentStore: Send + Sync {
    /// Stores a new tournament (docs/tournaments.md).
    ///
    /// # Errors
    /// `Conflict` if the id exists or the creator is unknown.
    fn create_tournament(
        &self,
        t: tournaments::StoredTournament,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Tournament `id`'s status and state become `status` and `state`, and its version one
    /// more, if its version is still `version` (the one its writer read); `entrant`, a player
    /// who joined with this change, is counted among its entrants (`player_tournaments`) in the
    /// same transaction.
    ///
    /// # Errors
    /// `Conflict` if its version is another (it changed since it was read) or there is no such
    /// tournament (nothing is written); `Database` on failure.
    fn save_tournament(
        &self,
        id: String,
        status: tournaments::TournamentStatus,
        state: String,
        version: i64,
        entrant: Option<PlayerId>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Tournament `id`'s settings (written at its creation) become `settings`: only to name a
    /// deleted creator anew (docs/protocol.md section 7.10); its state and version are left as
    /// they are.
    ///
    /// # Errors
    /// `Database` on failure.
    fn set_tournament_settings(
        &self,
        id: String,
        settings: String,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// At most `limit` tournaments `player` joined (an entrant of a save), latest start first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_tournaments(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<tournaments::StoredTournament>, StoreError>>;

    /// Tournament `id`, if stored.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn tournament(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<tournaments::StoredTournament>, StoreError>>;

    /// At most `limit` tournaments of status `status`, latest start first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn tournaments(
        &self,
        status: tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<tournaments::StoredTournament>, StoreError>>;

    /// The id and version of at most `limit` tournaments of status `status`, latest start
    /// first: the tournaments of `tournaments` without their settings and state, to learn
    /// cheaply which changed (each save raises the version).
    ///
    /// # Errors
    /// `Database` on failure.
    fn tournament_versions(
        &self,
        status: tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>>;

    /// How many tournaments `creator` created since `since_ms` (Unix milliseconds).
    ///
    /// # Errors
    /// `Database` on failure.
    fn tournaments_created(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<u32, StoreError>>;
}
