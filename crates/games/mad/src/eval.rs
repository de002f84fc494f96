//! A heuristic value of a running game, for bots: how likely each side is to win, read off the
//! board without search. The game crate offers it as a plain method (it does not know about bots);
//! the registry wraps it into the bots' evaluator (greedy look-ahead, MCTS playout cut-off).
//!
//! The value is a logistic function of a score in "ships", seen from Red, made of four terms
//! (rules/mad.md sections 2, 5.1 and 8):
//! - **Corvette**: a side to move that can expel the enemy corvette wins on this move (8.1). A side
//!   whose corvette is attacked must spend its move defending it.
//! - **Material**: ships on the board other than the corvette, each worth 1 plus a bonus for its
//!   second cannon (it may expel any ship), second shield (only 2-cannon ships may expel it) and
//!   second sail. Exiled ships come back only by exiling a partner, so the count of ships on the
//!   board matters more than which ones.
//! - **Threats**: the side to move may expel an enemy ship now; half the best victim's worth (the
//!   expeller may be expelled in turn).
//! - **Tie-break**: the side that would win the tie-break now (the last expeller, else Blue, 8.2),
//!   weighted by how near the counter is to its limit.

use crate::action::{CORVETTE, Kind, cannons, sails, shields};
use crate::state::{EXILE, Mad};

/// Logistic slope: a score of one ship is worth about 70% against 30%.
const SLOPE: f64 = 0.85;
/// Score of a side whose corvette is attacked when it is to move.
const CORVETTE_ATTACKED: f64 = 0.8;
/// Score of the tie-break holder when the counter starts and when it reaches its limit.
const TIEBREAK_START: f64 = 0.3;
const TIEBREAK_END: f64 = 3.0;
/// Share of the best capturable enemy's worth credited to the side to move.
const THREAT_SHARE: f64 = 0.5;
/// Value for the side to move when it can expel the enemy corvette now (a certain win; kept just
/// below 1 so the search still prefers the finished win).
const CORVETTE_IN_REACH: f64 = 0.98;

/// The worth of a ship on the board other than the corvette, in "ships".
fn worth(kind: Kind) -> f64 {
    1.0 + 0.3 * f64::from(cannons(kind) - 1)
        + 0.25 * f64::from(shields(kind) - 1)
        + 0.15 * f64::from(sails(kind) - 1)
}

impl Mad {
    /// The expected `Outcome::utility` of Red (index 0) and Blue (index 1), each in [0, 1] and
    /// summing to 1: the exact result once the game is over, otherwise the heuristic of this
    /// module's documentation. Cheap: one pass over the 16 ships, no move list.
    #[must_use]
    pub fn evaluation(&self) -> [f64; 2] {
        if let Some((winner, _)) = self.result {
            let mut value = [0.0; 2];
            value[winner as usize] = 1.0;
            return value;
        }
        let me = self.side as usize;
        let them = 1 - me;
        let hits = [self.hits(0), self.hits(1)];
        let corvette = |side: usize| 1u32 << self.pos[side][CORVETTE as usize];
        // The side to move expels the enemy corvette now (8.1).
        if hits[me] & corvette(them) != 0 {
            let mut value = [1.0 - CORVETTE_IN_REACH; 2];
            value[me] = CORVETTE_IN_REACH;
            return value;
        }
        // Scores from the side to move's point of view.
        let material = self.material(me) - self.material(them);
        let danger = if hits[them] & corvette(me) != 0 {
            -CORVETTE_ATTACKED
        } else {
            0.0
        };
        let mut best_victim = 0.0f64;
        let mut victims = hits[me];
        while victims != 0 {
            let cell = victims.trailing_zeros() as usize;
            victims &= victims - 1;
            let kind = (self.cells[cell] - 1) & 7;
            best_victim = best_victim.max(worth(kind));
        }
        let holder = self.tiebreak_winner() as usize;
        let pressure = f64::from(self.since) / f64::from(self.config.tiebreak_limit.max(1));
        let tiebreak = TIEBREAK_START + (TIEBREAK_END - TIEBREAK_START) * pressure * pressure;
        // A side to move that can expel becomes the tie-break holder by doing so.
        let tiebreak = if holder == me || hits[me] != 0 {
            tiebreak
        } else {
            -tiebreak
        };
        let score = material + danger + THREAT_SHARE * best_victim + tiebreak;
        let mine = 1.0 / (1.0 + (-SLOPE * score).exp());
        let mut value = [0.0; 2];
        value[me] = mine;
        value[them] = 1.0 - mine;
        value
    }

    /// The worth of `side`'s ships on the board, the corvette aside.
    fn material(&self, side: usize) -> f64 {
        (1..8u8)
            .filter(|&kind| self.pos[side][kind as usize] != EXILE)
            .map(worth)
            .sum()
    }

    /// The cells of enemy ships that side index `side` could expel with one movement if it were
    /// to move, as a bit set over cells.
    fn hits(&self, side: usize) -> u32 {
        let mut reach = 0;
        for kind in 0..8u8 {
            let from = self.pos[side][kind as usize];
            if from != EXILE {
                reach |= self.reach(side, kind, from);
            }
        }
        reach & self.occupied[1 - side]
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::Game;

    use crate::{Mad, MadConfig, Side};

    fn position(text: &str) -> Mad {
        Mad::parse_position(&MadConfig::default(), text).expect("valid position")
    }

    fn red(state: &Mad) -> f64 {
        let [r, b] = state.evaluation();
        assert!((r + b - 1.0).abs() < 1e-12 && (0.0..=1.0).contains(&r));
        r
    }

    #[test]
    fn the_start_is_even_but_for_blues_tiebreak_edge() {
        let start = Mad::new(&MadConfig::default(), 2).unwrap();
        let r = red(&start);
        // Blue holds the tie-break when nobody has expelled (8.2): a small edge, no more.
        assert!(r < 0.5 && r > 0.35, "{r}");
    }

    #[test]
    fn a_corvette_in_reach_of_the_side_to_move_is_a_win() {
        // Red R121 on b4 next to B111 on b5, Red to move: b4xb5 wins (8.1).
        let state = position("4/1B1112/1R1212/4/4/R1113 r 10 3 r");
        assert!(red(&state) > 0.95);
        // The same board with Blue to move: Blue's corvette is attacked, Red's is not.
        let blue_to_move = position("4/1B1112/1R1212/4/4/R1113 b 11 3 r");
        assert!(red(&blue_to_move) < 0.95);
    }

    #[test]
    fn more_ships_is_better_and_the_counter_favours_the_last_expeller() {
        // Red has an extra 222 far from everything; no threats either way.
        let ahead = position("B1113/4/4/4/4/R111R2222 r 10 5 b");
        let even = position("B1113/4/4/4/4/R1113 r 10 5 b");
        assert!(red(&ahead) > red(&even));
        // Nearer the tie-break limit, Blue (the last expeller) is more sure to win.
        let late = position("B1113/4/4/4/4/R1113 r 40 38 b");
        assert!(red(&late) < red(&even));
        assert!(red(&late) < 0.1);
    }

    #[test]
    fn a_finished_game_is_worth_its_result() {
        let mut state = position("4/1B1112/1R1212/4/4/R1113 r 10 3 r");
        let step = state.parse_action("b4xb5").unwrap();
        state
            .apply(plateau_engine::Actor::Seat(Side::Red.seat()), &step)
            .unwrap();
        assert_eq!(state.evaluation(), [1.0, 0.0]);
    }
}
