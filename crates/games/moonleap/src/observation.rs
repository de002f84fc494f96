//! What anyone may know of a Moon Leap state (all of it is public): `Observation`, and its JSON
//! as the match service sends it (`Game::observation_json`), written straight from the state: the
//! board's fields copied from their text, written once per board (`Board::json`), and nothing
//! built that is only written out.

use plateau_engine::{JsonText, ObservationJson, Seat};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::state::{Colour, MoonLeap};

/// Everything anyone may know of a Moon Leap state (all of it is public).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Observation {
    /// The canonical position text.
    pub position: String,
    /// The board's name.
    pub board: String,
    /// Cell values, cell 1 first.
    pub values: Vec<i32>,
    /// The end cells (1-based).
    pub end_cells: Vec<u8>,
    /// The milestone line for this player count is drawn after this cell.
    pub milestone_after: u8,
    /// Whether some astronaut stands beyond the line (splits are open).
    pub milestone_passed: bool,
    /// Per cell, the astronaut on it as text (`"a3"`, `"m2"`), or `None`: `0` in JSON (an empty
    /// crater costs one byte instead of four in every `state` message that moves an astronaut).
    #[serde(with = "empty_as_zero")]
    pub track: Vec<Option<String>>,
    /// The seat to move (or that ended the game).
    pub to_move: Seat,
    /// The face awaiting a decision (`"1"`..`"5"`, `"*"`), `None` when the die is to be rolled.
    pub roll: Option<String>,
    /// Each seat's score if the game ended now.
    pub scores: Vec<i32>,
    /// Whether the Mercenaries variant is on.
    pub mercenaries: bool,
    /// Whether the game is over.
    pub finished: bool,
}

/// The observation's `track` in JSON: an astronaut's text, or `0` for an empty crater (`null` is
/// read as well).
mod empty_as_zero {
    use std::fmt;

    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::{Serialize, Serializer};

    /// One crater as JSON: the astronaut's text, or `0` when empty.
    struct Crater<'a>(Option<&'a str>);

    impl Serialize for Crater<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                Some(a) => s.serialize_str(a),
                None => s.serialize_u8(0),
            }
        }
    }

    pub fn serialize<S: Serializer>(track: &[Option<String>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(track.iter().map(|c| Crater(c.as_deref())))
    }

    /// Reads one crater: a string is an astronaut; `null` or a number from 0 to 255 an empty
    /// crater. A visitor rather than an untagged enum: the enum buffered every crater and, for
    /// each empty one, built and dropped the error of the string it first tried (a formatted
    /// message), most of the time a Moon Leap observation took to read.
    struct CraterVisitor;

    impl<'de> Visitor<'de> for CraterVisitor {
        type Value = Option<String>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an astronaut's text, or 0 or null for an empty crater")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(v))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            u8::try_from(v)
                .map(|_| None)
                .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            u8::try_from(v)
                .map(|_| None)
                .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }

    struct Track;

    impl<'de> Visitor<'de> for Track {
        type Value = Vec<Option<String>>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of craters")
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut track = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
            while let Some(ReadCrater(c)) = seq.next_element()? {
                track.push(c);
            }
            Ok(track)
        }
    }

    /// A crater read through `CraterVisitor`.
    struct ReadCrater(Option<String>);

    impl<'de> de::Deserialize<'de> for ReadCrater {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(CraterVisitor).map(ReadCrater)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<String>>, D::Error> {
        d.deserialize_seq(Track)
    }
}

impl MoonLeap {
    /// Everything anyone may know of this state.
    pub(crate) fn observation(&self) -> Observation {
        Observation {
            position: self.position_text(),
            board: self.board.desc().name.clone(),
            values: self.board.desc().track_values.clone(),
            end_cells: self.board.desc().end_cells.clone(),
            milestone_after: self.board.milestone_after(usize::from(self.seats)),
            milestone_passed: self.milestone_passed(),
            track: self
                .track()
                .into_iter()
                .map(|c| c.map(|(colour, n)| Astronaut::new(colour, n).text().to_owned()))
                .collect(),
            to_move: self.to_move,
            roll: self.roll.map(|f| f.symbol().to_string()),
            scores: self.scores(),
            mercenaries: self.mercenaries,
            finished: self.is_over(),
        }
    }

    /// `observation()` as JSON with its fields noted: the same text (a test holds the two to
    /// it), written from the state with the board's fields copied from their kept text.
    pub(crate) fn observation_written(&self) -> ObservationJson {
        let occupants = self.occupants();
        let track = &occupants[..self.board.len()];
        let board = self.board.json();
        let seats = usize::from(self.seats);
        let mut scores = [0; 4];
        for (seat, score) in Seat::all(seats).zip(&mut scores) {
            *score = self.score(seat);
        }
        ObservationJson::of(&Written {
            position: self.position_text_of(track),
            board: &board.name,
            values: &board.values,
            end_cells: &board.end_cells,
            milestone_after: self.board.milestone_after(seats),
            milestone_passed: self.milestone_passed(),
            track: Craters(track),
            to_move: self.to_move,
            roll: self.roll.map(crate::action::Face::symbol),
            scores: &scores[..seats],
            mercenaries: self.mercenaries,
            finished: self.is_over(),
        })
    }
}

/// `Observation` as it is written, its fields in the same order under the same names, borrowing
/// what the state or the board holds: serde_json writes the same text.
#[derive(Serialize)]
struct Written<'a> {
    position: String,
    board: &'a JsonText,
    values: &'a JsonText,
    end_cells: &'a JsonText,
    milestone_after: u8,
    milestone_passed: bool,
    track: Craters<'a>,
    to_move: Seat,
    /// A face's symbol: a `char` is written as a one-letter string.
    roll: Option<char>,
    scores: &'a [i32],
    mercenaries: bool,
    finished: bool,
}

/// The track's craters as `Observation::track` is written: an astronaut's text, `0` when empty.
struct Craters<'a>(&'a [Option<(Colour, u8)>]);

impl Serialize for Craters<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let crater = |c: &Option<(Colour, u8)>| CraterRef(c.map(|(k, n)| Astronaut::new(k, n)));
        s.collect_seq(self.0.iter().map(crater))
    }
}

/// One crater of `Craters`.
struct CraterRef(Option<Astronaut>);

impl Serialize for CraterRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(a) => s.serialize_str(a.text()),
            None => s.serialize_u8(0),
        }
    }
}

/// An astronaut's text (`"a3"`, `"m2"`): its colour's letter and its number, written without
/// allocating.
struct Astronaut([u8; 2]);

impl Astronaut {
    /// Astronaut `number` (1 to 5) of `colour`.
    fn new(colour: Colour, number: u8) -> Astronaut {
        // The letter is ASCII (`Colour::letter`).
        Astronaut([colour.letter() as u8, b'0' + number])
    }

    fn text(&self) -> &str {
        // Both bytes are ASCII: a letter `a` to `d` or `m`, a digit 1 to 5.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}
