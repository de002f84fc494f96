//! The shapes the service shares between its HTTP routes, its WebSocket and its storage (the
//! match crate's `model`), and how a refused request is answered over HTTP.

use axum::Json;
use axum::response::{IntoResponse, Response};

pub use plateau_match::model::*;

/// An `ApiError` as an HTTP answer: its code's status (docs/protocol.md section 5) and the body
/// `{"code", "message"}`. The routes return it; `?` turns an `ApiError` into one.
#[derive(Debug)]
pub struct HttpError(pub ApiError);

impl From<ApiError> for HttpError {
    fn from(e: ApiError) -> HttpError {
        HttpError(e)
    }
}

impl From<plateau_protocol::WireError> for HttpError {
    fn from(e: plateau_protocol::WireError) -> HttpError {
        HttpError(e.into())
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        plateau_match::metrics::error_sent(self.0.code);
        (self.0.code.status(), Json(self.0.body())).into_response()
    }
}
