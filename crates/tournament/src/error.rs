//! What an operation on a tournament can refuse. A refused operation changes nothing.

use crate::{GameId, PlayerId};

/// Why an operation on a tournament was refused (docs/tournaments.md section 2.4).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The settings break a limit; the text names the field.
    #[error("bad settings: {0}")]
    Settings(&'static str),
    /// The player is already in the tournament (and has not withdrawn).
    #[error("player {0:?} has already joined")]
    AlreadyJoined(PlayerId),
    /// The player never joined.
    #[error("player {0:?} is not in the tournament")]
    UnknownPlayer(PlayerId),
    /// The player has already withdrawn.
    #[error("player {0:?} has already withdrawn")]
    AlreadyWithdrawn(PlayerId),
    /// The tournament is over: nothing can be joined or paired.
    #[error("the tournament is over")]
    Finished,
    /// The operation belongs to another kind of tournament (pairing waiting players in a
    /// Swiss, a round in an arena).
    #[error("not for this kind of tournament: {0}")]
    WrongKind(&'static str),
    /// The arena was already started.
    #[error("the tournament has already started")]
    AlreadyStarted,
    /// The arena has not started yet.
    #[error("the tournament has not started")]
    NotStarted,
    /// A round is still being played: every result must be in before the next round is paired.
    #[error("round {0} is still being played")]
    RoundRunning(u32),
    /// Too few active players to pair a round.
    #[error("{active} active players, {needed} needed")]
    NotEnoughPlayers {
        /// Players needed.
        needed: usize,
        /// Players active.
        active: usize,
    },
    /// The players cannot be seated at tables of the game's size or one seat fewer (five
    /// players at tables of four, without bots).
    #[error("{players} players do not fill tables of {seats} or {seats} less one")]
    NoTables {
        /// Active players.
        players: usize,
        /// The table's size.
        seats: usize,
    },
    /// No pairing of the active players avoids every rematch (a Swiss with more rounds than
    /// its players can give).
    #[error("no pairing avoids a rematch")]
    NoPairing,
    /// No game of the tournament has that id.
    #[error("no game {0:?} in this tournament")]
    UnknownGame(GameId),
    /// The game's result is already recorded.
    #[error("game {0:?} already has its result")]
    AlreadyRecorded(GameId),
    /// The result does not fit the game; the text says why.
    #[error("bad result: {0}")]
    BadResult(&'static str),
    /// A stored tournament that does not hold together; the text names the part.
    #[error("stored tournament refused: {0}")]
    Stored(&'static str),
}
