//! The operator's figures (docs/deploy.md "Metrics"): Prometheus's text format at `GET /metrics`
//! on a listen address of its own (`plateau serve --metrics-listen`), never on the public one.
//! The `metrics` crate's facade records them, its Prometheus exporter keeps and renders them.
//!
//! What is recorded as it happens: the decisions committed, commit and acknowledgement times,
//! errors by code and limit refusals by kind, the matches created (`plateau_match::metrics`),
//! and the sockets open (`plateau_lobby::metrics`). What is a state is read when scraped: the
//! matches in memory and live, and the bots' queues.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use plateau_lobby::Lobby;
use plateau_lobby::metrics::SOCKETS;

/// Matches this node holds in memory.
pub const MATCHES_IN_MEMORY: &str = "plateau_matches_in_memory";
/// Matches in memory that are live (started, not finished).
pub const MATCHES_LIVE: &str = "plateau_matches_live";
/// Bot moves waiting for a bot thread, by `table`: `people` (matches with a person) or `bots`.
pub const BOT_QUEUE: &str = "plateau_bot_queue";

/// The histograms' buckets, in seconds: from a fraction of a millisecond (a commit to SQLite on
/// a quiet machine) to a few seconds (a database away).
const BUCKETS: [f64; 14] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// How often the histograms' samples are folded into their buckets between scrapes, so that
/// they hold little memory however long nobody scrapes.
const UPKEEP: Duration = Duration::from_secs(5);

/// The recorder, installed once for the process (the `metrics` facade has one); the first call
/// installs it and starts its upkeep thread. Its figures count from then on, including those of
/// the matches started before (`plateau_match::metrics::Metrics::registered` takes handles at
/// the lobby's start: start the lobby after this).
///
/// # Errors
/// Another recorder was installed in this process by other means.
pub fn install() -> Result<PrometheusHandle, String> {
    static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .and_then(PrometheusBuilder::install_recorder)
                .map_err(|e| format!("the metrics recorder: {e}"))?;
            describe();
            let upkeep = handle.clone();
            std::thread::Builder::new()
                .name("metrics-upkeep".into())
                .spawn(move || {
                    loop {
                        std::thread::sleep(UPKEEP);
                        upkeep.run_upkeep();
                    }
                })
                .map_err(|e| format!("the metrics upkeep thread: {e}"))?;
            Ok(handle)
        })
        .clone()
}

/// The help line of each figure.
fn describe() {
    use metrics::Unit;
    use plateau_match::metrics as m;
    metrics::describe_counter!(
        m::DECISIONS,
        "Commits of a seat's actions: a person's turn, a bot's move, a resignation"
    );
    metrics::describe_histogram!(
        m::COMMIT_SECONDS,
        Unit::Seconds,
        "Time of each commit to the store"
    );
    metrics::describe_histogram!(
        m::ACK_SECONDS,
        Unit::Seconds,
        "Time from a person's action reaching its match to its acknowledgement"
    );
    metrics::describe_counter!(m::ERRORS, "Coded errors answered, by code");
    metrics::describe_counter!(
        m::LIMIT_REFUSALS,
        "Requests, sockets and connections refused by a limit, by limit"
    );
    metrics::describe_counter!(
        m::MATCHES_CREATED,
        "Matches created: asked for, paired, challenges, rematches, tournament pairings"
    );
    metrics::describe_gauge!(SOCKETS, "WebSockets open, by kind (match, lobby)");
    metrics::describe_gauge!(MATCHES_IN_MEMORY, "Matches this node holds in memory");
    metrics::describe_gauge!(
        MATCHES_LIVE,
        "Matches in memory that are live (started, not finished)"
    );
    metrics::describe_gauge!(
        BOT_QUEUE,
        "Bot moves waiting for a bot thread, by table (people, bots)"
    );
}

/// `GET /metrics` and nothing else: the figures of `lobby` in Prometheus's text format.
pub fn router(handle: PrometheusHandle, lobby: Arc<Lobby>) -> Router {
    Router::new()
        .route("/metrics", get(scrape))
        .with_state((handle, lobby))
}

/// Serves `router` on `listener` until the lobby stops. Plain axum: the endpoint is for the
/// operator's network, not for strangers, so the front door's limits are not needed.
///
/// # Errors
/// I/O errors of the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    handle: PrometheusHandle,
    lobby: Arc<Lobby>,
) -> std::io::Result<()> {
    let mut stopped = lobby.shutdown_signal();
    axum::serve(listener, router(handle, lobby))
        .with_graceful_shutdown(async move {
            let _ = stopped.wait_for(|s| *s).await;
        })
        .await
}

async fn scrape(
    State((handle, lobby)): State<(PrometheusHandle, Arc<Lobby>)>,
) -> impl IntoResponse {
    metrics::gauge!(MATCHES_IN_MEMORY).set(lobby.in_memory() as f64);
    metrics::gauge!(MATCHES_LIVE).set(lobby.presence().live_matches() as f64);
    let (people, bots) = lobby.bot_queue();
    metrics::gauge!(BOT_QUEUE, "table" => "people").set(people as f64);
    metrics::gauge!(BOT_QUEUE, "table" => "bots").set(bots as f64);
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        handle.render(),
    )
}

#[cfg(test)]
mod tests {
    /// Every figure the Grafana dashboard (docs/grafana/plateau.json) plots is one the service
    /// records.
    #[test]
    fn the_dashboard_plots_only_recorded_figures() {
        use plateau_match::metrics as m;
        let known = [
            m::DECISIONS,
            m::COMMIT_SECONDS,
            m::ACK_SECONDS,
            m::ERRORS,
            m::LIMIT_REFUSALS,
            m::MATCHES_CREATED,
            super::SOCKETS,
            super::MATCHES_IN_MEMORY,
            super::MATCHES_LIVE,
            super::BOT_QUEUE,
        ];
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/grafana/plateau.json"
        );
        let dashboard: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut plotted = 0;
        for panel in dashboard["panels"].as_array().unwrap() {
            for target in panel["targets"].as_array().unwrap() {
                let expr = target["expr"].as_str().unwrap();
                for (at, _) in expr.match_indices("plateau_") {
                    let name: String = expr[at..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let base = name.strip_suffix("_bucket").unwrap_or(&name);
                    assert!(known.contains(&base), "{name} in {expr}");
                    plotted += 1;
                }
            }
        }
        assert!(plotted >= known.len(), "{plotted}");
    }
}
