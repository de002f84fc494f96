//! Cases 44-64: energy in depth, blocks, shields, torpedoes, EMPs, sensors, eliminated boards,
//! timeouts (sections 7-13); the terminal drawing and resignation.

use plateau_engine::{Actor, Game, Seat, ToAct, Viewer};
use plateau_naval::bits::Bits;
use plateau_naval::piece::Ship;
use plateau_naval::state::Resolution;
use plateau_naval::{Dir, Naval, Order};

use super::common::*;
use super::obs;

#[test]
fn case_44_third_hit_75_fifth_hit_100() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[1].hit |= cells("a4 b4");
    turn(&mut g, &["cruiser:fire 2:c4"]);
    assert_eq!(g.boards[0].energy[Ship::Cruiser as usize], 75);
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    g.boards[1].hit |= cells("d4");
    turn(&mut g, &["cruiser:fire 2:e4"]);
    assert_eq!(g.boards[0].energy[Ship::Cruiser as usize], 175);
    assert!(g.boards[1].is_sunk(Ship::Cruiser));
}

#[test]
fn case_45_fresh_buoy_pays_200_and_blocks() {
    let mut g = setup(["", "", "", ""], 0);
    turn(&mut g, &["carrier:fire 2:n1"]);
    assert_eq!(g.boards[0].energy[Ship::Carrier as usize], 200);
    assert_eq!(g.blocks[1][0], Bits::around(cell("n1")));
}

#[test]
fn case_46_special_first_hit_pays_the_victim_not_the_firer() {
    let mut g = setup(["", "", "", ""], 0);
    for c in cells("d3 e3 f3 f4 d5 e5 f5").iter() {
        g.boards[1].miss.set(c);
    }
    g.boards[0].energy[Ship::Cruiser as usize] = 450;
    turn(&mut g, &["cruiser:heavy 2:e4"]);
    assert_eq!(g.boards[1].hit, cells("d4 e4"));
    assert_eq!(
        g.boards[0].energy[Ship::Cruiser as usize],
        0,
        "450 spent, nothing gained"
    );
    assert_eq!(
        g.blocks[1][0],
        Bits::around(cell("d4")),
        "first hit in row-major order"
    );
    assert_eq!(
        g.boards[1].energy[Ship::Cruiser as usize],
        400,
        "two cruiser cells: 2 x 200"
    );
}

#[test]
fn case_47_misses_next_to_a_ship_pay_it_up_to_100_per_action() {
    let seat1 = "carrier@a13h cruiser@i4h battleship@a6h frigate@c3h submarine@a10h corvette@a12h buoy1@n1 buoy2@n3 buoy3@n5";
    let mut g = setup(["", seat1, "", ""], 0);
    turn(&mut g, &["carrier:fire 2:d4"]);
    assert_eq!(g.boards[1].energy[Ship::Frigate as usize], 75);

    let mut g = setup(["", seat1, "", ""], 0);
    g.boards[0].energy[Ship::Frigate as usize] = 500;
    turn(&mut g, &["frigate:rockets 2:c3"]);
    let six = cells("b2 c2 d2 e2 c4 d4");
    while let Some(c) = g.rocket_cell() {
        rocket(&mut g, six.has(c));
    }
    assert_eq!(g.boards[1].miss, six);
    assert_eq!(g.boards[1].energy[Ship::Frigate as usize], 100);
}

#[test]
fn case_48_overlapping_blocks() {
    let mut g = setup(["", "", "", ""], 3);
    let x = cell("k10");
    g.blocks[2][0].set(x);
    g.blocks[2][1].set(x);
    let fire = Order::Fire {
        target: Seat(2),
        cell: x,
    };
    for s in [0u8, 1, 3] {
        assert!(
            g.check_order(Seat(s), Ship::Carrier, &fire).is_err(),
            "seat {s}"
        );
    }
    turn(&mut g, &[]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    assert!(g.blocks[2][0].is_empty());
    assert!(
        g.check_order(Seat(0), Ship::Carrier, &fire).is_err(),
        "seat 1's block still applies"
    );
    assert!(g.check_order(Seat(3), Ship::Carrier, &fire).is_err());
    assert!(
        g.check_order(Seat(1), Ship::Carrier, &fire).is_ok(),
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
    g.boards[3].energy[Ship::Cruiser as usize] = 450;
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
    g.boards[1].energy[Ship::Carrier as usize] = 1000;
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
    g.boards[1].energy[Ship::Corvette as usize] = 350;
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
    g.boards[0].energy[Ship::Cruiser as usize] = 450;
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
    g.boards[0].energy[Ship::Cruiser as usize] = 200;
    turn(&mut g, &["cruiser:artillery 2:b3"]);
    let seen = obs(&g, 3).boards[1].shield.clone().unwrap();
    assert_eq!(seen.charges, 1);
    assert_eq!(seen.cells.len(), 9);
}

#[test]
fn case_52_corvette_cells_are_never_protected() {
    let seat1 = DEFAULT.replace("corvette@a12h", "corvette@f3v");
    let mut g = setup(["", &seat1, "", ""], 1);
    g.boards[1].energy[Ship::Corvette as usize] = 350;
    turn(&mut g, &["corvette:shield 2:e4"]);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    g.boards[0].energy[Ship::Cruiser as usize] = 200;
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
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right7"]);
    assert_eq!(
        g.last_turn[Ship::Submarine as usize].result,
        Resolution::Fizzled
    );
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
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    turn(&mut g, &["submarine:torpedo 2:right4"]);
    assert_eq!(
        g.last_turn[Ship::Submarine as usize].result,
        Resolution::Exploded(cell("a4"))
    );
    assert_eq!(g.boards[1].resolved(), cells("b3 c3 b4 c4 a5 c5"));
}

#[test]
fn case_56_adjacency_with_fewer_survivors() {
    let mut g = setup(["", "", "", ""], 0);
    knock_out(&mut g, 3);
    let t = |target, dir| Order::Torpedo {
        target: Seat(target),
        dir,
        lane: 0,
    };
    g.boards[0].energy[Ship::Submarine as usize] = 450;
    g.boards[1].energy[Ship::Submarine as usize] = 450;
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &t(1, Dir::Right))
            .is_ok()
    );
    assert!(
        g.check_order(Seat(0), Ship::Submarine, &t(2, Dir::Right))
            .is_err()
    );
    assert!(
        g.check_order(Seat(1), Ship::Submarine, &t(0, Dir::Left))
            .is_ok()
    );
    assert!(
        g.check_order(Seat(1), Ship::Submarine, &t(2, Dir::Down))
            .is_ok()
    );
    knock_out(&mut g, 1);
    g.boards[2].energy[Ship::Submarine as usize] = 450;
    for d in [Dir::Right, Dir::Left, Dir::Down, Dir::Up] {
        assert!(g.check_order(Seat(0), Ship::Submarine, &t(2, d)).is_ok());
        assert!(g.check_order(Seat(2), Ship::Submarine, &t(0, d)).is_ok());
    }
}

#[test]
fn case_57_disabled_ships_do_not_act_but_still_gain_from_hits() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 1000;
    turn(&mut g, &["carrier:emp 2"]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(2)), "seat 1 skipped");
    assert_eq!(g.boards[1].energy, [0; 6], "no pass bonus");
    turn(&mut g, &["carrier:fire 2:a6"]);
    assert_eq!(g.boards[1].energy[2], 250);
}

#[test]
fn case_58_no_emp_on_disabled_or_immune() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 1000;
    turn(&mut g, &["carrier:emp 2"]);
    g.boards[2].energy[Ship::Carrier as usize] = 1000;
    assert!(
        g.check_order(Seat(2), Ship::Carrier, &Order::Emp { target: Seat(1) })
            .unwrap_err()
            .to_string()
            .contains("disabled")
    );
    g.boards[1].emp_left = 0;
    g.boards[1].immune = true;
    assert!(
        g.check_order(Seat(2), Ship::Carrier, &Order::Emp { target: Seat(1) })
            .unwrap_err()
            .to_string()
            .contains("immune")
    );
}

#[test]
fn case_59_emp_needs_a_full_meter() {
    let mut g = setup(["", "", "", ""], 0);
    g.boards[0].energy[Ship::Carrier as usize] = 999;
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
    g.boards[0].energy[Ship::Corvette as usize] = 250;
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
                Seat(s),
                Ship::Carrier,
                &Order::Fire {
                    target: Seat(1),
                    cell: cell("n14")
                }
            )
            .unwrap_err()
            .to_string()
            .contains("eliminated")
        );
    }
    let mut legal = Vec::new();
    g.legal_actions(Seat(2), &mut legal);
    assert!(legal.iter().all(
        |a| !matches!(a, plateau_naval::Action::Order { order, .. } if order.target() == Some(Seat(1)))
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
    g.boards[0].energy[Ship::Cruiser as usize] = 300;
    g.boards[0].hit |= cells("a4 b4 c4 d4");
    turn(&mut g, &["carrier:fire 1:e4"]);
    assert!(g.boards[0].is_sunk(Ship::Cruiser));
    assert_eq!(g.boards[0].energy[Ship::Cruiser as usize], 0);
    turn(&mut g, &[]);
    turn(&mut g, &[]);
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    try_order(&mut g, "carrier:pass").unwrap();
    assert_eq!(
        g.turn.next,
        Some(Ship::Battleship),
        "the cruiser is skipped"
    );
    assert!(
        try_order(&mut g, "cruiser:pass")
            .unwrap_err()
            .to_string()
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

/// Pieces a satellite found are drawn by their own letters: a buoy is `O`, not `B` like the
/// battleship; the carrier `A` and the corvette `V`, not `C` like the cruiser.
#[test]
fn found_pieces_are_drawn_by_their_own_letters() {
    use plateau_naval::Ability;
    let layout = "carrier@a1h cruiser@a4h battleship@a6h frigate@a8h submarine@a10h \
                  corvette@j12h buoy1@n1 buoy2@n3 buoy3@n5";
    let mut g = setup(["", layout, "", ""], 0);
    // Seat 1's satellite found, on seat 2's board, the carrier (a1-f2), the three buoys down
    // column n and the corvette on j12-k12.
    g.scans[0][1].satellite = Ability::Satellite.area(cell("c3"), false)
        | Ability::Satellite.area(cell("l3"), false)
        | Ability::Satellite.area(cell("l12"), false);
    let text = g.render_text(Viewer::Seat(Seat(0)), false);
    let right = |row: &str| {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{row} ")))
            .unwrap();
        line[34..].to_owned()
    };
    assert_eq!(
        right("1").trim_end(),
        " 1 A A A A A A . . . . . . . O",
        "{text}"
    );
    assert!(right("3").trim_end().ends_with('O'), "{text}");
    assert!(right("12").contains("V V"), "{text}");
    let found: String = (1..=14).map(|r| right(&r.to_string())).collect();
    assert!(!found.contains('B'), "no battleship was found: {text}");
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

/// Section 13: every announcement says what its shots did on the board it struck (hits, misses,
/// ships sunk: public markers), the same for every viewer; the turns before the last one are kept
/// (one round with it), so a seat learns everything since its own last turn; and both read back
/// from the position text.
#[test]
fn announcements_name_their_hits_misses_and_sinks_and_a_round_is_kept() {
    let mut g = setup(["", "", "", ""], 0);
    // DEFAULT puts seat 2's corvette on a12-b12; m14 is open water.
    turn(
        &mut g,
        &[
            "carrier:fire 2:a12",
            "cruiser:fire 2:b12",
            "battleship:fire 2:m14",
        ],
    );
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        let o = g.observe(viewer);
        let said: Vec<_> = o
            .last_turn
            .iter()
            .map(|a| (a.hits.join(" "), a.misses.join(" "), a.sunk.join(" ")))
            .collect();
        let text = |a: &str, b: &str, c: &str| (a.to_owned(), b.to_owned(), c.to_owned());
        assert_eq!(
            said,
            [
                text("a12", "", ""),
                text("b12", "", "corvette"),
                text("", "m14", ""),
                text("", "", ""),
                text("", "", ""),
                text("", "", ""),
            ],
            "{viewer:?}"
        );
        assert!(o.earlier_turns.is_empty());
    }
    let first = obs(&g, 2).last_turn;
    turn(&mut g, &[]);
    assert_eq!(obs(&g, 2).earlier_turns, [first]);
    assert_eq!(obs(&g, 2).last_turn[0].seat, Seat(1));
    for _ in 0..3 {
        turn(&mut g, &[]);
    }
    // Seats 2, 3, 4 and 1 again have played since: the first turn is forgotten, three are kept.
    let o = obs(&g, 2);
    assert_eq!(o.last_turn[0].seat, Seat(0));
    let seats: Vec<_> = o.earlier_turns.iter().map(|t| t[0].seat).collect();
    assert_eq!(seats, [Seat(1), Seat(2), Seat(3)]);
    let back = Naval::parse_position(&g.config, &g.format_position()).unwrap();
    assert_eq!(back.earlier_turns, g.earlier_turns);
    assert_eq!(back.last_turn, g.last_turn);
}

/// Section 13: an announced shield is in parts as in notation: its centre and area for its caster
/// only; every other order in full for all (here a shot, with its board and cell). A seat's own
/// orders given so far come in parts too (`plan_info`, in the order of `plan`).
#[test]
fn announcements_and_the_plan_in_parts_tell_what_their_notation_does() {
    let mut g = setup(["", "", "", ""], 1);
    g.boards[1].energy[Ship::Corvette as usize] = 350;
    // Seat 1's turn, half given: its plan in parts.
    apply(&mut g, Actor::Seat(Seat(1)), "carrier:fire 1:e5");
    let mine = obs(&g, 1);
    assert_eq!(mine.plan, ["carrier:fire 1:e5"]);
    assert_eq!(mine.plan_info.len(), 1);
    assert_eq!(mine.plan_info[0].kind, "fire");
    assert_eq!(mine.plan_info[0].pieces, ["carrier"]);
    assert_eq!(mine.plan_info[0].target, Some(0));
    assert_eq!(mine.plan_info[0].to.as_deref(), Some("e5"));
    assert!(
        obs(&g, 0).plan_info.is_empty(),
        "another seat's plan is not shown"
    );
    turn(&mut g, &["corvette:shield 2:c4"]);
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let o = g.observe(viewer);
        let shot = o.last_turn.iter().find(|a| a.info.kind == "fire").unwrap();
        assert_eq!(shot.info.to.as_deref(), Some("e5"), "{viewer:?}");
        assert_eq!(shot.info.target, Some(0));
        let shield = o
            .last_turn
            .iter()
            .find(|a| a.info.kind == "shield")
            .unwrap();
        assert_eq!(shield.info.pieces, ["corvette"]);
        assert_eq!(shield.info.target, Some(1));
        assert!(shield.exploded_at.is_none());
        if viewer == Viewer::Seat(Seat(1)) {
            assert_eq!(shield.order, "corvette:shield 2:c4");
            assert_eq!(shield.info.to.as_deref(), Some("c4"));
            assert!(!shield.info.cells.is_empty());
        } else {
            assert_eq!(shield.order, "corvette:shield 2", "{viewer:?}");
            assert_eq!(
                shield.info.to, None,
                "{viewer:?}: the centre is the caster's"
            );
            assert!(shield.info.cells.is_empty(), "{viewer:?}: so is the area");
        }
    }
}
