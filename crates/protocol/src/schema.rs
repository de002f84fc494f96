//! The JSON Schema of everything the server sends, generated from the types of `crate::server`
//! and committed as docs/protocol.schema.json (`cargo run -p plateau-protocol --example schema`
//! writes it; a test of this crate fails while the file differs from what the types give).
//!
//! The schema describes what the server writes (schemars' serialize contract): a field that is
//! left out when empty is optional and never `null` (but those marked `x-null-when-given`),
//! every other field is required, and no object has fields of its own. Its `$defs` name each message and body; `MESSAGES` lists which answers what.

use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, SchemaGenerator, generate::SchemaSettings};

use crate::server;

/// The top-level definitions of the schema and what each describes: a message of a WebSocket
/// or the body of an HTTP answer (docs/protocol.md).
pub const MESSAGES: &[(&str, &str)] = &[
    (
        "MatchMessage",
        "a message of the match WebSocket (section 4.1)",
    ),
    (
        "LobbyMessage",
        "a message of the lobby's WebSocket (sections 7.6 to 7.8)",
    ),
    ("ErrorBody", "the body of every HTTP error (section 3)"),
    ("Health", "GET /health (section 2)"),
    ("Games", "GET /api/games (section 3.1)"),
    (
        "Grant",
        "POST /api/matches (3.2) and POST /api/matches/{id}/join (3.5)",
    ),
    ("Matches", "GET /api/matches (section 3.3)"),
    ("Summary", "GET /api/matches/{id} (section 3.4)"),
    ("RecordBody", "GET /api/matches/{id}/record (section 3.6)"),
    ("Replay", "GET /api/matches/{id}/replay (section 3.7)"),
    (
        "AnalysisStatus",
        "GET and POST /api/matches/{id}/analysis (section 3.8)",
    ),
    ("History", "GET /api/matches/{id}/history (section 3.9)"),
    ("ChatLog", "GET /api/matches/{id}/chat (section 7.5)"),
    ("Me", "GET /api/me (section 7.1)"),
    (
        "Signed",
        "POST /api/guest, /api/account and /api/login (section 7.1)",
    ),
    ("MyGames", "GET /api/me/games (section 7.1)"),
    ("Relations", "GET /api/me/relations (section 7.8)"),
    ("PlayerData", "GET /api/me/data (section 7.10)"),
    ("Profile", "GET /api/players/{name} (section 7.3)"),
    ("Leaderboard", "GET /api/leaderboard/{game} (section 7.3)"),
    ("Tournaments", "GET /api/tournaments (section 7.9)"),
    ("ReportFiled", "POST /api/reports (section 7.11)"),
    ("ReportQueue", "GET /api/mod/reports (section 7.11)"),
    ("AuditLog", "GET /api/mod/audit (section 7.11)"),
    (
        "AuditView",
        "POST /api/mod/players/{name}, /api/mod/reports/{id} and /api/mod/matches/{id}/close (section 7.11)",
    ),
    (
        "TournamentDetail",
        "GET /api/tournaments/{id}, POST /api/tournaments and its join and withdraw (section 7.9)",
    ),
    (
        "PlayerTournaments",
        "GET /api/players/{name}/tournaments (section 7.9)",
    ),
];

/// The schema, as the JSON text committed in docs/protocol.schema.json (pretty, with a final
/// newline).
///
/// # Panics
/// Never: a schema is plain JSON.
#[must_use]
pub fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a schema is JSON");
    text.push('\n');
    text
}

/// The schema: `$defs` holds each message and body of `MESSAGES` and the shapes they use.
#[must_use]
pub fn schema() -> serde_json::Value {
    let settings = SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(left_out_not_null));
    let mut generator = SchemaGenerator::new(settings);
    add::<server::MatchMessage<'_>>(&mut generator);
    add::<server::LobbyMessage<'_>>(&mut generator);
    add::<server::ErrorBody<'_>>(&mut generator);
    add::<server::Health>(&mut generator);
    add::<server::Games>(&mut generator);
    add::<server::Grant<'_>>(&mut generator);
    add::<server::Matches<'_>>(&mut generator);
    add::<server::Summary<'_>>(&mut generator);
    add::<server::RecordBody>(&mut generator);
    add::<server::Replay<'_>>(&mut generator);
    add::<server::AnalysisStatus<'_>>(&mut generator);
    add::<server::History<'_>>(&mut generator);
    add::<server::ChatLog<'_>>(&mut generator);
    add::<server::Me>(&mut generator);
    add::<server::Signed>(&mut generator);
    add::<server::MyGames<'_>>(&mut generator);
    add::<server::Relations>(&mut generator);
    add::<server::PlayerData<'_>>(&mut generator);
    add::<server::Profile<'_>>(&mut generator);
    add::<server::Leaderboard<'_>>(&mut generator);
    add::<server::Tournaments>(&mut generator);
    add::<server::TournamentDetail>(&mut generator);
    add::<server::PlayerTournaments>(&mut generator);
    add::<server::ReportFiled>(&mut generator);
    add::<server::ReportQueue>(&mut generator);
    add::<server::AuditLog>(&mut generator);
    add::<server::AuditView>(&mut generator);
    let defs = generator.take_definitions(true);
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Plateau: what the server sends",
        "description": "Generated from crates/protocol (docs/protocol.md); each top-level \
            definition of `$defs` is a WebSocket message or an HTTP body, listed in \
            plateau_protocol::schema::MESSAGES.",
        "$defs": defs,
    })
}

/// The mark (kept in the schema, where validators ignore it) of a field that is left out when it
/// has nothing to say and may be `null` when given (`Option<Option<T>>`: a whole state's
/// `seat`, `outcome` and `seed`).
pub(crate) const NULL_WHEN_GIVEN: &str = "x-null-when-given";

/// An optional field (one the server leaves out when it is `None`) is never `null`: schemars
/// describes an `Option` as nullable wherever it is, so the `null` is taken out of every
/// property an object does not require, but for those marked `NULL_WHEN_GIVEN`.
fn left_out_not_null(schema: &mut Schema) {
    let required: Vec<String> = schema
        .get("required")
        .and_then(serde_json::Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        let Some(property) = property.as_object_mut() else {
            continue;
        };
        if property.contains_key(NULL_WHEN_GIVEN) || required.contains(name) {
            continue;
        }
        if let Some(serde_json::Value::Array(types)) = property.get_mut("type") {
            types.retain(|t| t != "null");
            if let [one] = types.as_slice() {
                let one = one.clone();
                property.insert("type".into(), one);
            }
        }
        let null = serde_json::json!({"type": "null"});
        if let Some(serde_json::Value::Array(any)) = property.get("anyOf")
            && any.len() == 2
            && any.contains(&null)
        {
            let other = any.iter().find(|s| **s != null).cloned();
            if let Some(serde_json::Value::Object(other)) = other {
                property.remove("anyOf");
                property.extend(other);
            }
        }
    }
}

/// Puts `T`'s schema in the definitions, under its name.
fn add<T: JsonSchema>(generator: &mut SchemaGenerator) {
    let name = T::schema_name();
    let schema = generator.root_schema_for::<T>();
    let mut schema = schema.to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("$defs");
    }
    let _ = generator
        .definitions_mut()
        .insert(name.into_owned(), schema);
}
