//! The numbered cases of rules/mad.md section 10, one test each (`case_NN_...`).

use crate::common::{at, blue, is_legal, legal, must_play, on, play, red, start};
use plateau_engine::{Actor, Ending, Game, IllegalAction, Seat, ToAct};
use plateau_mad::{Action, Mad, MadConfig, Side};

fn expect_refused(state: &mut Mad, text: &str, reason_contains: &str) {
    match play(state, text) {
        Ok(()) => panic!("`{text}` was accepted in {}", state.format_position()),
        Err(e) => assert!(
            e.contains(reason_contains),
            "`{text}` refused for `{e}`, expected a reason containing `{reason_contains}`"
        ),
    }
}

fn exile(state: &Mad, side: char) -> Vec<String> {
    state.observation().exile[&side.to_string()].clone()
}

/// The codes of `side` that went into exile between `before` and `after`.
fn newly_exiled(before: &Mad, after: &Mad, side: char) -> Vec<String> {
    let old = exile(before, side);
    exile(after, side)
        .into_iter()
        .filter(|c| !old.contains(c))
        .collect()
}

#[test]
fn case_01_each_turn_is_one_coup() {
    for state in [start(false), start(true), case_42_position()] {
        let mut out = Vec::new();
        state.legal_actions(state.side().seat(), &mut out);
        for action in out {
            let mut child = state;
            child
                .apply(Actor::Seat(state.side().seat()), &action)
                .unwrap();
            assert_eq!(child.ply(), state.ply() + 1, "{action}");
            assert_eq!(child.side(), state.side().other(), "{action}");
            assert!(matches!(
                action,
                Action::Move(_) | Action::Shift(_) | Action::Bonus(..) | Action::Pass
            ));
        }
    }
}

#[test]
fn case_02_no_diagonal_single_step() {
    // A 1-sail ship cannot step diagonally at all.
    let mut s = red(&[("R121", "c3")]);
    expect_refused(&mut s, "c3-d4", "moves at most 1 cell");
    // A 2-sail ship reaches d4 only as a 2-step L, so it needs c4 or d3 free.
    let s = red(&[("R211", "c3")]);
    assert!(is_legal(&s, "c3-d4"));
    let mut blocked = red(&[("R211", "c3"), ("R122", "c4"), ("R221", "d3")]);
    expect_refused(&mut blocked, "c3-d4", "both paths");
}

#[test]
fn case_03_two_sail_ship_may_move_one_cell() {
    let mut s = red(&[("R211", "c3")]);
    must_play(&mut s, "c3-c4");
    assert_eq!(on(&s, "c4").as_deref(), Some("R211"));
}

#[test]
fn case_04_expelling_ends_the_move() {
    let s = red(&[("R221", "b3"), ("B121", "b4")]);
    let mut after = s;
    must_play(&mut after, "b3xb4");
    assert_eq!(on(&after, "b4").as_deref(), Some("R221"));
    assert_eq!(newly_exiled(&s, &after, 'b'), ["121"]);
    let mut through = s;
    expect_refused(&mut through, "b3-b5", "path through b4 is blocked");
}

#[test]
fn case_05_intermediate_cell_must_be_empty() {
    let mut own = red(&[("R211", "c2"), ("R122", "c3")]);
    expect_refused(&mut own, "c2-c4", "path through c3 is blocked");
    let mut enemy = red(&[("R211", "c2"), ("B122", "c3")]);
    expect_refused(&mut enemy, "c2-c4", "path through c3 is blocked");
}

#[test]
fn case_06_no_round_trip() {
    let mut s = red(&[("R211", "c3")]);
    expect_refused(&mut s, "c3-c3", "different cell");
    assert!(!legal(&s).iter().any(|t| t.starts_with("c3-c3")));
}

#[test]
fn case_07_never_onto_own_ship() {
    let mut s = red(&[("R212", "b3"), ("R121", "b4")]);
    expect_refused(&mut s, "b3-b4", "your own ship");
    let mut two = red(&[("R212", "b2"), ("R121", "b4")]);
    expect_refused(&mut two, "b2-b4", "your own ship");
}

#[test]
fn case_08_expulsion_exiles_only_the_enemy() {
    let before = red(&[("R211", "c3"), ("B121", "c4")]);
    let mut s = before;
    must_play(&mut s, "c3xc4");
    assert_eq!(newly_exiled(&before, &s, 'b'), ["121"]);
    assert!(newly_exiled(&before, &s, 'r').is_empty());
    assert_eq!(on(&s, "c4").as_deref(), Some("R211"));
}

#[test]
fn case_09_one_cannon_cannot_expel_two_shields() {
    let mut one = red(&[("R211", "c3"), ("B112", "c4")]);
    expect_refused(&mut one, "c3xc4", "cannot expel 112");
    let mut two = red(&[("R211", "c2"), ("B112", "c4")]);
    expect_refused(&mut two, "c2xc4", "cannot expel 112");
}

#[test]
fn case_10_four_permutations_with_a_full_fleet() {
    let perms: Vec<String> = legal(&start(false))
        .into_iter()
        .filter(|t| t.starts_with('P'))
        .collect();
    assert_eq!(
        perms,
        ["P(111,222)", "P(112,221)", "P(121,212)", "P(122,211)"]
    );
}

#[test]
fn case_11_corvette_self_exile_loses() {
    let mut s = red(&[("R111", "b1")]);
    assert!(is_legal(&s, "P(111,222)"));
    must_play(&mut s, "P(111,222)");
    assert_eq!(on(&s, "b1").as_deref(), Some("R222"));
    assert!(exile(&s, 'r').contains(&"111".to_owned()));
    assert_eq!(s.to_act(), ToAct::Terminal);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.kind, "corvette");
    assert_eq!(outcome.ranks, [2, 1]);
    assert_eq!(outcome.scores, [0.0, 1.0]);
}

#[test]
fn case_12_four_rotations_with_full_pools() {
    let rots: Vec<String> = legal(&start(false))
        .into_iter()
        .filter(|t| t.starts_with('R'))
        .collect();
    assert_eq!(
        rots,
        [
            "R(112>121>211)",
            "R(112>211>121)",
            "R(122>212>221)",
            "R(122>221>212)"
        ]
    );
}

#[test]
fn case_13_no_action_moves_only_two_frigates() {
    let frigates = |s: &Mad| -> Vec<Option<u8>> {
        [1u8, 2, 4]
            .iter()
            .map(|k| s.position_of(Side::Red, *k))
            .collect()
    };
    let s = start(false);
    let mut out = Vec::new();
    s.legal_actions(Seat(0), &mut out);
    for action in out {
        let mut child = s;
        child.apply_legal(Actor::Seat(Seat(0)), &action);
        let moved = frigates(&s)
            .iter()
            .zip(frigates(&child))
            .filter(|(a, b)| **a != *b)
            .count();
        assert_ne!(moved, 2, "{action} moves exactly two frigates");
    }
    assert!(Action::parse("R(112>121)").is_err());
}

#[test]
fn case_14_rotation_needs_two_ships_on_board() {
    // Red 121 and 112 are exiled (absent); R211 is on the board.
    let mut s = red(&[("R211", "c3"), ("R122", "b2")]);
    expect_refused(&mut s, "R(112>121>211)", "at least two");
    expect_refused(&mut s, "R(112>211>121)", "at least two");
    assert!(is_legal(&s, "P(122,211)"));
}

#[test]
fn case_15_expelling_turn_is_one_coup() {
    let mut s = red(&[("R211", "c3"), ("B121", "c4")]);
    must_play(&mut s, "c3xc4");
    assert_eq!(s.side(), Side::Blue);
    assert_eq!(s.to_act(), ToAct::Player(Seat(1)));
}

#[test]
fn case_16_turn_ends_after_a_movement() {
    let mut s = red(&[("R211", "c3"), ("R112", "b2")]);
    let mut composite = s;
    expect_refused(&mut composite, "c3-c4+P(122,211)", "last row");
    must_play(&mut s, "c3-c4");
    let again = s.parse_action("c4-c5").unwrap();
    assert_eq!(
        s.apply(Actor::Seat(Seat(0)), &again),
        Err(IllegalAction::NotToAct {
            actor: Actor::Seat(Seat(0))
        })
    );
}

#[test]
fn case_17_no_pass_and_no_zero_move() {
    // Red's third turn (turn 5 of the game, ply 4), no expulsion so far.
    let mut turn5 =
        at("B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 4 4 -");
    expect_refused(&mut turn5, "pass", "positioning turn");
    expect_refused(&mut turn5, "c2-c2", "different cell");
    let mut with_rule = Mad::parse_position(
        &MadConfig {
            positioning_turn: true,
            ..MadConfig::default()
        },
        &turn5.format_position(),
    )
    .unwrap();
    expect_refused(&mut with_rule, "pass", "positioning turn");
}

#[test]
fn case_18_expelling_the_corvette_wins() {
    let mut s = red(&[("R121", "b5"), ("B111", "b6")]);
    must_play(&mut s, "b5xb6");
    assert_eq!(s.to_act(), ToAct::Terminal);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.kind, "corvette");
    assert_eq!(outcome.scores, [1.0, 0.0]);
    assert!(legal(&s).is_empty());
    let mut out = Vec::new();
    s.legal_actions(Seat(1), &mut out);
    assert!(out.is_empty());
    let any = s.parse_action("b6-b5").unwrap();
    assert_eq!(
        s.apply(Actor::Seat(Seat(1)), &any),
        Err(IllegalAction::GameOver)
    );
}

#[test]
fn case_19_last_row_move_without_shift() {
    let mut s = red(&[("R112", "d5"), ("B111", "a6")]);
    must_play(&mut s, "d5-d6");
    assert_eq!(on(&s, "d6").as_deref(), Some("R112"));
    assert_eq!(s.side(), Side::Blue);
}

#[test]
fn case_20_expelling_does_not_cancel_the_bonus() {
    let s = red(&[("R121", "c5"), ("B212", "c6"), ("R212", "a3")]);
    assert!(is_legal(&s, "c5xc6+P(121,212)"));
    let mut after = s;
    must_play(&mut after, "c5xc6+P(121,212)");
    assert_eq!(on(&after, "c6").as_deref(), Some("R212"));
    assert_eq!(on(&after, "a3").as_deref(), Some("R121"));
    assert_eq!(newly_exiled(&s, &after, 'b'), ["212"]);
    assert_eq!((after.since(), after.last_expeller()), (0, Some(Side::Red)));
}

#[test]
fn case_21_bonus_shift_must_involve_the_arrived_ship() {
    let mut s = red(&[
        ("R112", "d5"),
        ("R122", "b2"),
        ("R211", "c2"),
        ("B111", "a6"),
    ]);
    expect_refused(
        &mut s,
        "d5-d6+P(122,211)",
        "involve the ship that moved (112)",
    );
    assert!(is_legal(&s, "d5-d6+P(112,221)"));
    assert!(is_legal(&s, "d5-d6+R(112>121>211)"));
    assert!(is_legal(&s, "d5-d6+R(112>211>121)"));
}

#[test]
fn case_22_bonus_only_after_a_one_cell_step() {
    let s = red(&[("R211", "d5"), ("B111", "a6")]);
    assert!(is_legal(&s, "d5-d6+P(122,211)"));
    let mut far = red(&[("R211", "d4"), ("B111", "a6")]);
    assert!(is_legal(&far, "d4-d6"));
    expect_refused(&mut far, "d4-d6+P(122,211)", "1-cell movement");
}

#[test]
fn case_23_sideways_on_the_last_row_gives_a_bonus() {
    let s = red(&[("R121", "a6")]);
    assert!(is_legal(&s, "a6-b6+P(121,212)"));
    // The implementation's test: R112 on a6, its 221 exiled, no other frigate: one bonus action.
    let s = red(&[("R112", "a6")]);
    let bonus: Vec<String> = legal(&s)
        .into_iter()
        .filter(|t| t.starts_with("a6-b6+"))
        .collect();
    assert_eq!(bonus, ["a6-b6+P(112,221)"]);
}

const POSITIONING_START: [&str; 9] = [
    "P(111,222)",
    "P(112,221)",
    "P(121,212)",
    "P(122,211)",
    "R(112>121>211)",
    "R(112>211>121)",
    "R(122>212>221)",
    "R(122>221>212)",
    "pass",
];

#[test]
fn case_24_positioning_turn_forbids_movement() {
    let mut s = start(true);
    assert_eq!(legal(&s), POSITIONING_START);
    assert!(s.observation().positioning);
    expect_refused(&mut s, "c2-c3", "positioning turn");
}

#[test]
fn case_25_positioning_turn_for_blue_too() {
    let mut s = start(true);
    must_play(&mut s, "pass");
    assert_eq!(
        s.format_position(),
        "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 b 1 1 -"
    );
    assert_eq!(legal(&s), POSITIONING_START);
    expect_refused(&mut s, "c5-c4", "positioning turn");
    must_play(&mut s, "R(112>121>211)");
    assert!(!s.observation().positioning);
    assert_eq!(legal(&s).len(), 15);
    must_play(&mut s, "c2-c4");
}

#[test]
fn case_26_fifteen_opening_actions() {
    let mut s = start(false);
    assert_eq!(
        legal(&s),
        [
            "P(111,222)",
            "P(112,221)",
            "P(121,212)",
            "P(122,211)",
            "R(112>121>211)",
            "R(112>211>121)",
            "R(122>212>221)",
            "R(122>221>212)",
            "a2-a3",
            "b2-b3",
            "c2-b3",
            "c2-c3",
            "c2-c4",
            "c2-d3",
            "d2-d3",
        ]
    );
    expect_refused(&mut s, "pass", "positioning turn");
}

#[test]
fn case_27_tiebreak_goes_to_the_last_expeller() {
    // Blue expelled at ply 57; 39 turns without an expulsion were played since (plies 58..96).
    let text = "B221B111B222B212/B121B122B211B112/4/4/R121R1221R112/R221R111R222R212 r 96 39 b";
    let mut s = at(text);
    assert_eq!(s.to_act(), ToAct::Player(Seat(0)));
    must_play(&mut s, "a2-a3"); // ply 97
    assert_eq!(s.to_act(), ToAct::Terminal);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.kind, "tiebreak");
    assert_eq!(outcome.ranks, [2, 1]);
    assert_eq!(outcome.scores, [0.0, 0.5]);
    // One turn earlier the game still runs.
    let mut earlier = at(&text.replace("r 96 39 b", "r 96 38 b"));
    must_play(&mut earlier, "a2-a3");
    assert_eq!(earlier.to_act(), ToAct::Player(Seat(1)));
    // The same with Red as the last expeller: Red wins.
    let mut red_last = at(&text.replace("r 96 39 b", "r 96 39 r"));
    must_play(&mut red_last, "a2-a3");
    assert_eq!(red_last.outcome().unwrap().scores, [0.5, 0.0]);
}

#[test]
fn case_28_tiebreak_without_any_expulsion_goes_to_blue() {
    let mut s = start(false);
    for turn in 1..=40 {
        assert_eq!(s.to_act(), ToAct::Player(s.side().seat()), "turn {turn}");
        must_play(&mut s, "P(111,222)");
    }
    assert_eq!((s.ply(), s.since(), s.last_expeller()), (40, 40, None));
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.kind, "tiebreak");
    assert_eq!(outcome.ranks, [2, 1]);
    assert_eq!(outcome.scores, [0.0, 0.5]);
}

#[test]
fn case_29_never_a_draw() {
    let config = MadConfig {
        tiebreak_limit: 10,
        ..MadConfig::default()
    };
    let report = plateau_testkit::check_playouts::<Mad>(
        &config,
        2,
        &plateau_testkit::Options {
            games: 200,
            seed: 29,
            max_actions: 600,
            deep_every: 50,
            determinizations: 4,
        },
    );
    assert_eq!(report.games, 200);
    // Exactly one winner per game: the win counts add up to the games.
    assert_eq!(report.wins.iter().sum::<usize>(), 200);
    assert!(
        report
            .endings
            .keys()
            .all(|k| k == "corvette" || k == "tiebreak")
    );
}

#[test]
fn case_30_semi_victory_is_its_own_kind() {
    let mut tie =
        at("B221B111B222B212/B121B122B211B112/4/4/R121R1221R112/R221R111R222R212 r 96 39 b");
    must_play(&mut tie, "a2-a3");
    let mut full = red(&[("R121", "b5"), ("B111", "b6")]);
    must_play(&mut full, "b5xb6");
    let (tie, full) = (tie.outcome().unwrap(), full.outcome().unwrap());
    assert_eq!(
        (tie.kind.as_str(), full.kind.as_str()),
        ("tiebreak", "corvette")
    );
    assert!(tie.scores.iter().cloned().fold(0.0, f64::max) < full.scores[0]);
}

#[test]
fn case_31_agreed_stop() {
    let mut never = start(false);
    never.end(Ending::Agreement).unwrap();
    let outcome = never.outcome().unwrap();
    assert_eq!(
        (outcome.kind.as_str(), outcome.scores.clone()),
        ("agreement", vec![0.0, 0.5])
    );
    let mut red_expelled = red(&[("R221", "b3"), ("B121", "b4")]);
    must_play(&mut red_expelled, "b3xb4");
    red_expelled.end(Ending::Agreement).unwrap();
    assert_eq!(red_expelled.outcome().unwrap().ranks, [1, 2]);
    assert_eq!(
        red_expelled.end(Ending::Agreement),
        Err(IllegalAction::GameOver)
    );
    assert_eq!(legal(&red_expelled), Vec::<String>::new());
    // Timeout and resignation: the other side wins outright.
    let mut timeout = start(false);
    timeout.end(Ending::Timeout(Seat(0))).unwrap();
    let o = timeout.outcome().unwrap();
    assert_eq!(
        (o.kind.as_str(), o.scores.clone()),
        ("timeout", vec![0.0, 1.0])
    );
    let mut resign = start(false);
    resign.end(Ending::Resign(Seat(1))).unwrap();
    let o = resign.outcome().unwrap();
    assert_eq!(
        (o.kind.as_str(), o.scores.clone()),
        ("resign", vec![1.0, 0.0])
    );
    let mut bad = start(false);
    assert!(bad.end(Ending::Resign(Seat(2))).is_err());
    assert_eq!(bad, start(false));
}

#[test]
fn case_32_shifts_never_remove_an_enemy() {
    for s in [start(false), case_42_position()] {
        let mut out = Vec::new();
        s.legal_actions(s.side().seat(), &mut out);
        for action in out.iter().filter(|a| matches!(a, Action::Shift(_))) {
            let mut child = s;
            child.apply_legal(Actor::Seat(s.side().seat()), action);
            assert_eq!(exile(&child, 'b'), exile(&s, 'b'), "{action}");
        }
    }
}

#[test]
fn case_33_capture_matrix() {
    // From the rules text: 1-cannon ships expel only 1-shield ships; 2-cannon ships expel all.
    let one_cannon = ["111", "211", "112", "212"];
    let one_shield = ["111", "211", "121", "221"];
    let codes = ["111", "112", "121", "122", "211", "212", "221", "222"];
    for attacker in codes {
        for defender in codes {
            let a = format!("R{attacker}");
            let d = format!("B{defender}");
            let s = red(&[(a.as_str(), "b3"), (d.as_str(), "b4")]);
            let expected = !one_cannon.contains(&attacker) || one_shield.contains(&defender);
            assert_eq!(is_legal(&s, "b3xb4"), expected, "{a} onto {d}");
        }
    }
    for (a, d, expected) in [
        ("R111", "B121", true),
        ("R111", "B112", false),
        ("R212", "B221", true),
        ("R212", "B122", false),
        ("R121", "B222", true),
    ] {
        let s = red(&[(a, "b3"), (d, "b4")]);
        assert_eq!(is_legal(&s, "b3xb4"), expected, "{a} onto {d}");
    }
}

#[test]
fn case_34_l_move_around_a_blocked_cell() {
    let mut s = red(&[("R212", "b3"), ("R121", "b4")]);
    assert!(is_legal(&s, "b3-c4"));
    expect_refused(&mut s, "b3-b5", "path through b4 is blocked");
}

#[test]
fn case_35_l_move_with_both_paths_blocked() {
    let mut s = red(&[("R211", "c3"), ("R122", "c4"), ("B221", "d3")]);
    expect_refused(
        &mut s,
        "c3-d4",
        "both paths, through d3 and through c4, are blocked",
    );
}

#[test]
fn case_36_two_step_capture() {
    let before = red(&[("R221", "a3"), ("B121", "a5")]);
    let mut s = before;
    must_play(&mut s, "a3xa5");
    assert_eq!(on(&s, "a5").as_deref(), Some("R221"));
    assert_eq!(newly_exiled(&before, &s, 'b'), ["121"]);
}

#[test]
fn case_37_permutation_on_board() {
    let mut s = red(&[("R112", "d2"), ("R221", "a1"), ("R111", "b1")]);
    must_play(&mut s, "P(112,221)");
    assert_eq!(on(&s, "d2").as_deref(), Some("R221"));
    assert_eq!(on(&s, "a1").as_deref(), Some("R112"));
}

#[test]
fn case_38_permutation_reentry() {
    let mut s = red(&[("R112", "d5")]);
    let (ply, since, last) = (s.ply(), s.since(), s.last_expeller());
    must_play(&mut s, "P(112,221)");
    assert_eq!(on(&s, "d5").as_deref(), Some("R221"));
    assert!(exile(&s, 'r').contains(&"112".to_owned()));
    assert!(!exile(&s, 'r').contains(&"221".to_owned()));
    assert_eq!(
        (s.ply(), s.since(), s.last_expeller()),
        (ply + 1, since + 1, last)
    );
}

#[test]
fn case_39_permutation_of_two_exiled_ships() {
    let mut s = red(&[("R112", "d5")]);
    expect_refused(&mut s, "P(121,212)", "both ships of the pair are in exile");
}

#[test]
fn case_40_rotation_on_board() {
    let s = red(&[("R211", "c2"), ("R121", "a2"), ("R112", "d2")]);
    let mut one = s;
    must_play(&mut one, "R(211>121>112)");
    assert_eq!(
        [on(&one, "a2"), on(&one, "d2"), on(&one, "c2")],
        [
            Some("R211".into()),
            Some("R121".into()),
            Some("R112".into())
        ]
    );
    let mut other = s;
    must_play(&mut other, "R(211>112>121)");
    assert_eq!(
        [on(&other, "d2"), on(&other, "a2"), on(&other, "c2")],
        [
            Some("R211".into()),
            Some("R112".into()),
            Some("R121".into())
        ]
    );
}

#[test]
fn case_41_rotation_with_one_exiled() {
    let s = red(&[("R211", "a3"), ("R112", "d6"), ("B111", "a6")]);
    let mut one = s;
    must_play(&mut one, "R(211>121>112)");
    assert!(exile(&one, 'r').contains(&"211".to_owned()));
    assert_eq!(on(&one, "d6").as_deref(), Some("R121"));
    assert_eq!(on(&one, "a3").as_deref(), Some("R112"));
    let mut other = s;
    must_play(&mut other, "R(211>112>121)");
    assert_eq!(on(&other, "d6").as_deref(), Some("R211"));
    assert!(exile(&other, 'r').contains(&"112".to_owned()));
    assert_eq!(on(&other, "a3").as_deref(), Some("R121"));
}

fn case_42_position() -> Mad {
    red(&[
        ("R111", "b1"),
        ("R222", "c1"),
        ("R211", "a3"),
        ("R112", "d5"),
        ("B111", "b6"),
        ("B222", "c6"),
        ("B121", "a5"),
    ])
}

#[test]
fn case_42_bonus_count() {
    let s = case_42_position();
    assert_eq!(
        legal(&s),
        [
            "P(111,222)",
            "P(112,221)",
            "P(122,211)",
            "R(112>121>211)",
            "R(112>211>121)",
            "a3-a1",
            "a3-a2",
            "a3-a4",
            "a3-b2",
            "a3-b3",
            "a3-b4",
            "a3-c3",
            "a3xa5",
            "b1-a1",
            "b1-b2",
            "c1-b2",
            "c1-c2",
            "c1-c3",
            "c1-d1",
            "c1-d2",
            "d5-c5",
            "d5-d4",
            "d5-d6",
            "d5-d6+P(112,221)",
            "d5-d6+R(112>121>211)",
            "d5-d6+R(112>211>121)",
        ]
    );
}

#[test]
fn case_43_blue_last_row_is_row_1() {
    let s = blue(&[("B112", "a2"), ("B211", "c4"), ("R111", "d1")]);
    assert!(is_legal(&s, "a2-a1+P(112,221)"));
    assert!(is_legal(&s, "a2-a1+R(112>121>211)"));
    let mut red_side = red(&[("R112", "a2"), ("R111", "d1")]);
    expect_refused(&mut red_side, "a2-a1+P(112,221)", "row 6");
}

#[test]
fn case_44_no_bonus_after_expelling_the_corvette() {
    let s = red(&[("R121", "b5"), ("B111", "b6")]);
    let mut bonus = s;
    expect_refused(&mut bonus, "b5xb6+P(121,212)", "ends the game");
    assert!(!legal(&s).iter().any(|t| t.starts_with("b5xb6+")));
    let mut plain = s;
    must_play(&mut plain, "b5xb6");
    assert_eq!(plain.outcome().unwrap().scores, [1.0, 0.0]);
}

#[test]
fn case_45_suicidal_bonus() {
    let mut s = red(&[("R111", "c5")]);
    assert!(is_legal(&s, "c5-c6+P(111,222)"));
    must_play(&mut s, "c5-c6+P(111,222)");
    assert_eq!(on(&s, "c6").as_deref(), Some("R222"));
    let outcome = s.outcome().unwrap();
    assert_eq!(
        (outcome.kind.as_str(), outcome.scores.clone()),
        ("corvette", vec![0.0, 1.0])
    );
}

#[test]
fn case_46_shifts_ignore_distance() {
    let s = red(&[
        ("R211", "a1"),
        ("R121", "d6"),
        ("R112", "b3"),
        ("R111", "c1"),
        ("B111", "a6"),
    ]);
    assert!(is_legal(&s, "R(112>121>211)"));
    assert!(is_legal(&s, "R(112>211>121)"));
}

#[test]
fn case_47_moves_stay_on_the_board() {
    let s = red(&[("R221", "a1"), ("R111", "d1")]);
    let moves: Vec<String> = legal(&s)
        .into_iter()
        .filter(|t| t.starts_with("a1"))
        .collect();
    assert_eq!(moves, ["a1-a2", "a1-a3", "a1-b1", "a1-b2", "a1-c1"]);
}

#[test]
fn case_48_counter_bookkeeping() {
    let mut s = red(&[
        ("R211", "c3"),
        ("B121", "c4"),
        ("R121", "b5"),
        ("B212", "b6"),
        ("B122", "a4"),
        ("R222", "c1"),
    ]);
    assert_eq!(
        (s.ply(), s.since(), s.last_expeller()),
        (20, 5, Some(Side::Blue))
    );
    must_play(&mut s, "P(111,222)");
    assert_eq!((s.ply(), s.since()), (21, 6));
    must_play(&mut s, "a4-a3");
    assert_eq!(
        (s.ply(), s.since(), s.last_expeller()),
        (22, 7, Some(Side::Blue))
    );
    must_play(&mut s, "c3xc4");
    assert_eq!(
        (s.ply(), s.since(), s.last_expeller()),
        (23, 0, Some(Side::Red))
    );
    must_play(&mut s, "a3-a2");
    assert_eq!(s.since(), 1);
    must_play(&mut s, "b5xb6+P(121,212)");
    assert_eq!(
        (s.ply(), s.since(), s.last_expeller()),
        (25, 0, Some(Side::Red))
    );
}

#[test]
fn case_49_forced_suicide() {
    let mut s = red(&[("R111", "a1"), ("B112", "a2"), ("B122", "b1")]);
    assert_eq!(legal(&s), ["P(111,222)"]);
    must_play(&mut s, "P(111,222)");
    assert_eq!(
        s.outcome().unwrap().winners().iter().collect::<Vec<_>>(),
        [Seat(1)]
    );
}

#[test]
fn case_50_start_position() {
    let s = start(false);
    let obs = s.observation();
    assert_eq!(obs.cells.iter().filter(|c| c.is_some()).count(), 16);
    for column in ["a", "b", "c", "d"] {
        assert!(on(&s, &format!("{column}6")).unwrap().starts_with('B'));
        assert!(on(&s, &format!("{column}1")).unwrap().starts_with('R'));
    }
    assert!(!legal(&s).iter().any(|t| t.contains('+')));
    assert_eq!(
        s.format_position(),
        "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0 -"
    );
}
