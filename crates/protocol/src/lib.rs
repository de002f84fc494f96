//! Plateau's wire (docs/protocol.md): the error codes (section 5), the messages a client sends
//! over a match's WebSocket (section 4.2), as types, with the one reader of those messages and
//! their JSON form for clients written in Rust (the tests, the load generator); everything the
//! server sends, typed (`server`), and the JSON Schema generated from those types (`schema`,
//! committed as docs/protocol.schema.json).
//!
//! The envelope (a JSON object with a string `type`) is read by hand over a `serde_json::Value`;
//! the messages by serde. The most common message, an `act` of one action as text, is first
//! tried straight from its text (`TextAct`), which reads it as the general way does. A refusal
//! names the field and what it must be in the protocol's words (`` `version` must be a
//! non-negative integer ``), which the documentation and the clients rely on, rather than
//! serde's: `act`'s fields keep what was wrong with each (`Field`) so that its refusals come in
//! the protocol's order and name an action by its place in a turn.

use serde::{Deserialize, Serialize};

pub use plateau_engine::ActionParts;

mod codes;
pub mod schema;
pub mod server;
mod shapes;

pub use codes::Code;

/// A refusal of a client message: its code and a sentence for people.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WireError {
    /// The stable code.
    pub code: Code,
    /// What was wrong, naming the field.
    pub message: String,
}

impl WireError {
    /// An error with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> WireError {
        WireError {
            code,
            message: message.into(),
        }
    }
}

/// The offers a seat can make (docs/protocol.md section 7.4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// A rematch of a finished match.
    Rematch,
    /// An agreed stop of a live one (`Ending::Agreement`): a draw where the game's rule makes
    /// it one.
    Agreement,
    /// Taking back the asking seat's last turn in a live match.
    Takeback,
}

/// The most actions one `act` message may carry (a whole Bataille Navale turn is at most eight).
pub const MAX_TURN_ACTIONS: usize = 32;

/// One action of an `act` message (docs/protocol.md section 4.2): its canonical text, or its
/// parts for a choice the game does not list one by one (a Bataille Navale placement), which the
/// game turns into its text before it is played like any other.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum ActionRequest {
    /// The action's canonical text.
    Text(String),
    /// The action's parts (`plateau_engine::Game::action_from_parts`).
    Parts(ActionParts),
}

impl From<&str> for ActionRequest {
    fn from(text: &str) -> Self {
        ActionRequest::Text(text.to_owned())
    }
}

impl ActionRequest {
    /// Reads one action of an `act`: a string, or an object of parts.
    ///
    /// # Errors
    /// What is wrong with it, naming the part (`target` not a seat number, a part no action has,
    /// a missing `kind`), for a `msg/malformed`.
    fn from_json(value: &serde_json::Value) -> Result<ActionRequest, String> {
        let parts = match value {
            serde_json::Value::String(text) => return Ok(ActionRequest::Text(text.clone())),
            serde_json::Value::Object(parts) => parts,
            _ => {
                return Err(format!(
                    "an action is a string, or an object of parts ({PARTS})"
                ));
            }
        };
        for (name, part) in parts {
            let fits = match name.as_str() {
                "kind" | "piece" | "to" | "choice" => part.is_string(),
                "target" => part.as_u64().is_some_and(|n| n <= u64::from(u8::MAX)),
                _ => {
                    return Err(format!(
                        "an action has no part `{name}` (its parts: {PARTS})"
                    ));
                }
            };
            if !fits {
                let shape = if name == "target" {
                    "a seat number, from 0"
                } else {
                    "a string"
                };
                let found = match part {
                    serde_json::Value::Null => "null".to_owned(),
                    serde_json::Value::Bool(_) => "a boolean".to_owned(),
                    serde_json::Value::Number(n) => n.to_string(),
                    serde_json::Value::String(_) => "a string".to_owned(),
                    serde_json::Value::Array(_) => "a list".to_owned(),
                    serde_json::Value::Object(_) => "an object".to_owned(),
                };
                return Err(format!("the part `{name}` must be {shape}, not {found}"));
            }
        }
        serde_json::from_value(value.clone())
            .map(ActionRequest::Parts)
            .map_err(|e| format!("an action in parts: {e}"))
    }
}

impl<'de> Deserialize<'de> for ActionRequest {
    /// An action as `from_json` reads it, its refusal as the error's text.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        ActionRequest::from_json(&value).map_err(serde::de::Error::custom)
    }
}

/// A value as serde read it, or what was wrong with it. Read from a `serde_json::Value`, whose
/// fields and items are read apart, so one refusal keeps the rest readable.
struct Read<T>(Result<T, String>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Read<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Read(
            T::deserialize(deserializer).map_err(|e| e.to_string()),
        ))
    }
}

/// A field of an `act`: absent, or given (a `null` included).
#[derive(Default)]
enum Field<T> {
    #[default]
    Absent,
    Given(Read<T>),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Read::deserialize(deserializer).map(Field::Given)
    }
}

/// An `act`'s fields (other fields are ignored).
#[derive(Deserialize)]
struct ActFields {
    #[serde(default)]
    version: Field<u64>,
    #[serde(default)]
    action: Field<ActionRequest>,
    #[serde(default)]
    actions: Field<Vec<Read<ActionRequest>>>,
}

impl ActFields {
    /// The message, or its first refusal in the protocol's order: the version, then the
    /// actions, each named by its place in the turn.
    fn read(self) -> Result<ClientMessage, String> {
        let Field::Given(Read(Ok(version))) = self.version else {
            return Err("`version` must be a non-negative integer".into());
        };
        let actions = match (self.action, self.actions) {
            (Field::Given(Read(one)), Field::Absent) => {
                vec![one.map_err(|e| format!("`action`: {e}"))?]
            }
            (Field::Absent, Field::Given(Read(list))) => {
                let list = list
                    .ok()
                    .filter(|l| (1..=MAX_TURN_ACTIONS).contains(&l.len()))
                    .ok_or_else(|| {
                        format!("`actions` must be a list of 1 to {MAX_TURN_ACTIONS} actions")
                    })?;
                let n = list.len();
                list.into_iter()
                    .enumerate()
                    .map(|(k, Read(a))| a.map_err(|e| format!("`actions` {} of {n}: {e}", k + 1)))
                    .collect::<Result<Vec<_>, _>>()?
            }
            _ => {
                return Err("an `act` has either `action` (a string) or `actions` (a list)".into());
            }
        };
        Ok(ClientMessage::Act { version, actions })
    }
}

/// The parts an action may be sent as (`plateau_engine::ActionParts`).
const PARTS: &str = "`kind`, `piece`, `to`, `choice`, `target`";

/// A client message (docs/protocol.md section 4.2).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ClientMessage {
    /// Play `actions` (one seat's decision: one action, or a whole turn applied all or nothing)
    /// based on `version`.
    Act {
        /// The version the actions were based on.
        version: u64,
        /// The actions, as texts or parts, 1 to `MAX_TURN_ACTIONS` of them.
        actions: Vec<ActionRequest>,
    },
    /// Ask for a whole `state` again (a client that lost track of the deltas).
    Sync,
    /// Resign.
    Resign,
    /// Offer (or accept) a rematch, an agreed stop or a takeback (`{"type": "rematch"}` is the
    /// rematch offer's short form).
    Offer(OfferKind),
    /// Withdraw or decline the offers of a kind.
    Decline(OfferKind),
    /// A chat line.
    Chat(String),
    /// Stop (`true`) or start again receiving a player's chat lines.
    Mute {
        /// The player's name.
        name: String,
        /// Mute or unmute.
        mute: bool,
    },
    /// Take a seat with its token (sent in a message rather than in the URL, where logs and
    /// histories keep it).
    Auth(String),
    /// Keep-alive.
    Ping,
}

/// Reads one client message (docs/protocol.md section 4.2).
///
/// # Errors
/// `msg/malformed` (not a JSON object with a string `type`, or bad fields) or `msg/unknown`.
pub fn parse(text: &str) -> Result<ClientMessage, WireError> {
    // A seat's move as the pages and the load client send it, read straight from the text: most
    // messages after `ping` are this one. Anything else, or this written otherwise, is read the
    // general way below, which reads it alike.
    if let Ok(act) = serde_json::from_str::<TextAct>(text)
        && act.kind == "act"
    {
        return Ok(ClientMessage::Act {
            version: act.version,
            actions: vec![ActionRequest::Text(act.action)],
        });
    }
    parse_general(text)
}

/// `parse` for any message: its envelope read over a `serde_json::Value`, then its fields.
fn parse_general(text: &str) -> Result<ClientMessage, WireError> {
    let malformed = |m: String| WireError::new(Code::MsgMalformed, m);
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| malformed("a message is a JSON object".into()))?;
    let kind = obj
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or_else(|| malformed("`type` must be a string".into()))?;
    match kind {
        "act" | "sync" | "resign" | "rematch" | "offer" | "decline" | "chat" | "mute"
        | "unmute" | "auth" | "ping" => {
            let plain = Plain::deserialize(&value).map_err(|_| refused(kind, obj))?;
            Ok(match plain {
                Plain::Act(fields) => fields.read().map_err(malformed)?,
                Plain::Sync => ClientMessage::Sync,
                Plain::Resign => ClientMessage::Resign,
                Plain::Rematch => ClientMessage::Offer(OfferKind::Rematch),
                Plain::Offer { kind } => ClientMessage::Offer(kind),
                Plain::Decline { kind } => ClientMessage::Decline(kind),
                Plain::Chat { text } => ClientMessage::Chat(text),
                Plain::Mute { name } => ClientMessage::Mute { name, mute: true },
                Plain::Unmute { name } => ClientMessage::Mute { name, mute: false },
                Plain::Auth { token } => ClientMessage::Auth(token),
                Plain::Ping => ClientMessage::Ping,
            })
        }
        other => Err(WireError::new(
            Code::MsgUnknown,
            format!(
                "unknown message type `{other}` (known: auth, act, sync, resign, offer, \
                 decline, rematch, chat, mute, unmute, ping)"
            ),
        )),
    }
}

/// An `act` of one action as text and nothing else (`{"type":"act","version":7,"action":"r"}`,
/// in any order): each field once, of the type `parse` reads it as, or serde refuses it and
/// `parse` reads the message the general way.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextAct<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    version: u64,
    action: String,
}

/// The messages as serde reads them (fields other than these are ignored).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Plain {
    Act(ActFields),
    Sync,
    Resign,
    Rematch,
    Offer { kind: OfferKind },
    Decline { kind: OfferKind },
    Chat { text: String },
    Mute { name: String },
    Unmute { name: String },
    Auth { token: String },
    Ping,
}

/// Why a message of type `kind` (one with a field, since the others always read) was refused,
/// in the protocol's words: its one field must be a string, and an offer's one of the kinds.
fn refused(kind: &str, obj: &serde_json::Map<String, serde_json::Value>) -> WireError {
    let field = match kind {
        "offer" | "decline" => "kind",
        "chat" => "text",
        "mute" | "unmute" => "name",
        _ => "token",
    };
    let message = match obj.get(field).and_then(serde_json::Value::as_str) {
        Some(other) if field == "kind" => {
            format!("unknown offer kind `{other}` (known: rematch, agreement, takeback)")
        }
        _ => format!("`{field}` must be a string"),
    };
    WireError::new(Code::MsgMalformed, message)
}

/// A client message's JSON form, as `parse` reads it.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Wire<'a> {
    Act {
        version: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        action: Option<&'a ActionRequest>,
        #[serde(skip_serializing_if = "Option::is_none")]
        actions: Option<&'a [ActionRequest]>,
    },
    Sync,
    Resign,
    Offer {
        kind: OfferKind,
    },
    Decline {
        kind: OfferKind,
    },
    Chat {
        text: &'a str,
    },
    Mute {
        name: &'a str,
    },
    Unmute {
        name: &'a str,
    },
    Auth {
        token: &'a str,
    },
    Ping,
}

impl ClientMessage {
    /// The message as a client sends it: `parse` reads it back as it was. One action is sent
    /// as `action`, several as `actions`; a rematch offer in its long form.
    #[must_use]
    pub fn to_json(&self) -> String {
        let wire = match self {
            ClientMessage::Act { version, actions } => Wire::Act {
                version: *version,
                action: match actions.as_slice() {
                    [one] => Some(one),
                    _ => None,
                },
                actions: (actions.len() != 1).then_some(actions.as_slice()),
            },
            ClientMessage::Sync => Wire::Sync,
            ClientMessage::Resign => Wire::Resign,
            ClientMessage::Offer(kind) => Wire::Offer { kind: *kind },
            ClientMessage::Decline(kind) => Wire::Decline { kind: *kind },
            ClientMessage::Chat(text) => Wire::Chat { text },
            ClientMessage::Mute { name, mute: true } => Wire::Mute { name },
            ClientMessage::Mute { name, mute: false } => Wire::Unmute { name },
            ClientMessage::Auth(token) => Wire::Auth { token },
            ClientMessage::Ping => Wire::Ping,
        };
        serde_json::to_string(&wire).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An action in parts of the wrong shape is refused with the part named and nothing echoed.
    #[test]
    fn a_bad_part_is_named() {
        let message = |t: &str| {
            let e = parse(t).unwrap_err();
            assert_eq!(e.code, Code::MsgMalformed, "{t}");
            e.message
        };
        assert_eq!(
            message(r#"{"type":"act","version":1,"action":{"kind":"fire","target":"2"}}"#),
            "`action`: the part `target` must be a seat number, from 0, not a string"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"action":{"kind":"fire","target":256}}"#),
            "`action`: the part `target` must be a seat number, from 0, not 256"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"actions":["ready",{"kind":"fire","to":7}]}"#),
            "`actions` 2 of 2: the part `to` must be a string, not 7"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"action":{"kind":"fire","aim":"a1"}}"#),
            "`action`: an action has no part `aim` (its parts: `kind`, `piece`, `to`, `choice`, \
             `target`)"
        );
        assert!(
            message(r#"{"type":"act","version":1,"action":{"to":"a1"}}"#)
                .contains("missing field `kind`")
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"action":null}"#),
            "`action`: an action is a string, or an object of parts (`kind`, `piece`, `to`, \
             `choice`, `target`)"
        );
    }

    /// Whatever the order of its fields, an `act` is refused for its version first, then for
    /// its actions, the first bad one named by its place.
    #[test]
    fn act_refusals_come_in_the_protocols_order() {
        let message = |t: &str| parse(t).unwrap_err().message;
        assert_eq!(
            message(r#"{"action":7,"type":"act","version":"3"}"#),
            "`version` must be a non-negative integer"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"actions":["a",{"kind":1},{"to":2}]}"#),
            "`actions` 2 of 3: the part `kind` must be a string, not 1"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"actions":null}"#),
            "`actions` must be a list of 1 to 32 actions"
        );
        assert_eq!(
            message(r#"{"type":"act","version":1,"action":"a","actions":null}"#),
            "an `act` has either `action` (a string) or `actions` (a list)"
        );
    }

    #[test]
    fn client_messages_parse_or_get_their_code() {
        assert_eq!(
            parse(r#"{"type":"act","version":3,"action":"a1-a2"}"#),
            Ok(ClientMessage::Act {
                version: 3,
                actions: vec!["a1-a2".into()]
            })
        );
        assert_eq!(
            parse(r#"{"type":"act","version":3,"actions":["a","b"]}"#),
            Ok(ClientMessage::Act {
                version: 3,
                actions: vec!["a".into(), "b".into()]
            })
        );
        assert_eq!(parse(r#"{"type":"sync"}"#), Ok(ClientMessage::Sync));
        let code = |t: &str| parse(t).unwrap_err().code;
        assert_eq!(code("{not json"), Code::MsgMalformed);
        assert_eq!(code("[1,2]"), Code::MsgMalformed);
        assert_eq!(code(r#"{"type":7}"#), Code::MsgMalformed);
        assert_eq!(
            code(r#"{"type":"act","version":-1,"action":"x"}"#),
            Code::MsgMalformed
        );
        assert_eq!(code(r#"{"type":"act","version":1}"#), Code::MsgMalformed);
        for bad in [
            r#"{"type":"act","version":1,"actions":[]}"#,
            r#"{"type":"act","version":1,"actions":"a"}"#,
            r#"{"type":"act","version":1,"actions":["a",2]}"#,
            r#"{"type":"act","version":1,"action":"a","actions":["a"]}"#,
        ] {
            assert_eq!(code(bad), Code::MsgMalformed, "{bad}");
        }
        let too_many = serde_json::json!({"type": "act", "version": 1,
            "actions": vec!["a"; MAX_TURN_ACTIONS + 1]});
        assert_eq!(code(&too_many.to_string()), Code::MsgMalformed);
        assert_eq!(code(r#"{"type":"dance"}"#), Code::MsgUnknown);
        assert_eq!(
            parse(r#"{"type":"offer","kind":"agreement"}"#),
            Ok(ClientMessage::Offer(OfferKind::Agreement))
        );
        assert_eq!(
            parse(r#"{"type":"rematch"}"#),
            Ok(ClientMessage::Offer(OfferKind::Rematch))
        );
        assert_eq!(
            parse(r#"{"type":"decline","kind":"takeback"}"#),
            Ok(ClientMessage::Decline(OfferKind::Takeback))
        );
        assert_eq!(
            parse(r#"{"type":"unmute","name":"Bob"}"#),
            Ok(ClientMessage::Mute {
                name: "Bob".into(),
                mute: false
            })
        );
        assert_eq!(
            code(r#"{"type":"offer","kind":"draw"}"#),
            Code::MsgMalformed
        );
        assert_eq!(code(r#"{"type":"chat","text":5}"#), Code::MsgMalformed);
        let message = |t: &str| parse(t).unwrap_err().message;
        assert_eq!(
            message(r#"{"type":"chat","text":5}"#),
            "`text` must be a string"
        );
        assert_eq!(message(r#"{"type":"auth"}"#), "`token` must be a string");
        assert_eq!(
            message(r#"{"type":"unmute","name":null}"#),
            "`name` must be a string"
        );
        assert_eq!(
            message(r#"{"type":"offer","kind":1}"#),
            "`kind` must be a string"
        );
        assert_eq!(
            message(r#"{"type":"decline","kind":"draw"}"#),
            "unknown offer kind `draw` (known: rematch, agreement, takeback)"
        );
        // Fields a message does not have are ignored.
        assert_eq!(
            parse(r#"{"type":"ping","extra":[1]}"#),
            Ok(ClientMessage::Ping)
        );
    }

    /// The quick reading of an `act` of one text takes the messages the clients send, and
    /// reads every message as the general reading does (or leaves it to it).
    #[test]
    fn an_act_of_one_text_is_read_quickly_as_in_general() {
        let quick = |t: &str| serde_json::from_str::<TextAct>(t).is_ok();
        let sent = ClientMessage::Act {
            version: 41,
            actions: vec!["roll".into()],
        }
        .to_json();
        assert!(quick(&sent), "{sent}");
        assert!(quick(
            r#" { "action" : "a\"b" , "version":0,"type":"act"} "#
        ));
        for text in [
            sent.as_str(),
            r#"{"type":"act","version":3,"action":"a1-a2"}"#,
            r#" { "action" : "a\"b" , "version":0,"type":"act"} "#,
            r#"{"type":"act","version":18446744073709551615,"action":"x"}"#,
            r#"{"type":"act","version":18446744073709551616,"action":"x"}"#,
            r#"{"type":"act","version":3.0,"action":"x"}"#,
            r#"{"type":"act","version":-3,"action":"x"}"#,
            r#"{"type":"act","version":"3","action":"x"}"#,
            r#"{"type":"act","version":3,"action":7}"#,
            r#"{"type":"act","version":3,"action":null}"#,
            r#"{"type":"act","version":3,"action":{"kind":"fire","target":1}}"#,
            r#"{"type":"act","version":3,"action":"x","actions":["y"]}"#,
            r#"{"type":"act","version":3,"action":"x","extra":1}"#,
            r#"{"type":"act","version":3,"action":"x","action":"y"}"#,
            r#"{"type":"act","type":"sync","version":3,"action":"x"}"#,
            r#"{"type":"\u0061ct","version":3,"action":"x"}"#,
            r#"{"type":"sync","version":3,"action":"x"}"#,
            r#"{"type":"act","version":3,"action":"x"} 1"#,
            r#"{"type":"act","version":3}"#,
            r#"{"version":3,"action":"x"}"#,
        ] {
            assert_eq!(parse(text), parse_general(text), "{text}");
        }
        assert_eq!(
            parse(r#"{"type":"act","version":3,"action":"x","extra":1}"#),
            Ok(ClientMessage::Act {
                version: 3,
                actions: vec!["x".into()]
            })
        );
    }

    /// Every message serialises to a form `parse` reads back as it was.
    #[test]
    fn messages_read_back_as_they_were_written() {
        let parts = ActionParts {
            kind: "place".into(),
            piece: Some("carrier".into()),
            to: Some("d4".into()),
            choice: Some("h".into()),
            target: None,
        };
        let messages = [
            ClientMessage::Act {
                version: 12,
                actions: vec!["c2-c3".into()],
            },
            ClientMessage::Act {
                version: 12,
                actions: vec![ActionRequest::Parts(parts), "ready".into()],
            },
            ClientMessage::Sync,
            ClientMessage::Resign,
            ClientMessage::Offer(OfferKind::Rematch),
            ClientMessage::Offer(OfferKind::Takeback),
            ClientMessage::Decline(OfferKind::Agreement),
            ClientMessage::Chat("good game".into()),
            ClientMessage::Mute {
                name: "Bob".into(),
                mute: true,
            },
            ClientMessage::Mute {
                name: "Bob".into(),
                mute: false,
            },
            ClientMessage::Auth("ab".repeat(32)),
            ClientMessage::Ping,
        ];
        for m in messages {
            assert_eq!(parse(&m.to_json()), Ok(m.clone()), "{}", m.to_json());
        }
    }

    /// The client messages of docs/protocol.md section 4.2, as written there, are read (the
    /// table's placeholders `…` filled in).
    #[test]
    fn the_documented_messages_parse() {
        let doc = include_str!("../../../docs/protocol.md");
        let section = doc
            .split("### 4.2 Client to server")
            .nth(1)
            .and_then(|s| s.split("\n## 5.").next())
            .expect("docs/protocol.md has section 4.2");
        let mut read = 0;
        for line in section.lines().filter(|l| l.starts_with("| `{")) {
            let example = line[3..].split('`').next().unwrap_or_default();
            let example = example
                .replace("\"…64 hex…\"", &format!("\"{}\"", "ab".repeat(32)))
                .replace("\"…\"", "\"hello\"")
                .replace(" \\| \"agreement\" \\| \"takeback\"", "");
            assert!(parse(&example).is_ok(), "{example}: {:?}", parse(&example));
            read += 1;
        }
        assert_eq!(read, 12, "the table's examples");
    }
}
