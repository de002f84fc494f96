//! The store's calls about ratings: a player's standings and changes, a match's, the
//! leaderboards (the ratings themselves change with the match that finishes, `MatchStore::append`).

use super::future::BoxFuture;
use crate::error::StoreError;
use crate::players::{Player, PlayerId};
use crate::ratings::{RatingEvent, Standing};

/// Reading the players' ratings (part of `Store`).
pub trait RatingStore: Send + Sync {
    /// A player's standing in every game it has a rating in.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn standings(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, Standing)>, StoreError>>;

    /// Every rating change of a player, oldest first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn rating_events(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<RatingEvent>, StoreError>>;

    /// The rating changes finished match `id` made, one per player whose rating it changed.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn match_rating_events(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Vec<(PlayerId, RatingEvent)>, StoreError>>;

    /// The `limit` people (not bots) with the best ratings in `game`, best first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn leaderboard(
        &self,
        game: String,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<(Player, Standing)>, StoreError>>;
}
