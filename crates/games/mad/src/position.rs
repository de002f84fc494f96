//! Position text (rules/mad.md section 9), the observation sent to clients, and the terminal board.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plateau_engine::SetupError;
use serde::{Deserialize, Serialize};

use crate::action::{COLUMNS, CORVETTE, ROWS, Step, kind_code, parse_kind};
use crate::state::{EXILE, EndKind, Mad, untoken};
use crate::{MadConfig, Side};

impl Mad {
    /// The canonical position text `<rows> <side> <ply> <since> <last>` (section 9).
    #[must_use]
    pub fn position_text(&self) -> String {
        let mut out = String::with_capacity(80);
        for row in (0..ROWS).rev() {
            let mut empty = 0;
            for column in 0..COLUMNS {
                match untoken(self.cells[row * COLUMNS + column]) {
                    None => empty += 1,
                    Some((side, kind)) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(side.token_letter());
                        out.push_str(kind_code(kind));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if row > 0 {
                out.push('/');
            }
        }
        let last = self.last.map_or('-', Side::letter);
        let _ = write!(
            out,
            " {} {} {} {last}",
            self.side.letter(),
            self.ply,
            self.since
        );
        out
    }

    /// Reads a position text (section 9) under `config`: a checked state (docs/architecture.md
    /// section 2.2).
    ///
    /// The side to move must match the ply (Red moves at even plies), `since` may not exceed
    /// `ply`, `last` is `-` exactly when no expulsion ever happened (then `since` equals `ply` and
    /// no ship is in exile). A counter at or above the tie-break limit gives a finished game
    /// (tie-break result).
    ///
    /// # Errors
    /// `SetupError::Position` naming the token that does not read: a row that does not cover
    /// exactly 4 cells, an unknown token, a bad side, counter or last-expeller field, a missing
    /// or extra field. `SetupError::Impossible` for a position the rules never reach: the same
    /// ship twice, a side without its corvette (the game would be over), a side to move that
    /// does not match the ply, counters that contradict each other, a ship in exile before any
    /// expulsion. `SetupError::Config` for a bad config.
    pub fn parse_position_text(config: MadConfig, text: &str) -> Result<Mad, SetupError> {
        Mad::read(config, text, None)
    }

    /// Reads a position text as `parse_position_text` does; with `ended` (a stored state's
    /// result), a finished game, whose board may lack the corvette whose exile ended it.
    fn read(config: MadConfig, text: &str, ended: Option<Ended>) -> Result<Mad, SetupError> {
        config.check().map_err(SetupError::Config)?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(SetupError::position(
                text.trim(),
                format!(
                    "a position has 5 fields `<rows> <side> <ply> <since> <last>`, found {}",
                    fields.len()
                ),
            ));
        }
        let mut state = Mad::empty(config);
        read_rows(&mut state, fields[0])?;
        let corvette_ended = matches!(
            ended,
            Some(Ended {
                kind: EndKind::Corvette,
                ..
            })
        );
        for side in [Side::Red, Side::Blue] {
            if state.pos[side as usize][CORVETTE as usize] == EXILE && !corvette_ended {
                return Err(SetupError::impossible(
                    format!("{}111", side.token_letter()),
                    format!(
                        "{}'s corvette is not on the board, so the game would already be over",
                        side.name()
                    ),
                ));
            }
        }
        state.side = match fields[1] {
            "r" => Side::Red,
            "b" => Side::Blue,
            other => {
                return Err(SetupError::position(
                    other,
                    "the side to move is `r` or `b`",
                ));
            }
        };
        let number = |token: &str, what: &str| -> Result<u16, SetupError> {
            token.parse::<u16>().map_err(|_| {
                SetupError::position(token, format!("{what} is a whole number from 0 to 65535"))
            })
        };
        state.ply = number(fields[2], "the ply")?;
        state.since = number(fields[3], "the turns since the last expulsion")?;
        state.last = match fields[4] {
            "r" => Some(Side::Red),
            "b" => Some(Side::Blue),
            "-" => None,
            other => {
                return Err(SetupError::position(
                    other,
                    "the last expeller is `r`, `b` or `-` (nobody yet)",
                ));
            }
        };
        check_counters(&state, &fields)?;
        state.check_end();
        match (ended, state.result) {
            (None, _) => {}
            (Some(e), Some((winner, kind))) if (e.winner, e.kind) == (winner, kind) => {}
            (Some(e), None) if e.kind != EndKind::Tiebreak && e.kind != EndKind::Corvette => {
                if e.kind == EndKind::Agreement && e.winner != state.tiebreak_winner() {
                    return Err(SetupError::impossible(
                        "result",
                        format!(
                            "an agreed stop goes to the tie-break winner, {} (section 8.2)",
                            state.tiebreak_winner().name()
                        ),
                    ));
                }
                state.result = Some((e.winner, e.kind));
            }
            (Some(e), shown) => {
                let shown = shown.map_or("a running game".to_owned(), |(w, k)| {
                    format!("{} won by {}", w.name(), k.name())
                });
                return Err(SetupError::impossible(
                    "result",
                    format!(
                        "the stored end ({} won by {}) is not what the position shows ({shown})",
                        e.winner.name(),
                        e.kind.name()
                    ),
                ));
            }
        }
        Ok(state)
    }

    /// The observation of rules/mad.md section 9 (the same for every viewer).
    #[must_use]
    pub fn observation(&self) -> Observation {
        let cells = self
            .cells
            .iter()
            .map(|&t| {
                untoken(t).map(|(side, kind)| format!("{}{}", side.token_letter(), kind_code(kind)))
            })
            .collect();
        let mut exile = BTreeMap::new();
        for side in [Side::Red, Side::Blue] {
            let list = (0..8u8)
                .filter(|k| self.pos[side as usize][*k as usize] == EXILE)
                .map(|k| kind_code(k).to_owned())
                .collect();
            exile.insert(side.letter().to_string(), list);
        }
        Observation {
            cells,
            side: self.side.letter().to_string(),
            ply: self.ply,
            since: self.since,
            last: self.last.map(|s| s.letter().to_string()),
            exile,
            position: self.position_text(),
            positioning: self.positioning_now(),
            last_move: self.last_step.map(|step| LastMove {
                from: step.from.to_string(),
                to: step.to.to_string(),
            }),
        }
    }

    /// The board for a terminal: column letters, row numbers (row 6 on top), both exiles, the side
    /// to move, the ply and the tie-break counter. With `color`, Red and Blue ships use ANSI colours.
    #[must_use]
    pub fn board_text(&self, color: bool) -> String {
        let paint = |side: Side, text: &str| -> String {
            if !color {
                return text.to_owned();
            }
            let code = match side {
                Side::Red => "1;31",
                Side::Blue => "1;34",
            };
            format!("\x1b[{code}m{text}\x1b[0m")
        };
        let mut out = String::new();
        out.push_str("     a    b    c    d\n");
        for row in (0..ROWS).rev() {
            let _ = write!(out, " {} ", row + 1);
            for column in 0..COLUMNS {
                let cell = match untoken(self.cells[row * COLUMNS + column]) {
                    None => "  . ".to_owned(),
                    Some((side, kind)) => {
                        let t = format!("{}{}", side.token_letter(), kind_code(kind));
                        paint(side, &t)
                    }
                };
                out.push(' ');
                out.push_str(&cell);
            }
            let _ = writeln!(out, "  {}", row + 1);
        }
        out.push_str("     a    b    c    d\n");
        for side in [Side::Red, Side::Blue] {
            let exiled: Vec<String> = (0..8u8)
                .filter(|k| self.pos[side as usize][*k as usize] == EXILE)
                .map(|k| paint(side, &format!("{}{}", side.token_letter(), kind_code(k))))
                .collect();
            let list = if exiled.is_empty() {
                "-".to_owned()
            } else {
                exiled.join(" ")
            };
            let _ = writeln!(out, "{} exile: {list}", side.name());
        }
        match self.result {
            Some((winner, kind)) => {
                let _ = writeln!(
                    out,
                    "Game over after {} turns: {} wins ({})",
                    self.ply,
                    paint(winner, winner.name()),
                    kind.name()
                );
            }
            None => {
                let _ = write!(
                    out,
                    "{} to move, ply {}, tie-break counter {}/{}",
                    paint(self.side, self.side.name()),
                    self.ply,
                    self.since,
                    self.config.tiebreak_limit
                );
                if self.positioning_now() {
                    out.push_str(" (positioning turn: permute, rotate or pass)");
                }
                out.push('\n');
            }
        }
        out
    }
}

/// Reads the rows field into `state` (every ship starts in exile).
fn read_rows(state: &mut Mad, rows_text: &str) -> Result<(), SetupError> {
    let rows: Vec<&str> = rows_text.split('/').collect();
    if rows.len() != ROWS {
        return Err(SetupError::position(
            rows_text,
            format!(
                "the board has 6 rows separated by `/`, found {}",
                rows.len()
            ),
        ));
    }
    for (i, row_text) in rows.iter().enumerate() {
        let row = ROWS - 1 - i;
        let mut column = 0;
        let bytes = row_text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let b = bytes[at];
            let (width, ship) = match b {
                b'1'..=b'4' => {
                    at += 1;
                    ((b - b'0') as usize, None)
                }
                b'R' | b'B' => {
                    let end = (at + 4).min(bytes.len());
                    let token = row_text.get(at..end).unwrap_or(&row_text[at..]);
                    let kind = parse_kind(&token[1..]).map_err(|_| {
                        SetupError::position(
                            token,
                            "unknown ship token: R or B then three digits 1 or 2 (e.g. R221)",
                        )
                    })?;
                    at = end;
                    let side = if b == b'R' { Side::Red } else { Side::Blue };
                    (1, Some((side, kind, token)))
                }
                _ => {
                    let token = row_text[at..]
                        .chars()
                        .next()
                        .map_or(String::new(), |c| c.to_string());
                    return Err(SetupError::position(
                        token,
                        "unknown token in a row: expected a ship like R221 or a count 1-4 of \
                         empty cells",
                    ));
                }
            };
            if column + width > COLUMNS {
                return Err(SetupError::position(
                    *row_text,
                    format!("row {} covers more than 4 cells", row + 1),
                ));
            }
            if let Some((side, kind, token)) = ship {
                if state.pos[side as usize][kind as usize] != EXILE {
                    return Err(SetupError::impossible(
                        token,
                        "this ship appears twice (each side has one ship of each code)",
                    ));
                }
                state.put(side, kind, (row * COLUMNS + column) as u8);
            }
            column += width;
        }
        if column != COLUMNS {
            return Err(SetupError::position(
                *row_text,
                format!("row {} covers {column} cells, not 4", row + 1),
            ));
        }
    }
    Ok(())
}

/// The counters against each other and against the board (section 8.2): the side to move
/// follows the ply, `since` is at most `ply`, `-` means no expulsion ever (so `since == ply`
/// and no ship in exile: only an expulsion sends the first ship there).
fn check_counters(state: &Mad, fields: &[&str]) -> Result<(), SetupError> {
    let expected = if state.ply.is_multiple_of(2) {
        Side::Red
    } else {
        Side::Blue
    };
    if state.side != expected {
        return Err(SetupError::impossible(
            fields[1],
            format!(
                "Red moves at even plies and Blue at odd ones: at ply {} {} is to move",
                state.ply,
                expected.name()
            ),
        ));
    }
    if state.since > state.ply {
        return Err(SetupError::impossible(
            fields[3],
            "the turns since the last expulsion cannot exceed the turns played",
        ));
    }
    match state.last {
        None if state.since != state.ply => Err(SetupError::impossible(
            fields[3],
            "with no expulsion yet (`-`), the counter equals the ply",
        )),
        None if state.pos.iter().flatten().any(|&c| c == EXILE) => Err(SetupError::impossible(
            fields[4],
            "a ship is in exile but no expulsion ever happened (`-`): only an expulsion sends \
             the first ship into exile",
        )),
        Some(_) if state.since == state.ply => Err(SetupError::impossible(
            fields[4],
            "an expulsion happened, so the counter must be below the ply",
        )),
        _ => Ok(()),
    }
}

/// A stored state's result: who won and how (`None` while the game runs).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ended {
    winner: Side,
    kind: EndKind,
}

/// How a state is serialized (docs/architecture.md section 2.2): the config, the position text
/// and, once the game is over, its result, which the text does not always show (a timeout, a
/// resignation, an agreed stop); and the last turn's movement, which it never shows. Reading it
/// checks everything `parse_position` checks.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    config: MadConfig,
    position: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Ended>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_move: Option<Step>,
}

impl Serialize for Mad {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Stored {
            config: self.config,
            position: self.position_text(),
            result: self.result.map(|(winner, kind)| Ended { winner, kind }),
            last_move: self.last_step,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Mad {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(d)?;
        let mut state = Mad::read(stored.config, &stored.position, stored.result)
            .map_err(serde::de::Error::custom)?;
        state.last_step = stored.last_move;
        Ok(state)
    }
}

/// What every viewer sees (MAD has no secrets). Serializes as
/// `{"cells": [24 x null|"R221"], "side": "r"|"b", "ply": 0, "since": 0, "last": null|"r"|"b",
/// "exile": {"r": ["221", ...], "b": [...]}, "position": "<position text>", "positioning": false,
/// "last_move": null|{"from": "c2", "to": "c4"}}` where `cells[(row - 1) * 4 + column]`, column
/// a = 0, and exile codes are in ascending order.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Observation {
    /// The 24 cells, index `(row - 1) * 4 + column`: `None` or a ship token like `"R221"`.
    pub cells: Vec<Option<String>>,
    /// The side to move, `"r"` or `"b"`.
    pub side: String,
    /// Turns already played.
    pub ply: u16,
    /// Turns since the last expulsion (the tie-break counter).
    pub since: u16,
    /// The last side that expelled, `"r"` or `"b"`, or `None`.
    pub last: Option<String>,
    /// Exiled codes of each side, keys `"r"` and `"b"`, codes ascending.
    pub exile: BTreeMap<String, Vec<String>>,
    /// The canonical position text.
    pub position: String,
    /// Whether the positioning-turn restriction applies to the side to move now.
    pub positioning: bool,
    /// The cells of the last turn's movement (rules/mad.md section 5.1; a bonus's movement,
    /// section 6, included), for the page to mark: `{"from": "c2", "to": "c4"}`. `None` when that
    /// turn was a shift or a pass, before the first turn, and in a state read from a position
    /// text, which does not hold it.
    #[serde(default)]
    pub last_move: Option<LastMove>,
}

/// A movement's cells (the observation's `last_move`), named as in the notation (`c2`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LastMove {
    /// The cell the ship left.
    pub from: String,
    /// The cell it reached.
    pub to: String,
}
