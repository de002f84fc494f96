//! What a stranger does to the service, for `plateau load --flood` and `--idle`: from a client
//! address of its own (127.0.0.2), create matches and open sockets as fast as it can and keep
//! them; and hold many silent sockets that only ping, as idle pages do.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::Message;

use super::client;

/// The flooder's client address: not the honest load's.
const FLOODER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// Holds `n` lobby sockets open, each pinging every 20 seconds as a page does; returns their
/// tasks (dropped, they stop).
pub async fn hold_idle(addr: SocketAddr, n: usize) -> Vec<tokio::task::JoinHandle<()>> {
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        let url = format!("ws://{addr}/api/lobby/ws");
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
            continue;
        };
        held.push(tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(20)).await;
                let ping = Message::Text(r#"{"type":"ping"}"#.into());
                if ws.send(ping).await.is_err() {
                    return;
                }
                // Nothing is read: the lobby's counts queue in the kernel's buffers.
            }
        }));
    }
    held
}

/// Floods the server until `until`: matches created without a session (a new guest each) and
/// raw sockets opened and kept, as fast as the answers come. Returns a line saying what it got.
pub async fn flood(addr: SocketAddr, until: Instant) -> String {
    let body =
        serde_json::json!({"game": "moonleap", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (mut created, mut limited, mut other, mut refused) = (0u64, 0u64, 0u64, 0u64);
    let mut sockets = Vec::new();
    while Instant::now() < until {
        match client::request(FLOODER, addr, "POST", "/api/matches", Some(&body)).await {
            Ok((201, _)) => created += 1,
            Ok((429, _)) => limited += 1,
            Ok(_) => other += 1,
            Err(_) => refused += 1,
        }
        match client::connect_from(FLOODER, addr).await {
            Ok(mut s) => {
                // Half a request, never finished: the header timeout should close it.
                let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
                sockets.push(s);
            }
            Err(_) => refused += 1,
        }
    }
    format!(
        "flooder: {created} matches created, {limited} answered 429, {other} other answers, \
         {refused} connections refused or failed, {} half-open sockets attempted",
        sockets.len()
    )
}
