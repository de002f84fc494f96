//! Cases 21-40: sinking, shields, the specials and torpedoes, wasted and cancelled orders, the end
//! (sections 5, 6, 9-12).

use plateau_engine::{Game, Seat, ToAct};
use plateau_naval::Ability;
use plateau_naval::bits::{Bits, Cell};
use plateau_naval::piece::Ship;
use plateau_naval::state::Resolution;
use plateau_naval::{Dir, Order};

use super::common::*;
use super::obs;

#[test]
fn case_21_last_ship_sunk_eliminates_despite_buoys() {
    let mut g = setup(["", "", "", ""], 0);
    for k in 0..5 {
        sink(&mut g, 1, k);
    }
    turn(&mut g, &["carrier:fire 2:a12", "cruiser:fire 2:b12"]);
    assert!(g.boards[1].is_sunk(Ship::Corvette));
    assert!(g.boards[1].out);
    assert_eq!(g.out_order, vec![Seat(1)]);
    assert!(
        (g.boards[1].masks[6] | g.boards[1].masks[7] | g.boards[1].masks[8])
            .within(!g.boards[1].hit)
    );
}

#[test]
fn case_22_buoy_shows_sunk_once_surrounded() {
    let seat1 = DEFAULT.replace("buoy1@n1", "buoy1@h8");
    let mut g = setup(["", &seat1, "", ""], 0);
    for c in cells("g7 h7 i7 g8 i8 g9 h9").iter() {
        g.boards[1].miss.set(c);
    }
    turn(&mut g, &["carrier:fire 2:h8"]);
    assert!(obs(&g, 2).boards[1].hits.contains(&"h8".to_owned()));
    assert!(
        obs(&g, 2).boards[1].sunk_buoys.is_empty(),
        "7 of 8 neighbours: an ordinary hit"
    );
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    turn(&mut g, &["carrier:fire 2:i9"]);
    assert_eq!(obs(&g, 2).boards[1].sunk_buoys, vec!["h8".to_owned()]);
}

#[test]
fn case_23_shield_not_on_corvette() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Corvette as usize] = 350;
    let err = g.check_order(
        Seat(0),
        Ship::Corvette,
        &Order::Special {
            ability: Ability::Shield,
            target: Seat(0),
            cell: cell("a12"),
            vertical: false,
        },
    );
    assert!(err.unwrap_err().to_string().contains("corvette"));
    turn(&mut g, &["corvette:shield 1:c4"]);
    assert!(g.boards[0].shield.active);
    assert_eq!(g.boards[0].shield.charges, 5);
    assert_eq!(g.boards[0].shield.area, Bits::rect(2, 1, 3, 3));
}

#[test]
fn case_24_satellite_misses_submarines() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Corvette as usize] = 250;
    turn(&mut g, &["corvette:satellite 2:c9"]);
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    let found: Vec<&str> = intel.found.iter().map(|p| p.piece.as_str()).collect();
    assert_eq!(found, vec!["frigate"]);
    assert!(obs(&g, 2).boards[1].intel.is_none(), "caster only");
}

#[test]
fn case_25_no_torpedo_at_the_opposite_board() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    let torpedo = |target, dir, lane| Order::Torpedo {
        target: Seat(target),
        dir,
        lane,
    };
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &torpedo(2, Dir::Right, 4))
            .unwrap_err()
            .to_string()
            .contains("opposite")
    );
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &torpedo(1, Dir::Right, 4))
            .is_ok()
    );
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &torpedo(3, Dir::Down, 2))
            .is_ok()
    );
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &torpedo(1, Dir::Left, 4))
            .is_err(),
        "entry edge of section 3"
    );
}

const LANE4: &str = "carrier@a1h cruiser@f4h battleship@a6h frigate@a8h submarine@a10h corvette@a4h buoy1@n1 buoy2@n3 buoy3@n6";

#[test]
fn case_26_and_53_torpedo_passes_sunk_ships_and_ignores_shields() {
    let mut g = setup(["", LANE4, "", ""], 0);
    sink(&mut g, 1, Ship::Corvette as usize);
    g.boards[1].shield = plateau_naval::board::Shield {
        active: true,
        public: false,
        centre: cell("g4"),
        area: Ability::Shield.area(cell("g4"), false),
        charges: 5,
        cast_resolved: Bits::EMPTY,
    };
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right4"]);
    let a = g.last_turn[Ship::Submarine as usize];
    assert_eq!(a.result, Resolution::Exploded(cell("f4")));
    assert_eq!(
        g.boards[1].hit & !g.boards[1].masks[Ship::Corvette as usize],
        cells("f4 g4")
    );
    assert_eq!(g.boards[1].miss, cells("e3 f3 g3 e4 e5 f5 g5"));
    assert_eq!(
        (a.effect.hits, a.effect.misses),
        (cells("f4 g4"), cells("e3 f3 g3 e4 e5 f5 g5")),
        "the announcement names the blast's markers"
    );
    assert_eq!(g.boards[1].shield.charges, 5, "no charge used");
    assert!(g.boards[1].deflected.is_empty());
}

#[test]
fn case_27_sonar_marks_submarines() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Submarine as usize] = 250;
    turn(&mut g, &["submarine:sonar 2:b10"]);
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    for c in ["a10", "b10", "c10"] {
        assert!(intel.sonar.contains(&c.to_owned()));
    }
    assert_eq!(
        intel.sonar.len(),
        8,
        "frigate 3 + submarine 3 + corvette 2 cells in rows 8-12"
    );
}

#[test]
fn case_28_rockets_are_one_node_per_cell() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Frigate as usize] = 500;
    turn(&mut g, &["frigate:rockets 2:c3"]);
    let area = Ability::Rockets.area(cell("c3"), false);
    let chosen = |c: Cell| (c.row() + c.col()).is_multiple_of(3);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    while let Some(c) = g.rocket_cell() {
        g.chance_outcomes(&mut out);
        assert_eq!(
            out.iter().map(|(_, p)| *p).collect::<Vec<_>>(),
            vec![0.5, 0.5]
        );
        seen.push(c);
        rocket(&mut g, chosen(c));
    }
    assert_eq!(
        seen,
        area.iter().collect::<Vec<_>>(),
        "25 nodes in row-major order"
    );
    let s: Bits = area
        .iter()
        .filter(|&c| chosen(c))
        .fold(Bits::EMPTY, |mut b, c| {
            b.set(c);
            b
        });
    assert_eq!(g.boards[1].resolved(), s);
    assert_eq!(g.boards[0].energy[Ship::Frigate as usize], 0);
}

#[test]
fn case_29_missile_reveals_the_frigate() {
    let mut g = setup(["", "", "", ""], 1);
    g.boards[1].energy[Ship::Frigate as usize] = 700;
    for s in [0u8, 2, 3] {
        assert!(obs(&g, s).boards[1].revealed_frigate.is_none());
    }
    turn(&mut g, &["frigate:missile 3:f6"]);
    assert_eq!(g.boards[2].resolved(), Bits::rect(4, 4, 4, 4));
    for s in [0u8, 2, 3] {
        let f = obs(&g, s).boards[1].revealed_frigate.clone().unwrap();
        assert_eq!(f.cells, vec!["a8", "b8", "c8"]);
    }
}

#[test]
fn case_30_charges_hit_only_submarines() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[2] = 300;
    turn(&mut g, &["battleship:charges 2:d7"]);
    assert_eq!(g.boards[1].hit, cells("a10 b10 c10"));
    assert!(g.boards[1].miss.is_empty());
    assert!(g.boards[1].is_sunk(Ship::Submarine));
}

#[test]
fn case_31_radar_misses_submarines() {
    let seat1 = DEFAULT.replace("submarine@a10h", "submarine@j11h");
    let mut g = setup(["", &seat1, "", ""], 0);
    g.boards[0].energy[2] = 300;
    turn(&mut g, &["battleship:radar 2:k11"]);
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    assert!(intel.radar.is_empty());
    assert_eq!(intel.scanned.len(), 49);
}

#[test]
fn case_32_artillery_4_cells_heavy_9() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Cruiser as usize] = 200;
    turn(&mut g, &["cruiser:artillery 2:k10"]);
    assert_eq!(g.boards[1].resolved().count(), 4);
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Cruiser as usize] = 450;
    turn(&mut g, &["cruiser:heavy 4:k10"]);
    assert_eq!(g.boards[3].resolved().count(), 9);
}

#[test]
fn case_33_vertical_bombing() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 400;
    turn(&mut g, &["carrier:bombing 2:k7v"]);
    assert_eq!(g.boards[1].resolved(), Bits::rect(3, 10, 8, 1));
}

#[test]
fn case_34_emp_skips_two_turns() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 1000;
    turn(&mut g, &["carrier:emp 4"]);
    let mut order = Vec::new();
    for _ in 0..8 {
        let ToAct::Player(s) = g.to_act() else {
            panic!()
        };
        order.push(s.0);
        turn(&mut g, &[]);
    }
    assert_eq!(order, vec![1, 2, 0, 1, 2, 0, 1, 2]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(3)));
    assert!(g.boards[3].immune);
}

#[test]
fn case_35_damaged_ship_is_valid() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].hit |= cells("a6 b6 c6");
    try_order(&mut g, "carrier:pass").unwrap();
    try_order(&mut g, "cruiser:pass").unwrap();
    assert_eq!(g.turn.next, Some(Ship::Battleship));
    try_order(&mut g, "battleship:fire 2:k10").unwrap();
}

#[test]
fn case_36_no_shot_at_a_missed_cell() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[1].miss.set(cell("k10"));
    assert!(
        try_order(&mut g, "carrier:fire 2:k10")
            .unwrap_err()
            .to_string()
            .contains("already resolved")
    );
}

#[test]
fn case_37_lower_ship_cannot_pick_the_same_cell() {
    let mut g = setup(["", "", "", ""], 0);
    try_order(&mut g, "carrier:pass").unwrap();
    try_order(&mut g, "cruiser:fire 2:k10").unwrap();
    try_order(&mut g, "battleship:pass").unwrap();
    let before = g.clone();
    assert!(
        try_order(&mut g, "frigate:fire 2:k10")
            .unwrap_err()
            .to_string()
            .contains("higher-ranked")
    );
    assert_eq!(g, before);
}

/// docs/rulings.md, Bataille Navale 11: a second normal shot at a cell picked this turn is refused
/// when given (section 5.5); a normal shot at a cell the turn's own heavy artillery will resolve
/// first is accepted when given, and wasted when it resolves (section 5.8).
#[test]
fn ruling_11_a_picked_cell_is_refused_a_cell_resolved_this_turn_is_wasted() {
    let mut g = setup(["", "", "", ""], 0);
    try_order(&mut g, "carrier:fire 2:k10").unwrap();
    let err = try_order(&mut g, "cruiser:fire 2:k10").unwrap_err();
    assert!(err.contains("section 5.5"), "{err}");
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Cruiser as usize] = 450;
    for order in ["carrier:pass", "cruiser:heavy 2:k10", "battleship:pass"] {
        try_order(&mut g, order).unwrap();
    }
    try_order(&mut g, "frigate:fire 2:k10").expect("accepted when given");
    turn(&mut g, &[]);
    assert_eq!(
        g.last_turn[Ship::Frigate as usize].result,
        Resolution::Wasted
    );
}

#[test]
fn case_38_shot_at_a_cell_resolved_this_turn_is_wasted() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Cruiser as usize] = 450;
    turn(&mut g, &["cruiser:heavy 2:k10", "frigate:fire 2:k10"]);
    assert_eq!(
        g.last_turn[Ship::Frigate as usize].result,
        Resolution::Wasted
    );
    assert_eq!(
        g.boards[0].energy[Ship::Frigate as usize],
        0,
        "no energy, no +75"
    );
}

#[test]
fn case_39_actions_on_a_board_eliminated_this_turn_are_cancelled() {
    let mut g = setup(["", "", "", ""], 0);
    for k in 0..5 {
        sink(&mut g, 2, k);
    }
    g.boards[2].hit.set(cell("a12"));
    g.boards[0].energy[Ship::Frigate as usize] = 500;
    turn(&mut g, &["cruiser:fire 3:b12", "frigate:rockets 3:g7"]);
    assert!(g.boards[2].out);
    assert_eq!(
        g.last_turn[Ship::Frigate as usize].result,
        Resolution::Cancelled
    );
    assert_eq!(g.boards[0].energy[Ship::Frigate as usize], 500);
    assert_eq!(g.to_act(), ToAct::Player(Seat(1)));
}

#[test]
fn case_40_last_opponent_sunk_wins_at_once() {
    let mut g = setup(["", "", "", ""], 0);
    knock_out(&mut g, 1);
    knock_out(&mut g, 3);
    for k in 0..5 {
        sink(&mut g, 2, k);
    }
    g.boards[2].hit.set(cell("a12"));
    turn(&mut g, &["cruiser:fire 3:b12", "battleship:fire 3:k10"]);
    assert!(over(&g));
    assert!(
        !g.boards[2].resolved().has(cell("k10")),
        "later actions discarded"
    );
    assert_eq!(g.boards[0].energy[2], 0);
    let o = g.outcome().unwrap();
    // Seat 1 went out first (4th), then seat 3 (3rd), then seat 2 (2nd).
    assert_eq!(o.ranks, vec![1, 4, 2, 3]);
    assert_eq!(o.kind, "last_fleet");
}
