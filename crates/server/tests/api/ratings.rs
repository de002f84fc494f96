//! Rated and casual matches over the API (docs/protocol.md section 7.3): Weng-Lin changes stored
//! with the outcome, profiles, history and leaderboards; bots are fixed anchors.

use serde_json::{Value, json};

use crate::common::{Agent, TestApp, play_each, spawn_app};

/// The guest `name`, whose requests come from loopback address `from`.
pub async fn guest_from(addr: std::net::SocketAddr, from: &str, name: &str) -> Agent {
    let mut agent = Agent::from(addr, from);
    let (status, body) = agent.post("/api/guest", &json!({"name": name})).await;
    assert_eq!(status, 200, "{body}");
    agent
}

/// The Weng-Lin change of two newcomers (mu 25, sigma 25/3, beta 25/6), winner's view, as people
/// read it (x 60): sigma^2 / c x (1 - 1/2) with c^2 = 2 beta^2 + 2 sigma^2.
fn newcomers_gain() -> i64 {
    let (sigma, beta) = (25.0_f64 / 3.0, 25.0_f64 / 6.0);
    let c = (2.0 * beta * beta + 2.0 * sigma * sigma).sqrt();
    ((25.0 + sigma * sigma / c * 0.5) * 60.0).round() as i64 - 1500
}

/// Alice (seat 0) and Bob (seat 1) play a MAD match, `rated` or not, that Bob resigns once each
/// made `ratings::MIN_ACTIONS` actions (sooner, it would be an abort).
pub async fn bob_resigns(app: &TestApp, alice: &mut Agent, bob: &mut Agent, rated: bool) -> String {
    let (status, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "rated": rated, "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (status, joined) = bob
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let mut red = alice.connect(&id, created["token"].as_str()).await;
    let mut blue = bob.connect(&id, None).await;
    red.live().await;
    blue.live().await;
    let mut both = [red, blue];
    play_each(&mut both, 2).await;
    let [mut red, blue] = both;
    let mut blue = blue;
    blue.send(json!({"type": "resign"})).await;
    red.until(|m| m["status"] == "finished").await;
    let summary = app.summary(&id).await;
    assert_eq!(summary["rated"], rated);
    assert_eq!(summary["unrated"], Value::Null);
    id
}

#[tokio::test]
async fn a_rated_win_moves_both_ratings_by_weng_lin_and_a_casual_one_moves_nothing() {
    let app = spawn_app().await;
    // From two addresses: players of one address play no rated game together.
    let mut alice = guest_from(app.addr, "127.0.0.21", "Alice").await;
    let mut bob = guest_from(app.addr, "127.0.0.22", "Bob").await;
    let id = bob_resigns(&app, &mut alice, &mut bob, true).await;
    let gain = newcomers_gain();
    assert_eq!(gain, 158);

    let (status, profile) = alice.get("/api/players/alice").await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["name"], "Alice");
    let mad = &profile["ratings"]["mad"];
    assert_eq!(mad["rating"], 1500 + gain);
    assert_eq!(
        (
            mad["games"].clone(),
            mad["wins"].clone(),
            mad["losses"].clone(),
            mad["provisional"].clone()
        ),
        (json!(1), json!(1), json!(0), json!(true))
    );
    assert!(
        mad["deviation"].as_i64().unwrap() < 500,
        "the uncertainty shrank"
    );
    assert_eq!(
        profile["history"]["mad"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["rating"].clone())
            .collect::<Vec<_>>(),
        [json!(1500), json!(1500 + gain)]
    );
    let game = &profile["recent"][0];
    assert_eq!(
        (
            game["id"].as_str(),
            game["result"].clone(),
            game["rating_change"].clone()
        ),
        (Some(id.as_str()), json!("win"), json!(gain))
    );
    assert_eq!(game["opponents"], json!(["Bob"]));
    let (_, bob_profile) = bob.get("/api/players/Bob").await;
    assert_eq!(bob_profile["ratings"]["mad"]["rating"], 1500 - gain);
    assert_eq!(bob_profile["recent"][0]["result"], "loss");
    // Provisional players (under 10 rated games) are left off the leaderboard.
    let (_, board) = bob.get("/api/leaderboard/mad").await;
    assert_eq!(board["players"], json!([]));

    // A casual game: listed, rating unchanged.
    bob_resigns(&app, &mut alice, &mut bob, false).await;
    let (_, profile) = alice.get("/api/players/Alice").await;
    assert_eq!(profile["ratings"]["mad"]["rating"], 1500 + gain);
    assert_eq!(profile["ratings"]["mad"]["games"], 1);
    assert_eq!(profile["recent"].as_array().unwrap().len(), 2);
    assert_eq!(
        (
            profile["recent"][0]["rated"].clone(),
            profile["recent"][0]["rating_change"].clone()
        ),
        (json!(false), Value::Null)
    );
    assert_eq!(
        alice.get("/api/players/nobody").await.1["code"],
        "player/not_found"
    );
    assert_eq!(
        alice.get("/api/leaderboard/chess").await.1["code"],
        "game/unknown"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn bots_are_fixed_anchors() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "rated": true,
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "club"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    let mut me = alice.connect(id, None).await;
    me.live().await;
    // Three actions of Alice's: the bot has made two by then (sooner it is an abort).
    let mut mine = [me];
    play_each(&mut mine, 3).await;
    let [mut me] = mine;
    me.send(json!({"type": "resign"})).await;
    me.until(|m| m["status"] == "finished").await;
    let (_, bot) = alice.get("/api/players/club-bot").await;
    assert_eq!(bot["kind"], "bot");
    assert_eq!(
        bot["ratings"]["mad"]["rating"], 1500,
        "the anchor did not move"
    );
    assert_eq!(bot["ratings"]["mad"]["wins"], 1);
    let (_, me) = alice.get("/api/players/Alice").await;
    let after = me["ratings"]["mad"]["rating"].as_i64().unwrap();
    assert!(
        after < 1500,
        "losing to a 1500 anchor costs rating: {after}"
    );
    let (_, board) = alice.get("/api/leaderboard/mad").await;
    assert_eq!(board["players"], json!([]), "bots are not on the board");
    app.shutdown().await;
}
