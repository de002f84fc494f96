//! The service's basics (docs/protocol.md sections 2 to 4): health, the game list, the static
//! pages, creating, joining, listing and watching matches.

use serde_json::{Value, json};

use crate::common;
use crate::common::{humans, id, spawn_app};

#[tokio::test]
async fn health_games_and_static_pages() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/health").await,
        (
            200,
            json!({"status": "ok", "database": "ok", "matches_in_memory": 0})
        )
    );
    let (status, games) = app.get("/api/games").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"mad") && names.contains(&"toy"),
        "{names:?}"
    );
    let toy = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "toy")
        .unwrap();
    assert_eq!(toy["hidden_information"], true);
    // The registry's bots, and the test catalogue's `slow` (common.rs).
    assert_eq!(
        toy["bots"],
        json!([
            "random", "greedy", "beginner", "casual", "club", "strong", "expert", "mcts", "slow"
        ])
    );
    // Every embedded file of web/ is served at /assets/<path>, byte for byte; the pages as
    // embedded (their shared parts included, assets.rs) but for the import map in their head and
    // the version their links carry (`?v=` and 16 hex digits).
    for path in plateau_server::assets::paths() {
        let (status, body) = common::http(app.addr, "GET", &format!("/assets/{path}"), None).await;
        assert_eq!(status, 200, "{path}");
        let on_disk =
            std::fs::read(format!("{}/../../web/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut unversioned = body.clone();
        if path.ends_with(".html") {
            let embedded = plateau_server::assets::embedded(path).unwrap();
            assert_ne!(embedded, on_disk, "{path} includes the shared parts");
            let map = unversioned.find("\n<script type=\"importmap\">").unwrap();
            let end = map + unversioned[map..].find("</script>").unwrap() + "</script>".len();
            unversioned.replace_range(map..end, "");
            while let Some(at) = unversioned.find("?v=") {
                let end = at + 3 + 16;
                let version = &unversioned[at + 3..end];
                assert!(version.bytes().all(|b| b.is_ascii_hexdigit()), "{path}");
                unversioned.replace_range(at..end, "");
            }
        }
        let expected = if path.ends_with(".html") {
            plateau_server::assets::embedded(path).unwrap()
        } else {
            &on_disk
        };
        assert_eq!(unversioned.as_bytes(), expected, "{path}");
    }
    let index = plateau_server::assets::file("index.html").is_some();
    assert_eq!(
        common::http(app.addr, "GET", "/", None).await.0,
        if index { 200 } else { 404 }
    );
    assert_eq!(
        common::http(app.addr, "GET", "/assets/nope.js", None)
            .await
            .0,
        404
    );
    assert_eq!(common::http(app.addr, "GET", "/nowhere", None).await.0, 404);
    app.shutdown().await;
}

#[tokio::test]
async fn create_join_list_and_spectate() {
    let app = spawn_app().await;
    let created = app.create(humans("toy")).await;
    let id = id(&created);
    assert_eq!(created["seat"], 0);
    assert_eq!(created["token"].as_str().unwrap().len(), 64);
    assert_eq!(created["url"], format!("/m/{id}"));
    assert_eq!(
        created["invites"],
        json!([{"seat": 1, "url": format!("/m/{id}?join=1")}])
    );
    let summary = app.summary(&id).await;
    assert_eq!(summary["status"], "open");
    assert_eq!(summary["seed"], Value::Null);
    assert_eq!(summary["seed_hash"], created["seed_hash"]);
    assert_eq!(
        summary["seats"][1],
        json!({"seat": 1, "kind": "human", "bot": null, "level": null, "taken": false,
               "player": null, "connected": false})
    );
    assert_eq!(
        summary["seats"][0]["player"]["kind"], "guest",
        "the creator plays as a guest"
    );
    let (_, open) = app.get("/api/matches?status=open").await;
    assert_eq!(open["matches"].as_array().unwrap().len(), 1);
    assert_eq!(open["matches"][0]["id"], id);

    // A spectator connected while the match is open sees it start once seat 1 has joined and
    // both players have opened it.
    let mut spectator = app.connect(&id, None).await;
    let first = spectator.state().await;
    assert_eq!(
        (first["status"].clone(), first["seat"].clone()),
        (json!("open"), Value::Null)
    );
    assert_eq!(first["to_act"], json!([]));
    let (status, joined) = app
        .post(&format!("/api/matches/{id}/join"), &json!({"seat": 1}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["invites"], json!([]));
    assert_eq!(
        app.summary(&id).await["status"],
        "open",
        "taken, not yet opened"
    );
    let mut seat0 = app.connect(&id, created["token"].as_str()).await;
    let _seat1 = app.connect(&id, joined["token"].as_str()).await;
    let live = spectator
        .until(|m| m["status"] == "live" && m["to_act"] == json!([0]))
        .await;
    // Two cards were dealt (two chance entries), and the spectator sees neither: its version
    // does not count them, and neither does the public one.
    assert_eq!(live["version"], 0);
    assert_eq!(app.summary(&id).await["version"], 0);
    assert_eq!(live["observation"]["cards"], json!([null, null]));
    assert_eq!(live["legal"], json!([]));
    assert_eq!(
        live["moves"],
        json!([]),
        "no move list in a hidden-information game"
    );
    let (_, open) = app.get("/api/matches?status=open").await;
    assert!(open["matches"].as_array().unwrap().is_empty());
    let (_, lobby) = app.get("/api/matches").await;
    assert_eq!(lobby["matches"][0]["status"], "live");

    // The seat holder sees its own card and its two legal actions.
    let mine = seat0
        .until(|m| m["type"] == "state" && m["status"] == "live")
        .await;
    assert_eq!(mine["seat"], 0);
    assert!(mine["observation"]["cards"][0].is_u64());
    assert!(mine["observation"]["cards"][1].is_null());
    assert_eq!(mine["legal"], json!(["fold", "keep"]));
    app.shutdown().await;
}
