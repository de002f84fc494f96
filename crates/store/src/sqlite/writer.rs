//! The thread that owns the connection (group commit, each write in its own savepoint) and the
//! one that checkpoints the write-ahead log beside it (see the parent module's comment).

use std::ops::Deref;
use std::sync::mpsc;

use rusqlite::{Connection, Statement};
use tokio::sync::oneshot;

use super::{db, matches};
use crate::{DatabaseError, StoreError};

/// Most writes committed together.
const GROUP_MAX: usize = 256;

/// Pages in the write-ahead log that wake the checkpointer (SQLite's own default threshold).
pub(super) const CHECKPOINT_PAGES: i32 = 1000;

/// Pages in the write-ahead log at which the writer checkpoints itself (32 MiB of 4 KiB pages).
pub(super) const CHECKPOINT_PAGES_MAX: i32 = 8000;

pub(super) type WriteFn = Box<dyn FnOnce(&mut Writes<'_>) -> Result<(), StoreError> + Send>;
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

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// The writer thread: runs jobs in order, grouping consecutive writes into one transaction.
pub(super) fn writer(conn: &Connection, rx: &mpsc::Receiver<Job>) {
    let mut frame = match Frame::prepare(conn) {
        Ok(frame) => Some(frame),
        Err(e) => {
            tracing::error!("the SQLite writer cannot prepare its transactions: {e}");
            None
        }
    };
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
                match frame.as_mut() {
                    Some(frame) => frame.commit_group(group),
                    None => {
                        for (_, reply) in group {
                            let _ = reply.send(Err(DatabaseError::Closed.into()));
                        }
                    }
                }
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

/// What a write runs on: the writer's connection (`Deref`) and the statement of its most
/// frequent write, prepared once for the writer's life as `Frame`'s are. Taken from the statement
/// cache and given back at each use, it cost 7% of `append`'s instructions (1.4k of 21k a
/// decision): its text hashed twice, a key allocated, its bindings cleared.
pub(super) struct Writes<'c> {
    conn: &'c Connection,
    /// `matches::INSERT_ACTION`: one entry of a match's log (`matches::append`).
    pub(super) insert_action: Statement<'c>,
}

impl Deref for Writes<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

/// The statements around the writes, prepared once for the writer's life (parsed again at each
/// use, or even found in the statement cache, they cost more than the write between them), and
/// what the writes run on.
struct Frame<'c> {
    writes: Writes<'c>,
    begin: Statement<'c>,
    commit: Statement<'c>,
    rollback: Statement<'c>,
    savepoint: Statement<'c>,
    release: Statement<'c>,
    rollback_to: Statement<'c>,
}

impl<'c> Frame<'c> {
    fn prepare(conn: &'c Connection) -> rusqlite::Result<Frame<'c>> {
        Ok(Frame {
            writes: Writes {
                conn,
                insert_action: conn.prepare(matches::INSERT_ACTION)?,
            },
            begin: conn.prepare("BEGIN IMMEDIATE")?,
            commit: conn.prepare("COMMIT")?,
            rollback: conn.prepare("ROLLBACK")?,
            savepoint: conn.prepare("SAVEPOINT job")?,
            release: conn.prepare("RELEASE job")?,
            rollback_to: conn.prepare("ROLLBACK TO job")?,
        })
    }

    /// Runs `f` in a savepoint of its own: when it fails, what it wrote is undone and the
    /// group's other writes stay.
    fn in_savepoint(&mut self, f: WriteFn) -> Result<(), StoreError> {
        self.savepoint.execute([]).map_err(db)?;
        match f(&mut self.writes) {
            Ok(()) => self.release.execute([]).map(drop).map_err(db),
            Err(e) => {
                let _ = self
                    .rollback_to
                    .execute([])
                    .and_then(|_| self.release.execute([]));
                Err(e)
            }
        }
    }

    /// Runs the writes of `group` in one transaction and answers each once it is committed.
    fn commit_group(&mut self, mut group: Vec<(WriteFn, Reply)>) {
        if let Err(e) = self.begin.execute([]) {
            for (_, reply) in group {
                let _ = reply.send(Err(shared(&e)));
            }
            return;
        }
        // A write alone is the whole transaction: when it fails, rolling the transaction back
        // undoes it as its savepoint would, and it spares the savepoint's copies of the pages it
        // changes.
        if group.len() == 1
            && let Some((f, reply)) = group.pop()
        {
            let result =
                f(&mut self.writes).and_then(|()| self.commit.execute([]).map(drop).map_err(db));
            if result.is_err() {
                let _ = self.rollback.execute([]);
            }
            let _ = reply.send(result);
            return;
        }
        let mut results = Vec::with_capacity(group.len());
        let mut replies = Vec::with_capacity(group.len());
        for (f, reply) in group {
            results.push(self.in_savepoint(f));
            replies.push(reply);
        }
        if let Err(e) = self.commit.execute([]) {
            let _ = self.rollback.execute([]);
            for reply in replies {
                let _ = reply.send(Err(shared(&e)));
            }
            return;
        }
        for (reply, result) in replies.into_iter().zip(results) {
            let _ = reply.send(result);
        }
    }
}
