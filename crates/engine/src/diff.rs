//! The first difference between two JSON documents, named by its path (`boards[2].energy[0]`):
//! how the secrecy checks (docs/architecture.md section 2.5) say which single value leaked.

use serde_json::Value;

/// The first leaf where `a` and `b` differ, in document order: its path and both values as JSON
/// (`absent` where one side has no such field).
#[must_use]
pub fn first_difference(a: &Value, b: &Value) -> Option<(String, String, String)> {
    first_difference_in("", a, b)
}

/// As `first_difference`, for documents found at `root` of a larger one: every path starts with
/// `root` (`observation.boards[1]`, `legal (length)`).
#[must_use]
pub fn first_difference_in(root: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    let mut path = root.to_owned();
    walk(a, b, &mut path)
}

fn walk(a: &Value, b: &Value, path: &mut String) -> Option<(String, String, String)> {
    let here = |path: &str| {
        if path.is_empty() {
            "(the whole document)".to_owned()
        } else {
            path.to_owned()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                let found = match y.get(key) {
                    Some(vb) => walk(va, vb, path),
                    None => Some((here(path), va.to_string(), "absent".into())),
                };
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|key| {
                let at = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                (at, "absent".into(), y[key].to_string())
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(va, vb, path);
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            (x.len() != y.len()).then(|| {
                (
                    format!("{} (length)", here(path)),
                    x.len().to_string(),
                    y.len().to_string(),
                )
            })
        }
        _ => (a != b).then(|| (here(path), a.to_string(), b.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a =
            serde_json::json!({"boards": [{"energy": [1, 2]}, {"energy": [3]}], "phase": "battle"});
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b), None);
        b["boards"][1]["energy"][0] = 4.into();
        assert_eq!(
            first_difference(&a, &b),
            Some(("boards[1].energy[0]".into(), "3".into(), "4".into()))
        );
        let mut c = a.clone();
        c["boards"][0]["energy"] = serde_json::json!([1, 2, 9]);
        assert_eq!(
            first_difference(&a, &c),
            Some(("boards[0].energy (length)".into(), "2".into(), "3".into()))
        );
        let mut d = a.clone();
        d["secret"] = 1.into();
        assert_eq!(
            first_difference(&a, &d),
            Some(("secret".into(), "absent".into(), "1".into()))
        );
        assert_eq!(
            first_difference_in("observation", &a, &c),
            Some((
                "observation.boards[0].energy (length)".into(),
                "2".into(),
                "3".into()
            ))
        );
        assert_eq!(
            first_difference_in("legal", &serde_json::json!([]), &serde_json::json!(["a"])),
            Some(("legal (length)".into(), "0".into(), "1".into()))
        );
    }
}
