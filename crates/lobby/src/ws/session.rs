//! A match's WebSocket (docs/protocol.md section 4): subscribes the connection to the match's
//! actor, reads the client's messages (`handle` answers each) and writes the actor's messages
//! and the answers back, in batches, until either side closes or the service shuts down.
//!
//! `session` is generic over the sink and the stream, so it can run over a real socket or channels.

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::stream::FuturesUnordered;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use plateau_match::actor::Outgoing;
use plateau_protocol::ClientMessage;
use tokio::sync::mpsc;

use super::handle::handle;
use super::socket::{
    EVICTED, Heard, IDLE, MAX_MESSAGE, PING, PONG, Rate, UNREADABLE, binary_refused, close, finish,
    parse_client_message, send_within, too_large, within,
};
use crate::lobby::Lobby;
use crate::model::Code;
use crate::players::Player;

/// Messages a connection's queue holds before the connection is dropped as too slow.
const QUEUE: usize = 64;

/// Most queued messages written to a socket before it is flushed.
const BATCH_MAX: usize = 16;

/// Writes `messages` (leaving the vector empty) and flushes them together (one system call for a
/// few small messages), giving up after `SEND_TIMEOUT`; false if they did not all go out.
async fn send_all_within<S: Sink<Message> + Unpin>(
    sink: &mut S,
    messages: &mut Vec<Message>,
) -> bool {
    if messages.is_empty() {
        return true;
    }
    let all = async {
        for m in messages.drain(..) {
            sink.feed(m).await?;
        }
        sink.flush().await
    };
    matches!(within(all).await, Some(Ok(())))
}

/// The writer's queue of the reader's answers: `Err` is a close code and reason.
type Answers = mpsc::Sender<Result<Utf8Bytes, (u16, &'static str)>>;

/// Queues the answer `text` for the writer: at once when the queue has room, as it nearly always
/// has (without the wait `send` sets up), else once it has; false once the writer is gone.
async fn answer(queue: &Answers, text: Utf8Bytes) -> bool {
    match queue.try_send(Ok(text)) {
        Ok(()) => true,
        Err(mpsc::error::TrySendError::Full(again)) => queue.send(again).await.is_ok(),
        Err(mpsc::error::TrySendError::Closed(_)) => false,
    }
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
    reply: Option<Result<Utf8Bytes, (u16, &'static str)>>,
    stopping: &tokio::sync::watch::Receiver<bool>,
) -> Result<Utf8Bytes, Option<(u16, &'static str)>> {
    match reply {
        Some(Ok(text)) => Ok(text),
        Some(Err(closing)) => Err(Some(closing)),
        None if *stopping.borrow() => Err(Some((1001, "server shutting down"))),
        None => Err(None),
    }
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
    let (reply_tx, mut reply_rx): (Answers, _) = mpsc::channel(QUEUE);
    let mut shutdown = lobby.shutdown_signal();
    let mut writer_shutdown = lobby.shutdown_signal();
    let stopping = lobby.shutdown_signal();
    let writer = tokio::spawn(async move {
        // Made once, and polled only when the shutdown wakes it (a set of futures polls only
        // the woken), not at every message.
        let mut shutting_down = FuturesUnordered::from_iter([stopped(&mut writer_shutdown)]);
        // Kept between batches (most hold one or two messages): no allocation per message.
        let mut batch = Vec::new();
        // The close frame to send when the loop ends, if any.
        let close_with = loop {
            let first = tokio::select! {
                // The actor's messages first: an answer to a later message of the client (a
                // pong) never overtakes a state already queued.
                biased;
                msg = out_rx.recv() => from_actor(msg, &stopping),
                reply = reply_rx.recv() => from_reader(reply, &stopping),
                Some(()) = shutting_down.next() => Err(Some((1001, "server shutting down"))),
            };
            // What else is queued already goes out with it, in one write to the socket.
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
            if !send_all_within(&mut sink, &mut batch).await {
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
    let heard = Heard::new();
    // What closes the socket besides the client: the shutdown (`None`: the writer sends 1001),
    // the connection's eviction, a ban of the player, the idle time, the writer giving up (the
    // client reads nothing, or left: `None`, the socket closes). Made once, and polled only when
    // one of them wakes it (a set of futures polls only the woken), not at every message.
    let mut ended = FuturesUnordered::from_iter([async {
        tokio::select! {
            () = stopped(&mut shutdown) => None,
            () = crate::net::evicted(slot.as_ref()) => Some(EVICTED),
            () = crate::sanctions::banned_now(&mut bans, lobby.sanctions(), player_id) => {
                Some(crate::sanctions::BANNED_CLOSE)
            }
            () = heard.silent_for(limits.socket_idle) => Some(IDLE),
            _ = &mut writer => None,
        }
    }]);
    loop {
        let frame = tokio::select! {
            // The client's frame first: its wake polls nothing else. (A client that never stops
            // sending still lets the others through: the socket's reads share tokio's budget.)
            biased;
            frame = stream.next() => frame,
            Some(closing) = ended.next() => {
                if let Some(closing) = closing {
                    let _ = reply_tx.send(Err(closing)).await;
                }
                break;
            }
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
        heard.now();
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
                if !answer(&reply_tx, e.to_ws_json().into()).await {
                    break;
                }
                continue;
            }
        };
        let message = if let Some(e) = limited.then(|| rate.take()).and_then(Result::err) {
            Err(e)
        } else if text.len() > MAX_MESSAGE {
            Err(too_large(text.len()))
        } else if text.as_str() == PING {
            // The pages' ping, known by its text: most messages a socket gets are these.
            Ok(ClientMessage::Ping)
        } else {
            parse_client_message(text.as_str())
        };
        let reply = match message {
            Err(e) => Some(e.to_ws_json().into()),
            Ok(ClientMessage::Ping) => Some(Utf8Bytes::from_static(PONG)),
            Ok(ClientMessage::Auth(token)) => {
                // The connection becomes its seat's; the new state follows from the actor.
                let Some(out) = out_weak.upgrade() else {
                    // The actor let the connection go: the writer is closing the socket.
                    break;
                };
                let subscribed =
                    Box::pin(lobby.subscribe(&id, conn, Some(token), player.clone(), peer, out));
                match subscribed.await {
                    Ok(s) => {
                        seat = s;
                        None
                    }
                    Err(e) => Some(e.to_ws_json().into()),
                }
            }
            // Boxed while it runs, as the other calls to the match: the session's future, held
            // for as long as the socket is open, keeps only what waits for the next frame.
            Ok(message) => Box::pin(handle(&lobby, &id, conn, seat, player_id, peer, message))
                .await
                .map(Utf8Bytes::from),
        };
        if let Some(reply) = reply
            && !answer(&reply_tx, reply).await
        {
            break;
        }
    }
    drop(reply_tx);
    // `ended` borrows the writer's handle.
    drop(ended);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use crate::lobby::CreateRequest;
    use crate::model::SeatSpec;
    use plateau_match::Catalogue;
    use plateau_store::sqlite::SqliteStore;
    use std::time::Duration;

    async fn next_json(rx: &mut mpsc::Receiver<Message>) -> serde_json::Value {
        match rx.recv().await {
            Some(Message::Text(t)) => serde_json::from_str(&t).unwrap(),
            other => panic!("{other:?}"),
        }
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
        let store: Arc<dyn plateau_store::Store> = Arc::new(SqliteStore::open(&db).unwrap());
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
