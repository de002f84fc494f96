//! MCTS iterations per second on every game (issue 7 aims: 300,000/s on MAD, 100,000/s on Moon
//! Leap). One bench per game: a search of a fixed number of iterations from the initial position
//! (after the opening chance events), reported as iterations per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_bots::{Budget, Mcts, SearchConfig};
use plateau_engine::{Actor, Game, Seat, ToAct, chance};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Iterations per measured search.
const ITERATIONS: u64 = 2000;

/// The first state where a seat decides, drawing chance outcomes from a fixed seed.
fn first_decision<G: Game>(seats: usize) -> (G, Seat) {
    let mut state = G::new(&G::Config::default(), seats).expect("default setup");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut outcomes = Vec::new();
    loop {
        match state.to_act() {
            ToAct::Chance => {
                state.chance_outcomes(&mut outcomes);
                let i = chance::sample(&outcomes, &mut rng);
                state.apply_legal(Actor::Chance, &outcomes[i].0);
            }
            ToAct::Player(s) => return (state, s),
            ToAct::Simultaneous(set) => return (state, set.iter().next().expect("a seat")),
            ToAct::Terminal => panic!("the game ends before anyone decides"),
        }
    }
}

fn bench_game<G: Game>(c: &mut Criterion, seats: usize) {
    let (state, seat) = first_decision::<G>(seats);
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    group.bench_function(format!("{}/{seats}", G::INFO.name), |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let config = SearchConfig {
                reuse: false,
                ..SearchConfig::with_budget(Budget::Iterations(ITERATIONS))
            };
            let mut mcts = Mcts::<G>::new(config, seed);
            black_box(mcts.choose(&state, seat))
        });
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_game::<plateau_mad::Mad>(c, 2);
    bench_game::<plateau_moonleap::MoonLeap>(c, 4);
    bench_game::<plateau_chakart::Chakart>(c, 2);
    bench_game::<plateau_naval::Naval>(c, 4);
}

criterion_group!(benches, search);
criterion_main!(benches);
