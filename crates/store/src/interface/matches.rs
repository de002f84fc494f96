//! The store's calls about matches: created, seated, their logs appended and taken back,
//! their chat, their derived documents, read and listed, expired and called off.

use plateau_engine::LogEntry;

use super::future::BoxFuture;
use crate::error::StoreError;
use crate::model::Status;
use crate::players::PlayerId;
use crate::stored::{ChatLine, Created, Derived, Finish, StoredMatch};

/// Storage of matches and their action logs (part of `Store`).
pub trait MatchStore: Send + Sync {
    /// Stores a new match with its seats (an empty log).
    ///
    /// # Errors
    /// `Conflict` if the id exists.
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Gives human seat `seat` of match `id` to `player` with the token whose hash is
    /// `token_hash`.
    ///
    /// # Errors
    /// `Conflict` if the seat is not a free human seat.
    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Marks seat `seat` of `id` opened (its player connected); with `start = Some(unix_ms)`
    /// also marks the match live from then.
    ///
    /// # Errors
    /// `Database` on failure.
    fn open_seat(
        &self,
        id: &str,
        seat: u8,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Appends `entries` (one client decision and the chance outcomes that follow it) to the log
    /// of `id` at `seq`s `first`, `first + 1`, ... in one transaction; with `finish`, also marks
    /// the match finished with that outcome and, for a rated match, updates the ratings of its
    /// players (`ratings::rate`) with one event each, in the same transaction. All or nothing.
    ///
    /// # Errors
    /// `Conflict` if one of those `seq`s is already written; `Invalid` for an entry without
    /// `at_ms` (the service times every entry); `LeaseLost` when this node no longer holds the
    /// match's lease (`drive_as`).
    fn append(
        &self,
        id: &str,
        first: u64,
        entries: Vec<LogEntry>,
        finish: Option<Finish>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Deletes the log entries of live match `id` from `seq = from` on, in one transaction: a
    /// takeback (docs/protocol.md section 7.4), the one write that is not an append. Fenced as
    /// `append` is on a database several nodes share.
    ///
    /// # Errors
    /// `Conflict` when the match is not live or no entry is at `from`; `LeaseLost` when this
    /// node no longer holds the match's lease (`drive_as`).
    fn take_back(&self, id: &str, from: u64) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The stored `kind` document of finished match `id` (a JSON text), if computed.
    ///
    /// # Errors
    /// `Database` on failure.
    fn derived(
        &self,
        id: String,
        kind: Derived,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>>;

    /// Stores the `kind` document of finished match `id` (a later one of the same kind for the
    /// same match is ignored: a finished match's documents never change).
    ///
    /// # Errors
    /// `Database` on failure.
    fn put_derived(
        &self,
        id: String,
        kind: Derived,
        body: String,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Appends a chat line to match `id`.
    ///
    /// # Errors
    /// `Conflict` if that `seq` is already written.
    fn add_chat(&self, id: &str, line: ChatLine) -> BoxFuture<'_, Result<(), StoreError>>;

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

    /// The unfinished matches created from address key `creator` (`limits::address_key`), as
    /// the limits on creating count them.
    ///
    /// # Errors
    /// `Database` on failure.
    fn created_by(&self, creator: String) -> BoxFuture<'_, Result<Created, StoreError>>;

    /// Every live match with a clock, with its log: what must run from the start (its clocks
    /// and the abandonment rule fire by themselves).
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn running_with_clock(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

    /// Deletes the open matches created before `created_before` (unix ms) that never started,
    /// with their seats and chat; returns their ids.
    ///
    /// # Errors
    /// `Database` on failure.
    fn expire_open(&self, created_before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;

    /// Deletes open match `id` if it never started (a quick-pairing table a player never
    /// came to), with its seats and chat; whether it did.
    ///
    /// # Errors
    /// `Database` on failure.
    fn call_off(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Up to `limit` matches of `player` with one of `statuses`, the latest ended (then created)
    /// first, without logs.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_matches(
        &self,
        player: PlayerId,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;
}
