//! A match server that does no work: the floor under any server's latency as the Node load
//! client of docs/performance.md section 2 measures it.
//!
//! It speaks just enough of docs/protocol.md for that client and for `plateau load --pace human`:
//! `GET /health`, `POST /api/matches` (201, two seats, the creator takes seat 0),
//! `POST /api/matches/{id}/join` (seat 1), `GET /api/matches/{id}/ws` with the seat token in the
//! `Authorization` header, or without one as a spectator (404 for an unknown match; a token only
//! names its seat and is not checked), and `GET /api/lobby/ws`, which sends one `lobby` message.
//! An `act` with the match's version from the seat to act is accepted at once, without rules,
//! storage or a die: the version goes up, every viewer gets a `state` about the size of a real
//! Moon Leap one (the seat to act alternates, and every third ply the same seat acts again), and
//! a match finishes after 60 plies. A `ping` on any socket is answered with a `pong`; anything
//! else is ignored.
//!
//! ```sh
//! cargo build --release --example null_server -p plateau-server
//! target/release/examples/null_server 18999     # port (0: any); listens on 127.0.0.1 only
//! ```

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::mpsc;

/// Plies after which a match is finished (a Moon Leap game of the load lasts 60 to 120).
const PLIES: u64 = 60;

/// Filler that brings a `state` to about 600 bytes, the mean of a real Moon Leap `state`.
const FILLER: &str = concat!(
    "an observation of about the size a Moon Leap observation has on the wire, ",
    "repeated so that parsing it costs the client what a real one costs it; ",
    "it carries nothing and the client reads nothing in it. ",
    "an observation of about the size a Moon Leap observation has on the wire, ",
    "repeated so that parsing it costs the client what a real one costs it; ",
    "it carries nothing and the client reads nothing in it. ",
    "(the mean real state, first snapshots included, is about 600 bytes.)"
);

/// One match: its version, the seat to act, each seat's socket queue once connected, and the
/// spectators' queues.
struct Table {
    version: u64,
    to_act: usize,
    sockets: [Option<mpsc::UnboundedSender<String>>; 2],
    spectators: Vec<mpsc::UnboundedSender<String>>,
}

impl Table {
    /// The `state` seat `seat` (a spectator: `None`) is sent: the legal list only for the seat
    /// to act.
    fn state(&self, seat: Option<usize>) -> String {
        let finished = self.version >= PLIES;
        let legal = if !finished && seat == Some(self.to_act) {
            json!(["1", "2", "3+1"])
        } else {
            json!([])
        };
        json!({
            "type": "state",
            "version": self.version,
            "status": if finished { "finished" } else { "live" },
            "to_act": [self.to_act],
            "legal": legal,
            "moves_from": self.version,
            "moves": [self.version.to_string()],
            "observation": { "filler": FILLER },
        })
        .to_string()
    }
}

#[derive(Default)]
struct Tables {
    next: Mutex<u64>,
    all: Mutex<HashMap<String, Arc<Mutex<Table>>>>,
}

async fn create(State(tables): State<Arc<Tables>>) -> (StatusCode, Json<serde_json::Value>) {
    let id = {
        let mut next = tables.next.lock().unwrap();
        *next += 1;
        format!("{:016x}", *next)
    };
    let table = Table {
        version: 0,
        to_act: 0,
        sockets: [None, None],
        spectators: Vec::new(),
    };
    tables
        .all
        .lock()
        .unwrap()
        .insert(id.clone(), Arc::new(Mutex::new(table)));
    (
        StatusCode::CREATED,
        Json(json!({ "id": id, "seat": 0, "token": format!("0{id}") })),
    )
}

async fn join(State(tables): State<Arc<Tables>>, Path(id): Path<String>) -> Response {
    if !tables.all.lock().unwrap().contains_key(&id) {
        return StatusCode::NOT_FOUND.into_response();
    }
    Json(json!({ "seat": 1, "token": format!("1{id}") })).into_response()
}

async fn connect(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let seat = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|token| usize::from(token.starts_with('1')));
    let Some(table) = tables.all.lock().unwrap().get(&id).cloned() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    // Plateau's WebSocket buffers, so that the memory per socket compares too.
    plateau_lobby::ws::sized(upgrade).on_upgrade(move |socket| session(socket, table, seat))
}

/// Sends the viewer its state, then answers each of the seat's accepted actions with a state to
/// every viewer, and each `ping` with a `pong`, until the socket closes.
async fn session(socket: WebSocket, table: Arc<Mutex<Table>>, seat: Option<usize>) {
    let (mut sink, mut stream) = socket.split();
    let (queue, mut queued) = mpsc::unbounded_channel::<String>();
    {
        let mut t = table.lock().unwrap();
        let _ = queue.send(t.state(seat));
        match seat {
            Some(s) => t.sockets[s] = Some(queue.clone()),
            None => t.spectators.push(queue.clone()),
        }
    }
    let writer = tokio::spawn(async move {
        while let Some(text) = queued.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(message)) = stream.next().await {
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => break,
            _ => continue,
        };
        let Ok(act) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        if act["type"] == "ping" {
            let _ = queue.send(PONG.to_owned());
            continue;
        }
        let mut t = table.lock().unwrap();
        if act["type"] != "act"
            || act["version"].as_u64() != Some(t.version)
            || seat != Some(t.to_act)
        {
            continue;
        }
        t.version += 1;
        if !t.version.is_multiple_of(3) {
            t.to_act = 1 - t.to_act;
        }
        for (s, socket) in t.sockets.iter().enumerate() {
            if let Some(queue) = socket {
                let _ = queue.send(t.state(Some(s)));
            }
        }
        if !t.spectators.is_empty() {
            let state = t.state(None);
            t.spectators.retain(|q| q.send(state.clone()).is_ok());
        }
    }
    writer.abort();
}

/// The answer to a `ping`.
const PONG: &str = r#"{"type":"pong"}"#;

/// The lobby's socket: one `lobby` message, then a `pong` for each `ping`, until it closes.
async fn lobby(upgrade: WebSocketUpgrade) -> Response {
    plateau_lobby::ws::sized(upgrade).on_upgrade(|mut socket| async move {
        let counts = json!({"type": "lobby", "online": 0, "playing": 0, "pools": []});
        if socket
            .send(Message::Text(counts.to_string().into()))
            .await
            .is_err()
        {
            return;
        }
        while let Some(Ok(message)) = socket.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let ping =
                serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|m| m["type"] == "ping");
            if ping && socket.send(Message::Text(PONG.into())).await.is_err() {
                return;
            }
        }
    })
}

#[tokio::main]
async fn main() {
    let Some(port) = std::env::args().nth(1).and_then(|p| p.parse::<u16>().ok()) else {
        eprintln!("usage: null_server PORT");
        std::process::exit(2);
    };
    let router = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/api/matches", post(create))
        .route("/api/matches/{id}/join", post(join))
        .route("/api/matches/{id}/ws", get(connect))
        .route("/api/lobby/ws", get(lobby))
        .with_state(Arc::new(Tables::default()));
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("null_server: cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    };
    if let Ok(address) = listener.local_addr() {
        eprintln!("null_server: listening on {address}");
    }
    // As Plateau does: no Nagle wait on any accepted socket.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    if let Err(e) = axum::serve(listener, router).await {
        eprintln!("null_server: {e}");
        std::process::exit(1);
    }
}
