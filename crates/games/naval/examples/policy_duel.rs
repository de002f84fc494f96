//! One policy style against three greedy seats, on the true state (docs/bots.md section 1,
//! "The playouts' policy"): how strong the search's playouts play each seat, and how fast.
//!
//! `cargo run --release -p plateau-naval --example policy_duel -- STYLE GAMES SEED`
//! (STYLE: `quick`, `greedy`, `greedy-layout` or `thorough`). The style plays one seat, turning
//! round the four seats game by game, the greedy style the three others; everyone keeps the
//! random layout but the thorough style, which makes its own placement (`greedy-layout`: the
//! greedy style's battle after the thorough style's placement, the layout's bench). Prints the style's win share (a shared first place
//! among k seats counts 1/k; Wilson's 95% interval) and the mean time of one of its battle
//! decisions against a greedy seat's, measured in the same games.

use std::time::{Duration, Instant};

use plateau_engine::{Actor, Game, Seat};
use plateau_naval::{Config, Naval, Phase, Style};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Wilson's 95% score interval for a share `p` of `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = 1.96f64 * 1.96;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

fn main() {
    let usage = "usage: policy_duel quick|greedy|greedy-layout|thorough GAMES SEED";
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The style of the battle, and that of the placement.
    let (style, placement) = match args.first().map(String::as_str) {
        Some("quick") => (Style::Quick, Style::Quick),
        Some("greedy") => (Style::Greedy, Style::Greedy),
        Some("greedy-layout") => (Style::Greedy, Style::Thorough),
        Some("thorough") => (Style::Thorough, Style::Thorough),
        _ => panic!("{usage}"),
    };
    let number = |i: usize| -> u64 { args.get(i).and_then(|a| a.parse().ok()).expect(usage) };
    let (games, seed) = (number(1), number(2));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut wins, mut out_first) = (0.0, 0u64);
    let mut timed = [(Duration::ZERO, 0u64); 2];
    for game in 0..games {
        let hero = Seat((game % 4) as u8);
        let mut g = Naval::new(&Config::default(), 4).expect("4 seats");
        let mut first_out = None;
        while let Some((actor, random)) = g.random_action(&mut rng) {
            let action = match actor {
                Actor::Seat(s) => {
                    let mine = usize::from(s != hero);
                    let style = match (mine, g.phase) {
                        (0, Phase::Placement) => placement,
                        (0, _) => style,
                        _ => Style::Greedy,
                    };
                    let start = Instant::now();
                    let a = g
                        .heuristic_action(s, style, &mut rng)
                        .expect("the seat acts");
                    if g.phase == Phase::Battle {
                        timed[mine].0 += start.elapsed();
                        timed[mine].1 += 1;
                    }
                    a
                }
                _ => random,
            };
            g.apply_legal(actor, &action);
            if first_out.is_none() {
                first_out = Seat::all(4).find(|&s| g.board(s).out);
            }
        }
        let outcome = g.outcome().expect("finished");
        if outcome.ranks[hero.index()] == 1 {
            wins += 1.0 / outcome.winners().len() as f64;
        }
        if first_out == Some(hero) {
            out_first += 1;
        }
    }
    let n = games as f64;
    let (lo, hi) = wilson(wins / n, n);
    let per = |(t, k): (Duration, u64)| t.as_secs_f64() * 1e6 / k.max(1) as f64;
    println!(
        "{} against three greedy, {games} games, seed {seed}: won {:.1}% [{:.1}%, {:.1}%], \
         out first {:.1}%; a battle decision {:.1} us (greedy seats {:.1} us)",
        args[0],
        100.0 * wins / n,
        100.0 * lo,
        100.0 * hi,
        100.0 * out_first as f64 / n,
        per(timed[0]),
        per(timed[1]),
    );
}
