//! Random playouts from random initial positions (option 2): actions per second, single thread.
//!
//! `cargo bench -p plateau-chakart`. One iteration plays the same 50 seeded games, so every
//! iteration applies the same number of actions (decisions and chance outcomes alike); criterion
//! reports that number per second as "elem/s".

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_chakart::{Action, Chakart, Config};
use plateau_engine::{Actor, Game, ToAct, chance};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `games` random games from `start`; returns (actions, decisions) applied.
fn batch(start: &Chakart, games: u64) -> (u64, u64) {
    let mut actions: Vec<Action> = Vec::with_capacity(128);
    let mut outcomes: Vec<(Action, f64)> = Vec::with_capacity(16);
    let (mut plies, mut decisions) = (0, 0);
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = *start;
        loop {
            match g.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    g.chance_outcomes(&mut outcomes);
                    let i = chance::sample(&outcomes, &mut rng);
                    g.apply_legal(Actor::Chance, &outcomes[i].0);
                }
                ToAct::Player(s) => {
                    g.legal_actions(s, &mut actions);
                    let i = rng.random_range(0..actions.len());
                    g.apply_legal(Actor::Seat(s), &actions[i]);
                    decisions += 1;
                }
                ToAct::Simultaneous(_) => unreachable!("Chakart has no simultaneous node"),
            }
            plies += 1;
        }
        black_box(&g);
    }
    (plies, decisions)
}

/// This process's CPU time in seconds, from /proc/self/stat (Linux; clock ticks of 10 ms).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The same batches timed on CPU time, which other processes on a busy machine do not inflate.
fn cpu_rate(start: &Chakart, games: u64) {
    let Some(t0) = cpu_seconds() else { return };
    let (mut plies, mut decisions) = (0u64, 0u64);
    let mut t = t0;
    while t - t0 < 5.0 {
        let (p, d) = batch(start, games);
        plies += p;
        decisions += d;
        t = cpu_seconds().unwrap_or(t0 + 10.0);
    }
    let secs = t - t0;
    eprintln!(
        "CPU time {secs:.2} s: {:.0} actions/s, {:.0} decisions/s (single thread)",
        plies as f64 / secs,
        decisions as f64 / secs
    );
}

fn playouts(c: &mut Criterion) {
    let config = Config {
        randomness: 2,
        turn_limit: 1000,
    };
    let start = Chakart::new(&config, 2).expect("the default table");
    const GAMES: u64 = 50;
    let (plies, decisions) = batch(&start, GAMES);
    eprintln!("one iteration: {GAMES} games, {plies} actions, {decisions} decisions");
    cpu_rate(&start, GAMES);
    let mut group = c.benchmark_group("chakart");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("random_playouts_actions", |b| {
        b.iter(|| batch(black_box(&start), GAMES))
    });
    group.throughput(Throughput::Elements(decisions));
    group.bench_function("random_playouts_decisions", |b| {
        b.iter(|| batch(black_box(&start), GAMES))
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
