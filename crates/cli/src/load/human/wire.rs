//! What the tasks of a run share: its state, their sockets and requests, their waits.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::counts::Counts;
use super::pace::{Pace, Target};
use crate::load::client::{self, Ws};

/// The shared state of a run's tasks.
pub(super) struct Run {
    pub(super) pace: Pace,
    pub(super) target: Target,
    pub(super) counts: Arc<Counts>,
    /// Set when the seats stop acting (the window is over).
    pub(super) quiet: watch::Receiver<bool>,
    /// Set when every socket closes.
    pub(super) stop: watch::Receiver<bool>,
}

/// The WebSocket settings of the load's sockets: small buffers, as the server's, so that the
/// client holds as many sockets as the server does in less memory.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// A WebSocket to `path` on `addr` from `from`, with `token` as the bearer if any.
pub(super) async fn open(
    from: IpAddr,
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
) -> Result<Ws, String> {
    let stream = client::connect_from(from, addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    let request = client::socket_request(addr, path, token)?;
    let (ws, _) = tokio_tungstenite::client_async_with_config(
        request,
        tokio_tungstenite::MaybeTlsStream::Plain(stream),
        Some(config()),
    )
    .await
    .map_err(|e| format!("upgrade: {e}"))?;
    Ok(ws)
}

/// An HTTP request from `from`, its coded refusal counted and a match it created (a 201)
/// counted as created; the answer if it had `expect`.
pub(super) async fn asked(
    counts: &Counts,
    from: IpAddr,
    addr: SocketAddr,
    path: &str,
    body: &Value,
    expect: u16,
) -> Result<Value, String> {
    let (status, answer) = client::request(from, addr, "POST", path, Some(body))
        .await
        .map_err(|e| format!("request: {e}"))?;
    if status == 201 {
        counts.created.fetch_add(1, Ordering::Relaxed);
    }
    if status == expect {
        return Ok(answer);
    }
    match answer["code"].as_str() {
        Some(code) => counts.coded(code),
        None => counts.failed(&format!("HTTP {status} without a code")),
    }
    Err(format!("{path}: {status}"))
}

/// Completes once `flag` is true (or its sender is gone).
pub(super) async fn set(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|s| *s).await;
}

/// Sleeps until `at`, or for ever.
pub(super) async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
