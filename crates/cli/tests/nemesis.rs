//! A fault-injection test in the manner of Jepsen (docs/reliability.md, "The nemesis"): two
//! nodes of `plateau serve` on a PostgreSQL server of the test's own, each reaching it through a
//! TCP relay the test owns, while clients play MAD matches through both nodes (some sockets
//! forwarded) and record every `state` they are shown with the time. A nemesis, on a schedule
//! drawn from a seed, stops nodes (SIGSTOP, then SIGCONT), kills and restarts them, pauses the
//! relays (one node cut off from the database, or both) and restarts PostgreSQL, one fault at a
//! time. At the end a checker reads every match's stored log and proves, per match: every
//! history any client was shown is a prefix of the stored log (no fork); no client was shown a
//! version older than one any client had been shown before it asked (no stale read); every
//! action acknowledged to its seat is stored; and after each fault every match in play moved
//! again (the longest time it stood still is printed per fault, against the lease time plus 2 s).
//!
//! `PLATEAU_NEMESIS_SECONDS` (default 150) is how long the nemesis runs, `PLATEAU_NEMESIS_SEED`
//! the seed (default 20261205, so CI draws the same schedule every run; printed either way, so a
//! failure reproduces its schedule). Needs `PLATEAU_TEST_PG_BIN` (scripts/postgres-throwaway.sh exports it); without it
//! the test says so and passes without running.

use crate::common;

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use futures_util::{SinkExt, StreamExt};
use plateau_engine::Record;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, UnixStream};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use common::{OwnPostgres, Server, signal, start_node, try_http, try_new_match};

/// The lease time of docs/architecture.md section 5.3 (`cluster::LEASE_TTL`).
const LEASE: Duration = Duration::from_secs(3);
/// The lease time plus 2 s: the longest a match should stand still after a fault (counted and
/// printed, not asserted: a node starved of the CPU lets its leases lapse).
const FROZEN_BOUND: Duration = Duration::from_secs(LEASE.as_secs() + 2);
/// A match that has not moved this long after a fault is stuck: the test fails.
const STUCK: Duration = Duration::from_secs(60);
/// Matches in play at once.
const TABLES: usize = 6;

/// A TCP relay between one node and the database's Unix socket. Paused, it moves no byte on
/// its connections and closes new ones at once, as a network partition would.
struct Relay {
    addr: SocketAddr,
    paused: watch::Sender<bool>,
}

impl Relay {
    async fn start(socket: PathBuf) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (paused, _) = watch::channel(false);
        let watching = paused.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                if *watching.borrow() {
                    continue;
                }
                let Ok(unix) = UnixStream::connect(&socket).await else {
                    continue;
                };
                let (tcp_in, tcp_out) = tcp.into_split();
                let (unix_in, unix_out) = unix.into_split();
                let (up, down) = (watching.subscribe(), watching.subscribe());
                // Both ways until either ends; then both halves drop, closing both sides.
                tokio::spawn(async move {
                    tokio::select! {
                        () = relay(tcp_in, unix_out, up) => {}
                        () = relay(unix_in, tcp_out, down) => {}
                    }
                });
            }
        });
        Relay { addr, paused }
    }

    fn pause(&self, paused: bool) {
        self.paused.send_replace(paused);
    }
}

/// Copies `from` to `to`, holding what it read while the relay is paused.
async fn relay(
    mut from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    mut paused: watch::Receiver<bool>,
) {
    let mut buf = vec![0; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if paused.wait_for(|p| !*p).await.is_err() || to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// One `state` a client was shown.
struct Shown {
    conn: u64,
    /// When its connection was asked for.
    asked: Instant,
    /// When it arrived, and the wall time then (for the report).
    at: Instant,
    wall: SystemTime,
    version: u64,
    /// Its history: its length and the hash of it (`step` over the entries' texts).
    len: usize,
    prefix: u64,
}

/// What the clients of one match saw.
#[derive(Default)]
struct Seen {
    shown: Vec<Shown>,
    /// Actions acknowledged to their seat: their place in the log and their text.
    acked: Vec<(usize, String)>,
    /// Each time the match moved (a version higher than any shown before): when, and to what.
    moves: Vec<(Instant, u64)>,
    finished: bool,
    /// What a client found wrong in what it was sent (a delta it could not place).
    wrong: Vec<String>,
}

#[derive(Default)]
struct Log {
    matches: HashMap<String, Seen>,
    /// Matches played to their end, in the order they ended.
    ended: Vec<String>,
}

type Shared = Arc<Mutex<Log>>;
type Addrs = Arc<RwLock<[SocketAddr; 2]>>;

/// When the clients stop: none while the nemesis runs; once it is over, no new match starts and
/// a client gives up on its match after a while (the checker then finds the match unfinished).
#[derive(Clone)]
struct End {
    began: Instant,
    /// Milliseconds after `began` at which clients give up; `u64::MAX` while the nemesis runs.
    give_up: Arc<AtomicU64>,
}

impl End {
    fn over(&self) -> bool {
        self.give_up.load(Ordering::Relaxed) != u64::MAX
    }

    fn given_up(&self) -> bool {
        self.began.elapsed().as_millis() as u64 > self.give_up.load(Ordering::Relaxed)
    }

    /// The nemesis is over: clients give up after `grace`.
    fn call(&self, grace: Duration) {
        let at = (self.began.elapsed() + grace).as_millis() as u64;
        self.give_up.store(at, Ordering::Relaxed);
    }
}

/// The hash of a history one entry longer.
fn step(prefix: u64, text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    (prefix, text).hash(&mut h);
    h.finish()
}

/// How one connection ended.
enum Ended {
    Finished,
    Dropped,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens match `id`'s socket at `addr` (a seat's with `token`) and waits for its first `state`
/// (returned with when it came);
/// `Err` when the node refuses, closes, or says nothing for twice the lease (a node may wait out
/// another's lease before it answers, docs/architecture.md section 5.3).
async fn open(
    addr: SocketAddr,
    id: &str,
    token: Option<&str>,
) -> Result<(Socket, Value, Instant), ()> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/api/matches/{id}/ws")
        .into_client_request()
        .unwrap();
    if let Some(t) = token {
        request
            .headers_mut()
            .insert("Authorization", format!("Bearer {t}").parse().unwrap());
    }
    let opened = async {
        let (mut ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(drop)?;
        while let Some(Ok(frame)) = ws.next().await {
            let Message::Text(text) = frame else { continue };
            let msg: Value = serde_json::from_str(&text).unwrap();
            match msg["type"].as_str() {
                Some("state") => return Ok((ws, msg, Instant::now())),
                Some("error") => return Err(()),
                _ => {}
            }
        }
        Err(())
    };
    tokio::time::timeout(LEASE * 2, opened)
        .await
        .map_err(drop)
        .flatten()
}

/// One connection to match `id` (a seat's with `token`, else a spectator's), to the first node
/// of `addrs` that shows it, each tried after its delay (the others are dropped: a load
/// balancer's choice of a live node):
/// records every `state`, plays a random legal action for its seat whenever it may; returns
/// when the match is finished or the connection fails (refused, closed, or silent for 2 s: a
/// stopped node), or, when `once`, after the first `state` (a read).
async fn session(
    addrs: &[(SocketAddr, Duration)],
    id: &str,
    token: Option<&str>,
    rng: &mut ChaCha8Rng,
    log: &Shared,
    conn: u64,
    once: bool,
) -> Ended {
    let asked = Instant::now();
    let opens = addrs.iter().map(|&(addr, delay)| {
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            open(addr, id, token).await
        })
    });
    let Ok(((mut ws, first_state, came), _)) = futures_util::future::select_ok(opens).await else {
        return Ended::Dropped;
    };
    let mut next = Some((first_state, came));
    let mut texts: Vec<String> = Vec::new();
    let mut bys: Vec<Value> = Vec::new();
    let mut hashes: Vec<u64> = vec![0];
    let mut seat: Option<u64> = None;
    // The history's length when this seat sent an action, until it is answered.
    let mut pending: Option<usize> = None;
    let mut first = true;
    loop {
        let (msg, at) = match next.take() {
            Some(first) => first,
            None => match tokio::time::timeout(Duration::from_secs(2), ws.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => (
                    serde_json::from_str::<Value>(&text).unwrap(),
                    Instant::now(),
                ),
                Ok(Some(Ok(_))) => continue,
                _ => return Ended::Dropped,
            },
        };
        if msg["type"] == "error" {
            pending = None;
            continue;
        }
        if msg["type"] != "state" {
            continue;
        }
        if let Some(s) = msg["seat"].as_u64() {
            seat = Some(s);
        }
        let whole = msg["snapshot"] == true;
        let from = msg["moves_from"].as_u64().unwrap() as usize;
        if !whole && (first || from > texts.len()) {
            let mut log = log.lock().unwrap();
            let seen = log.matches.entry(id.to_owned()).or_default();
            seen.wrong.push(format!(
                "connection {conn}: a delta from {from} after {} moves (first: {first})",
                texts.len()
            ));
            return Ended::Dropped;
        }
        let keep = if whole { 0 } else { from };
        texts.truncate(keep);
        bys.truncate(keep);
        hashes.truncate(keep + 1);
        for m in msg["moves"].as_array().unwrap() {
            let text = m["text"].as_str().unwrap();
            hashes.push(step(*hashes.last().unwrap(), text));
            texts.push(text.to_owned());
            bys.push(m["by"].clone());
        }
        let version = msg["version"].as_u64().unwrap();
        let finished = msg["status"] == "finished";
        {
            let mut log = log.lock().unwrap();
            let seen = log.matches.entry(id.to_owned()).or_default();
            if let (Some(p), Some(s)) = (pending, seat)
                && texts.len() > p
            {
                if bys[p] == json!({"seat": s}) {
                    seen.acked.push((p, texts[p].clone()));
                }
                pending = None;
            }
            seen.shown.push(Shown {
                conn,
                asked,
                at,
                wall: SystemTime::now(),
                version,
                len: texts.len(),
                prefix: hashes[texts.len()],
            });
            if seen.moves.last().is_none_or(|&(_, v)| version > v) {
                seen.moves.push((at, version));
            }
            seen.finished |= finished;
        }
        first = false;
        if finished {
            return Ended::Finished;
        }
        if once {
            return Ended::Dropped;
        }
        let legal = msg["legal"].as_array().unwrap();
        if token.is_some() && !legal.is_empty() && pending.is_none() {
            tokio::time::sleep(Duration::from_millis(rng.random_range(5..25))).await;
            let action = legal[rng.random_range(0..legal.len())].clone();
            let act = json!({"type": "act", "version": version, "action": action});
            if ws
                .send(Message::Text(act.to_string().into()))
                .await
                .is_err()
            {
                return Ended::Dropped;
            }
            pending = Some(texts.len());
        }
    }
}

/// What every client shares: the nodes' addresses, the log, the connections' count, the end.
#[derive(Clone)]
struct Run {
    addrs: Addrs,
    log: Shared,
    conns: Arc<AtomicU64>,
    end: End,
}

/// A client of match `id`: connections one after another until the match is finished, the first
/// to node `prefer` (to the other too if `prefer` has not shown the match within a second),
/// each next one to both nodes (as a page retries behind a load balancer, which sends it to a
/// live node), or until the clients give up (`End`).
async fn client(run: Run, prefer: usize, id: String, token: Option<String>, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for attempt in 0.. {
        let addrs = *run.addrs.read().unwrap();
        let hedge = if attempt == 0 {
            Duration::from_secs(1)
        } else {
            Duration::ZERO
        };
        let to = [(addrs[prefer], Duration::ZERO), (addrs[1 - prefer], hedge)];
        let conn = run.conns.fetch_add(1, Ordering::Relaxed);
        let ended = session(&to, &id, token.as_deref(), &mut rng, &run.log, conn, false).await;
        if matches!(ended, Ended::Finished) || run.end.given_up() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A reader of match `id` through node `node` alone: a fresh connection every 250 to 750 ms,
/// only its first `state` taken (so a node that wakes from a stall is asked at once), until the
/// match is finished or the clients give up.
async fn reader(run: Run, node: usize, id: String, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let addr = run.addrs.read().unwrap()[node];
        let conn = run.conns.fetch_add(1, Ordering::Relaxed);
        let ended = session(
            &[(addr, Duration::ZERO)],
            &id,
            None,
            &mut rng,
            &run.log,
            conn,
            true,
        )
        .await;
        if matches!(ended, Ended::Finished) || run.end.given_up() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(rng.random_range(250..750))).await;
    }
}

/// Table `k`: new matches one after another until the nemesis is over (the last one played to
/// its end), each with a spectator and its seats' clients spread over both nodes, and a reader
/// through each node.
async fn table(k: usize, run: Run, seed: u64) {
    for round in 0u64.. {
        if run.end.over() {
            return;
        }
        // Created through either node (one may be stopped or the database away).
        let (id, tokens) = loop {
            let addr = run.addrs.read().unwrap()[(k + round as usize) % 2];
            if let Some(created) = try_new_match(addr, k).await {
                break created;
            }
            assert!(!run.end.given_up(), "table {k}: no match created");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        run.log
            .lock()
            .unwrap()
            .matches
            .entry(id.clone())
            .or_default();
        let seed = seed ^ ((round << 8 | k as u64) << 16);
        let spectator = client(run.clone(), (k + 1) % 2, id.clone(), None, seed);
        let mut clients = vec![
            tokio::spawn(spectator),
            tokio::spawn(reader(run.clone(), 0, id.clone(), seed + 10)),
            tokio::spawn(reader(run.clone(), 1, id.clone(), seed + 11)),
        ];
        for (s, token) in tokens.into_iter().enumerate() {
            if token.is_some() {
                let seat = client(
                    run.clone(),
                    (k + s) % 2,
                    id.clone(),
                    token,
                    seed + 1 + s as u64,
                );
                clients.push(tokio::spawn(seat));
            }
        }
        for c in clients {
            c.await.unwrap();
        }
        run.log.lock().unwrap().ended.push(id);
    }
}

/// A fault the nemesis injects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// SIGSTOP a node, SIGCONT it after the hold.
    Stop,
    /// SIGKILL a node, start it again under its name after the hold.
    Kill,
    /// Pause one node's relay, or both (the database away for all).
    Pause,
    /// Stop PostgreSQL at once (`pg_ctl -m immediate`), start it again after the hold.
    Restart,
}

#[derive(Debug)]
struct Fault {
    kind: Kind,
    /// The node (0 or 1), or 2 for both (a pause).
    target: usize,
    /// How long the fault lasts, from its start to its healing.
    hold: Duration,
    /// The quiet time before it.
    gap: Duration,
}

/// The schedule: in each run of four faults each kind once, in an order drawn from the seed.
fn schedule(rng: &mut ChaCha8Rng, out: &mut Vec<Fault>) {
    let mut kinds = [Kind::Stop, Kind::Kill, Kind::Pause, Kind::Restart];
    kinds.shuffle(rng);
    for kind in kinds {
        let (target, hold) = match kind {
            // Within the lease or past it (a node stopped long enough is taken over).
            Kind::Stop => (rng.random_range(0..2), rng.random_range(200..5000)),
            Kind::Kill => (rng.random_range(0..2), rng.random_range(0..500)),
            Kind::Pause => (rng.random_range(0..3), rng.random_range(200..4000)),
            Kind::Restart => (2, rng.random_range(0..1500)),
        };
        out.push(Fault {
            kind,
            target,
            hold: Duration::from_millis(hold),
            gap: Duration::from_millis(rng.random_range(50..400)),
        });
    }
}

/// What one fault did: how long the matches in play at its start stood still.
struct Outcome {
    kind: Kind,
    /// The longest time one of them stood still after the fault's reference instant (its start
    /// for a node's fault or a pause of one node, which the other node must absorb; its healing
    /// for the database's).
    frozen: Duration,
    in_play: usize,
}

/// A wall time as seconds since 1970, to match with the nodes' logs.
fn unix(t: SystemTime) -> String {
    let since = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    format!("unix {:.3}", since.as_secs_f64())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nemesis_finds_no_fork_no_stale_read_no_lost_action() {
    let Some(pg) = OwnPostgres::start_new() else {
        return;
    };
    let seed = env_u64("PLATEAU_NEMESIS_SEED").unwrap_or(20_261_205);
    let seconds = env_u64("PLATEAU_NEMESIS_SECONDS").unwrap_or(150);
    let least = env_u64("PLATEAU_NEMESIS_FAULTS").unwrap_or(0) as usize;
    eprintln!(
        "nemesis: seed {seed}, {seconds} s and at least {least} faults of each kind \
         (PLATEAU_NEMESIS_SEED={seed} draws the same schedule); load average {}",
        load_average()
    );
    let relays = [
        Relay::start(pg.socket()).await,
        Relay::start(pg.socket()).await,
    ];
    let names = ["a", "b"];
    let urls: Vec<String> = relays
        .iter()
        .map(|r| format!("postgres://postgres@{}/postgres", r.addr))
        .collect();
    let start = |k: usize| -> Server {
        tokio::task::block_in_place(|| start_node(&urls[k], &["--node", names[k]]))
    };
    let mut nodes = [start(0), start(1)];
    let addrs: Addrs = Arc::new(RwLock::new([nodes[0].addr, nodes[1].addr]));
    let log: Shared = Arc::default();
    let began = Instant::now();
    let until = began + Duration::from_secs(seconds);
    let end = End {
        began,
        give_up: Arc::new(AtomicU64::new(u64::MAX)),
    };
    let run = Run {
        addrs: addrs.clone(),
        log: log.clone(),
        conns: Arc::new(AtomicU64::new(0)),
        end: end.clone(),
    };
    let tables: Vec<_> = (0..TABLES)
        .map(|k| tokio::spawn(table(k, run.clone(), seed)))
        .collect();

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut faults = Vec::new();
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut next_report = began + Duration::from_secs(60);
    let fewest = |outcomes: &[Outcome]| {
        [Kind::Stop, Kind::Kill, Kind::Pause, Kind::Restart]
            .iter()
            .map(|&k| outcomes.iter().filter(|o| o.kind == k).count())
            .min()
            .unwrap()
    };
    while Instant::now() < until || fewest(&outcomes) < least {
        if faults.is_empty() {
            schedule(&mut rng, &mut faults);
            faults.reverse();
        }
        let fault = faults.pop().unwrap();
        tokio::time::sleep(fault.gap).await;
        let n = outcomes.len();
        let at = began.elapsed().as_secs_f64();
        eprintln!("fault {n} at {at:.1} s: {fault:?}");
        let fault_start = Instant::now();
        // The matches in play: moved within the last second, not finished.
        let in_play: Vec<String> = {
            let log = log.lock().unwrap();
            log.matches
                .iter()
                .filter(|(_, s)| {
                    !s.finished
                        && s.moves
                            .last()
                            .is_some_and(|&(t, _)| fault_start - t < Duration::from_secs(1))
                })
                .map(|(id, _)| id.clone())
                .collect()
        };
        match fault.kind {
            Kind::Stop => {
                signal(&nodes[fault.target], "STOP");
                tokio::time::sleep(fault.hold).await;
                signal(&nodes[fault.target], "CONT");
            }
            Kind::Kill => {
                let k = fault.target;
                nodes[k].child.kill().unwrap();
                nodes[k].child.wait().unwrap();
                tokio::time::sleep(fault.hold).await;
                nodes[k] = start(k);
                addrs.write().unwrap()[k] = nodes[k].addr;
            }
            Kind::Pause => {
                let cut = if fault.target == 2 {
                    0..2
                } else {
                    fault.target..fault.target + 1
                };
                for r in cut.clone() {
                    relays[r].pause(true);
                }
                tokio::time::sleep(fault.hold).await;
                for r in cut {
                    relays[r].pause(false);
                }
            }
            Kind::Restart => {
                tokio::task::block_in_place(|| pg.stop());
                tokio::time::sleep(fault.hold).await;
                tokio::task::block_in_place(|| pg.start());
            }
        }
        let healed = Instant::now();
        let reference = match (fault.kind, fault.target) {
            (Kind::Stop | Kind::Kill, _) | (Kind::Pause, 0 | 1) => fault_start,
            _ => healed,
        };
        // Wait until every match in play moved past where it stood at the healing (or ended).
        let stood: HashMap<String, u64> = {
            let log = log.lock().unwrap();
            in_play
                .iter()
                .map(|id| (id.clone(), log.matches[id].moves.last().unwrap().1))
                .collect()
        };
        let frozen = loop {
            let done = {
                let log = log.lock().unwrap();
                let moved = |id: &String| {
                    let seen = &log.matches[id];
                    seen.finished || seen.moves.last().unwrap().1 > stood[id]
                };
                if in_play.iter().all(moved) {
                    Some(
                        in_play
                            .iter()
                            .map(|id| still(&log.matches[id].moves, fault_start, reference))
                            .max()
                            .unwrap_or_default(),
                    )
                } else {
                    None
                }
            };
            if let Some(frozen) = done {
                break frozen;
            }
            assert!(
                healed.elapsed() < STUCK,
                "seed {seed}, fault {n} ({fault:?}): a match has not moved for {} s after it \
                 healed",
                STUCK.as_secs()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        eprintln!(
            "  healed; {} matches in play, the longest stood still {:.2} s",
            in_play.len(),
            frozen.as_secs_f64()
        );
        outcomes.push(Outcome {
            kind: fault.kind,
            frozen,
            in_play: in_play.len(),
        });
        if Instant::now() > next_report {
            next_report += Duration::from_secs(60);
            eprintln!(
                "after {:.0} s: {} faults, {} matches ended; load average {}",
                began.elapsed().as_secs_f64(),
                outcomes.len(),
                log.lock().unwrap().ended.len(),
                load_average()
            );
        }
    }
    eprintln!("nemesis done; the last matches play to their end");
    end.call(Duration::from_secs(180));
    for t in tables {
        t.await.unwrap();
    }
    let load = load_average();
    let addr = nodes[0].addr;
    let stored = stored_logs(addr, &log).await;
    let verdict = check(&log.lock().unwrap(), &stored);
    report(seed, began.elapsed(), &outcomes, &verdict, &load);
    assert_eq!(verdict.forks, Vec::<String>::new(), "seed {seed}: forks");
    assert_eq!(
        verdict.stale,
        Vec::<String>::new(),
        "seed {seed}: stale reads"
    );
    assert_eq!(
        verdict.lost,
        Vec::<String>::new(),
        "seed {seed}: lost actions"
    );
    assert_eq!(
        verdict.wrong,
        Vec::<String>::new(),
        "seed {seed}: bad deltas"
    );
    assert_eq!(
        verdict.unfinished,
        Vec::<String>::new(),
        "seed {seed}: stuck"
    );
    assert!(verdict.acked > 0, "no action acknowledged");
    for kind in [Kind::Stop, Kind::Kill, Kind::Pause, Kind::Restart] {
        let hit = outcomes
            .iter()
            .filter(|o| o.kind == kind && o.in_play > 0)
            .count();
        assert!(
            hit > 0,
            "seed {seed}: no {kind:?} fault hit a match in play"
        );
    }
}

/// The longest time, after `reference`, that a match whose moves are `moves` stood still, from
/// its last move before `start` to its first move past the fault (a state already on its way
/// when the fault began may still arrive after it).
fn still(moves: &[(Instant, u64)], start: Instant, reference: Instant) -> Duration {
    let from = moves.partition_point(|&(t, _)| t < start).saturating_sub(1);
    let mut longest = Duration::ZERO;
    for pair in moves[from..].windows(2) {
        let (before, after) = (pair[0].0, pair[1].0);
        if after > reference {
            longest = longest.max(after - before.max(reference));
        }
    }
    longest
}

/// Each finished match's stored log (the texts of its actions, from its record) as served by the
/// node at `addr` once the nemesis is over.
async fn stored_logs(addr: SocketAddr, log: &Shared) -> HashMap<String, Vec<String>> {
    let ended: Vec<String> = {
        let log = log.lock().unwrap();
        let finished = |id: &&String| log.matches[*id].finished;
        log.ended.iter().filter(finished).cloned().collect()
    };
    let mut stored = HashMap::new();
    for id in ended {
        let path = format!("/api/matches/{id}/record");
        let (status, record) = try_http(addr, "GET", &path, "")
            .await
            .expect("the record is served");
        assert_eq!(status, 200, "{record}");
        let record: Record = serde_json::from_value(record).unwrap();
        let texts = record.actions().map(|(_, a)| a.to_owned()).collect();
        stored.insert(id, texts);
    }
    stored
}

/// What the checker found, each finding in words.
#[derive(Default)]
struct Verdict {
    matches: usize,
    shown: usize,
    acked: usize,
    forks: Vec<String>,
    stale: Vec<String>,
    lost: Vec<String>,
    wrong: Vec<String>,
    /// Matches no client saw finished.
    unfinished: Vec<String>,
}

/// Checks what the clients were shown against the stored logs, match by match.
fn check(log: &Log, stored: &HashMap<String, Vec<String>>) -> Verdict {
    let mut v = Verdict::default();
    for id in &log.ended {
        let seen = &log.matches[id];
        let Some(texts) = stored.get(id) else {
            v.unfinished.push(format!("match {id}: not finished"));
            continue;
        };
        let mut hashes = vec![0];
        for t in texts {
            hashes.push(step(*hashes.last().unwrap(), t));
        }
        v.matches += 1;
        v.shown += seen.shown.len();
        v.acked += seen.acked.len();
        v.wrong
            .extend(seen.wrong.iter().map(|w| format!("match {id}: {w}")));
        // No fork: every history shown is the stored log's start.
        for s in &seen.shown {
            if hashes.get(s.len) != Some(&s.prefix) {
                v.forks.push(format!(
                    "match {id}: connection {} was shown {} moves (version {}) at {} that are \
                     not the start of the {} stored",
                    s.conn,
                    s.len,
                    s.version,
                    unix(s.wall),
                    texts.len()
                ));
            }
        }
        // No stale read: nothing older than what anyone had been shown before it was asked for,
        // and no version going back on one connection.
        let mut by_time: Vec<&Shown> = seen.shown.iter().collect();
        by_time.sort_by_key(|s| s.at);
        let mut highest = Vec::with_capacity(by_time.len());
        let mut top = 0;
        for s in &by_time {
            top = top.max(s.version);
            highest.push(top);
        }
        let mut last_of: HashMap<u64, u64> = HashMap::new();
        for s in &by_time {
            let before = by_time.partition_point(|o| o.at < s.asked);
            let known = if before == 0 { 0 } else { highest[before - 1] };
            if s.version < known {
                v.stale.push(format!(
                    "match {id}: connection {} was shown version {} at {} after version {known} \
                     had been shown before it asked",
                    s.conn,
                    s.version,
                    unix(s.wall)
                ));
            }
            let last = last_of.entry(s.conn).or_insert(0);
            if s.version < *last {
                v.stale.push(format!(
                    "match {id}: connection {} went back from version {last} to {}",
                    s.conn, s.version
                ));
            }
            *last = s.version;
        }
        // Every acknowledged action is stored where it was acknowledged.
        for (at, text) in &seen.acked {
            if texts.get(*at) != Some(text) {
                v.lost.push(format!(
                    "match {id}: action {text:?} acknowledged at {at}, stored {:?}",
                    texts.get(*at)
                ));
            }
        }
    }
    v
}

fn report(seed: u64, took: Duration, outcomes: &[Outcome], v: &Verdict, load: &str) {
    eprintln!(
        "verdict (seed {seed}, {:.0} s, load average at the end {load}): {} matches, {} states \
         shown, {} acknowledged actions; {} forks, {} stale reads, {} acknowledged actions lost, \
         {} bad deltas, {} matches unfinished",
        took.as_secs_f64(),
        v.matches,
        v.shown,
        v.acked,
        v.forks.len(),
        v.stale.len(),
        v.lost.len(),
        v.wrong.len(),
        v.unfinished.len()
    );
    for finding in v.forks.iter().chain(&v.stale).chain(&v.lost).take(20) {
        eprintln!("  {finding}");
    }
    for kind in [Kind::Stop, Kind::Kill, Kind::Pause, Kind::Restart] {
        let mut frozen: Vec<Duration> = outcomes
            .iter()
            .filter(|o| o.kind == kind && o.in_play > 0)
            .map(|o| o.frozen)
            .collect();
        let all = outcomes.iter().filter(|o| o.kind == kind).count();
        frozen.sort();
        let over = frozen.iter().filter(|f| **f > FROZEN_BOUND).count();
        let (median, max) = match frozen.last() {
            Some(max) => (frozen[frozen.len() / 2], *max),
            None => (Duration::ZERO, Duration::ZERO),
        };
        eprintln!(
            "  {kind:?}: {all} faults, {} with matches in play; frozen median {:.2} s, max \
             {:.2} s; {over} over the lease time + 2 s",
            frozen.len(),
            median.as_secs_f64(),
            max.as_secs_f64()
        );
    }
}

/// The checker on logs made by hand: a clean one passes; a fork, a stale read, a version going
/// back on one connection and a lost action are each found.
#[test]
fn the_checker_finds_forks_stale_reads_and_lost_actions() {
    let t0 = Instant::now();
    let ms = |n: u64| t0 + Duration::from_millis(n);
    let shown = |conn: u64, asked: u64, at: u64, texts: &[&str]| Shown {
        conn,
        asked: ms(asked),
        at: ms(at),
        wall: SystemTime::now(),
        version: texts.len() as u64,
        len: texts.len(),
        prefix: texts.iter().fold(0, |h, t| step(h, t)),
    };
    let stored = HashMap::from([("m".to_owned(), vec!["a".into(), "b".into(), "c".into()])]);
    let log_of = |seen: Seen| Log {
        matches: HashMap::from([("m".to_owned(), seen)]),
        ended: vec!["m".to_owned()],
    };
    let clean = Seen {
        shown: vec![
            shown(0, 0, 10, &["a"]),
            shown(0, 0, 20, &["a", "b"]),
            // Asked before version 2 was shown: version 1 would not have been stale.
            shown(1, 15, 30, &["a", "b"]),
            shown(2, 30, 40, &["a", "b", "c"]),
        ],
        acked: vec![(1, "b".into()), (2, "c".into())],
        finished: true,
        ..Seen::default()
    };
    let v = check(&log_of(clean), &stored);
    assert_eq!((v.matches, v.shown, v.acked), (1, 4, 2));
    assert!(v.forks.is_empty() && v.stale.is_empty() && v.lost.is_empty());

    let bad = Seen {
        shown: vec![
            shown(0, 0, 10, &["a"]),
            shown(0, 0, 20, &["a", "x"]),
            shown(1, 30, 40, &["a", "b", "c"]),
            // Asked after version 3 was shown, shown version 1.
            shown(2, 50, 60, &["a"]),
            // Connection 0 going back from 2 to 1.
            shown(0, 0, 70, &["a"]),
        ],
        acked: vec![(1, "b".into()), (3, "d".into())],
        finished: true,
        ..Seen::default()
    };
    let v = check(&log_of(bad), &stored);
    assert_eq!(v.forks.len(), 1, "{:?}", v.forks);
    assert!(
        v.forks[0].contains("connection 0 was shown 2 moves"),
        "{:?}",
        v.forks
    );
    assert_eq!(v.stale.len(), 2, "{:?}", v.stale);
    assert!(
        v.stale[0].contains("connection 2 was shown version 1"),
        "{:?}",
        v.stale
    );
    assert!(v.stale[0].contains("after version 3"), "{:?}", v.stale);
    assert!(
        v.stale[1].contains("went back from version 2 to 1"),
        "{:?}",
        v.stale
    );
    assert_eq!(v.lost.len(), 1, "{:?}", v.lost);
    assert!(
        v.lost[0].contains("\"d\" acknowledged at 3"),
        "{:?}",
        v.lost
    );

    let unfinished = Seen::default();
    let v = check(&log_of(unfinished), &HashMap::new());
    assert_eq!(v.unfinished, ["match m: not finished"]);
}

/// The time a match stood still: counted from the reference instant, across a state that was
/// on its way when the fault began.
#[test]
fn still_counts_from_the_reference_across_a_late_state() {
    let t0 = Instant::now();
    let ms = |n: u64| t0 + Duration::from_millis(n);
    let moves: Vec<(Instant, u64)> = [0, 100, 200, 260, 3260, 3300]
        .iter()
        .enumerate()
        .map(|(v, &t)| (ms(t), v as u64))
        .collect();
    // A node's fault at 250 ms: the late state at 260 ms, then 3 s still.
    assert_eq!(still(&moves, ms(250), ms(250)), Duration::from_millis(3000));
    // The database's fault healed at 2000 ms: still from then to 3260 ms.
    assert_eq!(
        still(&moves, ms(250), ms(2000)),
        Duration::from_millis(1260)
    );
}
