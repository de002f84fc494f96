//! Embeds every file of the workspace's `web/` directory: writes `$OUT_DIR/web_files.rs`, a table
//! of `(path relative to web/, include_bytes!(...))`, read by `src/assets.rs`.
//!
//! The pages (`*.html`) share their head and top bar: a line `<!-- include: NAME -->` in a page
//! stands for `web/parts/NAME`, each of its lines indented as the marker is. The pages are
//! embedded with their includes expanded (written to `$OUT_DIR/pages/`); `web/parts/` itself is
//! not served. A missing part, or a part holding a marker, fails the build.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder of `web/` holding the pages' shared parts.
const PARTS: &str = "parts";

fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Hidden files and the browser tests' packages are not part of the site, nor are the
        // parts the pages include.
        if name.starts_with('.') || name == "node_modules" || (dir == root && name == PARTS) {
            continue;
        }
        if path.is_dir() {
            walk(&path, root, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push((rel.join("/"), path.clone()));
        }
    }
}

/// The name in `line` if it is an include marker (`<!-- include: NAME -->`, blanks around).
fn marker(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("<!-- include:")?
        .strip_suffix("-->")
        .map(str::trim)
}

/// `page` (named `rel`, for the messages) with each include marker replaced by its part from
/// `parts`, indented as the marker.
fn expand(rel: &str, page: &str, parts: &Path) -> String {
    let mut out = String::with_capacity(page.len() + 1024);
    for line in page.split_inclusive('\n') {
        let Some(name) = marker(line) else {
            out.push_str(line);
            continue;
        };
        assert!(
            !name.is_empty() && !name.contains(['/', '\\']) && !name.starts_with('.'),
            "{rel}: `{name}` is not the name of a file of web/{PARTS}/"
        );
        let path = parts.join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let part = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{rel} includes web/{PARTS}/{name}: {e}"));
        let indent = &line[..line.len() - line.trim_start().len()];
        for part_line in part.split_inclusive('\n') {
            assert!(
                marker(part_line).is_none(),
                "web/{PARTS}/{name}: a part includes nothing"
            );
            if part_line.trim().is_empty() {
                out.push_str(part_line.trim_start_matches([' ', '\t']));
            } else {
                out.push_str(indent);
                out.push_str(part_line);
            }
        }
        if !part.ends_with('\n') && line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    let parts = web.join(PARTS);
    println!("cargo:rerun-if-changed={}", web.display());
    println!("cargo:rerun-if-changed={}", parts.display());
    let mut files = Vec::new();
    walk(&web, &web, &mut files);
    let mut code = String::from("/// Every file of `web/`: (path relative to `web/`, bytes).\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        let abs = path.canonicalize().unwrap_or_else(|_| path.clone());
        println!("cargo:rerun-if-changed={}", abs.display());
        let embedded = if rel.ends_with(".html") {
            let page = std::fs::read_to_string(&abs)
                .unwrap_or_else(|e| panic!("web/{rel} is not UTF-8 text: {e}"));
            let expanded = out_dir.join("pages").join(rel);
            std::fs::create_dir_all(expanded.parent().expect("a file's folder"))
                .expect("OUT_DIR is writable");
            std::fs::write(&expanded, expand(rel, &page, &parts)).expect("OUT_DIR is writable");
            expanded
        } else {
            abs
        };
        writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            embedded.display().to_string()
        )
        .expect("writing to a String");
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("web_files.rs"), code).expect("OUT_DIR is writable");
}
