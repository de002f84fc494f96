//! `plateau bench <game>`: single-thread throughput of random playouts and of MCTS iterations
//! (docs/architecture.md section 3). For tracked figures use the criterion benchmarks in
//! crates/bots/benches.

use std::time::Duration;

use plateau_bots::{BotSpec, Budget};
use plateau_engine::driver::{Driver, Next, Policy, Step};
use plateau_engine::{DynGame, Seat, ToAct};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{CliResult, emit, find_game, parse_config};

/// Random actions played before each searched position after the first (the start), so search is
/// measured in the opening and in the middle game.
const PLIES: [usize; 4] = [0, 10, 30, 60];

/// `plateau bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Game name (`mad`, `moonleap`, ...).
    game: String,
    /// Seats (default: the game's default).
    #[arg(long)]
    players: Option<usize>,
    /// Game config as JSON (default: the standard game).
    #[arg(long)]
    config: Option<String>,
    /// Seconds for each of the two measurements.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Seed of the playouts and of the searched positions.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Measures and prints playouts per second and MCTS iterations per second.
pub fn run(args: Args) -> CliResult {
    let entry = find_game(&args.game)?;
    let config = parse_config(args.config.as_deref())?;
    let players = args.players.unwrap_or(entry.info.default_seats);
    let start = entry
        .new_game(&config, players)
        .map_err(|e| format!("cannot set up {}: {e}", entry.info.name))?;
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(format!("--seconds must be positive, not {}", args.seconds));
    }
    let factory = plateau_registry::bot_factory(entry.info.name).map_err(|e| e.to_string())?;
    let budget = Duration::from_secs_f64(args.seconds);

    let rate = factory
        .random_playouts(&*start, budget, args.seed)
        .map_err(|e| e.to_string())?;
    let secs = rate.elapsed.as_secs_f64();
    let mut text = format!(
        "{} ({players} seats), one thread\nrandom playouts: {:.0}/s ({} games, {:.0} actions/s, {:.1} actions per game)\n",
        entry.info.name,
        rate.per_second(),
        rate.playouts,
        rate.actions as f64 / secs,
        rate.actions as f64 / rate.playouts as f64,
    );

    // Search: a fresh bot on a few positions along one random game, the budget split evenly.
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut state = start.clone();
    let mut driver = Driver::checked();
    let mut played = 0;
    let per_position = (budget.as_millis() as u64 / PLIES.len() as u64).max(1);
    let (mut iterations, mut elapsed, mut nodes) = (0u64, Duration::ZERO, 0usize);
    for plies in PLIES {
        while played < plies {
            match driver.step(&mut *state, &mut rng, &mut RandomText) {
                Ok(Step::Over) => break,
                Ok(_) => played += 1,
                Err(e) => return Err(e.to_string()),
            }
        }
        // Searches happen where a seat decides: draw chance outcomes until one does.
        while state.to_act() == ToAct::Chance {
            driver
                .draw(&mut *state, &mut rng)
                .map_err(|e| e.to_string())?;
        }
        let Next::Seat(seat) = driver.next(&*state, |_, seats| seats.iter().next()) else {
            continue;
        };
        let mut bot = factory.make(BotSpec::Mcts(Budget::Millis(per_position)), args.seed);
        bot.act(&*state, seat).map_err(|e| e.to_string())?;
        let stats = bot.stats();
        iterations += stats.iterations;
        elapsed += stats.elapsed;
        nodes = nodes.max(stats.nodes);
    }
    if elapsed.is_zero() {
        text.push_str("mcts: no position to search\n");
    } else {
        text.push_str(&format!(
            "mcts iterations: {:.0}/s ({iterations} iterations in {:.2} s, largest tree {nodes} nodes)\n",
            iterations as f64 / elapsed.as_secs_f64(),
            elapsed.as_secs_f64(),
        ));
    }
    emit(&text)
}

/// The positions' plies: a uniformly random legal action of the lowest seat to act.
struct RandomText;

impl Policy<dyn DynGame> for RandomText {
    fn choose<R: RngCore>(
        &mut self,
        state: &dyn DynGame,
        seat: Seat,
        rng: &mut R,
    ) -> Option<String> {
        state.random_action(seat, rng)
    }
}
