//! The browser UI, embedded at build time from the workspace's `web/` directory (see `build.rs`),
//! and how it is served (docs/protocol.md section 2, docs/architecture.md section 5).
//!
//! Each file has a version, the first 16 hex digits of the SHA-256 of the bytes served. A URL
//! with the current version (`?v=<version>`) never changes meaning: it is cached for a year,
//! `immutable`. Anything asked without it (the pages, an old version) is served `no-cache` with an
//! `ETag` (the version), and asked again with `If-None-Match` it is a `304` without a body.
//!
//! The pages are embedded with their shared head and top bar included (`web/parts/`, expanded by
//! `build.rs`). They are the one place versions are written, once, at first use: their
//! `src="/assets/..."` and `href="/assets/..."` get `?v=<version>`, and an import map in their
//! head sends every module's plain URL to its versioned one. The modules themselves are served as
//! they are, importing each other by relative path: the browser maps `./api.js` to
//! `/assets/js/api.js?v=...` through the page's import map, so each module is one instance, by
//! whatever path it is imported (a page's `import('/assets/js/games.js')` included), and a
//! changed module changes every page's version, which the pages' revalidation brings in. The
//! import map is an inline script: the pages' `Content-Security-Policy` allows it by its hash.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use sha2::{Digest, Sha256};

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The Content-Security-Policy of every response: scripts, styles, images and connections from
/// this origin only (inline style attributes allowed), never framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// One embedded file as served.
struct Asset {
    /// The file, a page with its references versioned and the import map.
    bytes: Cow<'static, [u8]>,
    /// 16 hex digits (see the module's documentation).
    version: String,
    /// `W/"<version>"`: weak, since the compression layer may send other bytes of the same file.
    etag: HeaderValue,
}

/// What the pages share: their `Content-Security-Policy`, which allows their import map.
struct Pages {
    csp: HeaderValue,
}

/// Every embedded file by its path relative to `web/`, built at first use.
static ASSETS: LazyLock<HashMap<&'static str, Asset>> = LazyLock::new(build);

/// Built with `ASSETS`.
static PAGES: LazyLock<Pages> = LazyLock::new(pages);

/// The bytes of `web/<path>` as served (a page's references versioned), if embedded.
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    ASSETS.get(path).map(|a| &*a.bytes)
}

/// The version of `web/<path>` (16 hex digits), if embedded: `/assets/<path>?v=<version>` is
/// cached for good.
#[must_use]
pub fn version(path: &str) -> Option<&'static str> {
    ASSETS.get(path).map(|a| a.version.as_str())
}

/// The bytes of `web/<path>` as embedded, before they are served: a page with its parts included
/// (`build.rs`) but its references not versioned, any other file as it is in `web/`.
#[must_use]
pub fn embedded(path: &str) -> Option<&'static [u8]> {
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

/// How long a versioned URL is cached: a year, the longest HTTP caches keep anything.
const FOREVER: &str = "public, max-age=31536000, immutable";

/// `web/<path>` as a response, or `404`. `query` is the request's query string: with `v=` the
/// file's current version the answer is cached for good, otherwise it must be revalidated; an
/// `If-None-Match` naming the current version is answered `304`.
#[must_use]
pub fn serve(path: &str, query: Option<&str>, headers: &HeaderMap) -> Response {
    let Some(asset) = ASSETS.get(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let versioned = query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair.strip_prefix("v=") == Some(asset.version.as_str()))
    });
    let cache = if versioned { FOREVER } else { "no-cache" };
    let mut response = if headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .any(|v| names(v, &asset.version))
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let kind = HeaderValue::from_static(content_type(path));
        ([(header::CONTENT_TYPE, kind)], asset.bytes.clone()).into_response()
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::ETAG, asset.etag.clone());
    // On a `304` too: the browser takes the `304`'s headers for the page it keeps, and the
    // policy without the import map's hash would block it.
    if is_page(path) {
        h.insert(header::CONTENT_SECURITY_POLICY, PAGES.csp.clone());
    }
    response
}

fn is_page(path: &str) -> bool {
    path.ends_with(".html")
}

fn is_module(path: &str) -> bool {
    path.ends_with(".js") || path.ends_with(".mjs")
}

/// Whether an `If-None-Match` value names `version` (weakly, as RFC 9110 section 13.1.2 compares),
/// or is `*`.
fn names(value: &HeaderValue, version: &str) -> bool {
    let Ok(value) = value.to_str() else {
        return false;
    };
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/").trim_matches('"') == version)
}

/// The path (relative to `web/`) that `spec`, a reference found in `from` (a path relative to
/// `web/`), names: `/assets/...` is absolute, `./` and `../` are relative to `from`'s folder.
/// `None` for anything else (another site, a query already there, above `web/`).
fn resolve(from: &str, spec: &str) -> Option<String> {
    if spec.contains(['?', '#']) {
        return None;
    }
    let mut parts: Vec<&str> = if let Some(rest) = spec.strip_prefix("/assets/") {
        return Some(rest.to_owned());
    } else if spec.starts_with("./") || spec.starts_with("../") {
        from.split('/').collect()
    } else {
        return None;
    };
    parts.pop();
    for segment in spec.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The references of a page: (start, end) of each `src=` or `href=` value in quotes, and the
/// path (relative to `web/`) it names.
fn references(page: &str, text: &str) -> Vec<(usize, usize, String)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for attribute in ["src=", "href="] {
        for (at, _) in text.match_indices(attribute) {
            // A whole attribute name (`src=`, not the end of `xsrc=`).
            if at > 0 && bytes[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let start = at + attribute.len();
            let Some(quote) = bytes
                .get(start)
                .copied()
                .filter(|q| *q == b'"' || *q == b'\'')
            else {
                continue;
            };
            let Some(len) = text[start + 1..].find(char::from(quote)) else {
                continue;
            };
            let value = &text[start + 1..start + 1 + len];
            if let Some(target) = resolve(page, value) {
                found.push((start + 1, start + 1 + len, target));
            }
        }
    }
    found.sort_unstable();
    found
}

/// The version of `bytes`: the first 16 hex digits of their SHA-256.
fn version_of(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}

fn asset(bytes: Cow<'static, [u8]>) -> Asset {
    let version = version_of(&bytes);
    let etag = HeaderValue::from_str(&format!("W/\"{version}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("W/\"\""));
    Asset {
        bytes,
        version,
        etag,
    }
}

/// Every embedded file: the pages with their references versioned and the import map after
/// their character set (which must stay in a page's first 1,024 bytes), the rest as it is.
fn build() -> HashMap<&'static str, Asset> {
    let mut assets: HashMap<&'static str, Asset> = files::FILES
        .iter()
        .filter(|(path, _)| !is_page(path))
        .map(|(path, bytes)| (*path, asset(Cow::Borrowed(*bytes))))
        .collect();
    let script = format!(
        "\n<script type=\"importmap\">{}</script>",
        import_map(&assets)
    );
    for (path, bytes) in files::FILES.iter().filter(|(p, _)| is_page(p)) {
        let Ok(text) = std::str::from_utf8(bytes) else {
            assets.insert(path, asset(Cow::Borrowed(*bytes)));
            continue;
        };
        let mut out = String::with_capacity(text.len() + script.len());
        let mut from = 0;
        for (_, end, target) in references(path, text) {
            if let Some(a) = assets.get(target.as_str()) {
                out.push_str(&text[from..end]);
                out.push_str("?v=");
                out.push_str(&a.version);
                from = end;
            }
        }
        out.push_str(&text[from..]);
        let anchor = ["<meta charset=\"utf-8\">", "<head>"]
            .iter()
            .find_map(|tag| out.find(tag).map(|at| at + tag.len()));
        if let Some(at) = anchor {
            out.insert_str(at, &script);
        }
        assets.insert(path, asset(Cow::Owned(out.into_bytes())));
    }
    assets
}

/// The import map of the pages: every module's URL to its versioned URL.
fn import_map(assets: &HashMap<&'static str, Asset>) -> String {
    let imports: std::collections::BTreeMap<String, String> = assets
        .iter()
        .filter(|(path, _)| is_module(path))
        .map(|(path, a)| {
            let url = format!("/assets/{path}");
            let versioned = format!("{url}?v={}", a.version);
            (url, versioned)
        })
        .collect();
    serde_json::to_string(&ImportMap { imports }).unwrap_or_default()
}

/// An import map as the pages carry it: `{"imports": {URL: versioned URL}}`.
#[derive(serde::Serialize)]
struct ImportMap {
    imports: std::collections::BTreeMap<String, String>,
}

/// The pages' import map and the policy that lets it run (by the SHA-256 of the script's text).
fn pages() -> Pages {
    let import_map = import_map(&ASSETS);
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(&import_map));
    let csp = CSP.replacen(
        "script-src 'self'",
        &format!("script-src 'self' 'sha256-{hash}'"),
        1,
    );
    Pages {
        csp: HeaderValue::from_str(&csp).unwrap_or_else(|_| HeaderValue::from_static(CSP)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_from_their_file() {
        assert_eq!(
            resolve("js/match.js", "./api.js").as_deref(),
            Some("js/api.js")
        );
        assert_eq!(
            resolve("js/match.js", "../css/style.css").as_deref(),
            Some("css/style.css")
        );
        assert_eq!(
            resolve("match.html", "/assets/js/match.js").as_deref(),
            Some("js/match.js")
        );
        assert_eq!(resolve("js/a.js", "../../x.js"), None);
        assert_eq!(resolve("js/a.js", "./x.js?v=1"), None);
        assert_eq!(resolve("index.html", "/leaderboard"), None);
        assert_eq!(resolve("index.html", "https://example.org/x.js"), None);
    }

    #[test]
    fn page_links_are_found_and_nothing_else() {
        let html = r#"<link href="/assets/css/s.css"><script src='/assets/js/m.js'></script><a href="/verify">"#;
        let found: Vec<String> = references("p.html", html)
            .into_iter()
            .map(|(s, e, t)| {
                assert_eq!(html[s..e], format!("/assets/{t}"));
                t
            })
            .collect();
        assert_eq!(found, ["css/s.css", "js/m.js"]);
    }

    /// Every page links its files with their current version and maps every module to its
    /// versioned URL, in a script its policy allows; the other files are served as they are.
    #[test]
    fn pages_name_every_file_by_its_version() {
        let map = &import_map(&ASSETS);
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(map));
        let csp = PAGES.csp.to_str().unwrap();
        assert!(csp.contains(&format!("script-src 'self' 'sha256-{hash}'")));
        let mut links = 0;
        for (path, raw) in files::FILES {
            if !is_page(path) {
                assert_eq!(file(path), Some(*raw), "{path}");
                if is_module(path) {
                    let v = version(path).unwrap();
                    assert!(map.contains(&format!("\"/assets/{path}?v={v}\"")), "{path}");
                }
                continue;
            }
            let served = std::str::from_utf8(file(path).unwrap()).unwrap();
            let script = format!("<script type=\"importmap\">{map}</script>");
            assert!(served.contains(&script), "{path}");
            // A browser looks for the character set in a page's first 1,024 bytes only.
            let charset = served.find("<meta charset=\"utf-8\">");
            assert!(charset.is_some_and(|at| at < 1024), "{path}");
            assert!(served.find(&script) > charset, "{path}");
            let text = std::str::from_utf8(raw).unwrap();
            for (start, end, target) in references(path, text) {
                let Some(v) = version(&target) else { continue };
                let versioned = format!("{}?v={v}", &text[start..end]);
                assert!(served.contains(&versioned), "{path}: {versioned}");
                links += 1;
            }
        }
        if file("match.html").is_some() {
            assert!(links > 0);
        }
    }

    /// The pages are embedded with their shared head and top bar in place of the include
    /// markers (`build.rs`), indented as the markers were; the parts are not served.
    #[test]
    fn pages_include_their_shared_parts() {
        if file("match.html").is_none() {
            return;
        }
        let part = |name: &str| {
            std::fs::read_to_string(format!(
                "{}/../../web/parts/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        };
        let indented =
            |text: String| -> String { text.lines().map(|l| format!("  {l}\n")).collect() };
        let (head, topbar) = (indented(part("head.html")), indented(part("topbar.html")));
        let mut pages = 0;
        for path in paths().filter(|p| is_page(p)) {
            let text = std::str::from_utf8(embedded(path).unwrap()).unwrap();
            assert!(!text.contains("<!-- include:"), "{path}");
            assert_eq!(text.matches(&head).count(), 1, "{path}");
            assert_eq!(text.matches(&topbar).count(), 1, "{path}");
            let head_at = text.find(&head).unwrap();
            assert!(text[..head_at].ends_with("<head>\n"), "{path}");
            pages += 1;
        }
        assert!(paths().all(|p| !p.starts_with("parts/")));
        assert!(pages > 1);
    }

    #[test]
    fn if_none_match_compares_weakly() {
        let v = |s: &'static str| HeaderValue::from_static(s);
        assert!(names(&v("W/\"0123\""), "0123"));
        assert!(names(&v("\"x\", W/\"0123\""), "0123"));
        assert!(names(&v("*"), "0123"));
        assert!(!names(&v("W/\"0124\""), "0123"));
    }
}
