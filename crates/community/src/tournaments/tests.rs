//! The order of a follow's first read and the changes made meanwhile (`feed`, `follow`): driven
//! step by step, with no task of the service running and no clock, so each interleaving is the
//! one the test names.

use std::convert::Infallible;
use std::path::Path;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::FutureExt;
use plateau_lobby::Lobby;
use plateau_lobby::players::{Player, PlayerKind};
use plateau_match::catalogue::Catalogue;
use plateau_store::sqlite::SqliteStore;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::feed::{Feed, Followed, Latest};
use super::state::Tournaments;

/// Tournaments over a lobby on an in-memory database, without their tasks (the runner, the
/// feed's refresh): the test runs the refresh itself when the feed is woken, and no poll runs.
async fn tournaments() -> Tournaments {
    let store = Arc::new(SqliteStore::open(Path::new(":memory:")).unwrap());
    let lobby = Lobby::start(
        store,
        Catalogue::standard(),
        plateau_lobby::Options::default(),
    )
    .await
    .unwrap();
    Tournaments {
        lobby,
        feed: Arc::default(),
    }
}

async fn player(t: &Tournaments, name: &str, kind: PlayerKind) -> Player {
    t.lobby
        .store()
        .create_player(name.to_owned(), kind, None)
        .await
        .unwrap()
}

/// The message `latest` holds, as JSON.
fn shown(latest: &Latest) -> Value {
    serde_json::from_str(latest.borrow().as_deref().expect("a message")).unwrap()
}

/// The version in the message `latest` holds (the list's, in the test of the order of reads).
fn version(latest: &Latest) -> u64 {
    shown(latest)["version"].as_u64().unwrap()
}

/// A player joins a tournament after a socket's first read of it and before that read is
/// published: the follower is sent the read (no player yet), and the join, made on this node,
/// wakes the node's refresh, which sends the player at once, without waiting for the poll of
/// the versions (`POLL_EVERY`).
#[tokio::test]
async fn a_change_made_during_a_first_read_is_sent_at_once() {
    let t = tournaments().await;
    let organiser = player(&t, "Organiser", PlayerKind::Account).await;
    let ann = player(&t, "Ann", PlayerKind::Guest).await;
    let arena = serde_json::from_value(json!({
        "name": "Followed arena",
        "game": "mad",
        "time_control": {"kind": "none"},
        "starts_in_seconds": 600,
        "minutes": 10,
    }))
    .unwrap();
    let id = t.create(&organiser, arena).await.unwrap().tournament.id;
    let what = Followed::One(id.clone());

    // The follow's own read, with Ann's join between its reading and the rest of the follow.
    let read = async {
        let read = t.message(&what, None).await;
        t.join(&ann, &id).await.unwrap();
        read
    };
    let latest = t.feed.follow(&what, read).await.unwrap();
    assert_eq!(shown(&latest)["tournament"]["players"], 0);

    // The join woke the refresh (the task runs it at once; here the test does).
    assert!(
        t.feed.woken().now_or_never().is_some(),
        "the join did not wake the refresh of what is followed"
    );
    t.refresh(false).await;
    let now = shown(&latest);
    assert_eq!(now["tournament"]["players"], 1, "{now}");
    assert_eq!(now["standings"][0]["name"], "Ann", "{now}");
}

/// Two sockets follow the list, the second while the first's read is in flight and would read
/// a newer list: the message the second is sent never goes back to the first's older read (and
/// the second waits for the first's read instead of reading again: one read for both).
#[tokio::test]
async fn an_older_read_is_never_published_over_a_newer_one() {
    let feed = Feed::default();
    let reads = &AtomicUsize::new(0);
    // A read of the list: the list's version is the number of reads started until it (a later
    // read sees a later list); it ends once `done` says so.
    let read = |done: oneshot::Receiver<()>| async move {
        let version = reads.fetch_add(1, Ordering::SeqCst) + 1;
        done.await.unwrap();
        let seen = (i64::try_from(version).unwrap(), false);
        Ok::<_, Infallible>((seen, json!({"version": version}).to_string()))
    };
    let (first_done, first_wait) = oneshot::channel();
    let (second_done, second_wait) = oneshot::channel();
    let mut first = pin!(feed.follow(&Followed::List, read(first_wait)));
    assert!(
        first.as_mut().now_or_never().is_none(),
        "the first read waits"
    );
    // The second's read would end at once; the first's only after.
    second_done.send(()).unwrap();
    let mut second = pin!(feed.follow(&Followed::List, read(second_wait)));
    let early = second.as_mut().now_or_never().map(Result::unwrap);
    // The version the second socket is answered with, when it is answered.
    let answered = early.as_ref().map(version);
    first_done.send(()).unwrap();
    let first = first.await.unwrap();
    let second = match early {
        Some(latest) => latest,
        None => second.await.unwrap(),
    };
    let answered = answered.unwrap_or_else(|| version(&second));
    assert!(
        version(&second) >= answered,
        "the second socket was answered with version {answered}, then shown version {}",
        version(&second)
    );
    assert_eq!(shown(&first), shown(&second));
    assert_eq!(
        reads.load(Ordering::SeqCst),
        1,
        "the second socket read again"
    );
}
