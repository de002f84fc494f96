//! Chakart, chess with Mario Kart items (rules/chakart.md, with the project rulings of its
//! section 0): the `Game` implementation.
//!
//! - `board`: cells, squares, geometry.
//! - `action`: actions and their canonical text (ruling 11).
//! - `rules`: the position, legal actions, chance outcomes and play (sections 5-10).
//! - `fen`: the vchess FEN and the 6th field (ruling 10), read checked.
//! - `position`: the position text of every state and the serialized state.
//! - `view`: observations, the terminal board, SAN and determinization (rulings 9, 17).
//! - `eval`: `Chakart::evaluation`, a heuristic value (material) of a running game for bots.
//!
//! Seat 0 is White, seat 1 Black. Every random event is a chance node (ruling 13). A position
//! text is a FEN, or, at a chance node, `<fen> moves <action> …` from the last decision
//! (ruling 10); before the random setup of options 1 and 2 the base is `random1` or `random2`.

pub mod action;
pub mod board;
mod eval;
pub mod fen;
mod position;
pub mod rules;
pub mod view;

use plateau_engine::{
    ActionInfo, Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat,
    SetupError, ToAct, Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub use action::{Action, Effect};
pub use board::{Kind, Side, Square};
use position::Line;
use rules::{EndKind, Phase, Pos};
pub use view::{
    Item, LastMove, Observation, Pool, Pools, Power, Powers, SeenItem, SeenMove, SeenPiece,
};

/// Game options.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The initial position (section 4, ruling 19): 0 orthodox (the default, what `start`
    /// means), 1 a random row copied for Black, 2 independent random rows (the game service's
    /// choice for new matches).
    pub randomness: u8,
    /// Our ruling (docs/rulings.md, Chakart 1): the rules set no bound on a game's length, so
    /// every game has a limit on the moves count (FEN field 2); reaching it between turns ends
    /// the game in a draw (`turn_limit`). The default is `DEFAULT_TURN_LIMIT`; 0, which older
    /// configs hold (it once meant "no limit"), is read as the default.
    pub turn_limit: u32,
}

/// The default `Config::turn_limit`, in moves (plies): far above any random game (the longest of
/// 10,000 random games from each kind of start, docs/rulings.md Chakart 1).
pub const DEFAULT_TURN_LIMIT: u32 = 2_000;

impl Default for Config {
    fn default() -> Config {
        Config {
            randomness: 0,
            turn_limit: DEFAULT_TURN_LIMIT,
        }
    }
}

impl Config {
    /// The turn limit in force: `turn_limit`, or `DEFAULT_TURN_LIMIT` for 0.
    #[must_use]
    pub fn turn_limit(&self) -> u32 {
        if self.turn_limit == 0 {
            DEFAULT_TURN_LIMIT
        } else {
            self.turn_limit
        }
    }

    /// Checks the fields.
    ///
    /// # Errors
    /// `SetupError::Config` naming the bad field.
    pub fn check(&self) -> Result<(), SetupError> {
        if self.randomness > 2 {
            return Err(SetupError::Config(format!(
                "randomness must be 0, 1 or 2, not {}",
                self.randomness
            )));
        }
        Ok(())
    }
}

/// A Chakart game state: the position, its configuration, and the last decision node with the
/// actions since (for the position text of chance nodes). Clone is a plain copy. Serialized as
/// its config, position text and what the text does not hold (`position` module), read back
/// checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Chakart {
    pos: Pos,
    anchor: Pos,
    line: Line,
    config: Config,
    /// The last move or shell shot, for the observation's `last_move`.
    last: Option<LastMove>,
}

impl Chakart {
    fn from_pos(pos: Pos, config: Config) -> Chakart {
        Chakart {
            pos,
            anchor: pos,
            line: Line::EMPTY,
            config,
            last: None,
        }
    }

    /// The position (board, turn, pools, pending phase).
    #[must_use]
    pub fn pos(&self) -> &Pos {
        &self.pos
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    /// The FEN of the position, or `None` at a chance node (which has no FEN, ruling 10).
    #[must_use]
    pub fn fen(&self) -> Option<String> {
        (!self.pos.is_chance()).then(|| fen::format(&self.pos))
    }

    /// Whether `action` is legal now for whoever is to act.
    #[must_use]
    pub fn is_legal(&self, action: &Action) -> bool {
        if self.pos.is_chance() {
            let mut found = false;
            self.pos.for_each_outcome(&mut |a| found |= a == *action);
            found
        } else if self.pos.phase == Phase::Over {
            false
        } else {
            !self.pos.for_each_legal(&mut |a| a != *action)
        }
    }

    /// The canonical text of `action` as `viewer` may see it (ruling 17): every viewer but the
    /// mover sees a stealth move as `<from>??s` (`a1??s`). Call it before the action is played.
    #[must_use]
    pub fn action_text_for(&self, action: &Action, viewer: Viewer) -> String {
        match *action {
            Action::Move {
                from,
                stealth: true,
                ..
            } if viewer != Viewer::Seat(self.pos.turn.seat()) => format!("{from}??s"),
            _ => action.text(),
        }
    }

    /// The `pieces` of a move from `from` to `to` (`action_info`): the lowercase letter of the
    /// piece that moves, then that of what it meets on `to` (a piece kind `p r n b q k`, an item
    /// `m e d w`) when the mover sees something there. The opponent's hidden queen looks empty to
    /// the mover (ruling 17), so a legal list's parts never tell where it hides.
    fn met(&self, from: Square, to: Square) -> Vec<String> {
        let word = |c: u8| match c {
            board::MUSHROOM => Some('m'),
            board::EGG => Some('e'),
            board::BANANA => Some('d'),
            board::BOMB => Some('w'),
            _ if board::is_piece(c) => Some(board::kind(c).letter()),
            _ => None,
        };
        let mover = self.pos.at(from);
        let met = self.pos.at(to);
        let seen = !board::looks_empty(met, board::side_of(mover));
        [Some(mover), seen.then_some(met)]
            .into_iter()
            .flatten()
            .filter_map(word)
            .map(String::from)
            .collect()
    }

    fn setup_pos(config: &Config) -> Pos {
        let mut pos = match config.randomness {
            0 => Pos::orthodox(),
            o => Pos::before_setup(o),
        };
        pos.turn_limit = config.turn_limit();
        pos
    }
}

impl Game for Chakart {
    type Action = Action;
    type Observation = Observation;
    type Config = Config;

    const INFO: GameInfo = GameInfo {
        name: "chakart",
        title: "Chakart",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: true,
        simultaneous: false,
    };

    fn new(config: &Config, seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        config.check()?;
        Ok(Chakart::from_pos(Chakart::setup_pos(config), *config))
    }

    /// Reads a FEN, or `<fen> moves …` at a chance node, checked (`position` module).
    fn parse_position(config: &Config, text: &str) -> Result<Self, SetupError> {
        Chakart::read(config, text, None)
    }

    fn format_position(&self) -> String {
        self.position_text()
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if self.pos.phase == Phase::Over {
            ToAct::Terminal
        } else if self.pos.is_chance() {
            ToAct::Chance
        } else {
            ToAct::Player(self.pos.turn.seat())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            self.pos.for_each_legal(&mut |a| {
                out.push(a);
                true
            });
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        self.pos.for_each_outcome(&mut |a| out.push((a, 0.0)));
        let p = 1.0 / out.len().max(1) as f64;
        for o in out.iter_mut() {
            o.1 = p;
        }
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), IllegalAction> {
        let to_act = self.to_act();
        if to_act == ToAct::Terminal {
            return Err(IllegalAction::GameOver);
        }
        if !to_act.allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        if !self.is_legal(action) {
            return Err(IllegalAction::rule(format!(
                "`{}` is not legal here",
                action.text()
            )));
        }
        self.apply_legal(actor, action);
        Ok(())
    }

    fn apply_legal(&mut self, _actor: Actor, action: &Action) {
        if !action.is_chance() {
            self.anchor = self.pos;
            self.line.clear();
        }
        let moved = match *action {
            Action::Move {
                from, to, stealth, ..
            } => Some((from, to, stealth)),
            Action::Shell { from, to } => Some((from, to, false)),
            _ => None,
        };
        if let Some((from, to, stealth)) = moved {
            self.last = Some(LastMove {
                from,
                to,
                by: self.pos.turn,
                stealth,
            });
        }
        self.line.push(*action);
        self.pos.play(*action);
    }

    fn outcome(&self) -> Option<Outcome> {
        let r = self.pos.result?;
        Some(match r.winner {
            Some(w) => Outcome::single_winner(2, w.seat(), r.kind.text()),
            None => Outcome::ranked_by_score(vec![0.5, 0.5], r.kind.text()),
        })
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        view::observe(&self.pos, self.last, viewer)
    }

    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self {
        let mut next = *self;
        let Some(side) = Side::of_seat(viewer) else {
            return next;
        };
        if let Some((from, to)) = view::resample_queen(&self.pos, side, rng) {
            view::move_queen(&mut next.pos, from, to);
            // The stealth move that hid it went where the queen is now drawn.
            if let Some(last) = &mut next.last
                && last.stealth
                && last.to == from
            {
                last.to = to;
            }
            if next.anchor.at(from) == self.pos.at(from) && next.anchor.at(to) == board::EMPTY {
                view::move_queen(&mut next.anchor, from, to);
            }
        }
        next
    }

    /// The parts of each action (docs/rules/chakart.md section "Notation", ruling 11): `move`
    /// (from, to, a promotion letter as `choice`, and as `pieces` the letter of the piece that
    /// moves then that of the piece or item it meets on `to`, if the mover can see one: never
    /// the opponent's hidden queen, ruling 17), `stealth` (the queen's stealth move), `shell`
    /// (the king's square and the square hit), `swap` (King Boo's swap, section 7: `from` the
    /// piece that met the egg, `to` the other piece), `drop` (Toadette's drop: the piece letter
    /// as `choice`), `promote` (`choice`); chance
    /// outcomes `redirect` (`to`), `egg` (the effect's word as `choice`, `Effect::word`), `luigi` and `waluigi`
    /// (the flipped piece's square as `to`), `banana` and `bomb` (where the item lands, `to`),
    /// `setup` (the file letter as `choice`).
    fn action_info(&self, action: &Action) -> ActionInfo {
        let at = |kind, to: Square| ActionInfo {
            to: Some(to.to_string()),
            ..ActionInfo::new(kind)
        };
        let choice = |kind, c: char| ActionInfo {
            choice: Some(c.to_string()),
            ..ActionInfo::new(kind)
        };
        match *action {
            Action::Move {
                from,
                to,
                promote,
                stealth,
            } => ActionInfo {
                from: Some(from.to_string()),
                choice: promote.map(|k| k.letter().to_string()),
                pieces: self.met(from, to),
                ..at(if stealth { "stealth" } else { "move" }, to)
            },
            Action::Shell { from, to } => ActionInfo {
                from: Some(from.to_string()),
                pieces: self.met(from, to),
                ..at("shell", to)
            },
            // The pending square, so a page composes the swap as a move from it.
            Action::Swap { with } => ActionInfo {
                from: match self.pos.phase {
                    Phase::Swap { at: piece } => Some(piece.to_string()),
                    _ => None,
                },
                ..at("swap", with)
            },
            Action::Drop { kind, to } => ActionInfo {
                choice: Some(kind.letter().to_string()),
                ..at("drop", to)
            },
            Action::Promote(k) => choice("promote", k.letter()),
            Action::Redirect(to) => at("redirect", to),
            Action::Egg(e) => ActionInfo {
                choice: Some(e.word().to_owned()),
                ..ActionInfo::new("egg")
            },
            Action::Flip { luigi, target } => at(if luigi { "luigi" } else { "waluigi" }, target),
            Action::ItemDrop { bomb, to } => at(if bomb { "bomb" } else { "banana" }, to),
            Action::Setup(f) => choice("setup", char::from(b'a' + f)),
        }
    }

    fn format_action(&self, action: &Action) -> String {
        action.text()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    /// SAN for everyone (rules/chakart.md section 11; docs/rulings.md, Chakart 3): a stealth move
    /// is `Q??` for every viewer but its mover, who sees where the queen went (`Q??a2`, ruling 17);
    /// no chance outcome tells more than the board shows.
    fn display_action(&self, actor: Actor, action: &Action, viewer: Viewer) -> Option<String> {
        let owner = matches!((actor, viewer), (Actor::Seat(a), Viewer::Seat(v)) if a == v);
        Some(view::san(&self.pos, action, owner))
    }

    /// The parts of the move list's SAN (`display_action`): a stealth move is only its kind for
    /// every viewer but its mover; an egg draw names the square a forced Luigi or Waluigi flipped,
    /// as its SAN does.
    fn display_info(&self, actor: Actor, action: &Action, viewer: Viewer) -> Option<ActionInfo> {
        let owner = matches!((actor, viewer), (Actor::Seat(a), Viewer::Seat(v)) if a == v);
        Some(match *action {
            Action::Move { stealth: true, .. } if !owner => ActionInfo::new("stealth"),
            Action::Egg(Effect::Luigi | Effect::Waluigi) => ActionInfo {
                to: view::forced_flip(&self.pos, action).map(|sq| sq.to_string()),
                ..self.action_info(action)
            },
            _ => self.action_info(action),
        })
    }

    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        view::render(&self.pos, viewer, color)
    }

    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if self.pos.phase == Phase::Over {
            return Err(IllegalAction::GameOver);
        }
        let loser = |seat: Seat| {
            Side::of_seat(seat)
                .ok_or_else(|| IllegalAction::rule(format!("Chakart has no seat {seat}")))
        };
        match ending {
            Ending::Resign(s) => self.pos.finish(Some(loser(s)?.other()), EndKind::Resign),
            Ending::Timeout(s) => self.pos.finish(Some(loser(s)?.other()), EndKind::Timeout),
            Ending::Agreement => self.pos.finish(None, EndKind::Agreement),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bots clone the state for every playout: it stays a plain copy of a few hundred bytes.
    #[test]
    fn the_state_is_small() {
        assert!(
            std::mem::size_of::<Action>() <= 5,
            "{}",
            std::mem::size_of::<Action>()
        );
        assert!(
            std::mem::size_of::<Pos>() <= 128,
            "{}",
            std::mem::size_of::<Pos>()
        );
        assert!(
            std::mem::size_of::<Chakart>() <= 600,
            "{}",
            std::mem::size_of::<Chakart>()
        );
    }
}
