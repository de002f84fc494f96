//! A match's WebSocket (docs/protocol.md section 4): subscribes the connection to the match's
//! actor, reads the client's messages (`handle` answers each) and writes the actor's messages
//! and the answers back, in batches and in one task, until either side closes or the service
//! shuts down.
//!
//! `session` is generic over the sink and the stream, so it can run over a real socket or channels.

use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use plateau_match::actor::Outgoing;
use plateau_protocol::ClientMessage;
use tokio::sync::mpsc;

use super::handle::handle;
use super::socket::{
    EVICTED, Heard, IDLE, MAX_MESSAGE, PING, PONG, Rate, binary_refused, close, finish,
    parse_client_message, send_within, too_large, unreadable, within,
};
use super::woken::{Source, Woken};
use crate::lobby::Lobby;
use crate::model::Code;
use crate::players::Player;

/// Messages a connection's queue holds before the connection is dropped as too slow.
const QUEUE: usize = 64;

/// Most queued messages written to a socket before it is flushed.
const BATCH_MAX: usize = 16;

/// Writes `messages` (leaving the vector empty) and flushes them together (one system call for a
/// few small messages), giving up after `SEND_TIMEOUT`; false if they did not all go out.
/// Written with the sink's own polls rather than `feed` and `flush`, which hold a message each:
/// the socket's task keeps room for this future for as long as the socket is open.
async fn send_all_within<S: Sink<Message> + Unpin>(
    sink: &mut S,
    messages: &mut Vec<Message>,
) -> bool {
    if messages.is_empty() {
        return true;
    }
    // Taken from the end, so the first goes first.
    messages.reverse();
    let all = std::future::poll_fn(|cx| {
        while !messages.is_empty() {
            std::task::ready!(sink.poll_ready_unpin(cx))?;
            if let Some(m) = messages.pop() {
                sink.start_send_unpin(m)?;
            }
        }
        sink.poll_flush_unpin(cx)
    });
    let sent = within(all).await;
    // What a write that failed or timed out left.
    messages.clear();
    matches!(sent, Some(Ok(())))
}

/// Writes `reply` alone (leaving it `None`) and flushes it, giving up after `SEND_TIMEOUT`; false
/// if it did not go out. The answer to a ping when nothing was queued: it goes from here to the
/// sink without the batch, whose buffer it would touch.
async fn send_reply_within<S: Sink<Message> + Unpin>(
    sink: &mut S,
    reply: &mut Option<Utf8Bytes>,
) -> bool {
    let sent = within(std::future::poll_fn(|cx| {
        while reply.is_some() {
            std::task::ready!(sink.poll_ready_unpin(cx))?;
            if let Some(text) = reply.take() {
                sink.start_send_unpin(Message::Text(text))?;
            }
        }
        sink.poll_flush_unpin(cx)
    }))
    .await;
    *reply = None;
    matches!(sent, Some(Ok(())))
}

/// The text of an actor's message. The actor's messages are serde_json's UTF-8: the check never
/// fails (if it did, the socket would close with 1011).
fn text(msg: Outgoing) -> Option<Utf8Bytes> {
    match msg {
        Outgoing::Text(text) => Utf8Bytes::try_from(text).ok(),
    }
}

/// The close once the actor let the connection go (the channel closed): the service shutting
/// down, or the connection dropped (too slow, or the match stopped here: moved, expired).
fn let_go(lobby: &Lobby) -> (u16, &'static str) {
    if *lobby.shutdown_signal().borrow() {
        (1001, "server shutting down")
    } else {
        (1013, "reconnect to resume")
    }
}

/// Why a socket's writes stopped: a close to send (`Some`), or none (the client is gone or reads
/// nothing: the socket just ends).
type Ending = Option<(u16, &'static str)>;

/// Writes `first`, then what the actor queued meanwhile, then `reply` (the answer to the
/// client's message just read), in batches of at most `BATCH_MAX` flushed together: so an
/// answer never overtakes a state queued before it. `Err` once the socket must end: a write did
/// not go out, or a message of the actor was not text.
///
/// The queue is looked at only if its waker fired since the loop last found it empty (`woken`):
/// a message queued before the client's was read woke it, so none is missed, and an answer to a
/// ping touches nothing of the queue when nothing was queued. The flag stays set: the loop's
/// next turn finds the queue empty and registers its waker again.
async fn write_out<S: Sink<Message> + Unpin>(
    sink: &mut S,
    batch: &mut Vec<Message>,
    queue: &mut mpsc::Receiver<Outgoing>,
    woken: &Woken,
    first: Option<Utf8Bytes>,
    mut reply: Option<Utf8Bytes>,
) -> Result<(), Ending> {
    if first.is_none() && !woken.is_set(Source::Queue) {
        return if send_reply_within(sink, &mut reply).await {
            Ok(())
        } else {
            Err(None)
        };
    }
    batch.extend(first.map(Message::Text));
    loop {
        while batch.len() < BATCH_MAX
            && woken.is_set(Source::Queue)
            && let Ok(msg) = queue.try_recv()
        {
            batch.push(Message::Text(text(msg).ok_or(Some((1011, "text")))?));
        }
        let last = batch.len() < BATCH_MAX;
        if last {
            batch.extend(reply.take().map(Message::Text));
        }
        if !send_all_within(sink, batch).await {
            return Err(None);
        }
        if last {
            return Ok(());
        }
    }
}

/// Runs one connection to match `id` until either side closes or the service shuts down.
/// `token` names a seat; `player` is the session's player, if any (it counts as online while
/// the connection is open, and may hold a seat of the match without a token); `peer` is the
/// client's address (the message rate does not apply to an exempt one, `Limits::exempt`).
///
/// One task reads the client's messages and writes both the actor's messages and the answers,
/// as the lobby's socket does: no second task, and no queue between the two, per socket. A
/// write the client does not take holds the reading up (for `SEND_TIMEOUT` at most, then the
/// socket closes), and a call to the match holds the writing up until the match answers; the
/// actor never waits for a connection's queue (it drops one that is full as too slow), so
/// neither wait can hold the other.
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
    S: Sink<Message> + Unpin + Send,
    R: Stream<Item = Result<Message, E>> + Unpin + Send,
    E: std::error::Error + 'static,
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
    // (too slow, or the match stopped here: moved to another node, expired), the queue closes
    // and the socket closes ("reconnect to resume"). An `auth` borrows it back.
    let out_weak = out_tx.downgrade();
    drop(out_tx);
    if let Some(p) = &player {
        lobby.presence().socket_opened(p.id);
    }
    let mut shutdown = lobby.shutdown_signal();
    let mut bans = lobby.sanctions().bans();
    let player_id = player.as_ref().map(|p| p.id);
    let limits = &lobby.options().limits;
    let mut rate = Rate::new(limits);
    let limited = peer.is_none_or(|p| limits.applies_to(p));
    // When the client last sent a message: control frames (pings) do not count, so a socket
    // that only pings still closes after the idle time.
    let heard = Heard::new();
    // What closes the socket besides the client, with its close: the shutdown, the
    // connection's eviction, a ban of the player, the idle time. Made once, and polled only when
    // one of them wakes it (`woken`), not at every message; boxed, so that the task keeps a
    // pointer for it and a ping touches none of it.
    let mut closing: Pin<Box<dyn Future<Output = (u16, &'static str)> + Send + '_>> =
        Box::pin(async {
            tokio::select! {
                () = stopped(&mut shutdown) => (1001, "server shutting down"),
                () = crate::net::evicted(slot.as_ref()) => EVICTED,
                () = crate::sanctions::banned_now(&mut bans, lobby.sanctions(), player_id) => {
                    crate::sanctions::BANNED_CLOSE
                }
                () = heard.silent_for(limits.socket_idle) => IDLE,
            }
        });
    // Which of the queue and `closing` woke the task: each is polled only then, so a wake for a
    // client's frame (a ping) touches neither.
    let mut woken = Woken::new();
    // Kept between writes (most hold one or two messages): no allocation per message.
    let mut batch = Vec::new();
    let ending: Ending = loop {
        let next = std::future::poll_fn(|cx| {
            woken.register(cx);
            // The actor's messages first: what it queued goes out before the answer to a later
            // message of the client (a pong never overtakes a state).
            if woken.take(Source::Queue)
                && let Poll::Ready(msg) = out_rx.poll_recv(&mut woken.context(Source::Queue))
            {
                // It may hold more: looked at again (`write_out`, the next turn).
                woken.again(Source::Queue);
                return Poll::Ready(Next::Queued(msg));
            }
            if let Poll::Ready(frame) = stream.poll_next_unpin(cx) {
                return Poll::Ready(Next::Frame(frame));
            }
            if woken.take(Source::Closing)
                && let Poll::Ready(close) =
                    closing.as_mut().poll(&mut woken.context(Source::Closing))
            {
                return Poll::Ready(Next::Closing(close));
            }
            Poll::Pending
        })
        .await;
        let frame = match next {
            Next::Queued(msg) => {
                let Some(msg) = msg else {
                    break Some(let_go(&lobby));
                };
                let Some(first) = text(msg) else {
                    break Some((1011, "text"));
                };
                match write_out(
                    &mut sink,
                    &mut batch,
                    &mut out_rx,
                    &woken,
                    Some(first),
                    None,
                )
                .await
                {
                    Ok(()) => continue,
                    Err(ending) => break ending,
                }
            }
            Next::Frame(frame) => frame,
            Next::Closing(close) => break Some(close),
        };
        let message = match frame {
            Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => m,
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            // The client left: its close is answered as the socket finishes.
            Some(Ok(Message::Close(_))) | None => break None,
            // A frame over `MAX_MESSAGE`, or not a WebSocket frame: nothing more is read.
            Some(Err(e)) => break Some(unreadable(&e)),
        };
        // The actor let the connection go (the match stopped here: moved, or this node fenced
        // itself; or the client read too slowly): the queue is closed, and the next turn of the
        // loop closes the socket with "reconnect to resume" (the queue, polled first, is ready
        // from now on: no frame is read again). Nothing read after is handled, so an action that
        // crossed the close is not played by the match's next actor while the client,
        // reconnected, sees the state without it and acts again. (Letting it go wakes the queue:
        // until then the queue's count is not read.)
        if woken.is_set(Source::Queue) && out_weak.strong_count() == 0 {
            continue;
        }
        let now = heard.now();
        if let Some(s) = &slot {
            s.touch_at(now.into_std());
        }
        let text = match message {
            Message::Text(t) => t,
            // Counted by the message limit like any other message, then refused.
            other => {
                let e = match limited.then(|| rate.take()).and_then(Result::err) {
                    Some(e) => e,
                    None => binary_refused(other.into_data().len()),
                };
                let reply = Some(e.to_ws_json().into());
                match write_out(&mut sink, &mut batch, &mut out_rx, &woken, None, reply).await {
                    Ok(()) => continue,
                    Err(ending) => break ending,
                }
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
                    // The actor let the connection go: the next turn closes the socket.
                    continue;
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
        if reply.is_some()
            && let Err(ending) =
                write_out(&mut sink, &mut batch, &mut out_rx, &woken, None, reply).await
        {
            break ending;
        }
    };
    drop(closing);
    if let Some((code, reason)) = ending {
        send_within(&mut sink, close(code, reason)).await;
    }
    finish(&mut sink).await;
    drop(out_rx);
    // Boxed: the message to the actor waits in the queue's send while it runs.
    Box::pin(lobby.unsubscribe(&id, conn)).await;
    if let Some(p) = &player {
        lobby.presence().socket_closed(p.id);
    }
}

/// What woke a socket's loop: a message of the actor (`None`: it let the connection go), a
/// client's frame (`None`: the stream ended), or a close.
enum Next<E> {
    Queued(Option<Outgoing>),
    Frame(Option<Result<Message, E>>),
    Closing((u16, &'static str)),
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
