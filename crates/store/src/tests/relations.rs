//! Follows and blocks (docs/protocol.md section 7.8), on each backend.

use super::Backend;
use crate::players::{PlayerKind, Relation};

/// One relation per pair: a block replaces a follow, an end of one kind leaves the other, and
/// each player's list names only its own.
pub(super) async fn follows_and_blocks_are_one_relation_per_pair(db: &Backend) {
    let store = db.open().await;
    let new = |name: &str| store.create_player(name.into(), PlayerKind::Guest, None);
    let (ann, bob, cy) = (
        new("Ann").await.unwrap(),
        new("Bob").await.unwrap(),
        new("Cy").await.unwrap(),
    );
    store
        .set_relation(ann.id, cy.id, Relation::Follow, true)
        .await
        .unwrap();
    store
        .set_relation(ann.id, bob.id, Relation::Follow, true)
        .await
        .unwrap();
    // Following twice is one relation.
    store
        .set_relation(ann.id, bob.id, Relation::Follow, true)
        .await
        .unwrap();
    let names = |list: Vec<(Relation, crate::players::Player)>| -> Vec<(Relation, String)> {
        list.into_iter().map(|(r, p)| (r, p.name)).collect()
    };
    assert_eq!(
        names(store.relations(ann.id).await.unwrap()),
        [
            (Relation::Follow, "Bob".into()),
            (Relation::Follow, "Cy".into())
        ]
    );
    assert_eq!(store.relations(bob.id).await.unwrap(), []);
    assert_eq!(
        store.blocks_between(ann.id, bob.id).await.unwrap(),
        (false, false)
    );
    // A block replaces the follow; ending a follow that is no longer there leaves the block.
    store
        .set_relation(ann.id, bob.id, Relation::Block, true)
        .await
        .unwrap();
    store
        .set_relation(ann.id, bob.id, Relation::Follow, false)
        .await
        .unwrap();
    assert_eq!(
        names(store.relations(ann.id).await.unwrap()),
        [
            (Relation::Block, "Bob".into()),
            (Relation::Follow, "Cy".into())
        ]
    );
    assert_eq!(
        store.blocks_between(ann.id, bob.id).await.unwrap(),
        (true, false)
    );
    assert_eq!(
        store.blocks_between(bob.id, ann.id).await.unwrap(),
        (false, true)
    );
    store
        .set_relation(bob.id, ann.id, Relation::Block, true)
        .await
        .unwrap();
    assert_eq!(
        store.blocks_between(ann.id, bob.id).await.unwrap(),
        (true, true)
    );
    store
        .set_relation(ann.id, bob.id, Relation::Block, false)
        .await
        .unwrap();
    assert_eq!(
        store.blocks_between(ann.id, bob.id).await.unwrap(),
        (false, true)
    );
    assert_eq!(
        names(store.relations(ann.id).await.unwrap()),
        [(Relation::Follow, "Cy".into())]
    );
    store.close().await;
}
