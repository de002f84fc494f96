//! Actions and their canonical text (rules/chakart.md ruling 11; chance outcomes, ruling 13).

use plateau_engine::ParseError;
use serde::{Deserialize, Serialize};

use crate::board::{Kind, Square};

/// An egg effect (section 7). The order is the byte order of their texts `~*B` … `~*W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// `*B`: swap the moved piece with another piece (ruling 1).
    KingBoo,
    /// `*C`: the moved piece is eaten and goes to its owner's pool.
    Chomp,
    /// `*D`: one more move with the same piece (ruling 2).
    Daisy,
    /// `*K`: the moved piece goes back to the move's start square.
    Koopa,
    /// `*L`: a random enemy piece changes side (ruling 15).
    Luigi,
    /// `*M`: the moved piece is immobilized (ruling 16).
    Bowser,
    /// `*T`: drop a piece from the mover's pool (ruling 5).
    Toadette,
    /// `*W`: a random piece of the mover changes side (ruling 15).
    Waluigi,
}

impl Effect {
    /// All effects in byte order of their text.
    pub const ALL: [Effect; 8] = [
        Effect::KingBoo,
        Effect::Chomp,
        Effect::Daisy,
        Effect::Koopa,
        Effect::Luigi,
        Effect::Bowser,
        Effect::Toadette,
        Effect::Waluigi,
    ];

    /// The effect's letter: `B C D K L M T W`.
    #[must_use]
    pub const fn letter(self) -> char {
        [b'B', b'C', b'D', b'K', b'L', b'M', b'T', b'W'][self as usize] as char
    }

    /// The effect's stable word in `ActionInfo::choice` (docs/protocol.md section 4.1), from
    /// which a page names it in its language: `boo chomp daisy koopa luigi bowser toadette
    /// waluigi`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        [
            "boo", "chomp", "daisy", "koopa", "luigi", "bowser", "toadette", "waluigi",
        ][self as usize]
    }

    /// The effect's name, for narration.
    #[must_use]
    pub const fn name(self) -> &'static str {
        [
            "King Boo", "Chomp", "Daisy", "Koopa", "Luigi", "Bowser", "Toadette", "Waluigi",
        ][self as usize]
    }
}

/// One action: a seat's decision or a chance outcome.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A piece move `e2e4`, with a direct promotion `e7e8q` or a queen stealth move `a1a2s`.
    Move {
        /// Start square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Promotion piece of a pawn whose own step reaches its last rank.
        promote: Option<Kind>,
        /// The queen's one-time stealth move (section 8).
        stealth: bool,
    },
    /// The king's one-time shell shot `e1*e4` (section 8, ruling 20).
    Shell {
        /// The shooting king's square.
        from: Square,
        /// The square hit.
        to: Square,
    },
    /// King Boo's swap `S@<sq>` with the piece on `with` (ruling 1).
    Swap {
        /// Square of the piece swapped with the moved piece.
        with: Square,
    },
    /// Toadette's drop `R@d5` (ruling 5).
    Drop {
        /// The piece dropped from the pool.
        kind: Kind,
        /// The drop square.
        to: Square,
    },
    /// The promotion choice `=q` after an item effect (ruling 12).
    Promote(Kind),
    /// Chance: a banana or bomb sends the piece to this square (`~e5`).
    Redirect(Square),
    /// Chance: the egg effect drawn (`~*B`).
    Egg(Effect),
    /// Chance: the piece Luigi (`~L@g8`) or Waluigi (`~W@g8`) flips.
    Flip {
        /// Luigi (an enemy piece) rather than Waluigi (an own piece).
        luigi: bool,
        /// Square of the flipped piece.
        target: Square,
    },
    /// Chance: where a rook drops its banana (`~d@c7`) or a bishop its bomb (`~w@c6`).
    ItemDrop {
        /// A bomb (bishop) rather than a banana (rook).
        bomb: bool,
        /// The square.
        to: Square,
    },
    /// Chance: the file of the next piece of the random initial row (`~c`, ruling 19); 0 is file a,
    /// 7 file h.
    Setup(u8),
}

impl Action {
    /// Whether this is a chance outcome.
    #[must_use]
    pub const fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::Redirect(_)
                | Action::Egg(_)
                | Action::Flip { .. }
                | Action::ItemDrop { .. }
                | Action::Setup(_)
        )
    }

    /// The canonical text (ruling 11). Written piece by piece rather than formatted: the move
    /// lists, the secrecy checks and the notation's tests write thousands of them.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(8);
        match *self {
            Action::Move {
                from,
                to,
                promote,
                stealth,
            } => {
                s.push_str(from.name());
                s.push_str(to.name());
                if let Some(k) = promote {
                    s.push(k.letter());
                }
                if stealth {
                    s.push('s');
                }
            }
            Action::Shell { from, to } => {
                s.push_str(from.name());
                s.push('*');
                s.push_str(to.name());
            }
            Action::Swap { with } => {
                s.push_str("S@");
                s.push_str(with.name());
            }
            Action::Drop { kind, to } => {
                s.push(kind.letter().to_ascii_uppercase());
                s.push('@');
                s.push_str(to.name());
            }
            Action::Promote(k) => {
                s.push('=');
                s.push(k.letter());
            }
            Action::Redirect(sq) => {
                s.push('~');
                s.push_str(sq.name());
            }
            Action::Egg(e) => {
                s.push_str("~*");
                s.push(e.letter());
            }
            Action::Flip { luigi, target } => {
                s.push_str(if luigi { "~L@" } else { "~W@" });
                s.push_str(target.name());
            }
            Action::ItemDrop { bomb, to } => {
                s.push_str(if bomb { "~w@" } else { "~d@" });
                s.push_str(to.name());
            }
            Action::Setup(f) => {
                s.push('~');
                s.push((b'a' + f) as char);
            }
        }
        s
    }

    /// Reads the canonical text. Does not check legality.
    ///
    /// # Errors
    /// `ParseError` naming the text when it is no Chakart action.
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let bad = |why: &str| ParseError::new(text, why);
        let sq =
            |t: &str| Square::parse(t).ok_or_else(|| ParseError::new(t, "not a square (a1 to h8)"));
        if let Some(rest) = text.strip_prefix('~') {
            if let Some(e) = rest.strip_prefix('*') {
                let effect = Effect::ALL
                    .into_iter()
                    .find(|e2| e.len() == 1 && e.starts_with(e2.letter()))
                    .ok_or_else(|| bad("unknown egg effect (B, C, D, K, L, M, T or W)"))?;
                return Ok(Action::Egg(effect));
            }
            if let Some((who, at)) = rest.split_once('@') {
                let target = sq(at)?;
                return match who {
                    "L" => Ok(Action::Flip {
                        luigi: true,
                        target,
                    }),
                    "W" => Ok(Action::Flip {
                        luigi: false,
                        target,
                    }),
                    "d" => Ok(Action::ItemDrop {
                        bomb: false,
                        to: target,
                    }),
                    "w" => Ok(Action::ItemDrop {
                        bomb: true,
                        to: target,
                    }),
                    _ => Err(bad("expected ~L@, ~W@, ~d@ or ~w@ before the square")),
                };
            }
            if rest.len() == 1 && (b'a'..=b'h').contains(&rest.as_bytes()[0]) {
                return Ok(Action::Setup(rest.as_bytes()[0] - b'a'));
            }
            return Ok(Action::Redirect(sq(rest)?));
        }
        if let Some(k) = text.strip_prefix('=') {
            let kind =
                promotion_kind(k).ok_or_else(|| bad("promotion must be =q, =r, =n, =b or =k"))?;
            return Ok(Action::Promote(kind));
        }
        if let Some((who, at)) = text.split_once('@') {
            let to = sq(at)?;
            if who == "S" {
                return Ok(Action::Swap { with: to });
            }
            let kind = match who {
                "P" => Kind::Pawn,
                "R" => Kind::Rook,
                "N" => Kind::Knight,
                "B" => Kind::Bishop,
                "Q" => Kind::Queen,
                "K" => Kind::King,
                _ => return Err(bad("expected S@ (swap) or P@, R@, N@, B@, Q@, K@ (drop)")),
            };
            return Ok(Action::Drop { kind, to });
        }
        if let Some((a, b)) = text.split_once('*') {
            return Ok(Action::Shell {
                from: sq(a)?,
                to: sq(b)?,
            });
        }
        if text.len() < 4 || !text.is_char_boundary(2) || !text.is_char_boundary(4) {
            return Err(bad(
                "expected a move such as e2e4, e7e8q, a1a2s, e1*e4, S@e1, R@d5 or =q",
            ));
        }
        let from = sq(&text[..2])?;
        let to = sq(&text[2..4])?;
        let (promote, stealth) = match &text[4..] {
            "" => (None, false),
            "s" => (None, true),
            k => (
                Some(promotion_kind(k).ok_or_else(|| {
                    bad("a move ends with r, n, b, q, k (promotion) or s (stealth)")
                })?),
                false,
            ),
        };
        Ok(Action::Move {
            from,
            to,
            promote,
            stealth,
        })
    }
}

fn promotion_kind(k: &str) -> Option<Kind> {
    match k {
        "r" => Some(Kind::Rook),
        "n" => Some(Kind::Knight),
        "b" => Some(Kind::Bishop),
        "q" => Some(Kind::Queen),
        "k" => Some(Kind::King),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for t in [
            "e2e4", "e7e8q", "a1a2s", "e1*e4", "S@e1", "R@d5", "P@a7", "=q", "=k", "~e5", "~*B",
            "~*W", "~L@g8", "~W@a1", "~d@c7", "~w@c6", "~a", "~h",
        ] {
            let a = Action::parse(t).unwrap();
            assert_eq!(a.text(), t);
        }
    }

    #[test]
    fn bad_texts_are_refused() {
        for t in [
            "", "e2", "e2e9", "e7e8x", "=p", "~*X", "~x@e4", "X@e4", "e1*z9", "~i", "é2e4",
        ] {
            assert!(Action::parse(t).is_err(), "{t}");
        }
    }
}
