//! Plateau's match service core (docs/architecture.md section 5): one actor task per match that
//! checks a request, commits it to the store, applies it and tells every viewer what it may know;
//! the clocks, the bots' threads, the version each viewer is shown, a stored match's replay and
//! history, and post-game analyses. It speaks no HTTP: the server (crates/server) carries its
//! messages over sockets and routes, and owns the lobby that starts its actors.
//!
//! The modules, top-down (docs/architecture.md section 5.4):
//! - `actor`: one match: checks, commits, chance, bots, clocks, per-viewer messages;
//! - `analysis`, `replays`: post-game analyses; a stored match's replay and histories;
//! - `secrecy`: the check that a viewer's messages hold only what it may know;
//! - `attendance`: what a match reports of who sits at it, to whoever keeps count;
//! - `settings`, `tokens`, `clock`, `model`: a match's settings; seat tokens; match clocks;
//!   the shapes and the coded error (`ApiError`) the service shares;
//! - `versions`, `catalogue`, `botpool`: what each viewer's version counts; the games hosted;
//!   the bots' threads;
//! - `metrics`: the figures the matches record for the operator (decisions, commit times).

pub mod actor;
pub mod analysis;
pub mod attendance;
pub mod botpool;
pub mod catalogue;
pub mod clock;
pub mod metrics;
pub mod model;
pub mod replays;
pub mod secrecy;
pub mod settings;
pub mod tokens;
pub mod versions;

pub use attendance::{Attendance, MatchPresence};
pub use catalogue::Catalogue;
pub use model::ApiError;
pub use settings::Settings;
