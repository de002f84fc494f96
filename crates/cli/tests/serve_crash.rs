//! Crash test of `plateau serve` (docs/reliability.md): the real binary on a temporary SQLite file
//! is killed with SIGKILL at random moments under load, again and again, and restarted. Six
//! matches are always in play (a finished one is replaced). Every action a client saw
//! acknowledged (a `state` message) must still be in its match after each restart, and every
//! match must go on to a result whose record replays with its seed.
//!
//! CI runs 6 cycles; `PLATEAU_CRASH_CYCLES=100 cargo test --release -p plateau-cli --test
//! serve_crash` runs the long version.

use crate::common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use plateau_engine::Record;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use common::{OwnPostgres, Server, http, new_match, postgres_schema, signal, start_node};

/// Per match: the longest move list any client saw acknowledged.
type Acked = Arc<Mutex<HashMap<String, Vec<Value>>>>;

/// Matches in play at once.
const TABLES: usize = 6;

/// Starts `plateau serve` on a free port over `db` and waits until it listens.
fn start(db: &str) -> Server {
    start_node(db, &[])
}

/// Plays one connection until the socket drops or the match ends: a seat plays random legal
/// actions; every connection records the move lists it sees acknowledged.
async fn play(addr: SocketAddr, id: String, token: Option<String>, acked: Acked, seed: u64) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/api/matches/{id}/ws")
        .into_client_request()
        .unwrap();
    if let Some(t) = &token {
        request
            .headers_mut()
            .insert("Authorization", format!("Bearer {t}").parse().unwrap());
    }
    // Every move acknowledged before this connection is asked for must be in its first state.
    // (One acknowledged meanwhile may or may not be: this connection's snapshot may be built
    // just before it, and reach this task after another connection saw it.)
    let before = acked.lock().unwrap().get(&id).map_or(0, Vec::len);
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(request).await else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut first = true;
    while let Some(Ok(frame)) = ws.next().await {
        let Message::Text(text) = frame else { continue };
        let msg: Value = serde_json::from_str(&text).unwrap();
        if msg["type"] != "state" {
            continue;
        }
        let from = msg["moves_from"].as_u64().unwrap() as usize;
        let delta = msg["moves"].as_array().unwrap();
        {
            let mut acked = acked.lock().unwrap();
            let known = acked.entry(id.clone()).or_default();
            // A whole state after each (re)connection (and whenever the server sends one), else
            // a delta placed at `moves_from`.
            let whole = msg["snapshot"] == true;
            assert!(whole || !first, "match {id}: a delta first: {msg}");
            assert!(
                whole || from <= known.len(),
                "match {id}: a delta from {from} after {} moves",
                known.len()
            );
            let mut moves = if whole {
                Vec::new()
            } else {
                known[..from].to_vec()
            };
            moves.extend(delta.iter().cloned());
            if first {
                assert!(
                    moves.len() >= before,
                    "match {id}: acknowledged moves lost: had {before}, now {}",
                    moves.len()
                );
            }
            // No two connections ever see different histories: the shorter is the longer's start.
            let common = moves.len().min(known.len());
            assert!(
                moves[..common] == known[..common],
                "match {id}: a move list that differs from one acknowledged before"
            );
            if moves.len() > known.len() {
                *known = moves;
            }
        }
        first = false;
        if msg["status"] == "finished" {
            return;
        }
        let legal = msg["legal"].as_array().unwrap();
        if !legal.is_empty() {
            // Think a little, so games span the kills.
            tokio::time::sleep(Duration::from_millis(rng.random_range(5..25))).await;
            let action = legal[rng.random_range(0..legal.len())].clone();
            let act = json!({"type": "act", "version": msg["version"], "action": action});
            if ws
                .send(Message::Text(act.to_string().into()))
                .await
                .is_err()
            {
                return;
            }
        }
    }
}

/// `play` again and again (a socket may be closed: a node stopping, a match moving to another
/// node) until match `id` is finished, as asked of `addr`.
async fn play_to_end(addr: SocketAddr, id: String, token: Option<String>, acked: Acked, seed: u64) {
    for again in 0.. {
        play(addr, id.clone(), token.clone(), acked.clone(), seed + again).await;
        let (_, summary) = http(addr, "GET", &format!("/api/matches/{id}"), "").await;
        if summary["status"] == "finished" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_kill_9_and_matches_finish() {
    let dir = std::env::temp_dir().join("plateau-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.sqlite", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let db = format!("sqlite://{}", file.display());
    let mut rng = ChaCha8Rng::seed_from_u64(2026);

    let mut server = start(&db);
    let mut matches: Vec<(String, Vec<Option<String>>)> = Vec::new();
    for k in 0..TABLES {
        matches.push(new_match(server.addr, k).await);
    }
    let acked: Acked = Arc::default();
    let kills: usize = std::env::var("PLATEAU_CRASH_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut killed_mid_game = 0;
    let mut finished: Vec<String> = Vec::new();
    for round in 0..=kills {
        // Under load: a finished match is replaced by a new one of the same seats.
        for (k, table) in matches.iter_mut().enumerate() {
            let (status, summary) =
                http(server.addr, "GET", &format!("/api/matches/{}", table.0), "").await;
            assert_eq!(status, 200, "{summary}");
            if summary["status"] == "finished" && round < kills {
                finished.push(table.0.clone());
                *table = new_match(server.addr, k).await;
            }
        }
        let mut tasks = Vec::new();
        for (k, (id, tokens)) in matches.iter().enumerate() {
            let seed = (round * 100 + k) as u64;
            tasks.push(tokio::spawn(play(
                server.addr,
                id.clone(),
                None,
                acked.clone(),
                seed,
            )));
            for (s, token) in tokens.iter().enumerate() {
                if let Some(t) = token {
                    tasks.push(tokio::spawn(play(
                        server.addr,
                        id.clone(),
                        Some(t.clone()),
                        acked.clone(),
                        seed * 2 + s as u64,
                    )));
                }
            }
        }
        if round < kills {
            // Kill -9 at a random moment, then restart on the same file.
            tokio::time::sleep(Duration::from_millis(rng.random_range(50..600))).await;
            server.child.kill().unwrap();
            server.child.wait().unwrap();
            for t in tasks {
                t.await.unwrap();
            }
            server = start(&db);
            // (The lobby list shows only tables people sit at: ask each match.)
            let mut running = false;
            for (id, _) in &matches {
                let (_, summary) =
                    http(server.addr, "GET", &format!("/api/matches/{id}"), "").await;
                running |= summary["status"] == "live";
            }
            if running {
                killed_mid_game += 1;
            }
        } else {
            // Last round: let every match run to its end.
            for t in tasks {
                tokio::time::timeout(Duration::from_secs(120), t)
                    .await
                    .expect("matches finish")
                    .unwrap();
            }
        }
    }

    verify(
        server.addr,
        &dir,
        finished,
        &matches,
        &acked,
        kills,
        killed_mid_game,
    )
    .await;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let _ = std::fs::remove_file(&file);
}

/// Checks the matches played through the kills, through the server at `addr`: those `finished`
/// on the way and those of the `last_round`, watched to their end. Each is finished, its record
/// replays with its seed (`plateau replay` says "Seed: verified"), and it holds every move a
/// client saw acknowledged, in order (all of them for the last round). At least half the `kills`
/// must have hit running matches.
async fn verify(
    addr: SocketAddr,
    dir: &std::path::Path,
    mut finished: Vec<String>,
    last_round: &[(String, Vec<Option<String>>)],
    acked: &Acked,
    kills: usize,
    killed_mid_game: usize,
) {
    assert!(
        killed_mid_game >= kills / 2,
        "only {killed_mid_game} kills hit running games"
    );
    let last_round: Vec<String> = last_round.iter().map(|(id, _)| id.clone()).collect();
    finished.extend(last_round.iter().cloned());
    // A match of bots may have been played out by a node while its only watcher's socket was
    // on the node just killed: nobody saw any of it.
    let acked = acked.lock().unwrap().clone();
    let seen = |id: &String| acked.get(id).map_or(&[][..], Vec::as_slice);
    eprintln!(
        "{kills} kills, {killed_mid_game} with matches running; {} matches, {} acknowledged \
         actions, none lost",
        finished.len(),
        finished.iter().map(|id| seen(id).len()).sum::<usize>()
    );
    for id in &finished {
        let (status, summary) = http(addr, "GET", &format!("/api/matches/{id}"), "").await;
        assert_eq!(status, 200);
        assert_eq!(summary["status"], "finished", "{summary}");
        let (status, record) = http(addr, "GET", &format!("/api/matches/{id}/record"), "").await;
        assert_eq!(status, 200);
        // `plateau replay` verifies the served record, seed hash included.
        let path = dir.join(format!("{id}.json"));
        std::fs::write(&path, record.to_string()).unwrap();
        let replay = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["replay", "--no-color"])
            .arg(&path)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&replay.stdout);
        assert!(
            replay.status.success(),
            "{out}{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        assert!(out.contains("Seed: verified"), "{out}");
        let _ = std::fs::remove_file(&path);
        let record: Record = serde_json::from_value(record).unwrap();
        let replay = record
            .replay(plateau_registry::find("mad").unwrap())
            .unwrap();
        assert!(replay.seed_verified);
        // MAD's move-list text is its canonical text: the record holds every acknowledged move,
        // in order. A match's last move may be committed and the server killed before any client
        // saw it (nothing was promised for it, and a finished match is not watched again), so the
        // record may go one further than what was seen; the matches of the last round were
        // watched to their end, so there it is all of it.
        let seen = seen(id);
        let count = record.actions().count();
        if last_round.contains(id) {
            assert_eq!(seen.len(), count, "{id}");
        } else {
            assert!(
                seen.len() <= count,
                "{id}: {} seen, {count} recorded",
                seen.len()
            );
        }
        for (m, (_, action)) in seen.iter().zip(record.actions()) {
            assert_eq!(m["text"], action);
        }
    }
}

/// One task per connection to each of `matches` over two nodes (`addrs`): table `k`'s spectator
/// through node `k + 1`, its seat `s` through node `k + s` (mod 2), each playing (`play`) until
/// its socket closes, or, with `to_end`, until the match is finished (`play_to_end`).
fn players(
    addrs: &[SocketAddr; 2],
    matches: &[(String, Vec<Option<String>>)],
    acked: &Acked,
    round: u64,
    to_end: bool,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for (k, (id, tokens)) in matches.iter().enumerate() {
        let seed = round * 100 + k as u64;
        let player = |addr, token: Option<String>, seed| {
            let (id, acked) = (id.clone(), acked.clone());
            tokio::spawn(async move {
                if to_end {
                    play_to_end(addr, id, token, acked, seed).await;
                } else {
                    play(addr, id, token, acked, seed).await;
                }
            })
        };
        tasks.push(player(addrs[(k + 1) % 2], None, seed));
        for (s, token) in tokens.iter().enumerate() {
            if let Some(t) = token {
                tasks.push(player(
                    addrs[(k + s) % 2],
                    Some(t.clone()),
                    seed * 2 + s as u64,
                ));
            }
        }
    }
    tasks
}

/// How long until match `id` is served at `addr` again: a spectator's socket gets a `state`
/// (tried again while the node answers otherwise, for at most 30 s).
async fn served_after(addr: SocketAddr, id: &str) -> Duration {
    let start = std::time::Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "match {id} not served again within 30 s"
        );
        let url = format!("ws://{addr}/api/matches/{id}/ws");
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await {
            while let Some(Ok(frame)) = ws.next().await {
                if let Message::Text(text) = frame
                    && serde_json::from_str::<Value>(&text).unwrap()["type"] == "state"
                {
                    return start.elapsed();
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Two nodes on one PostgreSQL (docs/architecture.md section 5.3), one of them (at random)
/// killed with SIGKILL at random moments while six MAD matches play with their seats and a
/// spectator spread over both nodes, then restarted under its name. After each kill every match
/// must be served again by the other node (the time it takes is printed); every action a client
/// saw acknowledged is still there after each kill, and every match goes on to a result whose
/// record replays with its seed.
///
/// CI runs 6 cycles; `PLATEAU_CRASH_CYCLES=100` runs 100 (scripts/test starts the PostgreSQL
/// server; without `PLATEAU_TEST_POSTGRES` the test says so and passes without running).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_node_loses_no_acknowledged_action_and_its_matches_go_on_elsewhere() {
    let Some(db) = postgres_schema().await else {
        return;
    };
    let dir = std::env::temp_dir().join("plateau-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2027);
    let names = ["a", "b"];
    let node = |k: usize| start_node(&db, &["--node", names[k]]);
    let mut nodes = [node(0), node(1)];
    let mut matches: Vec<(String, Vec<Option<String>>)> = Vec::new();
    for k in 0..TABLES {
        matches.push(new_match(nodes[k % 2].addr, k).await);
    }
    let acked: Acked = Arc::default();
    let kills: usize = std::env::var("PLATEAU_CRASH_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut killed_mid_game = 0;
    let mut finished: Vec<String> = Vec::new();
    let mut waits: Vec<Duration> = Vec::new();
    for round in 0..=kills {
        for (k, table) in matches.iter_mut().enumerate() {
            let (status, summary) = http(
                nodes[0].addr,
                "GET",
                &format!("/api/matches/{}", table.0),
                "",
            )
            .await;
            assert_eq!(status, 200, "{summary}");
            if summary["status"] == "finished" && round < kills {
                finished.push(table.0.clone());
                *table = new_match(nodes[k % 2].addr, k).await;
            }
        }
        let addrs = [nodes[0].addr, nodes[1].addr];
        let tasks = players(&addrs, &matches, &acked, round as u64, round == kills);
        if round < kills {
            tokio::time::sleep(Duration::from_millis(rng.random_range(50..600))).await;
            let victim = rng.random_range(0..2);
            if std::env::var_os("PLATEAU_CRASH_LOGS").is_some() {
                let at = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap();
                eprintln!(
                    "round {round}: kill {} at unix {:.3}",
                    names[victim],
                    at.as_secs_f64()
                );
            }
            nodes[victim].child.kill().unwrap();
            nodes[victim].child.wait().unwrap();
            let other = nodes[1 - victim].addr;
            let mut longest = Duration::ZERO;
            let mut running = false;
            for (id, _) in &matches {
                longest = longest.max(served_after(other, id).await);
                let (_, summary) = http(other, "GET", &format!("/api/matches/{id}"), "").await;
                running |= summary["status"] == "live";
            }
            waits.push(longest);
            killed_mid_game += usize::from(running);
            // The clients of the killed node lost their sockets; the others are stopped too, and
            // every seat connects again in the next round (to a node chosen as before).
            for t in tasks {
                t.abort();
                let _ = t.await;
            }
            nodes[victim] = node(victim);
        } else {
            for t in tasks {
                tokio::time::timeout(Duration::from_secs(180), t)
                    .await
                    .expect("matches finish")
                    .unwrap();
            }
        }
    }
    waits.sort();
    if let (Some(max), false) = (waits.last(), waits.is_empty()) {
        eprintln!(
            "served again after a kill: median {:.2} s, max {:.2} s",
            waits[waits.len() / 2].as_secs_f64(),
            max.as_secs_f64()
        );
    }
    verify(
        nodes[0].addr,
        &dir,
        finished,
        &matches,
        &acked,
        kills,
        killed_mid_game,
    )
    .await;
}

/// The database going away for 10 s under two nodes and six MAD matches in play, then coming
/// back. Meanwhile every node answers `GET /health` with 503, and nothing is acknowledged (an
/// action gets an error, not a state); once it is back the nodes recover by themselves: health
/// 200, every match served again and played to its end, and every action a client saw
/// acknowledged is in the records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_answer_clearly_while_the_database_is_away_and_recover_by_themselves() {
    let Some(pg) = OwnPostgres::start_new() else {
        return;
    };
    let db = pg.url();
    let dir = std::env::temp_dir().join("plateau-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let nodes = [
        start_node(&db, &["--node", "a"]),
        start_node(&db, &["--node", "b"]),
    ];
    let mut matches: Vec<(String, Vec<Option<String>>)> = Vec::new();
    for k in 0..TABLES {
        matches.push(new_match(nodes[k % 2].addr, k).await);
    }
    let acked: Acked = Arc::default();
    let addrs = [nodes[0].addr, nodes[1].addr];
    let before = players(&addrs, &matches, &acked, 0, false);
    tokio::time::sleep(Duration::from_millis(800)).await;
    pg.stop();
    let down = std::time::Instant::now();
    let moves_at = |acked: &Acked| -> usize { acked.lock().unwrap().values().map(Vec::len).sum() };
    // What was acknowledged before the stop may still be arriving: wait until nothing moves.
    let mut settled = moves_at(&acked);
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = moves_at(&acked);
        if now == settled {
            break;
        }
        settled = now;
    }
    let mut unhealthy = 0;
    while down.elapsed() < Duration::from_secs(10) {
        for n in &nodes {
            let (status, health) = http(n.addr, "GET", "/health", "").await;
            assert_eq!(status, 503, "{health}");
            assert_eq!(health["database"], "unreachable", "{health}");
            unhealthy += 1;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(
        moves_at(&acked),
        settled,
        "nothing is acknowledged while the database is away"
    );
    pg.start();
    let up = std::time::Instant::now();
    for n in &nodes {
        loop {
            let (status, _) = http(n.addr, "GET", "/health", "").await;
            if status == 200 {
                break;
            }
            assert!(up.elapsed() < Duration::from_secs(30), "health not back");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let healthy = up.elapsed();
    for (id, _) in &matches {
        for n in &nodes {
            served_after(n.addr, id).await;
        }
    }
    let served = up.elapsed();
    eprintln!(
        "database away 10 s: {unhealthy} health checks answered 503; back: health 200 after \
         {:.2} s, every match served on both nodes after {:.2} s",
        healthy.as_secs_f64(),
        served.as_secs_f64()
    );
    // Sockets the outage closed are opened again; every match goes on to its end.
    for t in before {
        t.abort();
        let _ = t.await;
    }
    let after = players(&addrs, &matches, &acked, 1, true);
    while moves_at(&acked) == settled {
        assert!(
            up.elapsed() < Duration::from_secs(60),
            "no action acknowledged"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    eprintln!(
        "first action acknowledged {:.2} s after the database came back",
        up.elapsed().as_secs_f64()
    );
    for t in after {
        tokio::time::timeout(Duration::from_secs(180), t)
            .await
            .expect("matches finish")
            .unwrap();
    }
    verify(nodes[0].addr, &dir, Vec::new(), &matches, &acked, 0, 0).await;
}

/// The first `state` a fresh socket to match `id` at `addr` is shown, as `(status, moves,
/// version)`; `None` when the node answers otherwise (an error such as `match/moved`, a close).
async fn first_state(addr: SocketAddr, id: &str) -> Option<(String, usize, u64)> {
    let url = format!("ws://{addr}/api/matches/{id}/ws");
    let opened = tokio::time::timeout(Duration::from_secs(30), async {
        tokio_tungstenite::connect_async(url).await
    });
    let (mut ws, _) = opened
        .await
        .unwrap_or_else(|_| panic!("match {id}: no answer from {addr} within 30 s"))
        .ok()?;
    while let Some(Ok(frame)) = tokio::time::timeout(Duration::from_secs(30), ws.next())
        .await
        .unwrap_or_else(|_| panic!("match {id}: nothing from {addr} within 30 s"))
    {
        let Message::Text(text) = frame else { continue };
        let msg: Value = serde_json::from_str(&text).unwrap();
        if msg["type"] == "state" {
            assert_eq!(
                msg["snapshot"], true,
                "a fresh socket's first state is whole"
            );
            return Some((
                msg["status"].as_str().unwrap().to_owned(),
                msg["moves"].as_array().unwrap().len(),
                msg["version"].as_u64().unwrap(),
            ));
        }
        if msg["type"] == "error" {
            return None;
        }
    }
    None
}

/// A node stalled past its leases (SIGSTOP) while the other node takes its matches over and
/// plays them to their end, then woken (SIGCONT), serves nothing from memory: every socket
/// opened to either node after the wake (those that knocked on the stalled node during the
/// stall first, answered as it wakes; then fresh ones to both nodes, some forwarded) is shown
/// each match finished, with every move, never the position it held when it stalled. The
/// other node's time to take the matches over is printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_node_never_shows_an_old_position_when_it_wakes() {
    const MATCHES: usize = 4;
    let Some(db) = postgres_schema().await else {
        return;
    };
    let a = start_node(&db, &["--node", "a"]);
    let acked: Acked = Arc::default();
    let mut matches = Vec::new();
    for k in 0..MATCHES {
        // Two people: nothing moves but what the test plays. Made before `b` starts, so that
        // `a` drives every one (it places matches on the live nodes in turn).
        let (id, tokens) = new_match(a.addr, 0).await;
        assert!(tokens.iter().all(Option::is_some), "table {k}: two people");
        matches.push((id, tokens));
    }
    let b = start_node(&db, &["--node", "b"]);
    // Some moves on `a`, then its clients leave.
    let seated: Vec<_> = matches
        .iter()
        .enumerate()
        .flat_map(|(k, (id, tokens))| {
            let acked = acked.clone();
            tokens
                .iter()
                .enumerate()
                .map(move |(s, t)| {
                    tokio::spawn(play(
                        a.addr,
                        id.clone(),
                        t.clone(),
                        acked.clone(),
                        (k * 2 + s) as u64,
                    ))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let moves_of = |id: &str| acked.lock().unwrap().get(id).map_or(0, Vec::len);
    while matches.iter().any(|(id, _)| moves_of(id) < 6) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for t in seated {
        t.abort();
        let _ = t.await;
    }
    let stalled: Vec<usize> = matches.iter().map(|(id, _)| moves_of(id)).collect();

    signal(&a, "STOP");
    let stop = std::time::Instant::now();
    // `b` takes each match over once `a`'s lease expired, and its seats play it to its end.
    let mut taken = Duration::ZERO;
    for (id, _) in &matches {
        taken = taken.max(served_after(b.addr, id).await);
    }
    eprintln!(
        "node stopped: the other node served all {MATCHES} matches after {:.2} s",
        taken.as_secs_f64()
    );
    let mut tasks = Vec::new();
    for (k, (id, tokens)) in matches.iter().enumerate() {
        for (s, t) in tokens.iter().enumerate() {
            let (id, t, acked) = (id.clone(), t.clone(), acked.clone());
            tasks.push(tokio::spawn(play_to_end(
                b.addr,
                id,
                t,
                acked,
                (100 + k * 2 + s) as u64,
            )));
        }
    }
    for t in tasks {
        tokio::time::timeout(Duration::from_secs(120), t)
            .await
            .expect("matches finish on the other node")
            .unwrap();
    }
    let ended: Vec<usize> = matches.iter().map(|(id, _)| moves_of(id)).collect();
    for (k, (before, after)) in stalled.iter().zip(&ended).enumerate() {
        assert!(after > before, "table {k}: played on after the stall");
    }
    // Sockets that knock on the stalled node: answered as it wakes.
    let knocking: Vec<_> = matches
        .iter()
        .map(|(id, _)| {
            let (addr, id) = (a.addr, id.clone());
            tokio::spawn(async move { first_state(addr, &id).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let stalled_for = stop.elapsed();
    signal(&a, "CONT");
    let shown = |k: usize, node: &str, state: &(String, usize, u64)| {
        assert_eq!(
            (state.0.as_str(), state.1),
            ("finished", ended[k]),
            "table {k}, through node {node}: an old position ({} moves when the node stalled)",
            stalled[k]
        );
    };
    let mut answered = 0;
    for (k, knock) in knocking.into_iter().enumerate() {
        if let Some(state) = knock.await.unwrap() {
            shown(k, "a (knocking in the stall)", &state);
            answered += 1;
        }
    }
    // Fresh sockets to both nodes, each match shown three times through each (a refusal, such
    // as `match/moved` while `a` hands the match back, is asked again).
    let mut fresh = 0;
    for round in 0..3 {
        for (k, (id, _)) in matches.iter().enumerate() {
            for (node, addr) in [("a", a.addr), ("b", b.addr)] {
                let asked = std::time::Instant::now();
                let state = loop {
                    if let Some(state) = first_state(addr, id).await {
                        break state;
                    }
                    assert!(
                        asked.elapsed() < Duration::from_secs(20),
                        "round {round}: table {k} not served through node {node}"
                    );
                    tokio::time::sleep(Duration::from_millis(50)).await;
                };
                shown(k, node, &state);
                fresh += 1;
            }
        }
    }
    eprintln!(
        "stalled {:.1} s; after the wake {answered} knocking and {fresh} fresh sockets, every one \
         shown the finished match",
        stalled_for.as_secs_f64()
    );
}

/// Matches created through one node are driven by the live nodes in turn (docs/architecture.md
/// section 5.3): a load balancer that sends every creation to one node still spreads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_through_one_node_are_driven_by_the_nodes_in_turn() {
    let Some(db) = postgres_schema().await else {
        return;
    };
    let (a, b) = (
        start_node(&db, &["--node", "a"]),
        start_node(&db, &["--node", "b"]),
    );
    let in_memory = |node: &Server| {
        let addr = node.addr;
        async move {
            http(addr, "GET", "/health", "").await.1["matches_in_memory"]
                .as_u64()
                .unwrap()
        }
    };
    // `a` hears of `b` at its next heartbeat (one a second); until then it drives them all.
    let heard = std::time::Instant::now();
    while in_memory(&b).await == 0 {
        assert!(
            heard.elapsed() < Duration::from_secs(20),
            "no match created through `a` is driven by `b`"
        );
        new_match(a.addr, 0).await;
    }
    let before = (in_memory(&a).await, in_memory(&b).await);
    for _ in 0..6 {
        new_match(a.addr, 0).await;
    }
    let after = (in_memory(&a).await, in_memory(&b).await);
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (3, 3),
        "six creations through `a`, driven by `a` and `b` in turn"
    );
}

/// A second process given the name of a node that runs refuses to start (after waiting out the
/// heartbeat's time to live, as for a killed earlier run), with a message that names the
/// running node's address; the running node goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_of_a_running_node_name_refuses_to_start() {
    let Some(db) = postgres_schema().await else {
        return;
    };
    let first = start_node(&db, &["--node", "a"]);
    let second = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args([
            "serve",
            "--node",
            "a",
            "--addr",
            "127.0.0.1:0",
            "--database",
            &db,
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{said}");
    assert!(
        said.contains("node name `a` is in use by a running node at"),
        "{said}"
    );
    let (status, _) = http(first.addr, "GET", "/health", "").await;
    assert_eq!(status, 200);
}
