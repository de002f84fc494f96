//! Bot names as written on the command line and offered in the lobby: `random`, `greedy`,
//! `greedy:30` (the greedy move at 30% of decisions, a random one otherwise), `blunder:30` (the
//! worst move at 30% of decisions, a random one otherwise), `setup:90` (the game's strongest
//! policy at 90% of the decisions that set the game up, the greedy bot otherwise; `setup` at all
//! of them), `mcts:100` (100 ms per move),
//! `mcts:i5000` (5000 iterations per move), and the named levels `beginner`, `casual`, `club`,
//! `strong`, `expert` (the lobby's levels 1 to 5). The suffix `:plain` (`mcts:100:plain`) asks for
//! a search that ignores the game's evaluation and plays every playout to the end, for comparisons;
//! the suffix `:cut<actions>` (`mcts:i1000:cut40`) for the search with its playouts scored after
//! that many actions in place of the game's own cut-off, for measuring how far it should look.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// How much search one move may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// Wall-clock milliseconds per move (the number of iterations then varies with the machine).
    Millis(u64),
    /// A fixed number of search iterations per move: reproducible on every machine.
    Iterations(u64),
}

impl Budget {
    /// The time limit, if this is a time budget.
    #[must_use]
    pub fn time(self) -> Option<Duration> {
        match self {
            Budget::Millis(ms) => Some(Duration::from_millis(ms)),
            Budget::Iterations(_) => None,
        }
    }
}

impl fmt::Display for Budget {
    /// `100` for 100 ms, `i5000` for 5000 iterations (the text after `mcts:`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Millis(ms) => write!(f, "{ms}"),
            Budget::Iterations(n) => write!(f, "i{n}"),
        }
    }
}

/// The five named strengths the lobby offers, weakest first; the lobby's level 1 to 5. Each game
/// maps them to bot specs of its own (the registry's level tables, measured on ladders in
/// docs/bots.md); `Level::default_spec` is the mapping for a game without a table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Level {
    /// Level 1: makes visible mistakes, for learning the game.
    Beginner,
    /// Level 2.
    Casual,
    /// Level 3.
    Club,
    /// Level 4.
    Strong,
    /// Level 5: the strongest level, also the analysis's judge.
    Expert,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Club,
        Level::Strong,
        Level::Expert,
    ];

    /// The level of the lobby's number 1 (beginner) to 5 (expert), or `None` outside 1 to 5.
    #[must_use]
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The lobby's number, 1 (beginner) to 5 (expert).
    #[must_use]
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The level named `name` (`"club"`, lowercase as `name` gives it), or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The lowercase name (`"club"`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Strong => "strong",
            Level::Expert => "expert",
        }
    }

    /// The bot of this level in a game without a level table of its own: random, greedy, then
    /// MCTS with 100, 1000 and 10,000 iterations per decision.
    #[must_use]
    pub fn default_spec(self) -> BotSpec {
        match self {
            Level::Beginner => BotSpec::Random,
            Level::Casual => BotSpec::Greedy,
            Level::Club => BotSpec::Mcts(Budget::Iterations(100)),
            Level::Strong => BotSpec::Mcts(Budget::Iterations(1000)),
            Level::Expert => BotSpec::Mcts(Budget::Iterations(10_000)),
        }
    }
}

/// One level of one game: the bot that plays it, measured on the game's ladder (docs/bots.md).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct LevelEntry {
    /// The level.
    pub level: Level,
    /// The bot that plays it.
    pub spec: BotSpec,
    /// Mean wall-clock milliseconds per decision on the 2-core test machine under load
    /// (docs/bots.md), a guide for clocks: a match runner still caps each decision
    /// (`DynBot::act_within`).
    pub think_ms: f64,
    /// The level's rating on its game's ladder, in shown points of the service's Weng-Lin ratings
    /// (60 points per unit of mu, so a newcomer's 25 is 1500), with `club` at 1500: the bot's
    /// starting rating.
    pub rating: f64,
}

/// A game's five levels, weakest first (`Level::ALL`'s order); a game registers its table once,
/// with its bots (`BotFactory::with_levels`).
pub type Levels = [LevelEntry; 5];

/// Which bot plays a seat. Written and read as text (`random`, `greedy`, `mcts:100`, `mcts:i5000`,
/// `beginner` .. `expert`), also in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BotSpec {
    /// Uniformly random among the legal actions.
    Random,
    /// One move of look-ahead with the game's evaluation (see `Evaluator`); without one it takes an
    /// immediate win when there is one and plays randomly otherwise.
    Greedy,
    /// ε-greedy: at each decision the greedy bot's action with probability `greedy_percent` / 100
    /// (1 to 99), otherwise a uniformly random legal action, so ε = 1 - `greedy_percent` / 100.
    /// A strength between `random` and `greedy` for the lower levels. Written `greedy:<percent>`.
    EpsilonGreedy {
        /// The share of decisions played greedily, in percent, 1 to 99.
        greedy_percent: u8,
    },
    /// At each decision, with probability `blunder_percent` / 100 (1 to 99), the action the greedy
    /// look-ahead values *least* (`worst_action`), otherwise a uniformly random legal action: a
    /// bot weaker than `random`, for a beginner level where random play is already hard to beat.
    /// Written `blunder:<percent>`.
    Blunder {
        /// The share of decisions given to the worst action, in percent, 1 to 99.
        blunder_percent: u8,
    },
    /// While the game is set up, the game's strongest policy (`Evaluator::setup_action`: Bataille
    /// Navale's placement, the thorough layout) at `setup_percent` of decisions (1 to 100) and
    /// the greedy bot's choice at the others (in Bataille Navale `ready`, which ends the setup
    /// part way); then the greedy bot. In a game without a setup, the greedy bot. A strength
    /// between the greedy bot and a policy whose edge is its setup. Written `setup` (100) or
    /// `setup:<percent>`.
    Setup {
        /// The share of the setup's decisions given to the setup policy, in percent, 1 to 100.
        setup_percent: u8,
    },
    /// Monte-Carlo tree search (information-set MCTS in games with hidden information), with the
    /// game's evaluation when it offers one (playouts cut off and scored by it).
    Mcts(Budget),
    /// The same search without the game's evaluation: every playout runs to the end of the game.
    /// Written `mcts:<budget>:plain`.
    PlainMcts(Budget),
    /// The search with the game's evaluation, its playouts scored after `cutoff` actions in place
    /// of the game's own cut-off (`Evaluator::playout_cutoff`), counted as the game counts it
    /// (from the search's root in Bataille Navale, `Evaluator::cutoff_from_root`). For measuring
    /// how far a search should look (docs/bots.md, section 1); no level plays it. Written
    /// `mcts:<budget>:cut<actions>`, `cutoff` 1 to `MAX_CUTOFF`.
    CutMcts {
        /// The search budget.
        budget: Budget,
        /// Actions before the evaluation scores an iteration.
        cutoff: u16,
    },
    /// A named level: the game's bot for it (the registry's level tables).
    Level(Level),
}

impl BotSpec {
    /// The search budget, for the bots that search (a level's is its game's: see the
    /// registry's level tables; `Level::default_spec` here).
    #[must_use]
    pub fn budget(self) -> Option<Budget> {
        match self {
            BotSpec::Random
            | BotSpec::Greedy
            | BotSpec::EpsilonGreedy { .. }
            | BotSpec::Blunder { .. }
            | BotSpec::Setup { .. } => None,
            BotSpec::Mcts(b) | BotSpec::PlainMcts(b) | BotSpec::CutMcts { budget: b, .. } => {
                Some(b)
            }
            BotSpec::Level(l) => l.default_spec().budget(),
        }
    }
}

/// A bot name that does not parse; the message names the offending text and the known forms.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error(
    "unknown bot `{0}` (known: random, greedy, greedy:<percent 1 to 99>, blunder:<percent 1 to \
     99>, setup, setup:<percent 1 to 99>, beginner, casual, club, strong, expert, mcts:<ms>, mcts:i<iterations>, and either \
     MCTS form with the suffix `:plain` or `:cut<actions 1 to 1000>`)"
)]
pub struct UnknownBot(pub String);

/// The default budget of a bare `mcts`.
const DEFAULT_MCTS_MS: u64 = 100;

/// The longest cut-off `mcts:<budget>:cut<actions>` accepts (`BotSpec::CutMcts`): Bataille
/// Navale's longest games run a few hundred actions.
pub const MAX_CUTOFF: u16 = 1000;

impl FromStr for BotSpec {
    type Err = UnknownBot;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownBot(s.to_owned());
        match s {
            "random" => return Ok(BotSpec::Random),
            "greedy" => return Ok(BotSpec::Greedy),
            "setup" => {
                return Ok(BotSpec::Setup { setup_percent: 100 });
            }
            "mcts" => return Ok(BotSpec::Mcts(Budget::Millis(DEFAULT_MCTS_MS))),
            _ => {}
        }
        if let Some(level) = Level::ALL.into_iter().find(|l| l.name() == s) {
            return Ok(BotSpec::Level(level));
        }
        // A share in percent, 1 to 99, in digits only so that each bot has one text (no `+30`,
        // no `030`).
        let percent = |text: &str| match text.parse::<u8>() {
            Ok(p @ 1..=99) if !text.starts_with(['+', '0']) => Ok(p),
            _ => Err(bad()),
        };
        if let Some(p) = s.strip_prefix("greedy:") {
            let greedy_percent = percent(p)?;
            return Ok(BotSpec::EpsilonGreedy { greedy_percent });
        }
        if let Some(p) = s.strip_prefix("setup:") {
            let setup_percent = percent(p)?;
            return Ok(BotSpec::Setup { setup_percent });
        }
        if let Some(p) = s.strip_prefix("blunder:") {
            let blunder_percent = percent(p)?;
            return Ok(BotSpec::Blunder { blunder_percent });
        }
        let budget = s.strip_prefix("mcts:").ok_or_else(bad)?;
        let (budget, plain) = match budget.strip_suffix(":plain") {
            Some(b) => (b, true),
            None => (budget, false),
        };
        // `:cut<actions>`, digits only (one text a bot), 1 to `MAX_CUTOFF`.
        let (budget, cutoff) = match budget.rsplit_once(":cut") {
            Some((b, n)) if !plain => match n.parse::<u16>() {
                Ok(c @ 1..=MAX_CUTOFF) if !n.starts_with(['+', '0']) => (b, Some(c)),
                _ => return Err(bad()),
            },
            _ => (budget, None),
        };
        let budget = if let Some(n) = budget.strip_prefix('i') {
            Budget::Iterations(n.parse().map_err(|_| bad())?)
        } else {
            let ms = budget.strip_suffix("ms").unwrap_or(budget);
            Budget::Millis(ms.parse().map_err(|_| bad())?)
        };
        match (budget, cutoff) {
            (Budget::Millis(0) | Budget::Iterations(0), _) => Err(bad()),
            (budget, Some(cutoff)) => Ok(BotSpec::CutMcts { budget, cutoff }),
            (b, None) if plain => Ok(BotSpec::PlainMcts(b)),
            (b, None) => Ok(BotSpec::Mcts(b)),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::EpsilonGreedy { greedy_percent } => write!(f, "greedy:{greedy_percent}"),
            BotSpec::Blunder { blunder_percent } => write!(f, "blunder:{blunder_percent}"),
            BotSpec::Setup { setup_percent: 100 } => f.write_str("setup"),
            BotSpec::Setup { setup_percent } => write!(f, "setup:{setup_percent}"),
            BotSpec::Mcts(b) => write!(f, "mcts:{b}"),
            BotSpec::PlainMcts(b) => write!(f, "mcts:{b}:plain"),
            BotSpec::CutMcts { budget, cutoff } => write!(f, "mcts:{budget}:cut{cutoff}"),
            BotSpec::Level(l) => f.write_str(l.name()),
        }
    }
}

impl Serialize for BotSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BotSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_from_its_text() {
        let cases = [
            ("random", BotSpec::Random),
            ("greedy", BotSpec::Greedy),
            ("greedy:30", BotSpec::EpsilonGreedy { greedy_percent: 30 }),
            ("greedy:1", BotSpec::EpsilonGreedy { greedy_percent: 1 }),
            ("greedy:99", BotSpec::EpsilonGreedy { greedy_percent: 99 }),
            (
                "blunder:40",
                BotSpec::Blunder {
                    blunder_percent: 40,
                },
            ),
            ("setup", BotSpec::Setup { setup_percent: 100 }),
            ("setup:85", BotSpec::Setup { setup_percent: 85 }),
            ("mcts:100", BotSpec::Mcts(Budget::Millis(100))),
            ("mcts:i5000", BotSpec::Mcts(Budget::Iterations(5000))),
            ("mcts:100:plain", BotSpec::PlainMcts(Budget::Millis(100))),
            (
                "mcts:i500:plain",
                BotSpec::PlainMcts(Budget::Iterations(500)),
            ),
            (
                "mcts:i1000:cut40",
                BotSpec::CutMcts {
                    budget: Budget::Iterations(1000),
                    cutoff: 40,
                },
            ),
            (
                "mcts:250:cut1",
                BotSpec::CutMcts {
                    budget: Budget::Millis(250),
                    cutoff: 1,
                },
            ),
            (
                "mcts:i10:cut1000",
                BotSpec::CutMcts {
                    budget: Budget::Iterations(10),
                    cutoff: 1000,
                },
            ),
            ("beginner", BotSpec::Level(Level::Beginner)),
            ("club", BotSpec::Level(Level::Club)),
            ("expert", BotSpec::Level(Level::Expert)),
        ];
        for (text, spec) in cases {
            assert_eq!(text.parse::<BotSpec>(), Ok(spec), "{text}");
            assert_eq!(spec.to_string(), text);
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<BotSpec>(&json).unwrap(), spec);
        }
        assert_eq!(
            "mcts:250ms".parse::<BotSpec>(),
            Ok(BotSpec::Mcts(Budget::Millis(250)))
        );
        assert_eq!(
            "mcts".parse::<BotSpec>(),
            Ok(BotSpec::Mcts(Budget::Millis(100)))
        );
    }

    #[test]
    fn bad_names_are_refused_with_the_text() {
        for text in [
            "",
            "mcts:",
            "mcts:i",
            "mcts:0",
            "mcts:ix",
            "mcts:-5",
            "Random",
            "club ",
            "mcts:plain",
            "mcts::plain",
            "mcts:100:Plain",
            "club:plain",
            "greedy:",
            "greedy:0",
            "greedy:100",
            "greedy:030",
            "greedy:+30",
            "greedy:x",
            "greedy:30:plain",
            "blunder:0",
            "blunder:100",
            "blunder",
            "mcts:i100:cut",
            "mcts:i100:cut0",
            "mcts:i100:cut040",
            "mcts:i100:cut+40",
            "mcts:i100:cut1001",
            "mcts:i100:cut-1",
            "mcts:i100:cutx",
            "mcts:i100:Cut40",
            "mcts:cut40",
            "mcts:i0:cut40",
            "mcts:i100:cut40:plain",
            "mcts:i100:plain:cut40",
            "mcts:i100:cut40:cut40",
            "club:cut40",
            "greedy:cut40",
        ] {
            let err = text.parse::<BotSpec>().unwrap_err();
            assert_eq!(err, UnknownBot(text.to_owned()));
            assert!(err.to_string().contains(&format!("`{text}`")));
        }
    }

    #[test]
    fn levels_are_numbered_one_to_five() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(level.number(), i as u8 + 1);
            assert_eq!(Level::from_number(i as u8 + 1), Some(level));
            assert_eq!(level.name().parse(), Ok(BotSpec::Level(level)));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(6), None);
        assert_eq!(
            BotSpec::Level(Level::Club).budget(),
            Some(Budget::Iterations(100))
        );
        assert_eq!(BotSpec::Random.budget(), None);
    }
}
