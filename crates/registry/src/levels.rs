//! The lobby's five levels per game (beginner, casual, club, strong, expert: numbers 1 to 5): the
//! bot that plays each, the time it takes per decision, and its rating on the game's ladder. The
//! ladders, their commands and intervals are in docs/bots.md; the figures here are copied from there.

use plateau_bots::{BotSpec, Budget, Level, LevelEntry, Levels, Marks};
use thiserror::Error;

use crate::{UnknownGame, unknown};

const fn entry(level: Level, spec: BotSpec, think_ms: f64, rating: f64) -> LevelEntry {
    LevelEntry {
        level,
        spec,
        think_ms,
        rating,
    }
}

const fn iterations(n: u64) -> BotSpec {
    BotSpec::Mcts(Budget::Iterations(n))
}

/// `greedy:<percent>`: the greedy action at `greedy_percent` of decisions, random otherwise.
const fn greedy_share(greedy_percent: u8) -> BotSpec {
    BotSpec::EpsilonGreedy { greedy_percent }
}

/// `setup:<percent>`: the game's strongest policy at `setup_percent` of the setup's decisions
/// (Bataille Navale's placement), the greedy bot's choice otherwise and after it.
const fn setup(setup_percent: u8) -> BotSpec {
    BotSpec::Setup { setup_percent }
}

/// `blunder:<percent>`: the worst action at `blunder_percent` of decisions, random otherwise.
const fn blunder(blunder_percent: u8) -> BotSpec {
    BotSpec::Blunder { blunder_percent }
}

/// MAD (docs/bots.md, "MAD" ladder: 75.5%, 73.3%, 78.5%, 75.3% between neighbours, each over 600
/// games and three seeds).
pub(crate) static MAD: Levels = [
    entry(Level::Beginner, iterations(30), 0.3, 744.0),
    entry(Level::Casual, iterations(70), 0.6, 1142.0),
    entry(Level::Club, iterations(250), 2.2, 1500.0),
    entry(Level::Strong, iterations(600), 5.2, 1958.0),
    entry(Level::Expert, iterations(2000), 17.0, 2353.0),
];

/// Moon Leap, two seats (docs/bots.md, "Moon Leap" ladder: 77.1%, 77.9%, 78.0%, 73.8% between
/// neighbours, each over 600 games and three seeds). The dice cap the top: past about 3000
/// iterations more search wins no more games (i3000 scored 51.5% against i1000), so the ladder
/// reaches down instead: the strong level searches 100 iterations, the club plays the greedy
/// choice at half its decisions, and the two lower levels blunder (the worst move at 40% and 99%
/// of their decisions, a random one at the others).
pub(crate) static MOONLEAP: Levels = [
    entry(Level::Beginner, blunder(99), 0.1, 624.0),
    entry(Level::Casual, blunder(40), 0.1, 1054.0),
    entry(Level::Club, greedy_share(50), 0.1, 1500.0),
    entry(Level::Strong, iterations(100), 4.0, 1948.0),
    entry(Level::Expert, iterations(3000), 113.0, 2315.0),
];

/// Moon Leap, three seats (docs/bots.md, "Moon Leap" ladder: one level against two of the level
/// below, 58.5%, 63.8%, 62.6%, 61.6%, each over 600 games and three seeds; 53.8% to 66.7% is the
/// aim). With more opponents the greedy bot's edge over random play counts for more and the
/// search's over it for less (more dice between two of one's own decisions): the greedy bot is
/// `strong` here.
pub(crate) static MOONLEAP_3: Levels = [
    entry(Level::Beginner, blunder(99), 0.1, 689.0),
    entry(Level::Casual, blunder(50), 0.1, 1055.0),
    entry(Level::Club, greedy_share(20), 0.1, 1500.0),
    entry(Level::Strong, BotSpec::Greedy, 0.1, 1928.0),
    entry(Level::Expert, iterations(3000), 113.0, 2341.0),
];

/// Moon Leap, four seats (docs/bots.md, "Moon Leap" ladder: one level against three of the level
/// below, 56.3%, 49.6%, 46.5%, 52.7%, each over 600 games and three seeds; 43.8% to 57.1% is the
/// aim). The search wins only 36.5% against three greedy bots, so `strong` is the greedy bot at
/// 75% of its decisions.
pub(crate) static MOONLEAP_4: Levels = [
    entry(Level::Beginner, blunder(99), 0.1, 638.0),
    entry(Level::Casual, blunder(40), 0.1, 1117.0),
    entry(Level::Club, greedy_share(20), 0.1, 1500.0),
    entry(Level::Strong, greedy_share(75), 0.1, 1839.0),
    entry(Level::Expert, iterations(3000), 113.0, 2266.0),
];

/// Moon Leap's tables for other seat counts than two (`BotFactory::with_seat_levels`).
pub(crate) static MOONLEAP_SEATS: [(usize, &Levels); 2] = [(3, &MOONLEAP_3), (4, &MOONLEAP_4)];

/// Chakart (docs/bots.md, "Chakart" ladder: 74.8%, 70.2%, 77.9%, 75.0% between neighbours, each
/// over 600 games and three seeds).
pub(crate) static CHAKART: Levels = [
    entry(Level::Beginner, iterations(30), 1.4, 811.0),
    entry(Level::Casual, iterations(50), 2.3, 1197.0),
    entry(Level::Club, iterations(300), 14.0, 1500.0),
    entry(Level::Strong, iterations(1000), 46.0, 1947.0),
    entry(Level::Expert, iterations(3000), 138.0, 2336.0),
];

/// Bataille Navale, four seats (docs/bots.md, "Bataille Navale" ladder: each level against three
/// of the level below, 54.2%, 56.0%, 49.2% (800 games, four seeds), 49.8%, the others over 600
/// games and three seeds; 43.8% to 57.1% is the aim; the win share turned into a rating gap by Luce's choice rule). The thorough
/// policy alone (`mcts:i1`: its odds sampled from layouts, its own layout chosen, the corvette in
/// a corner) is the strongest bot measured and plays `expert`. Its layout is worth more than its
/// battle: the greedy bot after the same layout (`setup`) wins 60% against three greedy bots, and
/// the expert only about a third against three of it, so `strong` takes that layout at 90% of
/// its placement decisions and stops part way at the others (`setup:90`), then plays greedily.
/// Below it the greedy policy at all, 28% and 11% of decisions; random play, a step below
/// `greedy:11`, is no longer a level. No search level: the search is measured above the policy
/// it searches from only at 1000 iterations at one table with it (docs/bots.md section 1, "The
/// budget curve against experts"), and no ladder step above `expert` has been measured.
pub(crate) static NAVAL: Levels = [
    entry(Level::Beginner, greedy_share(11), 0.1, 578.0),
    entry(Level::Casual, greedy_share(28), 0.3, 1026.0),
    entry(Level::Club, BotSpec::Greedy, 1.0, 1500.0),
    entry(Level::Strong, setup(90), 1.0, 1878.0),
    entry(Level::Expert, iterations(1), 17.0, 2265.0),
];

const fn marks(dubious: f64, mistake: f64, blunder: f64) -> Marks {
    Marks {
        dubious,
        mistake,
        blunder,
    }
}

/// The analysis's marks per game (`crate::judge_marks`): the least loss marked `?!` is above the
/// judge's own spread, the 99th percentile of the difference between two runs' losses on the
/// same decisions (docs/bots.md, "Analysis").
pub(crate) static JUDGE_MARKS: [(&str, Marks); 4] = [
    ("mad", marks(0.10, 0.20, 0.30)),
    ("moonleap", marks(0.05, 0.10, 0.20)),
    ("chakart", marks(0.05, 0.10, 0.20)),
    ("naval", marks(0.10, 0.20, 0.30)),
];

/// A lobby level that does not exist.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum LevelError {
    /// The game is not registered.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// The number is not 1 to 5.
    #[error("bot level {0}: must be 1 to 5")]
    Number(u8),
}

/// The five levels of `game`, weakest first: the table its bots are registered with
/// (`crate::BOTS`).
///
/// # Errors
/// `UnknownGame` for a game without levels (every registered game has them).
pub fn levels(game: &str) -> Result<&'static Levels, UnknownGame> {
    crate::bot_factory(game)?
        .levels()
        .ok_or_else(|| unknown(game))
}

/// The five levels of `game` at a table of `seats` seats, weakest first: the game's own table for
/// that seat count if its ladder needed one (Moon Leap at three and four seats), else `levels`.
///
/// # Errors
/// `UnknownGame` for a game without levels.
pub fn levels_at(game: &str, seats: usize) -> Result<&'static Levels, UnknownGame> {
    crate::bot_factory(game)?
        .levels_at(seats)
        .ok_or_else(|| unknown(game))
}

/// The level the lobby numbers `number` (1 beginner to 5 expert) in `game`: its bot, think time
/// and rating at the game's usual seat count (`levels`; a level bot plays the table of the seat
/// count it is given, `levels_at`).
///
/// # Errors
/// `LevelError::Number` outside 1 to 5, `LevelError::Game` for an unknown game.
pub fn level(game: &str, number: u8) -> Result<&'static LevelEntry, LevelError> {
    let level = Level::from_number(number).ok_or(LevelError::Number(number))?;
    Ok(&levels(game)?[level as usize])
}

/// The starting rating of the bot named `bot` in `game`, in shown points, when the ladder
/// measured it: a level's name (`"club"`) or the spec it plays (`"mcts:i250"` in MAD). `None`
/// for any other bot or game: the service then keeps its own default.
#[must_use]
pub fn bot_rating(game: &str, bot: &str) -> Option<f64> {
    let table = levels(game).ok()?;
    let spec: BotSpec = bot.parse().ok()?;
    table
        .iter()
        .find(|e| BotSpec::Level(e.level) == spec || e.spec == spec)
        .map(|e| e.rating)
}
