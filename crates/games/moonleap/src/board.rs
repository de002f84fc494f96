//! The track as data (rules/moonleap.md section "Track layout"): cell values, the milestone line for
//! each player count, the end cells and the off-board multiplier come from a board description, never
//! from constants in the code. The default description is `boards/default.json`, embedded at build
//! time; a config may carry another one (`Config::board`).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use plateau_engine::JsonText;
use serde::{Deserialize, Serialize};

/// The most cells a track may have: cells are bits of a `u64`, and the run check looks one bit
/// past the last cell.
pub const MAX_CELLS: usize = 63;

/// The text of the embedded default board (`boards/default.json`).
pub const DEFAULT_BOARD_JSON: &str = include_str!("../boards/default.json");

/// A board description as written in a board file (JSON). Cells are numbered from 1 (the start).
///
/// ```json
/// { "name": "proposed-37", "track_values": [-3, -3, ...],
///   "milestone_after": { "2": 10, "3": 13, "4": 16 },
///   "end_cells": [35, 36, 37], "offboard_multiplier": -5 }
/// ```
///
/// An unknown field is refused (a misspelt optional field would otherwise be ignored).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDesc {
    /// A short name shown by `render_text`.
    pub name: String,
    /// Free text about where the layout comes from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub about: String,
    /// The value of each cell, cell 1 first: negative on red cells, 0 on blank ones.
    pub track_values: Vec<i32>,
    /// Per player count (2, 3, 4): the line is drawn after this cell and is passed once any
    /// astronaut stands on a higher cell.
    pub milestone_after: BTreeMap<u8, u8>,
    /// The cells whose filling ends the game at once (the last three in the rules).
    pub end_cells: Vec<u8>,
    /// What each point of astronaut number is worth for an astronaut that never entered (−5).
    pub offboard_multiplier: i32,
}

/// A validated board, ready for the rules: the description plus its bit masks.
///
/// Cell `c` (1-based) is bit `c - 1` of every mask.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    desc: BoardDesc,
    /// Bits of all cells.
    full: u64,
    /// Bits of the end cells.
    end: u64,
    /// Per player count 2, 3, 4: bits of the cells beyond the milestone line.
    beyond: [u64; 3],
    /// The observation's fields that come from the board, written once.
    json: BoardJson,
}

/// The JSON of the observation's fields that come from the board (`Observation::board`,
/// `values`, `end_cells`), written once for every observation on the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct BoardJson {
    pub(crate) name: JsonText,
    pub(crate) values: JsonText,
    pub(crate) end_cells: JsonText,
}

impl Board {
    /// The embedded default board (rules/moonleap.md "Proposed layout"), shared by every state.
    ///
    /// # Panics
    /// If the embedded file is invalid (a build defect, checked by a test).
    #[must_use]
    pub fn standard() -> Arc<Board> {
        static STANDARD: OnceLock<Arc<Board>> = OnceLock::new();
        STANDARD
            .get_or_init(|| {
                let board = Board::from_json(DEFAULT_BOARD_JSON)
                    .unwrap_or_else(|e| panic!("boards/default.json is invalid: {e}"));
                Arc::new(board)
            })
            .clone()
    }

    /// Reads and validates a board file's text.
    ///
    /// # Errors
    /// A message naming the field that is wrong.
    pub fn from_json(text: &str) -> Result<Board, String> {
        let desc: BoardDesc =
            serde_json::from_str(text).map_err(|e| format!("board file is not valid: {e}"))?;
        Board::new(desc)
    }

    /// Validates a description: 4 to 63 cells, values within ±1000, a milestone after a cell in
    /// `1..len` for each of 2, 3 and 4 players, at least one end cell, all on the track and distinct.
    ///
    /// # Errors
    /// A message naming the field that is wrong.
    pub fn new(desc: BoardDesc) -> Result<Board, String> {
        let len = desc.track_values.len();
        if !(4..=MAX_CELLS).contains(&len) {
            return Err(format!(
                "track_values: a track has 4 to {MAX_CELLS} cells, not {len}"
            ));
        }
        if let Some(v) = desc.track_values.iter().find(|v| v.abs() > 1000) {
            return Err(format!("track_values: {v} is outside -1000..=1000"));
        }
        if desc.offboard_multiplier.abs() > 1000 {
            return Err(format!(
                "offboard_multiplier: {} is outside -1000..=1000",
                desc.offboard_multiplier
            ));
        }
        let full = (1u64 << len) - 1;
        let mut beyond = [0u64; 3];
        for (players, slot) in (2u8..=4).zip(beyond.iter_mut()) {
            let after = *desc
                .milestone_after
                .get(&players)
                .ok_or_else(|| format!("milestone_after: no line for {players} players"))?;
            if after == 0 || usize::from(after) >= len {
                return Err(format!(
                    "milestone_after: the {players}-player line after cell {after} is not inside 1..{len}"
                ));
            }
            *slot = full & !((1u64 << after) - 1);
        }
        if let Some(p) = desc.milestone_after.keys().find(|p| !(2..=4).contains(*p)) {
            return Err(format!(
                "milestone_after: {p} is not a player count (2 to 4)"
            ));
        }
        if desc.end_cells.is_empty() {
            return Err("end_cells: at least one end cell is needed".to_owned());
        }
        let mut end = 0u64;
        for &cell in &desc.end_cells {
            if cell == 0 || usize::from(cell) > len {
                return Err(format!(
                    "end_cells: cell {cell} is not on the track 1..={len}"
                ));
            }
            let bit = 1u64 << (cell - 1);
            if end & bit != 0 {
                return Err(format!("end_cells: cell {cell} is listed twice"));
            }
            end |= bit;
        }
        // A string and lists of numbers always serialize.
        let written = |e: serde_json::Error| format!("not written as JSON: {e}");
        let json = BoardJson {
            name: JsonText::of(&desc.name, desc.name.len() + 2).map_err(written)?,
            values: JsonText::of(&desc.track_values, 5 * len).map_err(written)?,
            end_cells: JsonText::of(&desc.end_cells, 4 * desc.end_cells.len()).map_err(written)?,
        };
        Ok(Board {
            desc,
            full,
            end,
            beyond,
            json,
        })
    }

    /// The description this board was built from.
    #[must_use]
    pub fn desc(&self) -> &BoardDesc {
        &self.desc
    }

    /// Number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.desc.track_values.len()
    }

    /// Always false: a board has at least 4 cells.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The value of cell `cell` (1-based).
    ///
    /// # Panics
    /// If `cell` is 0 or beyond the track.
    #[must_use]
    pub fn value(&self, cell: u8) -> i32 {
        self.desc.track_values[usize::from(cell) - 1]
    }

    /// The off-board multiplier (−5 on the default board).
    #[must_use]
    pub fn offboard_multiplier(&self) -> i32 {
        self.desc.offboard_multiplier
    }

    /// The cell after which the milestone line for `players` (2 to 4) is drawn.
    ///
    /// # Panics
    /// If `players` is not 2, 3 or 4.
    #[must_use]
    pub fn milestone_after(&self, players: usize) -> u8 {
        self.desc.milestone_after[&(players as u8)]
    }

    /// Whether `cell` (1-based) is an end cell; false for a cell not on the track.
    #[must_use]
    pub fn is_end(&self, cell: u8) -> bool {
        (1..=self.len()).contains(&usize::from(cell)) && self.end & (1u64 << (cell - 1)) != 0
    }

    /// The observation's fields that come from the board, as JSON.
    pub(crate) fn json(&self) -> &BoardJson {
        &self.json
    }

    /// Bits of all cells.
    #[must_use]
    pub(crate) fn full_mask(&self) -> u64 {
        self.full
    }

    /// Bits of the end cells.
    #[must_use]
    pub(crate) fn end_mask(&self) -> u64 {
        self.end
    }

    /// Bits of the cells beyond the milestone line for `players` (2 to 4).
    #[must_use]
    pub(crate) fn beyond_mask(&self, players: usize) -> u64 {
        self.beyond[players - 2]
    }
}
