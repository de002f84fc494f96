//! Pieces, abilities, areas and the action notation of rules/naval.md sections 2, 6.5, 9 and 13b.

use plateau_engine::ParseError;
use serde::{Deserialize, Serialize};

use crate::bits::{Bits, Cell, SIDE, at, col, row};

/// Piece indices in importance order (section 2): ships 0..=5, then the three buoys.
pub const CARRIER: u8 = 0;
/// The 1x5 cruiser.
pub const CRUISER: u8 = 1;
/// The 1x4 battleship.
pub const BATTLESHIP: u8 = 2;
/// The 1x3 frigate.
pub const FRIGATE: u8 = 3;
/// The 1x3 submarine.
pub const SUBMARINE: u8 = 4;
/// The 1x2 corvette.
pub const CORVETTE: u8 = 5;
/// Number of ships per player.
pub const SHIPS: usize = 6;
/// Number of pieces per player: six ships and three buoys.
pub const PIECES: usize = 9;

/// Notation names of the pieces, by index (section 13b).
pub const PIECE_NAMES: [&str; PIECES] = [
    "carrier",
    "cruiser",
    "battleship",
    "frigate",
    "submarine",
    "corvette",
    "buoy1",
    "buoy2",
    "buoy3",
];
/// Long side of each piece.
pub const LENGTH: [u8; PIECES] = [6, 5, 4, 3, 3, 2, 1, 1, 1];
/// Short side of each piece (the carrier is 2 wide).
pub const WIDTH: [u8; PIECES] = [2, 1, 1, 1, 1, 1, 1, 1, 1];
/// Cells (= max life) of each piece.
pub const SIZE: [u8; PIECES] = [12, 5, 4, 3, 3, 2, 1, 1, 1];

/// Whether piece `p` is a buoy.
#[must_use]
pub const fn is_buoy(p: u8) -> bool {
    p >= SHIPS as u8
}

/// The footprint of piece `p` with its top-left cell at `cell`, `vertical` putting the long side
/// along a column (section 13b); `None` if it leaves the board. Buoys ignore `vertical`.
#[must_use]
pub fn footprint(p: u8, cell: Cell, vertical: bool) -> Option<Bits> {
    let (len, wid) = (LENGTH[p as usize], WIDTH[p as usize]);
    let (h, w) = if vertical && !is_buoy(p) {
        (len, wid)
    } else {
        (wid, len)
    };
    if row(cell) + h > SIDE || col(cell) + w > SIDE {
        return None;
    }
    Some(Bits::rect(
        i32::from(row(cell)),
        i32::from(col(cell)),
        i32::from(h),
        i32::from(w),
    ))
}

/// The twelve special abilities (section 9), two per ship.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Corvette: 3x3 shield on the owner's board (section 10).
    Shield,
    /// Corvette: 5x5 spy satellite.
    Satellite,
    /// Submarine: torpedo along a lane of an adjacent board.
    Torpedo,
    /// Submarine: 5x5 sonar.
    Sonar,
    /// Frigate: 5x5 rockets, each cell shot with probability 1/2.
    Rockets,
    /// Frigate: 4x4 ballistic missile, reveals the frigate.
    Missile,
    /// Battleship: 7x7 anti-submarine charges.
    Charges,
    /// Battleship: 7x7 radar.
    Radar,
    /// Cruiser: 2x2 artillery.
    Artillery,
    /// Cruiser: 3x3 heavy artillery.
    Heavy,
    /// Carrier: 8-cell linear bombing.
    Bombing,
    /// Carrier: electromagnetic pulse on a whole player.
    Emp,
}

/// Every ability, in the order of the section 9 table.
pub const ABILITIES: [Ability; 12] = [
    Ability::Shield,
    Ability::Satellite,
    Ability::Torpedo,
    Ability::Sonar,
    Ability::Rockets,
    Ability::Missile,
    Ability::Charges,
    Ability::Radar,
    Ability::Artillery,
    Ability::Heavy,
    Ability::Bombing,
    Ability::Emp,
];

impl Ability {
    /// Notation name (section 13b).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ability::Shield => "shield",
            Ability::Satellite => "satellite",
            Ability::Torpedo => "torpedo",
            Ability::Sonar => "sonar",
            Ability::Rockets => "rockets",
            Ability::Missile => "missile",
            Ability::Charges => "charges",
            Ability::Radar => "radar",
            Ability::Artillery => "artillery",
            Ability::Heavy => "heavy",
            Ability::Bombing => "bombing",
            Ability::Emp => "emp",
        }
    }

    /// The ship that carries it (section 9).
    #[must_use]
    pub const fn ship(self) -> u8 {
        match self {
            Ability::Shield | Ability::Satellite => CORVETTE,
            Ability::Torpedo | Ability::Sonar => SUBMARINE,
            Ability::Rockets | Ability::Missile => FRIGATE,
            Ability::Charges | Ability::Radar => BATTLESHIP,
            Ability::Artillery | Ability::Heavy => CRUISER,
            Ability::Bombing | Ability::Emp => CARRIER,
        }
    }

    /// The two abilities of `ship`.
    #[must_use]
    pub fn of_ship(ship: u8) -> [Ability; 2] {
        // The table lists corvette, submarine, frigate, battleship, cruiser, carrier.
        let order = [CORVETTE, SUBMARINE, FRIGATE, BATTLESHIP, CRUISER, CARRIER];
        let k = order.iter().position(|&s| s == ship).unwrap_or(0);
        [ABILITIES[2 * k], ABILITIES[2 * k + 1]]
    }

    /// Whether it is aimed at a cell of an opponent's board with a rectangular area (section 6.5a):
    /// every ability but the shield, the torpedo and the EMP.
    #[must_use]
    pub const fn is_area(self) -> bool {
        !matches!(self, Ability::Shield | Ability::Torpedo | Ability::Emp)
    }

    /// Area shape (rows, cols) and the aim's offset inside it (row, col), for `vertical` (section
    /// 6.5 and the sizes of section 9). Only the bombing line has an orientation.
    const fn geometry(self, vertical: bool) -> (u8, u8, u8, u8) {
        match self {
            Ability::Satellite | Ability::Sonar | Ability::Rockets => (5, 5, 2, 2),
            Ability::Missile => (4, 4, 1, 1),
            Ability::Charges | Ability::Radar => (7, 7, 3, 3),
            Ability::Artillery => (2, 2, 0, 0),
            Ability::Heavy | Ability::Shield | Ability::Torpedo => (3, 3, 1, 1),
            Ability::Bombing if vertical => (8, 1, 3, 0),
            Ability::Bombing => (1, 8, 0, 3),
            Ability::Emp => (1, 1, 0, 0),
        }
    }

    /// The aim that needs no shift (section 6.5a): the aim clamped coordinate by coordinate.
    #[must_use]
    pub fn normalise(self, cell: Cell, vertical: bool) -> Cell {
        let (h, w, oh, ow) = self.geometry(vertical);
        at(
            row(cell).clamp(oh, SIDE - h + oh),
            col(cell).clamp(ow, SIDE - w + ow),
        )
    }

    /// The normalised aims, one per distinct area (section 6.5a).
    #[must_use]
    pub fn aims(self, vertical: bool) -> Bits {
        let (h, w, oh, ow) = self.geometry(vertical);
        Bits::rect(
            i32::from(oh),
            i32::from(ow),
            i32::from(SIDE - h + 1),
            i32::from(SIDE - w + 1),
        )
    }

    /// The cells covered when aimed at `cell`, shifted inward to keep its full size (section 6.5).
    #[must_use]
    pub fn area(self, cell: Cell, vertical: bool) -> Bits {
        let (h, w, oh, ow) = self.geometry(vertical);
        let n = self.normalise(cell, vertical);
        Bits::rect(
            i32::from(row(n)) - i32::from(oh),
            i32::from(col(n)) - i32::from(ow),
            i32::from(h),
            i32::from(w),
        )
    }
}

/// Direction of travel of a torpedo (section 3 table).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// Along a row, entering at the left edge.
    Right,
    /// Along a row, entering at the right edge.
    Left,
    /// Along a column, entering at the top edge.
    Down,
    /// Along a column, entering at the bottom edge.
    Up,
}

/// All directions.
pub const DIRS: [Dir; 4] = [Dir::Right, Dir::Left, Dir::Down, Dir::Up];

impl Dir {
    /// Notation word.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Right => "right",
            Dir::Left => "left",
            Dir::Down => "down",
            Dir::Up => "up",
        }
    }

    /// The lane's cells in travel order; `lane` is a row for right/left, a column for down/up.
    pub fn lane(self, lane: u8) -> impl Iterator<Item = Cell> {
        (0..SIDE).map(move |i| match self {
            Dir::Right => at(lane, i),
            Dir::Left => at(lane, SIDE - 1 - i),
            Dir::Down => at(i, lane),
            Dir::Up => at(SIDE - 1 - i, lane),
        })
    }

    /// The direction the table of section 3 gives from `shooter` to an adjacent `target`.
    #[must_use]
    pub const fn between(shooter: u8, target: u8) -> Option<Dir> {
        match (shooter, target) {
            (0, 1) | (3, 2) => Some(Dir::Right),
            (1, 0) | (2, 3) => Some(Dir::Left),
            (0, 3) | (1, 2) => Some(Dir::Down),
            (3, 0) | (2, 1) => Some(Dir::Up),
            _ => None,
        }
    }
}

/// One ship's order for this turn (sections 5.3 and 13b).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// No shot; the ship gains the pass bonus (E1).
    Pass,
    /// A normal shot at `cell` of seat `target`'s board (section 6).
    Fire {
        /// Target seat, 0-based.
        target: u8,
        /// Target cell.
        cell: Cell,
    },
    /// An area special aimed at `cell` of `target` (normalised, section 6.5a), or the corvette's
    /// shield centred on `cell` of the owner's own board (`target` = the owner).
    Special {
        /// Which ability: an area ability or the shield.
        ability: Ability,
        /// Target seat, 0-based.
        target: u8,
        /// Aim (normalised) or shield centre.
        cell: Cell,
        /// Bombing along a column; false for every other ability.
        vertical: bool,
    },
    /// The submarine's torpedo along `lane` (a row for right/left, a column for down/up).
    Torpedo {
        /// Target seat, 0-based.
        target: u8,
        /// Direction of travel.
        dir: Dir,
        /// Row or column index, 0..13.
        lane: u8,
    },
    /// The carrier's EMP on a whole player.
    Emp {
        /// Target seat, 0-based.
        target: u8,
    },
}

impl Order {
    /// The seat the order aims at, if any.
    #[must_use]
    pub const fn target(self) -> Option<u8> {
        match self {
            Order::Pass => None,
            Order::Fire { target, .. }
            | Order::Special { target, .. }
            | Order::Torpedo { target, .. }
            | Order::Emp { target } => Some(target),
        }
    }

    /// The ability used, if the order is a special.
    #[must_use]
    pub const fn ability(self) -> Option<Ability> {
        match self {
            Order::Pass | Order::Fire { .. } => None,
            Order::Special { ability, .. } => Some(ability),
            Order::Torpedo { .. } => Some(Ability::Torpedo),
            Order::Emp { .. } => Some(Ability::Emp),
        }
    }
}

/// One action: a seat's choice or a chance outcome (section 13b).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Chance: the random position of one piece of one seat (section 2a), `2:carrier@c3h`.
    Layout {
        /// Seat, 0-based.
        seat: u8,
        /// Piece index.
        piece: u8,
        /// Top-left cell.
        cell: Cell,
        /// Long side along a column (false for buoys).
        vertical: bool,
    },
    /// Placement: move or rotate one of the acting seat's pieces (section 4.5a), `carrier@c3h`.
    Place {
        /// Piece index.
        piece: u8,
        /// Top-left cell.
        cell: Cell,
        /// Long side along a column (false for buoys).
        vertical: bool,
    },
    /// Placement: the layout is final (section 4.5a), `ready`.
    Ready,
    /// Chance: the first player (section 2b), `first 3`.
    First {
        /// Seat, 0-based.
        seat: u8,
    },
    /// Chance: one rocket cell (section 2c), `rocket f7 shot` / `rocket f7 spared`.
    Rocket {
        /// The cell.
        cell: Cell,
        /// Whether the rocket hits it.
        shot: bool,
    },
    /// Battle: one ship's order (section 5.3a), `cruiser:fire 2:f7`.
    Order {
        /// Ship index, 0..5.
        ship: u8,
        /// The order.
        order: Order,
    },
}

/// The written form of a cell, `f7` (section 13b).
#[must_use]
pub fn cell_name(c: Cell) -> String {
    format!("{}{}", char::from(b'a' + col(c)), row(c) + 1)
}

/// Reads a cell written `a1`..`n14`.
///
/// # Errors
/// `ParseError` naming `text` when it is not a cell of the 14x14 board.
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let bad = || {
        ParseError::new(
            text,
            "expected a cell a1..n14 (column letter a-n, row 1-14)",
        )
    };
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(bad)?;
    if !('a'..='n').contains(&letter) {
        return Err(bad());
    }
    let number: u8 = chars.as_str().parse().map_err(|_| bad())?;
    if !(1..=SIDE).contains(&number) || chars.as_str().starts_with('0') {
        return Err(bad());
    }
    Ok(at(number - 1, letter as u8 - b'a'))
}

fn parse_seat(text: &str) -> Result<u8, ParseError> {
    match text {
        "1" | "2" | "3" | "4" => Ok(text.as_bytes()[0] - b'1'),
        _ => Err(ParseError::new(text, "expected a seat 1..4")),
    }
}

fn parse_piece(text: &str) -> Result<u8, ParseError> {
    PIECE_NAMES
        .iter()
        .position(|n| *n == text)
        .map(|p| p as u8)
        .ok_or_else(|| {
            ParseError::new(
                text,
                format!("expected a piece: {}", PIECE_NAMES.join(", ")),
            )
        })
}

/// `<piece>@<cell>[h|v]`: piece, cell, vertical.
fn parse_placement(text: &str) -> Result<(u8, Cell, bool), ParseError> {
    let (name, rest) = text
        .split_once('@')
        .ok_or_else(|| ParseError::new(text, "expected <piece>@<cell>[h|v]"))?;
    let piece = parse_piece(name)?;
    if is_buoy(piece) {
        if rest.ends_with('h') || rest.ends_with('v') {
            return Err(ParseError::new(
                rest,
                "buoys take no orientation (write buoy1@k10)",
            ));
        }
        return Ok((piece, parse_cell(rest)?, false));
    }
    let vertical = match rest.chars().last() {
        Some('h') => false,
        Some('v') => true,
        _ => {
            return Err(ParseError::new(
                rest,
                "a ship's position ends with h or v, as in c3h",
            ));
        }
    };
    Ok((piece, parse_cell(&rest[..rest.len() - 1])?, vertical))
}

fn format_placement(piece: u8, cell: Cell, vertical: bool) -> String {
    let suffix = if is_buoy(piece) {
        ""
    } else if vertical {
        "v"
    } else {
        "h"
    };
    format!(
        "{}@{}{}",
        PIECE_NAMES[piece as usize],
        cell_name(cell),
        suffix
    )
}

/// The written form of an order; `shield_cell` false hides the shield's centre (public announcement,
/// section 9 rule 2).
#[must_use]
pub fn format_order(ship: u8, order: &Order, shield_cell: bool) -> String {
    let ship_name = PIECE_NAMES[ship as usize];
    match *order {
        Order::Pass => format!("{ship_name}:pass"),
        Order::Fire { target, cell } => {
            format!("{ship_name}:fire {}:{}", target + 1, cell_name(cell))
        }
        Order::Special {
            ability: Ability::Shield,
            target,
            cell,
            ..
        } => {
            if shield_cell {
                format!("{ship_name}:shield {}:{}", target + 1, cell_name(cell))
            } else {
                format!("{ship_name}:shield {}", target + 1)
            }
        }
        Order::Special {
            ability,
            target,
            cell,
            vertical,
        } => {
            let suffix = match (ability, vertical) {
                (Ability::Bombing, true) => "v",
                (Ability::Bombing, false) => "h",
                _ => "",
            };
            format!(
                "{ship_name}:{} {}:{}{suffix}",
                ability.name(),
                target + 1,
                cell_name(cell)
            )
        }
        Order::Torpedo { target, dir, lane } => {
            let lane = match dir {
                Dir::Right | Dir::Left => (lane + 1).to_string(),
                Dir::Down | Dir::Up => char::from(b'a' + lane).to_string(),
            };
            format!("{ship_name}:torpedo {}:{}{lane}", target + 1, dir.name())
        }
        Order::Emp { target } => format!("{ship_name}:emp {}", target + 1),
    }
}

/// The canonical text of an action (section 13b).
#[must_use]
pub fn format_action(action: &Action) -> String {
    match *action {
        Action::Layout {
            seat,
            piece,
            cell,
            vertical,
        } => {
            format!("{}:{}", seat + 1, format_placement(piece, cell, vertical))
        }
        Action::Place {
            piece,
            cell,
            vertical,
        } => format_placement(piece, cell, vertical),
        Action::Ready => "ready".to_owned(),
        Action::First { seat } => format!("first {}", seat + 1),
        Action::Rocket { cell, shot } => {
            format!(
                "rocket {} {}",
                cell_name(cell),
                if shot { "shot" } else { "spared" }
            )
        }
        Action::Order { ship, order } => format_order(ship, &order, true),
    }
}

/// Reads an action in the notation of section 13b. Area aims are normalised (section 6.5a).
///
/// # Errors
/// `ParseError` naming the offending token.
pub fn parse_action(text: &str) -> Result<Action, ParseError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(&head) = words.first() else {
        return Err(ParseError::new(text, "empty action"));
    };
    let arity = |n: usize| {
        if words.len() == n {
            Ok(())
        } else {
            Err(ParseError::new(text, format!("expected {n} word(s)")))
        }
    };
    match head {
        "ready" => {
            arity(1)?;
            return Ok(Action::Ready);
        }
        "first" => {
            arity(2)?;
            return Ok(Action::First {
                seat: parse_seat(words[1])?,
            });
        }
        "rocket" => {
            arity(3)?;
            let shot = match words[2] {
                "shot" => true,
                "spared" => false,
                other => return Err(ParseError::new(other, "expected shot or spared")),
            };
            return Ok(Action::Rocket {
                cell: parse_cell(words[1])?,
                shot,
            });
        }
        _ => {}
    }
    if head.contains('@') {
        arity(1)?;
        return Ok(match head.split_once(':') {
            Some((seat, rest)) => {
                let seat = parse_seat(seat)?;
                let (piece, cell, vertical) = parse_placement(rest)?;
                Action::Layout {
                    seat,
                    piece,
                    cell,
                    vertical,
                }
            }
            None => {
                let (piece, cell, vertical) = parse_placement(head)?;
                Action::Place {
                    piece,
                    cell,
                    vertical,
                }
            }
        });
    }
    let (ship_name, verb) = head.split_once(':').ok_or_else(|| {
        ParseError::new(
            head,
            "expected ready, <piece>@<cell>[h|v] or <ship>:<order>",
        )
    })?;
    let ship = parse_piece(ship_name)?;
    if is_buoy(ship) {
        return Err(ParseError::new(ship_name, "buoys take no orders"));
    }
    let order = match verb {
        "pass" => {
            arity(1)?;
            Order::Pass
        }
        "emp" => {
            arity(2)?;
            Order::Emp {
                target: parse_seat(words[1])?,
            }
        }
        _ => {
            arity(2)?;
            let (seat, aim) = words[1]
                .split_once(':')
                .ok_or_else(|| ParseError::new(words[1], "expected <seat>:<cell>"))?;
            let target = parse_seat(seat)?;
            match verb {
                "fire" => Order::Fire {
                    target,
                    cell: parse_cell(aim)?,
                },
                "torpedo" => {
                    let dir = DIRS
                        .into_iter()
                        .find(|d| aim.starts_with(d.name()))
                        .ok_or_else(|| {
                            ParseError::new(
                                aim,
                                "expected right<row>, left<row>, down<col> or up<col>",
                            )
                        })?;
                    let lane_text = &aim[dir.name().len()..];
                    let lane = match dir {
                        Dir::Right | Dir::Left => lane_text
                            .parse::<u8>()
                            .ok()
                            .filter(|n| (1..=SIDE).contains(n) && !lane_text.starts_with('0'))
                            .map(|n| n - 1),
                        Dir::Down | Dir::Up => match lane_text.as_bytes() {
                            [b @ b'a'..=b'n'] => Some(b - b'a'),
                            _ => None,
                        },
                    }
                    .ok_or_else(|| {
                        ParseError::new(
                            lane_text,
                            "expected a row 1..14 (right/left) or a column a..n (down/up)",
                        )
                    })?;
                    Order::Torpedo { target, dir, lane }
                }
                _ => {
                    let ability = ABILITIES
                        .into_iter()
                        .find(|a| a.name() == verb && a.is_area() || *a == Ability::Shield && verb == "shield")
                        .ok_or_else(|| {
                            ParseError::new(verb, "expected pass, fire, shield, satellite, torpedo, sonar, rockets, missile, charges, radar, artillery, heavy, bombing or emp")
                        })?;
                    let (cell_text, vertical) = if ability == Ability::Bombing {
                        match aim.chars().last() {
                            Some('h') => (&aim[..aim.len() - 1], false),
                            Some('v') => (&aim[..aim.len() - 1], true),
                            _ => {
                                return Err(ParseError::new(
                                    aim,
                                    "bombing needs an orientation, as in f7h or f7v",
                                ));
                            }
                        }
                    } else {
                        (aim, false)
                    };
                    let cell = parse_cell(cell_text)?;
                    let cell = if ability == Ability::Shield {
                        cell
                    } else {
                        ability.normalise(cell, vertical)
                    };
                    Order::Special {
                        ability,
                        target,
                        cell,
                        vertical,
                    }
                }
            }
        }
    };
    Ok(Action::Order { ship, order })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_written_column_letter_then_row() {
        assert_eq!(cell_name(at(4, 12)), "m5");
        assert_eq!(parse_cell("m5").unwrap(), at(4, 12));
        assert!(parse_cell("o1").is_err());
        assert!(parse_cell("a15").is_err());
        assert!(parse_cell("a0").is_err());
    }

    #[test]
    fn notation_round_trips() {
        for text in [
            "1:carrier@c3h",
            "1:buoy1@k10",
            "frigate@a1v",
            "ready",
            "first 3",
            "rocket f7 shot",
            "carrier:pass",
            "cruiser:fire 2:f7",
            "carrier:bombing 2:j5h",
            "submarine:torpedo 2:right5",
            "submarine:torpedo 4:downc",
            "carrier:emp 3",
            "corvette:shield 1:a1",
        ] {
            assert_eq!(format_action(&parse_action(text).unwrap()), text);
        }
    }

    #[test]
    fn aims_are_normalised_when_read() {
        let a = parse_action("frigate:rockets 2:a1").unwrap();
        assert_eq!(format_action(&a), "frigate:rockets 2:c3");
        let a = parse_action("carrier:bombing 2:m5h").unwrap();
        assert_eq!(format_action(&a), "carrier:bombing 2:j5h");
    }

    #[test]
    fn bad_tokens_are_named() {
        assert_eq!(parse_action("cruiser:fire 5:f7").unwrap_err().token, "5");
        assert_eq!(parse_action("cruiser:fire 2:z7").unwrap_err().token, "z7");
        assert_eq!(parse_action("boat:pass").unwrap_err().token, "boat");
        assert_eq!(parse_action("buoy1@k10h").unwrap_err().token, "k10h");
    }

    #[test]
    fn abilities_belong_to_their_ships() {
        assert_eq!(
            Ability::of_ship(CORVETTE),
            [Ability::Shield, Ability::Satellite]
        );
        assert_eq!(Ability::of_ship(CARRIER), [Ability::Bombing, Ability::Emp]);
        for a in ABILITIES {
            assert!(Ability::of_ship(a.ship()).contains(&a));
        }
    }
}
