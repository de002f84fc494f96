//! Two nodes on one PostgreSQL (docs/architecture.md section 5.3): the seats of one match on
//! different nodes play it to its end, whichever node they came through; a node that stops hands
//! its matches over to the other, with every acknowledged action. On SQLite (one process per
//! database) these tests say so and pass without running. A node places the matches created
//! through it on the live nodes in turn, so each test asks the database which node drives its
//! match (`lease`) rather than assuming the one it sent the creation to.

use plateau_engine::{Seat, Viewer};
use plateau_match::secrecy::check_messages;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use plateau_lobby::limits::Limits;

use crate::common::{
    Agent, Client, Db, TestApp, entry, first_placement, record, spawn_node, temp_db, test_options,
};

/// Nodes `a` and `b` over one fresh schema, or `None` (with a note) when the suite runs on SQLite.
async fn two_nodes() -> Option<(TestApp, TestApp)> {
    two_nodes_with(test_options().limits).await
}

/// `two_nodes` with `limits`.
async fn two_nodes_with(limits: Limits) -> Option<(TestApp, TestApp)> {
    if Db::postgres().is_none() {
        eprintln!(
            "skipped: two nodes need PostgreSQL (PLATEAU_TEST_POSTGRES; scripts/test sets it)"
        );
        return None;
    }
    let db = temp_db();
    let a = spawn_node(db.clone(), "a", limits.clone()).await;
    let b = spawn_node(db, "b", limits).await;
    Some((a, b))
}

/// Node `k % 2` of the pair.
fn pick(nodes: &(TestApp, TestApp), k: usize) -> &TestApp {
    if k.is_multiple_of(2) {
        &nodes.0
    } else {
        &nodes.1
    }
}

/// The node of match `id`'s lease and the lease's epoch, read from the database.
async fn lease(db: &Db, id: &str) -> (String, i64) {
    let (client, connection) = tokio_postgres::connect(&db.url(), tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT node, epoch FROM match_leases WHERE match_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    drop(client);
    let _ = task.await;
    (row.get(0), row.get(1))
}

/// The node of the pair that drives match `id` (its lease), then the other one.
async fn driver<'a>(nodes: &'a (TestApp, TestApp), id: &str) -> (&'a TestApp, &'a TestApp) {
    match lease(&nodes.0.db, id).await.0.as_str() {
        "a" => (&nodes.0, &nodes.1),
        "b" => (&nodes.1, &nodes.0),
        other => panic!("match {id} driven by an unknown node `{other}`"),
    }
}

/// The matches `node` holds in memory (`GET /health`).
async fn in_memory(node: &TestApp) -> u64 {
    node.get("/health").await.1["matches_in_memory"]
        .as_u64()
        .unwrap()
}

/// The name of `node`, one of the pair `nodes`.
fn name(nodes: &(TestApp, TestApp), node: &TestApp) -> &'static str {
    if std::ptr::eq(node, &nodes.0) {
        "a"
    } else {
        "b"
    }
}

/// Creates a match of `request` through node `a` and takes its other seats through alternate nodes
/// (seat `k` joins through node `k % 2`); returns its id and the seat tokens.
async fn seat_across(nodes: &(TestApp, TestApp), request: Value) -> (String, Vec<String>) {
    let seats = request["seats"].as_array().unwrap().len();
    let created = nodes.0.create(request).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![created["token"].as_str().unwrap().to_owned()];
    for k in 1..seats {
        let joined = pick(nodes, k).join(&id).await;
        assert_eq!(joined["seat"], k);
        tokens.push(joined["token"].as_str().unwrap().to_owned());
    }
    (id, tokens)
}

/// Plays one action at a time until the match ends or `actions` were played: a random legal
/// one of the first seat that has some, else the first placement a Bataille Navale seat's
/// observation describes (placements are not listed). After each, every client is brought up to
/// date (a ping answered after the broadcast). Returns the number of actions played.
async fn play(clients: &mut [Client], rng: &mut ChaCha8Rng, actions: usize) -> usize {
    let mut last = Vec::with_capacity(clients.len());
    for c in clients.iter_mut() {
        last.push(match c.latest() {
            Some(s) if s["status"] != "open" => s,
            _ => c.live().await,
        });
    }
    let mut played = 0;
    while played < actions && last[0]["status"] != "finished" {
        assert!(played < 20_000, "no end");
        let chosen = last.iter().enumerate().find_map(|(i, s)| {
            let legal = s["legal"].as_array().filter(|l| !l.is_empty());
            match legal {
                Some(l) => Some((i, l[rng.random_range(0..l.len())].clone())),
                None => first_placement(s).map(|(parts, _)| (i, parts)),
            }
        });
        let Some((i, action)) = chosen else {
            // Chance is drawn at once after the action before: wait for its state.
            last[0] = clients[0].state().await;
            continue;
        };
        let version = last[i]["version"].clone();
        clients[i]
            .send(json!({"type": "act", "version": version, "action": action}))
            .await;
        // `match/moved`: the action crossed its socket's close (a self-fencing), and the
        // match's next actor refused it; the close follows, then the next connection's state.
        let reply = clients[i]
            .until(|m| m["type"] == "state" || (m["type"] == "error" && m["code"] != "match/moved"))
            .await;
        if reply["type"] == "error" {
            assert_eq!(reply["code"], "action/stale", "{action}: {reply}");
        } else {
            played += 1;
        }
        for (c, s) in clients.iter_mut().zip(last.iter_mut()) {
            c.sync().await;
            *s = c.latest().unwrap();
        }
    }
    played
}

/// The seats of one match on two nodes play each of the four games to its end: the match is
/// driven by the node it was placed on, the other node forwards its seats' sockets and joins.
/// Every seat and a spectator on the forwarding node are checked for leaks against the record,
/// which both nodes serve alike and which replays with its seed.
#[tokio::test]
async fn seats_on_two_nodes_play_each_game_to_its_end() {
    let Some(nodes) = two_nodes().await else {
        return;
    };
    let naval = json!({"max_rounds": 6, "placement_moves": 1});
    for (game, config) in [
        ("mad", Value::Null),
        ("moonleap", Value::Null),
        ("chakart", Value::Null),
        ("naval", naval),
    ] {
        let seats = entry(game).info.default_seats;
        let humans: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
        let request = json!({"game": game, "config": config, "seats": humans});
        let (id, tokens) = seat_across(&nodes, request).await;
        let held = lease(&nodes.0.db, &id).await;
        let (driving, other) = driver(&nodes, &id).await;
        let before = in_memory(other).await;
        let watcher = other.connect(&id, None).await.watch();
        let mut clients = Vec::new();
        for (k, t) in tokens.iter().enumerate() {
            clients.push(pick(&nodes, k).connect(&id, Some(t)).await);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        play(&mut clients, &mut rng, usize::MAX).await;
        let watcher = watcher.await.unwrap();
        // Driven by one node throughout (the same lease, never taken again): the other only
        // forwarded, and loaded nothing (a match of an earlier game it drives may have left).
        // Unless the driver could not renew the lease in time on a starved machine and fenced
        // itself: its sockets then closed with 1013 and connected again, and whichever node one
        // reached first took the match on (docs/architecture.md section 5.3).
        let fenced = watcher.reconnects + clients.iter().map(|c| c.reconnects).sum::<usize>();
        if fenced == 0 {
            assert_eq!(lease(&nodes.0.db, &id).await, held, "{game}");
            let after = in_memory(other).await;
            assert!(after <= before, "{game}: {before} then {after} in memory");
        }
        let rec = record(other, &id).await;
        assert_eq!(rec, record(driving, &id).await, "{game}");
        let g = entry(game);
        assert!(rec.replay(g).unwrap().seed_verified, "{game}");
        assert!(rec.actions().count() > 2, "{game}: a whole game");
        for (k, c) in clients.iter().enumerate() {
            check_messages(g, &rec, Viewer::Seat(Seat(k as u8)), &c.received)
                .unwrap_or_else(|e| panic!("{game}, seat {k}: {e}"));
        }
        check_messages(g, &rec, Viewer::Spectator, &watcher.received)
            .unwrap_or_else(|e| panic!("{game}, spectator: {e}"));
    }
    nodes.0.shutdown().await;
    nodes.1.shutdown().await;
}

/// A node that stops gives its matches up: the sockets it drove close, they connect again to
/// the other node (as a load balancer would send them), which takes the match over from the
/// database with every acknowledged move, and the game goes on there to its end.
#[tokio::test]
async fn a_stopping_node_hands_its_matches_to_the_other() {
    let Some((a, b)) = two_nodes().await else {
        return;
    };
    let nodes = (a, b);
    let request = json!({"game": "moonleap", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (id, tokens) = seat_across(&nodes, request).await;
    let (driving, other) = driver(&nodes, &id).await;
    let mut clients = vec![
        driving.connect(&id, Some(&tokens[0])).await,
        other.connect(&id, Some(&tokens[1])).await,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    assert_eq!(play(&mut clients, &mut rng, 8).await, 8);
    let before = clients[1].latest().unwrap()["moves"].clone();
    let a_drives = name(&nodes, driving) == "a";
    let (a, b) = nodes;
    let (driving, b) = if a_drives { (a, b) } else { (b, a) };
    driving.shutdown().await;
    // Both sockets close: the one on the driver with it, the one piped through the other node
    // when the driver closes it.
    for c in &mut clients {
        while c.next().await.is_some() {}
        assert!(c.closed.is_some(), "closed with a close frame");
    }
    let mut clients = vec![
        b.connect(&id, Some(&tokens[0])).await,
        b.connect(&id, Some(&tokens[1])).await,
    ];
    let resumed = clients[0].live().await;
    let moves = resumed["moves"].as_array().unwrap();
    let known = before.as_array().unwrap();
    assert!(moves.len() >= known.len() && moves[..known.len()] == known[..]);
    play(&mut clients, &mut rng, usize::MAX).await;
    let rec = record(&b, &id).await;
    assert!(rec.replay(entry("moonleap")).unwrap().seed_verified);
    b.shutdown().await;
}

/// The lobby across nodes, told over LISTEN/NOTIFY: a player whose lobby socket is on one node
/// hears of its turn in a correspondence match the other node drives, and each node's lobby
/// counts the players online on both.
#[tokio::test]
async fn a_lobby_on_one_node_hears_of_turns_and_players_on_the_other() {
    let Some((a, b)) = two_nodes().await else {
        return;
    };
    let mut alice = Agent::guest(a.addr, "Alice").await;
    let mut bob = Agent::guest(a.addr, "Bob").await;
    let two = json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (status, created) = bob.post("/api/matches", &two).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    // Alice's pages go to the node that does not drive the match, Bob's to the one that does
    // (one session, valid on both).
    let nodes = (a, b);
    let (driving, other) = driver(&nodes, &id).await;
    let held = lease(&nodes.0.db, &id).await;
    (alice.addr, bob.addr) = (other.addr, driving.addr);
    let mut alice_lobby = alice.ws("/api/lobby/ws").await;
    let mut bob_lobby = bob.ws("/api/lobby/ws").await;
    alice_lobby
        .until(|m| m["type"] == "lobby" && m["online"] == 2)
        .await;
    bob_lobby
        .until(|m| m["type"] == "lobby" && m["online"] == 2)
        .await;
    let (status, joined) = alice
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let mut bob_seat = bob.connect(&id, created["token"].as_str()).await;
    let _alice_seat = alice.connect(&id, joined["token"].as_str()).await;
    let start = bob_seat.live().await;
    let action = start["legal"][0].as_str().unwrap().to_owned();
    bob_seat
        .act(start["version"].as_u64().unwrap(), &action)
        .await;
    let turn = alice_lobby.until(|m| m["type"] == "turn").await;
    assert_eq!(
        (turn["id"].as_str(), turn["game"].as_str()),
        (Some(id.as_str()), Some("mad"))
    );
    // Told across nodes: Alice's lobby is on the node that does not drive the match. (Unless
    // the driver fenced itself on a starved machine, its lease not renewed in time, and the
    // match moved: the lease is then another, and the other node may hold it.)
    if lease(&nodes.0.db, &id).await == held {
        assert_eq!(other.get("/health").await.1["matches_in_memory"], 0);
    }
    let (a, b) = nodes;
    a.shutdown().await;
    b.shutdown().await;
}

/// The limits hold through a forwarded socket: the node that drives the match applies its
/// message rate to a client that came through the other node, as to its own.
#[tokio::test]
async fn a_forwarded_socket_keeps_the_limits() {
    let Some(nodes) = two_nodes_with(Limits {
        messages_per_second: 2.0,
        message_burst: 3.0,
        ..test_options().limits
    })
    .await
    else {
        return;
    };
    let created = nodes
        .0
        .create(json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let (_, other) = driver(&nodes, id).await;
    let held = lease(&nodes.0.db, id).await;
    let mut flood = other.connect(id, None).await;
    flood.state().await;
    for _ in 0..20 {
        flood.send(json!({"type": "ping"})).await;
    }
    let mut refused = 0;
    for _ in 0..20 {
        let m = flood
            .until(|m| m["type"] == "pong" || m["type"] == "error")
            .await;
        if m["type"] == "error" {
            assert_eq!(m["code"], "limit/messages", "{m}");
            refused += 1;
        }
    }
    assert!(refused > 0 && refused <= 17, "{refused} refused");
    // Driven by the other node throughout, unless its lease moved (a self-fencing on a starved
    // machine; the socket then connected again, perhaps to a node that took the match on).
    if lease(&nodes.0.db, id).await == held {
        assert_eq!(
            other.get("/health").await.1["matches_in_memory"],
            0,
            "driven by the other node"
        );
    }
    let (a, b) = nodes;
    a.shutdown().await;
    b.shutdown().await;
}

/// A node that finds at its lease's renewal that another node took its match over (as after a
/// stall past its lease) stops it at once: its sockets close, the one piped through the other
/// node too, so nobody stays on a match that moved on; connecting again reaches the new driver.
#[tokio::test]
async fn a_node_that_lost_a_match_closes_its_sockets() {
    let Some(nodes) = two_nodes().await else {
        return;
    };
    let request = json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (id, tokens) = seat_across(&nodes, request).await;
    let (a, b) = driver(&nodes, &id).await;
    let mut seat = a.connect(&id, Some(&tokens[0])).await;
    let mut watcher = b.connect(&id, None).await;
    seat.state().await;
    watcher.state().await;
    // The other node `b` takes the lease from the driver `a`, as it would once `a` had stopped
    // renewing it.
    let (client, connection) = tokio_postgres::connect(&a.db.url(), tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    let moved = client
        .execute(
            "UPDATE match_leases SET node = $3, address = $2, \
             expires_at = now() + interval '1 hour' WHERE match_id = $1",
            &[&id, &b.addr.to_string(), &name(&nodes, b)],
        )
        .await
        .unwrap();
    assert_eq!(moved, 1);
    drop(client);
    let _ = task.await;
    for c in [&mut seat, &mut watcher] {
        while c.next().await.is_some() {}
        assert!(c.closed.is_some(), "closed with a close frame");
    }
    let mut again = a.connect(&id, Some(&tokens[0])).await;
    assert_eq!(again.state().await["seat"], 0);
    assert_eq!(b.get("/health").await.1["matches_in_memory"], 1);
    assert_eq!(a.get("/health").await.1["matches_in_memory"], 0);
    let (a, b) = nodes;
    a.shutdown().await;
    b.shutdown().await;
}
