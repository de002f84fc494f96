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

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::Service;

use crate::limits::Limits;

/// The open connections, per network (`limits::network`) and in all.
#[derive(Default)]
struct Counts {
    per_network: HashMap<IpAddr, Vec<Weak<SlotInner>>>,
    total: usize,
}

/// One connection's place under the caps; given back when the last holder drops it. A
/// WebSocket keeps the place of the connection it was upgraded from, marks it active at each
/// message (`touch`), and closes when the place is taken back for a newcomer (`evicted`).
#[derive(Clone)]
pub struct ConnSlot(Arc<SlotInner>);

struct SlotInner {
    counts: Arc<Mutex<Counts>>,
    /// The network it counts for: its client's. Changed (by `ConnSlot::attribute`) and read
    /// only with the counts locked, and locked after them.
    network: Mutex<IpAddr>,
    /// Whether the limits per address apply to the client (not an exempt address, nor a
    /// trusted proxy whose requests have not named a client yet).
    limited: AtomicBool,
    /// Milliseconds from `EPOCH` to the connection's last request or WebSocket message.
    active: AtomicU64,
    /// Turns `true` when the place was taken back for a newcomer.
    evict: watch::Sender<bool>,
}

/// The instant `SlotInner::active` counts from.
fn since_epoch() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64
}

impl ConnSlot {
    /// The connection was active now (a request, a WebSocket message): the last to be evicted.
    pub fn touch(&self) {
        self.0.active.store(since_epoch(), Ordering::Relaxed);
    }

    /// Counts the connection as `client`'s from now on (the client a trusted proxy named in a
    /// request, `proxy`), if `client`'s network is under its cap per address; `false` (and
    /// nothing changed) if it is not. Already `client`'s, or evicted: `true`.
    pub fn attribute(&self, client: IpAddr, limits: &Limits) -> bool {
        let network = crate::limits::network(client);
        let limited = limits.applies_to(client);
        // Declared before the lock's guard, so dropped after it (see `remove_dead`).
        let mut held = Vec::new();
        let mut c = self.0.counts.lock().unwrap_or_else(|e| e.into_inner());
        if *self.0.evict.borrow() {
            return true;
        }
        let mut current = self.0.network.lock().unwrap_or_else(|e| e.into_inner());
        if *current != network {
            remove_dead(&mut c, network, &mut held);
            let theirs = c.per_network.get(&network).map_or(0, Vec::len);
            if limited && theirs >= limits.connections_per_address {
                return false;
            }
            if let Some(list) = c.per_network.get_mut(&*current) {
                list.retain(|w| !std::ptr::eq(w.as_ptr(), Arc::as_ptr(&self.0)));
                if list.is_empty() {
                    c.per_network.remove(&*current);
                }
            }
            c.per_network
                .entry(network)
                .or_default()
                .push(Arc::downgrade(&self.0));
            *current = network;
        }
        self.0.limited.store(limited, Ordering::Relaxed);
        true
    }

    /// Completes once the place was taken back for a newcomer: the connection must close.
    pub async fn evicted(&self) {
        let mut evict = self.0.evict.subscribe();
        let _ = evict.wait_for(|e| *e).await;
    }
}

/// Completes once `slot`'s place was taken back; never without a slot.
pub async fn evicted(slot: Option<&ConnSlot>) {
    match slot {
        Some(s) => s.evicted().await,
        None => std::future::pending().await,
    }
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        if *self.evict.borrow() {
            // Already taken out of the counts when it was evicted.
            return;
        }
        let mut held = Vec::new();
        {
            let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            c.total -= 1;
            let network = *self.network.lock().unwrap_or_else(|e| e.into_inner());
            remove_dead(&mut c, network, &mut held);
        }
        // Dropped once the counts are unlocked: one may be another slot's last reference.
        drop(held);
    }
}

/// Drops the entries of `network` whose connection is gone (or evicted), and the network once
/// it has none. Each slot looked at is kept in `held`, for the caller to drop after it unlocks
/// the counts: a connection may end meanwhile on another thread, and the reference taken here
/// be its last, whose drop locks the counts again (a lock held here would never be given).
fn remove_dead(c: &mut Counts, network: IpAddr, held: &mut Vec<Arc<SlotInner>>) {
    if let Some(list) = c.per_network.get_mut(&network) {
        list.retain(|w| match w.upgrade() {
            Some(s) => {
                let live = !*s.evict.borrow();
                held.push(s);
                live
            }
            None => false,
        });
        if list.is_empty() {
            c.per_network.remove(&network);
        }
    }
}

/// Admits a connection from `addr`, or refuses it (`None`). Past the cap per address (its
/// network: an IPv6 /64), refused. Under the cap in all, admitted. At the cap in all, a
/// newcomer whose network holds `k` connections takes the place of the longest idle connection
/// of the network that holds the most, if that network holds `k + 2` or more (so an eviction
/// always makes the shares more even): a crowd that holds every connection it may cannot keep
/// a client with few out, and never evicts a client with fewer than it.
///
/// A trusted proxy's connection is admitted under the cap in all only: its requests name the
/// client it counts for (`ConnSlot::attribute`).
fn take_slot(counts: &Arc<Mutex<Counts>>, addr: IpAddr, limits: &Limits) -> Option<ConnSlot> {
    let network = crate::limits::network(addr);
    let limited = limits.applies_to(addr) && !limits.proxies.trusts(addr);
    // Declared before the lock's guard, so dropped after it (see `remove_dead`).
    let mut held = Vec::new();
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    remove_dead(&mut c, network, &mut held);
    let mine = c.per_network.get(&network).map_or(0, Vec::len);
    if limited && mine >= limits.connections_per_address {
        return None;
    }
    if c.total >= limits.connections {
        let candidates: Vec<Arc<SlotInner>> = c
            .per_network
            .iter()
            .filter(|(n, list)| **n != network && list.len() >= mine + 2)
            .max_by_key(|(_, list)| list.len())
            .map(|(_, list)| list.iter().filter_map(Weak::upgrade).collect())
            .unwrap_or_default();
        let victim = candidates
            .iter()
            .filter(|s| s.limited.load(Ordering::Relaxed) && !*s.evict.borrow())
            .min_by_key(|s| s.active.load(Ordering::Relaxed))
            .cloned();
        held.extend(candidates);
        let victim = victim?;
        victim.evict.send_replace(true);
        c.total -= 1;
        let victim_network = *victim.network.lock().unwrap_or_else(|e| e.into_inner());
        remove_dead(&mut c, victim_network, &mut held);
        tracing::debug!(network = %victim_network, "connection evicted for a newcomer");
    }
    c.total += 1;
    let slot = Arc::new(SlotInner {
        counts: counts.clone(),
        network: Mutex::new(network),
        limited: AtomicBool::new(limited),
        active: AtomicU64::new(since_epoch()),
        evict: watch::channel(false).0,
    });
    c.per_network
        .entry(network)
        .or_default()
        .push(Arc::downgrade(&slot));
    Some(ConnSlot(slot))
}

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

/// How long a write to a client may make no progress before the connection is dropped: an
/// answer the client does not read (a large replay, a history) is not held longer.
pub const WRITE_STALL: Duration = Duration::from_secs(10);

/// A client connection whose writes fail once they made no progress for `WRITE_STALL` (the
/// kernel's send buffer full, the client reading nothing). Reads are left to the header and
/// idle timeouts.
struct Stalled {
    stream: TcpStream,
    /// When the pending write gives up, while one is pending.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Stalled {
    fn new(stream: TcpStream) -> Stalled {
        Stalled {
            stream,
            deadline: None,
        }
    }

    /// A pending write: past its deadline, an error; else the deadline armed.
    fn stalled(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_STALL)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client reads nothing",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Passes a write's answer on: progress disarms the deadline, waiting arms it.
    fn written<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Pending => match self.stalled(cx) {
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                _ => Poll::Pending,
            },
            done => {
                self.deadline = None;
                done
            }
        }
    }
}

impl AsyncRead for Stalled {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalled {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.written(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.written(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_flush(cx);
        self.written(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.written(cx, poll)
    }
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
    use super::*;

    fn limits(per_address: usize, all: usize) -> Limits {
        Limits {
            connections_per_address: per_address,
            connections: all,
            ..Limits::default()
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_cap_in_all_fits_the_open_files() {
        assert_eq!(connections_cap(&limits(64, 4000), Some(1024)), 896);
        assert_eq!(connections_cap(&limits(64, 4000), Some(1 << 20)), 4000);
        assert_eq!(connections_cap(&limits(64, 4000), None), 4000);
    }

    /// An IPv6 /64 is one address for the cap per address.
    #[tokio::test]
    async fn a_64_is_one_address() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = limits(2, 100);
        let a = take_slot(&counts, ip("2001:db8::1"), &l).unwrap();
        let b = take_slot(&counts, ip("2001:db8::ffff:2"), &l).unwrap();
        assert!(take_slot(&counts, ip("2001:db8::3"), &l).is_none());
        assert!(take_slot(&counts, ip("2001:db8:0:1::1"), &l).is_some());
        drop(a);
        assert!(take_slot(&counts, ip("2001:db8::3"), &l).is_some());
        drop(b);
    }

    /// A trusted proxy's connections count toward the cap per address of the clients their
    /// requests name, and toward no cap of the proxy's own until then.
    #[tokio::test]
    async fn a_proxy_s_connections_count_for_their_clients() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = Limits {
            proxies: crate::proxy::TrustedProxies {
                networks: vec!["10.0.0.1/32".parse().unwrap()],
                ..Default::default()
            },
            ..limits(2, 100)
        };
        let through: Vec<ConnSlot> = (0..5)
            .map(|_| take_slot(&counts, ip("10.0.0.1"), &l).expect("not capped per address"))
            .collect();
        assert!(through[0].attribute(ip("192.0.2.1"), &l));
        assert!(through[0].attribute(ip("192.0.2.1"), &l), "already its");
        assert!(through[1].attribute(ip("192.0.2.1"), &l));
        assert!(
            !through[2].attribute(ip("192.0.2.1"), &l),
            "over the client's cap"
        );
        assert!(through[2].attribute(ip("192.0.2.2"), &l), "another client");
        // A client that comes directly shares its cap with its connections through the proxy.
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_none());
        // A connection moved to another client frees its place.
        assert!(through[1].attribute(ip("192.0.2.3"), &l));
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_some());
        let c = counts.lock().unwrap();
        assert_eq!(c.total, 5);
        assert_eq!(c.per_network[&ip("10.0.0.1")].len(), 2);
        drop(c);
        drop(through);
        assert_eq!(counts.lock().unwrap().total, 0);
    }

    /// At the cap in all, a newcomer with few evicts the longest idle connection of the network
    /// with the most, and only when that makes the shares more even.
    #[tokio::test]
    async fn a_newcomer_with_few_takes_the_longest_idle_place_of_the_most() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = limits(10, 5);
        let crowd: Vec<ConnSlot> = (0..4)
            .map(|_| take_slot(&counts, ip("192.0.2.1"), &l).unwrap())
            .collect();
        let other = take_slot(&counts, ip("192.0.2.2"), &l).unwrap();
        // The crowd's first three were active later than its fourth: the fourth is evicted.
        std::thread::sleep(Duration::from_millis(5));
        for s in &crowd[..3] {
            s.touch();
        }
        let honest = take_slot(&counts, ip("192.0.2.3"), &l).expect("evicts one");
        assert!(*crowd[3].0.evict.borrow());
        assert!(crowd[..3].iter().all(|s| !*s.0.evict.borrow()));
        assert!(!*other.0.evict.borrow());
        // The crowd (3 now) may not evict anyone: nobody holds 5.
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_none());
        // The honest one (1) may evict from the crowd (3 >= 1 + 2)...
        let again = take_slot(&counts, ip("192.0.2.3"), &l).expect("evicts one");
        assert_eq!(crowd.iter().filter(|s| *s.0.evict.borrow()).count(), 2);
        // ...but the other one (1) may not from the crowd or the honest one (2 each).
        assert!(take_slot(&counts, ip("192.0.2.2"), &l).is_none());
        drop((crowd, other, honest, again));
        assert_eq!(counts.lock().unwrap().total, 0);
    }
}
