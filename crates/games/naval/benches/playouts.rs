//! Random playouts of the battle: player turns per second, single thread.
//! `cargo bench -p plateau-naval`. Each measured unit is one player turn (six orders or fewer,
//! then the resolution with its rocket nodes); games restart from a fresh random layout, whose
//! 36 layout chance nodes are not timed.

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_engine::{Actor, Game, Seat, ToAct};
use plateau_naval::{Action, Config, Naval, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TURNS: u64 = 2_000;

/// A battle start: random layout, everybody ready, first player drawn.
fn battle_start(rng: &mut ChaCha8Rng) -> Naval {
    let mut g = Naval::new(&Config::default(), 4).unwrap();
    while g.phase != Phase::Battle {
        if let ToAct::Simultaneous(set) = g.to_act() {
            for s in set.iter() {
                g.apply(Actor::Seat(s), &Action::Ready).unwrap();
            }
            continue;
        }
        let (actor, a) = g.random_action(rng).unwrap();
        g.apply_legal(actor, &a);
    }
    g
}

/// Plays `turns` player turns, each seat action drawn by `random_action` (`fast`) or uniformly
/// from `legal_actions`; returns the time spent in the battle (set-ups of new games excluded).
fn run(turns: u64, rng: &mut ChaCha8Rng, fast: bool) -> Duration {
    let mut g = battle_start(rng);
    let mut done = 0;
    let mut buf = Vec::new();
    let mut spent = Duration::ZERO;
    let mut start = Instant::now();
    while done < turns {
        let (actor, a) = match g.to_act() {
            ToAct::Terminal => {
                spent += start.elapsed();
                g = battle_start(rng);
                start = Instant::now();
                continue;
            }
            ToAct::Player(s) if !fast => {
                g.legal_actions(s, &mut buf);
                (Actor::Seat(s), buf[rng.random_range(0..buf.len())])
            }
            _ => g.random_action(rng).unwrap(),
        };
        if matches!(actor, Actor::Seat(Seat(_))) && g.turn.given == 0 {
            done += 1;
        }
        g.apply_legal(actor, &a);
    }
    spent + start.elapsed()
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("naval");
    group.throughput(Throughput::Elements(TURNS));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    group.bench_function("random_turns_sampled", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(TURNS, &mut rng, true)).sum());
    });
    group.bench_function("random_turns_listed", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(TURNS, &mut rng, false)).sum());
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
