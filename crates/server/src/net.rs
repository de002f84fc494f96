//! The front door (docs/protocol.md section 6): accepts TCP connections, caps them per client
//! address and in all, closes a connection that sends no complete request headers in time (a
//! silent or half-sent request holds nothing for long), turns Nagle's delay off, and drains the
//! connections on shutdown. Over a cap, the connection gets one `429` with the code
//! `limit/connections` and is closed.
//!
//! A connection's slot is released when the connection ends; a WebSocket keeps the slot of the
//! connection it was upgraded from (`ConnSlot` travels in the request to the socket's task).

use std::collections::HashMap;
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

/// The open connections, per address and in all.
#[derive(Default)]
struct Counts {
    per_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// One connection's place under the caps; given back when the last holder drops it.
#[derive(Clone)]
pub struct ConnSlot(#[allow(dead_code)] Arc<SlotInner>);

struct SlotInner {
    counts: Arc<Mutex<Counts>>,
    addr: IpAddr,
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total -= 1;
        if let Some(n) = c.per_address.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                c.per_address.remove(&self.addr);
            }
        }
    }
}

fn take_slot(counts: &Arc<Mutex<Counts>>, addr: IpAddr, limits: &Limits) -> Option<ConnSlot> {
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    let mine = c.per_address.get(&addr).copied().unwrap_or(0);
    let over_mine = limits.applies_to(addr) && mine >= limits.connections_per_address;
    if over_mine || c.total >= limits.connections {
        return None;
    }
    c.total += 1;
    *c.per_address.entry(addr).or_default() += 1;
    Some(ConnSlot(Arc::new(SlotInner {
        counts: counts.clone(),
        addr,
    })))
}

/// Answers a connection over a cap with one `429` and closes it.
async fn refuse(mut stream: TcpStream) {
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
/// the default 1,024 descriptors, decide who is refused.
pub fn raise_open_files() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::debug!(limit = n, "open files"),
        Err(e) => tracing::warn!(error = %e, "open files limit left as it was"),
    }
}

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
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
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
        let Some(slot) = take_slot(&counts, peer.ip(), &limits) else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = connection_service(router.clone(), peer, slot.clone());
        let conn = builder
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
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

/// The router for one connection: each request carries the peer's address and the slot.
fn connection_service(
    router: Router,
    peer: SocketAddr,
    slot: ConnSlot,
) -> impl Service<
    Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
+ Send {
    tower::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(slot.clone());
        let mut router = router.clone();
        async move { router.call(req.map(axum::body::Body::new)).await }
    })
}
