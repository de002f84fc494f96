//! The SQLite store's own tests: its migrations from older files and its checkpointer. Both are
//! SQLite's machinery (PostgreSQL's store has one migration and the server checkpoints by
//! itself); the tests of what every store does are in tests.rs, run on both backends.

use super::backup::{Restored, backup, restore};
use super::schema::MIGRATIONS;
use super::*;
use crate::model::TimeControl;
use crate::players::{Player, PlayerKind};
use crate::tests::{TempDir, entry, new_match};
use crate::{Derived, MatchStore, PlayerStore, Store, StoreError};
use plateau_engine::{Actor, Event, LogEntry, Seat, Seed};

/// A database at `path` with the migrations before the one containing `marker` applied.
fn migrated_before(path: &Path, marker: &str) -> Connection {
    let conn = Connection::open(path).unwrap();
    let until = MIGRATIONS.iter().position(|m| m.contains(marker)).unwrap();
    for (i, sql) in MIGRATIONS[..until].iter().enumerate() {
        conn.execute_batch(&format!("{sql}; PRAGMA user_version = {};", i + 1))
            .unwrap();
    }
    conn
}

/// A database at `path` migrated up to the migration containing `marker` (`migrated_before`),
/// holding the live Moon Leap match `id` with the log `rows` (an INSERT's `VALUES` list of
/// `(match_id, seq, actor, seat, action, at_ms)`).
fn live_match_before(path: &Path, marker: &str, id: &str, rows: &str) -> Connection {
    let seed = Seed([7; 32]).to_hex();
    let control = to_json(&TimeControl::None);
    let conn = migrated_before(path, marker);
    conn.execute_batch(&format!(
        "INSERT INTO matches (id, game, config, time_control, seed, seed_hash, status, created_at) \
         VALUES ('{id}', 'moonleap', 'null', '{control}', '{seed}', 'y', 'live', 1); \
         INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) VALUES {rows};"
    ))
    .unwrap();
    conn
}

/// A log written before its actor check was rewritten is kept whole, and the check still refuses
/// an actor that is none of the three.
/// A store opened on `path`, with the guest Ann to create matches for.
async fn store_with_ann(path: &Path) -> (SqliteStore, Player) {
    let store = SqliteStore::open(path).unwrap();
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    (store, ann)
}

#[tokio::test]
async fn the_log_keeps_its_entries_through_the_rewritten_actor_check() {
    let dir = TempDir::new();
    let path = dir.db();
    live_match_before(
        &path,
        "CREATE TABLE actions_checked",
        "00000000000000ab",
        "('00000000000000ab', 0, 'seat', 0, 'roll', 5), \
         ('00000000000000ab', 1, 'chance', NULL, '3', 6)",
    );
    let store = SqliteStore::open(&path).unwrap();
    let stored = store.get("00000000000000ab", true).await.unwrap().unwrap();
    assert_eq!(stored.version, 2);
    let events: Vec<_> = stored
        .log
        .iter()
        .map(|e| (e.event.clone(), e.at_ms))
        .collect();
    assert_eq!(
        events,
        [
            (
                Event::Action {
                    by: Actor::Seat(Seat(0)),
                    action: "roll".into()
                },
                Some(5)
            ),
            (
                Event::Action {
                    by: Actor::Chance,
                    action: "3".into()
                },
                Some(6)
            ),
        ]
    );
    store.close().await;
    let conn = Connection::open(&path).unwrap();
    let refused = conn.execute(
        "INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
         VALUES ('00000000000000ab', 2, 'nobody', NULL, 'x', 7)",
        [],
    );
    assert!(refused.is_err(), "an unknown actor was stored");
}

/// A log written while the table had a rowid moves whole into the table keyed by (match, seq),
/// which still refuses a taken position and a match that does not exist.
#[tokio::test]
async fn the_log_moves_whole_into_the_table_keyed_by_match_and_position() {
    let dir = TempDir::new();
    let path = dir.db();
    live_match_before(
        &path,
        "CREATE TABLE actions_keyed",
        "00000000000000ac",
        "('00000000000000ac', 1, 'chance', NULL, '4', 6), \
         ('00000000000000ac', 0, 'seat', 1, 'jump', 5)",
    );
    let store = SqliteStore::open(&path).unwrap();
    store
        .append("00000000000000ac", 2, vec![entry(2, "land")], None)
        .await
        .unwrap();
    let taken = store
        .append("00000000000000ac", 1, vec![entry(1, "again")], None)
        .await;
    assert!(matches!(taken, Err(StoreError::Conflict(_))), "{taken:?}");
    let unknown = store
        .append("00000000000000ff", 0, vec![entry(0, "x")], None)
        .await;
    assert!(
        matches!(unknown, Err(StoreError::Conflict(_))),
        "{unknown:?}"
    );
    let stored = store.get("00000000000000ac", true).await.unwrap().unwrap();
    assert_eq!(stored.version, 3);
    let events: Vec<_> = stored
        .log
        .iter()
        .map(|e| (e.event.clone(), e.at_ms))
        .collect();
    let action = |by, action: &str| Event::Action {
        by,
        action: action.into(),
    };
    assert_eq!(
        events,
        [
            (action(Actor::Seat(Seat(1)), "jump"), Some(5)),
            (action(Actor::Chance, "4"), Some(6)),
            (action(Actor::Seat(Seat(0)), "land"), Some(20)),
        ]
    );
    store.close().await;
    let conn = Connection::open(&path).unwrap();
    assert!(
        conn.prepare("SELECT rowid FROM actions").is_err(),
        "the log still has a rowid"
    );
}

/// A database written before the `derived` table keeps its replays: the migration moves them.
#[tokio::test]
async fn stored_replays_move_to_the_derived_documents() {
    let dir = TempDir::new();
    let path = dir.db();
    {
        let conn = migrated_before(&path, "CREATE TABLE derived");
        conn.execute_batch(
            "INSERT INTO matches (id, game, config, time_control, seed, seed_hash, status, created_at) \
             VALUES ('00000000000000aa', 'mad', 'null', 'none', 'x', 'y', 'finished', 1); \
             INSERT INTO replays (match_id, body) VALUES ('00000000000000aa', '{\"steps\":[]}');",
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    let got = |kind| store.derived("00000000000000aa".into(), kind);
    assert_eq!(
        got(Derived::Replay).await.unwrap().as_deref(),
        Some(r#"{"steps":[]}"#)
    );
    assert_eq!(got(Derived::Analysis).await.unwrap(), None);
    // A document of each kind, once: a second one of the same kind is ignored.
    for body in ["{\"a\":1}", "{\"a\":2}"] {
        store
            .put_derived("00000000000000aa".into(), Derived::Analysis, body.into())
            .await
            .unwrap();
    }
    assert_eq!(
        got(Derived::Analysis).await.unwrap().as_deref(),
        Some("{\"a\":1}")
    );
    store.close().await;
}

#[tokio::test]
async fn a_full_log_is_copied_into_the_database_by_the_checkpointer() {
    let dir = TempDir::new();
    let path = dir.db();
    let wal = path.with_extension("sqlite-wal");
    let (store, ann) = store_with_ann(&path).await;
    store.create(new_match("m1", &ann, false)).await.unwrap();
    // One commit of 1,200 entries of 4 KiB: more pages than `CHECKPOINT_PAGES` in the log.
    let text = "x".repeat(4096);
    let entries: Vec<LogEntry> = (0..1200).map(|i| entry(i, &text)).collect();
    store.append("m1", 0, entries, None).await.unwrap();
    let logged = std::fs::metadata(&wal).unwrap().len();
    assert!(logged > 1000 * 4096, "the log holds {logged} bytes");
    // The writer's connection never checkpoints below `CHECKPOINT_PAGES_MAX`: the checkpointer,
    // woken by that commit, copies the log into the database file.
    let copied = || std::fs::metadata(&path).map_or(0, |m| m.len()) > 1000 * 4096;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !copied() {
        assert!(
            std::time::Instant::now() < deadline,
            "no checkpoint in 30 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Closing the last connection leaves no log behind, and every entry is in the file.
    store.close().await;
    assert!(!wal.exists());
    let store = SqliteStore::open(&path).unwrap();
    let m = store.get("m1", true).await.unwrap().unwrap();
    assert_eq!(m.log.len(), 1200);
    assert_eq!(m.version, 1200);
    store.close().await;
}

/// An online backup of a database a store is writing holds every match as committed when it
/// was taken, and opens as a store of its own (a restore): the match written before it whole,
/// the one written meanwhile up to some entry. A backup over an existing file, or of a file
/// that is no database, is refused and leaves nothing behind.
#[tokio::test]
async fn a_backup_taken_while_writing_restores_every_match() {
    let dir = TempDir::new();
    let (store, ann) = store_with_ann(&dir.db()).await;
    for id in ["m1", "m2"] {
        store.create(new_match(id, &ann, true)).await.unwrap();
    }
    for seq in 0..20 {
        store
            .append("m1", seq, vec![entry(seq, "c2-c4")], None)
            .await
            .unwrap();
    }
    let copy = dir.db().with_file_name("backup.sqlite");
    let (from, to) = (dir.db(), copy.clone());
    let backing = tokio::task::spawn_blocking(move || backup(&from, &to));
    for seq in 0..200 {
        store
            .append("m2", seq, vec![entry(seq, "d2-d4")], None)
            .await
            .unwrap();
    }
    backing.await.unwrap().unwrap();
    let written = |id: &'static str| {
        let store = &store;
        async move { store.get(id, true).await.unwrap().unwrap().log }
    };
    let (m1, m2) = (written("m1").await, written("m2").await);

    let restored = SqliteStore::open(&copy).unwrap();
    let got = restored.get("m1", true).await.unwrap().unwrap();
    assert_eq!(got.log, m1);
    assert_eq!(got.version, 20);
    let got = restored.get("m2", true).await.unwrap().unwrap();
    assert!(got.log.len() <= m2.len());
    assert_eq!(got.log[..], m2[..got.log.len()]);
    assert_eq!(
        restored
            .player_by_name("Ann".into())
            .await
            .unwrap()
            .map(|(p, _)| p.id),
        Some(ann.id)
    );
    restored.close().await;

    assert!(matches!(
        backup(&dir.db(), &copy),
        Err(StoreError::Invalid(_))
    ));
    let not_a_database = dir.db().with_file_name("notes.txt");
    std::fs::write(&not_a_database, "not a database").unwrap();
    let elsewhere = dir.db().with_file_name("other.sqlite");
    assert!(matches!(
        backup(&not_a_database, &elsewhere),
        Err(StoreError::Invalid(_))
    ));
    assert!(!elsewhere.exists());
    assert!(!dir.db().with_file_name("other.sqlite.partial").exists());
    // A folder that is not there is named, not the copy's own file beside the backup.
    let nowhere = dir.db().with_file_name("missing").join("backup.sqlite");
    match backup(&dir.db(), &nowhere) {
        Err(StoreError::Invalid(why)) => assert!(
            why.starts_with("no folder ") && !why.contains(".partial"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
    store.close().await;
}

/// A restore checks its backup before it changes anything, keeps a database with data unless
/// forced, moves a forced one aside whole, and leaves a database that opens with the backup's
/// data.
#[tokio::test]
async fn a_restore_checks_the_backup_and_keeps_what_it_replaces() {
    let dir = TempDir::new();
    let at = |name: &str| dir.db().with_file_name(name);
    let (store, ann) = store_with_ann(&dir.db()).await;
    store.create(new_match("m1", &ann, true)).await.unwrap();
    for seq in 0..5 {
        store
            .append("m1", seq, vec![entry(seq, "c2-c4")], None)
            .await
            .unwrap();
    }
    backup(&dir.db(), &at("backup.sqlite")).unwrap();
    store.close().await;

    // Into a new path.
    let restored = restore(&at("backup.sqlite"), &at("new.sqlite"), false).unwrap();
    assert_eq!(
        restored,
        Restored {
            schema: MIGRATIONS.len(),
            matches: 1,
            players: 1,
            replaced: None
        }
    );
    let opened = SqliteStore::open(&at("new.sqlite")).unwrap();
    assert_eq!(opened.get("m1", true).await.unwrap().unwrap().version, 5);
    opened.close().await;

    // Over a database with data: refused, then forced; the old one kept aside with its data.
    let other = SqliteStore::open(&at("other.sqlite")).unwrap();
    other
        .create_player("Bob".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    // While a server has it open, even --force changes nothing: the server would go on
    // writing to the file moved aside.
    let in_use = restore(&at("backup.sqlite"), &at("other.sqlite"), true);
    assert!(
        matches!(&in_use, Err(StoreError::Invalid(m)) if m.contains("in use")),
        "{in_use:?}"
    );
    assert!(other.player_by_name("Bob".into()).await.unwrap().is_some());
    assert!(!at("other.sqlite.restoring").exists());
    other.close().await;
    let refused = restore(&at("backup.sqlite"), &at("other.sqlite"), false);
    assert!(
        matches!(&refused, Err(StoreError::Invalid(m)) if m.contains("--force")),
        "{refused:?}"
    );
    let forced = restore(&at("backup.sqlite"), &at("other.sqlite"), true).unwrap();
    let aside = forced.replaced.expect("the old database is kept");
    assert!(aside.to_string_lossy().contains("other.sqlite.replaced-"));
    let kept = SqliteStore::open(&aside).unwrap();
    assert!(kept.player_by_name("Bob".into()).await.unwrap().is_some());
    kept.close().await;
    let now = SqliteStore::open(&at("other.sqlite")).unwrap();
    assert!(now.player_by_name("Bob".into()).await.unwrap().is_none());
    assert!(now.player_by_name("Ann".into()).await.unwrap().is_some());
    now.close().await;

    // Over an empty Plateau database (a server started once): no force needed.
    SqliteStore::open(&at("empty.sqlite"))
        .unwrap()
        .close()
        .await;
    let restored = restore(&at("backup.sqlite"), &at("empty.sqlite"), false).unwrap();
    assert_eq!(restored.replaced, None);

    // Backups that are none: nothing written.
    std::fs::write(at("notes.txt"), "not a database").unwrap();
    let newer = at("newer.sqlite");
    std::fs::copy(at("backup.sqlite"), &newer).unwrap();
    Connection::open(&newer)
        .unwrap()
        .pragma_update(None, "user_version", MIGRATIONS.len() as i64 + 1)
        .unwrap();
    let foreign = at("foreign.sqlite");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); PRAGMA user_version = 3;")
        .unwrap();
    for (bad, words) in [
        (at("notes.txt"), "not a database"),
        (newer, "newer Plateau"),
        (foreign, "no Plateau database"),
        (at("absent.sqlite"), "no database at"),
    ] {
        let refused = restore(&bad, &at("fresh.sqlite"), true);
        assert!(
            matches!(&refused, Err(StoreError::Invalid(m)) if m.contains(words)),
            "{}: {refused:?}",
            bad.display()
        );
        assert!(!at("fresh.sqlite").exists());
        assert!(!at("fresh.sqlite.restoring").exists());
    }
}

/// Appends of many matches sent at once (the writer gathers them into groups, and may wait for
/// more: `gather`) are each committed and answered, and a read sent after them, before any is
/// answered, sees every one of them.
#[tokio::test]
async fn a_read_sent_after_gathered_writes_sees_them_all() {
    let dir = TempDir::new();
    let (store, ann) = store_with_ann(&dir.db()).await;
    let ids: Vec<String> = (0..40).map(|i| format!("{i:016x}")).collect();
    for id in &ids {
        store.create(new_match(id, &ann, false)).await.unwrap();
    }
    for seq in 0..10 {
        let appends: Vec<_> = ids
            .iter()
            .map(|id| store.append(id, seq, vec![entry(seq, "roll")], None))
            .collect();
        let reads: Vec<_> = ids.iter().map(|id| store.get(id, false)).collect();
        for read in reads {
            assert_eq!(read.await.unwrap().unwrap().version, seq + 1);
        }
        for append in appends {
            append.await.unwrap();
        }
    }
    // One more append at a version already written fails alone; the others of its group stay.
    let appends: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let first = if i == 7 { 3 } else { 10 };
            store.append(id, first, vec![entry(first, "roll")], None)
        })
        .collect();
    for (i, append) in appends.into_iter().enumerate() {
        assert_eq!(append.await.is_ok(), i != 7, "append of match {i}");
    }
    for (i, id) in ids.iter().enumerate() {
        let version = store.get(id, false).await.unwrap().unwrap().version;
        assert_eq!(version, if i == 7 { 10 } else { 11 });
    }
    store.close().await;
}
