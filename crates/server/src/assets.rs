//! The browser UI, embedded at build time from the workspace's `web/` directory (see `build.rs`),
//! and the routes that serve it (docs/protocol.md section 2).

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The bytes of `web/<path>`, if embedded.
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    files::FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| *bytes)
}

/// Every embedded path, relative to `web/`.
pub fn paths() -> impl Iterator<Item = &'static str> {
    files::FILES.iter().map(|(p, _)| *p)
}

fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `web/<path>` as a response, or `404`.
#[must_use]
pub fn serve(path: &str) -> Response {
    match file(path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
