//! Cases 1-20: the fleet, placement, turns and orders, energy gains, blocks, areas (sections 2-8).

use plateau_engine::{Actor, Game, Seat, ToAct};
use plateau_naval::Ability;
use plateau_naval::bits::{Bits, Cell};
use plateau_naval::piece::{Piece, Ship};
use plateau_naval::{Config, Naval, Order, Phase};

use super::common::*;
use super::layout_all;

#[test]
fn case_01_four_players_four_boards() {
    assert!(Naval::new(&Config::default(), 3).is_err());
    let g = Naval::new(&Config::default(), 4).unwrap();
    assert_eq!(g.seats(), 4);
    assert_eq!(g.boards.len(), 4);
    assert_eq!(Bits::FULL.count(), 14 * 14);
}

#[test]
fn case_02_fleet_is_six_ships_and_three_buoys() {
    let sizes: Vec<u32> = Piece::ALL.iter().map(|p| u32::from(p.size())).collect();
    assert_eq!(sizes[..6].iter().sum::<u32>(), 29);
    assert_eq!(&sizes[6..], &[1, 1, 1]);
    let g = setup(["", "", "", ""], 0);
    for b in &g.boards {
        assert_eq!(b.placed, 9);
        assert_eq!(b.occ.count(), 32);
    }
}

#[test]
fn case_03_placement_then_battle_no_shots_in_placement() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    layout_all(&mut g);
    assert_eq!(g.phase, Phase::Placement);
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    assert!(
        legal
            .iter()
            .all(|a| !matches!(a, plateau_naval::Action::Order { .. }))
    );
    let fire = g.parse_action("carrier:fire 2:a1").unwrap();
    let before = g.clone();
    assert!(g.apply(Actor::Seat(Seat(0)), &fire).is_err());
    assert_eq!(g, before);
}

#[test]
fn case_04_placement_begins_with_every_piece_placed() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    let mut nodes = 0;
    let mut out = Vec::new();
    while g.to_act() == ToAct::Chance {
        g.chance_outcomes(&mut out);
        assert!(
            out.len() <= 336 + 28,
            "a layout node lists each distinct footprint once"
        );
        let total: f64 = out.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9);
        g.apply(Actor::Chance, &out[nodes * 31 % out.len()].0)
            .unwrap();
        nodes += 1;
    }
    assert_eq!(nodes, 36);
    for b in &g.boards {
        assert_eq!(b.occ.count(), 32, "nine pieces, no overlap");
    }
}

#[test]
fn case_05_drop_on_another_piece_is_refused() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    for s in 0..4 {
        for item in DEFAULT.split_whitespace() {
            apply(&mut g, Actor::Chance, &format!("{}:{item}", s + 1));
        }
    }
    let before = g.clone();
    let a = g.parse_action("corvette@a1h").unwrap();
    let err = g.apply(Actor::Seat(Seat(0)), &a).unwrap_err();
    assert!(err.to_string().contains("another piece"), "{err}");
    assert_eq!(g, before);
}

#[test]
fn case_06_rotation() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    for s in 0..4 {
        for item in DEFAULT.split_whitespace() {
            apply(&mut g, Actor::Chance, &format!("{}:{item}", s + 1));
        }
    }
    // The cruiser a4h is rotated to a column starting at h4.
    apply(&mut g, Actor::Seat(Seat(0)), "cruiser@h4v");
    assert_eq!(
        g.boards[0].masks[Ship::Cruiser as usize],
        cells("h4 h5 h6 h7 h8")
    );
    assert_eq!(g.boards[0].moves, 1);
}

#[test]
fn case_07_engine_accepts_ready_without_moves() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    layout_all(&mut g);
    let mut legal = Vec::new();
    g.legal_actions(Seat(2), &mut legal);
    assert!(legal.contains(&plateau_naval::Action::Ready));
}

#[test]
fn case_08_placement_timeout_freezes_and_readies() {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    layout_all(&mut g);
    let layout = g.boards[1].masks;
    for s in 0..4 {
        let acts = g.timeout_actions(Seat(s)).unwrap();
        assert_eq!(acts, vec![plateau_naval::Action::Ready]);
        for a in acts {
            g.apply(Actor::Seat(Seat(s)), &a).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::FirstPlayer);
    assert_eq!(g.boards[1].masks, layout);
}

#[test]
fn case_09_blocked_and_resolved_cells_are_red() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[1].miss.set(cell("k10"));
    g.blocks[1][2] = cells("k11");
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    let texts: Vec<String> = legal.iter().map(|a| g.format_action(a)).collect();
    assert!(texts.contains(&"carrier:fire 2:k12".to_owned()));
    assert!(!texts.contains(&"carrier:fire 2:k10".to_owned()));
    assert!(!texts.contains(&"carrier:fire 2:k11".to_owned()));
    assert!(
        try_order(&mut g, "carrier:fire 2:k11")
            .unwrap_err()
            .to_string()
            .contains("blocked by seat 3")
    );
}

#[test]
fn case_10_six_orders_then_fire() {
    let mut g = setup(["", "", "", ""], 0);
    turn(
        &mut g,
        &[
            "carrier:fire 2:k10",
            "cruiser:fire 2:k11",
            "battleship:fire 2:k12",
            "frigate:fire 3:k10",
            "submarine:fire 3:k11",
            "corvette:fire 4:k10",
        ],
    );
    assert_eq!(g.to_act(), ToAct::Player(Seat(1)));
    assert_eq!(g.last_turn.len(), 6);
    assert_eq!(g.boards[1].miss.count(), 3);
    assert_eq!(g.boards[2].miss.count(), 2);
    assert_eq!(g.boards[3].miss.count(), 1);
}

#[test]
fn case_11_pass_gives_75() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &[]);
    assert_eq!(g.boards[0].energy, [75; 6]);
}

#[test]
fn case_12_energy_is_capped_at_1000() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[0] = 950;
    turn(&mut g, &[]);
    assert_eq!(g.boards[0].energy[0], 1000);
}

#[test]
fn case_13_first_hit_gives_200() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:a1"]);
    assert_eq!(g.boards[0].energy[Ship::Carrier as usize], 200);
}

#[test]
fn case_14_later_hit_75_sinking_hit_100() {
    let mut g = setup(["", "", "", ""], 0);
    // Seat 1's corvette is a12-b12.
    turn(&mut g, &["cruiser:fire 2:a12", "frigate:fire 2:a1"]);
    assert_eq!(g.boards[0].energy[Ship::Cruiser as usize], 200);
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    turn(&mut g, &["cruiser:fire 2:b12", "frigate:fire 2:b1"]);
    assert_eq!(
        g.boards[0].energy[Ship::Cruiser as usize],
        300,
        "sinking hit: +100"
    );
    assert_eq!(
        g.boards[0].energy[Ship::Frigate as usize],
        275,
        "later hit: +75"
    );
    assert!(g.boards[1].is_sunk(Ship::Corvette));
}

#[test]
fn case_15_enemy_miss_next_to_your_ship() {
    let mut g = setup(["", "", "", ""], 0);
    // a13 is next to both cells of seat 1's corvette (a12, b12).
    turn(&mut g, &["carrier:fire 2:a13"]);
    assert_eq!(g.boards[1].energy[Ship::Corvette as usize], 50);
    assert_eq!(g.boards[1].energy[Ship::Cruiser as usize], 0);
}

#[test]
fn case_16_hit_cruiser_gains_200() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:c4"]);
    assert_eq!(g.boards[1].energy[Ship::Cruiser as usize], 200);
}

#[test]
fn case_17_special_excludes_normal_shot() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Cruiser as usize] = 200;
    try_order(&mut g, "carrier:pass").unwrap();
    try_order(&mut g, "cruiser:artillery 2:k10").unwrap();
    let before = g.clone();
    let err = try_order(&mut g, "cruiser:fire 2:k12").unwrap_err();
    assert!(err.contains("already has its order"), "{err}");
    assert_eq!(g, before);
}

#[test]
fn case_18_first_hit_blocks_its_neighbours_until_the_blocker_plays_again() {
    let seat2 = DEFAULT.replace("battleship@a6h", "battleship@f6h");
    let mut g = setup(["", "", &seat2, ""], 0);
    turn(&mut g, &["carrier:fire 3:f6"]);
    let ring = cells("e5 f5 g5 e6 g6 e7 f7 g7");
    assert_eq!(g.blocks[2][0], ring);
    for s in [1u8, 3] {
        for c in ring.iter() {
            assert!(
                g.check_order(
                    Seat(s),
                    Ship::Carrier,
                    &Order::Fire {
                        target: Seat(2),
                        cell: c
                    }
                )
                .is_err()
            );
        }
    }
    assert!(
        try_order(&mut g, "carrier:fire 3:e5")
            .unwrap_err()
            .to_string()
            .contains("blocked by seat 1")
    );
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    assert!(g.blocks[2][0].is_empty());
    assert!(
        g.check_order(
            Seat(1),
            Ship::Carrier,
            &Order::Fire {
                target: Seat(2),
                cell: cell("e5")
            }
        )
        .is_ok()
    );
}

#[test]
fn case_19_and_41_to_43_areas_keep_their_size_at_edges() {
    // 41: heavy artillery at (0,0) covers rows 0-2, cols 0-2.
    assert_eq!(
        Ability::Heavy.area(Cell::at(0, 0), false),
        Bits::rect(0, 0, 3, 3)
    );
    // 42: artillery at (13,13) covers rows 12-13, cols 12-13.
    assert_eq!(
        Ability::Artillery.area(Cell::at(13, 13), false),
        Bits::rect(12, 12, 2, 2)
    );
    // 43: horizontal bombing at (4,12) covers cols 6-13 of row 4.
    assert_eq!(
        Ability::Bombing.area(Cell::at(4, 12), false),
        Bits::rect(4, 6, 1, 8)
    );
    for ab in [
        Ability::Satellite,
        Ability::Missile,
        Ability::Radar,
        Ability::Artillery,
        Ability::Heavy,
    ] {
        let want = [25, 16, 49, 4, 9][[
            Ability::Satellite,
            Ability::Missile,
            Ability::Radar,
            Ability::Artillery,
            Ability::Heavy,
        ]
        .iter()
        .position(|a| *a == ab)
        .unwrap()];
        for c in Bits::FULL.iter() {
            let area = ab.area(c, false);
            assert_eq!(area.count(), want);
            assert!(area.has(c));
        }
    }
}

#[test]
fn case_20_importance_order() {
    let mut g = setup(["", "", "", ""], 0);
    turn(
        &mut g,
        &[
            "corvette:fire 2:k1",
            "cruiser:fire 2:k2",
            "carrier:fire 2:k3",
        ],
    );
    let ships: Vec<u8> = g.last_turn.iter().map(|a| a.ship as u8).collect();
    assert_eq!(ships, vec![0, 1, 2, 3, 4, 5]);
}

/// The seat's observation describes exactly the placement moves `legal_actions` holds (docs/
/// protocol.md section 4.1, `placement`), none of them is listed, and each one's parts
/// (`action_info`) name it back (`action_from_parts`, section 4.2); only the seat sees them.
#[test]
fn placement_choices_are_described_by_piece_and_named_back_by_parts() {
    use plateau_engine::{ActionParts, Viewer};
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    layout_all(&mut g);
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    let places: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a, plateau_naval::Action::Place { .. }))
        .collect();
    assert!(places.len() > 100);
    let obs = g.observation(Viewer::Seat(Seat(0)));
    let view = obs.placement.expect("the placing seat sees its choices");
    let mut described = 0;
    for p in &view {
        let piece = Piece::from_name(&p.piece).unwrap();
        assert_eq!(p.ways.len(), if piece.is_buoy() { 1 } else { 2 });
        for w in &p.ways {
            let vertical = w.choice.as_deref() == Some("v");
            let shape: Vec<String> = w
                .shape
                .iter()
                .map(|&[r, c]| Cell::at(r, c).to_string())
                .collect();
            let cells: Vec<String> = piece
                .footprint(Cell::at(0, 0), vertical)
                .unwrap()
                .iter()
                .map(|c| c.to_string())
                .collect();
            assert_eq!(shape, cells, "{} {:?}", p.piece, w.choice);
            for anchor in &w.anchors {
                let parts = ActionParts {
                    kind: "place".into(),
                    piece: Some(p.piece.clone()),
                    to: Some(anchor.clone()),
                    choice: w.choice.clone(),
                    target: None,
                };
                let action = g.action_from_parts(&parts).unwrap();
                assert!(legal.contains(&action), "{parts:?}");
                assert!(!g.listed(&action));
                let info = g.action_info(&action);
                assert_eq!(info.to.as_ref(), Some(anchor));
                assert_eq!(info.choice, w.choice);
                described += 1;
            }
        }
    }
    assert_eq!(described, places.len());
    assert!(g.listed(&plateau_naval::Action::Ready));
    assert!(g.observation(Viewer::Spectator).placement.is_none());
    // Parts that name no action are refused with the reason.
    for (kind, piece, to, choice) in [
        ("place", "carrier", "a1", None),
        ("place", "buoy1", "a1", Some("h")),
        ("place", "yacht", "a1", Some("h")),
        ("place", "carrier", "z9", Some("h")),
        ("fire", "carrier", "a1", None),
    ] {
        let parts = ActionParts {
            kind: kind.into(),
            piece: Some(piece.into()),
            to: Some(to.into()),
            choice: choice.map(str::to_owned),
            target: None,
        };
        assert!(g.action_from_parts(&parts).is_err(), "{parts:?}");
    }
}
