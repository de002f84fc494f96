//! Moderation (docs/protocol.md section 7.11): reports from chat to the moderators' queue,
//! warnings, mutes, renames, bans (live sockets and matches included), closed matches, the
//! audit log, and the refusals of every moderator route to a player that is no moderator.

use serde_json::{Value, json};

use crate::common::{Agent, Client, TestApp, play_each, spawn_app};
use plateau_server::store::moderation::{Action, AuditFrom, Moderation};

/// Makes account `name` a moderator as `plateau admin grant` does: written by the server's
/// shell, with no moderator.
pub(crate) async fn grant(app: &TestApp, name: &str) {
    let store = app.lobby.store();
    let (player, _) = store.player_by_name(name.into()).await.unwrap().unwrap();
    store
        .moderate(Moderation {
            moderator: None,
            target: Some(player.id),
            action: Action::Grant,
            reason: "the first moderator".into(),
            at: 1,
        })
        .await
        .unwrap();
}

/// Alice and `rude` (guests) at a live MAD table of two people, both connected.
async fn table(app: &TestApp, rude: &str) -> (Agent, Agent, String, Client, Client) {
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut other = Agent::guest(app.addr, rude).await;
    let (id, a, r) = seated(&mut alice, &mut other).await;
    (alice, other, id, a, r)
}

/// `first` makes a MAD match of two people and `second` joins it; the match's id and both
/// players' sockets, connected once it is live.
async fn seated(first: &mut Agent, second: &mut Agent) -> (String, Client, Client) {
    let (_, created) = first
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let (status, body) = second
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut a = first.connect(&id, None).await;
    let mut b = second.connect(&id, None).await;
    a.live().await;
    b.live().await;
    (id, a, b)
}

/// The audit log's actions, newest first, as a moderator reads them.
async fn audit(moderator: &mut Agent) -> Vec<Value> {
    let (status, log) = moderator.get("/api/mod/audit").await;
    assert_eq!(status, 200, "{log}");
    log["entries"].as_array().unwrap().clone()
}

/// A line reported from the chat reaches the moderators' queue with the line itself; a report
/// that does not read is refused and files nothing; only a moderator reads the queue and
/// handles a report, once.
#[tokio::test]
async fn a_chat_line_reported_reaches_the_queue_and_is_handled_once() {
    let app = spawn_app().await;
    let (mut alice, _rude, id, mut a, mut r) = table(&app, "Rude").await;
    r.send(json!({"type": "chat", "text": "you play like a potato"}))
        .await;
    let line = a.until(|m| m["type"] == "chat").await;
    assert_eq!(line["seq"], 0);
    let seq = line["seq"].as_u64().unwrap();

    // Refused, each with its code, and nothing filed.
    let bad = [
        (
            json!({"name": "Rude", "reason": "rudeness"}),
            400,
            "report/invalid",
        ),
        (
            json!({"name": "Alice", "reason": "abuse"}),
            400,
            "report/invalid",
        ),
        (
            json!({"name": "Rude", "reason": "abuse", "match": id, "chat_seq": 7}),
            400,
            "report/invalid",
        ),
        (
            json!({"name": "Rude", "reason": "abuse", "text": "x".repeat(501)}),
            400,
            "report/invalid",
        ),
        // A text that turns the direction of what follows it on the moderators' page.
        (
            json!({"name": "Rude", "reason": "abuse", "text": "he said \u{202E}olleh"}),
            400,
            "report/invalid",
        ),
        (
            json!({"name": "Nobody", "reason": "abuse"}),
            404,
            "player/not_found",
        ),
    ];
    for (body, status, code) in bad {
        let (got, answer) = alice.post("/api/reports", &body).await;
        assert_eq!(
            (got, answer["code"].clone()),
            (status, json!(code)),
            "{body}"
        );
    }
    let (status, answer) = Agent::new(app.addr)
        .post("/api/reports", &json!({"name": "Rude", "reason": "abuse"}))
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (401, Some("auth/required"))
    );
    assert!(app.lobby.store().open_reports(10).await.unwrap().is_empty());

    let (status, filed) = alice
        .post(
            "/api/reports",
            &json!({"name": "Rude", "reason": "abuse", "text": "insults me",
                    "match": id, "chat_seq": seq}),
        )
        .await;
    assert_eq!(status, 201, "{filed}");
    let report = filed["id"].as_i64().unwrap();

    // Alice is no moderator: refused, and the report stays open.
    let (status, refused) = alice.get("/api/mod/reports").await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("auth/moderator"))
    );
    let (status, refused) = alice
        .post(
            &format!("/api/mod/reports/{report}"),
            &json!({"action": "dismiss"}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("auth/moderator"))
    );
    assert_eq!(app.lobby.store().open_reports(10).await.unwrap().len(), 1);

    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let (status, queue) = mia.get("/api/mod/reports").await;
    assert_eq!(status, 200, "{queue}");
    let reports = queue["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1);
    let got = &reports[0];
    assert_eq!(
        (
            &got["id"],
            &got["reporter"],
            &got["reported"],
            &got["reason"],
            &got["text"],
            &got["match_id"],
            &got["chat"]
        ),
        (
            &json!(report),
            &json!("Alice"),
            &json!("Rude"),
            &json!("abuse"),
            &json!("insults me"),
            &json!(id),
            &json!({"seq": 0, "text": "you play like a potato"})
        )
    );
    let (status, done) = mia
        .post(
            &format!("/api/mod/reports/{report}"),
            &json!({"action": "resolve", "reason": "warned"}),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(
        (&done["action"], &done["report"], &done["moderator"]),
        (&json!("resolve"), &json!(report), &json!("Mia"))
    );
    let (_, queue) = mia.get("/api/mod/reports").await;
    assert_eq!(queue["reports"], json!([]));
    let (status, again) = mia
        .post(
            &format!("/api/mod/reports/{report}"),
            &json!({"action": "dismiss"}),
        )
        .await;
    assert_eq!(
        (status, again["code"].as_str()),
        (404, Some("report/not_found"))
    );
    // A report that never was (an id past the last, a negative one) is not found either, and
    // leaves no entry in the log.
    let (_, log) = mia.get("/api/mod/audit").await;
    for never in [report + 1000, -1] {
        let (status, body) = mia
            .post(
                &format!("/api/mod/reports/{never}"),
                &json!({"action": "resolve", "reason": "done"}),
            )
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("report/not_found")),
            "{never}: {body}"
        );
    }
    assert_eq!(mia.get("/api/mod/audit").await.1, log);
    app.shutdown().await;
}

/// Reports are limited per reporter: the eleventh in an hour is refused.
#[tokio::test]
async fn reports_are_limited_per_reporter() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let _bob = Agent::guest(app.addr, "Bob").await;
    for _ in 0..10 {
        let (status, body) = alice
            .post("/api/reports", &json!({"name": "Bob", "reason": "spam"}))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = alice
        .post("/api/reports", &json!({"name": "Bob", "reason": "spam"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/reports"))
    );
    assert_eq!(app.lobby.store().open_reports(50).await.unwrap().len(), 10);
    app.shutdown().await;
}

/// A warning is read on the player's next page until acknowledged; a mute refuses the
/// player's chat lines (not the others') until lifted; a rename gives a neutral name; each is
/// in the audit log with who, what, whom, when and why. A player that is no moderator is
/// refused every action and changes nothing.
#[tokio::test]
async fn warnings_mutes_and_renames_reach_the_player_and_the_log() {
    let app = spawn_app().await;
    let (mut alice, mut rude, _id, mut a, mut r) = table(&app, "Rude").await;
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;

    // Not a moderator: refused, nothing changes.
    for action in ["warn", "mute", "rename", "ban"] {
        let (status, refused) = alice
            .post(
                "/api/mod/players/Rude",
                &json!({"action": action, "reason": "I say so"}),
            )
            .await;
        assert_eq!(
            (status, refused["code"].as_str()),
            (403, Some("auth/moderator"))
        );
    }
    let (status, refused) = Agent::new(app.addr).get("/api/mod/audit").await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (401, Some("auth/required"))
    );
    assert_eq!(audit(&mut mia).await.len(), 1, "only the grant");
    let (_, me) = rude.get("/api/me").await;
    assert!(me.get("standing").is_none(), "{me}");

    // A moderator does not act on itself: a ban would leave it unable to lift it.
    for action in ["warn", "mute", "rename", "ban"] {
        let (status, body) = mia
            .post(
                "/api/mod/players/mia",
                &json!({"action": action, "reason": "oops"}),
            )
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("moderation/invalid")),
            "{action}: {body}"
        );
    }
    assert_eq!(audit(&mut mia).await.len(), 1, "only the grant");

    // A warning without words (blank) is refused: the player would read nothing.
    let (status, body) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "warn", "reason": "  "}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("moderation/invalid")),
        "{body}"
    );
    assert_eq!(audit(&mut mia).await.len(), 1, "only the grant");

    // A warning.
    let (status, warned) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "warn", "reason": "be kind in chat"}),
        )
        .await;
    assert_eq!(status, 200, "{warned}");
    let (_, me) = rude.get("/api/me").await;
    let warnings = me["standing"]["warnings"].as_array().unwrap().clone();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0]["reason"], "be kind in chat");
    let (status, _) = rude
        .post("/api/me/warnings", &json!({"up_to": warnings[0]["id"]}))
        .await;
    assert_eq!(status, 204);
    let (_, me) = rude.get("/api/me").await;
    assert!(me.get("standing").is_none(), "read: {me}");

    // A mute: Rude's lines refused, Alice's still pass.
    let (status, muted) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "mute", "minutes": 30, "reason": "flooding"}),
        )
        .await;
    assert_eq!(status, 200, "{muted}");
    let until = muted["until"].as_i64().unwrap();
    r.send(json!({"type": "chat", "text": "still here"})).await;
    let refused = r.error().await;
    assert_eq!(refused["code"], "chat/muted");
    let (_, me) = rude.get("/api/me").await;
    assert_eq!(me["standing"]["muted_until"], json!(until));
    a.send(json!({"type": "chat", "text": "hello"})).await;
    let heard = r.until(|m| m["type"] == "chat").await;
    assert_eq!(heard["text"], "hello");
    let (status, _) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "unmute", "reason": "served"}),
        )
        .await;
    assert_eq!(status, 200);
    r.send(json!({"type": "chat", "text": "sorry"})).await;
    let heard = a
        .until(|m| m["type"] == "chat" && m["name"] == "Rude")
        .await;
    assert_eq!(heard["text"], "sorry");
    // Out of range.
    let (status, refused) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "mute", "minutes": 0, "reason": "x"}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("moderation/invalid"))
    );
    let (status, refused) = mia
        .post(
            "/api/mod/players/random-bot",
            &json!({"action": "warn", "reason": "x"}),
        )
        .await;
    assert!(matches!(status, 400 | 404), "{refused}");

    // A rename to a neutral name: the old name names nobody.
    let (status, renamed) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "rename", "reason": "an insulting name"}),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    let new_name = renamed["detail"].as_str().unwrap().to_owned();
    assert!(new_name.starts_with("player-"), "{new_name}");
    let (_, me) = rude.get("/api/me").await;
    assert_eq!(me["player"]["name"], json!(new_name));
    let (status, _) = mia.get("/api/players/Rude").await;
    assert_eq!(status, 404);

    // The log, newest first: who, what, whom (the name then), when, why.
    let log = audit(&mut mia).await;
    let rows: Vec<(Value, Value, Value, Value)> = log
        .iter()
        .map(|e| {
            (
                e["moderator"].clone(),
                e["action"].clone(),
                e["target"].clone(),
                e["reason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                json!("Mia"),
                json!("rename"),
                json!("Rude"),
                json!("an insulting name")
            ),
            (
                json!("Mia"),
                json!("unmute"),
                json!("Rude"),
                json!("served")
            ),
            (
                json!("Mia"),
                json!("mute"),
                json!("Rude"),
                json!("flooding")
            ),
            (
                json!("Mia"),
                json!("warn"),
                json!("Rude"),
                json!("be kind in chat")
            ),
            (
                json!(null),
                json!("grant"),
                json!("Mia"),
                json!("the first moderator")
            ),
        ]
    );
    assert!(
        log.windows(2)
            .all(|w| w[0]["at"].as_i64() >= w[1]["at"].as_i64())
    );
    app.shutdown().await;
}

/// A ban closes the banned player's match and lobby sockets at once, resigns its seat in its
/// live match (the other player wins), and refuses it anything but reading; an unban gives it
/// all back.
#[tokio::test]
async fn a_ban_closes_the_sockets_and_ends_the_live_matches() {
    let app = spawn_app().await;
    let (_alice, mut rude, id, mut a, mut r) = table(&app, "Rude").await;
    let mut lobby = rude.ws("/api/lobby/ws").await;
    lobby.until(|m| m["type"] == "lobby").await;
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;

    let (status, banned) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "ban", "reason": "cheating", "days": 7}),
        )
        .await;
    assert_eq!(status, 200, "{banned}");
    while r.next().await.is_some() {}
    assert_eq!(r.closed, Some(4003), "the match socket");
    while lobby.next().await.is_some() {}
    assert_eq!(lobby.closed, Some(4003), "the lobby socket");
    let end = a
        .until(|m| m["type"] == "state" && m["status"] == "finished")
        .await;
    assert_eq!(
        end["outcome"]["ranks"],
        json!([1, 2]),
        "Rude resigned: {end}"
    );

    let (_, me) = rude.get("/api/me").await;
    assert_eq!(me["standing"]["banned"], true);
    assert_eq!(me["standing"]["banned_until"], banned["until"]);
    let (status, refused) = rude
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("player/banned"))
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("banned you until"),
        "{refused}"
    );
    assert!(
        rude.try_ws("/api/lobby/ws").await.is_none(),
        "no new socket"
    );
    let (status, _) = rude.get(&format!("/api/matches/{id}")).await;
    assert_eq!(status, 200, "reading stays open");

    let (status, _) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "unban", "reason": "appeal granted"}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, created) = rude
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    app.shutdown().await;
}

/// A ban applied once lifted ends nothing. Every node applies an audit entry when it reads the
/// log (`moderation::watch`, every second), the node that served the ban too, after applying it
/// at once: up to a second late, and so perhaps after the unban. Rude, banned and unbanned,
/// sits at a new live table when the ban is applied again, as the watcher would: the table
/// plays on, Rude's socket stays open, and its account is still refused deletion for it.
#[tokio::test]
async fn a_ban_applied_once_lifted_ends_nothing() {
    let app = spawn_app().await;
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let mut rude = Agent::account(app.addr, "Rude").await;
    for action in ["ban", "unban"] {
        let (status, body) = mia
            .post(
                "/api/mod/players/Rude",
                &json!({"action": action, "reason": "a mistake", "days": 7}),
            )
            .await;
        assert_eq!(status, 200, "{action}: {body}");
    }
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let (id, mut a, mut r) = seated(&mut alice, &mut rude).await;

    let store = app.lobby.store();
    let log = store.audit(AuditFrom::Latest, 10).await.unwrap();
    let ban = log.iter().find(|e| e.action == "ban").expect("the ban");
    plateau_community::moderation::apply(&app.lobby, ban).await;

    let (_, m) = alice.get(&format!("/api/matches/{id}")).await;
    assert_eq!(m["status"], "live", "{m}");
    r.send(json!({"type": "chat", "text": "still here"})).await;
    let line = a.until(|m| m["type"] == "chat").await;
    assert_eq!(line["text"], "still here", "{line}");
    let (status, body) = rude
        .post("/api/me/delete", &json!({"password": "a long pass phrase"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("player/playing"))
    );
    app.shutdown().await;
}

/// A player renamed by a moderator while it sits at a live table: the table shows the new name
/// at once, without a reload, on its seat (to its opponent and to itself) and in its chat lines,
/// those written before (a page opened again reads them so) and after.
#[tokio::test]
async fn a_rename_reaches_the_live_tables_at_once() {
    let app = spawn_app().await;
    let (alice, _rude, id, mut a, mut r) = table(&app, "Rude").await;
    r.send(json!({"type": "chat", "text": "before"})).await;
    a.until(|m| m["type"] == "chat").await;
    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let (status, renamed) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "rename", "reason": "an insulting name"}),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    let new_name = json!(renamed["detail"].as_str().unwrap());
    for socket in [&mut a, &mut r] {
        let state = socket
            .until(|m| m["type"] == "state" && m["seats"][1]["player"]["name"] == new_name)
            .await;
        assert_eq!(state["seats"][0]["player"]["name"], "Alice");
    }
    r.send(json!({"type": "chat", "text": "after"})).await;
    let line = a.until(|m| m["type"] == "chat").await;
    assert_eq!((&line["name"], &line["text"]), (&new_name, &json!("after")));
    let mut again = alice.connect(&id, None).await;
    let backlog = again.until(|m| m["type"] == "chat_backlog").await;
    let names: Vec<(&Value, &Value)> = backlog["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (&l["name"], &l["text"]))
        .collect();
    assert_eq!(
        names,
        [(&new_name, &json!("before")), (&new_name, &json!("after"))]
    );
    app.shutdown().await;
}

/// An action written to the audit log by another process (`plateau admin`, another node)
/// reaches this server through the log: a ban written straight to the store closes the
/// player's socket here.
#[tokio::test]
async fn a_ban_written_elsewhere_reaches_the_sockets_through_the_log() {
    let app = spawn_app().await;
    let (_alice, _rude, _id, _a, mut r) = table(&app, "Rude").await;
    let store = app.lobby.store();
    let (rude, _) = store.player_by_name("Rude".into()).await.unwrap().unwrap();
    plateau_community::moderation::record(
        store.as_ref(),
        None,
        Some(&rude),
        Action::Ban { until: None },
        "from the shell",
    )
    .await
    .unwrap();
    while r.next().await.is_some() {}
    assert_eq!(r.closed, Some(4003));
    app.shutdown().await;
}

/// A moderator closes a live rated match: it ends, changes no rating, and says why; an open
/// or finished match cannot be closed, nor any by a player that is no moderator.
#[tokio::test]
async fn a_closed_match_ends_without_changing_ratings() {
    let app = spawn_app().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let mut bob = Agent::guest(app.addr, "Bob").await;
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "rated": true,
                    "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    bob.post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut a = alice.connect(&id, None).await;
    let mut b = bob.connect(&id, None).await;
    a.live().await;
    b.live().await;
    let mut both = [a, b];
    play_each(&mut both, 2).await;
    let [mut me, _b] = both;

    let close = json!({"reason": "a bug froze the board"});
    let (status, refused) = alice
        .post(&format!("/api/mod/matches/{id}/close"), &close)
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("auth/moderator"))
    );
    assert_eq!(app.summary(&id).await["status"], "live");

    let mut mia = Agent::account(app.addr, "Mia").await;
    grant(&app, "Mia").await;
    let (status, closed) = mia
        .post(&format!("/api/mod/matches/{id}/close"), &close)
        .await;
    assert_eq!(status, 200, "{closed}");
    assert_eq!(
        (&closed["action"], &closed["match_id"]),
        (&json!("close"), &json!(id))
    );
    me.until(|m| m["type"] == "state" && m["status"] == "finished")
        .await;
    let summary = app.summary(&id).await;
    assert_eq!(summary["unrated"], "closed", "{summary}");
    let (_, profile) = alice.get("/api/players/Alice").await;
    assert_eq!(profile["ratings"], json!({}), "no rating moved: {profile}");

    let (status, again) = mia
        .post(&format!("/api/mod/matches/{id}/close"), &close)
        .await;
    assert_eq!((status, again["code"].as_str()), (409, Some("match/over")));
    let (_, open) = alice
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let open = open["id"].as_str().unwrap();
    let (status, refused) = mia
        .post(&format!("/api/mod/matches/{open}/close"), &close)
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (409, Some("match/not_started"))
    );
    assert_eq!(
        audit(&mut mia).await.len(),
        2,
        "the grant and one close: refusals log nothing"
    );
    app.shutdown().await;
}

/// A chosen name that passes for a bot level's or the server's staff's, or holds a word of the
/// operator's deny list, in any case or look-alike letters, is refused in words, and no player
/// is made; nor renamed so.
#[tokio::test]
async fn names_that_pass_for_a_level_the_staff_or_hold_a_denied_word_are_refused() {
    let options = plateau_server::Options {
        name_deny_list: vec!["badword".into()],
        ..crate::common::test_options()
    };
    let app = crate::common::spawn_app_with(crate::common::temp_db(), options).await;
    for (name, why) in [
        ("Expert", "looks like the name of a bot level"),
        ("CIub", "looks like the name of a bot level"),
        (
            "xBADW0RDx",
            "holds a word this server does not allow in names",
        ),
        ("player-0a1b2c", "looks like a name the moderators give"),
        ("ADMIN", "is kept for the server and its staff"),
        ("M0derator", "is kept for the server and its staff"),
    ] {
        let mut visitor = Agent::new(app.addr);
        let (status, refused) = visitor.post("/api/guest", &json!({"name": name})).await;
        assert_eq!(
            (status, refused["code"].as_str()),
            (400, Some("name/invalid")),
            "{name}"
        );
        assert!(
            refused["message"].as_str().unwrap().ends_with(why),
            "{name}: {refused}"
        );
        let (status, _) = visitor.get(&format!("/api/players/{name}")).await;
        assert_eq!(status, 404, "{name} was not made");
    }
    // Kept at a rename and at an account's naming too.
    let mut ok = Agent::guest(app.addr, "Expertise").await;
    let (status, refused) = ok.post("/api/guest", &json!({"name": "System"})).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("name/invalid"))
    );
    let (status, refused) = ok
        .post(
            "/api/account",
            &json!({"password": "a long pass phrase", "name": "sys-tem"}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("name/invalid"))
    );
    let (_, me) = ok.get("/api/me").await;
    assert_eq!(me["player"]["name"], "Expertise");
    app.shutdown().await;
}

/// Two nodes on one PostgreSQL: a moderator's ban made through node `a` closes the banned
/// player's lobby socket on node `b` and refuses its requests there, through the audit log.
#[tokio::test]
async fn a_ban_through_one_node_reaches_the_sockets_on_another() {
    if crate::common::Db::postgres().is_none() {
        eprintln!(
            "skipped: two nodes need PostgreSQL (PLATEAU_TEST_POSTGRES; scripts/test sets it)"
        );
        return;
    }
    let db = crate::common::temp_db();
    let limits = crate::common::test_options().limits;
    let a = crate::common::spawn_node(db.clone(), "a", limits.clone()).await;
    let b = crate::common::spawn_node(db, "b", limits).await;
    let mut rude = Agent::guest(b.addr, "Rude").await;
    let mut lobby = rude.ws("/api/lobby/ws").await;
    lobby.until(|m| m["type"] == "lobby").await;
    let mut mia = Agent::account(a.addr, "Mia").await;
    grant(&a, "Mia").await;
    let (status, banned) = mia
        .post(
            "/api/mod/players/Rude",
            &json!({"action": "ban", "reason": "spam"}),
        )
        .await;
    assert_eq!(status, 200, "{banned}");
    while lobby.next().await.is_some() {}
    assert_eq!(lobby.closed, Some(4003));
    let (status, refused) = rude
        .post(
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("player/banned"))
    );
    a.shutdown().await;
    b.shutdown().await;
}
