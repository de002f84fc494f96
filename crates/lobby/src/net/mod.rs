//! The front door (docs/protocol.md section 6): accepts TCP connections, caps them per client
//! network (an IPv4 address, an IPv6 /64) and in all, shares the connections in all fairly
//! between networks (a newcomer with few takes the place of the longest idle connection of the
//! network with the most), closes a connection that sends no complete request headers in time
//! or more than 16 KiB of them (a silent or half-sent request holds little, and not for long),
//! keeps the kernel's send buffer small, turns Nagle's delay off, and drains the connections on
//! shutdown. Over a cap, the connection gets one `429` with the code `limit/connections` and is
//! closed.
//!
//! A connection's slot is released when the connection ends; a WebSocket keeps the slot of the
//! connection it was upgraded from (`ConnSlot` travels in the request to the socket's task).
//!
//! A connection from a trusted reverse proxy (`proxy`) counts at first only toward the cap in
//! all; each of its requests names its client, and the connection then counts as that client's
//! (`ConnSlot::attribute`), under the cap per address like any other: through the proxy each
//! WebSocket is one connection of its own, so the client's sockets are counted as if it came
//! directly.
//!
//! Its parts: `slots` (each connection's place under the caps, and who gives way to a
//! newcomer), `stalled` (a write the client does not take ends the connection) and here the
//! accepting loop and each connection's service.

mod slots;
mod stalled;

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tower::Service;

use crate::limits::Limits;
pub use slots::{ConnSlot, evicted};
use slots::{Counts, take_slot};
use stalled::Stalled;
pub use stalled::WRITE_STALL;

/// Answers a connection over a cap with one `429` and closes it.
async fn refuse(mut stream: TcpStream) {
    plateau_match::metrics::error_sent(crate::model::Code::LimitConnections);
    let body = r#"{"code":"limit/connections","message":"too many connections from your address or in all: close some and retry"}"#;
    let response = format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\nRetry-After: 5\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Raises the process's limit of open files to the system's hard limit, so the caps above, not
/// the default 1,024 descriptors, decide who is refused; returns the limit in force.
pub fn raise_open_files() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => {
            tracing::debug!(limit = n, "open files");
            Some(n)
        }
        Err(e) => {
            tracing::warn!(error = %e, "open files limit left as it was");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

/// Descriptors kept for everything but client connections: the database, its log, the bots'
/// and the store's threads, connections to other nodes.
const DESCRIPTORS_KEPT: u64 = 128;

/// The cap on connections in all, lowered to what the open files limit can hold: past it
/// `accept` itself fails, and then nobody, the clients with few connections included, gets
/// in (the fair share above needs the cap to be met first).
fn connections_cap(limits: &Limits, open_files: Option<u64>) -> usize {
    let Some(files) = open_files else {
        return limits.connections;
    };
    let room = usize::try_from(files.saturating_sub(DESCRIPTORS_KEPT)).unwrap_or(usize::MAX);
    if room < limits.connections {
        tracing::warn!(
            open_files = files,
            cap = room,
            "the open files limit holds fewer connections than --max-connections: the cap is lowered"
        );
    }
    limits.connections.min(room.max(1))
}

/// The kernel's send buffer of a client connection. Left to itself the kernel grows it to
/// megabytes for a client that does not read; this holds a few whole states.
pub const SEND_BUFFER: usize = 64 * 1024;

/// Longest request headers a connection may send (hyper's buffer; past it `431`).
pub const MAX_HEADERS: usize = 16 * 1024;

/// Serves `router` on `listener` until `signal` completes, then stops accepting and waits (at
/// most `drain`) for the HTTP connections in progress.
///
/// # Errors
/// None so far: accept errors (out of descriptors) are logged and retried after a pause.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    signal: impl Future<Output = ()>,
    drain: Duration,
) -> io::Result<()> {
    let counts = Arc::new(Mutex::new(Counts::default()));
    let mut limits = limits;
    limits.connections = connections_cap(&limits, raise_open_files());
    let limits = Arc::new(limits);
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEADERS)
        .keep_alive(true);
    tokio::pin!(signal);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed; pausing");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        while connections.try_join_next().is_some() {}
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let Some(slot) = take_slot(&counts, peer.ip(), &limits) else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = connection_service(router.clone(), peer, slot.clone(), limits.clone());
        let conn = builder
            .serve_connection(
                TokioIo::new(Stalled::new(stream)),
                TowerToHyperService::new(service),
            )
            .with_upgrades();
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopping.changed() => {
                    // Finish the request in progress, then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
                () = slot.evicted() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = tokio::time::timeout(drain, async {
        while connections.join_next().await.is_some() {}
    });
    if drained.await.is_err() {
        tracing::warn!("some connections were still open after the drain time");
    }
    Ok(())
}

/// The client of a request (`proxy`): the connection's other end, or, from a trusted proxy,
/// the client it names. Every limit per address and the request's log lines use it.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

/// The router for one connection: each request carries the peer's address, its client
/// (`Client`) and the slot, which a trusted proxy's request moves to its client's count; over
/// that client's cap the request is answered `limit/connections` and the connection closed.
fn connection_service(
    router: Router,
    peer: SocketAddr,
    slot: ConnSlot,
    limits: Arc<Limits>,
) -> impl Service<
    Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
+ Send {
    let proxied = limits.proxies.trusts(peer.ip());
    tower::service_fn(move |mut req: Request<Incoming>| {
        let client = limits.proxies.client(peer.ip(), req.headers());
        let admitted = !proxied || slot.attribute(client, &limits);
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(Client(client));
        slot.touch();
        req.extensions_mut().insert(slot.clone());
        let mut router = router.clone();
        async move {
            if !admitted {
                return Ok(over_the_cap());
            }
            router.call(req.map(axum::body::Body::new)).await
        }
    })
}

/// The answer to a request whose client (named by a trusted proxy) holds all the connections
/// it may: `429 limit/connections`, and the connection closes.
fn over_the_cap() -> axum::response::Response {
    use axum::response::IntoResponse;
    let error = crate::model::ApiError::new(
        crate::model::Code::LimitConnections,
        "too many connections from your address: close some and retry",
    );
    let mut response = crate::model::HttpError(error).into_response();
    let headers = response.headers_mut();
    headers.insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    headers.insert(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("5"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::slots::tests::limits;
    use super::*;

    #[test]
    fn the_cap_in_all_fits_the_open_files() {
        assert_eq!(connections_cap(&limits(64, 4000), Some(1024)), 896);
        assert_eq!(connections_cap(&limits(64, 4000), Some(1 << 20)), 4000);
        assert_eq!(connections_cap(&limits(64, 4000), None), 4000);
    }
}
