//! Taking back a seat's last turn (docs/protocol.md section 7.4), as lichess does: against bots at
//! once in a casual match, against people once every person at the table agrees.
//!
//! A takeback cuts the log where the seat's last turn began and replays what is left, so the match
//! is exactly what it was then: the same position, versions and move list, and the chance
//! generator at the same place in its stream, so the dice that follow are the dice that followed
//! (a takeback never rerolls) and the finished record replays and verifies like any other. The
//! clocks are what the kept entries make them, the seat to act charged from the start of its turn:
//! the time the others spent on the moves taken back is theirs again.

use plateau_engine::{Actor, Event, Seat, ToAct};

use super::rebuild::{Replayed, replayed};
use super::{MatchActor, OfferKind};
use crate::clock::Clocks;
use crate::model::{ApiError, Code, SeatSpec};

/// A refusal of a takeback, saying why.
fn refused(why: impl Into<String>) -> ApiError {
    ApiError::new(Code::OfferUnsupported, why)
}

impl MatchActor {
    /// `seat` asks to take back its last turn, or agrees to the takeback another seat asked for.
    /// Once every person at the table agrees (bots always do), it is done.
    ///
    /// # Errors
    /// `match/not_started`, `match/over`; `offer/unsupported` in a rated match with a bot at the
    /// table (takebacks against the computer are for casual games), or when the seat has no turn
    /// to take back (it has not moved, its last turn was in a simultaneous phase, or an ending
    /// came since); `server/internal` when the store fails.
    pub(super) async fn offer_takeback(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.check_can_change()?;
        if self.rated && self.specs.iter().any(|s| *s != SeatSpec::Human) {
            return Err(refused(
                "takebacks against the computer are for casual games only",
            ));
        }
        let asker = match self.takeback_by {
            Some(asker) => asker,
            None => {
                self.replay_to(self.takeback_point(seat)?, seat)?;
                self.takeback_by = Some(seat);
                seat
            }
        };
        let agreed = self.offers.entry(OfferKind::Takeback).or_default();
        agreed.insert(seat.0);
        let everyone = (0..self.specs.len())
            .filter(|i| self.specs[*i] == SeatSpec::Human)
            .all(|i| agreed.contains(&(i as u8)));
        if everyone {
            self.take_back(asker).await?;
        }
        Ok(())
    }

    /// Where taking back `seat`'s last turn cuts the log: at the first action of its last turn
    /// (its last action, and before it its actions and the chance outcomes between them back to
    /// another seat's action), so the chance outcomes before the turn (a Moon Leap roll) stay.
    ///
    /// # Errors
    /// `offer/unsupported` when the seat has not acted, or an early ending came since.
    fn takeback_point(&self, seat: Seat) -> Result<usize, ApiError> {
        let by = |i: usize| self.log[i].entry.by();
        let last = (0..self.log.len())
            .rfind(|i| by(*i) == Some(Actor::Seat(seat)))
            .ok_or_else(|| refused("there is nothing to take back: you have not moved yet"))?;
        let mut start = last;
        for i in (0..last).rev() {
            match by(i) {
                Some(Actor::Seat(s)) if s == seat => start = i,
                Some(Actor::Chance) => {}
                _ => break,
            }
        }
        if self.log[start..]
            .iter()
            .any(|p| matches!(p.entry.event, Event::End(_)))
        {
            return Err(refused(
                "a seat left the game since your last turn: it cannot be taken back",
            ));
        }
        Ok(start)
    }

    /// The match replayed from its log up to entry `point`, checked to be `seat`'s turn there.
    ///
    /// # Errors
    /// `offer/unsupported` when it is not (a turn of a simultaneous phase, such as Bataille
    /// Navale's placement, is not taken back: its pieces may still be moved);
    /// `server/internal` when the log does not replay.
    fn replay_to(&self, point: usize, seat: Seat) -> Result<Replayed, ApiError> {
        let clocks = Clocks::new(
            self.control,
            self.specs.len(),
            self.shared.settings.first_move,
        );
        let entries: Vec<_> = self.log[..point].iter().map(|p| p.entry.clone()).collect();
        let replay = replayed(self.entry, &self.config, clocks, true, &self.seed, &entries)
            .map_err(|e| ApiError::internal(format!("match {}: {e}", self.id)))?;
        if replay.state.to_act() != ToAct::Player(seat) {
            return Err(refused(
                "your last turn was played with the others at once: it cannot be taken back",
            ));
        }
        Ok(replay)
    }

    /// Takes back `asker`'s last turn: the log is cut where it began, in the store and here, and
    /// everyone is sent a whole state. The bots are built again (a search tree may hold the
    /// moves taken back) and a bot move on its way is dropped (`epoch`).
    async fn take_back(&mut self, asker: Seat) -> Result<(), ApiError> {
        let point = self.takeback_point(asker)?;
        let replay = self.replay_to(point, asker)?;
        if let Err(e) = self.shared.store.take_back(&self.id, point as u64).await {
            return Err(self.write_failed(e));
        }
        tracing::info!(id = %self.id, seat = %asker, from = point, "turn taken back");
        let Replayed {
            state,
            rng,
            clocks,
            log,
            seen,
            views,
        } = replay;
        self.state = state;
        self.rng = rng;
        self.clocks = clocks;
        self.log = log;
        self.seen = seen;
        self.views = views;
        self.offers.remove(&OfferKind::Takeback);
        self.offers.remove(&OfferKind::Agreement);
        self.takeback_by = None;
        self.bots.iter_mut().for_each(|b| *b = None);
        self.bot_pending = None;
        self.epoch += 1;
        self.sent = None;
        Ok(())
    }
}
