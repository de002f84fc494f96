//! The `Game` contract (docs/architecture.md section 2.1): everything the match service, the
//! command line and the bots know about a game. Section 8 there maps each Plateau game onto it.

use std::fmt::Debug;
use std::hash::Hash;

use rand::Rng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::error::{IllegalAction, ParseError, SetupError};
use crate::info::{ActionInfo, ActionParts};
use crate::observation::ObservationJson;
use crate::outcome::Outcome;
use crate::seat::{Actor, Seat, ToAct, Viewer};

/// Static facts about a game (OpenSpiel's `GameType`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct GameInfo {
    /// Registry name, lowercase: `"mad"`, `"moonleap"`, `"chakart"`, `"naval"`.
    pub name: &'static str,
    /// Name shown to people.
    pub title: &'static str,
    /// Fewest seats.
    pub min_seats: usize,
    /// Most seats.
    pub max_seats: usize,
    /// Seats when none are asked for.
    pub default_seats: usize,
    /// Whether the game has chance nodes.
    pub chance: bool,
    /// Whether some seat ever knows something another does not (then `determinize` matters).
    /// When `false`, `observe` gives every viewer, spectators included, the same observation, and
    /// `display_action` and `display_info` the same move-list entry (the server then builds each
    /// once for all; the test kit checks it).
    pub hidden_information: bool,
    /// Whether the game has simultaneous nodes.
    pub simultaneous: bool,
}

/// A way a game can end other than by its rules running their course.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The seat ran out of time and the game's rule for that is a loss (see `Game::timeout_actions`).
    Timeout(Seat),
    /// The seat resigned.
    Resign(Seat),
    /// All seats agreed to stop (MAD's friendly "agreed stop", rules/mad.md section 8.2).
    Agreement,
}

impl std::fmt::Display for Ending {
    /// Words for people, with seats numbered from 1: "a timeout of seat 1".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Timeout(s) => write!(f, "a timeout of seat {s}"),
            Ending::Resign(s) => write!(f, "a resignation by seat {s}"),
            Ending::Agreement => f.write_str("an agreed stop"),
        }
    }
}

/// A game state together with its configuration: the one type a game crate implements.
///
/// The same value is the rules, the position and the history the rules need. It must be cheap to
/// clone (bots clone it for every playout) and must hold no clock, no I/O and no random generator:
/// every random event is a chance node (`ToAct::Chance`) whose outcomes the match runner samples.
///
/// # Checked states
/// A state is only ever built by `new`, by `parse_position` or by deserializing, and the last two
/// check what they read as the rules would (docs/architecture.md section 2.2): a state that reads
/// is one the rules can reach, and every method may rely on its invariants. Deserializing refuses
/// what `parse_position` refuses, with the `SetupError`'s message in the serde error.
///
/// # The turn protocol
/// `to_act` says who acts. At `Player(s)` only seat `s` may `apply`; at `Simultaneous(set)` any seat
/// of the set may, in any order; at `Chance` only `Actor::Chance`, with one of `chance_outcomes`;
/// at `Terminal`, nobody. A multi-step turn (a Chakart egg effect's extra choice, Bataille Navale's
/// one order per ship) is simply the same seat being to act again.
pub trait Game: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// One choice of a seat, or one chance outcome.
    type Action: Clone + Eq + Hash + Debug + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// What one viewer may know of the state, and nothing more (the secrecy choke point).
    type Observation: Clone + PartialEq + Debug + Send + Serialize + DeserializeOwned;
    /// Game options (variants, limits). `Default` is the standard game. Serialized as a JSON
    /// object of at least one field, one of which bounds the game's length, refusing unknown
    /// fields (`#[serde(deny_unknown_fields)]`); the registry's tests check all three
    /// (docs/adding-a-game.md section 2).
    type Config: Default + Clone + Debug + Send + Sync + Serialize + DeserializeOwned;

    /// Static facts.
    const INFO: GameInfo;

    /// Whether the rules set clocks of their own (`rule_clock_seconds` can be `Some`), so that a
    /// match service offers the time control `game`. By default `false`.
    const RULE_CLOCK: bool = false;

    /// The initial state for `seats` seats.
    ///
    /// # Errors
    /// `SetupError` if the seat count is outside the game's range or the config is invalid.
    fn new(config: &Self::Config, seats: usize) -> Result<Self, SetupError>;

    /// A checked state from its position text (the game's canonical notation, rules/<game>.md).
    ///
    /// # Errors
    /// `SetupError::Position` naming the token that does not read, `SetupError::Impossible`
    /// naming the part of a position the rules cannot reach (a piece twice, an overlap, counters
    /// that contradict each other, a side to move that cannot be), `SetupError::Config` for a bad
    /// config.
    fn parse_position(config: &Self::Config, text: &str) -> Result<Self, SetupError>;

    /// The canonical position text; `parse_position` of it gives back an equal state.
    fn format_position(&self) -> String;

    /// Number of seats at the table.
    fn seats(&self) -> usize;

    /// Who acts next.
    fn to_act(&self) -> ToAct;

    /// Clears `out` and writes the legal actions of `seat`: empty when `seat` may not act now.
    /// The order is deterministic; tools sort by notation when they print.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// Clears `out` and writes the chance outcomes with their probabilities (each > 0, summing to 1)
    /// when `to_act` is `Chance`; writes nothing otherwise.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>);

    /// Plays `action` for `actor`.
    ///
    /// # Errors
    /// `IllegalAction` when the actor may not act or the action is not legal now. The state is then
    /// unchanged.
    fn apply(&mut self, actor: Actor, action: &Self::Action) -> Result<(), IllegalAction>;

    /// Plays an action known to be legal (taken from `legal_actions` or `chance_outcomes` of this
    /// very state), skipping checks where the game can: the fast path for playouts and search.
    ///
    /// # Panics
    /// May panic, or leave a meaningless state, if the action was not legal. Never undefined behaviour.
    fn apply_legal(&mut self, actor: Actor, action: &Self::Action) {
        if let Err(e) = self.apply(actor, action) {
            panic!("apply_legal given an illegal action {action:?} for {actor}: {e}");
        }
    }

    /// The result once `to_act` is `Terminal`; `None` while the game runs.
    fn outcome(&self) -> Option<Outcome>;

    /// What `viewer` may know. For a seat: public information plus its own secrets.
    fn observe(&self, viewer: Viewer) -> Self::Observation;

    /// `observe(viewer)` as the match service sends it: serde_json's text of it, with where each
    /// top-level field lies (`ObservationJson`). By default `ObservationJson::of(&self.observe(viewer))`.
    /// A game may write the same text faster (fields that never change in a game written once
    /// and kept, nothing built that is only written out); the text must be exactly serde_json's
    /// of `observe(viewer)`, which the test kit checks.
    fn observation_json(&self, viewer: Viewer) -> ObservationJson {
        ObservationJson::of(&self.observe(viewer))
    }

    /// A state drawn from those `viewer` cannot tell apart from this one: the viewer's observation,
    /// and its legal actions, are the same in the result. Hidden parts are sampled with `rng` from
    /// the viewer's knowledge only. Perfect-information games return a clone.
    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self;

    /// The canonical text of `action` in this state (rules/<game>.md); `parse_action` reads it back.
    fn format_action(&self, action: &Self::Action) -> String;

    /// Reads an action in canonical notation. Parsing does not check legality.
    ///
    /// # Errors
    /// `ParseError` naming the offending token.
    fn parse_action(&self, text: &str) -> Result<Self::Action, ParseError>;

    /// The action as `viewer` may see it in a move list (Chakart's SAN), or `None` when the viewer
    /// must not learn of it. Call it on the state before the action is applied.
    ///
    /// By default: the canonical text for everyone in a game without hidden information; in a game
    /// with hidden information, only the acting seat sees its own actions and nobody sees chance
    /// outcomes, so a game must override this to show more (never less by accident).
    fn display_action(
        &self,
        actor: Actor,
        action: &Self::Action,
        viewer: Viewer,
    ) -> Option<String> {
        let visible = !Self::INFO.hidden_information
            || matches!((actor, viewer), (Actor::Seat(a), Viewer::Seat(v)) if a == v);
        visible.then(|| self.format_action(action))
    }

    /// What `action` does as `viewer` may learn of it in a move list (its parts, `ActionInfo`), or
    /// `None` exactly when `display_action` is `None`. Call it on the state before the action is
    /// applied. By default `action_info` wherever the viewer sees the action; a game whose move
    /// list hides part of an action from some viewers (Chakart's stealth move) must override this
    /// to hide the same parts.
    fn display_info(
        &self,
        actor: Actor,
        action: &Self::Action,
        viewer: Viewer,
    ) -> Option<ActionInfo> {
        self.display_action(actor, action, viewer)
            .map(|_| self.action_info(action))
    }

    /// What `action` does, in parts a client draws and composes without the rules (`ActionInfo`:
    /// cells from and to, pieces, covered cells, the choice). Call it on the state before the
    /// action is applied, with an action legal there. By default only the kind `"action"`.
    fn action_info(&self, action: &Self::Action) -> ActionInfo {
        let _ = action;
        ActionInfo::new("action")
    }

    /// Whether the legal `action` is listed one by one in a seat's `legal` and `legal_info`
    /// (docs/protocol.md section 4.1). A game whose choices are too many to list (Bataille
    /// Navale's placement) returns false for them and describes them compactly in the seat's own
    /// observation; the seat then names such an action by its parts (`action_from_parts`). Bots
    /// and rules still see every legal action (`legal_actions`). By default every one is listed.
    fn listed(&self, action: &Self::Action) -> bool {
        let _ = action;
        true
    }

    /// The action a seat names by its parts (docs/protocol.md section 4.2, an `act` in parts).
    /// Does not check legality: the action is then played as if given as text. By default a game
    /// takes no action in parts.
    ///
    /// # Errors
    /// `ParseError` when the parts name no action of this game.
    fn action_from_parts(&self, parts: &ActionParts) -> Result<Self::Action, ParseError> {
        Err(ParseError::new(
            parts.kind.clone(),
            "this game takes its actions as text",
        ))
    }

    /// The state drawn for a terminal, as `viewer` may see it. `color` allows ANSI colours.
    /// By default the observation as pretty JSON.
    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        let _ = color;
        serde_json::to_string_pretty(&self.observe(viewer)).unwrap_or_default()
    }

    /// What the rules do when `seat` runs out of time: `Some(actions)` to apply in its name (Bataille
    /// Navale's frozen layout or fired plan), or `None` when the seat loses (then the runner calls
    /// `end(Ending::Timeout(seat))`). By default `None`.
    fn timeout_actions(&self, seat: Seat) -> Option<Vec<Self::Action>> {
        let _ = seat;
        None
    }

    /// The game's own clock: the seconds its rules give `seat` for what it has to do now (a turn or a
    /// whole phase), counted from the moment `seat` starts to act and not renewed by its own actions
    /// until it has stopped acting (Bataille Navale: the 90-second placement, the 60-second turn).
    /// `None` when the rules set no clock now; the match runner then uses no clock for `seat`
    /// under the time control `game` (docs/protocol.md section 3.2). By default `None`.
    fn rule_clock_seconds(&self, seat: Seat) -> Option<u32> {
        let _ = seat;
        None
    }

    /// Ends the game early: a timeout loss, a resignation or an agreed stop. Every game must take
    /// `Ending::Resign` from a seat that is to act (the service offers it at every table; the
    /// test kit checks it): that seat acts no more, and a game it ends has an outcome it did not
    /// win. `Ending::Timeout` is for a game whose rule for a spent clock is a loss (else
    /// `timeout_actions`), `Ending::Agreement` for one whose rules have an agreed stop (the lobby
    /// offers it where a new game accepts it).
    ///
    /// # Errors
    /// `IllegalAction::GameOver` after the end; `IllegalAction::Unsupported` when the game has no
    /// such ending (the default for every ending).
    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        Err(IllegalAction::Unsupported {
            what: ending.to_string(),
        })
    }
}
