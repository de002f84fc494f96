//! What the service can host: the games and the bots. By default the registry's (`standard`); tests
//! pass their own so they can host small purpose-made games.

use plateau_bots::{BotSpec, DynBot};
use plateau_engine::GameEntry;

use crate::model::{ApiError, Code};

/// Builds the bot of one seat for a whole match: `(game, bot name, seed) -> bot`, or why not.
/// The bot must look only at what its seat may see (docs/architecture.md section 6).
pub type NewBot = fn(&str, &str, u64) -> Result<Box<dyn DynBot>, String>;

/// The games and bots a service hosts.
#[derive(Clone, Copy, Debug)]
pub struct Catalogue {
    /// Every game that can be created, looked up by `info.name`.
    pub games: &'static [GameEntry],
    /// Bot names a seat may ask for.
    pub bots: &'static [&'static str],
    /// How a seat's bot is built (once per seat and match).
    pub new_bot: NewBot,
}

impl Catalogue {
    /// The registry's games and the bots of `plateau-bots`: `random`, `greedy`, the five levels
    /// `beginner` to `expert` (each game's own bot per level, docs/bots.md), and `mcts` (100 ms).
    #[must_use]
    pub fn standard() -> Catalogue {
        Catalogue {
            games: plateau_registry::GAMES,
            // The named strengths of `plateau-bots` (crates/bots/README.md), weakest first.
            bots: &[
                "random", "greedy", "beginner", "casual", "club", "strong", "expert", "mcts",
            ],
            new_bot: standard_bot,
        }
    }

    /// The game registered as `name`.
    #[must_use]
    pub fn game(&self, name: &str) -> Option<&'static GameEntry> {
        self.games.iter().find(|g| g.info.name == name)
    }

    /// The game registered as `name`, for a request that names it.
    ///
    /// # Errors
    /// `game/unknown` naming the games hosted, when none is registered as `name`.
    pub fn requested(&self, name: &str) -> Result<&'static GameEntry, ApiError> {
        self.game(name).ok_or_else(|| {
            let known: Vec<&str> = self.games.iter().map(|g| g.info.name).collect();
            ApiError::new(
                Code::GameUnknown,
                format!("unknown game `{name}` (known: {})", known.join(", ")),
            )
        })
    }
}

fn standard_bot(game: &str, bot: &str, seed: u64) -> Result<Box<dyn DynBot>, String> {
    let spec: BotSpec = bot.parse().map_err(|e| format!("{e}"))?;
    plateau_registry::new_bot(game, spec, seed).map_err(|e| e.to_string())
}
