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
//!
//! # The modules
//! `shapes` holds what an analysis is made of, `judge` judges one decision, and this module
//! replays a record and judges its every decision (`analyse`).

mod judge;
mod shapes;

use plateau_engine::{Actor, DynGame, Event, Game, GameEntry, LogEntry, Record, Seat, Visitor};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::eval::Evaluator;
#[cfg(test)]
pub(crate) use judge::lower_bound;
pub use judge::{Judged, judge_decision};
pub use shapes::{
    Analysis, AnalysisError, AnalysisOptions, FORMAT, Judgement, Loss, Mark, Marks, Ply,
};

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
