//! Resignation, our ruling (docs/rulings.md, Moon Leap): the game ends at once, the resigning seat
//! last, the others ranked by their scores as they stand (rules "End & scoring").

use plateau_engine::{
    Actor, Ending, Game, GameEntry, IllegalAction, LogEntry, Record, Seat, Seed, ToAct,
};
use plateau_moonleap::{Config, MoonLeap};

/// Three players, seat 2 (`b`) to roll. Scores on the default board (off board: number × −5):
/// a: a1 on 9 (1) + a4 on 20 (6) = 1 + 24, minus 5 × (2 + 3 + 5) = −25;
/// b: b2 on 11 (2) + b5 on 25 (10) = 4 + 50, minus 5 × (1 + 3 + 4) = 14;
/// c: c5 on 17 (5) = 25, minus 5 × (1 + 2 + 3 + 4) = −25.
const THREE: &str = "........a1.b2.....c5..a4....b5............ 3 b -";

fn three() -> MoonLeap {
    MoonLeap::parse_position(&Config::default(), THREE).unwrap()
}

#[test]
fn the_resigning_seat_ranks_last_and_the_others_by_score() {
    let mut g = three();
    assert_eq!(g.scores(), vec![-25, 14, -25]);
    g.end(Ending::Resign(Seat(1))).unwrap();
    assert_eq!(g.to_act(), ToAct::Terminal);
    assert_eq!(g.resigned(), Some(Seat(1)));
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.kind, "resign");
    // b had the best score but resigned; a and c share the win on equal scores.
    assert_eq!(outcome.ranks, vec![1, 3, 1]);
    assert_eq!(outcome.scores, vec![-25.0, 14.0, -25.0]);
    // The track is unchanged and nobody acts any more.
    assert_eq!(g.format_position(), THREE);
    let drawn = g.render_text(plateau_engine::Viewer::Spectator, false);
    assert!(
        drawn.contains(
            "Game over: seat 2 (b) resigned. Winners (shared): seat 1 (a), seat 3 (c) with -25."
        ),
        "{drawn}"
    );
    let mut legal = Vec::new();
    g.legal_actions(Seat(1), &mut legal);
    assert!(legal.is_empty());
    let roll = g.parse_action("r3").unwrap();
    assert_eq!(g.apply(Actor::Chance, &roll), Err(IllegalAction::GameOver));
    assert_eq!(g.end(Ending::Resign(Seat(0))), Err(IllegalAction::GameOver));

    let mut g = three();
    g.end(Ending::Resign(Seat(0))).unwrap();
    assert_eq!(g.outcome().unwrap().ranks, vec![3, 1, 2]);
}

#[test]
fn in_a_two_player_game_the_other_seat_wins_even_with_a_face_waiting() {
    let mut g = MoonLeap::new(&Config::default(), 2).unwrap();
    g.apply(Actor::Chance, &g.parse_action("r5").unwrap())
        .unwrap();
    assert_eq!(g.roll().map(|f| f.symbol()), Some('5'));
    g.end(Ending::Resign(Seat(0))).unwrap();
    assert_eq!(g.roll(), None, "no face waits after the end");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.ranks, vec![2, 1]);
    assert_eq!(outcome.winners().iter().collect::<Vec<_>>(), vec![Seat(1)]);
}

#[test]
fn bad_endings_are_refused_and_change_nothing() {
    let mut g = three();
    let before = serde_json::to_string(&g).unwrap();
    let err = g.end(Ending::Resign(Seat(3))).unwrap_err();
    assert!(err.to_string().contains("seat 4"), "{err}");
    for ending in [Ending::Timeout(Seat(0)), Ending::Agreement] {
        assert!(matches!(
            g.end(ending),
            Err(IllegalAction::Unsupported { .. })
        ));
    }
    assert_eq!(serde_json::to_string(&g).unwrap(), before);
    assert_eq!(g.to_act(), ToAct::Chance);
}

#[test]
fn a_resigned_game_serializes_and_replays_from_its_record() {
    let mut g = three();
    g.end(Ending::Resign(Seat(2))).unwrap();
    let json = serde_json::to_string(&g).unwrap();
    let back: MoonLeap = serde_json::from_str(&json).unwrap();
    assert_eq!(back.resigned(), Some(Seat(2)));
    assert_eq!(back.outcome(), g.outcome());
    // A resignation the position cannot have had is refused.
    let forged = json.replace("\"resigned\":2", "\"resigned\":5");
    assert!(serde_json::from_str::<MoonLeap>(&forged).is_err());

    // A record: two rolls and moves, then seat 1 resigns; it replays to the same outcome.
    let entry = GameEntry::of::<MoonLeap>();
    let seed = Seed::from_u64(3);
    let mut record = Record::new(
        "moonleap",
        serde_json::Value::Null,
        vec!["human".into(); 2],
        &seed,
    );
    let mut state = MoonLeap::new(&Config::default(), 2).unwrap();
    for (by, text) in [(Actor::Chance, "r4"), (Actor::Seat(Seat(0)), "4")] {
        state.apply(by, &state.parse_action(text).unwrap()).unwrap();
        record.log.push(LogEntry::action(by, text, None));
    }
    state.end(Ending::Resign(Seat(1))).unwrap();
    record
        .log
        .push(LogEntry::end(Ending::Resign(Seat(1)), None));
    record.outcome = state.outcome();
    let replay = record.replay(&entry).unwrap();
    assert_eq!(replay.state.outcome(), state.outcome());
    assert_eq!(replay.state.outcome().unwrap().ranks, vec![1, 2]);
}
