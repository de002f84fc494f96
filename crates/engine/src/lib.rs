//! The Plateau engine: the `Game` contract every game implements (docs/architecture.md
//! section 2), the driver of every game loop (section 2.3), game logs, their one replay and the
//! records that hold them, as JSON and as text (section 4), perft, and the text-driven `DynGame`
//! view that the command line and the match service use to handle any game by name.
//!
//! The shared conformance checks that every game's tests run are the crate `plateau-testkit`.

pub mod chance;
pub mod diff;
pub mod driver;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod info;
pub mod log;
pub mod observation;
pub mod outcome;
pub mod perft;
pub mod record;
pub mod record_text;
pub mod seat;

pub use chance::Seed;
pub use diff::{first_difference, first_difference_in};
pub use dynamic::{ActionError, DynGame, GameEntry};
pub use error::{IllegalAction, ParseError, SetupError};
pub use game::{Ending, Game, GameInfo};
pub use info::{ActionInfo, ActionParts};
pub use log::{Event, LogEntry, ReplayError, Visitor, replay_log};
pub use observation::{JsonText, ObservationJson, ObservationPatch};
pub use outcome::Outcome;
pub use record::{Record, Replay};
pub use record_text::TextError;
pub use seat::{Actor, Seat, SeatSet, ToAct, Viewer};
