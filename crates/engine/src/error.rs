//! Typed errors of the engine contract. Each carries a message a person can act on, and a stable
//! code (`action/illegal`, ...) that the match service sends to clients.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::seat::Actor;

/// Why `Game::apply` (or `Game::end`) refused. The state is unchanged whenever this is returned.
#[derive(Clone, PartialEq, Eq, Debug, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum IllegalAction {
    /// The game has ended; nothing more can be played.
    #[error("the game is over")]
    GameOver,
    /// This actor may not act in this state (another seat's turn, or a chance node).
    #[error("{actor} may not act now")]
    NotToAct {
        /// Who tried to act.
        actor: Actor,
    },
    /// The action breaks a rule; `reason` says which, citing the rule where it can.
    #[error("{reason}")]
    Rule {
        /// A sentence for the player, e.g. "B3-B5: the path through B4 is blocked".
        reason: String,
    },
    /// The game does not support this kind of ending (see `Game::end`).
    #[error("this game does not support {what}")]
    Unsupported {
        /// What was asked, e.g. "an agreed stop".
        what: String,
    },
}

impl IllegalAction {
    /// A rule violation with its reason.
    pub fn rule(reason: impl Into<String>) -> Self {
        IllegalAction::Rule {
            reason: reason.into(),
        }
    }

    /// The stable error code the match service sends (see docs/protocol.md).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            IllegalAction::GameOver => "match/over",
            IllegalAction::NotToAct { .. } => "action/not_your_turn",
            IllegalAction::Rule { .. } | IllegalAction::Unsupported { .. } => "action/illegal",
        }
    }
}

/// Bad notation: a position or action text that does not parse. Names the offending token.
#[derive(Clone, PartialEq, Eq, Debug, Error, Serialize, Deserialize)]
#[error("`{}`: {message}", shown(token))]
pub struct ParseError {
    /// The smallest piece of the input that is wrong, as the user wrote it.
    pub token: String,
    /// What is wrong with it and, where it helps, what was expected.
    pub message: String,
}

impl ParseError {
    /// An error about `token`.
    pub fn new(token: impl Into<String>, message: impl Into<String>) -> Self {
        ParseError {
            token: token.into(),
            message: message.into(),
        }
    }
}

/// Why a game could not be set up with this configuration and number of seats.
#[derive(Clone, PartialEq, Eq, Debug, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum SetupError {
    /// The game is not played with this many seats.
    #[error("{game} is played by {}, not {got}", seat_range(*min, *max))]
    SeatCount {
        /// The game's name.
        game: String,
        /// Fewest seats.
        min: usize,
        /// Most seats.
        max: usize,
        /// Seats asked for.
        got: usize,
    },
    /// The configuration is invalid; the message names the field (`costs.shield: ...`).
    #[error("bad configuration: {0}")]
    Config(String),
    /// The position text does not read: the offending token and what was expected.
    #[error("bad position: {0}")]
    Position(ParseError),
    /// The position reads but the rules never reach it (a piece twice, two pieces on one cell,
    /// counters that contradict each other, a side to move that cannot be): the part of the
    /// position that is wrong and why.
    #[error("impossible position: {0}")]
    Impossible(ParseError),
}

/// A token as a message shows it: whole up to 80 characters, else its first 60 and its length, so
/// a huge bad input is not sent back whole.
fn shown(token: &str) -> String {
    let count = token.chars().count();
    if count <= 80 {
        token.to_owned()
    } else {
        let head: String = token.chars().take(60).collect();
        format!("{head}… ({count} characters)")
    }
}

/// "4 seats" or "2 to 4 seats".
fn seat_range(min: usize, max: usize) -> String {
    if min == max {
        format!("{min} seats")
    } else {
        format!("{min} to {max} seats")
    }
}

impl SetupError {
    /// A position text that does not read: `token` is the offending part as written.
    pub fn position(token: impl Into<String>, message: impl Into<String>) -> Self {
        SetupError::Position(ParseError::new(token, message))
    }

    /// A position that reads but cannot arise: `part` names where (a token or a field such as
    /// `boards[2].hits`), `reason` what is wrong.
    pub fn impossible(part: impl Into<String>, reason: impl Into<String>) -> Self {
        SetupError::Impossible(ParseError::new(part, reason))
    }

    /// The offending part and the reason, for a position error (`Position` or `Impossible`).
    #[must_use]
    pub fn position_error(&self) -> Option<&ParseError> {
        match self {
            SetupError::Position(e) | SetupError::Impossible(e) => Some(e),
            _ => None,
        }
    }

    /// Checks `seats` against the game's range.
    ///
    /// # Errors
    /// `SetupError::SeatCount` when `seats` is outside `info.min_seats..=info.max_seats`.
    pub fn check_seats(info: &crate::GameInfo, seats: usize) -> Result<(), SetupError> {
        if (info.min_seats..=info.max_seats).contains(&seats) {
            Ok(())
        } else {
            Err(SetupError::SeatCount {
                game: info.name.to_owned(),
                min: info.min_seats,
                max: info.max_seats,
                got: seats,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_token_is_shown_cut() {
        let short = ParseError::new("z9", "expected a cell");
        assert_eq!(short.to_string(), "`z9`: expected a cell");
        let long = ParseError::new("é".repeat(15_000), "not an action");
        let text = long.to_string();
        assert!(
            text.starts_with(&format!("`{}… (15000 characters)`", "é".repeat(60))),
            "{text}"
        );
        assert!(text.ends_with(": not an action"));
    }

    #[test]
    fn seat_counts_read_as_words() {
        let fixed = SetupError::SeatCount {
            game: "naval".into(),
            min: 4,
            max: 4,
            got: 2,
        };
        assert_eq!(fixed.to_string(), "naval is played by 4 seats, not 2");
        let range = SetupError::SeatCount {
            game: "moonleap".into(),
            min: 2,
            max: 4,
            got: 5,
        };
        assert_eq!(
            range.to_string(),
            "moonleap is played by 2 to 4 seats, not 5"
        );
    }
}
