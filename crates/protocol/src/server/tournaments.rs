//! The JSON bodies of the HTTP API about tournaments (docs/protocol.md section 7.9).

use schemars::JsonSchema;
use serde::Serialize;

use super::TimeControl;

/// Where a tournament stands: `"waiting"` for its start, `"running"` or `"finished"`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentPhase {
    /// Created; players join until it starts.
    Waiting,
    /// Started: games are being paired and played.
    Running,
    /// Over: the standings are final.
    Finished,
}

/// The three kinds of tournament (docs/tournaments.md section 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// Two seats, paired again as games end until its time is up (section 3).
    Arena,
    /// Two seats, a number of rounds paired by the Dutch system (section 4).
    Swiss,
    /// Three seats or more, a number of rounds of tables seated by score (section 5).
    Tables,
}

/// A tournament's settings and where it stands (docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentInfo {
    /// Its id.
    pub id: String,
    /// Arena, Swiss or tables.
    pub kind: TournamentKind,
    /// Its name, as its creator gave it.
    pub name: String,
    /// Registry name of the game played.
    pub game: String,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// Whether its games change ratings.
    pub rated: bool,
    /// The rating a player needs in that game to join, if any.
    pub min_rating: Option<i64>,
    /// Seats of each game: 2, or the size of the tables.
    pub seats: u8,
    /// An arena's length, in minutes (`null` for a Swiss or tables).
    pub minutes: Option<u32>,
    /// Rounds to play (a Swiss or tables; `null` for an arena).
    pub rounds: Option<u32>,
    /// Rounds paired so far (0 for an arena).
    pub round: u32,
    /// Whether bots take the seats left over at tables the players do not fill (tables only;
    /// otherwise the short tables play a seat short).
    pub bots: bool,
    /// Whether the server made it on its schedule rather than a player.
    pub scheduled: bool,
    /// When it starts (Unix milliseconds).
    pub starts_at: i64,
    /// When an arena stops pairing (Unix milliseconds): the start plus its length; `null` for a
    /// Swiss or tables, which end with their last round.
    pub ends_at: Option<i64>,
    /// Waiting, running or finished.
    pub phase: TournamentPhase,
    /// The creator's name.
    pub creator: String,
    /// Players who joined and have not withdrawn.
    pub players: u32,
}

/// `GET /api/tournaments` (docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tournaments {
    /// The tournaments waiting or running, latest start first.
    pub live: Vec<TournamentInfo>,
    /// The last finished ones, latest start first, at most 20.
    pub finished: Vec<TournamentInfo>,
}

/// One line of a tournament's standings.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentStanding {
    /// Place, from 1.
    pub place: u32,
    /// The player's name.
    pub name: String,
    /// False once the player withdrew.
    pub active: bool,
    /// An arena's points: 2 a win, 1 a draw, doubled on a streak of two wins or more. A
    /// Swiss's and tables' in half points: 2 for each player outranked, 1 for each tied (a Swiss
    /// win or bye 2, a draw 1).
    pub points: u32,
    /// Games finished.
    pub games: u32,
    /// Games won (at tables: sole first places).
    pub wins: u32,
    /// On a streak: the next game counts double.
    pub on_fire: bool,
    /// A Swiss's tie-breaks after the points (`null` for the other kinds).
    pub tie_breaks: Option<TieBreaks>,
}

/// A Swiss's tie-breaks, in the order they apply after the points (docs/tournaments.md section
/// 6.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TieBreaks {
    /// Buchholz less its lowest term, in half points.
    pub buchholz_cut1: u32,
    /// The sum of the opponents' scores, in half points.
    pub buchholz: u32,
    /// Each opponent's score times the points scored against them, in quarter points.
    pub sonneborn_berger: u32,
}

/// A round's bye in a Swiss: the player left over, scored as a win without a game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentBye {
    /// The round, from 1.
    pub round: u32,
    /// The player's name.
    pub name: String,
}

/// One game of a tournament.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentGame {
    /// The round it belongs to, from 1 (`null` in an arena).
    pub round: Option<u32>,
    /// The match (watchable at `/m/{id}`); `null` for the instant it is being made.
    pub match_id: Option<String>,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Each seat's rank (1 for the best) once the game is over, else `null`.
    pub ranks: Option<Vec<u8>>,
}

/// `GET /api/tournaments/{id}` and the answers of creating, joining and withdrawing (docs/
/// protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentDetail {
    /// Settings and phase.
    pub tournament: TournamentInfo,
    /// The standings, first place first.
    pub standings: Vec<TournamentStanding>,
    /// Its games, in the order they were paired (a round's top board first).
    pub games: Vec<TournamentGame>,
    /// A Swiss's byes, one per round paired with an odd number of players.
    pub byes: Vec<TournamentBye>,
}

/// One tournament a player joined, as its page lists it (`GET /api/players/{name}/tournaments`,
/// docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerTournament {
    /// The tournament.
    pub tournament: TournamentInfo,
    /// The player's place in its standings now (final once it is finished), from 1.
    pub place: u32,
    /// The player's points, as the standings give them.
    pub points: u32,
    /// Games the player finished in it.
    pub games: u32,
}

/// `GET /api/players/{name}/tournaments` (docs/protocol.md section 7.9).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerTournaments {
    /// The player's name as registered.
    pub name: String,
    /// Its tournaments, latest start first.
    pub tournaments: Vec<PlayerTournament>,
}
