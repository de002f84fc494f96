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

mod args;
mod client;
mod counters;
mod flood;
mod human;
mod server;
mod tournament;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use args::Args;
use args::PaceKind;
use counters::{Counters, quantile_ms, sorted};
use server::{Server, rss_kib, spawn};

use crate::common::{CliResult, find_game};

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
    let lat = sorted(&counters.latencies);
    let seen = sorted(&counters.seen);
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
