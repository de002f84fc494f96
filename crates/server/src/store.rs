//! Durable, event-sourced storage (DESIGN.md section 5): a row per match and an append-only action
//! log per match with a unique `(match, seq)` key. The live state is never stored: it is rebuilt by
//! replaying the log.
//!
//! `Store` is the interface; `sqlite::SqliteStore` the embedded implementation. The SQL keeps to
//! what PostgreSQL also reads (TEXT, INTEGER, CHECK, composite primary keys), so a `PgStore` can be
//! added behind the same trait.

pub mod sqlite;

use std::future::Future;
use std::pin::Pin;

use plateau_engine::{Ending, Outcome, Seed};
use thiserror::Error;

use crate::model::{SeatSpec, Status, TimeControl};

/// A boxed future, so `Store` can be used as `dyn Store`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What can go wrong in storage.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A unique key was already there: the seat was taken or the log position was written by
    /// someone else.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database failed (I/O, corruption, closed).
    #[error("database: {0}")]
    Database(String),
    /// A stored value could not be read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

/// One seat of a stored match.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredSeat {
    /// Who fills it.
    pub spec: SeatSpec,
    /// SHA-256 (hex) of the seat token, once a person took the seat.
    pub token_hash: Option<String>,
}

/// What one log entry did.
#[derive(Clone, PartialEq, Debug)]
pub enum Entry {
    /// A seat played `action` (canonical text).
    Seat(u8, String),
    /// Chance drew `action` (canonical text).
    Chance(String),
    /// The game ended early.
    End(Ending),
}

/// One row of the action log.
#[derive(Clone, PartialEq, Debug)]
pub struct LogEntry {
    /// Position in the log, from 0; the match's version after it is `seq + 1`.
    pub seq: u64,
    /// What happened.
    pub entry: Entry,
    /// Milliseconds since the match started.
    pub at_ms: u64,
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
    /// Number of log entries (the version).
    pub version: u64,
    /// The log itself, when it was asked for (else empty).
    pub log: Vec<LogEntry>,
}

/// Storage of matches and their action logs.
///
/// Every write returns only once it is durable (committed). Implementations may group concurrent
/// writes into one transaction, but each write succeeds or fails on its own.
pub trait Store: Send + Sync + 'static {
    /// Stores a new match with its seats (an empty log).
    ///
    /// # Errors
    /// `Conflict` if the id exists.
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Gives human seat `seat` of match `id` the token whose hash is `token_hash`; with
    /// `start = Some(unix_ms)` also marks the match live from then.
    ///
    /// # Errors
    /// `Conflict` if the seat is not a free human seat.
    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Appends one entry to the log of `id`; with `finish`, also marks the match finished with
    /// that outcome, in the same transaction.
    ///
    /// # Errors
    /// `Conflict` if that `seq` is already written.
    fn append(
        &self,
        id: &str,
        entry: LogEntry,
        finish: Option<Outcome>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Records that `rematch` is the rematch of `id`.
    ///
    /// # Errors
    /// `Database` on failure.
    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>>;

    /// One match, with its log when `with_log`.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>>;

    /// Up to `limit` matches with one of `statuses`, newest first, without logs.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

    /// Every match not finished, with its log, to reload after a start.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

    /// Finishes the writes in progress and closes the database.
    fn close(&self) -> BoxFuture<'_, ()>;
}
