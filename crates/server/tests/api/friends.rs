//! Follows and the friend list (docs/protocol.md section 7.8): who of the players one follows is
//! online and playing, live over the lobby's socket.

use serde_json::{Value, json};

use crate::common::{Agent, Client, humans, spawn_app};

async fn lobby(agent: &Agent) -> Client {
    let mut ws = agent.ws("/api/lobby/ws").await;
    ws.until(|m| m["type"] == "lobby").await;
    ws
}

/// The next friend list whose entry for `name` satisfies `f`.
async fn friend(ws: &mut Client, name: &str, f: impl Fn(&Value) -> bool) -> Value {
    ws.until(|m| {
        m["type"] == "friends"
            && m["friends"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["name"] == name && f(x))
    })
    .await
}

#[tokio::test]
async fn the_friend_list_shows_who_is_online_and_playing() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut bob = Agent::guest(app.addr, "Bob").await;
    let mut nobody = Agent::new(app.addr);
    let (status, body) = nobody.request("PUT", "/api/me/follows/Bob", None).await;
    assert_eq!((status, &body["code"]), (401, &json!("auth/required")));
    for (path, status, code) in [
        ("/api/me/follows/Alice", 400, "relation/invalid"),
        ("/api/me/follows/Nobody", 404, "player/not_found"),
    ] {
        let (got, body) = alice.request("PUT", path, None).await;
        assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{path}");
    }
    let mut a = lobby(&alice).await;
    let empty = a.until(|m| m["type"] == "friends").await;
    assert_eq!(empty["friends"], json!([]));

    let (status, _) = alice.request("PUT", "/api/me/follows/bob", None).await;
    assert_eq!(status, 204);
    let (_, relations) = alice.get("/api/me/relations").await;
    assert_eq!(
        relations,
        json!({"follows": [{"name": "Bob", "kind": "guest"}], "blocks": []})
    );
    let away = friend(&mut a, "Bob", |x| x["online"] == false).await;
    assert_eq!(
        away["friends"],
        json!([{"name": "Bob", "kind": "guest", "online": false, "playing": null}])
    );
    // Bob comes to the lobby, then sits at a match: Alice sees both, live.
    let b = lobby(&bob).await;
    friend(&mut a, "Bob", |x| {
        x["online"] == true && x["playing"].is_null()
    })
    .await;
    let (_, created) = bob.post("/api/matches", &humans("mad")).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut seat = bob.connect(&id, created["token"].as_str()).await;
    seat.state().await;
    let (status, joined) = alice
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200);
    // Live once both opened it.
    let mut other = alice.connect(&id, joined["token"].as_str()).await;
    other.live().await;
    let playing = friend(&mut a, "Bob", |x| x["playing"] == id.as_str()).await;
    assert_eq!(playing["friends"][0]["online"], true);
    // He leaves the match and the lobby: away again.
    drop(seat);
    drop(other);
    drop(b);
    friend(&mut a, "Bob", |x| {
        x["online"] == false && x["playing"].is_null()
    })
    .await;

    // A followed player who blocks the follower shows offline to it.
    let mut b = lobby(&bob).await;
    friend(&mut a, "Bob", |x| x["online"] == true).await;
    let (status, _) = bob.request("PUT", "/api/me/blocks/Alice", None).await;
    assert_eq!(status, 204);
    friend(&mut a, "Bob", |x| x["online"] == false).await;
    b.send(json!({"type": "ping"})).await;
    b.until(|m| m["type"] == "pong").await;
    // Unfollowed, he leaves the list.
    let (status, _) = alice.request("DELETE", "/api/me/follows/Bob", None).await;
    assert_eq!(status, 204);
    a.until(|m| m["type"] == "friends" && m["friends"] == json!([]))
        .await;
    app.shutdown().await;
}

#[tokio::test]
async fn a_blocked_players_chat_is_not_sent_to_the_blocker() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut bob = Agent::guest(app.addr, "Bob").await;
    let (status, _) = bob.request("PUT", "/api/me/blocks/Alice", None).await;
    assert_eq!(status, 204);
    let (_, created) = alice.post("/api/matches", &humans("mad")).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let (_, joined) = bob
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut a = alice.connect(&id, created["token"].as_str()).await;
    let mut b = bob.connect(&id, joined["token"].as_str()).await;
    a.live().await;
    b.live().await;
    a.send(json!({"type": "chat", "text": "hello"})).await;
    a.until(|m| m["type"] == "chat" && m["text"] == "hello")
        .await;
    b.send(json!({"type": "chat", "text": "hi"})).await;
    b.until(|m| m["type"] == "chat" && m["text"] == "hi").await;
    // Alice hears Bob; Bob never heard Alice.
    a.until(|m| m["type"] == "chat" && m["text"] == "hi").await;
    assert!(
        !b.received.iter().any(|m| m["text"] == "hello"),
        "{:#?}",
        b.received
    );
    app.shutdown().await;
}
