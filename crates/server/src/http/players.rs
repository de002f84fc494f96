//! The player routes (docs/protocol.md section 7): who am I, becoming a guest or an account,
//! signing in and out, my games, a player's profile and a game's leaderboard.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar};
use plateau_protocol::server::{
    Leader, Leaderboard, Me, MyGames, MyStanding, Profile, RatingPoint, RecentMatch, Signed,
    Standing as StandingView,
};
use serde::Deserialize;

use super::auth::{
    Session, create_named, guest_allowed, name_taken, new_session, player_or_guest,
    sign_in_allowed, sign_in_failed,
};
use super::extract::{ClientAddr, JsonBody};
use super::matches::summary;
use super::state::AppState;
use crate::store::{Standing, StoreError};
use plateau_lobby::model::{ApiError, Code, HttpError, Status};
use plateau_lobby::players::{
    Player, PlayerKind, SESSION_COOKIE, check_chosen_name, check_password,
};
use plateau_store::ratings::{self, PROVISIONAL_GAMES, Rating};

/// Most games listed in a profile and in "my games".
const RECENT: usize = 50;
/// Most players on a leaderboard.
const LEADERS: usize = 100;

fn player_json(p: &Player) -> Signed {
    Signed { player: p.view() }
}

/// `GET /api/me`: the session's player, or `null` (no guest is made here), and whether it may
/// still rename itself.
pub(super) async fn me(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<Me>, HttpError> {
    let can_rename = match &session.player {
        Some(p) if p.kind == PlayerKind::Guest => !played_rated(&app, p).await?,
        _ => false,
    };
    let standing = match &session.player {
        Some(p) => my_standing(&app, p).await?,
        None => None,
    };
    Ok(Json(Me {
        player: session.player.as_ref().map(Player::view),
        can_rename,
        standing,
    }))
}

/// What `GET /api/me` says of `p`'s standing with the moderators (docs/protocol.md section
/// 7.11), `None` when there is nothing to say. The bans and mutes are the node's
/// (`Sanctions`), so what the page says is what the node enforces.
async fn my_standing(app: &AppState, p: &Player) -> Result<Option<MyStanding>, HttpError> {
    let stored = app
        .lobby
        .store()
        .moderation_standing(p.id)
        .await
        .map_err(ApiError::store)?;
    let sanctions = app.lobby.sanctions();
    let banned = sanctions.banned(p.id);
    let standing = MyStanding {
        moderator: stored.role.is_some(),
        banned: banned.is_some(),
        banned_until: banned.flatten(),
        muted_until: sanctions.muted(p.id),
        warnings: stored
            .warnings
            .iter()
            .map(plateau_community::moderation::warning)
            .collect(),
    };
    let nothing = !standing.moderator
        && !standing.banned
        && standing.muted_until.is_none()
        && standing.warnings.is_empty();
    Ok((!nothing).then_some(standing))
}

/// Whether `p` has played a rated game that counted (it has a rated game in some game's
/// standing): its name is then on leaderboards and in others' histories, and stays.
async fn played_rated(app: &AppState, p: &Player) -> Result<bool, HttpError> {
    let standings = app
        .lobby
        .store()
        .standings(p.id)
        .await
        .map_err(ApiError::store)?;
    Ok(standings.iter().any(|(_, s)| s.games > 0))
}

/// `GET /api/me/games`: the session player's live matches, and those waiting for its move.
pub(super) async fn my_games(
    State(app): State<AppState>,
    session: Session,
) -> Result<Response, HttpError> {
    let Some(me) = session.player else {
        let none = MyGames {
            waiting: Vec::new(),
            playing: Vec::new(),
        };
        return Ok(Json(none).into_response());
    };
    let live = app
        .lobby
        .store()
        .player_matches(me.id, vec![Status::Live], RECENT)
        .await
        .map_err(ApiError::store)?;
    // A correspondence match waiting for a person may have left memory: load it to know (one
    // another node drives is known only there).
    for m in &live {
        app.lobby.locate(&m.id).await?;
    }
    let waiting_ids = app.lobby.presence().waiting_for(me.id);
    let waiting: Vec<_> = live
        .iter()
        .filter(|m| waiting_ids.contains(&m.id))
        .map(|m| summary(&app, m))
        .collect();
    let playing = live.iter().map(|m| summary(&app, m)).collect();
    Ok(Json(MyGames { waiting, playing }).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GuestRequest {
    name: String,
}

/// `POST /api/guest`: plays as a guest named so: the current guest renamed (until its first rated
/// game), or a new one.
pub(super) async fn guest(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<GuestRequest>,
) -> Result<Response, HttpError> {
    check_chosen_name(
        &req.name,
        app.lobby.catalogue().bots,
        &app.lobby.options().name_deny_list,
    )?;
    match &session.player {
        Some(p) if p.kind != PlayerKind::Guest => Err(ApiError::new(
            Code::PlayerAccount,
            "you are signed in to an account: sign out to play as a guest",
        )
        .into()),
        Some(p) => {
            if p.name != req.name && played_rated(&app, p).await? {
                return Err(ApiError::new(
                    Code::NameLocked,
                    format!(
                        "{:?} has played rated games: the name stays (create an account to keep it \
                         on every device)",
                        p.name
                    ),
                )
                .into());
            }
            rename_allowed(&app, p)?;
            let renamed = rename(&app, p, Some(req.name), None)
                .await
                .inspect_err(|_| app.per_minute.forget(&rename_key(p)))?;
            app.lobby.renamed(p.id).await;
            Ok((jar, Json(player_json(&renamed))).into_response())
        }
        None => {
            guest_allowed(&app, addr)?;
            let p = create_named(&app, Some(req.name), PlayerKind::Guest, None).await?;
            let jar = new_session(&app, addr, &session, &p, jar).await?;
            Ok((jar, Json(player_json(&p))).into_response())
        }
    }
}

/// Renames of one guest in an hour.
pub const RENAMES_PER_HOUR: usize = 5;

/// Counts a rename of `p` against `RENAMES_PER_HOUR` (a rename refused is taken back).
///
/// # Errors
/// `limit/renames` past it.
fn rename_allowed(app: &AppState, p: &Player) -> Result<(), HttpError> {
    app.per_minute
        .record_within(
            &[rename_key(p)],
            RENAMES_PER_HOUR,
            plateau_lobby::limits::LONGEST_WINDOW,
            Code::LimitRenames,
            "you renamed yourself 5 times this hour: keep this name a while",
        )
        .map_err(HttpError)
}

/// The counter of `p`'s renames.
fn rename_key(p: &Player) -> String {
    format!("rename {}", p.id.0)
}

async fn rename(
    app: &AppState,
    p: &Player,
    name: Option<String>,
    password_hash: Option<String>,
) -> Result<Player, HttpError> {
    app.lobby
        .store()
        .update_player(p.id, name.clone(), password_hash)
        .await
        .map_err(|e| match e {
            StoreError::NotAGuest => {
                ApiError::new(Code::PlayerAccount, "you already have an account")
            }
            StoreError::Conflict(_) => name_taken(name.as_deref().unwrap_or(&p.name)),
            e => ApiError::store(e),
        })
        .map_err(HttpError)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AccountRequest {
    password: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/account`: the current guest (made now if none) becomes an account with a password
/// and, if given, a new name; its games and ratings stay its own. A new session id is issued.
pub(super) async fn account(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<AccountRequest>,
) -> Result<Response, HttpError> {
    if let Some(name) = &req.name {
        check_chosen_name(
            name,
            app.lobby.catalogue().bots,
            &app.lobby.options().name_deny_list,
        )?;
    }
    check_password(&req.password)?;
    if session
        .player
        .as_ref()
        .is_some_and(|p| p.kind != PlayerKind::Guest)
    {
        return Err(ApiError::new(Code::PlayerAccount, "you already have an account").into());
    }
    // A place in the hashing line first: refused busy, nothing was made.
    let place = app.hasher.place()?;
    let (guest, jar) = player_or_guest(&app, addr, &session, jar).await?;
    let hash = place.hash(req.password).await?;
    let account = rename(&app, &guest, req.name, Some(hash)).await?;
    if account.name != guest.name {
        app.lobby.renamed(account.id).await;
    }
    let session = Session {
        hash: jar
            .get(SESSION_COOKIE)
            .map(|c| plateau_match::tokens::token_hash(c.value())),
        player: Some(account.clone()),
    };
    let jar = new_session(&app, addr, &session, &account, jar).await?;
    Ok((jar, Json(player_json(&account))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LoginRequest {
    name: String,
    password: String,
}

/// `POST /api/login`: signs in to an account. A wrong password and an unknown name get the same
/// answer after the same work; attempts are limited per address, failures per name and address,
/// and in all (`auth::sign_in_allowed`).
pub(super) async fn login(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<LoginRequest>,
) -> Result<Response, HttpError> {
    // A place in the hashing line first: refused busy, the attempt asked the database nothing
    // and counts for nothing.
    let place = app.hasher.place()?;
    let attempt = sign_in_allowed(&app, addr, &req.name)?;
    let found = app
        .lobby
        .store()
        .player_by_name(req.name.clone())
        .await
        .map_err(ApiError::store)?
        .filter(|(p, _)| p.kind == PlayerKind::Account);
    let (player, stored) = match found {
        Some((p, hash)) => (Some(p), hash),
        None => (None, None),
    };
    let ok = place.verify(req.password, stored).await?;
    let Some(player) = player.filter(|_| ok) else {
        sign_in_failed(&app, &attempt);
        return Err(ApiError::new(Code::AuthFailed, "wrong name or password").into());
    };
    let jar = new_session(&app, addr, &session, &player, jar).await?;
    Ok((jar, Json(player_json(&player))).into_response())
}

/// `POST /api/logout`: ends the session and clears its cookie.
pub(super) async fn logout(
    State(app): State<AppState>,
    session: Session,
    jar: CookieJar,
) -> Result<Response, HttpError> {
    if let Some(hash) = session.hash {
        app.lobby
            .store()
            .delete_session(hash)
            .await
            .map_err(ApiError::store)?;
    }
    let jar = jar.remove(Cookie::build(SESSION_COOKIE).path("/"));
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

pub(super) fn standing_view(s: &Standing) -> StandingView {
    StandingView {
        rating: s.rating.shown(),
        deviation: s.rating.shown_deviation(),
        games: s.games,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
        provisional: s.games < PROVISIONAL_GAMES,
    }
}

/// `GET /api/players/{name}`: ratings per game, their history, and the recent finished games.
pub(super) async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    let store = app.lobby.store();
    let not_found = || ApiError::new(Code::PlayerNotFound, format!("no player named {name:?}"));
    let (player, _) = store
        .player_by_name(name.clone())
        .await
        .map_err(ApiError::store)?
        .ok_or_else(not_found)?;
    let standings = store.standings(player.id).await.map_err(ApiError::store)?;
    let events = store
        .rating_events(player.id)
        .await
        .map_err(ApiError::store)?;
    let finished = store
        .player_matches(player.id, vec![Status::Finished], RECENT)
        .await
        .map_err(ApiError::store)?;
    let ratings: BTreeMap<&str, StandingView> = standings
        .iter()
        .map(|(game, s)| (game.as_str(), standing_view(s)))
        .collect();
    let mut history: BTreeMap<&str, Vec<RatingPoint>> = BTreeMap::new();
    for e in &events {
        let points = history.entry(e.game.as_str()).or_default();
        if points.is_empty() {
            points.push(RatingPoint {
                at: player.created_at,
                rating: e.before.shown(),
                match_id: None,
            });
        }
        points.push(RatingPoint {
            at: e.at,
            rating: e.after.shown(),
            match_id: Some(&e.match_id),
        });
    }
    let recent: Vec<RecentMatch> = finished
        .iter()
        .filter_map(|m| {
            let seat = m
                .seats
                .iter()
                .position(|s| s.player.as_ref().is_some_and(|p| p.id == player.id))?;
            let ranks = &m.outcome.as_ref()?.ranks;
            let change = events
                .iter()
                .find(|e| e.match_id == m.id)
                .map(|e| e.after.shown() - e.before.shown());
            let opponents: Vec<&str> = m
                .seats
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != seat)
                .filter_map(|(_, s)| s.player.as_ref().map(|p| p.name.as_str()))
                .collect();
            let title = app
                .lobby
                .catalogue()
                .game(&m.game)
                .map_or("", |g| g.info.title);
            Some(RecentMatch {
                id: &m.id,
                game: &m.game,
                title,
                seat,
                seats: m.seats.len(),
                rank: ranks.get(seat).copied(),
                result: ratings::result_word(ranks, seat),
                rated: m.rated,
                unrated: m.unrated.as_deref(),
                rating_change: change,
                opponents,
                ended_at: m.ended_at,
            })
        })
        .collect();
    let profile = Profile {
        name: &player.name,
        kind: player.kind,
        created_at: player.created_at,
        ratings,
        history,
        recent,
    };
    Ok(Json(profile).into_response())
}

/// `GET /api/leaderboard/{game}`: the best-rated people in a game.
pub(super) async fn leaderboard(
    State(app): State<AppState>,
    Path(game): Path<String>,
) -> Result<Response, HttpError> {
    if app.lobby.catalogue().game(&game).is_none() {
        return Err(ApiError::new(Code::GameUnknown, format!("unknown game {game:?}")).into());
    }
    let leaders = app
        .lobby
        .store()
        .leaderboard(game.clone(), LEADERS)
        .await
        .map_err(ApiError::store)?;
    let players = leaders
        .iter()
        .map(|(p, s)| Leader {
            name: &p.name,
            kind: p.kind,
            standing: standing_view(s),
        })
        .collect();
    let board = Leaderboard {
        game: &game,
        start: Rating::default().shown(),
        players,
    };
    Ok(Json(board).into_response())
}
