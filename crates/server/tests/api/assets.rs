//! The web UI's caching and compression (docs/protocol.md section 2): pages revalidate with their
//! `ETag` (`304` when unchanged), versioned assets are cached for good, and text is compressed
//! for a client that accepts it.

use std::io::Read as _;

use crate::common::{self, spawn_app};

/// The value of header `name` (lower case) in `headers`.
fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A `GET path` with `Accept-Encoding: accept`: the status, the headers (names in lower case)
/// and the body's bytes as sent (chunks joined).
async fn get_encoded(
    addr: std::net::SocketAddr,
    path: &str,
    accept: &str,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    common::http_bytes(
        None,
        addr,
        "GET",
        path,
        &[("Accept-Encoding", accept)],
        None,
    )
    .await
}

#[tokio::test]
async fn pages_revalidate_assets_are_cached_for_good_and_text_is_compressed() {
    let Some(page) = plateau_server::assets::file("match.html") else {
        return;
    };
    let app = spawn_app().await;
    // A page: no-cache, with a weak ETag that is its version.
    let (status, headers, body) =
        common::http_with(app.addr, "GET", "/m/0123456789abcdef", &[], None).await;
    assert_eq!(status, 200);
    assert_eq!(body.as_bytes(), page);
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    let csp = header(&headers, "content-security-policy").unwrap_or_default();
    assert!(csp.contains("script-src 'self' 'sha256-"), "{csp}");
    let version = plateau_server::assets::version("match.html").unwrap();
    let etag = format!("W/\"{version}\"");
    assert_eq!(header(&headers, "etag"), Some(etag.as_str()));
    // Asked again with it: 304, no body.
    let (status, headers, body) = common::http_with(
        app.addr,
        "GET",
        "/m/0123456789abcdef",
        &[("If-None-Match", &etag)],
        None,
    )
    .await;
    assert_eq!((status, body.as_str()), (304, ""));
    assert_eq!(header(&headers, "etag"), Some(etag.as_str()));
    // With the page's policy, which lets its import map run: the browser keeps the `304`'s
    // headers for the page.
    let csp = header(&headers, "content-security-policy").unwrap_or_default();
    assert!(csp.contains("script-src 'self' 'sha256-"), "{csp}");
    // Another version is not the page: served in full.
    let (status, _, _) = common::http_with(
        app.addr,
        "GET",
        "/m/0123456789abcdef",
        &[("If-None-Match", "W/\"0000000000000000\"")],
        None,
    )
    .await;
    assert_eq!(status, 200);
    // The page names its module with the module's version; that URL is cached for a year.
    let module = plateau_server::assets::version("js/match.js").unwrap();
    let url = format!("/assets/js/match.js?v={module}");
    assert!(String::from_utf8_lossy(page).contains(&url));
    let (status, headers, _) = common::http_with(app.addr, "GET", &url, &[], None).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    // Without the version, or with an old one, it revalidates.
    for path in [
        "/assets/js/match.js",
        "/assets/js/match.js?v=0000000000000000",
    ] {
        let (_, headers, _) = common::http_with(app.addr, "GET", path, &[], None).await;
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
    }
    // Compressed for a client that accepts it, the same bytes once decoded; not for one that
    // does not.
    let served = plateau_server::assets::file("js/match.js").unwrap();
    let (status, headers, body) = get_encoded(app.addr, &url, "gzip").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert!(
        body.len() * 2 < served.len(),
        "{} of {}",
        body.len(),
        served.len()
    );
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, served);
    let (_, headers, body) = get_encoded(app.addr, &url, "br;q=1, gzip;q=0.5").await;
    assert_eq!(header(&headers, "content-encoding"), Some("br"));
    assert!(body.len() * 2 < served.len());
    let (_, headers, body) = get_encoded(app.addr, &url, "identity").await;
    assert_eq!(header(&headers, "content-encoding"), None);
    assert_eq!(body, served);
    // Every answer carries a request id.
    assert!(header(&headers, "x-request-id").is_some_and(|id| id.len() == 36));
    app.shutdown().await;
}
