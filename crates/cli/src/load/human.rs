//! `plateau load --pace human`: matches played at the pace of people, to find what one node
//! holds rather than how fast it answers a closed loop.
//!
//! Every seat thinks before it acts, a time drawn uniformly from `--think-min` to `--think-max`
//! seconds by a generator seeded from `--seed` and the table's number; every socket sends a
//! `ping` message every `--ping-every` seconds, as the pages do (web/js/socket.js); beside the
//! seats there are `--spectators-per-match` spectators' sockets and `--lobby-per-match` lobby
//! sockets per match. The matches open at `--ramp-rate` a second, so that the server is not
//! measured on a crowd arriving in the same instant. Every socket comes from one of the client
//! addresses 127.0.2.1 to 127.0.2.N (`--sources`): the kernel gives each source address its own
//! ephemeral ports, and one address has fewer than 40,000.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::stream::SelectAll;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::client::{self, Ws};

/// The client address of source `i` (0-based): 127.0.2.(i + 1).
#[must_use]
pub fn source(i: usize, sources: u8) -> IpAddr {
    let n = usize::from(sources.max(1));
    IpAddr::V4(Ipv4Addr::new(127, 0, 2, (i % n) as u8 + 1))
}

/// The stranger's address of `--strangers`: not a source, so the limits per address apply.
const STRANGER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 3, 1));

/// The human pace's settings (`plateau load` flags of the same names).
#[derive(Clone, Debug)]
pub struct Pace {
    /// Live matches held.
    pub matches: usize,
    /// The game (registry name) and its seats.
    pub game: String,
    /// Seats per match.
    pub seats: usize,
    /// Shortest and longest think, seconds (uniform between them).
    pub think: (f64, f64),
    /// Seconds between two `ping` messages of one socket.
    pub ping_every: f64,
    /// Lobby sockets per match (0.25: one for every four matches).
    pub lobby_per_match: f64,
    /// Spectators' sockets per match.
    pub spectators_per_match: f64,
    /// Matches opened per second during the ramp.
    pub ramp_rate: f64,
    /// Client addresses the sockets come from.
    pub sources: u8,
    /// Match creations asked for from a stranger's address before the ramp (the limits per
    /// address refuse most of them).
    pub strangers: usize,
    /// Seconds of the measured window.
    pub seconds: u64,
    /// Seed of the think times and of the actions chosen.
    pub seed: u64,
}

impl Pace {
    /// Lobby sockets in all.
    fn lobby_sockets(&self) -> usize {
        (self.matches as f64 * self.lobby_per_match).round() as usize
    }

    /// Spectators of table `k`: spread so that tables `0..=k` have `(k + 1) * ratio` between
    /// them, rounded down.
    fn spectators_of(&self, k: usize) -> usize {
        let upto = |n: usize| (n as f64 * self.spectators_per_match).floor() as usize;
        upto(k + 1) - upto(k)
    }

    /// Every socket the load holds once ramped.
    #[must_use]
    pub fn sockets(&self) -> usize {
        let spectators: usize = (0..self.matches).map(|k| self.spectators_of(k)).sum();
        self.matches * self.seats + spectators + self.lobby_sockets()
    }
}

/// The counts of one human-pace load, kept by every task.
#[derive(Default)]
pub struct Counts {
    /// Actions acknowledged since the start, and within the window.
    acked: AtomicU64,
    acked_in_window: AtomicU64,
    /// Actions sent and not acknowledged or refused yet.
    in_flight: AtomicI64,
    /// Matches being opened: created, and not every socket has had its first message yet.
    opening: AtomicI64,
    /// Acknowledgement times in the window, µs.
    latencies: Mutex<Vec<u64>>,
    /// Matches the server created for the load (201), the stranger's included.
    created: AtomicU64,
    /// Matches played to their end.
    finished: AtomicU64,
    /// Tables with every socket open and their match live.
    live: AtomicI64,
    /// Sockets open that have had their first message: seats and spectators, lobby.
    match_sockets: AtomicI64,
    lobby_sockets: AtomicI64,
    /// Coded errors the server answered (HTTP and WebSocket), by code.
    coded: Mutex<BTreeMap<String, u64>>,
    /// Failures without a code: connections refused or lost, unreadable answers.
    failures: Mutex<BTreeMap<String, u64>>,
    /// Whether the window is open.
    measuring: AtomicBool,
}

impl Counts {
    fn coded(&self, code: &str) {
        *self
            .coded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(code.to_owned())
            .or_default() += 1;
    }

    fn failed(&self, why: &str) {
        *self
            .failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(why.to_owned())
            .or_default() += 1;
    }

    fn acked(&self, micros: u64) {
        self.acked.fetch_add(1, Ordering::Relaxed);
        if self.measuring.load(Ordering::Relaxed) {
            self.acked_in_window.fetch_add(1, Ordering::Relaxed);
            self.latencies
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(micros);
        }
    }

    /// The coded errors by code.
    #[must_use]
    pub fn coded_errors(&self) -> BTreeMap<String, u64> {
        self.coded.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Actions acknowledged since the start.
    #[must_use]
    pub fn acked_total(&self) -> u64 {
        self.acked.load(Ordering::Relaxed)
    }

    /// Matches created for the load (201 answers).
    #[must_use]
    pub fn created(&self) -> u64 {
        self.created.load(Ordering::Relaxed)
    }

    /// Sockets open now: match (seats and spectators), lobby.
    #[must_use]
    pub fn sockets(&self) -> (i64, i64) {
        (
            self.match_sockets.load(Ordering::Relaxed),
            self.lobby_sockets.load(Ordering::Relaxed),
        )
    }
}

/// A server under the load: where it listens and, if known, its process (for its memory and
/// CPU from `/proc`).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub addr: SocketAddr,
    pub pid: Option<u32>,
}

/// What one run measured.
pub struct Measured {
    /// Tables live and sockets held at the window's end (client's view).
    pub live: i64,
    pub sockets: i64,
    /// Decisions acknowledged in the window, and the window's length, s.
    pub decisions: u64,
    pub window: f64,
    /// Acknowledgement times of the window, sorted, µs.
    pub latencies: Vec<u64>,
    /// Errors of the whole run: coded, and failures without a code.
    pub coded: BTreeMap<String, u64>,
    pub failures: BTreeMap<String, u64>,
    pub finished: u64,
    /// Server RSS before the ramp and at the window's end, KiB; its CPU in the window, s.
    pub rss_idle: Option<u64>,
    pub rss_loaded: Option<u64>,
    pub cpu: Option<f64>,
    /// Seconds the ramp took.
    pub ramp: f64,
}

/// Resident memory and CPU time (user and system, s) of process `pid`, from `/proc`.
fn usage(pid: Option<u32>) -> (Option<u64>, Option<f64>) {
    let Some(pid) = pid else {
        return (None, None);
    };
    let rss = super::rss_kib(Some(pid));
    // Fields 14 and 15 of /proc/PID/stat, counted after the command's closing parenthesis.
    let cpu = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / USER_HZ)
        });
    (rss, cpu)
}

/// Clock ticks per second of `/proc`'s times: Linux's user-visible tick, fixed at 100 by its
/// ABI whatever the kernel's own tick.
const USER_HZ: f64 = 100.0;

/// The WebSocket settings of the load's sockets: small buffers, as the server's, so that the
/// client holds as many sockets as the server does in less memory.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// A WebSocket to `path` on `addr` from `from`, with `token` as the bearer if any.
async fn open(
    from: IpAddr,
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
) -> Result<Ws, String> {
    let stream = client::connect_from(from, addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    let mut request = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(t) = token {
        let value = format!("Bearer {t}").parse().map_err(|_| "bad token")?;
        request.headers_mut().insert("Authorization", value);
    }
    let (ws, _) = tokio_tungstenite::client_async_with_config(
        request,
        tokio_tungstenite::MaybeTlsStream::Plain(stream),
        Some(config()),
    )
    .await
    .map_err(|e| format!("upgrade: {e}"))?;
    Ok(ws)
}

/// The parts of a server message the load reads.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    code: Option<String>,
}

/// An HTTP request from `from`, its coded refusal counted; the answer if it had `expect`.
async fn asked(
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
    if status == expect {
        return Ok(answer);
    }
    match answer["code"].as_str() {
        Some(code) => counts.coded(code),
        None => counts.failed(&format!("HTTP {status} without a code")),
    }
    Err(format!("{path}: {status}"))
}

/// The shared state of a run's tasks.
struct Run {
    pace: Pace,
    target: Target,
    counts: Arc<Counts>,
    /// Set when the seats stop acting (the window is over).
    quiet: watch::Receiver<bool>,
    /// Set when every socket closes.
    stop: watch::Receiver<bool>,
}

/// One table: a match of people opened from `from`, its spectators, played at a human pace
/// until `stop`; a match that ends or fails is replaced.
async fn table(run: Arc<Run>, k: usize) {
    let from = source(k, run.pace.sources);
    let mut rng = ChaCha8Rng::seed_from_u64(run.pace.seed.wrapping_mul(1_000_003) + k as u64);
    let mut stop = run.stop.clone();
    while !*stop.borrow() {
        if *run.quiet.borrow() {
            // No new match once the seats stop acting.
            set(&mut stop).await;
            return;
        }
        match play_match(&run, from, k, &mut rng).await {
            Ok(()) => {}
            Err(e) => {
                run.counts.failed(&e);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                    () = set(&mut stop) => return,
                }
            }
        }
    }
}

/// What a seat last had: its version and legal actions, if its match is live.
#[derive(Clone)]
struct View {
    version: u64,
    legal: Vec<String>,
}

/// Opens and plays one match until it ends, a socket fails, or the run stops.
async fn play_match(run: &Run, from: IpAddr, k: usize, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let counts = &run.counts;
    counts.opening.fetch_add(1, Ordering::Relaxed);
    let mut opening = true;
    let played = play_opened(run, from, k, rng, &mut opening).await;
    if opening {
        counts.opening.fetch_sub(1, Ordering::Relaxed);
    }
    played
}

/// `play_match` once counted as opening; `opening` is cleared when every socket has had its
/// first message (the count taken down then).
async fn play_opened(
    run: &Run,
    from: IpAddr,
    k: usize,
    rng: &mut ChaCha8Rng,
    opening: &mut bool,
) -> Result<(), String> {
    let pace = &run.pace;
    let counts = &run.counts;
    let addr = run.target.addr;
    let humans: Vec<Value> = (0..pace.seats).map(|_| json!({"kind": "human"})).collect();
    let created = asked(
        counts,
        from,
        addr,
        "/api/matches",
        &json!({"game": pace.game, "seats": humans}),
        201,
    )
    .await?;
    counts.created.fetch_add(1, Ordering::Relaxed);
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let mut tokens = vec![created["token"].as_str().unwrap_or_default().to_owned()];
    for _ in 1..pace.seats {
        let joined = asked(
            counts,
            from,
            addr,
            &format!("/api/matches/{id}/join"),
            &json!({}),
            200,
        )
        .await?;
        tokens.push(joined["token"].as_str().unwrap_or_default().to_owned());
    }
    let path = format!("/api/matches/{id}/ws");
    let mut sockets = Vec::new();
    for t in &tokens {
        sockets.push(open(from, addr, &path, Some(t)).await?);
    }
    for _ in 0..pace.spectators_of(k) {
        sockets.push(open(from, addr, &path, None).await?);
    }
    let n = sockets.len();
    let mut sinks = Vec::with_capacity(n);
    let mut streams = SelectAll::new();
    for (i, ws) in sockets.into_iter().enumerate() {
        let (sink, stream) = ws.split();
        sinks.push(sink);
        streams.push(stream.map(move |m| (i, m)));
    }
    // Which sockets have had their first message (they count as open from then on).
    let mut heard = vec![false; n];
    let mut views: Vec<Option<View>> = vec![None; pace.seats];
    // The seat thinking and when it acts; the action in flight: seat, version, sent.
    let mut thinking: Option<(usize, tokio::time::Instant)> = None;
    let mut in_flight: Option<(usize, u64, Instant)> = None;
    // The sockets ping in turn, each every `ping_every` seconds, from a phase of this table's.
    let ping_gap = Duration::from_secs_f64(pace.ping_every / n as f64);
    let mut next_ping = tokio::time::Instant::now()
        + Duration::from_secs_f64(pace.ping_every * rng.random::<f64>() / n as f64);
    let mut ping_turn = 0usize;
    let mut live = false;
    let mut quiet = run.quiet.clone();
    let mut stop = run.stop.clone();
    let result = loop {
        if thinking.is_none()
            && in_flight.is_none()
            && !*quiet.borrow()
            && let Some(seat) = (0..pace.seats).find(|&s| views[s].is_some())
        {
            let think = rng.random_range(pace.think.0..=pace.think.1);
            thinking = Some((
                seat,
                tokio::time::Instant::now() + Duration::from_secs_f64(think),
            ));
        }
        let acts_at = thinking.map(|(_, at)| at);
        tokio::select! {
            () = set(&mut stop) => break Ok(()),
            () = set(&mut quiet), if thinking.is_some() => {
                thinking = None;
            }
            () = sleep_until(acts_at) => {
                let Some((seat, _)) = thinking.take() else { continue };
                let Some(view) = views[seat].take() else { continue };
                let action = &view.legal[rng.random_range(0..view.legal.len())];
                let act = json!({"type": "act", "version": view.version, "action": action});
                if sinks[seat].send(Message::Text(act.to_string().into())).await.is_err() {
                    break Err("send failed".to_owned());
                }
                counts.in_flight.fetch_add(1, Ordering::Relaxed);
                in_flight = Some((seat, view.version, Instant::now()));
            }
            () = tokio::time::sleep_until(next_ping) => {
                next_ping += ping_gap;
                let i = ping_turn % n;
                ping_turn += 1;
                let ping = Message::Text(r#"{"type":"ping"}"#.into());
                if sinks[i].send(ping).await.is_err() {
                    break Err("send failed".to_owned());
                }
            }
            frame = streams.next() => {
                let Some((i, frame)) = frame else {
                    break Err("sockets closed".to_owned());
                };
                let text = match frame {
                    Ok(Message::Text(text)) => text,
                    Ok(Message::Close(_)) => break Err("closed by the server".to_owned()),
                    Ok(_) => continue,
                    Err(_) => break Err("socket error".to_owned()),
                };
                if !heard[i] {
                    heard[i] = true;
                    counts.match_sockets.fetch_add(1, Ordering::Relaxed);
                    if heard.iter().all(|h| *h) {
                        live = true;
                        counts.live.fetch_add(1, Ordering::Relaxed);
                        counts.opening.fetch_sub(1, Ordering::Relaxed);
                        *opening = false;
                    }
                }
                let Ok(msg) = serde_json::from_str::<Incoming>(&text) else {
                    continue;
                };
                match msg.kind.as_ref() {
                    "state" if i < pace.seats => {
                        if let Some((seat, v, sent)) = in_flight
                            && seat == i
                            && msg.version > Some(v)
                        {
                            counts.acked(sent.elapsed().as_micros() as u64);
                            counts.in_flight.fetch_sub(1, Ordering::Relaxed);
                            in_flight = None;
                        }
                        if msg.status.as_deref() == Some("finished") {
                            counts.finished.fetch_add(1, Ordering::Relaxed);
                            break Ok(());
                        }
                        let to_act = msg.status.as_deref() == Some("live") && !msg.legal.is_empty();
                        views[i] = to_act.then(|| View {
                            version: msg.version.unwrap_or(0),
                            legal: msg.legal,
                        });
                        if thinking.is_some_and(|(s, _)| s == i) && !to_act {
                            thinking = None;
                        }
                    }
                    "error" => {
                        counts.coded(msg.code.as_deref().unwrap_or("error without a code"));
                        if in_flight.is_some_and(|(seat, ..)| seat == i) {
                            counts.in_flight.fetch_sub(1, Ordering::Relaxed);
                            in_flight = None;
                            // Act again only on a newer state of that seat.
                            views[i] = None;
                        }
                    }
                    _ => {}
                }
            }
        }
    };
    if in_flight.is_some() {
        counts.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
    if live {
        counts.live.fetch_sub(1, Ordering::Relaxed);
    }
    let opened = heard.iter().filter(|h| **h).count() as i64;
    counts.match_sockets.fetch_sub(opened, Ordering::Relaxed);
    result
}

/// Completes once `flag` is true (or its sender is gone).
async fn set(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|s| *s).await;
}

/// Sleeps until `at`, or for ever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// One lobby socket from `from`, pinging every `ping_every` s from a phase of its own, until
/// `stop`; it counts as open from its first message.
async fn lobby(run: Arc<Run>, k: usize) {
    let from = source(k, run.pace.sources);
    let counts = &run.counts;
    let mut ws = match open(from, run.target.addr, "/api/lobby/ws", None).await {
        Ok(ws) => ws,
        Err(e) => {
            counts.failed(&format!("lobby {e}"));
            return;
        }
    };
    let every = Duration::from_secs_f64(run.pace.ping_every);
    let phase = every.mul_f64((k % 997) as f64 / 997.0);
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + phase, every);
    let mut stop = run.stop.clone();
    let mut heard = false;
    loop {
        tokio::select! {
            () = set(&mut stop) => break,
            _ = ping.tick() => {
                if ws.send(Message::Text(r#"{"type":"ping"}"#.into())).await.is_err() {
                    counts.failed("lobby send failed");
                    break;
                }
            }
            frame = ws.next() => {
                match frame {
                    Some(Ok(Message::Text(text))) => {
                        if !heard {
                            heard = true;
                            counts.lobby_sockets.fetch_add(1, Ordering::Relaxed);
                        }
                        if let Ok(msg) = serde_json::from_str::<Incoming>(&text)
                            && msg.kind == "error"
                        {
                            counts.coded(msg.code.as_deref().unwrap_or("error without a code"));
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => {
                        counts.failed("lobby closed by the server");
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) => {
                        counts.failed("lobby socket error");
                        break;
                    }
                }
            }
        }
    }
    if heard {
        counts.lobby_sockets.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The stranger's match creations: `n` asked for at once from an address the limits apply to.
async fn strangers(counts: &Counts, addr: SocketAddr, game: &str, seats: usize, n: usize) {
    let humans: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
    let body = json!({"game": game, "seats": humans});
    for _ in 0..n {
        if asked(counts, STRANGER, addr, "/api/matches", &body, 201)
            .await
            .is_ok()
        {
            counts.created.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A run in progress: the window is over, the seats are quiet and every socket still open, so
/// that the server's figures can be read against the client's before `close`.
pub struct Held {
    stop: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    pub counts: Arc<Counts>,
    pub measured: Measured,
}

impl Held {
    /// Closes every socket and waits for the tasks.
    pub async fn close(self) {
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}

/// Runs the human-pace load against `target`: the stranger's creations, the ramp, a settling
/// second, the window; then the seats stop acting and the actions in flight and the matches
/// being opened are waited for (at most 10 s). The sockets stay open until `Held::close`.
pub async fn run(pace: &Pace, target: Target) -> Held {
    let counts = Arc::new(Counts::default());
    let (rss_idle, _) = usage(target.pid);
    strangers(&counts, target.addr, &pace.game, pace.seats, pace.strangers).await;
    let (quiet_tx, quiet) = watch::channel(false);
    let (stop, stop_rx) = watch::channel(false);
    let run = Arc::new(Run {
        pace: pace.clone(),
        target,
        counts: counts.clone(),
        quiet,
        stop: stop_rx,
    });
    let bar = indicatif::ProgressBar::new(pace.matches as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let started = tokio::time::Instant::now();
    let lobbies = pace.lobby_sockets();
    let mut tasks = Vec::with_capacity(pace.matches + lobbies);
    let mut lobby_opened = 0;
    let gap = Duration::from_secs_f64(1.0 / pace.ramp_rate.max(0.001));
    for k in 0..pace.matches {
        tokio::time::sleep_until(started + gap.mul_f64(k as f64)).await;
        tasks.push(tokio::spawn(table(run.clone(), k)));
        let due = ((k + 1) as f64 * pace.lobby_per_match).round() as usize;
        while lobby_opened < due.min(lobbies) {
            tasks.push(tokio::spawn(lobby(run.clone(), lobby_opened)));
            lobby_opened += 1;
        }
        if k % 64 == 0 {
            bar.set_position(k as u64);
            bar.set_message(format!(
                "matches opening, {} live",
                counts.live.load(Ordering::Relaxed)
            ));
        }
    }
    // The ramp ends when every socket is open (or has failed), or after a minute more.
    let expected = pace.sockets() as i64;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (m, l) = counts.sockets();
        bar.set_position(counts.live.load(Ordering::Relaxed).max(0) as u64);
        bar.set_message(format!("live; {} sockets", m + l));
        let failures: u64 = counts
            .failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum();
        if m + l + failures as i64 >= expected || tokio::time::Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let ramp = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // A second for the last matches' first actions, then the window.
    tokio::time::sleep(Duration::from_secs(1)).await;
    counts.measuring.store(true, Ordering::Relaxed);
    let window_start = Instant::now();
    let (_, cpu_before) = usage(target.pid);
    let window = indicatif::ProgressBar::new(pace.seconds);
    for s in 1..=pace.seconds {
        tokio::time::sleep_until((window_start + Duration::from_secs(s)).into()).await;
        window.set_position(s);
        window.set_message(format!(
            "{:.0} decisions/s",
            counts.acked_in_window.load(Ordering::Relaxed) as f64 / s as f64
        ));
    }
    counts.measuring.store(false, Ordering::Relaxed);
    let (rss_loaded, cpu_after) = usage(target.pid);
    let elapsed = window_start.elapsed().as_secs_f64();
    window.finish_and_clear();
    let (m, l) = counts.sockets();
    let live = counts.live.load(Ordering::Relaxed);
    let decisions = counts.acked_in_window.load(Ordering::Relaxed);
    // The seats stop acting and no new match opens; what is in flight is answered, and the
    // matches being opened finish opening.
    let _ = quiet_tx.send(true);
    let settled = Instant::now();
    while (counts.in_flight.load(Ordering::Relaxed) > 0
        || counts.opening.load(Ordering::Relaxed) > 0)
        && settled.elapsed() < Duration::from_secs(10)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut latencies = counts
        .latencies
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    latencies.sort_unstable();
    let measured = Measured {
        live,
        sockets: m + l,
        decisions,
        window: elapsed,
        latencies,
        coded: counts.coded_errors(),
        failures: counts
            .failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone(),
        finished: counts.finished.load(Ordering::Relaxed),
        rss_idle,
        rss_loaded,
        cpu: cpu_before.zip(cpu_after).map(|(a, b)| b - a),
        ramp,
    };
    Held {
        stop,
        tasks,
        counts,
        measured,
    }
}

/// `plateau load --pace human`: the load against the server (at `--addr`, or spawned here on
/// `db`), then against the `null_server` example if given; prints one row for each, and the
/// comparison of the server's `/metrics` with the client's counts if asked.
pub(super) async fn main(args: &super::Args, db: &std::path::Path) -> crate::common::CliResult {
    if !(args.think_min >= 0.0 && args.think_max >= args.think_min && args.think_max <= 3600.0) {
        return Err("--think-min and --think-max: 0 <= min <= max <= 3600 seconds".into());
    }
    if !(args.ping_every >= 0.1 && args.ramp_rate > 0.0) {
        return Err("--ping-every is at least 0.1 s, --ramp-rate above 0".into());
    }
    if !(args.lobby_per_match >= 0.0 && args.spectators_per_match >= 0.0) {
        return Err("--lobby-per-match and --spectators-per-match are 0 or more".into());
    }
    let pace = Pace {
        matches: args.matches,
        game: args.game.clone(),
        seats: args.seats,
        think: (args.think_min, args.think_max),
        ping_every: args.ping_every,
        lobby_per_match: args.lobby_per_match,
        spectators_per_match: args.spectators_per_match,
        ramp_rate: args.ramp_rate,
        sources: args.sources,
        strangers: args.strangers,
        seconds: args.seconds,
        seed: args.seed,
    };
    println!(
        "{} matches of {} ({} seats), each seat thinking uniformly {}-{} s (seed {}); every \
         socket pings every {} s; {} lobby sockets and {} spectators per match; {} sockets in \
         all from {} client addresses; ramp {} matches/s; window {} s",
        pace.matches,
        pace.game,
        pace.seats,
        pace.think.0,
        pace.think.1,
        pace.seed,
        pace.ping_every,
        pace.lobby_per_match,
        pace.spectators_per_match,
        pace.sockets(),
        pace.sources,
        pace.ramp_rate,
        pace.seconds
    );
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut agreed = true;
    {
        let (server, metrics) = match args.addr {
            Some(addr) => (
                super::Server {
                    addr,
                    pid: args.server_pid,
                    child: None,
                    db: None,
                },
                args.metrics_addr,
            ),
            None => {
                let metrics = free_port()?;
                let mut extra = vec!["--metrics-listen".to_owned(), metrics.to_string()];
                for i in 0..usize::from(pace.sources) {
                    extra.push("--exempt-address".to_owned());
                    extra.push(source(i, pace.sources).to_string());
                }
                (super::spawn(db, &extra)?, Some(metrics))
            }
        };
        let target = Target {
            addr: server.addr,
            pid: server.pid,
        };
        let held = run(&pace, target).await;
        if args.check_metrics {
            let Some(metrics) = metrics else {
                return Err("--check-metrics needs --metrics-addr with --addr".into());
            };
            agreed = compare(metrics, &held.counts).await?;
        }
        let Held { measured, .. } = &held;
        rows.push(("plateau", row(measured, pace.matches)));
        notes.push(details("plateau", measured));
        let plateau_cpu = per_decision(measured);
        held.close().await;
        drop(server);
        if let Some(binary) = &args.null_server {
            let null = spawn_null(binary)?;
            let held = run(
                &Pace {
                    strangers: 0,
                    ..pace.clone()
                },
                Target {
                    addr: null.addr,
                    pid: null.pid,
                },
            )
            .await;
            rows.push(("null_server", row(&held.measured, pace.matches)));
            notes.push(details("null_server", &held.measured));
            let null_cpu = per_decision(&held.measured);
            held.close().await;
            drop(null);
            print_rows(&rows);
            if let (Some(p), Some(n)) = (plateau_cpu, null_cpu) {
                println!(
                    "server CPU per decision, plateau over null_server: {:.2}",
                    p / n
                );
            }
        } else {
            print_rows(&rows);
        }
    }
    for n in notes {
        println!("{n}");
    }
    println!("load average: {}", load_average());
    if agreed {
        Ok(())
    } else {
        Err("the server's /metrics and the client's counts differ (above)".into())
    }
}

/// A free port of 127.0.0.1 (bound and released).
fn free_port() -> Result<SocketAddr, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())
}

/// Starts the `null_server` example's `binary` on a free port and waits for its `/health`.
fn spawn_null(binary: &std::path::Path) -> Result<super::Server, String> {
    let addr = free_port()?;
    let child = std::process::Command::new(binary)
        .arg(addr.port().to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let server = super::Server {
        addr,
        pid: Some(child.id()),
        child: Some(child),
        db: None,
    };
    super::wait_healthy(addr, Duration::from_secs(30))?;
    Ok(server)
}

/// Server CPU seconds per decision of a run, if both are known.
fn per_decision(m: &Measured) -> Option<f64> {
    m.cpu
        .filter(|_| m.decisions > 0)
        .map(|c| c / m.decisions as f64)
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The cells of one server's row.
fn row(m: &Measured, matches: usize) -> Vec<String> {
    let q = |p: f64| format!("{:.2}", super::quantile_ms(&m.latencies, p));
    let errors: u64 = m.coded.values().sum::<u64>() + m.failures.values().sum::<u64>();
    let mib = |k: u64| format!("{:.0}", k as f64 / 1024.0);
    let delta = m
        .rss_idle
        .zip(m.rss_loaded)
        .map(|(a, b)| b.saturating_sub(a));
    let (rss, per_socket, per_match) = match delta {
        Some(d) => (
            format!(
                "{} / {}",
                mib(m.rss_idle.unwrap_or(0)),
                mib(m.rss_loaded.unwrap_or(0))
            ),
            format!("{:.1}", d as f64 / m.sockets.max(1) as f64),
            format!("{:.1}", d as f64 / matches.max(1) as f64),
        ),
        None => ("?".into(), "?".into(), "?".into()),
    };
    let (cpu, per_dec, per_socket_cpu) = match m.cpu {
        Some(c) => (
            format!("{:.1}", 100.0 * c / m.window),
            per_decision(m).map_or("?".into(), |s| format!("{:.0}", s * 1e6)),
            // µs of CPU per socket per second held.
            format!("{:.2}", 1e6 * c / m.window / m.sockets.max(1) as f64),
        ),
        None => ("?".into(), "?".into(), "?".into()),
    };
    vec![
        m.live.to_string(),
        m.sockets.to_string(),
        format!("{:.0}", m.decisions as f64 / m.window),
        q(0.5),
        q(0.99),
        q(1.0),
        errors.to_string(),
        rss,
        per_socket,
        per_match,
        cpu,
        per_dec,
        per_socket_cpu,
        format!("{:.0}", m.ramp),
    ]
}

/// A run's matches finished and errors by kind, under the table.
fn details(name: &str, m: &Measured) -> String {
    let mut line = format!("{name}: {} matches finished", m.finished);
    for (why, n) in m.coded.iter().chain(&m.failures) {
        line.push_str(&format!("; {n} x {why}"));
    }
    line
}

/// The table of the rows.
fn print_rows(rows: &[(&str, Vec<String>)]) {
    println!(
        "| server | live matches | sockets | decisions/s | ack p50 ms | p99 ms | max ms | errors \
         | RSS idle / loaded MiB | KiB per socket | KiB per match | CPU % | CPU µs per decision \
         | CPU µs per socket-second | ramp s |"
    );
    println!("|---|{}", "---:|".repeat(14));
    for (name, cells) in rows {
        println!("| {name} | {} |", cells.join(" | "));
    }
}

/// Reads the server's `/metrics` at `addr` and prints each counter beside the client's count;
/// whether they all agree.
async fn compare(addr: SocketAddr, counts: &Counts) -> Result<bool, String> {
    let text = scrape(addr).await?;
    let server = |name: &str, label: Option<(&str, &str)>| figure(&text, name, label);
    let coded = counts.coded_errors();
    let limits: u64 = coded
        .iter()
        .filter(|(c, _)| c.starts_with("limit/"))
        .map(|(_, n)| n)
        .sum();
    let (match_sockets, lobby_sockets) = counts.sockets();
    let rows: Vec<(String, f64, f64)> = vec![
        (
            "decisions committed".into(),
            counts.acked_total() as f64,
            server("plateau_decisions_committed_total", None),
        ),
        (
            "matches created".into(),
            counts.created() as f64,
            server("plateau_matches_created_total", None),
        ),
        (
            "match sockets open".into(),
            match_sockets as f64,
            server("plateau_sockets_open", Some(("kind", "match"))),
        ),
        (
            "lobby sockets open".into(),
            lobby_sockets as f64,
            server("plateau_sockets_open", Some(("kind", "lobby"))),
        ),
        (
            "limit refusals".into(),
            limits as f64,
            server("plateau_limit_refusals_total", None),
        ),
        (
            "coded errors".into(),
            coded.values().sum::<u64>() as f64,
            server("plateau_errors_total", None),
        ),
    ]
    .into_iter()
    .chain(coded.iter().map(|(code, n)| {
        (
            format!("  errors {code}"),
            *n as f64,
            server("plateau_errors_total", Some(("code", code))),
        )
    }))
    .collect();
    println!("| /metrics at the window's end | client | server | |");
    println!("|---|---:|---:|---|");
    let mut agreed = true;
    for (what, client, server) in rows {
        let same = (client - server).abs() < 0.5;
        agreed &= same;
        println!(
            "| {what} | {client} | {server} | {} |",
            if same { "agree" } else { "DIFFER" }
        );
    }
    Ok(agreed)
}

/// `GET /metrics` at `addr`: the body.
async fn scrape(addr: SocketAddr) -> Result<String, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("metrics at {addr}: {e}"))?;
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n")
        .await
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw);
    match text.split_once("\r\n\r\n") {
        Some((head, body)) if head.starts_with("HTTP/1.1 200") => Ok(body.to_owned()),
        _ => Err(format!("metrics at {addr}: no 200 answer")),
    }
}

/// The sum of the samples of `name` in Prometheus's text format `text`, only those with the
/// label `label` if given (0 if none: a counter never incremented is not shown).
fn figure(text: &str, name: &str, label: Option<(&str, &str)>) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, labels) = match series.split_once('{') {
                Some((m, rest)) => (m, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            if metric != name {
                return None;
            }
            if let Some((k, v)) = label
                && !labels.split(',').any(|kv| kv == format!("{k}=\"{v}\""))
            {
                return None;
            }
            value.parse::<f64>().ok()
        })
        // From +0: an empty sum of floats is -0.
        .fold(0.0, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples are summed over their labels, or only those with the label asked for.
    #[test]
    fn figures_are_read_from_the_text_format() {
        let text = "# HELP plateau_errors_total Coded errors\n\
                    # TYPE plateau_errors_total counter\n\
                    plateau_errors_total{code=\"limit/matches\"} 3\n\
                    plateau_errors_total{code=\"act/stale\"} 2\n\
                    plateau_sockets_open{kind=\"match\"} 40\n\
                    plateau_sockets_open{kind=\"lobby\"} 7\n\
                    plateau_decisions_committed_total 1234\n";
        assert_eq!(figure(text, "plateau_errors_total", None), 5.0);
        assert_eq!(
            figure(text, "plateau_errors_total", Some(("code", "act/stale"))),
            2.0
        );
        assert_eq!(
            figure(text, "plateau_sockets_open", Some(("kind", "lobby"))),
            7.0
        );
        assert_eq!(
            figure(text, "plateau_decisions_committed_total", None),
            1234.0
        );
        assert_eq!(figure(text, "plateau_matches_created_total", None), 0.0);
    }

    /// The spectators are spread so that every prefix of tables has its share, and the total
    /// counts every socket.
    #[test]
    fn spectators_and_lobby_sockets_are_in_the_stated_proportions() {
        let pace = Pace {
            matches: 100,
            game: "moonleap".into(),
            seats: 2,
            think: (2.0, 20.0),
            ping_every: 4.0,
            lobby_per_match: 0.25,
            spectators_per_match: 0.1,
            ramp_rate: 100.0,
            sources: 8,
            strangers: 0,
            seconds: 10,
            seed: 1,
        };
        let spectators: usize = (0..100).map(|k| pace.spectators_of(k)).sum();
        assert_eq!(spectators, 10);
        assert_eq!(pace.spectators_of(9), 1);
        assert_eq!(pace.spectators_of(8), 0);
        assert_eq!(pace.sockets(), 200 + 10 + 25);
        assert_eq!(source(0, 8).to_string(), "127.0.2.1");
        assert_eq!(source(9, 8).to_string(), "127.0.2.2");
    }
}
