//! The thread that owns the connection (group commit, each write in its own savepoint) and the
//! one that checkpoints the write-ahead log beside it (see the parent module's comment).

use std::sync::mpsc;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::db;
use crate::{DatabaseError, StoreError};

/// Most writes committed together.
const GROUP_MAX: usize = 256;

/// Pages in the write-ahead log that wake the checkpointer (SQLite's own default threshold).
pub(super) const CHECKPOINT_PAGES: i32 = 1000;

/// Pages in the write-ahead log at which the writer checkpoints itself (32 MiB of 4 KiB pages).
pub(super) const CHECKPOINT_PAGES_MAX: i32 = 8000;

pub(super) type WriteFn = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;
pub(super) type ReadFn = Box<dyn FnOnce(&Connection) + Send>;

/// What the writer thread is asked to do.
pub(super) enum Job {
    Write(WriteFn, oneshot::Sender<Result<(), StoreError>>),
    Read(ReadFn),
}

/// `e` again, for each of the writes of a group that one failed `BEGIN` or `COMMIT` fails
/// (SQLite's errors are not `Clone`).
fn shared(e: &rusqlite::Error) -> StoreError {
    let again = match e {
        rusqlite::Error::SqliteFailure(f, text) => rusqlite::Error::SqliteFailure(*f, text.clone()),
        other => rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        ),
    };
    DatabaseError::Sqlite(again).into()
}

/// The writer thread: runs jobs in order, grouping consecutive writes into one transaction.
pub(super) fn writer(conn: &Connection, rx: &mpsc::Receiver<Job>) {
    let mut pending: Option<Job> = None;
    loop {
        let job = match pending.take() {
            Some(j) => j,
            None => match rx.recv() {
                Ok(j) => j,
                Err(_) => return,
            },
        };
        match job {
            Job::Read(f) => f(conn),
            Job::Write(f, reply) => {
                let mut group = vec![(f, reply)];
                while group.len() < GROUP_MAX {
                    match rx.try_recv() {
                        Ok(Job::Write(f, r)) => group.push((f, r)),
                        Ok(read) => {
                            pending = Some(read);
                            break;
                        }
                        Err(_) => break,
                    }
                }
                commit_group(conn, group);
            }
        }
    }
}

/// The checkpointer thread: a passive checkpoint (it never blocks the writer) each time it is
/// woken, until the writer's connection, which holds the waking end, is gone. A failed one is
/// retried at the next wake-up; closing the last connection checkpoints whatever is left.
pub(super) fn checkpointer(conn: &Connection, woken: &mpsc::Receiver<()>) {
    while woken.recv().is_ok() {
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!("checkpoint of the SQLite log failed: {e}");
        }
    }
}

fn commit_group(conn: &Connection, group: Vec<(WriteFn, oneshot::Sender<Result<(), StoreError>>)>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        for (_, reply) in group {
            let _ = reply.send(Err(shared(&e)));
        }
        return;
    }
    let mut results = Vec::with_capacity(group.len());
    let mut replies = Vec::with_capacity(group.len());
    for (f, reply) in group {
        // Prepared once per connection: parsing them again for every write costs more than
        // the write's own statement.
        let run = |sql: &str| conn.prepare_cached(sql).and_then(|mut st| st.execute([]));
        let result = run("SAVEPOINT job")
            .map_err(db)
            .and_then(|_| match f(conn) {
                Ok(()) => run("RELEASE job").map(|_| ()).map_err(db),
                Err(e) => {
                    let _ = run("ROLLBACK TO job").and_then(|_| run("RELEASE job"));
                    Err(e)
                }
            });
        results.push(result);
        replies.push(reply);
    }
    if let Err(e) = conn.execute_batch("COMMIT") {
        let _ = conn.execute_batch("ROLLBACK");
        for reply in replies {
            let _ = reply.send(Err(shared(&e)));
        }
        return;
    }
    for (reply, result) in replies.into_iter().zip(results) {
        let _ = reply.send(result);
    }
}
