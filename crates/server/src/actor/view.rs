//! What the actor sends: each viewer's `state` (docs/protocol.md section 4.1), chat lines and
//! their backlog, and the match's report to the presence registry.

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;
use plateau_engine::{Actor, Outcome, Seat, Viewer};
use serde::Serialize;
use serde_json::json;

use super::seats::CHAT_BACKLOG;
use super::{MatchActor, OfferKind, Outgoing, seats_to_act};
use crate::clock::ClockView;
use crate::model::{SeatInfo, SeatSpec, Status, TimeControl};
use crate::presence::MatchPresence;
use crate::store::{ChatLine, Entry};

#[derive(Serialize)]
struct MoveView<'a> {
    by: Actor,
    text: &'a str,
}

#[derive(Serialize)]
struct Offers {
    rematch: Vec<u8>,
    agreement: Vec<u8>,
}

#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    game: &'static str,
    status: Status,
    rated: bool,
    version: u64,
    seat: Option<u8>,
    to_act: Vec<u8>,
    observation: serde_json::Value,
    legal: Vec<String>,
    moves: Vec<MoveView<'a>>,
    seats: Vec<SeatInfo>,
    offers: Offers,
    clocks: ClockView,
    outcome: Option<Outcome>,
    seed_hash: &'a str,
    seed: Option<String>,
}

impl MatchActor {
    /// The `state` message for `viewer` (docs/protocol.md section 4.1).
    fn state_message(&self, viewer: Viewer, now: u64) -> Utf8Bytes {
        let live = self.status == Status::Live;
        let to_act = if live {
            seats_to_act(self.state.to_act())
        } else {
            Vec::new()
        };
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let legal = match seat {
            Some(s) if to_act.contains(&s) => self.state.legal_texts(s),
            _ => Vec::new(),
        };
        // Each viewer's own column of the move list: hidden actions are simply absent.
        let column = match viewer {
            Viewer::Seat(s) => s.index(),
            Viewer::Spectator => self.state.seats(),
        };
        let moves = self
            .log
            .iter()
            .filter_map(|p| {
                let by = match &p.entry.entry {
                    Entry::Seat(s, _) => Actor::Seat(Seat(*s)),
                    Entry::Chance(_) => Actor::Chance,
                    Entry::End(_) => return None,
                };
                let text = p.display.get(column)?.as_deref()?;
                Some(MoveView { by, text })
            })
            .collect();
        let offered = |kind| -> Vec<u8> {
            self.offers
                .get(&kind)
                .map(|s| s.iter().copied().collect())
                .unwrap_or_default()
        };
        let finished = self.status == Status::Finished;
        let message = StateMessage {
            kind: "state",
            id: &self.id,
            game: self.entry.info.name,
            status: self.status,
            rated: self.rated,
            version: self.version_of(viewer),
            seat: seat.map(|s| s.0),
            to_act: to_act.iter().map(|s| s.0).collect(),
            observation: self.state.observe_json(viewer),
            legal,
            moves,
            seats: self.seat_infos(),
            offers: Offers {
                rematch: offered(OfferKind::Rematch),
                agreement: offered(OfferKind::Agreement),
            },
            clocks: self.clocks.view(now),
            outcome: if finished { self.state.outcome() } else { None },
            seed_hash: &self.seed_hash,
            seed: finished.then(|| self.seed.to_hex()),
        };
        Utf8Bytes::from(serde_json::to_string(&message).expect("state messages serialize"))
    }

    /// Per seat: whether a connection of that seat is open now.
    fn connected(&self) -> Vec<bool> {
        (0..self.specs.len())
            .map(|i| {
                self.subs
                    .iter()
                    .any(|s| s.viewer == Viewer::Seat(Seat(i as u8)) && !s.out.is_closed())
            })
            .collect()
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        let connected = self.connected();
        self.specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                SeatInfo::new(
                    i,
                    spec,
                    !matches!(spec, SeatSpec::Human) || self.token_hashes[i].is_some(),
                    self.players[i].as_ref(),
                    connected[i],
                )
            })
            .collect()
    }

    /// Sends every viewer its own `state`, built once per distinct viewer, and reports to the
    /// presence registry. A connection whose queue is full is dropped (its socket is then
    /// closed; the client reconnects and resumes).
    pub(super) fn broadcast(&mut self) {
        let had = self.connected_seats();
        self.subs.retain(|s| !s.out.is_closed());
        let now = self.now_ms();
        let mut messages: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        for sub in &self.subs {
            messages
                .entry(sub.viewer)
                .or_insert_with(|| self.state_message(sub.viewer, now));
        }
        self.subs.retain(|sub| {
            let msg = messages[&sub.viewer].clone();
            sub.out.try_send(Outgoing::Text(msg)).is_ok()
        });
        // A seat whose last connection went (closed, or too slow) is away from now; the others
        // see it in their next state.
        self.mark_away(&had);
        self.report();
    }

    /// Sends connection `conn` its `state`.
    pub(super) fn send_state(&self, conn: u64) {
        if let Some(sub) = self.subs.iter().find(|s| s.conn == conn) {
            let _ = sub.out.try_send(Outgoing::Text(
                self.state_message(sub.viewer, self.now_ms()),
            ));
        }
    }

    /// A chat line as sent to clients.
    pub(super) fn chat_json(line: &ChatLine) -> serde_json::Value {
        json!({"type": "chat", "room": line.room, "name": line.player.name, "seat": line.seat,
               "text": line.text, "at": line.at})
    }

    /// Sends connection `conn` the last lines of its room, without those of players it muted.
    pub(super) fn send_backlog(&self, conn: u64) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let room = self.room_of(sub);
        let lines: Vec<serde_json::Value> = self
            .chat
            .iter()
            .filter(|l| l.room == room && !self.muted(sub, l))
            .map(Self::chat_json)
            .collect();
        let tail = &lines[lines.len().saturating_sub(CHAT_BACKLOG)..];
        let message = json!({"type": "chat_backlog", "room": room, "lines": tail});
        let _ = sub.out.try_send(Outgoing::Text(message.to_string().into()));
    }

    /// Tells the presence registry who sits at the table and who is to act.
    pub(crate) fn report(&self) {
        let live = self.status == Status::Live;
        let to_act = if live {
            seats_to_act(self.state.to_act())
                .into_iter()
                .filter(|s| self.specs[s.index()] == SeatSpec::Human)
                .filter_map(|s| self.players[s.index()].as_ref().map(|p| p.id))
                .collect()
        } else {
            Vec::new()
        };
        self.shared.presence.report(
            &self.id,
            MatchPresence {
                live,
                connected: self.connected(),
                to_act,
                correspondence: self.control == TimeControl::None,
                game: self.entry.info.name,
                public_version: self.version_of(Viewer::Spectator),
            },
        );
    }
}
