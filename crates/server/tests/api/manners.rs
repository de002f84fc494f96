//! Table manners (docs/protocol.md sections 4.1 and 7.4): takebacks against bots and between
//! people, draw offers and the games without one, clocks that start with each seat's first move,
//! the rating change in the final state, renaming until the first rated game, and the game
//! exported as text.

use std::time::Duration;

use plateau_engine::{Actor, Record};
use serde_json::{Value, json};

use crate::common::{
    Agent, Client, entry, record, seated, spawn_app, spawn_app_on, spawn_app_with, temp_db,
    test_options, two_humans,
};

/// The next `state` that is a whole one (`snapshot` on the wire), as a takeback sends.
async fn snapshot(client: &mut Client) -> Value {
    loop {
        let m = client.state().await;
        let wire: Value = serde_json::from_str(client.wire.last().unwrap()).unwrap();
        if wire["snapshot"] == true {
            return m;
        }
    }
}

/// Waits until it is `client`'s seat's turn (its `legal` list is not empty).
async fn my_turn(client: &mut Client) -> Value {
    client
        .until(|m| {
            m["type"] == "state"
                && m["status"] == "live"
                && !m["legal"].as_array().is_none_or(Vec::is_empty)
        })
        .await
}

/// Against a bot in a casual Moon Leap game, a takeback is done at once: the match is exactly
/// what it was before the seat's last decision (the roll it decided on kept), and the dice that
/// follow the same decision are the dice that followed it before. The cut is stored: after a
/// restart the match is the same, and its finished record verifies with the seed.
#[tokio::test]
async fn a_takeback_against_a_bot_is_at_once_and_never_rerolls() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "moonleap", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut me = alice.connect(&id, None).await;
    // Nothing to take back before a first move.
    let first = my_turn(&mut me).await;
    me.send(json!({"type": "offer", "kind": "takeback"})).await;
    let refused = me.error().await;
    assert_eq!(refused["code"], "offer/unsupported");
    assert!(refused["message"].as_str().unwrap().contains("not moved"));
    let action = first["legal"][0].as_str().unwrap().to_owned();
    me.act(first["version"].as_u64().unwrap(), &action).await;
    let before = my_turn(&mut me).await;
    let chosen = before["legal"][0].as_str().unwrap().to_owned();
    me.act(before["version"].as_u64().unwrap(), &chosen).await;
    let later = my_turn(&mut me).await;
    let n = before["moves"].as_array().unwrap().len();
    let followed: Vec<Value> = later["moves"].as_array().unwrap()[n + 1..].to_vec();
    assert!(
        followed.iter().any(|m| m["by"] == "chance"),
        "the bot rolled: {followed:?}"
    );

    me.send(json!({"type": "offer", "kind": "takeback"})).await;
    let back = snapshot(&mut me).await;
    for field in ["version", "moves", "legal", "observation", "to_act"] {
        assert_eq!(
            back[field], before[field],
            "{field} is as before the decision"
        );
    }
    assert_eq!(back["offers"]["takeback"], json!([]));
    // The same decision again: the bot's roll after it is the roll it had.
    me.act(back["version"].as_u64().unwrap(), &chosen).await;
    let again = me
        .until(|m| m["type"] == "state" && m["moves"].as_array().unwrap().len() > n + 1)
        .await;
    let first_roll = |moves: &[Value]| moves.iter().find(|m| m["by"] == "chance").cloned();
    assert_eq!(
        first_roll(&again["moves"].as_array().unwrap()[n + 1..]),
        first_roll(&followed),
        "a takeback never rerolls"
    );
    let state = my_turn(&mut me).await;
    drop(me);

    // The stored log is the one played: a restarted service shows the same match.
    let db = app.db.clone();
    app.shutdown().await;
    let app = spawn_app_on(db).await;
    alice.addr = app.addr;
    let mut me = alice.connect(&id, None).await;
    let reloaded = my_turn(&mut me).await;
    for field in ["version", "moves", "legal"] {
        assert_eq!(reloaded[field], state[field], "{field} after the restart");
    }
    me.send(json!({"type": "resign"})).await;
    me.until(|m| m["status"] == "finished").await;
    let rec = record(&app, &id).await;
    assert!(rec.replay(entry("moonleap")).unwrap().seed_verified);
    app.shutdown().await;
}

/// Between people a takeback waits for the other's answer: declined, it is gone; a move
/// withdraws it; accepted, the asker's last move (and the reply to it) is taken back.
#[tokio::test]
async fn a_takeback_between_people_needs_the_others_yes() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let start = red.live().await;
    blue.live().await;
    let red_move = start["legal"][0].as_str().unwrap().to_owned();
    red.act(0, &red_move).await;
    let after_red = my_turn(&mut blue).await;
    red.until(|m| m["version"] == 1).await;

    // Asked, then declined.
    red.send(json!({"type": "offer", "kind": "takeback"})).await;
    let asked = blue
        .until(|m| m["type"] == "state" && m["offers"]["takeback"] == json!([0]))
        .await;
    assert_eq!(asked["version"], 1, "nothing is taken back yet");
    blue.send(json!({"type": "decline", "kind": "takeback"}))
        .await;
    red.until(|m| m["type"] == "state" && m["offers"]["takeback"] == json!([]))
        .await;

    // Asked, then Blue moves: the request is gone with the position it was about.
    red.send(json!({"type": "offer", "kind": "takeback"})).await;
    blue.until(|m| m["type"] == "state" && m["offers"]["takeback"] == json!([0]))
        .await;
    let blue_move = after_red["legal"][0].as_str().unwrap().to_owned();
    blue.act(1, &blue_move).await;
    let replied = red
        .until(|m| m["type"] == "state" && m["version"] == 2)
        .await;
    assert_eq!(replied["offers"]["takeback"], json!([]));

    // Asked on Red's own turn and accepted: Red's move and Blue's reply are both taken back.
    red.send(json!({"type": "offer", "kind": "takeback"})).await;
    blue.until(|m| m["type"] == "state" && m["offers"]["takeback"] == json!([0]))
        .await;
    blue.send(json!({"type": "offer", "kind": "takeback"}))
        .await;
    let red_back = snapshot(&mut red).await;
    let blue_back = snapshot(&mut blue).await;
    for back in [&red_back, &blue_back] {
        assert_eq!(back["version"], 0);
        assert_eq!(back["moves"], json!([]));
        assert_eq!(back["to_act"], json!([0]));
    }
    assert_eq!(red_back["legal"], start["legal"]);
    // Blue has not moved now: nothing of Blue's to take back.
    blue.send(json!({"type": "offer", "kind": "takeback"}))
        .await;
    assert_eq!(blue.error().await["code"], "offer/unsupported");
    // The game goes on from there, and the record holds the game as played.
    red.act(0, &red_move).await;
    blue.until(|m| m["type"] == "state" && m["version"] == 1)
        .await;
    red.send(json!({"type": "resign"})).await;
    blue.until(|m| m["status"] == "finished").await;
    let rec = record(&app, &id).await;
    let actions: Vec<(Actor, &str)> = rec.actions().collect();
    assert_eq!(
        actions,
        [(Actor::Seat(plateau_engine::Seat(0)), red_move.as_str())]
    );
    rec.replay(entry("mad")).unwrap();
    app.shutdown().await;
}

/// Against the computer a takeback is for casual games: a rated one refuses it.
#[tokio::test]
async fn no_takeback_against_a_bot_in_a_rated_game() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "rated": true, "creator_seat": 0,
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut me = alice.connect(&id, None).await;
    let start = my_turn(&mut me).await;
    me.act(0, start["legal"][0].as_str().unwrap()).await;
    my_turn(&mut me).await;
    me.send(json!({"type": "offer", "kind": "takeback"})).await;
    let refused = me.error().await;
    assert_eq!(refused["code"], "offer/unsupported");
    assert!(refused["message"].as_str().unwrap().contains("casual"));
    app.shutdown().await;
}

/// The draw offer: in Chakart, where the rules allow one, offered, declined, offered again and
/// accepted (a draw: both first); in Moon Leap, whose rules have none, refused. `/api/games`
/// says which game has what.
#[tokio::test]
async fn a_draw_is_offered_declined_and_accepted_where_the_rules_allow_one() {
    let app = spawn_app().await;
    let (_, games) = app.get("/api/games").await;
    let game = |name: &str| {
        games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .cloned()
            .unwrap()
    };
    let kinds = |name: &str| {
        (
            game(name)["agreement"].clone(),
            game(name)["agreement_draw"].clone(),
        )
    };
    assert_eq!(kinds("chakart"), (json!(true), json!(true)));
    assert_eq!(
        kinds("mad"),
        (json!(true), json!(false)),
        "MAD's agreed stop has a winner"
    );
    assert_eq!(kinds("moonleap"), (json!(false), json!(false)));
    assert_eq!(kinds("naval"), (json!(false), json!(false)));

    let (id, t0, t1, _) = two_humans(&app, "chakart").await;
    let mut white = app.connect(&id, Some(&t0)).await;
    let mut black = app.connect(&id, Some(&t1)).await;
    white.live().await;
    black.live().await;
    white
        .send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    black
        .until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([0]))
        .await;
    black
        .send(json!({"type": "decline", "kind": "agreement"}))
        .await;
    let declined = white
        .until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([]))
        .await;
    assert_eq!(declined["status"], "live");
    white
        .send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    black
        .until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([0]))
        .await;
    black
        .send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    let end = white.until(|m| m["status"] == "finished").await;
    assert_eq!(end["outcome"]["ranks"], json!([1, 1]));
    assert_eq!(end["outcome"]["kind"], "agreement");

    let (id, mut clients) = seated(&app, crate::common::humans("moonleap")).await;
    clients[0].live().await;
    clients[0]
        .send(json!({"type": "offer", "kind": "agreement"}))
        .await;
    let refused = clients[0].error().await;
    assert_eq!(refused["code"], "offer/unsupported");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("Moon Leap has no agreed stop"),
        "{refused}"
    );
    assert_eq!(app.summary(&id).await["status"], "live");
    app.shutdown().await;
}

/// A seat's Fischer clock starts with its first move: before it nothing is charged, for at most
/// the first-move time, after which the clock runs; from the second move on it runs at once.
#[tokio::test]
async fn the_clock_starts_with_each_seats_first_move() {
    let app = spawn_app_with(
        temp_db(),
        plateau_server::Options {
            first_move: Duration::from_secs(4),
            ..test_options()
        },
    )
    .await;
    let mut request = crate::common::humans("mad");
    request["time_control"] =
        json!({"kind": "fischer", "base_seconds": 60, "increment_seconds": 0});
    let (_, mut c) = seated(&app, request).await;
    let start = c[0].live().await;
    c[1].live().await;
    let clocks = &start["clocks"];
    assert_eq!(clocks["remaining_ms"], json!([60_000, 60_000]));
    assert_eq!(clocks["running"], Value::Null, "{clocks}");
    assert_eq!(clocks["running_seats"], json!([]));
    let wait = clocks["first_move_ms"][0].as_u64().unwrap();
    assert!((2_000..=4_000).contains(&wait), "{clocks}");
    assert_eq!(clocks["first_move_ms"][1], Value::Null);
    // Red thinks a while over its first move: none of it is charged. (The 4 s of first-move
    // time leave a loaded machine seconds to take the move within it.)
    tokio::time::sleep(Duration::from_millis(600)).await;
    c[0].act(0, start["legal"][0].as_str().unwrap()).await;
    let blue_turn = my_turn(&mut c[1]).await;
    let clocks = &blue_turn["clocks"];
    assert_eq!(clocks["remaining_ms"], json!([60_000, 60_000]), "{clocks}");
    assert!(
        clocks["first_move_ms"][1].as_u64().unwrap() > 2_000,
        "{clocks}"
    );
    // Blue lets its first-move time run out: from then on its clock runs.
    tokio::time::sleep(Duration::from_millis(4_800)).await;
    c[1].act(1, blue_turn["legal"][0].as_str().unwrap()).await;
    let red_turn = my_turn(&mut c[0]).await;
    let blue_left = red_turn["clocks"]["remaining_ms"][1].as_u64().unwrap();
    assert!(
        (55_000..60_000).contains(&blue_left),
        "Blue was charged for the time past its first-move time: {blue_left}"
    );
    // Red's second move: its clock runs from the first instant.
    assert_eq!(red_turn["clocks"]["running"], 0);
    assert_eq!(red_turn["clocks"]["first_move_ms"], json!([null, null]));
    app.shutdown().await;
}

/// A rated match's final state says how each person's rating moved (the numbers of their
/// profiles); a casual match's says nothing.
#[tokio::test]
async fn the_final_state_shows_the_rating_change() {
    let app = spawn_app().await;
    // From two addresses, and moves on both sides: players of one address, or a game resigned
    // before each seat has moved twice, change no rating.
    let mut ann = crate::ratings::guest_from(app.addr, "127.0.0.31", "Ann").await;
    let mut bob = crate::ratings::guest_from(app.addr, "127.0.0.32", "Bob").await;
    let id = crate::ratings::bob_resigns(&app, &mut bob, &mut ann, true).await;
    let mut late = bob.connect(&id, None).await;
    let end = late.state().await;
    assert_eq!(end["status"], "finished");
    let ratings = end["ratings"].as_array().expect("a rated match's ratings");
    let (_, profile) = ann.get("/api/players/Ann").await;
    let change = profile["recent"][0]["rating_change"].as_i64().unwrap();
    assert!(change < 0);
    // Bob made the match (seat 0) and won; Ann resigned from seat 1.
    assert_eq!(ratings[1]["before"], 1500);
    assert_eq!(
        ratings[1]["after"].as_i64().unwrap() - 1500,
        change,
        "the profile's change"
    );
    assert!(ratings[0]["after"].as_i64().unwrap() > 1500);

    // Ann's name stays now; before, it could change. A new guest may still rename.
    let (_, me) = ann.get("/api/me").await;
    assert_eq!(me["can_rename"], false);
    let (status, refused) = ann.post("/api/guest", &json!({"name": "Annie"})).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (409, Some("name/locked"))
    );
    let (status, _) = ann.post("/api/guest", &json!({"name": "Ann"})).await;
    assert_eq!(status, 200, "keeping one's name is no rename");
    let mut cleo = Agent::guest(app.addr, "Cleo").await;
    assert_eq!(cleo.get("/api/me").await.1["can_rename"], true);
    let (status, renamed) = cleo.post("/api/guest", &json!({"name": "Cleo2"})).await;
    assert_eq!(
        (status, renamed["player"]["name"].as_str()),
        (200, Some("Cleo2"))
    );
    assert_eq!(
        Agent::new(app.addr).get("/api/me").await.1["can_rename"],
        false
    );

    let (_, mut casual) = seated(&app, crate::common::humans("mad")).await;
    casual[0].live().await;
    casual[0].send(json!({"type": "resign"})).await;
    let end = casual[1].until(|m| m["status"] == "finished").await;
    assert!(end.get("ratings").is_none(), "{end}");
    app.shutdown().await;
}

/// The finished game as text: tags for people, the record's own, the moves in the game's
/// notation; it reads back into the record the service serves, which replays and verifies.
#[tokio::test]
async fn a_finished_game_exports_as_text_that_replays() {
    let app = spawn_app().await;
    let (id, t0, t1, _) = two_humans(&app, "mad").await;
    let (status, refused) = app.get(&format!("/api/matches/{id}/export")).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (409, Some("match/not_over"))
    );
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let start = red.live().await;
    blue.live().await;
    let first = start["legal"][0].as_str().unwrap().to_owned();
    red.act(0, &first).await;
    blue.send(json!({"type": "resign"})).await;
    red.until(|m| m["status"] == "finished").await;

    let (status, headers, text) = crate::common::http_with(
        app.addr,
        "GET",
        &format!("/api/matches/{id}/export"),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(header("content-type"), "text/plain; charset=utf-8");
    assert_eq!(
        header("content-disposition"),
        format!("attachment; filename=\"plateau-mad-{id}.txt\"")
    );
    assert!(
        text.contains("[Event \"Plateau casual game of MAD\"]\n"),
        "{text}"
    );
    assert!(
        text.contains("[Rated \"no\"]\n[Game \"mad\"]\n[Seat1 \"human\"]\n[Seat2 \"human\"]\n")
    );
    assert!(
        text.contains("[Result \"1-2\"]\n[Scores \"1 0\"]\n[Termination \"resign\"]\n"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("\n1. seat 1: {first}\nend: resign seat 2\n")),
        "{text}"
    );
    let read = Record::from_text(&text).unwrap();
    let mut served = record(&app, &id).await;
    for e in &mut served.log {
        e.at_ms = None;
    }
    assert_eq!(read, served);
    assert!(read.replay(entry("mad")).unwrap().seed_verified);
    app.shutdown().await;
}

/// A turn played with the others at once (Bataille Navale's placement, whose pieces may still be
/// moved) is no turn to take back.
#[tokio::test]
async fn a_simultaneous_placement_is_not_taken_back() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "naval", "seats": [{"kind": "human"}, bot, bot, bot]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut me = alice.connect(&id, None).await;
    let placing = me.placing().await;
    let (parts, _) = crate::common::first_placement(&placing).unwrap();
    me.send(json!({"type": "act", "version": placing["version"], "action": parts}))
        .await;
    me.until(|m| m["type"] == "state" && m["version"] != placing["version"])
        .await;
    me.send(json!({"type": "offer", "kind": "takeback"})).await;
    let refused = me.error().await;
    assert_eq!(refused["code"], "offer/unsupported");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("with the others at once"),
        "{refused}"
    );
    app.shutdown().await;
}
