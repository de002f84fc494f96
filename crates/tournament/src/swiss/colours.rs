//! Colours in a Swiss (FIDE C.04.3 A.6 and E): what each player wants, and who gets white.

use serde::{Deserialize, Serialize};

use super::{Entrant, Field};
use crate::PlayerId;

/// A side of a two-seat game: white sits in seat 0 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// Seat 0, first to move.
    White,
    /// Seat 1.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How much a player wants a colour (C.04.3 A.6), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

impl Entrant {
    /// The colour wanted and how much (C.04.3 A.6): absolute after a colour difference above
    /// one or the same colour twice running, strong after a difference of one, mild otherwise.
    pub(super) fn preference(&self) -> (Strength, Option<Colour>) {
        let played: Vec<Colour> = self.played().collect();
        let Some(&latest) = played.last() else {
            return (Strength::None, None);
        };
        let twice = played.len() >= 2 && played[played.len() - 2] == latest;
        match self.difference() {
            d if d > 1 => (Strength::Absolute, Some(Colour::Black)),
            d if d < -1 => (Strength::Absolute, Some(Colour::White)),
            _ if twice => (Strength::Absolute, Some(latest.other())),
            1 => (Strength::Strong, Some(Colour::Black)),
            -1 => (Strength::Strong, Some(Colour::White)),
            _ => (Strength::Mild, Some(latest.other())),
        }
    }
}

/// Gives the colours of a pair (C.04.3 E.1 to E.5); `a` ranks above `b`. Returns (white, black).
pub(super) fn colours(field: &Field, a: usize, b: usize, first: Colour) -> (PlayerId, PlayerId) {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    let (pa, pb) = (field.players[a], field.players[b]);
    let (sa, ca) = field.wants[a];
    let (sb, cb) = field.wants[b];
    let a_colour = match (ca, cb) {
        // E.5: no history on either side: by the higher player's pairing number.
        (None, None) => {
            if pa.tpn % 2 == 1 {
                first
            } else {
                first.other()
            }
        }
        // E.1: both wishes can be granted.
        (Some(x), None) => x,
        (None, Some(y)) => y.other(),
        (Some(x), Some(y)) if x != y => x,
        (Some(x), Some(_)) => {
            if sa != sb {
                // E.2: the stronger wish wins.
                if sa > sb { x } else { x.other() }
            } else if sa == Strength::Absolute && pa.difference().abs() != pb.difference().abs() {
                // E.2: both absolute: the wider colour difference wins.
                if pa.difference().abs() > pb.difference().abs() {
                    x
                } else {
                    x.other()
                }
            } else {
                // E.3: alternate from the latest game where they had different colours,
                // their games (rounds without one left out) compared from the latest back;
                // E.4: else the higher player's wish.
                pa.played()
                    .rev()
                    .zip(pb.played().rev())
                    .find_map(|(u, v)| (u != v).then_some(u.other()))
                    .unwrap_or(x)
            }
        }
    };
    if a_colour == Colour::White {
        (pa.id, pb.id)
    } else {
        (pb.id, pa.id)
    }
}
