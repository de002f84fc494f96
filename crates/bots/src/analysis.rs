//! Post-game analysis: after every action of a finished game, each seat's chance to win as a
//! search estimates it, and how much each decision lost against the best the search found.
//!
//! # How a decision is judged
//! At each seat decision the judge (an MCTS search, `AnalysisOptions::judge`) first searches the
//! position for the seat that acted, exactly as that seat's bot would have (with hidden
//! information from that seat's determinizations, so from what the seat knew then, never with
//! hindsight), and takes its choice as the best action. Then each of the two actions, the best
//! and the one played, gets a search of its own whose every iteration goes through it
//! (`Mcts::action_values`): the same budget for both, the chance after them sampled by its
//! probabilities (so averaged), both seeded alike so that their difference is not a difference
//! of luck. A root child with a handful of visits, the old measure, is never read.
//! The loss is the best action's value minus the played action's, never below 0 (a played
//! action the second search values higher was as good as the judge's).
//!
//! Two judges do all of this, each with a seed of its own, and the smaller of their two losses
//! stands, with that judge's values: a search at these budgets now and then misses the best
//! action, or values the same action ten or twenty points apart from another seed's search
//! (measured in MAD, docs/bots.md "Analysis"), and a mark must not be one judge's accident. A loss
//! both judges see is kept; one that only one sees is not.
//!
//! # One measure for the curve and the marks
//! `values[s]` after a seat's decision is the played action's search, for every seat: the very
//! value the loss subtracts, so a mark's loss is the drop the curve shows at that ply against
//! the judge's best. `values[s]` is seat `s`'s expected `Outcome::utility` (in a two-seat game
//! its chance to win, a draw counting half). With perfect information every seat's value is read
//! from the acting seat's searches, which score every seat; a chance outcome and a forced action
//! take the value of the next judged decision's best action (the position's value once the dice
//! have spoken). With hidden information each seat's value comes from its own searches only (the
//! seat's own information), so it changes at its own decisions and keeps its last value in
//! between. The final entry is the outcome.
//!
//! # Marks
//! A decision is marked `?!`, `?` or `??` when its loss reaches `Marks::dubious`, `mistake` or
//! `blunder`. The registry sets them per game above the judge's own noise, measured by analysing
//! the same games twice with different seeds (docs/bots.md, "Analysis"): a smaller loss is not
//! told apart from the judge's luck, and is not marked.
//!
//! # Cost
//! Six searches per seat decision of `judge` iterations each (four when the action played is
//! each judge's choice). The progress callback hears after every decision how many are done out
//! of how many.

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
    /// How many of the marked decisions to list among the biggest losses.
    pub biggest: usize,
    /// The least losses marked `?!`, `?` and `??` (the registry's are per game, above the
    /// judge's measured noise).
    pub marks: Marks,
}

impl Default for AnalysisOptions {
    /// 2000 iterations per decision, seed 0, the 5 biggest marked losses, `Marks::default`.
    fn default() -> Self {
        AnalysisOptions {
            judge: Budget::Iterations(2000),
            seed: 0,
            biggest: 5,
            marks: Marks::default(),
        }
    }
}

/// The least loss, in utility (0.05: five points of chance), of each mark. A loss below
/// `dubious` is not marked: the judge cannot tell it from its own noise.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Marks {
    /// `?!`, a dubious decision.
    pub dubious: f64,
    /// `?`, a mistake.
    pub mistake: f64,
    /// `??`, a blunder.
    pub blunder: f64,
}

impl Default for Marks {
    /// 10, 20 and 30 points.
    fn default() -> Self {
        Marks {
            dubious: 0.10,
            mistake: 0.20,
            blunder: 0.30,
        }
    }
}

impl Marks {
    /// The mark a decision that lost `loss` earns, if any.
    #[must_use]
    pub fn of(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.dubious {
            Some(Mark::Dubious)
        } else {
            None
        }
    }
}

/// How bad a marked decision was, written as chess annotators do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum Mark {
    /// A loss of at least `Marks::dubious`.
    #[serde(rename = "?!")]
    Dubious,
    /// At least `Marks::mistake`.
    #[serde(rename = "?")]
    Mistake,
    /// At least `Marks::blunder`.
    #[serde(rename = "??")]
    Blunder,
}

impl Default for Mark {
    /// `Mark::Blunder`: what a listed loss meant before marks had levels.
    fn default() -> Self {
        Mark::Blunder
    }
}

impl Mark {
    /// `?!`, `?` or `??`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
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
    /// The biggest marked losses, largest first, at most `AnalysisOptions::biggest`.
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
    /// The acting seat's value of the position before the action: its best action's value
    /// (the judge's choice, or the action played where that searched higher).
    pub before: f64,
    /// The value of the action played (its own search).
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
    /// `?!`, `?` or `??` when the loss reaches the analysis's `Marks`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
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
    /// Its mark (`??` in analyses stored before marks had levels, which listed blunders only).
    #[serde(default)]
    pub mark: Mark,
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

/// One judged decision: the judgement and every seat's values from its searches.
#[derive(Clone, PartialEq, Debug)]
pub struct Judged {
    /// The judgement (its `mark` unset: the caller's `Marks` give it).
    pub judgement: Judgement,
    /// Every seat's value after the action played (its own search), by seat index.
    pub after: Vec<f64>,
    /// Every seat's value before it: after the best action (the judge's choice, or the one
    /// played where that searched higher).
    pub before: Vec<f64>,
}

/// Judges the decision of `seat` to play `played` in `state` with searches of `judge` seeded
/// from `seed` (module documentation); `None` when `seat` has no legal action or `played` is not
/// one of them. With hidden information it reads nothing of `state` but what the search reads
/// (`Mcts::choose`), so two states the seat cannot tell apart get the same judgement.
pub fn judge_decision<G: Game, E: Evaluator<G> + Clone>(
    state: &G,
    seat: Seat,
    played: &G::Action,
    judge: Budget,
    seed: u64,
    evaluator: &E,
) -> Option<Judged> {
    // Two judges with seeds of their own; the smaller loss stands (module documentation).
    let first = judge_once(state, seat, played, judge, seed, evaluator)?;
    let second = judge_once(state, seat, played, judge, seed ^ SECOND_JUDGE, evaluator)?;
    Some(if second.judgement.loss < first.judgement.loss {
        second
    } else {
        first
    })
}

/// What the second judge's seed differs from the first's by (any fixed odd pattern).
const SECOND_JUDGE: u64 = 0x9E37_79B9_7F4A_7C15;

/// One judge's view of the decision: its choice, then a search through each action.
fn judge_once<G: Game, E: Evaluator<G> + Clone>(
    state: &G,
    seat: Seat,
    played: &G::Action,
    judge: Budget,
    seed: u64,
    evaluator: &E,
) -> Option<Judged> {
    let search = || Mcts::with_evaluator(SearchConfig::with_budget(judge), seed, evaluator.clone());
    let best = search().choose(state, seat)?;
    // Both actions valued by searches through them alone, seeded alike.
    let after = search().action_values(state, seat, played)?;
    let before = if &best == played {
        after.clone()
    } else {
        search()
            .action_values(state, seat, &best)
            .unwrap_or_else(|| after.clone())
    };
    let s = seat.index();
    let (before, best) = if after[s] > before[s] {
        (after.clone(), played.clone())
    } else {
        (before, best)
    };
    let judgement = Judgement {
        before: before[s],
        played: after[s],
        loss: before[s] - after[s],
        best: state.format_action(&best),
        best_info: info(state, &best),
        mark: None,
    };
    Some(Judged {
        judgement,
        after,
        before,
    })
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
            && let Some(judged) =
                judge_decision(&p.before, seat, &p.action, options.judge, seed, evaluator)
        {
            let Judged {
                judgement: mut j,
                after,
                before,
            } = judged;
            j.mark = options.marks.of(j.loss);
            if hidden {
                values[seat.index()] = after[seat.index()];
            } else {
                // The plies since the last judged decision (chance outcomes) end in this
                // position: they show its value under the judge's best play.
                for p in plies.iter_mut().rev() {
                    let p: &mut Ply = p;
                    if p.judgement.is_some() {
                        break;
                    }
                    p.values.clone_from(&before);
                }
                values.clone_from(&after);
            }
            start_values.get_or_insert(before);
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
            Some(Loss {
                index: p.index,
                seat: p.seat.unwrap_or_default(),
                loss: j.loss,
                mark: j.mark?,
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
