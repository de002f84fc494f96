//! `plateau arena <game> --bots a,b[,c,d] --games N`: a bot tournament for any game and seat count
//! (docs/architecture.md section 3).
//!
//! # Tables
//! - Two seats: round-robin, every pair of bots plays `--games` games, seats alternating.
//! - More seats and at least as many bots as seats: every set of `--players` bots plays `--games`
//!   games, seats rotating.
//! - More seats than bots: a gauntlet; the first bot plays `--games` games against each other bot,
//!   which fills all the remaining seats (`mcts:100,random --players 4`: one MCTS against three
//!   random bots), seats rotating.
//!
//! `--records FILE` writes every game's record (docs/architecture.md section 4, the JSON that
//! `plateau play --record` writes, its seed revealed), one per line (JSON Lines), in the order of
//! the report's `games`: what `python -m plateau.dataset` turns into training rows
//! (python/README.md, "Training rows").
//!
//! Games run in parallel on the available cores (one bot object per seat and game, so MCTS reuses
//! its tree from move to move). Every game's seed follows from `--seed`, so with iteration budgets
//! the whole tournament is reproducible.
//!
//! # Modules
//! `schedule` (tables, seeds, one game), `stats` (win shares), `ratings` (Elo, Weng-Lin),
//! `report` (JSON, tables, chart).
//!
//! # Figures
//! A bot's *win share* counts a shared first place among `k` seats as `1/k` of a win, over all the
//! seats it held (a bot filling three seats holds three per game); its 95% interval is Wilson's.
//! *Utility* is the mean `Outcome::utility`. Ratings: Elo (K = 32, start 1000) for two seats,
//! Weng-Lin (mu, sigma; start 25, 25/3) for more, updated game by game with the pairings
//! interleaved.

mod ratings;
mod report;
mod schedule;
mod stats;

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use plateau_bots::BotSpec;

use crate::common::{CliResult, check_writable, emit, find_game, parse_config};
use report::{PairingReport, Report};
use stats::{GameResult, Tally, tally};

/// `plateau arena`.
#[derive(clap::Args)]
pub struct Args {
    /// Game name (`mad`, `moonleap`, ...).
    game: String,
    /// Bots, comma-separated: random, greedy, greedy:<percent> (greedy at that share of
    /// decisions, random otherwise), blunder:<percent> (the worst move at that share),
    /// setup:<percent> (the strongest policy at that share of the setup's decisions, Bataille
    /// Navale's placement, then greedy; `setup` at all of them), beginner,
    /// casual, club, strong, expert, mcts:<ms>,
    /// mcts:i<iterations>;
    /// an MCTS form ending in `:plain` searches without the game's evaluation, one ending in
    /// `:cut<actions>` scores its playouts after that many actions (the game's own cut-off
    /// otherwise).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<BotSpec>,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seats at each table (default: the game's default).
    #[arg(long)]
    players: Option<usize>,
    /// Tournament seed; every game's seed follows from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Game config as JSON (default: the standard game).
    #[arg(long)]
    config: Option<String>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the results as JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write every game's record here, one JSON record per line (what `python -m
    /// plateau.dataset` reads).
    #[arg(long)]
    records: Option<PathBuf>,
    /// Draw rating against search budget as SVG here.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs the tournament, prints the tables and writes the files asked for.
pub fn run(args: Args) -> CliResult {
    let entry = find_game(&args.game)?;
    let config = parse_config(args.config.as_deref())?;
    let players = args.players.unwrap_or(entry.info.default_seats);
    // Fails early, with the game's own message, on a bad seat count or config.
    entry
        .new_game(&config, players)
        .map_err(|e| format!("cannot set up {}: {e}", entry.info.name))?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    for path in args.out.iter().chain(&args.plot).chain(&args.records) {
        check_writable(path)?;
    }
    let tables = schedule::tables(args.bots.len(), players)?;
    let names: Vec<String> = args.bots.iter().map(ToString::to_string).collect();

    let jobs: Vec<(usize, usize)> = (0..args.games)
        .flat_map(|i| (0..tables.len()).map(move |t| (t, i)))
        .collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, jobs.len());
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(jobs.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise}  eta {eta}")
            .map_err(|e| e.to_string())?,
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(jobs.len()));
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(t, i)) = jobs.get(j) else { break };
                    let seats: Vec<usize> =
                        (0..players).map(|s| tables[t][(s + i) % players]).collect();
                    let seed = schedule::game_seed(args.seed, t, i);
                    let keep = args.records.is_some();
                    match schedule::play(entry, &config, &args.bots, &seats, seed, keep) {
                        Ok(played) => {
                            let result = GameResult {
                                pairing: t,
                                index: i,
                                seed,
                                seats,
                                ranks: played.ranks,
                                kind: played.kind,
                                actions: played.actions,
                            };
                            let mut results = results.lock().expect("no thread panics");
                            results.push((result, played.record));
                        }
                        Err(e) => {
                            failure.lock().expect("no thread panics").get_or_insert(e);
                            break;
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().expect("no thread panics") {
        return Err(e);
    }
    let mut played = results.into_inner().expect("no thread panics");
    played.sort_by_key(|(g, _)| (g.index, g.pairing));
    if let Some(path) = &args.records {
        let mut lines = String::new();
        for record in played.iter().filter_map(|(_, r)| r.as_ref()) {
            lines += &serde_json::to_string(record).map_err(|e| e.to_string())?;
            lines.push('\n');
        }
        std::fs::write(path, lines).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let games: Vec<GameResult> = played.into_iter().map(|(g, _)| g).collect();

    let pairings: Vec<PairingReport> = tables
        .iter()
        .enumerate()
        .map(|(t, table)| {
            let of_table: Vec<&GameResult> = games.iter().filter(|g| g.pairing == t).collect();
            let mut bots: Vec<usize> = table.clone();
            bots.sort_unstable();
            bots.dedup();
            PairingReport {
                table: table.iter().map(|&b| names[b].clone()).collect(),
                tallies: bots
                    .iter()
                    .map(|&b| tally(&names[b], b, &of_table))
                    .collect(),
            }
        })
        .collect();
    let all: Vec<&GameResult> = games.iter().collect();
    let overall: Vec<Tally> = (0..names.len())
        .map(|b| tally(&names[b], b, &all))
        .collect();
    let (rating_system, ratings) = ratings::rate(&args.bots, &names, players, &games);

    let report = Report {
        game: entry.info.name.to_owned(),
        players,
        seed: args.seed,
        games_per_pairing: args.games,
        bots: names,
        rating_system,
        pairings,
        overall,
        ratings,
        games,
    };
    emit(&report::render(&report))?;
    if let Some(path) = &args.out {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, report::plot(&report))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
