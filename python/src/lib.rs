//! `plateau._plateau`: the extension module under the Python package `plateau` (python/README.md).
//!
//! A thin layer over the engine's text-driven view of a game (`DynGame`, docs/architecture.md
//! section 2.4): actions go in and out as their canonical text, observations as JSON, states as
//! their serialized form (section 2.2), and as ids of a fixed action space per game (`actions`,
//! from the engine's typed actions). The Python package builds the rest (tensors, the OpenSpiel
//! bridge) on these few calls, so no rule is written twice.

use std::sync::Mutex;

mod actions;

use actions::Codec;

use plateau_bots::{BotSpec, DynBot};
use plateau_engine::chance::Seed;
use plateau_engine::driver::{Driver, Next};
use plateau_engine::{
    Actor, DynGame, Event, GameEntry, LogEntry, Record, Seat, ToAct, Viewer, Visitor,
};
use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The registry's entry of `game`, or `KeyError` naming the known games.
fn entry(game: &str) -> PyResult<&'static GameEntry> {
    plateau_registry::find(game).map_err(|e| PyKeyError::new_err(e.to_string()))
}

/// A config given as JSON text (`None`: the game's default).
fn config(text: Option<&str>) -> PyResult<Value> {
    text.map_or(Ok(Value::Null), |t| {
        serde_json::from_str(t).map_err(|e| PyValueError::new_err(format!("config: {e}")))
    })
}

fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A seat number from Python, checked against the table.
fn seat(state: &dyn DynGame, seat: usize) -> PyResult<Seat> {
    if seat < state.seats() {
        Ok(Seat(seat as u8))
    } else {
        Err(PyValueError::new_err(format!(
            "no seat {seat} at a table of {} (seats count from 0)",
            state.seats()
        )))
    }
}

/// Every registered game as a JSON text: a list of objects with `name`, `title`, `min_seats`,
/// `max_seats`, `default_seats`, `chance`, `hidden_information`, `simultaneous`,
/// `default_config` (an object) and `levels` (seat count -> the five levels, weakest first, each
/// `{"level", "bot", "rating"}`).
#[pyfunction]
fn games_json() -> String {
    let games: Vec<Value> = plateau_registry::GAMES
        .iter()
        .map(|g| {
            let info = g.info;
            let levels: serde_json::Map<String, Value> = (info.min_seats..=info.max_seats)
                .filter_map(|n| {
                    let table = plateau_registry::bot_factory(info.name).ok()?.levels_at(n)?;
                    let rows = table
                        .iter()
                        .map(|l| {
                            json!({"level": l.level.name(), "bot": l.spec.to_string(), "rating": l.rating})
                        })
                        .collect();
                    Some((n.to_string(), Value::Array(rows)))
                })
                .collect();
            json!({
                "name": info.name,
                "title": info.title,
                "min_seats": info.min_seats,
                "max_seats": info.max_seats,
                "default_seats": info.default_seats,
                "chance": info.chance,
                "hidden_information": info.hidden_information,
                "simultaneous": info.simultaneous,
                "default_config": g.default_config(),
                "levels": levels,
            })
        })
        .collect();
    Value::Array(games).to_string()
}

/// One state of one game. Seats count from 0; an action is its canonical text (rules/<game>.md).
#[pyclass(module = "plateau._plateau")]
struct State {
    entry: &'static GameEntry,
    codec: &'static dyn Codec,
    state: Box<dyn DynGame>,
}

impl State {
    fn wrap(entry: &'static GameEntry, state: Box<dyn DynGame>) -> State {
        let codec = actions::codec(entry.info.name).expect("every registered game has action ids");
        State {
            entry,
            codec,
            state,
        }
    }
}

#[pymethods]
impl State {
    /// The initial state of `game` (`"mad"`, ...) with `config` (JSON text, `None` for the
    /// default) and `seats` seats (`None` for the game's usual count).
    ///
    /// Raises `KeyError` for an unknown game, `ValueError` for a bad config or seat count.
    #[new]
    #[pyo3(signature = (game, config=None, seats=None))]
    fn new(game: &str, config: Option<&str>, seats: Option<usize>) -> PyResult<State> {
        let entry = entry(game)?;
        let seats = seats.unwrap_or(entry.info.default_seats);
        let state = entry
            .new_game(&self::config(config)?, seats)
            .map_err(value_error)?;
        Ok(State::wrap(entry, state))
    }

    /// The state of `game` given by its position text (the game's notation), checked as the
    /// rules would; `ValueError` names the token that does not read or the part that cannot be.
    #[staticmethod]
    #[pyo3(signature = (game, position, config=None))]
    fn from_position(game: &str, position: &str, config: Option<&str>) -> PyResult<State> {
        let entry = entry(game)?;
        let state = entry
            .from_position(&self::config(config)?, position)
            .map_err(value_error)?;
        Ok(State::wrap(entry, state))
    }

    /// The state serialized by `to_json` (its config, position and the facts the position text
    /// does not hold), checked as a position is.
    #[staticmethod]
    fn from_json(game: &str, text: &str) -> PyResult<State> {
        let entry = entry(game)?;
        let state = entry.from_state_json(text).map_err(value_error)?;
        Ok(State::wrap(entry, state))
    }

    /// The final state of a game record (the JSON a match or `plateau play --record` writes, or
    /// the text form a replay page exports), every action checked by the rules and every chance
    /// outcome redrawn from the seed when the record reveals it.
    #[staticmethod]
    fn from_record(record: &str) -> PyResult<State> {
        let record = read_record(record)?;
        let entry = entry(&record.game)?;
        let replay = record.replay(entry).map_err(value_error)?;
        Ok(State::wrap(entry, replay.state))
    }

    /// The seat decisions of a game record (the forms `from_record` reads), replayed and checked
    /// as `from_record` does: a list of `(seat, state before the action, action text)`, one per
    /// seat action in the log's order (chance outcomes and early endings are not decisions), and
    /// the final state.
    #[staticmethod]
    fn record_decisions(record: &str) -> PyResult<(Vec<Decision>, State)> {
        let record = read_record(record)?;
        let entry = entry(&record.game)?;
        let mut visitor = Decisions {
            entry,
            decisions: Vec::new(),
        };
        let replay = record
            .replay_with(entry, &mut visitor)
            .map_err(value_error)?;
        Ok((visitor.decisions, State::wrap(entry, replay.state)))
    }

    /// The registry name of the game.
    #[getter]
    fn game(&self) -> &'static str {
        self.entry.info.name
    }

    /// The number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.state.seats()
    }

    /// Who acts: `("player", [seat])`, `("simultaneous", [seats...])` (each of them may act, in
    /// any order), `("chance", [])` or `("terminal", [])`.
    fn to_act(&self) -> (&'static str, Vec<usize>) {
        match self.state.to_act() {
            ToAct::Player(s) => ("player", vec![s.index()]),
            ToAct::Simultaneous(set) => ("simultaneous", set.iter().map(Seat::index).collect()),
            ToAct::Chance => ("chance", Vec::new()),
            ToAct::Terminal => ("terminal", Vec::new()),
        }
    }

    /// The legal actions of `seat` in canonical text, sorted by byte order (empty when it may not
    /// act).
    fn legal_actions(&self, seat: usize) -> PyResult<Vec<String>> {
        Ok(self.state.legal_texts(self::seat(&*self.state, seat)?))
    }

    /// How many action ids the game has (python/README.md, "Action ids"): every id of a seat's
    /// action, in any state, configuration or seat count, is below it.
    #[getter]
    fn num_actions(&self) -> u32 {
        self.codec.size()
    }

    /// The ids of `seat`'s legal actions, increasing (empty when it may not act).
    fn legal_ids(&self, seat: usize) -> PyResult<Vec<u32>> {
        Ok(self
            .codec
            .legal_ids(&*self.state, self::seat(&*self.state, seat)?))
    }

    /// The digest of `seat`'s legal ids in increasing order, as `random_game_json` writes it:
    /// the same check as hashing `legal_ids` in Python, without building the list there.
    fn legal_digest(&self, seat: usize) -> PyResult<u64> {
        let ids = self
            .codec
            .legal_ids(&*self.state, self::seat(&*self.state, seat)?);
        Ok(ids_digest(&ids))
    }

    /// `seat`'s legal actions as `(id, text)`, ids increasing.
    fn legal_by_id(&self, seat: usize) -> PyResult<Vec<(u32, String)>> {
        Ok(self
            .codec
            .legal(&*self.state, self::seat(&*self.state, seat)?))
    }

    /// The id of the seat's action written `text` (whether legal here or not); `ValueError` for
    /// text that does not read or names a chance outcome.
    fn action_id(&self, text: &str) -> PyResult<u32> {
        self.codec
            .id_of(&*self.state, text)
            .map_err(PyValueError::new_err)
    }

    /// The text of action `id`: `seat`'s legal action of that id when there is one (a MAD
    /// movement then says whether it expels), else the action the id names in the game's
    /// notation. `ValueError` for an id past `num_actions`.
    #[pyo3(signature = (id, seat=None))]
    fn action_text(&self, id: u32, seat: Option<usize>) -> PyResult<String> {
        // Where the id's text is the legal list's, no legal list is built (pyspiel asks for the
        // text of each of Bataille Navale's 2,000 placement moves).
        if let Some(seat) = seat {
            let seat = self::seat(&*self.state, seat)?;
            if !self.codec.exact()
                && let Some(text) = self.codec.legal_text(&*self.state, seat, id)
            {
                return Ok(text);
            }
        }
        self.codec.text_of(&*self.state, id).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no action has id {id} (ids run from 0 to {})",
                self.codec.size() - 1
            ))
        })
    }

    /// Plays `seat`'s legal action `id` and returns its text. `ValueError` when it is not legal
    /// (the state is then unchanged), naming the action.
    fn apply_id(&mut self, seat: usize, id: u32) -> PyResult<String> {
        let seat = self::seat(&*self.state, seat)?;
        // The text the id names, played as the rules check any action: no legal list is built
        // (Bataille Navale's run to 2,000). Where the text is not the legal one (a MAD movement
        // that expels is written with `x`) the legal list says which it is.
        if let Some(text) = self.codec.text_of(&*self.state, id)
            && self.state.apply_text(Actor::Seat(seat), &text).is_ok()
        {
            return Ok(text);
        }
        let Some(text) = self.codec.legal_text(&*self.state, seat, id) else {
            let named = self
                .codec
                .text_of(&*self.state, id)
                .unwrap_or_else(|| format!("#{id}"));
            return Err(PyValueError::new_err(format!(
                "action {id} ({named}) is not legal for seat {} here",
                seat.index()
            )));
        };
        self.state
            .apply_text(Actor::Seat(seat), &text)
            .map_err(value_error)?;
        Ok(text)
    }

    /// How `viewer` (`None`: a spectator) sees the action `text` of `seat` (`None`: chance) in
    /// its move list, played in this state: the game's move-list form, or `None` when the viewer
    /// must not learn of it (docs/protocol.md section 4.1, `moves`). `ValueError` for text that
    /// does not read.
    #[pyo3(signature = (seat, text, viewer=None))]
    fn display_text(
        &self,
        seat: Option<usize>,
        text: &str,
        viewer: Option<usize>,
    ) -> PyResult<Option<String>> {
        let actor = match seat {
            Some(s) => Actor::Seat(self::seat(&*self.state, s)?),
            None => Actor::Chance,
        };
        self.state
            .display_text(actor, text, self.viewer(viewer)?)
            .map_err(value_error)
    }

    /// `legal_actions` with each action's parts as a JSON object (docs/protocol.md section 4.1:
    /// `kind`, `from`, `to`, `cells`, `pieces`, `choice`, `target`, `then`), in the same order:
    /// what a program puts in words without reading notation.
    fn legal_info(&self, seat: usize) -> PyResult<Vec<(String, String)>> {
        let seat = self::seat(&*self.state, seat)?;
        Ok(self
            .state
            .legal_info(seat)
            .into_iter()
            .map(|(text, info)| {
                let parts = serde_json::to_string(&info).expect("action parts serialize");
                (text, parts)
            })
            .collect())
    }

    /// The chance outcomes as `(text, probability)`, in the game's order (empty unless at a
    /// chance node); the probabilities are positive and sum to 1.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.state.chance_texts()
    }

    /// Plays `action` (canonical text) for `seat`, or a chance outcome when `seat` is `None`.
    /// Raises `ValueError` (why, in words) for text that does not read or an action that is not
    /// legal; the state is then unchanged.
    #[pyo3(signature = (seat, action))]
    fn apply(&mut self, seat: Option<usize>, action: &str) -> PyResult<()> {
        let actor = match seat {
            Some(s) => Actor::Seat(self::seat(&*self.state, s)?),
            None => Actor::Chance,
        };
        self.state.apply_text(actor, action).map_err(value_error)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.state.to_act() == ToAct::Terminal
    }

    /// The result once the game is over: `(ranks, scores, kind)`, ranks from 1 (shared on a
    /// tie), the game's scores, and the kind of ending (`"corvette"`, ...); `None` before.
    fn outcome(&self) -> Option<(Vec<u32>, Vec<f64>, String)> {
        self.state.outcome().map(|o| {
            let ranks = o.ranks.iter().map(|&r| u32::from(r)).collect();
            (ranks, o.scores.clone(), o.kind.clone())
        })
    }

    /// Each seat's result in [0, 1] once the game is over (the share of the other seats it beat,
    /// a tie counting half: `Outcome::utility`); they sum to seats / 2. `None` before the end.
    fn utilities(&self) -> Option<Vec<f64>> {
        self.state
            .outcome()
            .map(|o| Seat::all(o.seats()).map(|s| o.utility(s)).collect())
    }

    /// What `seat` may know (`None`: a spectator), as the game's observation JSON text, the view
    /// the match service sends that seat.
    #[pyo3(signature = (seat=None))]
    fn observation_json(&self, seat: Option<usize>) -> PyResult<String> {
        Ok(self.state.observe_text(self.viewer(seat)?))
    }

    /// What `seat` may know (`None`: a spectator), drawn as text for a terminal, without colour.
    #[pyo3(signature = (seat=None))]
    fn observation_text(&self, seat: Option<usize>) -> PyResult<String> {
        Ok(self.state.render_text(self.viewer(seat)?, false))
    }

    /// The canonical position text (the game's notation); `from_position` reads it back.
    fn position(&self) -> String {
        self.state.position_text()
    }

    /// The whole state as JSON text; `from_json` reads it back into an equal state.
    fn to_json(&self) -> String {
        self.state.state_json()
    }

    /// A state drawn from those `seat` cannot tell apart from this one, its hidden parts sampled
    /// from `seat`'s knowledge with a generator seeded by `seed` (a copy in a game without hidden
    /// information).
    fn determinize(&self, seat: usize, seed: u64) -> PyResult<State> {
        let seat = self::seat(&*self.state, seat)?;
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        Ok(State::wrap(
            self.entry,
            self.state.determinize_box(seat, &mut rng),
        ))
    }

    /// A copy.
    fn clone(&self) -> State {
        State::wrap(self.entry, self.state.clone())
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Pickles as its game and `to_json` text, read back by `from_json`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let from_json = py.get_type::<State>().getattr("from_json")?;
        Ok((from_json, (self.game(), self.to_json())))
    }

    fn __str__(&self) -> String {
        self.state.position_text()
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, {:?})", self.game(), self.state.position_text())
    }

    /// Uniformly random games from this state through the engine's typed driver, single thread,
    /// for about `seconds` (at least one game): `(games, actions, seconds taken)`, the figure
    /// `plateau bench` prints.
    fn rust_random_playouts(&self, seconds: f64, seed: u64) -> PyResult<(u64, u64, f64)> {
        let factory = plateau_registry::bot_factory(self.game()).map_err(value_error)?;
        let budget = std::time::Duration::from_secs_f64(seconds.max(0.0));
        let rate = factory
            .random_playouts(&*self.state, budget, seed)
            .map_err(value_error)?;
        Ok((rate.playouts, rate.actions, rate.elapsed.as_secs_f64()))
    }
}

/// A record in either form: its JSON, or the text form a replay page exports.
fn read_record(text: &str) -> PyResult<Record> {
    if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(value_error)
    } else {
        Record::from_text(text).map_err(value_error)
    }
}

/// One seat action of a record: the seat, the state it was played in, its text.
type Decision = (usize, State, String);

/// Collects each seat action of a replayed log with the state it was played in.
struct Decisions {
    entry: &'static GameEntry,
    decisions: Vec<Decision>,
}

impl Visitor for Decisions {
    fn before(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if let Event::Action {
            by: Actor::Seat(seat),
            action,
        } = &logged.event
        {
            let before = State::wrap(self.entry, state.clone_box());
            self.decisions.push((seat.index(), before, action.clone()));
        }
        Ok(())
    }
}

impl State {
    fn viewer(&self, seat: Option<usize>) -> PyResult<Viewer> {
        Ok(match seat {
            Some(s) => Viewer::Seat(self::seat(&*self.state, s)?),
            None => Viewer::Spectator,
        })
    }
}

/// A bot of the registry for one game, kept for a whole game and one seat (its search keeps its
/// tree between moves): `random`, `greedy`, `greedy:<percent>`, `blunder:<percent>`, a level
/// (`beginner` .. `expert`), `mcts:<ms>` or `mcts:i<iterations>` (docs/bots.md).
#[pyclass(module = "plateau._plateau")]
struct Bot {
    spec: String,
    game: &'static str,
    bot: Mutex<Box<dyn DynBot>>,
}

#[pymethods]
impl Bot {
    /// The bot `spec` for `game`, seeded with `seed`. `KeyError` for an unknown game,
    /// `ValueError` for a spec that does not read.
    #[new]
    fn new(game: &str, spec: &str, seed: u64) -> PyResult<Bot> {
        let game = entry(game)?.info.name;
        let parsed: BotSpec = spec.parse().map_err(value_error)?;
        let bot = plateau_registry::new_bot(game, parsed, seed).map_err(value_error)?;
        Ok(Bot {
            spec: parsed.to_string(),
            game,
            bot: Mutex::new(bot),
        })
    }

    /// The bot's spec as text.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The bot's game.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The action the bot plays for `seat` in `state` (canonical text), from what that seat may
    /// know only. `ValueError` for a state of another game or a seat with nothing to play.
    fn act(&self, py: Python<'_>, state: &State, seat: usize) -> PyResult<String> {
        let seat = self::seat(&*state.state, seat)?;
        let game = &*state.state;
        let mut guard = self
            .bot
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the bot failed in an earlier call"))?;
        let bot: &mut Box<dyn DynBot> = &mut guard;
        // The search runs without the interpreter's lock, so other Python threads go on.
        py.detach(|| bot.act(game, seat)).map_err(value_error)
    }
}

/// A uniformly random game through the engine's driver (chance drawn as a match draws it, one
/// `f64` per chance node from a ChaCha20 generator seeded with `seed`; each seat's action drawn
/// uniformly from its legal list), as a JSON text of parallel lists, one entry per step:
/// `{"actors": [seat, or -1 for chance], "actions": [the seat's action id, or the outcome's
/// position in the chance list], "legal": [digest], "positions": [digest or null], "ranks",
/// "utilities"}`. `legal` is, at a seat's step, the digest of its legal ids in increasing order
/// (each as 4 bytes little-endian), at a chance step that of its outcomes in order (each its text,
/// a zero byte and its probability as 8 bytes little-endian); `positions` the digest of the
/// position text after the step, at every `position_every`-th step and the last (null at the
/// others). A digest is the first 8 bytes of the SHA-256 of those bytes, read as a little-endian
/// integer. At a simultaneous node the lowest seat of the set acts, as the driver's random
/// playouts do. What the package's tests hold the OpenSpiel bridge to, game by game.
#[pyfunction]
#[pyo3(signature = (game, seed, config=None, seats=None, max_actions=100_000, position_every=1))]
fn random_game_json(
    game: &str,
    seed: u64,
    config: Option<&str>,
    seats: Option<usize>,
    max_actions: usize,
    position_every: usize,
) -> PyResult<String> {
    let entry = entry(game)?;
    let codec = actions::codec(entry.info.name).expect("every registered game has action ids");
    let mut state = entry
        .new_game(
            &self::config(config)?,
            seats.unwrap_or(entry.info.default_seats),
        )
        .map_err(value_error)?;
    let mut rng = Seed::from_u64(seed).rng();
    let mut driver: Driver<String> = Driver::checked();
    let (mut actors, mut ids, mut legal, mut positions) = (vec![], vec![], vec![], vec![]);
    for step in 0..max_actions {
        match driver.next(&*state, |_, seats| seats.lowest()) {
            Next::Over => break,
            Next::Chance => {
                let mut bytes = Vec::new();
                for (text, p) in state.chance_texts() {
                    bytes.extend_from_slice(text.as_bytes());
                    bytes.push(0);
                    bytes.extend_from_slice(&p.to_le_bytes());
                }
                let (index, _) = driver.draw(&mut *state, &mut rng).map_err(value_error)?;
                actors.push(-1);
                ids.push(index as u32);
                legal.push(digest(&bytes));
            }
            Next::Seat(seat) => {
                let listed = codec.legal_ids(&*state, seat);
                let action = state
                    .random_action(seat, &mut rng)
                    .ok_or_else(|| PyRuntimeError::new_err("a seat to act has no action"))?;
                let id = codec
                    .id_of(&*state, &action)
                    .map_err(PyRuntimeError::new_err)?;
                driver
                    .play(&mut *state, seat, &action)
                    .map_err(value_error)?;
                actors.push(seat.index() as i32);
                ids.push(id);
                legal.push(ids_digest(&listed));
            }
        }
        let due = (step + 1) % position_every.max(1) == 0 || state.to_act() == ToAct::Terminal;
        positions.push(due.then(|| digest(state.position_text().as_bytes())));
    }
    let outcome = state.outcome();
    Ok(json!({
        "actors": actors,
        "actions": ids,
        "legal": legal,
        "positions": positions,
        "ranks": outcome.as_ref().map(|o| o.ranks.iter().map(|&r| u32::from(r)).collect::<Vec<_>>()),
        "utilities": outcome.as_ref().map(|o| Seat::all(o.seats()).map(|s| o.utility(s)).collect::<Vec<_>>()),
    })
    .to_string())
}

/// The digest of action ids: of each as 4 bytes little-endian, in order.
fn ids_digest(ids: &[u32]) -> u64 {
    let bytes: Vec<u8> = ids.iter().flat_map(|id| id.to_le_bytes()).collect();
    digest(&bytes)
}

/// The first 8 bytes of the SHA-256 of `bytes`, as a little-endian integer.
fn digest(bytes: &[u8]) -> u64 {
    let hash = Sha256::digest(bytes);
    u64::from_le_bytes(hash[..8].try_into().expect("a SHA-256 has 32 bytes"))
}

/// The extension module.
#[pymodule]
fn _plateau(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(random_game_json, m)?)?;
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    Ok(())
}
