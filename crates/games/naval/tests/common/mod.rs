//! Helpers shared by the test files: set-up of exact layouts and whole turns in notation.
#![allow(dead_code)]

use plateau_engine::{Actor, Game, Seat, ToAct};
use plateau_naval::action::parse_cell;
use plateau_naval::bits::{Bits, Cell};
use plateau_naval::piece::PIECE_NAMES;
use plateau_naval::{Config, Naval, Phase};

/// The layout used when a test does not care: carrier rows 1-2, then one ship per odd row from
/// row 4, buoys down column n.
pub const DEFAULT: &str = "carrier@a1h cruiser@a4h battleship@a6h frigate@a8h submarine@a10h corvette@a12h buoy1@n1 buoy2@n3 buoy3@n5";

/// A game after the layout nodes (`""` = `DEFAULT`), all seats ready and `first` drawn.
pub fn setup(layouts: [&str; 4], first: u8) -> Naval {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    for (s, layout) in layouts.iter().enumerate() {
        let layout = if layout.is_empty() { DEFAULT } else { layout };
        let mut items: Vec<&str> = layout.split_whitespace().collect();
        items.sort_by_key(|t| {
            PIECE_NAMES
                .iter()
                .position(|n| t.starts_with(&format!("{n}@")))
        });
        assert_eq!(items.len(), 9, "a layout names nine pieces");
        for item in items {
            let text = format!("{}:{item}", s + 1);
            apply(&mut g, Actor::Chance, &text);
        }
    }
    for s in 0..4 {
        apply(&mut g, Actor::Seat(Seat(s)), "ready");
    }
    apply(&mut g, Actor::Chance, &format!("first {}", first + 1));
    g
}

/// Applies `text` for `actor`, panicking with the refusal.
pub fn apply(g: &mut Naval, actor: Actor, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(actor, &a)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
}

/// Tries `text` as the acting seat's next action; the refusal message on error.
pub fn try_order(g: &mut Naval, text: &str) -> Result<(), String> {
    let a = g.parse_action(text).map_err(|e| e.to_string())?;
    let seat = match g.to_act() {
        ToAct::Player(s) => s,
        other => return Err(format!("nobody to order: {other:?}")),
    };
    g.apply(Actor::Seat(seat), &a).map_err(|e| e.to_string())
}

/// The current seat gives `orders` (by ship name) and passes with every other valid ship, in
/// importance order. Stops at a rocket node or when the turn has resolved.
pub fn turn(g: &mut Naval, orders: &[&str]) {
    let ToAct::Player(seat) = g.to_act() else {
        panic!("no seat to act: {:?}", g.to_act())
    };
    while g.to_act() == ToAct::Player(seat) && !g.turn.resolving {
        let ship = g.turn.next.expect("a ship to order").name();
        let given = orders.iter().find(|o| o.starts_with(&format!("{ship}:")));
        let text = given.map_or(format!("{ship}:pass"), |o| (*o).to_owned());
        apply(g, Actor::Seat(seat), &text);
        if g.turn.given == 0 {
            break; // the turn resolved and the next one began
        }
    }
}

/// Draws the pending rocket node.
pub fn rocket(g: &mut Naval, shot: bool) {
    let c = g.rocket_cell().expect("a rocket node");
    let text = format!(
        "rocket {} {}",
        plateau_naval::action::cell_name(c),
        if shot { "shot" } else { "spared" }
    );
    apply(g, Actor::Chance, &text);
}

/// The cell written `name`.
pub fn cell(name: &str) -> Cell {
    parse_cell(name).unwrap()
}

/// The set of cells written in `names`.
pub fn cells(names: &str) -> Bits {
    let mut b = Bits::EMPTY;
    for n in names.split_whitespace() {
        b.set(cell(n));
    }
    b
}

/// Seat `t` out of the game: every ship cell hit, every ship sunk.
pub fn knock_out(g: &mut Naval, t: usize) {
    let b = &mut g.boards[t];
    for k in 0..6 {
        b.hit |= b.masks[k];
    }
    b.sunk = 0b11_1111;
    b.energy = [0; 6];
    b.out = true;
    g.out_order.push(Seat(t as u8));
}

/// Ship `k` of seat `t` sunk.
pub fn sink(g: &mut Naval, t: usize, k: usize) {
    let b = &mut g.boards[t];
    b.hit |= b.masks[k];
    b.sunk |= 1 << k;
    b.energy[k] = 0;
}

/// Whether the game is over.
pub fn over(g: &Naval) -> bool {
    matches!(g.phase, Phase::Over { .. })
}
