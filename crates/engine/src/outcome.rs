//! The result of a finished game for any number of seats.

use serde::{Deserialize, Serialize};

use crate::seat::{Seat, SeatSet};

/// How a game ended, for every seat.
///
/// Ranks say who beat whom (1 is best; tied seats share a rank, and the next rank is skipped as in
/// sports tables: 1, 1, 3). Scores are the game's own points (Moon Leap's points, or 1 and 0 where
/// the game has none). `kind` is a stable game-defined identifier of how it ended, such as MAD's
/// `"corvette"` (full victory) or `"tiebreak"` (semi-victory); the game's rules file lists them.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// Per seat, indexed by seat: 1 for the best.
    pub ranks: Vec<u8>,
    /// Per seat, indexed by seat: the game's score.
    pub scores: Vec<f64>,
    /// How the game ended (game-defined, e.g. `"corvette"`, `"tiebreak"`, `"timeout"`).
    pub kind: String,
}

impl Outcome {
    /// One winner, everyone else shares second place; scores 1 for the winner and 0 for the others.
    ///
    /// # Panics
    /// If `winner` is not one of the `seats` seats.
    #[must_use]
    pub fn single_winner(seats: usize, winner: Seat, kind: &str) -> Outcome {
        assert!(
            winner.index() < seats,
            "winner {winner} is not at a table of {seats}"
        );
        let ranks = (0..seats)
            .map(|i| if i == winner.index() { 1 } else { 2 })
            .collect();
        let scores = (0..seats)
            .map(|i| if i == winner.index() { 1.0 } else { 0.0 })
            .collect();
        Outcome {
            ranks,
            scores,
            kind: kind.to_owned(),
        }
    }

    /// Ranks from scores, higher is better; equal scores share a rank.
    #[must_use]
    pub fn ranked_by_score(scores: Vec<f64>, kind: &str) -> Outcome {
        let ranks = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u8)
            .collect();
        Outcome {
            ranks,
            scores,
            kind: kind.to_owned(),
        }
    }

    /// Number of seats.
    #[must_use]
    pub fn seats(&self) -> usize {
        self.ranks.len()
    }

    /// The seats ranked first (several on a shared win).
    #[must_use]
    pub fn winners(&self) -> SeatSet {
        Seat::all(self.seats())
            .filter(|s| self.ranks[s.index()] == 1)
            .collect()
    }

    /// The result of `seat` as a number in [0, 1] for search and ratings: the share of the other
    /// seats it beat, counting a tie as half. A lone winner gets 1, a lone loser 0.
    ///
    /// # Panics
    /// If `seat` is not at the table.
    #[must_use]
    pub fn utility(&self, seat: Seat) -> f64 {
        let n = self.seats();
        if n < 2 {
            return 1.0;
        }
        let mine = self.ranks[seat.index()];
        let beaten = self.ranks.iter().filter(|r| **r > mine).count() as f64;
        let tied = self.ranks.iter().filter(|r| **r == mine).count() as f64 - 1.0;
        (beaten + 0.5 * tied) / (n as f64 - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_ranks_follow_scores() {
        let o = Outcome::ranked_by_score(vec![10.0, 25.0, 10.0, -5.0], "score");
        assert_eq!(o.ranks, vec![2, 1, 2, 4]);
        assert_eq!(o.winners().iter().collect::<Vec<_>>(), vec![Seat(1)]);
        assert_eq!(o.utility(Seat(1)), 1.0);
        assert_eq!(o.utility(Seat(3)), 0.0);
        assert!((o.utility(Seat(0)) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn single_winner_of_two() {
        let o = Outcome::single_winner(2, Seat(1), "corvette");
        assert_eq!(o.ranks, vec![2, 1]);
        assert_eq!(o.utility(Seat(0)), 0.0);
        assert_eq!(o.utility(Seat(1)), 1.0);
    }
}
