//! A player's own data (docs/protocol.md section 7.10): `GET /api/me/data`, everything the
//! server keeps about the session's player as one JSON file, and `POST /api/me/delete`, the
//! deletion of its account.

use std::collections::BTreeMap;
use std::net::IpAddr;

use axum::Json;
use axum::extract::State;
use axum::http::header::CONTENT_DISPOSITION;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar};
use plateau_protocol::server::{
    DataAccount, DataChallenges, DataChatLine, DataGame, DataModeration, DataRatingChange,
    DataReport, DataSession, PlayerData, RecordBody,
};
use serde::Deserialize;

use super::auth::{Session, sign_in_allowed, sign_in_failed};
use super::extract::{ClientAddr, JsonBody};
use super::matches::summary;
use super::players::standing_view;
use super::state::AppState;
use crate::store::{StoreError, StoredMatch};
use plateau_lobby::model::{ApiError, Code, HttpError, Status, unix_ms};
use plateau_lobby::players::{Player, PlayerKind, SESSION_COOKIE};

/// Every match a player can sit in, however many: the download holds them all.
const ALL_MATCHES: usize = 1_000_000;

/// The session's player, or `auth/required`.
fn signed(session: &Session) -> Result<Player, ApiError> {
    session.player.clone().ok_or_else(|| {
        ApiError::new(
            Code::AuthRequired,
            "no player: this browser has no session (sign in first)",
        )
    })
}

/// `GET /api/me/data`: the session's player's data (`PlayerData`), as a file to save
/// (`Content-Disposition: attachment`), `Limits::data_downloads` times in an hour at most
/// (`download_allowed`).
pub(super) async fn my_data(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
) -> Result<Response, HttpError> {
    let me = signed(&session)?;
    download_allowed(&app, addr, &me)?;
    let store = app.lobby.store();
    let failed = |e: StoreError| HttpError(ApiError::store(e));
    let statuses = vec![Status::Open, Status::Live, Status::Finished];
    let listed = store
        .player_matches(me.id, statuses, ALL_MATCHES)
        .await
        .map_err(failed)?;
    // The finished ones with their logs, for their records.
    let mut matches: Vec<StoredMatch> = Vec::with_capacity(listed.len());
    for m in listed {
        if m.status == Status::Finished
            && let Some(whole) = store.get(&m.id, true).await.map_err(failed)?
        {
            matches.push(whole);
        } else {
            matches.push(m);
        }
    }
    let games = matches
        .iter()
        .map(|m| DataGame {
            summary: summary(&app, m),
            seats: m
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.player.as_ref().is_some_and(|p| p.id == me.id))
                .map(|(i, _)| i)
                .collect(),
            record: (m.status == Status::Finished)
                .then(|| RecordBody(plateau_match::replays::to_record(m))),
        })
        .collect();
    let ratings: BTreeMap<String, _> = store
        .standings(me.id)
        .await
        .map_err(failed)?
        .iter()
        .map(|(game, s)| (game.clone(), standing_view(s)))
        .collect();
    let rating_changes = store
        .rating_events(me.id)
        .await
        .map_err(failed)?
        .into_iter()
        .map(|e| DataRatingChange {
            game: e.game,
            match_id: e.match_id,
            at: e.at,
            rating_before: e.before.shown(),
            rating: e.after.shown(),
            deviation_before: e.before.shown_deviation(),
            deviation: e.after.shown_deviation(),
        })
        .collect();
    let chat = store
        .player_chat(me.id)
        .await
        .map_err(failed)?
        .into_iter()
        .map(|(match_id, line)| DataChatLine {
            match_id,
            room: plateau_match::model::room_view(line.room),
            seat: line.seat,
            text: line.text,
            at: line.at,
        })
        .collect();
    let sessions = store
        .player_sessions(me.id)
        .await
        .map_err(failed)?
        .into_iter()
        .map(|(started_at, last_used)| DataSession {
            started_at,
            last_used,
        })
        .collect();
    let (mut follows, mut blocks) = (Vec::new(), Vec::new());
    for (relation, other) in store.relations(me.id).await.map_err(failed)? {
        match relation {
            plateau_lobby::players::Relation::Follow => follows.push(other.view()),
            plateau_lobby::players::Relation::Block => blocks.push(other.view()),
        }
    }
    let (incoming, outgoing) = app.challenges.of_player(me.id);
    let tournaments = app.tournaments.of(me.clone()).await?.tournaments;
    let moderation = moderation(&store.moderation_record(me.id).await.map_err(failed)?);
    let data = PlayerData {
        exported_at: unix_ms(),
        account: DataAccount {
            name: me.name.clone(),
            kind: me.kind,
            created_at: me.created_at,
            sessions,
        },
        ratings,
        rating_changes,
        games,
        chat,
        follows,
        blocks,
        challenges: DataChallenges { incoming, outgoing },
        tournaments,
        moderation,
    };
    // The name holds only letters, digits, `_` and `-` (a deleted player's spaces aside).
    let file: String = me
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let disposition =
        HeaderValue::from_str(&format!("attachment; filename=\"plateau-{file}.json\""))
            .unwrap_or(HeaderValue::from_static("attachment"));
    Ok(([(CONTENT_DISPOSITION, disposition)], Json(data)).into_response())
}

/// Counts a download of `me`'s data from `addr` against `Limits::data_downloads`, for the
/// player and for its address (where the limits per address apply to it): each download reads
/// every game the player sat at, logs included, so a session asking in a loop would keep the
/// database busy (docs/protocol.md section 6).
///
/// # Errors
/// `limit/downloads` past it, for either.
fn download_allowed(app: &AppState, addr: Option<IpAddr>, me: &Player) -> Result<(), ApiError> {
    let limits = &app.lobby.options().limits;
    let mut keys = vec![format!("data of player {}", me.id.0)];
    if let Some(addr) = addr.filter(|a| limits.applies_to(*a)) {
        keys.push(format!(
            "data from {}",
            plateau_lobby::limits::network(addr)
        ));
    }
    app.per_minute.record_within(
        &keys,
        limits.data_downloads,
        limits.data_window,
        Code::LimitDownloads,
        &format!(
            "your data was downloaded {} times within the hour, by you or from your address: \
             wait a while",
            limits.data_downloads
        ),
    )
}

/// The moderation part of a player's data from its record: the mute and ban in force now
/// (ended ones left out), every warning, the reports it filed.
fn moderation(record: &crate::store::moderation::Record) -> DataModeration {
    let now = unix_ms();
    let standing = &record.standing;
    let banned = standing.banned_until.filter(|&until| until > now);
    DataModeration {
        moderator: standing.role.is_some(),
        banned: banned.is_some(),
        banned_until: banned.filter(|&until| until != crate::store::moderation::FOREVER),
        muted_until: standing.muted_until.filter(|&until| until > now),
        warnings: standing
            .warnings
            .iter()
            .map(plateau_community::moderation::warning)
            .collect(),
        reports: record
            .reports
            .iter()
            .map(|r| DataReport {
                id: r.id,
                at: r.at,
                reported: r.reported.clone(),
                reason: r.reason.as_str().to_owned(),
                text: r.text.clone(),
                match_id: r.match_id.clone(),
                chat_seq: r.chat_seq,
                status: r.status.clone(),
            })
            .collect(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeleteRequest {
    password: String,
}

/// The name a deleted player's games show: words no person can choose (a chosen name has no
/// space, docs/protocol.md section 7.1), so none passes for it, and a number that tells two
/// apart.
fn neutral_name() -> String {
    format!("deleted player {}", rand::random_range(100_000..1_000_000))
}

/// `POST /api/me/delete`: deletes the session's account after checking its password (counted
/// as a sign-in attempt, docs/protocol.md section 6) (`Store::delete_player`), once it sits at
/// no unfinished match and is in no tournament that
/// is not over; its open challenges are withdrawn and the tournaments it played name it anew.
/// Ends the session: `204` with the cookie cleared.
pub(super) async fn delete_me(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<DeleteRequest>,
) -> Result<Response, HttpError> {
    let me = signed(&session)?;
    if me.kind != PlayerKind::Account {
        return Err(ApiError::new(
            Code::AuthFailed,
            "only an account is deleted, with its password (a guest's name and games are \
             kept only as long as its browser keeps the session)",
        )
        .into());
    }
    let store = app.lobby.store();
    // The password first, as a sign-in checks it, under the sign-in's limits (a stolen session
    // must not guess the password here instead): a place in the hashing line, then the check.
    let place = app.hasher.place()?;
    let attempt = sign_in_allowed(&app, addr, &me.name)?;
    let hash = store
        .player_by_name(me.name.clone())
        .await
        .map_err(ApiError::store)?
        .filter(|(p, _)| p.id == me.id)
        .and_then(|(_, hash)| hash);
    if !place.verify(req.password, hash).await? {
        sign_in_failed(&app, &attempt);
        return Err(ApiError::new(Code::AuthFailed, "wrong password: nothing was deleted").into());
    }
    let playing = || {
        ApiError::new(
            Code::PlayerPlaying,
            "finish or resign your unfinished games and withdraw from your tournaments first: \
             nothing was deleted",
        )
    };
    if app.tournaments.in_one_not_over(me.id).await? {
        return Err(playing().into());
    }
    let mut deleted = None;
    for _ in 0..8 {
        // The store refuses a player seated at an unfinished match, in the deletion's own
        // transaction.
        match store.delete_player(me.id, neutral_name()).await {
            Ok(p) => {
                deleted = Some(p);
                break;
            }
            Err(StoreError::Conflict(_)) => {}
            Err(StoreError::Playing) => return Err(playing().into()),
            Err(e) => return Err(ApiError::store(e).into()),
        }
    }
    let Some(deleted) = deleted else {
        return Err(ApiError::internal("no free neutral name after 8 tries").into());
    };
    app.challenges.player_gone(me.id);
    app.tournaments.forget_member(me.id, &deleted.name).await?;
    tracing::info!(player = me.id.0, "account deleted");
    let jar = jar.remove(Cookie::build(SESSION_COOKIE).path("/"));
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}
