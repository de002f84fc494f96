//! What quick pairing asks of the service it pairs for: the pairing crate owns the trait, the
//! server's lobby implements it, so pairing never imports the lobby.

use std::future::Future;
use std::sync::Arc;

use plateau_match::Catalogue;
use plateau_match::model::{ApiError, SeatSpec, TimeControl};
use plateau_store::Store;
use plateau_store::players::{Player, PlayerId};

/// A table the pairing made, for the host to create as an ordinary match (with a fresh seed and
/// the game's default settings).
pub struct NewTable {
    /// The game's registry name.
    pub game: String,
    /// Who sits at each seat: a person, or the bot filling it.
    pub seats: Vec<SeatSpec>,
    /// The pool's clock.
    pub time_control: TimeControl,
    /// Per seat: the seat token's hash and the person holding it (bots: none).
    pub seated: Vec<Option<(String, Player)>>,
    /// Whether it changes ratings.
    pub rated: bool,
    /// The address key of the seeker that let bots in, for the limits per address; none for a
    /// table of people alone.
    pub creator: Option<String>,
}

/// The service quick pairing pairs for (the server's lobby).
pub trait Host: Send + Sync + 'static {
    /// The games and bots offered.
    fn catalogue(&self) -> &Catalogue;

    /// Where players' ratings are read.
    fn store(&self) -> &Arc<dyn Store>;

    /// Creates the match of a paired table; its id.
    ///
    /// # Errors
    /// Why the match could not be created (the service stops, limits, the store).
    fn create_table(
        &self,
        table: NewTable,
    ) -> impl Future<Output = Result<String, ApiError>> + Send;

    /// Calls off paired match `id` if a seat's player never opened it; those players (none if
    /// the match started).
    fn call_off(&self, id: &str) -> impl Future<Output = Vec<PlayerId>> + Send;
}
