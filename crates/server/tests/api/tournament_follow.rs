//! Tournaments followed over the lobby's WebSocket (docs/protocol.md section 7.9): the list and
//! a tournament are sent on following and again as they change (joins, the start, a pairing, a
//! result), with the cap on what one socket follows; and on two nodes of one PostgreSQL, a
//! socket on the node that does not make a change hears of it too.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Agent, Client, Db, spawn_app_with, spawn_node, temp_db, test_options};

/// Creates an arena of `toy` starting in `starts_in` seconds; returns its id.
async fn arena(agent: &mut Agent, name: &str, starts_in: u32) -> String {
    let (status, made) = agent
        .post(
            "/api/tournaments",
            &json!({
                "name": name,
                "game": "toy",
                "time_control": {"kind": "none"},
                "starts_in_seconds": starts_in,
                "minutes": 1,
            }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    made["tournament"]["id"].as_str().unwrap().to_owned()
}

/// The next `tournament` message of `id` that satisfies `f`: the answer to a follow.
async fn tournament(ws: &mut Client, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    ws.until(|m| m["type"] == "tournament" && m["tournament"]["id"] == id && f(m))
        .await
}

/// Tournament `id` once it satisfies `f`, as the socket shows it: the last `tournament`
/// message of `id` received, if it does, else the next one that does.
async fn tournament_reaches(ws: &mut Client, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    reaches(
        ws,
        |m| m["type"] == "tournament" && m["tournament"]["id"] == id,
        f,
    )
    .await
}

/// The list once it satisfies `f`, as the socket shows it (as `tournament_reaches`).
async fn list_reaches(ws: &mut Client, f: impl Fn(&Value) -> bool) -> Value {
    reaches(ws, |m| m["type"] == "tournaments", f).await
}

/// The followed thing whose messages `which` picks, once it satisfies `f`: the last message of
/// it received, if it does, else the next one that does. A follower is sent the latest state
/// of what it follows, not each change (docs/protocol.md section 7.9): changes within one read
/// of the store, or while the socket is busy, are one message, and the list and a tournament
/// changed together come in either order. So the test waits for a state: a change whose
/// message went by while it waited for the other thing's, or came in one message with the
/// change it waited for before, has no message of its own left to come.
async fn reaches(
    ws: &mut Client,
    which: impl Fn(&Value) -> bool,
    f: impl Fn(&Value) -> bool,
) -> Value {
    if let Some(last) = ws.received.iter().rev().find(|m| which(m))
        && f(last)
    {
        return last.clone();
    }
    ws.until(|m| which(m) && f(m)).await
}

fn players(m: &Value) -> u64 {
    m["tournament"]["players"].as_u64().unwrap()
}

/// A watcher's socket follows an arena and the list: each is sent at once and again as the
/// arena is joined, starts, pairs its two players and records the game they play (the joins
/// before the start or, on a loaded machine, after it: the test waits for each state, not for
/// a message per change), and a second socket following it then is sent it as it stands; an
/// unknown tournament is refused (and not counted), and a ninth thing followed is refused
/// until one is unfollowed.
#[tokio::test]
async fn a_followed_tournament_is_sent_as_it_changes() {
    let mut options = test_options();
    options.limits.tournament_minute = Duration::from_secs(30);
    options.limits.tournaments_per_day = 10;
    let app = spawn_app_with(temp_db(), options).await;
    let mut organiser = Agent::account(app.addr, "Organiser").await;
    // The socket is open before the arena is made, so that its first state comes one round
    // trip after the making, well within the 4 s before the start (a loaded machine can make
    // that round trip a second or two).
    let watcher = Agent::guest(app.addr, "Watcher").await;
    let mut ws = watcher.ws("/api/lobby/ws").await;
    let id = arena(&mut organiser, "Followed arena", 4).await;

    ws.send(json!({"type": "tournament_follow", "id": id}))
        .await;
    let first = tournament(&mut ws, &id, |_| true).await;
    assert_eq!(first["tournament"]["phase"], "waiting");
    assert_eq!(players(&first), 0);
    assert_eq!(first["standings"], json!([]));
    ws.send(json!({"type": "tournaments_follow"})).await;
    let list = ws.until(|m| m["type"] == "tournaments").await;
    assert_eq!(list["live"][0]["id"], id.as_str(), "{list}");
    assert_eq!(list["live"][0]["players"], 0);
    ws.send(json!({"type": "tournament_follow", "id": "nowhere"}))
        .await;
    let refused = ws.until(|m| m["type"] == "error").await;
    assert_eq!(refused["code"], "tournament/not_found", "{refused}");
    ws.send(json!({"type": "tournament_follow"})).await;
    let refused = ws.until(|m| m["type"] == "error").await;
    assert_eq!(refused["code"], "msg/malformed", "{refused}");

    // Two players join: the arena and the list are sent again, without being asked.
    let mut ann = Agent::guest(app.addr, "Ann").await;
    let mut ben = Agent::guest(app.addr, "Ben").await;
    for agent in [&mut ann, &mut ben] {
        let (status, body) = agent
            .post(&format!("/api/tournaments/{id}/join"), &json!(null))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let joined = tournament_reaches(&mut ws, &id, |m| players(m) == 2).await;
    let names: Vec<&str> = joined["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Ben"]);
    list_reaches(&mut ws, |m| m["live"][0]["players"] == 2).await;

    // It starts and pairs them: the game's match comes with it.
    let paired = tournament_reaches(&mut ws, &id, |m| m["games"][0]["match_id"].is_string()).await;
    assert_eq!(paired["tournament"]["phase"], "running");
    let game = &paired["games"][0];
    let match_id = game["match_id"].as_str().unwrap().to_owned();
    let seats: Vec<String> = game["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect();
    // Whoever sits second resigns: the result and the standings follow.
    let (first_seat, second_seat) = if seats[0] == "Ann" {
        (&ann, &ben)
    } else {
        (&ben, &ann)
    };
    let mut a = first_seat.connect(&match_id, None).await;
    let mut b = second_seat.connect(&match_id, None).await;
    a.live().await;
    b.live().await;
    b.send(json!({"type": "resign"})).await;
    let recorded = tournament_reaches(&mut ws, &id, |m| m["games"][0]["ranks"].is_array()).await;
    assert_eq!(recorded["games"][0]["ranks"], json!([1, 2]));
    assert_eq!(recorded["standings"][0]["name"], seats[0].as_str());
    assert_eq!(recorded["standings"][0]["points"], 2);
    assert_eq!(recorded["standings"][1]["points"], 0);
    // A second socket following it is sent it as it stands (the node's message kept for all).
    let mut late = Agent::guest(app.addr, "Latecomer")
        .await
        .ws("/api/lobby/ws")
        .await;
    late.send(json!({"type": "tournament_follow", "id": id}))
        .await;
    let now = tournament(&mut late, &id, |_| true).await;
    assert_eq!(now["games"], recorded["games"]);
    assert_eq!(now["standings"], recorded["standings"]);

    // Follows refused are not counted: after a hundred unknown ids, the list and seven more
    // tournaments make eight. Then following again one followed is answered, and a ninth is
    // refused until one goes.
    for n in 0..100 {
        ws.send(json!({"type": "tournament_follow", "id": format!("nowhere{n}")}))
            .await;
        assert_eq!(ws.error().await["code"], "tournament/not_found");
    }
    let mut more = Vec::new();
    let mut second = Agent::account(app.addr, "Second").await;
    for n in 0..8 {
        let who = if n < 4 { &mut organiser } else { &mut second };
        more.push(arena(who, &format!("More {n}"), 600).await);
    }
    for other in &more[..6] {
        ws.send(json!({"type": "tournament_follow", "id": other}))
            .await;
        tournament(&mut ws, other, |_| true).await;
    }
    ws.send(json!({"type": "tournament_follow", "id": more[0]}))
        .await;
    tournament(&mut ws, &more[0], |_| true).await;
    ws.send(json!({"type": "tournament_follow", "id": more[6]}))
        .await;
    let full = ws.until(|m| m["type"] == "error").await;
    assert_eq!(full["code"], "limit/follows", "{full}");
    ws.send(json!({"type": "tournament_unfollow", "id": id}))
        .await;
    ws.send(json!({"type": "tournament_follow", "id": more[6]}))
        .await;
    tournament(&mut ws, &more[6], |_| true).await;
}

/// A lobby socket that connects again (as the test client does after a drop) follows again
/// what it followed: each is sent again as it stands, and later changes come on the new
/// connection; what it unfollowed, or was refused, it does not follow again.
#[tokio::test]
async fn a_socket_that_connects_again_follows_again() {
    let app = spawn_app_with(temp_db(), test_options()).await;
    let mut organiser = Agent::account(app.addr, "Organiser").await;
    let id = arena(&mut organiser, "Arena followed twice", 600).await;
    let other = arena(&mut organiser, "Arena left", 600).await;
    let mut ws = Agent::guest(app.addr, "Watcher")
        .await
        .ws("/api/lobby/ws")
        .await;
    for what in [&id, &other] {
        ws.send(json!({"type": "tournament_follow", "id": what}))
            .await;
        tournament(&mut ws, what, |_| true).await;
    }
    ws.send(json!({"type": "tournament_unfollow", "id": other}))
        .await;
    ws.send(json!({"type": "tournament_follow", "id": "nowhere"}))
        .await;
    assert_eq!(ws.error().await["code"], "tournament/not_found");
    ws.send(json!({"type": "tournaments_follow"})).await;
    ws.until(|m| m["type"] == "tournaments").await;

    ws.reconnect().await;
    let before = ws.received.len();
    let mut ann = Agent::guest(app.addr, "Ann").await;
    let (status, body) = ann
        .post(&format!("/api/tournaments/{id}/join"), &json!(null))
        .await;
    assert_eq!(status, 200, "{body}");
    tournament_reaches(&mut ws, &id, |m| players(m) == 1).await;
    list_reaches(&mut ws, |m| {
        m["live"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str() && t["players"] == 1)
    })
    .await;
    // The answers of the new connection: the arena and the list, then their changes; nothing
    // of what was unfollowed or refused.
    ws.sync().await;
    let again = &ws.received[before..];
    assert!(
        again
            .iter()
            .all(|m| m["type"] != "error" && m["tournament"]["id"] != other.as_str()),
        "{again:#?}"
    );
}

/// Two nodes of one PostgreSQL: a socket on each follows an arena; joins made through one node
/// reach the socket of the other, and so do the start and the pairing, made by whichever node
/// runs it.
#[tokio::test]
async fn a_change_on_one_node_reaches_the_followers_on_the_other() {
    if Db::postgres().is_none() {
        eprintln!(
            "skipped: two nodes need PostgreSQL (PLATEAU_TEST_POSTGRES; scripts/test sets it)"
        );
        return;
    }
    let db = temp_db();
    let mut limits = test_options().limits;
    limits.tournament_minute = Duration::from_secs(30);
    let a = spawn_node(db.clone(), "a", limits.clone()).await;
    let b = spawn_node(db.clone(), "b", limits).await;
    let mut organiser = Agent::account(a.addr, "Organiser").await;
    let id = arena(&mut organiser, "Arena of two nodes", 3).await;
    let mut on_a = Agent::guest(a.addr, "WatcherA")
        .await
        .ws("/api/lobby/ws")
        .await;
    let mut on_b = Agent::guest(b.addr, "WatcherB")
        .await
        .ws("/api/lobby/ws")
        .await;
    for ws in [&mut on_a, &mut on_b] {
        ws.send(json!({"type": "tournament_follow", "id": id}))
            .await;
        tournament(ws, &id, |m| players(m) == 0).await;
    }
    for (name, node) in [("Ann", a.addr), ("Ben", b.addr)] {
        let mut agent = Agent::guest(node, name).await;
        let (status, body) = agent
            .post(&format!("/api/tournaments/{id}/join"), &json!(null))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    for ws in [&mut on_a, &mut on_b] {
        tournament_reaches(ws, &id, |m| players(m) == 2).await;
        let paired = tournament_reaches(ws, &id, |m| m["games"][0]["match_id"].is_string()).await;
        assert_eq!(paired["tournament"]["phase"], "running");
    }
    b.shutdown().await;
    a.shutdown().await;
}
