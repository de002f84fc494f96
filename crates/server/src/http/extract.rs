//! What the routes read from a request: the client's address, a match id, a JSON body, a seat
//! token, each refused with the service's own coded errors (docs/protocol.md section 5).

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::state::AppState;
use plateau_lobby::model::{ApiError, Code, HttpError};

/// Largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The client's address: for a request another node of the database forwarded, the client's it
/// names (`cluster`); else the request's client (`net::Client`: the connection's other end, or
/// the client a trusted proxy names, `proxy`). `None` outside `net::serve`.
pub(crate) struct ClientAddr(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let secret = app.lobby.store().node_secret();
        if let Some(client) = plateau_lobby::cluster::forwarded_client(&parts.headers, secret) {
            return Ok(ClientAddr(Some(client)));
        }
        Ok(ClientAddr(
            parts
                .extensions
                .get::<plateau_lobby::net::Client>()
                .map(|c| c.0),
        ))
    }
}

/// The address of the connection's other end (a client, a proxy, another node).
pub(crate) fn peer(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// A query string that does not fit the route: `request/malformed` with the parser's reason.
pub(crate) fn bad_query(rejection: &QueryRejection) -> ApiError {
    ApiError::new(Code::RequestMalformed, rejection.body_text())
}

/// The `{id}` of a match route. A path segment that is not text (bad percent-encoding, `%FF`)
/// names no match: `match/not_found`, as for any other string that is not a match id.
pub(crate) struct MatchId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for MatchId {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(MatchId(id)),
            Err(e) => Err(ApiError::new(
                Code::MatchNotFound,
                format!("no match with that id ({})", e.body_text()),
            )
            .into()),
        }
    }
}

/// `request/too_large`.
pub(crate) fn too_large() -> ApiError {
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
    type Rejection = HttpError;

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
            return Err(too_large().into());
        }
        if !json && !bytes.is_empty() {
            return Err(ApiError::new(
                Code::RequestMediaType,
                "send the body as JSON with `Content-Type: application/json`",
            )
            .into());
        }
        let body = if bytes.is_empty() {
            &b"{}"[..]
        } else {
            &bytes[..]
        };
        serde_json::from_slice(body)
            .map(JsonBody)
            .map_err(|e| ApiError::new(Code::RequestMalformed, e.to_string()))
            .map_err(HttpError)
    }
}

/// The seat token a program sends in `Authorization: Bearer …` (a page sends it in an `auth`
/// message once connected to the WebSocket, and in the header for `history`). A token in the URL
/// is refused, as is any other query.
pub(crate) struct SeatToken(pub Option<String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for SeatToken {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<SeatToken, HttpError> {
        if let Some(query) = parts.uri.query() {
            let message = if query.split('&').any(|kv| kv.starts_with("token=")) {
                "a seat token never goes in the URL: send it in an `auth` message once \
                 connected, or in the `Authorization: Bearer` header"
                    .to_owned()
            } else {
                format!("this route takes no query (`{query}`)")
            };
            return Err(ApiError::new(Code::RequestMalformed, message).into());
        }
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(SeatToken(None));
        };
        // `Bearer TOKEN`, the scheme in any case (RFC 9110 section 11.1). Anything else is
        // refused rather than read as no token: a client that meant a seat must not be served
        // quietly as a spectator.
        let token = header
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && !token.is_empty())
            .map(|(_, token)| token.trim().to_owned());
        match token {
            Some(token) => Ok(SeatToken(Some(token))),
            None => Err(ApiError::new(
                Code::AuthSeat,
                "the Authorization header must be `Bearer` and a seat token",
            )
            .into()),
        }
    }
}
