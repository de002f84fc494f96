//! Bots that play any Plateau game through the `Game` trait only (no bot code names a game).
//!
//! A bot sees what its seat may see: it gets the state only to call `legal_actions` for its own seat
//! and `determinize` from its own point of view.

pub mod analysis;
mod bot;
mod eval;
mod mcts;
mod playout;
mod spec;
#[cfg(test)]
mod tests;

pub use analysis::{
    Analysis, AnalysisError, AnalysisOptions, Judged, Judgement, Loss, Mark, Marks, Ply, analyse,
    judge_decision,
};
pub use bot::{Bot, BotError, BotFactory, DynBot};
pub use eval::{Evaluator, NoEvaluator, greedy_action, worst_action};
pub use mcts::{ChildStats, MAX_POOL, Mcts, SearchConfig, SearchStats};
pub use playout::{PlayoutRate, random_playouts};
pub use spec::{BotSpec, Budget, Level, LevelEntry, Levels, UnknownBot};

use plateau_engine::{Game, Seat};
use rand::Rng;

/// A uniformly random legal action of `seat`, or `None` when it has none.
pub fn random_action<G: Game, R: Rng + ?Sized>(
    state: &G,
    seat: Seat,
    rng: &mut R,
) -> Option<G::Action> {
    let mut actions = Vec::new();
    state.legal_actions(seat, &mut actions);
    if actions.is_empty() {
        None
    } else {
        let i = rng.random_range(0..actions.len());
        Some(actions.swap_remove(i))
    }
}
