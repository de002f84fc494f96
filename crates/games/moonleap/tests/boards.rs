//! The board is data: a second board file (tests/data/short_board.json: 24 cells, other values,
//! other milestone lines, two end cells, off-board multiplier -4) drives the same rules, and bad
//! board files are refused with the field named.

use crate::common;
use crate::compare;

use common::{legal, play};
use plateau_engine::{Game, Seat, SetupError, ToAct};
use plateau_moonleap::{Board, BoardDesc, Colour, Config, DEFAULT_BOARD_JSON, MoonLeap};
use plateau_testkit::{Options, check_playouts};

const SHORT: &str = include_str!("data/short_board.json");

fn short_config(mercenaries: bool) -> Config {
    Config {
        board: Some(serde_json::from_str::<BoardDesc>(SHORT).unwrap()),
        mercenaries,
        ..Config::default()
    }
}

#[test]
fn the_embedded_board_is_the_rules_file_layout() {
    let board = Board::standard();
    assert_eq!(board.len(), 37);
    let desc = board.desc();
    assert_eq!(&desc.track_values[..7], &[-3, -3, -3, -2, -2, -1, -1]);
    assert_eq!(&desc.track_values[34..], &[20, 25, 30]);
    assert_eq!(desc.track_values.iter().filter(|v| **v < 0).count(), 7);
    assert_eq!(
        (
            board.milestone_after(2),
            board.milestone_after(3),
            board.milestone_after(4)
        ),
        (10, 13, 16)
    );
    assert_eq!(desc.end_cells, vec![35, 36, 37]);
    assert_eq!(board.offboard_multiplier(), -5);
    assert_eq!(
        *desc,
        Board::from_json(DEFAULT_BOARD_JSON).unwrap().desc().clone()
    );
}

#[test]
fn a_second_board_file_changes_the_track_the_line_the_end_and_the_scores() {
    let config = short_config(false);
    let start = MoonLeap::new(&config, 2).unwrap();
    assert_eq!(start.format_position(), format!("{} 2 a -", ".".repeat(24)));
    // The default board's 37-cell text does not fit this board.
    let err = MoonLeap::parse_position(&config, &format!("{} 2 a -", ".".repeat(37))).unwrap_err();
    let err = err.position_error().expect("a position error");
    assert!(
        err.message.contains("37 cells")
            && err.message.contains("short-24-test")
            && err.message.contains("24"),
        "{err}"
    );
    // The 2-player line is after cell 6: a1 on 6 has not passed it; a5 entering on 7 passes it.
    let before = common::state_with(&config, &format!("b1b2b3b4b5a1{} 2 a 5", ".".repeat(18)));
    assert!(!before.milestone_passed());
    assert_eq!(legal(&before), ["5"]);
    let g = play(&before, "5");
    assert_eq!(g.cell_of(Colour::of(Seat(0)), 5), Some(7));
    assert!(g.milestone_passed());
    // The end: cells 23 and 24 only. Filling 24 with 23 taken ends the game.
    let near = format!("{}a1b1.{} 2 a 1", ".".repeat(20), "b2");
    let g = common::state_with(&config, &near);
    assert_eq!(g.to_act(), ToAct::Player(plateau_engine::Seat(0)));
    let g = play(&g, "1");
    assert_eq!(g.cell_of(Colour::of(Seat(0)), 1), Some(23));
    assert_eq!(g.to_act(), ToAct::Terminal);
    // Scores: a1 on 23 (40) and four astronauts off at -4 each point; b1 on 22 (0), b2 on 24 (50).
    let outcome = g.outcome().unwrap();
    assert_eq!(
        outcome.scores,
        vec![40.0 - 4.0 * 14.0, 2.0 * 50.0 - 4.0 * 12.0]
    );
}

#[test]
fn the_second_board_passes_the_kit_and_matches_the_independent_model() {
    for seats in 2..=4 {
        for mercenaries in [false, true] {
            let config = short_config(mercenaries);
            let options = Options {
                games: 500,
                seed: 7_000 + seats as u64,
                max_actions: 2_000,
                deep_every: 10,
                determinizations: 4,
            };
            let report = check_playouts::<MoonLeap>(&config, seats, &options);
            assert_eq!(report.games, 500);
            compare::against_reference(&config, SHORT, seats, 500, 9_000 + seats as u64);
        }
    }
}

#[test]
fn bad_board_files_are_refused_with_the_field_named() {
    let mut desc: BoardDesc = serde_json::from_str(SHORT).unwrap();
    let check = |desc: &BoardDesc, field: &str| {
        let config = Config {
            board: Some(desc.clone()),
            ..Config::default()
        };
        match MoonLeap::new(&config, 2) {
            Err(SetupError::Config(message)) => assert!(message.contains(field), "{message}"),
            other => panic!("expected a config error about {field}, got {other:?}"),
        }
    };
    desc.end_cells = vec![23, 25];
    check(&desc, "end_cells");
    desc.end_cells = vec![];
    check(&desc, "end_cells");
    desc.end_cells = vec![24, 24];
    check(&desc, "end_cells");
    desc.end_cells = vec![23, 24];
    desc.milestone_after.remove(&3);
    check(&desc, "milestone_after");
    desc.milestone_after.insert(3, 24);
    check(&desc, "milestone_after");
    desc.milestone_after.insert(3, 8);
    desc.track_values = vec![1; 64];
    check(&desc, "track_values");
    assert!(
        Board::from_json("{\"name\": 3}")
            .unwrap_err()
            .contains("not valid")
    );
    // A first seat outside the table.
    let config = Config {
        first_seat: 2,
        ..Config::default()
    };
    assert!(
        matches!(MoonLeap::new(&config, 2), Err(SetupError::Config(m)) if m.contains("first_seat"))
    );
    assert!(matches!(
        MoonLeap::new(&Config::default(), 5),
        Err(SetupError::SeatCount { .. })
    ));
}
