//! A tournament as stored (docs/tournaments.md): its settings and its state as the server
//! serializes them, with the few fields the lists and limits read kept in columns of their own.
//! The store does not read the two texts: the server writes them whole, in one statement, each
//! time the tournament changes, and only over the version it read (`Store::save_tournament`), so
//! several nodes sharing the database never write over each other's changes.

use crate::players::PlayerId;

/// Whether a tournament is still to run (waiting for its start or running) or over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TournamentStatus {
    /// Not over: the server runs it (and loads it again after a restart).
    Live,
    /// Over: its standings are final.
    Finished,
}

impl TournamentStatus {
    /// The word stored: `live` or `finished`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Live => "live",
            TournamentStatus::Finished => "finished",
        }
    }

    /// The status a stored word names.
    #[must_use]
    pub fn parse(word: &str) -> Option<TournamentStatus> {
        match word {
            "live" => Some(TournamentStatus::Live),
            "finished" => Some(TournamentStatus::Finished),
            _ => None,
        }
    }
}

/// One tournament's row.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredTournament {
    /// Its id (the server's, unique).
    pub id: String,
    /// The account that created it.
    pub creator: PlayerId,
    /// Live or finished.
    pub status: TournamentStatus,
    /// When it starts, in Unix milliseconds.
    pub starts_at_ms: i64,
    /// When it was created, in Unix milliseconds.
    pub created_at_ms: i64,
    /// Its settings as the server serializes them (JSON), never changed after creation.
    pub settings: String,
    /// Its state as the server serializes them (JSON): replaced whole on each change.
    pub state: String,
    /// How many times its state was saved (0 when created; a new row is stored at 0 whatever
    /// this says): the version a save must name.
    pub version: i64,
}
