//! `GET /api/matches/{id}/history` (docs/protocol.md section 3.9): a seat or a spectator steps
//! back through a game in play, and each earlier position is what that viewer could see then:
//! checked against the game rebuilt from the record, and, for Bataille Navale's hidden fleets,
//! against the rules-derived secrets of `naval_secrecy`.

use plateau_engine::{Seat, Viewer};
use plateau_naval::Naval;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{self, Agent, humans, id, record, token};
use crate::games::{play_for, play_out};
use crate::naval_secrecy::leaks;

/// The history of match `id` as the holder of `token` (none: as whoever calls without one).
async fn history(app: &common::TestApp, id: &str, token: Option<&str>) -> (u16, Value) {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = bearer
        .iter()
        .map(|b| ("Authorization", b.as_str()))
        .collect();
    let path = format!("/api/matches/{id}/history");
    let (status, _, body) = common::http_with(app.addr, "GET", &path, &headers, None).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

#[tokio::test]
async fn each_seat_steps_back_through_its_own_view_of_a_live_game() {
    let app = common::spawn_app().await;
    let human = json!({"kind": "human"});
    let config = json!({"max_rounds": 6, "placement_moves": 4});
    let (id, tokens) = common::seats_taken(
        &app,
        json!({"game": "naval", "config": config, "seats": [human, human, human, human]}),
    )
    .await;
    let mut clients = Vec::new();
    for t in &tokens {
        clients.push(app.connect(&id, Some(t)).await);
    }
    let mut watcher = app.connect(&id, None).await;
    let [a, b, c, d] = &mut clients[..] else {
        unreachable!()
    };
    let rng = &mut ChaCha8Rng::seed_from_u64(11);
    // Placements (secret), the ready calls and a few battle turns, each seat's hidden from the
    // others until fired. The spectator, which never acts, is brought up to date after every
    // action as the seats are: a socket that sends nothing for the idle time is closed.
    let now = play_for(&mut [a, b, c, d, &mut watcher], rng, 40).await;
    assert_eq!(now["status"], "live", "the game ended too soon");
    watcher.sync().await;
    clients.push(watcher);

    // Every seat's history while the game runs, then the spectators'.
    let mut histories = Vec::new();
    for (s, t) in tokens.iter().map(Some).chain([None]).enumerate() {
        let (status, body) = history(&app, &id, t.map(String::as_str)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["seat"], if s < 4 { json!(s) } else { Value::Null });
        histories.push(body["steps"].as_array().unwrap().clone());
    }

    // Every position a viewer was sent over the WebSocket is the step of its version, with the
    // move list it had then; the last is the present.
    for (s, steps) in histories.iter().enumerate() {
        let sent = clients[s].states();
        assert_eq!(
            steps.len() as u64,
            sent.last().unwrap()["version"].as_u64().unwrap() + 1
        );
        for m in &sent {
            let step = &steps[m["version"].as_u64().unwrap() as usize];
            assert_eq!(
                step["observation"], m["observation"],
                "viewer {s}, version {}",
                m["version"]
            );
            let moves = m["moves"].as_array().unwrap();
            assert_eq!(
                step["moves"],
                moves.len(),
                "viewer {s}, version {}",
                m["version"]
            );
        }
        let listed: Vec<Value> = steps
            .iter()
            .filter(|m| !m["by"].is_null())
            .map(|m| json!({"by": m["by"], "text": m["text"], "info": m["info"]}))
            .collect();
        assert_eq!(json!(listed), sent.last().unwrap()["moves"], "viewer {s}");
    }
    // Other seats' turns are steps of seat 0 (its view changed) without their secret orders.
    assert!(
        histories[0]
            .iter()
            .any(|m| m["by"].is_null() && m["text"].is_null())
    );

    // The truth: the game rebuilt from its record once over. Each step is the viewer's
    // observation of the game as it stood then, and tells a seat no secret of another's fleet.
    let [a, b, c, d, _] = &mut clients[..] else {
        unreachable!()
    };
    play_out(&mut [a, b, c, d], rng).await;
    let record = record(&app, &id).await;
    let entry = common::entry("naval");
    let states = plateau_match::versions::states(entry, &record).unwrap();
    let viewers = [0, 1, 2, 3]
        .map(|s| Viewer::Seat(Seat(s)))
        .into_iter()
        .chain([Viewer::Spectator]);
    for (viewer, steps) in viewers.zip(&histories) {
        let versions = plateau_match::versions::viewer_versions(entry, &record, viewer).unwrap();
        for (v, step) in steps.iter().enumerate() {
            let at: Vec<usize> = (0..states.len())
                .filter(|p| versions[*p] == v as u64)
                .collect();
            assert!(!at.is_empty(), "{viewer:?}: no position of version {v}");
            for p in at {
                assert_eq!(
                    step["observation"],
                    states[p].observe_json(viewer),
                    "{viewer:?} {v}"
                );
                let Viewer::Seat(Seat(s)) = viewer else {
                    continue;
                };
                let g: &Naval = states[p].as_any().downcast_ref().unwrap();
                let listed: Vec<Value> = steps[1..=v]
                    .iter()
                    .filter(|m| !m["by"].is_null())
                    .map(|m| json!({"by": m["by"], "text": m["text"]}))
                    .collect();
                let shown = json!({"observation": step["observation"], "moves": listed});
                assert_eq!(
                    leaks(g, s.into(), &shown),
                    Vec::<String>::new(),
                    "seat {s} {v}"
                );
            }
        }
    }
    // The check can fail: seat 1's present view, shown to seat 0, tells where seat 1's ships are.
    let last = histories[1].len() - 1;
    let versions =
        plateau_match::versions::viewer_versions(entry, &record, Viewer::Seat(Seat(1))).unwrap();
    let at = versions.iter().position(|v| *v == last as u64).unwrap();
    let g: &Naval = states[at].as_any().downcast_ref().unwrap();
    let theirs = json!({"observation": histories[1][last]["observation"], "moves": []});
    assert!(
        !leaks(g, 0, &theirs).is_empty(),
        "seat 1's view told seat 0 nothing"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn the_history_is_given_to_the_seat_the_caller_proves() {
    let app = common::spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let (status, created) = alice.post("/api/matches", &humans("mad")).await;
    assert_eq!(status, 201, "{created}");
    let id = id(&created);
    let alice_token = token(&created);
    let (status, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let mut red = app.connect(&id, Some(&alice_token)).await;
    let mut blue = app.connect(&id, Some(&token(&joined))).await;
    play_for(
        &mut [&mut red, &mut blue],
        &mut ChaCha8Rng::seed_from_u64(2),
        3,
    )
    .await;

    // Alice's session finds her seat without the token; a stranger is a spectator.
    let (status, mine) = alice.get(&format!("/api/matches/{id}/history")).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["seat"], 0);
    assert_eq!(mine["steps"].as_array().unwrap().len(), 4);
    let (status, watched) = history(&app, &id, None).await;
    assert_eq!(status, 200, "{watched}");
    assert_eq!(watched["seat"], Value::Null);
    // MAD hides nothing: every viewer is shown the same positions.
    assert_eq!(watched["steps"], mine["steps"]);

    // A token of no seat of this match, or of Alice's seat held out by another player's session:
    // refused, as on the WebSocket.
    let (status, body) = history(&app, &id, Some(&"ab".repeat(32))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("auth/seat")),
        "{body}"
    );
    let bob = Agent::guest(app.addr, "Bob").await;
    let cookie = format!("plateau_session={}", bob.session.as_deref().unwrap());
    let bearer = format!("Bearer {alice_token}");
    let path = format!("/api/matches/{id}/history");
    let headers = [
        ("Cookie", cookie.as_str()),
        ("Authorization", bearer.as_str()),
    ];
    let (status, _, body) = common::http_with(app.addr, "GET", &path, &headers, None).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("auth/seat"), "{body}");
    // The scheme in any case finds the seat; any other Authorization is refused, never read as
    // a spectator's call.
    for (header, expected) in [
        (format!("bearer {alice_token}"), 200),
        (format!("BEARER {alice_token}"), 200),
        (format!("Basic {alice_token}"), 403),
        (alice_token.clone(), 403),
        ("Bearer".to_owned(), 403),
    ] {
        let headers = [("Authorization", header.as_str())];
        let (status, _, body) = common::http_with(app.addr, "GET", &path, &headers, None).await;
        assert_eq!(status, expected, "{header}: {body}");
        if expected == 200 {
            assert!(body.contains(r#""seat":0"#), "{header}: {body}");
        }
    }
    // A token in the URL is refused before anything is read; an unknown match is not found.
    let (status, body) = app
        .get(&format!("/api/matches/{id}/history?token={alice_token}"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("request/malformed")),
        "{body}"
    );
    let (status, body) = history(&app, "0123456789abcdef", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("match/not_found")),
        "{body}"
    );
    app.shutdown().await;
}
