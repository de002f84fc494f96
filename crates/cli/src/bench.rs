//! `plateau bench <game>`: single-thread throughput of random playouts and of MCTS iterations
//! (docs/architecture.md section 3). For tracked figures use the criterion benchmarks in
//! crates/registry/benches.

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

/// Positions skipped at most, one random action each, while looking for one the bot searches.
const MAX_SKIPPED: usize = 2000;

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
    /// Measure the plain search (`mcts:<ms>:plain`: no evaluation, no playout policy, every
    /// playout to the end) instead of the game's registered search.
    #[arg(long)]
    plain: bool,
    /// Random actions played before the first searched position (`--skip 300` starts Bataille
    /// Navale's searches in the battle, past the layout and the placement).
    #[arg(long, default_value_t = 0)]
    skip: usize,
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
        let plies = plies + args.skip;
        while played < plies {
            match driver.step(&mut *state, &mut rng, &mut RandomText) {
                Ok(Step::Over) => break,
                Ok(_) => played += 1,
                Err(e) => return Err(e.to_string()),
            }
        }
        let budget = Budget::Millis(per_position);
        let spec = if args.plain {
            BotSpec::PlainMcts(budget)
        } else {
            BotSpec::Mcts(budget)
        };
        // Searches happen where a seat decides and the bot has a choice to search (a bot may
        // know the one sensible action, as Bataille Navale's `ready` in the placement): random
        // actions are played until it searches.
        for _ in 0..MAX_SKIPPED {
            while state.to_act() == ToAct::Chance {
                driver
                    .draw(&mut *state, &mut rng)
                    .map_err(|e| e.to_string())?;
            }
            let Next::Seat(seat) = driver.next(&*state, |_, seats| seats.iter().next()) else {
                break;
            };
            let mut bot = factory.make(spec, args.seed);
            bot.act(&*state, seat).map_err(|e| e.to_string())?;
            let stats = bot.stats();
            if stats.iterations > 0 {
                iterations += stats.iterations;
                elapsed += stats.elapsed;
                nodes = nodes.max(stats.nodes);
                break;
            }
            match driver.step(&mut *state, &mut rng, &mut RandomText) {
                Ok(Step::Over) => break,
                Ok(_) => played += 1,
                Err(e) => return Err(e.to_string()),
            }
        }
    }
    if elapsed.is_zero() {
        text.push_str("mcts: no position to search\n");
    } else {
        text.push_str(&format!(
            "{}mcts iterations: {:.0}/s ({iterations} iterations in {:.2} s, largest tree {nodes} nodes)\n",
            if args.plain { "plain " } else { "" },
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
