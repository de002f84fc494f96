//! What every WebSocket of the service keeps to, a match's (`session`) and the lobby's: the
//! largest message, the closes, how long a write may wait, the settings of the upgrade and the
//! message rate, and the refusals of a message that is not read.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt};
use plateau_protocol::ClientMessage;

use crate::limits::Limits;
use crate::model::{ApiError, Code};

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

/// The close after a frame that is not read: over `MAX_MESSAGE` (`unreadable`).
pub const UNREADABLE: (u16, &str) = (1009, "a frame or message over 16 KiB");

/// The close after bytes that break the WebSocket protocol (RFC 6455 section 7.4.1): a frame
/// from the client that is not masked, a reserved opcode or bit, a control frame over 125
/// bytes, a continuation with nothing to continue (`unreadable`).
pub const BROKEN: (u16, &str) = (1002, "not a WebSocket frame");

/// The close after a text message that is not UTF-8 (RFC 6455 section 7.4.1, `unreadable`).
pub const NOT_UTF8: (u16, &str) = (1007, "a text message that is not UTF-8");

/// The close for the error a socket's stream ended on, which `e` is or wraps (axum wraps
/// tungstenite's): `BROKEN` for a protocol error, `NOT_UTF8` for text that is not UTF-8,
/// `UNREADABLE` for a frame or message over `MAX_MESSAGE` and anything else. A client's bug
/// is so told apart from a message too large (both were 1009, "too big").
pub fn unreadable(e: &(dyn std::error::Error + 'static)) -> (u16, &'static str) {
    use tokio_tungstenite::tungstenite::Error;
    let found =
        std::iter::successors(Some(e), |e| e.source()).find_map(|e| e.downcast_ref::<Error>());
    match found {
        Some(Error::Protocol(_)) => BROKEN,
        Some(Error::Utf8(_)) => NOT_UTF8,
        _ => UNREADABLE,
    }
}

/// A `ping` as the pages (web/js/socket.js) and `plateau load` write it: the sockets answer this
/// text without parsing it (a ping written otherwise is parsed, and answered the same).
pub const PING: &str = r#"{"type":"ping"}"#;

/// The answer to a `ping` on any socket: `MatchMessage::Pong` and `LobbyMessage::Pong` as serde
/// writes them, made once.
pub const PONG: &str = r#"{"type":"pong"}"#;

/// A write the client does not take within this time (it reads nothing) ends the connection.
pub(super) const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `write` (a write to a socket), giving up once it waited `SEND_TIMEOUT`: `None` if it did
/// not end by then. Most writes end at their first poll (the socket's buffer takes them), and
/// the timer is made only when a write has to wait: one that does not reads no clock and
/// registers no timer (tokio's `timeout` does both before its first poll). The timer is boxed
/// then, so a task waiting on a write keeps a pointer for it, not a timer's room.
pub(super) async fn within<F: Future>(write: F) -> Option<F::Output> {
    let mut write = std::pin::pin!(write);
    let mut deadline = None;
    std::future::poll_fn(|cx| {
        if let Poll::Ready(out) = write.as_mut().poll(cx) {
            return Poll::Ready(Some(out));
        }
        deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(SEND_TIMEOUT)))
            .as_mut()
            .poll(cx)
            .map(|()| None)
    })
    .await
}

/// Sends one message, giving up after `SEND_TIMEOUT`; false if it did not go out.
pub async fn send_within<S: Sink<Message> + Unpin>(sink: &mut S, message: Message) -> bool {
    matches!(within(sink.send(message)).await, Some(Ok(())))
}

/// Ends a socket's closing handshake: answers the client's close, or sends and flushes ours,
/// giving up after `SEND_TIMEOUT`.
pub async fn finish<S: Sink<Message> + Unpin>(sink: &mut S) {
    let _ = within(sink.close()).await;
}

/// The close of a socket whose client sent no message for `Limits::socket_idle`.
pub const IDLE: (u16, &str) = (4001, "idle: no message for a while");

/// When a socket's client last sent a message (control frames, pings, do not count), and the
/// wait that ends once it has been silent for the idle time. The time is an atomic, so the wait
/// can live in a future made once and polled only when its timer fires (with the socket's other
/// closes), not at every message: a message only stores the time.
pub struct Heard {
    start: tokio::time::Instant,
    /// Nanoseconds from `start` to the last message.
    last: AtomicU64,
}

impl Heard {
    /// A socket that opened now (the idle time counts from its opening).
    #[must_use]
    pub fn new() -> Heard {
        Heard {
            start: tokio::time::Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    /// The client sent a message now; returns the time read, for the message's other uses
    /// (`ConnSlot::touch_at`): one clock read per message.
    pub fn now(&self) -> tokio::time::Instant {
        let now = tokio::time::Instant::now();
        let since = now.saturating_duration_since(self.start).as_nanos();
        self.last
            .store(u64::try_from(since).unwrap_or(u64::MAX), Ordering::Relaxed);
        now
    }

    /// Completes once no message came for `idle` (at most `IDLE_TICK` later: see `on_tick`).
    /// Its timer is armed once and moved on only when it fires early (a message came
    /// meanwhile).
    pub async fn silent_for(&self, idle: Duration) {
        let tick = IDLE_TICK.min(idle / 4);
        let due = || {
            on_tick(
                self.start + Duration::from_nanos(self.last.load(Ordering::Relaxed)) + idle,
                tick,
            )
        };
        let mut timer = std::pin::pin!(tokio::time::sleep_until(due()));
        loop {
            timer.as_mut().await;
            let at = due();
            if at <= tokio::time::Instant::now() {
                return;
            }
            timer.as_mut().reset(at);
        }
    }
}

/// The idle timers' step: every socket's idle deadline is moved on to the next whole step of
/// the process's clock (`on_tick`), so the timers of all the sockets whose deadline falls within
/// one step fire together, at one wake of a worker, rather than each at its own instant. At
/// human pace each of 18,800 sockets' timers fires about once a minute (it is moved on, a
/// message having come meanwhile): 313 times a second, most of them waking a parked worker
/// for nothing else (docs/architecture.md section 5.4, `ws/`).
const IDLE_TICK: Duration = Duration::from_secs(1);

/// `at` moved on to the next whole `tick` counted from the first time asked for; `at` itself if
/// it is earlier than that, or `tick` is zero.
fn on_tick(at: tokio::time::Instant, tick: Duration) -> tokio::time::Instant {
    static ORIGIN: std::sync::OnceLock<tokio::time::Instant> = std::sync::OnceLock::new();
    let origin = *ORIGIN.get_or_init(tokio::time::Instant::now);
    let (Some(since), Ok(step)) = (
        at.checked_duration_since(origin),
        u64::try_from(tick.as_nanos()),
    ) else {
        return at;
    };
    if step == 0 {
        return at;
    }
    let since = u64::try_from(since.as_nanos()).unwrap_or(u64::MAX);
    let steps = since.div_ceil(step);
    steps
        .checked_mul(step)
        .and_then(|n| origin.checked_add(Duration::from_nanos(n)))
        .unwrap_or(at)
}

impl Default for Heard {
    fn default() -> Heard {
        Heard::new()
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

/// Reads one client message (`plateau_protocol::parse`).
///
/// # Errors
/// `msg/malformed` (not a JSON object with a string `type`, or bad fields) or `msg/unknown`.
pub fn parse_client_message(text: &str) -> Result<ClientMessage, ApiError> {
    plateau_protocol::parse(text).map_err(ApiError::from)
}

/// A close frame with `code` and `reason`.
pub fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from(reason.to_owned()),
    }))
}

/// The refusal of a message of `len` bytes over `MAX_MESSAGE` (`msg/too_large`).
pub fn too_large(len: usize) -> ApiError {
    ApiError::new(
        Code::MsgTooLarge,
        format!("a message of {len} bytes is over the limit of {MAX_MESSAGE} bytes"),
    )
}

/// The refusal of a binary message of `len` bytes: not read at any size (the protocol is JSON
/// text).
pub fn binary_refused(len: usize) -> ApiError {
    if len > MAX_MESSAGE {
        too_large(len)
    } else {
        ApiError::new(
            Code::MsgMalformed,
            "binary frames are not read; send JSON text",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame that breaks the protocol closes with 1002 and text that is not UTF-8 with 1007,
    /// as axum hands them over (its error around tungstenite's); only what is too large closes
    /// with 1009 ("too big").
    #[test]
    fn each_unreadable_frame_gets_its_own_close() {
        use tokio_tungstenite::tungstenite::Error;
        use tokio_tungstenite::tungstenite::error::{CapacityError, ProtocolError};
        let code = |e: Error| unreadable(&axum::Error::new(e)).0;
        assert_eq!(
            code(Error::Protocol(ProtocolError::UnmaskedFrameFromClient)),
            1002
        );
        assert_eq!(
            code(Error::Protocol(ProtocolError::UnknownDataFrameType(3))),
            1002
        );
        assert_eq!(
            code(Error::Protocol(ProtocolError::ControlFrameTooBig)),
            1002
        );
        assert_eq!(
            code(Error::Protocol(ProtocolError::UnexpectedContinueFrame)),
            1002
        );
        assert_eq!(code(Error::Utf8(String::new())), 1007);
        assert_eq!(
            code(Error::Capacity(CapacityError::MessageTooLong {
                size: MAX_MESSAGE + 1,
                max_size: MAX_MESSAGE
            })),
            1009
        );
        assert_eq!(unreadable(&std::io::Error::other("reset")), UNREADABLE);
    }

    /// The ready-made texts are what the protocol's parser and serde make of a ping and a pong.
    #[test]
    fn the_ping_and_pong_texts_are_the_protocols() {
        assert!(matches!(
            parse_client_message(PING),
            Ok(ClientMessage::Ping)
        ));
        let pong = serde_json::to_string(&plateau_protocol::server::MatchMessage::Pong).unwrap();
        assert_eq!(pong, PONG);
        let pong = serde_json::to_string(&plateau_protocol::server::LobbyMessage::Pong).unwrap();
        assert_eq!(pong, PONG);
    }

    /// A deadline moves on to the next whole step, never back and less than a step; two within
    /// one step land on the same instant; one on a step stays; no step leaves it as it is.
    #[test]
    fn idle_deadlines_move_on_to_the_next_step() {
        let tick = Duration::from_millis(1000);
        let base = on_tick(tokio::time::Instant::now() + Duration::from_secs(5), tick);
        assert_eq!(on_tick(base, tick), base);
        let a = on_tick(base + Duration::from_millis(1), tick);
        let b = on_tick(base + Duration::from_millis(999), tick);
        assert_eq!((a, b), (base + tick, base + tick));
        assert_eq!(
            on_tick(base + tick + Duration::from_nanos(1), tick),
            base + 2 * tick
        );
        let at = base + Duration::from_millis(1);
        assert_eq!(on_tick(at, Duration::ZERO), at);
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
        // A place comes back every 1,000 s: none while the test runs, however slowly.
        let mut rate = Rate::new(&limits(0.001, 3.0));
        assert!((0..3).all(|_| rate.take().is_ok()));
        let refused = rate.take().unwrap_err();
        assert_eq!(refused.code, Code::LimitMessages);
        assert_eq!(
            refused.message,
            "more than 0.001 messages a second: this one was not read"
        );
        let mut closed = Rate::new(&limits(0.0, 2.0));
        assert!(closed.take().is_ok() && closed.take().is_ok());
        assert!(closed.take().is_err());
    }
}
