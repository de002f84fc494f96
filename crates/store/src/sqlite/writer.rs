//! The thread that owns the connection (group commit, each write in its own savepoint, a short
//! wait for more writes when they come fast: `gather`) and the one that checkpoints the
//! write-ahead log beside it (see the parent module's comment).

use std::ops::Deref;
use std::sync::mpsc;
use std::time::Instant;

use rusqlite::{Connection, Statement};
use tokio::sync::oneshot;

use super::gather::{Doorbell, Pace};
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

/// Each write's answer, with where to send it.
type Answers = Vec<(Reply, Result<(), StoreError>)>;

/// The writer thread: runs jobs in order, grouping consecutive writes into one transaction, and
/// waiting a little for more when `Pace` expects them (`gather`).
pub(super) fn writer(conn: &Connection, rx: &mpsc::Receiver<Job>, bell: &Doorbell) {
    bell.writer_started();
    let mut frame = match Frame::prepare(conn) {
        Ok(frame) => Some(frame),
        Err(e) => {
            tracing::error!("the SQLite writer cannot prepare its transactions: {e}");
            None
        }
    };
    let mut pace = Pace::new(Instant::now());
    // Writes and reads taken from the queue so far, counted as `Doorbell` counts those sent.
    let mut taken: u64 = 0;
    let mut reads: u64 = 0;
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
            Job::Read(f) => {
                reads += 1;
                f(conn);
            }
            Job::Write(f, reply) => {
                let plan = pace.plan(Instant::now());
                let mut group = vec![(f, reply)];
                while drain(rx, &mut group, &mut pending) {
                    let Some((deadline, target)) = plan else {
                        break;
                    };
                    if group.len() >= target || Instant::now() >= deadline {
                        break;
                    }
                    bell.wait(taken + target as u64, reads, deadline);
                }
                let size = group.len();
                taken += size as u64;
                pace.took(size);
                let answers = match frame.as_mut() {
                    Some(frame) => frame.commit_group(group),
                    None => group
                        .into_iter()
                        .map(|(_, reply)| (reply, Err(DatabaseError::Closed.into())))
                        .collect(),
                };
                // Before the answers: what queued meanwhile came on its own, not in answer.
                pace.committed(
                    size + usize::try_from(bell.sent().saturating_sub(taken)).unwrap_or(0),
                );
                for (reply, result) in answers {
                    let _ = reply.send(result);
                }
            }
        }
    }
}

/// Moves the writes waiting in `rx` into `group`. False when the group is to be committed now:
/// it is full, a read is next (left in `pending`, to run after the commit: it sees the group's
/// writes), or the queue is closed.
fn drain(
    rx: &mpsc::Receiver<Job>,
    group: &mut Vec<(WriteFn, Reply)>,
    pending: &mut Option<Job>,
) -> bool {
    while group.len() < GROUP_MAX {
        match rx.try_recv() {
            Ok(Job::Write(f, r)) => group.push((f, r)),
            Ok(read) => {
                *pending = Some(read);
                return false;
            }
            Err(mpsc::TryRecvError::Empty) => return true,
            Err(mpsc::TryRecvError::Disconnected) => return false,
        }
    }
    false
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

    /// Runs the writes of `group` in one transaction; the answer of each, to send once the
    /// transaction is committed (or has failed).
    fn commit_group(&mut self, mut group: Vec<(WriteFn, Reply)>) -> Answers {
        if let Err(e) = self.begin.execute([]) {
            return group
                .into_iter()
                .map(|(_, reply)| (reply, Err(shared(&e))))
                .collect();
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
            return vec![(reply, result)];
        }
        let mut answers = Vec::with_capacity(group.len());
        for (f, reply) in group {
            let result = self.in_savepoint(f);
            answers.push((reply, result));
        }
        if let Err(e) = self.commit.execute([]) {
            let _ = self.rollback.execute([]);
            for answer in &mut answers {
                answer.1 = Err(shared(&e));
            }
        }
        answers
    }
}
