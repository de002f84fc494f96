//! The `Store` trait, by subject: each part a trait of its own that `Store` requires (a
//! `dyn Store` answers all their calls), so that each backend implements it part by part.

mod future;
mod matches;
mod moderation;
mod nodes;
mod players;
mod ratings;
mod tournaments;

pub use future::BoxFuture;
pub use matches::MatchStore;
pub use moderation::{ModerationStore, Sanctioned};
pub use nodes::{Node, NodeStore};
pub use players::PlayerStore;
pub use ratings::RatingStore;
pub use tournaments::TournamentStore;

use crate::error::StoreError;

/// Storage of matches and their action logs, of players, ratings, tournaments and moderation,
/// and the leases of several nodes on one database.
///
/// Every write returns only once it is durable (committed). Implementations may group concurrent
/// writes into one transaction, but each write succeeds or fails on its own.
pub trait Store:
    MatchStore
    + PlayerStore
    + RatingStore
    + TournamentStore
    + ModerationStore
    + NodeStore
    + Send
    + Sync
    + 'static
{
    /// A cheap query (`SELECT 1`): whether the database answers now (`GET /health`).
    ///
    /// # Errors
    /// `Database` when it does not.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Finishes the writes in progress and closes the database.
    fn close(&self) -> BoxFuture<'_, ()>;
}
