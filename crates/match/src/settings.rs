//! What a match actor is set to: bot pacing and budget, abandonment, the first move's grace and
//! when an idle match leaves memory. The server's `Options` (crates/server) holds them beside its
//! own settings and hands them over when its lobby starts.

use std::time::Duration;

/// The settings every match actor of a lobby shares.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Pause before a bot plays, so people can follow (0 in tests); none at a simultaneous
    /// node, where the moves are secret.
    pub bot_delay: Duration,
    /// Hard cap on a bot's thinking (each bot also has its own budget, at most 1 s for the
    /// lobby's bots); past it the seat plays a random legal action.
    pub bot_budget: Duration,
    /// In a live match with a clock, a human seat with no open socket for this long resigns by
    /// the game's rule (docs/protocol.md section 7.4).
    pub abandon_after: Duration,
    /// How long a seat's per-move or Fischer clock waits for the seat's first move before it
    /// runs anyway (docs/protocol.md section 4.1); 0 runs it at once.
    pub first_move: Duration,
    /// A match nobody watches and in which nothing runs by itself leaves memory after this time
    /// (the server's `Limits::idle_unload`); it is rebuilt from the store when asked for.
    pub idle_unload: Duration,
}
