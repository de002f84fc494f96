//! Several nodes on one database (docs/architecture.md section 5.3). Each match is driven by one
//! node at a time, the holder of its lease (`Store::lease`): only there does its actor run, with
//! its clocks, bots, offers and chat. A node that gets a connection or a request for a match
//! another node drives forwards it there, as a pipe: the client is served exactly as the
//! driving node serves its own clients. A node that does not answer is waited out: once its
//! lease expires (it stopped renewing), the node that waited takes the match over by replaying
//! its log from the database, where every acknowledged action is.
//!
//! A forwarded request carries the client's address and the database's node secret
//! (`Store::node_secret`), so the driving node applies its limits per address to the client,
//! not to the forwarding node.

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::extract::ws::{self, WebSocket};
use axum::http::header::{AUTHORIZATION, COOKIE, HOST, ORIGIN};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};

use crate::lobby::{LEASE_TTL, Lobby, Place, RENEW_EVERY};
use crate::model::{ApiError, Code, HttpError};
use plateau_store::Node;

/// Longest wait to connect to the driving node before counting it as gone.
const CONNECT_WAIT: Duration = Duration::from_secs(2);

/// Pause between two tries to reach a match whose node does not answer.
const RETRY_EVERY: Duration = Duration::from_millis(200);

/// The header with the node secret, on a forwarded request.
const SECRET: HeaderName = HeaderName::from_static("x-plateau-node-secret");

/// The header with the client's address, on a forwarded request.
const CLIENT: HeaderName = HeaderName::from_static("x-plateau-client-address");

/// The client's address a forwarded request carries, when its node secret is this database's
/// (`secret`); `None` for a request straight from a client.
#[must_use]
pub fn forwarded_client(headers: &HeaderMap, secret: Option<&str>) -> Option<IpAddr> {
    if !from_a_node(headers, secret) {
        return None;
    }
    headers.get(CLIENT)?.to_str().ok()?.parse().ok()
}

/// Whether the request carries this database's node secret: another node forwarded it.
fn from_a_node(headers: &HeaderMap, secret: Option<&str>) -> bool {
    let (Some(secret), Some(given)) = (secret, headers.get(SECRET)) else {
        return false;
    };
    let given = given.as_bytes();
    // Compared in a time that does not depend on where the texts differ.
    given.len() == secret.len()
        && given
            .iter()
            .zip(secret.as_bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// A request another node forwarded here, for a match this node does not drive either, goes no
/// further: one hop at most, so a wrong `--advertise` (a node's address naming another) cannot
/// send a request round in circles. The client connects again and is sent to the driver.
fn one_hop(headers: &HeaderMap, lobby: &Lobby, holder: &Node) -> Result<(), ApiError> {
    if !holder.address.is_empty() && holder.address == lobby.node().address {
        tracing::error!(
            node = %holder.name,
            address = %holder.address,
            "another node advertises this node's address: check each node's --advertise"
        );
        return Err(ApiError::new(
            Code::Internal,
            format!(
                "node `{}` drives this match but advertises this node's address",
                holder.name
            ),
        ));
    }
    if from_a_node(headers, lobby.store().node_secret()) {
        return Err(ApiError::new(
            Code::MatchMoved,
            format!(
                "forwarded here, but node `{}` drives this match: connect again (if this \
                 repeats, check each node's --advertise address)",
                holder.name
            ),
        ));
    }
    Ok(())
}

/// Tries `connect` on the node that drives match `id`, and, while it does not answer (during
/// each attempt too), asks again where the match is (its lease expires `LEASE_TTL` after its
/// node stopped renewing, and then this node takes it over). `Ok(Some(connection))` to forward on; `Ok(None)` once the match is
/// driven here.
///
/// # Errors
/// `match/moved` when no node answered for `LEASE_TTL` and more; the lobby's errors.
async fn reach<T, F>(
    lobby: &Lobby,
    id: &str,
    mut holder: Node,
    connect: impl Fn(Node) -> F,
) -> Result<Option<T>, ApiError>
where
    F: Future<Output = Result<T, String>>,
{
    let deadline = Instant::now() + LEASE_TTL + 2 * RENEW_EVERY + CONNECT_WAIT;
    loop {
        let attempt = tokio::time::timeout(CONNECT_WAIT, connect(holder.clone()));
        tokio::pin!(attempt);
        // While the attempt waits (a stalled node takes connections and answers nothing), where
        // the match is is asked again every `RETRY_EVERY`: once the lease has expired this node
        // takes the match over then, not at the attempt's end (the nemesis's frozen times,
        // docs/reliability.md). An error there (the database away) leaves the attempt to end.
        let tried = loop {
            tokio::select! {
                tried = &mut attempt => break Ok(tried),
                () = tokio::time::sleep(RETRY_EVERY) => match lobby.locate(id).await {
                    Ok(Place::Here) => return Ok(None),
                    Ok(Place::There(now)) if now != holder => break Err(now),
                    Ok(Place::There(_)) | Err(_) => {}
                },
            }
        };
        let tried = match tried {
            Ok(tried) => tried,
            // Another node drives it now: tried there.
            Err(now) => {
                holder = now;
                continue;
            }
        };
        let why = match tried {
            Ok(Ok(connection)) => return Ok(Some(connection)),
            Ok(Err(e)) => e,
            Err(_) => "no answer".to_owned(),
        };
        if Instant::now() >= deadline {
            return Err(ApiError::new(
                Code::MatchMoved,
                format!(
                    "node `{}` drives this match and does not answer ({why}): try again",
                    holder.name
                ),
            ));
        }
        tracing::debug!(%id, node = %holder.name, %why, "the driving node does not answer");
        tokio::time::sleep(RETRY_EVERY).await;
        match lobby.locate(id).await? {
            Place::Here => return Ok(None),
            Place::There(now) => holder = now,
        }
    }
}

/// The request headers a forwarded request keeps: who the client is (session, seat token) and
/// where it came from (for the same-origin check), plus the node secret and its address.
fn forwarded_headers(
    from: &HeaderMap,
    to: &mut HeaderMap,
    client: Option<IpAddr>,
    secret: Option<&str>,
) {
    // Only this node may say who the client is.
    to.remove(CLIENT);
    to.remove(SECRET);
    for name in [HOST, ORIGIN, COOKIE, AUTHORIZATION] {
        to.remove(&name);
        for value in from.get_all(&name) {
            to.append(name.clone(), value.clone());
        }
    }
    if let (Some(client), Some(secret)) = (client, secret)
        && let (Ok(client), Ok(secret)) = (
            HeaderValue::from_str(&client.to_string()),
            HeaderValue::from_str(secret),
        )
    {
        to.insert(CLIENT, client);
        to.insert(SECRET, secret);
    }
}

/// A match WebSocket to the driving node.
pub type Upstream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Opens match `id`'s WebSocket on the node that drives it, as the client would (`headers` are
/// the client's upgrade request's), with that node: `Ok(None)` when the match came to be driven
/// here meanwhile.
///
/// # Errors
/// As `reach`.
pub async fn socket_to(
    lobby: &Lobby,
    id: &str,
    holder: Node,
    headers: &HeaderMap,
    client: Option<IpAddr>,
) -> Result<Option<(Upstream, Node)>, ApiError> {
    one_hop(headers, lobby, &holder)?;
    let secret = lobby.store().node_secret();
    reach(lobby, id, holder, |node| async move {
        let url = format!("ws://{}/api/matches/{id}/ws", node.address);
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        forwarded_headers(headers, request.headers_mut(), client, secret);
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| e.to_string())?;
        Ok((socket, node))
    })
    .await
}

/// Carries frames both ways between a client's socket and the socket to `holder`, the node
/// that drove match `id` when it was opened, until either side closes; a close from the node is
/// passed on as is. If the node's socket breaks without a close (the node died), or the
/// database names another driver (`holder` stalled and lost the match, maybe to this node), the
/// client is told to reconnect (`1012`), and reaches the driver again.
pub async fn pipe(
    client: WebSocket,
    upstream: Upstream,
    lobby: &Lobby,
    slot: Option<crate::net::ConnSlot>,
    id: &str,
    holder: &Node,
) {
    use tungstenite::Message as Up;
    let (mut to_client, mut from_client) = client.split();
    let (mut to_node, mut from_node) = upstream.split();
    let mut shutdown = lobby.shutdown_signal();
    let down = async {
        while let Some(Ok(frame)) = from_node.next().await {
            let frame = match frame {
                Up::Text(text) => ws::Message::Text(text.as_str().into()),
                Up::Binary(bytes) => ws::Message::Binary(bytes),
                Up::Close(close) => {
                    let close = close.map(|c| ws::CloseFrame {
                        code: c.code.into(),
                        reason: c.reason.as_str().into(),
                    });
                    let _ = to_client.send(ws::Message::Close(close)).await;
                    return;
                }
                Up::Ping(_) | Up::Pong(_) | Up::Frame(_) => continue,
            };
            if to_client.send(frame).await.is_err() {
                return;
            }
        }
        let _ = to_client
            .send(close(1012, "the match's node stopped: reconnect"))
            .await;
    };
    let up = async {
        while let Some(Ok(frame)) = from_client.next().await {
            if matches!(frame, ws::Message::Text(_) | ws::Message::Binary(_))
                && let Some(s) = &slot
            {
                s.touch();
            }
            let frame = match frame {
                ws::Message::Text(text) => Up::Text(text.as_str().into()),
                ws::Message::Binary(bytes) => Up::Binary(bytes),
                ws::Message::Close(close) => {
                    Up::Close(close.map(|c| tungstenite::protocol::CloseFrame {
                        code: c.code.into(),
                        reason: c.reason.as_str().into(),
                    }))
                }
                // Passed on as it came (the driver's idle time counts messages only); its pong
                // is the forwarding node's, as the client's is.
                ws::Message::Ping(bytes) => Up::Ping(bytes),
                ws::Message::Pong(_) => continue,
            };
            if to_node.send(frame).await.is_err() {
                return;
            }
        }
        let _ = to_node.close().await;
    };
    let moved = moved_from(lobby, id, holder);
    let closing = tokio::select! {
        () = down => None,
        () = up => None,
        () = moved => Some(close(1012, "the match moved to another node: reconnect")),
        _ = shutdown.wait_for(|stopping| *stopping) => Some(close(1001, "server shutting down")),
        () = crate::net::evicted(slot.as_ref()) => {
            Some(close(crate::ws::EVICTED.0, crate::ws::EVICTED.1))
        }
    };
    if let Some(closing) = closing {
        let _ = to_client.send(closing).await;
    }
}

/// Completes once match `id` is no longer driven by `holder`, as this node or the database says
/// (asked every `RENEW_EVERY`; a database that does not answer changes nothing: the driver
/// fences itself if it loses the lease): a forwarded socket or request to `holder` is then
/// given up, and the client reaches the driver again.
async fn moved_from(lobby: &Lobby, id: &str, holder: &Node) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let driver = if lobby.drives(id) {
            Some(lobby.node().clone())
        } else {
            match lobby.store().holder(id).await {
                Ok(driver) => driver,
                Err(_) => continue,
            }
        };
        if driver.as_ref() != Some(holder) {
            return;
        }
    }
}

fn close(code: u16, reason: &'static str) -> ws::Message {
    ws::Message::Close(Some(ws::CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Sends `request` (for match `id`) to the node that drives the match and answers with its
/// response; `Err(request)` when the match came to be driven here meanwhile, for the caller to
/// serve.
pub async fn request_to(
    lobby: &Lobby,
    id: &str,
    holder: Node,
    request: Request,
    client: Option<IpAddr>,
) -> Result<Response, Request> {
    if let Err(e) = one_hop(request.headers(), lobby, &holder) {
        return Ok(HttpError(e).into_response());
    }
    let secret = lobby.store().node_secret();
    let connected = reach(lobby, id, holder, |node| async move {
        Ok((http_to(&node).await?, node))
    })
    .await;
    let (mut sender, holder) = match connected {
        Ok(Some(connected)) => connected,
        Ok(None) => return Err(request),
        Err(e) => return Ok(HttpError(e).into_response()),
    };
    let request = forwarded_request(request, client, secret);
    // A node that stalls after the connection was made answers nothing: once another node
    // drives the match, the client is told to ask again rather than wait for it.
    tokio::select! {
        answer = sender.send_request(request) => match answer {
            Ok(response) => Ok(response.map(Body::new)),
            Err(e) => Ok(HttpError(ApiError::new(
                Code::MatchMoved,
                format!("the node that drives this match did not answer ({e}): try again"),
            ))
            .into_response()),
        },
        () = moved_from(lobby, id, &holder) => Ok(HttpError(ApiError::new(
            Code::MatchMoved,
            "the node that drove this match stopped answering, and another drives it now: \
             try again",
        ))
        .into_response()),
    }
}

/// An HTTP/1 connection to `node`.
async fn http_to(node: &Node) -> Result<hyper::client::conn::http1::SendRequest<Body>, String> {
    let stream = TcpStream::connect(&node.address)
        .await
        .map_err(|e| e.to_string())?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

/// `request` as this node sends it on to another: the headers of `forwarded_headers`, the path
/// and query only.
fn forwarded_request(request: Request, client: Option<IpAddr>, secret: Option<&str>) -> Request {
    let (mut parts, body) = request.into_parts();
    let original = parts.headers.clone();
    forwarded_headers(&original, &mut parts.headers, client, secret);
    // Origin-form: the path and query only.
    if let Some(path) = parts.uri.path_and_query().cloned() {
        parts.uri = Uri::from(path);
    }
    Request::from_parts(parts, body)
}

/// Sends a new match's creation (`POST /api/matches`) to the node whose turn it is to drive one
/// (`Lobby::placement`), which creates the match, takes its lease and answers: so the matches
/// spread over the live nodes whichever node the load balancer chose. `Err(request)` for this
/// node to serve: its own turn, a creation another node forwarded (one hop), or a node that
/// cannot be reached within `CONNECT_WAIT` (nothing was sent: the creation is made here). A
/// node that fails, or does not answer within `LEASE_TTL`, after the request was sent is
/// answered `match/moved` ("try again"): whether it created the match cannot be known.
pub async fn create_elsewhere(
    lobby: &Lobby,
    request: Request,
    client: Option<IpAddr>,
) -> Result<Response, Request> {
    let secret = lobby.store().node_secret();
    if from_a_node(request.headers(), secret) {
        return Err(request);
    }
    let Some(node) = lobby.placement() else {
        return Err(request);
    };
    let mut sender = match tokio::time::timeout(CONNECT_WAIT, http_to(&node)).await {
        Ok(Ok(sender)) => sender,
        Ok(Err(why)) => {
            tracing::debug!(node = %node.name, %why, "match created here: its node does not answer");
            return Err(request);
        }
        Err(_) => return Err(request),
    };
    // Bounded: a node that stalled after it accepted the connection answers nothing.
    let answer = tokio::time::timeout(
        LEASE_TTL,
        sender.send_request(forwarded_request(request, client, secret)),
    )
    .await;
    match answer {
        Ok(Ok(response)) => Ok(response.map(Body::new)),
        Ok(Err(e)) => Ok(unanswered(&node, &e.to_string())),
        Err(_) => Ok(unanswered(&node, "no answer")),
    }
}

/// The answer to a creation sent to `node` that did not answer.
fn unanswered(node: &Node, why: &str) -> Response {
    HttpError(ApiError::new(
        Code::MatchMoved,
        format!(
            "node `{}` did not answer the match's creation ({why}): try again",
            node.name
        ),
    ))
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A forwarded client's address is believed only with this database's node secret, and a
    /// request never carries a client's own copy of those headers on.
    #[test]
    fn only_a_node_with_the_secret_names_the_client() {
        let secret = "9f".repeat(32);
        let mut headers = HeaderMap::new();
        headers.insert(CLIENT, HeaderValue::from_static("203.0.113.7"));
        assert_eq!(forwarded_client(&headers, Some(&secret)), None, "no secret");
        headers.insert(SECRET, HeaderValue::from_static("guess"));
        assert_eq!(
            forwarded_client(&headers, Some(&secret)),
            None,
            "a wrong one"
        );
        headers.insert(SECRET, HeaderValue::from_str(&secret).unwrap());
        assert_eq!(
            forwarded_client(&headers, None),
            None,
            "one process, no secret"
        );
        assert_eq!(
            forwarded_client(&headers, Some(&secret)),
            Some("203.0.113.7".parse().unwrap())
        );
        headers.insert(CLIENT, HeaderValue::from_static("not an address"));
        assert_eq!(forwarded_client(&headers, Some(&secret)), None);
        // Forwarded by a node all the same (`one_hop` forwards it no further).
        assert!(from_a_node(&headers, Some(&secret)));
        headers.remove(SECRET);
        assert!(!from_a_node(&headers, Some(&secret)));

        // What a node forwards: the client's identity and origin, its own word on the address.
        let mut from = HeaderMap::new();
        from.insert(HOST, HeaderValue::from_static("plateau.example"));
        from.insert(COOKIE, HeaderValue::from_static("plateau_session=abc"));
        from.insert(CLIENT, HeaderValue::from_static("198.51.100.1"));
        from.insert(SECRET, HeaderValue::from_static("guess"));
        from.insert("x-other", HeaderValue::from_static("dropped"));
        let mut to = HeaderMap::new();
        forwarded_headers(
            &from,
            &mut to,
            Some("192.0.2.9".parse().unwrap()),
            Some(&secret),
        );
        assert_eq!(to[HOST], "plateau.example");
        assert_eq!(to[COOKIE], "plateau_session=abc");
        assert_eq!(to[CLIENT], "192.0.2.9");
        assert_eq!(to[SECRET], secret.as_str());
        assert!(to.get("x-other").is_none());
        // Without a secret (one process) nothing is said about the client, and the client's own
        // claims are dropped.
        let mut to = from.clone();
        forwarded_headers(&from, &mut to, Some("192.0.2.9".parse().unwrap()), None);
        assert!(to.get(CLIENT).is_none() && to.get(SECRET).is_none());
    }
}
