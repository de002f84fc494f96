//! The operator's figures (`GET /metrics` on a listen address of its own, docs/deploy.md
//! "Metrics"): scraped before and after a few decisions, an error and a limit's refusal, they
//! moved by as much. The recorder is the process's: the other tests running meanwhile add to
//! its counters, so the counters are checked for growing by at least what this test did; the
//! figures read from this test's own service at the scrape are checked exactly.

use std::collections::HashMap;
use std::net::SocketAddr;

use plateau_lobby::limits::Limits;
use serde_json::json;

use crate::common::{Agent, app_with, humans, play_each, seats_taken, test_options};

/// The figures of a scrape, by name and labels as written (`name{label="value"}`).
async fn scrape(addr: SocketAddr) -> HashMap<String, f64> {
    let (status, headers, text) =
        crate::common::http_with(addr, "GET", "/metrics", &[], None).await;
    assert_eq!(status, 200, "{text}");
    assert!(
        headers
            .iter()
            .any(|(n, v)| n == "content-type" && v.starts_with("text/plain; version=0.0.4")),
        "{headers:?}"
    );
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').expect("a name and a value");
            (name.to_owned(), value.parse().expect("a number"))
        })
        .collect()
}

#[tokio::test]
async fn the_figures_move_with_decisions_errors_and_refusals() {
    // Before the service starts: its matches take their handles at its start.
    let handle = plateau_server::metrics::install().unwrap();
    let app = app_with(Limits {
        // The match's two seats make a guest each from 127.0.0.1; the third guest of another
        // address is refused.
        guests_per_minute: 2,
        ..test_options().limits
    })
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics = listener.local_addr().unwrap();
    tokio::spawn(plateau_server::metrics::serve(
        listener,
        handle,
        app.lobby.clone(),
    ));
    let before = scrape(metrics).await;
    let grew = |after: &HashMap<String, f64>, name: &str| {
        after.get(name).copied().unwrap_or(0.0) - before.get(name).copied().unwrap_or(0.0)
    };

    let (id, tokens) = seats_taken(&app, humans("mad")).await;
    let mut clients = Vec::new();
    for t in &tokens {
        clients.push(app.connect(&id, Some(t)).await);
    }
    for c in &mut clients {
        c.live().await;
    }
    play_each(&mut clients, 3).await;
    // Each client's acts were acknowledged (and timed) before its pong.
    for c in &mut clients {
        c.sync().await;
    }
    let (status, _) = app.get("/api/matches/no-such-match").await;
    assert_eq!(status, 404);
    for (name, expected) in [("Una", 200), ("Uli", 200), ("Ugo", 429)] {
        let (status, body) = Agent::from(app.addr, "127.0.12.1")
            .post("/api/guest", &json!({"name": name}))
            .await;
        assert_eq!(status, expected, "{body}");
    }

    let after = scrape(metrics).await;
    assert!(grew(&after, "plateau_decisions_committed_total") >= 6.0);
    assert!(grew(&after, "plateau_ack_seconds_count") >= 6.0);
    assert!(grew(&after, "plateau_ack_seconds_sum") > 0.0);
    assert!(grew(&after, "plateau_commit_seconds_count") >= 6.0);
    assert!(grew(&after, "plateau_errors_total{code=\"match/not_found\"}") >= 1.0);
    assert!(grew(&after, "plateau_errors_total{code=\"limit/players\"}") >= 1.0);
    assert!(grew(&after, "plateau_limit_refusals_total{limit=\"players\"}") >= 1.0);
    assert!(after["plateau_sockets_open{kind=\"match\"}"] >= 2.0);
    // This service's own state: its one match, live, in memory; no bot waiting.
    assert_eq!(after["plateau_matches_live"], 1.0);
    assert_eq!(after["plateau_matches_in_memory"], 1.0);
    assert_eq!(after["plateau_bot_queue{table=\"people\"}"], 0.0);
    // The figures are not on the public address.
    let (status, _) = crate::common::http(app.addr, "GET", "/metrics", None).await;
    assert_eq!(status, 404);
    drop(clients);
    app.shutdown().await;
}
