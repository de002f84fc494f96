//! Moderation's rules and effects (docs/protocol.md section 7.11), shared by the moderators'
//! routes (`http::moderation`) and `plateau admin`: checking an action, writing it with its
//! audit entry (`Store::moderate`), and making it take effect on this node (`apply`).
//!
//! How a server learns of an action: every node reads the audit log's new entries every
//! `WATCH_EVERY` (`watch`), whoever wrote them (a moderator's request to another node,
//! `plateau admin` from the shell, on SQLite or PostgreSQL alike), and applies them: a mute or a
//! ban enters the node's `Sanctions` (checked on each request and chat line), a ban closes the
//! banned player's sockets on the node and resigns its seats in the live matches the node
//! drives, a rename shows at the tables the node drives, a close ends the match if the node
//! drives it. The node that served a moderator's request applies it at once as well; applying
//! an entry twice changes nothing more, and a ban read once lifted does nothing (`apply`).

use std::sync::{Arc, Weak};
use std::time::Duration;

use plateau_engine::Seat;

use plateau_lobby::lobby::{Lobby, Place};
use plateau_lobby::model::{ApiError, Code, Status, unix_ms};
use plateau_lobby::players::{Player, PlayerKind};
use plateau_protocol::server::{AuditView, Warning};
use plateau_store::moderation::{Action, AuditEntry, AuditFrom, Moderation};
use plateau_store::{Store, StoreError};

/// Longest reason a moderator gives, and longest text of a report, in characters.
pub const TEXT_MAX: usize = 500;

/// Reports one player may file in an hour.
pub const REPORTS_PER_HOUR: usize = 10;

/// Longest mute, in minutes (30 days).
pub const MUTE_MINUTES_MAX: u64 = 30 * 24 * 60;

/// Longest ban with an end, in days (a year); a ban may also have none.
pub const BAN_DAYS_MAX: u64 = 365;

/// How often each node reads the audit log's new entries.
pub const WATCH_EVERY: Duration = Duration::from_secs(1);

/// A new neutral name for a renamed player: `player-` and 6 hex digits.
#[must_use]
pub fn neutral_name() -> String {
    format!("player-{}", hex::encode(rand::random::<[u8; 3]>()))
}

/// Checks a reason or a report's text: at most `TEXT_MAX` characters, no control characters and
/// none that change the direction of the text (bidirectional overrides and isolates).
///
/// # Errors
/// `code` saying which.
pub fn check_text(text: &str, what: &str, code: Code) -> Result<String, ApiError> {
    let text = text.trim();
    if text.chars().count() > TEXT_MAX {
        return Err(ApiError::new(
            code,
            format!("{what} has more than {TEXT_MAX} characters"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::new(
            code,
            format!("{what} holds control characters"),
        ));
    }
    if plateau_match::model::turns_text(text) {
        return Err(ApiError::new(
            code,
            format!("{what} cannot change the direction of the text"),
        ));
    }
    Ok(text.to_owned())
}

/// The end of a mute of `minutes` from now.
///
/// # Errors
/// `moderation/invalid` out of 1 to `MUTE_MINUTES_MAX`.
pub fn mute_until(minutes: u64) -> Result<i64, ApiError> {
    if !(1..=MUTE_MINUTES_MAX).contains(&minutes) {
        return Err(ApiError::new(
            Code::ModerationInvalid,
            format!("a mute lasts 1 to {MUTE_MINUTES_MAX} minutes"),
        ));
    }
    Ok(unix_ms() + i64::try_from(minutes).unwrap_or(0) * 60_000)
}

/// The end of a ban of `days` from now; `None` (no days) for a ban without an end.
///
/// # Errors
/// `moderation/invalid` out of 1 to `BAN_DAYS_MAX`.
pub fn ban_until(days: Option<u64>) -> Result<Option<i64>, ApiError> {
    let Some(days) = days else {
        return Ok(None);
    };
    if !(1..=BAN_DAYS_MAX).contains(&days) {
        return Err(ApiError::new(
            Code::ModerationInvalid,
            format!("a ban lasts 1 to {BAN_DAYS_MAX} days, or has no end"),
        ));
    }
    Ok(Some(
        unix_ms() + i64::try_from(days).unwrap_or(0) * 86_400_000,
    ))
}

/// Does `action` to `target` (or to the match or report it names) as `moderator` (`None`: the
/// server's shell) for `reason`: checked, written with its audit entry (`record`), and applied on
/// this node at once (`apply`). A close of a match this node drives ends it before it is
/// written.
///
/// # Errors
/// As `record`; a close of a match not started or over as the match answers. Nothing is
/// written then.
pub async fn act(
    lobby: &Lobby,
    moderator: Option<&Player>,
    target: Option<&Player>,
    action: Action,
    reason: &str,
) -> Result<AuditEntry, ApiError> {
    if let Action::Close { match_id } = &action {
        close_here_first(lobby, match_id).await?;
    }
    let entry = record(lobby.store().as_ref(), moderator, target, action, reason).await?;
    apply(lobby, &entry).await;
    Ok(entry)
}

/// Checks `action` and writes it with its audit entry (`Store::moderate`), without applying
/// it: the nodes read it from the log (`watch`). `plateau admin` acts so. A rename gets a
/// neutral name (`neutral_name`), drawn again if taken.
///
/// # Errors
/// `moderation/invalid` for an action on a bot, a reason that does not read (a warning's empty),
/// the role for a guest; `player/not_found`, `report/not_found`, `match/not_found` for what is not there;
/// `store/unavailable`. Nothing is written then.
pub async fn record(
    store: &dyn Store,
    moderator: Option<&Player>,
    target: Option<&Player>,
    action: Action,
    reason: &str,
) -> Result<AuditEntry, ApiError> {
    let reason = check_text(reason, "the reason", Code::ModerationInvalid)?;
    if reason.is_empty() && matches!(action, Action::Warn) {
        return Err(ApiError::new(
            Code::ModerationInvalid,
            "a warning says what is wrong: its reason is what the player reads",
        ));
    }
    if target.is_some_and(|t| t.kind == PlayerKind::Bot) {
        return Err(ApiError::new(
            Code::ModerationInvalid,
            "bots are the server's own: they are not moderated",
        ));
    }
    let mut action = action;
    for _ in 0..3 {
        let m = Moderation {
            moderator: moderator.map(|p| p.id),
            target: target.map(|p| p.id),
            action: action.clone(),
            reason: reason.clone(),
            at: unix_ms(),
        };
        match store.moderate(m).await {
            Ok(entry) => return Ok(entry),
            // A neutral name taken (by chance, or looking like one): another.
            Err(StoreError::Conflict(_)) if matches!(action, Action::Rename { .. }) => {
                action = Action::Rename { to: neutral_name() };
            }
            Err(e) => return Err(refusal(e, &action)),
        }
    }
    Err(ApiError::internal(
        "three neutral names in a row were taken",
    ))
}

/// A close of a match this node drives goes through its actor before it is written, so a match
/// that cannot be closed (not started, over, unknown) logs nothing. One another node drives is
/// closed by that node when it reads the entry.
async fn close_here_first(lobby: &Lobby, id: &str) -> Result<(), ApiError> {
    let stored = lobby
        .store()
        .get(id, false)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::new(Code::MatchNotFound, format!("no match {id:?}")))?;
    match stored.status {
        Status::Open => Err(ApiError::new(
            Code::MatchNotStarted,
            "the match waits for its players: it is removed by itself if nobody comes",
        )),
        Status::Finished => Err(ApiError::new(Code::MatchOver, "the match is over")),
        Status::Live => match lobby.locate(id).await? {
            Place::Here => lobby.close(id).await,
            Place::There(_) => Ok(()),
        },
    }
}

/// What a refused moderation means to the moderator.
fn refusal(e: StoreError, action: &Action) -> ApiError {
    match e {
        StoreError::NotFound(what) if matches!(action, Action::Handle { .. }) => {
            ApiError::new(Code::ReportNotFound, what)
        }
        // The audit entry names the report: a report that never was fails its key.
        StoreError::Conflict(_) if matches!(action, Action::Handle { .. }) => {
            ApiError::new(Code::ReportNotFound, "no such report")
        }
        StoreError::NotFound(what) => ApiError::new(Code::PlayerNotFound, what),
        StoreError::Invalid(why) => ApiError::new(Code::ModerationInvalid, why),
        StoreError::Conflict(_) if matches!(action, Action::Close { .. }) => {
            ApiError::new(Code::MatchNotFound, "no such match")
        }
        e => ApiError::store(e),
    }
}

/// Makes audit entry `e` take effect on this node: the sanctions (`Sanctions::note`; a ban also
/// closes the banned player's sockets here), a ban's resignations in the live matches this node
/// drives, a rename's new name at the tables it drives (`Lobby::renamed`), a close of a match
/// it drives. A ban lifted (or over) by the time it is applied does nothing (`ban_stands`).
/// Failures are logged: the entry stands.
pub async fn apply(lobby: &Lobby, e: &AuditEntry) {
    match (e.action.as_str(), &e.target, &e.match_id) {
        ("ban", Some((target, _)), _) => {
            if !ban_stands(lobby, *target).await {
                return;
            }
            // The matches end first, then the sockets close: the player's last state is the end.
            resign_all(lobby, *target).await;
        }
        // The tables show the new name at once (the player's next page would anyway).
        ("rename", Some((target, _)), _) => lobby.renamed(*target).await,
        ("close", _, Some(id)) => {
            if matches!(lobby.locate(id).await, Ok(Place::Here))
                && let Err(err) = lobby.close(id).await
                && err.code != Code::MatchOver
            {
                tracing::warn!(%id, error = %err.message, "a closed match not ended");
            }
        }
        _ => {}
    }
    lobby.sanctions().note(e);
}

/// Whether `target` is banned now, as the store says. An entry is applied more than once and
/// late: the node that served the ban applies it at once and its watcher again when it reads
/// the log (`catch_up`), as every other node does, up to `WATCH_EVERY` later and after the
/// unban if one came meanwhile. Applied then, a ban would resign the games the player began
/// once unbanned and close its sockets; so a ban acts only while it stands. A store that does
/// not answer: the ban is taken as standing (what the moderator asked).
async fn ban_stands(lobby: &Lobby, target: plateau_lobby::players::PlayerId) -> bool {
    match lobby.store().moderation_standing(target).await {
        Ok(standing) => standing.banned_until.is_some_and(|until| until > unix_ms()),
        Err(err) => {
            tracing::warn!(error = %err, "a banned player's standing not read: the ban applied");
            true
        }
    }
}

/// Resigns `target`'s seats in the live matches this node drives (a banned player's).
async fn resign_all(lobby: &Lobby, target: plateau_lobby::players::PlayerId) {
    let live = match lobby
        .store()
        .player_matches(target, vec![Status::Live], 200)
        .await
    {
        Ok(live) => live,
        Err(err) => {
            tracing::warn!(error = %err, "a banned player's live matches not read");
            return;
        }
    };
    for m in live {
        let seats: Vec<usize> = m
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.player.as_ref().is_some_and(|p| p.id == target))
            .map(|(i, _)| i)
            .collect();
        if seats.is_empty() || !matches!(lobby.locate(&m.id).await, Ok(Place::Here)) {
            continue;
        }
        for seat in seats {
            // One resignation may end the game (then the next is refused as over).
            if let Err(err) = lobby.resign(&m.id, Seat(seat as u8)).await
                && err.code != Code::MatchOver
            {
                tracing::warn!(id = %m.id, error = %err.message, "a banned player's seat not resigned");
            }
        }
    }
}

/// Reads the audit log's new entries every `WATCH_EVERY` and applies them (`apply`), until the
/// lobby is gone or shuts down.
pub async fn watch(lobby: Weak<Lobby>) {
    let mut every = tokio::time::interval(WATCH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(lobby) = lobby.upgrade() else {
            return;
        };
        if *lobby.shutdown_signal().borrow() {
            return;
        }
        catch_up(&lobby).await;
    }
}

/// Applies the audit entries this node has not applied yet.
async fn catch_up(lobby: &Arc<Lobby>) {
    loop {
        let after = lobby.sanctions().applied();
        let entries = match lobby.store().audit(AuditFrom::After(after), 100).await {
            Ok(entries) => entries,
            Err(e) => {
                tracing::debug!(error = %e, "the audit log not read");
                return;
            }
        };
        let Some(last) = entries.last().map(|e| e.id) else {
            return;
        };
        for e in &entries {
            apply(lobby, e).await;
        }
        lobby.sanctions().applied_up_to(last);
        if entries.len() < 100 {
            return;
        }
    }
}

/// A warning (an audit entry of the warn action) as the player reads it.
#[must_use]
pub fn warning(e: &AuditEntry) -> Warning {
    Warning {
        id: e.id,
        at: e.at,
        reason: e.reason.clone(),
    }
}

/// An audit entry as the API sends it.
#[must_use]
pub fn view(e: &AuditEntry) -> AuditView {
    AuditView {
        id: e.id,
        at: e.at,
        moderator: e.moderator.clone(),
        action: e.action.clone(),
        target: e.target.as_ref().map(|(_, name)| name.clone()),
        match_id: e.match_id.clone(),
        report: e.report,
        until: e.until,
        detail: e.detail.clone(),
        reason: e.reason.clone(),
    }
}
