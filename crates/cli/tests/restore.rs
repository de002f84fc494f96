//! `plateau backup` taken while a server plays matches under `plateau load`, then
//! `plateau restore`: every match of the restored database replays through the engine, each
//! action legal and each finished match's result the one stored (docs/deploy.md, "Restoring").

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use plateau_server::store::model::Status;
use plateau_server::store::sqlite::SqliteStore;
use plateau_server::store::{MatchStore, Store};

const PLATEAU: &str = env!("CARGO_BIN_EXE_plateau");

fn plateau(args: &[&str]) -> Output {
    Command::new(PLATEAU)
        .args(args)
        .output()
        .expect("the plateau binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The finished matches the server lists (at most 100).
async fn finished(addr: std::net::SocketAddr) -> usize {
    let (status, body) = common::http(addr, "GET", "/api/matches?status=finished", "").await;
    assert_eq!(status, 200, "{body}");
    body["matches"].as_array().map_or(0, Vec::len)
}

/// Every live and finished match of the SQLite database at `path`, replayed with its game's
/// rules: how many of each.
async fn replay_every_match(path: &Path) -> (usize, usize) {
    let store = SqliteStore::open(path).unwrap();
    let listed = store
        .list(vec![Status::Live, Status::Finished], 1_000_000)
        .await
        .unwrap();
    let (mut live, mut done) = (0, 0);
    for summary in listed {
        let m = store.get(&summary.id, true).await.unwrap().unwrap();
        let entry = plateau_registry::find(&m.game).unwrap();
        let record = plateau_match::replays::to_record(&m);
        let replay = record
            .replay(entry)
            .unwrap_or_else(|e| panic!("match {} ({}) does not replay: {e}", m.id, m.game));
        let replayed = replay.state.outcome();
        match m.status {
            Status::Finished => {
                let stored = m.outcome.clone().expect("a finished match has its result");
                // Early endings (resignation, time) are in the log: the rules' result is the
                // stored one either way.
                assert_eq!(replayed, Some(stored), "match {}", m.id);
                assert!(replay.seed_verified, "match {}", m.id);
                done += 1;
            }
            _ => {
                assert_eq!(replayed, None, "live match {} is over by its log", m.id);
                live += 1;
            }
        }
    }
    store.close().await;
    (live, done)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_restores_and_every_match_replays() {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("restore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("live.sqlite");
    let server = common::start_node(&format!("sqlite://{}", db.display()), &[]);
    let addr = server.addr.to_string();

    // People's Moon Leap matches, each seat acting the moment it may, and MAD matches of bots
    // alone; as each finishes the load client starts another.
    let mut load = Command::new(PLATEAU)
        .args([
            "load",
            "--addr",
            &addr,
            "--matches",
            "6",
            "--seconds",
            "120",
        ])
        .args(["--bots", "2", "--bot", "random", "--bot-game", "mad"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while finished(server.addr).await < 10 {
        assert!(Instant::now() < deadline, "no ten matches finished");
        assert!(load.try_wait().unwrap().is_none(), "the load stopped");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let before = finished(server.addr).await;
    let backup = dir.join("backup.sqlite");
    let backed = plateau(&[
        "backup",
        "--database",
        &format!("sqlite://{}", db.display()),
        "--to",
        backup.to_str().unwrap(),
    ]);
    assert!(backed.status.success(), "{}", text(&backed.stderr));
    // Again to the same file: refused in words, the copy left as it is.
    let twice = plateau(&[
        "backup",
        "--database",
        &format!("sqlite://{}", db.display()),
        "--to",
        backup.to_str().unwrap(),
    ]);
    assert_eq!(twice.status.code(), Some(1));
    assert_eq!(
        text(&twice.stderr).trim(),
        format!(
            "error: {} exists already: back up to a new file",
            backup.display()
        )
    );
    // Still under load through the backup, and after it: matches go on finishing.
    assert!(load.try_wait().unwrap().is_none(), "the load stopped");
    let deadline = Instant::now() + Duration::from_secs(60);
    while finished(server.addr).await <= before.min(99) {
        assert!(
            Instant::now() < deadline,
            "no match finished after the backup"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = load.kill();
    let _ = load.wait();
    // The folder a load client makes for a server of its own, empty with --addr, which its end
    // would have removed.
    let _ = std::fs::remove_dir(std::env::temp_dir().join(format!("plateau-load-{}", load.id())));
    drop(server);

    let restored = dir.join("restored.sqlite");
    let database = format!("sqlite://{}", restored.display());
    let output = plateau(&[
        "restore",
        "--from",
        backup.to_str().unwrap(),
        "--database",
        &database,
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("restored to"));
    let (live, done) = replay_every_match(&restored).await;
    eprintln!(
        "restored: {live} live and {done} finished matches replayed ({before} finished when backed up)"
    );
    assert!(done >= 10, "{done} finished matches restored");
    assert!(live >= 1, "no match was being played in the backup");

    // Once more over it: refused (it holds data), nothing changed; then forced, the old kept.
    let again = plateau(&[
        "restore",
        "--from",
        backup.to_str().unwrap(),
        "--database",
        &database,
    ]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("--force"),
        "{}",
        text(&again.stderr)
    );
    let forced = plateau(&[
        "restore",
        "--from",
        backup.to_str().unwrap(),
        "--database",
        &database,
        "--force",
    ]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert!(text(&forced.stdout).contains(".replaced-"));
    assert_eq!(replay_every_match(&restored).await, (live, done));

    // Not a backup; a PostgreSQL destination: refused with the way to do it.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a database").unwrap();
    let refused = plateau(&[
        "restore",
        "--from",
        notes.to_str().unwrap(),
        "--database",
        &format!("sqlite://{}", dir.join("other.sqlite").display()),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(!dir.join("other.sqlite").exists());
    let postgres = plateau(&[
        "restore",
        "--from",
        backup.to_str().unwrap(),
        "--database",
        "postgres://plateau@localhost/plateau",
    ]);
    assert_eq!(postgres.status.code(), Some(1));
    assert!(text(&postgres.stderr).contains("pg_restore"));
    let _ = std::fs::remove_dir_all(&dir);
}
