//! `plateau arena <game> --bots a,b[,c,d] --games N`: a bot tournament for any game and seat count
//! (DESIGN.md section 3, issue 7).
//!
//! # Tables
//! - Two seats: round-robin, every pair of bots plays `--games` games, seats alternating.
//! - More seats and at least as many bots as seats: every set of `--players` bots plays `--games`
//!   games, seats rotating.
//! - More seats than bots: a gauntlet; the first bot plays `--games` games against each other bot,
//!   which fills all the remaining seats (`mcts:100,random --players 4`: one MCTS against three
//!   random bots), seats rotating.
//!
//! Games run in parallel on the available cores (one bot object per seat and game, so MCTS reuses
//! its tree from move to move). Every game's seed follows from `--seed`, so with iteration budgets
//! the whole tournament is reproducible.
//!
//! # Figures
//! A bot's *win share* counts a shared first place among `k` seats as `1/k` of a win, over all the
//! seats it held (a bot filling three seats holds three per game); its 95% interval is Wilson's.
//! *Utility* is the mean `Outcome::utility`. Ratings: Elo (K = 32, start 1000) for two seats,
//! Weng-Lin (mu, sigma; start 25, 25/3) for more, updated game by game with the pairings
//! interleaved.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use plateau_bots::BotSpec;
use plateau_engine::{Actor, GameEntry, Seat, Seed, ToAct};
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::elo::{EloConfig, EloRating, elo};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use crate::common::{CliResult, emit, find_game, parse_config};

/// A game still running after this many actions is stopped and counted as a draw (`unfinished`).
const MAX_ACTIONS: usize = 100_000;
/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// `plateau arena`.
#[derive(clap::Args)]
pub struct Args {
    /// Game name (`mad`, `moonleap`, ...).
    game: String,
    /// Bots, comma-separated: random, greedy, beginner, club, expert, mcts:<ms>, mcts:i<iterations>;
    /// an MCTS form ending in `:plain` searches without the game's evaluation.
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
    /// Draw rating against search budget as SVG here.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// One game's result.
#[derive(Clone, Serialize)]
struct GameResult {
    /// Index of the table in `pairings`.
    pairing: usize,
    /// Index of the game within its table.
    index: usize,
    seed: u64,
    /// Bot index of each seat.
    seats: Vec<usize>,
    ranks: Vec<u8>,
    kind: String,
    actions: usize,
}

/// A bot's figures over some set of games.
#[derive(Clone, Default, Serialize)]
struct Tally {
    bot: String,
    /// Seats held (games times seats per game).
    seats: usize,
    /// Wins, a shared first place counting as a fraction.
    wins: f64,
    win_share: f64,
    ci_low: f64,
    ci_high: f64,
    utility: f64,
}

/// A bot's rating at the end.
#[derive(Clone, Serialize)]
struct Rating {
    bot: String,
    /// Elo, or Weng-Lin mu.
    rating: f64,
    /// Weng-Lin sigma (none for Elo).
    uncertainty: Option<f64>,
    /// Search budget, when the bot searches: milliseconds or iterations per move.
    budget: Option<String>,
}

#[derive(Serialize)]
struct Report {
    game: String,
    players: usize,
    seed: u64,
    games_per_pairing: usize,
    bots: Vec<String>,
    rating_system: &'static str,
    pairings: Vec<PairingReport>,
    overall: Vec<Tally>,
    ratings: Vec<Rating>,
    games: Vec<GameResult>,
}

#[derive(Serialize)]
struct PairingReport {
    /// Bot of each seat in the first game (later games rotate).
    table: Vec<String>,
    tallies: Vec<Tally>,
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
    let tables = tables(args.bots.len(), players)?;
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
                    let seed = game_seed(args.seed, t, i);
                    match play(entry, &config, &args.bots, &seats, seed) {
                        Ok((ranks, kind, actions)) => {
                            let result = GameResult {
                                pairing: t,
                                index: i,
                                seed,
                                seats,
                                ranks,
                                kind,
                                actions,
                            };
                            results.lock().expect("no thread panics").push(result);
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
    let mut games = results.into_inner().expect("no thread panics");
    games.sort_by_key(|g| (g.index, g.pairing));

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
    let (rating_system, ratings) = rate(&args.bots, &names, players, &games);

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
    emit(&render(&report))?;
    if let Some(path) = &args.out {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, plot(&report))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The tables (bot index per seat of the first game) for `bots` bots and `players` seats.
fn tables(bots: usize, players: usize) -> CliResult<Vec<Vec<usize>>> {
    if bots < 2 {
        return Err("--bots needs at least two bots".into());
    }
    if players == 2 || bots >= players {
        Ok(combinations(bots, players))
    } else {
        Ok((1..bots)
            .map(|b| {
                std::iter::once(0)
                    .chain(std::iter::repeat_n(b, players - 1))
                    .collect()
            })
            .collect())
    }
}

/// All `k`-element subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// The seed of game `index` of table `table`.
fn game_seed(base: u64, table: usize, index: usize) -> u64 {
    base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(((table as u64) << 32) | index as u64)
}

/// Plays one game: chance from the game seed, each seat's bot seeded from it too. Returns the ranks,
/// how it ended and its length in actions.
fn play(
    entry: &GameEntry,
    config: &serde_json::Value,
    bots: &[BotSpec],
    seats: &[usize],
    seed: u64,
) -> CliResult<(Vec<u8>, String, usize)> {
    let mut state = entry
        .new_game(config, seats.len())
        .map_err(|e| e.to_string())?;
    let mut chance = Seed::from_u64(seed).rng();
    let mut players = seats
        .iter()
        .enumerate()
        .map(|(s, &b)| {
            let bot_seed = seed ^ (s as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
            plateau_registry::new_bot(entry.info.name, bots[b], bot_seed)
                .ok_or_else(|| format!("no bots for {}", entry.info.name))
        })
        .collect::<CliResult<Vec<_>>>()?;
    let mut actions = 0;
    while actions < MAX_ACTIONS {
        let movers: Vec<Seat> = match state.to_act() {
            ToAct::Terminal => break,
            ToAct::Chance => {
                state.sample_chance(&mut chance);
                actions += 1;
                continue;
            }
            ToAct::Player(s) => vec![s],
            ToAct::Simultaneous(set) => set.iter().collect(),
        };
        for seat in movers {
            let bot = &mut players[seat.index()];
            let action = bot.act(&*state, seat).ok_or_else(|| {
                format!(
                    "{} at seat {seat} has no action in {}",
                    bot.spec(),
                    state.position_text()
                )
            })?;
            state
                .apply_text(Actor::Seat(seat), &action)
                .map_err(|e| format!("{} at seat {seat} played `{action}`: {e}", bot.spec()))?;
            actions += 1;
        }
    }
    Ok(match state.outcome() {
        Some(outcome) => (outcome.ranks, outcome.kind, actions),
        None => (vec![1; seats.len()], "unfinished".into(), actions),
    })
}

/// Bot `bot`'s figures over `games`.
fn tally(name: &str, bot: usize, games: &[&GameResult]) -> Tally {
    let mut t = Tally {
        bot: name.to_owned(),
        ..Tally::default()
    };
    let mut utility = 0.0;
    for g in games {
        let winners = g.ranks.iter().filter(|r| **r == 1).count() as f64;
        let n = g.ranks.len();
        for (s, &b) in g.seats.iter().enumerate() {
            if b != bot {
                continue;
            }
            t.seats += 1;
            let mine = g.ranks[s];
            if mine == 1 {
                t.wins += 1.0 / winners;
            }
            let beaten = g.ranks.iter().filter(|r| **r > mine).count() as f64;
            let tied = g.ranks.iter().filter(|r| **r == mine).count() as f64 - 1.0;
            utility += (beaten + 0.5 * tied) / (n as f64 - 1.0).max(1.0);
        }
    }
    if t.seats > 0 {
        let n = t.seats as f64;
        t.win_share = t.wins / n;
        t.utility = utility / n;
        (t.ci_low, t.ci_high) = wilson(t.win_share, n);
    }
    t
}

/// Wilson's 95% score interval for a proportion `p` observed over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Ratings from all games in order: Elo for two seats, Weng-Lin for more (copies of one bot at a
/// table are rated as separate seats, then averaged).
fn rate(
    specs: &[BotSpec],
    names: &[String],
    players: usize,
    games: &[GameResult],
) -> (&'static str, Vec<Rating>) {
    let budget = |b: usize| specs[b].budget().map(|x| x.to_string());
    if players == 2 {
        let config = EloConfig::new();
        let mut ratings = vec![EloRating::new(); specs.len()];
        for g in games {
            let (a, b) = (g.seats[0], g.seats[1]);
            let outcome = match g.ranks[0].cmp(&g.ranks[1]) {
                std::cmp::Ordering::Less => skillratings::Outcomes::WIN,
                std::cmp::Ordering::Greater => skillratings::Outcomes::LOSS,
                std::cmp::Ordering::Equal => skillratings::Outcomes::DRAW,
            };
            (ratings[a], ratings[b]) = elo(&ratings[a], &ratings[b], &outcome, &config);
        }
        let out = ratings
            .iter()
            .enumerate()
            .map(|(b, r)| Rating {
                bot: names[b].clone(),
                rating: r.rating,
                uncertainty: None,
                budget: budget(b),
            })
            .collect();
        ("elo", out)
    } else {
        let config = WengLinConfig::new();
        let mut ratings = vec![WengLinRating::new(); specs.len()];
        for g in games {
            let teams: Vec<[WengLinRating; 1]> = g.seats.iter().map(|&b| [ratings[b]]).collect();
            let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(&g.ranks)
                .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r as usize)))
                .collect();
            let updated = weng_lin_multi_team(&input, &config);
            let mut sums: BTreeMap<usize, (f64, f64, f64)> = BTreeMap::new();
            for (&b, new) in g.seats.iter().zip(&updated) {
                let e = sums.entry(b).or_default();
                e.0 += new[0].rating;
                e.1 += new[0].uncertainty;
                e.2 += 1.0;
            }
            for (b, (mu, sigma, n)) in sums {
                ratings[b] = WengLinRating {
                    rating: mu / n,
                    uncertainty: sigma / n,
                };
            }
        }
        let out = ratings
            .iter()
            .enumerate()
            .map(|(b, r)| Rating {
                bot: names[b].clone(),
                rating: r.rating,
                uncertainty: Some(r.uncertainty),
                budget: budget(b),
            })
            .collect();
        ("weng-lin", out)
    }
}

/// The tables for people.
fn render(report: &Report) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} with {} seats, {} games per table, seed {}",
        report.game, report.players, report.games_per_pairing, report.seed
    );
    let row = |text: &mut String, t: &Tally| {
        let _ = writeln!(
            text,
            "  {:<14} {:>6} {:>9.1}% [{:>5.1}%, {:>5.1}%] {:>8.3}",
            t.bot,
            t.seats,
            100.0 * t.win_share,
            100.0 * t.ci_low,
            100.0 * t.ci_high,
            t.utility
        );
    };
    let header = format!(
        "  {:<14} {:>6} {:>10} {:>16} {:>8}\n",
        "bot", "seats", "win share", "95% CI (Wilson)", "utility"
    );
    for p in &report.pairings {
        let _ = writeln!(text, "\ntable: {}", p.table.join(" vs "));
        text.push_str(&header);
        for t in &p.tallies {
            row(&mut text, t);
        }
    }
    if report.pairings.len() > 1 {
        text.push_str("\noverall\n");
        text.push_str(&header);
        for t in &report.overall {
            row(&mut text, t);
        }
    }
    let _ = writeln!(text, "\nratings ({})", report.rating_system);
    let mut ratings: Vec<&Rating> = report.ratings.iter().collect();
    ratings.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    for r in ratings {
        match r.uncertainty {
            Some(sigma) => {
                let _ = writeln!(text, "  {:<14} {:>8.2} ± {:.2}", r.bot, r.rating, sigma);
            }
            None => {
                let _ = writeln!(text, "  {:<14} {:>8.0}", r.bot, r.rating);
            }
        }
    }
    text
}

/// Rating against search budget (log scale), as a small hand-written SVG. Bots without a budget
/// (random, greedy) are dashed horizontal lines.
fn plot(report: &Report) -> String {
    const W: f64 = 640.0;
    const H: f64 = 400.0;
    const L: f64 = 70.0;
    const R: f64 = 20.0;
    const T: f64 = 40.0;
    const B: f64 = 50.0;
    let budget_of = |r: &Rating| -> Option<(f64, bool)> {
        let text = r.budget.as_deref()?;
        match text.strip_prefix('i') {
            Some(n) => n.parse().ok().map(|v| (v, true)),
            None => text.parse().ok().map(|v| (v, false)),
        }
    };
    let (ymin, ymax) = report
        .ratings
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), r| {
            (lo.min(r.rating), hi.max(r.rating))
        });
    let pad = ((ymax - ymin) * 0.1).max(1.0);
    let (ymin, ymax) = (ymin - pad, ymax + pad);
    let points: Vec<(&Rating, f64, bool)> = report
        .ratings
        .iter()
        .filter_map(|r| budget_of(r).map(|(v, it)| (r, v.max(1.0).log10(), it)))
        .collect();
    let (xmin, xmax) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let (xmin, xmax) = if points.is_empty() {
        (0.0, 1.0)
    } else {
        (xmin.floor(), xmax.ceil().max(xmin.floor() + 1.0))
    };
    let x = |v: f64| L + (v - xmin) / (xmax - xmin) * (W - L - R);
    let y = |v: f64| T + (ymax - v) / (ymax - ymin) * (H - T - B);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{} ({} seats): {} rating against search budget</text>"#,
        W / 2.0,
        report.game,
        report.players,
        report.rating_system
    );
    let _ = writeln!(
        svg,
        r#"<path d="M{L} {T} V{} H{}" stroke="black" fill="none"/>"#,
        H - B,
        W - R
    );
    for i in 0..=4 {
        let v = ymin + (ymax - ymin) * f64::from(i) / 4.0;
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{v:.0}</text>"#,
            L - 6.0,
            y(v) + 4.0
        );
    }
    let mut decade = xmin;
    while decade <= xmax + 1e-9 {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x(decade),
            H - B + 16.0,
            10f64.powf(decade)
        );
        decade += 1.0;
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">budget per move (ms; iterations for i-budgets), log scale</text>"#,
        (L + W - R) / 2.0,
        H - 12.0
    );
    for r in report.ratings.iter().filter(|r| r.budget.is_none()) {
        let _ = writeln!(
            svg,
            r##"<path d="M{L} {:.1} H{}" stroke="#888" stroke-dasharray="4 4"/><text x="{}" y="{:.1}" fill="#555">{}</text>"##,
            y(r.rating),
            W - R,
            L + 4.0,
            y(r.rating) - 4.0,
            r.bot
        );
    }
    let mut sorted = points.clone();
    sorted.sort_by(|a, b| {
        (a.2, a.1)
            .partial_cmp(&(b.2, b.1))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for iterations in [false, true] {
        let series: Vec<String> = sorted
            .iter()
            .filter(|p| p.2 == iterations)
            .map(|p| format!("{:.1},{:.1}", x(p.1), y(p.0.rating)))
            .collect();
        if series.len() > 1 {
            let colour = if iterations { "#c60" } else { "#06c" };
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}"/>"#,
                series.join(" ")
            );
        }
    }
    for (r, v, iterations) in &points {
        let colour = if *iterations { "#c60" } else { "#06c" };
        // Labels near the right edge go to the left of their point.
        let (dx, anchor) = if x(*v) > W - 120.0 {
            (-6.0, "end")
        } else {
            (6.0, "start")
        };
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{colour}"/><text x="{:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
            x(*v),
            y(r.rating),
            x(*v) + dx,
            y(r.rating) - 6.0,
            r.bot
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_round_robin_and_gauntlet() {
        assert_eq!(
            tables(3, 2).unwrap(),
            vec![vec![0, 1], vec![0, 2], vec![1, 2]]
        );
        assert_eq!(tables(4, 4).unwrap(), vec![vec![0, 1, 2, 3]]);
        assert_eq!(tables(2, 4).unwrap(), vec![vec![0, 1, 1, 1]]);
        assert_eq!(tables(5, 4).unwrap().len(), 5);
        assert!(tables(1, 2).is_err());
    }

    #[test]
    fn wilson_interval_matches_the_textbook_value() {
        // 190 wins out of 200: Wilson 95% interval [0.9101, 0.9725].
        let (lo, hi) = wilson(0.95, 200.0);
        assert!((lo - 0.9101).abs() < 5e-4, "{lo}");
        assert!((hi - 0.9725).abs() < 5e-4, "{hi}");
        let (lo, hi) = wilson(1.0, 40.0);
        assert!(hi == 1.0 && (lo - 0.9124).abs() < 5e-4, "{lo}");
    }

    #[test]
    fn shared_wins_count_as_fractions() {
        let g = |seats: Vec<usize>, ranks: Vec<u8>| GameResult {
            pairing: 0,
            index: 0,
            seed: 0,
            seats,
            ranks,
            kind: String::new(),
            actions: 0,
        };
        let games = [g(vec![0, 1], vec![1, 1]), g(vec![1, 0], vec![2, 1])];
        let refs: Vec<&GameResult> = games.iter().collect();
        let t = tally("a", 0, &refs);
        assert_eq!(t.seats, 2);
        assert!((t.wins - 1.5).abs() < 1e-12);
        assert!((t.utility - 0.75).abs() < 1e-12);
    }
}
