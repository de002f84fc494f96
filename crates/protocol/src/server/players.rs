//! The JSON bodies of the HTTP API about players (docs/protocol.md section 7): the session's
//! player, profiles, ratings and leaderboards.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::{ChallengeView, PlayerKind, PlayerTournament, PlayerView, RecordBody, Room, Summary};
use crate::shapes;

/// `GET /api/me` (docs/protocol.md section 7.1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Me {
    /// The session's player, `null` without a session.
    pub player: Option<PlayerView>,
    /// Whether `POST /api/guest` may rename the player now: a guest until its first rated game.
    pub can_rename: bool,
    /// Its standing with the moderators (section 7.11): left out when it is no moderator, is
    /// neither muted nor banned, and has no warning to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<super::MyStanding>,
}

/// The answer of `POST /api/guest`, `/api/account` and `/api/login` (docs/protocol.md section
/// 7.1): `{"player": PLAYER}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Signed {
    /// The session's player now.
    pub player: PlayerView,
}

/// `GET /api/me/games` (docs/protocol.md section 7.1).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MyGames<'a> {
    /// The live matches where one of the player's seats is to act.
    pub waiting: Vec<Summary<'a>>,
    /// The player's live matches, newest first, at most 50.
    pub playing: Vec<Summary<'a>>,
}

/// A player's standing in one game (docs/protocol.md section 7.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// The shown rating (mu times 60).
    pub rating: i64,
    /// The shown deviation (sigma times 60).
    pub deviation: i64,
    /// Rated games played.
    pub games: u32,
    /// Won (first alone).
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn (first, shared).
    pub draws: u32,
    /// Fewer than 10 rated games in that game.
    pub provisional: bool,
}

/// A point of a rating's history (docs/protocol.md section 7.3): `{"at", "rating", "match"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint<'a> {
    /// Unix ms.
    pub at: i64,
    /// The shown rating then.
    pub rating: i64,
    /// The match that made it, `null` for the starting point.
    #[serde(rename = "match")]
    pub match_id: Option<&'a str>,
}

/// One finished match of a profile's `recent` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecentMatch<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// The game's title.
    pub title: &'a str,
    /// The player's seat.
    pub seat: usize,
    /// The table size.
    pub seats: usize,
    /// The seat's rank (1 is best).
    pub rank: Option<u8>,
    /// `win` (first alone), `draw` (first, shared) or `loss`.
    #[schemars(with = "shapes::Result")]
    pub result: &'static str,
    /// Whether the match was rated.
    pub rated: bool,
    /// Why a rated match changed no rating, else `null`.
    #[schemars(with = "Option<shapes::Unrated>")]
    pub unrated: Option<&'a str>,
    /// How the player's shown rating moved, `null` for a casual match.
    pub rating_change: Option<i64>,
    /// The other players' names.
    pub opponents: Vec<&'a str>,
    /// Unix ms when it finished.
    pub ended_at: Option<i64>,
}

/// `GET /api/players/{name}` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Profile<'a> {
    /// The name.
    pub name: &'a str,
    /// Guest, account or bot.
    pub kind: PlayerKind,
    /// Unix ms of creation.
    pub created_at: i64,
    /// Per game with a rated game: the standing.
    pub ratings: BTreeMap<&'a str, Standing>,
    /// Per game: the shown rating before the first rated game, then after each, oldest first.
    pub history: BTreeMap<&'a str, Vec<RatingPoint<'a>>>,
    /// The finished matches, latest first, at most 50.
    pub recent: Vec<RecentMatch<'a>>,
}

/// One player of a leaderboard (docs/protocol.md section 7.3): the name and kind, then the
/// fields of a `Standing` (`provisional` always false: the list holds players past their
/// provisional games).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leader<'a> {
    /// The name.
    pub name: &'a str,
    /// Guest or account.
    pub kind: PlayerKind,
    /// The player's standing in the game.
    #[serde(flatten)]
    pub standing: Standing,
}

/// `GET /api/leaderboard/{game}` (docs/protocol.md section 7.3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard<'a> {
    /// The game's registry name.
    pub game: &'a str,
    /// A newcomer's shown rating.
    pub start: i64,
    /// People past their provisional games, best first, at most 100.
    pub players: Vec<Leader<'a>>,
}

/// `GET /api/me/relations` (docs/protocol.md section 7.8): the players the session's player
/// follows and those it blocks, by name.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Relations {
    /// Followed players.
    pub follows: Vec<PlayerView>,
    /// Blocked players.
    pub blocks: Vec<PlayerView>,
}

/// `GET /api/me/data` (docs/protocol.md section 7.10): everything the server keeps about the
/// session's player, to download.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerData<'a> {
    /// Unix ms when it was put together.
    pub exported_at: i64,
    /// The player itself.
    pub account: DataAccount,
    /// Per game with a rated game: the standing now.
    pub ratings: BTreeMap<String, Standing>,
    /// Every change of its ratings, oldest first.
    pub rating_changes: Vec<DataRatingChange>,
    /// Every match it sits in, latest ended (then created) first: finished ones with their
    /// record.
    pub games: Vec<DataGame<'a>>,
    /// Every chat line it wrote, oldest first.
    pub chat: Vec<DataChatLine>,
    /// The players it follows.
    pub follows: Vec<PlayerView>,
    /// The players it blocks.
    pub blocks: Vec<PlayerView>,
    /// The challenges to named players it has open on this node (section 7.7), as its lobby
    /// shows them.
    pub challenges: DataChallenges,
    /// The tournaments it joined (section 7.9), latest start first.
    pub tournaments: Vec<PlayerTournament>,
    /// Its standing with the moderators (section 7.11) and the reports it filed.
    pub moderation: DataModeration,
}

/// The moderation part of a `PlayerData`: what the moderators' records hold about the player
/// that it may see. The reports others filed about it are not here: they would name the
/// reporters.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataModeration {
    /// Whether it holds the moderator role.
    pub moderator: bool,
    /// Whether a ban is in force.
    pub banned: bool,
    /// The ban's end, Unix ms; `null` when there is no end or no ban.
    pub banned_until: Option<i64>,
    /// The end of a mute in force, Unix ms; `null` when not muted.
    pub muted_until: Option<i64>,
    /// Every warning it received, read or not, oldest first.
    pub warnings: Vec<super::Warning>,
    /// The reports it filed, oldest first.
    pub reports: Vec<DataReport>,
}

/// A report the player filed, in its `PlayerData`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataReport {
    /// Its number.
    pub id: i64,
    /// Unix ms it was filed.
    pub at: i64,
    /// The reported player's name now.
    pub reported: String,
    /// `abuse`, `spam`, `name`, `cheating` or `other`.
    pub reason: String,
    /// The player's words.
    pub text: String,
    /// The match it is about.
    #[serde(rename = "match")]
    pub match_id: Option<String>,
    /// The chat line of that match it is about, by its `seq`.
    pub chat_seq: Option<u64>,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
}

/// The player of a `PlayerData`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataAccount {
    /// The name.
    pub name: String,
    /// Guest or account.
    pub kind: PlayerKind,
    /// Unix ms of creation.
    pub created_at: i64,
    /// Its sessions (signed-in browsers) the server still knows, oldest first.
    pub sessions: Vec<DataSession>,
}

/// A session of a `DataAccount`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataSession {
    /// Unix ms when it began.
    pub started_at: i64,
    /// Unix ms of its last use the server noted (noted at most once a day).
    pub last_used: i64,
}

/// One change of a rating (a rated match's result), in shown numbers.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataRatingChange {
    /// The game's registry name.
    pub game: String,
    /// The match that changed it.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Unix ms.
    pub at: i64,
    /// The shown rating before.
    pub rating_before: i64,
    /// The shown rating after.
    pub rating: i64,
    /// The shown deviation before.
    pub deviation_before: i64,
    /// The shown deviation after.
    pub deviation: i64,
}

/// A match of a `PlayerData`.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataGame<'a> {
    /// The match as the lobby shows it (section 3.3).
    pub summary: Summary<'a>,
    /// The seats the player holds in it.
    pub seats: Vec<usize>,
    /// Its record (section 3.6) once finished; `null` before, when the log may hold what the
    /// other players may not see yet.
    pub record: Option<RecordBody>,
}

/// A chat line of a `PlayerData`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataChatLine {
    /// The match it was written in.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The room.
    pub room: Room,
    /// The writer's seat, `null` as a spectator.
    pub seat: Option<u8>,
    /// The line.
    pub text: String,
    /// Unix ms.
    pub at: i64,
}

/// The open challenges of a `PlayerData`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataChallenges {
    /// To the player.
    pub incoming: Vec<ChallengeView>,
    /// From the player.
    pub outgoing: Vec<ChallengeView>,
}
