//! A bot as an object that plays a whole game for one seat, typed (`Bot<G>`) or behind a trait
//! object driven by text (`DynBot`), and the factory the registry keeps for each game.

use std::time::Duration;

use plateau_engine::{DynGame, Game, Record, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::analysis::{Analysis, AnalysisError, AnalysisOptions, Judged, analyse, judge_decision};
use crate::eval::{Evaluator, NoEvaluator, greedy_action, setup_action, worst_action};
use crate::mcts::{Mcts, SearchConfig, SearchStats};
use crate::playout::{PlayoutRate, random_playouts};
use crate::random_action;
use crate::spec::{BotSpec, Budget, Level, Levels};

/// A bot of game `G` for one seat; keep it for the whole game (MCTS reuses its tree).
pub struct Bot<G: Game, E: Evaluator<G> = NoEvaluator> {
    spec: BotSpec,
    kind: Kind<G, E>,
}

enum Kind<G: Game, E: Evaluator<G>> {
    Random(ChaCha8Rng),
    Greedy(ChaCha8Rng, E),
    /// The greedy choice at `greedy_percent` of decisions (`BotSpec::EpsilonGreedy`).
    EpsilonGreedy(ChaCha8Rng, E, u8),
    /// The worst choice at `blunder_percent` of decisions (`BotSpec::Blunder`).
    Blunder(ChaCha8Rng, E, u8),
    /// The setup policy at `setup_percent` of the setup's decisions, the greedy choice at the
    /// others (`BotSpec::Setup`).
    Setup(ChaCha8Rng, E, u8),
    Mcts(Box<Mcts<G, E>>),
    Plain(Box<Mcts<G, NoEvaluator>>),
}

impl<G: Game, E: Evaluator<G>> Bot<G, E> {
    /// The bot `spec`, all of whose randomness comes from `seed`. A level is played by
    /// `Level::default_spec` (the registry's factories play their game's level table instead).
    #[must_use]
    pub fn new(spec: BotSpec, seed: u64, evaluator: E) -> Self {
        let plays = match spec {
            BotSpec::Level(level) => level.default_spec(),
            other => other,
        };
        let kind = match plays {
            // `default_spec` never names a level, so `Level` here is only for completeness.
            BotSpec::Random | BotSpec::Level(_) => Kind::Random(ChaCha8Rng::seed_from_u64(seed)),
            BotSpec::Greedy => Kind::Greedy(ChaCha8Rng::seed_from_u64(seed), evaluator),
            BotSpec::EpsilonGreedy { greedy_percent } => {
                Kind::EpsilonGreedy(ChaCha8Rng::seed_from_u64(seed), evaluator, greedy_percent)
            }
            BotSpec::Blunder { blunder_percent } => {
                Kind::Blunder(ChaCha8Rng::seed_from_u64(seed), evaluator, blunder_percent)
            }
            BotSpec::Setup { setup_percent } => {
                Kind::Setup(ChaCha8Rng::seed_from_u64(seed), evaluator, setup_percent)
            }
            BotSpec::PlainMcts(budget) => {
                Kind::Plain(Box::new(Mcts::new(SearchConfig::with_budget(budget), seed)))
            }
            BotSpec::Mcts(budget) => {
                let config = SearchConfig::with_budget(budget);
                Kind::Mcts(Box::new(Mcts::with_evaluator(config, seed, evaluator)))
            }
            BotSpec::CutMcts { budget, cutoff } => {
                let config = SearchConfig::with_budget(budget);
                let search = Mcts::with_evaluator(config, seed, evaluator)
                    .with_playout_cutoff(usize::from(cutoff));
                Kind::Mcts(Box::new(search))
            }
        };
        Bot { spec, kind }
    }

    /// What the bot is.
    #[must_use]
    pub fn spec(&self) -> BotSpec {
        self.spec
    }

    /// The action for `seat` in `state`, or `None` if it has no legal action. With hidden
    /// information the bot reads only `to_act`, `legal_actions(seat)` and `determinize(seat, ..)`.
    pub fn choose(&mut self, state: &G, seat: Seat) -> Option<G::Action> {
        self.choose_within(state, seat, None)
    }

    /// `choose`, stopping a search after `limit` at the latest whatever its budget (a clock
    /// running out); bots that do not search ignore it.
    pub fn choose_within(
        &mut self,
        state: &G,
        seat: Seat,
        limit: Option<Duration>,
    ) -> Option<G::Action> {
        match &mut self.kind {
            Kind::Random(rng) => random_action(state, seat, rng),
            Kind::Greedy(rng, evaluator) => greedy_action(state, seat, evaluator, rng),
            Kind::EpsilonGreedy(rng, evaluator, greedy_percent) => {
                // One draw per decision, whichever way it goes, keeps the games reproducible.
                if rng.random_range(0..100) < *greedy_percent {
                    greedy_action(state, seat, evaluator, rng)
                } else {
                    random_action(state, seat, rng)
                }
            }
            Kind::Blunder(rng, evaluator, blunder_percent) => {
                if rng.random_range(0..100) < *blunder_percent {
                    worst_action(state, seat, evaluator, rng)
                } else {
                    random_action(state, seat, rng)
                }
            }
            Kind::Setup(rng, evaluator, setup_percent) => {
                if let Some(action) = setup_action(state, seat, evaluator, rng)
                    && (*setup_percent >= 100 || rng.random_range(0..100) < *setup_percent)
                {
                    return Some(action);
                }
                greedy_action(state, seat, evaluator, rng)
            }
            Kind::Mcts(mcts) => mcts.choose_within(state, seat, limit),
            Kind::Plain(mcts) => mcts.choose_within(state, seat, limit),
        }
    }

    /// The last search's figures (zero for bots that do not search).
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        match &self.kind {
            Kind::Mcts(mcts) => mcts.stats(),
            Kind::Plain(mcts) => mcts.stats(),
            _ => SearchStats::default(),
        }
    }
}

/// Why a bot behind `DynBot` gave no action. Each has a stable code for the match service.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum BotError {
    /// The state is not of the game the bot was made for: a runner mixed up its bots.
    #[error("a {bot} bot was given a {state} state")]
    WrongGame {
        /// The bot's game (`GameInfo::name`).
        bot: &'static str,
        /// The state's game.
        state: &'static str,
    },
    /// The seat has no legal action in this state (it is not to act, or the game is over).
    #[error("seat {seat} has no legal action")]
    NoAction {
        /// The seat.
        seat: Seat,
    },
}

impl BotError {
    /// The stable error code: `bot/wrong_game` or `bot/no_action`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            BotError::WrongGame { .. } => "bot/wrong_game",
            BotError::NoAction { .. } => "bot/no_action",
        }
    }
}

/// The typed state behind `state`, or why it is not a `G`.
fn typed<G: Game>(state: &dyn DynGame) -> Result<&G, BotError> {
    state
        .as_any()
        .downcast_ref::<G>()
        .ok_or_else(|| BotError::WrongGame {
            bot: G::INFO.name,
            state: state.info().name,
        })
}

/// A bot for one game behind a trait object, driven by canonical action text: what the command
/// line and the match service keep, one per seat for a whole game (docs/architecture.md
/// section 6).
pub trait DynBot: Send {
    /// What the bot is.
    fn spec(&self) -> BotSpec;
    /// The registry name of the bot's game.
    fn game(&self) -> &'static str;
    /// The action for `seat` in canonical text.
    ///
    /// # Errors
    /// `BotError::WrongGame` when `state` is not of the bot's game, `BotError::NoAction` when
    /// the seat has no legal action.
    fn act(&mut self, state: &dyn DynGame, seat: Seat) -> Result<String, BotError> {
        self.act_within(state, seat, None)
    }
    /// `act`, with a search stopped after `limit` at the latest whatever the bot's budget: what
    /// a match runner calls with the time left on a seat's clock, less a margin.
    ///
    /// # Errors
    /// As `act`.
    fn act_within(
        &mut self,
        state: &dyn DynGame,
        seat: Seat,
        limit: Option<Duration>,
    ) -> Result<String, BotError>;
    /// The last search's figures.
    fn stats(&self) -> SearchStats;
}

impl<G: Game, E: Evaluator<G>> DynBot for Bot<G, E> {
    fn spec(&self) -> BotSpec {
        self.spec
    }

    fn game(&self) -> &'static str {
        G::INFO.name
    }

    fn act_within(
        &mut self,
        state: &dyn DynGame,
        seat: Seat,
        limit: Option<Duration>,
    ) -> Result<String, BotError> {
        let state = typed::<G>(state)?;
        let action = self
            .choose_within(state, seat, limit)
            .ok_or(BotError::NoAction { seat })?;
        Ok(state.format_action(&action))
    }

    fn stats(&self) -> SearchStats {
        Bot::stats(self)
    }
}

/// A level's bot: the game's bot for the level, answering to the level's name. Made at its first
/// decision, when the state tells the seat count (`BotFactory::level_spec_at`); made again should
/// a state of another seat count come.
struct Named {
    spec: BotSpec,
    level: Level,
    seed: u64,
    factory: BotFactory,
    /// The seat count it was made for, and the bot.
    bot: Option<(usize, Box<dyn DynBot>)>,
}

impl DynBot for Named {
    fn spec(&self) -> BotSpec {
        self.spec
    }

    fn game(&self) -> &'static str {
        self.factory.game
    }

    fn act_within(
        &mut self,
        state: &dyn DynGame,
        seat: Seat,
        limit: Option<Duration>,
    ) -> Result<String, BotError> {
        let seats = state.seats();
        let bot = match &mut self.bot {
            Some((n, bot)) if *n == seats => bot,
            slot => {
                let plays = self.factory.level_spec_at(self.level, seats);
                &mut slot
                    .insert((seats, (self.factory.make)(plays, self.seed)))
                    .1
            }
        };
        bot.act_within(state, seat, limit)
    }

    fn stats(&self) -> SearchStats {
        self.bot
            .as_ref()
            .map_or_else(SearchStats::default, |(_, bot)| bot.stats())
    }
}

/// Makes bots of one game: the registry keeps one per game (one line each).
#[derive(Clone, Copy, Debug)]
pub struct BotFactory {
    game: &'static str,
    /// The game's levels, weakest first (`Level::default_spec` plays them when `None`).
    levels: Option<&'static Levels>,
    /// Level tables for other seat counts than the game's usual one (`with_seat_levels`).
    seat_levels: &'static [(usize, &'static Levels)],
    make: fn(BotSpec, u64) -> Box<dyn DynBot>,
    playouts: fn(&dyn DynGame, Duration, u64) -> Result<PlayoutRate, BotError>,
    analyse: AnalyseFn,
    judge: JudgeFn,
}

/// `analysis::judge_decision` for one game, behind the factory, the action as text.
type JudgeFn = fn(&dyn DynGame, Seat, &str, Budget, f64, u64) -> Result<Option<Judged>, BotError>;

/// `judge_decision` with `evaluator`, for a state and an action given untyped.
fn dyn_judge<G: Game, E: Evaluator<G> + Clone>(
    state: &dyn DynGame,
    seat: Seat,
    action: &str,
    judge: Budget,
    recheck: f64,
    seed: u64,
    evaluator: &E,
) -> Result<Option<Judged>, BotError> {
    let state = typed::<G>(state)?;
    let Ok(action) = state.parse_action(action) else {
        return Ok(None);
    };
    Ok(judge_decision(
        state, seat, &action, judge, recheck, seed, evaluator,
    ))
}

/// `analysis::analyse` for one game, behind the factory.
type AnalyseFn =
    fn(&Record, &AnalysisOptions, &mut dyn FnMut(usize, usize)) -> Result<Analysis, AnalysisError>;

/// `random_playouts` behind the factory.
fn dyn_playouts<G: Game>(
    state: &dyn DynGame,
    budget: Duration,
    seed: u64,
) -> Result<PlayoutRate, BotError> {
    Ok(random_playouts(
        typed::<G>(state)?,
        budget,
        PLAYOUT_BOUND,
        seed,
    ))
}

/// The longest random game `BotFactory::random_playouts` plays, in actions.
const PLAYOUT_BOUND: usize = 100_000;

impl BotFactory {
    /// Bots of `G` without evaluator (greedy then only takes immediate wins).
    #[must_use]
    pub const fn of<G: Game>() -> Self {
        BotFactory {
            game: G::INFO.name,
            levels: None,
            seat_levels: &[],
            make: |spec, seed| Box::new(Bot::<G, NoEvaluator>::new(spec, seed, NoEvaluator)),
            playouts: dyn_playouts::<G>,
            analyse: |record, options, progress| {
                analyse::<G, _>(record, options, &NoEvaluator, progress)
            },
            judge: |state, seat, action, judge, recheck, seed| {
                dyn_judge::<G, _>(state, seat, action, judge, recheck, seed, &NoEvaluator)
            },
        }
    }

    /// Bots of `G` that use the evaluator `E` (greedy look-ahead, playout cut-off).
    #[must_use]
    pub const fn with_evaluator<G: Game, E: Evaluator<G> + Default + Clone>() -> Self {
        BotFactory {
            game: G::INFO.name,
            levels: None,
            seat_levels: &[],
            make: |spec, seed| Box::new(Bot::<G, E>::new(spec, seed, E::default())),
            playouts: dyn_playouts::<G>,
            analyse: |record, options, progress| {
                analyse::<G, E>(record, options, &E::default(), progress)
            },
            judge: |state, seat, action, judge, recheck, seed| {
                dyn_judge::<G, E>(state, seat, action, judge, recheck, seed, &E::default())
            },
        }
    }

    /// The same factory with the game's level table (weakest first): its bots play the named
    /// levels, and the registry reads their think times and ratings from it.
    #[must_use]
    pub const fn with_levels(mut self, levels: &'static Levels) -> Self {
        self.levels = Some(levels);
        self
    }

    /// The same factory with level tables for other seat counts, `(seats, table)`: at a table of
    /// that many seats a level plays its bot from there (a game whose ladder needs other bots
    /// with more opponents); at any other seat count, the `with_levels` table.
    #[must_use]
    pub const fn with_seat_levels(mut self, tables: &'static [(usize, &'static Levels)]) -> Self {
        self.seat_levels = tables;
        self
    }

    /// The level table that plays at `seats` seats: its own from `with_seat_levels`, else the
    /// game's table (`levels`).
    #[must_use]
    pub fn levels_at(&self, seats: usize) -> Option<&'static Levels> {
        self.seat_levels
            .iter()
            .find(|(n, _)| *n == seats)
            .map(|(_, t)| *t)
            .or(self.levels)
    }

    /// The game's level table, if it has one (`with_levels`).
    #[must_use]
    pub fn levels(&self) -> Option<&'static Levels> {
        self.levels
    }

    /// The registry name of the game (`GameInfo::name`).
    #[must_use]
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The bot that plays `level` in this game (at its usual seat count: the `with_levels` table).
    #[must_use]
    pub fn level_spec(&self, level: Level) -> BotSpec {
        self.levels
            .map_or_else(|| level.default_spec(), |t| t[level as usize].spec)
    }

    /// The bot that plays `level` at a table of `seats` seats (`levels_at`).
    #[must_use]
    pub fn level_spec_at(&self, level: Level, seats: usize) -> BotSpec {
        self.levels_at(seats)
            .map_or_else(|| level.default_spec(), |t| t[level as usize].spec)
    }

    /// What `spec` plays in this game: a level's bot (`level_spec`), any other spec itself.
    #[must_use]
    pub fn resolve(&self, spec: BotSpec) -> BotSpec {
        match spec {
            BotSpec::Level(level) => self.level_spec(level),
            other => other,
        }
    }

    /// A new bot `spec` seeded with `seed`, to keep for a whole game (one per seat); a level
    /// plays its game's bot for the seat count of the states it is given (`level_spec_at`), and
    /// the bot's `spec()` is the level.
    #[must_use]
    pub fn make(&self, spec: BotSpec, seed: u64) -> Box<dyn DynBot> {
        match spec {
            BotSpec::Level(level) => Box::new(Named {
                spec,
                level,
                seed,
                factory: *self,
                bot: None,
            }),
            other => (self.make)(other, seed),
        }
    }

    /// Analyses a finished (or unfinished) game of this factory's game with its registered
    /// search as the judge (`analysis::analyse`, whose documentation says how), calling
    /// `progress(done, total)` after each judged decision.
    ///
    /// # Errors
    /// `AnalysisError` when `record` is of another game or does not replay.
    pub fn analyse(
        &self,
        record: &Record,
        options: &AnalysisOptions,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Analysis, AnalysisError> {
        (self.analyse)(record, options, progress)
    }

    /// The analysis's judgement of `seat` playing `action` (canonical text) in `state`, by
    /// searches of `judge` seeded from `seed` with the game's evaluation, with the second opinion
    /// from a loss of `recheck` (`analysis::judge_decision`); `None` when the text is not a
    /// legal action of the seat.
    ///
    /// # Errors
    /// `BotError::WrongGame` if `state` is not of this factory's game.
    pub fn judge(
        &self,
        state: &dyn DynGame,
        seat: Seat,
        action: &str,
        judge: Budget,
        recheck: f64,
        seed: u64,
    ) -> Result<Option<Judged>, BotError> {
        (self.judge)(state, seat, action, judge, recheck, seed)
    }

    /// Uniformly random games from `state` for about `budget` (single thread, typed, no text):
    /// the playout throughput of `plateau bench`.
    ///
    /// # Errors
    /// `BotError::WrongGame` if `state` is not of this factory's game.
    pub fn random_playouts(
        &self,
        state: &dyn DynGame,
        budget: Duration,
        seed: u64,
    ) -> Result<PlayoutRate, BotError> {
        (self.playouts)(state, budget, seed)
    }
}
