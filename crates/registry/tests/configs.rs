//! Every game reads its config strictly: a misspelt option is an error naming it, never silently
//! ignored (the match service and `plateau play --config` pass configs through `GameEntry`).

use plateau_engine::SetupError;
use serde_json::{Value, json};

/// The error of creating `game` with `config`, or a panic if it was accepted.
fn refusal(game: &str, config: &Value) -> String {
    let entry = plateau_registry::find(game).unwrap();
    match entry.new_game(config, entry.info.default_seats) {
        Err(SetupError::Config(message)) => message,
        Err(other) => panic!("{game}: expected a config error for {config}, got {other:?}"),
        Ok(_) => panic!("{game}: the config {config} was accepted"),
    }
}

#[test]
fn every_game_refuses_an_unknown_config_field_by_name() {
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        let mut config = entry.default_config();
        // The default config, every field written out, is accepted as it stands...
        assert!(
            entry.new_game(&config, entry.info.default_seats).is_ok(),
            "{name}: its own default config {config} is refused"
        );
        // ...and one extra field makes it an error that names the field.
        config
            .as_object_mut()
            .unwrap_or_else(|| panic!("{name}: the config is not a JSON object"))
            .insert("tiebreak_limt".into(), json!(3));
        let message = refusal(name, &config);
        assert!(message.contains("tiebreak_limt"), "{name}: {message}");
    }
}

#[test]
fn nested_config_objects_refuse_unknown_fields_too() {
    // Bataille Navale's cost and gain tables (partial tables keep the other defaults).
    let message = refusal("naval", &json!({"costs": {"emp": 900, "emp_cost": 1}}));
    assert!(message.contains("emp_cost"), "{message}");
    let message = refusal("naval", &json!({"gains": {"pas": 10}}));
    assert!(message.contains("pas"), "{message}");
    let naval = plateau_registry::find("naval").unwrap();
    let partial = json!({"costs": {"emp": 900}, "gains": {"pass": 80}});
    assert!(naval.new_game(&partial, 4).is_ok());

    // A Moon Leap board description with a misspelt optional field.
    let mut board: Value = serde_json::from_str(plateau_moonleap::DEFAULT_BOARD_JSON).unwrap();
    board["abuot"] = json!("typo of about");
    let message = refusal("moonleap", &json!({ "board": board }));
    assert!(message.contains("abuot"), "{message}");
}

#[test]
fn a_config_is_a_json_object_never_an_array_of_fields() {
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        // Every field of the default config, in order, as an array: serde alone would accept it.
        let fields: Vec<Value> = entry
            .default_config()
            .as_object()
            .unwrap()
            .values()
            .cloned()
            .collect();
        for config in [Value::Array(fields), json!([]), json!(5), json!("mad")] {
            let message = refusal(name, &config);
            assert!(
                message.contains("must be a JSON object"),
                "{name}: {message}"
            );
        }
    }
}

#[test]
fn a_value_of_the_wrong_type_is_named_by_its_field_path() {
    // Not only "invalid value: integer `-1`", which leaves the player to guess the field.
    let message = refusal("naval", &json!({"costs": {"shield": -1}}));
    assert_eq!(
        message,
        "costs.shield: invalid value: integer `-1`, expected u16"
    );
    let message = refusal("mad", &json!({"tiebreak_limit": "forty"}));
    assert!(
        message.starts_with("tiebreak_limit: invalid type: string"),
        "{message}"
    );
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        let mut config = entry.default_config();
        let (field, _) = config.as_object().unwrap().iter().next().unwrap();
        let field = field.clone();
        config[&field] = json!([[[]]]);
        let message = refusal(name, &config);
        assert!(message.starts_with(&field), "{name}: {message}");
    }
}

#[test]
fn a_config_under_which_the_game_cannot_end_is_refused() {
    // Moon Leap ends when every end cell is occupied: eleven end cells at a table of two (ten
    // astronauts) could never all fill (docs/rulings.md Moon Leap 11).
    let mut board: Value = serde_json::from_str(plateau_moonleap::DEFAULT_BOARD_JSON).unwrap();
    board["end_cells"] = json!((27..=37).collect::<Vec<u8>>());
    let message = refusal("moonleap", &json!({ "board": board }));
    assert!(
        message.starts_with("board.end_cells: 11 end cells but only 10 astronauts"),
        "{message}"
    );
    // With the mercenaries in play, fifteen astronauts can fill them.
    let moonleap = plateau_registry::find("moonleap").unwrap();
    assert!(
        moonleap
            .new_game(&json!({ "board": board, "mercenaries": true }), 2)
            .is_ok()
    );
    // A maximum length of zero plies, rounds or turns is no game either.
    for (game, field) in [
        ("moonleap", "ply_limit"),
        ("naval", "max_rounds"),
        ("mad", "tiebreak_limit"),
    ] {
        let message = refusal(game, &json!({ field: 0 }));
        assert!(message.contains(field), "{game}: {message}");
    }
}

#[test]
fn every_default_config_bounds_the_game() {
    // The field that bounds each game's length (docs/rulings.md), set in the default config.
    let bounds = [
        ("mad", "tiebreak_limit", 40),
        ("moonleap", "ply_limit", 5_000),
        ("chakart", "turn_limit", 2_000),
        ("naval", "max_rounds", 200),
    ];
    for (game, field, value) in bounds {
        let config = plateau_registry::find(game).unwrap().default_config();
        assert_eq!(config[field], json!(value), "{game}: {config}");
    }
    for g in plateau_registry::GAMES {
        assert!(
            bounds.iter().any(|b| b.0 == g.info.name),
            "{}: name here the config field that bounds its length",
            g.info.name
        );
    }
}
