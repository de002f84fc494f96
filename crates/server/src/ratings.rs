//! Ratings per (player, game) with the Weng-Lin Bayesian system (the `skillratings` crate's
//! `weng_lin_multi_team`, one player per team), which rates tables of 2 to 4 seats from their
//! ranks, ties shared. docs/protocol.md section 7.3 gives the shown numbers.
//!
//! A rating is a mean `mu` and an uncertainty `sigma` (25 and 25/3 for a newcomer). People read
//! them scaled by 60 (1500 and 500), like the chess ratings they know. Bots are rated players too,
//! but their ratings are anchors: fixed, so a newcomer is measured against something that does
//! not drift.
//!
//! What the system keeps, and the tests check: in a game's update the precision-weighted changes
//! sum to zero (`sum(delta_mu / sigma^2) = 0`), a better rank never gains less than a worse one
//! between players of equal ratings, the sole winner gains, the sole last loses, and no sigma
//! grows.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Rated games in a game below which a rating is shown as provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

/// The factor from `mu`/`sigma` to the numbers people read.
pub const SCALE: f64 = 60.0;

/// One player's rating in one game.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    /// The mean skill, 25 for a newcomer.
    pub mu: f64,
    /// The uncertainty, 25/3 for a newcomer; never grows.
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = WengLinRating::new();
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

impl Rating {
    /// The rating people read: `mu` x 60, rounded (1500 for a newcomer).
    #[must_use]
    pub fn shown(self) -> i64 {
        (self.mu * SCALE).round() as i64
    }

    /// The deviation people read: `sigma` x 60, rounded (500 for a newcomer).
    #[must_use]
    pub fn shown_deviation(self) -> i64 {
        (self.sigma * SCALE).round() as i64
    }

    /// A rating from the shown number, with `sigma` fixed (for the bots' anchors).
    #[must_use]
    pub fn anchored(shown: f64, sigma: f64) -> Rating {
        Rating {
            mu: shown / SCALE,
            sigma,
        }
    }
}

/// Whether a player's rating moves with its games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A person: the rating follows its results.
    Person,
    /// A bot: an anchor, never changed by a game.
    Anchor,
}

/// The new ratings of one finished table.
///
/// `table[i]` is seat `i`'s rating and kind, `ranks[i]` its rank (1 the best, ties shared, as
/// `plateau_engine::Outcome::ranks`). Returns, per seat, the rating after the game: a person's
/// from Weng-Lin, an anchor's unchanged. Everyone's update is computed from the ratings before
/// the game, so the order of the seats does not matter.
///
/// # Panics
/// If `table` and `ranks` differ in length.
#[must_use]
pub fn rate(table: &[(Rating, Kind)], ranks: &[u8]) -> Vec<Rating> {
    assert_eq!(table.len(), ranks.len(), "one rank per seat");
    let teams: Vec<[WengLinRating; 1]> = table
        .iter()
        .map(|(r, _)| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(ranks)
        .map(|(t, r)| (&t[..], MultiTeamOutcome::new(usize::from(*r))))
        .collect();
    let updated = weng_lin_multi_team(&input, &WengLinConfig::new());
    table
        .iter()
        .zip(updated)
        .map(|((before, kind), after)| match kind {
            Kind::Anchor => *before,
            Kind::Person => Rating {
                mu: after[0].rating,
                sigma: after[0].uncertainty,
            },
        })
        .collect()
}

/// A seat's result as people say it: `"win"` (first alone), `"draw"` (first, shared) or `"loss"`.
#[must_use]
pub fn result_word(ranks: &[u8], seat: usize) -> &'static str {
    let first = ranks.iter().filter(|r| **r == 1).count();
    match ranks.get(seat) {
        Some(1) if first == 1 => "win",
        Some(1) => "draw",
        _ => "loss",
    }
}

/// The fixed rating a bot seat plays at in `game` (shown points, deviation 1): the level's rating
/// on the game's measured ladder (docs/bots.md) when it has one, else a starting point by name
/// (`random` 900, `greedy` 1200); an unknown bot sits at the newcomer's 1500.
#[must_use]
pub fn bot_anchor(game: &str, bot: &str) -> Rating {
    let shown = plateau_registry::bot_rating(game, bot).unwrap_or(match bot {
        "random" => 900.0,
        "greedy" => 1200.0,
        _ => 1500.0,
    });
    Rating::anchored(shown, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(mu: f64, sigma: f64) -> (Rating, Kind) {
        (Rating { mu, sigma }, Kind::Person)
    }

    #[test]
    fn a_newcomer_is_1500_with_500_deviation() {
        let r = Rating::default();
        assert_eq!((r.shown(), r.shown_deviation()), (1500, 500));
    }

    #[test]
    fn two_newcomers_move_by_equal_and_opposite_amounts() {
        let new = Rating::default();
        let after = rate(
            &[person(new.mu, new.sigma), person(new.mu, new.sigma)],
            &[1, 2],
        );
        let gain = after[0].mu - new.mu;
        assert!(gain > 0.0);
        assert!((after[1].mu - new.mu + gain).abs() < 1e-9);
        // The Weng-Lin amounts by hand: c^2 = 2 beta^2 + 2 sigma^2, p = 1/2,
        // delta mu = sigma^2 / c * (1 - 1/2).
        let beta = 25.0 / 6.0;
        let c = (2.0 * beta * beta + 2.0 * new.sigma * new.sigma).sqrt();
        assert!((gain - new.sigma * new.sigma / c * 0.5).abs() < 1e-9);
        assert!(after[0].sigma < new.sigma && after[1].sigma < new.sigma);
    }

    #[test]
    fn anchors_never_move_and_shared_first_places_are_draws() {
        let bot = bot_anchor("mad", "club");
        let after = rate(&[(bot, Kind::Anchor), person(25.0, 8.0)], &[2, 1]);
        assert_eq!(after[0], bot);
        assert!(after[1].mu > 25.0);
        assert_eq!(result_word(&[1, 1, 3], 1), "draw");
        assert_eq!(result_word(&[1, 2, 3], 0), "win");
        assert_eq!(result_word(&[1, 2, 3], 2), "loss");
    }
}
