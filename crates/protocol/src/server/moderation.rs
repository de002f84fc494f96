//! The JSON bodies of the HTTP API about moderation (docs/protocol.md section 7.11): a report
//! filed, the moderators' queue, the audit log, and what `GET /api/me` says of the player's own
//! standing.

use schemars::JsonSchema;
use serde::Serialize;

/// What `GET /api/me` says of the player's standing with the moderators; left out when there is
/// nothing to say.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MyStanding {
    /// Whether the player is a moderator (the moderators' page is open to it).
    pub moderator: bool,
    /// Whether the player is banned now: it cannot play, chat or make matches.
    pub banned: bool,
    /// Until when (Unix ms) the ban lasts; `null` while banned without an end, or not banned.
    pub banned_until: Option<i64>,
    /// Until when (Unix ms) the player is muted in chat; `null` when it is not.
    pub muted_until: Option<i64>,
    /// The warnings it has not acknowledged yet (`POST /api/me/warnings`), oldest first.
    pub warnings: Vec<Warning>,
}

/// A moderator's warning to the player.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Warning {
    /// Its number (acknowledge up to it).
    pub id: i64,
    /// Unix ms.
    pub at: i64,
    /// The moderator's words.
    pub reason: String,
}

/// `POST /api/reports`: the report's number.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportFiled {
    /// The report's number.
    pub id: i64,
}

/// `GET /api/mod/reports`: the open reports, oldest first.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportQueue {
    /// The reports.
    pub reports: Vec<ReportView>,
}

/// One open report.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportView {
    /// Its number.
    pub id: i64,
    /// Unix ms it was filed.
    pub at: i64,
    /// Who filed it.
    pub reporter: String,
    /// Who it is about (the name now).
    pub reported: String,
    /// `abuse`, `spam`, `name`, `cheating` or `other`.
    pub reason: String,
    /// The reporter's words (may be empty).
    pub text: String,
    /// The match it is about, if any.
    pub match_id: Option<String>,
    /// The chat line it is about, if any.
    pub chat: Option<ReportedLine>,
}

/// A chat line a report points at.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportedLine {
    /// Its `seq` in the match's chat.
    pub seq: u64,
    /// Its text.
    pub text: String,
}

/// `GET /api/mod/audit`: the latest moderator actions, newest first.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditLog {
    /// The entries.
    pub entries: Vec<AuditView>,
}

/// One moderator action: who, what, whom, when, why. Also the answer of each action's route.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditView {
    /// Its number, rising.
    pub id: i64,
    /// Unix ms.
    pub at: i64,
    /// The moderator's name; `null` for the server's shell (`plateau admin`).
    pub moderator: Option<String>,
    /// `warn`, `mute`, `unmute`, `rename`, `ban`, `unban`, `grant`, `revoke`, `close`,
    /// `resolve` or `dismiss`.
    pub action: String,
    /// The player's name when it was done (before a rename), if it was done to a player.
    pub target: Option<String>,
    /// The match closed, if any.
    pub match_id: Option<String>,
    /// The report handled, if any.
    pub report: Option<i64>,
    /// The end (Unix ms) of a mute or a ban; `null` for a ban without an end.
    pub until: Option<i64>,
    /// A rename's new name.
    pub detail: Option<String>,
    /// Why, in the moderator's words.
    pub reason: String,
}
