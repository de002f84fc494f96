//! The SQLite store's own tests: the log, players and sessions, and the rating laws over many
//! seeded games.

use super::*;
use crate::model::{SeatSpec, TimeControl};
use crate::store::StoredSeat;
use plateau_engine::{Actor, Ending, Event, LogEntry, Outcome, Seat, Seed};

fn temp_path() -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "plateau-store-{}.sqlite",
        hex::encode(rand::random::<[u8; 8]>())
    ))
}

fn new_match(id: &str, first: &Player, rated: bool) -> StoredMatch {
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
        creator: None,
        ended_at: None,
        version: 0,
        log: Vec::new(),
        chat: Vec::new(),
    }
}

/// Entry `seq` of a log: a seat's action, timed.
fn entry(seq: u64, text: &str) -> LogEntry {
    LogEntry::action(Actor::Seat(Seat((seq % 2) as u8)), text, Some(seq * 10))
}

#[tokio::test]
async fn the_log_is_append_only_and_survives_reopening() {
    let path = temp_path();
    let store = SqliteStore::open(&path).unwrap();
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
    // Concurrent appends share a transaction; the duplicate seq fails alone.
    let (a, b, c) = tokio::join!(
        store.append("m1", 0, vec![entry(0, "c2-c4")], None),
        store.append("m1", 0, vec![entry(0, "d2-d4")], None),
        store.append("m1", 1, vec![entry(1, "c5-c3")], None),
    );
    assert!(a.is_ok() && c.is_ok());
    assert!(matches!(b, Err(StoreError::Conflict(_))));
    // An entry without a time is refused, and so is the whole write.
    let untimed = LogEntry::action(Actor::Chance, "r1", None);
    let err = store
        .append("m1", 2, vec![entry(2, "e2-e4"), untimed], None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Corrupt(m) if m == "log entry 3 of m1 has no time"),
        "{err}"
    );
    let ending = LogEntry::end(Ending::Resign(Seat(0)), Some(30));
    let outcome = Outcome::single_winner(2, Seat(1), "resign");
    let finish = Finish {
        outcome: outcome.clone(),
        at: 99,
    };
    store
        .append("m1", 2, vec![ending.clone()], Some(finish))
        .await
        .unwrap();
    store.close().await;

    let store = SqliteStore::open(&path).unwrap();
    let m = store.get("m1", true).await.unwrap().unwrap();
    assert_eq!(m.status, Status::Finished);
    assert_eq!(m.started_at, Some(7));
    assert_eq!(m.ended_at, Some(99));
    assert_eq!(m.outcome, Some(outcome));
    assert_eq!(m.version, 3);
    assert_eq!(m.log, vec![entry(0, "c2-c4"), entry(1, "c5-c3"), ending]);
    assert_eq!(m.seats[1].token_hash.as_deref(), Some("bb"));
    assert_eq!(m.seats[1].player.as_ref(), Some(&bob));
    assert!(m.seats[1].opened);
    assert_eq!(m.time_control, TimeControl::PerMove { seconds: 30 });
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
    assert_eq!(
        store
            .player_matches(ann.id, vec![Status::Finished], 10)
            .await
            .unwrap()
            .len(),
        1
    );
    let board = store.leaderboard("mad".into(), 10).await.unwrap();
    assert_eq!(
        board
            .iter()
            .map(|(p, _)| p.name.as_str())
            .collect::<Vec<_>>(),
        ["Bob", "Ann"]
    );
    store.close().await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn names_are_unique_without_regard_to_case_and_sessions_name_players() {
    let path = temp_path();
    let store = SqliteStore::open(&path).unwrap();
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
    let _ = std::fs::remove_file(&path);
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

/// 1,000 seeded random games of each registered game, at tables of 2 to 4 of ten players, go
/// through the store's finish (half rated, half casual). Weng-Lin's laws hold on every rated
/// one: the precision-weighted changes sum to zero, a sole winner gains, a sole last loses, no
/// uncertainty grows, and between players of equal ratings a better rank never gains less; a
/// casual game moves nothing.
#[tokio::test]
async fn ratings_keep_their_laws_over_a_thousand_games_per_game() {
    use crate::ratings::{Kind, Rating, rate};
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let store = SqliteStore::open(std::path::Path::new(":memory:")).unwrap();
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
    let mut rated_games = 0;
    for entry in plateau_registry::GAMES {
        let info = entry.info;
        // Bataille Navale's round limit keeps a thousand games short; its ranks stay real.
        let config = if info.name == "naval" {
            serde_json::json!({"max_rounds": 12})
        } else {
            serde_json::Value::Null
        };
        for i in 0..1000 {
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
                        at: i,
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
    assert_eq!(rated_games, 2000);
    store.close().await;
}

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

/// A log written before its actor check was rewritten is kept whole, and the check still refuses
/// an actor that is none of the three.
#[tokio::test]
async fn the_log_keeps_its_entries_through_the_rewritten_actor_check() {
    let path = temp_path();
    let seed = Seed([7; 32]).to_hex();
    let control = to_json(&TimeControl::None);
    migrated_before(&path, "CREATE TABLE actions_checked")
        .execute_batch(&format!(
            "INSERT INTO matches (id, game, config, time_control, seed, seed_hash, status, created_at) \
             VALUES ('00000000000000ab', 'moonleap', 'null', '{control}', '{seed}', 'y', 'live', 1); \
             INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
             VALUES ('00000000000000ab', 0, 'seat', 0, 'roll', 5), \
                    ('00000000000000ab', 1, 'chance', NULL, '3', 6);"
        ))
        .unwrap();
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

/// A database written before the `derived` table keeps its replays: the migration moves them.
#[tokio::test]
async fn stored_replays_move_to_the_derived_documents() {
    let path = temp_path();
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
    let path = temp_path();
    let wal = path.with_extension("sqlite-wal");
    let store = SqliteStore::open(&path).unwrap();
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
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
    let _ = std::fs::remove_file(&path);
}
