//! Players over the HTTP API (docs/protocol.md section 7): guests, accounts, sessions, and every
//! bad input of that part: each gets its coded error and changes nothing.

use serde_json::{Value, json};

use crate::common::{Agent, http_with, spawn_app};

fn cookie_attributes(agent: &Agent) -> String {
    agent
        .set_cookies
        .iter()
        .find(|c| c.starts_with("plateau_session="))
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn a_guest_becomes_an_account_and_signs_in_elsewhere() {
    let app = spawn_app().await;
    let mut alice = Agent::new(app.addr);
    assert_eq!(
        alice.get("/api/me").await,
        (200, json!({"player": null, "can_rename": false}))
    );
    let (status, body) = alice.post("/api/guest", &json!({"name": "Alice"})).await;
    assert_eq!(
        (status, body),
        (200, json!({"player": {"name": "Alice", "kind": "guest"}}))
    );
    let set = cookie_attributes(&alice);
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(attribute), "{set}");
    }
    assert_eq!(alice.session.as_ref().map(String::len), Some(64));
    assert_eq!(alice.get("/api/me").await.1["player"]["name"], "Alice");

    // Names are unique without regard to case and to letters that look alike, short and plain;
    // nothing is made otherwise.
    let mut other = Agent::new(app.addr);
    for (name, code) in [
        ("aLiCe", "name/taken"),
        ("AIice", "name/taken"),
        ("A1ice", "name/taken"),
        ("al-ice", "name/taken"),
        ("ab", "name/invalid"),
        ("<b>bold</b>", "name/invalid"),
        ("bell\u{7}", "name/invalid"),
        ("club-bot", "name/invalid"),
    ] {
        let (status, body) = other.post("/api/guest", &json!({"name": name})).await;
        assert_eq!(body["code"], code, "{name}: {body}");
        assert!(status == 400 || status == 409);
        assert_eq!(other.session, None, "{name}: no session was made");
    }
    assert_eq!(
        other.get("/api/players/%3Cb%3Ebold%3C%2Fb%3E").await.1["code"],
        "player/not_found"
    );
    // Nor may a guest rename itself to a look-alike: it keeps its name.
    let mut mallory = Agent::guest(app.addr, "Mallory").await;
    let (status, body) = mallory.post("/api/guest", &json!({"name": "AIice"})).await;
    assert_eq!(
        (status, &body["code"]),
        (409, &json!("name/taken")),
        "{body}"
    );
    assert_eq!(mallory.get("/api/me").await.1["player"]["name"], "Mallory");
    assert_eq!(
        other.get("/api/players/Alice").await.1["name"],
        "Alice",
        "Alice is still herself"
    );

    // A guest may rename itself; then it becomes an account (a new session id).
    let (status, body) = alice.post("/api/guest", &json!({"name": "Alicia"})).await;
    assert_eq!(
        (status, body["player"]["name"].clone()),
        (200, json!("Alicia"))
    );
    let (status, body) = alice
        .post("/api/account", &json!({"password": "short"}))
        .await;
    assert_eq!(
        (status, body["code"].clone()),
        (400, json!("password/invalid"))
    );
    let guest_session = alice.session.clone();
    let (status, body) = alice
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    assert_eq!(
        (status, body),
        (
            200,
            json!({"player": {"name": "Alicia", "kind": "account"}})
        )
    );
    assert_ne!(
        alice.session, guest_session,
        "a new session id at account creation"
    );
    let mut stale = Agent::new(app.addr);
    stale.session = guest_session;
    assert_eq!(
        stale.get("/api/me").await.1,
        json!({"player": null, "can_rename": false})
    );
    let (status, body) = alice.post("/api/guest", &json!({"name": "Ali"})).await;
    assert_eq!(
        (status, body["code"].clone()),
        (409, json!("player/account"))
    );

    // Wrong password and unknown name: the same answer.
    let mut device = Agent::new(app.addr);
    let wrong = device
        .post(
            "/api/login",
            &json!({"name": "Alicia", "password": "not the one"}),
        )
        .await;
    let unknown = device
        .post(
            "/api/login",
            &json!({"name": "Nobody", "password": "a long pass phrase"}),
        )
        .await;
    assert_eq!(wrong, unknown);
    assert_eq!(
        (wrong.0, wrong.1["code"].clone()),
        (401, json!("auth/failed"))
    );
    assert_eq!(device.session, None);

    // Session fixation: a cookie planted before the sign-in is replaced, and names nobody.
    let planted = "ab".repeat(32);
    device.session = Some(planted.clone());
    let (status, body) = device
        .post(
            "/api/login",
            &json!({"name": "ALICIA", "password": "a long pass phrase"}),
        )
        .await;
    assert_eq!(
        (status, body["player"]["name"].clone()),
        (200, json!("Alicia"))
    );
    assert_ne!(device.session.as_deref(), Some(planted.as_str()));
    let mut fixer = Agent::new(app.addr);
    fixer.session = Some(planted);
    assert_eq!(
        fixer.get("/api/me").await.1,
        json!({"player": null, "can_rename": false})
    );
    assert_eq!(device.get("/api/me").await.1["player"]["kind"], "account");

    let (status, _) = device.post("/api/logout", &json!({})).await;
    assert_eq!(status, 204);
    assert_eq!(
        device.get("/api/me").await.1,
        json!({"player": null, "can_rename": false})
    );
    assert_eq!(
        alice.get("/api/me").await.1["player"]["name"],
        "Alicia",
        "other sessions stay"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn sign_in_attempts_are_limited_per_address_and_name() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    alice
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    let mut thief = Agent::new(app.addr);
    for _ in 0..10 {
        let (status, _) = thief
            .post(
                "/api/login",
                &json!({"name": "Alice", "password": "guess guess"}),
            )
            .await;
        assert_eq!(status, 401);
    }
    // The 11th, even right, is refused (ten failures for a name from an address in 15 minutes).
    let (status, body) = thief
        .post(
            "/api/login",
            &json!({"name": "Alice", "password": "a long pass phrase"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].clone()),
        (429, json!("auth/rate_limited"))
    );
    assert_eq!(thief.session, None);
    app.shutdown().await;

    // Attempts per address and minute, whatever the name: past them, another name from the
    // same address is refused too. Two a minute here, not the ten of the default: each attempt
    // hashes a password, and ten hashes on a loaded machine (beside the crowd tests' hundreds)
    // could take over the minute the rule counts in.
    let app = crate::common::app_with(plateau_lobby::limits::Limits {
        sign_ins_per_minute: 2,
        ..crate::common::test_options().limits
    })
    .await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    alice
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    let mut thief = Agent::new(app.addr);
    for name in ["Alice", "Carol"] {
        let (status, _) = thief
            .post(
                "/api/login",
                &json!({"name": name, "password": "guess guess"}),
            )
            .await;
        assert_eq!(status, 401, "{name}");
    }
    for name in ["Bob", "Alice"] {
        let (status, body) = thief
            .post(
                "/api/login",
                &json!({"name": name, "password": "a long pass phrase"}),
            )
            .await;
        assert_eq!(
            (status, body["code"].clone()),
            (429, json!("auth/rate_limited")),
            "{name}"
        );
    }
    assert_eq!(thief.session, None);
    app.shutdown().await;
}

#[tokio::test]
async fn other_sites_cannot_change_anything_and_pages_carry_security_headers() {
    let app = spawn_app().await;
    let body = json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let evil = [("Origin", "http://evil.example")];
    let (status, _, text) = http_with(app.addr, "POST", "/api/matches", &evil, Some(&body)).await;
    assert_eq!(status, 403);
    assert!(text.contains("request/cross_site"), "{text}");
    let (status, _, text) = http_with(
        app.addr,
        "POST",
        "/api/guest",
        &[("Origin", "http://evil.example")],
        Some(r#"{"name": "Mallory"}"#),
    )
    .await;
    assert_eq!(status, 403, "{text}");
    let plain = [("Content-Type", "text/plain")];
    let (status, _, text) = http_with(app.addr, "POST", "/api/matches", &plain, Some(&body)).await;
    assert_eq!(status, 415);
    assert!(text.contains("request/media_type"), "{text}");
    let (_, listed) = app.get("/api/matches").await;
    assert_eq!(listed["matches"], json!([]), "nothing was created");
    // The same origin passes.
    let host = format!("http://{}", app.addr);
    let (status, _, _) = http_with(
        app.addr,
        "POST",
        "/api/matches",
        &[("Origin", host.as_str())],
        Some(&body),
    )
    .await;
    assert_eq!(status, 201);
    // A WebSocket opened by another site is refused before the upgrade.
    let (status, _, _) = http_with(
        app.addr,
        "GET",
        "/api/lobby/ws",
        &[
            ("Origin", "http://evil.example"),
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ],
        None,
    )
    .await;
    assert_eq!(status, 403);
    for path in [
        "/",
        "/m/0123456789abcdef",
        "/@/Alice",
        "/api/games",
        "/nope",
    ] {
        let (_, headers, _) = http_with(app.addr, "GET", path, &[], None).await;
        let get = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let csp = get("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
            "{path}: {csp}"
        );
        assert_eq!(
            get("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(get("x-frame-options").as_deref(), Some("DENY"), "{path}");
        assert_eq!(
            get("referrer-policy").as_deref(),
            Some("same-origin"),
            "{path}"
        );
    }
    app.shutdown().await;
}

#[tokio::test]
async fn a_seat_belongs_to_its_player() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let bob = Agent::guest(app.addr, "Bob").await;
    let (status, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    // Bob holding Alice's token is refused; so is a token of another match.
    let mut stolen = bob.connect(id, Some(token)).await;
    assert_eq!(stolen.error().await["code"], "auth/seat");
    let (_, other) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let mut crossed = alice.connect(id, other["token"].as_str()).await;
    assert_eq!(crossed.error().await["code"], "auth/seat");
    // Alice on another device, signed in but without the token, gets her seat.
    let mut phone = alice.connect(id, None).await;
    let state = phone.live().await;
    assert_eq!(state["seat"], 0);
    assert_eq!(
        state["seats"][0]["player"],
        json!({"name": "Alice", "kind": "guest"})
    );
    assert_eq!(
        state["seats"][1]["player"],
        json!({"name": "random-bot", "kind": "bot"})
    );
    assert_eq!(state["seats"][0]["connected"], true);
    // Bob without a token only watches.
    let mut watcher = bob.connect(id, None).await;
    assert_eq!(watcher.state().await["seat"], Value::Null);
    // A token in the URL is refused before the upgrade: URLs end up in logs and histories.
    let (status, _, body) = http_with(
        app.addr,
        "GET",
        &format!("/api/matches/{id}/ws?token={token}"),
        &[
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade, close"),
            ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ],
        None,
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("request/malformed") && body.contains("never goes in the URL"));
    app.shutdown().await;
}
