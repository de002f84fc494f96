//! The committed schema is the one the types give, and the server's messages and bodies that
//! docs/protocol.md shows hold to it.

use plateau_protocol::schema;
use serde_json::{Value, json};

const SCHEMA_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/protocol.schema.json"
);

#[test]
fn the_committed_schema_is_current() {
    let committed = std::fs::read_to_string(SCHEMA_FILE).unwrap_or_default();
    assert!(
        committed == schema::schema_text(),
        "docs/protocol.schema.json differs from what the types of crates/protocol give: run \
         `cargo run -p plateau-protocol --example schema` and commit the file"
    );
}

/// A validator of definition `name` of the schema.
fn validator(name: &str) -> jsonschema::Validator {
    let mut root = schema::schema();
    root["$ref"] = json!(format!("#/$defs/{name}"));
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_listed_message_is_defined() {
    let root = schema::schema();
    for (name, _) in schema::MESSAGES {
        assert!(root["$defs"][name].is_object(), "{name}");
        validator(name);
    }
}

/// Fills the placeholders of the documentation's examples: `"…64 hex…"`, `"…"` and `{…}`.
fn filled(example: &str) -> String {
    let mut text = example
        .replace("\"…64 hex…\"", &format!("\"{}\"", "ab".repeat(32)))
        .replace("\"…\"", "\"x\"")
        .replace("[\"...\"]", "[\"x\"]");
    while let Some(start) = text.find("{…") {
        let end = start + text[start..].find('}').expect("a closing brace");
        text.replace_range(start..=end, "{}");
    }
    text
}

/// The server's messages and bodies that docs/protocol.md shows in its JSON blocks, by the
/// heading above them: the definition each block holds to, `None` for a request.
const BLOCKS: &[(&str, &[Option<&str>])] = &[
    ("## 3. HTTP API", &[Some("ErrorBody")]),
    ("### 3.1 ", &[Some("Games")]),
    ("### 3.2 ", &[None, Some("Grant")]),
    ("### 3.3 ", &[Some("Summary")]),
    ("### 3.5 ", &[Some("Grant")]),
    ("### 3.6 ", &[Some("RecordBody")]),
    ("### 3.7 ", &[Some("Replay")]),
    ("### 3.8 ", &[Some("AnalysisStatus")]),
    ("### 3.9 ", &[Some("History")]),
    (
        "#### `state`",
        &[Some("MatchMessage"), Some("MatchMessage")],
    ),
    ("#### `error`", &[Some("MatchMessage")]),
    ("#### `rematch`", &[Some("MatchMessage")]),
    ("### 7.3 ", &[Some("Profile")]),
    ("### 7.9 ", &[Some("LobbyMessage")]),
];

#[test]
fn the_documented_server_messages_hold_to_the_schema() {
    let doc = include_str!("../../../docs/protocol.md");
    let mut heading = "";
    let mut block: Option<String> = None;
    let mut found: Vec<(&str, String)> = Vec::new();
    for line in doc.lines() {
        if line.starts_with('#') && block.is_none() {
            heading = line;
        } else if line == "```json" {
            block = Some(String::new());
        } else if line == "```" && block.is_some() {
            found.push((heading, block.take().unwrap_or_default()));
        } else if let Some(b) = block.as_mut() {
            b.push_str(line);
            b.push('\n');
        }
    }
    let mut checked = 0;
    for (prefix, defs) in BLOCKS {
        let blocks: Vec<&String> = found
            .iter()
            .filter(|(h, _)| h.starts_with(prefix))
            .map(|(_, b)| b)
            .collect();
        assert_eq!(blocks.len(), defs.len(), "the JSON blocks under {prefix}");
        for (text, def) in blocks.into_iter().zip(*defs) {
            let Some(def) = def else { continue };
            let validator = validator(def);
            let text = filled(text);
            // A block may show several answers, one after the other (section 3.8).
            for value in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
                let value = value.unwrap_or_else(|e| panic!("{prefix}: {e} in\n{text}"));
                let errors: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| format!("{} at {}", e, e.instance_path()))
                    .collect();
                assert!(errors.is_empty(), "{prefix}: {value}\n{errors:#?}");
                checked += 1;
            }
        }
    }
    assert_eq!(
        found.len(),
        BLOCKS.iter().map(|(_, d)| d.len()).sum::<usize>(),
        "every JSON block of docs/protocol.md is listed"
    );
    assert!(checked >= 18, "{checked} examples checked");
}

/// A message the types do not describe is refused: an unknown `type`, a field of its own, a
/// field missing or of another type.
#[test]
fn a_shape_the_types_do_not_know_is_refused() {
    let matches = validator("MatchMessage");
    let lobby = validator("LobbyMessage");
    assert!(matches.is_valid(&json!({"type": "pong"})));
    assert!(lobby.is_valid(&json!({"type": "turn", "id": "3f9a0c12d4e5b678", "game": "mad"})));
    for wrong in [
        json!({"type": "dance"}),
        json!({"type": "pong", "extra": 1}),
        json!({"type": "rematch", "id": "a1b2c3d4e5f60718", "seat": 1}),
        json!({"type": "error", "code": "action/sleepy", "message": "zzz"}),
        json!({"type": "chat", "room": "kitchen", "name": "Al", "seat": null, "text": "hi",
               "at": 1}),
        json!({"type": "state", "status": "live", "version": 1, "to_act": [], "legal": [],
               "legal_info": [{"kind": "move", "form": "a1"}], "moves_from": 0, "moves": []}),
    ] {
        assert!(!matches.is_valid(&wrong), "{wrong}");
    }
    assert!(!lobby.is_valid(&json!({"type": "turn", "id": "3f9a0c12d4e5b678"})));
    let state = json!({"type": "state", "status": "live", "version": 1, "to_act": [0],
        "legal": ["a"], "legal_info": [{"kind": "move", "to": "a1"}], "moves_from": 0,
        "moves": [{"by": "chance", "text": "r2", "info": {"kind": "roll", "choice": "2"}}]});
    assert!(matches.is_valid(&state), "a delta");
    // A field left out when it has nothing to say is never null, but a whole state's seat.
    let mut null_seats = state.clone();
    null_seats["seats"] = Value::Null;
    assert!(!matches.is_valid(&null_seats), "{null_seats}");
    let mut spectator = state;
    spectator["seat"] = Value::Null;
    assert!(matches.is_valid(&spectator), "{spectator}");
}
