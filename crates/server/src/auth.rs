//! The HTTP side of who is asking: the session cookie and its player, guests made on demand, the
//! refusal of cross-site requests, the sign-in rate limit and the security headers of every
//! response (docs/protocol.md section 7).

use axum::extract::{FromRequestParts, Request};
use axum::http::header::{CONTENT_SECURITY_POLICY, HOST, ORIGIN, REFERRER_POLICY};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::actor::{new_token, token_hash};
use crate::http::AppState;
use crate::model::{ApiError, Code};
use crate::players::{Player, PlayerKind, SESSION_COOKIE, guest_name};
use crate::store::StoreError;

/// The Content-Security-Policy of every response: scripts, styles, images and connections from
/// this origin only (inline style attributes allowed), never framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The layers that put the security headers on every response.
pub fn security_headers<S: Clone + Send + Sync + 'static>(
    router: axum::Router<S>,
) -> axum::Router<S> {
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    router
        .layer(set(CONTENT_SECURITY_POLICY, CSP))
        .layer(set(
            HeaderName::from_static("x-content-type-options"),
            "nosniff",
        ))
        .layer(set(HeaderName::from_static("x-frame-options"), "DENY"))
        .layer(set(REFERRER_POLICY, "same-origin"))
}

/// Refuses a state-changing request (any method but GET and HEAD, and every WebSocket upgrade)
/// whose `Origin` names another host than its `Host`: `request/cross_site`. A request without
/// `Origin` (not from a browser) passes; the session cookie is `SameSite=Lax` as a second wall.
pub async fn same_origin(request: Request, next: Next) -> Response {
    let headers = request.headers();
    let upgrade = headers.contains_key(axum::http::header::UPGRADE);
    let changes = !matches!(*request.method(), Method::GET | Method::HEAD) || upgrade;
    if changes && let Some(origin) = headers.get(ORIGIN) {
        let origin_host = origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://"))
            .map(|(_, rest)| rest.trim_end_matches('/'));
        let host = headers.get(HOST).and_then(|h| h.to_str().ok());
        if origin_host.is_none() || origin_host != host {
            return ApiError::new(
                Code::RequestCrossSite,
                "requests from another site cannot change anything here",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// The session of a request: the cookie's id hashed, and its player if the session exists.
pub struct Session {
    /// SHA-256 of the cookie's session id, if the request carries one.
    pub hash: Option<String>,
    /// The session's player.
    pub player: Option<Player>,
}

impl FromRequestParts<AppState> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Session, ApiError> {
        let jar = CookieJar::from_headers(&parts.headers);
        let Some(id) = jar.get(SESSION_COOKIE).map(|c| c.value().to_owned()) else {
            return Ok(Session {
                hash: None,
                player: None,
            });
        };
        let hash = token_hash(&id);
        let player = app
            .lobby
            .store()
            .session(hash.clone())
            .await
            .map_err(ApiError::internal)?;
        Ok(Session {
            hash: Some(hash),
            player,
        })
    }
}

/// The cookie that carries session id `id` (HttpOnly, SameSite=Lax, for the whole site).
fn session_cookie(id: String) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, id))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .permanent()
        .build()
}

/// Starts a fresh session for `player`: a new id in the cookie (never an id the client chose, so
/// a planted cookie cannot follow anyone through a sign-in), the old session ended.
///
/// # Errors
/// `server/internal` if the store fails.
pub async fn new_session(
    app: &AppState,
    old: &Session,
    player: &Player,
    jar: CookieJar,
) -> Result<CookieJar, ApiError> {
    let store = app.lobby.store();
    if let Some(hash) = &old.hash {
        store
            .delete_session(hash.clone())
            .await
            .map_err(ApiError::internal)?;
    }
    let (id, hash) = new_token();
    store
        .create_session(hash, player.id)
        .await
        .map_err(ApiError::internal)?;
    Ok(jar.add(session_cookie(id)))
}

/// The session's player, or a new guest named `guest-xxxxxx` with a new session (the cookie is
/// in the returned jar): a client plays at once, and picks a name later.
///
/// # Errors
/// `server/internal` if the store fails.
pub async fn player_or_guest(
    app: &AppState,
    addr: Option<std::net::IpAddr>,
    session: &Session,
    jar: CookieJar,
) -> Result<(Player, CookieJar), ApiError> {
    if let Some(p) = &session.player {
        return Ok((p.clone(), jar));
    }
    guest_allowed(app, addr)?;
    let guest = create_named(app, None, PlayerKind::Guest, None).await?;
    let jar = new_session(app, session, &guest, jar).await?;
    Ok((guest, jar))
}

/// Counts a new guest against `Limits::guests_per_minute` for `addr`.
///
/// # Errors
/// `limit/players` past the limit.
pub fn guest_allowed(app: &AppState, addr: Option<std::net::IpAddr>) -> Result<(), ApiError> {
    let Some(addr) = addr.filter(|a| app.lobby.options().limits.applies_to(*a)) else {
        return Ok(());
    };
    app.per_minute.record(
        &[format!("guest {addr}")],
        app.lobby.options().limits.guests_per_minute,
        Code::LimitPlayers,
        "too many new players from your address: wait a minute",
    )
}

/// Creates a player named `name` (or a generated guest name, retried if taken).
///
/// # Errors
/// `name/taken` for a chosen name another player has; `server/internal`.
pub async fn create_named(
    app: &AppState,
    name: Option<String>,
    kind: PlayerKind,
    password_hash: Option<String>,
) -> Result<Player, ApiError> {
    let store = app.lobby.store();
    for _ in 0..8 {
        let candidate = name.clone().unwrap_or_else(guest_name);
        match store
            .create_player(candidate.clone(), kind, password_hash.clone())
            .await
        {
            Ok(p) => return Ok(p),
            Err(StoreError::Conflict(_)) if name.is_none() => {}
            Err(StoreError::Conflict(_)) => return Err(name_taken(&candidate)),
            Err(e) => return Err(ApiError::internal(e)),
        }
    }
    Err(ApiError::internal("no free guest name after 8 tries"))
}

/// `name/taken` for `name`.
#[must_use]
pub fn name_taken(name: &str) -> ApiError {
    ApiError::new(
        Code::NameTaken,
        format!("the name {name:?} is taken (names are unique without regard to case)"),
    )
}
