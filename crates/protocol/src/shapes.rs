//! Shapes for the JSON Schema only: the wire form of values whose types live in the engine or
//! the bots crate (which know nothing of schemas) or that the server holds as words. No code
//! builds these; the types of `crate::server` name them in `#[schemars(with = …)]`, and the API
//! tests, which hold every message they receive to the schema, keep them true to the engine's
//! serialization.

#![allow(dead_code)]

use std::collections::BTreeMap;

use schemars::JsonSchema;

/// `true`, the one value of a flag that is left out when false.
pub struct True;

impl JsonSchema for True {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"const": true})
    }
}

/// A seat's kind: `"human"` or `"bot"`.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person's seat.
    Human,
    /// A bot's seat.
    Bot,
}

/// `GET /health`'s status: `"ok"` or `"degraded"`.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthWord {
    /// The service and its database answer.
    Ok,
    /// The database does not answer.
    Degraded,
}

/// `GET /health`'s database: `"ok"` or `"unreachable"`.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DatabaseWord {
    /// It answered a cheap query within 2 s.
    Ok,
    /// It did not.
    Unreachable,
}

/// Why a rated match changed no rating (docs/protocol.md section 7.3).
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// A seat made fewer than 2 actions of its own.
    Abort,
    /// Two of its players came from one address within the last day.
    SameAddress,
    /// The same two players already had 5 counted games of that game together that day.
    DailyCap,
    /// A moderator closed it (section 7.11).
    Closed,
}

/// A match's result for one player (docs/protocol.md section 7.3).
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Result {
    /// First alone.
    Win,
    /// First, shared.
    Draw,
    /// Any other rank.
    Loss,
}

/// Who performed an action (`plateau_engine::Actor`): `{"seat": 0}` or `"chance"`.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum By {
    /// A seat, from 0.
    Seat(u8),
    /// Chance.
    Chance,
}

/// An early ending (`plateau_engine::Ending`): `{"timeout": 1}`, `{"resign": 0}` or
/// `"agreement"`.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Ending {
    /// The seat ran out of time.
    Timeout(u8),
    /// The seat resigned.
    Resign(u8),
    /// Every seat agreed to stop.
    Agreement,
}

/// An action's parts (`plateau_engine::ActionInfo`, docs/protocol.md section 4.1, `legal_info`):
/// `kind` and those of the others that mean something for it.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Info {
    /// The game's word for the kind of action.
    kind: String,
    /// The cell a piece leaves.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    /// The cell a piece reaches or the cell aimed at.
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<String>,
    /// The other cells it covers or changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<String>>,
    /// The pieces it involves, the acting one first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pieces: Option<Vec<String>>,
    /// The choice it stands for.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
    /// The seat it aims at, from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<u8>,
    /// The second part of an action made of two.
    #[serde(skip_serializing_if = "Option::is_none")]
    then: Option<Box<Info>>,
}

/// How a game ended (`plateau_engine::Outcome`): `{"ranks": [1, 2], "scores": [1.0, 0.0],
/// "kind": "corvette"}`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Per seat: 1 for the best.
    ranks: Vec<u8>,
    /// Per seat: the game's score.
    scores: Vec<f64>,
    /// How the game ended, in the game's words.
    kind: String,
}

/// An action of a record: `{"by": {"seat": 0}, "action": "c2-c3", "at_ms": 5120}`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordAction {
    /// Who played it.
    by: By,
    /// Its canonical text.
    action: String,
    /// Match time in milliseconds when it came.
    #[serde(skip_serializing_if = "Option::is_none")]
    at_ms: Option<u64>,
}

/// An early ending of a record, at its place: `{"after": 2, "ending": {"timeout": 1},
/// "at_ms": 65121}`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordEnding {
    /// How many actions came before it.
    after: usize,
    /// The ending.
    ending: Ending,
    /// Match time in milliseconds when it came.
    #[serde(skip_serializing_if = "Option::is_none")]
    at_ms: Option<u64>,
}

/// A game record (`plateau_engine::Record`, docs/protocol.md section 3.6).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game's registry name.
    game: String,
    /// The config (`null` = the default).
    config: serde_json::Value,
    /// Per seat: `"human"` or the bot's name.
    seats: Vec<String>,
    /// A start position other than the game's own, in the game's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    /// SHA-256 of the seed.
    seed_hash: String,
    /// The seed, 64 hex digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
    /// The actions in order.
    actions: Vec<RecordAction>,
    /// The early endings in order (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    endings: Option<Vec<RecordEnding>>,
    /// The outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
}

/// One ply of an analysis (the bots crate's `Ply`).
#[derive(JsonSchema)]
pub struct Ply {
    /// 1-based index in the record's actions.
    index: usize,
    /// The seat that acted, `null` for chance.
    seat: Option<u8>,
    /// The action's canonical text.
    action: String,
    /// Every seat's value after it.
    values: Vec<f64>,
    /// For a seat's decision: how it was judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    judgement: Option<BTreeMap<String, serde_json::Value>>,
}

/// An analysis (the bots crate's `Analysis`, docs/bots.md "Analysis"), as stored.
#[derive(JsonSchema)]
pub struct Analysis {
    /// `"plateau-analysis/1"`.
    format: String,
    /// The game's registry name.
    game: String,
    /// The table size.
    seats: usize,
    /// The judge's budget.
    judge: String,
    /// Every seat's value before the first action.
    start: Vec<f64>,
    /// One entry per recorded action.
    plies: Vec<Ply>,
    /// The biggest losses.
    biggest_losses: Vec<serde_json::Value>,
}
