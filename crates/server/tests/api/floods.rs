//! What one address may make the server hold (docs/protocol.md section 6): matches per minute,
//! open ones, ones of bots alone, new players; unstarted matches expire; idle matches leave
//! memory and come back; a restart loads only what runs by itself.

use std::time::Duration;

use plateau_lobby::limits::Limits;
use serde_json::{Value, json};

use crate::common::{
    Agent, TestApp, eventually, seated, seats_taken, spawn_app_on, spawn_app_with, temp_db,
    test_options,
};

async fn app_with(limits: Limits, bot_delay: Duration) -> TestApp {
    spawn_app_with(
        temp_db(),
        plateau_server::Options {
            limits,
            bot_delay,
            ..test_options()
        },
    )
    .await
}

fn humans() -> Value {
    json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]})
}

fn bots() -> Value {
    let bot = json!({"kind": "bot", "bot": "random"});
    json!({"game": "naval", "seats": [bot, bot, bot, bot]})
}

/// Waits until `/health` shows `n` matches in memory (matches leave it on their idle timers:
/// a finished one 5 s after its last viewer, which a loaded machine can make later).
async fn in_memory(app: &TestApp, n: u64) {
    eventually(
        &format!("{n} matches in memory"),
        || app.get("/health"),
        |(_, health)| health["matches_in_memory"] == n,
    )
    .await;
}

#[tokio::test]
async fn one_address_may_create_only_so_many_matches() {
    let limits = Limits {
        open_matches: 2,
        bot_matches: 1,
        ..test_options().limits
    };
    // Bots think for a second a move: the match of bots stays live through the test.
    let app = app_with(limits, Duration::from_secs(1)).await;
    let mut me = Agent::guest(app.addr, "Flood").await;
    for _ in 0..2 {
        assert_eq!(me.post("/api/matches", &humans()).await.0, 201);
    }
    // Another player at the same address counts as the same client.
    let mut other = Agent::guest(app.addr, "Other").await;
    let (status, body) = other.post("/api/matches", &humans()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/matches")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("wait for players")
    );
    assert_eq!(me.post("/api/matches", &bots()).await.0, 201);
    let (status, body) = me.post("/api/matches", &bots()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/matches")),
        "{body}"
    );
    assert!(body["message"].as_str().unwrap().contains("bots alone"));
    let (_, listed) = app.get("/api/matches?status=open").await;
    assert_eq!(
        listed["matches"].as_array().unwrap().len(),
        2,
        "nothing refused was created"
    );
    app.shutdown().await;

    let app = app_with(
        Limits {
            matches_per_minute: 2,
            ..test_options().limits
        },
        Duration::ZERO,
    )
    .await;
    let mut me = Agent::guest(app.addr, "Quick").await;
    // Refused requests create nothing, so they count for nothing.
    for _ in 0..3 {
        let (status, body) = me
            .post(
                "/api/matches",
                &json!({"game": "nope", "seats": [{"kind": "human"}]}),
            )
            .await;
        assert_eq!((status, body["code"].as_str()), (400, Some("game/unknown")));
    }
    for _ in 0..2 {
        assert_eq!(me.post("/api/matches", &humans()).await.0, 201);
    }
    let (status, body) = me.post("/api/matches", &humans()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/matches")),
        "{body}"
    );
    assert!(body["message"].as_str().unwrap().contains("wait a minute"));
    app.shutdown().await;
}

#[tokio::test]
async fn one_address_may_make_only_so_many_guests() {
    let limits = Limits {
        guests_per_minute: 2,
        ..test_options().limits
    };
    let app = app_with(limits, Duration::ZERO).await;
    for _ in 0..2 {
        let mut fresh = Agent::new(app.addr);
        assert_eq!(fresh.post("/api/matches", &humans()).await.0, 201);
    }
    let mut third = Agent::new(app.addr);
    let (status, body) = third.post("/api/matches", &humans()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/players")),
        "{body}"
    );
    let (status, body) = third.post("/api/guest", &json!({"name": "Late"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/players")),
        "{body}"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_match_nobody_starts_expires() {
    // The creator connects before the match expires (else it finds it gone): 3 s leave a
    // loaded machine time for that.
    let limits = Limits {
        open_expiry: Duration::from_secs(3),
        ..test_options().limits
    };
    let app = app_with(limits, Duration::ZERO).await;
    let created = app.create(humans()).await;
    let id = created["id"].as_str().unwrap();
    let mut creator = app.connect(id, created["token"].as_str()).await;
    assert_eq!(creator.state().await["status"], "open");
    creator.removed().await;
    let (status, body) = app.get(&format!("/api/matches/{id}")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("match/not_found"))
    );
    app.shutdown().await;
}

/// A correspondence match of two people, red's first move played, then both gone: its id and
/// blue's seat token.
async fn left_after_one_move(app: &TestApp) -> (String, String) {
    let (id, tokens) = seats_taken(app, humans()).await;
    let mut red = app.connect(&id, Some(&tokens[0])).await;
    let blue = app.connect(&id, Some(&tokens[1])).await;
    let start = red.live().await;
    red.act(0, start["legal"][0].as_str().unwrap()).await;
    red.until(|m| m["type"] == "state" && m["version"] == 1)
        .await;
    drop((red, blue));
    (id, tokens[1].clone())
}

#[tokio::test]
async fn idle_matches_leave_memory_and_a_restart_loads_only_clocked_ones() {
    let limits = Limits {
        idle_unload: Duration::from_millis(300),
        ..test_options().limits
    };
    let app = app_with(limits, Duration::ZERO).await;
    let (id, blue_token) = left_after_one_move(&app).await;
    in_memory(&app, 0).await;
    // Asked for again, it comes back from the store where it was.
    let mut blue = app.connect(&id, Some(&blue_token)).await;
    let back = blue.live().await;
    assert_eq!(
        (back["version"].clone(), back["to_act"].clone()),
        (json!(1), json!([1]))
    );
    drop(blue);
    in_memory(&app, 0).await;

    // A clocked live match and an open one: after a restart only the clocked one is loaded.
    let mut clocked = humans();
    clocked["time_control"] = json!({"kind": "per_move", "seconds": 600});
    let (_, mut players) = seated(&app, clocked).await;
    players[0].live().await;
    app.create(humans()).await;
    let db = app.db.clone();
    app.shutdown().await;
    let app = spawn_app_on(db).await;
    assert_eq!(app.get("/health").await.1["matches_in_memory"], 1);
    app.shutdown().await;
}

/// Finished matches nobody watches leave memory within seconds, long before the idle time of
/// other matches: under load, matches finish faster than that time would empty memory, so the
/// matches in memory must come back to the live ones after any number of finished ones.
#[tokio::test]
async fn finished_matches_nobody_watches_leave_memory_soon() {
    let limits = Limits {
        idle_unload: Duration::from_secs(3600),
        ..test_options().limits
    };
    let app = app_with(limits, Duration::ZERO).await;
    // A correspondence match left after one move: it stays (the idle time is an hour).
    let (waiting, _) = left_after_one_move(&app).await;
    for _ in 0..3 {
        let (_, mut players) = seated(&app, humans()).await;
        let red = &mut players[0];
        red.live().await;
        red.send(json!({"type": "resign"})).await;
        red.until(|m| m["type"] == "state" && m["status"] == "finished")
            .await;
        drop(players);
    }
    in_memory(&app, 1).await;
    // The one left is the live match.
    let (_, summary) = app.get(&format!("/api/matches/{waiting}")).await;
    assert_eq!(summary["status"], "live", "{summary}");
    app.shutdown().await;
}

/// A replay replays the whole game: it is computed once, stored, and read back after that.
#[tokio::test]
async fn a_replay_is_computed_once_and_stored() {
    let app = app_with(test_options().limits, Duration::ZERO).await;
    let created = app.create(bots()).await;
    let id = created["id"].as_str().unwrap().to_owned();
    app.wait_finished(&id).await;
    let path = format!("/api/matches/{id}/replay");
    let (first, second) = tokio::join!(app.get(&path), app.get(&path));
    assert_eq!(first.0, 200);
    assert_eq!(first, second);
    assert_eq!(first.1["verified"], true);
    let stored = app.db.derived(&id, "replay").await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(&stored).unwrap(), first.1);
    app.shutdown().await;
}
