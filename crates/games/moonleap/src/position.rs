//! Position text (rules/moonleap.md "Canonical notation"): `<track> <players> <to-move> <roll>`,
//! e.g. 37 dots then ` 2 a -` for the start of a 2-player game on the default board. The text is
//! the whole state (the milestone and the end are read off the track), so it is also how states
//! are serialized.

use std::sync::Arc;

use plateau_engine::SetupError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use plateau_engine::Seat;

use crate::action::Face;
use crate::board::{Board, BoardDesc, MAX_CELLS};
use crate::state::{ASTRONAUTS, Colour, MoonLeap};

impl MoonLeap {
    /// The occupant of each cell (index 0 = cell 1): `(colour, number)`.
    #[must_use]
    pub fn track(&self) -> Vec<Option<(Colour, u8)>> {
        self.occupants()[..self.board.len()].to_vec()
    }

    /// `track` with room for the longest track, built without allocating: the cells past the
    /// board's are empty.
    pub(crate) fn occupants(&self) -> [Option<(Colour, u8)>; MAX_CELLS] {
        let mut track = [None; MAX_CELLS];
        let colours = Seat::all(4).map(Colour::of).chain([Colour::MERCENARIES]);
        for colour in colours {
            for (i, &cell) in self.cells[colour.index()].iter().enumerate() {
                if cell != 0 {
                    track[usize::from(cell) - 1] = Some((colour, i as u8 + 1));
                }
            }
        }
        track
    }

    /// The canonical position text.
    #[must_use]
    pub fn position_text(&self) -> String {
        self.position_text_of(&self.occupants()[..self.board.len()])
    }

    /// The canonical position text, of this state's `track`.
    pub(crate) fn position_text_of(&self, track: &[Option<(Colour, u8)>]) -> String {
        let mut text = String::with_capacity(track.len() * 2 + 8);
        for cell in track {
            match cell {
                None => text.push('.'),
                Some((colour, n)) => {
                    text.push(colour.letter());
                    text.push(char::from(b'0' + n));
                }
            }
        }
        text.push(' ');
        text.push(char::from(b'0' + self.seats));
        text.push(' ');
        text.push(Colour::of(self.to_move).letter());
        text.push(' ');
        text.push(self.roll.map_or('-', Face::symbol));
        text
    }

    /// Reads position text for `board`, with or without the Mercenaries variant.
    ///
    /// # Errors
    /// `SetupError::Position` naming the offending token: a field count other than 4, a track
    /// whose token count differs from the board's cell count, an unknown token, a colour not at
    /// the table, a player count outside 2-4, a seat to move not at the table, a roll other than
    /// `-`, `1`-`5` or `*`. `SetupError::Impossible` for an astronaut placed twice or a face
    /// waiting in a finished game.
    ///
    /// `SetupError::Config` for a table at which the game could never end (`check_can_end`).
    /// The ply count starts at 0 with the default limit; `Game::parse_position` sets the config's.
    pub fn from_text(
        board: Arc<Board>,
        mercenaries: bool,
        text: &str,
    ) -> Result<MoonLeap, SetupError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [track, players, to_move, roll] = fields.as_slice() else {
            return Err(SetupError::position(
                text,
                format!(
                    "a position has 4 fields (<track> <players> <to-move> <roll>), not {}",
                    fields.len()
                ),
            ));
        };
        let seats = match *players {
            "2" => 2,
            "3" => 3,
            "4" => 4,
            _ => {
                return Err(SetupError::position(
                    *players,
                    "the player count is 2, 3 or 4",
                ));
            }
        };
        let seat_letters = &"abcd"[..seats];
        let to_move = match to_move.chars().collect::<Vec<_>>().as_slice() {
            [c] if seat_letters.contains(*c) => Seat(*c as u8 - b'a'),
            _ => {
                return Err(SetupError::position(
                    *to_move,
                    format!(
                        "the seat to move is one of {}",
                        seat_letters
                            .chars()
                            .map(String::from)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        };
        let roll = match roll.chars().collect::<Vec<_>>().as_slice() {
            ['-'] => None,
            [c] if Face::from_symbol(*c).is_some() => Face::from_symbol(*c),
            _ => {
                return Err(SetupError::position(
                    *roll,
                    "the roll is `-` (to roll), `1`..`5` or `*`",
                ));
            }
        };
        crate::check_can_end(&board, seats, mercenaries)?;
        let mut state = MoonLeap::empty(board, mercenaries, seats, to_move);
        state.roll = roll;
        let cells = read_track(track, seats, mercenaries)?;
        if cells.len() != state.board.len() {
            return Err(SetupError::position(
                *track,
                format!(
                    "the track has {} cells but the board `{}` has {}",
                    cells.len(),
                    state.board.desc().name,
                    state.board.len()
                ),
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            let Some((colour, n, token)) = *cell else {
                continue;
            };
            let slot = &mut state.cells[colour.index()][usize::from(n) - 1];
            if *slot != 0 {
                return Err(SetupError::impossible(
                    token,
                    format!(
                        "astronaut {token} stands twice, on cells {} and {}",
                        *slot,
                        i + 1
                    ),
                ));
            }
            *slot = i as u8 + 1;
            state.occupied |= 1u64 << i;
        }
        if state.is_over() && roll.is_some() {
            return Err(SetupError::impossible(
                roll.map_or('-', Face::symbol).to_string(),
                "the end cells are all occupied, so the game is over and the roll must be `-`",
            ));
        }
        Ok(state)
    }
}

/// The tokens of a track: per cell, `None` or `(colour, number, token text)`.
type Cells<'a> = Vec<Option<(Colour, u8, &'a str)>>;

fn read_track(track: &str, seats: usize, mercenaries: bool) -> Result<Cells<'_>, SetupError> {
    let bytes = track.as_bytes();
    let mut cells = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'.' {
            cells.push(None);
            i += 1;
            continue;
        }
        let end = (i + 2).min(bytes.len());
        let token = track.get(i..end).unwrap_or(&track[i..]);
        let colour = match c {
            b'a'..=b'd' if usize::from(c - b'a') < seats => Colour::of(Seat(c - b'a')),
            b'a'..=b'd' => {
                return Err(SetupError::position(
                    token,
                    format!("colour `{}` is not at a table of {seats}", char::from(c)),
                ));
            }
            b'm' if mercenaries => Colour::MERCENARIES,
            b'm' => {
                return Err(SetupError::position(
                    token,
                    "mercenaries are not in play (the Mercenaries variant is off)",
                ));
            }
            _ => {
                let bad = track[i..]
                    .chars()
                    .next()
                    .map(String::from)
                    .unwrap_or_default();
                return Err(SetupError::position(
                    bad,
                    format!(
                        "cell {}: expected `.` or a colour letter and an astronaut number (`a3`)",
                        cells.len() + 1
                    ),
                ));
            }
        };
        let n = match bytes.get(i + 1) {
            Some(d @ b'1'..=b'5') => d - b'0',
            _ => {
                return Err(SetupError::position(
                    token,
                    format!(
                        "cell {}: a colour letter is followed by an astronaut number 1 to 5",
                        cells.len() + 1
                    ),
                ));
            }
        };
        debug_assert!(usize::from(n) <= ASTRONAUTS);
        cells.push(Some((colour, n, &track[i..i + 2])));
        i += 2;
    }
    Ok(cells)
}

/// How a state is serialized: the board description (`None` for the embedded default board, which
/// keeps the JSON of standard games small), the variant, the position text and what the text does
/// not show: after a resignation, the seat that resigned; the plies played and the ply limit
/// (each left out when 0 or the default).
#[derive(Serialize, Deserialize)]
struct Repr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board: Option<BoardDesc>,
    mercenaries: bool,
    position: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resigned: Option<Seat>,
    #[serde(default, skip_serializing_if = "is_zero")]
    plies: u32,
    #[serde(
        default = "default_ply_limit",
        skip_serializing_if = "is_default_ply_limit"
    )]
    ply_limit: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_ply_limit() -> u32 {
    crate::DEFAULT_PLY_LIMIT
}

fn is_default_ply_limit(n: &u32) -> bool {
    *n == crate::DEFAULT_PLY_LIMIT
}

impl Serialize for MoonLeap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let standard = Arc::ptr_eq(&self.board, &Board::standard())
            || *self.board.desc() == *Board::standard().desc();
        Repr {
            board: (!standard).then(|| self.board.desc().clone()),
            mercenaries: self.mercenaries,
            position: self.position_text(),
            resigned: self.resigned,
            plies: self.plies,
            ply_limit: self.ply_limit,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for MoonLeap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let repr = Repr::deserialize(d)?;
        let board = match repr.board {
            None => Board::standard(),
            Some(desc) => Arc::new(Board::new(desc).map_err(serde::de::Error::custom)?),
        };
        let mut state = MoonLeap::from_text(board, repr.mercenaries, &repr.position)
            .map_err(serde::de::Error::custom)?;
        if repr.ply_limit == 0 || repr.plies > repr.ply_limit {
            return Err(serde::de::Error::custom(format!(
                "plies: {} plies played under a ply limit of {} (the limit is at least 1 and \
                 the count never passes it)",
                repr.plies, repr.ply_limit
            )));
        }
        state.plies = repr.plies;
        state.ply_limit = repr.ply_limit;
        if state.plies == state.ply_limit && state.roll.is_some() {
            return Err(serde::de::Error::custom(format!(
                "plies: the ply limit {} is reached, so the game is over and the roll must be `-`",
                state.ply_limit
            )));
        }
        if let Some(seat) = repr.resigned {
            if seat.0 >= state.seats || state.is_over() || state.roll.is_some() {
                return Err(serde::de::Error::custom(format!(
                    "resigned: seat {} cannot have resigned from `{}`",
                    seat.0, repr.position
                )));
            }
            state.resign(seat);
        }
        Ok(state)
    }
}
