//! The HTTP routes (docs/protocol.md sections 2, 3 and 7) and the router: `matches` (games,
//! matches and their WebSocket), `records` (a match's record, export, replay, analysis, history
//! and chat), `players` (sessions, accounts, profiles, leaderboards), `lobby_ws` (the lobby's
//! live counts and quick pairing); `auth` (who is asking, the cross-site check, the security
//! headers), `data` (a player's own data: its download and the deletion of its account),
//! `extract` (what the routes read from a request) and `state` (what they share).

mod auth;
mod data;
mod extract;
mod friends;
mod lobby_counts;
mod lobby_follow;
mod lobby_ws;
mod matches;
mod moderation;
mod players;
mod records;
mod state;
mod tournaments;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::header::{CONNECTION, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router, middleware};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::assets;
use extract::{ClientAddr, MAX_BODY, MatchId, too_large};
use plateau_lobby::model::{ApiError, Code, HttpError};
pub use state::AppState;

/// The whole service as a router: API, WebSockets, static pages, with the cross-site check and
/// the security headers on every route. Served by `net::serve`, which gives each request its
/// client's address (`net::Client`) for the limits per address.
pub fn app(state: AppState) -> Router {
    let router = Router::new()
        .route("/health", get(health))
        .route("/api/games", get(matches::games))
        .route(
            "/api/matches",
            get(matches::list).merge(post(matches::create).route_layer(
                middleware::from_fn_with_state(state.clone(), create_elsewhere),
            )),
        )
        .route("/api/matches/{id}", get(matches::one))
        .route(
            "/api/matches/{id}/join",
            post(matches::join).route_layer(middleware::from_fn_with_state(
                state.clone(),
                forward_elsewhere,
            )),
        )
        .route("/api/matches/{id}/record", get(records::record))
        .route("/api/matches/{id}/export", get(records::export))
        .route("/api/matches/{id}/replay", get(records::replay))
        .route(
            "/api/matches/{id}/analysis",
            get(records::analysis).post(records::ask_analysis),
        )
        .route("/api/matches/{id}/history", get(records::history))
        .route("/api/matches/{id}/chat", get(records::chat))
        .route("/api/matches/{id}/ws", get(matches::websocket))
        .route("/api/me", get(players::me))
        .route("/api/me/games", get(players::my_games))
        .route("/api/me/relations", get(friends::relations))
        .route("/api/me/data", get(data::my_data))
        .route("/api/me/delete", post(data::delete_me))
        .route(
            "/api/me/follows/{name}",
            put(friends::follow).delete(friends::unfollow),
        )
        .route(
            "/api/me/blocks/{name}",
            put(friends::block).delete(friends::unblock),
        )
        .route("/api/me/warnings", post(moderation::ack_warnings))
        .route("/api/reports", post(moderation::report))
        .route("/api/mod/reports", get(moderation::reports))
        .route("/api/mod/reports/{id}", post(moderation::on_report))
        .route("/api/mod/players/{name}", post(moderation::on_player))
        .route("/api/mod/matches/{id}/close", post(moderation::close))
        .route("/api/mod/audit", get(moderation::audit))
        .route("/api/guest", post(players::guest))
        .route("/api/account", post(players::account))
        .route("/api/login", post(players::login))
        .route("/api/logout", post(players::logout))
        .route("/api/players/{name}", get(players::profile))
        .route(
            "/api/players/{name}/tournaments",
            get(tournaments::of_player),
        )
        .route("/api/leaderboard/{game}", get(players::leaderboard))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::one))
        .route("/api/tournaments/{id}/join", post(tournaments::join))
        .route(
            "/api/tournaments/{id}/withdraw",
            post(tournaments::withdraw),
        )
        .route("/api/lobby/ws", get(lobby_ws::websocket))
        .route("/", page("index.html"))
        .route("/m/{id}", page("match.html"))
        .route("/replay/{id}", page("replay.html"))
        .route("/@/{name}", page("player.html"))
        .route("/leaderboard", page("leaderboard.html"))
        .route("/tournaments", page("tournaments.html"))
        .route("/t/{id}", page("tournament.html"))
        .route("/howto/{game}", page("howto.html"))
        .route("/verify", page("verify.html"))
        .route("/moderation", page("moderation.html"))
        .route(
            "/assets/{*path}",
            get(
                |Path(path): Path<String>, uri: Uri, headers: HeaderMap| async move {
                    assets::serve(&path, uri.query(), &headers)
                },
            ),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(auth::same_origin))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::transport_security,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), body_in_time))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(middleware::map_response(coded_too_large))
        .with_state(state);
    edge(auth::security_headers(router))
}

/// A page of the UI, `web/<name>`: revalidated at each load (`assets::serve`).
fn page(name: &'static str) -> axum::routing::MethodRouter<AppState> {
    get(move |headers: HeaderMap| async move { assets::serve(name, None, &headers) })
}

/// The layers every request passes first, outermost first: a request id (`x-request-id`, a
/// UUID, kept from the request if it has one, such as a request another node forwards), given
/// back in the answer; a span `request` with that id, the client's address (`net::Client`:
/// the one a trusted proxy names), the method and the path, so that every
/// log line of the request (and of the WebSocket it opens) says which it was, and one line at
/// `debug` with its status and time; the answer compressed (gzip or Brotli, as the client
/// accepts) unless it is small, an image or already encoded.
fn edge(router: Router) -> Router {
    router
        .layer(CompressionLayer::new())
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_failure(DefaultOnFailure::new().level(tracing::Level::WARN)),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}

/// The span of one request (`edge`). The query is left out: it may hold a token.
fn request_span(request: &Request) -> tracing::Span {
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    let client = request
        .extensions()
        .get::<plateau_lobby::net::Client>()
        .map(|c| c.0);
    tracing::info_span!(
        "request",
        id,
        client = client.map(tracing::field::display),
        method = %request.method(),
        path = %request.uri().path()
    )
}

/// tower-http refuses a body whose `Content-Length` is over `MAX_BODY` before reading it, in
/// plain text: that answer becomes the service's `request/too_large`.
async fn coded_too_large(response: Response) -> Response {
    let plain = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE && plain {
        HttpError(too_large()).into_response()
    } else {
        response
    }
}

/// `GET /health` (docs/protocol.md section 2): the service answers, whether its database
/// answers a cheap query (`Store::ping`, at most `HEALTH_DB_WAIT`), and the matches it holds in
/// memory now. `200` with `"database": "ok"`, else `503` with `"status": "degraded"` and
/// `"database": "unreachable"` (the error goes to the log, not to the client).
async fn health(axum::extract::State(app): axum::extract::State<AppState>) -> Response {
    let ping = tokio::time::timeout(HEALTH_DB_WAIT, app.lobby.store().ping()).await;
    let reachable = match ping {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            tracing::warn!("health: the database does not answer: {e}");
            false
        }
        Err(_) => {
            tracing::warn!("health: the database did not answer within {HEALTH_DB_WAIT:?}");
            false
        }
    };
    let body = plateau_protocol::server::Health {
        status: if reachable { "ok" } else { "degraded" },
        database: if reachable { "ok" } else { "unreachable" },
        matches_in_memory: app.lobby.in_memory(),
    };
    let status = if reachable {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

/// Longest wait for the database's answer in `GET /health`.
const HEALTH_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends a request for a match another node drives to that node (`cluster`); serves it here
/// otherwise (including every error: an unknown match, a stopping server).
async fn forward_elsewhere(
    axum::extract::State(app): axum::extract::State<AppState>,
    ClientAddr(client): ClientAddr,
    MatchId(id): MatchId,
    request: Request,
    next: middleware::Next,
) -> Response {
    match app.lobby.locate(&id).await {
        Ok(plateau_lobby::lobby::Place::There(holder)) => {
            match plateau_lobby::cluster::request_to(&app.lobby, &id, holder, request, client).await
            {
                Ok(response) => response,
                Err(request) => next.run(request).await,
            }
        }
        _ => next.run(request).await,
    }
}

/// Sends a new match's creation to the node whose turn it is to drive one (`cluster`, on a
/// database several nodes share); serves it here otherwise.
async fn create_elsewhere(
    axum::extract::State(app): axum::extract::State<AppState>,
    ClientAddr(client): ClientAddr,
    request: Request,
    next: middleware::Next,
) -> Response {
    match plateau_lobby::cluster::create_elsewhere(&app.lobby, request, client).await {
        Ok(response) => response,
        Err(request) => next.run(request).await,
    }
}

/// An unknown path: under `/api/` the JSON error `request/not_found`, elsewhere a plain `404` page.
async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        HttpError(ApiError::new(
            Code::RequestNotFound,
            format!("no API route at `{path}`"),
        ))
        .into_response()
    } else {
        (StatusCode::NOT_FOUND, "not found").into_response()
    }
}

/// A known path asked with a method it does not take: `request/method_not_allowed` (the router
/// adds the `Allow` header listing the methods it takes).
async fn method_not_allowed(method: Method, uri: Uri) -> HttpError {
    HttpError(ApiError::new(
        Code::RequestMethodNotAllowed,
        format!("`{}` does not take {method}", uri.path()),
    ))
}

/// Reads a request's whole body within the time its headers have (`Limits::header_timeout`,
/// docs/protocol.md section 6) before any route sees it: the HTTP server times the headers alone,
/// so a client that sent them and then its body a byte at a time, or never, would hold its
/// connection as long as it liked. tower-http's body timeout restarts at each frame, which a
/// byte at a time defeats: the deadline here is for the whole body. Past it `request/timeout`
/// and the connection closes; over `MAX_BODY` (the limit layer's cap on the body),
/// `request/too_large`.
async fn body_in_time(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let deadline = app.lobby.options().limits.header_timeout;
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(deadline, axum::body::to_bytes(body, usize::MAX)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(e)) => {
            if over_limit(&e) {
                HttpError(too_large()).into_response()
            } else {
                HttpError(ApiError::new(
                    Code::RequestMalformed,
                    format!("the request body: {e}"),
                ))
                .into_response()
            }
        }
        Err(_) => {
            let message = format!(
                "the request body did not arrive within {} s",
                deadline.as_secs()
            );
            let mut response =
                HttpError(ApiError::new(Code::RequestTimeout, message)).into_response();
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// Whether reading a body failed at the limit layer's cap (`MAX_BODY`). The layer's
/// `LengthLimitError` comes wrapped: a chunked body, which has no `Content-Length` to refuse it
/// by, fails inside the reading as the limited body's error, itself inside the reader's.
fn over_limit(e: &(dyn std::error::Error + 'static)) -> bool {
    std::iter::successors(Some(e), |e| e.source())
        .any(|e| e.is::<http_body_util::LengthLimitError>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_lobby::lobby::Lobby;
    use std::sync::Arc;

    /// The service on a new SQLite file: its state, its store and the file.
    pub(super) async fn service(
        name: &str,
    ) -> (AppState, Arc<dyn crate::store::Store>, std::path::PathBuf) {
        let db = std::env::temp_dir().join(format!(
            "plateau-{name}-{}.sqlite",
            hex::encode(rand::random::<[u8; 8]>())
        ));
        let store = crate::open_store(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        let lobby = Lobby::start(
            store.clone(),
            crate::Catalogue::standard(),
            crate::Options::default(),
        )
        .await
        .unwrap();
        (AppState::new(lobby), store, db)
    }

    /// `/health` asks the database: `200` while it answers, `503` with `"database":
    /// "unreachable"` once it does not (here SQLite's store closed under the service, whose
    /// writer thread is gone as a lost server would be).
    #[tokio::test]
    async fn health_says_whether_the_database_answers() {
        let (state, store, db) = service("health").await;
        let answer = |state: AppState| async move {
            let response = health(axum::extract::State(state)).await;
            let status = response.status();
            let body = axum::body::to_bytes(response.into_body(), 1 << 16)
                .await
                .unwrap();
            (
                status,
                serde_json::from_slice::<serde_json::Value>(&body).unwrap(),
            )
        };
        let (status, body) = answer(state.clone()).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["database"], "ok");
        store.close().await;
        let (status, body) = answer(state).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            body,
            serde_json::json!({"status": "degraded", "database": "unreachable", "matches_in_memory": 0})
        );
        let _ = std::fs::remove_file(&db);
    }

    /// A body over `MAX_BODY` is `413 request/too_large` however it comes (docs/protocol.md
    /// section 6): with a `Content-Length` over the limit, refused before it is read, and in
    /// chunks without one, refused once they pass it (which was `400 request/malformed`, "length
    /// limit exceeded"). Nothing is made: the name asked for is no player's.
    #[tokio::test]
    async fn a_body_over_the_limit_is_too_large_however_it_is_sent() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (state, store, db) = service("body-limit").await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(axum::serve(listener, app(state.clone())).into_future());
        // Valid JSON that would make the guest Alice, but for its size.
        let body = format!(r#"{{"name": "Alice"{}}}"#, " ".repeat(MAX_BODY));
        let chunked: String = body
            .as_bytes()
            .chunks(4096)
            .map(|c| format!("{:x}\r\n{}\r\n", c.len(), String::from_utf8_lossy(c)))
            .chain(std::iter::once("0\r\n\r\n".to_owned()))
            .collect();
        let framings = [
            (format!("Content-Length: {}", body.len()), body.clone()),
            ("Transfer-Encoding: chunked".to_owned(), chunked),
        ];
        for (framing, sent) in framings {
            let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
            let request = format!(
                "POST /api/guest HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Connection: close\r\n{framing}\r\n\r\n{sent}"
            );
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await.unwrap();
            let answer = String::from_utf8_lossy(&answer);
            assert!(answer.starts_with("HTTP/1.1 413 "), "{framing}: {answer}");
            assert!(
                answer.contains(r#"{"code":"request/too_large","#),
                "{framing}: {answer}"
            );
        }
        assert!(
            store
                .player_by_name("Alice".to_owned())
                .await
                .unwrap()
                .is_none()
        );
        server.abort();
        store.close().await;
        let _ = std::fs::remove_file(&db);
    }
}
