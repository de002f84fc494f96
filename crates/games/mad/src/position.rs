//! Position text (rules/mad.md section 9), the observation sent to clients, and the terminal board.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plateau_engine::ParseError;
use serde::{Deserialize, Serialize};

use crate::action::{COLUMNS, CORVETTE, ROWS, kind_code, parse_kind};
use crate::state::{EXILE, Mad, untoken};
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

    /// Reads a position text (section 9) under `config`.
    ///
    /// The side to move must match the ply (Red moves at even plies), `since` may not exceed
    /// `ply`, `last` is `-` exactly when no expulsion ever happened (then `since` equals `ply`).
    /// A counter at or above the tie-break limit gives a finished game (tie-break result).
    ///
    /// # Errors
    /// `ParseError` naming the offending token: a row that does not cover exactly 4 cells, an
    /// unknown token, the same ship twice, a side without its corvette on the board, a bad side,
    /// counter or last-expeller field, or a missing or extra field.
    pub fn parse_position_text(config: MadConfig, text: &str) -> Result<Mad, ParseError> {
        config
            .check()
            .map_err(|m| ParseError::new("tiebreak_limit", m))?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(ParseError::new(
                text.trim(),
                format!(
                    "a position has 5 fields `<rows> <side> <ply> <since> <last>`, found {}",
                    fields.len()
                ),
            ));
        }
        let mut state = Mad::empty(config);
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != ROWS {
            return Err(ParseError::new(
                fields[0],
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
                            ParseError::new(
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
                        return Err(ParseError::new(
                            token,
                            "unknown token in a row: expected a ship like R221 or a count 1-4 \
                             of empty cells",
                        ));
                    }
                };
                if column + width > COLUMNS {
                    return Err(ParseError::new(
                        *row_text,
                        format!("row {} covers more than 4 cells", row + 1),
                    ));
                }
                if let Some((side, kind, token)) = ship {
                    if state.pos[side as usize][kind as usize] != EXILE {
                        return Err(ParseError::new(token, "this ship appears twice"));
                    }
                    state.put(side, kind, (row * COLUMNS + column) as u8);
                }
                column += width;
            }
            if column != COLUMNS {
                return Err(ParseError::new(
                    *row_text,
                    format!("row {} covers {column} cells, not 4", row + 1),
                ));
            }
        }
        for side in [Side::Red, Side::Blue] {
            if state.pos[side as usize][CORVETTE as usize] == EXILE {
                return Err(ParseError::new(
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
            other => return Err(ParseError::new(other, "the side to move is `r` or `b`")),
        };
        let number = |token: &str, what: &str| -> Result<u16, ParseError> {
            token.parse::<u16>().map_err(|_| {
                ParseError::new(token, format!("{what} is a whole number from 0 to 65535"))
            })
        };
        state.ply = number(fields[2], "the ply")?;
        state.since = number(fields[3], "the turns since the last expulsion")?;
        state.last = match fields[4] {
            "r" => Some(Side::Red),
            "b" => Some(Side::Blue),
            "-" => None,
            other => {
                return Err(ParseError::new(
                    other,
                    "the last expeller is `r`, `b` or `-` (nobody yet)",
                ));
            }
        };
        let expected = if state.ply.is_multiple_of(2) {
            Side::Red
        } else {
            Side::Blue
        };
        if state.side != expected {
            return Err(ParseError::new(
                fields[1],
                format!(
                    "Red moves at even plies and Blue at odd ones: at ply {} {} is to move",
                    state.ply,
                    expected.name()
                ),
            ));
        }
        if state.since > state.ply {
            return Err(ParseError::new(
                fields[3],
                "the turns since the last expulsion cannot exceed the turns played",
            ));
        }
        match state.last {
            None if state.since != state.ply => {
                return Err(ParseError::new(
                    fields[3],
                    "with no expulsion yet (`-`), the counter equals the ply",
                ));
            }
            Some(_) if state.since == state.ply => {
                return Err(ParseError::new(
                    fields[4],
                    "an expulsion happened, so the counter must be below the ply",
                ));
            }
            _ => {}
        }
        state.check_end();
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

/// What every viewer sees (MAD has no secrets). Serializes as
/// `{"cells": [24 x null|"R221"], "side": "r"|"b", "ply": 0, "since": 0, "last": null|"r"|"b",
/// "exile": {"r": ["221", ...], "b": [...]}, "position": "<position text>", "positioning": false}`
/// where `cells[(row - 1) * 4 + column]`, column a = 0, and exile codes are in ascending order.
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
}
