//! The games' evaluations as bot evaluators: each game crate offers a plain method (it knows
//! nothing of bots), and this module wraps it into `plateau_bots::Evaluator` with the playout
//! cut-off chosen for that game (crates/bots/README.md shows the measurements behind it).

use plateau_bots::Evaluator;
use plateau_engine::Seat;
use plateau_naval::{Action, Naval, Order, Phase, Style};
use rand::RngCore;

/// The UCB1 exploration constant of searches whose playouts are cut off and scored by an
/// evaluation (instead of 1.0): the evaluations' values sit closer to 0.5 than finished games'.
/// With 0.2 against 1.0, the same bot won 33 of 40 MAD games at 1000 iterations per move, and 39
/// of 40 MAD games and 39 of 40 Chakart games at 100 ms per move.
const EVALUATED_EXPLORATION: f64 = 0.2;

/// MAD's `Mad::evaluation` (material, corvette safety, tie-break), with playouts cut off after
/// `MAD_CUTOFF` actions.
#[derive(Clone, Copy, Default, Debug)]
pub struct MadEvaluation;

/// Random actions a MAD playout plays before the evaluation scores it. At 20 ms per move, cut-offs
/// of 0, 2 and 8 beat the plain search (playouts to the end) 98%, 99% and 86% of 100 games; 2
/// keeps a little of the playouts' variety at about 10% fewer iterations than 0.
const MAD_CUTOFF: usize = 2;

impl Evaluator<plateau_mad::Mad> for MadEvaluation {
    fn evaluate(&self, state: &plateau_mad::Mad, out: &mut [f64]) {
        out.copy_from_slice(&state.evaluation());
    }

    fn playout_cutoff(&self) -> Option<usize> {
        Some(MAD_CUTOFF)
    }

    fn exploration(&self) -> Option<f64> {
        Some(EVALUATED_EXPLORATION)
    }
}

/// Chakart's `Chakart::evaluation` (material, pools), with playouts cut off after
/// `CHAKART_CUTOFF` actions (chance outcomes included).
#[derive(Clone, Copy, Default, Debug)]
pub struct ChakartEvaluation;

/// Actions a Chakart playout plays before the evaluation scores it. At 20 ms per move, cut-offs
/// of 2 and 8 beat the plain search 93% and 92% of 100 games; 2 runs about 10% more iterations.
const CHAKART_CUTOFF: usize = 2;

impl Evaluator<plateau_chakart::Chakart> for ChakartEvaluation {
    fn evaluate(&self, state: &plateau_chakart::Chakart, out: &mut [f64]) {
        out.copy_from_slice(&state.evaluation());
    }

    fn playout_cutoff(&self) -> Option<usize> {
        Some(CHAKART_CUTOFF)
    }

    fn exploration(&self) -> Option<f64> {
        Some(EVALUATED_EXPLORATION)
    }
}

/// Moon Leap's `MoonLeap::evaluation` (score with the astronauts' prospects ahead), for the
/// greedy bot only: MCTS keeps its playouts to the end (at 20 ms per move, 2 seats, cut-offs of
/// 10 and 40 actions won 52% and 60% of 100 games against the plain search, not a clear gain, and
/// Moon Leap's full playouts already run over 100,000 iterations per second).
#[derive(Clone, Copy, Default, Debug)]
pub struct MoonLeapEvaluation;

impl Evaluator<plateau_moonleap::MoonLeap> for MoonLeapEvaluation {
    fn evaluate(&self, state: &plateau_moonleap::MoonLeap, out: &mut [f64]) {
        state.evaluation(out);
    }
}

/// Bataille Navale's heuristics (`plateau_naval::policy`, `odds`, `eval`): playouts of
/// `NAVAL_CUTOFF` actions played by the cheap policy and scored by `Naval::evaluation`, the search
/// choosing at its root among the thorough policy's candidates and inside its tree between the
/// cheap policy's order and a pass, each determinization serving `NAVAL_SHARE` iterations; the greedy bot
/// plays the myopic policy (`Style::Greedy`), the setup bot the thorough placement first. All of it
/// reads only the acting seat's information.
#[derive(Clone, Copy, Default, Debug)]
pub struct NavalEvaluation;

/// Actions from the search's root (tree and playout together, `Evaluator::cutoff_from_root`)
/// before the evaluation scores a Bataille Navale iteration: one turn's orders. The bot
/// `mcts:<budget>:cut<actions>` replaces it (`BotSpec::CutMcts`; docs/bots.md, section 1, measures
/// 40, past the seat's next turn); the levels and the analysis's judge search with this one.
pub const NAVAL_CUTOFF: usize = 8;
/// Iterations that share one determinization in a Bataille Navale search: drawing one (a
/// backtracking search over three hidden fleets) costs some twenty iterations.
const NAVAL_SHARE: usize = 16;
/// Progressive widening of the Bataille Navale search, `(k, alpha)` (`Evaluator::widening`): a
/// node visited n times has at most k n^alpha children, the policy's order first, so that 100
/// iterations search its 6 first options and 1000 iterations 15.
const NAVAL_WIDENING: (f64, f64) = (1.0, 0.4);
/// The prior's bonus for the thorough policy's own choice at the root
/// (`Evaluator::prior_weight`).
const NAVAL_PRIOR: f64 = 0.05;
/// Normal shots among the root candidates, besides the policy's choice, the pass and the best
/// aim of each special.
const NAVAL_SHOTS: usize = 5;

impl Evaluator<Naval> for NavalEvaluation {
    fn evaluate(&self, state: &Naval, out: &mut [f64]) {
        out.copy_from_slice(&state.evaluation());
    }

    fn playout_cutoff(&self) -> Option<usize> {
        Some(NAVAL_CUTOFF)
    }

    fn cutoff_from_root(&self) -> bool {
        true
    }

    fn exploration(&self) -> Option<f64> {
        Some(EVALUATED_EXPLORATION)
    }

    fn playout_action(&self, state: &Naval, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
        state.heuristic_action(seat, Style::Quick, rng)
    }

    fn has_playout_policy(&self) -> bool {
        true
    }

    fn greedy_action(&self, state: &Naval, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
        state.heuristic_action(seat, Style::Greedy, rng)
    }

    fn setup_action(&self, state: &Naval, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
        if state.phase != Phase::Placement {
            return None;
        }
        state.heuristic_action(seat, Style::Thorough, rng)
    }

    fn candidates(
        &self,
        state: &Naval,
        seat: Seat,
        root: bool,
        rng: &mut dyn RngCore,
        out: &mut Vec<Action>,
    ) -> Option<()> {
        if root {
            state.candidate_actions(seat, NAVAL_SHOTS, rng, out);
        } else {
            out.clear();
            let action = state.heuristic_action(seat, Style::Quick, rng)?;
            out.push(action);
            if let Action::Order { ship, order } = action
                && order != Order::Pass
            {
                out.push(Action::Order {
                    ship,
                    order: Order::Pass,
                });
            }
        }
        Some(())
    }

    fn has_candidates(&self) -> bool {
        true
    }

    fn iterations_per_determinization(&self) -> usize {
        NAVAL_SHARE
    }

    fn widening(&self) -> Option<(f64, f64)> {
        Some(NAVAL_WIDENING)
    }

    fn prior_weight(&self) -> f64 {
        NAVAL_PRIOR
    }
}
