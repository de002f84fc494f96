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
            BotSpec::Setup { setup_percent: 50 },
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

/// Bataille Navale's `setup` bot lays out its fleet move for move as the thorough policy (the
/// expert's layout) does, until that policy says `ready`, and leaves its fleet cheaper to hide
/// than the deal did; `setup:50` says `ready` instead at about half of its decisions, so it
/// stops part way and makes fewer moves over the same deals.
#[test]
fn naval_setup_bot_lays_out_the_fleet_as_the_thorough_policy_does() {
    use plateau_engine::{DynGame, Game, Seat};
    use plateau_naval::{Action, Config, Naval, Style};

    let seat = Seat(0);
    let mut moves = [0, 0];
    for deal in 0..6 {
        for (i, percent) in [100, 50].into_iter().enumerate() {
            let mut g = Naval::new(&Config::default(), 4).unwrap();
            let mut rng = Seed::from_u64(deal).rng();
            while Game::to_act(&g) == ToAct::Chance {
                DynGame::sample_chance(&mut g, &mut rng);
            }
            let dealt = g.layout_cost(seat);
            let spec = BotSpec::Setup {
                setup_percent: percent,
            };
            let mut bot = plateau_registry::new_bot("naval", spec, deal).unwrap();
            loop {
                let thorough = g.heuristic_action(seat, Style::Thorough, &mut rng).unwrap();
                let text = bot.act(&g, seat).unwrap();
                let action = g.parse_action(&text).unwrap();
                assert!(
                    action == thorough || (percent < 100 && action == Action::Ready),
                    "deal {deal}, {spec}: {text}"
                );
                g.apply_legal(Actor::Seat(seat), &action);
                if action == Action::Ready {
                    break;
                }
                moves[i] += 1;
            }
            if percent == 100 {
                assert!(g.layout_cost(seat) < dealt, "deal {deal}");
            }
        }
    }
    assert!(moves[1] < moves[0], "{moves:?}");
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
