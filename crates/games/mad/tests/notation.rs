//! Notation of rules/mad.md section 9: canonical texts, round trips, malformed input naming the
//! offending token, refusal reasons, the observation's JSON shape and the terminal board.

use crate::common;

use common::{at, play, red, start};
use plateau_engine::{Game, Viewer};
use plateau_mad::{Action, Mad, MadConfig};

const START: &str =
    "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0 -";

/// The position error for `text`, as (token, message).
fn position_error(text: &str) -> (String, String) {
    match Mad::parse_position(&MadConfig::default(), text) {
        Ok(_) => panic!("`{text}` parsed"),
        Err(e) => {
            let e = e.position_error().expect("a position error");
            (e.token.clone(), e.message.clone())
        }
    }
}

fn action_error(text: &str) -> (String, String) {
    match start(false).parse_action(text) {
        Ok(a) => panic!("`{text}` parsed as {a:?}"),
        Err(e) => (e.token, e.message),
    }
}

#[test]
fn start_position_text() {
    assert_eq!(start(false).format_position(), START);
    assert_eq!(at(START), start(false));
}

#[test]
fn actions_round_trip_through_their_canonical_text() {
    let positions = [
        start(false),
        start(true),
        red(&[
            ("R112", "d5"),
            ("R211", "a3"),
            ("B121", "c6"),
            ("R121", "c5"),
        ]),
    ];
    for state in positions {
        let mut out = Vec::new();
        state.legal_actions(state.side().seat(), &mut out);
        for action in out {
            let text = state.format_action(&action);
            assert_eq!(state.parse_action(&text), Ok(action), "{text}");
        }
    }
}

#[test]
fn canonical_forms() {
    let s = start(false);
    let canonical = |text: &str| s.format_action(&s.parse_action(text).unwrap());
    assert_eq!(canonical("P(222,111)"), "P(111,222)");
    assert_eq!(canonical("p(221,112)"), "P(112,221)");
    assert_eq!(canonical("R(211>121>112)"), "R(112>211>121)");
    assert_eq!(canonical("R(121>112>211)"), "R(112>211>121)");
    assert_eq!(canonical("R(221>122>212)"), "R(122>212>221)");
    assert_eq!(canonical("C2-C4"), "c2-c4");
    assert_eq!(canonical(" d5-d6+P(221,112) "), "d5-d6+P(112,221)");
    assert_eq!(canonical("c3xc4"), "c3xc4");
    assert_eq!(canonical("PASS"), "pass");
}

#[test]
fn malformed_positions_name_the_token() {
    let cases: [(&str, &str, &str); 16] = [
        // A row that covers 3 cells, then 5.
        (
            "B221B111B222/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0 -",
            "B221B111B222",
            "covers 3 cells",
        ),
        (
            "B221B111B222B2121/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0 -",
            "B221B111B222B2121",
            "more than 4 cells",
        ),
        (
            "B221B111B222B212/B121B122B211B112/5/4/R121R122R211R112/R221R111R222R212 r 0 0 -",
            "5",
            "unknown token",
        ),
        // Unknown tokens.
        (
            "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222X212 r 0 0 -",
            "X",
            "unknown token",
        ),
        (
            "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R312 r 0 0 -",
            "R312",
            "unknown ship token",
        ),
        // The same ship twice.
        (
            "B221B111B222B212/B121B122B211B112/R2213/4/R121R122R211R112/R221R111R222R212 r 0 0 -",
            "R221",
            "twice",
        ),
        // A side without its corvette.
        (
            "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R2211R222R212 r 0 0 -",
            "R111",
            "corvette",
        ),
        // Rows, fields, side and counters.
        (
            "B221B111B222B212/B121B122B211B112/4/R121R122R211R112/R221R111R222R212 r 0 0 -",
            "B221B111B222B212/B121B122B211B112/4/R121R122R211R112/R221R111R222R212",
            "6 rows",
        ),
        (
            "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0",
            "B221B111B222B212/B121B122B211B112/4/4/R121R122R211R112/R221R111R222R212 r 0 0",
            "5 fields",
        ),
        (&START.replace(" r 0", " w 0"), "w", "`r` or `b`"),
        (&START.replace(" r 0 0", " b 0 0"), "b", "even plies"),
        (&START.replace(" r 0 0", " r x 0"), "x", "whole number"),
        (&START.replace(" r 0 0 -", " r 4 6 -"), "6", "cannot exceed"),
        (
            &START.replace(" r 0 0 -", " r 4 2 -"),
            "2",
            "equals the ply",
        ),
        (&START.replace(" r 0 0 -", " r 4 4 b"), "b", "below the ply"),
        (&START.replace(" r 0 0 -", " r 4 2 q"), "q", "last expeller"),
    ];
    for (text, token, message) in cases {
        let (t, m) = position_error(text);
        assert_eq!(t, token, "token for `{text}` ({m})");
        assert!(m.contains(message), "message `{m}` for `{text}`");
    }
}

#[test]
fn malformed_actions_name_the_token() {
    let cases = [
        ("c2-c9", "c9", "not a cell"),
        ("e2-e3", "e2", "not a cell"),
        ("c2c4", "c2c4", "expected a movement"),
        ("c2--c3", "-c3", "not a cell"),
        ("P(111,221)", "P(111,221)", "complementary"),
        ("P(111)", "P(111)", "two ship codes"),
        ("P(131,222)", "131", "not a ship code"),
        ("R(112>121>221)", "R(112>121>221)", "frigates"),
        ("R(112>121)", "R(112>121)", "three ship codes"),
        (
            "R(112>121>211>122)",
            "R(112>121>211>122)",
            "three ship codes",
        ),
        ("c2-c3+X", "X", "permutation"),
        ("c2-c3+", "", "permutation"),
        ("pas", "pas", "permutation"),
        ("", "", "empty"),
        ("hello", "hello", "expected a movement"),
        ("x", "x", "expected a movement"),
        ("c2-", "c2-", "expected a movement"),
    ];
    for (text, token, message) in cases {
        let (t, m) = action_error(text);
        assert_eq!(t, token, "token for `{text}` ({m})");
        assert!(m.contains(message), "message `{m}` for `{text}`");
    }
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let mut s = start(false);
    let cases = [
        (
            "c2-c5",
            "c2-c5: a ship with 2 sails moves at most 2 cells (rules/mad.md section 5.1)",
        ),
        ("b2-b4", "b2-b4: a ship with 1 sail moves at most 1 cell"),
        ("a3-a4", "a3-a4: there is no ship on a3"),
        ("a5-a4", "a5-a4: the ship on a5 is not yours"),
        ("c1-c2", "c1-c2: c2 holds your own ship"),
        ("c2xc3", "c2xc3: c3 is empty, nothing to expel: write c2-c3"),
        (
            "c2-c3+P(122,211)",
            "a bonus needs a movement onto your last row, row 6",
        ),
        (
            "pass",
            "pass: passing is allowed only in the positioning turn",
        ),
    ];
    for (text, reason) in cases {
        let err = play(&mut s, text).unwrap_err();
        assert!(
            err.starts_with(reason) || err.contains(reason),
            "{text}: {err}"
        );
    }
    assert_eq!(s, start(false));
    let mut capture = red(&[("R211", "c3"), ("B121", "c4")]);
    let err = play(&mut capture, "c3-c4").unwrap_err();
    assert!(err.contains("write c3xc4"), "{err}");
}

#[test]
fn observation_json_shape() {
    let mut s = start(false);
    common::must_play(&mut s, "c2-c4");
    let json = serde_json::to_value(s.observe(Viewer::Spectator)).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    let mut expected = [
        "cells",
        "side",
        "ply",
        "since",
        "last",
        "exile",
        "position",
        "positioning",
        "last_move",
    ];
    expected.sort();
    let mut keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, expected);
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 24);
    assert_eq!(cells[0], "R221");
    assert_eq!(cells[6], serde_json::Value::Null); // c2 left
    assert_eq!(cells[14], "R211"); // c4 = (4 - 1) * 4 + 2
    assert_eq!(cells[23], "B212");
    assert_eq!(json["side"], "b");
    assert_eq!(json["ply"], 1);
    assert_eq!(json["since"], 1);
    assert_eq!(json["last"], serde_json::Value::Null);
    assert_eq!(json["exile"], serde_json::json!({"r": [], "b": []}));
    assert_eq!(json["position"], s.format_position());
    assert_eq!(json["positioning"], false);
    assert_eq!(
        json["last_move"],
        serde_json::json!({"from": "c2", "to": "c4"})
    );
    let obs = s.observe(Viewer::Spectator);
    assert_eq!(s.observe(Viewer::Seat(plateau_engine::Seat(0))), obs);
    // A turn that moves no ship leaves nothing to mark; a bonus marks its movement.
    common::must_play(&mut s, "P(112,221)");
    assert_eq!(s.observe(Viewer::Spectator).last_move, None);
    assert_eq!(
        serde_json::to_value(start(false).observation()).unwrap()["last_move"],
        serde_json::Value::Null
    );

    let exiled = red(&[("R211", "c3"), ("B121", "c4"), ("B222", "a6")]);
    let json = serde_json::to_value(exiled.observation()).unwrap();
    assert_eq!(
        json["exile"]["r"],
        serde_json::json!(["112", "121", "122", "212", "221", "222"])
    );
    assert_eq!(
        json["exile"]["b"],
        serde_json::json!(["112", "122", "211", "212", "221"])
    );
    assert_eq!(json["last"], "b");
    assert_eq!(
        serde_json::to_value(start(true).observation()).unwrap()["positioning"],
        true
    );
}

#[test]
fn terminal_board() {
    let s = start(false);
    let plain = s.render_text(Viewer::Spectator, false);
    assert!(!plain.contains('\x1b'));
    let lines: Vec<&str> = plain.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["a", "b", "c", "d"]
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["6", "B221", "B111", "B222", "B212", "6"]
    );
    assert_eq!(
        lines[6].split_whitespace().collect::<Vec<_>>(),
        ["1", "R221", "R111", "R222", "R212", "1"]
    );
    assert!(plain.contains("Red exile: -"));
    assert!(plain.contains("Blue exile: -"));
    assert!(plain.contains("Red to move, ply 0, tie-break counter 0/40"));
    let color = s.render_text(Viewer::Spectator, true);
    assert!(color.contains("\x1b[1;31mR221\x1b[0m"));
    assert!(color.contains("\x1b[1;34mB221\x1b[0m"));
    let mut over = red(&[("R121", "b5"), ("B111", "b6")]);
    common::must_play(&mut over, "b5xb6");
    assert!(
        over.render_text(Viewer::Spectator, false)
            .contains("Red wins (corvette)")
    );
}

#[test]
fn actions_serialize_compactly() {
    let a = Action::parse("d5-d6+P(112,221)").unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    assert!(std::mem::size_of::<Action>() <= 8);
}
