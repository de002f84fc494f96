//! One run of the human-pace load: the stranger's creations, the ramp, the window, and the
//! sockets held open until the figures are read.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::watch;

use super::counts::{Counts, Measured};
use super::pace::{Pace, STRANGER, Target};
use super::table::{lobby, table};
use super::wire::{Run, asked};
use crate::load::counters::sorted;
use crate::load::server::rss_kib;

/// The stranger's match creations: `n` asked for at once from an address the limits apply to.
async fn strangers(counts: &Counts, addr: SocketAddr, game: &str, seats: usize, n: usize) {
    let humans: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
    let body = json!({"game": game, "seats": humans});
    for _ in 0..n {
        // `asked` counts the matches created, and the refusals by their code.
        let _ = asked(counts, STRANGER, addr, "/api/matches", &body, 201).await;
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
    let latencies = sorted(&counts.latencies);
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

/// Resident memory and CPU time (user and system, s) of process `pid`, from `/proc`.
fn usage(pid: Option<u32>) -> (Option<u64>, Option<f64>) {
    let Some(pid) = pid else {
        return (None, None);
    };
    let rss = rss_kib(Some(pid));
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
