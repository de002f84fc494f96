//! A game's log and its one replay (docs/architecture.md section 4): the entries the match
//! service stores and a record holds (`LogEntry`), and `replay_log`, the walk that the match
//! service's rebuild, `Record::replay`, the replay page and the secrecy check all use.
//!
//! A log is every seat action, every chance outcome and every early ending, in the order they
//! happened. An early ending has its place among the actions because in some games it does not end
//! the game: a Bataille Navale seat that resigns is eliminated and the others play on
//! (rules/naval.md), so actions follow the ending.

use rand_chacha::ChaCha20Rng;
use thiserror::Error;

use crate::dynamic::{ActionError, DynGame};
use crate::error::{IllegalAction, SetupError};
use crate::game::Ending;
use crate::outcome::Outcome;
use crate::seat::{Actor, ToAct};

/// What one log entry did.
#[derive(Clone, PartialEq, Debug)]
pub enum Event {
    /// `by` played `action`, in canonical notation; for chance, the outcome drawn.
    Action {
        /// Who played it.
        by: Actor,
        /// Its canonical text.
        action: String,
    },
    /// The game ended early (timeout, resignation, agreed stop), as `Game::end` takes it.
    End(Ending),
}

/// One entry of a game's log: a row of the match service's log (its position is the row's `seq`)
/// and an action or an ending of a record (`Record::log`).
#[derive(Clone, PartialEq, Debug)]
pub struct LogEntry {
    /// What happened.
    pub event: Event,
    /// Milliseconds since the game started, when known (the match service always knows; the
    /// command line times only a person's actions and endings).
    pub at_ms: Option<u64>,
}

impl LogEntry {
    /// `by` played `action` (canonical text).
    #[must_use]
    pub fn action(by: Actor, action: impl Into<String>, at_ms: Option<u64>) -> LogEntry {
        LogEntry {
            event: Event::Action {
                by,
                action: action.into(),
            },
            at_ms,
        }
    }

    /// The game ended early by `ending`.
    #[must_use]
    pub fn end(ending: Ending, at_ms: Option<u64>) -> LogEntry {
        LogEntry {
            event: Event::End(ending),
            at_ms,
        }
    }

    /// Who acted, for an action; `None` for an early ending.
    #[must_use]
    pub fn by(&self) -> Option<Actor> {
        match self.event {
            Event::Action { by, .. } => Some(by),
            Event::End(_) => None,
        }
    }
}

/// What went wrong when replaying a log or a record. `entry` counts log entries from 0 (the match
/// service's `seq`); `index` counts actions from 1, as people read a move list, and `after` is the
/// number of actions before an ending.
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
        /// Its place in the log, from 0.
        entry: usize,
        /// Its place among the actions, from 1.
        index: usize,
        /// Its text.
        action: String,
        /// Who played it.
        by: Actor,
        /// Why it was refused.
        error: ActionError,
    },
    /// A chance outcome differs from what the seed draws.
    #[error("action {index}: chance drew `{drawn}` from the seed but the log says `{logged}`")]
    Chance {
        /// Its place in the log, from 0.
        entry: usize,
        /// Its place among the actions, from 1.
        index: usize,
        /// What the seed draws (empty when the node lists no outcome).
        drawn: String,
        /// What the log holds.
        logged: String,
    },
    /// An early ending could not be applied.
    #[error("the ending ({ending}) after {after} actions: {error}")]
    Ending {
        /// Its place in the log, from 0.
        entry: usize,
        /// The ending.
        ending: Ending,
        /// How many actions came before it.
        after: usize,
        /// Why it was refused.
        error: IllegalAction,
    },
    /// The caller's `Visitor` refused an entry.
    #[error("log entry {entry}: {why}")]
    Visitor {
        /// The entry's place in the log, from 0.
        entry: usize,
        /// The visitor's message.
        why: String,
    },
    /// The recorded outcome is not the outcome the rules give.
    #[error(
        "the record's outcome {} differs from the replayed {}",
        outcome_text(recorded),
        outcome_text(replayed)
    )]
    Outcome {
        /// From the record.
        recorded: Box<Option<Outcome>>,
        /// From the rules.
        replayed: Box<Option<Outcome>>,
    },
}

impl ReplayError {
    /// The place in the log (from 0) of the entry that did not replay; `None` for a problem of
    /// the whole record (setup, seed hash, outcome).
    #[must_use]
    pub fn entry(&self) -> Option<usize> {
        match self {
            ReplayError::Action { entry, .. }
            | ReplayError::Chance { entry, .. }
            | ReplayError::Ending { entry, .. }
            | ReplayError::Visitor { entry, .. } => Some(*entry),
            ReplayError::Setup(_) | ReplayError::SeedHash { .. } | ReplayError::Outcome { .. } => {
                None
            }
        }
    }
}

/// An outcome as JSON for a message, or `none` for a game not over.
fn outcome_text(outcome: &Option<Outcome>) -> String {
    match outcome {
        Some(o) => serde_json::to_string(o).unwrap_or_default(),
        None => "none (the game is not over)".to_owned(),
    }
}

/// What a caller of `replay_log` does at each entry: `before` sees the state the entry applies
/// to (what a move list's text is computed from), `after` the state it made. Both do nothing by
/// default; `()` is the visitor that wants nothing.
pub trait Visitor {
    /// Called before entry `entry` (its place in the log, from 0) is applied to `state`.
    ///
    /// # Errors
    /// A message that stops the replay (`ReplayError::Visitor`).
    fn before(
        &mut self,
        entry: usize,
        logged: &LogEntry,
        state: &dyn DynGame,
    ) -> Result<(), String> {
        let _ = (entry, logged, state);
        Ok(())
    }

    /// Called once entry `entry` has been applied, with the state it made.
    ///
    /// # Errors
    /// A message that stops the replay (`ReplayError::Visitor`).
    fn after(
        &mut self,
        entry: usize,
        logged: &LogEntry,
        state: &dyn DynGame,
    ) -> Result<(), String> {
        let _ = (entry, logged, state);
        Ok(())
    }
}

impl Visitor for () {}

/// Replays `log` on `state` (a fresh game, or a record's start): every seat action is checked by
/// the rules, every early ending applied at its place, and every chance outcome, with `chance`
/// (the generator of the game's seed, at the start of its stream), redrawn from it (one draw per
/// chance node, `chance::sample`) and required to be the logged one; without `chance` a chance
/// outcome is only checked to be possible. `visitor` sees the state before and after each entry.
/// Returns the final state; `chance` has then drawn every chance node of the log, so a running
/// game draws its next outcomes from it.
///
/// # Errors
/// `ReplayError::Action`, `Chance`, `Ending` or `Visitor` at the first entry that does not replay,
/// naming it; the state is then dropped.
pub fn replay_log<'a, V: Visitor + ?Sized>(
    mut state: Box<dyn DynGame>,
    mut chance: Option<&mut ChaCha20Rng>,
    log: impl IntoIterator<Item = &'a LogEntry>,
    visitor: &mut V,
) -> Result<Box<dyn DynGame>, ReplayError> {
    let mut actions = 0;
    for (entry, logged) in log.into_iter().enumerate() {
        visitor
            .before(entry, logged, &*state)
            .map_err(|why| ReplayError::Visitor { entry, why })?;
        match &logged.event {
            Event::Action { by, action } => {
                actions += 1;
                let redraw = chance
                    .as_deref_mut()
                    .filter(|_| *by == Actor::Chance && state.to_act() == ToAct::Chance);
                if let Some(rng) = redraw {
                    let drawn = state.draw_chance(rng).map(|(_, d)| d).unwrap_or_default();
                    if drawn != *action {
                        return Err(ReplayError::Chance {
                            entry,
                            index: actions,
                            drawn,
                            logged: action.clone(),
                        });
                    }
                } else {
                    // A seat's action, or a chance outcome where it cannot be redrawn: the rules
                    // refuse it if it is not to act or not possible.
                    state
                        .apply_text(*by, action)
                        .map_err(|error| ReplayError::Action {
                            entry,
                            index: actions,
                            action: action.clone(),
                            by: *by,
                            error,
                        })?;
                }
            }
            Event::End(ending) => {
                state.end(*ending).map_err(|error| ReplayError::Ending {
                    entry,
                    ending: *ending,
                    after: actions,
                    error,
                })?;
            }
        }
        visitor
            .after(entry, logged, &*state)
            .map_err(|why| ReplayError::Visitor { entry, why })?;
    }
    Ok(state)
}
