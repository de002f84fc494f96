//! The one driver of every game loop (docs/architecture.md section 2.3): who acts next, draw a
//! chance outcome or ask the seat, apply. Random playouts, the search, the conformance kit, the
//! command line's games, tournaments and benchmarks, and the match service all advance games
//! through it, typed (`Game`) or by text (`dyn DynGame`).
//!
//! A loop either hands the whole step to `Driver::step` with a `Policy` (which seat of a
//! simultaneous node goes first, and each seat's action), or, when a seat's turn is more than
//! choosing an action (a person who may resign or quit, a bot that thinks on another thread),
//! takes the step's three parts in turn: `Driver::next`, then `Driver::draw` or `Driver::play`.
//!
//! ```
//! # use plateau_engine::driver::{Driver, Next};
//! # fn run<G: plateau_engine::Game>(state: &mut G, rng: &mut rand_chacha::ChaCha8Rng) {
//! let mut driver = Driver::trusted();
//! let mut legal = Vec::new();
//! loop {
//!     match driver.next(state, |_, seats| seats.iter().next()) {
//!         Next::Over => break,
//!         Next::Chance => {
//!             driver.draw(state, rng).expect("a chance node has outcomes");
//!         }
//!         Next::Seat(seat) => {
//!             state.legal_actions(seat, &mut legal);
//!             driver.play(state, seat, &legal[0]).expect("a listed action plays");
//!         }
//!     }
//! }
//! # }
//! ```

use std::fmt::Debug;

use rand::RngCore;
use thiserror::Error;

use crate::chance;
use crate::dynamic::{ActionError, DynGame};
use crate::game::Game;
use crate::seat::{Actor, Seat, SeatSet, ToAct};

/// What the driver needs of a state: implemented for every `Game` (typed actions) and for
/// `dyn DynGame` (actions as canonical text). The method names are the driver's own, so that
/// bringing this trait into scope never shadows `Game`'s.
pub trait Drivable {
    /// An action as the driver hands it to the loop.
    type Action: Clone + Debug;

    /// Who acts next (`Game::to_act`).
    fn driven_to_act(&self) -> ToAct;

    /// At a chance node: lists the outcomes into `outcomes`, draws one with `chance::sample` (one
    /// `f64` from `rng`), applies it and returns its index in the list and the outcome. `None`
    /// when no outcome is listed (`outcomes` is then empty); nothing is drawn.
    fn driven_draw<R: RngCore>(
        &mut self,
        rng: &mut R,
        outcomes: &mut Vec<(Self::Action, f64)>,
    ) -> Option<(usize, Self::Action)>;

    /// Applies `seat`'s action: through `Game::apply` when `checked`, else through
    /// `Game::apply_legal` (the action was taken from this very state's legal list). Text is
    /// always checked.
    ///
    /// # Errors
    /// `ActionError` when the action does not read or is refused; the state is then unchanged.
    fn driven_apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        checked: bool,
    ) -> Result<(), ActionError>;

    /// The action's canonical text, for error messages.
    fn driven_text(&self, action: &Self::Action) -> String;
}

impl<G: Game> Drivable for G {
    type Action = G::Action;

    #[inline]
    fn driven_to_act(&self) -> ToAct {
        self.to_act()
    }

    #[inline]
    fn driven_draw<R: RngCore>(
        &mut self,
        rng: &mut R,
        outcomes: &mut Vec<(G::Action, f64)>,
    ) -> Option<(usize, G::Action)> {
        chance::draw(self, rng, outcomes)
    }

    #[inline]
    fn driven_apply(
        &mut self,
        seat: Seat,
        action: &G::Action,
        checked: bool,
    ) -> Result<(), ActionError> {
        if checked {
            self.apply(Actor::Seat(seat), action)
                .map_err(ActionError::Illegal)
        } else {
            self.apply_legal(Actor::Seat(seat), action);
            Ok(())
        }
    }

    fn driven_text(&self, action: &G::Action) -> String {
        self.format_action(action)
    }
}

impl Drivable for dyn DynGame {
    type Action = String;

    fn driven_to_act(&self) -> ToAct {
        self.to_act()
    }

    fn driven_draw<R: RngCore>(
        &mut self,
        rng: &mut R,
        outcomes: &mut Vec<(String, f64)>,
    ) -> Option<(usize, String)> {
        outcomes.clear();
        let (index, text) = self.draw_chance(rng)?;
        Some((index, text))
    }

    fn driven_apply(
        &mut self,
        seat: Seat,
        action: &String,
        _checked: bool,
    ) -> Result<(), ActionError> {
        self.apply_text(Actor::Seat(seat), action)
    }

    fn driven_text(&self, action: &String) -> String {
        action.clone()
    }
}

/// Who acts next, once a runner has chosen among the seats of a simultaneous node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Next {
    /// The game is over: `Game::outcome` is `Some`.
    Over,
    /// A chance node: the runner draws (`Driver::draw`).
    Chance,
    /// This seat acts.
    Seat(Seat),
}

/// What one `Driver::step` did.
#[derive(Clone, PartialEq, Debug)]
pub enum Step<A> {
    /// Nothing: the game is over.
    Over,
    /// Chance drew `action`, outcome `index` of the node's list, and it was applied.
    Chance {
        /// Its index in the node's outcome list (`Driver::outcomes`).
        index: usize,
        /// The outcome.
        action: A,
    },
    /// `seat` played `action`.
    Seat {
        /// Who played.
        seat: Seat,
        /// What.
        action: A,
    },
}

/// Why a step could not be taken. The state is unchanged.
#[derive(Clone, PartialEq, Debug, Error)]
pub enum StepError {
    /// A chance node listed no outcome (a game defect).
    #[error("the chance node has no outcome")]
    NoOutcome,
    /// The seat to act has no action to give: it has no legal action (a game defect), or its
    /// player cannot act in this state (a bot made for another game). A runner reports it
    /// rather than wait for an action that will never come.
    #[error("seat {seat} is to act but has no action")]
    NoAction {
        /// The seat.
        seat: Seat,
    },
    /// The seat's action was refused.
    #[error("{0}")]
    Refused(Box<Refusal>),
}

/// A refused action: who, what and why (boxed in `StepError`, which a playout returns at every
/// step, so the step's result stays small).
#[derive(Clone, PartialEq, Debug, Error)]
#[error("seat {seat} played `{action}`: {error}")]
pub struct Refusal {
    /// The seat.
    pub seat: Seat,
    /// The action's text.
    pub action: String,
    /// Why.
    pub error: ActionError,
}

impl StepError {
    /// The stable error code (docs/protocol.md): `game/no_outcome`, `game/no_action`, or the
    /// refusal's own code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            StepError::NoOutcome => "game/no_outcome",
            StepError::NoAction { .. } => "game/no_action",
            StepError::Refused(r) => r.error.code(),
        }
    }
}

/// How the seats of a loop act: which seat of the acting set goes first, and its action. Both
/// get the loop's generator (the one `Driver::step` draws chance with), so a policy that plays at
/// random shares the loop's single stream.
pub trait Policy<S: Drivable + ?Sized> {
    /// The seat that acts now among `seats` (one seat at a `Player` node, the seats still to act
    /// at a simultaneous one). By default the lowest.
    fn pick<R: RngCore>(&mut self, state: &S, seats: SeatSet, rng: &mut R) -> Seat {
        let _ = (state, rng);
        lowest(seats)
    }

    /// `seat`'s action in `state`, or `None` when it has none.
    fn choose<R: RngCore>(&mut self, state: &S, seat: Seat, rng: &mut R) -> Option<S::Action>;
}

/// The lowest seat of a non-empty set (seat 0 for an empty one).
#[inline]
fn lowest(seats: SeatSet) -> Seat {
    seats.lowest().unwrap_or(Seat(0))
}

/// Advances games one step at a time; holds the buffer of chance outcomes, so a loop that keeps
/// one driver allocates nothing per step.
#[derive(Clone, Debug)]
pub struct Driver<A> {
    outcomes: Vec<(A, f64)>,
    checked: bool,
}

impl<A> Driver<A> {
    /// A driver that plays every seat action through `Game::apply`: for actions from outside
    /// (people, bots, records), each checked; a refused one is a `StepError::Refused`.
    #[must_use]
    pub fn checked() -> Self {
        Driver {
            outcomes: Vec::new(),
            checked: true,
        }
    }

    /// A driver that plays seat actions through `Game::apply_legal`: for loops whose policy takes
    /// every action from the state's own legal list (playouts, search). Text actions are checked
    /// all the same.
    #[must_use]
    pub fn trusted() -> Self {
        Driver {
            outcomes: Vec::new(),
            checked: false,
        }
    }

    /// The outcomes of the last chance node drawn, in the game's order (empty after a text draw).
    #[must_use]
    pub fn outcomes(&self) -> &[(A, f64)] {
        &self.outcomes
    }

    /// Who acts next in `state`; at a seat node, `pick` chooses among the seats that may act
    /// (one at a `Player` node). `pick` returning `None` (an empty set) reads as `Over`.
    #[inline]
    pub fn next<S: Drivable<Action = A> + ?Sized>(
        &self,
        state: &S,
        pick: impl FnOnce(&S, SeatSet) -> Option<Seat>,
    ) -> Next {
        match state.driven_to_act() {
            ToAct::Terminal => Next::Over,
            ToAct::Chance => Next::Chance,
            ToAct::Player(seat) => {
                pick(state, SeatSet::EMPTY.with(seat)).map_or(Next::Over, Next::Seat)
            }
            ToAct::Simultaneous(seats) => pick(state, seats).map_or(Next::Over, Next::Seat),
        }
    }

    /// Draws and applies one outcome of the chance node (one `f64` from `rng`, so a record and
    /// its seed redraw the same game): its index and the outcome.
    ///
    /// # Errors
    /// `StepError::NoOutcome` when the state lists none (nothing is drawn).
    #[inline]
    pub fn draw<S: Drivable<Action = A> + ?Sized, R: RngCore>(
        &mut self,
        state: &mut S,
        rng: &mut R,
    ) -> Result<(usize, A), StepError> {
        state
            .driven_draw(rng, &mut self.outcomes)
            .ok_or(StepError::NoOutcome)
    }

    /// Plays `seat`'s action, checked or trusted as the driver was made.
    ///
    /// # Errors
    /// `StepError::Refused` when the action is refused; the state is unchanged.
    #[inline]
    pub fn play<S: Drivable<Action = A> + ?Sized>(
        &mut self,
        state: &mut S,
        seat: Seat,
        action: &A,
    ) -> Result<(), StepError> {
        state
            .driven_apply(seat, action, self.checked)
            .map_err(|error| {
                StepError::Refused(Box::new(Refusal {
                    seat,
                    action: state.driven_text(action),
                    error,
                }))
            })
    }

    /// One whole step: at a chance node, draws; at a seat node, lets `policy` pick the seat and
    /// its action, and plays it.
    ///
    /// # Errors
    /// `StepError::NoOutcome` at a chance node with no outcome, `StepError::NoAction` when the
    /// policy has no action for the seat, `StepError::Refused` for a refused action. The state is
    /// unchanged on every error.
    #[inline]
    pub fn step<S, P, R>(
        &mut self,
        state: &mut S,
        rng: &mut R,
        policy: &mut P,
    ) -> Result<Step<A>, StepError>
    where
        S: Drivable<Action = A> + ?Sized,
        P: Policy<S>,
        R: RngCore,
    {
        let seats = match state.driven_to_act() {
            ToAct::Terminal => return Ok(Step::Over),
            ToAct::Chance => {
                let (index, action) = self.draw(state, rng)?;
                return Ok(Step::Chance { index, action });
            }
            ToAct::Player(seat) => SeatSet::one(seat),
            ToAct::Simultaneous(seats) if seats.is_empty() => return Ok(Step::Over),
            ToAct::Simultaneous(seats) => seats,
        };
        let seat = policy.pick(state, seats, rng);
        let action = policy
            .choose(state, seat, rng)
            .ok_or(StepError::NoAction { seat })?;
        self.play(state, seat, &action)?;
        Ok(Step::Seat { seat, action })
    }
}

impl<A: Clone + std::fmt::Debug> Driver<A> {
    /// One step of a random playout (the search's and `plateau bench`'s): chance by its
    /// probabilities, or a uniformly random legal action of the lowest seat to act, listed into
    /// `legal` and drawn with one `Rng::random_range`. Returns false, playing nothing, when the
    /// game is over or stuck (a chance node without outcome, a seat without legal action).
    ///
    /// Written with `next`, `draw` and `play` rather than `step` and a policy: it runs at every
    /// action of every playout, and this form compiles to about 3% fewer instructions there.
    #[inline(always)]
    pub fn random_step<G, R>(&mut self, state: &mut G, legal: &mut Vec<A>, rng: &mut R) -> bool
    where
        G: Game<Action = A>,
        R: RngCore,
    {
        use rand::Rng;
        match self.next(state, |_, seats| seats.lowest()) {
            Next::Over => false,
            Next::Chance => self.draw(state, rng).is_ok(),
            Next::Seat(seat) => {
                state.legal_actions(seat, legal);
                if legal.is_empty() {
                    return false;
                }
                let i = rng.random_range(0..legal.len());
                self.play(state, seat, &legal[i]).is_ok()
            }
        }
    }
}

#[cfg(test)]
mod tests;
