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
//! (measured in MAD, docs/bots.md "Analysis"), and a mark must not be one judge's accident.
//!
//! # The second opinion
//! Where either finds a loss the analysis would mark (`Marks::dubious` or more), the decision is
//! judged again, wider: the choices of eight judges (the two and six more), each
//! choice and the action played valued by the mean of four searches through it (every action by
//! searches of the same seeds), and the loss is the mean over the eight judges of what each one's
//! choice gains over the action played (nothing where it gains nothing). That is the loss a
//! search of the judge's budget finds on average, where the smaller of two losses is all or
//! nothing by whether both judges found the better action: a move that one judge in two finds
//! gets about half its gain, in every run alike, and the two-valued search of one action is
//! averaged over four. `before` is then the mean of what the eight judges' choices are worth
//! (each the action played's where it is worth less) and `best` the most valued choice. The
//! loss kept is not that mean but its lower confidence bound from the eight judges' spread (one
//! sided 95%, Student's t at 7 degrees of freedom), and `before` moves toward the action played
//! by as much: where the judges disagree (a move half of them find), the loss is what the judge
//! is sure of, so that one run's luck in drawing its judges does not mark a decision 20 points
//! that another run leaves unmarked (docs/bots.md, "Analysis"). Few decisions need it (about 5%
//! of an expert's in MAD), so it costs little.
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
//! Two judges of up to three searches each (the choice, then the action played and the choice
//! where it differs), all of `judge` iterations; where the second opinion is asked, six more
//! choices and four searches through the action played and through each distinct choice. The
//! progress callback hears after every decision how many are done out of how many.

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
    /// (the judge's choice, or the action played where that searched higher; after a second
    /// opinion, the action played's plus the lower bound of its judges' mean gain).
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
    /// played where that searched higher; after a second opinion, the action played's moved by
    /// the lower bound of its judges' mean gain).
    pub before: Vec<f64>,
}

/// Judges the decision of `seat` to play `played` in `state` with searches of `judge` seeded
/// from `seed` (module documentation), asking the second opinion when any of the first judges
/// finds a loss of `recheck` or more (the analysis passes its `Marks::dubious`); `None` when
/// `seat` has no legal action or `played` is not one of them. With hidden information it reads
/// nothing of `state` but what the search reads (`Mcts::choose`), so two states the seat cannot
/// tell apart get the same judgement.
pub fn judge_decision<G: Game, E: Evaluator<G> + Clone>(
    state: &G,
    seat: Seat,
    played: &G::Action,
    judge: Budget,
    recheck: f64,
    seed: u64,
    evaluator: &E,
) -> Option<Judged> {
    let judges = Judges {
        state,
        seat,
        played,
        judge,
        evaluator,
    };
    // Judges with seeds of their own; the smallest loss stands unless one of them would mark
    // the decision (module documentation).
    let mut seen = Vec::with_capacity(JUDGES.len());
    for pattern in JUDGES {
        seen.push(judges.once(seed ^ pattern)?);
    }
    if seen.iter().any(|(j, _)| j.judgement.loss >= recheck) {
        let choices = seen.into_iter().map(|(_, choice)| choice).collect();
        return judges.second_opinion(choices, seed);
    }
    seen.into_iter().map(|(j, _)| j).reduce(|a, b| {
        if b.judgement.loss < a.judgement.loss {
            b
        } else {
            a
        }
    })
}

/// What each first judge's seed differs from the decision's by (fixed patterns, the first 0).
const JUDGES: [u64; 2] = [0, 0x9E37_79B9_7F4A_7C15];

/// What the second opinion's seeds are drawn from, with the decision's seed.
const SECOND_OPINION: u64 = 0xD1B5_4A32_D192_ED03;

/// How many judges' choices the second opinion weighs, the first judges' among them.
const SECOND_OPINION_JUDGES: usize = 8;

/// How many searches through each action the second opinion's values are the mean of.
const SECOND_OPINION_SEARCHES: usize = 4;

/// One decision and the searches that judge it.
struct Judges<'a, G: Game, E> {
    state: &'a G,
    seat: Seat,
    played: &'a G::Action,
    judge: Budget,
    evaluator: &'a E,
}

impl<G: Game, E: Evaluator<G> + Clone> Judges<'_, G, E> {
    fn search(&self, seed: u64) -> Mcts<G, E> {
        Mcts::with_evaluator(
            SearchConfig::with_budget(self.judge),
            seed,
            self.evaluator.clone(),
        )
    }

    /// One judge's view of the decision: its choice, then a search through each action; and
    /// that choice (the judgement's `best` is the action played where that searched higher).
    fn once(&self, seed: u64) -> Option<(Judged, G::Action)> {
        let (state, seat, played) = (self.state, self.seat, self.played);
        let choice = self.search(seed).choose(state, seat)?;
        // Both actions valued by searches through them alone, seeded alike.
        let after = self.search(seed).action_values(state, seat, played)?;
        let before = if &choice == played {
            after.clone()
        } else {
            self.search(seed)
                .action_values(state, seat, &choice)
                .unwrap_or_else(|| after.clone())
        };
        let best = if after[seat.index()] > before[seat.index()] {
            played
        } else {
            &choice
        };
        let judged = self.judged(best, better_for(seat, &before, &after), after);
        Some((judged, choice))
    }

    /// The second opinion on a decision either judge would mark (module documentation): more
    /// judges' choices (`choices` holds the first ones), each choice and the action played valued
    /// by the mean of several searches through it, and the loss the lower confidence bound of
    /// the mean over the judges of what each one's choice gains over the action played (none
    /// where it gains nothing).
    fn second_opinion(&self, mut choices: Vec<G::Action>, seed: u64) -> Option<Judged> {
        let (state, seat, played) = (self.state, self.seat, self.played);
        let mut seeds = ChaCha8Rng::seed_from_u64(seed ^ SECOND_OPINION);
        while choices.len() < SECOND_OPINION_JUDGES {
            choices.push(self.search(seeds.next_u64()).choose(state, seat)?);
        }
        // Every action valued by searches of the same seeds, so that two actions' difference is
        // not a difference of luck.
        let valuations: Vec<u64> = (0..SECOND_OPINION_SEARCHES)
            .map(|_| seeds.next_u64())
            .collect();
        let value = |action: &G::Action| -> Option<Vec<f64>> {
            let mut sum: Vec<f64> = Vec::new();
            for &s in &valuations {
                let v = self.search(s).action_values(state, seat, action)?;
                sum.resize(v.len(), 0.0);
                sum.iter_mut().zip(&v).for_each(|(t, x)| *t += x);
            }
            Some(sum.iter().map(|t| t / valuations.len() as f64).collect())
        };
        let after = value(played)?;
        let mut valued: Vec<(&G::Action, Vec<f64>)> = vec![(played, after.clone())];
        let mut before = vec![0.0; after.len()];
        let mut gains = Vec::with_capacity(choices.len());
        for choice in &choices {
            let values = match valued.iter().find(|(a, _)| *a == choice) {
                Some((_, v)) => v.clone(),
                None => {
                    let v = value(choice).unwrap_or_else(|| after.clone());
                    valued.push((choice, v.clone()));
                    v
                }
            };
            let gained = better_for(seat, &values, &after);
            gains.push(gained[seat.index()] - after[seat.index()]);
            before
                .iter_mut()
                .zip(&gained)
                .for_each(|(b, x)| *b += x / choices.len() as f64);
        }
        // The loss kept is the lower confidence bound of the judges' mean gain: `before` moves
        // toward the action played, every seat's value alike, so the curve stays one measure.
        let s = seat.index();
        let mean = before[s] - after[s];
        if mean > 0.0 {
            let keep = lower_bound(&gains) / mean;
            before
                .iter_mut()
                .zip(&after)
                .for_each(|(b, a)| *b = a + (*b - a) * keep);
        }
        let best = valued
            .iter()
            .fold(&valued[0], |m, c| if c.1[s] > m.1[s] { c } else { m })
            .0;
        Some(self.judged(best, before, after))
    }

    /// The judgement of the action played against `best`, from every seat's values before
    /// (the judge's best) and after (the action played).
    fn judged(&self, best: &G::Action, before: Vec<f64>, after: Vec<f64>) -> Judged {
        let s = self.seat.index();
        let judgement = Judgement {
            before: before[s],
            played: after[s],
            loss: (before[s] - after[s]).max(0.0),
            best: self.state.format_action(best),
            best_info: info(self.state, best),
            mark: None,
        };
        Judged {
            judgement,
            after,
            before,
        }
    }
}

/// Student's t at 7 degrees of freedom, one-sided 95%: the second opinion's eight judges.
const SECOND_OPINION_T: f64 = 1.895;

/// The lower confidence bound of the mean of `gains` (the second opinion's judges, each what
/// its choice gains over the action played): the mean less `SECOND_OPINION_T` standard errors,
/// at least 0.
pub(crate) fn lower_bound(gains: &[f64]) -> f64 {
    let n = gains.len() as f64;
    let mean = gains.iter().sum::<f64>() / n;
    let var = gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean - SECOND_OPINION_T * (var / n).sqrt()).max(0.0)
}

/// Every seat's values after the better for `seat` of two actions (the first on a tie).
fn better_for(seat: Seat, one: &[f64], other: &[f64]) -> Vec<f64> {
    if other[seat.index()] > one[seat.index()] {
        other.to_vec()
    } else {
        one.to_vec()
    }
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
            && let Some(judged) = judge_decision(
                &p.before,
                seat,
                &p.action,
                options.judge,
                options.marks.dubious,
                seed,
                evaluator,
            )
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
