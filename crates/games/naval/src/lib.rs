//! Bataille Navale for four players (rules/naval.md): hidden 14x14 boards, a secret simultaneous
//! placement, six ships with twelve special weapons, energy, blocks, shields and EMPs.
//!
//! The crate implements `plateau_engine::Game` for [`Naval`]:
//! - randomness is chance nodes only: the layout (one node per piece), the first player and each
//!   rocket cell (section 2);
//! - placement is a simultaneous node of the seats not yet ready (section 4.5a);
//! - a battle turn is one action per valid ship in importance order, then the plan resolves
//!   (section 5.3a);
//! - `observe` is the secrecy choke point (section 13) and `determinize` samples hidden layouts
//!   consistent with what a seat has seen.
//!
//! Modules, each beside its sections of the rules:
//! - `bits`: cells and 14x14 bit boards; `piece`: ships, buoys, footprints (section 2);
//!   `ability`: the specials' areas and torpedo directions (3, 6.5, 9); `action`: orders, actions
//!   and their notation (13b).
//! - `config`: every `[ruling: ours]` figure; `board`: one seat's board; `state`: the game, its
//!   phases and the course of a turn (4, 5); `orders`: which orders are legal, one source for the
//!   list, the check and random orders (5-10); `energy` (8); `resolve`: the plan resolving, the
//!   end of a turn and of the game (5.6-12).
//! - `position`: the versioned position format `naval/1` (docs/naval-position.md), also the
//!   serialized state, read back checked.
//! - `observe`: views (13) and the terminal drawing; `options`: on a seat's own battle turn, every
//!   order of each ship still to act, for the page to plan the turn (5.3a, 5.5); `determinize`:
//!   sampling for bots; `random`: fast random actions.
//! - For bots, changing no rule: `odds` (where a seat should aim, from its information only),
//!   `policy` (a heuristic player built on them), `layout` (its placement) and `eval` (a value
//!   of a running game).

pub mod ability;
pub mod action;
pub mod bits;
pub mod board;
pub mod config;
mod determinize;
mod energy;
mod eval;
mod layout;
pub mod observe;
pub mod odds;
pub mod options;
pub mod orders;
pub mod piece;
pub mod policy;
mod position;
pub mod random;
mod resolve;
pub mod state;

use plateau_engine::{
    ActionInfo, ActionParts, Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError,
    Seat, SeatSet, SetupError, ToAct, Viewer,
};
use rand::Rng;

pub use ability::{Ability, Dir};
pub use action::{Action, Order};
pub use bits::Cell;
pub use config::Config;
pub use observe::Observation;
pub use odds::{Odds, QuickOdds};
pub use piece::{Piece, Ship};
pub use policy::Style;
pub use position::FORMAT as POSITION_FORMAT;
pub use state::{Naval, Phase};

impl Game for Naval {
    type Action = Action;
    type Observation = Observation;
    type Config = Config;

    const INFO: GameInfo = GameInfo {
        name: "naval",
        title: "Bataille Navale",
        min_seats: 4,
        max_seats: 4,
        default_seats: 4,
        chance: true,
        hidden_information: true,
        simultaneous: true,
    };

    /// The placement and turn clocks (sections 4.6 and 5.10).
    const RULE_CLOCK: bool = true;

    fn new(config: &Config, seats: usize) -> Result<Naval, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Naval::start(config)
    }

    /// The position text is the `naval/1` document (docs/naval-position.md), read checked;
    /// `config` serves when the document names none.
    fn parse_position(config: &Config, text: &str) -> Result<Naval, SetupError> {
        Naval::read_position(config, text)
    }

    fn format_position(&self) -> String {
        self.position_text()
    }

    fn seats(&self) -> usize {
        4
    }

    fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::Layout { .. } | Phase::FirstPlayer => ToAct::Chance,
            Phase::Placement => ToAct::Simultaneous(
                Seat::all(4)
                    .filter(|s| !self.boards[s.index()].ready)
                    .collect::<SeatSet>(),
            ),
            Phase::Battle if self.turn.rocket.is_some() => ToAct::Chance,
            Phase::Battle => ToAct::Player(self.current),
            Phase::Over { .. } => ToAct::Terminal,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if !self.to_act().allows(Actor::Seat(seat)) {
            return;
        }
        match self.phase {
            Phase::Placement => {
                out.push(Action::Ready);
                if self.board(seat).moves >= self.config.placement_moves {
                    return;
                }
                let mut choices = Vec::new();
                for piece in Piece::ALL {
                    self.layout_choices(seat, piece, &mut choices);
                    out.extend(choices.iter().map(|&(cell, vertical, _)| Action::Place {
                        piece,
                        cell,
                        vertical,
                    }));
                }
            }
            Phase::Battle => {
                if let Some(ship) = self.turn.next {
                    self.list_orders(seat, ship, out);
                }
            }
            _ => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        match self.phase {
            Phase::Layout { seat, piece } => {
                let mut choices = Vec::new();
                self.layout_choices(seat, piece, &mut choices);
                let prob = 1.0 / choices.len() as f64;
                out.extend(choices.iter().map(|&(cell, vertical, _)| {
                    (
                        Action::Layout {
                            seat,
                            piece,
                            cell,
                            vertical,
                        },
                        prob,
                    )
                }));
            }
            Phase::FirstPlayer => {
                out.extend(Seat::all(4).map(|seat| (Action::First { seat }, 0.25)));
            }
            Phase::Battle => {
                if let Some(cell) = self.turn.rocket {
                    out.push((Action::Rocket { cell, shot: true }, 0.5));
                    out.push((Action::Rocket { cell, shot: false }, 0.5));
                }
            }
            _ => {}
        }
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), IllegalAction> {
        if matches!(self.phase, Phase::Over { .. }) {
            return Err(IllegalAction::GameOver);
        }
        if !self.to_act().allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        let seat = match actor {
            Actor::Seat(s) => Some(s),
            Actor::Chance => None,
        };
        // Checks come before any change, so a refusal leaves the state as it was.
        let mut next = self.clone();
        next.play(seat, action, true)?;
        *self = next;
        Ok(())
    }

    fn apply_legal(&mut self, actor: Actor, action: &Action) {
        let seat = match actor {
            Actor::Seat(s) => Some(s),
            Actor::Chance => None,
        };
        if let Err(e) = self.play(seat, action, false) {
            panic!("apply_legal given an illegal action {action:?} for {actor}: {e}");
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        self.observation(viewer)
    }

    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Naval {
        self.sample_for(viewer, rng)
    }

    fn format_action(&self, action: &Action) -> String {
        action::format_action(action)
    }

    fn action_info(&self, action: &Action) -> ActionInfo {
        action::action_info(action)
    }

    /// The placement moves are not listed (about a thousand per seat): the seat's observation
    /// describes them by piece (`observe::PlacementView`) and the page names one by its parts.
    fn listed(&self, action: &Action) -> bool {
        !matches!(action, Action::Place { .. })
    }

    fn action_from_parts(&self, parts: &ActionParts) -> Result<Action, ParseError> {
        action::action_from_parts(parts)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseError> {
        action::parse_action(text)
    }

    /// Section 13: a seat's layout outcomes and placement moves are its own; `ready`, the first
    /// player and rocket cells are public; an order is seen by its seat only when given (everyone
    /// learns it from the observation's announcements once it resolves, a shield without its centre).
    fn display_action(&self, actor: Actor, action: &Action, viewer: Viewer) -> Option<String> {
        let own = |seat: Seat| viewer == Viewer::Seat(seat);
        let visible = match (*action, actor) {
            (Action::Ready | Action::First { .. } | Action::Rocket { .. }, _) => true,
            (Action::Layout { seat, .. }, _) => own(seat),
            (Action::Place { .. } | Action::Order { .. }, Actor::Seat(s)) => own(s),
            (Action::Place { .. } | Action::Order { .. }, Actor::Chance) => false,
        };
        visible.then(|| self.format_action(action))
    }

    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        self.draw(viewer, color)
    }

    /// Resignation (our extension, see `Naval::resign`); other endings are not part of the game.
    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if matches!(self.phase, Phase::Over { .. }) {
            return Err(IllegalAction::GameOver);
        }
        match ending {
            Ending::Resign(seat) if seat.index() < 4 && !self.board(seat).out => {
                self.resign(seat);
                Ok(())
            }
            Ending::Resign(seat) => Err(IllegalAction::rule(format!(
                "seat {seat} is not in the game"
            ))),
            other => Err(IllegalAction::Unsupported {
                what: other.to_string(),
            }),
        }
    }

    /// The placement clock (`placement_seconds`, section 4.6) for a seat not yet ready, the turn
    /// clock (`turn_seconds`, section 5.10) for the seat whose turn it is.
    fn rule_clock_seconds(&self, seat: Seat) -> Option<u32> {
        if !self.to_act().allows(Actor::Seat(seat)) {
            return None;
        }
        match self.phase {
            Phase::Placement => Some(self.config.placement_seconds),
            Phase::Battle => Some(self.config.turn_seconds),
            _ => None,
        }
    }

    /// Placement clock: `ready` (the layout is frozen as it stands, section 4.6). Turn clock: a pass
    /// for every ship without an order (section 5.10). A seat with nothing to do gets no action.
    fn timeout_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        let acts = self.to_act().allows(Actor::Seat(seat));
        Some(match self.phase {
            Phase::Placement if acts => vec![Action::Ready],
            Phase::Battle if acts => Ship::ALL
                .into_iter()
                .skip_while(|&k| Some(k) != self.turn.next)
                .filter(|&k| !self.board(seat).is_sunk(k))
                .map(|ship| Action::Order {
                    ship,
                    order: Order::Pass,
                })
                .collect(),
            _ => Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bots clone the state for every playout: it stays a few kilobytes with two small vectors.
    #[test]
    fn state_is_compact() {
        let size = std::mem::size_of::<Naval>();
        println!("Naval is {size} bytes");
        assert!(size < 6 * 1024, "{size} bytes");
    }
}
