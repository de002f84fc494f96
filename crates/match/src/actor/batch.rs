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
    /// follow the version check: the seat is to act, the text parses, the action is legal. A
    /// text is played only as its action's canonical text (one of `legal`); that the action is
    /// legal is checked as it is applied (`Game::apply` refuses exactly what `legal_actions`
    /// does not list, which the conformance kit checks), so the legal list is not written out
    /// to find the text in it.
    pub(super) fn play(&mut self, seat: Seat, text: &str) -> Result<(), ApiError> {
        self.check_turn(seat)?;
        let canonical = self
            .state
            .canonical_text(text)
            .map_err(|e| ApiError::new(Code::ActionMalformed, e.to_string()))?;
        if canonical != text {
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
            .play(&mut *self.state, seat, &canonical)
            .map_err(|e| refused(&e))?;
        let event = Event::Action {
            by: Actor::Seat(seat),
            action: canonical,
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

#[cfg(test)]
mod tests {
    use plateau_engine::driver::{Driver, Next};
    use plateau_engine::{Actor, DynGame, Event, Seat};
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    use super::{Batch, refused};
    use crate::model::{ApiError, Code};

    /// What `Batch::play` answered when it looked for the text in the written-out legal list:
    /// the error, or the state and entry it staged.
    /// `legal` is `state.legal_texts(seat)`.
    fn listed_play(
        state: &dyn DynGame,
        seat: Seat,
        legal: &[String],
        text: &str,
    ) -> Result<(String, Event), ApiError> {
        if !state.to_act().allows(Actor::Seat(seat)) {
            return Err(ApiError::new(
                Code::ActionNotYourTurn,
                "your seat is not to act now".to_owned(),
            ));
        }
        let mut probe = state.clone_box();
        if legal.binary_search_by(|l| l.as_str().cmp(text)).is_err() {
            if let Err(e) = state.canonical_text(text) {
                return Err(ApiError::new(Code::ActionMalformed, e.to_string()));
            }
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
        Driver::checked()
            .play(&mut *probe, seat, &text.to_owned())
            .map_err(|e| refused(&e))?;
        let event = Event::Action {
            by: Actor::Seat(seat),
            action: text.to_owned(),
        };
        Ok((probe.state_json(), event))
    }

    /// Texts to try in `state`: legal actions of every seat (the first 20 of each), as written
    /// and changed (upper case, spaced, cut, lengthened, reversed), and the texts of the last
    /// actions played before.
    fn tries(state: &dyn DynGame, before: &[String]) -> Vec<String> {
        let mut texts: Vec<String> = before.iter().rev().take(20).cloned().collect();
        for seat in Seat::all(state.seats()) {
            for text in state.legal_texts(seat).into_iter().take(20) {
                texts.push(text.to_uppercase());
                texts.push(format!(" {text}"));
                texts.push(format!("{text}x"));
                texts.push(text.chars().rev().collect());
                texts.push(text.chars().take(text.chars().count() / 2).collect());
                texts.push(text);
            }
        }
        texts.extend(["", "pass", "zz-top", "r1"].map(str::to_owned));
        texts
    }

    /// `Batch::play` checks a text as looking it up in the legal list did, for every game: the
    /// same refusals with the same messages, and for an action played, the same state and
    /// entry. Several seeded games each, every seat and many texts at each of their decisions.
    #[test]
    fn an_action_is_played_or_refused_as_the_legal_list_would_have_it() {
        let mut played = 0;
        for entry in plateau_registry::GAMES {
            for game in 0..3u64 {
                let seats = entry.info.min_seats.max(2).min(entry.info.max_seats);
                let mut state = entry.new_game(&serde_json::Value::Null, seats).unwrap();
                let mut rng = ChaCha20Rng::seed_from_u64(game);
                let mut history: Vec<String> = Vec::new();
                let mut driver = Driver::checked();
                for _ in 0..40 {
                    match driver.next(&*state, |_, s| s.lowest()) {
                        Next::Over => break,
                        Next::Chance => {
                            driver.draw(&mut *state, &mut rng).unwrap();
                        }
                        Next::Seat(seat) => {
                            let legal: Vec<Vec<String>> = Seat::all(state.seats())
                                .map(|s| state.legal_texts(s))
                                .collect();
                            for text in tries(&*state, &history) {
                                for s in Seat::all(state.seats()) {
                                    let mut batch = Batch {
                                        state: state.clone_box(),
                                        rng: ChaCha20Rng::seed_from_u64(0),
                                        items: Vec::new(),
                                    };
                                    let now = batch.play(s, &text).map(|()| {
                                        let item = batch.items.pop().unwrap();
                                        (batch.state.state_json(), item.event)
                                    });
                                    let listed = listed_play(&*state, s, &legal[s.index()], &text);
                                    assert_eq!(now, listed, "{}: `{text}` by {s}", entry.info.name);
                                    played += usize::from(now.is_ok());
                                }
                            }
                            let legal = &legal[seat.index()];
                            let text = legal[rng.next_u64() as usize % legal.len()].clone();
                            state.apply_text(Actor::Seat(seat), &text).unwrap();
                            history.push(text);
                        }
                    }
                }
            }
        }
        assert!(played > 100, "{played} actions played");
    }
}
