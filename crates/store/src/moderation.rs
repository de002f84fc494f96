//! Moderation as the store keeps it (docs/protocol.md section 7.11): a player's role, its
//! sanctions (muted in chat until, banned until), the reports players file, and the audit log of
//! every moderator action. The rules (who may do what, the words players read) are the
//! server's (`plateau_community::moderation`).
//!
//! A moderator action is one `Store::moderate` call: its audit entry and its effect on the
//! player or report it names are written in one transaction, so the log never misses an action
//! and never holds one that did not happen. Both backends run the same steps (`steps`), each a
//! statement of `sql` with its values.

use crate::players::PlayerId;

/// What a player may do beyond playing: only moderators have a role. There is no separate
/// administrator: whoever runs `plateau admin` on the server's shell is one (it acts as the
/// "server" in the audit log), and grants or revokes the role.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// Reads the report queue and the audit log, warns, mutes, renames, bans, closes matches.
    Moderator,
}

impl Role {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Moderator => "moderator",
        }
    }

    /// The role a stored word names.
    #[must_use]
    pub fn parse(word: &str) -> Option<Role> {
        (word == "moderator").then_some(Role::Moderator)
    }
}

/// Why a player reports another (the short list a report offers; the free text says more).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReportReason {
    /// Insults, threats, harassment.
    Abuse,
    /// Flooding the chat, advertising.
    Spam,
    /// An offensive or misleading name.
    Name,
    /// Help from a program or another person while playing.
    Cheating,
    /// Anything else (the text says what).
    Other,
}

impl ReportReason {
    /// Every reason, in the order a report lists them.
    pub const ALL: [ReportReason; 5] = [
        ReportReason::Abuse,
        ReportReason::Spam,
        ReportReason::Name,
        ReportReason::Cheating,
        ReportReason::Other,
    ];

    /// The stored and sent word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::Abuse => "abuse",
            ReportReason::Spam => "spam",
            ReportReason::Name => "name",
            ReportReason::Cheating => "cheating",
            ReportReason::Other => "other",
        }
    }

    /// The reason a word names.
    #[must_use]
    pub fn parse(word: &str) -> Option<ReportReason> {
        ReportReason::ALL.into_iter().find(|r| r.as_str() == word)
    }
}

/// A report as a player files it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewReport {
    /// Who reports.
    pub reporter: PlayerId,
    /// Who is reported.
    pub reported: PlayerId,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words (checked for length by the server).
    pub text: String,
    /// The match it is about, if any.
    pub match_id: Option<String>,
    /// The chat line of that match it is about, by its `seq`, if any.
    pub chat_seq: Option<u64>,
    /// Unix ms.
    pub at: i64,
}

/// A report in the moderators' queue, with the names and the chat line it points at.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Report {
    /// Its number.
    pub id: i64,
    /// Unix ms it was filed.
    pub at: i64,
    /// The reporter's name.
    pub reporter: String,
    /// The reported player's id.
    pub reported_id: PlayerId,
    /// The reported player's name now.
    pub reported: String,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words.
    pub text: String,
    /// The match it is about.
    pub match_id: Option<String>,
    /// The chat line's `seq` and text, if it names one.
    pub chat: Option<(u64, String)>,
}

/// One moderator action (`Store::moderate`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// A warning the player reads on its next page.
    Warn,
    /// No chat until that unix ms.
    Mute {
        /// Unix ms.
        until: i64,
    },
    /// The chat given back.
    Unmute,
    /// A new, neutral name.
    Rename {
        /// The new name (checked by the server).
        to: String,
    },
    /// No play, chat or new matches until that unix ms (`None`: until unbanned).
    Ban {
        /// Unix ms, or `None` for no end.
        until: Option<i64>,
    },
    /// The ban lifted.
    Unban,
    /// The moderator role given (accounts only).
    Grant,
    /// The moderator role taken back.
    Revoke,
    /// A match ended by a moderator (the server driving it ends it: `StoredMatch` is not
    /// changed here).
    Close {
        /// The match.
        match_id: String,
    },
    /// A report handled: acted upon (`dismissed: false`) or dismissed.
    Handle {
        /// The report.
        report: i64,
        /// Dismissed rather than resolved.
        dismissed: bool,
    },
}

impl Action {
    /// The word of the audit log.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            Action::Warn => "warn",
            Action::Mute { .. } => "mute",
            Action::Unmute => "unmute",
            Action::Rename { .. } => "rename",
            Action::Ban { .. } => "ban",
            Action::Unban => "unban",
            Action::Grant => "grant",
            Action::Revoke => "revoke",
            Action::Close { .. } => "close",
            Action::Handle {
                dismissed: false, ..
            } => "resolve",
            Action::Handle {
                dismissed: true, ..
            } => "dismiss",
        }
    }
}

/// A moderator action with who did it, to whom and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Moderation {
    /// The moderator; `None` for the server's shell (`plateau admin`).
    pub moderator: Option<PlayerId>,
    /// The player it is done to (none for closing a match or handling a report).
    pub target: Option<PlayerId>,
    /// What.
    pub action: Action,
    /// Why, in the moderator's words.
    pub reason: String,
    /// Unix ms.
    pub at: i64,
}

/// A ban with no end is stored as this `banned_until`.
pub const FOREVER: i64 = i64::MAX;

/// One entry of the audit log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AuditEntry {
    /// Its number, rising.
    pub id: i64,
    /// Unix ms.
    pub at: i64,
    /// The moderator's name; `None` for the server's shell.
    pub moderator: Option<String>,
    /// The action's word (`Action::word`).
    pub action: String,
    /// The player it was done to, and its name when it was done (before a rename).
    pub target: Option<(PlayerId, String)>,
    /// The match closed or the report's match.
    pub match_id: Option<String>,
    /// The report handled.
    pub report: Option<i64>,
    /// The end of a mute or ban (`None` for a ban with no end).
    pub until: Option<i64>,
    /// The new name of a rename.
    pub detail: Option<String>,
    /// Why.
    pub reason: String,
}

/// Where the audit log is read from (`Store::audit`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AuditFrom {
    /// The latest entries, newest first (the moderators' page).
    Latest,
    /// The entries after this id, oldest first (what a server has not applied yet).
    After(i64),
}

/// A player's standing with the moderators.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Standing {
    /// Its role.
    pub role: Option<Role>,
    /// Muted in chat until (unix ms), if ever muted.
    pub muted_until: Option<i64>,
    /// Banned until (unix ms; `FOREVER` for no end), if ever banned.
    pub banned_until: Option<i64>,
    /// The warnings it has not acknowledged yet, oldest first.
    pub warnings: Vec<AuditEntry>,
}

/// A report as the player who filed it finds it in its own data (`Store::moderation_record`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FiledReport {
    /// Its number.
    pub id: i64,
    /// Unix ms it was filed.
    pub at: i64,
    /// The reported player's name now.
    pub reported: String,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words.
    pub text: String,
    /// The match it is about.
    pub match_id: Option<String>,
    /// The chat line of that match it is about, by its `seq`.
    pub chat_seq: Option<u64>,
    /// `open`, `resolved` or `dismissed`.
    pub status: String,
}

/// What the moderators' records hold about a player, for its own data download
/// (`Store::moderation_record`): its standing with every warning it received (read or not),
/// and the reports it filed. The reports about it are not here: they would name its reporters.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Record {
    /// Its role, mute and ban as stored (ended ones too), and every warning, oldest first.
    pub standing: Standing,
    /// The reports it filed, oldest first.
    pub reports: Vec<FiledReport>,
}

/// A value bound to a statement: the two backends convert them to their own types.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Value {
    /// A number, or NULL.
    Int(Option<i64>),
    /// A text, or NULL.
    Text(Option<String>),
}

/// One statement of a moderation and what it must change: `Some(error)` when it must change a
/// row (else the action names nothing and is undone with that error).
pub(crate) struct Step {
    pub(crate) sql: &'static str,
    pub(crate) values: Vec<Value>,
    pub(crate) must_change: Option<crate::StoreError>,
}

/// The statements of `m` after its audit entry (`sql::INSERT_AUDIT`, whose values are
/// `audit_values`), in order.
pub(crate) fn steps(m: &Moderation) -> Vec<Step> {
    use crate::StoreError::{Invalid, NotFound};
    let target = Value::Int(m.target.map(|p| p.0));
    let no_player = || Some(NotFound("no such player".into()));
    let set = |sql, value: Value| Step {
        sql,
        values: vec![value, target.clone()],
        must_change: no_player(),
    };
    match &m.action {
        // The audit entry's key on the player is the check that it exists.
        Action::Warn | Action::Close { .. } => Vec::new(),
        Action::Mute { until } => vec![set(crate::sql::SET_MUTED, Value::Int(Some(*until)))],
        Action::Unmute => vec![set(crate::sql::SET_MUTED, Value::Int(None))],
        Action::Ban { until } => vec![set(
            crate::sql::SET_BANNED,
            Value::Int(Some(until.unwrap_or(FOREVER))),
        )],
        Action::Unban => vec![set(crate::sql::SET_BANNED, Value::Int(None))],
        Action::Rename { to } => vec![Step {
            sql: crate::sql::RENAME_PLAYER,
            values: vec![
                Value::Text(Some(to.clone())),
                Value::Text(Some(crate::players::name_key(to))),
                Value::Text(Some(crate::players::similar_key(to))),
                target,
            ],
            must_change: no_player(),
        }],
        Action::Grant => vec![Step {
            must_change: Some(Invalid(
                "only an account (a player with a password) can be a moderator".into(),
            )),
            ..set(
                crate::sql::SET_ROLE,
                Value::Text(Some(Role::Moderator.as_str().into())),
            )
        }],
        Action::Revoke => vec![set(crate::sql::SET_ROLE, Value::Text(None))],
        Action::Handle { report, dismissed } => vec![Step {
            sql: crate::sql::HANDLE_REPORT,
            values: vec![
                Value::Text(Some(
                    if *dismissed { "dismissed" } else { "resolved" }.into(),
                )),
                Value::Int(m.moderator.map(|p| p.0)),
                Value::Int(Some(m.at)),
                Value::Int(Some(*report)),
            ],
            must_change: Some(NotFound(format!("no open report #{report}"))),
        }],
    }
}

/// The values of `sql::INSERT_AUDIT` for `m`.
pub(crate) fn audit_values(m: &Moderation) -> Vec<Value> {
    let (match_id, report, until, detail) = match &m.action {
        Action::Mute { until } => (None, None, Some(*until), None),
        Action::Ban { until } => (None, None, Some(until.unwrap_or(FOREVER)), None),
        Action::Rename { to } => (None, None, None, Some(to.clone())),
        Action::Close { match_id } => (Some(match_id.clone()), None, None, None),
        Action::Handle { report, .. } => (None, Some(*report), None, None),
        _ => (None, None, None, None),
    };
    vec![
        Value::Int(Some(m.at)),
        Value::Int(m.moderator.map(|p| p.0)),
        Value::Text(Some(m.action.word().into())),
        Value::Int(m.target.map(|p| p.0)),
        Value::Text(match_id),
        Value::Int(report),
        Value::Int(until),
        Value::Text(detail),
        Value::Text(Some(m.reason.clone())),
    ]
}

/// An audit entry from its columns as `sql::AUDIT_COLUMNS` lists them.
#[expect(
    clippy::too_many_arguments,
    reason = "the columns of one row, as both backends read them"
)]
pub(crate) fn audit_entry(
    id: i64,
    at: i64,
    moderator: Option<String>,
    action: String,
    target: Option<(i64, String)>,
    match_id: Option<String>,
    report: Option<i64>,
    until: Option<i64>,
    detail: Option<String>,
    reason: String,
) -> AuditEntry {
    AuditEntry {
        id,
        at,
        moderator,
        action,
        target: target.map(|(id, name)| (PlayerId(id), name)),
        match_id,
        report,
        until: until.filter(|u| *u != FOREVER),
        detail,
        reason,
    }
}
