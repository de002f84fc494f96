//! A player's data and the deletion of its account (docs/protocol.md section 7.10), on each
//! backend.

use super::{Backend, entry, new_match};
use crate::model::Status;
use crate::players::{PlayerKind, Relation};
use crate::{ChatLine, Finish, Room, StoreError};
use plateau_engine::{Ending, LogEntry, Outcome, Seat};

/// The chat lines and sessions a player has are read back; a deletion renames it (the old
/// name free, no password), deletes its sessions, ratings, rating changes, relations and chat,
/// and keeps the matches it played, their logs and the opponent's rating.
pub(super) async fn a_deleted_player_keeps_its_games_under_a_neutral_name(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Account, Some("hash".into()))
        .await
        .unwrap();
    let bob = store
        .create_player("Bob".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    store.create(new_match("m1", &ann, true)).await.unwrap();
    store.take_seat("m1", 1, "bb".into(), bob.id).await.unwrap();
    store.open_seat("m1", 1, Some(7)).await.unwrap();
    store
        .append("m1", 0, vec![entry(0, "c2-c4")], None)
        .await
        .unwrap();
    let said = |seq: u64, player: &crate::players::Player, text: &str| ChatLine {
        seq,
        room: Room::Players,
        player: player.clone(),
        seat: Some(u8::from(seq == 1)),
        text: text.into(),
        at: 10 + seq as i64,
    };
    store
        .add_chat("m1", said(0, &ann, "good luck"))
        .await
        .unwrap();
    store.add_chat("m1", said(1, &bob, "thanks")).await.unwrap();
    let finish = Finish {
        outcome: Outcome::single_winner(2, Seat(1), "resign"),
        at: 99,
        unrated: None,
    };
    store
        .append(
            "m1",
            1,
            vec![LogEntry::end(Ending::Resign(Seat(0)), Some(30))],
            Some(finish),
        )
        .await
        .unwrap();
    store.create_session("s1".into(), ann.id).await.unwrap();
    store
        .set_relation(ann.id, bob.id, Relation::Follow, true)
        .await
        .unwrap();
    store
        .set_relation(bob.id, ann.id, Relation::Block, true)
        .await
        .unwrap();

    let chat = store.player_chat(ann.id).await.unwrap();
    assert_eq!(chat, [("m1".to_owned(), said(0, &ann, "good luck"))]);
    let sessions = store.player_sessions(ann.id).await.unwrap();
    assert_eq!(sessions.len(), 1);
    assert!(sessions[0].1 >= sessions[0].0);
    assert_eq!(store.standings(ann.id).await.unwrap().len(), 1);
    let bob_before = store.standings(bob.id).await.unwrap();

    // While a match of Ann's is not finished: refused, nothing changes.
    let mut open = new_match("m2", &ann, false);
    open.seats[1].player = Some(bob.clone());
    store.create(open).await.unwrap();
    let playing = store.delete_player(ann.id, "deleted player 1".into()).await;
    assert!(matches!(playing, Err(StoreError::Playing)), "{playing:?}");
    assert_eq!(store.player_chat(ann.id).await.unwrap().len(), 1);
    assert!(store.call_off("m2".into()).await.unwrap());
    // Another player has the neutral name: nothing changes.
    let taken = store.delete_player(ann.id, "Bob".into()).await;
    assert!(matches!(taken, Err(StoreError::Conflict(_))), "{taken:?}");
    assert_eq!(store.player_chat(ann.id).await.unwrap().len(), 1);

    let gone = store
        .delete_player(ann.id, "deleted player 1".into())
        .await
        .unwrap();
    assert_eq!((gone.id, gone.name.as_str()), (ann.id, "deleted player 1"));
    assert!(store.player_by_name("Ann".into()).await.unwrap().is_none());
    let (renamed, password) = store
        .player_by_name("deleted player 1".into())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((renamed.id, password), (ann.id, None));
    assert!(store.session("s1".into()).await.unwrap().is_none());
    assert!(store.player_sessions(ann.id).await.unwrap().is_empty());
    assert!(store.standings(ann.id).await.unwrap().is_empty());
    assert!(store.rating_events(ann.id).await.unwrap().is_empty());
    assert!(store.relations(ann.id).await.unwrap().is_empty());
    assert!(store.relations(bob.id).await.unwrap().is_empty());
    assert!(store.player_chat(ann.id).await.unwrap().is_empty());
    // The match stays whole, its seat named anew; the opponent keeps its words and rating.
    let m = store.get("m1", true).await.unwrap().unwrap();
    assert_eq!(m.status, Status::Finished);
    assert_eq!(m.log.len(), 2);
    assert_eq!(
        m.seats[0].player.as_ref().map(|p| p.name.as_str()),
        Some("deleted player 1")
    );
    assert_eq!(
        m.chat.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        ["thanks"]
    );
    assert_eq!(store.standings(bob.id).await.unwrap(), bob_before);
    assert_eq!(
        store.match_rating_events("m1".into()).await.unwrap().len(),
        1
    );
    // The old name is free again.
    let again = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    assert_ne!(again.id, ann.id);
    store.close().await;
}
