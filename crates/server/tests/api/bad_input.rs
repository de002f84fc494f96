//! Bad input over HTTP and WebSocket (docs/protocol.md section 5): each gets its documented code
//! and changes nothing.

use serde_json::{Value, json};

use crate::common;
use crate::common::{humans, id, spawn_app, two_humans};

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
        // A level is named or numbered, never both differently, and only a level bot has one.
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert", "level": 2}]}),
            400,
            "request/malformed",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random", "level": 3}]}),
            400,
            "request/malformed",
        ),
        (
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "level": 6}]}),
            400,
            "request/malformed",
        ),
    ];
    // A level that is not a whole number from 1 to 5 is named as such, whatever its type.
    for level in [json!(-1), json!(261), json!("5"), json!(2.5), json!([5])] {
        let request =
            json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]});
        let (status, body) = app.post("/api/matches", &request).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("request/malformed")),
            "{request}"
        );
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("bot level") && message.contains("1 to 5"),
            "{message}"
        );
    }
    // A time control that is not an object says what it should be, in the API's words.
    let request = json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}],
                         "time_control": null});
    let (status, body) = app.post("/api/matches", &request).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("request/malformed"))
    );
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("an object with `kind`") && !message.contains("struct"),
        "{message}"
    );
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
    for route in ["record", "replay", "analysis"] {
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
            r#"{"type": "act", "version": 0, "action": "c2-c4"}"#.into(),
            "watcher",
            "auth/seat",
        ),
        (
            r#"{"type": "act", "version": 0, "action": "c5-c3"}"#.into(),
            "blue",
            "action/not_your_turn",
        ),
        // Parts sent out of turn answer the turn first, as a text does (docs/protocol.md
        // section 4.2), whatever the parts say; the seat to act learns what is wrong with them.
        (
            r#"{"type": "act", "version": 0, "action": {"kind": "place", "piece": "buoy"}}"#.into(),
            "blue",
            "action/not_your_turn",
        ),
        (
            r#"{"type": "act", "version": 0, "actions": [{"kind": "ready"}]}"#.into(),
            "blue",
            "action/not_your_turn",
        ),
        (
            r#"{"type": "act", "version": 0, "action": {"kind": "place", "piece": "buoy"}}"#.into(),
            "red",
            "action/malformed",
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
    // A message over 16 KiB is not read at all: the socket closes with 1009 (another one of
    // the same seat's, so the match's own sockets go on).
    let too_large = format!(
        r#"{{"type": "act", "version": 0, "action": "{}"}}"#,
        "x".repeat(20_000)
    );
    for big in [true, false] {
        let mut extra = app.connect(&id, None).await;
        extra.state().await;
        if big {
            extra.send_text(&too_large).await;
        } else {
            extra.send_binary(vec![0; 20_000]).await;
        }
        while extra.next().await.is_some() {}
        assert_eq!(extra.closed, Some(1009));
    }
    // The lobby's socket answers the same frames alike.
    let mut lobby = crate::common::Agent::new(app.addr)
        .ws("/api/lobby/ws")
        .await;
    lobby.send_binary(vec![1, 2, 3]).await;
    assert_eq!(lobby.error().await["code"], "msg/malformed");
    lobby.send_text(&" ".repeat(20_000)).await;
    while lobby.next().await.is_some() {}
    assert_eq!(lobby.closed, Some(1009));
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
    // The entry with its parts, those `legal_info` gave the action (docs/protocol.md section 4.1).
    let parts = &start["legal_info"][0];
    assert_eq!(
        after["moves"],
        json!([{"by": {"seat": 0}, "text": first, "info": parts}])
    );
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
