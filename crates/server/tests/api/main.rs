//! API tests of the match service over real sockets (docs/protocol.md): each test gets a fresh
//! server on port 0 and a fresh SQLite file from `spawn_app()`.

mod abandon;
mod bots;
mod chat;
mod common;
mod downtime;
mod faults;
mod floods;
mod limits;
mod naval_resign;
mod naval_secrecy;
mod pairing;
mod players;
mod ratings;
mod seeds;
mod simultaneous;
mod toy;

use std::time::Duration;

use common::{Client, TestApp, spawn_app, spawn_app_on};
use plateau_engine::{Record, Seat, Viewer};
use plateau_server::secrecy::check_messages;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

fn humans(game: &str) -> Value {
    json!({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
}

fn token(v: &Value) -> String {
    v["token"].as_str().expect("a token").to_owned()
}

fn id(v: &Value) -> String {
    v["id"].as_str().expect("an id").to_owned()
}

/// A two-human match with both seats taken; returns (id, token 0, token 1, seed_hash).
async fn two_humans(app: &TestApp, game: &str) -> (String, String, String, String) {
    let created = app.create(humans(game)).await;
    let id = id(&created);
    let (status, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    (
        id,
        token(&created),
        token(&joined),
        created["seed_hash"].as_str().unwrap().to_owned(),
    )
}

async fn record(app: &TestApp, id: &str) -> Record {
    let (status, body) = app.get(&format!("/api/matches/{id}/record")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

fn entry(name: &str) -> &'static plateau_engine::GameEntry {
    common::catalogue().game(name).unwrap()
}

#[tokio::test]
async fn health_games_and_static_pages() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/health").await,
        (200, json!({"status": "ok", "matches_in_memory": 0}))
    );
    let (status, games) = app.get("/api/games").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"mad") && names.contains(&"toy"),
        "{names:?}"
    );
    let toy = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "toy")
        .unwrap();
    assert_eq!(toy["hidden_information"], true);
    assert_eq!(
        toy["bots"],
        json!(["random", "greedy", "beginner", "club", "expert", "mcts"])
    );
    // Every embedded file of web/ is served at /assets/<path>, byte for byte.
    for path in plateau_server::assets::paths() {
        let (status, body) = common::http(app.addr, "GET", &format!("/assets/{path}"), None).await;
        assert_eq!(status, 200, "{path}");
        let on_disk =
            std::fs::read(format!("{}/../../web/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(
            body.as_bytes(),
            String::from_utf8_lossy(&on_disk).as_bytes(),
            "{path}"
        );
    }
    let index = plateau_server::assets::file("index.html").is_some();
    assert_eq!(
        common::http(app.addr, "GET", "/", None).await.0,
        if index { 200 } else { 404 }
    );
    assert_eq!(
        common::http(app.addr, "GET", "/assets/nope.js", None)
            .await
            .0,
        404
    );
    assert_eq!(common::http(app.addr, "GET", "/nowhere", None).await.0, 404);
    app.shutdown().await;
}

#[tokio::test]
async fn create_join_list_and_spectate() {
    let app = spawn_app().await;
    let created = app.create(humans("toy")).await;
    let id = id(&created);
    assert_eq!(created["seat"], 0);
    assert_eq!(created["token"].as_str().unwrap().len(), 64);
    assert_eq!(created["url"], format!("/m/{id}"));
    assert_eq!(
        created["invites"],
        json!([{"seat": 1, "url": format!("/m/{id}?join=1")}])
    );
    let summary = app.summary(&id).await;
    assert_eq!(summary["status"], "open");
    assert_eq!(summary["seed"], Value::Null);
    assert_eq!(summary["seed_hash"], created["seed_hash"]);
    assert_eq!(
        summary["seats"][1],
        json!({"seat": 1, "kind": "human", "bot": null, "level": null, "taken": false,
               "player": null, "connected": false})
    );
    assert_eq!(
        summary["seats"][0]["player"]["kind"], "guest",
        "the creator plays as a guest"
    );
    let (_, open) = app.get("/api/matches?status=open").await;
    assert_eq!(open["matches"].as_array().unwrap().len(), 1);
    assert_eq!(open["matches"][0]["id"], id);

    // A spectator connected while the match is open sees it start once seat 1 has joined and
    // both players have opened it.
    let mut spectator = app.connect(&id, None).await;
    let first = spectator.state().await;
    assert_eq!(
        (first["status"].clone(), first["seat"].clone()),
        (json!("open"), Value::Null)
    );
    assert_eq!(first["to_act"], json!([]));
    let (status, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({"seat": 1}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["invites"], json!([]));
    assert_eq!(
        app.summary(&id).await["status"],
        "open",
        "taken, not yet opened"
    );
    let mut seat0 = app.connect(&id, created["token"].as_str()).await;
    let _seat1 = app.connect(&id, joined["token"].as_str()).await;
    let live = spectator
        .until(|m| m["status"] == "live" && m["to_act"] == json!([0]))
        .await;
    // Two cards were dealt (two chance entries), and the spectator sees neither: its version
    // does not count them, and neither does the public one.
    assert_eq!(live["version"], 0);
    assert_eq!(app.summary(&id).await["version"], 0);
    assert_eq!(live["observation"]["cards"], json!([null, null]));
    assert_eq!(live["legal"], json!([]));
    assert_eq!(
        live["moves"],
        json!([]),
        "no move list in a hidden-information game"
    );
    let (_, open) = app.get("/api/matches?status=open").await;
    assert!(open["matches"].as_array().unwrap().is_empty());
    let (_, lobby) = app.get("/api/matches").await;
    assert_eq!(lobby["matches"][0]["status"], "live");

    // The seat holder sees its own card and its two legal actions.
    let mine = seat0
        .until(|m| m["type"] == "state" && m["status"] == "live")
        .await;
    assert_eq!(mine["seat"], 0);
    assert!(mine["observation"]["cards"][0].is_u64());
    assert!(mine["observation"]["cards"][1].is_null());
    assert_eq!(mine["legal"], json!(["fold", "keep"]));
    app.shutdown().await;
}

#[tokio::test]
async fn http_bad_input_gets_coded_errors() {
    let app = spawn_app().await;
    let code =
        |(status, body): (u16, Value)| (status, body["code"].as_str().unwrap_or("?").to_owned());
    let cases = [
        (
            json!({"game": "chess", "seats": [{"kind": "human"}]}),
            400,
            "game/unknown",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}]}),
            400,
            "config/invalid",
        ),
        (
            json!({"game": "mad", "config": [1], "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
            "config/invalid",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}]}),
            400,
            "bot/unknown",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}], "time_control": {"kind": "per_move", "seconds": 0}}),
            400,
            "time_control/invalid",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}], "time_control": {"kind": "fischer", "base_seconds": 60, "increment_seconds": 9999}}),
            400,
            "time_control/invalid",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "creator_seat": 1}),
            400,
            "seat/invalid",
        ),
        (
            json!({"game": "mad", "seats": "two"}),
            400,
            "request/malformed",
        ),
        (
            json!({"game": "mad", "seats": [], "colour": "red"}),
            400,
            "request/malformed",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human", "name": "x"}, {"kind": "human"}]}),
            400,
            "request/malformed",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random", "think": 9}]}),
            400,
            "request/malformed",
        ),
    ];
    for (request, status, expected) in cases {
        assert_eq!(
            code(app.post("/api/matches", &request).await),
            (status, expected.to_owned()),
            "{request}"
        );
    }
    assert_eq!(
        code(app.post_raw("/api/matches", "{\"game\": ").await),
        (400, "request/malformed".into())
    );
    let huge = format!("{{\"game\": \"{}\"}}", "x".repeat(20_000));
    assert_eq!(
        code(app.post_raw("/api/matches", &huge).await),
        (413, "request/too_large".into())
    );
    let (_, list) = app.get("/api/matches?status=open,live,finished").await;
    assert_eq!(list["matches"], json!([]), "no bad request created a match");
    assert_eq!(
        code(app.get("/api/matches?status=paused").await),
        (400, "request/malformed".into())
    );

    for path in [
        "/api/matches/0123456789abcdef",
        "/api/matches/not-an-id",
        "/api/matches/0123456789abcdef/record",
    ] {
        assert_eq!(
            code(app.get(path).await),
            (404, "match/not_found".into()),
            "{path}"
        );
    }
    assert_eq!(
        code(
            app.post("/api/matches/0123456789abcdef/join", &json!({}))
                .await
        ),
        (404, "match/not_found".into())
    );
    // The WebSocket of an unknown match is refused before the upgrade.
    let err = tokio_tungstenite::connect_async(format!(
        "ws://{}/api/matches/0123456789abcdef/ws",
        app.addr
    ))
    .await
    .unwrap_err();
    assert!(err.to_string().contains("404"), "{err}");

    let created = app.create(json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, ]})).await;
    let id = id(&created);
    let path = format!("/api/matches/{id}/join");
    for (seat, status, expected) in [
        (json!(0), 409, "seat/taken"),
        (json!(1), 400, "seat/invalid"),
        (json!(7), 400, "seat/invalid"),
        (json!(null), 409, "seat/taken"),
    ] {
        assert_eq!(
            code(app.post(&path, &json!({"seat": seat})).await),
            (status, expected.to_owned()),
            "{seat}"
        );
    }
    for route in ["record", "replay"] {
        assert_eq!(
            code(app.get(&format!("/api/matches/{id}/{route}")).await),
            (409, "match/not_over".into())
        );
    }
    app.shutdown().await;
}

/// Errors the router makes itself (no route, wrong method, no WebSocket upgrade) have the
/// documented JSON body too, under `/api/`; other unknown paths keep the plain 404 page.
#[tokio::test]
async fn router_errors_are_coded_json() {
    let app = spawn_app().await;
    let created = app.create(humans("mad")).await;
    let id = id(&created);
    let json_error = |(status, body): (u16, String)| {
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}"));
        let message = v["message"].as_str().expect("a message").to_owned();
        (status, v["code"].as_str().unwrap().to_owned(), message)
    };
    // Method, path (`ID`: the match id), status, code, a word of the message.
    let cases = "
        GET /api/nowhere 404 request/not_found /api/nowhere
        GET /api 404 request/not_found /api
        GET /api/matches/ID/moves 404 request/not_found /moves
        DELETE /api/matches/ID 405 request/method_not_allowed DELETE
        PUT /api/matches 405 request/method_not_allowed PUT
        GET /api/matches/ID/join 405 request/method_not_allowed /join
        POST / 405 request/method_not_allowed POST
        GET /api/matches/ID/ws 426 request/upgrade_required WebSocket
        GET /api/matches/ID/ws?token=a&token=b 400 request/malformed token
        GET /api/matches?status=open&status=live 400 request/malformed status
        GET /api/matches/%FF 404 match/not_found UTF-8
        POST /api/matches/%FF/join 404 match/not_found UTF-8
        GET /api/matches/%FF/ws 404 match/not_found UTF-8";
    for case in cases.lines().skip(1) {
        let [method, path, status, code, named] = case.split_whitespace().collect::<Vec<_>>()[..]
        else {
            panic!("bad case {case}")
        };
        let (path, status) = (path.replace("ID", &id), status.parse::<u16>().unwrap());
        let (got_status, got_code, message) =
            json_error(common::http(app.addr, method, &path, None).await);
        assert_eq!(
            (got_status, got_code.as_str()),
            (status, code),
            "{method} {path}"
        );
        assert!(message.contains(named), "{method} {path}: {message}");
    }

    // An unknown match's socket without an upgrade is still `match/not_found`.
    let (status, code, _) =
        json_error(common::http(app.addr, "GET", "/api/matches/0123456789abcdef/ws", None).await);
    assert_eq!((status, code.as_str()), (404, "match/not_found"));
    // A page path that does not exist is not an API error.
    let (status, body) = common::http(app.addr, "GET", "/nowhere", None).await;
    assert_eq!((status, body.as_str()), (404, "not found"));
    app.shutdown().await;
}

/// Every bad WebSocket input (docs/protocol.md) gets its code and leaves the match as it was.
#[tokio::test]
async fn websocket_bad_input_gets_coded_errors_and_changes_nothing() {
    let app = spawn_app().await;
    // Before the second player joins, nobody may act.
    let created = app.create(humans("mad")).await;
    let open_id = id(&created);
    let mut early = app.connect(&open_id, created["token"].as_str()).await;
    early.state().await;
    early.act(0, "c2-c4").await;
    assert_eq!(early.error().await["code"], "match/not_started");

    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let mut watcher = app.connect(&id, None).await;
    let start = red.live().await;
    blue.live().await;
    watcher.state().await;
    let (red_states, blue_states) = (red.states().len(), blue.states().len());
    assert_eq!(start["version"], 0);
    assert_eq!(start["to_act"], json!([0]));
    let legal: Vec<String> = serde_json::from_value(start["legal"].clone()).unwrap();
    assert!(!legal.is_empty());
    let mut sorted = legal.clone();
    sorted.sort();
    assert_eq!(legal, sorted, "legal actions come sorted");

    let cases: Vec<(String, &str, &str)> = vec![
        ("{not json".into(), "red", "msg/malformed"),
        ("[1, 2]".into(), "red", "msg/malformed"),
        (r#"{"version": 0}"#.into(), "red", "msg/malformed"),
        (
            r#"{"type": "act", "version": "zero", "action": "c2-c4"}"#.into(),
            "red",
            "msg/malformed",
        ),
        (r#"{"type": "dance"}"#.into(), "red", "msg/unknown"),
        (
            {
                format!(
                    r#"{{"type": "act", "version": 0, "action": "{}"}}"#,
                    "x".repeat(20_000)
                )
            },
            "red",
            "msg/too_large",
        ),
        (
            r#"{"type": "act", "version": 0, "action": "c2-c4"}"#.into(),
            "watcher",
            "auth/seat",
        ),
        (
            r#"{"type": "act", "version": 0, "action": "c5-c3"}"#.into(),
            "blue",
            "action/not_your_turn",
        ),
        (
            r#"{"type": "act", "version": 3, "action": "c2-c4"}"#.into(),
            "red",
            "action/stale",
        ),
        (
            r#"{"type": "act", "version": 0, "action": "zz-top"}"#.into(),
            "red",
            "action/malformed",
        ),
        (
            r#"{"type": "act", "version": 0, "action": "a1-a6"}"#.into(),
            "red",
            "action/illegal",
        ),
        (r#"{"type": "rematch"}"#.into(), "red", "match/not_over"),
    ];
    for (text, who, expected) in &cases {
        let client = match *who {
            "red" => &mut red,
            "blue" => &mut blue,
            _ => &mut watcher,
        };
        client.send_text(text).await;
        let error = client.error().await;
        assert_eq!(
            error["code"],
            *expected,
            "{}: {error}",
            &text[..text.len().min(80)]
        );
        assert!(!error["message"].as_str().unwrap().is_empty());
    }
    red.send_binary(vec![1, 2, 3]).await;
    assert_eq!(red.error().await["code"], "msg/malformed");
    red.send_binary(vec![0; 20_000]).await;
    assert_eq!(red.error().await["code"], "msg/too_large");
    // The connection still works, and nothing changed.
    red.sync().await;
    assert_eq!(app.summary(&id).await["version"], 0);
    assert!(
        red.states().len() == red_states && blue.states().len() == blue_states,
        "no state was broadcast"
    );

    // A good action, then the same one again (a replay) and one based on the old version.
    let first = legal[0].clone();
    red.act(0, &first).await;
    let after = red.state().await;
    assert_eq!(after["version"], 1);
    assert_eq!(after["moves"], json!([{"by": {"seat": 0}, "text": first}]));
    red.act(0, &first).await;
    assert_eq!(red.error().await["code"], "action/stale");
    let blue_legal = blue.state().await["legal"][0].as_str().unwrap().to_owned();
    blue.act(0, &blue_legal).await;
    assert_eq!(blue.error().await["code"], "action/stale");
    red.sync().await;
    assert_eq!(app.summary(&id).await["version"], 1);

    // A token of another match, or a made-up one, is refused at connection time.
    let mut intruder = app.connect(&id, Some(&"ab".repeat(32))).await;
    assert_eq!(intruder.error().await["code"], "auth/seat");
    assert_eq!(intruder.next().await, None);
    assert_eq!(intruder.closed, Some(1008));
    app.shutdown().await;
}

/// Plays random legal moves for every seat whose latest state offers some, until the end. Starts
/// from each client's last state received (waiting for the match to start if it has not).
async fn play_out(clients: &mut [&mut Client], rng: &mut ChaCha8Rng) -> Value {
    let mut last: Vec<Value> = Vec::new();
    for c in clients.iter_mut() {
        match c.states().pop() {
            Some(s) if s["status"] != "open" => last.push(s),
            _ => last.push(c.live().await),
        }
    }
    for _ in 0..5000 {
        if last[0]["status"] == "finished" {
            return last[0].clone();
        }
        let Some(i) = last
            .iter()
            .position(|s| !s["legal"].as_array().unwrap().is_empty())
        else {
            // Someone else (a bot, chance) is to act: wait for the next state.
            assert!(
                last[0]["to_act"] == json!([]) || clients.len() == 1,
                "nobody can act: {}",
                last[0]
            );
            let next = clients[0].state().await;
            last[0] = next;
            continue;
        };
        let legal = last[i]["legal"].as_array().unwrap();
        let action = legal[rng.random_range(0..legal.len())]
            .as_str()
            .unwrap()
            .to_owned();
        let version = last[i]["version"].as_u64().unwrap();
        clients[i].act(version, &action).await;
        let reply = clients[i].until(|m| m["type"] != "chat_backlog").await;
        assert_eq!(
            reply["type"], "state",
            "{action} at version {version}: {reply}"
        );
        last[i] = reply;
        // Every commit sends every connection a state (its version counts only what it can
        // see): once a ping is answered, each has its latest.
        for (j, c) in clients.iter_mut().enumerate() {
            if j != i {
                c.sync().await;
                last[j] = c.states().pop().unwrap();
            }
        }
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_full_mad_game_between_two_websocket_clients() {
    let app = spawn_app().await;
    let (id, t0, t1, seed_hash) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let watcher = app.connect(&id, None).await.watch();
    let end = play_out(
        &mut [&mut red, &mut blue],
        &mut ChaCha8Rng::seed_from_u64(3),
    )
    .await;
    let outcome = &end["outcome"];
    assert!(
        ["corvette", "tiebreak"].contains(&outcome["kind"].as_str().unwrap()),
        "{outcome}"
    );
    let mut ranks: Vec<u64> = serde_json::from_value(outcome["ranks"].clone()).unwrap();
    ranks.sort_unstable();
    assert_eq!(ranks, vec![1, 2]);
    assert_eq!(end["seed"].as_str().unwrap().len(), 64);
    let blue_end = blue.states().pop().unwrap();
    assert_eq!(blue_end["outcome"], *outcome);
    let last = end["version"].as_u64().unwrap();
    let watcher = watcher.await.unwrap();
    assert_eq!(watcher.states().pop().unwrap()["version"], last);

    let rec = record(&app, &id).await;
    assert_eq!(rec.seed_hash, seed_hash);
    assert_eq!(rec.actions.len() as u64, last);
    let replay = rec.replay(entry("mad")).unwrap();
    assert!(replay.seed_verified);
    assert_eq!(
        serde_json::to_value(replay.state.outcome()).unwrap(),
        *outcome
    );
    // The move list is every action in display notation.
    assert_eq!(end["moves"].as_array().unwrap().len() as u64, last);
    for (client, viewer) in [
        (&red, Viewer::Seat(Seat(0))),
        (&blue, Viewer::Seat(Seat(1))),
        (&watcher, Viewer::Spectator),
    ] {
        check_messages(entry("mad"), &rec, viewer, &client.received).unwrap();
    }
    let summary = app.summary(&id).await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["seed"], end["seed"]);
    // After the end, acting is refused.
    red.act(last, "c2-c4").await;
    assert_eq!(red.error().await["code"], "match/over");
    app.shutdown().await;
}

/// Hidden information: the human seat never learns the bot's card before the end, and the secrecy
/// check (which rebuilds every state) agrees for the seat and for a spectator.
#[tokio::test]
async fn a_seat_never_sees_another_seats_secret() {
    let app = spawn_app().await;
    for game in 0..6u64 {
        let created = app
            .create(json!({"game": "toy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}))
            .await;
        let id = id(&created);
        let mut me = app.connect(&id, created["token"].as_str()).await;
        let watcher = app.connect(&id, None).await.watch();
        play_out(&mut [&mut me], &mut ChaCha8Rng::seed_from_u64(game)).await;
        let watcher = watcher.await.unwrap();
        for m in me.states() {
            if m["status"] != "finished" {
                assert!(m["observation"]["cards"][1].is_null(), "{m}");
                assert!(m["seed"].is_null());
            }
        }
        let rec = record(&app, &id).await;
        assert_eq!(rec.seed_hash, created["seed_hash"].as_str().unwrap());
        assert!(rec.replay(entry("toy")).unwrap().seed_verified);
        check_messages(entry("toy"), &rec, Viewer::Seat(Seat(0)), &me.received).unwrap();
        check_messages(entry("toy"), &rec, Viewer::Spectator, &watcher.received).unwrap();
        // The check does catch a leak: seat 0 shown seat 1's card before the end.
        let mut forged = me.states()[0].clone();
        if forged["status"] == "live" {
            let full = check_messages(entry("toy"), &rec, Viewer::Seat(Seat(1)), &[forged.clone()]);
            assert!(full.is_err());
            forged["observation"]["cards"][1] = json!(rec.actions[1].action.parse::<u8>().unwrap());
            assert!(check_messages(entry("toy"), &rec, Viewer::Seat(Seat(0)), &[forged]).is_err());
        }
    }
    app.shutdown().await;
}

/// A seeded bot-vs-bot match through the service: its record replays, the seed matches the hash
/// published at creation and redraws every chance outcome.
#[tokio::test]
async fn bot_versus_bot_records_verify() {
    let app = spawn_app().await;
    for game in ["toy", "mad"] {
        let created = app
            .create(json!({"game": game, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": if game == "mad" { "greedy" } else { "random" }, "level": 3}]}))
            .await;
        assert_eq!(created["seat"], Value::Null);
        assert_eq!(created["token"], Value::Null);
        let id = id(&created);
        let summary = app.wait_finished(&id).await;
        let rec = record(&app, &id).await;
        assert_eq!(rec.seats[0], "random");
        assert_eq!(rec.seed_hash, created["seed_hash"].as_str().unwrap());
        assert_eq!(
            serde_json::to_value(&rec.outcome).unwrap(),
            summary["outcome"]
        );
        let replay = rec.replay(entry(game)).unwrap();
        assert!(replay.seed_verified, "{game}");
        // The replay route gives every position a spectator may see, from the start to the end.
        let (status, steps) = app.get(&format!("/api/matches/{id}/replay")).await;
        assert_eq!(status, 200, "{steps}");
        assert_eq!(steps["verified"], true, "{game}");
        let steps = steps["steps"].as_array().unwrap();
        assert_eq!(steps.len(), rec.actions.len() + 1, "{game}");
        let start = entry(game).new_game(&Value::Null, 2).unwrap();
        assert_eq!(
            steps[0]["observation"],
            start.observe_json(Viewer::Spectator)
        );
        assert_eq!(
            steps.last().unwrap()["observation"],
            replay.state.observe_json(Viewer::Spectator)
        );
        if game == "mad" {
            for (step, action) in steps[1..].iter().zip(&rec.actions) {
                assert_eq!(
                    step["text"],
                    action.action.as_str(),
                    "MAD shows canonical text"
                );
            }
        }
        // Tampering with a chance outcome is caught by the seed.
        if game == "toy" {
            let mut bad = rec.clone();
            let first = bad.actions[0].action.parse::<u8>().unwrap();
            bad.actions[0].action = (first % 6 + 1).to_string();
            assert!(bad.replay(entry("toy")).is_err());
        }
    }
    app.shutdown().await;
}

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
    let endings: Vec<_> = rec.endings.iter().map(|e| (e.after, e.ending)).collect();
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
        json!({"kind": "fischer", "base_seconds": 60, "increment_seconds": 5});
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
    // 60 s - at least 0.3 s thinking + 5 s increment (without the increment it would be at most
    // 59.7 s; the lower bound leaves room for a slow machine).
    assert!((60_000..=64_700).contains(&red_left), "{red_left}");
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
            "config": {"placement_seconds": 3, "turn_seconds": 3},
            "seats": [{"kind": "human"}, bot, bot, bot],
            "time_control": {"kind": "game"},
        }))
        .await;
    let id = id(&created);
    // The config is public: the page needs the match's clocks, costs and move limit.
    assert_eq!(
        app.summary(&id).await["config"],
        json!({"placement_seconds": 3, "turn_seconds": 3})
    );
    let mut me = app.connect(&id, created["token"].as_str()).await;
    let placing = me
        .until(|m| m["type"] == "state" && m["observation"]["phase"] == "placement")
        .await;
    assert_eq!(placing["clocks"]["kind"], "game");
    assert!(
        placing["clocks"]["running_seats"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
    );
    assert!(placing["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 3000);
    // One placement move after 0.5 s: the clock goes on from where it was.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let place = placing["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .find(|a| *a != "ready")
        .unwrap()
        .to_owned();
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
        assert!(moved["clocks"]["remaining_ms"][0].as_u64().unwrap() <= 2500);
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
    let endings: Vec<_> = rec.endings.iter().map(|e| (e.after, e.ending)).collect();
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
    assert_eq!(rec.endings[0].ending, plateau_engine::Ending::Agreement);

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
    app.shutdown().await;
    assert_eq!(red.next().await, None);
    assert_eq!(red.closed, Some(1001));

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

/// Every registered game through the service, generically: seat 0 is a scripted client playing
/// random legal actions, the other seats are random bots. The match must finish, its record must
/// verify with the seed, and every message seat 0 and a spectator received must pass the secrecy
/// check (rebuilt state by state from the record).
#[tokio::test]
async fn every_registered_game_plays_through_the_service_without_leaks() {
    let app = spawn_app().await;
    for game in plateau_registry::GAMES {
        let info = game.info;
        let mut seats = vec![json!({"kind": "human"})];
        seats.extend((1..info.default_seats).map(|_| json!({"kind": "bot", "bot": "random"})));
        let created = app.create(json!({"game": info.name, "seats": seats})).await;
        let id = id(&created);
        let watcher = app.connect(&id, None).await.watch();
        let mut me = app.connect(&id, created["token"].as_str()).await;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut current = me.state().await;
        let mut acts = 0;
        while current["status"] != "finished" {
            assert!(acts < 20_000, "{}: no end", info.name);
            let legal = current["legal"].as_array().unwrap().clone();
            if !legal.is_empty() {
                let version = current["version"].as_u64().unwrap();
                me.act(
                    version,
                    legal[rng.random_range(0..legal.len())].as_str().unwrap(),
                )
                .await;
                acts += 1;
            }
            // The next state; at simultaneous nodes a bot may move first, making ours stale.
            loop {
                let m = me.next().await.expect("socket open");
                match m["type"].as_str() {
                    Some("state") => {
                        current = m;
                        break;
                    }
                    Some("error") if m["code"] == "action/stale" => {}
                    Some("chat_backlog") => {}
                    _ => panic!("{}: {m}", info.name),
                }
            }
        }
        let watcher = watcher.await.unwrap();
        let rec = record(&app, &id).await;
        assert!(rec.replay(game).unwrap().seed_verified, "{}", info.name);
        check_messages(game, &rec, Viewer::Seat(Seat(0)), &me.received)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        check_messages(game, &rec, Viewer::Spectator, &watcher.received)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
    }
    app.shutdown().await;
}
