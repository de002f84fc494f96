//! The play in progress in a `naval/1` document: the turn's orders, resolution and rocket, the
//! blocks and scans, and the announcements of the last turns.

use super::*;

/// The turn in progress: orders given in importance order, resolution, rocket.
pub(super) fn read_turn(g: &mut Naval, d: &TurnDoc) -> Result<(), SetupError> {
    let s = g.current;
    let mut turn = Turn::default();
    let mut last: Option<Ship> = None;
    for text in &d.orders {
        let Ok(Action::Order { ship, order }) = parse_action(text) else {
            return Err(bad("turn.orders", format!("`{text}` is not an order")));
        };
        if last.is_some_and(|l| l >= ship) {
            return Err(impossible(
                "turn.orders",
                format!("`{text}`: orders go once per ship, in importance order"),
            ));
        }
        if g.board(s).is_sunk(ship) {
            return Err(impossible(
                "turn.orders",
                format!("`{text}`: the {} is sunk", ship.name()),
            ));
        }
        turn.orders[ship.index()] = order;
        turn.given |= ship.bit();
        last = Some(ship);
    }
    let over = matches!(g.phase, Phase::Over { .. });
    // The ships due an order before the next one: every unsunk ship once the plan resolves.
    let next = if d.resolving {
        None
    } else {
        g.next_ship(s, last.map_or(Some(Ship::Carrier), Ship::next))
    };
    let due = Ship::ALL
        .into_iter()
        .take_while(|&k| Some(k) != next)
        .filter(|&k| !g.board(s).is_sunk(k))
        .fold(0u8, |a, k| a | k.bit());
    if turn.given != due {
        return Err(impossible(
            "turn.orders",
            "every unsunk ship before the one to order next has its order, and no other",
        ));
    }
    if next.is_none() && !d.resolving && !over {
        return Err(impossible(
            "turn.resolving",
            "every ship has its order: the plan resolves (section 5.3a)",
        ));
    }
    turn.resolving = d.resolving;
    turn.next = if over { None } else { next };
    turn.cursor = match (&d.cursor, d.resolving) {
        (None, false) => Some(Ship::Carrier),
        (None, true) if over => None,
        (None, true) => {
            return Err(impossible(
                "turn.cursor",
                "a plan resolving names the ship resolving",
            ));
        }
        (Some(_), false) => {
            return Err(impossible(
                "turn.cursor",
                "no ship resolves before the plan is complete",
            ));
        }
        (Some(name), true) => Some(
            Piece::from_name(name)
                .and_then(Piece::ship)
                .ok_or_else(|| bad("turn.cursor", format!("`{name}` is not a ship")))?,
        ),
    };
    for (&gain, ship) in d.miss_gain.iter().zip(Ship::ALL) {
        if gain > g.config.gains.miss_cap {
            return Err(impossible(
                "turn.miss_gain",
                format!(
                    "the {} gained {gain} from misses; at most {}",
                    ship.name(),
                    g.config.gains.miss_cap
                ),
            ));
        }
    }
    turn.miss_gain = d.miss_gain;
    if let Some(text) = &d.rocket {
        let cell = Cell::parse(text).ok_or_else(|| bad("turn.rocket", format!("`{text}`")))?;
        let salvo = turn.cursor.map(|k| turn.order(k));
        let Some(Order::Special {
            ability: Ability::Rockets,
            target,
            cell: aim,
            ..
        }) = salvo
        else {
            return Err(impossible("turn.rocket", "no rocket salvo is resolving"));
        };
        if over
            || !Ability::Rockets.area(aim, false).has(cell)
            || target.index() >= 4
            || g.board(target).resolved().has(cell)
        {
            return Err(impossible(
                "turn.rocket",
                format!("{cell} is no unresolved cell of the salvo's area"),
            ));
        }
        turn.rocket = Some(cell);
    }
    g.turn = turn;
    Ok(())
}

/// Blocks, scans and the last turn's announcements.
pub(super) fn read_extras(g: &mut Naval, doc: &Doc) -> Result<(), SetupError> {
    for b in &doc.blocks {
        let (t, o) = (seat("blocks", b.board)?, seat("blocks", b.owner)?);
        if t == o || g.board(o).out {
            return Err(impossible(
                "blocks",
                format!(
                    "seat {o} holds no block on board {t}: blocks are the shooter's, on others' boards, while it plays (section 7)"
                ),
            ));
        }
        let slot = &mut g.blocks[t.index()][o.index()];
        if !slot.is_empty() {
            return Err(bad(
                "blocks",
                format!("board {t}, owner {o} is listed twice"),
            ));
        }
        *slot = cells("blocks", &b.cells)?;
    }
    for d in &doc.scans {
        let (c, t) = (seat("scans", d.caster)?, seat("scans", d.board)?);
        if c == t {
            return Err(impossible(
                "scans",
                format!("seat {c} scanned its own board"),
            ));
        }
        let scan = Scan {
            satellite: cells("scans", &d.satellite)?,
            sonar: cells("scans", &d.sonar)?,
            radar: cells("scans", &d.radar)?,
        };
        if g.scans[c.index()][t.index()] != Scan::default() {
            return Err(bad(
                "scans",
                format!("caster {c}, board {t} is listed twice"),
            ));
        }
        g.scans[c.index()][t.index()] = scan;
    }
    for a in &doc.last_turn {
        let a = announcement(g, "last_turn", a)?;
        g.last_turn.push(a);
    }
    if doc.earlier_turns.len() > EARLIER_TURNS {
        return Err(bad(
            "earlier_turns",
            format!("at most {EARLIER_TURNS} turns are kept before the last one"),
        ));
    }
    for (i, turn) in doc.earlier_turns.iter().enumerate() {
        let part = format!("earlier_turns[{i}]");
        let turn = turn
            .iter()
            .map(|a| announcement(g, &part, a))
            .collect::<Result<Vec<_>, _>>()?;
        if turn.is_empty() || turn.iter().any(|a| a.seat != turn[0].seat) {
            return Err(impossible(
                part,
                "a turn is one seat's orders, at least one",
            ));
        }
        g.earlier_turns.push(turn);
    }
    Ok(())
}

/// One announced order (`last_turn`, `earlier_turns`): its seat, order and result, and the
/// markers it left, which must be on the board it struck (they stay there for good).
fn announcement(
    g: &Naval,
    part: &str,
    a: &crate::position::AnnouncementDoc,
) -> Result<Announcement, SetupError> {
    let s = seat(part, a.seat)?;
    let Ok(Action::Order { ship, order }) = parse_action(&a.order) else {
        return Err(bad(part, format!("`{}` is not an order", a.order)));
    };
    let result = match a.result.as_str() {
        "done" => Resolution::Done,
        "cancelled" => Resolution::Cancelled,
        "wasted" => Resolution::Wasted,
        "fizzled" => Resolution::Fizzled,
        other => match other.strip_prefix("exploded ").and_then(Cell::parse) {
            Some(c) => Resolution::Exploded(c),
            None => return Err(bad(part, format!("`{other}` is no result"))),
        },
    };
    let mut sunk = 0;
    for name in &a.sunk {
        let ship = Ship::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| bad(part, format!("`{name}` is not a ship")))?;
        sunk |= ship.bit();
    }
    let effect = Effect {
        hits: cells(part, &a.hits)?,
        misses: cells(part, &a.misses)?,
        deflected: cells(part, &a.deflected)?,
        sunk,
    };
    if !effect.is_empty() {
        let Some(t) = order.target().filter(|&t| t.index() < 4) else {
            return Err(impossible(
                part,
                format!("`{}` shoots at no board", a.order),
            ));
        };
        let b = g.board(t);
        let stray =
            (effect.hits & !b.hit) | (effect.misses & !b.miss) | (effect.deflected & !b.deflected);
        if !stray.is_empty() {
            return Err(impossible(
                part,
                format!("{} is not marked so on board {t}", first(stray)),
            ));
        }
        if effect.sunk & !b.sunk != 0 {
            return Err(impossible(
                part,
                format!("a ship it sank is afloat on board {t}"),
            ));
        }
    }
    Ok(Announcement {
        seat: s,
        ship,
        order,
        result,
        effect,
    })
}
