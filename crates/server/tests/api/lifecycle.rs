//! How matches end and go on: resigning, rematches, agreed stops, and a restart of the service.

use plateau_engine::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{TestApp, entry, record, spawn_app, spawn_app_on, two_humans};
use crate::games::play_out;

#[tokio::test]
async fn resigning_ends_the_match_for_the_other_side() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let _blue = app.connect(&id, Some(&t1)).await;
    red.live().await;
    red.send(json!({"type": "resign"})).await;
    let end = red.state().await;
    assert_eq!(end["outcome"]["kind"], "resign");
    assert_eq!(end["outcome"]["ranks"], json!([2, 1]));
    assert_eq!(end["version"], 1, "the ending is a log entry");
    assert_eq!(end["moves"], json!([]));
    let rec = record(&app, &id).await;
    let endings: Vec<_> = rec.endings().collect();
    assert_eq!(endings, [(0, plateau_engine::Ending::Resign(Seat(0)))]);
    rec.replay(entry("mad")).unwrap();
    let (_, steps) = app.get(&format!("/api/matches/{id}/replay")).await;
    assert_eq!(
        steps["steps"].as_array().unwrap().len(),
        2,
        "the start, then the resignation"
    );
    assert_eq!(steps["steps"][1]["text"], json!({"resign": 0}));
    app.shutdown().await;
}

/// A rematch is an offer the other player accepts; the new match (seats swapped, the same
/// players) starts, clocks included, only once both have opened it.
/// An action read from a socket as the server closed it to connect again (1013: the match was
/// unloaded here, it moved or this node fenced itself) may reach the match's next actor, which
/// never served that connection: it is refused `match/moved` and plays nothing, so the client,
/// connected again and shown the state without it, acts on that state's version and is not
/// refused `action/stale` for a move of its own it did not see played (docs/architecture.md
/// section 5.3).
#[tokio::test]
async fn an_action_from_a_connection_the_match_does_not_serve_is_not_played() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let live = red.live().await;
    let version = live["version"].as_u64().unwrap();
    let action = live["legal"][0].as_str().unwrap().to_owned();
    // Connection numbers count up from 0: none has this one.
    let refused = app
        .lobby
        .act(
            &id,
            u64::MAX,
            Seat(0),
            version,
            vec![action.as_str().into()],
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code.as_str(), "match/moved", "{}", refused.message);
    // Nothing was played: the same action on the seat's own connection, at the same version.
    // (Should that socket close to connect again meanwhile, a self-fencing on a starved
    // machine, the action may not be played either: the new connection's state shows the same
    // version, and the action is sent again.)
    let played = loop {
        red.act(version, &action).await;
        let answer = red.answer(version).await;
        if answer["version"].as_u64() != Some(version) {
            break answer;
        }
    };
    assert_eq!(played["version"].as_u64(), Some(version + 1), "{played}");
    // Once, as the other seat sees it too.
    blue.sync().await;
    let seen = blue.latest().unwrap();
    assert_eq!(seen["version"].as_u64(), Some(version + 1), "{seen}");
    assert_eq!(seen["moves"].as_array().unwrap().len() as u64, version + 1);
    app.shutdown().await;
}

#[tokio::test]
async fn a_rematch_is_offered_accepted_and_starts_when_both_open_it() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    red.live().await;
    blue.live().await;
    blue.send(json!({"type": "resign"})).await;
    red.until(|m| m["status"] == "finished").await;
    blue.until(|m| m["status"] == "finished").await;
    let names: Vec<Value> = app.summary(&id).await["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["name"].clone())
        .collect();

    // Red offers; Blue sees the offer, declines it; nothing is created.
    red.send(json!({"type": "rematch"})).await;
    blue.until(|m| m["type"] == "state" && m["offers"]["rematch"] == json!([0]))
        .await;
    blue.send(json!({"type": "decline", "kind": "rematch"}))
        .await;
    red.until(|m| m["type"] == "state" && m["offers"]["rematch"] == json!([]))
        .await;
    assert_eq!(app.summary(&id).await["rematch"], Value::Null);

    // Offered again and accepted: each connection is told its new seat and token.
    red.send(json!({"type": "rematch"})).await;
    blue.until(|m| m["type"] == "state" && m["offers"]["rematch"] == json!([0]))
        .await;
    blue.send(json!({"type": "rematch"})).await;
    let r_red = red.until(|m| m["type"] == "rematch").await;
    let r_blue = blue.until(|m| m["type"] == "rematch").await;
    assert_eq!(r_red["id"], r_blue["id"]);
    assert_eq!(
        (r_red["seat"].clone(), r_blue["seat"].clone()),
        (json!(1), json!(0))
    );
    let new_id = r_red["id"].as_str().unwrap().to_owned();
    assert_eq!(app.summary(&id).await["rematch"], new_id);
    let fresh = app.summary(&new_id).await;
    assert_eq!(fresh["status"], "open", "nobody opened it yet");
    assert_eq!(fresh["seats"][0]["player"]["name"], names[1]);
    assert_eq!(fresh["seats"][1]["player"]["name"], names[0]);
    let mut new_red = app.connect(&new_id, r_red["token"].as_str()).await;
    let waiting = new_red.state().await;
    assert_eq!(
        (waiting["seat"].clone(), waiting["status"].clone()),
        (json!(1), json!("open"))
    );
    let mut new_blue = app.connect(&new_id, r_blue["token"].as_str()).await;
    assert_eq!(new_blue.live().await["to_act"], json!([0]));
    assert_eq!(new_red.live().await["status"], "live");
    // Asking again changes nothing.
    blue.send(json!({"type": "rematch"})).await;
    blue.sync().await;
    assert_eq!(app.summary(&id).await["rematch"], new_id);
    app.shutdown().await;
}

/// MAD's agreed stop: both players must agree, a move withdraws an offer, and a game without one
/// (or a table with a bot) answers `offer/unsupported`.
#[tokio::test]
async fn an_agreed_stop_needs_both_players() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let start = red.live().await;
    blue.live().await;
    red.send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    blue.until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([0]))
        .await;
    // Red moves instead: the offer is gone.
    let action = start["legal"][0].as_str().unwrap();
    red.act(0, action).await;
    let moved = blue
        .until(|m| m["type"] == "state" && m["version"] == 1)
        .await;
    assert_eq!(moved["offers"]["agreement"], json!([]));
    blue.send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    red.until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([1]))
        .await;
    red.send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    let end = red.until(|m| m["status"] == "finished").await;
    assert_eq!(
        end["outcome"],
        serde_json::to_value(rec_outcome(&app, &id).await).unwrap()
    );
    let rec = record(&app, &id).await;
    assert_eq!(
        rec.endings().next().map(|(_, e)| e),
        Some(plateau_engine::Ending::Agreement)
    );

    // A bot never agrees; Moon Leap has no agreed stop.
    for (game, seats) in [
        (
            "mad",
            json!([{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
        ),
        ("moonleap", json!([{"kind": "human"}, {"kind": "human"}])),
    ] {
        let created = app.create(json!({"game": game, "seats": seats})).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let mut me = app.connect(&id, created["token"].as_str()).await;
        if game == "moonleap" {
            let (_, joined) = app
                .post(&format!("/api/matches/{id}/join"), &json!({}))
                .await;
            let _other = app.connect(&id, joined["token"].as_str()).await;
        }
        me.live().await;
        me.send(json!({"type": "offer", "kind": "agreement"})).await;
        assert_eq!(me.error().await["code"], "offer/unsupported", "{game}");
    }
    app.shutdown().await;
}

async fn rec_outcome(app: &TestApp, id: &str) -> Option<plateau_engine::Outcome> {
    record(app, id).await.outcome
}

/// A graceful shutdown closes sockets with 1001; a new server on the same database reloads the
/// match by replaying its log and play goes on.
#[tokio::test]
async fn matches_survive_a_restart() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut last = [red.live().await, blue.live().await];
    for _ in 0..6 {
        let i = usize::from(last[0]["legal"].as_array().unwrap().is_empty());
        let legal = last[i]["legal"].as_array().unwrap().clone();
        let version = last[i]["version"].as_u64().unwrap();
        let client = if i == 0 { &mut red } else { &mut blue };
        client
            .act(
                version,
                legal[rng.random_range(0..legal.len())].as_str().unwrap(),
            )
            .await;
        last = [red.state().await, blue.state().await];
    }
    let before = last[0].clone();
    let db = app.db.clone();
    let mut lobby = crate::common::Agent::new(app.addr)
        .ws("/api/lobby/ws")
        .await;
    lobby.until(|m| m["type"] == "lobby").await;
    app.shutdown().await;
    assert_eq!(red.next().await, None);
    assert_eq!(red.closed, Some(1001));
    while lobby.next().await.is_some() {}
    assert_eq!(lobby.closed, Some(1001), "the lobby's socket too");

    let app = spawn_app_on(db).await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let after = red.live().await;
    blue.live().await;
    for field in [
        "version",
        "observation",
        "legal",
        "moves",
        "to_act",
        "seed_hash",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    let end = play_out(&mut [&mut red, &mut blue], &mut rng).await;
    assert_eq!(end["status"], "finished");
    record(&app, &id).await.replay(entry("mad")).unwrap();
    app.shutdown().await;
}
