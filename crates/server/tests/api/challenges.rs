//! Challenges to a named player over the lobby's socket (docs/protocol.md section 7.7): sent,
//! shown to both, accepted into a match, declined, withdrawn, expired, and refused or hidden
//! between blocked players (section 7.8).

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Agent, Client, app_with, spawn_app, spawn_app_with, temp_db, test_options};

async fn lobby(agent: &Agent) -> Client {
    let mut ws = agent.ws("/api/lobby/ws").await;
    ws.until(|m| m["type"] == "lobby").await;
    ws
}

fn challenge(name: &str, game: &str) -> Value {
    json!({"type": "challenge", "name": name, "game": game,
           "time_control": {"kind": "per_move", "seconds": 60}, "rated": false})
}

/// The next `challenges` list whose incoming and outgoing counts are these.
async fn lists(ws: &mut Client, incoming: usize, outgoing: usize) -> Value {
    ws.until(|m| {
        m["type"] == "challenges"
            && m["incoming"].as_array().map(Vec::len) == Some(incoming)
            && m["outgoing"].as_array().map(Vec::len) == Some(outgoing)
    })
    .await
}

/// A service whose challenges expire after `life`.
async fn app_with_life(life: Duration) -> crate::common::TestApp {
    let mut options = test_options();
    options.limits.challenge_life = life;
    spawn_app_with(temp_db(), options).await
}

#[tokio::test]
async fn a_challenge_is_shown_to_both_and_accepted_into_a_match() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let carol = Agent::guest(app.addr, "Carol").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;
    let mut c = lobby(&carol).await;
    let mut nobody = lobby(&Agent::new(app.addr)).await;
    nobody.send(challenge("Bob", "mad")).await;
    assert_eq!(nobody.error().await["code"], "auth/required");
    for (bad, code) in [
        (challenge("alice", "mad"), "challenge/invalid"),
        (challenge("Nobody", "mad"), "player/not_found"),
        (challenge("Bob", "naval"), "challenge/invalid"),
        (challenge("Bob", "chess"), "game/unknown"),
        (
            json!({"type": "challenge", "name": "Bob", "game": "mad",
                   "time_control": {"kind": "per_move", "seconds": 0}}),
            "time_control/invalid",
        ),
        (json!({"type": "challenge", "name": "Bob"}), "msg/malformed"),
    ] {
        a.send(bad).await;
        assert_eq!(a.error().await["code"], code);
    }

    a.send(challenge("bob", "mad")).await;
    let sent = a.until(|m| m["type"] == "challenge_sent").await;
    let number = sent["challenge"].as_u64().unwrap();
    let mine = lists(&mut a, 0, 1).await;
    let shown = lists(&mut b, 1, 0).await;
    assert_eq!(mine["outgoing"], shown["incoming"]);
    let one = &shown["incoming"][0];
    assert_eq!(one["challenge"], number);
    assert_eq!(
        one["from"],
        json!({"name": "Alice", "kind": "guest", "rating": 1500})
    );
    assert_eq!(
        one["to"],
        json!({"name": "Bob", "kind": "guest", "rating": 1500})
    );
    assert_eq!(
        (one["game"].as_str(), one["seats"].as_u64()),
        (Some("mad"), Some(2))
    );
    assert_eq!(one["rated"], false);
    let expires = one["expires_at"].as_i64().unwrap();
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    assert!(
        (now + 290_000..=now + 300_000).contains(&expires),
        "{expires} {now}"
    );

    a.send(challenge("Bob", "mad")).await;
    assert_eq!(a.error().await["code"], "challenge/duplicate");
    // Nobody else may answer it, nor the challenger accept its own.
    c.send(json!({"type": "challenge_accept", "challenge": number}))
        .await;
    assert_eq!(c.error().await["code"], "challenge/not_found");
    a.send(json!({"type": "challenge_accept", "challenge": number}))
        .await;
    assert_eq!(a.error().await["code"], "challenge/not_found");
    c.send(json!({"type": "challenge_cancel", "challenge": number}))
        .await;
    assert_eq!(c.error().await["code"], "challenge/not_found");

    // A second lobby socket of Bob's (another tab) is shown it on connecting.
    let mut b2 = bob.ws("/api/lobby/ws").await;
    lists(&mut b2, 1, 0).await;

    b.send(json!({"type": "challenge_accept", "challenge": number}))
        .await;
    let pb = b.until(|m| m["type"] == "paired").await;
    let pa = a.until(|m| m["type"] == "paired").await;
    assert_eq!(pa["id"], pb["id"]);
    let seats = [pa["seat"].as_u64().unwrap(), pb["seat"].as_u64().unwrap()];
    assert!(seats == [0, 1] || seats == [1, 0], "{seats:?}");
    // Each of Bob's sockets hears that it was answered (Alice's heard it before her `paired`,
    // which comes on another queue).
    lists(&mut b2, 0, 0).await;
    let id = pa["id"].as_str().unwrap();
    let summary = app.summary(id).await;
    assert_eq!(summary["game"], "mad");
    assert_eq!(summary["rated"], false);
    assert_eq!(
        summary["time_control"],
        json!({"kind": "per_move", "seconds": 60})
    );
    // Both seats are the two players', and their tokens open them.
    let mut players: Vec<&str> = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["name"].as_str().unwrap())
        .collect();
    players.sort_unstable();
    assert_eq!(players, ["Alice", "Bob"]);
    let mut sa = alice.connect(id, pa["token"].as_str()).await;
    let mut sb = bob.connect(id, pb["token"].as_str()).await;
    assert_eq!(sa.live().await["seat"], pa["seat"]);
    assert_eq!(sb.live().await["seat"], pb["seat"]);
    // Answered, it is gone.
    b.send(json!({"type": "challenge_decline", "challenge": number}))
        .await;
    assert_eq!(b.error().await["code"], "challenge/not_found");
    app.shutdown().await;
}

#[tokio::test]
async fn a_challenge_is_declined_withdrawn_or_withdrawn_with_its_socket() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;

    a.send(challenge("Bob", "moonleap")).await;
    let number = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
    lists(&mut b, 1, 0).await;
    b.send(json!({"type": "challenge_decline", "challenge": number}))
        .await;
    let ended = a.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(
        ended,
        json!({"type": "challenge_ended", "challenge": number, "name": "Bob", "reason": "declined"})
    );
    lists(&mut a, 0, 0).await;
    lists(&mut b, 0, 0).await;

    a.send(challenge("Bob", "chakart")).await;
    let number = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
    lists(&mut b, 1, 0).await;
    a.send(json!({"type": "challenge_cancel", "challenge": number}))
        .await;
    let ended = b.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(ended["reason"], "cancelled");
    assert_eq!(ended["name"], "Alice");
    lists(&mut b, 0, 0).await;

    // Closing the socket that sent it withdraws it too.
    a.send(challenge("Bob", "mad")).await;
    a.until(|m| m["type"] == "challenge_sent").await;
    lists(&mut b, 1, 0).await;
    drop(a);
    let ended = b.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(ended["reason"], "cancelled");
    lists(&mut b, 0, 0).await;

    // At most five open at once.
    let mut a = lobby(&alice).await;
    for n in 0..5 {
        let name = format!("Friend{n}");
        Agent::guest(app.addr, &name).await;
        a.send(challenge(&name, "mad")).await;
        a.until(|m| m["type"] == "challenge_sent").await;
    }
    a.send(challenge("Bob", "mad")).await;
    assert_eq!(a.error().await["code"], "limit/challenges");
    app.shutdown().await;
}

#[tokio::test]
async fn a_challenge_nobody_answers_expires() {
    let app = app_with_life(Duration::from_millis(1500)).await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;
    a.send(challenge("Bob", "mad")).await;
    let number = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
    lists(&mut b, 1, 0).await;
    let to_a = a.until(|m| m["type"] == "challenge_ended").await;
    let to_b = b.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(
        (&to_a["challenge"], &to_a["reason"]),
        (&number, &json!("expired"))
    );
    assert_eq!(
        (&to_a["name"], &to_b["name"]),
        (&json!("Bob"), &json!("Alice"))
    );
    assert_eq!(to_b["reason"], "expired");
    lists(&mut a, 0, 0).await;
    b.send(json!({"type": "challenge_accept", "challenge": number}))
        .await;
    assert_eq!(b.error().await["code"], "challenge/not_found");
    app.shutdown().await;
}

#[tokio::test]
async fn a_blocked_player_is_neither_heard_nor_told() {
    // Long enough for Bob's block to come before the first challenge expires on a busy machine.
    let app = app_with_life(Duration::from_secs(5)).await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut bob = Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;
    // Alice's challenge waits for Bob; his block hides it from him at once.
    a.send(challenge("Bob", "mad")).await;
    let first = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
    lists(&mut b, 1, 0).await;
    let (status, _) = bob.request("PUT", "/api/me/blocks/alice", None).await;
    assert_eq!(status, 204);
    lists(&mut b, 0, 0).await;
    b.send(json!({"type": "challenge_accept", "challenge": first}))
        .await;
    assert_eq!(b.error().await["code"], "challenge/not_found");
    // To Alice it reads as unanswered until it expires; her next one is taken as any other,
    // and never reaches Bob either.
    let ended = a.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(
        (&ended["challenge"], &ended["reason"]),
        (&first, &json!("expired"))
    );
    a.send(challenge("Bob", "chakart")).await;
    let second = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
    lists(&mut a, 0, 1).await;
    let ended = a.until(|m| m["type"] == "challenge_ended").await;
    assert_eq!(
        (&ended["challenge"], &ended["reason"]),
        (&second, &json!("expired"))
    );
    b.send(json!({"type": "ping"})).await;
    b.until(|m| m["type"] == "pong").await;
    assert!(
        !b.received.iter().any(|m| m["type"] == "challenge_ended"
            || (m["type"] == "challenges" && m["incoming"].as_array().unwrap().len() > 1)),
        "{:#?}",
        b.received
    );
    // Bob may not challenge the player he blocks; Alice's seek does not pair with him.
    b.send(challenge("Alice", "mad")).await;
    assert_eq!(b.error().await["code"], "player/blocked");
    a.send(json!({"type": "seek", "game": "mad", "seats": 2,
                  "time_control": {"kind": "none"}, "rated": false}))
        .await;
    let seek = a.until(|m| m["type"] == "seeking").await["seek"].clone();
    b.until(|m| m["type"] == "lobby" && m["pools"][0]["waiting"] == 1)
        .await;
    b.send(json!({"type": "accept", "seek": seek})).await;
    assert_eq!(b.error().await["code"], "seek/not_found");
    a.send(json!({"type": "cancel"})).await;
    a.until(|m| m["type"] == "cancelled").await;
    // Unblocked, they may play again.
    let (status, _) = bob.request("DELETE", "/api/me/blocks/Alice", None).await;
    assert_eq!(status, 204);
    let (_, relations) = bob.get("/api/me/relations").await;
    assert_eq!(relations, json!({"follows": [], "blocks": []}));
    b.send(challenge("Alice", "mad")).await;
    b.until(|m| m["type"] == "challenge_sent").await;
    lists(&mut a, 1, 0).await;
    let (status, _) = alice.request("PUT", "/api/me/blocks/Nobody", None).await;
    assert_eq!(status, 404);
    app.shutdown().await;
}

#[tokio::test]
async fn a_challenge_counts_as_a_match_its_address_makes_even_when_withdrawn() {
    let app = app_with(plateau_lobby::limits::Limits {
        matches_per_minute: 2,
        guests_per_minute: 100,
        ..plateau_lobby::limits::Limits::default()
    })
    .await;
    let alice = Agent::guest(app.addr, "Alice").await;
    Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    for _ in 0..2 {
        a.send(challenge("Bob", "mad")).await;
        let number = a.until(|m| m["type"] == "challenge_sent").await["challenge"].clone();
        a.send(json!({"type": "challenge_cancel", "challenge": number}))
            .await;
        lists(&mut a, 0, 0).await;
    }
    // Sending and withdrawing again and again would ring Bob's lobby without end.
    a.send(challenge("Bob", "mad")).await;
    assert_eq!(a.error().await["code"], "limit/matches");
    app.shutdown().await;
}
