//! What strangers do to the service, for `plateau load --flood`, `--idle`, `--silent` and
//! `--bots`: from a client address of its own (127.0.0.2), create matches and open sockets as
//! fast as it can and keep them; hold many sockets that only ping, as idle pages do, or that never
//! send anything; start many matches of bots alone.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::client;

/// The flooder's client address: not the honest load's.
const FLOODER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// The address that asks for matches of bots alone, to meet the limit per address.
const BOT_STRANGER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));

/// Silent sockets per client address: under the default cap of 64 per address, so what closes
/// them is the timeouts, not the cap.
const SILENT_PER_ADDRESS: usize = 50;

/// Holds `n` lobby sockets open, each reading what the server sends and pinging every 20
/// seconds, as an idle page does; returns their tasks (dropped, they stop). Opens up to 64 at a
/// time. The pings are spread over the 20 seconds, as pages opened at different times would
/// send them, rather than all at once.
pub async fn hold_idle(addr: SocketAddr, n: usize) -> Vec<tokio::task::JoinHandle<()>> {
    let url = format!("ws://{addr}/api/lobby/ws");
    let opened: Vec<_> = futures_util::stream::iter(0..n)
        .map(|_| tokio_tungstenite::connect_async(url.clone()))
        .buffer_unordered(64)
        .collect()
        .await;
    let mut held = Vec::with_capacity(n);
    let every = Duration::from_secs(20);
    for (i, (mut ws, _)) in opened.into_iter().flatten().enumerate() {
        let first = tokio::time::Instant::now() + every.mul_f64((i + 1) as f64 / n as f64);
        held.push(tokio::spawn(async move {
            let mut ping = tokio::time::interval_at(first, every);
            loop {
                tokio::select! {
                    _ = ping.tick() => {
                        let ping = Message::Text(r#"{"type":"ping"}"#.into());
                        if ws.send(ping).await.is_err() {
                            return;
                        }
                    }
                    frame = ws.next() => {
                        if !matches!(frame, Some(Ok(_))) {
                            return;
                        }
                    }
                }
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

/// Opens `n` silent sockets: half bare TCP connections that never send a byte (the header
/// timeout should close them), half WebSockets to the lobby that never send a message (the idle
/// timeout should close them), from client addresses 127.0.1.x, 50 each, as many strangers'
/// would be. The task ends at `until` with a line saying when the server closed them.
pub async fn hold_silent(addr: SocketAddr, n: usize, until: Instant) -> JoinHandle<String> {
    let mut bare = Vec::new();
    let mut ws = Vec::new();
    for k in 0..n {
        let third = u8::try_from(k / SILENT_PER_ADDRESS % 250).unwrap_or(0) + 1;
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 1, third));
        let opened = Instant::now();
        let Ok(stream) = client::connect_from(from, addr).await else {
            continue;
        };
        if k % 2 == 0 {
            bare.push(tokio::spawn(closed_after(opened, until, async move {
                let mut stream = stream;
                let mut buf = [0u8; 64];
                // Anything read (a 408, say) or the end: either way the server gave up on it.
                while matches!(stream.read(&mut buf).await, Ok(n) if n > 0) {}
            })));
        } else {
            let Ok(request) = format!("ws://{addr}/api/lobby/ws").into_client_request() else {
                continue;
            };
            let Ok((mut socket, _)) = tokio_tungstenite::client_async(request, stream).await else {
                continue;
            };
            ws.push(tokio::spawn(closed_after(opened, until, async move {
                // The lobby's messages are read; nothing is ever sent.
                while let Some(Ok(frame)) = socket.next().await {
                    if frame.is_close() {
                        break;
                    }
                }
            })));
        }
    }
    tokio::spawn(async move {
        let bare = summary(bare).await;
        let ws = summary(ws).await;
        format!("silent sockets: bare TCP {bare}; WebSockets {ws}")
    })
}

/// Seconds from `opened` until `closed` completes, or `None` if it has not by `until`.
async fn closed_after(
    opened: Instant,
    until: Instant,
    closed: impl std::future::Future<Output = ()>,
) -> Option<f64> {
    tokio::time::timeout_at(until.into(), closed)
        .await
        .ok()
        .map(|()| opened.elapsed().as_secs_f64())
}

/// "n opened, k closed by the server after a to b s, m still open".
async fn summary(tasks: Vec<JoinHandle<Option<f64>>>) -> String {
    let n = tasks.len();
    let mut closed = Vec::new();
    for t in tasks {
        if let Ok(Some(s)) = t.await {
            closed.push(s);
        }
    }
    let (lo, hi) = closed.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &s| {
        (lo.min(s), hi.max(s))
    });
    if closed.is_empty() {
        format!("{n} opened, none closed by the server")
    } else {
        format!(
            "{n} opened, {} closed by the server after {lo:.1} to {hi:.1} s, {} still open",
            closed.len(),
            n - closed.len()
        )
    }
}

/// Matches of bots alone for `--bots n`: first `n` asked for from one stranger's address
/// (127.0.0.3), which the limit per address should mostly refuse, then `n` from the load's own
/// address, which play on meanwhile. Returns a line saying what each got.
pub async fn bot_matches(
    addr: SocketAddr,
    from: IpAddr,
    game: &str,
    bot: &str,
    n: usize,
) -> String {
    let seat = serde_json::json!({"kind": "bot", "bot": bot});
    let body = serde_json::json!({"game": game, "seats": [seat, seat]});
    let count = |answers: Vec<std::io::Result<(u16, serde_json::Value)>>| {
        let created = answers.iter().filter(|a| matches!(a, Ok((201, _)))).count();
        let limited = answers.iter().filter(|a| matches!(a, Ok((429, _)))).count();
        (created, limited, answers.len() - created - limited)
    };
    let mut stranger = Vec::with_capacity(n);
    for _ in 0..n {
        stranger
            .push(client::request(BOT_STRANGER, addr, "POST", "/api/matches", Some(&body)).await);
    }
    let (s_created, s_limited, s_other) = count(stranger);
    let mut ours = Vec::with_capacity(n);
    for _ in 0..n {
        ours.push(client::request(from, addr, "POST", "/api/matches", Some(&body)).await);
    }
    let (created, _, failed) = count(ours);
    format!(
        "bot matches ({game}, two `{bot}` seats): from one stranger's address {s_created} of {n} \
         started, {s_limited} answered 429, {s_other} other answers; from the load's exempt \
         address {created} of {n} started and playing meanwhile ({failed} failed)"
    )
}
