//! Post-game analysis: after every action of a finished game, each seat's chance to win as a
//! search estimates it, and how much each decision lost against the best the search found.
//!
//! # How a decision is judged
//! At each seat decision the judge (an MCTS search, `AnalysisOptions::judge`) searches the
//! position for the seat that acted, exactly as that seat's bot would have: with hidden
//! information from that seat's determinizations, so from what the seat knew then, never with
//! hindsight. The seat's value before the action is the mean utility of the search's best root
//! action; the value of the action played is its own mean, or, where the search did not try it,
//! the value of a second search whose root offers that action alone (still from the seat's
//! information: each iteration plays it on a determinization).
//! The loss is the difference, never below 0.
//!
//! # The curve
//! `values[s]` after each action is seat `s`'s expected `Outcome::utility` (in a two-seat game its
//! chance to win, a draw counting half). With perfect information it is read from the acting seat's
//! search, which scores every seat. With hidden information each seat's value comes from its own
//! searches only (the seat's own information), so it changes at its own decisions and keeps its
//! last value in between. Chance outcomes keep the values; the final entry is the outcome.
//!
//! # Cost
//! One search per seat decision, two where the action played was not tried: `judge` iterations
//! each. The progress callback hears after every decision how many are done out of how many.

use plateau_engine::{
    Actor, DynGame, Event, Game, GameEntry, LogEntry, Record, ReplayError, Seat, Visitor,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::eval::Evaluator;
use crate::mcts::{Mcts, SearchConfig};
use crate::spec::Budget;

/// The format name written in every analysis (`Analysis::format`).
pub const FORMAT: &str = "plateau-analysis/1";

/// How to analyse.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisOptions {
    /// The search budget per judged decision (iterations make the analysis reproducible).
    pub judge: Budget,
    /// Seed of every search (each decision's search is seeded from it and its index).
    pub seed: u64,
    /// How many of the biggest losses to list.
    pub biggest: usize,
    /// Least loss worth listing among the biggest, in utility (0.05: five points of chance).
    pub threshold: f64,
}

impl Default for AnalysisOptions {
    /// 2000 iterations per decision, seed 0, the 5 biggest losses of at least 0.05.
    fn default() -> Self {
        AnalysisOptions {
            judge: Budget::Iterations(2000),
            seed: 0,
            biggest: 5,
            threshold: 0.05,
        }
    }
}

/// The analysis of one recorded game. Serialized as the documented JSON shape
/// (docs/bots.md, "Analysis"), stable within its `format`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Analysis {
    /// `"plateau-analysis/1"`.
    pub format: String,
    /// Registry name of the game.
    pub game: String,
    /// Number of seats.
    pub seats: usize,
    /// The judge's budget, as written after `mcts:` (`i2000`, or `500` for milliseconds).
    pub judge: String,
    /// Every seat's value before the first action.
    pub start: Vec<f64>,
    /// One entry per recorded action, in order.
    pub plies: Vec<Ply>,
    /// The biggest losses, largest first, at most `AnalysisOptions::biggest`, each at least
    /// `AnalysisOptions::threshold`.
    pub biggest_losses: Vec<Loss>,
}

/// One recorded action and the values after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Ply {
    /// 1-based index in the record's `actions`.
    pub index: usize,
    /// The seat that acted (0-based), `None` for a chance outcome.
    pub seat: Option<u8>,
    /// The action as recorded (canonical text).
    pub action: String,
    /// Every seat's value after the action, by seat index, each in [0, 1].
    pub values: Vec<f64>,
    /// A seat's decision: how it was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<Judgement>,
}

/// How the judge saw one decision.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Judgement {
    /// The acting seat's value of the position before the action (its best action's mean).
    pub before: f64,
    /// The value of the action played.
    pub played: f64,
    /// `before - played`, at least 0.
    pub loss: f64,
    /// The judge's choice, in canonical text.
    pub best: String,
    /// The judge's choice in parts (`Game::action_info` in the position judged: the parts the
    /// seat's legal list gave it then, docs/protocol.md section 4.1), so a page puts it in words
    /// without reading its text. Absent from analyses stored before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_info: Option<serde_json::Value>,
}

/// One of the biggest losses.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Loss {
    /// 1-based index of the action in the record.
    pub index: usize,
    /// The seat that lost it.
    pub seat: u8,
    /// How much it lost.
    pub loss: f64,
}

/// Why a record could not be analysed. Nothing is analysed then.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// The record is of another game than the analyser's.
    #[error("the record is a game of {record}, not of {analyser}")]
    WrongGame {
        /// The record's game.
        record: String,
        /// The analyser's.
        analyser: &'static str,
    },
    /// The record does not replay (`Record::replay`): its setup, an action or an ending.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Judges the decision of `seat` to play `played` in `state` with a search of `judge` seeded with
/// `seed` (module documentation); `None` when `seat` has no legal action. With hidden information
/// it reads nothing of `state` but what the search reads (`Mcts::choose`), so two states the seat
/// cannot tell apart get the same judgement.
pub fn judge_decision<G: Game, E: Evaluator<G> + Clone>(
    state: &G,
    seat: Seat,
    played: &G::Action,
    judge: Budget,
    seed: u64,
    evaluator: &E,
) -> Option<(Judgement, Vec<f64>)> {
    let mut search =
        Mcts::with_evaluator(SearchConfig::with_budget(judge), seed, evaluator.clone());
    let best = search.choose(state, seat)?;
    if search.stats().iterations == 0 {
        // A forced (or evaluator-decided) action: nothing to judge, the position's value only.
        let values = search.estimate(state, seat);
        let v = values[seat.index()];
        let judgement = Judgement {
            before: v,
            played: v,
            loss: 0.0,
            best: state.format_action(&best),
            best_info: info(state, &best),
        };
        return Some((judgement, values));
    }
    let children = search.root_children();
    let mean = |a: &G::Action| {
        children
            .iter()
            .find(|c| &c.action == a && c.visits > 0)
            .map(|c| c.mean)
    };
    let values = search.root_values();
    let before = mean(&best).unwrap_or(values[seat.index()]);
    let after = match mean(played) {
        Some(v) => v,
        None => {
            // Not tried by the search: a search of its own, which plays it on determinizations
            // (the true state's results of the action would be hindsight).
            let mut again = Mcts::with_evaluator(
                SearchConfig::with_budget(judge),
                seed ^ 1,
                evaluator.clone(),
            );
            again.action_value(state, seat, played)?
        }
    };
    let judgement = Judgement {
        before,
        played: after,
        loss: (before - after).max(0.0),
        best: state.format_action(&best),
        best_info: info(state, &best),
    };
    Some((judgement, values))
}

/// The parts of `action`, one of the seat's legal actions in `state`, as its legal list gives them.
fn info<G: Game>(state: &G, action: &G::Action) -> Option<serde_json::Value> {
    serde_json::to_value(state.action_info(action)).ok()
}

/// One action of a replayed record, typed, with the state it was played in.
struct Played<G: Game> {
    by: Actor,
    action: G::Action,
    text: String,
    before: G,
    /// Whether the game was over after it.
    over: bool,
}

/// The actions of a record as `Record::replay_with` replays them.
struct Collect<G: Game>(Vec<Played<G>>);

impl<G: Game> Visitor for Collect<G> {
    fn before(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        let Event::Action { by, action } = &logged.event else {
            return Ok(());
        };
        let state = state
            .as_any()
            .downcast_ref::<G>()
            .ok_or("the replayed state is not of the analysed game")?;
        // An action that does not read is refused by the replay itself, naming it.
        if let Ok(typed) = state.parse_action(action) {
            self.0.push(Played {
                by: *by,
                action: typed,
                text: action.clone(),
                before: state.clone(),
                over: false,
            });
        }
        Ok(())
    }

    fn after(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if let (Event::Action { .. }, Some(last)) = (&logged.event, self.0.last_mut()) {
            last.over = state.outcome().is_some();
        }
        Ok(())
    }
}

/// Analyses `record`, a game of `G` (module documentation), calling `progress(done, total)` after
/// every judged decision (and once with 0 before the first).
///
/// # Errors
/// `AnalysisError` when the record is of another game or does not replay; nothing is returned
/// then.
pub fn analyse<G: Game, E: Evaluator<G> + Clone>(
    record: &Record,
    options: &AnalysisOptions,
    evaluator: &E,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    if record.game != G::INFO.name {
        return Err(AnalysisError::WrongGame {
            record: record.game.clone(),
            analyser: G::INFO.name,
        });
    }
    // First pass: the whole record replayed and checked (`Record::replay_with`) before any
    // search, each action kept with the state it was played in.
    let mut played = Collect::<G>(Vec::new());
    let replay = record.replay_with(&GameEntry::of::<G>(), &mut played)?;
    let final_values: Option<Vec<f64>> = replay.state.outcome().map(|o| {
        (0..record.seats.len())
            .map(|s| o.utility(Seat(s as u8)))
            .collect()
    });

    // Second pass: the searches.
    let seats = record.seats.len();
    let total = played
        .0
        .iter()
        .filter(|p| matches!(p.by, Actor::Seat(_)))
        .count();
    progress(0, total);
    let hidden = G::INFO.hidden_information;
    let mut values = vec![0.5; seats];
    let mut start_values = None;
    let mut plies = Vec::with_capacity(played.0.len());
    let mut done = 0;
    let mut seeds = ChaCha8Rng::seed_from_u64(options.seed);
    for (n, p) in played.0.into_iter().enumerate() {
        let seed = seeds.next_u64();
        let mut judgement = None;
        if let Actor::Seat(seat) = p.by
            && let Some((j, seen)) =
                judge_decision(&p.before, seat, &p.action, options.judge, seed, evaluator)
        {
            if hidden {
                values[seat.index()] = j.played;
            } else {
                // The plies since the last judged decision end in this position.
                for p in plies.iter_mut().rev() {
                    let p: &mut Ply = p;
                    p.values.clone_from(&seen);
                    if p.judgement.is_some() {
                        break;
                    }
                }
                values.clone_from(&seen);
            }
            start_values.get_or_insert_with(|| seen.clone());
            judgement = Some(j);
            done += 1;
            progress(done, total);
        }
        if p.over
            && let Some(f) = &final_values
        {
            values.clone_from(f);
        }
        plies.push(Ply {
            index: n + 1,
            seat: match p.by {
                Actor::Seat(s) => Some(s.0),
                Actor::Chance => None,
            },
            action: p.text,
            values: values.clone(),
            judgement,
        });
    }
    if let Some(f) = final_values {
        for p in plies.iter_mut().rev() {
            p.values.clone_from(&f);
            if p.judgement.is_some() || hidden {
                break;
            }
        }
    }
    let mut biggest: Vec<Loss> = plies
        .iter()
        .filter_map(|p| {
            let j = p.judgement.as_ref()?;
            (j.loss >= options.threshold).then(|| Loss {
                index: p.index,
                seat: p.seat.unwrap_or_default(),
                loss: j.loss,
            })
        })
        .collect();
    biggest.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.index.cmp(&b.index)));
    biggest.truncate(options.biggest);
    Ok(Analysis {
        format: FORMAT.to_owned(),
        game: G::INFO.name.to_owned(),
        seats,
        judge: options.judge.to_string(),
        start: start_values.unwrap_or_else(|| vec![0.5; seats]),
        plies,
        biggest_losses: biggest,
    })
}
