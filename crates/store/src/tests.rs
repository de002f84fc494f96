//! The store's tests, written once against `dyn Store` and run on each backend: SQLite on a
//! temporary file, and PostgreSQL on a fresh schema of the server `PLATEAU_TEST_POSTGRES` names
//! (scripts/test sets it; without it the PostgreSQL tests say so and pass without running).
//! The tests of one backend's own machinery stay beside it (sqlite/tests.rs).

use std::sync::Arc;

use super::*;
use crate::model::{SeatSpec, Status, TimeControl};
use crate::players::{Player, PlayerKind};
use plateau_engine::{Actor, Ending, LogEntry, Outcome, Seat, Seed};

mod deletion;
use deletion::a_deleted_player_keeps_its_games_under_a_neutral_name;
mod moderation;
use moderation::moderator_actions_change_what_they_name_and_are_logged;
mod relations;
use relations::follows_and_blocks_are_one_relation_per_pair;
mod tournaments;
use tournaments::tournaments_read_back_as_saved_and_list_by_status;

/// A folder of its own in the temporary folder, for one test's SQLite file and the `-wal` and
/// `-shm` files beside it: removed with all it holds when dropped, so a test that fails half way
/// leaves nothing behind either.
pub(crate) struct TempDir(std::path::PathBuf);

impl TempDir {
    /// A new, empty folder.
    pub(crate) fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "plateau-store-{}",
            hex::encode(rand::random::<[u8; 8]>())
        ));
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    /// The path of the database file in it.
    pub(crate) fn db(&self) -> std::path::PathBuf {
        self.0.join("store.sqlite")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where a test's store lives; opening it again is a restart on the same data.
pub(crate) enum Backend {
    /// A SQLite file in a folder of its own.
    Sqlite(TempDir),
    /// A PostgreSQL URL whose search path starts with a fresh schema.
    Postgres(String),
}

impl Backend {
    /// A fresh SQLite file in a temporary folder, removed with the backend.
    pub(crate) fn sqlite() -> Backend {
        Backend::Sqlite(TempDir::new())
    }

    /// A fresh schema on the server of `PLATEAU_TEST_POSTGRES`, or `None` (with a note) when
    /// the variable is not set.
    pub(crate) async fn postgres() -> Option<Backend> {
        let Some(server) = std::env::var("PLATEAU_TEST_POSTGRES")
            .ok()
            .filter(|v| !v.is_empty())
        else {
            eprintln!("skipped: PLATEAU_TEST_POSTGRES is not set (scripts/test sets it)");
            return None;
        };
        let schema = format!("s_{}", hex::encode(rand::random::<[u8; 8]>()));
        let (client, connection) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
            .await
            .unwrap();
        let task = tokio::spawn(connection);
        client
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        drop(client);
        let _ = task.await;
        let sep = if server.contains('?') { '&' } else { '?' };
        Some(Backend::Postgres(format!(
            "{server}{sep}options=-csearch_path%3D{schema}"
        )))
    }

    /// Opens the store (applying the migrations).
    pub(crate) async fn open(&self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite(dir) => Arc::new(sqlite::SqliteStore::open(&dir.db()).unwrap()),
            Backend::Postgres(url) => Arc::new(postgres::PgStore::open(url).await.unwrap()),
        }
    }

    /// Runs `sql` on the database itself, beside the store (to set up what an older server left).
    async fn exec(&self, sql: &str) {
        match self {
            Backend::Sqlite(dir) => rusqlite::Connection::open(dir.db())
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Backend::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                let task = tokio::spawn(connection);
                client.batch_execute(sql).await.unwrap();
                drop(client);
                let _ = task.await;
            }
        }
    }

    /// The count `sql` (a `SELECT COUNT(*) ...`) gives on the database itself, beside the store.
    async fn count(&self, sql: &str) -> i64 {
        match self {
            Backend::Sqlite(dir) => rusqlite::Connection::open(dir.db())
                .unwrap()
                .query_row(sql, [], |r| r.get(0))
                .unwrap(),
            Backend::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                let task = tokio::spawn(connection);
                let n = client.query_one(sql, &[]).await.unwrap().get(0);
                drop(client);
                let _ = task.await;
                n
            }
        }
    }
}

/// A test per backend from one body: `$name(&Backend, $args...)` becomes `on_sqlite::$name` and
/// `on_postgres::$name` (scripts/test runs the second kind again with a PostgreSQL server, by
/// that prefix).
macro_rules! on_both {
    ($($name:ident $(($sqlite_arg:expr, $pg_arg:expr))?;)*) => {
        mod on_sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(&super::Backend::sqlite() $(, $sqlite_arg)?).await;
                }
            )*
        }

        mod on_postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    if let Some(db) = super::Backend::postgres().await {
                        super::$name(&db $(, $pg_arg)?).await;
                    }
                }
            )*
        }
    };
}

on_both! {
    the_log_is_append_only_and_survives_reopening;
    names_are_unique_without_regard_to_case_and_sessions_name_players;
    names_that_look_alike_are_one_name_and_older_players_get_their_key;
    // Every PostgreSQL write is a commit flushed to disk, one after the other here: fewer games
    // there keep the test short; the laws are the same code's.
    ratings_keep_their_laws_over_many_games_per_game(1000, 200);
    derived_documents_are_written_once;
    a_lease_has_one_holder_until_it_expires_or_is_given_up;
    a_takeback_cuts_a_live_log_only;
    appends_at_once_succeed_or_fail_each_on_its_own;
    only_open_matches_without_a_log_are_deleted;
    follows_and_blocks_are_one_relation_per_pair;
    tournaments_read_back_as_saved_and_list_by_status;
    a_deleted_player_keeps_its_games_under_a_neutral_name;
    moderator_actions_change_what_they_name_and_are_logged;
}

pub(crate) fn new_match(id: &str, first: &Player, rated: bool) -> StoredMatch {
    StoredMatch {
        id: id.into(),
        game: "mad".into(),
        config: serde_json::Value::Null,
        seats: vec![
            StoredSeat {
                spec: SeatSpec::Human,
                token_hash: Some("aa".into()),
                player: Some(first.clone()),
                opened: true,
            },
            StoredSeat {
                spec: SeatSpec::Human,
                token_hash: None,
                player: None,
                opened: false,
            },
        ],
        time_control: TimeControl::PerMove { seconds: 30 },
        seed: Seed::from_u64(5),
        status: Status::Open,
        created_at: 1,
        started_at: None,
        outcome: None,
        rematch: None,
        rated,
        unrated: None,
        creator: None,
        ended_at: None,
        version: 0,
        log: Vec::new(),
        chat: Vec::new(),
    }
}

/// Entry `seq` of a log: a seat's action, timed.
pub(crate) fn entry(seq: u64, text: &str) -> LogEntry {
    LogEntry::action(Actor::Seat(Seat((seq % 2) as u8)), text, Some(seq * 10))
}

async fn the_log_is_append_only_and_survives_reopening(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    let bob = store
        .create_player("Bob".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    store.create(new_match("m1", &ann, true)).await.unwrap();
    assert!(matches!(
        store.create(new_match("m1", &ann, true)).await,
        Err(StoreError::Conflict(_))
    ));
    store.take_seat("m1", 1, "bb".into(), bob.id).await.unwrap();
    assert!(matches!(
        store.take_seat("m1", 1, "cc".into(), ann.id).await,
        Err(StoreError::Conflict(_))
    ));
    store.open_seat("m1", 1, Some(7)).await.unwrap();
    // Concurrent appends (SQLite: in one transaction); the duplicate seq fails alone.
    let (a, b, c) = tokio::join!(
        store.append("m1", 0, vec![entry(0, "c2-c4")], None),
        store.append("m1", 0, vec![entry(0, "d2-d4")], None),
        store.append("m1", 1, vec![entry(1, "c5-c3")], None),
    );
    // (On PostgreSQL the two writers at seq 0 race: either may win, the other fails.)
    assert!(c.is_ok());
    let first = match (&a, &b) {
        (Ok(()), Err(StoreError::Conflict(_))) => "c2-c4",
        (Err(StoreError::Conflict(_)), Ok(())) => "d2-d4",
        _ => panic!("one of two appends at seq 0 must fail: {a:?} {b:?}"),
    };
    // An entry without a time is refused, and so is the whole write.
    let untimed = LogEntry::action(Actor::Chance, "r1", None);
    let err = store
        .append("m1", 2, vec![entry(2, "e2-e4"), untimed], None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Invalid(m) if m == "log entry 3 of m1 has no time"),
        "{err}"
    );
    let ending = LogEntry::end(Ending::Resign(Seat(0)), Some(30));
    let outcome = Outcome::single_winner(2, Seat(1), "resign");
    let finish = Finish {
        outcome: outcome.clone(),
        at: 99,
        unrated: None,
    };
    store
        .append("m1", 2, vec![ending.clone()], Some(finish))
        .await
        .unwrap();
    store.close().await;

    let store = db.open().await;
    let m = store.get("m1", true).await.unwrap().unwrap();
    assert_eq!(m.status, Status::Finished);
    assert_eq!(m.started_at, Some(7));
    assert_eq!(m.ended_at, Some(99));
    assert_eq!(m.outcome, Some(outcome));
    assert_eq!(m.version, 3);
    assert_eq!(m.log, vec![entry(0, first), entry(1, "c5-c3"), ending]);
    assert_eq!(m.seats[1].token_hash.as_deref(), Some("bb"));
    assert_eq!(m.seats[1].player.as_ref(), Some(&bob));
    assert!(m.seats[1].opened);
    assert_eq!(m.time_control, TimeControl::PerMove { seconds: 30 });
    // Read without its log: the same match, its seats and version included.
    let bare = StoredMatch {
        log: Vec::new(),
        chat: Vec::new(),
        ..m.clone()
    };
    assert_eq!(store.get("m1", false).await.unwrap(), Some(bare));
    assert!(store.running_with_clock().await.unwrap().is_empty());
    assert_eq!(
        store.list(vec![Status::Finished], 10).await.unwrap().len(),
        1
    );
    assert!(store.get("nope", false).await.unwrap().is_none());
    // The rated result moved both ratings in the same transaction, one event each.
    let winner = store.standings(bob.id).await.unwrap();
    assert_eq!(winner.len(), 1);
    assert_eq!((winner[0].1.games, winner[0].1.wins), (1, 1));
    assert!(winner[0].1.rating.mu > 25.0);
    let loser = store.rating_events(ann.id).await.unwrap();
    assert_eq!(loser.len(), 1);
    assert!(loser[0].after.mu < loser[0].before.mu);
    // The match's own changes, one per player (the final state's `ratings`).
    let changes = store.match_rating_events("m1".into()).await.unwrap();
    assert_eq!(
        changes.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [ann.id, bob.id]
    );
    assert_eq!(changes[0].1, loser[0]);
    assert_eq!(
        store
            .player_matches(ann.id, vec![Status::Finished], 10)
            .await
            .unwrap()
            .len(),
        1
    );
    // One rated game each: provisional, so not on the leaderboard.
    let board = store.leaderboard("mad".into(), 10).await.unwrap();
    assert!(board.is_empty(), "{board:?}");
    store.close().await;
}

async fn names_are_unique_without_regard_to_case_and_sessions_name_players(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    assert!(matches!(
        store
            .create_player("aNN".into(), PlayerKind::Guest, None)
            .await,
        Err(StoreError::Conflict(_))
    ));
    store.create_session("h1".into(), ann.id).await.unwrap();
    assert_eq!(store.session("h1".into()).await.unwrap(), Some(ann.clone()));
    let account = store
        .update_player(ann.id, Some("Annie".into()), Some("$argon2id$x".into()))
        .await
        .unwrap();
    assert_eq!(
        (account.name.as_str(), account.kind),
        ("Annie", PlayerKind::Account)
    );
    let (found, hash) = store.player_by_name("ANNIE".into()).await.unwrap().unwrap();
    assert_eq!((found.id, hash.as_deref()), (ann.id, Some("$argon2id$x")));
    store.delete_session("h1".into()).await.unwrap();
    assert_eq!(store.session("h1".into()).await.unwrap(), None);
    let bot = store.bot_player("club".into()).await.unwrap();
    assert_eq!((bot.name.as_str(), bot.kind), ("club-bot", PlayerKind::Bot));
    assert_eq!(store.bot_player("club".into()).await.unwrap().id, bot.id);
    store.close().await;
}

/// A person's name is kept with its look-alike key (`players::similar_key`): another person
/// whose name looks like it is refused, made or renamed. Players made before the key was kept
/// get it at the next open, the older of two look-alikes first; the younger keeps its name
/// without a key.
async fn names_that_look_alike_are_one_name_and_older_players_get_their_key(db: &Backend) {
    let conflict = |r: Result<Player, StoreError>| matches!(r, Err(StoreError::Conflict(_)));
    let store = db.open().await;
    let alice = store
        .create_player("Alice".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    let made = store
        .create_player("AIice".into(), PlayerKind::Guest, None)
        .await;
    assert!(conflict(made), "a capital i for an l");
    let bob = store
        .create_player("Bob".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    assert!(conflict(
        store
            .update_player(bob.id, Some("A1ice".into()), None)
            .await
    ));
    assert_eq!(
        store.player_by_name("Bob".into()).await.unwrap().unwrap().0,
        bob
    );
    // A bot's name is not a person's: kept from look-alikes by the catalogue's names instead.
    store.bot_player("club".into()).await.unwrap();
    store.close().await;

    // As an older server left it: no keys, and a look-alike of Alice's made after her.
    db.exec(
        "UPDATE players SET similar_key = NULL; \
         INSERT INTO players (name, name_key, kind, created_at) VALUES ('AIice', 'aiice', 'guest', 9)",
    )
    .await;
    let store = db.open().await;
    let made = store
        .create_player("al-ice".into(), PlayerKind::Guest, None)
        .await;
    assert!(conflict(made), "Alice holds her key again");
    let (younger, _) = store.player_by_name("aiice".into()).await.unwrap().unwrap();
    assert_eq!(younger.name, "AIice", "the younger keeps its name");
    // The younger holds no key: once Alice is renamed, her old look-alikes are free.
    store
        .update_player(alice.id, Some("Alicia".into()), None)
        .await
        .unwrap();
    store
        .create_player("A1ice".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    assert!(conflict(
        store
            .create_player("AIicia".into(), PlayerKind::Guest, None)
            .await
    ));
    store.close().await;
}

/// One seeded game of random moves to its end; returns the outcome.
fn random_outcome(
    entry: &plateau_engine::GameEntry,
    config: &serde_json::Value,
    seats: usize,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Outcome {
    use plateau_engine::{Actor, ToAct};
    let mut state = entry.new_game(config, seats).unwrap();
    loop {
        let seat = match state.to_act() {
            ToAct::Terminal => return state.outcome().unwrap(),
            ToAct::Chance => {
                state.sample_chance(rng).unwrap();
                continue;
            }
            ToAct::Player(s) => s,
            ToAct::Simultaneous(set) => set.iter().next().unwrap(),
        };
        let action = state.random_action(seat, rng).unwrap();
        state.apply_text(Actor::Seat(seat), &action).unwrap();
    }
}

/// `games` (even) seeded random games of each registered game, at tables of 2 to 4 of ten players, go
/// through the store's finish (half rated, half casual). Weng-Lin's laws hold on every rated
/// one: the precision-weighted changes sum to zero, a sole winner gains, a sole last loses, no
/// uncertainty grows, and between players of equal ratings a better rank never gains less; a
/// casual game moves nothing.
async fn ratings_keep_their_laws_over_many_games_per_game(db: &Backend, games: u64) {
    use crate::ratings::{Kind, Rating, rate};
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let store = db.open().await;
    let mut pool = Vec::new();
    for i in 0..10 {
        pool.push(
            store
                .create_player(format!("p{i}"), PlayerKind::Guest, None)
                .await
                .unwrap(),
        );
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut rated_games = 0u64;
    for entry in plateau_registry::GAMES {
        let info = entry.info;
        // Bataille Navale's round limit keeps a thousand games short; its ranks stay real.
        let config = if info.name == "naval" {
            serde_json::json!({"max_rounds": 12})
        } else {
            serde_json::Value::Null
        };
        for i in 0..games {
            let seats = rng.random_range(info.min_seats..=info.max_seats);
            let outcome = random_outcome(entry, &config, seats, &mut rng);
            let players: Vec<Player> = pool.choose_multiple(&mut rng, seats).cloned().collect();
            let standing = |all: &[(String, Standing)]| {
                all.iter().find(|(g, _)| g == info.name).map(|(_, s)| *s)
            };
            let mut before = Vec::new();
            for p in &players {
                before.push(standing(&store.standings(p.id).await.unwrap()));
            }
            let rated = i % 2 == 0;
            let id = format!("{}{i:05}", &info.name[..3]);
            let mut m = new_match(&id, &players[0], rated);
            m.game = info.name.into();
            m.seats = players
                .iter()
                .map(|p| StoredSeat {
                    spec: SeatSpec::Human,
                    token_hash: None,
                    player: Some(p.clone()),
                    opened: true,
                })
                .collect();
            store.create(m).await.unwrap();
            let end = LogEntry::end(Ending::Agreement, Some(0));
            store
                .append(
                    &id,
                    0,
                    vec![end],
                    Some(Finish {
                        outcome: outcome.clone(),
                        // A day and more apart: no two players meet past the daily cap.
                        at: i as i64 * (24 * 3600 * 1000 + 1),
                        unrated: None,
                    }),
                )
                .await
                .unwrap();
            let mut after = Vec::new();
            for p in &players {
                after.push(standing(&store.standings(p.id).await.unwrap()));
            }
            if !rated {
                assert_eq!(before, after, "{id}: a casual game moved a rating");
                continue;
            }
            rated_games += 1;
            let prior: Vec<Rating> = before
                .iter()
                .map(|s| s.map_or_else(Rating::default, |s| s.rating))
                .collect();
            let post: Vec<Rating> = after.iter().map(|s| s.unwrap().rating).collect();
            let weighted: f64 = prior
                .iter()
                .zip(&post)
                .map(|(b, a)| (a.mu - b.mu) / (b.sigma * b.sigma))
                .sum();
            assert!(
                weighted.abs() < 1e-9,
                "{id}: weighted changes sum to {weighted}"
            );
            let ranks = &outcome.ranks;
            let best = *ranks.iter().min().unwrap();
            let worst = *ranks.iter().max().unwrap();
            for (s, (b, a)) in prior.iter().zip(&post).enumerate() {
                assert!(a.sigma <= b.sigma, "{id}: seat {s}'s uncertainty grew");
                let alone = |r: u8| ranks.iter().filter(|x| **x == r).count() == 1;
                if ranks[s] == best && alone(best) && best != worst {
                    assert!(a.mu > b.mu, "{id}: the sole winner did not gain");
                }
                if ranks[s] == worst && alone(worst) && best != worst {
                    assert!(a.mu < b.mu, "{id}: the sole last did not lose");
                }
                assert_eq!(
                    after[s].unwrap().games,
                    before[s].map_or(0, |x| x.games) + 1
                );
            }
            // Between equal ratings, order follows rank: checked on a table of newcomers.
            let fresh = vec![(Rating::default(), Kind::Person); seats];
            let moved = rate(&fresh, ranks);
            for x in 0..seats {
                for y in 0..seats {
                    if ranks[x] < ranks[y] {
                        assert!(moved[x].mu > moved[y].mu, "{id}: rank order");
                    } else if ranks[x] == ranks[y] {
                        assert!((moved[x].mu - moved[y].mu).abs() < 1e-12, "{id}: a tie");
                    }
                }
            }
        }
    }
    assert_eq!(
        rated_games,
        plateau_registry::GAMES.len() as u64 * games / 2
    );
    // Each game's leaderboard: the players past their provisional games, best first (the
    // provisional ones are left off: `the_log_is_append_only_and_survives_reopening`).
    for entry in plateau_registry::GAMES {
        let game = entry.info.name;
        let mut shown = Vec::new();
        for p in &pool {
            let all = store.standings(p.id).await.unwrap();
            if let Some((_, s)) = all.iter().find(|(g, _)| g == game)
                && s.games >= crate::ratings::PROVISIONAL_GAMES
            {
                shown.push((p.name.clone(), s.rating.mu));
            }
        }
        shown.sort_by(|a, b| b.1.total_cmp(&a.1));
        assert!(
            !shown.is_empty(),
            "{game}: nobody past the provisional games"
        );
        let board = store.leaderboard(game.into(), 100).await.unwrap();
        let on_board: Vec<&str> = board.iter().map(|(p, _)| p.name.as_str()).collect();
        let expected: Vec<&str> = shown.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(on_board, expected, "{game}");
    }
    store.close().await;
}

/// A document of each kind, once: a second one of the same kind is ignored.
async fn derived_documents_are_written_once(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    store.create(new_match("m1", &ann, false)).await.unwrap();
    let got = |kind| store.derived("m1".into(), kind);
    assert_eq!(got(Derived::Analysis).await.unwrap(), None);
    for body in ["{\"a\":1}", "{\"a\":2}"] {
        store
            .put_derived("m1".into(), Derived::Analysis, body.into())
            .await
            .unwrap();
    }
    store
        .put_derived("m1".into(), Derived::Replay, "{\"steps\":[]}".into())
        .await
        .unwrap();
    assert_eq!(
        got(Derived::Analysis).await.unwrap().as_deref(),
        Some("{\"a\":1}")
    );
    assert_eq!(
        got(Derived::Replay).await.unwrap().as_deref(),
        Some("{\"steps\":[]}")
    );
    store.close().await;
}

/// A URL that cannot be read, and a server that does not answer, are refused with a message
/// that says which, without the password.
#[tokio::test]
async fn postgres_urls_that_cannot_work_are_refused_clearly() {
    let err = |r: Result<postgres::PgStore, StoreError>| match r {
        Ok(_) => panic!("opened"),
        Err(e) => e.to_string(),
    };
    let bad = err(postgres::PgStore::open("postgres://ann:secret@host:notaport/db").await);
    assert!(bad.contains("bad PostgreSQL URL"), "{bad}");
    assert!(!bad.contains("secret"), "{bad}");
    // Port 1 on this machine: nothing listens there, so the connection is refused at once.
    let down = err(postgres::PgStore::open("postgres://ann:secret@127.0.0.1:1/db").await);
    assert!(down.contains("cannot connect to PostgreSQL at"), "{down}");
    assert!(down.contains("ann:***@127.0.0.1:1/db"), "{down}");
    assert!(!down.contains("secret"), "{down}");
}

/// A takeback deletes the log's last entries of a live match, at once; nothing of a finished
/// match, nor past the end of a log; and on a database several nodes share, only while the node
/// holds the match's lease.
async fn a_takeback_cuts_a_live_log_only(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    for id in ["m1", "m2"] {
        store.create(new_match(id, &ann, false)).await.unwrap();
        store.open_seat(id, 1, Some(7)).await.unwrap();
        let log = (0..3).map(|i| entry(i, "a1-a2")).collect();
        store.append(id, 0, log, None).await.unwrap();
    }
    store.take_back("m1", 1).await.unwrap();
    assert_eq!(
        store.get("m1", true).await.unwrap().unwrap().log,
        [entry(0, "a1-a2")]
    );
    assert!(matches!(
        store.take_back("m1", 1).await,
        Err(StoreError::Conflict(_))
    ));
    // The cut place is free again.
    store
        .append("m1", 1, vec![entry(1, "b1-b2")], None)
        .await
        .unwrap();
    let finish = Finish {
        outcome: Outcome::single_winner(2, Seat(0), "resign"),
        at: 9,
        unrated: None,
    };
    let end = LogEntry::end(Ending::Resign(Seat(1)), Some(40));
    store
        .append("m2", 3, vec![end], Some(finish))
        .await
        .unwrap();
    assert!(matches!(
        store.take_back("m2", 2).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.get("m2", true).await.unwrap().unwrap().log.len(), 4);
    if matches!(db, Backend::Postgres(_)) {
        // Node `a` drives m1 until `b` holds its lease: then its takeback writes nothing.
        let node = |name: &str| Node {
            name: name.into(),
            address: format!("{name}.example:8080"),
        };
        let long = std::time::Duration::from_secs(60);
        let (a, b) = (db.open().await, db.open().await);
        a.drive_as(&node("a"));
        assert_eq!(a.lease("m1", &node("a"), long).await.unwrap(), None);
        a.release(vec!["m1".into()], &node("a"), false)
            .await
            .unwrap();
        assert_eq!(b.lease("m1", &node("b"), long).await.unwrap(), None);
        assert!(matches!(
            a.take_back("m1", 1).await,
            Err(StoreError::LeaseLost(_))
        ));
        assert_eq!(store.get("m1", true).await.unwrap().unwrap().log.len(), 2);
        a.close().await;
        b.close().await;
    }
    store.close().await;
}

/// Leases (docs/architecture.md section 5.3): one holder per match; another node is told who
/// holds it; renewing keeps it, giving it up frees it at once, and one not renewed for its time
/// to live is an orphan any node may take (its own node's at once, another's after a grace).
/// Renewing never takes a lease again: not one another node took, nor one given up. Every
/// taking has a larger epoch, and a write at an older one is refused. Two stores on one
/// database stand for two nodes. A SQLite store is opened by one process only: every lease is
/// its own.
async fn a_lease_has_one_holder_until_it_expires_or_is_given_up(db: &Backend) {
    let (a, b) = (db.open().await, db.open().await);
    let node = |name: &str| Node {
        name: name.into(),
        address: format!("{name}.example:8080"),
    };
    let (na, nb) = (node("a"), node("b"));
    let long = std::time::Duration::from_secs(60);
    let none = std::time::Duration::ZERO;
    assert_eq!(a.lease("m1", &na, long).await.unwrap(), None);
    if matches!(db, Backend::Sqlite(_)) {
        assert_eq!(b.lease("m1", &nb, long).await.unwrap(), None);
        assert!(a.node_secret().is_none());
        assert_eq!(a.lease_deadline("m1"), None, "one process needs no lease");
        assert_eq!(a.heartbeat(&na, long).await.unwrap(), [na], "alone");
        return;
    }
    let epoch = |m: &str| {
        let url = match db {
            Backend::Postgres(url) => url.clone(),
            Backend::Sqlite(_) => unreachable!(),
        };
        let m = m.to_owned();
        async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let task = tokio::spawn(connection);
            let row = client
                .query_one("SELECT epoch FROM match_leases WHERE match_id = $1", &[&m])
                .await
                .unwrap();
            drop(client);
            let _ = task.await;
            row.get::<_, i64>(0)
        }
    };
    a.drive_as(&na);
    b.drive_as(&nb);
    assert_eq!(a.claim_node(&na, long).await.unwrap(), None);
    assert_eq!(b.claim_node(&nb, long).await.unwrap(), None);
    assert_eq!(b.lease("m1", &nb, long).await.unwrap(), Some(na.clone()));
    assert!(b.lease_deadline("m1").unwrap() <= tokio::time::Instant::now());
    assert!(a.lease_deadline("m1").unwrap() > tokio::time::Instant::now() + long / 2);
    assert_eq!(epoch("m1").await, 1);
    assert_eq!(b.lease("m2", &nb, long).await.unwrap(), None);
    assert_eq!(
        b.renew(vec!["m1".into(), "m2".into()], &nb, long)
            .await
            .unwrap(),
        vec!["m1".to_owned()],
        "b renews m2 and is told it does not hold m1"
    );
    assert_eq!(a.lease("m2", &na, long).await.unwrap(), Some(nb.clone()));
    // Given up to rest: nobody's orphan, free to take at once, at the next epoch.
    a.release(vec!["m1".into()], &na, false).await.unwrap();
    assert!(b.orphans(&nb, none, 10).await.unwrap().is_empty());
    assert!(a.lease_deadline("m1").unwrap() <= tokio::time::Instant::now());
    assert_eq!(
        a.renew(vec!["m1".into()], &na, long).await.unwrap(),
        vec!["m1".to_owned()],
        "a lease given up is not renewed"
    );
    assert_eq!(b.lease("m1", &nb, long).await.unwrap(), None);
    assert_eq!(epoch("m1").await, 2);
    // Giving up what another holds changes nothing.
    a.release(vec!["m1".into()], &na, true).await.unwrap();
    assert_eq!(a.lease("m1", &na, long).await.unwrap(), Some(nb.clone()));
    assert!(a.orphans(&na, none, 10).await.unwrap().is_empty());
    // Leases handed over are orphans at once, even with a grace: several at once, given in
    // any order (they are locked in the order of their ids).
    b.release(vec!["m2".into(), "m1".into()], &nb, true)
        .await
        .unwrap();
    let mut orphans = a.orphans(&na, long, 10).await.unwrap();
    orphans.sort();
    assert_eq!(orphans, vec!["m1".to_owned(), "m2".to_owned()]);
    assert_eq!(a.lease("m1", &na, long).await.unwrap(), None);
    assert_eq!(a.lease("m2", &na, long).await.unwrap(), None);
    assert_eq!((epoch("m1").await, epoch("m2").await), (3, 2));
    // b stops renewing m3 (it "stalls"): once its lease expires, m3 is b's orphan at once and
    // a's only after the grace; a takes it, and b's renewal, coming back, does not take it again.
    let short = std::time::Duration::from_millis(100);
    assert_eq!(b.lease("m3", &nb, short).await.unwrap(), None);
    assert_eq!(a.lease("m3", &na, long).await.unwrap(), Some(nb.clone()));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(b.lease_deadline("m3").unwrap() <= tokio::time::Instant::now());
    assert_eq!(
        b.orphans(&nb, long, 10).await.unwrap(),
        vec!["m3".to_owned()]
    );
    assert!(a.orphans(&na, long, 10).await.unwrap().is_empty());
    assert_eq!(
        a.orphans(&na, none, 10).await.unwrap(),
        vec!["m3".to_owned()]
    );
    assert_eq!(a.lease("m3", &na, long).await.unwrap(), None);
    assert!(a.orphans(&na, none, 10).await.unwrap().is_empty());
    assert_eq!(epoch("m3").await, 2);
    // b's writes at its old epoch are refused by the database.
    assert!(matches!(
        b.take_back("m3", 0).await,
        Err(StoreError::LeaseLost(_))
    ));
    assert_eq!(
        b.renew(vec!["m3".into()], &nb, long).await.unwrap(),
        vec!["m3".to_owned()]
    );
    assert_eq!(epoch("m3").await, 2);
    // A second process named `b` is refused while b beats; once b's heartbeat is older than
    // the time to live, it may claim the name, and b's next renewal learns it lost everything.
    let b2 = db.open().await;
    let elsewhere = Node {
        name: "b".into(),
        address: "b2.example:8080".into(),
    };
    assert_eq!(
        b2.claim_node(&elsewhere, long).await.unwrap().as_deref(),
        Some("b.example:8080")
    );
    assert_eq!(
        b.renew(vec![], &nb, long).await.unwrap(),
        Vec::<String>::new()
    );
    // b's heartbeat names the live nodes: a (it claimed its name above) and b.
    let live: Vec<String> = b
        .heartbeat(&nb, long)
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.name)
        .collect();
    assert_eq!(live, ["a", "b"]);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(b2.claim_node(&elsewhere, short).await.unwrap(), None);
    // A renewal only reads the name, and still learns it is gone; so does the heartbeat.
    assert!(matches!(
        b.renew(vec!["m2".into()], &nb, long).await,
        Err(StoreError::LeaseLost(_))
    ));
    assert!(matches!(
        b.heartbeat(&nb, long).await,
        Err(StoreError::LeaseLost(_))
    ));
    assert_eq!(a.claim_node(&node("c"), long).await.unwrap(), None);
    b2.close().await;
    // Both nodes read the same secret, made once.
    let secret = a.node_secret().unwrap();
    assert_eq!(secret.len(), 64);
    assert_eq!(b.node_secret(), Some(secret));
    a.close().await;
    b.close().await;
}

/// Appends to many matches at once, which each store commits together (SQLite's writer thread,
/// PostgreSQL's appends' writer): each succeeds or fails on its own. One at a taken position
/// writes none of its entries, one whose match another node took over (PostgreSQL) is refused,
/// and so is one to a match that does not exist (alone or among others; its node holds a lease
/// on the id, which the store does not check); every other is written whole, the one at the
/// position the refused one also wanted among them.
async fn appends_at_once_succeed_or_fail_each_on_its_own(db: &Backend) {
    let (store, other) = (db.open().await, db.open().await);
    let node = |name: &str| Node {
        name: name.into(),
        address: format!("{name}.example:8080"),
    };
    let (long, none) = (
        std::time::Duration::from_secs(60),
        std::time::Duration::ZERO,
    );
    let several = store.node_secret().is_some();
    store.drive_as(&node("a"));
    other.drive_as(&node("b"));
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    let ids: Vec<String> = (0..20).map(|i| format!("g{i:02}")).collect();
    for id in &ids {
        store.create(new_match(id, &ann, false)).await.unwrap();
        // This node's lease on g01 expires at once, and the other node takes it.
        let ttl = if id == "g01" { none } else { long };
        assert_eq!(store.lease(id, &node("a"), ttl).await.unwrap(), None);
    }
    assert_eq!(other.lease("g01", &node("b"), long).await.unwrap(), None);
    assert_eq!(store.lease("nope", &node("a"), long).await.unwrap(), None);
    let alone = store.append("nope", 0, vec![entry(0, "a")], None).await;
    assert!(matches!(alone, Err(StoreError::Conflict(_))), "{alone:?}");
    // A log with a gap (the store does not look for one): an append whose first position is
    // free and whose second is taken.
    store.create(new_match("gap", &ann, false)).await.unwrap();
    assert_eq!(store.lease("gap", &node("a"), long).await.unwrap(), None);
    store
        .append("gap", 1, vec![entry(1, "b")], None)
        .await
        .unwrap();
    store
        .append("g00", 0, vec![entry(0, "a"), entry(1, "b")], None)
        .await
        .unwrap();
    let mut calls = vec![
        store.append("g00", 1, vec![entry(1, "x"), entry(2, "y")], None),
        store.append("g00", 2, vec![entry(2, "c")], None),
        store.append("g01", 0, vec![entry(0, "a"), entry(1, "b")], None),
    ];
    for id in &ids[2..] {
        calls.push(store.append(id, 0, vec![entry(0, "a"), entry(1, "b")], None));
    }
    calls.push(store.append("gap", 0, vec![entry(0, "a"), entry(1, "x")], None));
    calls.push(store.append("nope", 0, vec![entry(0, "a"), entry(1, "b")], None));
    let mut results = futures_util::future::join_all(calls).await;
    let unknown = results.pop().unwrap();
    assert!(
        matches!(unknown, Err(StoreError::Conflict(_))),
        "{unknown:?}"
    );
    assert!(store.get("nope", true).await.unwrap().is_none());
    let gap = results.pop().unwrap();
    assert!(matches!(gap, Err(StoreError::Conflict(_))), "{gap:?}");
    assert_eq!(
        db.count("SELECT COUNT(*) FROM actions WHERE match_id = 'gap'")
            .await,
        1
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM actions WHERE match_id = 'nope'")
            .await,
        0
    );
    assert!(
        matches!(results[0], Err(StoreError::Conflict(_))),
        "{:?}",
        results[0]
    );
    assert!(results[1].is_ok(), "{:?}", results[1]);
    if several {
        assert!(
            matches!(results[2], Err(StoreError::LeaseLost(_))),
            "{:?}",
            results[2]
        );
    } else {
        assert!(results[2].is_ok(), "{:?}", results[2]);
    }
    assert!(results[3..].iter().all(Result::is_ok), "{results:?}");
    // Opening a seat is fenced too: refused where the lease was lost (nothing written), made
    // where it is held, the match then live.
    let opened = store.open_seat("g01", 1, Some(7)).await;
    assert_eq!(
        matches!(opened, Err(StoreError::LeaseLost(_))),
        several,
        "{opened:?}"
    );
    store.open_seat("g02", 1, Some(7)).await.unwrap();
    let (g01, g02) = (
        store.get("g01", false).await.unwrap().unwrap(),
        store.get("g02", false).await.unwrap().unwrap(),
    );
    assert_eq!(
        (g01.seats[1].opened, g01.status, g01.started_at),
        if several {
            (false, Status::Open, None)
        } else {
            (true, Status::Live, Some(7))
        }
    );
    assert_eq!(
        (g02.seats[1].opened, g02.status, g02.started_at),
        (true, Status::Live, Some(7))
    );
    let log = |id: &'static str| {
        let store = store.clone();
        async move {
            let m = store.get(id, true).await.unwrap().unwrap();
            m.log
                .iter()
                .map(|e| match &e.event {
                    plateau_engine::Event::Action { action, .. } => action.clone(),
                    plateau_engine::Event::End(_) => "end".to_owned(),
                })
                .collect::<Vec<_>>()
        }
    };
    let g00 = log("g00").await;
    assert_eq!(g00, ["a", "b", "c"]);
    assert_eq!(log("g01").await.len(), if several { 0 } else { 2 });
    for id in &ids[2..] {
        let m = store.get(id, true).await.unwrap().unwrap();
        assert_eq!(m.version, 2, "{id}");
    }
    store.close().await;
    other.close().await;
}

/// Calling a match off and expiring open matches delete only open matches without a log, with
/// their seats; a match that has a log stays whole.
async fn only_open_matches_without_a_log_are_deleted(db: &Backend) {
    let store = db.open().await;
    let node = Node {
        name: "a".into(),
        address: "a.example:8080".into(),
    };
    store.drive_as(&node);
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    let long = std::time::Duration::from_secs(60);
    for id in ["e0", "e1", "e2", "e3"] {
        store.create(new_match(id, &ann, false)).await.unwrap();
        assert_eq!(store.lease(id, &node, long).await.unwrap(), None);
    }
    // e1 has a log while still open, e3 started.
    store
        .append("e1", 0, vec![entry(0, "a")], None)
        .await
        .unwrap();
    store.open_seat("e3", 1, Some(5)).await.unwrap();
    assert!(!store.call_off("e1".into()).await.unwrap());
    assert!(!store.call_off("e3".into()).await.unwrap());
    assert!(store.call_off("e0".into()).await.unwrap());
    assert!(!store.call_off("e0".into()).await.unwrap(), "gone already");
    // Its driver's lease, still held here, writes nothing to the match gone (on PostgreSQL the
    // deletion gave the lease up to rest).
    let late = store.append("e0", 0, vec![entry(0, "a")], None).await;
    assert!(
        matches!(
            late,
            Err(StoreError::Conflict(_) | StoreError::LeaseLost(_))
        ),
        "{late:?}"
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM actions WHERE match_id = 'e0'")
            .await,
        0
    );
    assert_eq!(store.expire_open(2).await.unwrap(), ["e2"]);
    assert!(store.get("e0", false).await.unwrap().is_none());
    assert!(store.get("e2", false).await.unwrap().is_none());
    assert_eq!(store.get("e1", true).await.unwrap().unwrap().log.len(), 1);
    assert_eq!(
        store.get("e3", false).await.unwrap().unwrap().status,
        Status::Live
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM match_seats WHERE match_id IN ('e0', 'e2')")
            .await,
        0
    );
    store.close().await;
}
