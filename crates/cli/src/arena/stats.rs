//! A bot's figures over a set of games: win share with Wilson's 95% interval, mean utility
//! (docs/rulings.md, "Bots and arena" 1).

use serde::Serialize;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// One game's result.
#[derive(Clone, Serialize)]
pub struct GameResult {
    /// Index of the table in `pairings`.
    pub pairing: usize,
    /// Index of the game within its table.
    pub index: usize,
    /// The game's seed (chance and every seat's bot follow from it).
    pub seed: u64,
    /// Bot index of each seat.
    pub seats: Vec<usize>,
    /// Each seat's rank (1 is best).
    pub ranks: Vec<u8>,
    /// `Outcome::kind`, or `unfinished`.
    pub kind: String,
    /// Actions played, chance included.
    pub actions: usize,
}

/// A bot's figures over some set of games.
#[derive(Clone, Default, Serialize)]
pub struct Tally {
    /// The bot's name.
    pub bot: String,
    /// Seats held (games times seats per game).
    pub seats: usize,
    /// Wins, a shared first place counting as a fraction.
    pub wins: f64,
    /// Wins per seat held.
    pub win_share: f64,
    /// Wilson's 95% interval of `win_share`.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
    /// Mean `Outcome::utility`.
    pub utility: f64,
}

/// Bot `bot`'s figures over `games`.
pub fn tally(name: &str, bot: usize, games: &[&GameResult]) -> Tally {
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
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

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
