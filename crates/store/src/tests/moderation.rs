//! Roles, reports, sanctions and the audit log (docs/protocol.md section 7.11), on each backend.

use super::{Backend, new_match};
use crate::StoreError;
use crate::moderation::{Action, AuditFrom, Moderation, NewReport, ReportReason, Role};
use crate::players::{PlayerId, PlayerKind};
use crate::{ChatLine, Room};

fn by(moderator: Option<PlayerId>, target: Option<PlayerId>, action: Action) -> Moderation {
    Moderation {
        moderator,
        target,
        action,
        reason: "a reason".into(),
        at: 1_000,
    }
}

/// Each action changes what it names and writes one audit entry in the same transaction; an
/// action that names nothing (an unknown player, a report already handled, the role for a
/// guest, a taken name) changes nothing and logs nothing.
pub(super) async fn moderator_actions_change_what_they_name_and_are_logged(db: &Backend) {
    let store = db.open().await;
    let modr = store
        .create_player("Mia".into(), PlayerKind::Account, Some("h".into()))
        .await
        .unwrap();
    let rude = store
        .create_player("Rude".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    let ann = store
        .create_player("Ann".into(), PlayerKind::Guest, None)
        .await
        .unwrap();
    // The first moderator is made by the server's shell (no moderator).
    let granted = store
        .moderate(by(None, Some(modr.id), Action::Grant))
        .await
        .unwrap();
    assert_eq!(granted.moderator, None);
    assert_eq!(granted.action, "grant");
    assert_eq!(granted.target, Some((modr.id, "Mia".into())));
    assert_eq!(
        store.moderation_standing(modr.id).await.unwrap().role,
        Some(Role::Moderator)
    );
    // A guest cannot hold the role.
    let e = store
        .moderate(by(None, Some(ann.id), Action::Grant))
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::Invalid(_)), "{e}");
    assert_eq!(store.moderation_standing(ann.id).await.unwrap().role, None);

    // A report of a chat line, read back with the line.
    let mut m = new_match("m1", &rude, false);
    m.seats[1].player = Some(ann.clone());
    store.create(m).await.unwrap();
    let line = ChatLine {
        seq: 0,
        room: Room::Players,
        player: rude.clone(),
        seat: Some(0),
        text: "you are bad".into(),
        at: 5,
    };
    store.add_chat("m1", line).await.unwrap();
    let report = NewReport {
        reporter: ann.id,
        reported: rude.id,
        reason: ReportReason::Abuse,
        text: "insults".into(),
        match_id: Some("m1".into()),
        chat_seq: Some(0),
        at: 10,
    };
    let id = store.file_report(report.clone()).await.unwrap();
    let open = store.open_reports(10).await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].id, id);
    assert_eq!(open[0].reporter, "Ann");
    assert_eq!(open[0].reported, "Rude");
    assert_eq!(open[0].reported_id, rude.id);
    assert_eq!(open[0].reason, ReportReason::Abuse);
    assert_eq!(open[0].chat, Some((0, "you are bad".into())));
    // A report naming an unknown match is refused.
    let e = store
        .file_report(NewReport {
            match_id: Some("nope".into()),
            ..report
        })
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::Conflict(_)), "{e}");

    // Warn, mute, ban, rename.
    let me = Some(modr.id);
    store
        .moderate(by(me, Some(rude.id), Action::Warn))
        .await
        .unwrap();
    store
        .moderate(by(me, Some(rude.id), Action::Mute { until: 5_000 }))
        .await
        .unwrap();
    store
        .moderate(by(me, Some(rude.id), Action::Ban { until: None }))
        .await
        .unwrap();
    let renamed = store
        .moderate(by(
            me,
            Some(rude.id),
            Action::Rename {
                to: "player-1".into(),
            },
        ))
        .await
        .unwrap();
    assert_eq!(
        renamed.target,
        Some((rude.id, "Rude".into())),
        "the name before"
    );
    assert_eq!(renamed.detail.as_deref(), Some("player-1"));
    assert!(store.player_by_name("Rude".into()).await.unwrap().is_none());
    assert_eq!(
        store
            .player_by_name("player-1".into())
            .await
            .unwrap()
            .unwrap()
            .0
            .id,
        rude.id
    );
    let standing = store.moderation_standing(rude.id).await.unwrap();
    assert_eq!(standing.muted_until, Some(5_000));
    assert_eq!(standing.banned_until, Some(crate::moderation::FOREVER));
    assert_eq!(standing.warnings.len(), 1);
    assert_eq!(standing.warnings[0].moderator.as_deref(), Some("Mia"));
    assert_eq!(
        store.sanctioned(4_000).await.unwrap(),
        [(rude.id, Some(5_000), Some(crate::moderation::FOREVER))]
    );
    // Read warnings stay read.
    store
        .ack_warnings(rude.id, standing.warnings[0].id)
        .await
        .unwrap();
    assert!(
        store
            .moderation_standing(rude.id)
            .await
            .unwrap()
            .warnings
            .is_empty()
    );
    // A rename to a name taken (or one that looks like it) changes nothing and logs nothing.
    let before = store.audit(AuditFrom::Latest, 100).await.unwrap().len();
    let e = store
        .moderate(by(me, Some(rude.id), Action::Rename { to: "ANN".into() }))
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::Conflict(_)), "{e}");
    let e = store
        .moderate(by(me, Some(PlayerId(9_999)), Action::Ban { until: None }))
        .await
        .unwrap_err();
    assert!(
        matches!(e, StoreError::NotFound(_) | StoreError::Conflict(_)),
        "{e}"
    );
    assert_eq!(
        store.audit(AuditFrom::Latest, 100).await.unwrap().len(),
        before
    );

    // Handling a report closes it once.
    store
        .moderate(by(
            me,
            None,
            Action::Handle {
                report: id,
                dismissed: false,
            },
        ))
        .await
        .unwrap();
    assert!(store.open_reports(10).await.unwrap().is_empty());
    let e = store
        .moderate(by(
            me,
            None,
            Action::Handle {
                report: id,
                dismissed: true,
            },
        ))
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::NotFound(_)), "{e}");

    // Unban, unmute: no sanction left.
    store
        .moderate(by(None, Some(rude.id), Action::Unban))
        .await
        .unwrap();
    store
        .moderate(by(None, Some(rude.id), Action::Unmute))
        .await
        .unwrap();
    assert!(store.sanctioned(0).await.unwrap().is_empty());

    // The log: newest first, or after an id oldest first.
    let words = |entries: Vec<crate::moderation::AuditEntry>| -> Vec<String> {
        entries.into_iter().map(|e| e.action).collect()
    };
    let latest = store.audit(AuditFrom::Latest, 3).await.unwrap();
    assert_eq!(words(latest.clone()), ["unmute", "unban", "resolve"]);
    assert_eq!(latest[2].report, Some(id));
    let all = store.audit(AuditFrom::After(0), 100).await.unwrap();
    assert_eq!(
        words(all.clone()),
        [
            "grant", "warn", "mute", "ban", "rename", "resolve", "unban", "unmute"
        ]
    );
    assert!(all.windows(2).all(|w| w[0].id < w[1].id));
    let after = store.audit(AuditFrom::After(all[5].id), 100).await.unwrap();
    assert_eq!(words(after), ["unban", "unmute"]);
    // Reopened, all is still there.
    drop(store);
    let store = db.open().await;
    assert_eq!(store.audit(AuditFrom::After(0), 100).await.unwrap(), all);
}
