//! The lobby's WebSocket `GET /api/lobby/ws` (docs/protocol.md sections 7.6 to 7.8): live counts
//! of players online and games in play, quick pairing (`seek`, `cancel`, `paired`), "your turn"
//! messages for the player's correspondence matches, challenges to named players (`challenges`),
//! the friend list (`friends`) and the tournaments it follows (section 7.9, `lobby_follow`).

use std::net::IpAddr;
use std::pin::Pin;
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use plateau_protocol::server::LobbyMessage;
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tracing::Instrument as _;

use super::auth::Session;
use super::extract::ClientAddr;
use super::lobby_follow::Follows;
use super::state::AppState;
use plateau_community::challenges::{ChallengeRequest, Origin};
use plateau_lobby::model::{ApiError, Code, HttpError};
use plateau_lobby::net::ConnSlot;
use plateau_lobby::players::{Player, PlayerId};
use plateau_lobby::ws::{
    EVICTED, Heard, IDLE, MAX_MESSAGE, PING, PONG, Rate, binary_refused, close, finish,
    send_within, too_large, unreadable,
};
use plateau_pairing::{SeekRequest, SeekerId};

/// The shortest time between two `lobby` messages to one connection: each sends at most once a
/// second, at its own instant of the second.
const COUNTS_EVERY: Duration = Duration::from_secs(1);

/// "Your turn" messages waiting for one lobby socket; past them a turn is not announced there
/// (the lobby list still shows the match waiting).
const TURNS_QUEUED: usize = 16;

pub(super) async fn websocket(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    slot: Option<Extension<ConnSlot>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    match upgrade {
        Ok(upgrade) => {
            // The socket's log lines keep the request's span (its id).
            let span = tracing::Span::current();
            plateau_lobby::ws::sized(upgrade).on_upgrade(move |socket| {
                run(
                    app,
                    session.player,
                    addr,
                    slot.map(|Extension(s)| s),
                    socket,
                )
                .instrument(span)
            })
        }
        Err(e) => HttpError(ApiError::new(
            Code::RequestUpgradeRequired,
            format!(
                "this is the lobby's WebSocket: open it with a WebSocket upgrade ({})",
                e.body_text()
            ),
        ))
        .into_response(),
    }
}

async fn run(
    app: AppState,
    player: Option<Player>,
    addr: Option<IpAddr>,
    slot: Option<ConnSlot>,
    socket: WebSocket,
) {
    let conn = app.lobby.next_connection();
    let _open = plateau_lobby::metrics::SocketOpen::lobby_socket();
    let (out, mut outgoing) = mpsc::channel::<String>(32);
    // The player's "your turn" messages have a queue of their own, so that many of them at once
    // never crowd out pairing's `paired` (which carries the seat's token). A guest has none:
    // thousands of idle lobby pages would each hold an empty one.
    let mut turns = None;
    if let Some(p) = &player {
        app.lobby.presence().socket_opened(p.id);
        let (turn_out, turns_in) = mpsc::channel::<String>(TURNS_QUEUED);
        if let Some(list) = app.challenges.list_for(p.id) {
            let _ = turn_out.try_send(list);
        }
        app.lobby.presence().listen(p.id, conn, turn_out);
        turns = Some(turns_in);
        // A store away now: the list shows empty until it changes. Boxed while it runs, as every
        // call below that reads the store: the socket's task, held for as long as the socket is
        // open, keeps only what waits for the next message.
        let _ = Box::pin(app.friends.opened(app.lobby.store().as_ref(), p.id)).await;
    }
    let _left = Left {
        app: &app,
        conn,
        player: player.as_ref().map(|p| p.id),
    };
    let (mut sink, mut stream) = socket.split();
    let mut bans = app.lobby.sanctions().bans();
    let player_id = player.as_ref().map(|p| p.id);
    let mut counts = app.lobby.presence().counts();
    let mut pools = app.pairing.pools();
    let mut friends_changed = app.friends.changes();
    // The friend list last sent (none yet), to send it only when it changes.
    let mut last_friends = None;
    let mut shutdown = app.lobby.shutdown_signal();
    // When the next `lobby` message is due (`None`: nothing new to send), and when the last was.
    let mut counts_at = Some(Instant::now());
    let mut last_counts = Instant::now();
    // A digest of the last `lobby` message sent (none yet).
    let mut last_digest = None;
    // A lobby socket that says nothing for the idle time closes, as a match socket does (the
    // page pings every 20 s); control frames (pings) say nothing.
    let limits = &app.lobby.options().limits;
    let heard = Heard::new();
    // Made once, not at every turn of the loop: what closes the socket from the server's side,
    // with its close, polled only when one of them wakes it (a set of futures polls only the
    // woken), the idle time's timer included; and, while no `lobby` message is due, a change of
    // what it tells (`changes`). Boxed, so that the set's own empty node holds a pointer, not a
    // second copy of the future's room.
    let closing: Quiet<'_> = Box::pin(async {
        Woke::Closed(tokio::select! {
            () = plateau_lobby::net::evicted(slot.as_ref()) => EVICTED,
            () = plateau_lobby::sanctions::banned_now(&mut bans, app.lobby.sanctions(), player_id) => plateau_lobby::sanctions::BANNED_CLOSE,
            () = async { let _ = shutdown.wait_for(|s| *s).await; } => (1001, "server shutting down"),
            () = heard.silent_for(limits.socket_idle) => IDLE,
        })
    });
    let mut quiet = futures_util::stream::FuturesUnordered::from_iter([closing]);
    // The same message rate as a match socket's (docs/protocol.md section 6).
    let mut rate = Rate::new(limits);
    let limited = addr.is_none_or(|a| limits.applies_to(a));
    // Each connection sends at its own instant of the second: one change of the counts makes
    // every lobby socket due at once, and thousands of them sending in the same instant would
    // hold the live matches up meanwhile.
    let phase = Duration::from_millis(conn % 1000);
    let mut follows = Follows::default();
    loop {
        if let Some(at) = counts_at.filter(|at| *at <= Instant::now()) {
            // What is sent now is seen: only a later change makes counts due again.
            counts.borrow_and_update();
            pools.borrow_and_update();
            counts_at = None;
            let (message, digest) = app.lobby_counts.now();
            // Changes undone within the second (a page reloaded) are no change to tell.
            let digest = Some(digest);
            if digest != last_digest {
                if !send_within(&mut sink, Message::Text(message)).await {
                    break;
                }
                // Counted from when it was due, not from when the send ended, so that the next
                // one may go at this connection's very next instant.
                last_counts = at;
                last_digest = digest;
            }
            if let Some(p) = &player {
                friends_changed.borrow_and_update();
                let message = friends_message(&app, p.id);
                let friends_digest = message.as_deref().map(super::lobby_counts::digest);
                if friends_digest != last_friends
                    && let Some(message) = message
                {
                    if !send_within(&mut sink, Message::Text(message.into())).await {
                        break;
                    }
                    last_friends = friends_digest;
                }
            }
            let friends = player.is_some().then_some(&friends_changed);
            quiet.push(changes(&counts, &pools, friends));
        }
        let due = || {
            Some(slot_from(
                (last_counts + COUNTS_EVERY).max(Instant::now()),
                phase,
            ))
        };
        tokio::select! {
            frame = stream.next() => {
                if let Some(Ok(Message::Text(_) | Message::Binary(_))) = &frame {
                    let now = heard.now();
                    if let Some(s) = &slot {
                        s.touch_at(now.into_std());
                    }
                }
                let text = match frame {
                    Some(Ok(Message::Text(_) | Message::Binary(_))) if limited && let Err(e) = rate.take() => {
                        if !send_within(&mut sink, Message::Text(e.to_ws_json().into())).await { break; }
                        continue;
                    }
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(b))) => {
                        let e = binary_refused(b.len());
                        if !send_within(&mut sink, Message::Text(e.to_ws_json().into())).await { break; }
                        continue;
                    }
                    Some(Err(e)) => {
                        let (code, reason) = unreadable(&e);
                        send_within(&mut sink, close(code, reason)).await;
                        break;
                    }
                    _ => break,
                };
                let from = Sender { conn, player: player.as_ref(), addr, out: &out };
                if let Some(reply) = Box::pin(handle(&app, &from, &mut follows, &text)).await
                    && !send_within(&mut sink, Message::Text(reply.into())).await
                {
                    break;
                }
            }
            Some(message) = outgoing.recv() => {
                if !send_within(&mut sink, Message::Text(message.into())).await { break; }
            }
            message = follows.next() => {
                if !send_within(&mut sink, Message::Text(message.as_ref().into())).await { break; }
            }
            Some(message) = next_turn(&mut turns) => {
                if !send_within(&mut sink, Message::Text(message.into())).await { break; }
            }
            () = sleep_until_some(counts_at) => {}
            Some(woke) = quiet.next() => match woke {
                Woke::Changed => counts_at = due(),
                Woke::Closed((code, reason)) => {
                    send_within(&mut sink, close(code, reason)).await;
                    break;
                }
            },
        }
    }
    finish(&mut sink).await;
}

/// The `friends` message of `player` (docs/protocol.md section 7.8), or `None` before its list
/// is known.
fn friends_message(app: &AppState, player: plateau_lobby::players::PlayerId) -> Option<String> {
    let friends = app.friends.view(app.lobby.presence(), player)?;
    serde_json::to_string(&LobbyMessage::Friends { friends: &friends }).ok()
}

/// What a lobby socket leaves behind is undone when its task ends, however it ends (a panic
/// included): its seek, its player's presence and its queue of turn messages.
struct Left<'a> {
    app: &'a AppState,
    conn: u64,
    player: Option<PlayerId>,
}

impl Drop for Left<'_> {
    fn drop(&mut self) {
        self.app.pairing.cancel(self.conn);
        self.app.challenges.left(self.conn);
        if let Some(id) = self.player {
            self.app.friends.closed(id);
            self.app.lobby.presence().unlisten(id, self.conn);
            self.app.lobby.presence().socket_closed(id);
        }
    }
}

/// A seek of `player`, or (`partner`) its acceptance of another seek. One that bots may fill may
/// become a match of this address with nobody else in it, so it is held to the limits on
/// creating matches (docs/protocol.md section 6).
async fn seek(
    app: &AppState,
    from: &Sender<'_>,
    player: &Player,
    request: SeekRequest,
    partner: Option<u64>,
) -> Result<String, ApiError> {
    // Whom the seeker blocks: it never sits with them (docs/protocol.md section 7.8).
    let blocks = app
        .lobby
        .store()
        .relations(player.id)
        .await
        .map_err(ApiError::store)?
        .into_iter()
        .filter(|(r, _)| *r == plateau_lobby::players::Relation::Block)
        .map(|(_, p)| p.id)
        .collect();
    let address = match request.bots_after_seconds {
        Some(_) => {
            let table = plateau_lobby::lobby::Table::WithBots;
            app.lobby.creation_allowed(from.addr, table).await?
        }
        None => None,
    };
    let who = SeekerId {
        conn: from.conn,
        player: player.clone(),
        address: address.clone(),
        partner,
        blocks,
    };
    let answer = app.pairing.seek(who, request, from.out.clone()).await;
    if answer.is_err()
        && let Some(key) = &address
    {
        app.lobby.creation_refused(key);
    }
    let seeking = answer?;
    let message = LobbyMessage::Seeking {
        pool: plateau_protocol::server::PoolInfo {
            game: seeking.pool.game,
            seats: seeking.pool.seats,
            time_control: seeking.pool.time_control,
            rated: seeking.pool.rated,
        },
        seek: seeking.seek,
        estimate_seconds: seeking.estimate_seconds,
    };
    Ok(serde_json::to_string(&message).unwrap_or_default())
}

/// `accept`: a seek in the pool of the open challenge `seek` (as the lobby lists it), paired
/// with it whatever the ratings; its table takes bots as the challenger's does.
async fn accept(
    app: &AppState,
    from: &Sender<'_>,
    player: &Player,
    seek_id: u64,
) -> Result<String, ApiError> {
    let not_open = || {
        ApiError::new(
            Code::SeekNotFound,
            "this challenge is no longer open: it was taken or withdrawn",
        )
    };
    let found = app.pairing.pools().borrow().iter().find_map(|pool| {
        let challenger = pool.seekers.iter().find(|s| s.seek == seek_id)?;
        let name = challenger.name.clone();
        let request = SeekRequest {
            kind: "seek".to_owned(),
            game: pool.game.clone(),
            seats: pool.seats,
            time_control: serde_json::from_value(pool.time_control.clone()).ok()?,
            rated: pool.rated,
            bots_after_seconds: challenger
                .bots_after_seconds
                .map(|s| u32::try_from(s).unwrap_or(u32::MAX).max(1)),
            bot: None,
        };
        Some((name, request))
    });
    let (name, request) = found.ok_or_else(not_open)?;
    // Two players one of whom blocks the other are not paired: to either, the seek reads as
    // taken (docs/protocol.md section 7.8).
    let store = app.lobby.store();
    if let Some((seeker, _)) = store.player_by_name(name).await.map_err(ApiError::store)? {
        let (a, b) = store
            .blocks_between(player.id, seeker.id)
            .await
            .map_err(ApiError::store)?;
        if a || b {
            return Err(not_open());
        }
    }
    seek(app, from, player, request, Some(seek_id)).await
}

/// `fill`: bots fill the tables of this connection's seeks now. It counts as a match this address
/// creates, as a seek that bots may fill does.
async fn fill(app: &AppState, from: &Sender<'_>) -> Result<String, ApiError> {
    let table = plateau_lobby::lobby::Table::WithBots;
    let address = app.lobby.creation_allowed(from.addr, table).await?;
    if app.pairing.fill(from.conn, address.clone()).await {
        return Ok(serde_json::to_string(&LobbyMessage::Filling).unwrap_or_default());
    }
    if let Some(key) = &address {
        app.lobby.creation_refused(key);
    }
    Err(ApiError::new(
        Code::SeekNotFound,
        "you are not looking for a game: there is no table to fill",
    ))
}

/// What a lobby socket waits for besides the client and its queues, polled only when it wakes.
type Quiet<'a> = Pin<Box<dyn Future<Output = Woke> + Send + 'a>>;

/// What woke a lobby socket's `Quiet` futures: a close, or a change of what it tells.
enum Woke {
    Closed((u16, &'static str)),
    Changed,
}

/// Completes once the counts, the pools or the friend list (a player's: `friends`) changed after
/// what the receivers given last saw. Made from clones, which keep their wait registered from
/// one turn of the loop to the next (a wait made at every turn would register and drop its
/// waiter, on the senders' shared lists, at every message of every lobby socket); made again
/// once the changes are sent, so that further changes need no wake-up until then.
fn changes<C, P>(
    counts: &watch::Receiver<C>,
    pools: &watch::Receiver<P>,
    friends: Option<&watch::Receiver<u64>>,
) -> Quiet<'static>
where
    C: Send + Sync + 'static,
    P: Send + Sync + 'static,
{
    let (mut counts, mut pools, mut friends) = (counts.clone(), pools.clone(), friends.cloned());
    Box::pin(async move {
        tokio::select! {
            Ok(()) = counts.changed() => {}
            Ok(()) = pools.changed() => {}
            Ok(()) = async {
                match friends.as_mut() {
                    Some(f) => f.changed().await,
                    None => std::future::pending().await,
                }
            } => {}
            else => std::future::pending::<()>().await,
        }
        Woke::Changed
    })
}

async fn next_turn(turns: &mut Option<mpsc::Receiver<String>>) -> Option<String> {
    match turns {
        Some(turns) => turns.recv().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The first instant at or after `t` that is `phase` past a whole second of the process's clock
/// (`phase` under one second).
fn slot_from(t: Instant, phase: Duration) -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    let second = COUNTS_EVERY.as_nanos();
    let since = (t.saturating_duration_since(epoch) + COUNTS_EVERY - phase).as_nanos();
    let seconds = since.div_ceil(second);
    epoch + phase + COUNTS_EVERY * u32::try_from(seconds).unwrap_or(u32::MAX) - COUNTS_EVERY
}

/// Who sent a lobby message: the connection, its player, its address and its queue.
struct Sender<'a> {
    conn: u64,
    player: Option<&'a Player>,
    addr: Option<IpAddr>,
    out: &'a mpsc::Sender<String>,
}

/// Handles one client message; returns the direct answer, if any.
async fn handle(
    app: &AppState,
    from: &Sender<'_>,
    follows: &mut Follows,
    text: &str,
) -> Option<String> {
    if text.len() > MAX_MESSAGE {
        return Some(too_large(text.len()).to_ws_json());
    }
    if text == PING {
        return Some(PONG.to_owned());
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Some(ApiError::new(Code::MsgMalformed, format!("not JSON: {e}")).to_ws_json());
        }
    };
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    // The player a message needs, or what to do first: `to` is what the message does.
    let named = |to: &str| {
        from.player.ok_or_else(|| {
            ApiError::new(Code::AuthRequired, format!("choose a name before you {to}"))
        })
    };
    let answer = match kind.as_str() {
        "ping" => return Some(PONG.to_owned()),
        "cancel" => {
            app.pairing.cancel(from.conn);
            return serde_json::to_string(&LobbyMessage::Cancelled).ok();
        }
        "seek" => match (
            named("seek a game"),
            serde_json::from_value::<SeekRequest>(value),
        ) {
            (Err(e), _) => Err(e),
            (Ok(player), Ok(request)) => seek(app, from, player, request, None).await,
            (_, Err(e)) => Err(ApiError::new(Code::MsgMalformed, e.to_string())),
        },
        "accept" => match (
            named("seek a game"),
            serde_json::from_value::<AcceptRequest>(value),
        ) {
            (Err(e), _) => Err(e),
            (Ok(player), Ok(request)) => accept(app, from, player, request.seek).await,
            (_, Err(e)) => Err(ApiError::new(Code::MsgMalformed, e.to_string())),
        },
        "fill" => fill(app, from).await,
        "tournament_follow"
        | "tournament_unfollow"
        | "tournaments_follow"
        | "tournaments_unfollow" => match follows.handle(app, &kind, value).await {
            Ok(None) => return None,
            other => other.map(Option::unwrap_or_default),
        },
        "challenge" => match (
            named("challenge a player"),
            serde_json::from_value::<ChallengeRequest>(value),
        ) {
            (Err(e), _) => Err(e),
            (Ok(player), Ok(request)) => {
                let origin = Origin {
                    conn: from.conn,
                    out: from.out.clone(),
                    addr: from.addr,
                };
                app.challenges
                    .send(player, origin, request)
                    .await
                    .map(|challenge| {
                        serde_json::to_string(&LobbyMessage::ChallengeSent { challenge })
                            .unwrap_or_default()
                    })
            }
            (_, Err(e)) => Err(ApiError::new(Code::MsgMalformed, e.to_string())),
        },
        "challenge_accept" | "challenge_decline" | "challenge_cancel" => {
            match (
                named("answer a challenge"),
                serde_json::from_value::<ChallengeAnswer>(value),
            ) {
                (Err(e), _) => Err(e),
                (Ok(player), Ok(answer)) => {
                    let id = answer.challenge;
                    let done = match kind.as_str() {
                        "challenge_accept" => app.challenges.accept(player, id).await.map(Some),
                        "challenge_decline" => app.challenges.decline(player.id, id).map(|()| None),
                        _ => app.challenges.cancel(player.id, id).map(|()| None),
                    };
                    // A decline or a withdrawal is answered by the `challenges` list that follows.
                    match done {
                        Ok(None) => return None,
                        other => other.map(Option::unwrap_or_default),
                    }
                }
                (_, Err(e)) => Err(ApiError::new(Code::MsgMalformed, e.to_string())),
            }
        }
        "" => Err(ApiError::new(
            Code::MsgMalformed,
            "a message is a JSON object with a string `type`",
        )),
        other => Err(ApiError::new(
            Code::MsgUnknown,
            format!(
                "unknown message type `{other}` (known: seek, accept, fill, cancel, challenge, \
                 challenge_accept, challenge_decline, challenge_cancel, tournament_follow, \
                 tournament_unfollow, tournaments_follow, tournaments_unfollow, ping)"
            ),
        )),
    };
    Some(answer.unwrap_or_else(|e| e.to_ws_json()))
}

/// `{"type": "challenge_accept" | "challenge_decline" | "challenge_cancel", "challenge": 5}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeAnswer {
    #[serde(rename = "type")]
    _kind: String,
    challenge: u64,
}

/// `{"type": "accept", "seek": 17}`: take the open challenge `seek`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AcceptRequest {
    #[serde(rename = "type")]
    _kind: String,
    seek: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message that needs a player, from a socket without a session, is `auth/required`
    /// saying what the name is needed for (a challenge was told to choose a name "before you
    /// seek a game"), and changes nothing: no seek, no challenge.
    #[tokio::test]
    async fn a_message_without_a_player_says_what_needs_one() {
        let (app, store, db) = super::super::tests::service("lobby-named").await;
        let (out, _queue) = mpsc::channel(8);
        let from = Sender {
            conn: 1,
            player: None,
            addr: None,
            out: &out,
        };
        let mut follows = Follows::default();
        let cases = [
            (
                r#"{"type": "seek", "game": "mad", "seats": 2, "time_control": {"kind": "none"}, "rated": false}"#,
                "choose a name before you seek a game",
            ),
            (
                r#"{"type": "accept", "seek": 1}"#,
                "choose a name before you seek a game",
            ),
            (
                r#"{"type": "challenge", "name": "Bob", "game": "mad"}"#,
                "choose a name before you challenge a player",
            ),
            (
                r#"{"type": "challenge_accept", "challenge": 1}"#,
                "choose a name before you answer a challenge",
            ),
            (
                r#"{"type": "challenge_decline", "challenge": 1}"#,
                "choose a name before you answer a challenge",
            ),
        ];
        for (message, said) in cases {
            let answer = handle(&app, &from, &mut follows, message).await.unwrap();
            let answer: Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(
                answer,
                serde_json::json!({"type": "error", "code": "auth/required", "message": said}),
                "{message}"
            );
        }
        let fill = handle(&app, &from, &mut follows, r#"{"type": "fill"}"#)
            .await
            .unwrap();
        assert!(fill.contains("seek/not_found"), "{fill}");
        store.close().await;
        let _ = std::fs::remove_file(&db);
    }

    /// A connection's sends fall on its own instant of each second, the first one at or after
    /// the time asked, and two phases stay apart by their difference.
    #[test]
    fn each_phase_has_its_own_instant_of_the_second() {
        let t = Instant::now() + Duration::from_millis(2_345);
        for ms in [0, 1, 344, 345, 346, 999] {
            let phase = Duration::from_millis(ms);
            let at = slot_from(t, phase);
            assert!(at >= t && at < t + COUNTS_EVERY, "phase {ms} ms");
            assert_eq!(slot_from(at, phase), at);
            assert_eq!(
                slot_from(at + Duration::from_nanos(1), phase),
                at + COUNTS_EVERY
            );
            assert_eq!(
                slot_from(t + 3 * COUNTS_EVERY, phase),
                at + 3 * COUNTS_EVERY
            );
        }
        let (a, b) = (Duration::from_millis(100), Duration::from_millis(700));
        let (sa, sb) = (slot_from(t, a), slot_from(t, b));
        let apart = if sb >= sa {
            sb - sa
        } else {
            COUNTS_EVERY - (sa - sb)
        };
        assert_eq!(apart, b - a);
    }
}
