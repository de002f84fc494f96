//! The registry: the only code outside a game crate that names games (docs/architecture.md
//! section 1). The command line and the match service look games up here by name, drive them as
//! `DynGame`, and build each seat's bot once for a whole game (`new_bot`).

pub mod evaluators;
mod levels;

pub use levels::{LevelError, bot_rating, level, levels, levels_at};
pub use plateau_bots::{LevelEntry, Levels};

use plateau_bots::{
    Analysis, AnalysisError, AnalysisOptions, BotFactory, BotSpec, Budget, DynBot, Level, Marks,
};
use plateau_engine::{GameEntry, Record};
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
        .ok_or_else(|| unknown(name))
}

/// The bots of every game, one entry per game: `BotFactory::of::<Game>()`, or
/// `BotFactory::with_evaluator::<Game, Evaluation>()` for a game crate that offers an evaluation,
/// with the game's level table (`levels`: the bot, think time and rating of each named level),
/// its one place.
pub static BOTS: &[BotFactory] = &[
    BotFactory::with_evaluator::<plateau_mad::Mad, evaluators::MadEvaluation>()
        .with_levels(&levels::MAD),
    BotFactory::with_evaluator::<plateau_moonleap::MoonLeap, evaluators::MoonLeapEvaluation>()
        .with_levels(&levels::MOONLEAP)
        .with_seat_levels(&levels::MOONLEAP_SEATS),
    BotFactory::with_evaluator::<plateau_naval::Naval, evaluators::NavalEvaluation>()
        .with_levels(&levels::NAVAL),
    BotFactory::with_evaluator::<plateau_chakart::Chakart, evaluators::ChakartEvaluation>()
        .with_levels(&levels::CHAKART),
];

/// A bot `spec` for game `game`, seeded with `seed`: build it once per seat and keep it for the
/// whole game (MCTS reuses its tree between moves; docs/architecture.md section 6).
///
/// # Errors
/// `UnknownGame` if no bots are registered for `game`.
pub fn new_bot(game: &str, spec: BotSpec, seed: u64) -> Result<Box<dyn DynBot>, UnknownGame> {
    Ok(bot_factory(game)?.make(spec, seed))
}

/// The bot factory of game `game`.
///
/// # Errors
/// `UnknownGame` if no bots are registered for `game`.
pub fn bot_factory(game: &str) -> Result<&'static BotFactory, UnknownGame> {
    BOTS.iter()
        .find(|f| f.game() == game)
        .ok_or_else(|| unknown(game))
}

/// The fewest iterations the analysis's judge searches: a level played by a policy alone
/// (Bataille Navale's `mcts:i1`) would otherwise judge nothing.
const MIN_JUDGE_ITERATIONS: u64 = 1000;

/// The judge of the post-game analysis in `game`: the expert level's search budget, at least
/// `MIN_JUDGE_ITERATIONS` (an iteration budget in every game, so analyses are reproducible).
///
/// # Errors
/// `UnknownGame` for a game without levels.
pub fn expert_judge(game: &str) -> Result<Budget, UnknownGame> {
    let expert = levels(game)?[Level::Expert as usize].spec;
    Ok(match expert.budget() {
        Some(Budget::Iterations(n)) => Budget::Iterations(n.max(MIN_JUDGE_ITERATIONS)),
        Some(other) => other,
        None => Budget::Iterations(MIN_JUDGE_ITERATIONS),
    })
}

/// The least losses the analysis marks `?!`, `?` and `??` in `game`: above the spread of its
/// judge (`expert_judge`) between two runs with different seeds on the same games, so that a
/// mark is never the judge's luck (docs/bots.md, "Analysis", gives the measurements).
///
/// # Errors
/// `UnknownGame` for a game that is not registered.
pub fn judge_marks(game: &str) -> Result<Marks, UnknownGame> {
    levels::JUDGE_MARKS
        .iter()
        .find(|(name, _)| *name == game)
        .map(|(_, marks)| *marks)
        .ok_or_else(|| unknown(game))
}

/// Analyses `record` (its game found by name) with `options` (`plateau_bots::analysis`): every
/// seat's value after every action, each decision judged from what its seat knew, the biggest
/// losses; `progress(done, total)` hears after every judged decision. What the match service
/// runs in the background for a finished match; `plateau analyse` in the terminal.
///
/// # Errors
/// `AnalyseError::Game` for an unregistered game, `AnalyseError::Analysis` for a record that
/// does not replay.
pub fn analyse(
    record: &Record,
    options: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AnalyseError> {
    let factory = bot_factory(&record.game)?;
    Ok(factory.analyse(record, options, progress)?)
}

/// Why `analyse` gave no analysis.
#[derive(Debug, Error)]
pub enum AnalyseError {
    /// The record's game is not registered.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// The record does not replay.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

/// The error for a name that is not registered, listing the names that are.
fn unknown(name: &str) -> UnknownGame {
    UnknownGame {
        name: name.to_owned(),
        known: GAMES
            .iter()
            .map(|g| g.info.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}
