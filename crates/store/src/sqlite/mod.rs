//! The embedded store (`matches` and `players` run the statements of each part, from `sql` where
//! PostgreSQL's are the same): one SQLite file in WAL mode with `synchronous = FULL`, so a write
//! is on disk when its commit returns (synced with `fdatasync`: `.cargo/config.toml`).
//!
//! One thread owns the connection and takes jobs from a queue. Writes that are waiting together are
//! committed in one transaction (group commit, one fsync for many matches); each runs inside its own
//! savepoint so one failing write does not undo the others (a write alone fails with its
//! transaction, rolled back). When writes arrive fast enough that another is expected within a
//! few milliseconds, the group's first write waits for others, at most `gather::WAIT_MAX` and
//! only until the group is as large as recent ones (`gather`); a lone write is not delayed. A
//! read ends the group (and its wait), so it sees every write queued before it.
//!
//! A second thread with its own connection copies the write-ahead log into the database file (a
//! passive checkpoint, once the log holds `CHECKPOINT_PAGES`): SQLite would otherwise do it inside
//! the commit that fills the log, and that commit's writers would wait for the copy and its fsync.
//! Should the log still reach `CHECKPOINT_PAGES_MAX` (the checkpointer never catches up with a
//! writer that does not pause), the writer checkpoints itself, as SQLite would.

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub mod backup;
mod gather;
mod matches;
mod moderation;
mod players;
mod schema;
mod store;
mod tournaments;
mod writer;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::{BoxFuture, DatabaseError, StoreError};
use gather::Doorbell;
use schema::{connect, migrate};
use writer::{CHECKPOINT_PAGES, CHECKPOINT_PAGES_MAX, Job, WriteFn, checkpointer, writer};

/// SQLite behind a writer thread. Cheap to share (`Arc<SqliteStore>`).
pub struct SqliteStore {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    /// Counts the jobs sent, for a writer that waits for more (`gather`).
    bell: Arc<Doorbell>,
    /// The writer, then the checkpointer (it stops when the writer drops its channel).
    threads: Mutex<Vec<JoinHandle<()>>>,
    /// The database file, opened once more at close (see `close`).
    path: std::path::PathBuf,
}

/// A failed statement: a constraint violation (unique key, foreign key, check) is a `Conflict`;
/// the rest is `Database`.
fn db(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, _) = &e
        && f.code == rusqlite::ErrorCode::ConstraintViolation
    {
        return StoreError::Conflict(e.to_string());
    }
    DatabaseError::Sqlite(e).into()
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and applies the migrations.
    ///
    /// # Errors
    /// `Database` if the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut conn = connect(path)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        migrate(&conn)?;
        players::fill_similar_keys(&conn)?;
        let checkpoints = connect(path)?;
        let spawn_error = |e: std::io::Error| {
            tracing::error!(error = %e, "the SQLite threads could not start");
            StoreError::from(DatabaseError::Closed)
        };
        let (wake, woken) = mpsc::sync_channel::<()>(1);
        // Called after each commit with the log's size; it replaces SQLite's own checkpoints.
        conn.wal_hook(Some(move |wal: &mut rusqlite::hooks::Wal, pages| {
            if pages >= CHECKPOINT_PAGES_MAX {
                // Busy when the checkpointer is at it: then it is its work.
                let _ = wal.checkpoint();
            } else if pages >= CHECKPOINT_PAGES {
                // Full: one is asked for already.
                let _ = wake.try_send(());
            }
            Ok(())
        }))
        .map_err(db)?;
        let checkpointer = std::thread::Builder::new()
            .name("plateau-checkpoint".into())
            .spawn(move || checkpointer(&checkpoints, &woken))
            .map_err(spawn_error)?;
        let (tx, rx) = mpsc::channel::<Job>();
        let bell = Arc::new(Doorbell::new());
        let rung = Arc::clone(&bell);
        let writer = std::thread::Builder::new()
            .name("plateau-sqlite".into())
            .spawn(move || writer(&conn, &rx, &rung))
            .map_err(spawn_error)?;
        Ok(SqliteStore {
            jobs: Mutex::new(Some(tx)),
            bell,
            threads: Mutex::new(vec![writer, checkpointer]),
            path: path.to_owned(),
        })
    }

    fn send(&self, job: Job) -> bool {
        let write = matches!(job, Job::Write(..));
        let sent = {
            let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok())
        };
        if sent {
            if write {
                self.bell.wrote();
            } else {
                self.bell.read();
            }
        }
        sent
    }

    fn write(&self, f: WriteFn) -> BoxFuture<'_, Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        let sent = self.send(Job::Write(f, tx));
        Box::pin(async move {
            if !sent {
                return Err(DatabaseError::Closed.into());
            }
            rx.await
                .unwrap_or_else(|_| Err(DatabaseError::Closed.into()))
        })
    }

    /// A write that returns a value (a new row's id); runs in a group's transaction like `write`.
    fn write_value<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'_, Result<T, StoreError>> {
        let (tx, rx) = oneshot::channel();
        let done = self.write(Box::new(move |c| {
            let value = f(c)?;
            let _ = tx.send(value);
            Ok(())
        }));
        Box::pin(async move {
            done.await?;
            rx.await
                .map_err(|_| StoreError::from(DatabaseError::Closed))
        })
    }

    fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'_, Result<T, StoreError>> {
        let (tx, rx) = oneshot::channel();
        let sent = self.send(Job::Read(Box::new(move |c| {
            let _ = tx.send(f(c));
        })));
        Box::pin(async move {
            if !sent {
                return Err(DatabaseError::Closed.into());
            }
            rx.await
                .unwrap_or_else(|_| Err(DatabaseError::Closed.into()))
        })
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serializes")
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

#[cfg(test)]
mod tests;
