//! Where a Bataille Navale search's value comes from (docs/bots.md section 1, "Why the search
//! adds nothing"). The thorough policy plays seat 1 against three greedy bots; at every third of
//! its battle decisions the search (`mcts:i<ITERATIONS>`, the registry's evaluation) chooses, and
//! each of the policy's root candidates and the search's choice is valued by `SAMPLES` playouts
//! of the search's kind (a fresh determinization, then the quick policy for the search's cut-off,
//! scored by the evaluation), the candidates of one sample sharing its determinization and
//! random numbers, so that their differences are paired.
//!
//! `cargo run --release -p plateau-registry --example naval_probe -- GAMES SAMPLES ITERATIONS [-v]`
//! prints per decision (with `-v`) and in all: the spread of a playout's value, how far the best
//! candidate's paired value stands above the policy's choice's, and how the search's choice
//! compares with the policy's by the same paired values.

use plateau_bots::{Budget, Mcts, SearchConfig};
use plateau_engine::driver::{Driver, Next};
use plateau_engine::{Actor, Game, Seat};
use plateau_naval::{Naval, Phase, Style};
use plateau_registry::evaluators::{NAVAL_CUTOFF, NavalEvaluation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The search's playout from `state`, a candidate just played: the quick policy up to the
/// search's cut-off (`NAVAL_CUTOFF` actions from the root, the candidate's included), then seat
/// 1's value by the evaluation.
fn playout(state: &mut Naval, rng: &mut ChaCha8Rng) -> f64 {
    let mut driver = Driver::trusted();
    for _ in 1..NAVAL_CUTOFF {
        match driver.next(state, |_, seats| seats.lowest()) {
            Next::Over => break,
            Next::Chance => {
                driver.draw(state, rng).expect("a chance node has outcomes");
            }
            Next::Seat(s) => {
                let a = state
                    .heuristic_action(s, Style::Quick, rng)
                    .expect("the seat acts");
                driver
                    .play(state, s, &a)
                    .expect("the policy's order is legal");
            }
        }
    }
    state.evaluation()[0]
}

/// Mean and standard error of `xs`.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, (var / n).sqrt())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .expect("usage: naval_probe GAMES SAMPLES ITERATIONS [-v]")
    };
    let (games, samples, iterations) = (number(0), number(1) as usize, number(2));
    let verbose = args.iter().any(|a| a == "-v");
    let me = Seat(0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut leaf_sd, mut best_gap, mut best_beats) = (Vec::new(), Vec::new(), 0);
    let (mut tree_gain, mut tree_same, mut tree_policy_visits) = (Vec::new(), 0, Vec::new());
    for game in 0..games {
        let mut g = Naval::new(&plateau_naval::Config::default(), 4).expect("4 seats");
        let mut decision = 0;
        while let Some((actor, random)) = g.random_action(&mut rng) {
            let action = match actor {
                Actor::Seat(s) => {
                    let style = if s == me {
                        Style::Thorough
                    } else {
                        Style::Greedy
                    };
                    g.heuristic_action(s, style, &mut rng)
                        .expect("the seat acts")
                }
                _ => random,
            };
            if actor == Actor::Seat(me) && g.phase == Phase::Battle {
                decision += 1;
            }
            if actor == Actor::Seat(me) && g.phase == Phase::Battle && decision % 3 == 0 {
                let mut search = Mcts::with_evaluator(
                    SearchConfig::with_budget(Budget::Iterations(iterations)),
                    rng.random(),
                    NavalEvaluation,
                );
                let chosen = search.choose(&g, me).expect("the seat acts");
                let visits = |a| {
                    search
                        .root_children()
                        .iter()
                        .find(|c| c.action == a)
                        .map_or(0, |c| c.visits)
                };
                // The search's own list, its policy's choice first (the thorough policy's
                // sampled odds differ a little from one draw to the next).
                let Some(cands) = search.root_candidates().map(<[_]>::to_vec) else {
                    // One sensible action: no search.
                    g.apply_legal(actor, &action);
                    continue;
                };
                tree_policy_visits.push(f64::from(visits(cands[0])) / iterations as f64);
                let n = cands.len();
                let mut values = vec![Vec::with_capacity(samples); n];
                for _ in 0..samples {
                    let d = g.determinize(me, &mut rng);
                    let seed: u64 = rng.random();
                    for (i, c) in cands.iter().enumerate() {
                        let mut st = d.clone();
                        st.apply_legal(Actor::Seat(me), c);
                        values[i].push(playout(&mut st, &mut ChaCha8Rng::seed_from_u64(seed)));
                    }
                }
                let diff = |i: usize| -> Vec<f64> {
                    values[i]
                        .iter()
                        .zip(&values[0])
                        .map(|(a, b)| a - b)
                        .collect()
                };
                let (m0, se0) = mean_se(&values[0]);
                leaf_sd.push(se0 * (samples as f64).sqrt());
                let best = (1..n)
                    .max_by(|&a, &b| mean_se(&diff(a)).0.total_cmp(&mean_se(&diff(b)).0))
                    .expect("at least two candidates");
                let (gap, gap_se) = mean_se(&diff(best));
                best_gap.push(gap);
                if gap > 2.0 * gap_se {
                    best_beats += 1;
                }
                let chosen_index = cands.iter().position(|c| *c == chosen).expect("listed");
                if chosen_index == 0 {
                    tree_same += 1;
                }
                tree_gain.push(mean_se(&diff(chosen_index)).0);
                if verbose {
                    println!(
                        "game {game} decision {decision}: policy {} {m0:.4}, search chose {}",
                        g.format_action(&cands[0]),
                        g.format_action(&chosen)
                    );
                    for (i, c) in cands.iter().enumerate() {
                        let (d, se) = mean_se(&diff(i));
                        println!(
                            "  {:<28} {d:+.4} ± {se:.4}  visits {}",
                            g.format_action(c),
                            visits(*c)
                        );
                    }
                }
            }
            g.apply_legal(actor, &action);
        }
    }
    let k = leaf_sd.len();
    let (sd, _) = mean_se(&leaf_sd);
    let (gap, gap_se) = mean_se(&best_gap);
    let (gain, gain_se) = mean_se(&tree_gain);
    let (pv, _) = mean_se(&tree_policy_visits);
    println!("decisions {k}, {samples} paired samples each, search mcts:i{iterations}");
    println!("  spread (sd) of one playout's value: {sd:.4}");
    println!(
        "  best other candidate over the policy's choice: {gap:+.4} ± {gap_se:.4} on average, \
         by more than 2 SE at {best_beats} of {k}"
    );
    println!(
        "  search kept the policy's choice at {tree_same} of {k} (its visits {:.0}% of the \
         iterations); its choice over the policy's, paired: {gain:+.4} ± {gain_se:.4}",
        pv * 100.0
    );
}
