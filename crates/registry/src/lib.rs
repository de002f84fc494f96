//! The registry: the only code outside a game crate that names games (DESIGN.md section 1). The
//! command line and the match service look games up here by name and drive them as `DynGame`.

mod evaluators;

use plateau_bots::{BotFactory, BotSpec, DynBot};
use plateau_engine::{DynGame, GameEntry, Seat};
use rand::RngCore;
use thiserror::Error;

/// Every game, in the order the lobby lists them.
pub static GAMES: &[GameEntry] = &[
    GameEntry::of::<plateau_mad::Mad>(),
    GameEntry::of::<plateau_moonleap::MoonLeap>(),
    GameEntry::of::<plateau_chakart::Chakart>(),
    GameEntry::of::<plateau_naval::Naval>(),
];

/// A game name that is not registered.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown game `{name}` (known: {known})")]
pub struct UnknownGame {
    /// What was asked.
    pub name: String,
    /// The registered names, comma-separated.
    pub known: String,
}

/// The game registered as `name` (`"mad"`, ...).
///
/// # Errors
/// `UnknownGame` listing the known names.
pub fn find(name: &str) -> Result<&'static GameEntry, UnknownGame> {
    GAMES
        .iter()
        .find(|g| g.info.name == name)
        .ok_or_else(|| UnknownGame {
            name: name.to_owned(),
            known: GAMES
                .iter()
                .map(|g| g.info.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The bots of every game, one line per game; a game crate that offers an evaluation registers
/// `BotFactory::with_evaluator::<Game, Evaluation>()` instead.
pub static BOTS: &[BotFactory] = &[
    BotFactory::with_evaluator::<plateau_mad::Mad, evaluators::MadEvaluation>(),
    BotFactory::with_evaluator::<plateau_moonleap::MoonLeap, evaluators::MoonLeapEvaluation>(),
    BotFactory::of::<plateau_naval::Naval>(),
    BotFactory::with_evaluator::<plateau_chakart::Chakart, evaluators::ChakartEvaluation>(),
];

/// A bot `spec` for game `game`, seeded with `seed`, to keep for a whole game (MCTS reuses its tree
/// between moves); `None` if the game is not registered.
#[must_use]
pub fn new_bot(game: &str, spec: BotSpec, seed: u64) -> Option<Box<dyn DynBot>> {
    bot_factory(game).map(|f| f.make(spec, seed))
}

/// The bot factory of game `game`, if registered.
#[must_use]
pub fn bot_factory(game: &str) -> Option<&'static BotFactory> {
    BOTS.iter().find(|f| f.game() == game)
}

/// The action `bot` chooses for `seat` in `state`, in canonical text; `None` if the seat has no
/// legal action. The bot sees only what `seat` may see. A fresh bot per call (no tree reuse); its
/// seed is drawn from `rng`.
pub fn bot_action(
    bot: BotSpec,
    state: &dyn DynGame,
    seat: Seat,
    rng: &mut dyn RngCore,
) -> Option<String> {
    match bot {
        BotSpec::Random => state.random_action(seat, rng),
        _ => new_bot(state.info().name, bot, rng.next_u64())?.act(state, seat),
    }
}
