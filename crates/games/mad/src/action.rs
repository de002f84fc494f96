//! Actions and their text (rules/mad.md sections 5, 6 and 9): cells, ships, movements, shifts
//! (permutations and rotations), bonus composites and the positioning pass.

use plateau_engine::ParseError;
use serde::{Deserialize, Serialize};

/// Columns of the board, left to right from Red's side (rules/mad.md section 3).
pub const COLUMNS: usize = 4;
/// Rows of the board, row 1 is Red's back row and row 6 Blue's.
pub const ROWS: usize = 6;
/// Cells of the board.
pub const CELLS: usize = COLUMNS * ROWS;

/// A cell of the board, `(row - 1) * 4 + column` (column a = 0): a1 = 0, d6 = 23; never off the
/// board. Written `c2` (rules/mad.md section 9); serialized as its index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The cell with index `i` (0 to 23), if there is one.
    #[must_use]
    pub const fn new(i: u8) -> Option<Cell> {
        if (i as usize) < CELLS {
            Some(Cell(i))
        } else {
            None
        }
    }

    /// The index 0 to 23 (also the cell's bit in the state's bit sets).
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

impl std::fmt::Display for Cell {
    /// `c2`: the column letter, then the row.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let column = (b'a' + self.0 % COLUMNS as u8) as char;
        write!(f, "{column}{}", self.0 / COLUMNS as u8 + 1)
    }
}

impl std::fmt::Debug for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let i = u8::deserialize(d)?;
        Cell::new(i)
            .ok_or_else(|| serde::de::Error::custom(format!("cell {i} is off the board (0-23)")))
    }
}

/// The text of cell index `cell`, e.g. `"c2"`, for cells the state computes.
///
/// # Panics
/// If `cell` is 24 or more.
#[must_use]
pub fn cell_name(cell: u8) -> String {
    Cell::new(cell)
        .unwrap_or_else(|| panic!("cell {cell} is off the board"))
        .to_string()
}

/// Reads a cell (`a1` to `d6`, column letter in either case).
///
/// # Errors
/// `ParseError` naming `text` when it is not a cell of the board.
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let bytes = text.as_bytes();
    let bad = || ParseError::new(text, "not a cell: columns a to d, rows 1 to 6 (e.g. c2)");
    if bytes.len() != 2 {
        return Err(bad());
    }
    let column = bytes[0].to_ascii_lowercase();
    let row = bytes[1];
    if !(b'a'..=b'd').contains(&column) || !(b'1'..=b'6').contains(&row) {
        return Err(bad());
    }
    Ok(Cell((row - b'1') * COLUMNS as u8 + (column - b'a')))
}

/// A ship kind, by index 0..8: bit 2 is set for 2 sails, bit 1 for 2 cannons, bit 0 for 2 shields.
///
/// So the index order is the order of the codes (0 = 111, 1 = 112, 2 = 121, 3 = 122, 4 = 211,
/// 5 = 212, 6 = 221, 7 = 222) and a ship's complement (rules/mad.md section 2) is `7 - index`.
pub type Kind = u8;

/// The corvette 111, whose exile ends the game (rules/mad.md section 8.1).
pub const CORVETTE: Kind = 0;

/// The three-digit code of a kind, e.g. `"221"` for 6.
#[must_use]
pub fn kind_code(kind: Kind) -> &'static str {
    ["111", "112", "121", "122", "211", "212", "221", "222"][kind as usize & 7]
}

/// Reads a three-digit code (`111` to `222`).
///
/// # Errors
/// `ParseError` naming `text` when it is not three digits, each 1 or 2.
pub fn parse_kind(text: &str) -> Result<Kind, ParseError> {
    let bytes = text.as_bytes();
    if bytes.len() != 3 || bytes.iter().any(|b| !matches!(b, b'1' | b'2')) {
        return Err(ParseError::new(
            text,
            "not a ship code: three digits sails, cannons, shields, each 1 or 2 (e.g. 221)",
        ));
    }
    Ok(bytes.iter().fold(0, |k, b| (k << 1) | (b - b'1')))
}

/// Sails of a kind: how many cells it may move (1 or 2).
#[must_use]
pub const fn sails(kind: Kind) -> u8 {
    1 + ((kind >> 2) & 1)
}

/// Cannons of a kind (1 or 2): it may expel enemies with at most that many shields.
#[must_use]
pub const fn cannons(kind: Kind) -> u8 {
    1 + ((kind >> 1) & 1)
}

/// Shields of a kind (1 or 2).
#[must_use]
pub const fn shields(kind: Kind) -> u8 {
    1 + (kind & 1)
}

/// The three ships of each rotation, as `(x, y, z)` for `R(x>y>z)`: x takes y's place, y takes z's
/// place and z takes x's place (rules/mad.md sections 5.3 and 9). Indices 0 and 1 are the frigates
/// {112, 121, 211}, 2 and 3 the destroyers {122, 212, 221}; each written from its smallest code.
pub const ROTATIONS: [[Kind; 3]; 4] = [[1, 2, 4], [1, 4, 2], [3, 5, 6], [3, 6, 5]];

/// A permutation or a rotation: the moves that shift a side's own ships, exiled ones included.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shift {
    /// Permutation of the complementary pair `(p, 7 - p)` for `p` in 0..4, i.e. `P(111,222)`,
    /// `P(112,221)`, `P(121,212)`, `P(122,211)` (rules/mad.md section 5.2).
    Permute(u8),
    /// Rotation `ROTATIONS[r]` for `r` in 0..4 (rules/mad.md section 5.3).
    Rotate(u8),
}

impl Shift {
    /// Every shift, in the order of rules/mad.md section 9: the 4 permutations, then the 4 rotations.
    pub const ALL: [Shift; 8] = [
        Shift::Permute(0),
        Shift::Permute(1),
        Shift::Permute(2),
        Shift::Permute(3),
        Shift::Rotate(0),
        Shift::Rotate(1),
        Shift::Rotate(2),
        Shift::Rotate(3),
    ];

    /// Whether the shift moves ships of kind `kind`.
    #[must_use]
    pub fn involves(self, kind: Kind) -> bool {
        match self {
            Shift::Permute(p) => kind == p || kind == 7 - p,
            Shift::Rotate(r) => ROTATIONS[r as usize & 3].contains(&kind),
        }
    }

    fn format_into(self, out: &mut String) {
        match self {
            Shift::Permute(p) => {
                out.push_str("P(");
                out.push_str(kind_code(p));
                out.push(',');
                out.push_str(kind_code(7 - p));
                out.push(')');
            }
            Shift::Rotate(r) => {
                let [x, y, z] = ROTATIONS[r as usize & 3];
                out.push_str("R(");
                out.push_str(kind_code(x));
                out.push('>');
                out.push_str(kind_code(y));
                out.push('>');
                out.push_str(kind_code(z));
                out.push(')');
            }
        }
    }

    /// Reads `P(a,b)` (either order) or `R(x>y>z)` (any starting point of the cycle).
    fn parse(text: &str) -> Result<Shift, ParseError> {
        let inner = |prefix: char| -> Option<&str> {
            let rest = text
                .strip_prefix(prefix)
                .or_else(|| text.strip_prefix(prefix.to_ascii_lowercase()))?;
            rest.strip_prefix('(')?.strip_suffix(')')
        };
        if let Some(body) = inner('P') {
            let mut parts = body.split(',');
            let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(ParseError::new(
                    text,
                    "a permutation names two ship codes: P(112,221)",
                ));
            };
            let (a, b) = (parse_kind(a.trim())?, parse_kind(b.trim())?);
            if a + b != 7 {
                return Err(ParseError::new(
                    text,
                    "only complementary ships permute (digits summing to 3): P(111,222), \
                     P(112,221), P(121,212), P(122,211)",
                ));
            }
            return Ok(Shift::Permute(a.min(b)));
        }
        if let Some(body) = inner('R') {
            let mut codes = [0; 3];
            let mut parts = body.split('>');
            for code in &mut codes {
                let Some(part) = parts.next() else {
                    return Err(ParseError::new(
                        text,
                        "a rotation names three ship codes: R(112>121>211)",
                    ));
                };
                *code = parse_kind(part.trim())?;
            }
            if parts.next().is_some() {
                return Err(ParseError::new(
                    text,
                    "a rotation names three ship codes: R(112>121>211)",
                ));
            }
            for (r, cycle) in ROTATIONS.iter().enumerate() {
                for start in 0..3 {
                    if (0..3).all(|i| codes[i] == cycle[(start + i) % 3]) {
                        return Ok(Shift::Rotate(r as u8));
                    }
                }
            }
            return Err(ParseError::new(
                text,
                "a rotation cycles the three frigates (112, 121, 211) or the three destroyers \
                 (122, 212, 221)",
            ));
        }
        Err(ParseError::new(
            text,
            "expected a permutation P(a,b) or a rotation R(x>y>z)",
        ))
    }
}

/// A movement of one ship (rules/mad.md section 5.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Start cell.
    pub from: Cell,
    /// Destination cell.
    pub to: Cell,
    /// Whether the destination holds an enemy ship that is expelled (written `x` instead of `-`).
    pub capture: bool,
}

impl Step {
    fn format_into(self, out: &mut String) {
        out.push_str(&self.from.to_string());
        out.push(if self.capture { 'x' } else { '-' });
        out.push_str(&self.to.to_string());
    }

    fn parse(text: &str) -> Result<Step, ParseError> {
        // A separator with a cell on each side: `x` alone, or `c2-`, is no movement at all.
        let Some(sep) = text
            .find(['-', 'x', 'X'])
            .filter(|&i| i > 0 && i + 1 < text.len())
        else {
            return Err(ParseError::new(
                text,
                "expected a movement like c2-c4 or c3xc4, P(a,b), R(x>y>z) or pass",
            ));
        };
        let from = parse_cell(&text[..sep])?;
        let to = parse_cell(&text[sep + 1..])?;
        Ok(Step {
            from,
            to,
            capture: text.as_bytes()[sep] != b'-',
        })
    }
}

/// One turn of MAD (rules/mad.md section 4): a movement, a shift, a bonus composite or a pass.
///
/// Actions name cells and ship codes, not ship identities, so the same value can be tried in any
/// position; `Mad::apply` says why it is illegal where it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A movement, e.g. `c2-c4` or `c3xc4` (section 5.1).
    Move(Step),
    /// A permutation or rotation, e.g. `P(112,221)` or `R(112>121>211)` (sections 5.2, 5.3).
    Shift(Shift),
    /// A 1-cell movement onto the mover's last row followed by a shift involving the moved ship,
    /// e.g. `d5-d6+P(112,221)` (section 6).
    Bonus(Step, Shift),
    /// Pass, allowed only in the positioning turn (section 7).
    Pass,
}

impl Action {
    /// The canonical text (rules/mad.md section 9).
    #[must_use]
    pub fn text(self) -> String {
        let mut out = String::with_capacity(24);
        match self {
            Action::Move(step) => step.format_into(&mut out),
            Action::Shift(shift) => shift.format_into(&mut out),
            Action::Bonus(step, shift) => {
                step.format_into(&mut out);
                out.push('+');
                shift.format_into(&mut out);
            }
            Action::Pass => out.push_str("pass"),
        }
        out
    }

    /// Reads an action in the notation of rules/mad.md section 9. Cell letters and the `P`/`R`
    /// prefixes may be upper or lower case; `P(a,b)` may list its codes in either order and
    /// `R(x>y>z)` may start anywhere in its cycle. Legality is not checked.
    ///
    /// # Errors
    /// `ParseError` naming the offending token (a bad cell, code, separator or shape).
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseError::new(text, "empty action"));
        }
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        let first = text.as_bytes()[0].to_ascii_uppercase();
        if first == b'P' || first == b'R' {
            return Shift::parse(text).map(Action::Shift);
        }
        match text.split_once('+') {
            Some((step, shift)) => Ok(Action::Bonus(Step::parse(step)?, Shift::parse(shift)?)),
            None => Step::parse(text).map(Action::Move),
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}
