//! Every registered game has bots, and each kind of bot plays a legal action of it through the
//! text interface the command line and the match service use.

use plateau_bots::{BotSpec, Budget};
use plateau_engine::{Actor, Seed, ToAct};

#[test]
fn every_game_has_bots_that_play_legal_actions() {
    for entry in plateau_registry::GAMES {
        let name = entry.info.name;
        assert!(
            plateau_registry::bot_factory(name).is_ok(),
            "{name} is registered without bots"
        );
        let mut state = entry
            .new_game(&serde_json::Value::Null, entry.info.default_seats)
            .unwrap();
        let mut rng = Seed::from_u64(5).rng();
        while state.to_act() == ToAct::Chance {
            state.sample_chance(&mut rng);
        }
        let seat = match state.to_act() {
            ToAct::Player(s) => s,
            ToAct::Simultaneous(set) => set.iter().next().unwrap(),
            other => panic!("{name}: nobody to act at the start ({other:?})"),
        };
        let legal = state.legal_texts(seat);
        for spec in [
            BotSpec::Random,
            BotSpec::Greedy,
            BotSpec::EpsilonGreedy { greedy_percent: 50 },
            BotSpec::Blunder {
                blunder_percent: 50,
            },
            BotSpec::Mcts(Budget::Iterations(8)),
            BotSpec::PlainMcts(Budget::Iterations(8)),
        ] {
            let mut bot = plateau_registry::new_bot(name, spec, 7).unwrap();
            assert_eq!(bot.game(), name);
            let action = bot
                .act(&*state, seat)
                .unwrap_or_else(|e| panic!("{name}: {spec} found no action: {e}"));
            assert!(legal.contains(&action), "{name}: {spec} chose `{action}`");
            let mut next = state.clone();
            next.apply_text(Actor::Seat(seat), &action).unwrap();
        }
    }
    let unknown = plateau_registry::new_bot("no-such-game", BotSpec::Random, 0)
        .err()
        .expect("no bots for an unknown game");
    assert!(unknown.to_string().contains("no-such-game"), "{unknown}");
}

/// MAD registers its evaluation: the greedy bot takes the free expulsion of an enemy 222 every
/// time (without an evaluation every move that does not end the game would be worth the same).
#[test]
fn mad_greedy_bot_uses_the_games_evaluation() {
    let entry = plateau_registry::find("mad").unwrap();
    // Red's 222 on b3 faces Blue's 222 on b4; the corvettes are far away.
    let state = entry
        .from_position(
            &serde_json::Value::Null,
            "3B111/4/1B2222/1R2222/4/R1113 r 10 4 b",
        )
        .unwrap();
    let seat = plateau_engine::Seat(0);
    assert!(state.legal_texts(seat).len() > 10);
    for seed in 0..20 {
        let bot = plateau_registry::new_bot("mad", BotSpec::Greedy, seed);
        let action = bot.unwrap().act(&*state, seat);
        assert_eq!(action.as_deref(), Ok("b3xb4"), "seed {seed}");
    }
}
