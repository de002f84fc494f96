//! A first load figure for the match service (issue 3): `--matches N` pairs of scripted WebSocket
//! clients play MAD against each other on loopback, as fast as the server acknowledges, for
//! `--seconds S`; each pair starts a new match when one ends. Prints the matches held, the actions
//! committed per second and the act-to-acknowledgement latency.
//!
//! ```text
//! cargo run --release -p plateau-server --example load -- --matches 100 --seconds 10
//! ```
//!
//! The server runs in the same process (its own tokio runtime, a fresh SQLite file in the temp
//! directory, `synchronous = FULL`), so clients and server share the machine's cores: the figure is
//! a floor, not a ceiling.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use plateau_server::{AppState, Catalogue, Lobby, Options, open_store};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

#[derive(Default)]
struct Stats {
    actions: AtomicU64,
    games: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

async fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    serde_json::from_str(raw.split_once("\r\n\r\n").unwrap().1).unwrap()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, token: &str) -> Ws {
    let url = format!("ws://{addr}/api/matches/{id}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

async fn next_state(ws: &mut Ws) -> Value {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] == "state" {
                    return v;
                }
                panic!("unexpected message {v}");
            }
            Some(Ok(_)) => continue,
            other => panic!("socket ended: {other:?}"),
        }
    }
}

/// One pair of players: match after match until `deadline`.
async fn pair(addr: SocketAddr, seed: u64, deadline: Instant, stats: Arc<Stats>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut latencies = Vec::new();
    while Instant::now() < deadline {
        let created = post(
            addr,
            "/api/matches",
            &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
        let id = created["id"].as_str().unwrap().to_owned();
        let joined = post(addr, &format!("/api/matches/{id}/join"), &json!({})).await;
        let mut seats = [
            connect(addr, &id, created["token"].as_str().unwrap()).await,
            connect(addr, &id, joined["token"].as_str().unwrap()).await,
        ];
        let mut last = [
            next_state(&mut seats[0]).await,
            next_state(&mut seats[1]).await,
        ];
        while last[0]["status"] != "finished" && Instant::now() < deadline {
            let i = usize::from(last[0]["legal"].as_array().unwrap().is_empty());
            let legal = last[i]["legal"].as_array().unwrap();
            let action = legal[rng.random_range(0..legal.len())].clone();
            let act = json!({"type": "act", "version": last[i]["version"], "action": action});
            let sent = Instant::now();
            seats[i]
                .send(Message::Text(act.to_string().into()))
                .await
                .unwrap();
            last[i] = next_state(&mut seats[i]).await;
            latencies.push(sent.elapsed().as_micros() as u64);
            stats.actions.fetch_add(1, Ordering::Relaxed);
            last[1 - i] = next_state(&mut seats[1 - i]).await;
        }
        if last[0]["status"] == "finished" {
            stats.games.fetch_add(1, Ordering::Relaxed);
        }
    }
    stats.latencies_us.lock().await.extend(latencies);
}

fn main() {
    let matches = arg("--matches", 100);
    let seconds = arg("--seconds", 10);
    let db = std::env::temp_dir().join(format!("plateau-load-{}.sqlite", std::process::id()));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let store = open_store(&format!("sqlite://{}", db.display())).unwrap();
        let options = Options {
            bot_delay: Duration::ZERO,
            ..Options::default()
        };
        let lobby = Lobby::start(store, Catalogue::standard(), options)
            .await
            .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(plateau_server::serve(
            listener,
            AppState::new(lobby),
            async {
                let _ = stopped.await;
            },
        ));
        let stats = Arc::new(Stats::default());
        let start = Instant::now();
        let deadline = start + Duration::from_secs(seconds);
        let pairs: Vec<_> = (0..matches)
            .map(|k| tokio::spawn(pair(addr, k, deadline, stats.clone())))
            .collect();
        for p in pairs {
            p.await.unwrap();
        }
        let elapsed = start.elapsed().as_secs_f64();
        let _ = stop.send(());
        server.await.unwrap().unwrap();
        let actions = stats.actions.load(Ordering::Relaxed);
        let mut lat = stats.latencies_us.lock().await.clone();
        lat.sort_unstable();
        let pct = |p: f64| {
            lat.get(((lat.len() as f64 - 1.0) * p) as usize)
                .copied()
                .unwrap_or(0)
        };
        println!(
            "{matches} concurrent matches ({} WebSockets) for {elapsed:.1} s on {} cores: \
             {actions} actions committed, {:.0} actions/s, {} games finished; \
             act-to-ack latency p50 {:.1} ms, p99 {:.1} ms",
            matches * 2,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            actions as f64 / elapsed,
            stats.games.load(Ordering::Relaxed),
            pct(0.5) as f64 / 1000.0,
            pct(0.99) as f64 / 1000.0,
        );
    });
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(db.with_extension("sqlite-wal"));
    let _ = std::fs::remove_file(db.with_extension("sqlite-shm"));
}
