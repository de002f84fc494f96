//! The load client's wire, which both paces share: plain HTTP/1.1 requests and WebSockets to a
//! `plateau serve` on loopback, a match created and its seats taken, the parts of a server
//! message a load reads; and the closed loop's tables, each playing one match at a time by
//! random legal actions, one in flight at a time.

use std::net::SocketAddr;
use std::time::Instant;

use futures_util::SinkExt;
use rand::Rng;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A TCP connection to `addr` from the local address `from` (127.0.0.x), so a load can come from
/// several client addresses of the loopback network.
pub async fn connect_from(from: std::net::IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// One HTTP request with a JSON body; returns the status and the JSON answer (`Null` if none).
pub async fn request(
    from: std::net::IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let stream = connect_from(from, addr).await?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let (status, _, rest) = exchange(
        stream,
        addr,
        method,
        path,
        "Content-Type: application/json\r\n",
        &body,
    )
    .await?;
    Ok((status, serde_json::from_str(&rest).unwrap_or(Value::Null)))
}

/// One HTTP/1.1 request on `stream` to `addr`, with `headers` (each ending in CRLF) after
/// `Host` and `Connection: close`, and `body`; returns the answer's status (0 if unreadable),
/// head and body.
pub async fn exchange(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> std::io::Result<(u16, String, String)> {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         {headers}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, head.to_owned(), rest.to_owned()))
}

/// A WebSocket to match `id` taking the seat of `token` (sent in the `Authorization` header).
pub async fn seat_socket(addr: SocketAddr, id: &str, token: Option<&str>) -> Result<Ws, String> {
    let request = socket_request(addr, &format!("/api/matches/{id}/ws"), token)?;
    let (ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// The upgrade request of a WebSocket to `path` on `addr`, with `token` as the bearer if any.
pub fn socket_request(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
) -> Result<Request, String> {
    let mut request = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(t) = token {
        let value = format!("Bearer {t}").parse().map_err(|_| "bad token")?;
        request.headers_mut().insert("Authorization", value);
    }
    Ok(request)
}

/// Creates a match of `game` with `seats` people and takes every seat (the creator's, then
/// joins), each step through `ask` (a POST of its body to its path, answering the answer if it
/// had the status expected: 201 for the creation, 200 for a join); returns the match id and
/// the seats' tokens.
///
/// # Errors
/// The first error `ask` returns.
pub async fn take_seats<F, Fut>(
    game: &str,
    seats: usize,
    mut ask: F,
) -> Result<(String, Vec<String>), String>
where
    F: FnMut(String, Value, u16) -> Fut,
    Fut: std::future::Future<Output = Result<Value, String>>,
{
    let humans: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
    let created = ask(
        "/api/matches".to_owned(),
        json!({"game": game, "seats": humans}),
        201,
    )
    .await?;
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let mut tokens = vec![created["token"].as_str().unwrap_or_default().to_owned()];
    for _ in 1..seats {
        let joined = ask(format!("/api/matches/{id}/join"), json!({}), 200).await?;
        tokens.push(joined["token"].as_str().unwrap_or_default().to_owned());
    }
    Ok((id, tokens))
}

/// Creates a match of `game` with `seats` people from client address `from` through the first
/// of `nodes`, takes every seat (the creator's, then joins) and opens a socket per seat, seat `k`'s
/// through node `k % nodes.len()` (several nodes of one database); returns the match id and the
/// sockets.
///
/// # Errors
/// A message if the server refuses or a socket fails.
pub async fn open_table(
    from: std::net::IpAddr,
    nodes: &[SocketAddr],
    game: &str,
    seats: usize,
) -> Result<(String, Vec<Ws>), String> {
    let addr = nodes[0];
    let (id, tokens) = take_seats(game, seats, move |path, body, expect| async move {
        let (status, answer) = request(from, addr, "POST", &path, Some(&body))
            .await
            .map_err(|e| e.to_string())?;
        let step = if expect == 201 { "create" } else { "join" };
        if status == expect {
            Ok(answer)
        } else {
            Err(format!("{step}: {status} {answer}"))
        }
    })
    .await?;
    let mut sockets = Vec::with_capacity(seats);
    for (k, t) in tokens.iter().enumerate() {
        sockets.push(seat_socket(nodes[k % nodes.len()], &id, Some(t)).await?);
    }
    Ok((id, sockets))
}

/// What a table reports to the load's counters.
pub trait Report: Send + Sync {
    /// An action acknowledged after `micros`.
    fn acked(&self, micros: u64);
    /// An action's state reached every other seat `micros` after it was sent.
    fn seen(&self, micros: u64);
    /// An action refused, or a socket lost.
    fn failed(&self, why: &str);
    /// A match played to its end.
    fn finished(&self);
}

/// The parts of a server message the load reads; the rest is skipped unparsed (a client that
/// built the whole message as a JSON tree would spend more than the server on it).
#[derive(serde::Deserialize)]
pub struct ServerMessage<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: std::borrow::Cow<'a, str>,
    #[serde(default)]
    pub version: Option<u64>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub legal: Vec<String>,
    #[serde(default)]
    pub code: Option<String>,
}

/// What a seat was last told: whether the match is live, its version, its legal actions.
#[derive(Clone)]
struct SeatView {
    live: bool,
    version: u64,
    legal: Vec<String>,
}

/// Plays matches of `game` at one table until `until`, each by random legal actions with one
/// action in flight: the seat to act sends one of its `legal`, and it is acknowledged when that
/// seat gets a `state` with a higher version; it is seen once every other seat got a `state`
/// after it was sent. Every seat's socket is read as messages come, so the next seat acts on its
/// latest state. A finished match is replaced at once.
pub async fn play_table(
    from: std::net::IpAddr,
    nodes: Vec<SocketAddr>,
    game: String,
    seats: usize,
    until: Instant,
    mut rng: impl Rng + Send,
    report: std::sync::Arc<dyn Report>,
) {
    use futures_util::StreamExt;
    use futures_util::stream::SelectAll;
    while Instant::now() < until {
        let (_, sockets) = match open_table(from, &nodes, &game, seats).await {
            Ok(t) => t,
            Err(e) => {
                report.failed(&e);
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                continue;
            }
        };
        let mut sinks = Vec::with_capacity(seats);
        let mut streams: SelectAll<_> = SelectAll::new();
        for (k, ws) in sockets.into_iter().enumerate() {
            let (sink, stream) = ws.split();
            sinks.push(sink);
            streams.push(stream.map(move |m| (k, m)));
        }
        let mut states: Vec<Option<SeatView>> = vec![None; seats];
        let mut in_flight: Option<(usize, u64, Instant)> = None;
        // Since the last action was sent: when, and the seats that have not had a state since.
        let mut unseen: Option<(Instant, Vec<bool>)> = None;
        loop {
            if in_flight.is_none() {
                let to_act = states
                    .iter()
                    .position(|s| s.as_ref().is_some_and(|s| s.live && !s.legal.is_empty()));
                if let Some(i) = to_act {
                    let s = states[i].as_ref().expect("found above");
                    let action = &s.legal[rng.random_range(0..s.legal.len())];
                    let act = json!({"type": "act", "version": s.version, "action": action});
                    if sinks[i]
                        .send(Message::Text(act.to_string().into()))
                        .await
                        .is_err()
                    {
                        report.failed("send failed");
                        break;
                    }
                    let now = Instant::now();
                    in_flight = Some((i, s.version, now));
                    let others: Vec<bool> = (0..seats).map(|k| k != i).collect();
                    unseen = others.contains(&true).then_some((now, others));
                }
            }
            let Some((k, frame)) = streams.next().await else {
                report.failed("sockets closed");
                break;
            };
            let Ok(Message::Text(text)) = frame else {
                if frame.is_err() {
                    report.failed("socket error");
                    break;
                }
                continue;
            };
            let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) else {
                continue;
            };
            match msg.kind.as_ref() {
                "state" => {
                    if let Some((sent, waiting)) = &mut unseen {
                        waiting[k] = false;
                        if !waiting.contains(&true) {
                            report.seen(sent.elapsed().as_micros() as u64);
                            unseen = None;
                        }
                    }
                    if let Some((i, v, sent)) = in_flight
                        && i == k
                        && msg.version > Some(v)
                    {
                        report.acked(sent.elapsed().as_micros() as u64);
                        in_flight = None;
                    }
                    let over = msg.status.as_deref() == Some("finished");
                    states[k] = Some(SeatView {
                        live: msg.status.as_deref() == Some("live"),
                        version: msg.version.unwrap_or(0),
                        legal: msg.legal,
                    });
                    if over {
                        report.finished();
                        break;
                    }
                }
                "error" if in_flight.is_some_and(|(i, ..)| i == k) => {
                    report.failed(msg.code.as_deref().unwrap_or("error"));
                    in_flight = None;
                    // Act again only on a newer state of that seat.
                    states[k] = None;
                }
                _ => {}
            }
            if Instant::now() >= until {
                break;
            }
        }
    }
}
