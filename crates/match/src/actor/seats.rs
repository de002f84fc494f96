//! The people around the table: connections (by seat token or by the session's player), taking a
//! seat, opening the match (the game and its clocks start once every person has), rematch offers
//! and the chat.

use plateau_engine::{Seat, Viewer};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::{Joined, MatchActor, OfferKind, Outgoing, RematchInfo, Reply, Subscriber};
use crate::model::{ApiError, Code, SeatSpec, Status, unix_ms};
use crate::tokens::{new_token, seat_for};
use crate::versions::seats_to_act;
use plateau_store::players::{Player, PlayerId};
use plateau_store::{ChatLine, Room, StoreError};

/// Longest chat line, in characters.
pub const CHAT_MAX: usize = 300;
/// At most this many chat lines per player and match within `CHAT_WINDOW`.
pub const CHAT_BURST: usize = 5;
/// The window of the chat rate limit.
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// Checks a chat line: trimmed, 1 to 300 characters, something visible, no control characters
/// and none that turn the text around (bidirectional overrides and isolates, which would make
/// the lines below read backwards).
///
/// # Errors
/// `chat/invalid` saying what is wrong.
pub fn check_chat(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    let bad = |why: &str| ApiError::new(Code::ChatInvalid, why);
    if !text.chars().any(shows_something) {
        return Err(bad("an empty chat line is not sent"));
    }
    if crate::model::turns_text(text) {
        return Err(bad("a chat line cannot change the direction of the text"));
    }
    if text.chars().count() > CHAT_MAX {
        return Err(bad("a chat line has at most 300 characters"));
    }
    if text.chars().any(char::is_control) {
        return Err(bad("a chat line cannot hold control characters"));
    }
    Ok(text.to_owned())
}

/// Whether a character draws something: a letter, a digit, a punctuation mark or a symbol, but
/// not the fillers that are letters and draw nothing (Hangul fillers) nor the blank braille
/// cell. Spaces, marks alone (combining accents), format characters (zero-width joiners, tag
/// characters) and control characters draw nothing a reader sees.
fn shows_something(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup as Group, UnicodeGeneralCategory};
    if matches!(
        c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
    ) {
        return false;
    }
    matches!(
        c.general_category_group(),
        Group::Letter | Group::Number | Group::Punctuation | Group::Symbol
    )
}

impl MatchActor {
    /// Connects a viewer. A `token` names its seat; without one, a `player` who holds a seat of
    /// this match gets it (another device, signed in); anyone else watches. A token whose seat
    /// belongs to another player than the session's is refused.
    pub(super) async fn subscribe(
        &mut self,
        conn: u64,
        token: Option<String>,
        player: Option<Player>,
        from: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: Reply<Option<Seat>>,
    ) {
        let seat = match self.seat_of(token.as_deref(), player.as_ref()) {
            Ok(seat) => seat,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        // A connection that authenticates later (`auth`) is subscribed again, as its seat.
        if let Some(pos) = self.subs.iter().position(|s| s.conn == conn) {
            self.subs.remove(pos);
        }
        if let Some(s) = seat
            && let Err(e) = self.open(s).await
        {
            let _ = reply.send(Err(e));
            return;
        }
        if let (Some(s), Some(key)) = (seat, from)
            && let Some(p) = &self.players[s.index()]
        {
            self.shared.presence.came_from(p.id, key);
        }
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
        // A guest renamed since it took the seat (`POST /api/guest`): the table shows the new name.
        if let (Some(s), Some(now)) = (seat, &player)
            && let Some(held) = self.players[s.index()].as_mut()
            && held.id == now.id
        {
            held.name.clone_from(&now.name);
        }
        let player = match seat {
            Some(s) => self.players[s.index()].clone(),
            None => player,
        };
        self.subs.push(Subscriber {
            conn,
            viewer,
            player,
            out,
        });
        // For a seat, everyone else sees it connected (and the match perhaps started); the new
        // connection starts from a whole state.
        if seat.is_some() {
            self.advance().await;
            self.broadcast_except(Some(conn));
        }
        self.send_state(conn);
        self.send_backlog(conn);
        let _ = reply.send(Ok(seat));
    }

    /// `player` is named `name` now: its seats, its connections (what its chat lines will
    /// say) and its chat lines so far show that name. Whether a seat changed (the table must
    /// be told).
    pub(super) fn renamed(&mut self, player: PlayerId, name: &str) -> bool {
        let rename = |p: &mut Player| {
            if p.id == player && p.name != name {
                p.name = name.to_owned();
                true
            } else {
                false
            }
        };
        let mut seated = false;
        for p in self.players.iter_mut().flatten() {
            seated |= rename(p);
        }
        for p in self.subs.iter_mut().filter_map(|s| s.player.as_mut()) {
            rename(p);
        }
        for line in &mut self.chat {
            rename(&mut line.player);
        }
        seated
    }

    fn seat_of(
        &self,
        token: Option<&str>,
        player: Option<&Player>,
    ) -> Result<Option<Seat>, ApiError> {
        seat_for(
            token,
            player,
            &self.token_hashes,
            &self.players,
            &self.specs,
        )
    }

    /// Seat `seat`'s player opened the match: stored once; when every seat is taken and every
    /// person has opened it, the match goes live and its clocks start. A seat with a socket is not
    /// away.
    async fn open(&mut self, seat: Seat) -> Result<(), ApiError> {
        let i = seat.index();
        self.away_since[i] = None;
        self.hold_time();
        if self.opened[i] {
            return Ok(());
        }
        let all = (0..self.specs.len())
            .all(|j| j == i || self.opened[j] || self.specs[j] != SeatSpec::Human)
            && self
                .token_hashes
                .iter()
                .zip(&self.specs)
                .all(|(t, s)| t.is_some() || *s != SeatSpec::Human);
        let start = (all && self.status == Status::Open).then(unix_ms);
        self.shared
            .store
            .open_seat(&self.id, seat.0, start)
            .await
            .map_err(|e| self.refused_write(e))?;
        self.opened[i] = true;
        if start.is_some() {
            self.start();
        }
        Ok(())
    }

    /// The match goes live: match time and the clocks start, with the seats to act.
    fn start(&mut self) {
        self.status = Status::Live;
        self.time_base = 0;
        self.resumed = Instant::now();
        self.clocks
            .update(0, None, &seats_to_act(self.state.to_act()), |s| {
                self.state.rule_clock_seconds(s)
            });
        tracing::info!(id = %self.id, "match started");
    }

    /// A connection closed. A human seat with no socket left is away from now (abandonment).
    pub(super) fn unsubscribe(&mut self, conn: u64) {
        let had = self.connected_seats();
        self.subs.retain(|s| s.conn != conn);
        if self.mark_away(&had) {
            self.broadcast();
        }
    }

    /// Drops the connections that are gone (their socket closed); tells the table if a seat
    /// lost its last one.
    pub(super) fn prune(&mut self) {
        let had = self.connected_seats();
        self.subs.retain(|s| !s.out.is_closed());
        if self.mark_away(&had) {
            self.broadcast();
        }
    }

    /// The seats with a connection now.
    pub(super) fn connected_seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self
            .subs
            .iter()
            .filter_map(|s| match s.viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            })
            .collect();
        seats.sort_unstable_by_key(|s| s.0);
        seats.dedup();
        seats
    }

    /// Of the seats that `had` a connection, those with none left are away from now (the
    /// abandonment rule counts from then). Whether any seat left.
    pub(super) fn mark_away(&mut self, had: &[Seat]) -> bool {
        let now = Instant::now();
        let mut left = false;
        for seat in had {
            if !self.subs.iter().any(|s| s.viewer == Viewer::Seat(*seat)) {
                self.away_since[seat.index()] = Some(now);
                left = true;
            }
        }
        if left {
            self.hold_time();
        }
        left
    }

    /// Takes a free human seat for `player` (docs/protocol.md section 3.5). In a rated match a
    /// player holds one seat at most.
    pub(super) async fn join(
        &mut self,
        wanted: Option<u8>,
        player: Player,
    ) -> Result<Joined, ApiError> {
        if self.status == Status::Finished {
            return Err(ApiError::new(Code::MatchOver, "the match is over"));
        }
        if self.shutting_down {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        if self.rated && self.players.iter().flatten().any(|p| p.id == player.id) {
            return Err(ApiError::new(
                Code::SeatTaken,
                "you already play in this rated match",
            ));
        }
        let free = |me: &Self| -> Vec<u8> {
            (0..me.specs.len())
                .filter(|i| me.specs[*i] == SeatSpec::Human && me.token_hashes[*i].is_none())
                .map(|i| i as u8)
                .collect()
        };
        let seat = match wanted {
            Some(s) => {
                let i = usize::from(s);
                if i >= self.specs.len() || self.specs[i] != SeatSpec::Human {
                    return Err(ApiError::new(
                        Code::SeatInvalid,
                        format!("seat {} is not a human seat of this match", i + 1),
                    ));
                }
                if self.token_hashes[i].is_some() {
                    return Err(ApiError::new(
                        Code::SeatTaken,
                        format!("seat {} is taken", i + 1),
                    ));
                }
                s
            }
            None => *free(self)
                .first()
                .ok_or_else(|| ApiError::new(Code::SeatTaken, "no free human seat is left"))?,
        };
        let (token, hash) = new_token();
        match self
            .shared
            .store
            .take_seat(&self.id, seat, hash.clone(), player.id)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                return Err(ApiError::new(
                    Code::SeatTaken,
                    format!("seat {} is taken", seat + 1),
                ));
            }
            Err(e) => return Err(self.refused_write(e)),
        }
        let i = usize::from(seat);
        self.token_hashes[i] = Some(hash);
        self.players[i] = Some(player);
        Ok(Joined {
            seat,
            token,
            free: free(self),
        })
    }

    /// A rematch offer by `seat`: once every human seat has asked, what the lobby needs to create
    /// it (asked once: later offers get `None`, the rematch being on its way or made).
    pub(super) fn offer_rematch(&mut self, seat: Seat) -> Result<Option<RematchInfo>, ApiError> {
        if self.status != Status::Finished {
            return Err(ApiError::new(
                Code::MatchNotOver,
                "a rematch can be asked once the match is over",
            ));
        }
        if self.rematch.is_some() {
            return Ok(None);
        }
        let humans = self.specs.iter().filter(|s| **s == SeatSpec::Human).count();
        let asked = self.offers.entry(OfferKind::Rematch).or_default();
        let fresh = asked.insert(seat.0);
        if !fresh || asked.len() < humans {
            return Ok(None);
        }
        Ok(Some(RematchInfo {
            game: self.entry.info.name.to_owned(),
            config: self.config.clone(),
            specs: self.specs.clone(),
            players: self.players.clone(),
            control: self.control,
            rated: self.rated,
        }))
    }

    /// The rematch `id` exists: stored, and every connection told its seat there (old seat `s`
    /// plays new seat `(s + 1) mod n`) with that seat's token.
    pub(super) async fn rematch_done(
        &mut self,
        id: String,
        tokens: Vec<Option<String>>,
    ) -> Result<(), ApiError> {
        if self.rematch.is_none() {
            self.shared
                .store
                .set_rematch(&self.id, &id)
                .await
                .map_err(|e| self.refused_write(e))?;
            self.rematch = Some(id.clone());
        }
        self.offers.remove(&OfferKind::Rematch);
        let n = self.specs.len();
        for sub in &self.subs {
            let (seat, token) = match sub.viewer {
                Viewer::Seat(s) => {
                    let new = (s.index() + 1) % n;
                    (Some(new as u8), tokens.get(new).cloned().flatten())
                }
                Viewer::Spectator => (None, None),
            };
            let msg = plateau_protocol::server::MatchMessage::Rematch {
                id: &id,
                seat,
                token: token.as_deref(),
            };
            let text = serde_json::to_string(&msg).unwrap_or_default();
            let _ = sub.out.try_send(Outgoing::Text(text.into()));
        }
        self.broadcast();
        Ok(())
    }

    /// A chat line from connection `conn`: a seat's to the players' room, a spectator's (with a
    /// session) to the spectators' room. Stored, then sent to that room's connections except those
    /// whose player muted the writer. Bots have no connection, so they neither write nor read.
    pub(super) async fn chat(&mut self, conn: u64, text: &str) -> Result<(), ApiError> {
        let sub = self
            .subs
            .iter()
            .find(|s| s.conn == conn)
            .ok_or_else(|| ApiError::new(Code::AuthRequired, "not connected to this match"))?;
        let (room, seat) = match sub.viewer {
            Viewer::Seat(s) => (Room::Players, Some(s.0)),
            Viewer::Spectator => (Room::Spectators, None),
        };
        let player = sub
            .player
            .clone()
            .ok_or_else(|| ApiError::new(Code::AuthRequired, "choose a name before you chat"))?;
        let text = check_chat(text)?;
        let now = Instant::now();
        let times = self.chat_times.entry(player.id).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= super::seats::CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(ApiError::new(
                Code::ChatRateLimited,
                "at most 5 chat lines in 10 seconds: wait a moment",
            ));
        }
        let line = ChatLine {
            seq: self.chat.len() as u64,
            room,
            player,
            seat,
            text,
            at: unix_ms(),
        };
        self.shared
            .store
            .add_chat(&self.id, line.clone())
            .await
            .map_err(|e| self.refused_write(e))?;
        self.chat_times
            .entry(line.player.id)
            .or_default()
            .push_back(now);
        let message = plateau_protocol::server::MatchMessage::Chat(crate::model::line_view(&line));
        let message = serde_json::to_string(&message).unwrap_or_default();
        for sub in &self.subs {
            if self.room_of(sub) == room && !self.muted(sub, &line) {
                let _ = sub.out.try_send(Outgoing::Text(message.clone().into()));
            }
        }
        self.chat.push(line);
        Ok(())
    }

    /// Connection `conn`'s player stops (or starts again) receiving `name`'s chat lines here.
    pub(super) fn mute(&mut self, conn: u64, name: &str, mute: bool) -> Result<(), ApiError> {
        let me = self
            .subs
            .iter()
            .find(|s| s.conn == conn)
            .and_then(|s| s.player.clone())
            .ok_or_else(|| ApiError::new(Code::AuthRequired, "choose a name before you mute"))?;
        let key = plateau_store::players::name_key(name);
        let target = self
            .players
            .iter()
            .flatten()
            .chain(self.chat.iter().map(|l| &l.player))
            .find(|p| plateau_store::players::name_key(&p.name) == key)
            .ok_or_else(|| {
                ApiError::new(
                    Code::PlayerNotFound,
                    format!("nobody named {name:?} plays or chats in this match"),
                )
            })?
            .id;
        let muted = self.mutes.entry(me.id).or_default();
        if mute {
            muted.insert(target);
        } else {
            muted.remove(&target);
        }
        Ok(())
    }

    pub(super) fn room_of(&self, sub: &Subscriber) -> Room {
        match sub.viewer {
            Viewer::Seat(_) => Room::Players,
            Viewer::Spectator => Room::Spectators,
        }
    }

    pub(super) fn muted(&self, sub: &Subscriber, line: &ChatLine) -> bool {
        sub.player
            .as_ref()
            .and_then(|p| self.mutes.get(&p.id))
            .is_some_and(|m| m.contains(&line.player.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_lines_that_draw_nothing_are_refused() {
        for blank in [
            "   ",
            "\u{3164}",
            "\u{3164}\u{3164} \u{115F}",
            "\u{2800}\u{2800}",
            "\u{0301}\u{0308}",
            "\u{E0041}\u{E0042}\u{E007F}",
            "\u{200B}\u{FEFF}",
            "\u{FE0F}",
        ] {
            let e = check_chat(blank).unwrap_err();
            assert_eq!(e.code, Code::ChatInvalid, "{blank:?}");
        }
        for seen in ["gg", "é", "?", "\u{1F44D}", "e\u{0301}", "\u{3164}ok", "5"] {
            assert!(check_chat(seen).is_ok(), "{seen:?}");
        }
        assert!(check_chat("\u{202E}olleh").is_err());
    }
}
