//! Games behind a trait object, driven by text: what the command line and the match service use to
//! handle any registered game by name. Every method goes through the typed `Game` contract.

use std::any::Any;
use std::fmt::Debug;

use crate::info::{ActionInfo, ActionParts};
use rand::RngCore;
use serde::Serialize;
use thiserror::Error;

use crate::chance;
use crate::error::{IllegalAction, ParseError, SetupError};
use crate::game::{Ending, Game, GameInfo};
use crate::observation::ObservationJson;
use crate::outcome::Outcome;
use crate::seat::{Actor, Seat, ToAct, Viewer};

/// Why an action given as text was refused: it did not parse, or it is not legal. Either way the
/// state is unchanged.
#[derive(Clone, PartialEq, Eq, Debug, Error, Serialize)]
#[serde(untagged)]
pub enum ActionError {
    /// The text is not an action of this game.
    #[error("cannot read the action: {0}")]
    Parse(ParseError),
    /// The action is not allowed now.
    #[error("{0}")]
    Illegal(IllegalAction),
}

impl ActionError {
    /// The stable error code the match service sends (see docs/protocol.md).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::Parse(_) => "action/malformed",
            ActionError::Illegal(e) => e.code(),
        }
    }
}

/// A game state of any game, driven by canonical action text. Implemented for every `Game`.
pub trait DynGame: Send + Sync + Debug {
    /// Static facts of the game.
    fn info(&self) -> GameInfo;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// Who acts next.
    fn to_act(&self) -> ToAct;
    /// Legal actions of `seat` in canonical notation, sorted by byte order.
    fn legal_texts(&self, seat: Seat) -> Vec<String>;
    /// Legal actions of `seat` as `legal_texts` gives them, each with its parts
    /// (`Game::action_info`), in the same order.
    fn legal_info(&self, seat: Seat) -> Vec<(String, ActionInfo)>;
    /// `legal_info` without the actions the game does not list (`Game::listed`): what a seat's
    /// `state` message carries (docs/protocol.md section 4.1).
    fn listed_legal_info(&self, seat: Seat) -> Vec<(String, ActionInfo)>;
    /// The canonical text of the action named by `parts` (`Game::action_from_parts`), to be played
    /// as text. Does not check legality.
    ///
    /// # Errors
    /// `ParseError` when the parts name no action of this game.
    fn parts_text(&self, parts: &ActionParts) -> Result<String, ParseError>;
    /// Chance outcomes with probabilities, in the game's order (empty unless at a chance node).
    fn chance_texts(&self) -> Vec<(String, f64)>;
    /// Parses and plays one action.
    ///
    /// # Errors
    /// `ActionError` when the text does not parse or the action is illegal; the state is unchanged.
    fn apply_text(&mut self, actor: Actor, text: &str) -> Result<(), ActionError>;
    /// At a chance node, samples one outcome with `chance::sample` (one `f64` from `rng`), plays it
    /// and returns its text; elsewhere returns `None` and draws nothing.
    fn sample_chance(&mut self, rng: &mut dyn RngCore) -> Option<String> {
        self.draw_chance(rng).map(|(_, text)| text)
    }
    /// As `sample_chance`, with the outcome's index in `chance_texts` (the driver's draw,
    /// `driver::Driver::draw`).
    fn draw_chance(&mut self, rng: &mut dyn RngCore) -> Option<(usize, String)>;
    /// A uniformly random legal action of `seat` (the random bot), or `None` if it has none.
    fn random_action(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<String>;
    /// The game's timeout rule for `seat` (see `Game::timeout_actions`), as action texts.
    fn timeout_texts(&self, seat: Seat) -> Option<Vec<String>>;
    /// The game's own clock for `seat` now, in seconds (see `Game::rule_clock_seconds`).
    fn rule_clock_seconds(&self, seat: Seat) -> Option<u32>;
    /// Ends the game early (see `Game::end`).
    ///
    /// # Errors
    /// As `Game::end`.
    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction>;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// `observe(viewer)` as JSON: the only view of the state that may leave the server.
    fn observe_json(&self, viewer: Viewer) -> serde_json::Value;
    /// `observe(viewer)` as JSON text, the document `observe_json` gives, written straight from
    /// the observation without building a `serde_json::Value` (the server's hot path).
    fn observe_text(&self, viewer: Viewer) -> String;
    /// `observe(viewer)` as JSON, the document `observe_text` gives, with where each of its
    /// top-level fields lies in it (`ObservationJson`): what the match service compares with the
    /// last one it sent.
    fn observe_fields(&self, viewer: Viewer) -> ObservationJson;
    /// The canonical position text.
    fn position_text(&self) -> String;
    /// The whole state serialized as JSON (section 2.2 of docs/architecture.md: its config, its
    /// position text and the facts the text does not hold), which `GameEntry::from_state_json`
    /// reads back into an equal state.
    fn state_json(&self) -> String;
    /// A state drawn from those `viewer` cannot tell apart from this one (`Game::determinize`),
    /// its hidden parts sampled with `rng`.
    fn determinize_box(&self, viewer: Seat, rng: &mut dyn RngCore) -> Box<dyn DynGame>;
    /// The state drawn for a terminal, as `viewer` may see it.
    fn render_text(&self, viewer: Viewer, color: bool) -> String;
    /// The move-list form of `actor`'s action given as text, as `viewer` may see it, in this state
    /// (before it is played); `None` when the viewer must not learn of it (see `Game::display_action`).
    ///
    /// # Errors
    /// `ParseError` if the text is not an action.
    fn display_text(
        &self,
        actor: Actor,
        text: &str,
        viewer: Viewer,
    ) -> Result<Option<String>, ParseError>;
    /// The move-list entry of `actor`'s action given as text, as `viewer` may see it in this state
    /// (before it is played): its text (`display_text`) with its parts (`Game::display_info`);
    /// `None` when the viewer must not learn of it.
    ///
    /// # Errors
    /// `ParseError` if the text is not an action.
    fn display_entry(
        &self,
        actor: Actor,
        text: &str,
        viewer: Viewer,
    ) -> Result<Option<(String, ActionInfo)>, ParseError>;
    /// The parts of an action given as text, in this state (before it is played), as its actor
    /// knows it (`Game::action_info`): for a record that has become public.
    ///
    /// # Errors
    /// `ParseError` if the text is not an action.
    fn text_info(&self, text: &str) -> Result<ActionInfo, ParseError>;
    /// The canonical text of an action typed in any form the parser accepts (`C2-C4` -> `c2-c4`),
    /// so records and move lists always hold canonical notation. Does not check legality.
    ///
    /// # Errors
    /// `ParseError` if the text is not an action.
    fn canonical_text(&self, text: &str) -> Result<String, ParseError>;
    /// A copy behind a new box.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The concrete state, for code that knows the game type (bots through the registry).
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> DynGame for G {
    fn info(&self) -> GameInfo {
        G::INFO
    }

    fn seats(&self) -> usize {
        Game::seats(self)
    }

    fn to_act(&self) -> ToAct {
        Game::to_act(self)
    }

    fn legal_texts(&self, seat: Seat) -> Vec<String> {
        let mut actions = Vec::new();
        self.legal_actions(seat, &mut actions);
        let mut texts: Vec<String> = actions.iter().map(|a| self.format_action(a)).collect();
        texts.sort_unstable();
        texts
    }

    fn legal_info(&self, seat: Seat) -> Vec<(String, ActionInfo)> {
        let mut actions = Vec::new();
        self.legal_actions(seat, &mut actions);
        let mut all: Vec<(String, ActionInfo)> = actions
            .iter()
            .map(|a| (self.format_action(a), self.action_info(a)))
            .collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        all
    }

    fn listed_legal_info(&self, seat: Seat) -> Vec<(String, ActionInfo)> {
        let mut actions = Vec::new();
        self.legal_actions(seat, &mut actions);
        let mut all: Vec<(String, ActionInfo)> = actions
            .iter()
            .filter(|a| self.listed(a))
            .map(|a| (self.format_action(a), self.action_info(a)))
            .collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        all
    }

    fn parts_text(&self, parts: &ActionParts) -> Result<String, ParseError> {
        Ok(self.format_action(&self.action_from_parts(parts)?))
    }

    fn chance_texts(&self) -> Vec<(String, f64)> {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        outcomes
            .iter()
            .map(|(a, p)| (self.format_action(a), *p))
            .collect()
    }

    fn apply_text(&mut self, actor: Actor, text: &str) -> Result<(), ActionError> {
        let action = self.parse_action(text).map_err(ActionError::Parse)?;
        self.apply(actor, &action).map_err(ActionError::Illegal)
    }

    fn draw_chance(&mut self, rng: &mut dyn RngCore) -> Option<(usize, String)> {
        let mut outcomes = Vec::new();
        let (index, action) = chance::draw(self, rng, &mut outcomes)?;
        Some((index, self.format_action(&action)))
    }

    fn random_action(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<String> {
        let mut actions = Vec::new();
        self.legal_actions(seat, &mut actions);
        if actions.is_empty() {
            return None;
        }
        let i = (rng.next_u64() % actions.len() as u64) as usize;
        Some(self.format_action(&actions[i]))
    }

    fn timeout_texts(&self, seat: Seat) -> Option<Vec<String>> {
        self.timeout_actions(seat)
            .map(|v| v.iter().map(|a| self.format_action(a)).collect())
    }

    fn rule_clock_seconds(&self, seat: Seat) -> Option<u32> {
        Game::rule_clock_seconds(self, seat)
    }

    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        Game::end(self, ending)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn observe_json(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.observe(viewer)).expect("observations serialize to JSON")
    }

    fn observe_text(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.observe(viewer)).expect("observations serialize to JSON")
    }

    fn observe_fields(&self, viewer: Viewer) -> ObservationJson {
        self.observation_json(viewer)
    }

    fn position_text(&self) -> String {
        self.format_position()
    }

    fn state_json(&self) -> String {
        serde_json::to_string(self).expect("states serialize to JSON")
    }

    fn determinize_box(&self, viewer: Seat, rng: &mut dyn RngCore) -> Box<dyn DynGame> {
        Box::new(self.determinize(viewer, rng))
    }

    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        Game::render_text(self, viewer, color)
    }

    fn display_text(
        &self,
        actor: Actor,
        text: &str,
        viewer: Viewer,
    ) -> Result<Option<String>, ParseError> {
        Ok(self.display_action(actor, &self.parse_action(text)?, viewer))
    }

    fn display_entry(
        &self,
        actor: Actor,
        text: &str,
        viewer: Viewer,
    ) -> Result<Option<(String, ActionInfo)>, ParseError> {
        let action = self.parse_action(text)?;
        let shown = self.display_action(actor, &action, viewer);
        let info = self.display_info(actor, &action, viewer);
        Ok(shown.zip(info))
    }

    fn text_info(&self, text: &str) -> Result<ActionInfo, ParseError> {
        Ok(self.action_info(&self.parse_action(text)?))
    }

    fn canonical_text(&self, text: &str) -> Result<String, ParseError> {
        Ok(self.format_action(&self.parse_action(text)?))
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Makes a boxed state from a JSON config and a seat count.
type NewFn = fn(&serde_json::Value, usize) -> Result<Box<dyn DynGame>, SetupError>;
/// Makes a boxed state from a JSON config and a position text.
type PositionFn = fn(&serde_json::Value, &str) -> Result<Box<dyn DynGame>, SetupError>;

/// Reads a whole state serialized by `DynGame::state_json`.
type StateFn = fn(&str) -> Result<Box<dyn DynGame>, serde_json::Error>;

/// How to make states of one game from a name, a JSON config and text: one registry entry.
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    /// Static facts (its `name` is the registry key).
    pub info: GameInfo,
    /// `Game::RULE_CLOCK`: the rules set clocks of their own.
    pub rule_clock: bool,
    new: NewFn,
    parse_position: PositionFn,
    from_state: StateFn,
    default_config: fn() -> serde_json::Value,
}

impl GameEntry {
    /// The entry of game `G`.
    #[must_use]
    pub const fn of<G: Game>() -> GameEntry {
        GameEntry {
            info: G::INFO,
            rule_clock: G::RULE_CLOCK,
            new: |config, seats| Ok(Box::new(G::new(&read_config::<G>(config)?, seats)?)),
            parse_position: |config, text| {
                Ok(Box::new(G::parse_position(
                    &read_config::<G>(config)?,
                    text,
                )?))
            },
            from_state: |text| Ok(Box::new(serde_json::from_str::<G>(text)?)),
            default_config: || {
                serde_json::to_value(G::Config::default()).expect("configs serialize to JSON")
            },
        }
    }

    /// The initial state. `config` is the game's config as JSON; `null` means the default.
    ///
    /// # Errors
    /// `SetupError` for a bad seat count or config (the message names the field).
    pub fn new_game(
        &self,
        config: &serde_json::Value,
        seats: usize,
    ) -> Result<Box<dyn DynGame>, SetupError> {
        (self.new)(config, seats)
    }

    /// A state from position text (`start` is not special here; callers map it to `new_game`).
    ///
    /// # Errors
    /// `SetupError::Config` for a bad config, `SetupError::Position` naming the token that does
    /// not read, `SetupError::Impossible` naming the part the rules cannot reach.
    pub fn from_position(
        &self,
        config: &serde_json::Value,
        text: &str,
    ) -> Result<Box<dyn DynGame>, SetupError> {
        (self.parse_position)(config, text)
    }

    /// A state from its serialized form (`DynGame::state_json`), checked as a position is.
    ///
    /// # Errors
    /// The serde error, whose message holds the `SetupError`'s for a state the rules cannot
    /// reach.
    pub fn from_state_json(&self, text: &str) -> Result<Box<dyn DynGame>, serde_json::Error> {
        (self.from_state)(text)
    }

    /// The default config as JSON, with every field present.
    #[must_use]
    pub fn default_config(&self) -> serde_json::Value {
        (self.default_config)()
    }
}

fn read_config<G: Game>(config: &serde_json::Value) -> Result<G::Config, SetupError> {
    if config.is_null() {
        return Ok(G::Config::default());
    }
    // serde would also read a struct from an array of its fields in order: refuse that form.
    if !config.is_object() {
        let kind = match config {
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Number(_) => "a number",
            _ => "a boolean",
        };
        return Err(SetupError::Config(format!(
            "the config must be a JSON object (or null for the default), not {kind}"
        )));
    }
    // The error names the field by its path (`costs.shield: invalid value: ...`), not only the
    // type serde expected there.
    serde_path_to_error::deserialize(config).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        SetupError::Config(if path == "." {
            inner.to_string()
        } else {
            format!("{path}: {inner}")
        })
    })
}
