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

use super::extract::peer;
use super::state::AppState;
use crate::assets::CSP;
use crate::store::StoreError;
use plateau_lobby::model::{ApiError, Code, HttpError};
use plateau_lobby::players::{Player, PlayerKind, SESSION_COOKIE, guest_name};
use plateau_match::tokens::{new_token, token_hash};

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
            return HttpError(ApiError::new(
                Code::RequestCrossSite,
                "requests from another site cannot change anything here",
            ))
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
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Session, HttpError> {
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
            .map_err(ApiError::store)?;
        if let Some(p) = &player
            && !open_to_the_banned(parts)
        {
            app.lobby.sanctions().check_not_banned(p.id)?;
        }
        Ok(Session {
            hash: Some(hash),
            player,
        })
    }
}

/// Whether a banned player's session may make this request (docs/protocol.md section 7.11):
/// reading (`GET`, `HEAD`) but for the WebSockets, signing in (to another account) and out.
/// Anything else (creating or joining a match, a socket, chat, a seek, a challenge, a rename, a
/// report) is refused with `player/banned`.
fn open_to_the_banned(parts: &Parts) -> bool {
    let path = parts.uri.path();
    match parts.method {
        Method::GET | Method::HEAD => !path.ends_with("/ws"),
        Method::POST => path == "/api/login" || path == "/api/logout",
        _ => false,
    }
}

/// The cookie that carries session id `id` (HttpOnly, SameSite=Lax, for the whole site), kept
/// by the browser for a year; the server forgets a session unused for 30 days
/// (`store::SESSION_IDLE_MS`). `Secure` is added where the request came over TLS
/// (`transport_security`).
fn session_cookie(id: String) -> Cookie<'static> {
    let year = 365 * 24 * 3600;
    let text = format!("{SESSION_COOKIE}={id}; HttpOnly; SameSite=Lax; Path=/; Max-Age={year}");
    Cookie::parse(text).unwrap_or_else(|_| {
        // The text above always parses (the id is hex); without it, a cookie for the browser's
        // session.
        Cookie::build((SESSION_COOKIE, id))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .build()
    })
}

/// HSTS: browsers that saw a page over TLS come back over TLS only, for a year.
const HSTS: &str = "max-age=31536000";

/// Whether a request came over TLS: always with `Options::secure_cookies` (the server is only
/// reached over TLS), else when a trusted proxy (`Limits::proxies`) says so in
/// `X-Forwarded-Proto: https`. Such a request's answer gets `Strict-Transport-Security`, and
/// its cookies `Secure`.
pub(crate) async fn transport_security(
    axum::extract::State(app): axum::extract::State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let forwarded_https = request
        .headers()
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let trusted =
        peer(request.extensions()).is_some_and(|a| app.lobby.options().limits.proxies.trusts(a));
    let secure = app.lobby.options().secure_cookies || (forwarded_https && trusted);
    let mut response = next.run(request).await;
    if secure {
        secure_answer(response.headers_mut());
    }
    response
}

/// Marks an answer sent over TLS: HSTS, and `Secure` on each cookie it sets.
fn secure_answer(headers: &mut axum::http::HeaderMap) {
    use axum::http::header::{SET_COOKIE, STRICT_TRANSPORT_SECURITY};
    headers.insert(STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    let cookies: Vec<HeaderValue> = headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| HeaderValue::from_str(&format!("{v}; Secure")).ok())
        .collect();
    if !cookies.is_empty() {
        headers.remove(SET_COOKIE);
        for c in cookies {
            headers.append(SET_COOKIE, c);
        }
    }
}

/// Starts a fresh session for `player`: a new id in the cookie (never an id the client chose, so
/// a planted cookie cannot follow anyone through a sign-in), the old session ended.
///
/// # Errors
/// `server/internal` if the store fails.
pub async fn new_session(
    app: &AppState,
    addr: Option<std::net::IpAddr>,
    old: &Session,
    player: &Player,
    jar: CookieJar,
) -> Result<CookieJar, HttpError> {
    note_whence(app, addr, old, player);
    let store = app.lobby.store();
    if let Some(hash) = &old.hash {
        store
            .delete_session(hash.clone())
            .await
            .map_err(ApiError::store)?;
    }
    let (id, hash) = new_token();
    store
        .create_session(hash, player.id)
        .await
        .map_err(ApiError::store)?;
    Ok(jar.add(session_cookie(id)))
}

/// Where `player` came from, for the rule that players of one address play no rated game
/// together (`presence::Whence`): the address of its new session, and, when the session replaces
/// another player's in the same browser, that browser, for both of them.
fn note_whence(app: &AppState, addr: Option<std::net::IpAddr>, old: &Session, player: &Player) {
    let whence = &app.lobby.presence().whence;
    let limits = &app.lobby.options().limits;
    if let Some(a) = addr.filter(|a| limits.applies_to(*a)) {
        whence.came_from(player.id, plateau_lobby::limits::address_key(a));
    }
    if let (Some(before), Some(hash)) = (&old.player, &old.hash)
        && before.id != player.id
    {
        let browser = format!("browser {hash}");
        whence.came_from(before.id, browser.clone());
        whence.came_from(player.id, browser);
    }
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
) -> Result<(Player, CookieJar), HttpError> {
    if let Some(p) = &session.player {
        return Ok((p.clone(), jar));
    }
    guest_allowed(app, addr)?;
    let guest = create_named(app, None, PlayerKind::Guest, None).await?;
    let jar = new_session(app, addr, session, &guest, jar).await?;
    Ok((guest, jar))
}

/// Counts a new guest against `Limits::guests_per_minute` for `addr`.
///
/// # Errors
/// `limit/players` past the limit.
pub fn guest_allowed(app: &AppState, addr: Option<std::net::IpAddr>) -> Result<(), HttpError> {
    let Some(addr) = addr.filter(|a| app.lobby.options().limits.applies_to(*a)) else {
        return Ok(());
    };
    app.per_minute
        .record(
            &[format!("guest {}", plateau_lobby::limits::network(addr))],
            app.lobby.options().limits.guests_per_minute,
            Code::LimitPlayers,
            "too many new players from your address: wait a minute",
        )
        .map_err(HttpError)
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
) -> Result<Player, HttpError> {
    let store = app.lobby.store();
    for _ in 0..8 {
        let candidate = name.clone().unwrap_or_else(guest_name);
        match store
            .create_player(candidate.clone(), kind, password_hash.clone())
            .await
        {
            Ok(p) => return Ok(p),
            Err(StoreError::Conflict(_)) if name.is_none() => {}
            Err(StoreError::Conflict(_)) => return Err(name_taken(&candidate).into()),
            Err(e) => return Err(ApiError::store(e).into()),
        }
    }
    Err(ApiError::internal("no free guest name after 8 tries").into())
}

/// `name/taken` for `name`: another player has it, or another person a name that looks like it
/// (`players::similar_key`).
#[must_use]
pub fn name_taken(name: &str) -> ApiError {
    ApiError::new(
        Code::NameTaken,
        format!(
            "the name {name:?} is taken, or looks like a name that is (names are unique without \
             regard to case or to letters that look alike, such as I and l)"
        ),
    )
}

/// Sign-in failures one address (network) may have for one name in `FAILURE_WINDOW`: a stranger
/// guessing locks only itself out, never the name's owner at another address.
pub const FAILURES_PER_NAME_AND_ADDRESS: usize = 10;
/// The window of the failure counts.
pub const FAILURE_WINDOW: std::time::Duration = std::time::Duration::from_secs(15 * 60);
/// Sign-in failures a minute in all past which an address that failed within `FAILURE_WINDOW`
/// may not try again until the crowd slows: a crowd of addresses guessing one name (or spraying
/// one password over many) gets a few tries each, while an address that has not failed, the
/// owner's, still signs in.
pub const FAILURES_PER_MINUTE: usize = 60;

/// A sign-in attempt let through: the keys its failure is counted under.
pub struct Attempt {
    /// `(name, network)` and the network's own failure key, when the limits apply to it.
    keys: Option<(String, String)>,
}

/// Checks a sign-in attempt for `name` from `addr` against the limits (docs/protocol.md
/// section 6): attempts per address a minute (`Limits::sign_ins_per_minute`), failures per name
/// and address (`FAILURES_PER_NAME_AND_ADDRESS` in `FAILURE_WINDOW`), and, while failures in all
/// run over `FAILURES_PER_MINUTE`, none from an address that failed lately. No limit is per name
/// alone, so nobody can lock an owner out.
///
/// # Errors
/// `auth/rate_limited`.
pub fn sign_in_allowed(
    app: &AppState,
    addr: Option<std::net::IpAddr>,
    name: &str,
) -> Result<Attempt, HttpError> {
    let limits = &app.lobby.options().limits;
    let Some(network) = addr
        .filter(|a| limits.applies_to(*a))
        .map(plateau_lobby::limits::network)
    else {
        return Ok(Attempt { keys: None });
    };
    let refused = |why: &str| ApiError::new(Code::AuthRateLimited, why);
    let pair = format!(
        "sign-in failed {} {network}",
        plateau_lobby::players::name_key(name)
    );
    let mine = format!("sign-in failed {network}");
    if app.per_minute.count(&pair, FAILURE_WINDOW) >= FAILURES_PER_NAME_AND_ADDRESS {
        return Err(refused(
            "too many wrong passwords for this name from your address: wait 15 minutes",
        )
        .into());
    }
    let crowd = app
        .per_minute
        .count(SPRAY_KEY, plateau_lobby::limits::MINUTE)
        >= FAILURES_PER_MINUTE;
    if crowd && app.per_minute.count(&mine, FAILURE_WINDOW) > 0 {
        return Err(refused("too many wrong passwords are being tried: wait a few minutes").into());
    }
    app.per_minute.record(
        &[format!("sign-in {network}")],
        limits.sign_ins_per_minute,
        Code::AuthRateLimited,
        "too many sign-in attempts: wait a minute",
    )?;
    Ok(Attempt {
        keys: Some((pair, mine)),
    })
}

/// The counter of sign-in failures in all.
const SPRAY_KEY: &str = "sign-in failed";

/// Counts the failure of `attempt` (a wrong password, an unknown name).
pub fn sign_in_failed(app: &AppState, attempt: &Attempt) {
    app.per_minute.note(SPRAY_KEY);
    if let Some((pair, mine)) = &attempt.keys {
        app.per_minute.note(pair);
        app.per_minute.note(mine);
    }
}
