//! The embedded store: one SQLite file in WAL mode with `synchronous = FULL`, so a write is on disk
//! when its commit returns.
//!
//! One thread owns the connection and takes jobs from a queue. Writes that are waiting together are
//! committed in one transaction (group commit, one fsync for many matches); each runs inside its own
//! savepoint so one failing write does not undo the others. A read ends the group, so it sees every
//! write queued before it.

use std::path::Path;
use std::sync::Mutex;
use std::sync::mpsc;
use std::thread::JoinHandle;

use plateau_engine::{Ending, Outcome, Seed};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use super::{BoxFuture, Entry, LogEntry, Store, StoreError, StoredMatch, StoredSeat};
use crate::model::{SeatSpec, Status, TimeControl};

/// The schema, one migration per entry; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[r"
CREATE TABLE matches (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    config       TEXT NOT NULL,
    time_control TEXT NOT NULL,
    seed         TEXT NOT NULL,
    seed_hash    TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'live', 'finished')),
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    outcome      TEXT,
    rematch      TEXT
);
CREATE INDEX matches_by_status ON matches (status, created_at);
CREATE TABLE match_seats (
    match_id   TEXT NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot        TEXT,
    level      INTEGER,
    token_hash TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE actions (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL CHECK (actor IN ('seat', 'chance', 'end')),
    seat     INTEGER,
    action   TEXT NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
);
"];

/// Most writes committed together.
const GROUP_MAX: usize = 256;

type WriteFn = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;
type ReadFn = Box<dyn FnOnce(&Connection) + Send>;

enum Job {
    Write(WriteFn, oneshot::Sender<Result<(), StoreError>>),
    Read(ReadFn),
}

/// SQLite behind a writer thread. Cheap to share (`Arc<SqliteStore>`).
pub struct SqliteStore {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

fn db(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, _) = &e
        && f.code == rusqlite::ErrorCode::ConstraintViolation
    {
        return StoreError::Conflict(e.to_string());
    }
    StoreError::Database(e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and applies the migrations.
    ///
    /// # Errors
    /// `Database` if the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(db)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db)?;
        migrate(&conn)?;
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("plateau-sqlite".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| StoreError::Database(e.to_string()))?;
        Ok(SqliteStore {
            jobs: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
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
                return Err(StoreError::Database("the store is closed".into()));
            }
            rx.await
                .unwrap_or_else(|_| Err(StoreError::Database("the store thread stopped".into())))
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
                return Err(StoreError::Database("the store is closed".into()));
            }
            rx.await
                .unwrap_or_else(|_| Err(StoreError::Database("the store thread stopped".into())))
        })
    }
}

fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let applied: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(db)?;
    let applied = usize::try_from(applied).unwrap_or(0);
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;",
            i + 1
        ))
        .map_err(db)?;
    }
    Ok(())
}

/// The writer thread: runs jobs in order, grouping consecutive writes into one transaction.
fn writer(conn: Connection, rx: mpsc::Receiver<Job>) {
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
            Job::Read(f) => f(&conn),
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
                commit_group(&conn, group);
            }
        }
    }
}

fn commit_group(conn: &Connection, group: Vec<(WriteFn, oneshot::Sender<Result<(), StoreError>>)>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        let msg = e.to_string();
        for (_, reply) in group {
            let _ = reply.send(Err(StoreError::Database(msg.clone())));
        }
        return;
    }
    let mut results = Vec::with_capacity(group.len());
    let mut replies = Vec::with_capacity(group.len());
    for (f, reply) in group {
        let result = conn
            .execute_batch("SAVEPOINT job")
            .map_err(db)
            .and_then(|()| match f(conn) {
                Ok(()) => conn.execute_batch("RELEASE job").map_err(db),
                Err(e) => {
                    let _ = conn.execute_batch("ROLLBACK TO job; RELEASE job");
                    Err(e)
                }
            });
        results.push(result);
        replies.push(reply);
    }
    if let Err(e) = conn.execute_batch("COMMIT") {
        let _ = conn.execute_batch("ROLLBACK");
        let msg = e.to_string();
        for reply in replies {
            let _ = reply.send(Err(StoreError::Database(msg.clone())));
        }
        return;
    }
    for (reply, result) in replies.into_iter().zip(results) {
        let _ = reply.send(result);
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serializes")
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

const MATCH_COLUMNS: &str = "id, game, config, time_control, seed, status, created_at, \
     started_at, outcome, rematch, (SELECT COUNT(*) FROM actions a WHERE a.match_id = m.id)";

fn read_match(conn: &Connection, row: &rusqlite::Row<'_>) -> Result<StoredMatch, StoreError> {
    let id: String = row.get(0).map_err(db)?;
    let config: String = row.get(2).map_err(db)?;
    let tc: String = row.get(3).map_err(db)?;
    let seed: String = row.get(4).map_err(db)?;
    let status: String = row.get(5).map_err(db)?;
    let outcome: Option<String> = row.get(8).map_err(db)?;
    let version: i64 = row.get(10).map_err(db)?;
    let seats = read_seats(conn, &id)?;
    Ok(StoredMatch {
        game: row.get(1).map_err(db)?,
        config: from_json("config", &config)?,
        seats,
        time_control: from_json::<TimeControl>("time_control", &tc)?,
        seed: Seed::from_hex(&seed).map_err(StoreError::Corrupt)?,
        status: Status::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("status `{status}`")))?,
        created_at: row.get(6).map_err(db)?,
        started_at: row.get(7).map_err(db)?,
        outcome: outcome
            .map(|o| from_json::<Outcome>("outcome", &o))
            .transpose()?,
        rematch: row.get(9).map_err(db)?,
        version: version as u64,
        log: Vec::new(),
        id,
    })
}

fn read_seats(conn: &Connection, id: &str) -> Result<Vec<StoredSeat>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT kind, bot, level, token_hash FROM match_seats WHERE match_id = ?1 ORDER BY seat",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<u8>>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })
        .map_err(db)?;
    let mut seats = Vec::new();
    for row in rows {
        let (kind, bot, level, token_hash) = row.map_err(db)?;
        let spec = match (kind.as_str(), bot) {
            ("human", _) => SeatSpec::Human,
            ("bot", Some(bot)) => SeatSpec::Bot {
                bot,
                level: level.unwrap_or(1),
            },
            _ => return Err(StoreError::Corrupt(format!("seat kind `{kind}` of {id}"))),
        };
        seats.push(StoredSeat { spec, token_hash });
    }
    Ok(seats)
}

fn read_log(conn: &Connection, id: &str) -> Result<Vec<LogEntry>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, actor, seat, action, at_ms FROM actions WHERE match_id = ?1 ORDER BY seq",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<u8>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })
        .map_err(db)?;
    let mut log = Vec::new();
    for (i, row) in rows.enumerate() {
        let (seq, actor, seat, action, at_ms) = row.map_err(db)?;
        if seq != i as i64 {
            return Err(StoreError::Corrupt(format!("log of {id} has a gap at {i}")));
        }
        let entry = match (actor.as_str(), seat) {
            ("seat", Some(s)) => Entry::Seat(s, action),
            ("chance", _) => Entry::Chance(action),
            ("end", _) => Entry::End(from_json::<Ending>("ending", &action)?),
            _ => return Err(StoreError::Corrupt(format!("log entry {seq} of {id}"))),
        };
        log.push(LogEntry {
            seq: seq as u64,
            entry,
            at_ms: at_ms as u64,
        });
    }
    Ok(log)
}

fn get_match(
    conn: &Connection,
    id: &str,
    with_log: bool,
) -> Result<Option<StoredMatch>, StoreError> {
    let sql = format!("SELECT {MATCH_COLUMNS} FROM matches m WHERE id = ?1");
    let mut stmt = conn.prepare_cached(&sql).map_err(db)?;
    let found = stmt
        .query_row([id], |row| Ok(read_match(conn, row)))
        .optional()
        .map_err(db)?;
    let Some(m) = found else { return Ok(None) };
    let mut m = m?;
    if with_log {
        m.log = read_log(conn, id)?;
    }
    Ok(Some(m))
}

impl Store for SqliteStore {
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            c.execute(
                "INSERT INTO matches (id, game, config, time_control, seed, seed_hash, status, \
                 created_at, started_at, outcome, rematch) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, NULL)",
                params![
                    m.id,
                    m.game,
                    to_json(&m.config),
                    to_json(&m.time_control),
                    m.seed.to_hex(),
                    m.seed.hash_hex(),
                    m.status.as_str(),
                    m.created_at,
                    m.started_at,
                ],
            )
            .map_err(db)?;
            for (i, seat) in m.seats.iter().enumerate() {
                let (kind, bot, level) = match &seat.spec {
                    SeatSpec::Human => ("human", None, None),
                    SeatSpec::Bot { bot, level } => ("bot", Some(bot.as_str()), Some(*level)),
                };
                c.execute(
                    "INSERT INTO match_seats (match_id, seat, kind, bot, level, token_hash) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![m.id, i as i64, kind, bot, level, seat.token_hash],
                )
                .map_err(db)?;
            }
            Ok(())
        }))
    }

    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            let n = c
                .execute(
                    "UPDATE match_seats SET token_hash = ?1 WHERE match_id = ?2 AND seat = ?3 \
                     AND kind = 'human' AND token_hash IS NULL",
                    params![token_hash, id, seat],
                )
                .map_err(db)?;
            if n != 1 {
                return Err(StoreError::Conflict(format!(
                    "seat {seat} of {id} is not free"
                )));
            }
            if let Some(at) = start {
                c.execute(
                    "UPDATE matches SET status = 'live', started_at = ?1 WHERE id = ?2 \
                     AND status = 'open'",
                    params![at, id],
                )
                .map_err(db)?;
            }
            Ok(())
        }))
    }

    fn append(
        &self,
        id: &str,
        entry: LogEntry,
        finish: Option<Outcome>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            let (actor, seat, action) = match &entry.entry {
                Entry::Seat(s, a) => ("seat", Some(*s), a.clone()),
                Entry::Chance(a) => ("chance", None, a.clone()),
                Entry::End(e) => ("end", None, to_json(e)),
            };
            c.prepare_cached(
                "INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    id,
                    entry.seq as i64,
                    actor,
                    seat,
                    action,
                    entry.at_ms as i64
                ])
            })
            .map_err(db)?;
            if let Some(outcome) = finish {
                c.execute(
                    "UPDATE matches SET status = 'finished', outcome = ?1 WHERE id = ?2",
                    params![to_json(&outcome), id],
                )
                .map_err(db)?;
            }
            Ok(())
        }))
    }

    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        let (id, rematch) = (id.to_owned(), rematch.to_owned());
        self.write(Box::new(move |c| {
            c.execute(
                "UPDATE matches SET rematch = ?1 WHERE id = ?2",
                params![rematch, id],
            )
            .map_err(db)?;
            Ok(())
        }))
    }

    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>> {
        let id = id.to_owned();
        self.read(move |c| get_match(c, &id, with_log))
    }

    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(move |c| {
            let words: Vec<String> = statuses
                .iter()
                .map(|s| format!("'{}'", s.as_str()))
                .collect();
            let sql = format!(
                "SELECT {MATCH_COLUMNS} FROM matches m WHERE status IN ({}) \
                 ORDER BY created_at DESC, id LIMIT {limit}",
                words.join(", ")
            );
            let mut stmt = c.prepare(&sql).map_err(db)?;
            let rows = stmt
                .query_map([], |row| Ok(read_match(c, row)))
                .map_err(db)?;
            let mut out = Vec::new();
            for row in rows {
                out.push(row.map_err(db)??);
            }
            Ok(out)
        })
    }

    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(|c| {
            let mut stmt = c
                .prepare("SELECT id FROM matches WHERE status <> 'finished' ORDER BY created_at")
                .map_err(db)?;
            let ids: Vec<String> = stmt
                .query_map([], |r| r.get(0))
                .map_err(db)?
                .collect::<Result<_, _>>()
                .map_err(db)?;
            let mut out = Vec::new();
            for id in ids {
                if let Some(m) = get_match(c, &id, true)? {
                    out.push(m);
                }
            }
            Ok(out)
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        // Dropping the sender lets the thread finish the queued jobs, then stop.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        Box::pin(async move {
            if let Some(t) = thread {
                let _ = tokio::task::spawn_blocking(move || t.join()).await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path() -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "plateau-store-{}.sqlite",
            hex::encode(rand::random::<[u8; 8]>())
        ))
    }

    fn new_match(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.into(),
            game: "mad".into(),
            config: serde_json::Value::Null,
            seats: vec![
                StoredSeat {
                    spec: SeatSpec::Human,
                    token_hash: Some("aa".into()),
                },
                StoredSeat {
                    spec: SeatSpec::Human,
                    token_hash: None,
                },
            ],
            time_control: TimeControl::PerMove { seconds: 30 },
            seed: Seed::from_u64(5),
            status: Status::Open,
            created_at: 1,
            started_at: None,
            outcome: None,
            rematch: None,
            version: 0,
            log: Vec::new(),
        }
    }

    fn entry(seq: u64, text: &str) -> LogEntry {
        LogEntry {
            seq,
            entry: Entry::Seat((seq % 2) as u8, text.into()),
            at_ms: seq * 10,
        }
    }

    #[tokio::test]
    async fn the_log_is_append_only_and_survives_reopening() {
        let path = temp_path();
        let store = SqliteStore::open(&path).unwrap();
        store.create(new_match("m1")).await.unwrap();
        assert!(matches!(
            store.create(new_match("m1")).await,
            Err(StoreError::Conflict(_))
        ));
        store
            .take_seat("m1", 1, "bb".into(), Some(7))
            .await
            .unwrap();
        assert!(matches!(
            store.take_seat("m1", 1, "cc".into(), None).await,
            Err(StoreError::Conflict(_))
        ));
        // Concurrent appends share a transaction; the duplicate seq fails alone.
        let (a, b, c) = tokio::join!(
            store.append("m1", entry(0, "c2-c4"), None),
            store.append("m1", entry(0, "d2-d4"), None),
            store.append("m1", entry(1, "c5-c3"), None),
        );
        assert!(a.is_ok() && c.is_ok());
        assert!(matches!(b, Err(StoreError::Conflict(_))));
        let ending = LogEntry {
            seq: 2,
            entry: Entry::End(Ending::Resign(plateau_engine::Seat(0))),
            at_ms: 30,
        };
        let outcome = Outcome::single_winner(2, plateau_engine::Seat(1), "resign");
        store
            .append("m1", ending.clone(), Some(outcome.clone()))
            .await
            .unwrap();
        store.close().await;

        let store = SqliteStore::open(&path).unwrap();
        let m = store.get("m1", true).await.unwrap().unwrap();
        assert_eq!(m.status, Status::Finished);
        assert_eq!(m.started_at, Some(7));
        assert_eq!(m.outcome, Some(outcome));
        assert_eq!(m.version, 3);
        assert_eq!(m.log, vec![entry(0, "c2-c4"), entry(1, "c5-c3"), ending]);
        assert_eq!(m.seats[1].token_hash.as_deref(), Some("bb"));
        assert_eq!(m.time_control, TimeControl::PerMove { seconds: 30 });
        assert!(store.unfinished().await.unwrap().is_empty());
        assert_eq!(
            store.list(vec![Status::Finished], 10).await.unwrap().len(),
            1
        );
        assert!(store.get("nope", false).await.unwrap().is_none());
        store.close().await;
        let _ = std::fs::remove_file(&path);
    }
}
