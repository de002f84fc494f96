//! The game itself: checked actions and their commits, chance draws, clocks, agreed stops,
//! resignations and abandonment.

use std::time::Duration;

use plateau_engine::driver::{Driver, Next};
use plateau_engine::{Actor, Ending, Event, LogEntry, Seat, Viewer};
use tokio::time::Instant;

use super::batch::Batch;
use super::{MatchActor, OfferKind, Played, RematchInfo};
use crate::model::{ApiError, Code, SeatSpec, Status, TimeControl, unix_ms};
use plateau_protocol::ActionRequest;
use plateau_store::Finish;

impl MatchActor {
    /// Match time now, in ms: time the match has run while the service ran (the clocks' time).
    pub(super) fn now_ms(&self) -> u64 {
        if self.status == Status::Open {
            return 0;
        }
        if self.paused {
            return self.time_base;
        }
        self.time_base + self.resumed.elapsed().as_millis() as u64
    }

    /// Whether the match is one person's against bots alone.
    pub(super) fn against_bots_alone(&self) -> bool {
        self.specs.iter().filter(|s| **s == SeatSpec::Human).count() == 1
    }

    /// Stops match time while the one person at a table of bots is away, and starts it again
    /// when they come back: against bots alone the game waits (no clock runs, nobody resigns;
    /// docs/protocol.md section 7.4). Called whenever a seat connects or leaves.
    pub(super) fn hold_time(&mut self) {
        let away = self.against_bots_alone()
            && self.status == Status::Live
            && self
                .specs
                .iter()
                .zip(&self.away_since)
                .any(|(spec, away)| *spec == SeatSpec::Human && away.is_some());
        if away && !self.paused {
            self.time_base = self.now_ms();
            self.paused = true;
        } else if !away && self.paused {
            self.resumed = Instant::now();
            self.paused = false;
        }
    }

    pub(super) fn deadline(&self) -> Option<Instant> {
        if self.status != Status::Live || self.broken || self.paused {
            return None;
        }
        let (_, at) = self.clocks.deadline()?;
        let wait = at.saturating_sub(self.now_ms());
        Some(Instant::now() + Duration::from_millis(wait))
    }

    /// The checks of docs/protocol.md section 4.2, in order, for each of `actions` (one seat's
    /// decision: a whole turn may be several), then one commit of them all with the chance
    /// outcomes that follow: all or nothing.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        version: u64,
        actions: &[ActionRequest],
    ) -> Result<(), ApiError> {
        self.check_can_change()?;
        let current = self.version_of(Viewer::Seat(seat));
        if version != current {
            return Err(ApiError::new(
                Code::ActionStale,
                format!(
                    "the action was based on version {version}, the match is at version {current}"
                ),
            ));
        }
        let mut batch = self.batch();
        for (i, request) in actions.iter().enumerate() {
            // In a whole turn an error names the action it is about (section 4.2).
            let at = |mut e: ApiError, what: &str| {
                if actions.len() > 1 {
                    e.message = format!(
                        "action {} of {} ({what}): {}",
                        i + 1,
                        actions.len(),
                        e.message
                    );
                }
                e
            };
            // Parts become the action's text in the state reached so far, then play as text.
            // The turn is checked first, as for a text (docs/protocol.md section 4.2): a seat
            // not to act learns that, not what is wrong with its parts.
            let text = match request {
                ActionRequest::Text(text) => text.clone(),
                ActionRequest::Parts(parts) => {
                    batch.check_turn(seat).map_err(|e| at(e, "in parts"))?;
                    batch.state.parts_text(parts).map_err(|e| {
                        at(
                            ApiError::new(Code::ActionMalformed, e.to_string()),
                            "in parts",
                        )
                    })?
                }
            };
            batch
                .play(seat, &text)
                .map_err(|e| at(e, &format!("`{text}`")))?;
            batch.draw_chance(&self.id);
        }
        self.flush(batch).await
    }

    /// Ends the game early by `ending` (the game's rule decides what it means).
    async fn end(&mut self, ending: Ending) -> Result<(), ApiError> {
        self.check_can_change()?;
        let mut batch = self.batch();
        batch
            .state
            .end(ending)
            .map_err(|e| ApiError::new(Code::from_engine(e.code()), e.to_string()))?;
        batch.staged(Event::End(ending), Vec::new(), None);
        self.flush(batch).await
    }

    pub(super) async fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.end(Ending::Resign(seat)).await
    }

    /// A moderator ends the match (docs/protocol.md section 7.11): by an agreed stop where the
    /// game has one (MAD, Chakart), else by the resignation of each seat in turn from the last
    /// until the game is over (the game's rule for resignations); rated or not, it changes no
    /// rating (`Unrated::Closed`).
    pub(super) async fn close(&mut self) -> Result<(), ApiError> {
        self.check_can_change()?;
        self.closing = true;
        let result = self.close_by_rule().await;
        self.closing = false;
        result
    }

    async fn close_by_rule(&mut self) -> Result<(), ApiError> {
        if self.state.clone_box().end(Ending::Agreement).is_ok() {
            return self.end(Ending::Agreement).await;
        }
        for seat in (0..self.specs.len()).rev() {
            if self.status == Status::Finished {
                break;
            }
            let seat = Seat(seat as u8);
            // A seat already out of the game (a sunk fleet) cannot resign: the next one does.
            if self.state.clone_box().end(Ending::Resign(seat)).is_ok() {
                self.end(Ending::Resign(seat)).await?;
            }
        }
        Ok(())
    }

    /// After a failed write the match stops changing (`broken`): what the store holds is then
    /// the truth, and it may or may not hold the failed entry. This reads the match back and
    /// replays it; once the store answers again, play goes on from what it stored. Called before
    /// each command and every `run::RECOVER_EVERY` while broken, so a match recovers by itself when
    /// the disk has room again.
    pub(super) async fn recover(&mut self) {
        if !self.broken {
            return;
        }
        let stored = match self.shared.store.get(&self.id, true).await {
            Ok(Some(m)) => m,
            Ok(None) => return,
            Err(e) => {
                tracing::debug!(id = %self.id, error = %e, "store still unavailable");
                return;
            }
        };
        match MatchActor::rebuild(self.shared.clone(), stored) {
            Ok(fresh) => {
                self.state = fresh.state;
                self.rng = fresh.rng;
                self.log = fresh.log;
                self.seen = fresh.seen;
                self.views = fresh.views;
                self.clocks = fresh.clocks;
                self.status = fresh.status;
                self.time_base = fresh.time_base;
                self.resumed = fresh.resumed;
                self.paused = false;
                self.hold_time();
                self.token_hashes = fresh.token_hashes;
                self.players = fresh.players;
                self.opened = fresh.opened;
                self.rematch = fresh.rematch;
                self.chat = fresh.chat;
                self.sent = None;
                self.bot_pending = None;
                self.broken = false;
                tracing::info!(id = %self.id, version = self.version(), "match recovered from the store");
                self.advance().await;
                self.broadcast();
            }
            Err(e) => tracing::error!(id = %self.id, error = %e, "stored match does not replay"),
        }
    }

    /// What a failed write of the match means. Refused for a lost lease: the match is another
    /// node's, and this actor stops after the command in hand (`moved`), so its viewers connect
    /// again to that node. Otherwise the store may or may not hold the write: the match stops
    /// changing until it is read back (`broken`, `recover`).
    pub(super) fn write_failed(&mut self, e: plateau_store::StoreError) -> ApiError {
        if matches!(e, plateau_store::StoreError::LeaseLost(_)) {
            self.moved = true;
        } else {
            self.broken = true;
        }
        ApiError::store(e)
    }

    /// What a failed write that is not the log's means (a seat, a chat line): refused for a
    /// lost lease, the actor stops after the command in hand (`moved`); the match is unchanged
    /// either way.
    pub(super) fn refused_write(&mut self, e: plateau_store::StoreError) -> ApiError {
        if matches!(e, plateau_store::StoreError::LeaseLost(_)) {
            self.moved = true;
        }
        ApiError::store(e)
    }

    pub(super) fn check_can_change(&self) -> Result<(), ApiError> {
        if self.shutting_down {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        if self.broken {
            return Err(ApiError::new(
                Code::StoreUnavailable,
                "this match cannot be stored now; try again in a moment",
            ));
        }
        match self.status {
            Status::Open => Err(ApiError::new(
                Code::MatchNotStarted,
                "the match waits for its players",
            )),
            Status::Finished => Err(ApiError::new(Code::MatchOver, "the match is over")),
            Status::Live => Ok(()),
        }
    }

    /// A batch that starts from the match as it stands.
    fn batch(&self) -> Batch {
        Batch {
            state: self.state.clone_box(),
            rng: self.rng.clone(),
            items: Vec::new(),
        }
    }

    /// Writes the entries of `batch` in one commit, and only once they are committed makes its
    /// state the match's, entry by entry for the versions and clocks. A seat's action withdraws
    /// the offers of an agreed stop and of a takeback (they were made about the position before
    /// it).
    async fn flush(&mut self, batch: Batch) -> Result<(), ApiError> {
        if batch.items.is_empty() {
            return Ok(());
        }
        let now = self.now_ms();
        let finish = batch.state.outcome().map(|outcome| Finish {
            outcome,
            at: unix_ms(),
            unrated: self.unrated(&batch),
        });
        let first = self.version();
        // The store is given copies; the log keeps the batch's own entries.
        let entries: Vec<LogEntry> = batch
            .items
            .iter()
            .map(|item| LogEntry {
                event: item.event.clone(),
                at_ms: Some(now),
            })
            .collect();
        let decided = entries
            .iter()
            .any(|e| matches!(e.by(), Some(Actor::Seat(_))));
        let started = std::time::Instant::now();
        if let Err(e) = self
            .shared
            .store
            .append(&self.id, first, entries, finish.clone())
            .await
        {
            return Err(self.write_failed(e));
        }
        let metrics = &self.shared.metrics;
        metrics.commit.record(started.elapsed());
        if decided {
            metrics.decisions.increment(1);
        }
        tracing::debug!(id = %self.id, first, entries = batch.items.len(), "committed");
        self.state = batch.state;
        self.rng = batch.rng;
        let last = batch.items.len() - 1;
        for (i, item) in batch.items.into_iter().enumerate() {
            let entry = LogEntry {
                event: item.event,
                at_ms: Some(now),
            };
            if matches!(entry.by(), Some(Actor::Seat(_))) {
                // Most of the time no offer is pending: an empty map is not hashed into.
                if !self.offers.is_empty() {
                    self.offers.remove(&OfferKind::Agreement);
                    self.offers.remove(&OfferKind::Takeback);
                }
                self.takeback_by = None;
            }
            let played = Played {
                entry,
                display: item.display,
            };
            crate::versions::count(
                &mut self.seen,
                |c| played.seen_by(c),
                &self.views,
                &item.views,
            );
            self.views = item.views;
            self.log.push(played);
            if i < last || finish.is_none() {
                self.clocks.update(now, item.acted, &item.to_act, |s| {
                    item.rule_seconds
                        .iter()
                        .find(|(seat, _)| *seat == s)
                        .and_then(|(_, seconds)| *seconds)
                });
            }
        }
        if finish.is_some() {
            self.status = Status::Finished;
            self.offers.clear();
            self.takeback_by = None;
            self.clocks.stop(now);
            tracing::info!(id = %self.id, version = self.version(), "match finished");
            self.load_ratings().await;
        }
        Ok(())
    }

    /// Reads how a finished rated match moved its players' ratings, for the result
    /// (`RatingChange`); a store that fails leaves them unknown (logged): the result shows
    /// without them.
    pub(super) async fn load_ratings(&mut self) {
        if self.status != Status::Finished || !self.rated || !self.ratings.is_empty() {
            return;
        }
        match self.shared.store.match_rating_events(self.id.clone()).await {
            Ok(events) => {
                self.ratings = self
                    .players
                    .iter()
                    .map(|p| {
                        let (_, e) = events
                            .iter()
                            .find(|(id, _)| Some(*id) == p.as_ref().map(|p| p.id))?;
                        Some(super::view::RatingChange {
                            before: e.before.shown(),
                            after: e.after.shown(),
                        })
                    })
                    .collect();
            }
            Err(e) => tracing::warn!(id = %self.id, error = %e, "rating changes not read"),
        }
    }

    /// Why this rated match, ending with `batch`, changes no rating, as far as the match knows:
    /// a seat made fewer than `ratings::MIN_ACTIONS` actions (an abort), or two of its players
    /// came from one address lately (`presence::Whence`). `None` for a casual match. The store
    /// adds the daily cap.
    fn unrated(&self, batch: &Batch) -> Option<plateau_store::ratings::Unrated> {
        use plateau_store::ratings::{Unrated, aborted};
        if !self.rated {
            return None;
        }
        if self.closing {
            return Some(Unrated::Closed);
        }
        let mut actions = vec![0; self.specs.len()];
        let events = self.log.iter().map(|p| &p.entry.event);
        for event in events.chain(batch.items.iter().map(|i| &i.event)) {
            if let Event::Action {
                by: Actor::Seat(s), ..
            } = event
                && let Some(n) = actions.get_mut(s.index())
            {
                *n += 1;
            }
        }
        if aborted(&actions) {
            return Some(Unrated::Abort);
        }
        let people: Vec<_> = self
            .players
            .iter()
            .zip(&self.specs)
            .filter(|(_, spec)| **spec == SeatSpec::Human)
            .filter_map(|(p, _)| p.as_ref().map(|p| p.id))
            .collect();
        self.shared
            .presence
            .shared_address(&people)
            .then_some(Unrated::SameAddress)
    }

    /// After a change: draws every chance node from the match's generator (all committed in one
    /// write), then lets bots to act think.
    pub(super) async fn advance(&mut self) {
        let chance_next =
            || Driver::checked().next(&*self.state, |_, seats| seats.lowest()) == Next::Chance;
        if self.status == Status::Live && !self.broken && chance_next() {
            let mut batch = self.batch();
            batch.draw_chance(&self.id);
            if let Err(e) = self.flush(batch).await {
                tracing::error!(id = %self.id, error = %e.message, "chance draw not stored");
            }
        }
        self.schedule_bots();
    }

    /// A clock ran out: the game's rule applies (`timeout_texts`, else `Ending::Timeout`).
    pub(super) async fn on_clock(&mut self) {
        let now = self.now_ms();
        let Some((seat, at)) = self.clocks.deadline() else {
            return;
        };
        if at > now || self.status != Status::Live || self.broken {
            return;
        }
        tracing::info!(id = %self.id, %seat, "out of time");
        match self.state.timeout_texts(seat).filter(|t| !t.is_empty()) {
            Some(texts) => {
                let mut batch = self.batch();
                for text in texts {
                    if let Err(e) = batch.play(seat, &text) {
                        tracing::error!(id = %self.id, %text, error = %e.message, "timeout action refused");
                        self.clocks.stop(now);
                        break;
                    }
                    batch.draw_chance(&self.id);
                }
                let _ = self.flush(batch).await;
            }
            None => {
                if let Err(e) = self.end(Ending::Timeout(seat)).await {
                    // The game has no rule for running out of time: stop the clocks rather than
                    // fire again at once.
                    tracing::warn!(id = %self.id, error = %e.message, "no timeout rule; clocks stopped");
                    self.clocks.stop(now);
                }
            }
        }
        self.advance().await;
        self.broadcast();
    }

    /// When the first human seat that left a live match with a clock runs out of time to come
    /// back (`Options::abandon_after`). Correspondence matches (no clock) are never abandoned,
    /// nor is a person playing bots alone: that game waits for them (`hold_time`).
    pub(super) fn abandon_deadline(&self) -> Option<Instant> {
        if self.status != Status::Live
            || self.broken
            || self.control == TimeControl::None
            || self.against_bots_alone()
        {
            return None;
        }
        let after = self.shared.settings.abandon_after;
        self.away_since
            .iter()
            .flatten()
            .min()
            .map(|since| *since + after)
    }

    /// Resigns, by the game's rule, every human seat away for longer than the abandonment delay.
    pub(super) async fn on_abandon(&mut self) {
        let after = self.shared.settings.abandon_after;
        let now = Instant::now();
        for i in 0..self.away_since.len() {
            let Some(since) = self.away_since[i] else {
                continue;
            };
            if now < since + after || self.status != Status::Live {
                continue;
            }
            // Once resigned (or refused), the seat is not asked again.
            self.away_since[i] = None;
            let seat = Seat(i as u8);
            match self.resign(seat).await {
                Ok(()) => tracing::info!(id = %self.id, %seat, "seat abandoned: resigned"),
                Err(e) => {
                    tracing::warn!(id = %self.id, %seat, error = %e.message, "abandoned seat not resigned")
                }
            }
        }
        self.advance().await;
        self.broadcast();
    }

    /// A seat offers (or accepts) an agreed stop or a rematch. An agreed stop needs every seat:
    /// a game that has one and a table of people only; once all agree the game ends. A rematch
    /// needs every human seat; once all asked, the answer holds what the lobby needs to create it.
    pub(super) async fn offer(
        &mut self,
        seat: Seat,
        kind: OfferKind,
    ) -> Result<Option<RematchInfo>, ApiError> {
        match kind {
            OfferKind::Agreement => {
                self.check_can_change()?;
                if self.specs.iter().any(|s| *s != SeatSpec::Human) {
                    return Err(ApiError::new(
                        Code::OfferUnsupported,
                        "bots never agree to stop: play on or resign",
                    ));
                }
                if self.state.clone_box().end(Ending::Agreement).is_err() {
                    return Err(ApiError::new(
                        Code::OfferUnsupported,
                        format!("{} has no agreed stop", self.entry.info.title),
                    ));
                }
                let agreed = self.offers.entry(kind).or_default();
                agreed.insert(seat.0);
                if agreed.len() == self.specs.len() {
                    self.end(Ending::Agreement).await?;
                }
                Ok(None)
            }
            OfferKind::Rematch => self.offer_rematch(seat),
            OfferKind::Takeback => self.offer_takeback(seat).await.map(|()| None),
        }
    }

    /// A seat withdraws its offer or declines the others': the offers of that kind are cleared.
    pub(super) fn decline(&mut self, seat: Seat, kind: OfferKind) -> Result<(), ApiError> {
        let _ = seat;
        self.offers.remove(&kind);
        if kind == OfferKind::Takeback {
            self.takeback_by = None;
        }
        Ok(())
    }
}
