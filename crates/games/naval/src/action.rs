//! Orders and actions, and their notation (rules/naval.md sections 5.3a and 13b).

use plateau_engine::{ParseError, Seat};
use serde::{Deserialize, Serialize};

use crate::ability::{ABILITIES, Ability, DIRS, Dir};
use crate::bits::{Bits, Cell, SIDE, push_number};
use crate::piece::{PIECE_NAMES, Piece, Ship};

mod parts;

pub use parts::{action_from_parts, action_info, order_info};

/// One ship's order for this turn (sections 5.3 and 13b).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// No shot; the ship gains the pass bonus (E1).
    Pass,
    /// A normal shot at `cell` of seat `target`'s board (section 6).
    Fire {
        /// Target seat.
        target: Seat,
        /// Target cell.
        cell: Cell,
    },
    /// An area special aimed at `cell` of `target` (normalised, section 6.5a), or the corvette's
    /// shield centred on `cell` of the owner's own board (`target` = the owner).
    Special {
        /// Which ability: an area ability or the shield.
        ability: Ability,
        /// Target seat.
        target: Seat,
        /// Aim (normalised) or shield centre.
        cell: Cell,
        /// Bombing along a column; false for every other ability.
        vertical: bool,
    },
    /// The submarine's torpedo along `lane` (a row for right/left, a column for down/up).
    Torpedo {
        /// Target seat.
        target: Seat,
        /// Direction of travel.
        dir: Dir,
        /// Row or column index, 0..13.
        lane: u8,
    },
    /// The carrier's EMP on a whole player.
    Emp {
        /// Target seat.
        target: Seat,
    },
}

impl Order {
    /// The seat the order aims at, if any.
    #[must_use]
    pub const fn target(self) -> Option<Seat> {
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
        /// Seat.
        seat: Seat,
        /// Piece.
        piece: Piece,
        /// Top-left cell.
        cell: Cell,
        /// Long side along a column (false for buoys).
        vertical: bool,
    },
    /// Placement: move or rotate one of the acting seat's pieces (section 4.5a), `carrier@c3h`.
    Place {
        /// Piece.
        piece: Piece,
        /// Top-left cell.
        cell: Cell,
        /// Long side along a column (false for buoys).
        vertical: bool,
    },
    /// Placement: the layout is final (section 4.5a), `ready`.
    Ready,
    /// Chance: the first player (section 2b), `first 3`.
    First {
        /// Seat.
        seat: Seat,
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
        /// The ship.
        ship: Ship,
        /// The order.
        order: Order,
    },
}

/// The written form of a cell, `f7` (section 13b).
#[must_use]
pub fn cell_name(c: Cell) -> String {
    c.name()
}

/// Reads a cell written `a1`..`n14`.
///
/// # Errors
/// `ParseError` naming `text` when it is not a cell of the 14x14 board.
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    Cell::parse(text).ok_or_else(|| {
        ParseError::new(
            text,
            "expected a cell a1..n14 (column letter a-n, row 1-14)",
        )
    })
}

fn parse_seat(text: &str) -> Result<Seat, ParseError> {
    match text {
        "1" | "2" | "3" | "4" => Ok(Seat(text.as_bytes()[0] - b'1')),
        _ => Err(ParseError::new(text, "expected a seat 1..4")),
    }
}

fn parse_piece(text: &str) -> Result<Piece, ParseError> {
    Piece::from_name(text).ok_or_else(|| {
        ParseError::new(
            text,
            format!("expected a piece: {}", PIECE_NAMES.join(", ")),
        )
    })
}

/// `<piece>@<cell>[h|v]`: piece, cell, vertical.
fn parse_placement(text: &str) -> Result<(Piece, Cell, bool), ParseError> {
    let (name, rest) = text
        .split_once('@')
        .ok_or_else(|| ParseError::new(text, "expected <piece>@<cell>[h|v]"))?;
    let piece = parse_piece(name)?;
    if piece.is_buoy() {
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

/// `<piece>@<cell>[h|v]`, as in a placement action.
#[must_use]
pub fn format_placement(piece: Piece, cell: Cell, vertical: bool) -> String {
    let mut s = String::with_capacity(16);
    push_placement(&mut s, piece, cell, vertical);
    s
}

fn push_placement(s: &mut String, piece: Piece, cell: Cell, vertical: bool) {
    s.push_str(piece.name());
    s.push('@');
    cell.push_name(s);
    if !piece.is_buoy() {
        s.push(if vertical { 'v' } else { 'h' });
    }
}

/// A seat as the notation writes it, 1-based, as `Seat`'s `Display` does.
fn push_seat(s: &mut String, seat: Seat) {
    push_number(s, u16::from(seat.0) + 1);
}

/// `<seat>:<cell>`, an aim.
fn push_aim(s: &mut String, target: Seat, cell: Cell) {
    push_seat(s, target);
    s.push(':');
    cell.push_name(s);
}

/// The written form of an order; `shield_cell` false hides the shield's centre (public announcement,
/// section 9 rule 2). Built piece by piece rather than formatted: the move lists, the options'
/// checks and the conformance playouts write thousands of them.
#[must_use]
pub fn format_order(ship: Ship, order: &Order, shield_cell: bool) -> String {
    let mut s = String::with_capacity(32);
    s.push_str(ship.name());
    s.push(':');
    match *order {
        Order::Pass => s.push_str("pass"),
        Order::Fire { target, cell } => {
            s.push_str("fire ");
            push_aim(&mut s, target, cell);
        }
        Order::Special {
            ability: Ability::Shield,
            target,
            cell,
            ..
        } => {
            s.push_str("shield ");
            if shield_cell {
                push_aim(&mut s, target, cell);
            } else {
                push_seat(&mut s, target);
            }
        }
        Order::Special {
            ability,
            target,
            cell,
            vertical,
        } => {
            s.push_str(ability.name());
            s.push(' ');
            push_aim(&mut s, target, cell);
            match (ability, vertical) {
                (Ability::Bombing, true) => s.push('v'),
                (Ability::Bombing, false) => s.push('h'),
                _ => {}
            }
        }
        Order::Torpedo { target, dir, lane } => {
            s.push_str("torpedo ");
            push_seat(&mut s, target);
            s.push(':');
            s.push_str(dir.name());
            match dir {
                Dir::Right | Dir::Left => push_number(&mut s, u16::from(lane) + 1),
                Dir::Down | Dir::Up => s.push(char::from(b'a' + lane)),
            }
        }
        Order::Emp { target } => {
            s.push_str("emp ");
            push_seat(&mut s, target);
        }
    }
    s
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
            let mut s = String::with_capacity(16);
            push_seat(&mut s, seat);
            s.push(':');
            push_placement(&mut s, piece, cell, vertical);
            s
        }
        Action::Place {
            piece,
            cell,
            vertical,
        } => format_placement(piece, cell, vertical),
        Action::Ready => "ready".to_owned(),
        Action::First { seat } => {
            let mut s = String::from("first ");
            push_seat(&mut s, seat);
            s
        }
        Action::Rocket { cell, shot } => {
            let mut s = String::from("rocket ");
            cell.push_name(&mut s);
            s.push_str(if shot { " shot" } else { " spared" });
            s
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
    let ship = parse_piece(ship_name)?
        .ship()
        .ok_or_else(|| ParseError::new(ship_name, "buoys take no orders"))?;
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
mod tests;
