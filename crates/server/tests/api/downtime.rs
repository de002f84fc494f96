//! Time the server is down counts against no clock (docs/protocol.md section 3.6): a match
//! resumes with the time each seat had.

use std::time::Duration;

use serde_json::json;

use crate::common::{spawn_app, spawn_app_on};

#[tokio::test]
async fn a_clock_does_not_run_while_the_server_is_down() {
    let app = spawn_app().await;
    let created = app
        .create(
            json!({"game": "mad", "time_control": {"kind": "per_move", "seconds": 5},
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let (_, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let (t0, t1) = (
        created["token"].as_str().unwrap(),
        joined["token"].as_str().unwrap(),
    );
    let mut red = app.connect(&id, Some(t0)).await;
    let _blue = app.connect(&id, Some(t1)).await;
    let start = red.live().await;
    let first = start["legal"][0].as_str().unwrap().to_owned();
    red.act(0, &first).await;
    red.until(|m| m["type"] == "state" && m["version"] == 1)
        .await;
    let db = app.db.clone();
    app.shutdown().await;
    // Down for longer than Blue's whole 5 s clock: the outage is the condition under test.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let app = spawn_app_on(db).await;
    let mut blue = app.connect(&id, Some(t1)).await;
    let _red = app.connect(&id, Some(t0)).await;
    let back = blue.live().await;
    assert_eq!(
        back["status"], "live",
        "Blue did not lose on time while the server was down"
    );
    let left = back["clocks"]["remaining_ms"][1].as_u64().unwrap();
    // Less only the time from the match's reload to this state, which a loaded machine can
    // make a second or two.
    assert!(left > 2000, "Blue still has most of its 5 s: {left} ms");
    let reply = back["legal"][0].as_str().unwrap().to_owned();
    blue.act(1, &reply).await;
    assert_eq!(
        blue.until(|m| m["type"] == "state" && m["version"] == 2)
            .await["status"],
        "live"
    );
    app.shutdown().await;
}
