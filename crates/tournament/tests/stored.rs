//! A stored tournament reads back equal, and one that does not hold together is refused.

use crate::common;

use serde_json::{Value, json};

use common::swiss;
use plateau_tournament::{GameResult, Tournament};

fn stored() -> Value {
    let mut t = swiss(5, 3, 0);
    let round = t.pair_next_round().unwrap().clone();
    t.record(round.games[0], GameResult::win(1)).unwrap();
    t.record(round.games[1], GameResult::draw()).unwrap();
    t.pair_next_round().unwrap();
    serde_json::to_value(&t).unwrap()
}

fn refusal(value: Value) -> String {
    serde_json::from_value::<Tournament>(value)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_stored_tournament_reads_back_and_goes_on() {
    let value = stored();
    let mut back: Tournament = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), value);
    assert_eq!(back.rounds().len(), 2);
    for id in back.rounds()[1].games.clone() {
        back.record(id, GameResult::win(0)).unwrap();
    }
    assert_eq!(back.pair_next_round().unwrap().number, 3);
}

/// A change to a stored value.
type Tamper = fn(&mut Value);

#[test]
fn a_stored_tournament_that_does_not_hold_together_is_refused() {
    let cases: Vec<(Tamper, &str)> = vec![
        (
            |v| v["players"][1]["id"] = v["players"][0]["id"].clone(),
            "a player twice",
        ),
        (|v| v["games"][0]["id"] = json!(7), "an id out of place"),
        (
            |v| v["games"][0]["result"] = json!({"ranks": [1, 1]}),
            "ranks that do not fit",
        ),
        (
            |v| v["games"][0]["seats"][1] = json!({"player": 99}),
            "an unknown player",
        ),
        (
            |v| v["games"][0]["seats"][1] = json!("bot"),
            "a bot where none may sit",
        ),
        (
            |v| v["games"][0]["round"] = json!(5),
            "a round that does not exist",
        ),
        (
            |v| v["rounds"][0]["bye"] = json!(99),
            "a bye that cannot be",
        ),
        (
            |v| v["rounds"][1]["games"] = v["rounds"][0]["games"].clone(),
            "a game of another round",
        ),
        (
            |v| v["games"][1]["result"] = Value::Null,
            "the order of results",
        ),
        (|v| v["recorded"] = json!(9), "not the number of results"),
        (|v| v["started_ms"] = json!(5), "only an arena is started"),
        (|v| v["settings"]["seats"] = json!(3), "seats"),
    ];
    for (tamper, why) in cases {
        let mut value = stored();
        tamper(&mut value);
        let refusal = refusal(value);
        assert!(refusal.contains(why), "{why}: {refusal}");
    }
}
