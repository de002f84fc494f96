//! A player's own data (docs/protocol.md section 7.10): the download holds every section of what
//! the server keeps about the player, and a deleted account signs in no more, leaves the
//! leaderboard, and its opponents' games stay whole under a neutral name.

use serde_json::{Value, json};

use crate::common::{Agent, TestApp, app_with, http_from, spawn_app, test_options};
use crate::moderation::grant;
use crate::ratings::{bob_resigns, guest_from};

const PASSWORD: &str = "a long pass phrase";

/// The guest `name` from loopback address `from`, made an account with `PASSWORD`.
async fn account_from(app: &TestApp, from: &str, name: &str) -> Agent {
    let mut agent = guest_from(app.addr, from, name).await;
    let (status, body) = agent
        .post("/api/account", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(status, 200, "{body}");
    agent
}

/// A casual MAD match of `a` (seat 0) and `b`, live, both seats' sockets open.
async fn live_match(
    a: &mut Agent,
    b: &mut Agent,
) -> (String, crate::common::Client, crate::common::Client) {
    let (status, created) = a
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (status, joined) = b.post(&format!("/api/matches/{id}/join"), &json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let mut first = a.connect(&id, created["token"].as_str()).await;
    let mut second = b.connect(&id, None).await;
    first.live().await;
    second.live().await;
    (id, first, second)
}

/// The names of a list of PLAYERs.
fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_download_holds_every_section_of_a_player_s_data() {
    let app = spawn_app().await;
    let mut alice = account_from(&app, "127.0.8.1", "Alice").await;
    let mut bob = guest_from(app.addr, "127.0.8.2", "Bob").await;
    let _cy = guest_from(app.addr, "127.0.8.3", "Cyd").await;

    // A rated game won, a game still being played with a chat line in it, a follow, a block, a
    // challenge and a tournament.
    let won = bob_resigns(&app, &mut alice, &mut bob, true).await;
    let (live, mut mine, _theirs) = live_match(&mut alice, &mut bob).await;
    mine.send(json!({"type": "chat", "text": "good luck, Bob"}))
        .await;
    mine.until(|m| m["type"] == "chat").await;
    assert_eq!(
        alice.request("PUT", "/api/me/follows/Bob", None).await.0,
        204
    );
    assert_eq!(
        alice.request("PUT", "/api/me/blocks/Cyd", None).await.0,
        204
    );
    let mut lobby = alice.ws("/api/lobby/ws").await;
    lobby.until(|m| m["type"] == "lobby").await;
    lobby
        .send(json!({"type": "challenge", "name": "Bob", "game": "mad",
                     "time_control": {"kind": "per_move", "seconds": 60}, "rated": false}))
        .await;
    lobby
        .until(|m| {
            m["type"] == "challenges" && m["outgoing"].as_array().is_some_and(|o| o.len() == 1)
        })
        .await;
    let arena = json!({"name": "Sunday arena", "game": "toy", "time_control": {"kind": "none"},
                       "starts_in_seconds": 3600, "minutes": 10});
    let (status, made) = alice.post("/api/tournaments", &arena).await;
    assert_eq!(status, 201, "{made}");
    let tournament = made["tournament"]["id"].as_str().unwrap().to_owned();
    let (status, joined) = alice
        .post(&format!("/api/tournaments/{tournament}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    // Moderation: Alice reports Bob, Bob reports Alice, a moderator warns and mutes Alice.
    let report = json!({"name": "Bob", "reason": "spam", "text": "the same line again"});
    let (status, filed) = alice.post("/api/reports", &report).await;
    assert_eq!(status, 201, "{filed}");
    let report = json!({"name": "Alice", "reason": "abuse", "text": "Bob's words"});
    assert_eq!(bob.post("/api/reports", &report).await.0, 201);
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let warn = json!({"action": "warn", "reason": "be kind"});
    let (status, warned) = mia.post("/api/mod/players/Alice", &warn).await;
    assert_eq!(status, 200, "{warned}");
    let mute = json!({"action": "mute", "minutes": 30, "reason": "flooding"});
    let (status, muted) = mia.post("/api/mod/players/Alice", &mute).await;
    assert_eq!(status, 200, "{muted}");

    let cookie = format!("plateau_session={}", alice.session.clone().unwrap());
    let (status, headers, text) = http_from(
        alice.from,
        app.addr,
        "GET",
        "/api/me/data",
        &[("Cookie", cookie.as_str())],
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let disposition = headers
        .iter()
        .find(|(n, _)| n == "content-disposition")
        .map(|(_, v)| v.as_str());
    assert_eq!(
        disposition,
        Some("attachment; filename=\"plateau-Alice.json\"")
    );
    let data: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(data["account"]["name"], "Alice");
    assert_eq!(data["account"]["kind"], "account");
    assert!(!data["account"]["sessions"].as_array().unwrap().is_empty());
    assert_eq!(data["ratings"]["mad"]["games"], 1);
    assert_eq!(data["ratings"]["mad"]["wins"], 1);
    let changes = data["rating_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["match"], won.as_str());
    assert!(changes[0]["rating"].as_i64() > changes[0]["rating_before"].as_i64());
    let games = data["games"].as_array().unwrap();
    let game = |id: &str| {
        games
            .iter()
            .find(|g| g["summary"]["id"] == id)
            .unwrap_or_else(|| panic!("match {id} in {games:?}"))
    };
    assert_eq!(games.len(), 2);
    let finished = game(&won);
    assert_eq!(finished["seats"], json!([0]));
    assert_eq!(finished["summary"]["status"], "finished");
    // The record of a finished game: its log and its result, as GET .../record gives it.
    let (_, record) = alice.get(&format!("/api/matches/{won}/record")).await;
    assert_eq!(finished["record"], record);
    assert!(!record["actions"].as_array().unwrap().is_empty());
    assert_eq!(
        finished["record"]["outcome"],
        finished["summary"]["outcome"]
    );
    // A game being played: no record yet (its log may hold what Bob may not see).
    assert_eq!(game(&live)["record"], Value::Null);
    assert_eq!(game(&live)["summary"]["status"], "live");
    let chat = data["chat"].as_array().unwrap();
    assert_eq!(chat.len(), 1);
    assert_eq!(
        (
            chat[0]["match"].as_str(),
            chat[0]["text"].as_str(),
            chat[0]["room"].as_str()
        ),
        (Some(live.as_str()), Some("good luck, Bob"), Some("players"))
    );
    assert_eq!(names(&data["follows"]), ["Bob"]);
    assert_eq!(names(&data["blocks"]), ["Cyd"]);
    assert_eq!(data["challenges"]["outgoing"][0]["to"]["name"], "Bob");
    assert_eq!(data["challenges"]["incoming"], json!([]));
    assert_eq!(
        data["tournaments"][0]["tournament"]["id"],
        tournament.as_str()
    );
    assert!(data["exported_at"].as_i64() > Some(0));
    // Her warning and mute, and the report she filed; not Bob's report about her, which
    // would name him.
    let moderation = &data["moderation"];
    assert_eq!(
        (&moderation["moderator"], &moderation["banned"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(moderation["muted_until"], muted["until"]);
    assert_eq!(
        moderation["warnings"],
        json!([{"id": warned["id"], "at": warned["at"], "reason": "be kind"}])
    );
    assert_eq!(
        moderation["reports"],
        json!([{"id": filed["id"], "at": moderation["reports"][0]["at"], "reported": "Bob",
                "reason": "spam", "text": "the same line again", "match": null,
                "chat_seq": null, "status": "open"}])
    );
    assert!(!text.contains("Bob's words"), "{text}");

    // Another player's download holds its own data only; without a session there is none.
    let (_, theirs) = bob.get("/api/me/data").await;
    assert_eq!(theirs["account"]["name"], "Bob");
    assert_eq!(theirs["chat"], json!([]));
    assert_eq!(theirs["moderation"]["warnings"], json!([]));
    assert_eq!(theirs["moderation"]["reports"][0]["reported"], "Alice");
    let (status, body) = Agent::new(app.addr).get("/api/me/data").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("auth/required"))
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_deleted_account_signs_in_no_more_and_its_games_stay_with_its_opponents() {
    let app = spawn_app().await;
    let mut alice = account_from(&app, "127.0.9.1", "Alice").await;
    let mut bob = guest_from(app.addr, "127.0.9.2", "Bob").await;
    let mut cy = guest_from(app.addr, "127.0.9.3", "Cyd").await;
    // Ten rated wins, five against each (five a day count against one opponent): Alice is on
    // the leaderboard.
    let mut games = Vec::new();
    for _ in 0..5 {
        games.push(bob_resigns(&app, &mut alice, &mut bob, true).await);
        games.push(bob_resigns(&app, &mut alice, &mut cy, true).await);
    }
    let (_, board) = bob.get("/api/leaderboard/mad").await;
    assert_eq!(names(&board["players"]), ["Alice"]);
    let (_, bob_before) = bob.get("/api/players/Bob").await;

    // Moderation: Bob reports Alice, Alice reports Cyd, a moderator warns her and bans her.
    // While banned she reads her data but cannot delete her account; unbanned, she can.
    let report = json!({"name": "Alice", "reason": "abuse"});
    assert_eq!(bob.post("/api/reports", &report).await.0, 201);
    let report = json!({"name": "Cyd", "reason": "spam", "text": "ads"});
    let (status, filed) = alice.post("/api/reports", &report).await;
    assert_eq!(status, 201, "{filed}");
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let warn = json!({"action": "warn", "reason": "be kind"});
    assert_eq!(mia.post("/api/mod/players/Alice", &warn).await.0, 200);
    let ban = json!({"action": "ban", "days": 1, "reason": "cheating"});
    let (status, banned) = mia.post("/api/mod/players/Alice", &ban).await;
    assert_eq!(status, 200, "{banned}");
    let (status, data) = alice.get("/api/me/data").await;
    assert_eq!(status, 200, "{data}");
    assert_eq!(data["moderation"]["banned"], true);
    assert_eq!(data["moderation"]["banned_until"], banned["until"]);
    let (status, body) = alice
        .post("/api/me/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("player/banned"))
    );
    let unban = json!({"action": "unban", "reason": "served"});
    assert_eq!(mia.post("/api/mod/players/Alice", &unban).await.0, 200);

    // A wrong password, a guest: refused, nothing deleted.
    let (status, body) = alice
        .post("/api/me/delete", &json!({"password": "not the password"}))
        .await;
    assert_eq!((status, body["code"].as_str()), (401, Some("auth/failed")));
    let (status, body) = bob
        .post("/api/me/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!((status, body["code"].as_str()), (401, Some("auth/failed")));
    // While Alice is in a tournament not over: refused; withdrawn, no more.
    let arena = json!({"name": "Sunday arena", "game": "toy", "time_control": {"kind": "none"},
                       "starts_in_seconds": 3600, "minutes": 10});
    let (status, made) = alice.post("/api/tournaments", &arena).await;
    assert_eq!(status, 201, "{made}");
    let tournament = made["tournament"]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/tournaments/{tournament}");
    assert_eq!(alice.post(&format!("{path}/join"), &json!({})).await.0, 200);
    let (status, body) = alice
        .post("/api/me/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("player/playing"))
    );
    assert_eq!(
        alice.post(&format!("{path}/withdraw"), &json!({})).await.0,
        200
    );
    // While a game of Alice's is being played: refused; once it is over, deleted.
    let (live, mut mine, mut theirs) = live_match(&mut alice, &mut bob).await;
    let (status, body) = alice
        .post("/api/me/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("player/playing"))
    );
    mine.send(json!({"type": "resign"})).await;
    theirs.until(|m| m["status"] == "finished").await;
    let (status, body) = alice
        .post("/api/me/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(status, 204, "{body}");
    assert!(
        alice
            .set_cookies
            .iter()
            .any(|c| c.starts_with("plateau_session=;")),
        "{:?}",
        alice.set_cookies
    );

    // The name signs in no more, and the session is gone.
    let (status, body) = Agent::from(app.addr, "127.0.9.1")
        .post(
            "/api/login",
            &json!({"name": "Alice", "password": PASSWORD}),
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (401, Some("auth/failed")));
    let (_, me) = alice.get("/api/me").await;
    assert_eq!(me["player"], Value::Null);
    assert_eq!(
        bob.get("/api/players/Alice").await.1["code"],
        "player/not_found"
    );
    // Off the leaderboard; the opponents' ratings as they were.
    let (_, board) = bob.get("/api/leaderboard/mad").await;
    assert_eq!(board["players"], json!([]));
    let (_, bob_after) = bob.get("/api/players/Bob").await;
    assert_eq!(bob_after["ratings"], bob_before["ratings"]);
    // Every game stays, its seat under the neutral name, and replays with its seed verified.
    games.push(live);
    let mut neutral = None;
    for id in &games {
        let summary = app.summary(id).await;
        let name = summary["seats"][0]["player"]["name"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(name.starts_with("deleted player "), "{name}");
        assert_eq!(neutral.get_or_insert(name.clone()), &name);
        let (status, replay) = bob.get(&format!("/api/matches/{id}/replay")).await;
        assert_eq!(status, 200, "{replay}");
        assert_eq!(replay["verified"], true, "{id}");
        assert_eq!(replay["outcome"], summary["outcome"]);
    }
    let neutral = neutral.unwrap();
    assert_eq!(bob_after["recent"][0]["opponents"], json!([neutral]));
    // The tournament she made names its creator so too.
    let (_, made) = bob.get(&path).await;
    assert_eq!(made["tournament"]["creator"], neutral.as_str(), "{made}");
    // The neutral name signs in to nothing either; the old name is free for a newcomer.
    let (status, _) = Agent::from(app.addr, "127.0.9.4")
        .post(
            "/api/login",
            &json!({"name": neutral, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 401);
    // The report about her is gone from the queue; hers stays under the neutral name; the audit
    // log keeps its entries about her (warn, ban, unban) under the neutral name.
    let (status, queue) = mia.get("/api/mod/reports").await;
    assert_eq!(status, 200, "{queue}");
    let queue = queue["reports"].as_array().unwrap();
    let seen: Vec<_> = queue
        .iter()
        .map(|r| (&r["id"], r["reporter"].as_str(), r["reported"].as_str()))
        .collect();
    assert_eq!(seen, [(&filed["id"], Some(neutral.as_str()), Some("Cyd"))]);
    let (_, log) = mia.get("/api/mod/audit").await;
    let about: Vec<_> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] != "grant")
        .map(|e| (e["action"].as_str().unwrap(), e["target"].as_str()))
        .collect();
    assert_eq!(
        about,
        [
            ("unban", Some(neutral.as_str())),
            ("ban", Some(neutral.as_str())),
            ("warn", Some(neutral.as_str()))
        ]
    );
    let newcomer = guest_from(app.addr, "127.0.9.5", "Alice").await;
    assert!(newcomer.session.is_some());
    app.shutdown().await;
}

/// Guessing the password through the deletion is limited as signing in is: a stolen session
/// cannot try passwords there without end.
#[tokio::test]
async fn wrong_passwords_at_deletion_count_as_failed_sign_ins() {
    let app = spawn_app().await;
    let mut alice = account_from(&app, "127.0.10.1", "Alice").await;
    let mut codes = Vec::new();
    for i in 0..11 {
        let (_, body) = alice
            .post(
                "/api/me/delete",
                &json!({"password": format!("guess number {i}")}),
            )
            .await;
        codes.push(body["code"].as_str().unwrap_or_default().to_owned());
    }
    assert_eq!(codes[..10], vec!["auth/failed"; 10]);
    assert_eq!(codes[10], "auth/rate_limited");
    // Still there.
    assert_eq!(alice.get("/api/players/Alice").await.0, 200);
    app.shutdown().await;
}

/// The download is limited per player and per address (`Limits::data_downloads` within
/// `Limits::data_window`, here 2 in 6 s): past it `429 limit/downloads`, for the player
/// wherever it asks from and for anyone at its address; once the window has passed, allowed
/// again.
#[tokio::test]
async fn downloads_are_limited_per_player_and_address_until_the_window_passes() {
    // Long enough for the four requests after the downloads on a loaded machine.
    let window = std::time::Duration::from_secs(6);
    let app = app_with(plateau_lobby::limits::Limits {
        data_downloads: 2,
        data_window: window,
        ..test_options().limits
    })
    .await;
    let mut alice = guest_from(app.addr, "127.0.10.1", "Alice").await;
    let mut neighbour = guest_from(app.addr, "127.0.10.1", "Neighbour").await;
    let mut bob = guest_from(app.addr, "127.0.10.2", "Bob").await;
    for _ in 0..2 {
        let (status, data) = alice.get("/api/me/data").await;
        assert_eq!(status, 200, "{data}");
    }
    // Both counted before now.
    let counted = std::time::Instant::now();
    let refused = |(status, body): (u16, Value)| (status, body["code"].as_str().map(str::to_owned));
    let over = (429, Some("limit/downloads".to_owned()));
    assert_eq!(refused(alice.get("/api/me/data").await), over);
    // The address is spent for everyone at it; Bob, elsewhere, is not.
    assert_eq!(refused(neighbour.get("/api/me/data").await), over);
    let (status, data) = bob.get("/api/me/data").await;
    assert_eq!((status, &data["account"]["name"]), (200, &json!("Bob")));
    // Alice is counted wherever she asks from: her session from Bob's address is refused.
    let mut elsewhere = Agent::from(app.addr, "127.0.10.2");
    elsewhere.session = alice.session.clone();
    assert_eq!(refused(elsewhere.get("/api/me/data").await), over);

    // The refusals counted nothing: once the window has passed over the two downloads, both
    // ask again.
    tokio::time::sleep((counted + window).saturating_duration_since(std::time::Instant::now()))
        .await;
    let (status, data) = alice.get("/api/me/data").await;
    assert_eq!((status, &data["account"]["name"]), (200, &json!("Alice")));
    let (status, data) = neighbour.get("/api/me/data").await;
    assert_eq!(
        (status, &data["account"]["name"]),
        (200, &json!("Neighbour"))
    );
    app.shutdown().await;
}
