//! Game records (DESIGN.md section 4): a game as JSON, replayable without the seed, verifiable with
//! it.
//!
//! ```json
//! {"game": "mad", "config": null, "seats": ["human", "random"],
//!  "seed_hash": "…64 hex…", "seed": "…64 hex, once the game is over…",
//!  "actions": [{"by": {"seat": 0}, "action": "c2-c3", "at_ms": 5120}],
//!  "outcome": {"ranks": [1, 2], "scores": [1.0, 0.0], "kind": "corvette"}}
//! ```

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::chance::Seed;
use crate::dynamic::{ActionError, DynGame, GameEntry};
use crate::error::{IllegalAction, SetupError};
use crate::game::Ending;
use crate::outcome::Outcome;
use crate::seat::{Actor, ToAct};

/// One played action.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Who played it.
    pub by: Actor,
    /// The action in canonical notation; for chance, the outcome drawn.
    pub action: String,
    /// Milliseconds since the game started, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
}

/// A whole game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Record {
    /// Registry name of the game, e.g. `"mad"`.
    pub game: String,
    /// The game's config as JSON (`null` for the default).
    #[serde(default)]
    pub config: serde_json::Value,
    /// Who sat at each seat, e.g. `"human"`, `"random"`, `"mcts:100"`; its length is the seat count.
    pub seats: Vec<String>,
    /// Position text the game started from, when it is not the game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// SHA-256 of the chance seed, published when the game started.
    pub seed_hash: String,
    /// The chance seed, revealed once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// Every action, chance outcomes included, in order.
    pub actions: Vec<RecordedAction>,
    /// An early ending (timeout, resignation, agreed stop) after the last action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// The result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// What went wrong when replaying a record. Action indices count from 1, as people read a move list.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The game could not be set up from the record's game, config, seats and start.
    #[error("cannot set up the game: {0}")]
    Setup(#[from] SetupError),
    /// The revealed seed does not hash to the published `seed_hash`.
    #[error("the seed does not match seed_hash: sha256(seed) = {actual}, record says {published}")]
    SeedHash {
        /// The hash of the revealed seed.
        actual: String,
        /// The published hash.
        published: String,
    },
    /// An action could not be played.
    #[error("action {index} (`{action}` by {by}): {error}")]
    Action {
        /// 1-based index in `actions`.
        index: usize,
        /// Its text.
        action: String,
        /// Who played it.
        by: Actor,
        /// Why it was refused.
        error: ActionError,
    },
    /// A chance outcome differs from what the revealed seed draws.
    #[error("action {index}: chance drew `{drawn}` from the seed but the record says `{recorded}`")]
    Chance {
        /// 1-based index in `actions`.
        index: usize,
        /// What the seed draws.
        drawn: String,
        /// What the record holds.
        recorded: String,
    },
    /// The recorded early ending could not be applied.
    #[error("the ending ({ending}): {error}")]
    Ending {
        /// The ending.
        ending: Ending,
        /// Why it was refused.
        error: IllegalAction,
    },
    /// The recorded outcome is not the outcome the rules give.
    #[error("the record's outcome {recorded:?} differs from the replayed {replayed:?}")]
    Outcome {
        /// From the record.
        recorded: Box<Option<Outcome>>,
        /// From the rules.
        replayed: Box<Option<Outcome>>,
    },
}

/// A successful replay.
#[derive(Debug)]
pub struct Replay {
    /// The final state.
    pub state: Box<dyn DynGame>,
    /// Whether a revealed seed was checked against the hash and redrew every chance outcome.
    pub seed_verified: bool,
}

impl Record {
    /// An empty record for a game about to start with chance generator `seed` (kept secret: only
    /// its hash is stored until `reveal`).
    #[must_use]
    pub fn new(game: &str, config: serde_json::Value, seats: Vec<String>, seed: &Seed) -> Record {
        Record {
            game: game.to_owned(),
            config,
            seats,
            start: None,
            seed_hash: seed.hash_hex(),
            seed: None,
            actions: Vec::new(),
            ending: None,
            outcome: None,
        }
    }

    /// Replays every action with the rules of `entry`, checking each one, the ending and the
    /// outcome. With a revealed seed, also checks the seed against `seed_hash` and that every
    /// chance outcome is the one the seed draws.
    ///
    /// # Errors
    /// `ReplayError` at the first problem, naming the action.
    pub fn replay(&self, entry: &GameEntry) -> Result<Replay, ReplayError> {
        let mut state = match &self.start {
            Some(text) => entry.from_position(&self.config, text)?,
            None => entry.new_game(&self.config, self.seats.len())?,
        };
        let mut rng = match &self.seed {
            Some(seed) => {
                let actual = seed.hash_hex();
                if !actual.eq_ignore_ascii_case(&self.seed_hash) {
                    return Err(ReplayError::SeedHash {
                        actual,
                        published: self.seed_hash.clone(),
                    });
                }
                Some(seed.rng())
            }
            None => None,
        };
        for (i, step) in self.actions.iter().enumerate() {
            let index = i + 1;
            if let (Actor::Chance, Some(rng), ToAct::Chance) =
                (step.by, rng.as_mut(), state.to_act())
            {
                let mut probe = state.clone_box();
                let drawn = probe.sample_chance(rng).unwrap_or_default();
                if drawn != step.action {
                    return Err(ReplayError::Chance {
                        index,
                        drawn,
                        recorded: step.action.clone(),
                    });
                }
            }
            state
                .apply_text(step.by, &step.action)
                .map_err(|error| ReplayError::Action {
                    index,
                    action: step.action.clone(),
                    by: step.by,
                    error,
                })?;
        }
        if let Some(ending) = self.ending {
            state
                .end(ending)
                .map_err(|error| ReplayError::Ending { ending, error })?;
        }
        let replayed = state.outcome();
        if self.outcome.is_some() && self.outcome != replayed {
            return Err(ReplayError::Outcome {
                recorded: Box::new(self.outcome.clone()),
                replayed: Box::new(replayed),
            });
        }
        Ok(Replay {
            state,
            seed_verified: rng.is_some(),
        })
    }
}
