//! The WebSocket of one connection (docs/protocol.md section 4): reads client messages, checks their
//! shape and size, passes them to the match actor, and writes the actor's messages back.
//!
//! `session` is generic over the sink and the stream, so it can run over a real socket or channels.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use plateau_engine::Seat;
use tokio::sync::mpsc;

use crate::limits::Limits;
use crate::lobby::Lobby;
use crate::model::{ApiError, Code};
use crate::players::Player;
use plateau_match::actor::Outgoing;

/// Largest client message read, in bytes (docs/protocol.md section 6): a frame (or a message in
/// fragments) announced larger is not read at all, and the connection closes with 1009, so an
/// unfinished frame holds at most this much of the server's memory.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// The close of a socket whose place was given to a newcomer (`net`): its network held more
/// connections than the newcomer's while the server held as many as it may.
pub const EVICTED: (u16, &str) = (
    4002,
    "too many connections from your network: closed for another client",
);

/// The close after a frame that is not read: over `MAX_MESSAGE`, or not a WebSocket frame.
pub const UNREADABLE: (u16, &str) = (1009, "a frame over 16 KiB, or not a WebSocket frame");

/// Messages a connection's queue holds before the connection is dropped as too slow.
const QUEUE: usize = 64;

/// A write the client does not take within this time (it reads nothing) ends the connection.
const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Sends one message, giving up after `SEND_TIMEOUT`; false if it did not go out.
pub(crate) async fn send_within<S: Sink<Message> + Unpin>(sink: &mut S, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sink.send(message)).await,
        Ok(Ok(()))
    )
}

/// Ends a socket's closing handshake: answers the client's close, or sends and flushes ours,
/// giving up after `SEND_TIMEOUT`.
pub(crate) async fn finish<S: Sink<Message> + Unpin>(sink: &mut S) {
    let _ = tokio::time::timeout(SEND_TIMEOUT, sink.close()).await;
}

/// Most queued messages written to a socket before it is flushed.
const BATCH_MAX: usize = 16;

/// Writes `messages` and flushes them together (one system call for a few small messages),
/// giving up after `SEND_TIMEOUT`; false if they did not all go out.
async fn send_all_within<S: Sink<Message> + Unpin>(sink: &mut S, messages: Vec<Message>) -> bool {
    if messages.is_empty() {
        return true;
    }
    let all = async {
        for m in messages {
            sink.feed(m).await?;
        }
        sink.flush().await
    };
    matches!(tokio::time::timeout(SEND_TIMEOUT, all).await, Ok(Ok(())))
}

/// A message already waiting for the writer, without waiting: the actor's first, as in the
/// writer's `select!`, then the reader's (`Err`); `None` when neither has one.
fn queued<A, B>(
    actor: &mut mpsc::Receiver<A>,
    reader: &mut mpsc::Receiver<B>,
) -> Option<Result<A, B>> {
    match actor.try_recv() {
        Ok(msg) => Some(Ok(msg)),
        Err(_) => reader.try_recv().ok().map(Err),
    }
}

/// What the writer does with a message from the actor: the text to send, or `Err` with the close
/// frame to end with, if any (the actor dropped the connection: shutting down, or too slow).
fn from_actor(
    msg: Option<Outgoing>,
    stopping: &tokio::sync::watch::Receiver<bool>,
) -> Result<Utf8Bytes, Option<(u16, &'static str)>> {
    match msg {
        // The actor's messages are serde_json's UTF-8: the check never fails.
        Some(Outgoing::Text(text)) => Utf8Bytes::try_from(text).map_err(|_| Some((1011, "text"))),
        None if *stopping.borrow() => Err(Some((1001, "server shutting down"))),
        None => Err(Some((1013, "reconnect to resume"))),
    }
}

/// The same for the reader's answers: `Err(Some(..))` is a close the reader decided on,
/// `Err(None)` the reader's end (the client left).
fn from_reader(
    reply: Option<Result<String, (u16, &'static str)>>,
    stopping: &tokio::sync::watch::Receiver<bool>,
) -> Result<Utf8Bytes, Option<(u16, &'static str)>> {
    match reply {
        Some(Ok(text)) => Ok(text.into()),
        Some(Err(closing)) => Err(Some(closing)),
        None if *stopping.borrow() => Err(Some((1001, "server shutting down"))),
        None => Err(None),
    }
}

/// The WebSocket settings of every socket: frames and messages up to `MAX_MESSAGE`, and small
/// buffers that grow as a message needs, at most to `MAX_MESSAGE` (a client's messages are a few
/// hundred bytes: a read buffer of 1 KiB takes one whole, and every open socket holds one). Frames wait in the write buffer until a flush, so the messages of one batch leave in
/// one write; one larger than the buffer is written at once.
pub fn sized(upgrade: axum::extract::WebSocketUpgrade) -> axum::extract::WebSocketUpgrade {
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(1024)
        .write_buffer_size(16 * 1024)
}

/// One socket's message rate (`Limits::messages_per_second` after a burst of
/// `Limits::message_burst`): governor's GCRA limiter, which is a token bucket kept as one
/// timestamp. A burst under one message is one; a rate too high for a nanosecond period is no
/// limit; a rate of zero or less lets the burst through and nothing after it.
pub struct Rate {
    /// `None`: no limit.
    limiter: Option<governor::DefaultDirectRateLimiter>,
    per_second: f64,
}

impl Rate {
    /// A full bucket for `limits`.
    #[must_use]
    pub fn new(limits: &Limits) -> Rate {
        let per_second = limits.messages_per_second;
        // A century stands for never: governor counts in nanoseconds, as a u64.
        let never = Duration::from_secs(100 * 365 * 24 * 3600);
        let period = if per_second > 0.0 {
            Duration::try_from_secs_f64(1.0 / per_second).unwrap_or(never)
        } else {
            never
        };
        // Truncated as the bucket's fractional tokens were: 40.9 lets 40 through at once.
        let burst = NonZeroU32::new(limits.message_burst.clamp(1.0, f64::from(u32::MAX)) as u32)
            .unwrap_or(NonZeroU32::MIN);
        let limiter = governor::Quota::with_period(period)
            .map(|q| governor::RateLimiter::direct(q.allow_burst(burst)));
        Rate {
            limiter,
            per_second,
        }
    }

    /// Takes one message's place.
    ///
    /// # Errors
    /// `limit/messages` when the socket sent its burst and more than the rate since (the message
    /// is then not read).
    pub fn take(&mut self) -> Result<(), ApiError> {
        match &self.limiter {
            Some(l) if l.check().is_err() => Err(ApiError::new(
                Code::LimitMessages,
                format!(
                    "more than {} messages a second: this one was not read",
                    self.per_second
                ),
            )),
            _ => Ok(()),
        }
    }
}

pub use plateau_protocol::{ActionRequest, ClientMessage, MAX_TURN_ACTIONS};

/// Reads one client message (`plateau_protocol::parse`).
///
/// # Errors
/// `msg/malformed` (not a JSON object with a string `type`, or bad fields) or `msg/unknown`.
pub fn parse_client_message(text: &str) -> Result<ClientMessage, ApiError> {
    plateau_protocol::parse(text).map_err(ApiError::from)
}

/// A close frame with `code` and `reason`.
pub(crate) fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from(reason.to_owned()),
    }))
}

/// Runs one connection to match `id` until either side closes or the service shuts down.
/// `token` names a seat; `player` is the session's player, if any (it counts as online while
/// the connection is open, and may hold a seat of the match without a token); `peer` is the
/// client's address (the message rate does not apply to an exempt one, `Limits::exempt`).
#[expect(
    clippy::too_many_arguments,
    reason = "the connection's parts as the route has them: match, seat token, player, address, place under the caps, and the socket's two halves"
)]
pub async fn session<S, R, E>(
    lobby: Arc<Lobby>,
    id: String,
    token: Option<String>,
    player: Option<Player>,
    peer: Option<std::net::IpAddr>,
    slot: Option<crate::net::ConnSlot>,
    mut sink: S,
    mut stream: R,
) where
    S: Sink<Message> + Unpin + Send + 'static,
    R: Stream<Item = Result<Message, E>> + Unpin + Send,
{
    let (out_tx, mut out_rx) = mpsc::channel::<Outgoing>(QUEUE);
    let conn = lobby.next_connection();
    let _open = crate::metrics::SocketOpen::match_socket();
    let mut seat =
        match Box::pin(lobby.subscribe(&id, conn, token, player.clone(), peer, out_tx.clone()))
            .await
        {
            Ok(seat) => seat,
            Err(e) => {
                // The match stopped here as the socket opened (it moved, or this node fenced
                // itself): "reconnect to resume", as the sockets it had; any other refusal is
                // final.
                let code = if e.code == Code::MatchMoved {
                    1013
                } else {
                    1008
                };
                let _ = sink.send(Message::Text(e.to_ws_json().into())).await;
                let _ = sink.send(close(code, e.code.as_str())).await;
                return;
            }
        };
    // Only the actor holds the connection's sender from now on: when it lets the connection go
    // (too slow, or the match stopped here: moved to another node, expired), the writer sees the
    // channel close and closes the socket ("reconnect to resume"). An `auth` borrows it back.
    let out_weak = out_tx.downgrade();
    drop(out_tx);
    if let Some(p) = &player {
        lobby.presence().socket_opened(p.id);
    }
    // Answers to this connection's own messages, in order with the actor's broadcasts; `Err` is
    // a close code and reason the reader decided on.
    let (reply_tx, mut reply_rx) = mpsc::channel::<Result<String, (u16, &'static str)>>(QUEUE);
    let mut shutdown = lobby.shutdown_signal();
    let mut writer_shutdown = lobby.shutdown_signal();
    let stopping = lobby.shutdown_signal();
    let writer = tokio::spawn(async move {
        // The close frame to send when the loop ends, if any.
        let close_with = loop {
            let first = tokio::select! {
                // The actor's messages first: an answer to a later message of the client (a
                // pong) never overtakes a state already queued.
                biased;
                msg = out_rx.recv() => from_actor(msg, &stopping),
                reply = reply_rx.recv() => from_reader(reply, &stopping),
                () = stopped(&mut writer_shutdown) => Err(Some((1001, "server shutting down"))),
            };
            // What else is queued already goes out with it, in one write to the socket.
            let mut batch = Vec::new();
            let mut next = first;
            let ended = loop {
                match next {
                    Ok(text) => batch.push(Message::Text(text)),
                    Err(closing) => break Some(closing),
                }
                if batch.len() >= BATCH_MAX {
                    break None;
                }
                next = match queued(&mut out_rx, &mut reply_rx) {
                    Some(Ok(msg)) => from_actor(Some(msg), &stopping),
                    Some(Err(reply)) => from_reader(Some(reply), &stopping),
                    None => break None,
                };
            };
            if !send_all_within(&mut sink, batch).await {
                break None;
            }
            if let Some(closing) = ended {
                break closing;
            }
        };
        if let Some((code, reason)) = close_with {
            send_within(&mut sink, close(code, reason)).await;
        }
        finish(&mut sink).await;
    });
    let mut writer = writer;
    let mut bans = lobby.sanctions().bans();
    let player_id = player.as_ref().map(|p| p.id);
    let limits = lobby.options().limits.clone();
    let mut rate = Rate::new(&limits);
    let limited = peer.is_none_or(|p| limits.applies_to(p));
    // When the client last sent a message: control frames (pings) do not count, so a socket
    // that only pings still closes after the idle time.
    let mut heard = tokio::time::Instant::now();
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            () = tokio::time::sleep_until(heard + limits.socket_idle) => {
                let _ = reply_tx.send(Err((4001, "idle: no message for a while"))).await;
                break;
            }
            () = stopped(&mut shutdown) => break,
            () = crate::net::evicted(slot.as_ref()) => {
                let _ = reply_tx.send(Err(EVICTED)).await;
                break;
            }
            () = crate::sanctions::banned_now(&mut bans, lobby.sanctions(), player_id) => {
                let _ = reply_tx.send(Err(crate::sanctions::BANNED_CLOSE)).await;
                break;
            }
            // The writer gave up (the client reads nothing, or left): so does the reader, and
            // the socket closes.
            _ = &mut writer => break,
        };
        let message = match frame {
            Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => m,
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(_))) | None => break,
            // A frame over `MAX_MESSAGE` (or not a WebSocket frame): nothing more is read.
            Some(Err(_)) => {
                let _ = reply_tx.send(Err(UNREADABLE)).await;
                break;
            }
        };
        // The actor let the connection go (the match stopped here: moved, or this node fenced
        // itself; or the client read too slowly): the writer is closing the socket with
        // "reconnect to resume", and nothing read after is handled, so an action that crossed
        // the close is not played by the match's next actor while the client, reconnected, sees
        // the state without it and acts again.
        if out_weak.strong_count() == 0 {
            break;
        }
        heard = tokio::time::Instant::now();
        if let Some(s) = &slot {
            s.touch();
        }
        let text = match message {
            Message::Text(t) => t,
            // Counted by the message limit like any other message, then refused.
            other => {
                let e = match limited.then(|| rate.take()).and_then(Result::err) {
                    Some(e) => e,
                    None => binary_refused(other.into_data().len()),
                };
                if reply_tx.send(Ok(e.to_ws_json())).await.is_err() {
                    break;
                }
                continue;
            }
        };
        let reply = if let Some(e) = limited.then(|| rate.take()).and_then(Result::err) {
            Some(e.to_ws_json())
        } else if text.len() > MAX_MESSAGE {
            Some(too_large(text.len()).to_ws_json())
        } else if let Ok(ClientMessage::Auth(token)) = parse_client_message(text.as_str()) {
            // The connection becomes its seat's; the new state follows from the actor.
            let Some(out) = out_weak.upgrade() else {
                // The actor let the connection go: the writer is closing the socket.
                break;
            };
            match Box::pin(lobby.subscribe(&id, conn, Some(token), player.clone(), peer, out)).await
            {
                Ok(s) => {
                    seat = s;
                    None
                }
                Err(e) => Some(e.to_ws_json()),
            }
        } else {
            // Boxed while it runs, as the other calls to the match: the session's future, held
            // for as long as the socket is open, keeps only what waits for the next frame.
            Box::pin(handle(
                &lobby,
                &id,
                conn,
                seat,
                player_id,
                peer,
                text.as_str(),
            ))
            .await
        };
        if let Some(reply) = reply
            && reply_tx.send(Ok(reply)).await.is_err()
        {
            break;
        }
    }
    drop(reply_tx);
    if !writer.is_finished() {
        let _ = writer.await;
    }
    lobby.unsubscribe(&id, conn).await;
    if let Some(p) = &player {
        lobby.presence().socket_closed(p.id);
    }
}

/// Completes once the service is shutting down (or the lobby is gone).
async fn stopped(signal: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = signal.wait_for(|s| *s).await;
}

/// The refusal of a message of `len` bytes over `MAX_MESSAGE` (`msg/too_large`).
pub(crate) fn too_large(len: usize) -> ApiError {
    ApiError::new(
        Code::MsgTooLarge,
        format!("a message of {len} bytes is over the limit of {MAX_MESSAGE} bytes"),
    )
}

/// The refusal of a binary message of `len` bytes: not read at any size (the protocol is JSON
/// text).
pub(crate) fn binary_refused(len: usize) -> ApiError {
    if len > MAX_MESSAGE {
        too_large(len)
    } else {
        ApiError::new(
            Code::MsgMalformed,
            "binary frames are not read; send JSON text",
        )
    }
}

/// Handles one text message of connection `conn` (of `player`, if any); returns the reply for
/// it, if any.
async fn handle(
    lobby: &Lobby,
    id: &str,
    conn: u64,
    seat: Option<Seat>,
    player: Option<crate::players::PlayerId>,
    peer: Option<std::net::IpAddr>,
    text: &str,
) -> Option<String> {
    let message = match parse_client_message(text) {
        Ok(m) => m,
        Err(e) => return Some(e.to_ws_json()),
    };
    let need_seat = || {
        seat.ok_or_else(|| {
            ApiError::new(
                Code::AuthSeat,
                "spectators cannot act: connect with a seat token",
            )
        })
    };
    let result = match message {
        ClientMessage::Ping => {
            let pong = plateau_protocol::server::MatchMessage::Pong;
            return serde_json::to_string(&pong).ok();
        }
        // Handled by the session, which keeps the connection's seat.
        ClientMessage::Auth(_) => return None,
        ClientMessage::Sync => {
            lobby.snapshot(id, conn).await;
            return None;
        }
        ClientMessage::Act { version, actions } => match need_seat() {
            Ok(s) => lobby.act(id, conn, s, version, actions).await,
            Err(e) => Err(e),
        },
        ClientMessage::Resign => match need_seat() {
            Ok(s) => lobby.resign(id, s).await,
            Err(e) => Err(e),
        },
        ClientMessage::Offer(kind) => match need_seat() {
            Ok(s) => lobby.offer(id, s, kind, peer).await,
            Err(e) => Err(e),
        },
        ClientMessage::Decline(kind) => match need_seat() {
            Ok(s) => lobby.decline(id, s, kind).await,
            Err(e) => Err(e),
        },
        // A muted or banned player's line is refused before the match sees it.
        ClientMessage::Chat(text) => match player.map(|p| lobby.sanctions().check_may_chat(p)) {
            Some(Err(e)) => Err(e),
            _ => lobby.chat(id, conn, text).await,
        },
        ClientMessage::Mute { name, mute } => lobby.mute(id, conn, name, mute).await,
    };
    result.err().map(|e| e.to_ws_json())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::CreateRequest;
    use crate::model::SeatSpec;
    use crate::{Catalogue, Options, open_store};

    async fn next_json(rx: &mut mpsc::Receiver<Message>) -> serde_json::Value {
        match rx.recv().await {
            Some(Message::Text(t)) => serde_json::from_str(&t).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    /// A socket's burst passes at once and the next message is refused with `limit/messages`;
    /// a rate of zero lets the burst through and nothing after it.
    #[test]
    fn the_rate_lets_the_burst_through_then_refuses() {
        let limits = |per_second: f64, burst: f64| Limits {
            messages_per_second: per_second,
            message_burst: burst,
            ..Limits::default()
        };
        let mut rate = Rate::new(&limits(0.5, 3.0));
        assert!((0..3).all(|_| rate.take().is_ok()));
        let refused = rate.take().unwrap_err();
        assert_eq!(refused.code, Code::LimitMessages);
        assert_eq!(
            refused.message,
            "more than 0.5 messages a second: this one was not read"
        );
        let mut closed = Rate::new(&limits(0.0, 2.0));
        assert!(closed.take().is_ok() && closed.take().is_ok());
        assert!(closed.take().is_err());
    }

    /// A batch takes every queued message once, the actor's before the reader's.
    #[tokio::test]
    async fn queued_messages_are_taken_in_order_and_none_is_lost() {
        let (a_tx, mut a) = mpsc::channel::<u8>(8);
        let (r_tx, mut r) = mpsc::channel::<u8>(8);
        for i in 0..3 {
            a_tx.send(i).await.unwrap();
            r_tx.send(10 + i).await.unwrap();
        }
        let mut taken = Vec::new();
        while let Some(m) = queued(&mut a, &mut r) {
            taken.push(m);
        }
        assert_eq!(taken, [Ok(0), Ok(1), Ok(2), Err(10), Err(11), Err(12)]);
    }

    /// The session logic needs no socket: here it runs over two channels.
    #[tokio::test]
    async fn a_session_runs_over_plain_channels() {
        let db = std::env::temp_dir().join(format!(
            "plateau-ws-{}.sqlite",
            hex::encode(rand::random::<[u8; 8]>())
        ));
        let store = open_store(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        let options = Options {
            bot_delay: Duration::ZERO,
            ..Options::default()
        };
        let lobby = Lobby::start(store, Catalogue::standard(), options)
            .await
            .unwrap();
        let ann = lobby
            .store()
            .create_player("Ann".into(), crate::players::PlayerKind::Guest, None)
            .await
            .unwrap();
        let grant = lobby
            .create(
                CreateRequest {
                    game: "mad".into(),
                    config: serde_json::Value::Null,
                    seats: vec![SeatSpec::Human, SeatSpec::bot("random")],
                    time_control: crate::model::TimeControl::None,
                    creator_seat: None,
                    seed: None,
                    rated: false,
                },
                ann.clone(),
                None,
            )
            .await
            .unwrap();
        let (to_server, from_client) =
            mpsc::channel::<Result<Message, std::convert::Infallible>>(8);
        let (to_client, mut from_server) = mpsc::channel::<Message>(64);
        let stream = Box::pin(futures_util::stream::unfold(
            from_client,
            |mut rx| async move { rx.recv().await.map(|m| (m, rx)) },
        ));
        let sink = Box::pin(futures_util::sink::unfold(
            to_client,
            |tx, m: Message| async move {
                tx.send(m).await.map_err(|_| ())?;
                Ok::<_, ()>(tx)
            },
        ));
        let session = tokio::spawn(session(
            lobby.clone(),
            grant.id.clone(),
            grant.token,
            Some(ann),
            None,
            None,
            sink,
            stream,
        ));
        // Opening the match starts it: the first state is live and whole, then the (empty) chat
        // backlog.
        let first = next_json(&mut from_server).await;
        assert_eq!(
            (
                first["version"].clone(),
                first["seat"].clone(),
                first["status"].clone()
            ),
            (0.into(), 0.into(), "live".into())
        );
        assert_eq!(first["snapshot"], true);
        assert_eq!(next_json(&mut from_server).await["type"], "chat_backlog");
        let action = first["legal"][0].as_str().unwrap().to_owned();
        let act = serde_json::json!({"type": "act", "version": 0, "action": action});
        to_server
            .send(Ok(Message::Text(act.to_string().into())))
            .await
            .unwrap();
        assert_eq!(next_json(&mut from_server).await["version"], 1);
        // The bot answers at once.
        assert_eq!(next_json(&mut from_server).await["version"], 2);
        to_server
            .send(Ok(Message::Text(r#"{"type":"ping"}"#.into())))
            .await
            .unwrap();
        assert_eq!(next_json(&mut from_server).await["type"], "pong");
        drop(to_server);
        session.await.unwrap();
        lobby.shutdown().await;
        let _ = std::fs::remove_file(db);
    }
}
