//! An action as the engine describes it to clients (`ActionInfo`, docs/protocol.md section 4.1)
//! and as a seat names it by its parts (`ActionParts`, section 4.2).

use plateau_engine::{ActionInfo, ActionParts, ParseError, Seat};

use super::*;

/// The parts of `action` (docs/protocol.md section 4.1, `legal_info`). Cells are written as in
/// the notation (`f7`), seats 0-based in `target`, pieces and ships by name:
/// - `place` (a placement move: the piece, its top-left cell `to`, the cells it would cover,
///   `h` or `v` as `choice` for a ship), `ready`;
/// - an order of the ship in `pieces`: `pass`, `fire` (the cell `to` of seat `target`), the
///   ability's name for a special (`to` the aim, `cells` its area, section 6.5; a bombing's
///   `choice` is `h` or `v`), `torpedo` (its lane's cells in travel order, the first as `to`,
///   the direction as `choice`), `emp` (`target` only);
/// - chance: `layout` (as `place`, for seat `target`), `first` (`target`), `rocket` (`to`,
///   `choice` `shot` or `spared`).
#[must_use]
pub fn action_info(action: &Action) -> ActionInfo {
    let cells = |bits: Bits| bits.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let placed = |kind, piece: Piece, cell: Cell, vertical: bool| ActionInfo {
        to: Some(cell.to_string()),
        cells: piece
            .footprint(cell, vertical)
            .map(cells)
            .unwrap_or_default(),
        pieces: vec![piece.name().to_owned()],
        choice: (!piece.is_buoy()).then(|| if vertical { "v" } else { "h" }.to_owned()),
        ..ActionInfo::new(kind)
    };
    match *action {
        Action::Layout {
            seat,
            piece,
            cell,
            vertical,
        } => ActionInfo {
            target: Some(seat.0),
            ..placed("layout", piece, cell, vertical)
        },
        Action::Place {
            piece,
            cell,
            vertical,
        } => placed("place", piece, cell, vertical),
        Action::Ready => ActionInfo::new("ready"),
        Action::First { seat } => ActionInfo {
            target: Some(seat.0),
            ..ActionInfo::new("first")
        },
        Action::Rocket { cell, shot } => ActionInfo {
            to: Some(cell.to_string()),
            choice: Some(if shot { "shot" } else { "spared" }.to_owned()),
            ..ActionInfo::new("rocket")
        },
        Action::Order { ship, order } => order_info(ship, &order, true),
    }
}

/// The parts of `ship`'s `order` (`action_info` of it); with `shield_cell` false, a shield's
/// without its centre and area, as the announcement of section 13 gives it to all but its caster.
#[must_use]
pub fn order_info(ship: Ship, order: &Order, shield_cell: bool) -> ActionInfo {
    let cells = |bits: Bits| bits.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let info = match *order {
        Order::Special {
            ability: Ability::Shield,
            ..
        } if !shield_cell => ActionInfo::new(Ability::Shield.name()),
        Order::Pass => ActionInfo::new("pass"),
        Order::Fire { cell, .. } => ActionInfo {
            to: Some(cell.to_string()),
            ..ActionInfo::new("fire")
        },
        Order::Special {
            ability,
            cell,
            vertical,
            ..
        } => ActionInfo {
            to: Some(cell.to_string()),
            cells: cells(ability.area(cell, vertical)),
            choice: (ability == Ability::Bombing)
                .then(|| if vertical { "v" } else { "h" }.to_owned()),
            ..ActionInfo::new(ability.name())
        },
        Order::Torpedo { dir, lane, .. } => ActionInfo {
            to: dir.lane(lane).next().map(|c| c.to_string()),
            cells: dir.lane(lane).map(|c| c.to_string()).collect(),
            choice: Some(dir.name().to_owned()),
            ..ActionInfo::new("torpedo")
        },
        Order::Emp { .. } => ActionInfo::new("emp"),
    };
    ActionInfo {
        pieces: vec![ship.name().to_owned()],
        target: order.target().map(|s| s.0),
        ..info
    }
}

/// The action a seat names by its parts (docs/protocol.md section 4.2), the fields `action_info`
/// gives it:
/// - `place` with the `piece` by name, its top-left cell `to` and, for a ship, `choice` `h` or
///   `v` (a buoy has none); `ready`;
/// - an order of the ship `piece`: `pass`; `fire` at cell `to` of seat `target`; an area special
///   or the shield by the ability's name, aimed at `to` of `target` (an area's aim is normalised
///   as in the text, section 6.5a; the bombing's `choice` is `h` or `v`); `torpedo` at `target`
///   along the lane whose first cell in travel order is `to`, `choice` the direction (`right`,
///   `left`, `down`, `up`); `emp` at `target`.
///
/// Whether the action is legal is not judged here: the text it names is then played as if sent.
///
/// # Errors
/// `ParseError` for a kind the seat never sends (a chance outcome's), an unknown piece, a buoy
/// given an order, a missing or bad cell, seat or orientation, an orientation given where there is
/// none, or a torpedo whose `to` does not start a lane in its direction.
pub fn action_from_parts(parts: &ActionParts) -> Result<Action, ParseError> {
    let kind = parts.kind.as_str();
    let special = ABILITIES
        .into_iter()
        .find(|a| a.name() == kind && (a.is_area() || *a == Ability::Shield));
    // The parts each kind takes: any other part given is refused, never ignored.
    let takes: &[&str] = match kind {
        "ready" => &[],
        "place" => &["piece", "to", "choice"],
        "pass" => &["piece"],
        "emp" => &["piece", "target"],
        "fire" => &["piece", "target", "to"],
        "torpedo" | "bombing" => &["piece", "target", "to", "choice"],
        _ if special.is_some() => &["piece", "target", "to"],
        "layout" | "first" | "rocket" => {
            return Err(ParseError::new(
                kind,
                "chance outcomes are not played by a seat",
            ));
        }
        _ => {
            return Err(ParseError::new(
                kind,
                "expected a kind of action: place, ready, pass, fire, an ability's name, torpedo or emp",
            ));
        }
    };
    for (name, given) in [
        ("piece", parts.piece.is_some()),
        ("target", parts.target.is_some()),
        ("to", parts.to.is_some()),
        ("choice", parts.choice.is_some()),
    ] {
        if given && !takes.contains(&name) {
            return Err(ParseError::new(name, format!("`{kind}` takes no `{name}`")));
        }
    }
    let cell = || {
        let to = parts.to.as_deref().unwrap_or_default();
        Cell::parse(to).ok_or_else(|| ParseError::new(to, "`to` must be a cell from a1 to n14"))
    };
    let piece = || {
        let name = parts.piece.as_deref().unwrap_or_default();
        Piece::from_name(name)
            .ok_or_else(|| ParseError::new(name, "`piece` must name one of the fleet's pieces"))
    };
    let target = || match parts.target {
        Some(t) if t < 4 => Ok(Seat(t)),
        Some(t) => Err(ParseError::new(
            t.to_string(),
            "`target` must be a seat from 0 to 3 (counted from 0, as in `legal_info`)",
        )),
        None => Err(ParseError::new(kind, "this order needs a `target` seat")),
    };
    if kind == "ready" {
        return Ok(Action::Ready);
    }
    if kind == "place" {
        let piece = piece()?;
        let vertical = match (piece.is_buoy(), parts.choice.as_deref()) {
            (true, None) | (false, Some("h")) => false,
            (false, Some("v")) => true,
            (true, Some(c)) => return Err(ParseError::new(c, "a buoy has no orientation")),
            (false, c) => {
                return Err(ParseError::new(
                    c.unwrap_or_default(),
                    "a ship's `choice` must be `h` or `v`",
                ));
            }
        };
        return Ok(Action::Place {
            piece,
            cell: cell()?,
            vertical,
        });
    }
    let ship = piece()?
        .ship()
        .ok_or_else(|| ParseError::new(kind, "buoys take no orders"))?;
    let order = match (kind, special) {
        ("pass", _) => Order::Pass,
        ("emp", _) => Order::Emp { target: target()? },
        ("fire", _) => Order::Fire {
            target: target()?,
            cell: cell()?,
        },
        ("torpedo", _) => {
            let choice = parts.choice.as_deref().unwrap_or_default();
            let dir = DIRS
                .into_iter()
                .find(|d| d.name() == choice)
                .ok_or_else(|| {
                    ParseError::new(choice, "a torpedo's `choice` is right, left, down or up")
                })?;
            let from = cell()?;
            let lane = if dir.along_row() {
                from.row()
            } else {
                from.col()
            };
            if dir.lane(lane).next() != Some(from) {
                return Err(ParseError::new(
                    from.to_string(),
                    "a torpedo's `to` is the cell its lane enters by",
                ));
            }
            Order::Torpedo {
                target: target()?,
                dir,
                lane,
            }
        }
        (_, special) => {
            // Every other kind was refused above.
            let ability = special.ok_or_else(|| ParseError::new(kind, "unknown kind"))?;
            let vertical = match (ability == Ability::Bombing, parts.choice.as_deref()) {
                (false, _) | (true, Some("h")) => false,
                (true, Some("v")) => true,
                (true, c) => {
                    return Err(ParseError::new(
                        c.unwrap_or_default(),
                        "a bombing's `choice` must be `h` or `v`",
                    ));
                }
            };
            let cell = cell()?;
            Order::Special {
                ability,
                target: target()?,
                cell: if ability == Ability::Shield {
                    cell
                } else {
                    ability.normalise(cell, vertical)
                },
                vertical,
            }
        }
    };
    Ok(Action::Order { ship, order })
}
