//! The JSON bodies of the HTTP API about games and matches (docs/protocol.md sections 2 and 3):
//! the health, the games, a match created or joined, summaries, records, replays, histories,
//! analyses and the chat log.

use plateau_engine::{ActionInfo, Actor, Outcome, Record};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::value::RawValue;

use super::{ChatLine, SeatView, Status, TimeControl};
use crate::shapes;

/// `GET /health` (docs/protocol.md section 2): `{"status": "ok", "database": "ok",
/// "matches_in_memory": 3}`, or `degraded` and `unreachable` with a `503`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// `"ok"` or `"degraded"`.
    #[schemars(with = "shapes::HealthWord")]
    pub status: &'static str,
    /// `"ok"` or `"unreachable"`.
    #[schemars(with = "shapes::DatabaseWord")]
    pub database: &'static str,
    /// How many matches the server holds in memory now.
    pub matches_in_memory: usize,
}

/// One game of `GET /api/games` (docs/protocol.md section 3.1).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    /// The registry name (`"mad"`).
    pub name: &'static str,
    /// The title people read (`"MAD"`).
    pub title: &'static str,
    /// The fewest seats.
    pub min_seats: usize,
    /// The most seats.
    pub max_seats: usize,
    /// The default table size.
    pub default_seats: usize,
    /// Whether chance plays a part.
    pub chance: bool,
    /// Whether seats hide things from one another.
    pub hidden_information: bool,
    /// Whether several seats may act at once.
    pub simultaneous: bool,
    /// Whether the game's rules set clocks of their own.
    pub rule_clock: bool,
    /// The game's default config as JSON, every field present.
    pub default_config: serde_json::Value,
    /// The bot names a seat takes, weakest first.
    pub bots: &'static [&'static str],
    /// The bots "Play the computer" offers, weakest first.
    pub levels: Vec<&'static str>,
    /// The game has an agreed ending (section 7.4).
    pub agreement: bool,
    /// Agreeing is a draw (every seat first) rather than the rule naming a winner.
    pub agreement_draw: bool,
}

/// `GET /api/games` (docs/protocol.md section 3.1): `{"games": [GAME, …]}`.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Games {
    /// The games one can create.
    pub games: Vec<GameView>,
}

/// A link to take a free seat (docs/protocol.md section 3.2): `{"seat": 1, "url":
/// "/m/3f9a0c12d4e5b678?join=1"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    /// The free human seat.
    pub seat: u8,
    /// The match page with `?join=` that seat.
    pub url: String,
}

/// The answer of `POST /api/matches` (201) and of `POST /api/matches/{id}/join` (200)
/// (docs/protocol.md sections 3.2 and 3.5).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grant<'a> {
    /// The match's id.
    pub id: &'a str,
    /// SHA-256 of the match's seed, 64 hex digits.
    pub seed_hash: &'a str,
    /// The seat taken, `null` when the creator took none.
    pub seat: Option<u8>,
    /// Its token, 64 hex digits, `null` with no seat.
    pub token: Option<&'a str>,
    /// The match page.
    pub url: String,
    /// One link per human seat still free.
    pub invites: Vec<Invite>,
}

/// SUMMARY, one match's public facts (docs/protocol.md section 3.3).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// The game's title.
    pub title: &'a str,
    /// Where the match stands.
    pub status: Status,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// The game's config as given at creation (`null` = the default).
    pub config: &'a serde_json::Value,
    /// The time control.
    pub time_control: TimeControl,
    /// Unix ms of creation.
    pub created_at: i64,
    /// The spectators' version; `null` for a live game with hidden information whose match is
    /// not in memory (only its actor knows which entries a spectator saw).
    pub version: Option<u64>,
    /// Whether the outcome changes the players' ratings.
    pub rated: bool,
    /// For a rated match that changed no rating, why (section 7.3); else `null`.
    #[schemars(with = "Option<shapes::Unrated>")]
    pub unrated: Option<&'a str>,
    /// Unix ms when it finished, else `null`.
    pub ended_at: Option<i64>,
    /// The outcome once finished, else `null`.
    #[schemars(with = "Option<shapes::Outcome>")]
    pub outcome: Option<&'a Outcome>,
    /// SHA-256 of the seed, 64 hex digits.
    pub seed_hash: String,
    /// The seed, 64 hex digits, once finished; else `null`.
    pub seed: Option<String>,
    /// The id of the rematch once one was created, else `null`.
    pub rematch: Option<&'a str>,
}

/// `GET /api/matches` (docs/protocol.md section 3.3): `{"matches": [SUMMARY, …]}`.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Matches<'a> {
    /// The matches, newest first, at most 100.
    pub matches: Vec<Summary<'a>>,
}

/// The text of a replay's or a history's step (docs/protocol.md sections 3.7 and 3.9): an
/// action's text, or an early ending as the record writes it (`{"resign": 2}`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum StepText {
    /// An action's text.
    Action(String),
    /// An early ending.
    Ending(#[schemars(with = "shapes::Ending")] plateau_engine::Ending),
}

/// One step of `GET /api/matches/{id}/replay` (docs/protocol.md section 3.7): `{"by", "text",
/// "info", "observation"}`, `by` and `text` `null` at the start, `info` only for an action.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayStep {
    /// Who played the step's action; `null` for the start and an ending.
    #[schemars(with = "Option<shapes::By>")]
    pub by: Option<Actor>,
    /// The action (display notation, or canonical where a spectator could not see it) or the
    /// ending; `null` at the start.
    pub text: Option<StepText>,
    /// The action's parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<shapes::Info>")]
    pub info: Option<ActionInfo>,
    /// The spectators' observation after it.
    pub observation: serde_json::Value,
}

/// `GET /api/matches/{id}/replay` (docs/protocol.md section 3.7).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Replay<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The game's registry name.
    pub game: &'a str,
    /// SHA-256 of the seed.
    pub seed_hash: &'a str,
    /// The seed, 64 hex digits.
    pub seed: Option<String>,
    /// The server's own check of the record: the seed matches its hash and draws every chance
    /// outcome.
    pub verified: bool,
    /// The outcome.
    #[schemars(with = "Option<shapes::Outcome>")]
    pub outcome: Option<&'a Outcome>,
    /// The start, then one step per action and per early ending.
    pub steps: Vec<ReplayStep>,
}

/// One step of `GET /api/matches/{id}/history` (docs/protocol.md section 3.9).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryStep {
    /// Who played the entry that made this version, `null` when the viewer may not see it, at
    /// the start and for an ending.
    #[schemars(with = "Option<shapes::By>")]
    pub by: Option<Actor>,
    /// The entry as the move list shows it, or the ending; `null` as for `by`.
    pub text: Option<StepText>,
    /// How many entries of the viewer's move list were played by then.
    pub moves: usize,
    /// The viewer's observation then.
    pub observation: serde_json::Value,
    /// The action's parts, for a step whose action the viewer sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<shapes::Info>")]
    pub info: Option<ActionInfo>,
}

/// `GET /api/matches/{id}/history` (docs/protocol.md section 3.9).
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct History<'a> {
    /// The match's id.
    pub id: &'a str,
    /// The seat the caller plays, `null` for a spectator.
    pub seat: Option<u8>,
    /// One step per version of this viewer, from 0.
    pub steps: &'a [HistoryStep],
}

/// `GET` and `POST /api/matches/{id}/analysis` (docs/protocol.md section 3.8), by `status`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnalysisStatus<'a> {
    /// Nobody asked for it (or it was lost to a restart).
    None,
    /// In line.
    Queued {
        /// The analyses in line.
        waiting: usize,
    },
    /// Being computed.
    Running {
        /// Seat decisions judged so far.
        done: usize,
        /// Seat decisions to judge (0 until the game is replayed).
        total: usize,
    },
    /// It failed (the reason is in the server's log); it may be asked for again.
    Failed,
    /// Done: the analysis, the bots crate's `Analysis` (`"format": "plateau-analysis/1"`,
    /// docs/bots.md, "Analysis") as stored.
    Done {
        /// The stored analysis.
        #[schemars(with = "shapes::Analysis")]
        analysis: &'a RawValue,
    },
}

/// `GET /api/matches/{id}/chat` (docs/protocol.md section 7.5): both rooms' lines.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatLog<'a> {
    /// The players' room.
    pub players: Vec<ChatLine<'a>>,
    /// The spectators' room.
    pub spectators: Vec<ChatLine<'a>>,
}

/// `GET /api/matches/{id}/record` (docs/protocol.md section 3.6): the engine's record.
#[derive(Clone, PartialEq, Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct RecordBody(#[schemars(with = "shapes::Record")] pub Record);
