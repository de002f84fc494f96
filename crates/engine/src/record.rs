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
//! In memory a record holds its game's log (`crate::log::LogEntry`, the type the match service
//! stores), endings in their places; the JSON keeps the actions and the endings apart, each ending
//! with its place among the actions (`after`: how many actions came before it).

use serde::{Deserialize, Serialize};

use crate::chance::Seed;
use crate::dynamic::{DynGame, GameEntry};
use crate::game::Ending;
use crate::log::{Event, LogEntry, ReplayError, Visitor, replay_log};
use crate::outcome::Outcome;
use crate::seat::Actor;

/// A whole game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(into = "wire::Record", try_from = "wire::Record")]
pub struct Record {
    /// Registry name of the game, e.g. `"mad"`.
    pub game: String,
    /// The game's config as JSON (`null` for the default).
    pub config: serde_json::Value,
    /// Who sat at each seat, e.g. `"human"`, `"random"`, `"mcts:100"`; its length is the seat count.
    pub seats: Vec<String>,
    /// Position text the game started from, when it is not the game's start.
    pub start: Option<String>,
    /// SHA-256 of the chance seed, published when the game started.
    pub seed_hash: String,
    /// The chance seed, revealed once the game is over.
    pub seed: Option<Seed>,
    /// Every action, chance outcomes included, and every early ending, in the order they
    /// happened.
    pub log: Vec<LogEntry>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
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
    /// its hash is stored until the game is over).
    #[must_use]
    pub fn new(game: &str, config: serde_json::Value, seats: Vec<String>, seed: &Seed) -> Record {
        Record {
            game: game.to_owned(),
            config,
            seats,
            start: None,
            seed_hash: seed.hash_hex(),
            seed: None,
            log: Vec::new(),
            outcome: None,
        }
    }

    /// The actions in order, chance outcomes included: who played and the text.
    pub fn actions(&self) -> impl Iterator<Item = (Actor, &str)> {
        self.log.iter().filter_map(|e| match &e.event {
            Event::Action { by, action } => Some((*by, action.as_str())),
            Event::End(_) => None,
        })
    }

    /// The early endings in order, each with the number of actions before it.
    pub fn endings(&self) -> impl Iterator<Item = (usize, Ending)> {
        let mut actions = 0;
        self.log.iter().filter_map(move |e| match e.event {
            Event::Action { .. } => {
                actions += 1;
                None
            }
            Event::End(ending) => Some((actions, ending)),
        })
    }

    /// Replays the log with the rules of `entry` from the record's start and checks the
    /// outcome (`replay_with` without a visitor).
    ///
    /// # Errors
    /// As `replay_with`.
    pub fn replay(&self, entry: &GameEntry) -> Result<Replay, ReplayError> {
        self.replay_with(entry, &mut ())
    }

    /// Replays the log with the rules of `entry` (`log::replay_log`) from the record's start,
    /// `visitor` seeing each entry, then checks the recorded outcome. With a revealed seed, also
    /// checks the seed against `seed_hash` and that every chance outcome is the one the seed
    /// draws.
    ///
    /// # Errors
    /// `ReplayError` at the first problem, naming the action or the ending.
    pub fn replay_with<V: Visitor + ?Sized>(
        &self,
        entry: &GameEntry,
        visitor: &mut V,
    ) -> Result<Replay, ReplayError> {
        let start = match &self.start {
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
        let state = replay_log(start, rng.as_mut(), &self.log, visitor)?;
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

mod wire;

#[cfg(test)]
mod tests {
    use rand::Rng;
    use serde::{Deserialize, Serialize};

    use super::Record;
    use crate::chance::Seed;
    use crate::dynamic::GameEntry;
    use crate::error::{IllegalAction, ParseError, SetupError};
    use crate::game::{Ending, Game, GameInfo};
    use crate::log::{Event, LogEntry, ReplayError};
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

    fn pass(seat: u8) -> LogEntry {
        LogEntry::action(Actor::Seat(Seat(seat)), "pass", None)
    }

    /// Three seats; seat 1 passes, then resigns, and seats 0 and 2 play on to the fifth pass.
    fn resigned_in_the_middle() -> Record {
        let mut record = Record::new(
            "token",
            serde_json::Value::Null,
            vec!["human".into(); 3],
            &Seed([7; 32]),
        );
        record.log = vec![
            pass(0),
            pass(1),
            LogEntry::end(Ending::Resign(Seat(1)), Some(900)),
            pass(2),
            pass(0),
            pass(2),
        ];
        record.outcome = Some(Outcome::ranked_by_score(vec![1.0, 0.0, 1.0], "passes"));
        record
    }

    #[test]
    fn an_ending_in_the_middle_replays_at_its_place() {
        let record = resigned_in_the_middle();
        assert_eq!(
            record.endings().collect::<Vec<_>>(),
            [(2, Ending::Resign(Seat(1)))]
        );
        assert_eq!(record.actions().count(), 5);
        let replay = record.replay(&TOKEN).unwrap();
        assert_eq!(
            replay.state.outcome().unwrap().ranks,
            [1, 3, 1],
            "shared first place"
        );

        // The same ending after the last action: seat 2 is then still in and to act after
        // action 4, so action 5 (a pass by seat 3, log entry 5) is refused.
        let mut at_the_end = record.clone();
        let end = at_the_end.log.remove(2);
        at_the_end.log.push(end);
        let err = at_the_end.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Action { index: 5, .. }), "{err}");
        assert_eq!(err.entry(), Some(4));
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
        record.log = vec![
            pass(0),
            LogEntry::end(Ending::Resign(Seat(0)), None),
            LogEntry::end(Ending::Resign(Seat(2)), None),
            pass(1),
            pass(3),
            pass(1),
            pass(3),
        ];
        let replay = record.replay(&TOKEN).unwrap();
        assert_eq!(
            replay.state.outcome().unwrap().ranks,
            [3, 1, 3, 1],
            "shared first place"
        );
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json["endings"],
            serde_json::json!([{"after": 1, "ending": {"resign": 0}}, {"after": 1, "ending": {"resign": 2}}])
        );
        assert_eq!(serde_json::from_value::<Record>(json).unwrap(), record);

        // A third resignation there leaves one seat, which ends the game: the passes after it
        // are refused, naming the first.
        record
            .log
            .insert(3, LogEntry::end(Ending::Resign(Seat(1)), None));
        let err = record.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Action { index: 2, .. }), "{err}");
        assert!(
            err.to_string().starts_with("action 2 (`pass` by seat 2)"),
            "{err}"
        );
    }

    #[test]
    fn an_ending_beyond_the_actions_or_out_of_order_does_not_read() {
        let mut json = serde_json::to_value(resigned_in_the_middle()).unwrap();
        json["endings"][0]["after"] = 6.into();
        let err = serde_json::from_value::<Record>(json.clone()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the ending (a resignation by seat 2) after 6 actions: the record has only 5 actions"
        );

        json["endings"] = serde_json::json!([
            {"after": 4, "ending": {"resign": 2}},
            {"after": 2, "ending": {"resign": 1}},
        ]);
        let err = serde_json::from_value::<Record>(json).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the ending (a resignation by seat 2) after 2 actions comes before the ending listed \
             ahead of it (after 4 actions)"
        );
    }

    #[test]
    fn an_ending_the_game_refuses_names_its_place() {
        // Seat 2 has already resigned.
        let mut twice = resigned_in_the_middle();
        twice
            .log
            .insert(4, LogEntry::end(Ending::Resign(Seat(1)), None));
        let err = twice.replay(&TOKEN).unwrap_err();
        assert!(matches!(err, ReplayError::Ending { after: 3, .. }), "{err}");
        assert_eq!(err.entry(), Some(4));
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
        none.log.retain(|e| matches!(e.event, Event::Action { .. }));
        let json = serde_json::to_value(&none).unwrap();
        assert!(json.get("endings").is_none(), "{json}");
        let back: Record = serde_json::from_value(json).unwrap();
        assert_eq!(back.endings().count(), 0);
        assert_eq!(back.log, none.log);
    }

    /// Records written by `plateau play --record` before the log was one list: a game of MAD
    /// (`--seat 1=random --seat 2=random --seed 7`), and a game of Moon Leap with chance
    /// outcomes, a person's timed action and a resignation (`--seat 1=human --seed 7`, the
    /// person playing `2` then `resign`).
    const WRITTEN: [&str; 2] = [
        include_str!("../tests/data/records/mad-seed7.json"),
        include_str!("../tests/data/records/moonleap-resign.json"),
    ];

    #[test]
    fn records_already_written_read_and_write_unchanged() {
        for text in WRITTEN {
            let record: Record = serde_json::from_str(text).unwrap();
            assert_eq!(
                serde_json::to_string_pretty(&record).unwrap(),
                text.trim_end()
            );
        }
        let moonleap: Record = serde_json::from_str(WRITTEN[1]).unwrap();
        assert_eq!(
            moonleap.log[..2],
            [
                LogEntry::action(Actor::Chance, "r2", None),
                LogEntry::action(Actor::Seat(Seat(0)), "2", Some(0)),
            ]
        );
        assert_eq!(
            moonleap.log.last(),
            Some(&LogEntry::end(Ending::Resign(Seat(0)), Some(0)))
        );
        assert_eq!(moonleap.actions().count(), 5);
    }
}
