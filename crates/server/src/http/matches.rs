//! The match routes (docs/protocol.md section 3): games, creating, joining, listing, one match
//! and its WebSocket; its records are `records`.

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Query, State, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use axum_extra::extract::cookie::CookieJar;
use futures_util::StreamExt;
use plateau_engine::Ending;
use plateau_protocol::server::{GameView, Games, Grant, Invite, Matches, Summary};
use serde::Deserialize;
use serde_json::Value;
use tracing::Instrument as _;

use super::auth::{Session, player_or_guest};
use super::extract::{ClientAddr, JsonBody, MatchId, SeatToken, bad_query};
use super::state::AppState;
use crate::store::StoredMatch;
use plateau_lobby::lobby::{CreateRequest, SeatGrant, is_match_id};
use plateau_lobby::model::{ApiError, Code, HttpError, SeatInfo, SeatSpec, Status};
use plateau_lobby::net::ConnSlot;
use plateau_lobby::ws;

/// The bots "Play the computer" offers, weakest first (docs/protocol.md section 3.1).
pub const LEVELS: [&str; 5] = ["beginner", "casual", "club", "strong", "expert"];

pub(super) async fn games(State(app): State<AppState>) -> Json<Games> {
    let catalogue = app.lobby.catalogue();
    let levels: Vec<&str> = LEVELS
        .into_iter()
        .filter(|l| catalogue.bots.contains(l))
        .collect();
    let games = catalogue
        .games
        .iter()
        .map(|g| {
            let i = g.info;
            // An agreed stop exists where the game accepts one at its start (MAD, Chakart); it
            // is a draw where it leaves every seat first.
            let agreed = g
                .new_game(&Value::Null, i.default_seats)
                .ok()
                .and_then(|mut s| s.end(Ending::Agreement).ok().and_then(|()| s.outcome()));
            GameView {
                name: i.name,
                title: i.title,
                min_seats: i.min_seats,
                max_seats: i.max_seats,
                default_seats: i.default_seats,
                chance: i.chance,
                hidden_information: i.hidden_information,
                simultaneous: i.simultaneous,
                rule_clock: g.rule_clock,
                default_config: g.default_config(),
                bots: catalogue.bots,
                levels: levels.clone(),
                agreement: agreed.is_some(),
                agreement_draw: agreed.is_some_and(|o| o.ranks.iter().all(|r| *r == 1)),
            }
        })
        .collect();
    Json(Games { games })
}

fn grant_body(g: &SeatGrant) -> Grant<'_> {
    Grant {
        id: &g.id,
        seed_hash: &g.seed_hash,
        seat: g.seat,
        token: g.token.as_deref(),
        url: format!("/m/{}", g.id),
        invites: g
            .free
            .iter()
            .map(|&seat| Invite {
                seat,
                url: format!("/m/{}?join={seat}", g.id),
            })
            .collect(),
    }
}

/// `POST /api/matches`: the session's player (a new guest without one) takes the creator's seat.
pub(super) async fn create(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, HttpError> {
    let table = plateau_lobby::lobby::Table::of(&req.seats);
    let creator = app.lobby.creation_allowed(addr, table).await?;
    let created = async {
        let (player, jar) = player_or_guest(&app, addr, &session, jar).await?;
        let grant = app.lobby.create(req, player, creator.clone()).await?;
        Ok((StatusCode::CREATED, jar, Json(grant_body(&grant))).into_response())
    }
    .await;
    if created.is_err()
        && let Some(key) = &creator
    {
        app.lobby.creation_refused(key);
    }
    created
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinRequest {
    #[serde(default)]
    seat: Option<u8>,
}

/// `POST /api/matches/{id}/join`: the session's player (a new guest without one) takes the seat.
/// A join counts as a table made (`Lobby::creation_allowed`); a join refused makes no guest.
pub(super) async fn join(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    MatchId(id): MatchId,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Response, HttpError> {
    if session.player.is_none() {
        seat_free(&app, &id, req.seat).await?;
    }
    let counted = app
        .lobby
        .creation_allowed(addr, plateau_lobby::lobby::Table::People)
        .await?;
    let joined = async {
        let (player, jar) = player_or_guest(&app, addr, &session, jar).await?;
        let grant = app.lobby.join(&id, req.seat, player).await?;
        Ok((jar, Json(grant_body(&grant))).into_response())
    }
    .await;
    if joined.is_err()
        && let Some(key) = &counted
    {
        app.lobby.creation_refused(key);
    }
    joined
}

/// Whether match `id` has the human seat `seat` free (any free one without `seat`), as stored
/// now: checked before a guest is made for the join, so a join bound to fail makes none.
///
/// # Errors
/// `match/not_found`, `match/over`, `seat/invalid`, `seat/taken`.
async fn seat_free(app: &AppState, id: &str, seat: Option<u8>) -> Result<(), HttpError> {
    let m = stored(app, id, false).await?;
    if m.status == Status::Finished {
        return Err(ApiError::new(Code::MatchOver, "the match is over").into());
    }
    let free = |s: &crate::store::StoredSeat| s.spec == SeatSpec::Human && s.token_hash.is_none();
    match seat {
        Some(n) => match m.seats.get(usize::from(n)) {
            Some(s) if free(s) => Ok(()),
            Some(s) if s.spec == SeatSpec::Human => Err(ApiError::new(
                Code::SeatTaken,
                format!("seat {} is taken", u16::from(n) + 1),
            )
            .into()),
            _ => Err(ApiError::new(
                Code::SeatInvalid,
                format!(
                    "seat {} is not a human seat of this match",
                    u16::from(n) + 1
                ),
            )
            .into()),
        },
        None if m.seats.iter().any(free) => Ok(()),
        None => Err(ApiError::new(Code::SeatTaken, "no free human seat is left").into()),
    }
}

/// The public facts of a stored match (docs/protocol.md section 3.3), with who sits where and
/// who is connected now.
pub(crate) fn summary<'a>(app: &'a AppState, m: &'a StoredMatch) -> Summary<'a> {
    let title = app
        .lobby
        .catalogue()
        .game(&m.game)
        .map_or(m.game.as_str(), |g| g.info.title);
    let here = app.lobby.presence().of_match(&m.id);
    // A public version never counts secret actions: while a game with hidden information runs,
    // it is the spectators' version, known to the match's actor (`null` when not in memory).
    let hidden = app
        .lobby
        .catalogue()
        .game(&m.game)
        .is_some_and(|g| g.info.hidden_information);
    let version = if hidden && m.status == Status::Live {
        here.as_ref().map(|p| p.public_version)
    } else {
        Some(m.version)
    };
    let connected = here.map(|p| p.connected).unwrap_or_default();
    let seats: Vec<SeatInfo> = m
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            plateau_lobby::model::seat_info(
                i,
                &s.spec,
                s.spec != SeatSpec::Human || s.token_hash.is_some(),
                s.player.as_ref(),
                connected.get(i).copied().unwrap_or(false),
            )
        })
        .collect();
    let finished = m.status == Status::Finished;
    Summary {
        id: &m.id,
        game: &m.game,
        title,
        status: m.status,
        seats,
        config: &m.config,
        time_control: m.time_control,
        created_at: m.created_at,
        version,
        rated: m.rated,
        unrated: m.unrated.as_deref(),
        ended_at: m.ended_at,
        outcome: m.outcome.as_ref(),
        seed_hash: m.seed.hash_hex(),
        seed: finished.then(|| m.seed.to_hex()),
        rematch: m.rematch.as_deref(),
    }
}

/// How long an open match is listed although nobody waits at it, in ms.
const OPEN_FRESH_MS: i64 = 10 * 60 * 1000;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    status: Option<String>,
}

pub(super) async fn list(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, HttpError> {
    let Query(q) = query.map_err(|e| bad_query(&e))?;
    let words = q.status.unwrap_or_else(|| "open,live".to_owned());
    let mut statuses = Vec::new();
    for word in words.split(',').filter(|w| !w.is_empty()) {
        statuses.push(Status::parse(word).ok_or_else(|| {
            ApiError::new(
                Code::RequestMalformed,
                format!("unknown status `{word}` (known: open, live, finished)"),
            )
        })?);
    }
    let matches = app
        .lobby
        .store()
        .list(statuses, 100)
        .await
        .map_err(ApiError::store)?;
    let presence = app.lobby.presence();
    let now = plateau_lobby::model::unix_ms();
    // Only tables people sit at: a live match with a person connected, an open one whose
    // creator waits at it or that is fresh; finished matches all.
    let matches: Vec<Summary<'_>> = matches
        .iter()
        .filter(|m| {
            let here = presence.of_match(&m.id).is_some_and(|p| p.someone_here());
            match m.status {
                Status::Live => here,
                Status::Open => here || now - m.created_at < OPEN_FRESH_MS,
                Status::Finished => true,
            }
        })
        .map(|m| summary(&app, m))
        .collect();
    Ok(Json(Matches { matches }).into_response())
}

pub(super) async fn stored(
    app: &AppState,
    id: &str,
    with_log: bool,
) -> Result<StoredMatch, HttpError> {
    if !is_match_id(id) {
        return Err(ApiError::not_found(id).into());
    }
    app.lobby
        .store()
        .get(id, with_log)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::not_found(id).into())
}

/// Finished match `id` from the store (`with_log`: with its log), for `what` is given once the
/// match is over.
///
/// # Errors
/// `match/not_found`; `match/not_over` naming `what` while it runs; `server/internal`.
pub(super) async fn finished(
    app: &AppState,
    id: &str,
    with_log: bool,
    what: &str,
) -> Result<StoredMatch, HttpError> {
    let m = stored(app, id, with_log).await?;
    if m.status != Status::Finished {
        return Err(ApiError::new(
            Code::MatchNotOver,
            format!("{what} is given once the match is over"),
        )
        .into());
    }
    Ok(m)
}

pub(super) async fn one(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, HttpError> {
    let m = stored(&app, &id, false).await?;
    Ok(Json(summary(&app, &m)).into_response())
}

#[expect(
    clippy::too_many_arguments,
    reason = "one argument per extractor, as axum passes them"
)]
pub(super) async fn websocket(
    State(app): State<AppState>,
    MatchId(id): MatchId,
    ClientAddr(peer): ClientAddr,
    session: Session,
    token: Result<SeatToken, HttpError>,
    slot: Option<Extension<ConnSlot>>,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let place = match app.lobby.locate(&id).await {
        Ok(place) => place,
        Err(e) => return HttpError(e).into_response(),
    };
    let SeatToken(token) = match token {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(e) => {
            let message = format!(
                "this is the match's WebSocket: open it with a WebSocket upgrade ({})",
                e.body_text()
            );
            return HttpError(ApiError::new(Code::RequestUpgradeRequired, message)).into_response();
        }
    };
    let lobby = app.lobby.clone();
    let slot = slot.map(|Extension(s)| s);
    // The socket's log lines, for its whole life, are under the request's span (its id, the
    // client) and one naming the match; so are those of the actions it sends, in the actor.
    let span = tracing::info_span!("socket", "match" = %id);
    // A match another node drives: the socket is piped there (docs/architecture.md section 5.3).
    if let plateau_lobby::lobby::Place::There(holder) = place {
        match plateau_lobby::cluster::socket_to(&lobby, &id, holder, &headers, peer).await {
            Ok(Some((upstream, holder))) => {
                return ws::sized(upgrade).on_upgrade(move |socket| {
                    async move {
                        plateau_lobby::cluster::pipe(socket, upstream, &lobby, slot, &id, &holder)
                            .await;
                    }
                    .instrument(span)
                });
            }
            // Taken over here meanwhile.
            Ok(None) => {}
            Err(e) => return HttpError(e).into_response(),
        }
    }
    ws::sized(upgrade).on_upgrade(move |socket| {
        async move {
            // The connection's place under the caps lasts as long as the socket.
            let (sink, stream) = socket.split();
            ws::session(lobby, id, token, session.player, peer, slot, sink, stream).await;
        }
        .instrument(span)
    })
}
