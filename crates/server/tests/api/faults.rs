//! Faults (docs/reliability.md): the disk fills up, the database becomes unwritable, a client
//! never reads. The service answers clearly, acknowledges nothing it did not store, and recovers
//! by itself. The full disk is a small tmpfs, which needs root to mount; where mounting is not
//! allowed that test says so and passes without running. The full disk is SQLite's alone (its
//! file is the service's; a PostgreSQL server's disk is the server's own business): on the
//! PostgreSQL pass it is skipped. The unwritable database runs on both.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{Client, Db, TestApp, spawn_app, spawn_app_on};

/// A small tmpfs mounted for one test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(size: &str) -> Result<Tmpfs, String> {
        let dir = std::env::temp_dir().join(format!(
            "plateau-tmpfs-{}",
            hex::encode(rand::random::<[u8; 6]>())
        ));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let _ = std::fs::remove_dir(&dir);
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_owned());
        }
        Ok(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fills the file system of `dir` with a filler file until it refuses more.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).and_then(|()| f.sync_all()).is_ok() {}
    path
}

/// A live two-person MAD match on `app`; returns its id and both seats' clients at version 0.
async fn live_match(app: &TestApp) -> (String, Client, Client) {
    let created = app
        .create(json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let (_, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut red = app.connect(&id, created["token"].as_str()).await;
    let mut blue = app.connect(&id, joined["token"].as_str()).await;
    red.live().await;
    blue.live().await;
    (id, red, blue)
}

/// Plays seat 0's first legal move at `version` and returns the answer: a state or an error.
async fn try_move(red: &mut Client, version: u64) -> Value {
    let state = red.states().pop().unwrap();
    let legal = state["legal"][0].as_str().unwrap_or("c2-c3").to_owned();
    red.act(version, &legal).await;
    red.until(|m| m["type"] == "error" || (m["type"] == "state" && m["version"] == version + 1))
        .await
}

async fn on_tmpfs(size: &str) -> Option<(Tmpfs, TestApp)> {
    match Tmpfs::mount(size) {
        Ok(fs) => {
            let app = spawn_app_on(Db::Sqlite(fs.0.join("plateau.sqlite"))).await;
            Some((fs, app))
        }
        Err(e) => {
            eprintln!("skipped: cannot mount a tmpfs here ({e})");
            None
        }
    }
}

#[tokio::test]
async fn a_full_disk_refuses_actions_clearly_and_the_match_recovers_when_space_returns() {
    if Db::postgres().is_some() {
        eprintln!("skipped: the full disk is a SQLite file's (see the module comment)");
        return;
    }
    let Some((fs, app)) = on_tmpfs("4m").await else {
        return;
    };
    let (id, mut red, _blue) = live_match(&app).await;
    let filler = fill(&fs.0);
    let refused = try_move(&mut red, 0).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "store/unavailable");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("nothing was changed")
    );
    // Nothing unstored was acknowledged: the version did not move, and asking again is refused.
    assert_eq!(app.summary(&id).await["version"], 0);
    let again = try_move(&mut red, 0).await;
    assert_eq!(again["code"], "store/unavailable", "{again}");
    // Space returns: the match reads itself back (before its next command) and play goes on,
    // without a restart.
    std::fs::remove_file(filler).unwrap();
    let answer = try_move(&mut red, 0).await;
    assert_eq!(answer["type"], "state", "{answer}");
    assert_eq!(app.summary(&id).await["version"], 1);
    app.shutdown().await;
}

/// Another session holding the write lock on the action log: SQLite's whole file, or
/// PostgreSQL's `actions` table (`EXCLUSIVE` mode: reads go on, writes wait).
enum Intruder {
    Sqlite(rusqlite::Connection),
    Postgres(tokio_postgres::Client, tokio::task::JoinHandle<()>),
}

impl Intruder {
    async fn lock(db: &Db) -> Intruder {
        match db {
            Db::Sqlite(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch("BEGIN EXCLUSIVE").unwrap();
                Intruder::Sqlite(c)
            }
            Db::Postgres { .. } => {
                let (c, conn) = tokio_postgres::connect(&db.url(), tokio_postgres::NoTls)
                    .await
                    .unwrap();
                let task = tokio::spawn(async move {
                    let _ = conn.await;
                });
                c.batch_execute("BEGIN; LOCK TABLE actions IN EXCLUSIVE MODE")
                    .await
                    .unwrap();
                Intruder::Postgres(c, task)
            }
        }
    }

    async fn release(self) {
        match self {
            Intruder::Sqlite(c) => c.execute_batch("COMMIT").unwrap(),
            Intruder::Postgres(c, task) => {
                c.batch_execute("COMMIT").await.unwrap();
                drop(c);
                let _ = task.await;
            }
        }
    }
}

/// The database becomes unwritable: another session holds its write lock past the store's
/// 5 s wait (SQLite's busy wait, PostgreSQL's `lock_timeout`). Actions are refused clearly and
/// nothing is acknowledged; once the lock goes, play goes on.
#[tokio::test]
async fn an_unwritable_database_refuses_actions_and_recovers() {
    let app = spawn_app().await;
    let (id, mut red, _blue) = live_match(&app).await;
    let intruder = Intruder::lock(&app.db).await;
    let refused = try_move(&mut red, 0).await;
    assert_eq!(refused["code"], "store/unavailable", "{refused}");
    assert_eq!(app.summary(&id).await["version"], 0);
    intruder.release().await;
    let answer = try_move(&mut red, 0).await;
    assert_eq!(answer["type"], "state", "{answer}");
    assert_eq!(app.summary(&id).await["version"], 1);
    app.shutdown().await;
}

/// A spectator that opens the socket and never reads: the match plays on at full speed to its
/// end (the reader's queue is bounded: when it is full the reader is dropped), and the server
/// closes the reader (dropped, or silent past the idle time; a write it does not take ends it).
#[tokio::test]
async fn a_client_that_never_reads_is_dropped_and_never_slows_the_match() {
    let app = crate::common::spawn_app_with(
        crate::common::temp_db(),
        plateau_server::Options {
            limits: plateau_lobby::limits::Limits {
                socket_idle: Duration::from_secs(2),
                ..crate::common::test_options().limits
            },
            ..crate::common::test_options()
        },
    )
    .await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let created = app
        .create(
            json!({"game": "naval", "config": {"max_rounds": 40, "placement_moves": 2},
                       "seats": [bot, bot, bot, bot]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut raw = TcpStream::connect(app.addr).await.unwrap();
    raw.write_all(
        format!(
            "GET /api/matches/{id}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    // The match ends although one viewer reads nothing.
    let summary = tokio::time::timeout(Duration::from_secs(120), app.wait_finished(&id))
        .await
        .expect("the match was not slowed down");
    assert_eq!(summary["status"], "finished");
    // The silent reader's connection was closed by the server: reading it now reaches its end.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), raw.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the server closed the reader that never read");
    app.shutdown().await;
}
