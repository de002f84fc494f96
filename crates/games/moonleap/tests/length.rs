//! Every game ends (docs/rulings.md Moon Leap 11): a table with more end cells than astronauts is
//! refused, and the ply limit ends any game that would otherwise go on, scored as it stands.

use crate::common::{legal, play};
use plateau_engine::{Actor, Game, IllegalAction, SetupError, ToAct, driver::Driver};
use plateau_moonleap::{BoardDesc, Config, DEFAULT_BOARD_JSON, DEFAULT_PLY_LIMIT, MoonLeap};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The default board with `end_cells` as its end cells.
fn board_with_ends(end_cells: Vec<u8>) -> BoardDesc {
    let mut desc: BoardDesc = serde_json::from_str(DEFAULT_BOARD_JSON).unwrap();
    desc.end_cells = end_cells;
    desc
}

fn config_with_ends(end_cells: Vec<u8>, mercenaries: bool) -> Config {
    Config {
        board: Some(board_with_ends(end_cells)),
        mercenaries,
        ..Config::default()
    }
}

#[test]
fn a_table_with_more_end_cells_than_astronauts_is_refused_naming_the_field() {
    // Eleven end cells: two seats have 10 astronauts, so the last end cell could never fill.
    let eleven = config_with_ends((27..=37).collect(), false);
    match MoonLeap::new(&eleven, 2) {
        Err(SetupError::Config(m)) => {
            assert!(m.starts_with("board.end_cells: 11 end cells"), "{m}");
            assert!(m.contains("only 10 astronauts"), "{m}");
        }
        other => panic!("accepted or wrong error: {other:?}"),
    }
    // Position text at such a table is refused the same way.
    let text = format!("{} 2 a -", ".".repeat(37));
    assert!(matches!(
        MoonLeap::parse_position(&eleven, &text),
        Err(SetupError::Config(m)) if m.starts_with("board.end_cells")
    ));
    // Three seats (15 astronauts), or two with the five mercenaries, can fill them.
    assert!(MoonLeap::new(&eleven, 3).is_ok());
    assert!(MoonLeap::new(&config_with_ends((27..=37).collect(), true), 2).is_ok());
    // Exactly as many end cells as astronauts is a game that can end.
    assert!(MoonLeap::new(&config_with_ends((28..=37).collect(), false), 2).is_ok());
}

#[test]
fn a_ply_limit_of_zero_is_refused() {
    let config = Config {
        ply_limit: 0,
        ..Config::default()
    };
    assert!(matches!(
        MoonLeap::new(&config, 2),
        Err(SetupError::Config(m)) if m.starts_with("ply_limit")
    ));
}

#[test]
fn the_game_ends_at_the_ply_limit_scored_as_it_stands() {
    let config = Config {
        ply_limit: 5,
        ..Config::default()
    };
    let start = MoonLeap::new(&config, 2).unwrap();
    // r5, a5 enters cell 1; r3, b3 enters cell 2; r1 is the fifth ply.
    let mut game = start;
    for action in ["r5", "5", "r3", "3"] {
        game = play(&game, action);
    }
    assert_eq!(game.to_act(), ToAct::Chance);
    assert_eq!(game.outcome(), None);
    game = play(&game, "r1");
    assert_eq!(game.plies(), 5);
    assert_eq!(game.to_act(), ToAct::Terminal);
    assert!(legal(&game).is_empty());
    // No face waits in a finished game.
    assert_eq!(
        game.format_position(),
        format!("a5b3{} 2 a -", ".".repeat(35))
    );
    // a: 5 x -3 on cell 1, and 1+2+3+4 off the board at -5 each: -65.
    // b: 3 x -3 on cell 2, and 1+2+4+5 off the board: -69.
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.kind, "ply_limit");
    assert_eq!(outcome.scores, vec![-65.0, -69.0]);
    assert_eq!(outcome.ranks, vec![1, 2]);
    let roll = game.parse_action("r2").unwrap();
    assert_eq!(
        game.clone().apply(Actor::Chance, &roll),
        Err(IllegalAction::GameOver)
    );
}

#[test]
fn an_end_reached_on_the_last_ply_is_the_rules_end() {
    // Every astronaut on the board, a2..b5 on cells 27-34 and a1, b1 on end cells 36 and 37: a
    // rolls 5 and a5 (cell 30) leaps to 35, the last empty end cell, on the limit's last ply.
    let pool = ["a2", "a3", "a4", "a5", "b2", "b3", "b4", "b5"];
    let mut track = vec!["."; 37];
    for (cell, token) in (27..=34).zip(pool) {
        track[cell - 1] = token;
    }
    track[35] = "a1";
    track[36] = "b1";
    let text = format!("{} 2 a -", track.concat());
    let config = Config {
        ply_limit: 2,
        ..Config::default()
    };
    let game = MoonLeap::parse_position(&config, &text).unwrap();
    let game = play(&play(&game, "r5"), "5");
    assert_eq!(game.plies(), 2);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.kind, "score", "the board's end, not the limit");
}

#[test]
fn a_stalled_game_ends_at_the_default_limit() {
    // End cells 1 and 37: with 10 astronauts on 37 cells play stalls once they stand on cells
    // 28-37 with cell 1 empty, and every roll after that is passed. The limit ends it.
    let config = config_with_ends(vec![1, 37], false);
    let mut stalled = 0;
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = MoonLeap::new(&config, 2).unwrap();
        let mut driver = Driver::trusted();
        let mut buffer = Vec::new();
        let mut plies = 0u32;
        while driver.random_step(&mut game, &mut buffer, &mut rng) {
            plies += 1;
        }
        assert_eq!(game.to_act(), ToAct::Terminal);
        assert_eq!(game.plies(), plies);
        let outcome = game.outcome().unwrap();
        if outcome.kind == "ply_limit" {
            assert_eq!(plies, DEFAULT_PLY_LIMIT);
            // Every astronaut stands on the top ten cells: nobody can move any more.
            let track = game.format_position();
            assert_eq!(&track[..27], ".".repeat(27), "{track}");
            stalled += 1;
        } else {
            assert_eq!(outcome.kind, "score");
        }
    }
    assert!(stalled > 0, "no random game stalled on this board");
}

#[test]
fn the_ply_count_survives_serialization() {
    let config = Config {
        ply_limit: 40,
        ..Config::default()
    };
    let mut game = MoonLeap::new(&config, 3).unwrap();
    for action in ["r5", "5", "r2", "2"] {
        game = play(&game, action);
    }
    let json = serde_json::to_string(&game).unwrap();
    assert!(
        json.contains(r#""plies":4"#) && json.contains(r#""ply_limit":40"#),
        "{json}"
    );
    let back: MoonLeap = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (back.plies(), back.format_position()),
        (4, game.format_position())
    );
    // A count past the limit is no state the rules reach.
    let bad = json.replace(r#""plies":4"#, r#""plies":41"#);
    let err = serde_json::from_str::<MoonLeap>(&bad).unwrap_err();
    assert!(err.to_string().starts_with("plies:"), "{err}");
    // A default game's JSON holds neither field.
    let plain = serde_json::to_string(&MoonLeap::new(&Config::default(), 2).unwrap()).unwrap();
    assert!(!plain.contains("plies"), "{plain}");
}
