//! Determinization reads only the viewer's information (docs/architecture.md section 6): two states a seat cannot tell
//! apart give, for the same generator seed, byte-identical determinized states (serde JSON), so a
//! bot built on `determinize` cannot learn another seat's layout. Late-game boards with many hits,
//! where a budget-limited search used to keep the true layout, are the point of the test.

use plateau_engine::{Game, Seat, Viewer};
use plateau_naval::Ability;
use plateau_naval::Naval;
use plateau_naval::bits::Cell;
use plateau_naval::piece::{SHIPS, Ship};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Battle states of seeded random games (orders from `Naval::random_action`), every `every`-th
/// step, kept once at least `min_hits` cells are hit on the living boards together.
fn late_states(games: u64, every: usize, min_hits: u32) -> Vec<Naval> {
    (0..games)
        .flat_map(|seed| {
            Naval::late_battle_states(&mut ChaCha8Rng::seed_from_u64(1000 + seed), every, min_hits)
        })
        .collect()
}

fn json(g: &Naval) -> String {
    serde_json::to_string(g).unwrap()
}

#[test]
fn same_observation_same_seed_gives_the_same_determinized_state() {
    let states = late_states(12, 7, 40);
    assert!(states.len() > 150, "{} late states", states.len());
    let mut other = ChaCha8Rng::seed_from_u64(99);
    let (mut compared, mut layouts_differ) = (0, 0);
    for (n, g) in states.iter().enumerate() {
        for s in 0..4u8 {
            if g.boards[s as usize].out {
                continue;
            }
            // A second truth the seat cannot tell from the first: other layouts, energies and
            // hidden shields resampled, then by hand other energies, placement move counts and
            // other seats' scan areas (not in the observation) changed.
            let mut h = g.determinize(Seat(s), &mut other);
            for t in (0..4).filter(|&t| t != s as usize) {
                let b = &mut h.boards[t];
                if !b.out {
                    for k in 0..SHIPS {
                        if !b.is_sunk(Ship::ALL[k]) {
                            b.energy[k] = other.random_range(0..=1000);
                        }
                    }
                }
                b.moves = other.random_range(0..=40);
                let u = (t + other.random_range(1..4)) % 4;
                h.scans[t][u].sonar |=
                    Ability::Sonar.area(Cell::new(other.random_range(0..196)).unwrap(), false);
            }
            let viewer = Viewer::Seat(Seat(s));
            assert_eq!(
                serde_json::to_string(&g.observe(viewer)).unwrap(),
                serde_json::to_string(&h.observe(viewer)).unwrap(),
                "state {n}, seat {s}: the two truths look alike"
            );
            if (0..4).any(|t| t != s as usize && g.boards[t].masks != h.boards[t].masks) {
                layouts_differ += 1;
            }
            let seed = (n as u64) << 2 | u64::from(s);
            let a = g.determinize(Seat(s), &mut ChaCha8Rng::seed_from_u64(seed));
            let b = h.determinize(Seat(s), &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(json(&a), json(&b), "state {n}, seat {s}");
            // And the sample is a state the seat cannot tell from the truth either.
            assert_eq!(
                serde_json::to_string(&a.observe(viewer)).unwrap(),
                serde_json::to_string(&g.observe(viewer)).unwrap(),
                "state {n}, seat {s}: the sample looks like the truth"
            );
            compared += 1;
        }
    }
    println!("{compared} comparisons, {layouts_differ} with different hidden layouts");
    assert!(
        layouts_differ * 10 > compared * 9,
        "the second truths mostly hide other layouts ({layouts_differ} of {compared})"
    );
}

#[test]
fn former_fallback_states_give_the_same_sample_for_every_truth_alike() {
    let text = include_str!("data/old_fallbacks.txt");
    let mut cases = 0;
    for (n, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
        let (seat, state) = line.split_once(' ').unwrap();
        let s = Seat(seat.parse().unwrap());
        let g: Naval = serde_json::from_str(state).unwrap();
        let viewer = Viewer::Seat(s);
        let seen = serde_json::to_string(&g.observe(viewer)).unwrap();
        let mut other = ChaCha8Rng::seed_from_u64(n as u64);
        for k in 0..8u64 {
            let h = g.determinize(s, &mut other);
            assert_eq!(serde_json::to_string(&h.observe(viewer)).unwrap(), seen);
            let a = g.determinize(s, &mut ChaCha8Rng::seed_from_u64(k));
            let b = h.determinize(s, &mut ChaCha8Rng::seed_from_u64(k));
            assert_eq!(json(&a), json(&b), "case {n}, seed {k}");
        }
        cases += 1;
    }
    assert_eq!(cases, 10);
}
