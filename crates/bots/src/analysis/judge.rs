//! One decision judged (module documentation of `analysis`): the first judges, and the second
//! opinion where either would mark it.

use plateau_engine::{Game, Seat};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::shapes::Judgement;
use crate::eval::Evaluator;
use crate::mcts::{Mcts, SearchConfig};
use crate::spec::Budget;

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
