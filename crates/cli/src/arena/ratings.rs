//! Ratings from a tournament's games in order (docs/rulings.md, "Bots and arena" 3): Elo
//! (K = 32, start 1000) for two seats, Weng-Lin (mu, sigma; start 25, 25/3) for more.

use std::collections::BTreeMap;

use plateau_bots::BotSpec;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::elo::{EloConfig, EloRating, elo};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::stats::GameResult;

/// A bot's rating at the end.
#[derive(Clone, Serialize)]
pub struct Rating {
    /// The bot's name.
    pub bot: String,
    /// Elo, or Weng-Lin mu.
    pub rating: f64,
    /// Weng-Lin sigma (none for Elo).
    pub uncertainty: Option<f64>,
    /// Search budget, when the bot searches: milliseconds or iterations per move.
    pub budget: Option<String>,
}

/// Ratings from all games in order: Elo for two seats, Weng-Lin for more (copies of one bot at a
/// table are rated as separate seats, then averaged).
pub fn rate(
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
