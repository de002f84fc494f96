//! Quick pairing and the lobby's socket (docs/protocol.md section 7.6).

use serde_json::{Value, json};

use crate::common::{Agent, Client, spawn_app};

fn seek(game: &str, seats: u8, clock: Value, bots_after: Option<u32>) -> Value {
    json!({"type": "seek", "game": game, "seats": seats, "time_control": clock, "rated": true,
           "bots_after_seconds": bots_after, "bot": "random"})
}

async fn lobby(agent: &Agent) -> Client {
    let mut ws = agent.ws("/api/lobby/ws").await;
    let first = ws.until(|m| m["type"] == "lobby").await;
    assert!(
        first["online"].is_u64() && first["playing"].is_u64(),
        "{first}"
    );
    ws
}

#[tokio::test]
async fn two_seekers_are_paired_into_a_rated_match_and_told_their_turn() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;
    let mut nobody = lobby(&Agent::new(app.addr)).await;
    let none = json!({"kind": "none"});
    nobody.send(seek("mad", 2, none.clone(), None)).await;
    assert_eq!(nobody.error().await["code"], "auth/required");

    a.send(seek("mad", 2, none.clone(), None)).await;
    assert_eq!(
        a.until(|m| m["type"] == "seeking" || m["type"] == "error")
            .await["type"],
        "seeking"
    );
    a.send(seek("mad", 2, none.clone(), None)).await;
    assert_eq!(a.error().await["code"], "seek/duplicate");
    // The lobby shows the waiting seeker.
    b.until(|m| m["type"] == "lobby" && m["pools"][0]["waiting"] == 1)
        .await;
    for (bad, code) in [
        (seek("chess", 2, none.clone(), None), "game/unknown"),
        (seek("mad", 3, none.clone(), None), "config/invalid"),
        (
            seek("mad", 2, json!({"kind": "game"}), None),
            "time_control/invalid",
        ),
        (
            seek("moonleap", 2, none.clone(), Some(0)),
            "request/malformed",
        ),
    ] {
        b.send(bad).await;
        assert_eq!(b.error().await["code"], code);
    }

    b.send(seek("mad", 2, none.clone(), None)).await;
    let pa = a.until(|m| m["type"] == "paired").await;
    let pb = b.until(|m| m["type"] == "paired").await;
    assert_eq!(pa["id"], pb["id"]);
    let mut seats = [pa["seat"].as_u64().unwrap(), pb["seat"].as_u64().unwrap()];
    seats.sort_unstable();
    assert_eq!(seats, [0, 1]);
    let id = pa["id"].as_str().unwrap().to_owned();
    assert_eq!(pa["url"], format!("/m/{id}"));
    let summary = app.summary(&id).await;
    assert_eq!(summary["rated"], true);
    assert_eq!(summary["status"], "open", "it starts once both opened it");

    // Both open it; the one to move is told on its lobby socket (a correspondence match).
    let mut ma = alice.connect(&id, pa["token"].as_str()).await;
    let _mb = bob.connect(&id, pb["token"].as_str()).await;
    ma.live().await;
    let first = if pa["seat"] == 0 { &mut a } else { &mut b };
    let turn = first.until(|m| m["type"] == "turn").await;
    assert_eq!(
        (turn["id"].as_str(), turn["game"].as_str()),
        (Some(id.as_str()), Some("mad"))
    );
    let (_, mine) = if pa["seat"] == 0 { alice } else { bob }
        .get("/api/me/games")
        .await;
    assert_eq!(mine["waiting"][0]["id"], id);
    app.shutdown().await;
}

#[tokio::test]
async fn bots_fill_a_table_after_the_wait_and_leaving_is_instant() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let carol = Agent::guest(app.addr, "Carol").await;
    let mut a = lobby(&alice).await;
    let mut c = lobby(&carol).await;
    // Carol seeks a four-seat Bataille Navale table, then leaves the pool.
    c.send(seek("naval", 4, json!({"kind": "game"}), None))
        .await;
    c.until(|m| m["type"] == "seeking").await;
    c.send(json!({"type": "cancel"})).await;
    c.until(|m| m["type"] == "cancelled").await;
    a.until(|m| m["type"] == "lobby" && m["pools"] == json!([]))
        .await;

    // Alice seeks a four-seat Moon Leap table with bots after 1 s: three bots join her.
    a.send(seek("moonleap", 4, json!({"kind": "none"}), Some(1)))
        .await;
    let paired = a.until(|m| m["type"] == "paired").await;
    let id = paired["id"].as_str().unwrap();
    let summary = app.summary(id).await;
    let kinds: Vec<&str> = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "bot").count(), 3);
    assert_eq!(kinds.len(), 4);
    let mine = &summary["seats"][paired["seat"].as_u64().unwrap() as usize];
    assert_eq!(mine["player"]["name"], "Alice");
    // Closing the lobby socket leaves the pool too.
    c.send(seek("naval", 4, json!({"kind": "game"}), None))
        .await;
    c.until(|m| m["type"] == "seeking").await;
    drop(c);
    a.until(|m| m["type"] == "lobby" && m["pools"] == json!([]))
        .await;
    app.shutdown().await;
}

/// A stranger cannot make the lobby's pools, or its matches, grow without bound through
/// seeks: a player seeks in at most four pools at once, and a seek that bots may fill counts
/// as a match its address creates (docs/protocol.md section 6).
#[tokio::test]
async fn seeks_are_held_to_the_limits_on_pools_and_matches() {
    let app = crate::common::spawn_app_with(
        crate::common::temp_db(),
        plateau_server::Options {
            limits: plateau_lobby::limits::Limits {
                open_matches: 1,
                ..crate::common::test_options().limits
            },
            ..crate::common::test_options()
        },
    )
    .await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut a = lobby(&alice).await;
    let per_move = |seconds: u32| json!({"kind": "per_move", "seconds": seconds});
    for seconds in 1..=4 {
        a.send(seek("mad", 2, per_move(seconds), None)).await;
        a.until(|m| m["type"] == "seeking").await;
    }
    a.send(seek("mad", 2, per_move(5), None)).await;
    assert_eq!(a.error().await["code"], "limit/seeks");
    // A second socket of hers is held to the same four.
    let mut a2 = lobby(&alice).await;
    a2.send(seek("moonleap", 2, per_move(5), None)).await;
    assert_eq!(a2.error().await["code"], "limit/seeks");
    a.send(json!({"type": "cancel"})).await;
    a.until(|m| m["type"] == "cancelled").await;

    // A table that bots fill is a match of her address: it waits for her to open it, and while
    // it does, her address may hold no other open match, by seek or by request.
    a.send(seek("moonleap", 2, json!({"kind": "none"}), Some(1)))
        .await;
    a.until(|m| m["type"] == "paired").await;
    a.send(seek("moonleap", 2, per_move(30), Some(1))).await;
    let refused = a.until(|m| m["type"] == "error").await;
    assert_eq!(refused["code"], "limit/matches", "{refused}");
    let (status, body) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/matches")),
        "{body}"
    );
    // A seek that waits for people alone creates nothing by itself, and is taken.
    a.send(seek("moonleap", 2, per_move(30), None)).await;
    a.until(|m| m["type"] == "seeking").await;
    app.shutdown().await;
}

/// Every seek shows in the lobby as an open challenge (who, their rating, since when); another
/// player accepts it and the two are paired at once; one's own, or one gone, cannot be accepted.
/// The next seeker of that pool is told how long seekers there waited.
#[tokio::test]
async fn an_open_challenge_is_accepted_and_the_pool_learns_its_wait() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let mut a = lobby(&alice).await;
    let mut b = lobby(&bob).await;
    let clock = json!({"kind": "per_move", "seconds": 60});
    a.send(seek("mad", 2, clock.clone(), None)).await;
    let seeking = a.until(|m| m["type"] == "seeking").await;
    let number = seeking["seek"].as_u64().unwrap();
    assert_eq!(
        seeking["estimate_seconds"],
        Value::Null,
        "nobody waited here yet"
    );
    let listed = b
        .until(|m| m["type"] == "lobby" && m["pools"][0]["waiting"] == 1)
        .await;
    let challenge = &listed["pools"][0]["seekers"][0];
    assert_eq!(challenge["seek"], number);
    assert_eq!(challenge["name"], "Alice");
    assert_eq!(challenge["kind"], "guest");
    assert_eq!(challenge["rating"], 1500);
    assert!(challenge["since"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(challenge["bots_after_seconds"], Value::Null);

    a.send(json!({"type": "accept", "seek": number})).await;
    assert_eq!(a.error().await["code"], "seek/not_found", "one's own");
    b.send(json!({"type": "accept", "seek": number + 100}))
        .await;
    assert_eq!(b.error().await["code"], "seek/not_found");
    b.send(json!({"type": "accept", "seek": "x"})).await;
    assert_eq!(b.error().await["code"], "msg/malformed");
    b.send(json!({"type": "accept", "seek": number})).await;
    let pa = a.until(|m| m["type"] == "paired").await;
    let pb = b.until(|m| m["type"] == "paired").await;
    assert_eq!(pa["id"], pb["id"]);
    let summary = app.summary(pa["id"].as_str().unwrap()).await;
    assert_eq!(summary["rated"], true);
    assert_eq!(summary["time_control"], clock);

    // The pool now knows how long its seekers waited.
    a.send(seek("mad", 2, clock.clone(), None)).await;
    let again = a.until(|m| m["type"] == "seeking").await;
    assert!(again["estimate_seconds"].is_u64(), "{again}");
    app.shutdown().await;
}

/// A seeker who has waited long enough starts at once: `fill` seats bots in the empty seats of
/// its table (with the others of the pool who accept bots).
#[tokio::test]
async fn fill_starts_a_table_with_bots_now() {
    let app = spawn_app().await;
    let alice = Agent::guest(app.addr, "Alice").await;
    let mut a = lobby(&alice).await;
    a.send(json!({"type": "fill"})).await;
    assert_eq!(a.error().await["code"], "seek/not_found", "no seek to fill");
    a.send(seek("moonleap", 3, json!({"kind": "none"}), None))
        .await;
    a.until(|m| m["type"] == "seeking").await;
    a.send(json!({"type": "fill"})).await;
    let paired = a.until(|m| m["type"] == "paired").await;
    let summary = app.summary(paired["id"].as_str().unwrap()).await;
    let bots = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "bot")
        .count();
    assert_eq!((summary["seats"].as_array().unwrap().len(), bots), (3, 2));
    app.shutdown().await;
}
