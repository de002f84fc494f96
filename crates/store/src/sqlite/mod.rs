//! The embedded store (`matches` and `players` run the statements of each part, from `sql` where
//! PostgreSQL's are the same): one SQLite file in WAL mode with `synchronous = FULL`, so a write
//! is on disk when its commit returns.
//!
//! One thread owns the connection and takes jobs from a queue. Writes that are waiting together are
//! committed in one transaction (group commit, one fsync for many matches); each runs inside its own
//! savepoint so one failing write does not undo the others. A read ends the group, so it sees every
//! write queued before it.
//!
//! A second thread with its own connection copies the write-ahead log into the database file (a
//! passive checkpoint, once the log holds `CHECKPOINT_PAGES`): SQLite would otherwise do it inside
//! the commit that fills the log, and that commit's writers would wait for the copy and its fsync.
//! Should the log still reach `CHECKPOINT_PAGES_MAX` (the checkpointer never catches up with a
//! writer that does not pause), the writer checkpoints itself, as SQLite would.

use std::path::Path;
use std::sync::Mutex;
use std::sync::mpsc;
use std::thread::JoinHandle;

mod matches;
mod moderation;
mod players;
mod schema;
mod tournaments;
mod writer;

use plateau_engine::LogEntry;
use rusqlite::Connection;
use tokio::sync::oneshot;

use super::{
    BoxFuture, ChatLine, Created, DatabaseError, Derived, Finish, PlayerSecret, RatingEvent,
    Standing, Store, StoreError, StoredMatch,
};
use crate::model::{Status, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
use crate::sql;
use schema::{connect, migrate};
use writer::{CHECKPOINT_PAGES, CHECKPOINT_PAGES_MAX, Job, WriteFn, checkpointer, writer};

/// SQLite behind a writer thread. Cheap to share (`Arc<SqliteStore>`).
pub struct SqliteStore {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
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
        let writer = std::thread::Builder::new()
            .name("plateau-sqlite".into())
            .spawn(move || writer(&conn, &rx))
            .map_err(spawn_error)?;
        Ok(SqliteStore {
            jobs: Mutex::new(Some(tx)),
            threads: Mutex::new(vec![writer, checkpointer]),
            path: path.to_owned(),
        })
    }

    fn send(&self, job: Job) -> bool {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok())
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

impl Store for SqliteStore {
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| matches::create(c, &m)))
    }

    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            matches::take_seat(c, &id, seat, &token_hash, player)
        }))
    }

    fn open_seat(
        &self,
        id: &str,
        seat: u8,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::open_seat(c, &id, seat, start)))
    }

    fn append(
        &self,
        id: &str,
        first: u64,
        entries: Vec<LogEntry>,
        finish: Option<Finish>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            matches::append(c, &id, first, &entries, finish.as_ref())
        }))
    }

    fn take_back(&self, id: &str, from: u64) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::take_back(c, &id, from)))
    }

    fn derived(
        &self,
        id: String,
        kind: Derived,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        self.read(move |c| {
            use rusqlite::OptionalExtension;
            c.query_row(sql::DERIVED, [id.as_str(), kind.as_str()], |r| r.get(0))
                .optional()
                .map_err(db)
        })
    }

    fn put_derived(
        &self,
        id: String,
        kind: Derived,
        body: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            c.execute(
                sql::INSERT_DERIVED,
                [id.as_str(), kind.as_str(), body.as_str()],
            )
            .map_err(db)?;
            Ok(())
        }))
    }

    fn add_chat(&self, id: &str, line: ChatLine) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::add_chat(c, &id, &line)))
    }

    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        let (id, rematch) = (id.to_owned(), rematch.to_owned());
        self.write(Box::new(move |c| matches::set_rematch(c, &id, &rematch)))
    }

    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>> {
        let id = id.to_owned();
        self.read(move |c| matches::get_match(c, &id, with_log))
    }

    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(move |c| matches::list(c, &statuses, limit))
    }

    fn created_by(&self, creator: String) -> BoxFuture<'_, Result<Created, StoreError>> {
        self.read(move |c| matches::created_by(c, &creator))
    }

    fn running_with_clock(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(matches::running_with_clock)
    }

    fn expire_open(&self, created_before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.write_value(move |c| matches::expire_open(c, created_before))
    }

    fn call_off(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.write_value(move |c| matches::call_off(c, &id))
    }

    fn player_matches(
        &self,
        player: PlayerId,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(move |c| matches::player_matches(c, player, &statuses, limit))
    }

    fn create_player(
        &self,
        name: String,
        kind: PlayerKind,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| {
            players::create_player(c, &name, kind, password_hash.as_deref(), unix_ms())
        })
    }

    fn bot_player(&self, bot: String) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| players::bot_player(c, &bot, unix_ms()))
    }

    fn player_by_name(
        &self,
        name: String,
    ) -> BoxFuture<'_, Result<Option<PlayerSecret>, StoreError>> {
        self.read(move |c| players::player_by_name(c, &name))
    }

    fn update_player(
        &self,
        id: PlayerId,
        name: Option<String>,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| {
            players::update_player(c, id, name.as_deref(), password_hash.as_deref())
        })
    }

    fn create_session(
        &self,
        hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            players::create_session(c, &hash, player, unix_ms())
        }))
    }

    fn session(&self, hash: String) -> BoxFuture<'_, Result<Option<Player>, StoreError>> {
        self.read(move |c| players::session(c, &hash, unix_ms()))
    }

    fn delete_session(&self, hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| players::delete_session(c, &hash)))
    }

    fn set_relation(
        &self,
        player: PlayerId,
        other: PlayerId,
        relation: crate::players::Relation,
        on: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            players::set_relation(c, player, other, relation, on, unix_ms())
        }))
    }

    fn relations(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(crate::players::Relation, Player)>, StoreError>> {
        self.read(move |c| players::relations(c, player))
    }

    fn blocks_between(
        &self,
        a: PlayerId,
        b: PlayerId,
    ) -> BoxFuture<'_, Result<(bool, bool), StoreError>> {
        self.read(move |c| players::blocks_between(c, a, b))
    }

    fn player_chat(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, ChatLine)>, StoreError>> {
        self.read(move |c| matches::player_chat(c, player))
    }

    fn player_sessions(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StoreError>> {
        self.read(move |c| players::sessions_of(c, player))
    }

    fn delete_player(
        &self,
        player: PlayerId,
        neutral: String,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| players::delete_player(c, player, &neutral))
    }

    fn create_tournament(
        &self,
        t: crate::tournaments::StoredTournament,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| tournaments::insert(c, &t)))
    }

    fn save_tournament(
        &self,
        id: String,
        status: crate::tournaments::TournamentStatus,
        state: String,
        version: i64,
        entrant: Option<PlayerId>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            tournaments::save(c, &id, status, &state, version, entrant)
        }))
    }

    fn player_tournaments(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::of_player(c, player, limit))
    }

    fn tournament(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::one(c, &id))
    }

    fn tournaments(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::list(c, status, limit))
    }

    fn tournament_versions(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
        self.read(move |c| tournaments::versions(c, status, limit))
    }

    fn set_tournament_settings(
        &self,
        id: String,
        settings: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            c.execute(
                sql::SET_TOURNAMENT_SETTINGS,
                rusqlite::params![settings, id],
            )
            .map(drop)
            .map_err(db)
        }))
    }

    fn tournaments_created(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<u32, StoreError>> {
        self.read(move |c| tournaments::created(c, creator, since_ms))
    }

    fn standings(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, Standing)>, StoreError>> {
        self.read(move |c| players::standings(c, player))
    }

    fn rating_events(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<RatingEvent>, StoreError>> {
        self.read(move |c| players::rating_events(c, player))
    }

    fn match_rating_events(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Vec<(PlayerId, RatingEvent)>, StoreError>> {
        self.read(move |c| players::match_rating_events(c, &id))
    }

    fn leaderboard(
        &self,
        game: String,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<(Player, Standing)>, StoreError>> {
        self.read(move |c| players::leaderboard(c, &game, limit))
    }

    fn file_report(
        &self,
        report: crate::moderation::NewReport,
    ) -> BoxFuture<'_, Result<i64, StoreError>> {
        self.write_value(move |c| moderation::file_report(c, &report))
    }

    fn open_reports(
        &self,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::Report>, StoreError>> {
        self.read(move |c| moderation::open_reports(c, limit))
    }

    fn moderate(
        &self,
        m: crate::moderation::Moderation,
    ) -> BoxFuture<'_, Result<crate::moderation::AuditEntry, StoreError>> {
        self.write_value(move |c| moderation::moderate(c, &m))
    }

    fn audit(
        &self,
        from: crate::moderation::AuditFrom,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::AuditEntry>, StoreError>> {
        self.read(move |c| moderation::audit(c, from, limit))
    }

    fn moderation_standing(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Standing, StoreError>> {
        self.read(move |c| moderation::standing(c, player))
    }

    fn moderation_record(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Record, StoreError>> {
        self.read(move |c| moderation::record(c, player))
    }

    fn ack_warnings(&self, player: PlayerId, up_to: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            moderation::ack_warnings(c, player, up_to)
        }))
    }

    fn sanctioned(&self, now: i64) -> BoxFuture<'_, Result<Vec<crate::Sanctioned>, StoreError>> {
        self.read(move |c| moderation::sanctioned(c, now))
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        // Through the writer's queue: it answers only if the thread that writes is alive.
        self.read(|c| c.query_row(sql::PING, [], |_| Ok(())).map_err(db))
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        // Dropping the sender lets the thread finish the queued jobs, then stop.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        let path = self.path.clone();
        Box::pin(async move {
            let _ = tokio::task::spawn_blocking(move || {
                for t in threads {
                    let _ = t.join();
                }
                // The writer's and the checkpointer's connections close at nearly the same
                // time, and each may see the other still open: then neither copies the log
                // into the file and removes it. A connection opened alone, then closed, does.
                if path.as_os_str() != ":memory:"
                    && let Ok(c) = Connection::open(&path)
                {
                    let _ = c.query_row("PRAGMA user_version", [], |_| Ok(()));
                }
            })
            .await;
        })
    }
}

/// Copies the database at `from` into a new file `to`, while servers may be writing to it:
/// SQLite's online backup, in one step, so the copy is the database as of one instant (a
/// transaction committed after it began is not in it; in WAL mode the writers are not held
/// meanwhile). The copy is written beside `to` and renamed once whole and checked
/// (`PRAGMA quick_check`), so `to` is never a half copy. `restore` puts such a copy back
/// (docs/deploy.md, "Backups" and "Restoring").
///
/// # Errors
/// `Invalid` if `from` is no SQLite database or `to` exists already; `Database` if either file
/// cannot be read or written.
pub fn backup(from: &Path, to: &Path) -> Result<(), StoreError> {
    use rusqlite::OpenFlags;
    if !from.is_file() {
        return Err(StoreError::Invalid(format!(
            "no database at {}",
            from.display()
        )));
    }
    if to.exists() {
        return Err(StoreError::Invalid(format!(
            "{} exists already: back up to a new file",
            to.display()
        )));
    }
    // Read and write (though only read): a database in WAL mode needs its shared-memory file,
    // which a read-only connection cannot make when no server has it open. Never created.
    let source = Connection::open_with_flags(
        from,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(db)?;
    source
        .busy_timeout(std::time::Duration::from_secs(5))
        .map_err(db)?;
    // Not a database: refused before anything is written.
    let version: i64 = source
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| StoreError::Invalid(format!("{}: {e}", from.display())))?;
    if version == 0 {
        return Err(StoreError::Invalid(format!(
            "{} is no Plateau database",
            from.display()
        )));
    }
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let copied = (|| {
        let mut copy = Connection::open(&partial).map_err(db)?;
        copy_all(&source, &mut copy)?;
        let check: String = copy
            .pragma_query_value(None, "quick_check", |r| r.get(0))
            .map_err(db)?;
        if check != "ok" {
            return Err(StoreError::Invalid(format!(
                "the copy fails its check: {check}"
            )));
        }
        // One file: the copy's log folded into it before it is closed and renamed.
        copy.pragma_update(None, "journal_mode", "DELETE")
            .map_err(db)?;
        drop(copy);
        std::fs::rename(&partial, to)
            .map_err(|e| StoreError::Invalid(format!("{}: {e}", to.display())))
    })();
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    copied
}

/// What `restore` put in place.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Restored {
    /// The schema version the backup was written at (`PRAGMA user_version`: the migrations it
    /// had); the restored database is migrated from it to this version's.
    pub schema: usize,
    /// The matches the backup holds.
    pub matches: u64,
    /// The players (guests, accounts and bots) it holds.
    pub players: u64,
    /// Where the database that was at the destination now is (with `force`), if there was one
    /// with data.
    pub replaced: Option<std::path::PathBuf>,
}

/// Puts the backup at `from` (a file `backup` wrote, or any Plateau SQLite database) in the place
/// of the database at `to`, migrated to this version's schema. Run while no server has `to`
/// open (docs/deploy.md, "Restoring").
///
/// Checked first, before anything changes: `from` must pass `PRAGMA quick_check` and be a
/// Plateau database of a schema this version knows (a newer one is refused). A database at `to`
/// that holds any match or player (or that is no Plateau database) is kept unless `force`; with
/// `force` it is moved aside, never deleted: renamed with its write-ahead log to
/// `TO.replaced-UNIXMS` (`Restored::replaced`). The copy is written beside `to` and renamed into
/// place, and a write-ahead log left beside `to` is moved away with the old file, so the restored
/// file is never read with another database's log.
///
/// # Errors
/// `Invalid`, changing nothing, for a `from` that is no Plateau database of a known schema or
/// fails its check, for a `to` another process has open (a running server; even with `force`)
/// and for a `to` with data without `force`; `Database` if a file cannot be
/// read or written.
pub fn restore(from: &Path, to: &Path, force: bool) -> Result<Restored, StoreError> {
    let (schema, matches, players) = plateau_contents(from)?
        .ok_or_else(|| StoreError::Invalid(format!("{} is no Plateau database", from.display())))?;
    let with = |suffix: &str| {
        let mut name = to.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    let occupied = match to.metadata() {
        Ok(meta) if meta.len() > 0 => !matches!(plateau_contents(to), Ok(Some((_, 0, 0)))),
        _ => false,
    };
    if in_use(to) {
        return Err(StoreError::Invalid(format!(
            "{} is in use: stop every plateau serve that has it open, then restore",
            to.display()
        )));
    }
    if occupied && !force {
        return Err(StoreError::Invalid(format!(
            "{} holds a database already: restore into a new path, or give --force to move it \
             aside (kept as {}.replaced-UNIXMS)",
            to.display(),
            to.display()
        )));
    }
    let restoring = with(".restoring");
    // Left by a restore that stopped midway: ours to remove.
    let _ = std::fs::remove_file(&restoring);
    backup(from, &restoring)?;
    let io = |e: std::io::Error| StoreError::Invalid(format!("{}: {e}", to.display()));
    let aside = format!(".replaced-{}", unix_ms());
    let mut replaced = None;
    let moved = (|| {
        for part in ["", "-wal", "-shm"] {
            let file = with(part);
            if !file.exists() {
                continue;
            }
            if occupied {
                std::fs::rename(&file, with(&format!("{aside}{part}"))).map_err(io)?;
            } else {
                std::fs::remove_file(&file).map_err(io)?;
            }
        }
        if occupied {
            replaced = Some(with(&aside));
        }
        std::fs::rename(&restoring, to).map_err(io)
    })();
    if let Err(e) = moved {
        let _ = std::fs::remove_file(&restoring);
        return Err(e);
    }
    let conn = connect(to)?;
    migrate(&conn)?;
    players::fill_similar_keys(&conn)?;
    Ok(Restored {
        schema,
        matches,
        players,
        replaced,
    })
}

/// Whether another process (a running server) has the SQLite database at `path` open: such a
/// process holds a shared lock on the file as long as it is open in write-ahead-log mode, so a
/// connection in exclusive locking mode cannot take the file. Any other failure (no file, no
/// SQLite database) is left to the checks that follow.
fn in_use(path: &Path) -> bool {
    use rusqlite::OpenFlags;
    if !path.is_file() {
        return false;
    }
    let Ok(conn) = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) else {
        return false;
    };
    if conn.busy_timeout(std::time::Duration::ZERO).is_err() {
        return false;
    }
    let taken = conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;");
    matches!(
        taken,
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::DatabaseBusy
    )
}

/// The schema version and the numbers of matches and players of the Plateau database at
/// `path`: `None` for a SQLite database that is no Plateau one (no schema version, or no
/// matches and log tables).
///
/// # Errors
/// `Invalid` for a file that is no SQLite database, fails `PRAGMA quick_check`, or has a schema
/// newer than this version knows.
fn plateau_contents(path: &Path) -> Result<Option<(usize, u64, u64)>, StoreError> {
    use rusqlite::OpenFlags;
    let shown = path.display();
    if !path.is_file() {
        return Err(StoreError::Invalid(format!("no database at {shown}")));
    }
    let invalid = |e: rusqlite::Error| StoreError::Invalid(format!("{shown}: {e}"));
    // Read and write (though only read), as `backup` opens its source; never created.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(invalid)?;
    let check: String = conn
        .pragma_query_value(None, "quick_check", |r| r.get(0))
        .map_err(invalid)?;
    if check != "ok" {
        return Err(StoreError::Invalid(format!(
            "{shown} fails its check: {check}"
        )));
    }
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(invalid)?;
    let known = schema::MIGRATIONS.len();
    let version = usize::try_from(version).unwrap_or(0);
    if version > known {
        return Err(StoreError::Invalid(format!(
            "{shown} has schema version {version}, from a newer Plateau (this one knows 1 to \
             {known})"
        )));
    }
    let table = |name: &str| -> Result<bool, StoreError> {
        conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [name],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(invalid)
    };
    if version == 0 || !table("matches")? || !table("actions")? {
        return Ok(None);
    }
    let count = |name: &str| -> Result<u64, StoreError> {
        if !table(name)? {
            return Ok(0);
        }
        conn.query_row(&format!("SELECT COUNT(*) FROM {name}"), [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n.unsigned_abs())
        .map_err(invalid)
    };
    Ok(Some((version, count("matches")?, count("players")?)))
}

/// Copies every page of `source` into `copy` in one step of SQLite's backup (a step of all
/// pages reads them in one transaction), waiting out a writer's lock for at most 5 s.
fn copy_all(source: &Connection, copy: &mut Connection) -> Result<(), StoreError> {
    use rusqlite::backup::{Backup, StepResult};
    let backup = Backup::new(source, copy).map_err(db)?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match backup.step(-1).map_err(db)? {
            StepResult::Done => return Ok(()),
            // `More` cannot follow a step of all pages, unless the source changed meanwhile
            // through this very connection (it is ours alone): step again all the same.
            StepResult::More => {}
            StepResult::Busy | StepResult::Locked if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            StepResult::Busy | StepResult::Locked => {
                return Err(StoreError::Invalid(
                    "the database stayed locked for 5 s: try again".into(),
                ));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
