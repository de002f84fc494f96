//! The wire (docs/protocol.md section 4): `state` deltas after one whole state, so a game costs
//! bytes in proportion to its length; a whole turn in one `act`, all or nothing, with one
//! acknowledgement; `sync` for a whole state again. The clients' check of every message and
//! body against docs/protocol.schema.json refuses what the schema does not describe.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{Client, first_placement, naval_four, spawn_app, two_humans, wire_errors};
use crate::games::play_out;

/// Whether `state` message `wire` is a whole state (`snapshot`), not a delta.
fn whole(wire: &str) -> bool {
    wire.contains(r#""snapshot":true"#)
}

/// Sizes in bytes of the `state` messages of `client`'s connection, in order: a whole state,
/// then deltas. A client that connected again after a 1013 close (a self-fencing on a starved
/// machine, docs/architecture.md section 5.3) was sent one more whole state on each new
/// connection that got as far as its first state, as docs/protocol.md section 4 says, and no
/// other: those are what the reconnections cost, not the game, and are left out.
fn sizes(client: &Client) -> Vec<usize> {
    let wholes = client.wire.iter().filter(|w| whole(w)).count();
    assert!(
        wholes <= 1 + client.reconnects,
        "{wholes} whole states over {} connections",
        1 + client.reconnects
    );
    assert!(whole(&client.wire[0]));
    let first = client.wire[0].len();
    let deltas = client.wire.iter().filter(|w| !whole(w)).map(String::len);
    std::iter::once(first).chain(deltas).collect()
}

fn mean(sizes: &[usize]) -> f64 {
    sizes.iter().sum::<usize>() as f64 / sizes.len() as f64
}

#[tokio::test]
async fn moon_leap_states_average_under_600_bytes_and_do_not_grow_with_the_game() {
    let app = spawn_app().await;
    let mut all = Vec::new();
    for seed in 0..3 {
        let (id, t0, t1, _) = two_humans(&app, "moonleap").await;
        let mut a = app.connect(&id, Some(&t0)).await;
        let mut b = app.connect(&id, Some(&t1)).await;
        let watcher = app.connect(&id, None).await.watch();
        let end = play_out(&mut [&mut a, &mut b], &mut ChaCha8Rng::seed_from_u64(seed)).await;
        let moves = end["moves"].as_array().unwrap().len();
        assert!(moves > 30, "a whole game: {moves} moves");
        let watcher = watcher.await.unwrap();
        for client in [&a, &b, &watcher] {
            // The first is whole; every later one a delta that carries only the new moves.
            let s = sizes(client);
            assert!(s.len() > 20, "{} states", s.len());
            let deltas = &s[1..];
            let quarter = deltas.len() / 4;
            let (early, late) = (&deltas[..quarter], &deltas[deltas.len() - quarter..]);
            // Late patches name more pieces on the track (about 530 bytes early, 640 late); a
            // move list sent whole would add a move's hundred bytes at every move (over 200).
            assert!(
                mean(late) < 1.5 * mean(early),
                "states grow with the game: {:.0} bytes early, {:.0} late",
                mean(early),
                mean(late)
            );
            all.extend_from_slice(&s);
        }
    }
    let m = mean(&all);
    assert!(
        m < 600.0,
        "mean state {m:.0} bytes over {} messages",
        all.len()
    );
    app.shutdown().await;
}

/// A Bataille Navale seat's placement moves, then `ready`, in one message.
#[tokio::test]
async fn a_whole_turn_is_one_message_applied_all_or_nothing() {
    let app = spawn_app().await;
    let (_, mut clients) = naval_four(&app, Some(json!({"placement_moves": 4}))).await;
    let placing = clients[0].placing().await;
    let version = placing["version"].as_u64().unwrap();
    let (parts, moved) = first_placement(&placing).unwrap();
    let acts = |actions: Value| json!({"type": "act", "version": version, "actions": actions});

    // A bad second action refuses the whole message: the first is not played either.
    let c = &mut clients[0];
    c.send(acts(json!([moved, "nonsense!"]))).await;
    let refused = c.error().await;
    assert_eq!(refused["code"], "action/malformed", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("action 2 of 2 (`nonsense!`)"),
        "{refused}"
    );
    // Once ready, a seat places nothing more: the move after `ready` refuses both.
    c.send(acts(json!(["ready", moved]))).await;
    let error = c.error().await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("action 2 of 2"),
        "{error}"
    );

    // The whole turn, the placement in parts (docs/protocol.md section 4.2): one acknowledgement,
    // the version two further on, both actions in order, the placement logged as its text.
    let before = c.states().len();
    c.send(acts(json!([parts, "ready"]))).await;
    let ack = c.until(|m| m["type"] != "chat_backlog").await;
    assert_eq!(ack["type"], "state", "{ack}");
    assert_eq!(ack["version"], version + 2);
    let mine: Vec<&str> = ack["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["by"] == json!({"seat": 0}))
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(mine.len(), 2, "{mine:?}");
    assert_eq!(mine[0], moved);
    assert_eq!(mine[1], "ready");
    c.sync().await;
    assert_eq!(c.states().len(), before + 1, "one state for the whole turn");
    app.shutdown().await;
}

/// An action in parts that names no action is `action/malformed`, one that names an illegal
/// placement or order is refused with the rule it breaks, and a game without parts refuses them; nothing
/// is played (docs/protocol.md section 4.2).
#[tokio::test]
async fn an_action_in_parts_is_checked_as_its_text() {
    let app = spawn_app().await;
    let (_, mut clients) = naval_four(&app, None).await;
    let placing = clients[0].placing().await;
    let version = placing["version"].as_u64().unwrap();
    let act = |action: Value| json!({"type": "act", "version": version, "action": action});
    let c = &mut clients[0];
    for (bad, code) in [
        (
            json!({"kind": "place", "piece": "yacht", "to": "a1", "choice": "h"}),
            "action/malformed",
        ),
        (
            json!({"kind": "place", "piece": "carrier", "to": "a1"}),
            "action/malformed",
        ),
        (
            json!({"kind": "fire", "piece": "carrier", "to": "a1"}),
            "action/malformed",
        ),
        (
            json!({"kind": "place", "piece": "carrier", "to": "n14", "choice": "h"}),
            "action/illegal",
        ),
        // A well-formed order, but the battle has not begun.
        (
            json!({"kind": "fire", "piece": "carrier", "target": 1, "to": "a1"}),
            "action/illegal",
        ),
    ] {
        c.send(act(bad.clone())).await;
        let error = c.error().await;
        assert_eq!(error["code"], code, "{bad}: {error}");
        assert!(!error["message"].as_str().unwrap().is_empty(), "{error}");
    }
    c.send(act(json!({"kind": "place", "extra": 1}))).await;
    assert_eq!(c.error().await["code"], "msg/malformed");
    // In a whole turn, an error in parts names the action it is about.
    let (parts, _) = first_placement(&placing).unwrap();
    c.send(json!({"type": "act", "version": version, "actions": [parts, {"kind": "ready", "piece": "carrier"}]}))
        .await;
    let error = c.error().await;
    assert_eq!(error["code"], "action/malformed", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("action 2 of 2 (in parts): "),
        "{error}"
    );
    // Nothing was played: a legal placement in parts is still taken at the same version.
    let (parts, text) = first_placement(&placing).unwrap();
    c.send(act(parts)).await;
    let ack = c.until(|m| m["type"] != "chat_backlog").await;
    assert_eq!(ack["type"], "state", "{ack}");
    assert_eq!(ack["version"], version + 1);
    assert!(
        ack["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["by"] == json!({"seat": 0}) && m["text"] == text.as_str()),
        "{ack}"
    );
    app.shutdown().await;

    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let live = red.live().await;
    blue.live().await;
    red.send(json!({"type": "act", "version": live["version"], "action": {"kind": "move"}}))
        .await;
    assert_eq!(red.error().await["code"], "action/malformed");
    app.shutdown().await;
}

#[tokio::test]
async fn sync_sends_a_whole_state_and_later_deltas_follow_on() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let live = red.live().await;
    blue.live().await;
    let action = live["legal"][0].as_str().unwrap().to_owned();
    red.act(live["version"].as_u64().unwrap(), &action).await;
    blue.until(|m| m["type"] == "state" && m["version"] == 1)
        .await;
    blue.send(json!({"type": "sync"})).await;
    blue.state().await;
    let whole: Value = serde_json::from_str(blue.wire.last().unwrap()).unwrap();
    assert_eq!(whole["snapshot"], true, "{whole}");
    assert_eq!(whole["moves_from"], 0);
    assert_eq!(whole["moves"].as_array().unwrap().len(), 1);
    assert_eq!(whole["id"], id.as_str());
    // A delta leaves out what the client has: the constant fields, unchanged seats, offers
    // and observation fields.
    let reply = blue.states().pop().unwrap();
    let next = reply["legal"][0].as_str().unwrap().to_owned();
    blue.act(1, &next).await;
    red.until(|m| m["type"] == "state" && m["version"] == 2)
        .await;
    let delta: Value = serde_json::from_str(red.wire.last().unwrap()).unwrap();
    for absent in [
        "snapshot",
        "id",
        "game",
        "seat",
        "seed_hash",
        "seats",
        "offers",
        "observation",
        "clocks",
        "outcome",
    ] {
        assert_eq!(delta.get(absent), None, "{absent} in {delta}");
    }
    assert!(delta["observation_patch"].is_object(), "{delta}");
    assert_eq!(delta["moves_from"], 1);
    assert_eq!(delta["moves"].as_array().unwrap().len(), 1);
    // Merged, the delta gives what a whole state gives.
    let merged = red.states().pop().unwrap();
    red.send(json!({"type": "sync"})).await;
    let whole = red.state().await;
    assert_eq!(merged, whole);
    app.shutdown().await;
}

/// Another seat's secret action shows nothing to a viewer, not even an empty delta: while three
/// bots make their secret placement moves, the person's seat and a spectator get a `state` only
/// when something they see changes (docs/protocol.md section 1: nobody learns how many secret
/// moves a seat made, nor when).
#[tokio::test]
async fn secret_moves_of_other_seats_send_no_state() {
    let app = spawn_app().await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let created = app
        .create(
            json!({"game": "naval", "seats": [{"kind": "human"}, bot, bot, bot],
                       "config": {"placement_moves": 4}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut spectator = app.connect(&id, None).await;
    let mut seat = app.connect(&id, created["token"].as_str()).await;
    // The bots place (4 moves each, then ready) while the person does nothing.
    let placed = |m: &Value| m["type"] == "state" && m["to_act"] == json!([0]);
    seat.until(placed).await;
    spectator
        .until(|m| m["type"] == "state" && m["to_act"] == json!([0]))
        .await;
    for (who, client) in [("the seat", &seat), ("the spectator", &spectator)] {
        // The messages as they came (`received` holds them merged into whole states).
        let states: Vec<Value> = client
            .wire
            .iter()
            .map(|text| serde_json::from_str::<Value>(text).unwrap())
            .filter(|m| m["type"] == "state")
            .collect();
        for pair in states.windows(2) {
            let (before, delta) = (&pair[0], &pair[1]);
            let changed = delta["version"] != before["version"]
                || delta["to_act"] != before["to_act"]
                || delta["status"] != before["status"]
                || delta.get("seats").is_some()
                || delta.get("offers").is_some()
                || delta["moves"].as_array().is_some_and(|m| !m.is_empty())
                || delta["observation_patch"]
                    .as_object()
                    .is_some_and(|p| !p.is_empty())
                || delta.get("observation").is_some();
            assert!(changed, "{who}: an empty delta {delta}");
        }
        // At most: the whole state, the table filling up, three seats ready.
        assert!(states.len() <= 8, "{who}: {} states", states.len());
    }
    app.shutdown().await;
}

/// A viewer who arrives after the others is told nothing of a secret move either: its whole
/// state is what its next delta starts from, so a spectator who opens a Bataille Navale match in
/// the placement gets its next `state` when a seat is ready (public), not when that seat moved a
/// piece just before (secret; docs/protocol.md section 1).
#[tokio::test]
async fn a_late_viewer_is_sent_nothing_for_a_secret_move() {
    let app = spawn_app().await;
    let (id, mut clients) = naval_four(&app, Some(json!({"placement_moves": 4}))).await;
    for c in &mut clients {
        c.placing().await;
    }
    let mut spectator = app.connect(&id, None).await;
    let snapshot = spectator.state().await;
    assert_eq!(snapshot["observation"]["boards"][0]["ready"], false);
    let placing = clients[0].latest().unwrap();
    let version = placing["version"].as_u64().unwrap();
    let (parts, _) = first_placement(&placing).unwrap();
    clients[0]
        .send(json!({"type": "act", "version": version, "action": parts}))
        .await;
    clients[0]
        .until(|m| m["type"] == "state" && m["version"] == version + 1)
        .await;
    clients[0].act(version + 1, "ready").await;
    let next = spectator.state().await;
    assert_eq!(
        next["observation"]["boards"][0]["ready"], true,
        "the spectator's next state is seat 0's readiness, not its secret move: {next}"
    );
    assert_eq!(spectator.states().len(), 2);
    app.shutdown().await;
}

/// A Bataille Navale seat's first placement state (docs/protocol.md section 4.1): its size, and
/// a bound against growth. Placements are not listed in `legal`/`legal_info` (they were about
/// 167 KB); the seat's own `placement` describes them per piece and orientation.
#[tokio::test]
async fn a_naval_placement_state_stays_under_its_measured_size() {
    let app = spawn_app().await;
    let (_, mut clients) = naval_four(&app, None).await;
    let c = &mut clients[0];
    c.placing().await;
    let whole = c
        .wire
        .iter()
        .rev()
        .find(|w| w.contains(r#""phase":"placement""#))
        .unwrap();
    let state: Value = serde_json::from_str(whole).unwrap();
    let part = |k: &str| state[k].to_string().len();
    // The whole observation, or the patch bringing it from the layout's (with all of `placement`).
    let observation = if state["observation"].is_null() {
        &state["observation_patch"]
    } else {
        &state["observation"]
    };
    eprintln!(
        "naval placement state: {} bytes (legal {}, legal_info {}, observation.placement {})",
        whole.len(),
        part("legal"),
        part("legal_info"),
        observation["placement"].to_string().len(),
    );
    // The placements are not listed (about 1,200 of them took 160 KB): the seat's own observation
    // gives each piece's shape and legal top-left cells per orientation instead.
    assert_eq!(state["legal"], json!(["ready"]), "{whole:.300}");
    let anchors: usize = observation["placement"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["ways"].as_array().unwrap())
        .map(|w| w["anchors"].as_array().unwrap().len())
        .sum();
    assert!(anchors > 100, "{whole:.300}");
    // Measured 14,018 bytes.
    assert!(whole.len() < 15_000, "{} bytes", whole.len());
    app.shutdown().await;
}

/// The check the clients run on everything they receive passes what the server sends and fails
/// on a field, a `type` or a value the schema does not know, or one missing.
#[tokio::test]
async fn the_clients_check_refuses_a_shape_the_schema_does_not_know() {
    let app = spawn_app().await;
    let (status, games) = app.get("/api/games").await;
    assert_eq!(status, 200);
    assert_eq!(
        wire_errors("Games", &games.to_string()),
        Vec::<String>::new()
    );
    let mut extra = games.clone();
    extra["games"][0]["colour"] = json!("blue");
    assert!(!wire_errors("Games", &extra.to_string()).is_empty());
    let mut missing = games;
    missing["games"][0].as_object_mut().unwrap().remove("bots");
    assert!(!wire_errors("Games", &missing.to_string()).is_empty());

    let (id, t0, _, _) = two_humans(&app, "mad").await;
    let mut a = app.connect(&id, Some(&t0)).await;
    let state = a.state().await;
    let whole = a.wire[0].clone();
    assert_eq!(wire_errors("MatchMessage", &whole), Vec::<String>::new());
    let mut wrong: Value = serde_json::from_str(&whole).unwrap();
    wrong["status"] = json!("paused");
    assert!(!wire_errors("MatchMessage", &wrong.to_string()).is_empty());
    let mut unknown = wrong;
    unknown["status"] = state["status"].clone();
    unknown["type"] = json!("status");
    assert!(!wire_errors("MatchMessage", &unknown.to_string()).is_empty());
    assert!(
        !wire_errors("LobbyMessage", &whole).is_empty(),
        "a state is no lobby message"
    );
}
