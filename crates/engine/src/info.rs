//! What an action does, in parts a client can draw and compose without knowing the rules: the
//! cells it goes from and to, the pieces it involves, the cells an area order covers, the choice
//! it stands for (docs/protocol.md section 4.1, `legal_info`). Each game fills the parts that mean
//! something for it (`Game::action_info`); the canonical text stays the action's identity.

use serde::{Deserialize, Serialize};

/// The parts of one action. Serialized with empty parts left out, e.g.
/// `{"kind": "move", "from": "c2", "to": "c3", "pieces": ["121"]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ActionInfo {
    /// The game's word for the kind of action (`move`, `shift`, `pass`, `place`, `order`...),
    /// listed per game in docs/protocol.md section 4.1.
    pub kind: &'static str,
    /// The cell a piece leaves, in the game's cell notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The cell a piece reaches or the cell aimed at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Every other cell the action covers or changes (an area, the cells of ships that swap).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<String>,
    /// The pieces it involves, in the game's piece notation, the acting one first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
    /// The choice it stands for where one move has several (a promotion piece, an ability).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The seat it is aimed at (0-based), where it aims at another seat's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u8>,
    /// The second part of an action made of two (MAD's move with its bonus shift).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<Box<ActionInfo>>,
}

impl ActionInfo {
    /// An action of kind `kind` with no other part yet.
    #[must_use]
    pub fn new(kind: &'static str) -> ActionInfo {
        ActionInfo {
            kind,
            ..ActionInfo::default()
        }
    }
}

/// An action a seat names by its parts rather than by its text (docs/protocol.md section 4.2, an
/// `act` in parts): the parts `ActionInfo` gives, of which a game reads those it needs. A page
/// sends these for the choices a game does not list one by one (`Game::listed`), so that it never
/// writes the game's notation itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionParts {
    /// The kind, as in `ActionInfo::kind` (`place`).
    pub kind: String,
    /// The piece, by the game's name for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// The cell the action goes to (for a placement, the piece's anchor), in the game's notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The choice, as in `ActionInfo::choice` (an orientation `h` or `v`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The seat aimed at, 0-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u8>,
}
