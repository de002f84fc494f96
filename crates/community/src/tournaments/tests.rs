//! The followed tournaments (`feed`, `follow`): the order of a follow's first read and the
//! changes made meanwhile, the writes that tell the feed, and what follows that fail leave.
//! Driven step by step, with no task of the service running and no clock, so each interleaving
//! is the one the test names.

use std::convert::Infallible;
use std::path::Path;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::FutureExt;
use plateau_lobby::Lobby;
use plateau_lobby::model::Code;
use plateau_lobby::players::{Player, PlayerKind};
use plateau_match::catalogue::Catalogue;
use plateau_store::sqlite::SqliteStore;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::feed::{Feed, Followed, Latest, Seen};
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

/// A new arena of `creator`'s, starting in ten minutes: its id.
async fn arena(t: &Tournaments, creator: &Player, name: &str) -> String {
    let arena = serde_json::from_value(json!({
        "name": name,
        "game": "mad",
        "time_control": {"kind": "none"},
        "starts_in_seconds": 600,
        "minutes": 10,
    }))
    .unwrap();
    t.create(creator, arena).await.unwrap().tournament.id
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
    let id = arena(&t, &organiser, "Followed arena").await;
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

/// A deleted player's new name (`forget_member`) in a waiting tournament it left, and in the
/// one it made without joining, is sent to the followers of this node at once (the refresh
/// woken, no poll), and reaches another node's at its poll of the versions: the creator's new
/// name, written in the settings, is a new version too.
#[tokio::test]
async fn a_deleted_players_new_name_is_sent_at_once() {
    let t = tournaments().await;
    // Another node on the same database, with followers of its own.
    let other = Tournaments {
        lobby: Arc::clone(&t.lobby),
        feed: Arc::default(),
    };
    let organiser = player(&t, "Organiser", PlayerKind::Account).await;
    let ann = player(&t, "Ann", PlayerKind::Guest).await;
    let id = arena(&t, &organiser, "Renamed arena").await;
    t.join(&ann, &id).await.unwrap();
    t.withdraw(&ann, &id).await.unwrap();
    let one = t.follow(Followed::One(id.clone())).await.unwrap();
    let list = t.follow(Followed::List).await.unwrap();
    let there = other.follow(Followed::One(id.clone())).await.unwrap();
    assert_eq!(shown(&one)["standings"][0]["name"], "Ann");

    t.forget_member(ann.id, "Deleted 1").await.unwrap();
    assert!(
        t.feed.woken().now_or_never().is_some(),
        "the new name did not wake the refresh"
    );
    t.refresh(false).await;
    assert_eq!(shown(&one)["standings"][0]["name"], "Deleted 1");
    other.refresh(true).await;
    assert_eq!(shown(&there)["standings"][0]["name"], "Deleted 1");

    t.forget_member(organiser.id, "Deleted 2").await.unwrap();
    assert!(t.feed.woken().now_or_never().is_some());
    t.refresh(false).await;
    assert_eq!(shown(&one)["tournament"]["creator"], "Deleted 2");
    let listed = shown(&list);
    assert_eq!(listed["live"][0]["id"], id.as_str(), "{listed}");
    assert_eq!(listed["live"][0]["creator"], "Deleted 2", "{listed}");
    other.refresh(true).await;
    assert_eq!(shown(&there)["tournament"]["creator"], "Deleted 2");
}

/// In a finished tournament (which the poll of the live versions never reads again) a
/// deleted player's new name is sent to this node's followers, of it and of the list, even
/// when the refresh that runs next is the poll's rather than the wake's.
#[tokio::test]
async fn a_new_name_in_a_finished_tournament_is_sent_by_the_poll_too() {
    let t = tournaments().await;
    let organiser = player(&t, "Organiser", PlayerKind::Account).await;
    let ann = player(&t, "Ann", PlayerKind::Guest).await;
    let id = arena(&t, &organiser, "Finished arena").await;
    t.join(&ann, &id).await.unwrap();
    let mut over = t.read(&id).await.unwrap();
    over.finished = true;
    assert!(over.save(&t.lobby).await.unwrap());
    let one = t.follow(Followed::One(id.clone())).await.unwrap();
    let list = t.follow(Followed::List).await.unwrap();
    assert_eq!(shown(&list)["finished"][0]["creator"], "Organiser");
    t.refresh(true).await;

    t.forget_member(ann.id, "Deleted 1").await.unwrap();
    t.forget_member(organiser.id, "Deleted 2").await.unwrap();
    t.refresh(true).await;
    let now = shown(&one);
    assert_eq!(now["tournament"]["phase"], "finished", "{now}");
    assert_eq!(now["tournament"]["creator"], "Deleted 2", "{now}");
    assert_eq!(now["standings"][0]["name"], "Deleted 1", "{now}");
    let listed = shown(&list);
    assert_eq!(listed["finished"][0]["id"], id.as_str(), "{listed}");
    assert_eq!(listed["finished"][0]["creator"], "Deleted 2", "{listed}");
}

/// Follows refused (unknown ids, a thousand of them), failed (the store's error) or dropped
/// during their read leave the feed as it was at once; a follower gone after its answer is
/// forgotten at the next refresh; what a socket still follows is kept and sent throughout. And
/// a refresh that was to read an unknown id whose follow was in flight does not read it once
/// that follow was refused.
#[tokio::test]
async fn follows_refused_failed_or_dropped_leave_the_feed_as_it_was() {
    let t = tournaments().await;
    let organiser = player(&t, "Organiser", PlayerKind::Account).await;
    let ann = player(&t, "Ann", PlayerKind::Guest).await;
    let kept_id = arena(&t, &organiser, "Kept").await;
    let left_id = arena(&t, &organiser, "Left").await;
    let kept = t.follow(Followed::One(kept_id.clone())).await.unwrap();
    let _list = t.follow(Followed::List).await.unwrap();
    let size = t.feed.len();
    assert_eq!(size, 2);

    for n in 0..1000 {
        let refused = t
            .follow(Followed::One(format!("nowhere{n}")))
            .await
            .unwrap_err();
        assert_eq!(refused.code, Code::TournamentNotFound);
    }
    assert_eq!(t.feed.len(), size, "refused follows were kept");

    let left = Followed::One(left_id.clone());
    let failed = t
        .feed
        .follow(&left, async { Err::<(Seen, String), _>("store down") })
        .await;
    assert_eq!(failed.err(), Some("store down"));
    assert_eq!(t.feed.len(), size, "a failed follow was kept");

    let never = std::future::pending::<Result<(Seen, String), Infallible>>();
    let mut dropped = Box::pin(t.feed.follow(&left, never));
    assert!(dropped.as_mut().now_or_never().is_none());
    assert_eq!(t.feed.len(), size + 1);
    drop(dropped);
    assert_eq!(
        t.feed.len(),
        size,
        "a follow dropped during its read was kept"
    );

    // A second follower of what is kept comes and goes; a follower of another goes at once.
    drop(t.follow(Followed::One(kept_id.clone())).await.unwrap());
    drop(t.follow(left.clone()).await.unwrap());
    assert_eq!(t.feed.len(), size + 1);
    t.refresh(false).await;
    assert_eq!(t.feed.len(), size, "a thing nobody follows was kept");
    t.join(&ann, &kept_id).await.unwrap();
    t.refresh(false).await;
    assert_eq!(shown(&kept)["tournament"]["players"], 1);

    // The refresh waits for the follow's read, which is refused: it reads nothing.
    let nowhere = Followed::One("nowhere".to_owned());
    let (refuse, refused) = oneshot::channel::<()>();
    let mut follow = Box::pin(t.feed.follow(&nowhere, async {
        refused.await.unwrap();
        Err::<(Seen, String), _>("not found")
    }));
    assert!(follow.as_mut().now_or_never().is_none());
    let reads = AtomicUsize::new(0);
    let mut reread = Box::pin(t.feed.reread(&nowhere, async {
        reads.fetch_add(1, Ordering::SeqCst);
        Err::<(Seen, String), _>("not found")
    }));
    assert!(
        reread.as_mut().now_or_never().is_none(),
        "the refresh waits"
    );
    refuse.send(()).unwrap();
    assert_eq!(follow.await.err(), Some("not found"));
    assert_eq!(reread.await, Ok(()));
    assert_eq!(reads.load(Ordering::SeqCst), 0, "the refresh read it");
    assert_eq!(t.feed.len(), size);
}
