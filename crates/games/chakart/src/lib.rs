//! Chakart, chess with Mario Kart items (rules/chakart.md, with the project rulings of its
//! section 0): the `Game` implementation.
//!
//! - `board`: cells, squares, geometry.
//! - `action`: actions and their canonical text (ruling 11).
//! - `rules`: the position, legal actions, chance outcomes and play (sections 5-10).
//! - `fen`: the vchess FEN and the 6th field (ruling 10).
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
pub mod rules;
pub mod view;

use plateau_engine::{
    Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat, SetupError, ToAct,
    Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub use action::{Action, Effect};
pub use board::Kind;
use board::looks_empty;
use rules::{EndKind, Phase, Pos};
pub use view::Observation;

/// Game options.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The initial position (section 4, ruling 19): 0 orthodox (the default, what `start`
    /// means), 1 a random row copied for Black, 2 independent random rows (the game service's
    /// choice for new matches).
    pub randomness: u8,
    /// Our ruling: the rules set no bound on a game's length, so a game may be given a limit on
    /// the moves count (FEN field 2); reaching it between turns ends the game in a draw
    /// (`turn_limit`). 0, the default, means no limit.
    pub turn_limit: u32,
}

/// The actions played since the last decision node: what `format_position` needs at a chance
/// node. A chain uses each banana or bomb once, so a decision is followed by at most 61
/// redirects, an egg and a flip target: 64 actions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Line {
    len: u8,
    items: [Action; 64],
}

impl Line {
    const EMPTY: Line = Line {
        len: 0,
        items: [Action::Setup(0); 64],
    };

    fn push(&mut self, a: Action) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = a;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Action>::deserialize(d)?;
        if v.len() > 64 {
            return Err(serde::de::Error::custom("a line holds at most 64 actions"));
        }
        let mut line = Line::EMPTY;
        for a in v {
            line.push(a);
        }
        Ok(line)
    }
}

/// A Chakart game state: the position, its configuration, and the last decision node with the
/// actions since (for the position text of chance nodes). Clone is a plain copy.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Chakart {
    pos: Pos,
    anchor: Pos,
    line: Line,
    config: Config,
}

impl Chakart {
    fn from_pos(pos: Pos, config: Config) -> Chakart {
        Chakart {
            pos,
            anchor: pos,
            line: Line::EMPTY,
            config,
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
    /// The `Game` trait has no viewer-dependent action text, so the match service must use this
    /// (through `DynGame::as_any`) before it shows a Chakart action to the other seat.
    #[must_use]
    pub fn action_text_for(&self, action: &Action, viewer: Viewer) -> String {
        match *action {
            Action::Move {
                from,
                stealth: true,
                ..
            } if viewer != Viewer::Seat(Seat(self.pos.turn)) => {
                format!("{}??s", board::square_name(from))
            }
            _ => action.text(),
        }
    }

    fn base_text(pos: &Pos) -> String {
        match pos.phase {
            Phase::Setup { .. } => format!("random{}", pos.option),
            _ => fen::format(pos),
        }
    }

    fn setup_pos(config: &Config) -> Pos {
        let mut pos = match config.randomness {
            0 => Pos::orthodox(),
            o => Pos::before_setup(o),
        };
        pos.turn_limit = config.turn_limit;
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
        if config.randomness > 2 {
            return Err(SetupError::Config(format!(
                "randomness must be 0, 1 or 2, not {}",
                config.randomness
            )));
        }
        Ok(Chakart::from_pos(Chakart::setup_pos(config), *config))
    }

    fn parse_position(config: &Config, text: &str) -> Result<Self, SetupError> {
        let (base, moves) = match text.split_once(" moves") {
            Some((b, m)) => (b.trim(), Some(m)),
            None => (text.trim(), None),
        };
        let mut pos = match base {
            "start" => {
                let mut c = *config;
                c.randomness = 0;
                Chakart::setup_pos(&c)
            }
            "random1" | "random2" => {
                let mut c = *config;
                c.randomness = base.as_bytes()[6] - b'0';
                Chakart::setup_pos(&c)
            }
            _ => {
                let mut pos = fen::parse(base).map_err(SetupError::Position)?;
                pos.turn_limit = config.turn_limit;
                // Nothing is known of a hidden queen but that it looks like an empty square.
                if let Some(q) = (0..64).find(|&s| pos.board[s] & board::HIDDEN != 0) {
                    let owner = board::color(pos.board[q]);
                    pos.hidden = (0..64)
                        .filter(|&s| looks_empty(pos.board[s], owner ^ 1))
                        .fold(0u64, |m, s| m | 1 << s);
                }
                match pos.phase {
                    Phase::Move => {
                        let kings = pos.kings();
                        pos.check_end(kings);
                    }
                    _ if !pos.has_legal() => pos.end_turn(),
                    _ => {}
                }
                pos
            }
        };
        pos.option = match base {
            "random1" => 1,
            "random2" => 2,
            _ => config.randomness,
        };
        let mut state = Chakart::from_pos(pos, *config);
        if let Some(moves) = moves {
            for token in moves.split_whitespace() {
                let action = Action::parse(token).map_err(SetupError::Position)?;
                let actor = match state.to_act() {
                    ToAct::Chance => Actor::Chance,
                    ToAct::Player(s) => Actor::Seat(s),
                    _ => {
                        return Err(SetupError::impossible(
                            token,
                            "moves: the game is already over",
                        ));
                    }
                };
                state
                    .apply(actor, &action)
                    .map_err(|e| SetupError::impossible(token, format!("moves: {e}")))?;
            }
        }
        Ok(state)
    }

    fn format_position(&self) -> String {
        if self.pos.is_chance() {
            let mut s = Chakart::base_text(&self.anchor);
            s.push_str(" moves");
            for a in self.line.as_slice() {
                s.push(' ');
                s.push_str(&a.text());
            }
            s
        } else {
            fen::format(&self.pos)
        }
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
            ToAct::Player(Seat(self.pos.turn))
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
        if action.is_chance() {
            self.line.push(*action);
        } else {
            self.anchor = self.pos;
            self.line.len = 0;
            self.line.push(*action);
        }
        self.pos.play(*action);
    }

    fn outcome(&self) -> Option<Outcome> {
        let r = self.pos.result?;
        Some(match r.winner {
            Some(w) => Outcome::single_winner(2, Seat(w), r.kind.text()),
            None => Outcome::ranked_by_score(vec![0.5, 0.5], r.kind.text()),
        })
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        view::observe(&self.pos, viewer)
    }

    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self {
        let mut next = *self;
        if let Some((from, to)) = view::resample_queen(&self.pos, viewer.0, rng) {
            view::move_queen(&mut next.pos, from, to);
            if next.anchor.board[from as usize] == self.pos.board[from as usize]
                && next.anchor.board[to as usize] == board::EMPTY
            {
                view::move_queen(&mut next.anchor, from, to);
            }
        }
        next
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

    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        view::render(&self.pos, viewer, color)
    }

    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if self.pos.phase == Phase::Over {
            return Err(IllegalAction::GameOver);
        }
        match ending {
            Ending::Resign(s) => self.pos.finish(Some(s.0 ^ 1), EndKind::Resign),
            Ending::Timeout(s) => self.pos.finish(Some(s.0 ^ 1), EndKind::Timeout),
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
