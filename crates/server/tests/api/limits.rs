//! The front door's limits (docs/protocol.md section 6): connections per address and in all,
//! request headers and bodies in time, silent sockets, message floods. Each is met with a coded refusal.

use std::net::SocketAddr;
use std::time::Duration;

use plateau_lobby::limits::Limits;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::common::{app_with, test_options};

/// A TCP connection to `addr` from the local address `from`.
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Reads until the server closes the connection (at most 20 s); returns what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut out))
        .await
        .expect("the server closes the connection")
        .unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn silent_and_half_sent_connections_close_and_caps_refuse_the_rest() {
    let app = app_with(Limits {
        connections_per_address: 4,
        header_timeout: Duration::from_secs(1),
        ..test_options().limits
    })
    .await;
    // Four connections from one address: three silent, one with half its headers.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from("127.0.0.1", app.addr).await);
    }
    let mut half = connect_from("127.0.0.1", app.addr).await;
    half.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // The fifth from that address is refused at once, with a code.
    let mut fifth = connect_from("127.0.0.1", app.addr).await;
    let refused = until_closed(&mut fifth).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("limit/connections"), "{refused}");
    // Another address is not locked out meanwhile.
    let mut other = connect_from("127.0.0.2", app.addr).await;
    other
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    assert!(until_closed(&mut other).await.starts_with("HTTP/1.1 200"));
    // The header timeout closes the silent and the half-sent ones; then the address may connect.
    for stream in held.iter_mut().chain([&mut half]) {
        until_closed(stream).await;
    }
    // A body has as long as the headers: one never finished, and one sent a byte at a time, are
    // answered `request/timeout` and closed.
    let post = "POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 100\r\n\r\n{";
    let mut stalled = connect_from("127.0.0.1", app.addr).await;
    stalled.write_all(post.as_bytes()).await.unwrap();
    let mut dripped = connect_from("127.0.0.1", app.addr).await;
    dripped.write_all(post.as_bytes()).await.unwrap();
    let answer = until_closed(&mut stalled).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request/timeout"), "{answer}");
    // A byte every 200 ms, until the answer is there to read (never writing after it, which the
    // closed connection would answer with a reset that loses the answer); at most 20 s.
    for _ in 0..100 {
        tokio::select! {
            biased;
            ready = dripped.readable() => {
                ready.unwrap();
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(200)) => {
                dripped.write_all(b" ").await.unwrap();
            }
        }
    }
    let answer = until_closed(&mut dripped).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (status, _) = app.get("/health").await;
    assert_eq!(status, 200);
    app.shutdown().await;
}

/// Twenty pings at once on `socket`, whose limit is 2 messages a second after a burst of 3: the
/// burst is answered, most of the rest refused (sending all twenty within the refill would take
/// over 8 s), each with `limit/messages`.
async fn flooded(socket: &mut crate::common::Client) {
    for _ in 0..20 {
        socket.send(json!({"type": "ping"})).await;
    }
    let mut answers = Vec::new();
    for _ in 0..20 {
        let m = socket
            .until(|m| m["type"] == "pong" || m["type"] == "error")
            .await;
        answers.push(m);
    }
    let pongs = answers.iter().filter(|m| m["type"] == "pong").count();
    assert!((3..20).contains(&pongs), "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|m| m["type"] == "pong" || m["code"] == "limit/messages")
    );
}

#[tokio::test]
async fn silent_sockets_close_and_message_floods_are_refused() {
    let app = app_with(Limits {
        socket_idle: Duration::from_secs(2),
        messages_per_second: 2.0,
        message_burst: 3.0,
        ..test_options().limits
    })
    .await;
    let created = app
        .create(json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let mut flood = app.connect(id, None).await;
    flood.state().await;
    flooded(&mut flood).await;
    // The lobby's socket has the same limit.
    let agent = crate::common::Agent::new(app.addr);
    let mut lobby_flood = agent.ws("/api/lobby/ws").await;
    lobby_flood.until(|m| m["type"] == "lobby").await;
    flooded(&mut lobby_flood).await;
    drop(lobby_flood);
    // Then nothing: the idle socket is closed with 4001, and so is a silent lobby socket, while
    // one that pings stays open past the idle time.
    let mut idle = app.connect(id, None).await;
    idle.state().await;
    while idle.next().await.is_some() {}
    assert_eq!(idle.closed, Some(4001));
    let mut silent_lobby = agent.ws("/api/lobby/ws").await;
    let mut pinging_lobby = agent.ws("/api/lobby/ws").await;
    // Pings well inside the idle time (1.5 s to spare each, for a loaded machine's late
    // wakes) and the message rate, for longer than it (a silent socket closes up to a quarter
    // of the idle time after it).
    for _ in 0..6 {
        pinging_lobby.send(json!({"type": "ping"})).await;
        pinging_lobby.until(|m| m["type"] == "pong").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    while silent_lobby.next().await.is_some() {}
    assert_eq!(silent_lobby.closed, Some(4001));
    pinging_lobby.send(json!({"type": "ping"})).await;
    pinging_lobby.until(|m| m["type"] == "pong").await;
    assert_eq!(pinging_lobby.closed, None);
    app.shutdown().await;
}
