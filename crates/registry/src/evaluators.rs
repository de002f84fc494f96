//! The games' evaluations as bot evaluators: each game crate offers a plain method (it knows
//! nothing of bots), and this module wraps it into `plateau_bots::Evaluator` with the playout
//! cut-off chosen for that game (crates/bots/README.md shows the measurements behind it).

use plateau_bots::Evaluator;

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
