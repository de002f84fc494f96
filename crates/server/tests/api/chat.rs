//! A match's chat (docs/protocol.md section 7.5): the players' room and the spectators' room,
//! lines stored as text, limits, mutes, the backlog and the replay's copy.

use serde_json::{Value, json};

use crate::common::{Agent, Client, spawn_app};

/// The chat lines `client` received so far, as (room, name, text).
fn lines(client: &Client) -> Vec<(String, String, String)> {
    client
        .received
        .iter()
        .filter(|m| m["type"] == "chat")
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or_default().to_owned();
            (s("room"), s("name"), s("text"))
        })
        .collect()
}

fn says(text: &str) -> Value {
    json!({"type": "chat", "text": text})
}

#[tokio::test]
async fn players_and_spectators_have_their_own_rooms() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut bob = Agent::guest(app.addr, "Bob").await;
    let carol = Agent::guest(app.addr, "Carol").await;
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    bob.post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut a = alice.connect(&id, None).await;
    let mut b = bob.connect(&id, None).await;
    let mut c = carol.connect(&id, None).await;
    let mut anonymous = crate::common::Client::connect(app.addr, &id, None).await;
    a.live().await;
    b.live().await;

    // Markup is text: stored and sent as written, for the page to show escaped.
    let script = "<script>alert(1)</script>";
    a.send(says(script)).await;
    let got = b.until(|m| m["type"] == "chat").await;
    assert_eq!(
        (
            got["room"].clone(),
            got["name"].clone(),
            got["seat"].clone(),
            got["text"].clone()
        ),
        (json!("players"), json!("Alice"), json!(0), json!(script))
    );
    // A spectator writes to the spectators' room only; one without a name cannot write.
    c.send(says("who is winning?")).await;
    anonymous.until(|m| m["type"] == "chat").await;
    anonymous.send(says("hi")).await;
    assert_eq!(anonymous.error().await["code"], "auth/required");
    for client in [&mut a, &mut b, &mut c, &mut anonymous] {
        client.sync().await;
    }
    let players = ("players".to_owned(), "Alice".to_owned(), script.to_owned());
    let spectators = (
        "spectators".to_owned(),
        "Carol".to_owned(),
        "who is winning?".to_owned(),
    );
    for (client, expected) in [
        (&a, &players),
        (&b, &players),
        (&c, &spectators),
        (&anonymous, &spectators),
    ] {
        assert_eq!(lines(client), std::slice::from_ref(expected));
    }

    // Limits: empty (or only invisible), too long, control characters, the direction of the
    // text turned; then at most 5 lines in 10 s.
    for bad in [
        "   ",
        "\u{200b}\u{200b}",
        &"x".repeat(301),
        "red\u{1b}[31m",
        "two\nlines",
        "gg \u{202e}llew",
    ] {
        a.send(says(bad)).await;
        assert_eq!(a.error().await["code"], "chat/invalid", "{bad:?}");
    }
    for n in 2..=5 {
        a.send(says(&format!("line {n}"))).await;
        a.until(|m| m["type"] == "chat" && m["text"] == format!("line {n}"))
            .await;
    }
    a.send(says("one too many")).await;
    assert_eq!(a.error().await["code"], "chat/rate_limited");

    // Alice mutes Bob: his next line reaches him, not her; unmuted, the one after does.
    a.send(json!({"type": "mute", "name": "bob"})).await;
    a.sync().await;
    b.send(says("can you hear me")).await;
    b.until(|m| m["type"] == "chat" && m["text"] == "can you hear me")
        .await;
    a.sync().await;
    assert!(!lines(&a).iter().any(|l| l.2 == "can you hear me"));
    a.send(json!({"type": "unmute", "name": "Bob"})).await;
    a.sync().await;
    b.send(says("now?")).await;
    a.until(|m| m["type"] == "chat" && m["text"] == "now?")
        .await;
    a.send(json!({"type": "mute", "name": "Nobody"})).await;
    assert_eq!(a.error().await["code"], "player/not_found");

    // A new connection gets its room's backlog.
    let mut b2 = bob.connect(&id, None).await;
    let backlog = b2.until(|m| m["type"] == "chat_backlog").await;
    assert_eq!(backlog["room"], "players");
    assert_eq!(backlog["lines"].as_array().unwrap().len(), 7);
    assert_eq!(backlog["lines"][0]["text"], script);

    // The replay's copy: only once the match is over, both rooms.
    assert_eq!(
        alice.get(&format!("/api/matches/{id}/chat")).await.1["code"],
        "match/not_over"
    );
    b.send(json!({"type": "resign"})).await;
    a.until(|m| m["status"] == "finished").await;
    let (status, chat) = alice.get(&format!("/api/matches/{id}/chat")).await;
    assert_eq!(status, 200);
    assert_eq!(chat["players"].as_array().unwrap().len(), 7);
    assert_eq!(chat["spectators"][0]["name"], "Carol");
    assert_eq!(chat["players"][0]["text"], script);
    app.shutdown().await;
}
