//! Game records (docs/architecture.md section 4): a game as JSON, replayable without the seed, verifiable with
//! it.
//!
//! ```json
//! {"game": "mad", "config": null, "seats": ["human", "random"],
//!  "seed_hash": "…64 hex…", "seed": "…64 hex, once the game is over…",
//!  "actions": [{"by": {"seat": 0}, "action": "c2-c3", "at_ms": 5120}],
//!  "endings": [{"after": 1, "ending": {"resign": 1}, "at_ms": 9000}],
//!  "outcome": {"ranks": [1, 2], "scores": [1.0, 0.0], "kind": "resign"}}
//! ```
//!
//! An early ending has its place among the actions (`after`: how many actions came before it),
//! because in some games it does not end the game: a Bataille Navale seat that resigns is
//! eliminated and the others play on (rules/naval.md), so actions follow the ending.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::chance::Seed;
use crate::dynamic::{ActionError, DynGame, GameEntry};
use crate::error::{IllegalAction, SetupError};
use crate::game::Ending;
use crate::outcome::Outcome;
use crate::seat::{Actor, ToAct};

/// One played action.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Who played it.
    pub by: Actor,
    /// The action in canonical notation; for chance, the outcome drawn.
    pub action: String,
    /// Milliseconds since the game started, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
}

/// An early ending (timeout, resignation, agreed stop) at its place in the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RecordedEnding {
    /// How many actions of `Record::actions` were played before it: 0 = before the first one,
    /// `actions.len()` = after the last one.
    pub after: usize,
    /// The ending, as `Game::end` takes it.
    pub ending: Ending,
    /// Milliseconds since the game started, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
}

/// One entry of a record in the order it happened (`Record::steps`), borrowed from the record.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum RecordStep<'a> {
    /// An action, with its 1-based index in `Record::actions`.
    Action(usize, &'a RecordedAction),
    /// An early ending.
    End(&'a RecordedEnding),
}

/// A whole game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Record {
    /// Registry name of the game, e.g. `"mad"`.
    pub game: String,
    /// The game's config as JSON (`null` for the default).
    #[serde(default)]
    pub config: serde_json::Value,
    /// Who sat at each seat, e.g. `"human"`, `"random"`, `"mcts:100"`; its length is the seat count.
    pub seats: Vec<String>,
    /// Position text the game started from, when it is not the game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// SHA-256 of the chance seed, published when the game started.
    pub seed_hash: String,
    /// The chance seed, revealed once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// Every action, chance outcomes included, in order.
    pub actions: Vec<RecordedAction>,
    /// The early endings (timeout, resignation, agreed stop) in order, each at its place among
    /// the actions; `after` never decreases from one to the next.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endings: Vec<RecordedEnding>,
    /// The result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// What went wrong when replaying a record. Action indices count from 1, as people read a move list.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The game could not be set up from the record's game, config, seats and start.
    #[error("cannot set up the game: {0}")]
    Setup(#[from] SetupError),
    /// The revealed seed does not hash to the published `seed_hash`.
    #[error("the seed does not match seed_hash: sha256(seed) = {actual}, record says {published}")]
    SeedHash {
        /// The hash of the revealed seed.
        actual: String,
        /// The published hash.
        published: String,
    },
    /// An action could not be played.
    #[error("action {index} (`{action}` by {by}): {error}")]
    Action {
        /// 1-based index in `actions`.
        index: usize,
        /// Its text.
        action: String,
        /// Who played it.
        by: Actor,
        /// Why it was refused.
        error: ActionError,
    },
    /// A chance outcome differs from what the revealed seed draws.
    #[error("action {index}: chance drew `{drawn}` from the seed but the record says `{recorded}`")]
    Chance {
        /// 1-based index in `actions`.
        index: usize,
        /// What the seed draws.
        drawn: String,
        /// What the record holds.
        recorded: String,
    },
    /// An early ending's place is beyond the record's actions.
    #[error("the ending ({ending}) after {after} actions: the record has only {actions} actions")]
    EndingBeyond {
        /// The ending.
        ending: Ending,
        /// Its `after`.
        after: usize,
        /// How many actions the record has.
        actions: usize,
    },
    /// An early ending is placed before the ending listed ahead of it.
    #[error(
        "the ending ({ending}) after {after} actions comes before the ending listed ahead of it \
         (after {previous} actions)"
    )]
    EndingOrder {
        /// The ending.
        ending: Ending,
        /// Its `after`.
        after: usize,
        /// The `after` of the ending listed before it.
        previous: usize,
    },
    /// A recorded early ending could not be applied.
    #[error("the ending ({ending}) after {after} actions: {error}")]
    Ending {
        /// The ending.
        ending: Ending,
        /// Its `after`.
        after: usize,
        /// Why it was refused.
        error: IllegalAction,
    },
    /// The recorded outcome is not the outcome the rules give.
    #[error(
        "the record's outcome {} differs from the replayed {}",
        outcome_text(recorded),
        outcome_text(replayed)
    )]
    Outcome {
        /// From the record.
        recorded: Box<Option<Outcome>>,
        /// From the rules.
        replayed: Box<Option<Outcome>>,
    },
}

/// An outcome as JSON for a message, or `none` for a game not over.
fn outcome_text(outcome: &Option<Outcome>) -> String {
    match outcome {
        Some(o) => serde_json::to_string(o).unwrap_or_default(),
        None => "none (the game is not over)".to_owned(),
    }
}

/// A successful replay.
#[derive(Debug)]
pub struct Replay {
    /// The final state.
    pub state: Box<dyn DynGame>,
    /// Whether a revealed seed was checked against the hash and redrew every chance outcome.
    pub seed_verified: bool,
}

impl Record {
    /// An empty record for a game about to start with chance generator `seed` (kept secret: only
    /// its hash is stored until `reveal`).
    #[must_use]
    pub fn new(game: &str, config: serde_json::Value, seats: Vec<String>, seed: &Seed) -> Record {
        Record {
            game: game.to_owned(),
            config,
            seats,
            start: None,
            seed_hash: seed.hash_hex(),
            seed: None,
            actions: Vec::new(),
            endings: Vec::new(),
            outcome: None,
        }
    }

    /// Records `ending` as happening now, after the actions recorded so far; `at_ms` as in
    /// `RecordedAction`.
    pub fn push_ending(&mut self, ending: Ending, at_ms: Option<u64>) {
        self.endings.push(RecordedEnding {
            after: self.actions.len(),
            ending,
            at_ms,
        });
    }

    /// Every action and ending in the order they happened: the endings with `after == n` come
    /// right after action `n` (before the first action for 0), in their listed order. An ending
    /// out of order or beyond the actions (which `replay` refuses) comes once the actions before
    /// it have come, or at the end.
    pub fn steps(&self) -> impl Iterator<Item = RecordStep<'_>> {
        let mut endings = self.endings.iter().peekable();
        let mut actions = self.actions.iter().enumerate().peekable();
        std::iter::from_fn(move || {
            let played = actions.peek().map_or(usize::MAX, |(i, _)| *i);
            if let Some(end) = endings.next_if(|e| e.after <= played) {
                return Some(RecordStep::End(end));
            }
            actions.next().map(|(i, a)| RecordStep::Action(i + 1, a))
        })
    }

    /// Checks that every ending's `after` is at most the number of actions and never decreases.
    fn check_ending_places(&self) -> Result<(), ReplayError> {
        let mut previous = 0;
        for e in &self.endings {
            if e.after > self.actions.len() {
                return Err(ReplayError::EndingBeyond {
                    ending: e.ending,
                    after: e.after,
                    actions: self.actions.len(),
                });
            }
            if e.after < previous {
                return Err(ReplayError::EndingOrder {
                    ending: e.ending,
                    after: e.after,
                    previous,
                });
            }
            previous = e.after;
        }
        Ok(())
    }

    /// Replays every action with the rules of `entry`, each ending at its place, checking each
    /// one and the outcome. With a revealed seed, also checks the seed against `seed_hash` and
    /// that every chance outcome is the one the seed draws.
    ///
    /// # Errors
    /// `ReplayError` at the first problem, naming the action or the ending.
    pub fn replay(&self, entry: &GameEntry) -> Result<Replay, ReplayError> {
        self.check_ending_places()?;
        let mut state = match &self.start {
            Some(text) => entry.from_position(&self.config, text)?,
            None => entry.new_game(&self.config, self.seats.len())?,
        };
        let mut rng = match &self.seed {
            Some(seed) => {
                let actual = seed.hash_hex();
                if !actual.eq_ignore_ascii_case(&self.seed_hash) {
                    return Err(ReplayError::SeedHash {
                        actual,
                        published: self.seed_hash.clone(),
                    });
                }
                Some(seed.rng())
            }
            None => None,
        };
        for step in self.steps() {
            let (index, step) = match step {
                RecordStep::Action(index, action) => (index, action),
                RecordStep::End(&RecordedEnding { after, ending, .. }) => {
                    state.end(ending).map_err(|error| ReplayError::Ending {
                        ending,
                        after,
                        error,
                    })?;
                    continue;
                }
            };
            if let (Actor::Chance, Some(rng), ToAct::Chance) =
                (step.by, rng.as_mut(), state.to_act())
            {
                let mut probe = state.clone_box();
                let drawn = probe.sample_chance(rng).unwrap_or_default();
                if drawn != step.action {
                    return Err(ReplayError::Chance {
                        index,
                        drawn,
                        recorded: step.action.clone(),
                    });
                }
            }
            state
                .apply_text(step.by, &step.action)
                .map_err(|error| ReplayError::Action {
                    index,
                    action: step.action.clone(),
                    by: step.by,
                    error,
                })?;
        }
        let replayed = state.outcome();
        if self.outcome.is_some() && self.outcome != replayed {
            return Err(ReplayError::Outcome {
                recorded: Box::new(self.outcome.clone()),
                replayed: Box::new(replayed),
            });
        }
        Ok(Replay {
            state,
            seed_verified: rng.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;
    use serde::{Deserialize, Serialize};

    use super::{Record, RecordStep, RecordedAction, RecordedEnding, ReplayError};
    use crate::chance::Seed;
    use crate::dynamic::GameEntry;
    use crate::error::{IllegalAction, ParseError, SetupError};
    use crate::game::Ending;
    use crate::game::{Game, GameInfo};
    use crate::outcome::Outcome;
    use crate::seat::{Actor, ToAct};
    use crate::seat::{Seat, Viewer};

    /// "Pass the token", a game made for these tests in which a resignation does not end the game
    /// (as in Bataille Navale): the seats still in say `pass` in turn, seat 0 first; a seat that
    /// resigns is out and is skipped. The game ends after `PASSES` passes, or when one seat is
    /// left; the seats still in share first place.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    struct Token {
        out: Vec<bool>,
        next: usize,
        passes: usize,
    }

    const PASSES: usize = 5;

    impl Token {
        fn left(&self) -> usize {
            self.out.iter().filter(|o| !**o).count()
        }

        fn over(&self) -> bool {
            self.passes == PASSES || self.left() <= 1
        }

        /// Moves `next` to the first seat still in, from `next` on.
        fn skip_out(&mut self) {
            while self.out[self.next] && self.left() > 0 {
                self.next = (self.next + 1) % self.out.len();
            }
        }
    }

    impl Game for Token {
        type Action = ();
        type Observation = ();
        type Config = ();
        const INFO: GameInfo = GameInfo {
            name: "token",
            title: "Pass the token",
            min_seats: 2,
            max_seats: 4,
            default_seats: 3,
            chance: false,
            hidden_information: false,
            simultaneous: false,
        };

        fn new(_: &(), seats: usize) -> Result<Token, SetupError> {
            SetupError::check_seats(&Self::INFO, seats)?;
            Ok(Token {
                out: vec![false; seats],
                next: 0,
                passes: 0,
            })
        }

        fn parse_position(_: &(), text: &str) -> Result<Token, SetupError> {
            serde_json::from_str(text).map_err(|e| SetupError::position(text, e.to_string()))
        }

        fn format_position(&self) -> String {
            serde_json::to_string(self).unwrap()
        }

        fn seats(&self) -> usize {
            self.out.len()
        }

        fn to_act(&self) -> ToAct {
            if self.over() {
                ToAct::Terminal
            } else {
                ToAct::Player(Seat(self.next as u8))
            }
        }

        fn legal_actions(&self, seat: Seat, out: &mut Vec<()>) {
            out.clear();
            if self.to_act() == ToAct::Player(seat) {
                out.push(());
            }
        }

        fn chance_outcomes(&self, out: &mut Vec<((), f64)>) {
            out.clear();
        }

        fn apply(&mut self, actor: Actor, (): &()) -> Result<(), IllegalAction> {
            if self.over() {
                return Err(IllegalAction::GameOver);
            }
            if !self.to_act().allows(actor) {
                return Err(IllegalAction::NotToAct { actor });
            }
            self.passes += 1;
            self.next = (self.next + 1) % self.out.len();
            self.skip_out();
            Ok(())
        }

        fn outcome(&self) -> Option<Outcome> {
            self.over().then(|| {
                let scores = self.out.iter().map(|o| f64::from(u8::from(!o))).collect();
                Outcome::ranked_by_score(scores, "passes")
            })
        }

        fn observe(&self, _: Viewer) {}

        fn determinize<R: Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Token {
            self.clone()
        }

        fn format_action(&self, (): &()) -> String {
            "pass".into()
        }

        fn parse_action(&self, text: &str) -> Result<(), ParseError> {
            match text {
                "pass" => Ok(()),
                _ => Err(ParseError::new(text, "expected `pass`")),
            }
        }

        fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
            if self.over() {
                return Err(IllegalAction::GameOver);
            }
            match ending {
                Ending::Resign(s) if s.index() < self.out.len() && !self.out[s.index()] => {
                    self.out[s.index()] = true;
                    self.skip_out();
                    Ok(())
                }
                _ => Err(IllegalAction::rule(format!("{ending} is not possible"))),
            }
        }
    }

    const TOKEN: GameEntry = GameEntry::of::<Token>();

    fn pass(seat: u8) -> RecordedAction {
        RecordedAction {
            by: Actor::Seat(Seat(seat)),
            action: "pass".into(),
            at_ms: None,
        }
    }

    /// Three seats; seat 1 passes, then resigns, and seats 0 and 2 play on to the fifth pass.
    fn resigned_in_the_middle() -> Record {
        let mut record = Record::new(
            "token",
            serde_json::Value::Null,
            vec!["human".into(); 3],
            &Seed([7; 32]),
        );
        record.actions = vec![pass(0), pass(1)];
        record.push_ending(Ending::Resign(Seat(1)), Some(900));
        record.actions.extend([pass(2), pass(0), pass(2)]);
        record.outcome = Some(Outcome::ranked_by_score(vec![1.0, 0.0, 1.0], "passes"));
        record
    }

    #[test]
    fn an_ending_in_the_middle_replays_at_its_place() {
        let record = resigned_in_the_middle();
        assert_eq!(
            record.endings,
            [RecordedEnding {
                after: 2,
                ending: Ending::Resign(Seat(1)),
                at_ms: Some(900)
            }]
        );
        let order: Vec<String> = record
            .steps()
            .map(|s| match s {
                RecordStep::Action(i, a) => format!("{i}:{}", a.by),
                RecordStep::End(e) => format!("end:{}", e.ending),
            })
            .collect();
        assert_eq!(
            order,
            [
                "1:seat 1",
                "2:seat 2",
                "end:a resignation by seat 2",
                "3:seat 3",
                "4:seat 1",
                "5:seat 3"
            ]
        );
        let replay = record.replay(&TOKEN).unwrap();
        assert_eq!(
            replay.state.outcome().unwrap().ranks,
            [1, 3, 1],
            "shared first place"
        );

        // The same ending after the last action, as a record held it before endings had a
        // place: seat 2 is then still in and to act after action 4, so action 5 (a pass by seat 3) is
        // refused.
        let mut at_the_end = record.clone();
        at_the_end.endings[0].after = 5;
        let err = at_the_end.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Action { index: 5, .. }), "{err}");
    }

    #[test]
    fn endings_sharing_a_place_apply_in_their_order() {
        // Seats 1 and 3 (of 4) resign after one pass; seats 2 and 4 play on.
        let mut record = Record::new(
            "token",
            serde_json::Value::Null,
            vec!["human".into(); 4],
            &Seed([1; 32]),
        );
        record.actions.push(pass(0));
        record.push_ending(Ending::Resign(Seat(0)), None);
        record.push_ending(Ending::Resign(Seat(2)), None);
        record.actions.extend([pass(1), pass(3), pass(1), pass(3)]);
        let replay = record.replay(&TOKEN).unwrap();
        assert_eq!(
            replay.state.outcome().unwrap().ranks,
            [3, 1, 3, 1],
            "shared first place"
        );

        // A third resignation there leaves one seat, which ends the game: the passes after it
        // are refused, naming the first.
        record.push_ending(Ending::Resign(Seat(1)), None);
        record.endings[2].after = 1;
        let err = record.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Action { index: 2, .. }), "{err}");
        assert!(
            err.to_string().starts_with("action 2 (`pass` by seat 2)"),
            "{err}"
        );
    }

    #[test]
    fn an_ending_beyond_the_actions_or_out_of_order_is_refused() {
        let mut beyond = resigned_in_the_middle();
        beyond.endings[0].after = 6;
        let err = beyond.replay(&TOKEN).unwrap_err();
        assert!(
            matches!(
                err,
                ReplayError::EndingBeyond {
                    after: 6,
                    actions: 5,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "the ending (a resignation by seat 2) after 6 actions: the record has only 5 actions"
        );

        let mut backwards = resigned_in_the_middle();
        backwards.endings.insert(
            0,
            RecordedEnding {
                after: 4,
                ending: Ending::Resign(Seat(2)),
                at_ms: None,
            },
        );
        let err = backwards.replay(&TOKEN).unwrap_err();
        assert!(
            matches!(
                err,
                ReplayError::EndingOrder {
                    after: 2,
                    previous: 4,
                    ..
                }
            ),
            "{err}"
        );

        // An ending the game refuses (seat 2 has already resigned) names its place.
        let mut twice = resigned_in_the_middle();
        twice.push_ending(Ending::Resign(Seat(1)), None);
        twice.endings[1].after = 3;
        let err = twice.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Ending { after: 3, .. }), "{err}");
    }

    #[test]
    fn endings_are_json_with_their_place_and_absent_when_none() {
        let record = resigned_in_the_middle();
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json["endings"],
            serde_json::json!([{"after": 2, "ending": {"resign": 1}, "at_ms": 900}])
        );
        let back: Record = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);

        let mut none = record.clone();
        none.endings.clear();
        let json = serde_json::to_value(&none).unwrap();
        assert!(json.get("endings").is_none(), "{json}");
        let back: Record = serde_json::from_value(json).unwrap();
        assert!(back.endings.is_empty());
    }
}
