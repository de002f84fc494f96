//! A bot as an object that plays a whole game for one seat, typed (`Bot<G>`) or behind a trait
//! object driven by text (`DynBot`), and the factory the registry keeps for each game.

use std::time::Duration;

use plateau_engine::{DynGame, Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::eval::{Evaluator, NoEvaluator, greedy_action};
use crate::mcts::{Mcts, SearchConfig, SearchStats};
use crate::playout::{PlayoutRate, random_playouts};
use crate::random_action;
use crate::spec::BotSpec;

/// A bot of game `G` for one seat; keep it for the whole game (MCTS reuses its tree).
pub struct Bot<G: Game, E: Evaluator<G> = NoEvaluator> {
    spec: BotSpec,
    kind: Kind<G, E>,
}

enum Kind<G: Game, E: Evaluator<G>> {
    Random(ChaCha8Rng),
    Greedy(ChaCha8Rng, E),
    Mcts(Box<Mcts<G, E>>),
    Plain(Box<Mcts<G, NoEvaluator>>),
}

impl<G: Game, E: Evaluator<G>> Bot<G, E> {
    /// The bot `spec`, all of whose randomness comes from `seed`.
    #[must_use]
    pub fn new(spec: BotSpec, seed: u64, evaluator: E) -> Self {
        let kind = match spec {
            BotSpec::Random => Kind::Random(ChaCha8Rng::seed_from_u64(seed)),
            BotSpec::Greedy => Kind::Greedy(ChaCha8Rng::seed_from_u64(seed), evaluator),
            BotSpec::PlainMcts(budget) => {
                Kind::Plain(Box::new(Mcts::new(SearchConfig::with_budget(budget), seed)))
            }
            BotSpec::Mcts(_) | BotSpec::Level(_) => {
                let budget = spec.budget().expect("searching bots have a budget");
                let config = SearchConfig::with_budget(budget);
                Kind::Mcts(Box::new(Mcts::with_evaluator(config, seed, evaluator)))
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
        match &mut self.kind {
            Kind::Random(rng) => random_action(state, seat, rng),
            Kind::Greedy(rng, evaluator) => greedy_action(state, seat, evaluator, rng),
            Kind::Mcts(mcts) => mcts.choose(state, seat),
            Kind::Plain(mcts) => mcts.choose(state, seat),
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

/// A bot for whatever game the state is, driven by canonical action text.
pub trait DynBot: Send {
    /// What the bot is.
    fn spec(&self) -> BotSpec;
    /// The action for `seat` in canonical text; `None` if the seat has no legal action or `state`
    /// is not of the game this bot was made for.
    fn act(&mut self, state: &dyn DynGame, seat: Seat) -> Option<String>;
    /// The last search's figures.
    fn stats(&self) -> SearchStats;
}

impl<G: Game, E: Evaluator<G>> DynBot for Bot<G, E> {
    fn spec(&self) -> BotSpec {
        self.spec
    }

    fn act(&mut self, state: &dyn DynGame, seat: Seat) -> Option<String> {
        let state = state.as_any().downcast_ref::<G>()?;
        let action = self.choose(state, seat)?;
        Some(state.format_action(&action))
    }

    fn stats(&self) -> SearchStats {
        Bot::stats(self)
    }
}

/// Makes bots of one game: the registry keeps one per game (one line each).
#[derive(Clone, Copy, Debug)]
pub struct BotFactory {
    game: &'static str,
    make: fn(BotSpec, u64) -> Box<dyn DynBot>,
    playouts: fn(&dyn DynGame, Duration, u64) -> Option<PlayoutRate>,
}

/// `random_playouts` behind the factory: `None` if the state is not a `G`.
fn dyn_playouts<G: Game>(state: &dyn DynGame, budget: Duration, seed: u64) -> Option<PlayoutRate> {
    let state = state.as_any().downcast_ref::<G>()?;
    Some(random_playouts(state, budget, PLAYOUT_BOUND, seed))
}

/// The longest random game `BotFactory::random_playouts` plays, in actions.
const PLAYOUT_BOUND: usize = 100_000;

impl BotFactory {
    /// Bots of `G` without evaluator (greedy then only takes immediate wins).
    #[must_use]
    pub const fn of<G: Game>() -> Self {
        BotFactory {
            game: G::INFO.name,
            make: |spec, seed| Box::new(Bot::<G, NoEvaluator>::new(spec, seed, NoEvaluator)),
            playouts: dyn_playouts::<G>,
        }
    }

    /// Bots of `G` that use the evaluator `E` (greedy look-ahead, playout cut-off).
    #[must_use]
    pub const fn with_evaluator<G: Game, E: Evaluator<G> + Default>() -> Self {
        BotFactory {
            game: G::INFO.name,
            make: |spec, seed| Box::new(Bot::<G, E>::new(spec, seed, E::default())),
            playouts: dyn_playouts::<G>,
        }
    }

    /// The registry name of the game (`GameInfo::name`).
    #[must_use]
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// A new bot `spec` seeded with `seed`.
    #[must_use]
    pub fn make(&self, spec: BotSpec, seed: u64) -> Box<dyn DynBot> {
        (self.make)(spec, seed)
    }

    /// Uniformly random games from `state` for about `budget` (single thread, typed, no text):
    /// the playout throughput of `plateau bench`. `None` if `state` is not of this factory's game.
    #[must_use]
    pub fn random_playouts(
        &self,
        state: &dyn DynGame,
        budget: Duration,
        seed: u64,
    ) -> Option<PlayoutRate> {
        (self.playouts)(state, budget, seed)
    }
}
