//! A crowd of strangers, each within its limits (docs/reliability.md, "A crowd of strangers"):
//! every attack there is reproduced here from many loopback addresses, and each must meet its
//! bound: password checks in a short line, frames and headers held small, sockets that only ping
//! closed, the connections shared fairly, an owner not locked out, histories kept and one at a
//! time per address, rematches and joins counted as creations, rating farms that move nothing,
//! no-shows called off.

use std::time::Duration;

use plateau_lobby::limits::Limits;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{
    Agent, Client, TestApp, app_with, http_from, play_each, spawn_app_with, tcp_from, temp_db,
    test_options,
};
use crate::ratings::guest_from;

fn ip(s: &str) -> Option<std::net::IpAddr> {
    Some(s.parse().unwrap())
}

/// Sign-ins from 60 addresses, ten each (each within its limit), all at once: one hash thread
/// and a line of four take what they can, the rest are refused `limit/busy` at once, and
/// `/health` answers meanwhile. Memory is `password_hashes` buffers, whatever the crowd
/// (docs/reliability.md gives the resident sizes measured).
#[tokio::test]
async fn sign_ins_wait_in_a_short_line_and_past_it_are_refused_busy() {
    let app = app_with(Limits {
        password_hashes: 1,
        hashes_waiting: 4,
        ..test_options().limits
    })
    .await;
    let mut owner = Agent::guest(app.addr, "Owner").await;
    let (status, _) = owner
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    assert_eq!(status, 200);
    let mut asked = Vec::new();
    for a in 0..60 {
        for _ in 0..10 {
            let addr = app.addr;
            asked.push(tokio::spawn(async move {
                let body = json!({"name": "Owner", "password": "not the one"}).to_string();
                let from = ip(&format!("127.0.1.{}", 10 + a));
                let (status, _, text) =
                    http_from(from, addr, "POST", "/api/login", &[], Some(&body)).await;
                (status, text)
            }));
        }
    }
    // `/health` answers meanwhile, never held up by the line of hashes: `ok`, or `degraded`
    // when its database ping waited past its 2 s behind the crowd's reads of the owner's row
    // (on PostgreSQL, on a loaded machine); once the crowd is gone, `ok`.
    let (status, health) = app.get("/health").await;
    assert!(
        matches!(
            (status, health["status"].as_str()),
            (200, Some("ok")) | (503, Some("degraded"))
        ),
        "{status} {health}"
    );
    let mut counts = std::collections::BTreeMap::new();
    for a in asked {
        let (status, text) = a.await.unwrap();
        let code = serde_json::from_str::<Value>(&text).unwrap()["code"].clone();
        *counts.entry((status, code.to_string())).or_insert(0) += 1;
    }
    let count = |status: u16, code: &str| {
        counts
            .get(&(status, format!("\"{code}\"")))
            .copied()
            .unwrap_or(0)
    };
    let failed = count(401, "auth/failed");
    let busy = count(503, "limit/busy");
    let slowed = count(429, "auth/rate_limited");
    assert_eq!(failed + busy + slowed, 600, "{counts:?}");
    assert!(busy > 0 && failed >= 5, "{counts:?}");
    let (status, health) = app.get("/health").await;
    assert_eq!((status, &health["status"]), (200, &json!("ok")));
    // The crowd gone, the owner signs in.
    let (status, body) = Agent::from(app.addr, "127.0.0.3")
        .post(
            "/api/login",
            &json!({"name": "Owner", "password": "a long pass phrase"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.shutdown().await;
}

/// The owner signs in from its own address while ten strangers guess its password: failures
/// count per name and address and in all, never per name alone.
#[tokio::test]
async fn the_owner_signs_in_while_strangers_guess() {
    let app = app_with(test_options().limits).await;
    let mut owner = guest_from(app.addr, "127.0.0.2", "Alice").await;
    owner
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    let guess = json!({"name": "Alice", "password": "guess guess"});
    let mut answers = std::collections::BTreeMap::new();
    for s in 0..10 {
        let mut stranger = Agent::from(app.addr, &format!("127.0.2.{}", s + 1));
        for _ in 0..11 {
            let (status, _) = stranger.post("/api/login", &guess).await;
            *answers.entry(status).or_insert(0) += 1;
        }
    }
    // Each stranger's eleventh try at least is refused; the crowd's failures (over 60 a minute)
    // keep each stranger that failed out.
    assert!(answers.get(&429).copied().unwrap_or(0) >= 10, "{answers:?}");
    let mut device = Agent::from(app.addr, "127.0.0.2");
    let (status, body) = device
        .post(
            "/api/login",
            &json!({"name": "alice", "password": "a long pass phrase"}),
        )
        .await;
    assert_eq!((status, &body["player"]["name"]), (200, &json!("Alice")));
    app.shutdown().await;
}

/// A frame announced larger than 16 KiB is not read at all (the socket closes with 1009 at once,
/// before its payload); request headers past 16 KiB are refused with `431`; neither is held.
#[tokio::test]
async fn unfinished_frames_and_headers_are_not_held() {
    let app = app_with(test_options().limits).await;
    let created = app.create(crate::common::humans("mad")).await;
    let id = created["id"].as_str().unwrap();
    // A WebSocket handshake by hand, then the header of a 1 MiB masked text frame alone.
    let mut raw = tcp_from(None, app.addr).await;
    let handshake = format!(
        "GET /api/matches/{id}/ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n",
        app.addr
    );
    raw.write_all(handshake.as_bytes()).await.unwrap();
    let mut head = [0u8; 4096];
    let n = raw.read(&mut head).await.unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 101"));
    let mut frame = vec![0x81, 0xFF];
    frame.extend_from_slice(&(1u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    raw.write_all(&frame).await.unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), raw.read_to_end(&mut rest))
        .await
        .expect("the server closes the socket at once")
        .unwrap();
    // The close frame carries 1009 (0x03F1) after the state the server sent first.
    assert!(
        rest.windows(4).any(|w| w == [0x88, w[1], 0x03, 0xF1]),
        "no 1009 close in {} bytes",
        rest.len()
    );
    // 20 KiB of one header line, never finished.
    let mut slow = tcp_from(None, app.addr).await;
    let mut request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: ".to_vec();
    request.extend(std::iter::repeat_n(b'a', 20 * 1024));
    let _ = slow.write_all(&request).await;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut answer))
        .await
        .expect("the server answers before the header timeout")
        .unwrap();
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 431"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    app.shutdown().await;
}

/// A socket that only sends WebSocket pings is closed after the idle time like a silent one;
/// binary messages count against the message limit.
#[tokio::test]
async fn pings_keep_no_socket_open_and_binary_messages_count() {
    let app = app_with(Limits {
        socket_idle: Duration::from_secs(1),
        messages_per_second: 2.0,
        message_burst: 3.0,
        ..test_options().limits
    })
    .await;
    let created = app.create(crate::common::humans("mad")).await;
    let id = created["id"].as_str().unwrap();
    let mut pinger = app.connect(id, None).await;
    pinger.state().await;
    let started = std::time::Instant::now();
    let closed = loop {
        pinger.send_ping().await;
        match tokio::time::timeout(Duration::from_millis(200), pinger.next()).await {
            Ok(None) => break pinger.closed,
            // Closed after the idle time (1 s, and up to a quarter more): a minute is only a
            // loaded machine's bound.
            _ => assert!(started.elapsed() < Duration::from_secs(60), "still open"),
        }
    };
    assert_eq!(closed, Some(4001));
    let mut binary = app.connect(id, None).await;
    binary.state().await;
    for _ in 0..20 {
        binary.send_binary(vec![1, 2, 3]).await;
    }
    let mut codes = Vec::new();
    for _ in 0..20 {
        codes.push(binary.error().await["code"].clone());
    }
    let limited = codes.iter().filter(|c| *c == "limit/messages").count();
    assert!((10..20).contains(&limited), "{codes:?}");
    app.shutdown().await;
}

/// A crowd of 100 addresses holds every lobby socket it may (4 each, 200 in all); an honest
/// client with none still gets in 20 times of 20, the crowd's longest idle sockets closing
/// with 4002 to make room.
#[tokio::test]
async fn an_honest_client_gets_in_while_a_crowd_holds_every_socket_it_may() {
    let app = app_with(Limits {
        connections: 200,
        connections_per_address: 4,
        ..test_options().limits
    })
    .await;
    let mut crowd: Vec<Client> = Vec::new();
    let mut refused = 0;
    for a in 0..100 {
        let agent = Agent::from(app.addr, &format!("127.0.3.{}", a + 1));
        for _ in 0..5 {
            match agent.try_ws("/api/lobby/ws").await {
                Some(ws) => crowd.push(ws),
                None => {
                    refused += 1;
                    break;
                }
            }
        }
    }
    assert!(refused >= 100, "every address met a cap ({refused})");
    let mut honest = 0;
    for _ in 0..20 {
        let (status, _, _) =
            http_from(ip("127.0.0.2"), app.addr, "GET", "/health", &[], None).await;
        honest += usize::from(status == 200);
    }
    assert_eq!(honest, 20);
    // Some of the crowd's sockets were closed to make room: each with 4002.
    let mut evicted = 0;
    for ws in &mut crowd {
        if let Ok(None) = tokio::time::timeout(Duration::from_millis(5), async {
            loop {
                match ws.next().await {
                    None => return None::<()>,
                    Some(_) => continue,
                }
            }
        })
        .await
        {
            assert_eq!(ws.closed, Some(4002));
            evicted += 1;
        }
    }
    assert!(evicted >= 1, "no crowd socket was evicted");
    app.shutdown().await;
}

/// A finished MAD match of a few moves from two guests, for its history.
async fn short_game(app: &TestApp) -> String {
    let (id, tokens) = crate::common::seats_taken(app, crate::common::humans("mad")).await;
    let mut clients = Vec::new();
    for t in &tokens {
        clients.push(app.connect(&id, Some(t)).await);
    }
    for c in &mut clients {
        c.live().await;
    }
    play_each(&mut clients, 3).await;
    id
}

/// A stranger asking for twenty histories at once gets each answered or refused
/// `limit/replays` (one of its own at a time), and an honest client is served meanwhile
/// (`Histories` has the unit tests of the rule; docs/reliability.md the figures with long games).
#[tokio::test]
async fn history_is_served_to_an_honest_client_while_a_stranger_floods_it() {
    let app = app_with(test_options().limits).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(short_game(&app).await);
    }
    let mut flood = Vec::new();
    for round in 0..4 {
        for id in &ids[1..] {
            let (addr, path) = (app.addr, format!("/api/matches/{id}/history"));
            let _ = round;
            flood.push(tokio::spawn(async move {
                http_from(ip("127.0.4.1"), addr, "GET", &path, &[], None)
                    .await
                    .0
            }));
        }
    }
    let mut honest = 0;
    for _ in 0..10 {
        let path = format!("/api/matches/{}/history", ids[0]);
        let (status, _, _) = http_from(ip("127.0.0.2"), app.addr, "GET", &path, &[], None).await;
        honest += usize::from(status == 200);
    }
    assert_eq!(honest, 10);
    let mut statuses = Vec::new();
    for f in flood {
        statuses.push(f.await.unwrap());
    }
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    app.shutdown().await;
}

/// A person at a table with a bot resigns and asks a rematch again and again: rematches count
/// as creations from that address and are refused past the limit per minute; and tables with
/// bots left unfinished are capped per address.
#[tokio::test]
async fn rematches_are_held_to_the_limits_on_creating() {
    let app = app_with(Limits {
        matches_per_minute: 5,
        bot_tables: 2,
        ..test_options().limits
    })
    .await;
    let mut me = Agent::from(app.addr, "127.0.5.1");
    let request =
        json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    let (status, created) = me.post("/api/matches", &request).await;
    assert_eq!(status, 201, "{created}");
    let mut id = created["id"].as_str().unwrap().to_owned();
    let mut token = created["token"].as_str().unwrap().to_owned();
    let mut made = 1;
    let refusal = loop {
        let mut seat = me.connect(&id, Some(&token)).await;
        seat.live().await;
        seat.send(json!({"type": "resign"})).await;
        seat.until(|m| m["type"] == "state" && m["status"] == "finished")
            .await;
        seat.send(json!({"type": "rematch"})).await;
        let answer = seat
            .until(|m| m["type"] == "rematch" || m["type"] == "error")
            .await;
        if answer["type"] == "error" {
            break answer;
        }
        made += 1;
        id = answer["id"].as_str().unwrap().to_owned();
        token = answer["token"].as_str().unwrap().to_owned();
        assert!(made <= 5, "a rematch past the limit was made");
    };
    assert_eq!(made, 5);
    assert_eq!(refusal["code"], "limit/matches");
    // Another address is not held up; two unfinished tables with bots are its limit.
    let mut other = Agent::from(app.addr, "127.0.5.2");
    for _ in 0..2 {
        assert_eq!(other.post("/api/matches", &request).await.0, 201);
    }
    let (status, body) = other.post("/api/matches", &request).await;
    assert_eq!((status, &body["code"]), (429, &json!("limit/matches")));
    app.shutdown().await;
}

/// Joins count as creations, and a join bound to fail makes no guest.
#[tokio::test]
async fn joins_count_and_a_refused_join_makes_no_guest() {
    let app = app_with(Limits {
        matches_per_minute: 3,
        ..test_options().limits
    })
    .await;
    let mut host = Agent::from(app.addr, "127.0.6.1");
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, created) = host
            .post("/api/matches", &crate::common::humans("mad"))
            .await;
        assert_eq!(status, 201);
        ids.push(created["id"].as_str().unwrap().to_owned());
    }
    let mut joiner = Agent::from(app.addr, "127.0.6.2");
    let (status, body) = joiner
        .post("/api/matches/0123456789abcdef/join", &json!({}))
        .await;
    assert_eq!((status, &body["code"]), (404, &json!("match/not_found")));
    assert_eq!(joiner.session, None, "no guest for a refused join");
    for id in &ids {
        let path = format!("/api/matches/{id}/join");
        assert_eq!(joiner.post(&path, &json!({})).await.0, 200);
    }
    let (status, created) = joiner
        .post("/api/matches", &crate::common::humans("mad"))
        .await;
    assert_eq!((status, &created["code"]), (429, &json!("limit/matches")));
    app.shutdown().await;
}

/// Alice and Bob play a rated MAD match that Bob resigns once each seat made `moves` actions;
/// returns its summary.
async fn farm_once(app: &TestApp, alice: &mut Agent, bob: &mut Agent, moves: usize) -> Value {
    let request = json!({"game": "mad", "rated": true,
                         "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (_, created) = alice.post("/api/matches", &request).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let (status, _) = bob
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 200);
    let mut both = [
        alice.connect(&id, created["token"].as_str()).await,
        bob.connect(&id, None).await,
    ];
    for c in &mut both {
        c.live().await;
    }
    play_each(&mut both, moves).await;
    both[1].send(json!({"type": "resign"})).await;
    both[0]
        .until(|m| m["type"] == "state" && m["status"] == "finished")
        .await;
    app.summary(&id).await
}

async fn rating(agent: &mut Agent, name: &str) -> Value {
    agent.get(&format!("/api/players/{name}")).await.1["ratings"]["mad"]["rating"].clone()
}

/// Two guests of one address, the puppet resigning at once, twenty times: no rating moves. Each
/// rule alone: an early resignation is an abort; players of one address are not rated; the
/// sixth counted game of the same two players in a day is not rated.
#[tokio::test]
async fn the_two_guest_rating_farm_moves_no_rating() {
    let app = app_with(test_options().limits).await;
    let mut farmer = guest_from(app.addr, "127.0.7.1", "Farmer").await;
    let mut puppet = guest_from(app.addr, "127.0.7.1", "Puppet").await;
    for _ in 0..20 {
        let m = farm_once(&app, &mut farmer, &mut puppet, 0).await;
        assert_eq!(
            (&m["rated"], &m["unrated"]),
            (&json!(true), &json!("abort"))
        );
    }
    assert_eq!(rating(&mut farmer, "Farmer").await, Value::Null);
    // Played through, still of one address.
    let m = farm_once(&app, &mut farmer, &mut puppet, 2).await;
    assert_eq!(m["unrated"], "same_address");
    assert_eq!(rating(&mut farmer, "Farmer").await, Value::Null);
    // Two addresses, resigning at once: an abort.
    let mut ann = guest_from(app.addr, "127.0.7.2", "Ann").await;
    let mut bea = guest_from(app.addr, "127.0.7.3", "Bea").await;
    assert_eq!(
        farm_once(&app, &mut ann, &mut bea, 1).await["unrated"],
        "abort"
    );
    // Played through: five count, the sixth that day does not.
    for _ in 0..5 {
        assert_eq!(
            farm_once(&app, &mut ann, &mut bea, 2).await["unrated"],
            Value::Null
        );
    }
    let before = rating(&mut ann, "Ann").await;
    assert_eq!(
        farm_once(&app, &mut ann, &mut bea, 2).await["unrated"],
        "daily_cap"
    );
    assert_eq!(rating(&mut ann, "Ann").await, before);
    let (_, board) = ann.get("/api/leaderboard/mad").await;
    assert_eq!(
        board["players"],
        json!([]),
        "provisional players are not shown"
    );
    app.shutdown().await;
}

/// Behind a trusted proxy (a load balancer, `--trusted-proxy`), each client is the address the
/// proxy names in `X-Forwarded-For`: the limits per address and the rule on players of one
/// address apply to it. Anyone else's `X-Forwarded-For` is the client's own word, and ignored.
/// (tests/api/proxy.rs does the same through a real nginx.)
#[tokio::test]
async fn a_trusted_proxy_names_its_clients() {
    let app = app_with(Limits {
        guests_per_minute: 2,
        proxies: plateau_lobby::proxy::TrustedProxies {
            networks: vec![
                "127.0.9.1/32".parse().unwrap(),
                "127.0.9.3/32".parse().unwrap(),
            ],
            ..Default::default()
        },
        ..test_options().limits
    })
    .await;
    let via_proxy = |client: &str| Agent {
        forwarded_for: Some(format!("198.51.100.9, {client}")),
        ..Agent::from(app.addr, "127.0.9.1")
    };
    // Two guests from one client address behind the proxy, then that address is at its limit;
    // another client behind the same proxy is not.
    let mut ann = via_proxy("203.0.113.1");
    let mut bea = via_proxy("203.0.113.1");
    let mut third = via_proxy("203.0.113.1");
    for (agent, name) in [(&mut ann, "Ann"), (&mut bea, "Bea")] {
        let (status, body) = agent.post("/api/guest", &json!({"name": name})).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = third.post("/api/guest", &json!({"name": "Cid"})).await;
    assert_eq!((status, &body["code"]), (429, &json!("limit/players")));
    let mut dan = via_proxy("203.0.113.2");
    let (status, _) = dan.post("/api/guest", &json!({"name": "Dan"})).await;
    assert_eq!(status, 200);
    // Through a second trusted proxy (127.0.9.3) in front of the first, the client is still
    // the right-most address that is no proxy.
    let mut chained = Agent {
        forwarded_for: Some("203.0.113.1, 127.0.9.1".to_owned()),
        ..Agent::from(app.addr, "127.0.9.3")
    };
    let (status, body) = chained.post("/api/guest", &json!({"name": "Cal"})).await;
    assert_eq!((status, &body["code"]), (429, &json!("limit/players")));
    // The proxy's own requests (no header) count against the proxy, as any client's.
    for (i, name) in ["Pia", "Pol", "Pam"].into_iter().enumerate() {
        let (status, _) = Agent::from(app.addr, "127.0.9.1")
            .post("/api/guest", &json!({"name": name}))
            .await;
        assert_eq!(status, if i < 2 { 200 } else { 429 }, "{name}");
    }
    // Ann and Bea came from one address: their game is not rated; Ann and Dan's is.
    assert_eq!(
        farm_once(&app, &mut ann, &mut bea, 2).await["unrated"],
        "same_address"
    );
    assert_eq!(
        farm_once(&app, &mut ann, &mut dan, 2).await["unrated"],
        Value::Null
    );
    // A client that is no proxy names whatever it likes: it is counted as itself.
    for (i, name) in ["Eve", "Fay", "Gus"].into_iter().enumerate() {
        let mut liar = Agent {
            forwarded_for: Some(format!("203.0.113.{}", 10 + i)),
            ..Agent::from(app.addr, "127.0.9.2")
        };
        let (status, _) = liar.post("/api/guest", &json!({"name": name})).await;
        assert_eq!(status, if i < 2 { 200 } else { 429 }, "{name}");
    }
    app.shutdown().await;
}

/// A quick-pairing match one player never opens is called off after the no-show wait; that
/// player must wait before seeking again, the other may seek at once.
#[tokio::test]
async fn a_no_show_calls_the_paired_match_off() {
    // Alice must open the match before it is called off, or she finds it gone: 3 s leave a
    // loaded machine time for her `paired` and her connection.
    let app = app_with(Limits {
        no_show: Duration::from_secs(3),
        ..test_options().limits
    })
    .await;
    let alice = guest_from(app.addr, "127.0.8.1", "Alice").await;
    let bob = guest_from(app.addr, "127.0.8.2", "Bob").await;
    let seek = json!({"type": "seek", "game": "mad", "seats": 2,
                      "time_control": {"kind": "none"}, "rated": true});
    let mut a = alice.ws("/api/lobby/ws").await;
    let mut b = bob.ws("/api/lobby/ws").await;
    a.send(seek.clone()).await;
    a.until(|m| m["type"] == "seeking").await;
    b.send(seek.clone()).await;
    let pa = a.until(|m| m["type"] == "paired").await;
    b.until(|m| m["type"] == "paired").await;
    let id = pa["id"].as_str().unwrap();
    let mut came = alice.connect(id, pa["token"].as_str()).await;
    came.removed().await;
    let (status, _) = app.get(&format!("/api/matches/{id}")).await;
    assert_eq!(status, 404, "called off: removed, counted for nothing");
    b.send(seek.clone()).await;
    assert_eq!(b.error().await["code"], "seek/no_show");
    a.send(seek).await;
    a.until(|m| m["type"] == "seeking").await;
    app.shutdown().await;
}

/// Two upgrades of one guest at once: one account, one `player/account`, and the password that
/// won works. Over TLS (`--secure-cookies`) cookies are `Secure` and answers carry HSTS.
#[tokio::test]
async fn account_upgrades_are_serialised_and_cookies_are_secure_over_tls() {
    let app = app_with(test_options().limits).await;
    let guest = Agent::guest(app.addr, "Alice").await;
    let mut tries = Vec::new();
    for password in ["first pass phrase", "second pass phrase"] {
        let mut same = Agent::new(app.addr);
        same.session.clone_from(&guest.session);
        tries.push(tokio::spawn(async move {
            let answer = same
                .post("/api/account", &json!({"password": password}))
                .await;
            (password, answer)
        }));
    }
    let mut won = Vec::new();
    let mut lost = 0;
    for t in tries {
        let (password, (status, body)) = t.await.unwrap();
        match status {
            200 => won.push(password),
            409 => {
                assert_eq!(body["code"], "player/account");
                lost += 1;
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!((won.len(), lost), (1, 1));
    let (status, _) = Agent::new(app.addr)
        .post("/api/login", &json!({"name": "Alice", "password": won[0]}))
        .await;
    assert_eq!(status, 200);
    app.shutdown().await;

    let tls = spawn_app_with(
        temp_db(),
        plateau_server::Options {
            secure_cookies: true,
            ..test_options()
        },
    )
    .await;
    let body = json!({"name": "Bob"}).to_string();
    let (_, headers, _) =
        crate::common::http_with(tls.addr, "POST", "/api/guest", &[], Some(&body)).await;
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert!(header("set-cookie").contains("; Secure"), "{headers:?}");
    assert!(
        header("set-cookie").contains("Max-Age=31536000"),
        "{headers:?}"
    );
    assert_eq!(header("strict-transport-security"), "max-age=31536000");
    tls.shutdown().await;
}

/// A guest renames itself five times an hour at most.
#[tokio::test]
async fn renames_are_limited() {
    let app = app_with(test_options().limits).await;
    let mut guest = Agent::guest(app.addr, "Name0").await;
    for i in 1..=5 {
        let (status, _) = guest
            .post("/api/guest", &json!({"name": format!("Name{i}")}))
            .await;
        assert_eq!(status, 200);
    }
    let (status, body) = guest.post("/api/guest", &json!({"name": "Name6"})).await;
    assert_eq!((status, &body["code"]), (429, &json!("limit/renames")));
    for (name, code) in [
        ("club_bot", "name/invalid"),
        ("guest-abcdef", "name/invalid"),
    ] {
        let (_, body) = Agent::new(app.addr)
            .post("/api/guest", &json!({"name": name}))
            .await;
        assert_eq!(body["code"], code, "{name}");
    }
    app.shutdown().await;
}
