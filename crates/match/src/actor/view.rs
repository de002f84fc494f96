//! What the actor sends: each viewer's `state` (docs/protocol.md section 4.1), chat lines and
//! their backlog, and the match's report to the presence registry.

use std::sync::Arc;

use bytes::Bytes;
use plateau_engine::{ObservationJson, Seat, Viewer};
use plateau_protocol::server::{ChatMessage, MatchMessage, Offers, State};

use super::fragments::Fragments;
use super::{MatchActor, OfferKind, Outgoing, column};
use crate::attendance::MatchPresence;
use crate::model::{SeatInfo, SeatSpec, Status, TimeControl, line_view, room_view};
use crate::versions::acting;

/// Chat lines of a room sent to a viewer when it connects.
pub const CHAT_BACKLOG: usize = 100;

/// The room a `state` message is written into (bytes): most deltas fit.
const STATE_CAPACITY: usize = 1024;

/// How a finished rated match moved a seat's rating (the numbers people read).
pub use plateau_protocol::server::RatingChange;

/// What a broadcast told every connection: how much of the log, and the seats and offers.
pub(super) struct Sent {
    log_len: usize,
    /// Per viewer column: how many of those `log_len` entries its move list shows, kept as the
    /// log grows so a delta's `moves_from` costs nothing whatever the game's length.
    shown: Vec<usize>,
    seats: Vec<SeatInfo>,
    offers: Offers,
    /// Per viewer column: the observation it was sent, if any.
    observations: Vec<Option<Kept>>,
    /// Per viewer column, the version it was shown; the status and the seats to act then.
    versions: Vec<u64>,
    status: Status,
    to_act: Vec<u8>,
    /// A connection was sent a whole state since (`send_state`): the next broadcast sends
    /// seats, offers and observations whole.
    stale: bool,
}

/// An observation as a viewer is sent it. Shared: every viewer of a game without hidden
/// information is sent the same, built once per broadcast.
pub(super) type Observed = Arc<ObservationJson>;

/// An observation as a viewer was sent it, kept for the next broadcast's deltas (compact, as
/// every match in memory holds one per distinct view): the one sent, shared.
pub(super) type Kept = Observed;

/// A broadcast's message (none if nothing changed for its viewer) and observation, per viewer
/// column.
type Messages = Vec<Option<(Option<Bytes>, Observed)>>;

/// The parts of a `state` that are the same for every viewer, built once per broadcast.
struct Shared {
    seats: Vec<SeatInfo>,
    offers: Offers,
    /// The seats that may act now, increasing (none unless the match is live).
    to_act: Vec<u8>,
    now: u64,
    /// Whether the seats and the offers are to be sent (`since`): the same for every viewer of
    /// a broadcast, compared once for all.
    seats_changed: bool,
    offers_changed: bool,
}

impl Shared {
    /// Notes whether the seats and the offers changed since the broadcast `since` (whole
    /// when there is none, or a connection was sent a whole state since).
    fn since(mut self, since: Option<&Sent>) -> Shared {
        self.seats_changed = since.is_none_or(|s| s.stale || s.seats != self.seats);
        self.offers_changed = since.is_none_or(|s| s.stale || s.offers != self.offers);
        self
    }
}

impl MatchActor {
    /// The `state` message for `viewer`: whole when `since` is `None`, else a delta from what the
    /// broadcast `since` sent (docs/protocol.md section 4.1), or `None` when nothing this viewer
    /// sees changed since (another seat's secret action): an empty delta would tell it when that
    /// seat acted, which the versions keep from it.
    fn state_message(
        &self,
        viewer: Viewer,
        common: &Shared,
        since: Option<&Sent>,
        public: Option<&Observed>,
        fragments: &mut Fragments,
    ) -> (Option<Bytes>, Observed) {
        let to_act = &common.to_act;
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        // Each viewer's own column of the move list: hidden actions are simply absent.
        let column = match viewer {
            Viewer::Seat(s) => s.index(),
            Viewer::Spectator => self.state.seats(),
        };
        let from_log = since.map_or(0, |s| s.log_len);
        let moves_from = since.map_or(0, |s| s.shown[column]);
        let moves = fragments.add_moves(&self.log[from_log..], column);
        let whole = since.is_none();
        let finished = self.status == Status::Finished;
        let observed = match public {
            Some(o) => Arc::clone(o),
            None => Arc::new(self.state.observe_fields(viewer)),
        };
        let before = since
            .filter(|s| !s.stale)
            .and_then(|s| s.observations.get(column)?.as_ref());
        let patch = before.and_then(|b| fragments.add_patch(b, &observed));
        let fragments = &*fragments;
        let patch = patch.map(|i| fragments.patch(i));
        let (observation, patch, removed) = match patch {
            Some(p) => (None, Some(p), p.removed.as_slice()),
            None => (Some(&*observed), None, &[][..]),
        };
        let version = self.version_of(viewer);
        let (seats_changed, offers_changed) = match since {
            Some(_) => (common.seats_changed, common.offers_changed),
            None => (true, true),
        };
        let unchanged = since.is_some_and(|s| {
            !s.stale
                && s.versions.get(column) == Some(&version)
                && s.status == self.status
                && s.to_act == *to_act
        }) && !seats_changed
            && !offers_changed
            && moves.is_empty()
            && patch.is_some_and(|p| p.is_empty());
        if unchanged {
            return (None, observed);
        }
        // Built only for a message that goes out: a long list (a Bataille Navale placement's)
        // costs more than the rest of the message.
        let legal = match seat {
            Some(s) if to_act.contains(&s.0) => self.state.listed_legal_info(s),
            _ => Vec::new(),
        };
        let moves = moves.iter().map(|&i| fragments.move_json(i)).collect();
        let message = MatchMessage::State(State {
            snapshot: whole,
            id: whole.then_some(self.id.as_str()),
            game: whole.then_some(self.entry.info.name),
            rated: whole.then_some(self.rated),
            seat: whole.then_some(seat.map(|s| s.0)),
            seed_hash: whole.then_some(self.seed_hash.as_str()),
            status: self.status,
            version,
            to_act,
            observation,
            observation_patch: patch.map(|p| &p.changed),
            observation_removed: removed,
            legal: &legal,
            legal_info: &legal,
            moves_from,
            moves,
            seats: seats_changed.then_some(common.seats.as_slice()),
            offers: offers_changed.then_some(&common.offers),
            // Without a clock there is nothing to count down: said once, in the whole state.
            clocks: (whole || self.control != TimeControl::None)
                .then(|| self.clocks.view(common.now)),
            outcome: (whole || finished).then(|| self.state.outcome().filter(|_| finished)),
            seed: (whole || finished).then(|| finished.then(|| self.seed.to_hex())),
            ratings: (finished && !self.ratings.is_empty()).then_some(self.ratings.as_slice()),
        });
        // Written into room for a delta (a Moon Leap one is 300 to 900 bytes), not grown to it
        // from serde_json's 128 bytes: each growth copies what was written.
        let mut text = Vec::with_capacity(STATE_CAPACITY);
        serde_json::to_writer(&mut text, &message).expect("state messages serialize");
        // The message borrows `observed` (its `observation`) until it is dropped.
        drop(message);
        (Some(Bytes::from(text)), observed)
    }

    /// What every viewer is shown alike, now.
    fn shared_parts(&self) -> Shared {
        let offered = |kind| -> Vec<u8> {
            self.offers
                .get(&kind)
                .map(|s| s.iter().copied().collect())
                .unwrap_or_default()
        };
        Shared {
            seats: self.seat_infos(),
            offers: Offers {
                rematch: offered(OfferKind::Rematch),
                agreement: offered(OfferKind::Agreement),
                takeback: self.takeback_by.map_or_else(Vec::new, |asker| {
                    let others = offered(OfferKind::Takeback).into_iter();
                    std::iter::once(asker.0)
                        .chain(others.filter(|s| *s != asker.0))
                        .collect()
                }),
            },
            to_act: if self.status == Status::Live {
                acting(self.state.to_act()).map(|s| s.0).collect()
            } else {
                Vec::new()
            },
            now: self.now_ms(),
            seats_changed: true,
            offers_changed: true,
        }
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
                crate::model::seat_info(
                    i,
                    spec,
                    !matches!(spec, SeatSpec::Human) || self.token_hashes[i].is_some(),
                    self.players[i].as_ref(),
                    connected[i],
                )
            })
            .collect()
    }

    /// Sends every viewer its own `state`, built once per distinct viewer (a delta from the last
    /// broadcast, which every open connection has had or has had a whole `state` since), and
    /// reports to the presence registry. A connection whose queue is full is dropped (its socket
    /// is then closed; the client reconnects and resumes).
    pub(super) fn broadcast(&mut self) {
        self.broadcast_except(None);
    }

    /// `broadcast`, leaving out connection `skip` (a new one, about to get a whole state).
    pub(super) fn broadcast_except(&mut self, skip: Option<u64>) {
        let had = self.connected_seats();
        self.subs.retain(|s| !s.out.is_closed());
        let since = self.sent.take();
        let common = self.shared_parts().since(since.as_ref());
        // Written only for someone to send it to (a table of bots alone has nobody).
        let told = self.subs.iter().any(|s| Some(s.conn) != skip);
        let public = (told && !self.entry.info.hidden_information)
            .then(|| Arc::new(self.state.observe_fields(Viewer::Spectator)));
        let seats = self.specs.len();
        let mut messages: Messages = vec![None; seats + 1];
        let mut fragments = Fragments::default();
        for sub in self.subs.iter().filter(|s| Some(s.conn) != skip) {
            let slot = &mut messages[column(sub.viewer, seats)];
            if slot.is_none() {
                *slot = Some(self.state_message(
                    sub.viewer,
                    &common,
                    since.as_ref(),
                    public.as_ref(),
                    &mut fragments,
                ));
            }
        }
        self.subs.retain(|sub| {
            let Some((Some(msg), _)) = messages[column(sub.viewer, seats)]
                .as_ref()
                .filter(|_| Some(sub.conn) != skip)
            else {
                return true;
            };
            sub.out.try_send(Outgoing::Text(msg.clone())).is_ok()
        });
        let observations = kept(messages);
        self.sent = Some(self.baseline(since, common, observations));
        // A seat whose last connection went (closed, or too slow) is away from now; the others
        // see it in their next state.
        self.mark_away(&had);
        self.report();
    }

    /// What the viewers were shown as of now, for the next broadcast's deltas: `since` (the
    /// baseline before, if any) moved on to the present, with the observations each viewer was sent.
    fn baseline(
        &self,
        since: Option<Sent>,
        common: Shared,
        observations: Vec<Option<Kept>>,
    ) -> Sent {
        let (from, mut shown) = since.map_or_else(
            || (0, vec![0; self.specs.len() + 1]),
            |s| (s.log_len, s.shown),
        );
        for (column, n) in shown.iter_mut().enumerate() {
            *n += self.log[from..]
                .iter()
                // An early ending is not a move.
                .filter(|p| {
                    p.entry.by().is_some() && p.display.get(column).is_some_and(Option::is_some)
                })
                .count();
        }
        Sent {
            log_len: self.log.len(),
            shown,
            seats: common.seats,
            offers: common.offers,
            observations,
            versions: self.seen.clone(),
            status: self.status,
            to_act: common.to_act,
            stale: false,
        }
    }

    /// Sends connection `conn` a whole `state` (on connecting, and when it asks with `sync`).
    /// Its next delta may repeat moves it has: `moves_from` tells where they go. When it shows
    /// what the last broadcast did not (the match changed since), the next broadcast sends
    /// seats, offers and observations whole, whatever they are then (`Sent::stale`). Otherwise
    /// what it shows joins the baseline of the next broadcast's deltas, so that a viewer new
    /// since the last broadcast (or the first since the match was loaded) is sent nothing when
    /// nothing it sees changes: a whole observation then would tell it when another seat made a
    /// secret move (docs/protocol.md section 1).
    pub(super) fn send_state(&mut self, conn: u64) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let common = self.shared_parts();
        let viewer = sub.viewer;
        let (message, observation) =
            self.state_message(viewer, &common, None, None, &mut Fragments::default());
        if let Some(message) = message {
            let _ = sub.out.try_send(Outgoing::Text(message));
        }
        let log_len = self.log.len();
        let seats = self.specs.len();
        let col = column(viewer, seats);
        match &mut self.sent {
            Some(sent)
                if sent.log_len != log_len
                    || sent.seats != common.seats
                    || sent.offers != common.offers
                    || sent
                        .observations
                        .get(col)
                        .and_then(Option::as_ref)
                        // One that is not an object is never the same: it has no fields to
                        // compare, and is sent whole.
                        .is_some_and(|o| !(o.is_object() && o.same_as(&observation))) =>
            {
                sent.stale = true;
            }
            Some(sent) => {
                if let Some(slot) = sent.observations.get_mut(col) {
                    slot.get_or_insert(observation);
                }
            }
            None => {
                let mut observations = vec![None; seats + 1];
                observations[col] = Some(observation);
                self.sent = Some(self.baseline(None, common, observations));
            }
        }
    }

    /// Sends connection `conn` the last lines of its room, without those of players it muted.
    pub(super) fn send_backlog(&self, conn: u64) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let room = self.room_of(sub);
        let mut lines: Vec<ChatMessage<'_>> = self
            .chat
            .iter()
            .filter(|l| l.room == room && !self.muted(sub, l))
            .map(|l| ChatMessage::Chat(line_view(l)))
            .collect();
        lines.drain(..lines.len().saturating_sub(CHAT_BACKLOG));
        let message = MatchMessage::ChatBacklog {
            room: room_view(room),
            lines,
        };
        let text = serde_json::to_string(&message).unwrap_or_default();
        let _ = sub.out.try_send(Outgoing::Text(text.into()));
    }

    /// Tells the presence registry who sits at the table and who is to act.
    pub fn report(&self) {
        let live = self.status == Status::Live;
        let to_act = if live {
            acting(self.state.to_act())
                .filter(|s| self.specs[s.index()] == SeatSpec::Human)
                .filter_map(|s| self.players[s.index()].as_ref().map(|p| p.id))
                .collect()
        } else {
            Vec::new()
        };
        let connected = self.connected();
        let here = connected
            .iter()
            .zip(&self.players)
            .filter(|(c, _)| **c)
            .filter_map(|(_, p)| p.as_ref().map(|p| p.id))
            .collect();
        self.shared.presence.report(
            &self.id,
            MatchPresence {
                live,
                connected,
                here,
                to_act,
                correspondence: self.control == TimeControl::None,
                game: self.entry.info.name,
                public_version: self.version_of(Viewer::Spectator),
            },
        );
    }
}

/// The observations of a broadcast's `messages`, kept: each viewer's, shared by the viewers
/// that were sent the same.
fn kept(messages: Messages) -> Vec<Option<Kept>> {
    messages
        .into_iter()
        .map(|message| message.map(|(_, observed)| observed))
        .collect()
}
