//! `plateau load`: a load generator for the match service on loopback (docs/reliability.md).
//!
//! M live matches of a chosen game and table size, every seat a WebSocket client; in each match
//! one action is in flight at a time, a random legal one, acknowledged when its seat gets a
//! `state` with a higher version; a finished match is replaced at once. After a ramp the window
//! opens for `--seconds`; the report gives decisions per second, latency percentiles, errors,
//! and the server's memory (RSS) per match and per socket. With `--flood` a second client address
//! creates matches and opens sockets as fast as it can meanwhile (what a stranger would do), with
//! `--idle N` N sockets that only ping are held open, with `--silent N` N sockets that never send
//! (the timeouts should close them), with `--bots N` N matches of bots alone play meanwhile (and
//! N more are asked for from one stranger's address, which its limit refuses), and with
//! `--abandon N` N matches are created and left unjoined, then the server is restarted to time its
//! start.
//!
//! With `--pace human` the seats think before they act, as people do (`human`: the server's
//! memory and CPU holding many slow matches, against the `null_server` example's with
//! `--null-server`, and its `/metrics` read against the client's counts with `--check-metrics`).
//!
//! The server is the one at `--addr` (loopback only), or one started here on a fresh SQLite file
//! with its per-address limits raised for the load, since every honest client of the load comes
//! from 127.0.0.1. The limits apply per address: the flooder, from 127.0.0.2, meets them.

mod client;
mod flood;
mod human;
mod tournament;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{CliResult, find_game};

/// Arguments of `plateau load`.
#[derive(clap::Args)]
pub struct Args {
    /// A running server on loopback; without it one is started here on a fresh SQLite file.
    #[arg(long)]
    addr: Option<SocketAddr>,
    /// The server's process id, to read its memory (a spawned server's is known).
    #[arg(long)]
    server_pid: Option<u32>,
    /// A second node of the same database (`plateau serve --node`, on loopback): each match is
    /// created through the first (which places it on a live node: docs/architecture.md section
    /// 5.3), and its seat `k` connects through node `k % 2`.
    #[arg(long, requires = "addr")]
    node: Option<SocketAddr>,
    /// Live matches at once.
    #[arg(long, default_value_t = 100)]
    matches: usize,
    /// The game (registry name).
    #[arg(long, default_value = "moonleap")]
    game: String,
    /// Seats per match (people, no bots).
    #[arg(long, default_value_t = 2)]
    seats: usize,
    /// Seconds of the measured window (at most 3600).
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Also flood the server from another client address: matches and sockets as fast as it can.
    #[arg(long)]
    flood: bool,
    /// Also hold this many lobby sockets that ping every 20 s, as idle pages do.
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// Also open this many sockets that never send anything (half bare TCP, half WebSockets),
    /// from many client addresses; the report says when the server closed them. Make
    /// `--seconds` longer than the WebSocket idle timeout (60 s) to see those close.
    #[arg(long, default_value_t = 0)]
    silent: usize,
    /// Also run this many matches of bots alone meanwhile (two seats of `--bot` at
    /// `--bot-game`), after asking for as many from one stranger's address.
    #[arg(long, default_value_t = 0)]
    bots: usize,
    /// The bot of `--bots` matches (a catalogue name: random, greedy, beginner, club, expert).
    #[arg(long, default_value = "expert")]
    bot: String,
    /// The game of `--bots` matches.
    #[arg(long, default_value = "chakart")]
    bot_game: String,
    /// Instead of playing: create this many matches, leave them unjoined, then restart the
    /// (spawned) server and time its start.
    #[arg(long)]
    abandon: Option<usize>,
    /// Instead of playing matches: this many players join one Swiss of `--game` and play its
    /// rounds through the server; the report times the results reaching the standings and the
    /// next round's pairing.
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    tournament_players: Option<u64>,
    /// Rounds of the `--tournament-players` Swiss.
    #[arg(long, default_value_t = 3)]
    tournament_rounds: u32,
    /// Seed of the clients' random choices (and of the think times).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the seats play: `closed`, each match acts again the instant it is acknowledged;
    /// `human`, each seat thinks first (the flags below); the other loads are closed-loop only.
    #[arg(long, value_enum, default_value_t = PaceKind::Closed)]
    pace: PaceKind,
    /// Human pace: the shortest think before an action, seconds (uniform up to `--think-max`).
    #[arg(long, default_value_t = 2.0)]
    think_min: f64,
    /// Human pace: the longest think, seconds.
    #[arg(long, default_value_t = 20.0)]
    think_max: f64,
    /// Human pace: seconds between two `ping` messages of each socket (the pages' 4 s).
    #[arg(long, default_value_t = 4.0)]
    ping_every: f64,
    /// Human pace: lobby sockets per live match (each pings, and reads the lobby's counts).
    #[arg(long, default_value_t = 0.25)]
    lobby_per_match: f64,
    /// Human pace: spectators' sockets per live match.
    #[arg(long, default_value_t = 0.1)]
    spectators_per_match: f64,
    /// Human pace: matches opened per second during the ramp.
    #[arg(long, default_value_t = 200.0)]
    ramp_rate: f64,
    /// Human pace: the client addresses 127.0.2.1 to 127.0.2.N the sockets come from (a
    /// spawned server exempts them from the limits per address; give a server of `--addr` an
    /// `--exempt-address` for each).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=250))]
    sources: u8,
    /// Human pace: match creations asked for at once from a stranger's address (127.0.3.1)
    /// before the ramp: the limits per address refuse most, which `--check-metrics` counts.
    #[arg(long, default_value_t = 0)]
    strangers: usize,
    /// Human pace: after the load, the same load against this binary of the `null_server`
    /// example (a server doing no work), spawned here, for the ratio of CPU per decision.
    #[arg(long)]
    null_server: Option<std::path::PathBuf>,
    /// Human pace: the `/metrics` address of the server at `--addr` (a spawned server gets one).
    #[arg(long, requires = "addr")]
    metrics_addr: Option<SocketAddr>,
    /// Human pace: at the window's end, with every socket still open and no action in flight,
    /// read the server's `/metrics` and compare its counters with the client's own counts;
    /// a difference fails the command.
    #[arg(long)]
    check_metrics: bool,
}

/// How the seats of `plateau load` play.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PaceKind {
    /// Each match acts again the instant its action is acknowledged.
    Closed,
    /// Each seat thinks a random time first.
    Human,
}

/// The server under load: its address, and its process when spawned here.
struct Server {
    addr: SocketAddr,
    pid: Option<u32>,
    child: Option<Child>,
    db: Option<std::path::PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(db) = &self.db {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
        }
    }
}

/// Starts `plateau serve` (this binary) on a free port over `db`, the load's address 127.0.0.1
/// exempt from the limits per address (every other keeps them), and waits until `/health`
/// answers.
fn spawn(db: &std::path::Path, extra: &[String]) -> Result<Server, String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let child = Command::new(exe)
        .args(["serve", "--addr", &addr.to_string(), "--database"])
        .arg(db)
        .args([
            "--scheduled-tournaments",
            "false",
            "--bot-delay-ms",
            "0",
            "--max-connections",
            "100000",
            "--exempt-address",
            "127.0.0.1",
        ])
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start plateau serve: {e}"))?;
    let pid = child.id();
    let server = Server {
        addr,
        pid: Some(pid),
        child: Some(child),
        db: Some(db.to_owned()),
    };
    wait_healthy(addr, Duration::from_secs(120))?;
    Ok(server)
}

/// Waits until `GET /health` answers 200; returns how long it took.
fn wait_healthy(addr: SocketAddr, within: Duration) -> Result<Duration, String> {
    let start = Instant::now();
    while start.elapsed() < within {
        if let Ok(mut s) = std::net::TcpStream::connect(addr) {
            use std::io::{Read, Write};
            let _ = s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut out = String::new();
            let _ = s.read_to_string(&mut out);
            if out.starts_with("HTTP/1.1 200") {
                return Ok(start.elapsed());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(format!(
        "the server at {addr} did not answer within {within:?}"
    ))
}

/// Resident memory of process `pid` in KiB (Linux `/proc`), if readable.
fn rss_kib(pid: Option<u32>) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// The counters of a run, shared by every table's task.
#[derive(Default)]
pub struct Counters {
    acked: AtomicU64,
    failed: AtomicU64,
    finished: AtomicU64,
    latencies: Mutex<Vec<u64>>,
    /// From an action sent to every other seat having had a state, µs.
    seen: Mutex<Vec<u64>>,
    failures: Mutex<std::collections::BTreeMap<String, u64>>,
    /// Whether the window is open (latencies before it are the ramp's).
    measuring: std::sync::atomic::AtomicBool,
}

impl client::Report for Counters {
    fn acked(&self, micros: u64) {
        if self.measuring.load(Ordering::Relaxed) {
            self.acked.fetch_add(1, Ordering::Relaxed);
            self.latencies
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(micros);
        }
    }

    fn seen(&self, micros: u64) {
        if self.measuring.load(Ordering::Relaxed) {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(micros);
        }
    }

    fn failed(&self, why: &str) {
        if self.measuring.load(Ordering::Relaxed) {
            self.failed.fetch_add(1, Ordering::Relaxed);
            *self
                .failures
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(why.to_owned())
                .or_default() += 1;
        }
    }

    fn finished(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}

/// The `q` quantile (0 to 1) of sorted `v`, in milliseconds.
fn quantile_ms(v: &[u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    v[i] as f64 / 1000.0
}

/// Runs the load and prints its report.
pub fn run(args: Args) -> CliResult {
    if args.seconds == 0 || args.seconds > 3600 {
        return Err("--seconds is 1 to 3600".into());
    }
    if args.matches == 0 {
        return Err("--matches must be at least 1".into());
    }
    // The game and its table size, checked before any server starts.
    find_game(&args.game)?
        .new_game(&serde_json::json!({}), args.seats)
        .map_err(|e| format!("--game {} --seats {}: {e}", args.game, args.seats))?;
    if let Some(addr) = args
        .addr
        .iter()
        .chain(&args.node)
        .find(|a| !a.ip().is_loopback())
    {
        return Err(format!(
            "{addr}: plateau load only loads a server on loopback"
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start tokio: {e}"))?;
    let dir = std::env::temp_dir().join(format!("plateau-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = dir.join("plateau.sqlite");
    if args.pace == PaceKind::Human {
        let result = runtime.block_on(human::main(&args, &db));
        let _ = std::fs::remove_dir_all(&dir);
        return result;
    }
    let mut server = match args.addr {
        Some(addr) => Server {
            addr,
            pid: args.server_pid,
            child: None,
            db: None,
        },
        None => {
            let extra: Vec<String> = args
                .tournament_players
                .iter()
                .flat_map(|n| ["--tournament-players".to_owned(), n.to_string()])
                .collect();
            spawn(&db, &extra)?
        }
    };
    let result = match (args.abandon, args.tournament_players) {
        (Some(n), _) => runtime.block_on(abandon(&mut server, n)),
        (None, Some(players)) => runtime.block_on(tournament::run(
            server.addr,
            &args.game,
            usize::try_from(players).unwrap_or(usize::MAX),
            args.tournament_rounds,
            args.seed,
        )),
        (None, None) => runtime.block_on(play(&server, &args)),
    };
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The main load: tables playing, optionally a flooder and idle sockets.
async fn play(server: &Server, args: &Args) -> CliResult {
    let counters = Arc::new(Counters::default());
    let rss_before = rss_kib(server.pid);
    // The idle sockets first: the window counts from when they are all open.
    let idle = flood::hold_idle(server.addr, args.idle).await;
    let ramp = Duration::from_secs(3 + args.matches as u64 / 100);
    let until = Instant::now() + ramp + Duration::from_secs(args.seconds);
    let from = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut tasks = Vec::new();
    for k in 0..args.matches {
        let rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003) + k as u64);
        let report: Arc<dyn client::Report> = counters.clone();
        let mut nodes = vec![server.addr];
        nodes.extend(args.node);
        tasks.push(tokio::spawn(client::play_table(
            from,
            nodes,
            args.game.clone(),
            args.seats,
            until,
            rng,
            report,
        )));
    }
    let silent = flood::hold_silent(server.addr, args.silent, until).await;
    let bots = if args.bots > 0 {
        Some(flood::bot_matches(server.addr, from, &args.bot_game, &args.bot, args.bots).await)
    } else {
        None
    };
    let flooder = args
        .flood
        .then(|| tokio::spawn(flood::flood(server.addr, until)));
    tokio::time::sleep(ramp).await;
    counters.measuring.store(true, Ordering::Relaxed);
    let rss_ramped = rss_kib(server.pid);
    let bar = ProgressBar::new(args.seconds);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let mut peak_rss = rss_ramped.unwrap_or(0);
    for s in 1..=args.seconds {
        tokio::time::sleep_until((started + Duration::from_secs(s)).into()).await;
        let done = counters.acked.load(Ordering::Relaxed);
        peak_rss = peak_rss.max(rss_kib(server.pid).unwrap_or(0));
        bar.set_position(s);
        bar.set_message(format!("{:.0} decisions/s", done as f64 / s as f64));
    }
    counters.measuring.store(false, Ordering::Relaxed);
    let window = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let flood_report = match flooder {
        Some(task) => Some(task.await.map_err(|e| e.to_string())?),
        None => None,
    };
    for t in tasks {
        t.abort();
    }
    let acked = counters.acked.load(Ordering::Relaxed);
    let mut lat = counters
        .latencies
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    lat.sort_unstable();
    let mut seen = counters
        .seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    seen.sort_unstable();
    println!(
        "{} matches of {} ({} seats), {:.0} s window after a {:.0} s ramp",
        args.matches,
        args.game,
        args.seats,
        window,
        ramp.as_secs_f64()
    );
    println!(
        "decisions: {acked} ({:.0}/s); latency ms p50 {:.2}, p99 {:.2}, p99.9 {:.2}, max {:.2}",
        acked as f64 / window,
        quantile_ms(&lat, 0.5),
        quantile_ms(&lat, 0.99),
        quantile_ms(&lat, 0.999),
        quantile_ms(&lat, 1.0)
    );
    if !seen.is_empty() {
        let through = if args.node.is_some() {
            " (half of them through the other node)"
        } else {
            ""
        };
        println!(
            "seen by every other seat{through}: ms p50 {:.2}, p99 {:.2}, p99.9 {:.2}, max {:.2}",
            quantile_ms(&seen, 0.5),
            quantile_ms(&seen, 0.99),
            quantile_ms(&seen, 0.999),
            quantile_ms(&seen, 1.0)
        );
    }
    let failed = counters.failed.load(Ordering::Relaxed);
    println!(
        "matches finished: {}; errors: {failed}",
        counters.finished.load(Ordering::Relaxed)
    );
    for (why, n) in counters
        .failures
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        println!("  {n} x {why}");
    }
    if acked == 0 && failed > 0 {
        return Err("no decision was made: every match failed (the errors above)".into());
    }
    if let (Some(before), Some(ramped)) = (rss_before, rss_ramped) {
        let sockets = args.matches * args.seats + idle.len();
        println!(
            "server RSS: {before} KiB idle, {ramped} KiB loaded, peak {peak_rss} KiB; \
             {:.1} KiB per match, {:.1} KiB per socket",
            ramped.saturating_sub(before) as f64 / args.matches as f64,
            ramped.saturating_sub(before) as f64 / sockets as f64
        );
    }
    if !idle.is_empty() {
        println!("idle sockets held: {}", idle.len());
    }
    if let Some(f) = flood_report {
        println!("{f}");
    }
    if args.silent > 0 {
        println!("{}", silent.await.map_err(|e| e.to_string())?);
    }
    if let Some(b) = bots {
        println!("{b}");
    }
    Ok(())
}

/// How long `--abandon` waits before it counts the matches left in memory: past the default
/// idle time (60 s) and a sweep of the idle matches.
const UNLOAD_WAIT: Duration = Duration::from_secs(75);

/// Creates `n` matches nobody joins, waits for the idle ones to leave memory, then restarts the
/// spawned server and times its start.
async fn abandon(server: &mut Server, n: usize) -> CliResult {
    let from = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let before = rss_kib(server.pid);
    let bar = ProgressBar::new(n as u64);
    let body = serde_json::json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]});
    let mut made = 0u64;
    let chunk = 64;
    let mut k = 0;
    while k < n {
        let batch: Vec<_> = (k..(k + chunk).min(n))
            .map(|_| {
                let body = body.clone();
                let addr = server.addr;
                tokio::spawn(async move {
                    client::request(from, addr, "POST", "/api/matches", Some(&body)).await
                })
            })
            .collect();
        for t in batch {
            if let Ok(Ok((201, _))) = t.await {
                made += 1;
            }
        }
        k += chunk;
        bar.set_position(k.min(n) as u64);
    }
    bar.finish_and_clear();
    let after = rss_kib(server.pid);
    println!("{made} of {n} matches created and left unjoined");
    if let (Some(b), Some(a)) = (before, after) {
        println!("server RSS: {b} KiB before, {a} KiB after");
    }
    // Matches nobody watches leave memory after the idle time (60 s by default).
    let in_memory = |addr| async move {
        client::request(from, addr, "GET", "/health", None)
            .await
            .ok()
            .map(|(_, h)| h["matches_in_memory"].clone())
            .unwrap_or_default()
    };
    println!("matches in memory: {}", in_memory(server.addr).await);
    let wait = ProgressBar::new(UNLOAD_WAIT.as_secs());
    for s in 1..=UNLOAD_WAIT.as_secs() {
        tokio::time::sleep(Duration::from_secs(1)).await;
        wait.set_position(s);
    }
    wait.finish_and_clear();
    println!(
        "after {} s: matches in memory {}, server RSS {} KiB",
        UNLOAD_WAIT.as_secs(),
        in_memory(server.addr).await,
        rss_kib(server.pid).unwrap_or(0)
    );
    let Some(db) = server.db.clone() else {
        return Ok(());
    };
    if let Some(child) = &mut server.child {
        let _ = child.kill();
        let _ = child.wait();
    }
    let started = Instant::now();
    let restarted = spawn(&db, &[])?;
    let took = started.elapsed();
    println!(
        "restart: listening and healthy after {:.2} s; RSS {} KiB",
        took.as_secs_f64(),
        rss_kib(restarted.pid).unwrap_or(0)
    );
    *server = restarted;
    Ok(())
}
