//! The entries of one decision, checked against the match in memory and staged before their
//! one commit.

use plateau_engine::driver::{Driver, Next, StepError};
use plateau_engine::{Actor, DynGame, Event, Seat};
use rand_chacha::ChaCha20Rng;

use super::{Shown, displays};
use crate::model::{ApiError, Code};
use crate::versions::seats_to_act;

/// A refused action as a client sees it: the engine's code and reason.
pub(super) fn refused(e: &StepError) -> ApiError {
    match e {
        StepError::Refused(r) => {
            ApiError::new(Code::from_engine(r.error.code()), r.error.to_string())
        }
        other => ApiError::new(Code::from_engine(other.code()), other.to_string()),
    }
}

/// Entries checked against the match in memory and not yet stored: one decision (one or several
/// actions of one seat, an ending) and the chance outcomes that follow it, written in one commit
/// by `MatchActor::flush`. Dropping a batch changes nothing.
pub(super) struct Batch {
    /// The state after the last staged entry.
    pub(super) state: Box<dyn DynGame>,
    /// The match's generator after the last staged chance draw.
    pub(super) rng: ChaCha20Rng,
    pub(super) items: Vec<Staged>,
}

/// One staged entry with what applying it needs: how each viewer sees it, who acted, and of the
/// state after it the seats to act with their rule clocks and every viewer's view digest.
pub(super) struct Staged {
    pub(super) event: Event,
    pub(super) display: Vec<Shown>,
    pub(super) acted: Option<Seat>,
    pub(super) to_act: Vec<Seat>,
    pub(super) rule_seconds: Vec<(Seat, Option<u32>)>,
    pub(super) views: Vec<u64>,
}

impl Batch {
    /// `action/not_your_turn` unless `seat` may act in the state reached so far.
    pub(super) fn check_turn(&self, seat: Seat) -> Result<(), ApiError> {
        if self.state.to_act().allows(Actor::Seat(seat)) {
            Ok(())
        } else {
            Err(ApiError::new(
                Code::ActionNotYourTurn,
                "your seat is not to act now".to_owned(),
            ))
        }
    }

    /// Stages seat `seat`'s action `text` after the checks of docs/protocol.md section 4.2 that
    /// follow the version check: the seat is to act, the text parses, the action is legal.
    pub(super) fn play(&mut self, seat: Seat, text: &str) -> Result<(), ApiError> {
        self.check_turn(seat)?;
        let legal = self.state.legal_texts(seat);
        if legal.binary_search_by(|l| l.as_str().cmp(text)).is_err() {
            if let Err(e) = self.state.canonical_text(text) {
                return Err(ApiError::new(Code::ActionMalformed, e.to_string()));
            }
            let mut probe = self.state.clone_box();
            return Err(
                match Driver::checked().play(&mut *probe, seat, &text.to_owned()) {
                    Err(e) => refused(&e),
                    Ok(()) => ApiError::new(
                        Code::ActionIllegal,
                        format!(
                            "`{text}` is not written in canonical notation: send one of `legal`"
                        ),
                    ),
                },
            );
        }
        let display = displays(&*self.state, Actor::Seat(seat), text).unwrap_or_default();
        Driver::checked()
            .play(&mut *self.state, seat, &text.to_owned())
            .map_err(|e| refused(&e))?;
        let event = Event::Action {
            by: Actor::Seat(seat),
            action: text.to_owned(),
        };
        self.staged(event, display, Some(seat));
        Ok(())
    }

    /// Stages a draw for every chance node reached, from the match's generator.
    pub(super) fn draw_chance(&mut self, id: &str) {
        let mut driver = Driver::checked();
        while self.state.outcome().is_none()
            && driver.next(&*self.state, |_, seats| seats.lowest()) == Next::Chance
        {
            let before = self.state.clone_box();
            let text = match driver.draw(&mut *self.state, &mut self.rng) {
                Ok((_, text)) => text,
                Err(e) => {
                    tracing::error!(%id, code = e.code(), error = %e, "chance not drawn");
                    self.state = before;
                    break;
                }
            };
            let display = displays(&*before, Actor::Chance, &text).unwrap_or_default();
            let event = Event::Action {
                by: Actor::Chance,
                action: text,
            };
            self.staged(event, display, None);
        }
    }

    /// Records `event`, already applied to `state`.
    pub(super) fn staged(&mut self, event: Event, display: Vec<Shown>, acted: Option<Seat>) {
        let to_act = seats_to_act(self.state.to_act());
        let rule_seconds = to_act
            .iter()
            .map(|&s| (s, self.state.rule_clock_seconds(s)))
            .collect();
        self.items.push(Staged {
            event,
            display,
            acted,
            to_act,
            rule_seconds,
            views: crate::versions::views(&*self.state),
        });
    }
}
