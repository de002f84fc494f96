//! Die faces, astronauts and actions, with their canonical text (rules/moonleap.md "Canonical
//! notation", action text): rolls `r1`..`r5`, `r*`; a single move `4`; a split in playing order
//! `2+3`; mercenaries prefixed `m` (`m4`, `m2+m3`); and `pass`.

use std::fmt;

use plateau_engine::ParseError;
use serde::{Deserialize, Serialize};

/// A face of the die: 1 to 5 name an astronaut, 6 stands for the star (★, any one astronaut).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub struct Face(u8);

impl From<Face> for u8 {
    fn from(face: Face) -> u8 {
        face.0
    }
}

impl TryFrom<u8> for Face {
    type Error = String;

    /// 1 to 5, or 6 for the star.
    fn try_from(n: u8) -> Result<Face, String> {
        if (1..=6).contains(&n) {
            Ok(Face(n))
        } else {
            Err(format!(
                "die face {n} out of range: 1 to 5, or 6 for the star"
            ))
        }
    }
}

impl Face {
    /// The star face (★): the player picks any one astronaut; it never splits.
    pub const STAR: Face = Face(6);

    /// All six faces, each rolled with probability 1/6: 1 to 5, then the star.
    pub const ALL: [Face; 6] = [Face(1), Face(2), Face(3), Face(4), Face(5), Face::STAR];

    /// The numbered face `n` (1 to 5), or `None`.
    #[must_use]
    pub const fn number(n: u8) -> Option<Face> {
        if n >= 1 && n <= 5 {
            Some(Face(n))
        } else {
            None
        }
    }

    /// The astronaut number the face names, or `None` for the star.
    #[must_use]
    pub const fn astronaut(self) -> Option<u8> {
        if self.0 <= 5 { Some(self.0) } else { None }
    }

    /// Whether this is the star.
    #[must_use]
    pub const fn is_star(self) -> bool {
        self.0 == 6
    }

    /// The face as written in position text: `1`..`5` or `*`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self.0 {
            1 => '1',
            2 => '2',
            3 => '3',
            4 => '4',
            5 => '5',
            _ => '*',
        }
    }

    /// Reads a face symbol `1`..`5` or `*`.
    #[must_use]
    pub const fn from_symbol(c: char) -> Option<Face> {
        match c {
            '1'..='5' => Some(Face(c as u8 - b'0')),
            '*' => Some(Face::STAR),
            _ => None,
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.symbol())
    }
}

/// One astronaut a player may move: its number (1 to 5) and whether it is a mercenary (the
/// Mercenaries variant) rather than one of the player's own colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    /// A mercenary astronaut (variant), not the player's own.
    pub mercenary: bool,
    /// The astronaut number, 1 to 5.
    pub number: u8,
}

impl Piece {
    /// The player's own astronaut `number`.
    #[must_use]
    pub const fn own(number: u8) -> Piece {
        Piece {
            mercenary: false,
            number,
        }
    }

    /// Mercenary astronaut `number`.
    #[must_use]
    pub const fn mercenary(number: u8) -> Piece {
        Piece {
            mercenary: true,
            number,
        }
    }

    /// The canonical text, `4` or `m4`.
    #[must_use]
    pub fn text(self) -> String {
        let mut text = String::with_capacity(2);
        let _ = self.write_to(&mut text);
        text
    }

    /// Writes the canonical text a character at a time (the notation's hot path: a `String`
    /// is written without the formatting machinery).
    fn write_to<W: fmt::Write>(self, w: &mut W) -> fmt::Result {
        if self.mercenary {
            w.write_char('m')?;
        }
        match self.number {
            n @ 0..=9 => w.write_char(char::from(b'0' + n)),
            // Never in an action the rules made or read (1 to 5), but written as it is.
            n => write!(w, "{n}"),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// One action: a chance outcome (the roll) or a decision of the seat that rolled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The die shows this face (chance), `r1`..`r5`, `r*`.
    Roll(Face),
    /// Move one astronaut (enter or advance), `4` or `m4`.
    Move(Piece),
    /// A split, both halves in playing order (rules section "Splitting"), `2+3` or `m2+m3`.
    Split(Piece, Piece),
    /// No legal action: the roll is forfeited (rules section "Turn", step 3), `pass`.
    Pass,
}

/// The splits of a face (rules section "Splitting"), as unordered pairs: 3 = 1+2, 4 = 1+3,
/// 5 = 1+4 or 2+3; faces 1, 2 and ★ have none.
#[must_use]
pub const fn split_pairs(face: Face) -> &'static [(u8, u8)] {
    match face.0 {
        3 => &[(1, 2)],
        4 => &[(1, 3)],
        5 => &[(1, 4), (2, 3)],
        _ => &[],
    }
}

impl Action {
    /// The canonical text (`Display`'s), written without the formatting machinery: the match
    /// service writes several per decision (the legal list, the move list, the check of a
    /// seat's text).
    #[must_use]
    pub fn text(&self) -> String {
        let mut text = String::with_capacity(8);
        let _ = self.write_to(&mut text);
        text
    }

    fn write_to<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        match self {
            Action::Roll(face) => {
                w.write_char('r')?;
                w.write_char(face.symbol())
            }
            Action::Move(p) => p.write_to(w),
            Action::Split(a, b) => {
                a.write_to(w)?;
                w.write_char('+')?;
                b.write_to(w)
            }
            Action::Pass => w.write_str("pass"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

const SPLIT_HELP: &str = "only 3, 4 and 5 split: 3 = 1+2, 4 = 1+3, 5 = 1+4 or 2+3";

/// Reads an action in canonical text. `mercenaries` says whether the variant is on (`m` pieces are
/// refused otherwise). Legality in a position is not checked here, but texts that are never legal
/// are refused: a face out of range, an astronaut named twice, a split outside the table, a split
/// mixing own and mercenary astronauts.
///
/// # Errors
/// `ParseError` naming the offending token.
pub fn parse_action(text: &str, mercenaries: bool) -> Result<Action, ParseError> {
    if text == "pass" {
        return Ok(Action::Pass);
    }
    if let Some(face) = text.strip_prefix('r') {
        let mut chars = face.chars();
        return match (chars.next().and_then(Face::from_symbol), chars.next()) {
            (Some(face), None) => Ok(Action::Roll(face)),
            _ => Err(ParseError::new(
                text,
                "roll face out of range: the die shows r1 to r5 or r*",
            )),
        };
    }
    // One or two parts, read without collecting them: a text is read at every decision.
    let mut parts = text.split('+');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(one), None, _) => Ok(Action::Move(parse_piece(one, mercenaries)?)),
        (Some(a), Some(b), None) => {
            let (a, b) = (parse_piece(a, mercenaries)?, parse_piece(b, mercenaries)?);
            if a.mercenary != b.mercenary {
                return Err(ParseError::new(
                    text,
                    "a split never mixes own and mercenary astronauts",
                ));
            }
            if a.number == b.number {
                return Err(ParseError::new(
                    text,
                    format!(
                        "astronaut {} is named twice; a split moves two different astronauts",
                        a.number
                    ),
                ));
            }
            let sum = a.number + b.number;
            let pair = (a.number.min(b.number), a.number.max(b.number));
            let allowed = Face::number(sum).is_some_and(|f| split_pairs(f).contains(&pair));
            if !allowed {
                return Err(ParseError::new(
                    text,
                    format!("the split table has no {text} (it adds up to {sum}); {SPLIT_HELP}"),
                ));
            }
            Ok(Action::Split(a, b))
        }
        _ => Err(ParseError::new(
            text,
            "expected a roll (r1..r5, r*), an astronaut (4, m4), a split (2+3, m2+m3) or pass",
        )),
    }
}

fn parse_piece(token: &str, mercenaries: bool) -> Result<Piece, ParseError> {
    let (mercenary, digits) = match token.strip_prefix('m') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    if mercenary && !mercenaries {
        return Err(ParseError::new(
            token,
            "mercenaries are not in play (the Mercenaries variant is off)",
        ));
    }
    match digits.parse::<u8>() {
        Ok(n @ 1..=5) => Ok(Piece {
            mercenary,
            number: n,
        }),
        Ok(_) => Err(ParseError::new(
            token,
            "astronaut number out of range: astronauts are numbered 1 to 5",
        )),
        Err(_) => Err(ParseError::new(
            token,
            "expected a roll (r1..r5, r*), an astronaut (4, m4), a split (2+3, m2+m3) or pass",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_text_round_trips() {
        for text in [
            "r1", "r5", "r*", "4", "m4", "1+2", "2+1", "3+2", "m1+m4", "pass",
        ] {
            let action = parse_action(text, true).unwrap();
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn faces_deserialize_only_in_range() {
        assert_eq!(
            serde_json::to_string(&Action::Roll(Face::STAR)).unwrap(),
            r#"{"roll":6}"#
        );
        assert!(serde_json::from_str::<Action>(r#"{"roll":7}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"roll":0}"#).is_err());
        assert_eq!(
            serde_json::from_str::<Action>(r#"{"roll":3}"#).unwrap(),
            Action::Roll(Face(3))
        );
    }

    #[test]
    fn texts_that_are_never_legal_name_the_problem() {
        let err = |t: &str, merc: bool| parse_action(t, merc).unwrap_err();
        assert!(err("r6", false).message.contains("roll face out of range"));
        assert!(err("r0", false).message.contains("roll face out of range"));
        assert_eq!(err("6", false).token, "6");
        assert!(err("6", false).message.contains("1 to 5"));
        assert!(err("2+2", false).message.contains("named twice"));
        assert!(err("2+4", false).message.contains("split table has no 2+4"));
        assert!(err("2+2", false).message.contains("named twice"));
        assert!(err("1+2+3", false).message.contains("expected"));
        assert!(err("m1+2", true).message.contains("never mixes"));
        assert!(
            err("m3", false)
                .message
                .contains("Mercenaries variant is off")
        );
        assert!(err("", false).message.contains("expected"));
    }
}
