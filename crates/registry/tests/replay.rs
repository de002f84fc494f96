//! The one replay of a game's log (`plateau_engine::replay_log`, docs/architecture.md section 4) on
//! every registered game: a seeded random game replays to the same final position, a chance
//! outcome the seed does not draw and an illegal seat action are refused naming their entry, and
//! the records written by `plateau play` replay and verify.

use plateau_engine::{
    Actor, DynGame, Ending, Event, GameEntry, LogEntry, Record, ReplayError, Seat, Seed, ToAct,
    Visitor, replay_log,
};
use serde_json::Value;

/// At most this many log entries per game, so a long game stays a quick test.
const MAX_ENTRIES: usize = 400;

/// A game of `game` played by random seats with chance drawn from `seed`, as the match service
/// plays one: its log and the final state. In Bataille Navale seat 1 resigns after 40 entries and
/// the others play on, so an ending sits in the middle of the log.
fn random_game(entry: &GameEntry, seed: &Seed) -> (Vec<LogEntry>, Box<dyn DynGame>) {
    let seats = entry.info.default_seats;
    let mut state = entry.new_game(&Value::Null, seats).unwrap();
    let mut chance = seed.rng();
    // The seats' own randomness, apart from the chance stream.
    let mut rng = seed.rng_for_stream(1);
    let mut log = Vec::new();
    while log.len() < MAX_ENTRIES {
        if entry.info.name == "naval" && log.len() == 40 {
            state.end(Ending::Resign(Seat(0))).unwrap();
            log.push(LogEntry::end(Ending::Resign(Seat(0)), Some(40)));
            continue;
        }
        let at_ms = Some(log.len() as u64 * 100);
        let seat = match state.to_act() {
            ToAct::Terminal => break,
            ToAct::Chance => {
                let (_, drawn) = state.draw_chance(&mut chance).unwrap();
                log.push(LogEntry::action(Actor::Chance, drawn, at_ms));
                continue;
            }
            ToAct::Player(seat) => seat,
            ToAct::Simultaneous(seats) => seats.lowest().unwrap(),
        };
        let action = state.random_action(seat, &mut rng).unwrap();
        state.apply_text(Actor::Seat(seat), &action).unwrap();
        log.push(LogEntry::action(Actor::Seat(seat), action, at_ms));
    }
    (log, state)
}

/// Counts the visits and checks each entry's `before` state is the previous entry's `after`.
#[derive(Default)]
struct Walk {
    before: usize,
    after: usize,
    last: Option<String>,
}

impl Visitor for Walk {
    fn before(&mut self, entry: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        assert_eq!((entry, self.after), (self.before, self.before));
        if let Some(last) = &self.last {
            assert_eq!(*last, state.position_text(), "entry {entry}");
        }
        self.before += 1;
        Ok(())
    }

    fn after(&mut self, entry: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        assert_eq!(entry + 1, self.before);
        self.after += 1;
        self.last = Some(state.position_text());
        Ok(())
    }
}

#[test]
fn a_random_game_of_each_game_replays_to_the_same_position() {
    let seed = Seed::from_u64(5);
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        let (log, played) = random_game(entry, &seed);
        let start = entry.new_game(&Value::Null, played.seats()).unwrap();
        let mut rng = seed.rng();
        let mut walk = Walk::default();
        let replayed = replay_log(start, Some(&mut rng), &log, &mut walk).unwrap();
        assert_eq!(replayed.position_text(), played.position_text(), "{name}");
        assert_eq!(replayed.outcome(), played.outcome(), "{name}");
        assert_eq!((walk.before, walk.after), (log.len(), log.len()), "{name}");
        assert_eq!(walk.last, Some(played.position_text()), "{name}");

        // The same game as a record, through JSON and back, with the seed revealed.
        let mut record = Record::new(
            name,
            Value::Null,
            vec!["random".into(); played.seats()],
            &seed,
        );
        record.log = log;
        record.seed = Some(seed);
        record.outcome = played.outcome();
        let record: Record =
            serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
        let replay = record.replay(entry).unwrap();
        assert!(replay.seed_verified, "{name}");
        assert_eq!(
            replay.state.position_text(),
            played.position_text(),
            "{name}"
        );
    }
}

#[test]
fn a_chance_outcome_the_seed_does_not_draw_is_refused_naming_its_entry() {
    let seed = Seed::from_u64(5);
    let entry = plateau_registry::find("moonleap").unwrap();
    let (mut log, played) = random_game(entry, &seed);
    // The second chance outcome, changed to another outcome its node lists.
    let (at, index) = log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.by() == Some(Actor::Chance))
        .map(|(at, _)| at)
        .nth(1)
        .map(|at| (at, log[..=at].iter().filter(|e| e.by().is_some()).count()))
        .unwrap();
    let start = || entry.new_game(&Value::Null, played.seats()).unwrap();
    let before = replay_log(start(), Some(&mut seed.rng()), &log[..at], &mut ()).unwrap();
    let Event::Action { action: drawn, .. } = log[at].event.clone() else {
        panic!("a chance entry")
    };
    let other = before
        .chance_texts()
        .into_iter()
        .map(|(text, _)| text)
        .find(|text| *text != drawn)
        .expect("a chance node with two outcomes");
    log[at] = LogEntry::action(Actor::Chance, other.clone(), None);

    let err = replay_log(start(), Some(&mut seed.rng()), &log, &mut ()).unwrap_err();
    assert_eq!(err.entry(), Some(at));
    assert_eq!(
        err.to_string(),
        format!("action {index}: chance drew `{drawn}` from the seed but the log says `{other}`")
    );
    // Without the seed the outcome is only checked to be possible: it is, so the replay goes on
    // (to wherever the changed dice lead).
    let unverified = replay_log(start(), None, &log[..=at], &mut ()).unwrap();
    assert_ne!(unverified.position_text(), before.position_text());
}

#[test]
fn an_illegal_seat_action_is_refused_naming_its_entry() {
    let seed = Seed::from_u64(7);
    let entry = plateau_registry::find("mad").unwrap();
    let (mut log, _) = random_game(entry, &seed);
    // a1 holds Red's own piece: moving onto it is against the rules.
    log[2] = LogEntry::action(Actor::Seat(Seat(0)), "a1-a2", Some(200));
    let start = entry.new_game(&Value::Null, 2).unwrap();
    let mut walk = Walk::default();
    let err = replay_log(start, Some(&mut seed.rng()), &log, &mut walk).unwrap_err();
    assert!(
        matches!(
            &err,
            ReplayError::Action {
                entry: 2,
                index: 3,
                by: Actor::Seat(Seat(0)),
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("action 3 (`a1-a2` by seat 1): "),
        "{err}"
    );
    assert_eq!(
        (walk.before, walk.after),
        (3, 2),
        "the refused entry has no after"
    );
}

#[test]
fn a_visitor_that_refuses_stops_the_replay_naming_the_entry() {
    struct Stop;
    impl Visitor for Stop {
        fn after(&mut self, entry: usize, _: &LogEntry, _: &dyn DynGame) -> Result<(), String> {
            if entry == 4 {
                Err("enough".into())
            } else {
                Ok(())
            }
        }
    }
    let seed = Seed::from_u64(3);
    let entry = plateau_registry::find("chakart").unwrap();
    let (log, played) = random_game(entry, &seed);
    let start = entry.new_game(&Value::Null, played.seats()).unwrap();
    let err = replay_log(start, Some(&mut seed.rng()), &log, &mut Stop).unwrap_err();
    assert_eq!(err.entry(), Some(4));
    assert_eq!(err.to_string(), "log entry 4: enough");
}

/// The records `plateau play --record` wrote before the log was one list (the engine's
/// fixtures): they replay, the seed verified, to the recorded outcome.
#[test]
fn records_written_by_the_command_line_replay_and_verify() {
    for (text, actions, endings) in [
        (
            include_str!("../../engine/tests/data/records/mad-seed7.json"),
            40,
            0,
        ),
        (
            include_str!("../../engine/tests/data/records/moonleap-resign.json"),
            5,
            1,
        ),
    ] {
        let record: Record = serde_json::from_str(text).unwrap();
        let replay = record
            .replay(plateau_registry::find(&record.game).unwrap())
            .unwrap();
        assert!(replay.seed_verified, "{}", record.game);
        assert_eq!(replay.state.outcome(), record.outcome, "{}", record.game);
        assert!(record.outcome.is_some());
        assert_eq!(record.actions().count(), actions, "{}", record.game);
        assert_eq!(record.endings().count(), endings, "{}", record.game);
    }
}
