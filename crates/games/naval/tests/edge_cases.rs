//! rules/naval.md section 14: every numbered edge case, with its expected value. Seats are 0-based
//! in the test names and code; actions are written in notation (written seat = seat + 1).

mod common;

use common::*;
use plateau_engine::{Actor, Game, Seat, ToAct, Viewer};
use plateau_naval::action::{Ability, CARRIER, CORVETTE, CRUISER, FRIGATE, SIZE, SUBMARINE};
use plateau_naval::bits::{Bits, at};
use plateau_naval::state::Resolution;
use plateau_naval::{Config, Dir, Naval, Order, Phase};

fn obs(g: &Naval, s: u8) -> plateau_naval::Observation {
    g.observe(Viewer::Seat(Seat(s)))
}

fn layout_all(g: &mut Naval) {
    let mut out = Vec::new();
    let mut n = 0usize;
    while g.to_act() == ToAct::Chance {
        g.chance_outcomes(&mut out);
        let (a, _) = out[(n * 7919) % out.len()];
        g.apply(Actor::Chance, &a).unwrap();
        n += 1;
    }
}

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
    assert_eq!(SIZE[..6].iter().map(|&s| u32::from(s)).sum::<u32>(), 29);
    assert_eq!(&SIZE[6..], &[1, 1, 1]);
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
    assert_eq!(g.boards[0].masks[CRUISER as usize], cells("h4 h5 h6 h7 h8"));
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
    assert_eq!(g.boards[0].energy[CARRIER as usize], 200);
}

#[test]
fn case_14_later_hit_75_sinking_hit_100() {
    let mut g = setup(["", "", "", ""], 0);
    // Seat 1's corvette is a12-b12.
    turn(&mut g, &["cruiser:fire 2:a12", "frigate:fire 2:a1"]);
    assert_eq!(g.boards[0].energy[CRUISER as usize], 200);
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    turn(&mut g, &["cruiser:fire 2:b12", "frigate:fire 2:b1"]);
    assert_eq!(
        g.boards[0].energy[CRUISER as usize], 300,
        "sinking hit: +100"
    );
    assert_eq!(g.boards[0].energy[FRIGATE as usize], 275, "later hit: +75");
    assert!(g.boards[1].is_sunk(CORVETTE));
}

#[test]
fn case_15_enemy_miss_next_to_your_ship() {
    let mut g = setup(["", "", "", ""], 0);
    // a13 is next to both cells of seat 1's corvette (a12, b12).
    turn(&mut g, &["carrier:fire 2:a13"]);
    assert_eq!(g.boards[1].energy[CORVETTE as usize], 50);
    assert_eq!(g.boards[1].energy[CRUISER as usize], 0);
}

#[test]
fn case_16_hit_cruiser_gains_200() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:c4"]);
    assert_eq!(g.boards[1].energy[CRUISER as usize], 200);
}

#[test]
fn case_17_special_excludes_normal_shot() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CRUISER as usize] = 200;
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
                g.check_order(s, CARRIER, &Order::Fire { target: 2, cell: c })
                    .is_err()
            );
        }
    }
    assert!(
        try_order(&mut g, "carrier:fire 3:e5")
            .unwrap_err()
            .contains("blocked by seat 1")
    );
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    assert!(g.blocks[2][0].is_empty());
    assert!(
        g.check_order(
            1,
            CARRIER,
            &Order::Fire {
                target: 2,
                cell: cell("e5")
            }
        )
        .is_ok()
    );
}

#[test]
fn case_19_and_41_to_43_areas_keep_their_size_at_edges() {
    // 41: heavy artillery at (0,0) covers rows 0-2, cols 0-2.
    assert_eq!(Ability::Heavy.area(at(0, 0), false), Bits::rect(0, 0, 3, 3));
    // 42: artillery at (13,13) covers rows 12-13, cols 12-13.
    assert_eq!(
        Ability::Artillery.area(at(13, 13), false),
        Bits::rect(12, 12, 2, 2)
    );
    // 43: horizontal bombing at (4,12) covers cols 6-13 of row 4.
    assert_eq!(
        Ability::Bombing.area(at(4, 12), false),
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
    let ships: Vec<u8> = g.last_turn.iter().map(|a| a.ship).collect();
    assert_eq!(ships, vec![0, 1, 2, 3, 4, 5]);
}

#[test]
fn case_21_last_ship_sunk_eliminates_despite_buoys() {
    let mut g = setup(["", "", "", ""], 0);
    for k in 0..5 {
        sink(&mut g, 1, k);
    }
    turn(&mut g, &["carrier:fire 2:a12", "cruiser:fire 2:b12"]);
    assert!(g.boards[1].is_sunk(CORVETTE));
    assert!(g.boards[1].out);
    assert_eq!(g.out_order, vec![1]);
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
    g.boards[0].energy[CORVETTE as usize] = 350;
    let err = g.check_order(
        0,
        CORVETTE,
        &Order::Special {
            ability: Ability::Shield,
            target: 0,
            cell: cell("a12"),
            vertical: false,
        },
    );
    assert!(err.unwrap_err().contains("corvette"));
    turn(&mut g, &["corvette:shield 1:c4"]);
    assert!(g.boards[0].shield.active);
    assert_eq!(g.boards[0].shield.charges, 5);
    assert_eq!(g.boards[0].shield.area, Bits::rect(2, 1, 3, 3));
}

#[test]
fn case_24_satellite_misses_submarines() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CORVETTE as usize] = 250;
    turn(&mut g, &["corvette:satellite 2:c9"]);
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    let found: Vec<&str> = intel.found.iter().map(|p| p.piece.as_str()).collect();
    assert_eq!(found, vec!["frigate"]);
    assert!(obs(&g, 2).boards[1].intel.is_none(), "caster only");
}

#[test]
fn case_25_no_torpedo_at_the_opposite_board() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[SUBMARINE as usize] = 450;
    let torpedo = |target, dir, lane| Order::Torpedo { target, dir, lane };
    assert!(
        g.check_order(0, SUBMARINE, &torpedo(2, Dir::Right, 4))
            .unwrap_err()
            .contains("opposite")
    );
    assert!(
        g.check_order(0, SUBMARINE, &torpedo(1, Dir::Right, 4))
            .is_ok()
    );
    assert!(
        g.check_order(0, SUBMARINE, &torpedo(3, Dir::Down, 2))
            .is_ok()
    );
    assert!(
        g.check_order(0, SUBMARINE, &torpedo(1, Dir::Left, 4))
            .is_err(),
        "entry edge of section 3"
    );
}

const LANE4: &str = "carrier@a1h cruiser@f4h battleship@a6h frigate@a8h submarine@a10h corvette@a4h buoy1@n1 buoy2@n3 buoy3@n6";

#[test]
fn case_26_and_53_torpedo_passes_sunk_ships_and_ignores_shields() {
    let mut g = setup(["", LANE4, "", ""], 0);
    sink(&mut g, 1, CORVETTE as usize);
    g.boards[1].shield = plateau_naval::state::Shield {
        active: true,
        public: false,
        centre: cell("g4"),
        area: Ability::Shield.area(cell("g4"), false),
        charges: 5,
        cast_resolved: Bits::EMPTY,
    };
    g.boards[0].energy[SUBMARINE as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right4"]);
    let a = g.last_turn[SUBMARINE as usize];
    assert_eq!(a.result, Resolution::Exploded(cell("f4")));
    assert_eq!(
        g.boards[1].hit & !g.boards[1].masks[CORVETTE as usize],
        cells("f4 g4")
    );
    assert_eq!(g.boards[1].miss, cells("e3 f3 g3 e4 e5 f5 g5"));
    assert_eq!(g.boards[1].shield.charges, 5, "no charge used");
    assert!(g.boards[1].deflected.is_empty());
}

#[test]
fn case_27_sonar_marks_submarines() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[SUBMARINE as usize] = 250;
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
    g.boards[0].energy[FRIGATE as usize] = 500;
    turn(&mut g, &["frigate:rockets 2:c3"]);
    let area = Ability::Rockets.area(cell("c3"), false);
    let chosen = |c: u8| (c / 14 + c % 14).is_multiple_of(3);
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
    assert_eq!(g.boards[0].energy[FRIGATE as usize], 0);
}

#[test]
fn case_29_missile_reveals_the_frigate() {
    let mut g = setup(["", "", "", ""], 1);
    g.boards[1].energy[FRIGATE as usize] = 700;
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
    assert!(g.boards[1].is_sunk(SUBMARINE));
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
    g.boards[0].energy[CRUISER as usize] = 200;
    turn(&mut g, &["cruiser:artillery 2:k10"]);
    assert_eq!(g.boards[1].resolved().count(), 4);
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CRUISER as usize] = 450;
    turn(&mut g, &["cruiser:heavy 4:k10"]);
    assert_eq!(g.boards[3].resolved().count(), 9);
}

#[test]
fn case_33_vertical_bombing() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CARRIER as usize] = 400;
    turn(&mut g, &["carrier:bombing 2:k7v"]);
    assert_eq!(g.boards[1].resolved(), Bits::rect(3, 10, 8, 1));
}

#[test]
fn case_34_emp_skips_two_turns() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CARRIER as usize] = 1000;
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
    assert_eq!(g.turn.next, 2);
    try_order(&mut g, "battleship:fire 2:k10").unwrap();
}

#[test]
fn case_36_no_shot_at_a_missed_cell() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[1].miss.set(cell("k10"));
    assert!(
        try_order(&mut g, "carrier:fire 2:k10")
            .unwrap_err()
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
            .contains("higher-ranked")
    );
    assert_eq!(g, before);
}

#[test]
fn case_38_shot_at_a_cell_resolved_this_turn_is_wasted() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CRUISER as usize] = 450;
    turn(&mut g, &["cruiser:heavy 2:k10", "frigate:fire 2:k10"]);
    assert_eq!(g.last_turn[FRIGATE as usize].result, Resolution::Wasted);
    assert_eq!(g.boards[0].energy[FRIGATE as usize], 0, "no energy, no +75");
}

#[test]
fn case_39_actions_on_a_board_eliminated_this_turn_are_cancelled() {
    let mut g = setup(["", "", "", ""], 0);
    for k in 0..5 {
        sink(&mut g, 2, k);
    }
    g.boards[2].hit.set(cell("a12"));
    g.boards[0].energy[FRIGATE as usize] = 500;
    turn(&mut g, &["cruiser:fire 3:b12", "frigate:rockets 3:g7"]);
    assert!(g.boards[2].out);
    assert_eq!(g.last_turn[FRIGATE as usize].result, Resolution::Cancelled);
    assert_eq!(g.boards[0].energy[FRIGATE as usize], 500);
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

#[test]
fn case_44_third_hit_75_fifth_hit_100() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[1].hit |= cells("a4 b4");
    turn(&mut g, &["cruiser:fire 2:c4"]);
    assert_eq!(g.boards[0].energy[CRUISER as usize], 75);
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    g.boards[1].hit |= cells("d4");
    turn(&mut g, &["cruiser:fire 2:e4"]);
    assert_eq!(g.boards[0].energy[CRUISER as usize], 175);
    assert!(g.boards[1].is_sunk(CRUISER));
}

#[test]
fn case_45_fresh_buoy_pays_200_and_blocks() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:n1"]);
    assert_eq!(g.boards[0].energy[CARRIER as usize], 200);
    assert_eq!(g.blocks[1][0], Bits::around(cell("n1")));
}

#[test]
fn case_46_special_first_hit_pays_the_victim_not_the_firer() {
    let mut g = setup(["", "", "", ""], 0);
    for c in cells("d3 e3 f3 f4 d5 e5 f5").iter() {
        g.boards[1].miss.set(c);
    }
    g.boards[0].energy[CRUISER as usize] = 450;
    turn(&mut g, &["cruiser:heavy 2:e4"]);
    assert_eq!(g.boards[1].hit, cells("d4 e4"));
    assert_eq!(
        g.boards[0].energy[CRUISER as usize], 0,
        "450 spent, nothing gained"
    );
    assert_eq!(
        g.blocks[1][0],
        Bits::around(cell("d4")),
        "first hit in row-major order"
    );
    assert_eq!(
        g.boards[1].energy[CRUISER as usize], 400,
        "two cruiser cells: 2 x 200"
    );
}

#[test]
fn case_47_misses_next_to_a_ship_pay_it_up_to_100_per_action() {
    let seat1 = "carrier@a13h cruiser@i4h battleship@a6h frigate@c3h submarine@a10h corvette@a12h buoy1@n1 buoy2@n3 buoy3@n5";
    let mut g = setup(["", seat1, "", ""], 0);
    turn(&mut g, &["carrier:fire 2:d4"]);
    assert_eq!(g.boards[1].energy[FRIGATE as usize], 75);

    let mut g = setup(["", seat1, "", ""], 0);
    g.boards[0].energy[FRIGATE as usize] = 500;
    turn(&mut g, &["frigate:rockets 2:c3"]);
    let six = cells("b2 c2 d2 e2 c4 d4");
    while let Some(c) = g.rocket_cell() {
        rocket(&mut g, six.has(c));
    }
    assert_eq!(g.boards[1].miss, six);
    assert_eq!(g.boards[1].energy[FRIGATE as usize], 100);
}

#[test]
fn case_48_overlapping_blocks() {
    let mut g = setup(["", "", "", ""], 3);
    let x = cell("k10");
    g.blocks[2][0].set(x);
    g.blocks[2][1].set(x);
    let fire = Order::Fire { target: 2, cell: x };
    for s in [0u8, 1, 3] {
        assert!(g.check_order(s, CARRIER, &fire).is_err(), "seat {s}");
    }
    turn(&mut g, &[]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    assert!(g.blocks[2][0].is_empty());
    assert!(
        g.check_order(0, CARRIER, &fire).is_err(),
        "seat 1's block still applies"
    );
    assert!(g.check_order(3, CARRIER, &fire).is_err());
    assert!(
        g.check_order(1, CARRIER, &fire).is_ok(),
        "seat 1 owns every block left"
    );
}

#[test]
fn case_49_areas_skip_cells_blocked_for_the_attacker() {
    let seat2 = DEFAULT.replace("battleship@a6h", "battleship@f6h");
    let mut g = setup(["", "", &seat2, ""], 0);
    turn(&mut g, &["carrier:fire 3:f6"]);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    g.boards[3].energy[CRUISER as usize] = 450;
    turn(&mut g, &["cruiser:heavy 3:h6"]);
    let area = Bits::rect(4, 6, 3, 3);
    let skipped = cells("g5 g6 g7");
    assert_eq!(g.boards[2].resolved() & area, area & !skipped);
}

#[test]
fn case_50_block_ends_at_a_skipped_turn_slot() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:a1"]);
    assert!(!g.blocks[1][0].is_empty());
    g.boards[1].energy[CARRIER as usize] = 1000;
    turn(&mut g, &["carrier:emp 1"]);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    assert_eq!(
        g.to_act(),
        ToAct::Player(Seat(1)),
        "seat 0's slot was skipped"
    );
    assert!(g.blocks[1][0].is_empty());
}

fn shielded() -> Naval {
    let mut g = setup(["", "", "", ""], 1);
    g.boards[1].energy[CORVETTE as usize] = 350;
    turn(&mut g, &["corvette:shield 2:c4"]);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    g
}

#[test]
fn case_51_shield_absorbs_five_shots_in_order() {
    let mut g = shielded();
    assert!(obs(&g, 0).boards[1].shield_up);
    assert!(
        obs(&g, 0).boards[1].shield.is_none(),
        "outline hidden before any absorption"
    );
    g.boards[0].energy[CRUISER as usize] = 450;
    turn(&mut g, &["cruiser:heavy 2:c4"]);
    let b = &g.boards[1];
    assert_eq!(b.deflected, cells("b3 c3 d3 b4 c4"));
    assert_eq!(b.hit, cells("d4"));
    assert_eq!(b.miss, cells("b5 c5 d5"));
    assert!(!b.shield.active);
    assert_eq!(obs(&g, 3).boards[1].deflected.len(), 5);
}

#[test]
fn case_51b_outline_public_after_first_absorption() {
    let mut g = shielded();
    g.boards[0].energy[CRUISER as usize] = 200;
    turn(&mut g, &["cruiser:artillery 2:b3"]);
    let seen = obs(&g, 3).boards[1].shield.clone().unwrap();
    assert_eq!(seen.charges, 1);
    assert_eq!(seen.cells.len(), 9);
}

#[test]
fn case_52_corvette_cells_are_never_protected() {
    let seat1 = DEFAULT.replace("corvette@a12h", "corvette@f3v");
    let mut g = setup(["", &seat1, "", ""], 1);
    g.boards[1].energy[CORVETTE as usize] = 350;
    turn(&mut g, &["corvette:shield 2:e4"]);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    g.boards[0].energy[CRUISER as usize] = 200;
    turn(&mut g, &["cruiser:artillery 2:e2"]);
    let b = &g.boards[1];
    assert!(b.hit.has(cell("f3")), "corvette cell resolves");
    assert_eq!(b.deflected, cells("e3"));
    assert_eq!(b.shield.charges, 4);
}

#[test]
fn case_54_torpedo_fizzle_is_public() {
    let seat1 = DEFAULT.replace("buoy1@n1", "buoy1@e7");
    let mut g = setup(["", &seat1, "", ""], 0);
    g.boards[0].energy[SUBMARINE as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right7"]);
    assert_eq!(g.last_turn[SUBMARINE as usize].result, Resolution::Fizzled);
    assert!(g.boards[1].resolved().is_empty());
    assert_eq!(
        g.observe(Viewer::Spectator).boards[1].torpedo_clear.len(),
        14
    );
}

#[test]
fn case_55_blocked_trigger_cell() {
    let mut g = setup(["", "", "", ""], 0);
    g.blocks[1][2] = cells("a4 a3 b5");
    g.boards[0].energy[SUBMARINE as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right4"]);
    assert_eq!(
        g.last_turn[SUBMARINE as usize].result,
        Resolution::Exploded(cell("a4"))
    );
    assert_eq!(g.boards[1].resolved(), cells("b3 c3 b4 c4 a5 c5"));
}

#[test]
fn case_56_adjacency_with_fewer_survivors() {
    let mut g = setup(["", "", "", ""], 0);
    knock_out(&mut g, 3);
    let t = |target, dir| Order::Torpedo {
        target,
        dir,
        lane: 0,
    };
    g.boards[0].energy[SUBMARINE as usize] = 450;
    g.boards[1].energy[SUBMARINE as usize] = 450;
    assert!(g.check_order(0, SUBMARINE, &t(1, Dir::Right)).is_ok());
    assert!(g.check_order(0, SUBMARINE, &t(2, Dir::Right)).is_err());
    assert!(g.check_order(1, SUBMARINE, &t(0, Dir::Left)).is_ok());
    assert!(g.check_order(1, SUBMARINE, &t(2, Dir::Down)).is_ok());
    knock_out(&mut g, 1);
    g.boards[2].energy[SUBMARINE as usize] = 450;
    for d in [Dir::Right, Dir::Left, Dir::Down, Dir::Up] {
        assert!(g.check_order(0, SUBMARINE, &t(2, d)).is_ok());
        assert!(g.check_order(2, SUBMARINE, &t(0, d)).is_ok());
    }
}

#[test]
fn case_57_disabled_ships_do_not_act_but_still_gain_from_hits() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CARRIER as usize] = 1000;
    turn(&mut g, &["carrier:emp 2"]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(2)), "seat 1 skipped");
    assert_eq!(g.boards[1].energy, [0; 6], "no pass bonus");
    turn(&mut g, &["carrier:fire 2:a6"]);
    assert_eq!(g.boards[1].energy[2], 250);
}

#[test]
fn case_58_no_emp_on_disabled_or_immune() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CARRIER as usize] = 1000;
    turn(&mut g, &["carrier:emp 2"]);
    g.boards[2].energy[CARRIER as usize] = 1000;
    assert!(
        g.check_order(2, CARRIER, &Order::Emp { target: 1 })
            .unwrap_err()
            .contains("disabled")
    );
    g.boards[1].emp_left = 0;
    g.boards[1].immune = true;
    assert!(
        g.check_order(2, CARRIER, &Order::Emp { target: 1 })
            .unwrap_err()
            .contains("immune")
    );
}

#[test]
fn case_59_emp_needs_a_full_meter() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CARRIER as usize] = 999;
    let err = try_order(&mut g, "carrier:emp 2").unwrap_err();
    assert!(err.contains("999") && err.contains("1000"), "{err}");
}

#[test]
fn case_60_buoys_and_the_three_sensors() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy = [0, 0, 300, 0, 250, 250];
    turn(
        &mut g,
        &[
            "battleship:radar 2:n1",
            "submarine:sonar 2:n1",
            "corvette:satellite 2:n1",
        ],
    );
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    assert_eq!(intel.radar, vec!["n1", "n3", "n5"]);
    assert!(intel.sonar.is_empty());
    let found: Vec<&str> = intel.found.iter().map(|p| p.piece.as_str()).collect();
    assert_eq!(found, vec!["buoy1", "buoy2", "buoy3"]);
}

#[test]
fn case_61_satellite_shows_the_whole_ship() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[CORVETTE as usize] = 250;
    turn(&mut g, &["corvette:satellite 2:g6"]);
    let intel = obs(&g, 0).boards[1].intel.clone().unwrap();
    assert_eq!(intel.found.len(), 1);
    assert_eq!(intel.found[0].piece, "cruiser");
    assert_eq!(intel.found[0].cells, vec!["a4", "b4", "c4", "d4", "e4"]);
}

#[test]
fn case_62_eliminated_board_is_revealed_and_inert() {
    let mut g = setup(["", "", "", ""], 0);
    for k in 0..5 {
        sink(&mut g, 1, k);
    }
    turn(&mut g, &["carrier:fire 2:a12", "cruiser:fire 2:b12"]);
    let spectator = g.observe(Viewer::Spectator);
    assert_eq!(spectator.boards[1].fleet.as_ref().map(Vec::len), Some(9));
    assert!(spectator.boards[2].fleet.is_none());
    for s in [2u8, 3] {
        assert!(
            g.check_order(
                s,
                CARRIER,
                &Order::Fire {
                    target: 1,
                    cell: cell("n14")
                }
            )
            .unwrap_err()
            .contains("eliminated")
        );
    }
    let mut legal = Vec::new();
    g.legal_actions(Seat(2), &mut legal);
    assert!(legal.iter().all(
        |a| !matches!(a, plateau_naval::Action::Order { order, .. } if order.target() == Some(1))
    ));
}

#[test]
fn case_63_turn_timeout_fires_the_plan() {
    let mut g = setup(["", "", "", ""], 0);
    for o in [
        "carrier:fire 2:k1",
        "cruiser:fire 2:k2",
        "battleship:fire 2:k3",
        "frigate:fire 2:k4",
    ] {
        try_order(&mut g, o).unwrap();
    }
    let acts = g.timeout_actions(Seat(0)).unwrap();
    let texts: Vec<String> = acts.iter().map(|a| g.format_action(a)).collect();
    assert_eq!(texts, vec!["submarine:pass", "corvette:pass"]);
    for a in acts {
        g.apply(Actor::Seat(Seat(0)), &a).unwrap();
    }
    assert_eq!(g.boards[0].energy, [0, 0, 0, 0, 75, 75]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(1)));
}

#[test]
fn case_64_sunk_ship_loses_energy_and_never_acts() {
    let mut g = setup(["", "", "", ""], 1);
    g.boards[0].energy[CRUISER as usize] = 300;
    g.boards[0].hit |= cells("a4 b4 c4 d4");
    turn(&mut g, &["carrier:fire 1:e4"]);
    assert!(g.boards[0].is_sunk(CRUISER));
    assert_eq!(g.boards[0].energy[CRUISER as usize], 0);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    try_order(&mut g, "carrier:pass").unwrap();
    assert_eq!(g.turn.next, 2, "the cruiser is skipped");
    assert!(
        try_order(&mut g, "cruiser:pass")
            .unwrap_err()
            .contains("sunk")
    );
}

#[test]
fn terminal_drawing_shows_own_fleet_and_known_markers_only() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:a1", "cruiser:fire 2:k10"]);
    let text = g.render_text(Viewer::Seat(Seat(0)), false);
    println!("{text}");
    assert!(text.contains("seat 1 (you)"));
    let row1 = text
        .lines()
        .find(|l| l.trim_start().starts_with("1 A"))
        .unwrap();
    // Own carrier on a1-f1; seat 2's a1 hit shown as X with its block (+), nothing of its fleet.
    assert!(row1.contains("A A A A A A"), "{row1}");
    assert!(row1.contains("X + . . . ."), "{row1}");
    assert!(text.contains("energy: carrier 200, cruiser 0, battleship 75"));
}

#[test]
fn resignation_eliminates_the_seat() {
    use plateau_engine::Ending;
    let mut g = setup(["", "", "", ""], 0);
    try_order(&mut g, "carrier:fire 2:a1").unwrap();
    g.end(Ending::Resign(Seat(0))).unwrap();
    assert!(g.boards[0].out);
    assert_eq!(
        g.to_act(),
        ToAct::Player(Seat(1)),
        "the resigning seat's plan is dropped"
    );
    assert!(!g.boards[1].resolved().has(cell("a1")));
    g.end(Ending::Resign(Seat(3))).unwrap();
    assert!(g.end(Ending::Resign(Seat(3))).is_err());
    g.end(Ending::Resign(Seat(2))).unwrap();
    assert!(over(&g));
    assert_eq!(g.outcome().unwrap().ranks, vec![4, 1, 2, 3]);
    assert_eq!(
        g.end(Ending::Resign(Seat(1))),
        Err(plateau_engine::IllegalAction::GameOver)
    );
}
