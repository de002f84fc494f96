//! Tournaments (docs/tournaments.md), on each backend.

use super::Backend;
use crate::StoreError;
use crate::players::PlayerKind;
use crate::tournaments::{StoredTournament, TournamentStatus};

/// A tournament reads back as written, its state replaced whole by each save over the version
/// read (a save over an older version is refused and changes nothing), listed by status with the
/// latest start first (with their versions alone too), counted per creator since a time; a
/// second one with the same id is refused and changes nothing; a save's entrant is listed among
/// the player's tournaments, latest start first.
pub(super) async fn tournaments_read_back_as_saved_and_list_by_status(db: &Backend) {
    let store = db.open().await;
    let ann = store
        .create_player("Ann".into(), PlayerKind::Account, Some("hash".into()))
        .await
        .unwrap();
    let bob = store
        .create_player("Bob".into(), PlayerKind::Account, Some("hash".into()))
        .await
        .unwrap();
    let new = |id: &str, creator, starts_at_ms, created_at_ms| StoredTournament {
        id: id.into(),
        creator,
        status: TournamentStatus::Live,
        starts_at_ms,
        created_at_ms,
        settings: format!("{{\"name\":\"{id}\"}}"),
        state: "{\"players\":[]}".into(),
        version: 0,
    };
    let first = new("t1", ann.id, 5_000, 1_000);
    store.create_tournament(first.clone()).await.unwrap();
    store
        .create_tournament(new("t2", ann.id, 9_000, 2_000))
        .await
        .unwrap();
    store
        .create_tournament(new("t3", bob.id, 7_000, 3_000))
        .await
        .unwrap();
    let again = StoredTournament {
        state: "changed".into(),
        ..first.clone()
    };
    assert!(matches!(
        store.create_tournament(again).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.tournament("t1".into()).await.unwrap(), Some(first));
    assert_eq!(store.tournament("t9".into()).await.unwrap(), None);

    store
        .save_tournament(
            "t2".into(),
            TournamentStatus::Finished,
            "{\"over\":1}".into(),
            0,
            Some(bob.id),
        )
        .await
        .unwrap();
    let t2 = store.tournament("t2".into()).await.unwrap().unwrap();
    let fields = |t: &StoredTournament| (t.status, t.state.clone(), t.settings.clone(), t.version);
    assert_eq!(
        fields(&t2),
        (
            TournamentStatus::Finished,
            "{\"over\":1}".to_owned(),
            "{\"name\":\"t2\"}".to_owned(),
            1
        )
    );
    // A second writer that read version 0 too is refused, and the first one's save stays.
    assert!(matches!(
        store
            .save_tournament(
                "t2".into(),
                TournamentStatus::Live,
                "{}".into(),
                0,
                Some(ann.id)
            )
            .await,
        Err(StoreError::Conflict(_))
    ));
    let again = store.tournament("t2".into()).await.unwrap().unwrap();
    assert_eq!(fields(&again), fields(&t2));
    assert!(matches!(
        store
            .save_tournament("t9".into(), TournamentStatus::Live, "{}".into(), 0, None)
            .await,
        Err(StoreError::Conflict(_))
    ));

    let ids = |list: Vec<StoredTournament>| list.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.tournaments(TournamentStatus::Live, 10).await.unwrap()),
        ["t3", "t1"]
    );
    assert_eq!(
        ids(store.tournaments(TournamentStatus::Live, 1).await.unwrap()),
        ["t3"]
    );
    assert_eq!(
        ids(store
            .tournaments(TournamentStatus::Finished, 10)
            .await
            .unwrap()),
        ["t2"]
    );
    assert_eq!(store.tournaments_created(ann.id, 0).await.unwrap(), 2);
    assert_eq!(store.tournaments_created(ann.id, 1_500).await.unwrap(), 1);
    assert_eq!(store.tournaments_created(bob.id, 3_001).await.unwrap(), 0);

    // Entrants: counted by the save that names them, once however often, not by a refused save.
    assert_eq!(
        ids(store.player_tournaments(bob.id, 10).await.unwrap()),
        ["t2"]
    );
    assert!(
        store
            .player_tournaments(ann.id, 10)
            .await
            .unwrap()
            .is_empty()
    );
    for (id, version) in [("t1", 0), ("t1", 1), ("t3", 0)] {
        store
            .save_tournament(
                id.into(),
                TournamentStatus::Live,
                "{}".into(),
                version,
                Some(ann.id),
            )
            .await
            .unwrap();
    }
    assert_eq!(
        ids(store.player_tournaments(ann.id, 10).await.unwrap()),
        ["t3", "t1"]
    );
    assert_eq!(
        ids(store.player_tournaments(ann.id, 1).await.unwrap()),
        ["t3"]
    );
    // The versions alone, in the same order: t1 saved twice since, t3 once.
    let versions = |status, limit| store.tournament_versions(status, limit);
    assert_eq!(
        versions(TournamentStatus::Live, 10).await.unwrap(),
        [("t3".to_owned(), 1), ("t1".to_owned(), 2)]
    );
    assert_eq!(
        versions(TournamentStatus::Live, 1).await.unwrap(),
        [("t3".to_owned(), 1)]
    );
    assert_eq!(
        versions(TournamentStatus::Finished, 10).await.unwrap(),
        [("t2".to_owned(), 1)]
    );
}
