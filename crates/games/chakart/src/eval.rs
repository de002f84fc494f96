//! A heuristic value of a running game, for bots: material on the board. The game crate offers it
//! as a plain method (it knows nothing of bots); the registry wraps it into the bots' evaluator
//! (greedy look-ahead, MCTS playout cut-off).
//!
//! The game is won by taking every enemy king (rules/chakart.md section 0, ruling 8), so kings
//! weigh most; the other pieces count with the usual chess values. A piece in its owner's pool
//! (section 2) may come back by a Toadette drop (section 7), so it keeps a small part of its worth.
//! Items on the board and unused powers are left out. In a state with a hidden queen the value is
//! that of the state given: bots call it on their own determinizations, never on the true state.

use plateau_engine::{Game, Seat};

use crate::Chakart;
use crate::board::{self, Side};

/// Worth of a piece on the board by kind index (pawn, rook, knight, bishop, queen, king).
const WORTH: [f64; 6] = [1.0, 5.0, 3.0, 3.0, 9.0, 12.0];
/// Share of a piece's worth kept while it waits in its owner's pool.
const POOL_SHARE: f64 = 0.2;
/// Logistic slope per pawn of material: a knight ahead is worth about 71% against 29%.
const SLOPE: f64 = 0.3;

impl Chakart {
    /// The expected `Outcome::utility` of White (index 0) and Black (index 1), each in [0, 1]
    /// and summing to 1: the result once the game is over, otherwise a logistic function of the
    /// material difference described in this module's documentation. One pass over the 64 cells.
    #[must_use]
    pub fn evaluation(&self) -> [f64; 2] {
        if let Some(outcome) = self.outcome() {
            return [outcome.utility(Seat(0)), outcome.utility(Seat(1))];
        }
        let pos = self.pos();
        let mut material = [0.0; 2];
        for &cell in &pos.board {
            if board::is_piece(cell) {
                material[board::side_of(cell).index()] += WORTH[usize::from(board::kind_of(cell))];
            }
        }
        for side in Side::ALL {
            let pool = &pos.pools[side.index()];
            let waiting: f64 = pool
                .iter()
                .zip(WORTH)
                .map(|(&count, worth)| f64::from(count) * worth)
                .sum();
            material[side.index()] += POOL_SHARE * waiting;
        }
        let white = 1.0 / (1.0 + (-SLOPE * (material[0] - material[1])).exp());
        [white, 1.0 - white]
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::Game;

    use crate::{Chakart, Config};

    fn position(fen: &str) -> Chakart {
        Chakart::parse_position(&Config::default(), fen).expect("valid FEN")
    }

    fn white(state: &Chakart) -> f64 {
        let [w, b] = state.evaluation();
        assert!((w + b - 1.0).abs() < 1e-12 && (0.0..=1.0).contains(&w));
        w
    }

    #[test]
    fn the_start_is_even() {
        let start = Chakart::new(&Config::default(), 2).unwrap();
        assert!((white(&start) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn material_counts_and_a_captured_piece_keeps_a_little() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 1111 000000000000";
        assert_eq!(white(&position(start)), 0.5);
        // Black's queen is gone from d8, as if dropped off the board, and not in any pool.
        let gone = white(&position(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 1111 000000000000",
        ));
        // The same with the queen in Black's pool (digit 11 = 7th + 4: black q), as after a capture.
        let pooled = white(&position(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 1111 000000000010",
        ));
        // sigmoid(0.3 * 9) and sigmoid(0.3 * 9 * 0.8).
        assert!((gone - 0.937).abs() < 1e-3, "{gone}");
        assert!((pooled - 0.8966).abs() < 1e-3, "{pooled}");
        // A pawn less for White.
        let pawn = white(&position(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w 0 1111 000000000000",
        ));
        assert!(pawn < 0.5 && pawn > 0.4, "{pawn}");
    }
}
