//! How a search runs: its budget, exploration constant and bounds.

use crate::spec::Budget;

/// How the search runs.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Time or iterations per move.
    pub budget: Budget,
    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln N / n)`; utilities are in [0, 1].
    pub exploration: f64,
    /// A safety bound on playout length, in actions: longer playouts stop and are scored by the
    /// evaluator (0.5 each without one).
    pub max_playout: usize,
    /// The most tree nodes kept; past it the search stops growing the tree and only plays out.
    pub max_nodes: usize,
    /// Whether to keep the subtree of the new position between moves (perfect information only).
    pub reuse: bool,
}

impl SearchConfig {
    /// The defaults with the given budget.
    #[must_use]
    pub fn with_budget(budget: Budget) -> SearchConfig {
        SearchConfig {
            budget,
            ..SearchConfig::default()
        }
    }
}

impl Default for SearchConfig {
    /// 1000 iterations, `c = 1.0`, playouts of at most 5000 actions, 4 million nodes, reuse on.
    fn default() -> Self {
        SearchConfig {
            budget: Budget::Iterations(1000),
            exploration: 1.0,
            max_playout: 5000,
            max_nodes: 4_000_000,
            reuse: true,
        }
    }
}
