//! Plateau's durable, event-sourced storage (docs/architecture.md section 5): a row per match and
//! an append-only action log per match with a unique `(match, seq)` key (a takeback, agreed at
//! the table, deletes its last entries); the live state is never stored but rebuilt by replaying
//! the log. Beside the matches: players, their sessions, their ratings per game with one event per
//! change, and each match's chat.
//!
//! `Store` is the interface (`interface`: a trait per subject that `Store` requires, for the
//! matches, players, ratings, tournaments, moderation and nodes); `sqlite::SqliteStore` the
//! embedded implementation and `postgres::PgStore` the one over a PostgreSQL server, with the
//! same tables, keys and transactions. The records they keep are defined here, below the
//! server: a match as stored (`stored`) and the shapes it is made of (`model`), its players and
//! their sessions (`players`) and their ratings (`ratings`, which the store applies in the
//! transaction that finishes a rated match).
//!
//! SQL: each statement the two dialects read alike is one text in `sql` that both backends run
//! (PostgreSQL's `$N` placeholders, which SQLite takes as named parameters numbered in order).
//! What differs stays with its backend, because the databases differ there: the schema and its
//! migrations (each database has its own history of versions already deployed, and its own
//! types: SQLite's `INTEGER` for flags and every number, PostgreSQL's `BOOLEAN`, `SMALLINT`,
//! `BIGINT`, `C` collation and identity ids), the statements that name a flag (`opened = 1`
//! against `opened = TRUE`), PostgreSQL's row locks (`FOR UPDATE`) and arrays (one statement
//! for many rows: `= ANY($1)`, `unnest`), and its leases, which SQLite has no use for (one
//! process opens its file).

pub mod error;
mod interface;
pub mod model;
pub mod moderation;
pub mod players;
pub mod postgres;
pub mod ratings;
mod sql;
pub mod sqlite;
mod stored;
pub mod tournaments;

pub use error::{DatabaseError, StoreError};
pub use interface::{
    BoxFuture, MatchStore, ModerationStore, Node, NodeStore, PlayerStore, RatingStore, Sanctioned,
    Store, TournamentStore,
};
pub use players::{PlayerSecret, SESSION_IDLE_MS, SESSION_RENEW_MS, stored_similar_key};
pub use ratings::{RatingEvent, Standing};
pub use stored::{ChatLine, Created, Derived, Finish, Room, StoredMatch, StoredSeat};

#[cfg(test)]
mod tests;
