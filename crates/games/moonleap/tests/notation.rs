//! Canonical notation (rules/moonleap.md "Canonical notation"): position and action texts round
//! trip, bad texts are refused with a message naming the problem, illegal actions are refused and
//! change nothing, and the game is reachable by text through the engine's `DynGame`.

use crate::common::{position, state};
use plateau_engine::{Actor, Game, GameEntry, IllegalAction, Seat, ToAct, Viewer};
use plateau_moonleap::{Config, MoonLeap};

fn parse_err(text: &str) -> plateau_engine::ParseError {
    MoonLeap::parse_position(&Config::default(), text)
        .expect_err(text)
        .position_error()
        .cloned()
        .expect("a position error")
}

#[test]
fn the_start_position_text_is_the_rules_example() {
    let start = MoonLeap::new(&Config::default(), 2).unwrap();
    assert_eq!(start.format_position(), format!("{} 2 a -", ".".repeat(37)));
    let first_b = MoonLeap::new(
        &Config {
            first_seat: 1,
            ..Config::default()
        },
        3,
    )
    .unwrap();
    assert_eq!(
        first_b.format_position(),
        format!("{} 3 b -", ".".repeat(37))
    );
}

#[test]
fn position_texts_round_trip_through_text_and_serde() {
    let texts = [
        position(2, &[(1, "a1"), (12, "b5"), (37, "a5")], 'b', '*'),
        position(4, &[(3, "d2"), (20, "c4")], 'd', '3'),
        position(2, &[(35, "a1"), (36, "a2"), (37, "b1")], 'b', '-'),
    ];
    for text in texts {
        let g = state(&text);
        assert_eq!(g.format_position(), text);
        let json = serde_json::to_string(&g).unwrap();
        let back: MoonLeap = serde_json::from_str(&json).unwrap();
        assert_eq!(back.format_position(), text);
    }
}

#[test]
fn bad_position_texts_name_the_problem() {
    let dots = |n| ".".repeat(n);
    let e = parse_err(&format!("{} 2 a -", dots(36)));
    assert!(
        e.message.contains("36 cells") && e.message.contains("37"),
        "{e}"
    );
    let e = parse_err(&format!("a1{}a1 2 a -", dots(35)));
    assert_eq!(e.token, "a1");
    assert!(
        e.message.contains("twice") && e.message.contains("cells 1 and 37"),
        "{e}"
    );
    let e = parse_err(&format!("c1{} 2 a -", dots(36)));
    assert!(
        e.message.contains("colour `c` is not at a table of 2"),
        "{e}"
    );
    let e = parse_err(&format!("m1{} 2 a -", dots(36)));
    assert!(e.message.contains("Mercenaries variant is off"), "{e}");
    let e = parse_err(&format!("a6{} 2 a -", dots(36)));
    assert_eq!(e.token, "a6");
    assert!(e.message.contains("1 to 5"), "{e}");
    let e = parse_err(&format!("x{} 2 a -", dots(36)));
    assert_eq!(e.token, "x");
    let e = parse_err(&format!("{} 5 a -", dots(37)));
    assert!(e.message.contains("2, 3 or 4"), "{e}");
    let e = parse_err(&format!("{} 2 c -", dots(37)));
    assert!(e.message.contains("a, b"), "{e}");
    let e = parse_err(&format!("{} 2 a 6", dots(37)));
    assert_eq!(e.token, "6");
    let e = parse_err(&format!("{} 2 a", dots(37)));
    assert!(e.message.contains("4 fields"), "{e}");
    let e = parse_err(&position(
        2,
        &[(35, "a1"), (36, "a2"), (37, "b1")],
        'a',
        '3',
    ));
    assert!(e.message.contains("game is over"), "{e}");
}

#[test]
fn bad_action_texts_name_the_problem() {
    let g = state(&position(2, &[(12, "b1")], 'a', '5'));
    let e = g.parse_action("r7").unwrap_err();
    assert!(e.message.contains("roll face out of range"), "{e}");
    let e = g.parse_action("2+2").unwrap_err();
    assert!(e.message.contains("named twice"), "{e}");
    let e = g.parse_action("2+4").unwrap_err();
    assert!(e.message.contains("split table"), "{e}");
    let e = g.parse_action("1+2+3").unwrap_err();
    assert_eq!(e.token, "1+2+3");
    let e = g.parse_action("m2").unwrap_err();
    assert!(e.message.contains("Mercenaries"), "{e}");
}

fn refused(g: &MoonLeap, actor: Actor, text: &str) -> IllegalAction {
    let action = g.parse_action(text).unwrap();
    let mut probe = g.clone();
    let err = probe.apply(actor, &action).expect_err(text);
    assert_eq!(
        probe.format_position(),
        g.format_position(),
        "{text} changed the state"
    );
    err
}

#[test]
fn illegal_actions_are_refused_and_change_nothing() {
    let a = Actor::Seat(Seat(0));
    let g = state(&position(2, &[(12, "b1")], 'a', '5'));
    assert!(
        refused(&g, a, "1+2")
            .to_string()
            .contains("does not split the 5")
    );
    assert!(
        refused(&g, a, "3")
            .to_string()
            .contains("moves astronaut 5")
    );
    assert!(
        refused(&g, a, "pass")
            .to_string()
            .contains("cannot be passed")
    );
    assert!(refused(&g, a, "r3").to_string().contains("already shows 5"));
    assert!(matches!(
        refused(&g, Actor::Seat(Seat(1)), "5"),
        IllegalAction::NotToAct { .. }
    ));
    assert!(matches!(
        refused(&g, Actor::Chance, "r3"),
        IllegalAction::NotToAct { .. }
    ));
    // Before the milestone, and with a face that never splits.
    let early = state(&position(2, &[(1, "b1")], 'a', '5'));
    assert!(refused(&early, a, "2+3").to_string().contains("milestone"));
    let star = state(&position(2, &[(12, "b1")], 'a', '*'));
    assert!(
        refused(&star, a, "1+2")
            .to_string()
            .contains("never splits")
    );
    // A blocked astronaut, and a split whose second half would be blocked.
    let blocked = state(&position(
        2,
        &[(36, "a1"), (37, "b1"), (12, "b2")],
        'a',
        '1',
    ));
    assert!(
        refused(&blocked, a, "1")
            .to_string()
            .contains("no empty cell ahead")
    );
    let seq = state(&position(
        2,
        &[(36, "a1"), (37, "b1"), (12, "b2")],
        'a',
        '3',
    ));
    assert!(refused(&seq, a, "2+1").to_string().contains("both halves"));
    // At a chance node a seat may not act; after the end nobody may.
    let roll = state(&position(2, &[], 'a', '-'));
    assert!(matches!(
        refused(&roll, a, "r1"),
        IllegalAction::NotToAct { .. }
    ));
    let over = state(&position(
        2,
        &[(35, "a1"), (36, "a2"), (37, "b1")],
        'b',
        '-',
    ));
    assert_eq!(refused(&over, Actor::Chance, "r1"), IllegalAction::GameOver);
}

#[test]
fn the_game_is_driven_by_text_through_dyn_game() {
    let entry = GameEntry::of::<MoonLeap>();
    assert_eq!(entry.info.name, "moonleap");
    let mut g = entry.new_game(&serde_json::Value::Null, 3).unwrap();
    assert_eq!(g.to_act(), ToAct::Chance);
    let faces: Vec<String> = g.chance_texts().into_iter().map(|(t, _)| t).collect();
    assert_eq!(faces, ["r1", "r2", "r3", "r4", "r5", "r*"]);
    g.apply_text(Actor::Chance, "r*").unwrap();
    assert_eq!(g.legal_texts(Seat(0)), ["1", "2", "3", "4", "5"]);
    g.apply_text(Actor::Seat(Seat(0)), "4").unwrap();
    assert!(g.position_text().starts_with("a4.") && g.position_text().ends_with(" 3 b -"));
    let err = g.apply_text(Actor::Chance, "r9").unwrap_err();
    assert_eq!(err.code(), "action/malformed");
    let merc = entry
        .new_game(&serde_json::json!({ "mercenaries": true }), 2)
        .unwrap();
    let mut merc = merc;
    merc.apply_text(Actor::Chance, "r2").unwrap();
    assert_eq!(merc.legal_texts(Seat(0)), ["2", "m2"]);
    assert!(
        entry
            .from_position(&serde_json::Value::Null, "nonsense")
            .is_err()
    );
    assert_eq!(
        entry.default_config()["mercenaries"],
        serde_json::json!(false)
    );
}

#[test]
fn the_observation_is_the_full_public_state() {
    let g = state(&position(3, &[(1, "a2"), (14, "c5")], 'b', '4'));
    let obs = g.observe(Viewer::Seat(Seat(2)));
    assert_eq!(obs, g.observe(Viewer::Spectator));
    assert_eq!(obs.position, g.format_position());
    // In JSON an empty crater is `0`, and the observation reads back.
    let json = serde_json::to_value(&obs).unwrap();
    assert_eq!(json["track"][0], "a2");
    assert_eq!(json["track"][1], 0);
    let back: plateau_moonleap::Observation = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, obs);
    // `null` reads as an empty crater too; anything else but a text or a byte is refused.
    let mut with_null = json.clone();
    with_null["track"][1] = serde_json::Value::Null;
    let back: plateau_moonleap::Observation = serde_json::from_value(with_null).unwrap();
    assert_eq!(back, obs);
    for bad in [
        serde_json::json!(256),
        serde_json::json!(-1),
        serde_json::json!(true),
    ] {
        let mut refused = json.clone();
        refused["track"][1] = bad;
        assert!(serde_json::from_value::<plateau_moonleap::Observation>(refused).is_err());
    }
    assert_eq!(obs.milestone_after, 13);
    assert!(obs.milestone_passed);
    assert_eq!(obs.track[0].as_deref(), Some("a2"));
    assert_eq!(obs.roll.as_deref(), Some("4"));
    assert_eq!(obs.scores, vec![-6 - 5 * 13, -75, 0 - 5 * 10]);
    let mut rng = rand::rng();
    assert_eq!(
        g.determinize(Seat(0), &mut rng).format_position(),
        g.format_position()
    );
}

/// What the match service sends (`Game::observation_json`, written from the state with the
/// board's fields kept as text) is serde_json's own text of the observation, field by field,
/// at every state of seeded random games: each table size, with and without the mercenaries, on
/// the default board and on another whose name JSON escapes.
#[test]
fn the_observation_sent_is_serde_jsons_text_of_the_observation() {
    use plateau_engine::ObservationJson;
    use rand::{Rng, SeedableRng};
    let mut odd: plateau_moonleap::BoardDesc =
        serde_json::from_str(include_str!("data/short_board.json")).unwrap();
    odd.name = "short \"24\" \u{e9}\n".to_owned();
    let mut states = 0;
    for board in [None, Some(odd)] {
        for seats in 2..=4 {
            for mercenaries in [false, true] {
                let config = Config {
                    board: board.clone(),
                    mercenaries,
                    ..Config::default()
                };
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seats as u64);
                let mut g = MoonLeap::new(&config, seats).unwrap();
                let mut legal = Vec::new();
                loop {
                    for viewer in [Viewer::Spectator, Viewer::Seat(Seat(1))] {
                        let sent = g.observation_json(viewer);
                        let observation = g.observe(viewer);
                        assert_eq!(sent.text(), serde_json::to_string(&observation).unwrap());
                        assert_eq!(sent, ObservationJson::of(&observation));
                    }
                    states += 1;
                    let actor = match g.to_act() {
                        ToAct::Terminal => break,
                        ToAct::Chance => Actor::Chance,
                        ToAct::Player(s) => Actor::Seat(s),
                        ToAct::Simultaneous(_) => {
                            unreachable!("Moon Leap has no simultaneous turn")
                        }
                    };
                    match actor {
                        Actor::Chance => {
                            let mut outcomes = Vec::new();
                            g.chance_outcomes(&mut outcomes);
                            legal = outcomes.into_iter().map(|(a, _)| a).collect();
                        }
                        Actor::Seat(s) => g.legal_actions(s, &mut legal),
                    }
                    let action = legal[rng.random_range(0..legal.len())];
                    g.apply(actor, &action).unwrap();
                }
                assert!(g.is_over());
            }
        }
    }
    assert!(states > 1000, "{states} states");
}

#[test]
fn the_terminal_drawing_shows_track_line_astronauts_die_and_scores() {
    let g = state(&position(2, &[(5, "a4"), (6, "b1"), (12, "a5")], 'a', '4'));
    let text = Game::render_text(&g, Viewer::Spectator, false);
    assert!(text.contains("[-3]"), "negative cells are marked:\n{text}");
    assert!(
        text.contains("|  11"),
        "the 2-player line sits before cell 11:\n{text}"
    );
    assert!(text.contains("30*"), "end cells are starred:\n{text}");
    assert!(text.contains("a4") && text.contains("b1"), "{text}");
    assert!(
        text.contains("4@5") && text.contains("5@12") && text.contains("1@off"),
        "{text}"
    );
    assert!(text.contains("rolled 4"), "{text}");
    assert!(text.contains("score"), "{text}");
    assert!(text.contains("passed"), "{text}");
    let coloured = Game::render_text(&g, Viewer::Spectator, true);
    assert!(coloured.contains("\x1b[31m"), "red negative cells");
}

#[test]
fn actions_built_outside_the_notation_are_refused_without_panic() {
    use plateau_moonleap::{Action, Piece};
    let g = state(&position(2, &[(12, "b1")], 'a', '4'));
    let a = Actor::Seat(Seat(0));
    for action in [
        Action::Move(Piece::own(0)),
        Action::Move(Piece::own(9)),
        Action::Split(Piece::own(2), Piece::own(2)),
        Action::Split(Piece::own(0), Piece::own(4)),
        Action::Split(Piece::mercenary(1), Piece::mercenary(3)),
    ] {
        let mut probe = g.clone();
        assert!(probe.apply(a, &action).is_err(), "{action:?}");
        assert_eq!(probe.format_position(), g.format_position());
    }
    let mut probe = g.clone();
    let err = probe
        .apply(a, &Action::Split(Piece::own(2), Piece::own(2)))
        .unwrap_err();
    assert!(err.to_string().contains("does not split the 4"), "{err}");
}
