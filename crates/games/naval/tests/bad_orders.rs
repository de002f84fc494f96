//! Bad orders (rules/naval.md section 13b) are refused with a clear message and change nothing.

use crate::common;

use common::*;
use plateau_engine::{Actor, Game, Seat};
use plateau_naval::Naval;
use plateau_naval::Ship;

/// Applies `text` for the acting seat; asserts it is refused with a message containing `needle`
/// and that the state's JSON is unchanged.
fn refused(g: &mut Naval, text: &str, needle: &str) {
    let before = serde_json::to_string(&*g).unwrap();
    let err = try_order(g, text).unwrap_err();
    assert!(
        err.contains(needle),
        "`{text}`: `{err}` does not mention `{needle}`"
    );
    assert_eq!(
        serde_json::to_string(&*g).unwrap(),
        before,
        "`{text}` changed the state"
    );
}

#[test]
fn two_orders_for_one_ship() {
    let mut g = setup(["", "", "", ""], 0);
    try_order(&mut g, "carrier:fire 2:k10").unwrap();
    refused(
        &mut g,
        "carrier:fire 2:k11",
        "the carrier already has its order this turn",
    );
}

#[test]
fn special_without_energy() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 399;
    refused(
        &mut g,
        "carrier:bombing 2:k10h",
        "the carrier has 399 energy; bombing costs 400",
    );
}

#[test]
fn special_of_another_ship() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 1000;
    refused(
        &mut g,
        "carrier:torpedo 2:right4",
        "the carrier has no torpedo",
    );
}

#[test]
fn torpedo_at_the_opposite_board() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    for ship in ["carrier", "cruiser", "battleship", "frigate"] {
        try_order(&mut g, &format!("{ship}:pass")).unwrap();
    }
    refused(&mut g, "submarine:torpedo 3:right4", "seat 3 sits opposite");
    refused(
        &mut g,
        "submarine:torpedo 2:downc",
        "enters seat 2's board moving right",
    );
}

#[test]
fn target_on_an_eliminated_board() {
    let mut g = setup(["", "", "", ""], 0);
    knock_out(&mut g, 2);
    refused(&mut g, "carrier:fire 3:k10", "seat 3 is eliminated");
    g.boards[0].energy[Ship::Carrier as usize] = 1000;
    refused(&mut g, "carrier:emp 3", "seat 3 is eliminated");
}

#[test]
fn target_on_a_blocked_cell() {
    let mut g = setup(["", "", "", ""], 0);
    g.blocks[1][3] = cells("k10 k11");
    refused(&mut g, "carrier:fire 2:k10", "2:k10 is blocked by seat 4");
}

#[test]
fn shield_centred_on_the_corvette() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Corvette as usize] = 350;
    for ship in ["carrier", "cruiser", "battleship", "frigate", "submarine"] {
        try_order(&mut g, &format!("{ship}:pass")).unwrap();
    }
    refused(
        &mut g,
        "corvette:shield 1:a12",
        "a shield cannot be centred on the corvette",
    );
    refused(
        &mut g,
        "corvette:shield 2:a4",
        "the shield goes on your own board",
    );
    refused(
        &mut g,
        "corvette:shield 1:k10",
        "must be a cell of one of your unsunk ships",
    );
}

#[test]
fn other_refusals() {
    let mut g = setup(["", "", "", ""], 0);
    refused(
        &mut g,
        "cruiser:fire 2:k10",
        "orders go in importance order: the carrier is next",
    );
    refused(&mut g, "carrier:fire 1:k10", "your own board");
    g.boards[1].miss.set(cell("k10"));
    refused(&mut g, "carrier:fire 2:k10", "already resolved");
    // Out of turn and chance: refused, unchanged.
    let before = g.clone();
    let a = g.parse_action("carrier:pass").unwrap();
    assert!(g.apply(Actor::Seat(Seat(2)), &a).is_err());
    assert!(g.apply(Actor::Chance, &a).is_err());
    assert_eq!(g, before);
    // Notation errors name the token.
    assert_eq!(g.parse_action("cruiser:fire 2:q3").unwrap_err().token, "q3");
    assert_eq!(
        g.parse_action("cruiser:lasers 2:c3").unwrap_err().token,
        "lasers"
    );
    let _ = Ship::Cruiser;
}

/// Configs out of range are refused, naming the field (rules/naval.md sections 4.6, 5.10).
#[test]
fn configs_out_of_range_are_refused() {
    use plateau_naval::Config;
    for (config, needle) in [
        (
            Config {
                turn_seconds: 0,
                ..Config::default()
            },
            "turn_seconds",
        ),
        (
            Config {
                placement_seconds: 86_401,
                ..Config::default()
            },
            "placement_seconds",
        ),
        (
            Config {
                max_rounds: 0,
                ..Config::default()
            },
            "max_rounds",
        ),
        (
            Config {
                emp_turns: 0,
                ..Config::default()
            },
            "emp_turns",
        ),
    ] {
        let err = Naval::new(&config, 4).unwrap_err().to_string();
        assert!(err.contains(needle), "`{err}` does not name `{needle}`");
    }
    assert!(
        Naval::new(
            &Config {
                turn_seconds: 1,
                ..Config::default()
            },
            4
        )
        .is_ok()
    );
}
