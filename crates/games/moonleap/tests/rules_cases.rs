//! Every numbered case of rules/moonleap.md section "Edge cases", on the default board, with its
//! expected value. Positions are written as `(cell, "a3")` lists (see tests/common).

use crate::common::{fill, legal, play, position, state, state_with};
use plateau_engine::{Game, Seat, ToAct, Viewer};
use plateau_moonleap::Config;

/// Fillers of colours other than a, for cells the cases only need occupied.
const OTHERS_2P: &[&str] = &["b1", "b2", "b3", "b4", "b5"];
const OTHERS_4P: &[&str] = &[
    "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4", "c5", "d1", "d2", "d3", "d4", "d5",
];

fn cell(game: &plateau_moonleap::MoonLeap, token: &str) -> Option<u8> {
    let colour = match token.as_bytes()[0] {
        b'm' => plateau_moonleap::Colour::MERCENARIES,
        c => plateau_moonleap::Colour::of(plateau_engine::Seat(c - b'a')),
    };
    game.cell_of(colour, token.as_bytes()[1] - b'0')
}

#[test]
fn case_01_a_four_is_not_four_cells() {
    let g = state(&position(2, &[(5, "a4"), (6, "b1"), (7, "b2")], 'a', '4'));
    assert_eq!(legal(&g), ["4"]);
    assert_eq!(cell(&play(&g, "4"), "a4"), Some(8));
}

#[test]
fn case_02_the_star_picks_one_astronaut() {
    // Milestone passed (b1 beyond the 2-player line after cell 10).
    let g = state(&position(2, &[(3, "a1"), (12, "b1")], 'a', '*'));
    assert!(g.milestone_passed());
    assert_eq!(legal(&g), ["1", "2", "3", "4", "5"]);
}

#[test]
fn case_03_no_split_on_the_first_turn() {
    let start = MoonLeapStart::two();
    let rolled = play(&start, "r5");
    assert_eq!(legal(&rolled), ["5"]);
    assert_eq!(cell(&play(&rolled, "5"), "a5"), Some(1));
}

struct MoonLeapStart;
impl MoonLeapStart {
    fn two() -> plateau_moonleap::MoonLeap {
        plateau_moonleap::MoonLeap::new(&Config::default(), 2).unwrap()
    }
}

#[test]
fn case_04_the_milestone_opens_splitting_for_everyone() {
    let g = state(&position(
        2,
        &[(1, "a1"), (2, "a2"), (3, "b2"), (10, "b1")],
        'b',
        '1',
    ));
    assert!(!g.milestone_passed());
    // Before the line is passed, A's 5 does not split.
    let before = state(&position(
        2,
        &[(1, "a1"), (2, "a2"), (3, "b2"), (10, "b1")],
        'a',
        '5',
    ));
    assert_eq!(legal(&before), ["5"]);
    let g = play(&g, "1"); // B1 is the first onto cell 11
    assert_eq!(cell(&g, "b1"), Some(11));
    assert!(g.milestone_passed());
    assert_eq!(g.to_act(), ToAct::Chance);
    let g = play(&g, "r5");
    assert_eq!(g.to_act(), ToAct::Player(Seat(0)));
    assert_eq!(legal(&g), ["1+4", "2+3", "3+2", "4+1", "5"]);
}

#[test]
fn case_05_the_split_table() {
    let at = |roll| state(&position(2, &[(12, "b1")], 'a', roll));
    assert_eq!(legal(&at('3')), ["1+2", "2+1", "3"]);
    assert_eq!(legal(&at('4')), ["1+3", "3+1", "4"]); // never 2+2
    assert_eq!(legal(&at('5')), ["1+4", "2+3", "3+2", "4+1", "5"]);
    assert_eq!(legal(&at('1')), ["1"]);
    assert_eq!(legal(&at('2')), ["2"]);
    assert_eq!(legal(&at('*')), ["1", "2", "3", "4", "5"]);
    let g = at('4');
    assert!(
        g.parse_action("2+2")
            .unwrap_err()
            .message
            .contains("named twice")
    );
}

#[test]
fn case_06_both_halves_must_be_playable() {
    let g = state(&position(2, &[(37, "a1"), (12, "b1")], 'a', '3'));
    assert_eq!(legal(&g), ["3"]);
    let mut refused = g.clone();
    let split = g.parse_action("2+1").unwrap();
    assert!(
        refused
            .apply(plateau_engine::Actor::Seat(Seat(0)), &split)
            .is_err()
    );
    assert_eq!(refused.format_position(), g.format_position());
}

#[test]
fn case_07_order_is_free_and_it_matters() {
    let g = state(&position(
        2,
        &[(10, "a2"), (11, "a3"), (13, "b1")],
        'a',
        '5',
    ));
    assert!(legal(&g).contains(&"2+3".to_owned()) && legal(&g).contains(&"3+2".to_owned()));
    let two_first = play(&g, "2+3");
    assert_eq!(
        (cell(&two_first, "a2"), cell(&two_first, "a3")),
        (Some(12), Some(14))
    );
    let three_first = play(&g, "3+2");
    assert_eq!(
        (cell(&three_first, "a3"), cell(&three_first, "a2")),
        (Some(12), Some(11))
    );
}

#[test]
fn case_08_one_astronaut_per_cell_no_capture() {
    let g = play(&state(&position(2, &[(8, "a1"), (9, "b1")], 'a', '1')), "1");
    assert_eq!(cell(&g, "a1"), Some(10));
    assert_eq!(cell(&g, "b1"), Some(9));
}

#[test]
fn case_09_an_unchanged_run_gives_nothing() {
    let g = state(&position(
        2,
        &[(14, "a1"), (15, "a2"), (16, "a3"), (2, "a5")],
        'a',
        '5',
    ));
    let g = play(&g, "5");
    assert_eq!(cell(&g, "a5"), Some(3));
    assert!(
        g.format_position().ends_with(" 2 b -"),
        "{}",
        g.format_position()
    );
}

#[test]
fn case_10_a_run_must_be_own_colour_and_gap_free() {
    // A1 from 19 lands on 21: A on 20, 21, 23 with 22 empty.
    let gap = play(
        &state(&position(
            2,
            &[(19, "a1"), (20, "a2"), (23, "a3")],
            'a',
            '1',
        )),
        "1",
    );
    assert_eq!(cell(&gap, "a1"), Some(21));
    assert!(gap.format_position().ends_with(" b -"));
    // The same with B on 22.
    let g = state(&position(
        2,
        &[(19, "a1"), (20, "a2"), (22, "b1"), (23, "a3")],
        'a',
        '1',
    ));
    let other = play(&g, "1");
    assert_eq!(cell(&other, "a1"), Some(21));
    assert!(other.format_position().ends_with(" b -"));
}

#[test]
fn case_11_an_off_board_astronaut_is_not_worth_zero() {
    let all_off = state(&position(2, &[], 'a', '-'));
    assert_eq!(all_off.scores()[0], -75);
    let five_on_blank = state(&position(2, &[(8, "a5")], 'a', '-'));
    assert_eq!(all_off.scores()[0] - five_on_blank.scores()[0], -25);
    assert_eq!(five_on_blank.scores()[0], -50); // the 5 on blank cell 8 scores 0
}

#[test]
fn case_12_the_end_is_immediate() {
    let g = state(&position(
        3,
        &[(34, "a1"), (35, "b1"), (36, "c1")],
        'a',
        '1',
    ));
    let g = play(&g, "1");
    assert_eq!(g.to_act(), ToAct::Terminal);
    assert!(g.format_position().ends_with(" 3 a -"));
    assert!(legal(&g).is_empty());
    assert!(g.outcome().is_some());
}

#[test]
fn case_13_entering_skips_a_filled_prefix() {
    let mut pieces = fill(1..=5, OTHERS_2P);
    pieces.extend([(6, "a1"), (7, "a2"), (8, "a3"), (9, "a4")]);
    let g = play(&state(&position(2, &pieces, 'a', '5')), "5");
    assert_eq!(cell(&g, "a5"), Some(10));
    // A red start cell is taken when it is the first empty one.
    let g = play(&state(&position(2, &[(2, "b1")], 'a', '3')), "3");
    assert_eq!(cell(&g, "a3"), Some(1));
}

#[test]
fn case_14_entering_can_pass_the_milestone() {
    let pool = [
        "a1", "a2", "a3", "a5", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4",
    ];
    let g = state(&position(3, &fill(1..=13, &pool), 'a', '4'));
    assert!(!g.milestone_passed());
    let g = play(&g, "4");
    assert_eq!(cell(&g, "a4"), Some(14));
    assert!(g.milestone_passed());
    assert!(g.observe(Viewer::Spectator).milestone_passed);
}

#[test]
fn case_15_a_blocked_single_is_forfeited() {
    let g = state(&position(2, &[(37, "a2"), (12, "b1")], 'a', '2'));
    assert_eq!(legal(&g), ["pass"]);
    let after = play(&g, "pass");
    assert_eq!(
        after.format_position(),
        position(2, &[(37, "a2"), (12, "b1")], 'b', '-')
    );
}

#[test]
fn case_16_splitting_is_forced_when_the_single_is_blocked() {
    let g = state(&position(2, &[(37, "a5"), (12, "b1")], 'a', '5'));
    assert_eq!(legal(&g), ["1+4", "2+3", "3+2", "4+1"]);
}

#[test]
fn case_17_a_split_may_be_declined() {
    let g = state(&position(2, &[(12, "b1")], 'a', '3'));
    assert!(legal(&g).contains(&"3".to_owned()) && legal(&g).contains(&"1+2".to_owned()));
    assert_eq!(cell(&play(&g, "3"), "a3"), Some(1));
}

#[test]
fn case_18_sequential_legality() {
    let mut pieces = fill(20..=32, OTHERS_4P);
    pieces.extend([
        (33, "a1"),
        (34, "a4"),
        (35, "d4"),
        (37, "d5"),
        (1, "a2"),
        (2, "a3"),
    ]);
    let g = state(&position(4, &pieces, 'a', '5'));
    assert_eq!(legal(&g), ["2+3", "3+2", "4+1", "5"]);
    let ended = play(&g, "4+1");
    assert_eq!(cell(&ended, "a4"), Some(36));
    assert_eq!(cell(&ended, "a1"), Some(33)); // the second half is skipped: the game is over
    assert_eq!(ended.to_act(), ToAct::Terminal);
}

#[test]
fn case_19_the_star_is_never_stuck() {
    let g = state(&position(2, &[(36, "a2"), (37, "a1")], 'a', '*'));
    assert_eq!(legal(&g), ["3", "4", "5"]);
}

#[test]
fn case_20_an_off_board_astronaut_named_by_the_die_enters() {
    let g = state(&position(2, &fill(2..=6, OTHERS_2P), 'a', '2'));
    assert_eq!(legal(&g), ["2"]);
    let g = play(&g, "2");
    assert_eq!(cell(&g, "a2"), Some(1));
    assert_eq!(g.scores()[0], 2 * -3 - 5 * (1 + 3 + 4 + 5));
}

#[test]
fn case_21_a_run_created_by_entering() {
    let mut pieces = fill(1..=5, OTHERS_2P);
    pieces.extend([(6, "a4"), (7, "a5"), (8, "a1"), (9, "a2")]);
    let g = state(&position(2, &pieces, 'a', '3'));
    assert_eq!(legal(&g), ["3"]);
    let g = play(&g, "3");
    assert_eq!(cell(&g, "a3"), Some(10));
    assert!(
        g.format_position().ends_with(" 2 a -"),
        "extra roll: {}",
        g.format_position()
    );
}

#[test]
fn case_22_a_leap_frog_run() {
    let g = play(
        &state(&position(
            2,
            &[(14, "a1"), (15, "a2"), (16, "a3")],
            'a',
            '1',
        )),
        "1",
    );
    assert_eq!(cell(&g, "a1"), Some(17));
    assert!(g.format_position().ends_with(" 2 a -"));
}

#[test]
fn case_23_an_extension_counts() {
    let pieces = [
        (10, "a4"),
        (11, "b1"),
        (12, "b2"),
        (13, "b3"),
        (14, "a1"),
        (15, "a2"),
        (16, "a3"),
    ];
    let g = play(&state(&position(2, &pieces, 'a', '4')), "4");
    assert_eq!(cell(&g, "a4"), Some(17));
    assert!(g.format_position().ends_with(" 2 a -"));
}

#[test]
fn case_24_shrinking_does_not_count() {
    let mut pieces = vec![(14, "a1"), (15, "a2"), (16, "a3"), (17, "a4")];
    pieces.extend(fill(18..=24, &["b1", "b2", "b3", "b4", "b5", "c1", "c2"]));
    let g = play(&state(&position(3, &pieces, 'a', '4')), "4");
    assert_eq!(cell(&g, "a4"), Some(25));
    assert!(g.format_position().ends_with(" 3 b -"));
}

#[test]
fn case_25_the_same_cells_with_a_new_member_count() {
    let pieces = [
        (12, "a1"),
        (13, "b1"),
        (14, "a2"),
        (15, "a3"),
        (16, "a4"),
        (17, "b2"),
        (18, "b3"),
        (19, "b4"),
    ];
    let g = play(&state(&position(2, &pieces, 'a', '5')), "4+1");
    assert_eq!((cell(&g, "a4"), cell(&g, "a1")), (Some(20), Some(16)));
    assert!(g.format_position().ends_with(" 2 a -"));
}

#[test]
fn case_26_only_the_final_state_is_checked() {
    let pieces = [
        (10, "a1"),
        (11, "b1"),
        (12, "b2"),
        (13, "b3"),
        (14, "a2"),
        (15, "a3"),
        (17, "b4"),
        (18, "b5"),
    ];
    let g = play(&state(&position(2, &pieces, 'a', '3')), "1+2");
    // A1 made the run 14-16, then A2 left it for 19.
    assert_eq!((cell(&g, "a1"), cell(&g, "a2")), (Some(16), Some(19)));
    assert!(g.format_position().ends_with(" 2 b -"));
}

#[test]
fn case_27_two_runs_cannot_both_need_counting() {
    // Two runs of three need six astronauts of one colour; a colour has five: a position text
    // with a sixth is refused.
    let text = position(
        2,
        &[(1, "a1"), (2, "a2"), (3, "a3"), (5, "a4"), (6, "a5")],
        'a',
        '-',
    );
    assert!(state(&text).format_position() == text);
    let six = text.replacen("......", "a1....", 1);
    assert!(plateau_moonleap::MoonLeap::parse_position(&Config::default(), &six).is_err());
}

#[test]
fn case_28_a_run_plus_the_end() {
    let g = state(&position(
        2,
        &[(34, "a1"), (35, "a2"), (36, "a3")],
        'a',
        '1',
    ));
    let g = play(&g, "1");
    assert_eq!(cell(&g, "a1"), Some(37));
    assert_eq!(g.to_act(), ToAct::Terminal);
    assert!(g.format_position().ends_with(" 2 a -"));
}

#[test]
fn case_29_the_milestone_passed_during_extra_rolls() {
    let pieces = [(7, "a3"), (8, "b1"), (9, "a1"), (10, "a2")];
    let g = state(&position(2, &pieces, 'a', '3'));
    assert_eq!(legal(&g), ["3"]); // not passed yet: no split
    let g = play(&g, "3");
    assert_eq!(cell(&g, "a3"), Some(11));
    assert!(g.format_position().ends_with(" 2 a -"), "extra roll");
    let g = play(&g, "r5");
    assert_eq!(legal(&g), ["1+4", "2+3", "3+2", "4+1", "5"]);
}

#[test]
fn case_30_opponents_cannot_create_your_run() {
    let g = state(&position(
        3,
        &[(14, "a1"), (15, "b1"), (16, "a2"), (17, "a3")],
        'b',
        '1',
    ));
    let g = play(&g, "1");
    assert_eq!(cell(&g, "b1"), Some(18));
    assert!(g.format_position().ends_with(" 3 c -"));
}

#[test]
fn case_31_the_end_cells_may_hold_any_colours() {
    let g = state(&position(
        3,
        &[(34, "a5"), (35, "b1"), (36, "c1")],
        'a',
        '5',
    ));
    let g = play(&g, "5");
    assert_eq!(cell(&g, "a5"), Some(37));
    assert_eq!(g.to_act(), ToAct::Terminal);
}

#[test]
fn case_32_a_split_ends_mid_way() {
    let g = state(&position(
        2,
        &[(34, "a1"), (35, "b1"), (36, "b2")],
        'a',
        '3',
    ));
    let g = play(&g, "1+2");
    assert_eq!(cell(&g, "a1"), Some(37));
    assert_eq!(cell(&g, "a2"), None, "the second half is skipped");
    assert_eq!(g.to_act(), ToAct::Terminal);
}

#[test]
fn case_33_scoring_example() {
    let g = state(&position(
        2,
        &[(37, "a5"), (35, "a1"), (8, "a3"), (1, "a2"), (36, "b1")],
        'a',
        '-',
    ));
    assert_eq!(g.to_act(), ToAct::Terminal);
    assert_eq!(g.outcome().unwrap().scores[0], 144.0);
}

#[test]
fn case_34_a_tie_shares_the_win() {
    let pieces = [
        (37, "a5"),
        (35, "a1"),
        (8, "a3"),
        (2, "a2"),
        (10, "b1"),
        (12, "b3"),
        (1, "b2"),
        (30, "b4"),
        (32, "b5"),
        (36, "c1"),
    ];
    let g = state(&position(3, &pieces, 'a', '-'));
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.scores, vec![144.0, 144.0, -45.0]);
    assert_eq!(outcome.ranks, vec![1, 1, 3]);
    assert_eq!(
        outcome.winners().iter().collect::<Vec<_>>(),
        vec![Seat(0), Seat(1)]
    );
}

#[test]
fn case_35_mercenaries() {
    let config = Config {
        mercenaries: true,
        ..Config::default()
    };
    // M2 on 15 between A's 14 and 16: A3 from 13 lands on 16, no run.
    let g = state_with(
        &config,
        &position(2, &[(13, "a3"), (14, "a1"), (15, "m2")], 'a', '3'),
    );
    let g = play(&g, "3");
    assert_eq!(cell(&g, "a3"), Some(16));
    assert!(g.format_position().ends_with(" 2 b -"));
    // A mercenary filling the last end cell ends the game.
    let g = state_with(
        &config,
        &position(2, &[(34, "m1"), (35, "a1"), (36, "b1")], 'b', '1'),
    );
    assert!(legal(&g).contains(&"m1".to_owned()));
    let g = play(&g, "m1");
    assert_eq!(cell(&g, "m1"), Some(37));
    assert_eq!(g.to_act(), ToAct::Terminal);
    // Mercenaries score for no one: both seats' scores ignore m1 on 37.
    assert_eq!(g.scores(), vec![20 - 5 * 14, 25 - 5 * 14]);
    // Moving only mercenaries gives no extra roll, even next to A's astronauts.
    let g = state_with(
        &config,
        &position(2, &[(14, "a1"), (15, "a2"), (16, "m3")], 'a', '3'),
    );
    let g = play(&g, "m3");
    assert_eq!(cell(&g, "m3"), Some(17));
    assert!(g.format_position().ends_with(" 2 b -"));
}
