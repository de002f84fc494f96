//! What an analysis is made of, as written (docs/bots.md, "Analysis"): its options and marks,
//! the analysis of a game with its plies, judgements and biggest losses, and its errors.

use plateau_engine::ReplayError;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::spec::Budget;

/// The format name written in every analysis (`Analysis::format`).
pub const FORMAT: &str = "plateau-analysis/1";

/// How to analyse.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisOptions {
    /// The search budget per judged decision (iterations make the analysis reproducible).
    pub judge: Budget,
    /// Seed of every search (each decision's search is seeded from it and its index).
    pub seed: u64,
    /// How many of the marked decisions to list among the biggest losses.
    pub biggest: usize,
    /// The least losses marked `?!`, `?` and `??` (the registry's are per game, above the
    /// judge's measured noise).
    pub marks: Marks,
}

impl Default for AnalysisOptions {
    /// 2000 iterations per decision, seed 0, the 5 biggest marked losses, `Marks::default`.
    fn default() -> Self {
        AnalysisOptions {
            judge: Budget::Iterations(2000),
            seed: 0,
            biggest: 5,
            marks: Marks::default(),
        }
    }
}

/// The least loss, in utility (0.05: five points of chance), of each mark. A loss below
/// `dubious` is not marked: the judge cannot tell it from its own noise.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Marks {
    /// `?!`, a dubious decision.
    pub dubious: f64,
    /// `?`, a mistake.
    pub mistake: f64,
    /// `??`, a blunder.
    pub blunder: f64,
}

impl Default for Marks {
    /// 10, 20 and 30 points.
    fn default() -> Self {
        Marks {
            dubious: 0.10,
            mistake: 0.20,
            blunder: 0.30,
        }
    }
}

impl Marks {
    /// The mark a decision that lost `loss` earns, if any.
    #[must_use]
    pub fn of(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.dubious {
            Some(Mark::Dubious)
        } else {
            None
        }
    }
}

/// How bad a marked decision was, written as chess annotators do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum Mark {
    /// A loss of at least `Marks::dubious`.
    #[serde(rename = "?!")]
    Dubious,
    /// At least `Marks::mistake`.
    #[serde(rename = "?")]
    Mistake,
    /// At least `Marks::blunder`.
    #[serde(rename = "??")]
    Blunder,
}

impl Default for Mark {
    /// `Mark::Blunder`: what a listed loss meant before marks had levels.
    fn default() -> Self {
        Mark::Blunder
    }
}

impl Mark {
    /// `?!`, `?` or `??`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The analysis of one recorded game. Serialized as the documented JSON shape
/// (docs/bots.md, "Analysis"), stable within its `format`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Analysis {
    /// `"plateau-analysis/1"`.
    pub format: String,
    /// Registry name of the game.
    pub game: String,
    /// Number of seats.
    pub seats: usize,
    /// The judge's budget, as written after `mcts:` (`i2000`, or `500` for milliseconds).
    pub judge: String,
    /// Every seat's value before the first action.
    pub start: Vec<f64>,
    /// One entry per recorded action, in order.
    pub plies: Vec<Ply>,
    /// The biggest marked losses, largest first, at most `AnalysisOptions::biggest`.
    pub biggest_losses: Vec<Loss>,
}

/// One recorded action and the values after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Ply {
    /// 1-based index in the record's `actions`.
    pub index: usize,
    /// The seat that acted (0-based), `None` for a chance outcome.
    pub seat: Option<u8>,
    /// The action as recorded (canonical text).
    pub action: String,
    /// Every seat's value after the action, by seat index, each in [0, 1].
    pub values: Vec<f64>,
    /// A seat's decision: how it was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<Judgement>,
}

/// How the judge saw one decision.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Judgement {
    /// The acting seat's value of the position before the action: its best action's value
    /// (the judge's choice, or the action played where that searched higher; after a second
    /// opinion, the action played's plus the lower bound of its judges' mean gain).
    pub before: f64,
    /// The value of the action played (its own search).
    pub played: f64,
    /// `before - played`, at least 0.
    pub loss: f64,
    /// The judge's choice, in canonical text.
    pub best: String,
    /// The judge's choice in parts (`Game::action_info` in the position judged: the parts the
    /// seat's legal list gave it then, docs/protocol.md section 4.1), so a page puts it in words
    /// without reading its text. Absent from analyses stored before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_info: Option<serde_json::Value>,
    /// `?!`, `?` or `??` when the loss reaches the analysis's `Marks`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
}

/// One of the biggest losses.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Loss {
    /// 1-based index of the action in the record.
    pub index: usize,
    /// The seat that lost it.
    pub seat: u8,
    /// How much it lost.
    pub loss: f64,
    /// Its mark (`??` in analyses stored before marks had levels, which listed blunders only).
    #[serde(default)]
    pub mark: Mark,
}

/// Why a record could not be analysed. Nothing is analysed then.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// The record is of another game than the analyser's.
    #[error("the record is a game of {record}, not of {analyser}")]
    WrongGame {
        /// The record's game.
        record: String,
        /// The analyser's.
        analyser: &'static str,
    },
    /// The record does not replay (`Record::replay`): its setup, an action or an ending.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}
