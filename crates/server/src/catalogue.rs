//! What the service can host: the games and the bots. By default the registry's (`standard`); tests
//! pass their own so they can host small purpose-made games.

use plateau_bots::BotSpec;
use plateau_engine::{DynGame, GameEntry, Seat};
use rand::RngCore;

/// Plays one bot move: `(bot name, state, seat, rng) -> action text`, `None` if the seat has no
/// legal action. It must look only at what `seat` may see (the registry's `bot_action` contract).
pub type PlayBot = fn(&str, &dyn DynGame, Seat, &mut dyn RngCore) -> Option<String>;

/// The games and bots a service hosts.
#[derive(Clone, Copy, Debug)]
pub struct Catalogue {
    /// Every game that can be created, looked up by `info.name`.
    pub games: &'static [GameEntry],
    /// Bot names a seat may ask for.
    pub bots: &'static [&'static str],
    /// How a bot chooses its move.
    pub play_bot: PlayBot,
}

impl Catalogue {
    /// The registry's games and the bots of `plateau-bots`: `random`, `greedy`, the MCTS levels
    /// `beginner` (500 iterations), `club` (100 ms), `expert` (1 s), and `mcts` (100 ms).
    #[must_use]
    pub fn standard() -> Catalogue {
        Catalogue {
            games: plateau_registry::GAMES,
            // The named strengths of `plateau-bots` (crates/bots/README.md), weakest first.
            bots: &["random", "greedy", "beginner", "club", "expert", "mcts"],
            play_bot: standard_bot,
        }
    }

    /// The game registered as `name`.
    #[must_use]
    pub fn game(&self, name: &str) -> Option<&'static GameEntry> {
        self.games.iter().find(|g| g.info.name == name)
    }
}

fn standard_bot(
    bot: &str,
    state: &dyn DynGame,
    seat: Seat,
    rng: &mut dyn RngCore,
) -> Option<String> {
    let spec: BotSpec = bot.parse().ok()?;
    plateau_registry::bot_action(spec, state, seat, rng)
}
