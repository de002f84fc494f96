//! Time controls (docs/protocol.md sections 3 and 4): per-move and Fischer clocks, the time controls
//! each game accepts, and Bataille Navale's own clocks.

use std::time::Duration;

use plateau_engine::Seat;
use serde_json::{Value, json};

use crate::common::{entry, first_placement, humans, id, record, spawn_app};

#[tokio::test]
async fn per_move_clock_runs_out_and_the_side_loses() {
    let app = spawn_app().await;
    let mut request = humans("mad");
    request["time_control"] = json!({"kind": "per_move", "seconds": 1});
    let created = app.create(request).await;
    let id = id(&created);
    let (_, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut red = app.connect(&id, created["token"].as_str()).await;
    // No clock runs before both players opened the match.
    let waiting = red.state().await;
    assert_eq!(waiting["status"], "open");
    assert_eq!(waiting["clocks"]["running"], Value::Null);
    let _blue = app.connect(&id, joined["token"].as_str()).await;
    let start = red.live().await;
    assert_eq!(start["clocks"]["kind"], "per_move");
    assert_eq!(start["clocks"]["running"], 0);
    assert!(start["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 1000);
    assert_eq!(start["clocks"]["remaining_ms"][1], 1000);
    // Red does not move: after a second it loses on time.
    let end = red.until(|m| m["status"] == "finished").await;
    assert_eq!(end["outcome"]["kind"], "timeout");
    assert_eq!(end["outcome"]["ranks"], json!([2, 1]));
    assert_eq!(end["clocks"]["running"], Value::Null);
    let rec = record(&app, &id).await;
    let endings: Vec<_> = rec.endings().collect();
    assert_eq!(endings, [(0, plateau_engine::Ending::Timeout(Seat(0)))]);
    assert!(rec.replay(entry("mad")).unwrap().seed_verified);
    assert!(joined["token"].is_string());
    app.shutdown().await;
}

#[tokio::test]
async fn fischer_clocks_charge_the_mover_and_add_the_increment() {
    let app = spawn_app().await;
    let mut request = humans("mad");
    request["time_control"] =
        json!({"kind": "fischer", "base_seconds": 60, "increment_seconds": 30});
    let created = app.create(request).await;
    let id = id(&created);
    let (_, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut red = app.connect(&id, created["token"].as_str()).await;
    let _blue = app.connect(&id, joined["token"].as_str()).await;
    let start = red.live().await;
    assert_eq!(start["clocks"]["running"], 0);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let action = start["legal"][0].as_str().unwrap().to_owned();
    red.act(0, &action).await;
    let after = red.state().await;
    assert_eq!(after["clocks"]["running"], 1);
    let red_left = after["clocks"]["remaining_ms"][0].as_u64().unwrap();
    // 60 s - at least 0.3 s thinking + 30 s increment (without the increment it would be at
    // most 59.7 s; the lower bound leaves a loaded machine up to 30 s to take the move).
    assert!((60_000..=89_700).contains(&red_left), "{red_left}");
    assert!(after["clocks"]["remaining_ms"][1].as_u64().unwrap() <= 60_000);
    app.shutdown().await;
}

/// A time control must suit the game: Bataille Navale keeps its rules' clocks (or none), `game` needs
/// a game with clocks of its own, and a misspelt field is refused; nothing is created.
#[tokio::test]
async fn time_controls_must_suit_the_game() {
    let app = spawn_app().await;
    let human = json!({"kind": "human"});
    let naval = |tc: Value| json!({"game": "naval", "seats": [human, human, human, human], "time_control": tc});
    let mut mad = humans("mad");
    mad["time_control"] = json!({"kind": "game"});
    for (request, code) in [
        (
            naval(json!({"kind": "fischer", "base_seconds": 3, "increment_seconds": 0})),
            "time_control/invalid",
        ),
        (
            naval(json!({"kind": "per_move", "seconds": 2})),
            "time_control/invalid",
        ),
        (mad, "time_control/invalid"),
        (
            naval(json!({"kind": "game", "seconds": 5})),
            "request/malformed",
        ),
        (naval(json!({"kind": "none", "x": 1})), "request/malformed"),
    ] {
        let (status, body) = app.post("/api/matches", &request).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some(code)),
            "{request}: {body}"
        );
    }
    let (_, listed) = app.get("/api/matches").await;
    assert_eq!(listed["matches"], json!([]));
    for tc in [json!({"kind": "game"}), json!({"kind": "none"})] {
        let (status, _) = app.post("/api/matches", &naval(tc)).await;
        assert_eq!(status, 201);
    }
    app.shutdown().await;
}

/// Bataille Navale under its own clocks (rules/naval.md sections 4.6 and 5.10): the placement clock
/// runs for the whole phase and freezes the layout; each battle turn gets a fresh turn clock, and
/// when it runs out the ships without an order pass.
#[tokio::test]
async fn the_game_clock_freezes_the_placement_and_passes_a_silent_turn() {
    let app = spawn_app().await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let created = app
        .create(json!({
            "game": "naval",
            "config": {"placement_seconds": 5, "turn_seconds": 3},
            "seats": [{"kind": "human"}, bot, bot, bot],
            "time_control": {"kind": "game"},
        }))
        .await;
    let id = id(&created);
    // The config is public: the page needs the match's clocks, costs and move limit.
    assert_eq!(
        app.summary(&id).await["config"],
        json!({"placement_seconds": 5, "turn_seconds": 3})
    );
    let mut me = app.connect(&id, created["token"].as_str()).await;
    let placing = me.placing().await;
    assert_eq!(placing["clocks"]["kind"], "game");
    assert!(
        placing["clocks"]["running_seats"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
    );
    assert!(placing["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 5000);
    // One placement move after 0.5 s: the clock goes on from where it was. (The 5 s leave a
    // loaded machine seconds to take the move before the placement clock runs out.)
    tokio::time::sleep(Duration::from_millis(500)).await;
    let place = first_placement(&placing).unwrap().1;
    let mine = |m: &Value, text: &str| {
        m["moves"]
            .as_array()
            .is_some_and(|l| l.iter().any(|e| e["by"]["seat"] == 0 && e["text"] == text))
    };
    // The bots place at the same time, so our version may be stale: retry on the latest one.
    let mut version = placing["version"].as_u64().unwrap();
    let moved = loop {
        me.act(version, &place).await;
        let m = me
            .until(|m| m["type"] == "error" || (m["type"] == "state" && mine(m, &place)))
            .await;
        if m["type"] == "state" {
            break m;
        }
        assert_eq!(m["code"], "action/stale", "{m}");
        me.sync().await;
        version = me.states().last().unwrap()["version"].as_u64().unwrap();
    };
    if moved["observation"]["phase"] == "placement" {
        assert!(moved["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 4500);
    }
    // The placement clock runs out: the layout is frozen and the seat ready.
    let battle = me
        .until(|m| m["type"] == "state" && m["observation"]["phase"] == "battle")
        .await;
    assert!(mine(&battle, "ready"), "{:#}", battle["moves"]);
    // Our turn comes with a fresh turn clock; silent, our ships pass when it runs out.
    let turn = me
        .until(|m| m["type"] == "state" && m["observation"]["current"] == 0)
        .await;
    assert_eq!(turn["clocks"]["running_seats"], json!([0]));
    assert!(turn["clocks"]["remaining_ms"][0].as_u64().unwrap() > 2000);
    let passed = me
        .until(|m| {
            m["type"] == "state"
                && m["moves"].as_array().is_some_and(|l| {
                    l.iter().any(|e| {
                        e["by"]["seat"] == 0 && e["text"].as_str().unwrap_or("").ends_with(":pass")
                    })
                })
        })
        .await;
    assert_ne!(passed["observation"]["current"], 0);
    app.shutdown().await;
}
