//! MCTS against random play on real games, at modest iteration budgets (reproducible). The
//! tournament tables with 200 games per pairing come from `plateau arena` (crates/bots/README.md).

use plateau_bots::{Bot, BotSpec, Budget, NoEvaluator};
use plateau_engine::{Actor, Game, Seat, ToAct, chance};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays `games` games of `hero` against `seats - 1` random bots, the hero's seat rotating, and
/// returns the hero's wins (a shared first place counts as a fraction).
fn wins<G: Game>(hero: BotSpec, seats: usize, games: u64) -> f64 {
    let mut total = 0.0;
    for game in 0..games {
        let hero_seat = (game as usize) % seats;
        let mut bots: Vec<Bot<G>> = (0..seats)
            .map(|s| {
                let spec = if s == hero_seat {
                    hero
                } else {
                    BotSpec::Random
                };
                Bot::new(spec, game * 10 + s as u64, NoEvaluator)
            })
            .collect();
        let mut state = G::new(&G::Config::default(), seats).expect("default setup");
        let mut rng = ChaCha8Rng::seed_from_u64(game);
        let mut outcomes = Vec::new();
        loop {
            let movers: Vec<Seat> = match state.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    let i = chance::sample(&outcomes, &mut rng);
                    state.apply_legal(Actor::Chance, &outcomes[i].0);
                    continue;
                }
                ToAct::Player(s) => vec![s],
                ToAct::Simultaneous(set) => set.iter().collect(),
            };
            for s in movers {
                let action = bots[s.index()].choose(&state, s).expect("a legal action");
                state
                    .apply(Actor::Seat(s), &action)
                    .expect("bots play legal actions");
            }
        }
        let outcome = state.outcome().expect("finished");
        if outcome.ranks[hero_seat] == 1 {
            total += 1.0 / outcome.winners().len() as f64;
        }
    }
    total
}

#[test]
fn mcts_beats_random_at_mad() {
    let won = wins::<plateau_mad::Mad>(BotSpec::Mcts(Budget::Iterations(200)), 2, 40);
    assert!(
        won >= 36.0,
        "MCTS won only {won} of 40 MAD games against random"
    );
}
