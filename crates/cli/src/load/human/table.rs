//! The sockets' tasks: a table (a match of people played at a human pace, and its
//! spectators) and a lobby socket.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::stream::SelectAll;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use super::pace::source;
use super::wire::{Run, asked, open, set, sleep_until};
use crate::load::client::{ServerMessage, take_seats};

/// One table: a match of people opened from `from`, its spectators, played at a human pace
/// until `stop`; a match that ends or fails is replaced.
pub(super) async fn table(run: Arc<Run>, k: usize) {
    let from = source(k, run.pace.sources);
    let mut rng = ChaCha8Rng::seed_from_u64(run.pace.seed.wrapping_mul(1_000_003) + k as u64);
    let mut stop = run.stop.clone();
    while !*stop.borrow() {
        if *run.quiet.borrow() {
            // No new match once the seats stop acting.
            set(&mut stop).await;
            return;
        }
        match play_match(&run, from, k, &mut rng).await {
            Ok(()) => {}
            Err(e) => {
                run.counts.failed(&e);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                    () = set(&mut stop) => return,
                }
            }
        }
    }
}

/// What a seat last had: its version and legal actions, if its match is live.
#[derive(Clone)]
struct View {
    version: u64,
    legal: Vec<String>,
}

/// Opens and plays one match until it ends, a socket fails, or the run stops.
async fn play_match(run: &Run, from: IpAddr, k: usize, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let counts = &run.counts;
    counts.opening.fetch_add(1, Ordering::Relaxed);
    let mut opening = true;
    let played = play_opened(run, from, k, rng, &mut opening).await;
    if opening {
        counts.opening.fetch_sub(1, Ordering::Relaxed);
    }
    played
}

/// `play_match` once counted as opening; `opening` is cleared when every socket has had its
/// first message (the count taken down then).
async fn play_opened(
    run: &Run,
    from: IpAddr,
    k: usize,
    rng: &mut ChaCha8Rng,
    opening: &mut bool,
) -> Result<(), String> {
    let pace = &run.pace;
    let counts = &run.counts;
    let addr = run.target.addr;
    let (id, tokens) =
        take_seats(
            &pace.game,
            pace.seats,
            move |path, body, expect| async move {
                asked(counts, from, addr, &path, &body, expect).await
            },
        )
        .await?;
    let path = format!("/api/matches/{id}/ws");
    let mut sockets = Vec::new();
    for t in &tokens {
        sockets.push(open(from, addr, &path, Some(t)).await?);
    }
    for _ in 0..pace.spectators_of(k) {
        sockets.push(open(from, addr, &path, None).await?);
    }
    let n = sockets.len();
    let mut sinks = Vec::with_capacity(n);
    let mut streams = SelectAll::new();
    for (i, ws) in sockets.into_iter().enumerate() {
        let (sink, stream) = ws.split();
        sinks.push(sink);
        streams.push(stream.map(move |m| (i, m)));
    }
    // Which sockets have had their first message (they count as open from then on).
    let mut heard = vec![false; n];
    let mut views: Vec<Option<View>> = vec![None; pace.seats];
    // The seat thinking and when it acts; the action in flight: seat, version, sent.
    let mut thinking: Option<(usize, tokio::time::Instant)> = None;
    let mut in_flight: Option<(usize, u64, Instant)> = None;
    // The sockets ping in turn, each every `ping_every` seconds, from a phase of this table's.
    let ping_gap = Duration::from_secs_f64(pace.ping_every / n as f64);
    let mut next_ping = tokio::time::Instant::now()
        + Duration::from_secs_f64(pace.ping_every * rng.random::<f64>() / n as f64);
    let mut ping_turn = 0usize;
    let mut live = false;
    let mut quiet = run.quiet.clone();
    let mut stop = run.stop.clone();
    let result = loop {
        if thinking.is_none()
            && in_flight.is_none()
            && !*quiet.borrow()
            && let Some(seat) = (0..pace.seats).find(|&s| views[s].is_some())
        {
            let think = rng.random_range(pace.think.0..=pace.think.1);
            thinking = Some((
                seat,
                tokio::time::Instant::now() + Duration::from_secs_f64(think),
            ));
        }
        let acts_at = thinking.map(|(_, at)| at);
        tokio::select! {
            () = set(&mut stop) => break Ok(()),
            () = set(&mut quiet), if thinking.is_some() => {
                thinking = None;
            }
            () = sleep_until(acts_at) => {
                let Some((seat, _)) = thinking.take() else { continue };
                let Some(view) = views[seat].take() else { continue };
                let action = &view.legal[rng.random_range(0..view.legal.len())];
                let act = json!({"type": "act", "version": view.version, "action": action});
                if sinks[seat].send(Message::Text(act.to_string().into())).await.is_err() {
                    break Err("send failed".to_owned());
                }
                counts.in_flight.fetch_add(1, Ordering::Relaxed);
                in_flight = Some((seat, view.version, Instant::now()));
            }
            () = tokio::time::sleep_until(next_ping) => {
                next_ping += ping_gap;
                let i = ping_turn % n;
                ping_turn += 1;
                let ping = Message::Text(r#"{"type":"ping"}"#.into());
                if sinks[i].send(ping).await.is_err() {
                    break Err("send failed".to_owned());
                }
            }
            frame = streams.next() => {
                let Some((i, frame)) = frame else {
                    break Err("sockets closed".to_owned());
                };
                let text = match frame {
                    Ok(Message::Text(text)) => text,
                    Ok(Message::Close(_)) => break Err("closed by the server".to_owned()),
                    Ok(_) => continue,
                    Err(_) => break Err("socket error".to_owned()),
                };
                if !heard[i] {
                    heard[i] = true;
                    counts.match_sockets.fetch_add(1, Ordering::Relaxed);
                    if heard.iter().all(|h| *h) {
                        live = true;
                        counts.live.fetch_add(1, Ordering::Relaxed);
                        counts.opening.fetch_sub(1, Ordering::Relaxed);
                        *opening = false;
                    }
                }
                let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) else {
                    continue;
                };
                match msg.kind.as_ref() {
                    "state" if i < pace.seats => {
                        if let Some((seat, v, sent)) = in_flight
                            && seat == i
                            && msg.version > Some(v)
                        {
                            counts.acked(sent.elapsed().as_micros() as u64);
                            counts.in_flight.fetch_sub(1, Ordering::Relaxed);
                            in_flight = None;
                        }
                        if msg.status.as_deref() == Some("finished") {
                            counts.finished.fetch_add(1, Ordering::Relaxed);
                            break Ok(());
                        }
                        let to_act = msg.status.as_deref() == Some("live") && !msg.legal.is_empty();
                        views[i] = to_act.then(|| View {
                            version: msg.version.unwrap_or(0),
                            legal: msg.legal,
                        });
                        if thinking.is_some_and(|(s, _)| s == i) && !to_act {
                            thinking = None;
                        }
                    }
                    "error" => {
                        counts.coded(msg.code.as_deref().unwrap_or("error without a code"));
                        if in_flight.is_some_and(|(seat, ..)| seat == i) {
                            counts.in_flight.fetch_sub(1, Ordering::Relaxed);
                            in_flight = None;
                            // Act again only on a newer state of that seat.
                            views[i] = None;
                        }
                    }
                    _ => {}
                }
            }
        }
    };
    if in_flight.is_some() {
        counts.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
    if live {
        counts.live.fetch_sub(1, Ordering::Relaxed);
    }
    let opened = heard.iter().filter(|h| **h).count() as i64;
    counts.match_sockets.fetch_sub(opened, Ordering::Relaxed);
    result
}

/// One lobby socket from `from`, pinging every `ping_every` s from a phase of its own, until
/// `stop`; it counts as open from its first message.
pub(super) async fn lobby(run: Arc<Run>, k: usize) {
    let from = source(k, run.pace.sources);
    let counts = &run.counts;
    let mut ws = match open(from, run.target.addr, "/api/lobby/ws", None).await {
        Ok(ws) => ws,
        Err(e) => {
            counts.failed(&format!("lobby {e}"));
            return;
        }
    };
    let every = Duration::from_secs_f64(run.pace.ping_every);
    let phase = every.mul_f64((k % 997) as f64 / 997.0);
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + phase, every);
    let mut stop = run.stop.clone();
    let mut heard = false;
    loop {
        tokio::select! {
            () = set(&mut stop) => break,
            _ = ping.tick() => {
                if ws.send(Message::Text(r#"{"type":"ping"}"#.into())).await.is_err() {
                    counts.failed("lobby send failed");
                    break;
                }
            }
            frame = ws.next() => {
                match frame {
                    Some(Ok(Message::Text(text))) => {
                        if !heard {
                            heard = true;
                            counts.lobby_sockets.fetch_add(1, Ordering::Relaxed);
                        }
                        if let Ok(msg) = serde_json::from_str::<ServerMessage>(&text)
                            && msg.kind == "error"
                        {
                            counts.coded(msg.code.as_deref().unwrap_or("error without a code"));
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => {
                        counts.failed("lobby closed by the server");
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) => {
                        counts.failed("lobby socket error");
                        break;
                    }
                }
            }
        }
    }
    if heard {
        counts.lobby_sockets.fetch_sub(1, Ordering::Relaxed);
    }
}
