//! `plateau.State`: one state of one game, over the engine's `DynGame` (docs/architecture.md
//! section 2.4), its actions as texts and as ids of the game's action space (`actions`).

use plateau_engine::{
    Actor, DynGame, Event, GameEntry, LogEntry, Record, Seat, ToAct, Viewer, Visitor,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::actions::{self, Codec};
use crate::args::{config, entry, seat, value_error};
use crate::digest::{ids_digest, outcomes_digest};

/// One state of one game. Seats count from 0; an action is its canonical text (rules/<game>.md).
#[pyclass(module = "plateau._plateau")]
pub(crate) struct State {
    entry: &'static GameEntry,
    codec: &'static dyn Codec,
    pub(crate) state: Box<dyn DynGame>,
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

    /// The digest of the chance outcomes, as `random_game_json` writes it: the same check as
    /// hashing `chance_outcomes` in Python, without building the list there.
    fn chance_digest(&self) -> u64 {
        outcomes_digest(&self.state.chance_texts())
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
