//! Reading a `naval/1` document into a checked state: every field is read, then held against the
//! rules; the first one that cannot be is named (`boards[2].hits`, `turn.orders`, ...).

use plateau_engine::{Seat, SetupError};

use super::{BoardDoc, Doc, FORMAT, TurnDoc, bad, impossible};
use crate::ability::Ability;
use crate::action::{Action, Order, parse_action};
use crate::bits::{Bits, Cell};
use crate::board::{Board, Scan, Shield};
use crate::config::Config;
use crate::energy::MAX_ENERGY;
use crate::piece::{PIECES, Piece, Ship};
use crate::state::{Announcement, EARLIER_TURNS, Effect, Naval, Phase, Resolution, Turn};

mod turn;

use turn::{read_extras, read_turn};

/// A cell list of the format: names separated by spaces, each once.
fn cells(part: &str, text: &str) -> Result<Bits, SetupError> {
    let mut out = Bits::EMPTY;
    for name in text.split_whitespace() {
        let c = Cell::parse(name)
            .ok_or_else(|| bad(part, format!("`{name}` is not a cell a1..n14")))?;
        if out.has(c) {
            return Err(bad(part, format!("{c} is listed twice")));
        }
        out.set(c);
    }
    Ok(out)
}

/// A written seat, 1 to 4.
fn seat(part: &str, n: u8) -> Result<Seat, SetupError> {
    if (1..=4).contains(&n) {
        Ok(Seat(n - 1))
    } else {
        Err(bad(part, format!("seat {n}: seats are written 1 to 4")))
    }
}

/// The first cell of `b`, written, for messages.
fn first(b: Bits) -> String {
    b.first().map_or_else(String::new, |c| c.to_string())
}

impl Naval {
    /// The checked state of a document (module doc); `config` when the document names none.
    pub(super) fn from_doc(doc: Doc, config: &Config) -> Result<Naval, SetupError> {
        if doc.format != FORMAT {
            return Err(bad(
                "format",
                format!("`{}`: this version reads `{FORMAT}`", doc.format),
            ));
        }
        let config = doc.config.unwrap_or(*config);
        config.validate()?;
        let mut g = Naval::start(&config)?;
        if doc.boards.len() != 4 {
            return Err(bad(
                "boards",
                format!("four boards, one per seat, not {}", doc.boards.len()),
            ));
        }
        for (i, e) in doc.eliminated.iter().enumerate() {
            let s = seat("eliminated", *e)?;
            if doc.eliminated[..i].contains(e) {
                return Err(impossible("eliminated", format!("seat {s} is out twice")));
            }
            g.out_order.push(s);
            g.boards[s.index()].out = true;
        }
        for (i, b) in doc.boards.iter().enumerate() {
            read_board(&mut g, &config, Seat(i as u8), b)?;
        }
        g.phase = read_phase(&g, &doc)?;
        let battle = matches!(g.phase, Phase::Battle | Phase::Over { .. });
        let shots = g
            .boards
            .iter()
            .any(|b| !b.resolved().is_empty() || !b.deflected.is_empty());
        let extras = !doc.blocks.is_empty()
            || !doc.scans.is_empty()
            || !doc.last_turn.is_empty()
            || !doc.earlier_turns.is_empty()
            || g.boards.iter().any(|b| b.energy.iter().any(|&e| e > 0))
            || doc.rounds > 0;
        match (battle, doc.first, doc.current, &doc.turn) {
            (true, Some(f), Some(c), Some(turn)) => {
                g.first = seat("first", f)?;
                g.current = seat("current", c)?;
                g.rounds = doc.rounds;
                read_turn(&mut g, turn)?;
            }
            (true, ..) => {
                return Err(bad(
                    "turn",
                    "a battle names its first player, the current seat and the turn",
                ));
            }
            (false, None, None, None) if !shots && !extras => {}
            (false, ..) => {
                return Err(impossible(
                    "phase",
                    "before the battle there is no first player, turn, shot, energy, block, \
                     scan or round",
                ));
            }
        }
        read_extras(&mut g, &doc)?;
        check_play(&g)?;
        Ok(g)
    }
}

/// One board's fleet and markers.
fn read_board(g: &mut Naval, config: &Config, s: Seat, d: &BoardDoc) -> Result<(), SetupError> {
    let at = |field: &str| format!("boards[{}].{field}", s.index());
    if d.fleet.len() > PIECES {
        return Err(bad(
            at("fleet"),
            format!("{} pieces: a fleet has 9", d.fleet.len()),
        ));
    }
    let mut b = Board {
        out: g.boards[s.index()].out,
        ..Board::default()
    };
    for (j, text) in d.fleet.iter().enumerate() {
        let Ok(Action::Place {
            piece,
            cell,
            vertical,
        }) = parse_action(text)
        else {
            return Err(bad(
                at("fleet"),
                format!("`{text}` is not a piece placement"),
            ));
        };
        if piece.index() != j {
            return Err(impossible(
                at("fleet"),
                format!(
                    "`{text}`: piece {} of a fleet is the {}",
                    j + 1,
                    Piece::ALL[j].name()
                ),
            ));
        }
        let mask = piece
            .footprint(cell, vertical)
            .ok_or_else(|| impossible(at("fleet"), format!("`{text}` leaves the board")))?;
        if mask.meets(b.occ) {
            return Err(impossible(
                at("fleet"),
                format!("`{text}` lies on another piece (section 4.3)"),
            ));
        }
        b.placed = j as u8 + 1;
        b.put(piece, cell, vertical, mask);
    }
    b.hit = cells(&at("hits"), &d.hits)?;
    b.miss = cells(&at("misses"), &d.misses)?;
    b.deflected = cells(&at("deflected"), &d.deflected)?;
    if let Some(c) = (b.hit & !b.occ).first() {
        return Err(impossible(
            at("hits"),
            format!("{c} is water: a hit is on a piece"),
        ));
    }
    if let Some(c) = (b.miss & b.occ).first() {
        return Err(impossible(
            at("misses"),
            format!("{c} holds a piece: a miss is on water"),
        ));
    }
    for ship in Ship::ALL.into_iter().take(usize::from(b.placed)) {
        if b.mask(ship.piece()).within(b.hit) {
            b.sunk |= ship.bit();
        }
    }
    for (ship, &e) in Ship::ALL.iter().zip(&d.energy) {
        if e > MAX_ENERGY {
            return Err(impossible(
                at("energy"),
                format!("the {} has {e}: a meter stops at {MAX_ENERGY}", ship.name()),
            ));
        }
        if b.is_sunk(*ship) && e > 0 {
            return Err(impossible(
                at("energy"),
                format!("the {} is sunk, so its energy is 0, not {e}", ship.name()),
            ));
        }
    }
    b.energy = d.energy;
    if d.emp > config.emp_turns {
        return Err(impossible(
            at("emp"),
            format!(
                "{} turns lost to an EMP; it takes {}",
                d.emp, config.emp_turns
            ),
        ));
    }
    if d.immune && d.emp > 0 {
        return Err(impossible(
            at("immune"),
            "immune while still disabled by an EMP",
        ));
    }
    (b.emp_left, b.immune) = (d.emp, d.immune);
    if d.moves > config.placement_moves {
        return Err(impossible(
            at("moves"),
            format!(
                "{} placement moves; at most {}",
                d.moves, config.placement_moves
            ),
        ));
    }
    (b.ready, b.moves, b.frigate_shown) = (d.ready, d.moves, d.frigate_shown);
    if let Some(sh) = &d.shield {
        b.shield = read_shield(config, &b, sh).map_err(|why| impossible(at("shield"), why))?;
        if b.out {
            return Err(impossible(
                at("shield"),
                "an eliminated seat has no shield up",
            ));
        }
    }
    b.lane_clear = cells(&at("torpedo_clear"), &d.torpedo_clear)?;
    b.ship_known = cells(&at("torpedo_triggers"), &d.torpedo_triggers)?;
    b.sub_known = cells(&at("charges_hit"), &d.charges_hit)?;
    b.sub_clear = cells(&at("charges_clear"), &d.charges_clear)?;
    b.first_hits = read_first_hits(&b, &at("first_hits"), &d.first_hits)?;
    let sub = b.mask(Piece::Submarine);
    let checks = [
        (
            b.lane_clear & b.live_ships(),
            "torpedo_clear",
            "holds an unsunk ship",
        ),
        (
            b.ship_known & !b.ships(),
            "torpedo_triggers",
            "holds no ship",
        ),
        (b.sub_known & !sub, "charges_hit", "is not the submarine's"),
        (b.sub_clear & sub, "charges_clear", "is the submarine's"),
    ];
    for (wrong, field, why) in checks {
        if !wrong.is_empty() {
            return Err(impossible(at(field), format!("{} {why}", first(wrong))));
        }
    }
    if b.frigate_shown && b.placed <= Piece::Frigate as u8 {
        return Err(impossible(at("frigate_shown"), "no frigate is placed"));
    }
    if b.sunk == (1 << 6) - 1 && !b.out {
        return Err(impossible(
            "eliminated",
            format!("every ship of seat {s} is sunk, so it is out (section 12.1)"),
        ));
    }
    g.boards[s.index()] = b;
    Ok(())
}

/// An active shield.
fn read_shield(config: &Config, b: &Board, d: &super::ShieldDoc) -> Result<Shield, String> {
    let centre = Cell::parse(&d.centre).ok_or_else(|| format!("centre `{}`", d.centre))?;
    if b.mask(Piece::Corvette).has(centre) {
        return Err("a shield is not centred on the corvette (section 10.1)".into());
    }
    let own = Ship::ALL
        .into_iter()
        .filter(|&k| k != Ship::Corvette)
        .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()));
    if !own.has(centre) {
        return Err(format!(
            "{centre} is no cell of the owner's ships (section 10.1)"
        ));
    }
    if !(1..=config.shield_charges).contains(&d.charges) {
        return Err(format!(
            "{} charges; a shield up holds 1 to {}",
            d.charges, config.shield_charges
        ));
    }
    let cast_resolved = cells("cast_resolved", &d.cast_resolved).map_err(|e| e.to_string())?;
    if !cast_resolved.within(b.resolved()) {
        return Err("cells resolved at the cast are resolved still".into());
    }
    Ok(Shield {
        active: true,
        public: d.public,
        centre,
        area: Ability::Shield.area(centre, false),
        charges: d.charges,
        cast_resolved,
    })
}

/// The phase against the fleets and ready flags.
fn read_phase(g: &Naval, doc: &Doc) -> Result<Phase, SetupError> {
    let placed: Vec<usize> = g.boards.iter().map(|b| usize::from(b.placed)).collect();
    let full = placed.iter().all(|&p| p == PIECES);
    let ready = g.boards.iter().all(|b| b.ready);
    let layout_node = placed
        .iter()
        .position(|&p| p < PIECES)
        .map(|s| (Seat(s as u8), Piece::ALL[placed[s]]));
    let phase = match doc.phase.as_str() {
        "layout" => {
            let Some((seat, piece)) = layout_node else {
                return Err(impossible(
                    "phase",
                    "every piece is laid out: the layout is over",
                ));
            };
            if placed[seat.index() + 1..].iter().any(|&p| p > 0) {
                return Err(impossible(
                    "boards",
                    "the layout draws seat by seat: a later seat has pieces before this one is done",
                ));
            }
            Phase::Layout { seat, piece }
        }
        "placement" if ready => {
            return Err(impossible(
                "phase",
                "every seat is ready: placement is over",
            ));
        }
        "placement" => Phase::Placement,
        "first_player" => Phase::FirstPlayer,
        "battle" => Phase::Battle,
        "over" => Phase::Over { limit: false },
        "over_round_limit" => Phase::Over { limit: true },
        other => return Err(bad("phase", format!("`{other}` is no phase"))),
    };
    let laid_out = !matches!(phase, Phase::Layout { .. });
    if laid_out && !full {
        return Err(impossible(
            "boards",
            "after the layout every fleet has its 9 pieces",
        ));
    }
    // A seat that resigns is ready at once, whatever the phase (docs/rulings.md, Bataille
    // Navale 8).
    if !laid_out && g.boards.iter().any(|b| (b.ready && !b.out) || b.moves > 0) {
        return Err(impossible(
            "boards",
            "nobody moves or is ready while the layout is drawn",
        ));
    }
    let after_placement = !matches!(phase, Phase::Layout { .. } | Phase::Placement);
    if after_placement && !ready {
        return Err(impossible(
            "boards",
            "after the placement every seat is ready",
        ));
    }
    Ok(phase)
}

/// Who plays and when the game ends, against the boards.
fn check_play(g: &Naval) -> Result<(), SetupError> {
    let alive = g.alive_count();
    match g.phase {
        Phase::Battle => {
            if alive < 2 {
                return Err(impossible("phase", "one fleet is left: the game is over"));
            }
            if g.board(g.current).out || g.board(g.current).emp_left > 0 {
                return Err(impossible(
                    "current",
                    format!("seat {} cannot play: it is out or disabled", g.current),
                ));
            }
            if g.rounds >= g.config.max_rounds {
                return Err(impossible(
                    "rounds",
                    "the round limit is reached: the game is over",
                ));
            }
        }
        Phase::Over { limit: false } if alive != 1 => {
            return Err(impossible(
                "phase",
                format!("{alive} fleets left: the game goes on"),
            ));
        }
        Phase::Over { limit: true } if g.rounds != g.config.max_rounds => {
            return Err(impossible(
                "rounds",
                format!(
                    "ended by the round limit after {} rounds, not {}",
                    g.config.max_rounds, g.rounds
                ),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The board's first hits (one per piece hit, section 7.1): as written, or when the field is
/// absent, each hit piece's first hit cell in row-major order.
///
/// # Errors
/// `SetupError::Impossible` naming `part` when a written cell is not a hit, or a hit piece has
/// none or several of them.
fn read_first_hits(b: &Board, part: &str, text: &str) -> Result<Bits, SetupError> {
    let written = cells(part, text)?;
    let mut first_hits = Bits::EMPTY;
    for p in b.placed_pieces() {
        let hits = b.mask(p) & b.hit;
        let firsts = hits & written;
        if text.is_empty() {
            first_hits |= hits.first().map_or(Bits::EMPTY, Bits::cell);
        } else if !hits.is_empty() && firsts.count() != 1 {
            return Err(impossible(
                part,
                format!(
                    "the {} is hit, so exactly one of its hits is its first, not {}",
                    p.name(),
                    firsts.count()
                ),
            ));
        } else {
            first_hits |= firsts;
        }
    }
    if let Some(c) = (written & !first_hits).first() {
        return Err(impossible(part, format!("{c} is not a hit")));
    }
    Ok(first_hits)
}

#[cfg(test)]
mod tests {
    use plateau_engine::Game;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The board fields of a late battle state's document, and the state.
    fn late_document() -> (Naval, serde_json::Value) {
        let g = Naval::late_battle_states(&mut ChaCha8Rng::seed_from_u64(5), 1, 40)
            .pop()
            .unwrap();
        let doc = serde_json::from_str(&g.format_position()).unwrap();
        (g, doc)
    }

    fn read(doc: &serde_json::Value) -> Result<Naval, SetupError> {
        Naval::parse_position(&Config::default(), &doc.to_string())
    }

    /// Without the field each hit piece's first hit is its first hit cell in row-major order;
    /// a written list is kept as written.
    #[test]
    fn first_hits_are_read_or_derived() {
        let (g, mut doc) = late_document();
        assert_eq!(read(&doc).unwrap().boards, g.boards);
        for b in doc["boards"].as_array_mut().unwrap() {
            b.as_object_mut().unwrap().remove("first_hits");
        }
        let derived = read(&doc).unwrap();
        let mut hit_pieces = 0;
        for (b, truth) in derived.boards.iter().zip(&g.boards) {
            for p in b.placed_pieces() {
                let hits = b.mask(p) & b.hit;
                let expected = hits.first().map_or(Bits::EMPTY, Bits::cell);
                assert_eq!(b.mask(p) & b.first_hits, expected, "{p:?}");
                hit_pieces += u32::from(!hits.is_empty());
            }
            assert_eq!(b.first_hits.count(), truth.first_hits.count());
        }
        assert!(hit_pieces >= 8, "{hit_pieces} pieces hit");
    }

    /// A written list must name one hit per hit piece and nothing else.
    #[test]
    fn wrong_first_hits_are_refused_by_name() {
        let (g, mut doc) = late_document();
        let (t, b) = g
            .boards
            .iter()
            .enumerate()
            .find(|(_, b)| b.miss.count() > 0 && (b.hit & !b.first_hits).count() > 0)
            .unwrap();
        let field = format!("boards[{t}].first_hits");
        let names = |bits: Bits| bits.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let mut with = |extra: Cell| {
            let mut list = names(b.first_hits);
            list.push(extra.to_string());
            doc["boards"][t]["first_hits"] = list.join(" ").into();
            read(&doc).unwrap_err().to_string()
        };
        let miss = b.miss.first().unwrap();
        let e = with(miss);
        assert!(
            e.contains(&field) && e.contains(&format!("{miss} is not a hit")),
            "{e}"
        );
        let later = (b.hit & !b.first_hits).first().unwrap();
        let e = with(later);
        assert!(
            e.contains(&field) && e.contains("exactly one of its hits"),
            "{e}"
        );
    }
}
