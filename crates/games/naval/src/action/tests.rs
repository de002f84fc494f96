use plateau_engine::ActionParts;

use super::*;

#[test]
fn cells_are_written_column_letter_then_row() {
    assert_eq!(cell_name(Cell::at(4, 12)), "m5");
    assert_eq!(parse_cell("m5").unwrap(), Cell::at(4, 12));
    assert!(parse_cell("o1").is_err());
    assert!(parse_cell("a15").is_err());
    assert!(parse_cell("a0").is_err());
}

#[test]
fn notation_round_trips() {
    for text in [
        "1:carrier@c3h",
        "1:buoy1@k10",
        "frigate@a1v",
        "ready",
        "first 3",
        "rocket f7 shot",
        "carrier:pass",
        "cruiser:fire 2:f7",
        "carrier:bombing 2:j5h",
        "submarine:torpedo 2:right5",
        "submarine:torpedo 4:downc",
        "carrier:emp 3",
        "corvette:shield 1:a1",
    ] {
        assert_eq!(format_action(&parse_action(text).unwrap()), text);
    }
}

#[test]
fn aims_are_normalised_when_read() {
    let a = parse_action("frigate:rockets 2:a1").unwrap();
    assert_eq!(format_action(&a), "frigate:rockets 2:c3");
    let a = parse_action("carrier:bombing 2:m5h").unwrap();
    assert_eq!(format_action(&a), "carrier:bombing 2:j5h");
}

#[test]
fn bad_tokens_are_named() {
    assert_eq!(parse_action("cruiser:fire 5:f7").unwrap_err().token, "5");
    assert_eq!(parse_action("cruiser:fire 2:z7").unwrap_err().token, "z7");
    assert_eq!(parse_action("boat:pass").unwrap_err().token, "boat");
    assert_eq!(parse_action("buoy1@k10h").unwrap_err().token, "k10h");
}

fn parts(kind: &str, piece: &str, target: Option<u8>, to: &str, choice: &str) -> ActionParts {
    let some = |x: &str| (!x.is_empty()).then(|| x.to_owned());
    ActionParts {
        kind: kind.to_owned(),
        piece: some(piece),
        to: some(to),
        choice: some(choice),
        target,
    }
}

#[test]
fn orders_in_parts_name_their_text() {
    let text = |p: ActionParts| format_action(&action_from_parts(&p).unwrap());
    assert_eq!(text(parts("pass", "cruiser", None, "", "")), "cruiser:pass");
    assert_eq!(
        text(parts("fire", "carrier", Some(1), "f7", "")),
        "carrier:fire 2:f7"
    );
    assert_eq!(
        text(parts("emp", "carrier", Some(3), "", "")),
        "carrier:emp 4"
    );
    // Aims are normalised as the text's are (section 6.5a); the shield's centre is not.
    assert_eq!(
        text(parts("rockets", "frigate", Some(1), "a1", "")),
        "frigate:rockets 2:c3"
    );
    assert_eq!(
        text(parts("bombing", "carrier", Some(2), "m5", "h")),
        "carrier:bombing 3:j5h"
    );
    assert_eq!(
        text(parts("shield", "corvette", Some(0), "a1", "")),
        "corvette:shield 1:a1"
    );
    assert_eq!(
        text(parts("torpedo", "submarine", Some(1), "a5", "right")),
        "submarine:torpedo 2:right5"
    );
    assert_eq!(
        text(parts("torpedo", "submarine", Some(3), "c14", "up")),
        "submarine:torpedo 4:upc"
    );
}

#[test]
fn bad_parts_are_refused_with_the_part_named() {
    let token = |p: ActionParts| action_from_parts(&p).unwrap_err().token;
    assert_eq!(token(parts("fire", "boat", Some(1), "f7", "")), "boat");
    assert_eq!(token(parts("fire", "buoy1", Some(1), "f7", "")), "fire");
    assert_eq!(token(parts("fire", "carrier", Some(4), "f7", "")), "4");
    assert_eq!(token(parts("fire", "carrier", None, "f7", "")), "fire");
    assert_eq!(token(parts("fire", "carrier", Some(1), "z7", "")), "z7");
    assert_eq!(
        token(parts("fire", "carrier", Some(1), "f7", "v")),
        "choice"
    );
    // A part the kind does not take is refused, not ignored.
    assert_eq!(token(parts("ready", "carrier", None, "", "")), "piece");
    assert_eq!(token(parts("pass", "carrier", Some(1), "", "")), "target");
    assert_eq!(token(parts("emp", "carrier", Some(2), "a1", "")), "to");
    assert_eq!(token(parts("place", "buoy1", Some(2), "a1", "")), "target");
    assert_eq!(token(parts("nuke", "", None, "", "")), "nuke");
    assert_eq!(token(parts("bombing", "carrier", Some(1), "f7", "")), "");
    assert_eq!(
        token(parts("torpedo", "submarine", Some(1), "b5", "right")),
        "b5"
    );
    assert_eq!(
        token(parts("torpedo", "submarine", Some(1), "a5", "sideways")),
        "sideways"
    );
    assert_eq!(
        token(parts("layout", "carrier", Some(1), "a1", "h")),
        "layout"
    );
    assert_eq!(token(parts("dance", "carrier", Some(1), "a1", "")), "dance");
}
