//! The browser UI, embedded at build time from the workspace's `web/` directory (see `build.rs`),
//! and how it is served (docs/protocol.md section 2, docs/architecture.md section 5).
//!
//! Each file has a version: the first 16 hex digits of a SHA-256 over its own bytes and those of
//! every file it names, directly or through others (an import circle included). The references
//! are rewritten once, at first use, to carry their target's version: the pages' `src="/assets/..."`
//! and `href="/assets/..."`, and the modules' import specifiers (`from './x.js'`, `import('./x.js')`)
//! become `...?v=<version>`. A change to any module thus changes the URL of every page and module
//! that leads to it, and a URL with the current version never changes: it is cached for a year,
//! `immutable`. Anything asked without it (the pages, an old version) is served `no-cache` with an
//! `ETag` (the version), and asked again with `If-None-Match` it is a `304` without a body.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// One embedded file as served.
struct Asset {
    /// The file with its references versioned (the file itself when it names none).
    bytes: Vec<u8>,
    /// 16 hex digits (see the module's documentation).
    version: String,
    /// `W/"<version>"`: weak, since the compression layer may send other bytes of the same file.
    etag: HeaderValue,
}

/// Every embedded file by its path relative to `web/`, built at first use.
static ASSETS: LazyLock<HashMap<&'static str, Asset>> = LazyLock::new(build);

/// The bytes of `web/<path>` as served (its references versioned), if embedded.
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    ASSETS.get(path).map(|a| a.bytes.as_slice())
}

/// The version of `web/<path>` (16 hex digits), if embedded: `/assets/<path>?v=<version>` is
/// cached for good.
#[must_use]
pub fn version(path: &str) -> Option<&'static str> {
    ASSETS.get(path).map(|a| a.version.as_str())
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
    let cache = (header::CACHE_CONTROL, HeaderValue::from_static(cache));
    let etag = (header::ETAG, asset.etag.clone());
    if headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .any(|v| names(v, &asset.version))
    {
        return (StatusCode::NOT_MODIFIED, [cache, etag]).into_response();
    }
    let kind = (
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    ([kind, cache, etag], asset.bytes.as_slice()).into_response()
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

/// The references in a file of kind `ext` (`html` or `js`): (start, end) of each quoted
/// specifier's text, and the path it names. A page's are the values of `src=` and `href=`; a
/// module's follow `from`, `import` or `import(`.
fn references(from: &str, ext: &str, text: &str) -> Vec<(usize, usize, String)> {
    let keywords: &[&str] = match ext {
        "html" => &["src=", "href="],
        "js" | "mjs" => &["from", "import"],
        _ => return Vec::new(),
    };
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut found = Vec::new();
    for keyword in keywords {
        for (at, _) in text.match_indices(keyword) {
            let end = at + keyword.len();
            // A whole word, not the end of `transform` or the start of `fromage`.
            if (at > 0 && word(bytes[at - 1]))
                || (!keyword.ends_with('=') && bytes.get(end).copied().is_some_and(word))
            {
                continue;
            }
            let rest = &text[end..];
            let mut skipped = rest.len() - rest.trim_start().len();
            if keyword == &"import" && rest[skipped..].starts_with('(') {
                skipped += 1;
                skipped += rest[skipped..].len() - rest[skipped..].trim_start().len();
            }
            let start = end + skipped;
            let Some(quote) = bytes
                .get(start)
                .copied()
                .filter(|q| *q == b'"' || *q == b'\'')
            else {
                continue;
            };
            let Some(len) = text[start + 1..].find(|c: char| c == char::from(quote) || c == '\n')
            else {
                continue;
            };
            let spec = &text[start + 1..start + 1 + len];
            if let Some(target) = resolve(from, spec) {
                found.push((start + 1, start + 1 + len, target));
            }
        }
    }
    found.sort_unstable();
    found
}

/// Every embedded file with its references versioned.
fn build() -> HashMap<&'static str, Asset> {
    let raw: HashMap<&str, &[u8]> = files::FILES.iter().copied().collect();
    let refs: HashMap<&str, Vec<(usize, usize, String)>> = files::FILES
        .iter()
        .map(|(path, bytes)| {
            let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
            let found = std::str::from_utf8(bytes)
                .map(|text| references(path, ext, text))
                .unwrap_or_default();
            let found = found
                .into_iter()
                .filter(|(_, _, target)| raw.contains_key(target.as_str()))
                .collect();
            (*path, found)
        })
        .collect();
    let own: HashMap<&str, [u8; 32]> = raw
        .iter()
        .map(|(p, b)| (*p, Sha256::digest(b).into()))
        .collect();
    // A version covers the file and everything it leads to: its closure, in path order.
    let versions: HashMap<&str, String> = raw
        .keys()
        .map(|path| {
            let mut seen = std::collections::BTreeSet::from([*path]);
            let mut todo = vec![*path];
            while let Some(p) = todo.pop() {
                for (_, _, target) in &refs[p] {
                    if let Some((t, _)) = raw.get_key_value(target.as_str())
                        && seen.insert(*t)
                    {
                        todo.push(t);
                    }
                }
            }
            let mut hash = Sha256::new();
            for p in seen {
                hash.update(p.as_bytes());
                hash.update([0]);
                hash.update(own[p]);
            }
            (*path, hex::encode(&hash.finalize()[..8]))
        })
        .collect();
    files::FILES
        .iter()
        .map(|(path, bytes)| {
            let mut out = Vec::with_capacity(bytes.len());
            let mut from = 0;
            for (_, end, target) in &refs[path] {
                out.extend_from_slice(&bytes[from..*end]);
                out.extend_from_slice(format!("?v={}", versions[target.as_str()]).as_bytes());
                from = *end;
            }
            out.extend_from_slice(&bytes[from..]);
            let version = versions[path].clone();
            let etag = HeaderValue::from_str(&format!("W/\"{version}\""))
                .unwrap_or_else(|_| HeaderValue::from_static("W/\"\""));
            (
                *path,
                Asset {
                    bytes: out,
                    version,
                    etag,
                },
            )
        })
        .collect()
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
    fn imports_and_page_links_are_found_and_nothing_else() {
        let js = "import { a } from './a.js';\nimport './b.js';\nimport {\n  c,\n} from \"./c.js\";\n\
                  const d = await import( './d.js');\n// the game's module, from its file\n\
                  const transform = 'x'; const s = './e.js';\nimportant('./f.js');";
        let found: Vec<String> = references("js/m.js", "js", js)
            .into_iter()
            .map(|(s, e, t)| {
                assert_eq!(js[s..e].rsplit('/').next(), t.rsplit('/').next());
                t
            })
            .collect();
        assert_eq!(found, ["js/a.js", "js/b.js", "js/c.js", "js/d.js"]);
        let html = r#"<link href="/assets/css/s.css"><script src='/assets/js/m.js'></script><a href="/verify">"#;
        let found: Vec<String> = references("p.html", "html", html)
            .into_iter()
            .map(|(_, _, t)| t)
            .collect();
        assert_eq!(found, ["css/s.css", "js/m.js"]);
    }

    /// Every reference of every embedded page and module is served with its target's current
    /// version, and a page's version covers its modules'.
    #[test]
    fn every_embedded_reference_is_versioned() {
        let mut count = 0;
        for (path, raw) in files::FILES {
            let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
            let Ok(text) = std::str::from_utf8(raw) else {
                continue;
            };
            let served = String::from_utf8_lossy(file(path).unwrap());
            for (start, end, target) in references(path, ext, text) {
                let Some(v) = version(&target) else { continue };
                let spec = &text[start..end];
                assert!(served.contains(&format!("{spec}?v={v}")), "{path}: {spec}");
                count += 1;
            }
        }
        if let Some(page) = file("match.html") {
            assert!(count > 0);
            let page = String::from_utf8_lossy(page);
            let module = version("js/match.js").unwrap();
            assert!(page.contains(&format!("/assets/js/match.js?v={module}")));
        }
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
