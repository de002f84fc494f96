//! The HTTP routes (docs/protocol.md sections 2, 3 and 7) and the router: `matches` (games,
//! matches, their records and WebSocket), `players` (sessions, accounts, profiles, leaderboards)
//! and `lobby_ws` (the lobby's live counts and quick pairing).

mod lobby_ws;
mod matches;
mod players;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::header::{CONNECTION, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router, middleware};
use serde::de::DeserializeOwned;
use serde_json::json;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::analysis::Analyses;
use crate::assets;
use crate::auth;
use crate::limits::PerMinute;
use crate::lobby::Lobby;
use crate::model::{ApiError, Code};
use crate::pairing::Pairing;

pub use matches::to_record;

/// Largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// Most requests waiting for the replay lane (`Replays`); past it `limit/replays`.
pub const MAX_REPLAYS_WAITING: usize = 16;

/// The lane where whole games are replayed for the replay and history routes: one at a time, so
/// a burst of them never takes more than a core, and a bounded line, so it never grows without end.
#[derive(Default)]
pub struct Replays {
    turn: tokio::sync::Mutex<()>,
    waiting: std::sync::atomic::AtomicUsize,
}

impl Replays {
    /// Waits for the lane.
    ///
    /// # Errors
    /// `limit/replays` when `MAX_REPLAYS_WAITING` requests already wait or replay.
    pub async fn turn(&self) -> Result<ReplayTurn<'_>, ApiError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_REPLAYS_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                Code::LimitReplays,
                "too many replays are being computed; ask again in a moment",
            ));
        }
        let guard = self.turn.lock().await;
        Ok(ReplayTurn {
            _guard: guard,
            waiting: &self.waiting,
        })
    }
}

/// A turn in the replay lane; the next request goes when it is dropped.
pub struct ReplayTurn<'a> {
    _guard: tokio::sync::MutexGuard<'a, ()>,
    waiting: &'a std::sync::atomic::AtomicUsize,
}

impl Drop for ReplayTurn<'_> {
    fn drop(&mut self) {
        self.waiting
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Bytes of history bodies kept for the next asker (`Histories`).
pub const HISTORY_CACHE: usize = 16 * 1024 * 1024;

/// The histories computed lately (docs/protocol.md section 3.9), by match, viewer and version,
/// so that asking again is free; and who is computing one now, so that one address has at most
/// one in the replay lane and cannot fill it for everyone.
#[derive(Default)]
pub struct Histories {
    inner: std::sync::Mutex<HistoriesInner>,
}

/// A history's key: the match, the viewer's column (a seat, or the seat count for spectators)
/// and the match's version (its log length).
type HistoryKey = (String, usize, u64);

#[derive(Default)]
struct HistoriesInner {
    bodies: std::collections::HashMap<HistoryKey, Bytes>,
    /// The keys in the order they came, the oldest first out.
    order: std::collections::VecDeque<HistoryKey>,
    bytes: usize,
    /// Networks (`limits::network`) with a history in the lane.
    computing: std::collections::HashSet<IpAddr>,
}

impl Histories {
    /// The body kept for `key`, if any.
    pub fn get(&self, key: &HistoryKey) -> Option<Bytes> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.bodies.get(key).cloned()
    }

    /// Keeps `body` for `key`, dropping the oldest past `HISTORY_CACHE` bytes.
    pub fn put(&self, key: HistoryKey, body: Bytes) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if body.len() > HISTORY_CACHE || inner.bodies.contains_key(&key) {
            return;
        }
        inner.bytes += body.len();
        inner.bodies.insert(key.clone(), body);
        inner.order.push_back(key);
        while inner.bytes > HISTORY_CACHE {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(b) = inner.bodies.remove(&old) {
                inner.bytes -= b.len();
            }
        }
    }

    /// A place in the lane for `addr`'s network, none for an address the limits do not apply
    /// to (`None`).
    ///
    /// # Errors
    /// `limit/replays` when that network already has a history computing or waiting.
    pub fn one_at_a_time(&self, addr: Option<IpAddr>) -> Result<HistoryTurn<'_>, ApiError> {
        let network = addr.map(crate::limits::network);
        if let Some(n) = network {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if !inner.computing.insert(n) {
                return Err(ApiError::new(
                    Code::LimitReplays,
                    "a history asked from your address is being computed: ask again once it is there",
                ));
            }
        }
        Ok(HistoryTurn {
            histories: self,
            network,
        })
    }
}

/// One address's history in the lane; the address may ask another once it is dropped.
pub struct HistoryTurn<'a> {
    histories: &'a Histories,
    network: Option<IpAddr>,
}

impl Drop for HistoryTurn<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.network {
            let mut inner = self
                .histories
                .inner
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            inner.computing.remove(&n);
        }
    }
}

/// The service's shared state: the lobby (and through it the store and the actors), the pairing
/// pools and the sign-in rate limit.
#[derive(Clone)]
pub struct AppState {
    /// The lobby.
    pub lobby: Arc<Lobby>,
    /// The quick-pairing pools.
    pub pairing: Arc<Pairing>,
    /// Per-minute counts per address (and name): sign-ins, guests, matches.
    pub per_minute: Arc<PerMinute>,
    /// One replay (or history) computed at a time; at most `MAX_REPLAYS_WAITING` wait.
    pub replays: Arc<Replays>,
    /// Histories computed lately, and the addresses computing one.
    pub histories: Arc<Histories>,
    /// Post-game analyses waiting or being computed.
    pub analyses: Arc<Analyses>,
    /// The password hashing threads and their line.
    pub hasher: Arc<crate::passwords::Hasher>,
}

impl AppState {
    /// The state of a service over `lobby`, with empty pools and counters.
    ///
    /// # Panics
    /// Outside a tokio runtime, or if the analysis thread cannot start.
    #[must_use]
    pub fn new(lobby: Arc<Lobby>) -> AppState {
        let analyses = Analyses::start(
            lobby.store().clone(),
            tokio::runtime::Handle::current(),
            lobby.options().analysis_iterations,
        );
        let limits = &lobby.options().limits;
        let hasher = crate::passwords::Hasher::start(limits.password_hashes, limits.hashes_waiting);
        AppState {
            analyses: Arc::new(analyses),
            hasher: Arc::new(hasher),
            pairing: Pairing::start(lobby.clone()),
            per_minute: lobby.recent().clone(),
            lobby,
            replays: Arc::new(Replays::default()),
            histories: Arc::new(Histories::default()),
        }
    }
}

/// The whole service as a router: API, WebSockets, static pages, with the cross-site check and
/// the security headers on every route. Bind it to any listener (with
/// `into_make_service_with_connect_info::<SocketAddr>` so the sign-in limit sees addresses).
pub fn app(state: AppState) -> Router {
    let router = Router::new()
        .route("/health", get(health))
        .route("/api/games", get(matches::games))
        .route("/api/matches", get(matches::list).post(matches::create))
        .route("/api/matches/{id}", get(matches::one))
        .route(
            "/api/matches/{id}/join",
            post(matches::join).route_layer(middleware::from_fn_with_state(
                state.clone(),
                forward_elsewhere,
            )),
        )
        .route("/api/matches/{id}/record", get(matches::record))
        .route("/api/matches/{id}/export", get(matches::export))
        .route("/api/matches/{id}/replay", get(matches::replay))
        .route(
            "/api/matches/{id}/analysis",
            get(matches::analysis).post(matches::ask_analysis),
        )
        .route("/api/matches/{id}/history", get(matches::history))
        .route("/api/matches/{id}/chat", get(matches::chat))
        .route("/api/matches/{id}/ws", get(matches::websocket))
        .route("/api/me", get(players::me))
        .route("/api/me/games", get(players::my_games))
        .route("/api/guest", post(players::guest))
        .route("/api/account", post(players::account))
        .route("/api/login", post(players::login))
        .route("/api/logout", post(players::logout))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/leaderboard/{game}", get(players::leaderboard))
        .route("/api/lobby/ws", get(lobby_ws::websocket))
        .route("/", page("index.html"))
        .route("/m/{id}", page("match.html"))
        .route("/replay/{id}", page("replay.html"))
        .route("/@/{name}", page("player.html"))
        .route("/leaderboard", page("leaderboard.html"))
        .route("/howto/{game}", page("howto.html"))
        .route("/verify", page("verify.html"))
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
/// back in the answer; a span `request` with that id, the method and the path, so that every
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
    tracing::info_span!(
        "request",
        id,
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
        too_large().into_response()
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
    let body = json!({
        "status": if reachable { "ok" } else { "degraded" },
        "database": if reachable { "ok" } else { "unreachable" },
        "matches_in_memory": app.lobby.in_memory(),
    });
    let status = if reachable {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

/// Longest wait for the database's answer in `GET /health`.
const HEALTH_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The client's address, when the server was started with connect info (docs/deploy.md): for a
/// request another node of the database forwarded, the client's it names (`cluster`); for a
/// request from a proxy the limits exempt (`Limits::exempt`: a reverse proxy or load balancer,
/// trusted) that carries `X-Forwarded-For`, the last address there, the one that proxy added;
/// else the peer's.
pub(crate) struct ClientAddr(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let secret = app.lobby.store().node_secret();
        if let Some(client) = crate::cluster::forwarded_client(&parts.headers, secret) {
            return Ok(ClientAddr(Some(client)));
        }
        let peer = peer(&parts.extensions);
        let proxied = peer
            .filter(|p| !app.lobby.options().limits.applies_to(*p))
            .and_then(|_| forwarded_for(&parts.headers));
        Ok(ClientAddr(proxied.or(peer)))
    }
}

/// The address of the connection's other end (a client, a proxy, another node).
pub(crate) fn peer(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// The last address of the last `X-Forwarded-For` header: the client as the proxy that sent the
/// request saw it (the ones before it are the client's own word). `None` if absent or not an
/// address.
fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let last = headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()?
        .to_str()
        .ok()?
        .rsplit(',')
        .next()?
        .trim();
    last.parse::<IpAddr>()
        .ok()
        .or_else(|| last.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

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
        Ok(crate::cluster::Place::There(holder)) => {
            match crate::cluster::request_to(&app.lobby, &id, holder, request, client).await {
                Ok(response) => response,
                Err(request) => next.run(request).await,
            }
        }
        _ => next.run(request).await,
    }
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
pub(crate) fn bad_query(rejection: &QueryRejection) -> ApiError {
    ApiError::new(Code::RequestMalformed, rejection.body_text())
}

/// The `{id}` of a match route. A path segment that is not text (bad percent-encoding, `%FF`)
/// names no match: `match/not_found`, as for any other string that is not a match id.
pub(crate) struct MatchId(pub String);

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
            let over = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            if over {
                too_large().into_response()
            } else {
                ApiError::new(Code::RequestMalformed, format!("the request body: {e}"))
                    .into_response()
            }
        }
        Err(_) => {
            let message = format!(
                "the request body did not arrive within {} s",
                deadline.as_secs()
            );
            let mut response = ApiError::new(Code::RequestTimeout, message).into_response();
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// `request/too_large`.
fn too_large() -> ApiError {
    ApiError::new(
        Code::RequestTooLarge,
        format!("the request body is over {MAX_BODY} bytes"),
    )
}

/// A JSON body read with the service's own errors: `request/media_type` unless it is sent as
/// `application/json`, `request/too_large` over `MAX_BODY`,
/// `request/malformed` naming the field otherwise.
pub(crate) struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::new(Code::RequestMalformed, e.body_text())
            }
        })?;
        if bytes.len() > MAX_BODY {
            return Err(too_large());
        }
        if !json && !bytes.is_empty() {
            return Err(ApiError::new(
                Code::RequestMediaType,
                "send the body as JSON with `Content-Type: application/json`",
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;

    /// The replay lane serves one request at a time, lets `MAX_REPLAYS_WAITING` wait in all, refuses
    /// the next with `limit/replays`, and serves every one that waited once the first is done.
    #[tokio::test]
    async fn the_replay_lane_refuses_past_its_line_and_serves_the_rest() {
        let lane = Arc::new(Replays::default());
        let first = lane.turn().await.unwrap();
        let waiters: Vec<_> = (1..MAX_REPLAYS_WAITING)
            .map(|_| {
                let lane = lane.clone();
                tokio::spawn(async move { lane.turn().await.map(|_| ()) })
            })
            .collect();
        while lane.waiting.load(Ordering::SeqCst) < MAX_REPLAYS_WAITING {
            tokio::task::yield_now().await;
        }
        let refused = lane.turn().await.err().map(|e| e.code);
        assert_eq!(refused, Some(Code::LimitReplays));
        drop(first);
        for waiter in waiters {
            assert!(waiter.await.unwrap().is_ok());
        }
        assert_eq!(lane.waiting.load(Ordering::SeqCst), 0);
        assert!(lane.turn().await.is_ok());
    }
    /// One history at a time per network (an IPv6 /64 is one), none for an exempt client; what
    /// is kept comes back, the oldest leaving past `HISTORY_CACHE`.
    #[test]
    fn histories_are_one_at_a_time_per_address_and_kept() {
        let histories = Histories::default();
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let first = histories.one_at_a_time(ip("2001:db8::1")).unwrap();
        let again = histories.one_at_a_time(ip("2001:db8::2"));
        assert_eq!(again.err().map(|e| e.code), Some(Code::LimitReplays));
        assert!(histories.one_at_a_time(ip("2001:db8:0:1::1")).is_ok());
        assert!(histories.one_at_a_time(None).is_ok());
        drop(first);
        assert!(histories.one_at_a_time(ip("2001:db8::2")).is_ok());
        let key = |n: u64| ("0123456789abcdef".to_owned(), 0, n);
        histories.put(key(1), Bytes::from(vec![b'x'; HISTORY_CACHE / 2]));
        histories.put(key(2), Bytes::from(vec![b'y'; HISTORY_CACHE / 2]));
        assert_eq!(
            histories.get(&key(1)).map(|b| b.len()),
            Some(HISTORY_CACHE / 2)
        );
        histories.put(key(3), Bytes::from_static(b"{}"));
        assert!(histories.get(&key(1)).is_none(), "the oldest left");
        assert!(histories.get(&key(2)).is_some() && histories.get(&key(3)).is_some());
    }

    /// `/health` asks the database: `200` while it answers, `503` with `"database":
    /// "unreachable"` once it does not (here SQLite's store closed under the service, whose
    /// writer thread is gone as a lost server would be).
    #[tokio::test]
    async fn health_says_whether_the_database_answers() {
        let db = std::env::temp_dir().join(format!(
            "plateau-health-{}.sqlite",
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
        let state = AppState::new(lobby);
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
            json!({"status": "degraded", "database": "unreachable", "matches_in_memory": 0})
        );
        let _ = std::fs::remove_file(&db);
    }
}
