//! Who is at the table and who acts next: seats, seat sets, actors and viewers.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered from 0 in every API and record.
///
/// People see seats numbered from 1 (`Seat(0)` displays as `1`), as in the
/// `--seat 1=human` flag of the command line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index into per-seat vectors (0-based).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// All seats of a table of `count` seats, in order.
    pub fn all(count: usize) -> impl Iterator<Item = Seat> {
        (0..count).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    /// Writes the 1-based seat number people see.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", u16::from(self.0) + 1)
    }
}

/// A set of seats, as a bit set. Holds seats 0 to 7 (no Plateau game seats more than 4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatSet(u8);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set of the first `count` seats.
    ///
    /// # Panics
    /// If `count` is more than 8.
    #[must_use]
    pub const fn first(count: usize) -> SeatSet {
        assert!(count <= 8, "a SeatSet holds at most 8 seats");
        SeatSet(((1u16 << count) - 1) as u8)
    }

    /// The set of `seat` alone.
    ///
    /// # Panics
    /// If `seat` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn one(seat: Seat) -> SeatSet {
        SeatSet::EMPTY.with(seat)
    }

    /// The lowest seat of the set, if any.
    #[inline]
    #[must_use]
    pub const fn lowest(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(Seat(self.0.trailing_zeros() as u8))
        }
    }

    /// Whether `seat` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, seat: Seat) -> bool {
        seat.0 < 8 && self.0 & (1 << seat.0) != 0
    }

    /// The set with `seat` added.
    ///
    /// # Panics
    /// If `seat` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn with(self, seat: Seat) -> SeatSet {
        assert!(seat.0 < 8, "a SeatSet holds seats 0 to 7");
        SeatSet(self.0 | (1 << seat.0))
    }

    /// The set with `seat` removed.
    #[must_use]
    pub const fn without(self, seat: Seat) -> SeatSet {
        if seat.0 < 8 {
            SeatSet(self.0 & !(1 << seat.0))
        } else {
            self
        }
    }

    /// Number of seats in the set.
    #[inline]
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        // One step per seat in the set, lowest bit first: nothing to do for the empty set.
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let seat = Seat(bits.trailing_zeros() as u8);
            (bits != 0).then(|| {
                bits &= bits - 1;
                seat
            })
        })
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(SeatSet::EMPTY, SeatSet::with)
    }
}

/// Who must act next in a state (OpenSpiel's "current player").
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToAct {
    /// One seat chooses an action.
    Player(Seat),
    /// Every seat of the set acts independently and secretly, in any order
    /// (Bataille Navale's placement). The set shrinks as seats finish.
    Simultaneous(SeatSet),
    /// A chance node: the match runner samples one of `Game::chance_outcomes`.
    Chance,
    /// The game is over; `Game::outcome` is `Some`.
    Terminal,
}

impl ToAct {
    /// Whether `actor` may act in this state.
    #[must_use]
    pub fn allows(self, actor: Actor) -> bool {
        match (self, actor) {
            (ToAct::Player(s), Actor::Seat(a)) => s == a,
            (ToAct::Simultaneous(set), Actor::Seat(a)) => set.contains(a),
            (ToAct::Chance, Actor::Chance) => true,
            _ => false,
        }
    }
}

/// Who performs an action: a seat, or chance (the match runner's seeded generator).
///
/// Serialized as `{"seat": 0}` or `"chance"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A seat.
    Seat(Seat),
    /// Chance.
    Chance,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(s) => write!(f, "seat {s}"),
            Actor::Chance => f.write_str("chance"),
        }
    }
}

/// Who looks at a state: one seat (sees its own secrets) or a spectator (public information only).
///
/// Serialized as `{"seat": 0}` or `"spectator"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A seat.
    Seat(Seat),
    /// A spectator, or anyone without a seat.
    Spectator,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_sets_hold_what_was_put_in() {
        let set: SeatSet = [Seat(0), Seat(3)].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert!(set.contains(Seat(3)) && !set.contains(Seat(1)));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![Seat(0), Seat(3)]);
        assert_eq!(
            set.without(Seat(0)).iter().collect::<Vec<_>>(),
            vec![Seat(3)]
        );
        assert_eq!(SeatSet::first(4).len(), 4);
        assert_eq!(set.lowest(), Some(Seat(0)));
        assert_eq!(SeatSet::one(Seat(5)).lowest(), Some(Seat(5)));
        assert_eq!(SeatSet::EMPTY.lowest(), None);
        assert!(SeatSet::first(0).is_empty());
    }

    #[test]
    fn seats_display_one_based_and_serialize_zero_based() {
        assert_eq!(Seat(0).to_string(), "1");
        assert_eq!(
            serde_json::to_string(&Actor::Seat(Seat(1))).unwrap(),
            r#"{"seat":1}"#
        );
        assert_eq!(
            serde_json::to_string(&Actor::Chance).unwrap(),
            r#""chance""#
        );
        assert_eq!(
            serde_json::to_string(&Viewer::Spectator).unwrap(),
            r#""spectator""#
        );
    }

    #[test]
    fn to_act_allows_exactly_its_actors() {
        assert!(ToAct::Player(Seat(1)).allows(Actor::Seat(Seat(1))));
        assert!(!ToAct::Player(Seat(1)).allows(Actor::Seat(Seat(0))));
        assert!(!ToAct::Player(Seat(1)).allows(Actor::Chance));
        assert!(ToAct::Chance.allows(Actor::Chance));
        assert!(ToAct::Simultaneous(SeatSet::first(2)).allows(Actor::Seat(Seat(1))));
        assert!(!ToAct::Terminal.allows(Actor::Chance));
    }
}
