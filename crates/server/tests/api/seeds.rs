//! Fixed seeds for tests (docs/protocol.md section 3.2, `seed`): a server run with test seeds
//! plays the same games every run; a public server refuses a chosen seed.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{spawn_app, spawn_app_with, temp_db, test_options};

/// An all-bot Moon Leap match (dice on every turn) created with `seed`; its finished record.
async fn bot_game(app: &crate::common::TestApp, seed: Option<&str>) -> Value {
    let bot = json!({"kind": "bot", "bot": "random"});
    let mut request = json!({"game": "moonleap", "seats": [bot, bot, bot]});
    if let Some(seed) = seed {
        request["seed"] = json!(seed);
    }
    let created = app.create(request).await;
    let id = created["id"].as_str().unwrap().to_owned();
    app.wait_finished(&id).await;
    let (status, record) = app.get(&format!("/api/matches/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["seed_hash"], created["seed_hash"]);
    record
}

/// The moves of a record without their times.
fn moves(record: &Value) -> Vec<(Value, Value)> {
    record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["by"].clone(), a["action"].clone()))
        .collect()
}

#[tokio::test]
async fn a_fixed_seed_plays_the_same_game_and_is_revealed_at_the_end() {
    let app = spawn_app().await;
    let seed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let first = bot_game(&app, Some(seed)).await;
    let again = bot_game(&app, Some(seed)).await;
    let other = bot_game(&app, Some(&"7".repeat(64))).await;
    assert_eq!(first["seed"], seed);
    let bytes = hex::decode(seed).unwrap();
    assert_eq!(first["seed_hash"], hex::encode(Sha256::digest(&bytes)));
    assert!(moves(&first).len() > 20, "a whole Moon Leap game");
    assert_eq!(
        moves(&first),
        moves(&again),
        "same seed, same dice, same bot moves"
    );
    assert_ne!(moves(&first), moves(&other), "another seed, another game");
    app.shutdown().await;
}

#[tokio::test]
async fn without_a_seed_test_servers_repeat_their_sequence_of_games() {
    let (a, b) = (spawn_app().await, spawn_app().await);
    let a1 = bot_game(&a, None).await;
    let a2 = bot_game(&a, None).await;
    let b1 = bot_game(&b, None).await;
    assert_eq!(a1["seed"], b1["seed"]);
    assert_eq!(moves(&a1), moves(&b1));
    assert_ne!(a1["seed"], a2["seed"], "each creation gets the next seed");
    // The derivation named in docs/protocol.md: SHA-256 of `plateau test seed 0`.
    assert_eq!(
        a1["seed"],
        hex::encode(Sha256::digest(b"plateau test seed 0"))
    );
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test]
async fn a_public_server_refuses_a_chosen_seed_and_bad_seeds_are_malformed() {
    let public = spawn_app_with(
        temp_db(),
        plateau_server::Options {
            test_seeds: false,
            ..test_options()
        },
    )
    .await;
    let request = |seed: &str| json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed});
    let (status, body) = public.post("/api/matches", &request(&"a".repeat(64))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("seed/not_allowed")),
        "{body}"
    );
    let (_, listed) = public.get("/api/matches").await;
    assert_eq!(listed["matches"], json!([]), "nothing was created");
    // Without the field a public server draws a fresh seed: two matches, two hashes.
    let body = json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let one = public.create(body.clone()).await;
    let two = public.create(body).await;
    assert_ne!(one["seed_hash"], two["seed_hash"]);
    public.shutdown().await;

    let test = spawn_app().await;
    for bad in ["abc", &"g".repeat(64), &"a".repeat(66)] {
        let (status, body) = test.post("/api/matches", &request(bad)).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("request/malformed")),
            "{bad}: {body}"
        );
        assert!(body["message"].as_str().unwrap().contains("seed"), "{body}");
    }
    let (_, listed) = test.get("/api/matches").await;
    assert_eq!(listed["matches"], json!([]));
    test.shutdown().await;
}
