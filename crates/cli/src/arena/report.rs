//! The tournament's report: the structure written as JSON, the tables printed for people, and
//! the chart of rating against search budget (drawn by `crate::chart`).

use std::fmt::Write as _;

use serde::Serialize;

use super::ratings::Rating;
use super::stats::{GameResult, Tally};
use crate::chart::{LineChart, Point, Reference, Series};

/// Everything a tournament found (written by `--out`).
#[derive(Serialize)]
pub struct Report {
    /// The game's registry name.
    pub game: String,
    /// Seats per table.
    pub players: usize,
    /// The tournament seed.
    pub seed: u64,
    /// Games per table.
    pub games_per_pairing: usize,
    /// The bots, as written.
    pub bots: Vec<String>,
    /// `elo` or `weng-lin`.
    pub rating_system: &'static str,
    /// Each table's figures.
    pub pairings: Vec<PairingReport>,
    /// Every bot's figures over all games.
    pub overall: Vec<Tally>,
    /// Final ratings.
    pub ratings: Vec<Rating>,
    /// Every game.
    pub games: Vec<GameResult>,
}

/// One table's figures.
#[derive(Serialize)]
pub struct PairingReport {
    /// Bot of each seat in the first game (later games rotate).
    pub table: Vec<String>,
    /// Each bot at the table.
    pub tallies: Vec<Tally>,
}

/// The tables for people.
pub fn render(report: &Report) -> String {
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

/// Rating against search budget per move (log scale): milliseconds in one colour, iterations in
/// another; bots without a budget (random, greedy) are dashed reference lines.
pub fn plot(report: &Report) -> String {
    let mut millis = Series {
        colour: "#06c",
        points: Vec::new(),
    };
    let mut iterations = Series {
        colour: "#c60",
        points: Vec::new(),
    };
    let mut references = Vec::new();
    for r in &report.ratings {
        let Some(text) = r.budget.as_deref() else {
            references.push(Reference {
                y: r.rating,
                label: r.bot.clone(),
            });
            continue;
        };
        let (series, number) = match text.strip_prefix('i') {
            Some(n) => (&mut iterations, n),
            None => (&mut millis, text),
        };
        if let Ok(x) = number.parse::<f64>() {
            series.points.push(Point {
                x,
                y: r.rating,
                label: r.bot.clone(),
            });
        }
    }
    LineChart {
        title: format!(
            "{} ({} seats): {} rating against search budget",
            report.game, report.players, report.rating_system
        ),
        x_label: "budget per move (ms; iterations for i-budgets), log scale".into(),
        log_x: true,
        series: vec![millis, iterations],
        references,
    }
    .to_svg()
}
