//! What can go wrong in storage, as the callers tell the cases apart: a write refused by a key
//! (`Conflict`, `NotAGuest`), a node that lost a match's lease (`LeaseLost`), a database that
//! does not answer (`Database`, with the driver's own error), and data that cannot be written or
//! read back (`Invalid`, `Corrupt`, `NotFound`). The server answers `Database` with
//! `store/unavailable` and `LeaseLost` with `match/moved` (docs/protocol.md section 5).

use thiserror::Error;

/// A storage call's failure.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A unique key or another constraint refused the write (the seat was taken, the log
    /// position written by someone else, the name taken): nothing was written. The text says
    /// which, for the log.
    #[error("conflict: {0}")]
    Conflict(String),
    /// `Store::update_player` gave a password to a player that is no guest any more (two
    /// upgrades at once: the second).
    #[error("the player is no guest")]
    NotAGuest,
    /// `Store::delete_player` for a player seated at a match not finished: nothing was written.
    #[error("the player sits at an unfinished match")]
    Playing,
    /// This node no longer holds the lease a write needs (another node drives the match now,
    /// docs/architecture.md section 5.3), or its node name was taken over: nothing was written.
    #[error("lease lost: {0}")]
    LeaseLost(String),
    /// The database failed or does not answer (I/O, connection, pool, timeout, closed).
    #[error("database: {0}")]
    Database(#[from] DatabaseError),
    /// A row the call names is not there (a player or a match id that was never stored).
    #[error("not found: {0}")]
    NotFound(String),
    /// A value the store cannot write as given (a log entry without its time, a number out of
    /// the column's range): nothing was written.
    #[error("invalid: {0}")]
    Invalid(String),
    /// A stored value could not be read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The database cannot serve this server: the URL cannot be read, a migration failed, or
    /// its schema is newer than this server's.
    #[error("database: {0}")]
    Setup(String),
}

/// The database's own failure, kept whole (with its driver's error) for the log.
#[derive(Debug, Error)]
pub enum DatabaseError {
    /// SQLite failed (I/O, a full disk, a lock held too long, a statement refused).
    #[error("SQLite: {0}")]
    Sqlite(#[source] rusqlite::Error),
    /// PostgreSQL failed or its connection did (a statement refused, the server gone).
    #[error("PostgreSQL: {0}")]
    Postgres(#[source] tokio_postgres::Error),
    /// The first connection to PostgreSQL at `at` (the URL without its password) failed.
    #[error("cannot connect to PostgreSQL at `{at}`: {source}")]
    Connect {
        /// The server's URL, its password hidden.
        at: String,
        /// Why.
        #[source]
        source: deadpool_postgres::PoolError,
    },
    /// No pooled connection to PostgreSQL within the wait (all busy, or the server away).
    #[error("PostgreSQL pool: {0}")]
    Pool(#[source] deadpool_postgres::PoolError),
    /// The store was closed, or its SQLite thread stopped or could not start.
    #[error("the store is closed")]
    Closed,
    /// The caller's own bound on the call passed (named).
    #[error("{0} timed out")]
    TimedOut(&'static str),
}
