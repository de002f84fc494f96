//! The HTTP routes (docs/protocol.md sections 2 and 3) and the router.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State, WebSocketUpgrade};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use plateau_engine::{Actor, Record, RecordStep, RecordedAction, Seat, Viewer};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::assets;
use crate::lobby::{CreateRequest, Lobby, SeatGrant, is_match_id};
use crate::model::{ApiError, Code, SeatInfo, SeatSpec, Status};
use crate::store::{Entry, StoredMatch};
use crate::ws::{self, MAX_FRAME};

/// Largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The service's shared state: the lobby (and through it the store and the actors).
#[derive(Clone)]
pub struct AppState {
    /// The lobby.
    pub lobby: Arc<Lobby>,
}

/// The whole service as a router: API, WebSocket, static pages. Bind it to any listener.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { Json(json!({"status": "ok"})) }))
        .route("/api/games", get(games))
        .route("/api/matches", get(list).post(create))
        .route("/api/matches/{id}", get(one))
        .route("/api/matches/{id}/join", post(join))
        .route("/api/matches/{id}/record", get(record))
        .route("/api/matches/{id}/replay", get(replay))
        .route("/api/matches/{id}/ws", get(websocket))
        .route("/", get(|| async { assets::serve("index.html") }))
        .route("/m/{id}", get(|| async { assets::serve("match.html") }))
        .route(
            "/replay/{id}",
            get(|| async { assets::serve("replay.html") }),
        )
        .route("/verify", get(|| async { assets::serve("verify.html") }))
        .route(
            "/assets/{*path}",
            get(|Path(path): Path<String>| async move { assets::serve(&path) }),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// An unknown path: under `/api/` the JSON error `request/not_found`, elsewhere a plain `404` page.
async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        ApiError::new(Code::RequestNotFound, format!("no API route at `{path}`")).into_response()
    } else {
        (StatusCode::NOT_FOUND, "not found").into_response()
    }
}

/// A known path asked with a method it does not take: `request/method_not_allowed` (the router
/// adds the `Allow` header listing the methods it takes).
async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        Code::RequestMethodNotAllowed,
        format!("`{}` does not take {method}", uri.path()),
    )
}

/// A query string that does not fit the route: `request/malformed` with the parser's reason.
fn bad_query(rejection: &QueryRejection) -> ApiError {
    ApiError::new(Code::RequestMalformed, rejection.body_text())
}

/// The `{id}` of a match route. A path segment that is not text (bad percent-encoding, `%FF`)
/// names no match: `match/not_found`, as for any other string that is not a match id.
struct MatchId(String);

impl<S: Send + Sync> FromRequestParts<S> for MatchId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(MatchId(id)),
            Err(e) => Err(ApiError::new(
                Code::MatchNotFound,
                format!("no match with that id ({})", e.body_text()),
            )),
        }
    }
}

/// A JSON body read with the service's own errors: `request/too_large` over `MAX_BODY`,
/// `request/malformed` naming the field otherwise.
struct JsonBody<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    Code::RequestTooLarge,
                    format!("the request body is over {MAX_BODY} bytes"),
                )
            } else {
                ApiError::new(Code::RequestMalformed, e.body_text())
            }
        })?;
        if bytes.len() > MAX_BODY {
            return Err(ApiError::new(
                Code::RequestTooLarge,
                format!("the request body is over {MAX_BODY} bytes"),
            ));
        }
        let body = if bytes.is_empty() {
            &b"{}"[..]
        } else {
            &bytes[..]
        };
        serde_json::from_slice(body)
            .map(JsonBody)
            .map_err(|e| ApiError::new(Code::RequestMalformed, e.to_string()))
    }
}

async fn games(State(app): State<AppState>) -> Json<Value> {
    let catalogue = app.lobby.catalogue();
    let games: Vec<Value> = catalogue
        .games
        .iter()
        .map(|g| {
            let i = g.info;
            json!({
                "name": i.name, "title": i.title, "min_seats": i.min_seats,
                "max_seats": i.max_seats, "default_seats": i.default_seats, "chance": i.chance,
                "hidden_information": i.hidden_information, "simultaneous": i.simultaneous,
                "rule_clock": g.rule_clock,
                "default_config": g.default_config(), "bots": catalogue.bots,
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

fn grant_json(g: &SeatGrant) -> Value {
    let invites: Vec<Value> = g
        .free
        .iter()
        .map(|s| json!({"seat": s, "url": format!("/m/{}?join={s}", g.id)}))
        .collect();
    json!({
        "id": g.id, "seed_hash": g.seed_hash, "seat": g.seat, "token": g.token,
        "url": format!("/m/{}", g.id), "invites": invites,
    })
}

async fn create(
    State(app): State<AppState>,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    let grant = app.lobby.create(req).await?;
    Ok((StatusCode::CREATED, Json(grant_json(&grant))).into_response())
}

#[derive(Deserialize)]
struct JoinRequest {
    #[serde(default)]
    seat: Option<u8>,
}

async fn join(
    State(app): State<AppState>,
    MatchId(id): MatchId,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Value>, ApiError> {
    let grant = app.lobby.join(&id, req.seat).await?;
    Ok(Json(grant_json(&grant)))
}

/// The public facts of a stored match (docs/protocol.md section 3.3).
fn summary(app: &AppState, m: &StoredMatch) -> Value {
    let title = app
        .lobby
        .catalogue()
        .game(&m.game)
        .map_or(m.game.as_str(), |g| g.info.title);
    let seats: Vec<SeatInfo> = m
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            SeatInfo::new(
                i,
                &s.spec,
                s.spec != SeatSpec::Human || s.token_hash.is_some(),
            )
        })
        .collect();
    let finished = m.status == Status::Finished;
    json!({
        "id": m.id, "game": m.game, "title": title, "status": m.status, "seats": seats,
        "config": m.config, "time_control": m.time_control, "created_at": m.created_at,
        "version": m.version,
        "outcome": m.outcome, "seed_hash": m.seed.hash_hex(),
        "seed": finished.then(|| m.seed.to_hex()), "rematch": m.rematch,
    })
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
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
        .map_err(ApiError::internal)?;
    let matches: Vec<Value> = matches.iter().map(|m| summary(&app, m)).collect();
    Ok(Json(json!({ "matches": matches })))
}

async fn stored(app: &AppState, id: &str, with_log: bool) -> Result<StoredMatch, ApiError> {
    if !is_match_id(id) {
        return Err(ApiError::not_found(id));
    }
    app.lobby
        .store()
        .get(id, with_log)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(id))
}

async fn one(State(app): State<AppState>, MatchId(id): MatchId) -> Result<Json<Value>, ApiError> {
    let m = stored(&app, &id, false).await?;
    Ok(Json(summary(&app, &m)))
}

/// The engine's record of a stored match; the seed only once finished.
#[must_use]
pub fn to_record(m: &StoredMatch) -> Record {
    let mut record = Record::new(
        &m.game,
        m.config.clone(),
        m.seats.iter().map(|s| s.spec.record_name()).collect(),
        &m.seed,
    );
    for e in &m.log {
        let (by, action) = match &e.entry {
            Entry::Seat(s, action) => (Actor::Seat(Seat(*s)), action),
            Entry::Chance(action) => (Actor::Chance, action),
            // In its place: a Bataille Navale resignation is followed by more actions.
            Entry::End(ending) => {
                record.push_ending(*ending, Some(e.at_ms));
                continue;
            }
        };
        record.actions.push(RecordedAction {
            by,
            action: action.clone(),
            at_ms: Some(e.at_ms),
        });
    }
    if m.status == Status::Finished {
        record.seed = Some(m.seed);
        record.outcome.clone_from(&m.outcome);
    }
    record
}

async fn record(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Record>, ApiError> {
    let m = stored(&app, &id, true).await?;
    if m.status != Status::Finished {
        return Err(ApiError::new(
            Code::MatchNotOver,
            "the record is given once the match is over",
        ));
    }
    Ok(Json(to_record(&m)))
}

/// Every position of a finished match as a spectator sees it (docs/protocol.md, "Replay"), so the
/// replay page steps through a game without computing rules. `verified` is the server's own
/// `Record::replay` check: SHA-256 of the seed equals `seed_hash` and every dice roll is redrawn.
async fn replay(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Value>, ApiError> {
    let m = stored(&app, &id, true).await?;
    if m.status != Status::Finished {
        return Err(ApiError::new(
            Code::MatchNotOver,
            "the replay is given once the match is over",
        ));
    }
    let record = to_record(&m);
    let entry = app
        .lobby
        .catalogue()
        .game(&m.game)
        .ok_or_else(|| ApiError::internal(format!("match {id}: unknown game `{}`", m.game)))?;
    let verified = record.replay(entry).is_ok_and(|r| r.seed_verified);
    let states = crate::secrecy::states(entry, &record)
        .map_err(|e| ApiError::internal(format!("match {id} does not replay: {e}")))?;
    // `states[v]` is the state after `v` steps (actions and endings in log order).
    let view = |v: usize| states[v].observe_json(Viewer::Spectator);
    let mut steps = vec![json!({"by": null, "text": null, "observation": view(0)})];
    for (v, step) in record.steps().enumerate() {
        let step = match step {
            RecordStep::Action(_, action) => {
                // What a spectator could not see while the game ran (a secret placement, an order
                // before its turn was fired) is shown in canonical notation: the game is over and
                // its record, every action in it, is public.
                let text = states[v]
                    .display_text(action.by, &action.action, Viewer::Spectator)
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| action.action.clone());
                json!({"by": action.by, "text": text, "observation": view(v + 1)})
            }
            RecordStep::End(end) => {
                json!({"by": null, "text": end.ending, "observation": view(v + 1)})
            }
        };
        steps.push(step);
    }
    Ok(Json(json!({
        "id": id,
        "game": m.game,
        "seed_hash": record.seed_hash,
        "seed": record.seed,
        "verified": verified,
        "outcome": record.outcome,
        "steps": steps,
    })))
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

async fn websocket(
    State(app): State<AppState>,
    MatchId(id): MatchId,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if let Err(e) = app.lobby.ensure_exists(&id).await {
        return e.into_response();
    }
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return bad_query(&e).into_response(),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(e) => {
            let message = format!(
                "this is the match's WebSocket: open it with a WebSocket upgrade ({})",
                e.body_text()
            );
            return ApiError::new(Code::RequestUpgradeRequired, message).into_response();
        }
    };
    let lobby = app.lobby.clone();
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| {
            let (sink, stream) = socket.split();
            ws::session(lobby, id, q.token, sink, stream)
        })
}
