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
//! grows. Beside it, what keeps ratings from being farmed or sunk: no rating below `FLOOR`, and a
//! rated game counts only if each seat played (`MIN_ACTIONS`), its players came from different
//! addresses, and the same two players have not had `SAME_OPPONENT_PER_DAY` counted games that
//! day (`Unrated`).

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Rated games in a game below which a rating is shown as provisional (and left off the
/// leaderboard).
pub const PROVISIONAL_GAMES: u32 = 10;

/// The lowest rating a person can have, in shown points (lichess's Glicko floor): losing on
/// purpose cannot sink a rating without end.
pub const FLOOR: f64 = 100.0;

/// Actions each seat must have made for a rated game to count: one that ends before (a
/// resignation at the first move, a seat that never came) is an abort and changes no rating.
pub const MIN_ACTIONS: usize = 2;

/// Rated games of one game between the same two players (a bot is a player) that count in 24
/// hours; the next ones change no rating.
pub const SAME_OPPONENT_PER_DAY: usize = 5;

/// The window of `SAME_OPPONENT_PER_DAY`, in ms.
pub const CAP_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// The pairs `(person, other)` of `ids` whose counted games together the daily cap looks at: a
/// person (`persons[i]`) with each other player, each pair of persons once. A person's rating
/// events are the ones counted, so a bot (no person) is looked at from its opponent's side.
#[must_use]
pub fn capped_pairs(ids: &[i64], persons: &[bool]) -> Vec<(i64, i64)> {
    let mut pairs = Vec::new();
    for (i, &a) in ids.iter().enumerate() {
        for (j, &b) in ids.iter().enumerate() {
            if i != j && persons[i] && !(persons[j] && j < i) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// Why a rated match changed no rating (docs/protocol.md section 7.3); shown as `unrated`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unrated {
    /// A seat made fewer than `MIN_ACTIONS` actions.
    Abort,
    /// Two of its players came from one address (their sessions or their connections) within
    /// the last day.
    SameAddress,
    /// Two of its players already had `SAME_OPPONENT_PER_DAY` counted games together that day.
    DailyCap,
    /// A moderator closed it (docs/protocol.md section 7.11).
    Closed,
}

impl Unrated {
    /// The stored and shown word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Unrated::Abort => "abort",
            Unrated::SameAddress => "same_address",
            Unrated::DailyCap => "daily_cap",
            Unrated::Closed => "closed",
        }
    }
}

/// Whether a game in which seat `i` made `actions[i]` actions is an abort (`MIN_ACTIONS`).
#[must_use]
pub fn aborted(actions: &[usize]) -> bool {
    actions.iter().any(|n| *n < MIN_ACTIONS)
}

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
                mu: after[0].rating.max(FLOOR / SCALE),
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
    fn the_daily_cap_looks_at_each_pair_once_from_a_persons_side() {
        // Two persons and a bot: the persons once, each person with the bot.
        assert_eq!(
            capped_pairs(&[1, 2, 3], &[true, true, false]),
            [(1, 2), (1, 3), (2, 3)]
        );
        // A bot first: looked at from the person's side only.
        assert_eq!(capped_pairs(&[7, 4], &[false, true]), [(4, 7)]);
        assert!(capped_pairs(&[7, 8], &[false, false]).is_empty());
    }

    #[test]
    fn no_rating_falls_below_the_floor_and_early_ends_are_aborts() {
        let low = Rating::anchored(101.0, 2.0);
        let after = rate(&[person(low.mu, low.sigma), person(25.0, 8.0)], &[2, 1]);
        assert_eq!(after[0].shown(), 100);
        assert!(after[1].mu > 25.0);
        assert!(aborted(&[5, 1]));
        assert!(aborted(&[0, 0, 3, 3]));
        assert!(!aborted(&[2, 2]));
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

/// A player's standing in one game.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Standing {
    /// The rating.
    pub rating: Rating,
    /// Rated games played, won (first alone), lost and drawn (first, shared).
    pub games: u32,
    /// Rated games won.
    pub wins: u32,
    /// Rated games lost.
    pub losses: u32,
    /// Rated games drawn.
    pub draws: u32,
}

/// One change of a rating: after a rated match.
#[derive(Clone, PartialEq, Debug)]
pub struct RatingEvent {
    /// The game.
    pub game: String,
    /// The match that changed it.
    pub match_id: String,
    /// Unix ms.
    pub at: i64,
    /// Before the match.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}
