//! Versions per viewer (docs/protocol.md section 1): a seat's version counts what it can see, so
//! another seat's secret placement never makes its action stale and nobody learns how many moves
//! another seat made, while a repeated action is still stale.

use serde_json::json;

use crate::common::{first_placement, naval_four, spawn_app};

#[tokio::test]
async fn another_seats_placement_never_makes_an_action_stale() {
    let app = spawn_app().await;
    let (id, mut clients) = naval_four(&app, Some(json!({"placement_moves": 4}))).await;
    let mut placing = Vec::new();
    for c in &mut clients {
        placing.push(c.placing().await);
    }
    let version = placing[1]["version"].as_u64().unwrap();
    assert_eq!(placing[2]["version"], version, "the same deal, seen alike");
    let first_move = |i: usize| -> String { first_placement(&placing[i]).unwrap().1 };
    // Seat 1 moves a piece; seat 2, still on the old version, moves one too: accepted.
    let (a, b) = (first_move(1), first_move(2));
    let seen = clients[2].states().len();
    clients[1].act(version, &a).await;
    clients[1]
        .until(|m| m["type"] == "state" && m["version"] == version + 1)
        .await;
    let public = app.summary(&id).await["version"].clone();
    clients[2].act(version, &b).await;
    let after = clients[2]
        .until(|m| m["type"] == "error" || (m["type"] == "state" && m["version"] == version + 1))
        .await;
    assert_eq!(after["type"], "state", "{after}");
    // Seat 2 was sent nothing for seat 1's secret move (not even a state at the same version,
    // which would tell when it was made): its next state is the one of its own move.
    assert_eq!(
        clients[2].states().len(),
        seen + 1,
        "{:?}",
        clients[2].states()
    );
    // Seat 1 sends its move again on the old version: that is a repeat, refused as stale.
    clients[1].act(version, &a).await;
    assert_eq!(clients[1].error().await["code"], "action/stale");
    // The public version counted no secret move.
    assert_eq!(app.summary(&id).await["version"], public);
    app.shutdown().await;
}
