//! A player's data and the deletion of its account (docs/protocol.md section 7.10), on each
//! backend.

use super::{Backend, entry, new_match};
use crate::model::Status;
use crate::moderation::{Action, AuditFrom, Moderation, NewReport, ReportReason, Role};
use crate::players::{PlayerKind, Relation};
use crate::{ChatLine, Finish, Room, StoreError};
use plateau_engine::{Ending, LogEntry, Outcome, Seat};

/// The chat lines and sessions a player has are read back; a deletion renames it (the old
/// name free, no password), deletes its sessions, ratings, rating changes, relations and chat,
/// and keeps the matches it played, their logs and the opponent's rating. Of moderation, it
/// drops the role, the mute and the open reports about it, keeps its ban, the reports it filed
/// and the audit log, which names it by the neutral name from then on.
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

    // Moderation: Ann is a moderator, filed a report, was reported twice (one handled),
    // warned, renamed, muted and banned (a ban that has ended).
    let shell = |target, action| Moderation {
        moderator: None,
        target,
        action,
        reason: "a reason".into(),
        at: 50,
    };
    let report = |reporter, reported, text: &str| NewReport {
        reporter,
        reported,
        reason: ReportReason::Abuse,
        text: text.into(),
        match_id: Some("m1".into()),
        chat_seq: Some(0),
        at: 40,
    };
    store
        .moderate(shell(Some(ann.id), Action::Grant))
        .await
        .unwrap();
    let filed = store
        .file_report(report(ann.id, bob.id, "Bob was rude"))
        .await
        .unwrap();
    let handled = store
        .file_report(report(bob.id, ann.id, "Ann was rude"))
        .await
        .unwrap();
    let pending = store
        .file_report(report(bob.id, ann.id, "Ann again"))
        .await
        .unwrap();
    let action = Action::Handle {
        report: handled,
        dismissed: false,
    };
    store.moderate(shell(None, action)).await.unwrap();
    store
        .moderate(shell(Some(ann.id), Action::Warn))
        .await
        .unwrap();
    let to = Action::Rename {
        to: "player-a1b2c3".into(),
    };
    store.moderate(shell(Some(ann.id), to)).await.unwrap();
    let to = Action::Rename { to: "Ann".into() };
    store.moderate(shell(Some(ann.id), to)).await.unwrap();
    let muted = Action::Mute {
        until: i64::MAX - 1,
    };
    store.moderate(shell(Some(ann.id), muted)).await.unwrap();
    let ban = Action::Ban { until: Some(60) };
    store.moderate(shell(Some(ann.id), ban)).await.unwrap();
    // Her record shows her warning and her own report, not those about her.
    let record = store.moderation_record(ann.id).await.unwrap();
    assert_eq!(record.standing.role, Some(Role::Moderator));
    assert_eq!(record.standing.banned_until, Some(60));
    assert_eq!(
        record
            .standing
            .warnings
            .iter()
            .map(|w| w.action.as_str())
            .collect::<Vec<_>>(),
        ["warn"]
    );
    let reports = record
        .reports
        .iter()
        .map(|r| (r.id, r.reported.as_str(), r.status.as_str()));
    assert_eq!(reports.collect::<Vec<_>>(), [(filed, "Bob", "open")]);
    let bob_record = store.moderation_record(bob.id).await.unwrap();
    let statuses = bob_record.reports.iter().map(|r| (r.id, r.status.as_str()));
    assert_eq!(
        statuses.collect::<Vec<_>>(),
        [(handled, "resolved"), (pending, "open")]
    );
    let audit_before = store.audit(AuditFrom::Latest, 100).await.unwrap();

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
    // Moderation: no role, no mute; the ban stays; the open report about her is gone, hers
    // stays in the queue under the neutral name; the audit log keeps every entry, naming her
    // by the neutral name (a rename's new name too).
    let standing = store.moderation_standing(ann.id).await.unwrap();
    assert_eq!(
        (standing.role, standing.muted_until, standing.banned_until),
        (None, None, Some(60))
    );
    let open = store.open_reports(10).await.unwrap();
    let queue = open
        .iter()
        .map(|r| (r.id, r.reporter.as_str(), r.reported.as_str()));
    assert_eq!(
        queue.collect::<Vec<_>>(),
        [(filed, "deleted player 1", "Bob")]
    );
    let record = store.moderation_record(ann.id).await.unwrap();
    assert_eq!(record.reports.len(), 1);
    let bob_record = store.moderation_record(bob.id).await.unwrap();
    let ids = bob_record.reports.iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(ids, [handled]);
    let audit = store.audit(AuditFrom::Latest, 100).await.unwrap();
    assert_eq!(audit.len(), audit_before.len());
    for (after, before) in audit.iter().zip(&audit_before) {
        assert_eq!((after.id, &after.action), (before.id, &before.action));
        if after.target.as_ref().is_some_and(|(id, _)| *id == ann.id) {
            assert_eq!(after.target, Some((ann.id, "deleted player 1".to_owned())));
            if after.action == "rename" {
                assert_eq!(after.detail.as_deref(), Some("deleted player 1"));
            }
        } else {
            assert_eq!(after, before);
        }
    }
    let renames = audit.iter().filter(|e| e.action == "rename").count();
    assert_eq!(renames, 2);
    // The old name is free again.
    let again = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    assert_ne!(again.id, ann.id);
    store.close().await;
}
