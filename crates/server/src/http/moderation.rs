//! The moderation routes (docs/protocol.md section 7.11): a player reports another
//! (`POST /api/reports`) and acknowledges its warnings (`POST /api/me/warnings`); a moderator
//! reads the open reports and the audit log, and acts on a player, a report or a match. The
//! rules and effects are `plateau_community::moderation`'s.

use axum::Json;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use plateau_protocol::server::{AuditLog, ReportFiled, ReportQueue, ReportView, ReportedLine};
use serde::Deserialize;

use super::auth::Session;
use super::extract::{JsonBody, MatchId};
use super::state::AppState;
use crate::store::moderation::{Action, AuditFrom, NewReport, ReportReason, Role};
use plateau_community::moderation::{
    REPORTS_PER_HOUR, act, ban_until, check_text, mute_until, neutral_name, view,
};
use plateau_lobby::model::{ApiError, Code, HttpError, unix_ms};
use plateau_lobby::players::{Player, PlayerKind};

/// Most open reports and audit entries a page lists.
const LISTED: u32 = 200;

/// The session's player, a moderator; else `auth/required` or `auth/moderator`.
pub(super) struct Moderator(Player);

impl FromRequestParts<AppState> for Moderator {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, HttpError> {
        let session = Session::from_request_parts(parts, app).await?;
        let player = session.player.ok_or_else(|| {
            ApiError::new(Code::AuthRequired, "sign in to your moderator's account")
        })?;
        let standing = app
            .lobby
            .store()
            .moderation_standing(player.id)
            .await
            .map_err(ApiError::store)?;
        if standing.role != Some(Role::Moderator) {
            return Err(ApiError::new(Code::AuthModerator, "only moderators may do this").into());
        }
        Ok(Moderator(player))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportRequest {
    /// Who is reported.
    name: String,
    /// `abuse`, `spam`, `name`, `cheating` or `other`.
    reason: String,
    #[serde(default)]
    text: String,
    /// The match it is about.
    #[serde(default, rename = "match")]
    match_id: Option<String>,
    /// The chat line of that match it is about.
    #[serde(default)]
    chat_seq: Option<u64>,
}

/// `POST /api/reports`: the session's player reports another, with a reason from the list,
/// words (at most `TEXT_MAX` characters) and, if it is about one, a match and a chat line of it
/// that the reported player wrote. At most `REPORTS_PER_HOUR` an hour per reporter.
pub(super) async fn report(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<ReportRequest>,
) -> Result<Response, HttpError> {
    let me = session
        .player
        .ok_or_else(|| ApiError::new(Code::AuthRequired, "choose a name before you report"))?;
    let invalid = |why: String| ApiError::new(Code::ReportInvalid, why);
    let reason = ReportReason::parse(&req.reason).ok_or_else(|| {
        invalid(format!(
            "the reason {:?} is none of abuse, spam, name, cheating, other",
            req.reason
        ))
    })?;
    let text = check_text(&req.text, "the report's text", Code::ReportInvalid)?;
    let store = app.lobby.store();
    let (reported, _) = store
        .player_by_name(req.name.clone())
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| {
            ApiError::new(
                Code::PlayerNotFound,
                format!("no player named {:?}", req.name),
            )
        })?;
    if reported.id == me.id {
        return Err(invalid("you cannot report yourself".into()).into());
    }
    if reported.kind == PlayerKind::Bot {
        return Err(invalid("bots are the server's own: they are not reported".into()).into());
    }
    if let Some(id) = &req.match_id {
        let m = store
            .get(id, req.chat_seq.is_some())
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::new(Code::MatchNotFound, format!("no match {id:?}")))?;
        if let Some(seq) = req.chat_seq
            && !m
                .chat
                .iter()
                .any(|l| l.seq == seq && l.player.id == reported.id)
        {
            return Err(invalid(format!(
                "{:?} wrote no chat line {seq} in this match",
                reported.name
            ))
            .into());
        }
    } else if req.chat_seq.is_some() {
        return Err(invalid("a chat line is named with its match".into()).into());
    }
    app.per_minute
        .record_within(
            &[format!("report {}", me.id.0)],
            REPORTS_PER_HOUR,
            plateau_lobby::limits::LONGEST_WINDOW,
            Code::LimitReports,
            "you sent 10 reports this hour: the moderators read them; wait a while",
        )
        .map_err(HttpError)?;
    let id = store
        .file_report(NewReport {
            reporter: me.id,
            reported: reported.id,
            reason,
            text,
            match_id: req.match_id,
            chat_seq: req.chat_seq,
            at: unix_ms(),
        })
        .await
        .map_err(ApiError::store)?;
    Ok((StatusCode::CREATED, Json(ReportFiled { id })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AckRequest {
    /// The last warning read.
    up_to: i64,
}

/// `POST /api/me/warnings`: the session's player read its warnings up to `up_to`.
pub(super) async fn ack_warnings(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<AckRequest>,
) -> Result<StatusCode, HttpError> {
    let me = session
        .player
        .ok_or_else(|| ApiError::new(Code::AuthRequired, "you have no warnings to read"))?;
    app.lobby
        .store()
        .ack_warnings(me.id, req.up_to)
        .await
        .map_err(ApiError::store)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/mod/reports`: the open reports, oldest first.
pub(super) async fn reports(
    State(app): State<AppState>,
    _: Moderator,
) -> Result<Json<ReportQueue>, HttpError> {
    let reports = app
        .lobby
        .store()
        .open_reports(LISTED)
        .await
        .map_err(ApiError::store)?
        .into_iter()
        .map(|r| ReportView {
            id: r.id,
            at: r.at,
            reporter: r.reporter,
            reported: r.reported,
            reason: r.reason.as_str().to_owned(),
            text: r.text,
            match_id: r.match_id,
            chat: r.chat.map(|(seq, text)| ReportedLine { seq, text }),
        })
        .collect();
    Ok(Json(ReportQueue { reports }))
}

/// `GET /api/mod/audit`: the latest moderator actions, newest first.
pub(super) async fn audit(
    State(app): State<AppState>,
    _: Moderator,
) -> Result<Json<AuditLog>, HttpError> {
    let entries = app
        .lobby
        .store()
        .audit(AuditFrom::Latest, LISTED)
        .await
        .map_err(ApiError::store)?;
    Ok(Json(AuditLog {
        entries: entries.iter().map(view).collect(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerAction {
    /// `warn`, `mute`, `unmute`, `rename`, `ban` or `unban`.
    action: String,
    /// Why (the warned player reads it).
    reason: String,
    /// A mute's length.
    #[serde(default)]
    minutes: Option<u64>,
    /// A ban's length; none: no end.
    #[serde(default)]
    days: Option<u64>,
}

/// `POST /api/mod/players/{name}`: a moderator warns, mutes (for `minutes`), unmutes, renames
/// (to a neutral name), bans (for `days`, or without an end) or unbans a player, never itself
/// (a ban would keep it from lifting it). The audit entry is the answer.
pub(super) async fn on_player(
    State(app): State<AppState>,
    Moderator(me): Moderator,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<PlayerAction>,
) -> Result<Response, HttpError> {
    let action = match req.action.as_str() {
        "warn" => Action::Warn,
        "mute" => Action::Mute {
            until: mute_until(req.minutes.unwrap_or(60))?,
        },
        "unmute" => Action::Unmute,
        "rename" => Action::Rename { to: neutral_name() },
        "ban" => Action::Ban {
            until: ban_until(req.days)?,
        },
        "unban" => Action::Unban,
        other => {
            return Err(ApiError::new(
                Code::ModerationInvalid,
                format!(
                    "{other:?} is none of warn, mute, unmute, rename, ban, unban (roles are given \
                     from the server's shell: plateau admin grant)"
                ),
            )
            .into());
        }
    };
    let (target, _) = app
        .lobby
        .store()
        .player_by_name(name.clone())
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::new(Code::PlayerNotFound, format!("no player named {name:?}")))?;
    if target.id == me.id {
        return Err(ApiError::new(
            Code::ModerationInvalid,
            "a moderator does not act on itself (another moderator, or the server's shell, can)",
        )
        .into());
    }
    let entry = act(&app.lobby, Some(&me), Some(&target), action, &req.reason).await?;
    Ok(Json(view(&entry)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportAction {
    /// `resolve` (acted upon) or `dismiss`.
    action: String,
    #[serde(default)]
    reason: String,
}

/// `POST /api/mod/reports/{id}`: a moderator resolves or dismisses an open report.
pub(super) async fn on_report(
    State(app): State<AppState>,
    Moderator(me): Moderator,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ReportAction>,
) -> Result<Response, HttpError> {
    let report = id
        .parse::<i64>()
        .map_err(|_| ApiError::new(Code::ReportNotFound, format!("no report {id:?}")))?;
    let dismissed = match req.action.as_str() {
        "resolve" => false,
        "dismiss" => true,
        other => {
            return Err(ApiError::new(
                Code::ModerationInvalid,
                format!("{other:?} is neither resolve nor dismiss"),
            )
            .into());
        }
    };
    let action = Action::Handle { report, dismissed };
    let entry = act(&app.lobby, Some(&me), None, action, &req.reason).await?;
    Ok(Json(view(&entry)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CloseRequest {
    reason: String,
}

/// `POST /api/mod/matches/{id}/close`: a moderator ends a live match; it changes no rating.
pub(super) async fn close(
    State(app): State<AppState>,
    Moderator(me): Moderator,
    MatchId(id): MatchId,
    JsonBody(req): JsonBody<CloseRequest>,
) -> Result<Response, HttpError> {
    let action = Action::Close { match_id: id };
    let entry = act(&app.lobby, Some(&me), None, action, &req.reason).await?;
    Ok(Json(view(&entry)).into_response())
}
