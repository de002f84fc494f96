//! The lobby's level tables (src/levels.rs): five levels in order for every game, the tables of
//! Moon Leap's other seat counts, the ratings a level bot starts at, and a level bot playing the
//! table of its seat count. Through the crate's public functions only: as tests of the library
//! they made its test build compile every game's bots again (docs/performance.md section 7).

use plateau_bots::{BotSpec, Level};
use plateau_engine::{Actor, Seed, ToAct};
use plateau_registry::{
    GAMES, LevelError, bot_factory, bot_rating, find, level, levels, levels_at,
};

#[test]
fn every_game_has_five_levels_in_order() {
    for g in GAMES {
        let table = levels(g.info.name).unwrap_or_else(|e| {
            panic!("{e}: give the game's level table to its entry of BOTS (`with_levels`)")
        });
        for (i, e) in table.iter().enumerate() {
            assert_eq!(e.level, Level::ALL[i]);
            assert_eq!(level(g.info.name, i as u8 + 1).unwrap(), e);
        }
        let factory = bot_factory(g.info.name).unwrap();
        for e in table {
            assert_eq!(factory.level_spec(e.level), e.spec);
            assert_eq!(
                factory.make(BotSpec::Level(e.level), 1).spec(),
                BotSpec::Level(e.level)
            );
        }
        for seats in g.info.min_seats..=g.info.max_seats {
            let at = levels_at(g.info.name, seats).unwrap();
            assert!(at.iter().map(|e| e.level).eq(Level::ALL));
            // Each level beats the one below it on the ladder, so the ratings rise strictly.
            assert!(at.windows(2).all(|w| w[0].rating < w[1].rating));
            for e in at {
                assert_eq!(factory.level_spec_at(e.level, seats), e.spec);
            }
        }
    }
    // Moon Leap's two-seat table is the game's own; three and four seats have theirs (their
    // strong levels and ratings, docs/bots.md's ladders); Bataille Navale's four seats its one.
    let moonleap = levels("moonleap").unwrap();
    assert!(std::ptr::eq(levels_at("moonleap", 2).unwrap(), moonleap));
    assert_eq!(moonleap[Level::Strong as usize].rating, 1948.0);
    let three = levels_at("moonleap", 3).unwrap();
    assert_eq!(three[Level::Strong as usize].spec, BotSpec::Greedy);
    assert_eq!(three[Level::Strong as usize].rating, 1928.0);
    assert_eq!(
        levels_at("moonleap", 4).unwrap()[Level::Strong as usize].rating,
        1839.0
    );
    assert!(std::ptr::eq(
        levels_at("naval", 4).unwrap(),
        levels("naval").unwrap()
    ));
    assert_eq!(level("mad", 0), Err(LevelError::Number(0)));
    assert_eq!(level("mad", 6), Err(LevelError::Number(6)));
    assert!(matches!(level("go", 3), Err(LevelError::Game(_))));
    assert_eq!(bot_rating("mad", "club"), Some(1500.0));
    assert_eq!(bot_rating("mad", "mcts:i250"), Some(1500.0));
    assert_eq!(bot_rating("mad", "mcts:i7"), None);
}

/// A level bot plays the table of the seat count it is given: over a whole four-seat Moon
/// Leap game, `club` makes the very choices of a bot of the four-seat club's spec
/// (`greedy:20`) seeded alike, and not those of the two-seat club's (`greedy:50`).
#[test]
fn a_level_plays_the_table_of_its_seat_count() {
    let entry = find("moonleap").unwrap();
    let factory = bot_factory("moonleap").unwrap();
    let (club_4, club_2) = (
        levels_at("moonleap", 4).unwrap()[2].spec,
        levels_at("moonleap", 2).unwrap()[2].spec,
    );
    assert_eq!(club_4, "greedy:20".parse::<BotSpec>().unwrap());
    assert_eq!(club_2, "greedy:50".parse::<BotSpec>().unwrap());
    let mut state = entry.new_game(&serde_json::Value::Null, 4).unwrap();
    let mut rng = Seed::from_u64(3).rng();
    let mut level = factory.make(BotSpec::Level(Level::Club), 9);
    let mut four = factory.make(club_4, 9);
    let mut two = factory.make(club_2, 9);
    let (mut decisions, mut unlike_two) = (0, 0);
    loop {
        match state.to_act() {
            ToAct::Chance => {
                state.sample_chance(&mut rng);
            }
            ToAct::Player(seat) => {
                let action = level.act(&*state, seat).unwrap();
                assert_eq!(four.act(&*state, seat).unwrap(), action);
                unlike_two += usize::from(two.act(&*state, seat).unwrap() != action);
                decisions += 1;
                state.apply_text(Actor::Seat(seat), &action).unwrap();
            }
            _ => break,
        }
    }
    assert!(decisions > 20, "{decisions}");
    assert!(unlike_two > decisions / 4, "{unlike_two} of {decisions}");
}
