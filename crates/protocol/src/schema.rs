//! The JSON Schema of everything the server sends, generated from the types of `crate::server`
//! and committed as docs/protocol.schema.json (`cargo run -p plateau-protocol --example schema`
//! writes it; a test of this crate fails while the file differs from what the types give).
//!
//! The schema describes what the server writes (schemars' serialize contract): a field that is
//! left out when empty is optional, every other field is required, and no object has fields of
//! its own. Its `$defs` name each message and body; `MESSAGES` lists which answers what.

use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};

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
        "a message of the lobby's WebSocket (section 7.6)",
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
    ("Profile", "GET /api/players/{name} (section 7.3)"),
    ("Leaderboard", "GET /api/leaderboard/{game} (section 7.3)"),
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
    let mut generator = SchemaGenerator::new(SchemaSettings::draft2020_12().for_serialize());
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
    add::<server::Profile<'_>>(&mut generator);
    add::<server::Leaderboard<'_>>(&mut generator);
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
