//! Planted leaks: the conformance kit's secrecy check (docs/architecture.md section 2.5) catches a
//! single leaked value, and names it. The game is a toy made for it: chance deals each of two
//! seats a card from 0 to 10, then each seat in turn bets or folds; a seat knows its own card only.
//! Its config plants one leak at a time: the parity of the other seat's card as one field of the
//! observation, or a legal action that exists only when the other seat's card is low.

use plateau_engine::{
    Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat, SetupError, ToAct,
    Viewer,
};
use plateau_testkit::{Options, check_playouts, check_secrecy};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Which leak the game plants.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
enum Plant {
    /// None: the honest game.
    #[default]
    None,
    /// The observation carries `other_parity`, the parity of the other seat's card.
    Field,
    /// `raise` is legal only when the other seat's card is below 5.
    Legal,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Cards {
    plant: Plant,
    cards: [Option<u8>; 2],
    bets: Vec<String>,
    /// The seat that resigned, if one did (every game takes a resignation).
    #[serde(default)]
    resigned: Option<Seat>,
}

/// What a seat sees.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
struct View {
    mine: Option<u8>,
    bets: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    other_parity: Option<u8>,
}

impl Cards {
    fn other(seat: Seat) -> usize {
        1 - seat.index()
    }
}

impl Game for Cards {
    type Action = String;
    type Observation = View;
    type Config = Plant;
    const INFO: GameInfo = GameInfo {
        name: "cards",
        title: "Cards",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: true,
        simultaneous: false,
    };

    fn new(plant: &Plant, seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Cards {
            plant: *plant,
            cards: [None; 2],
            bets: Vec::new(),
            resigned: None,
        })
    }

    fn parse_position(plant: &Plant, text: &str) -> Result<Self, SetupError> {
        let mut state: Cards =
            serde_json::from_str(text).map_err(|e| SetupError::position(text, e.to_string()))?;
        state.plant = *plant;
        Ok(state)
    }

    fn format_position(&self) -> String {
        serde_json::to_string(self).unwrap()
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if self.resigned.is_some() {
            return ToAct::Terminal;
        }
        match (self.cards, self.bets.len()) {
            ([None, _] | [_, None], _) => ToAct::Chance,
            (_, n) if n < 2 => ToAct::Player(Seat(n as u8)),
            _ => ToAct::Terminal,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<String>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            out.extend(["bet".to_owned(), "fold".to_owned()]);
            let low = self.cards[Cards::other(seat)].is_some_and(|c| c < 5);
            if self.plant == Plant::Legal && low {
                out.push("raise".to_owned());
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(String, f64)>) {
        out.clear();
        if self.to_act() == ToAct::Chance {
            out.extend((0..=10).map(|c| (c.to_string(), 1.0 / 11.0)));
        }
    }

    fn apply(&mut self, actor: Actor, action: &String) -> Result<(), IllegalAction> {
        let to_act = self.to_act();
        if to_act == ToAct::Terminal {
            return Err(IllegalAction::GameOver);
        }
        if !to_act.allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        match actor {
            Actor::Chance => {
                let card = action
                    .parse::<u8>()
                    .ok()
                    .filter(|c| *c <= 10)
                    .ok_or_else(|| IllegalAction::rule("a card is 0 to 10"))?;
                let slot = if self.cards[0].is_none() { 0 } else { 1 };
                self.cards[slot] = Some(card);
            }
            Actor::Seat(seat) => {
                let mut legal = Vec::new();
                self.legal_actions(seat, &mut legal);
                if !legal.contains(action) {
                    return Err(IllegalAction::rule(format!("`{action}` is not legal")));
                }
                self.bets.push(action.clone());
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(s) = self.resigned {
            let mut scores = vec![1.0; 2];
            scores[s.index()] = 0.0;
            return Some(Outcome::ranked_by_score(scores, "resign"));
        }
        (self.to_act() == ToAct::Terminal).then(|| {
            let scores = self
                .cards
                .iter()
                .map(|c| f64::from(c.unwrap_or(0)))
                .collect();
            Outcome::ranked_by_score(scores, "cards")
        })
    }

    fn observe(&self, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        View {
            mine: seat.and_then(|s| self.cards[s.index()]),
            bets: self.bets.clone(),
            other_parity: match (self.plant, seat) {
                (Plant::Field, Some(s)) => self.cards[Cards::other(s)].map(|c| c % 2),
                _ => None,
            },
        }
    }

    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self {
        let mut other = self.clone();
        let slot = &mut other.cards[Cards::other(viewer)];
        if slot.is_some() {
            *slot = Some(rng.random_range(0..=10));
        }
        other
    }

    fn format_action(&self, action: &String) -> String {
        action.clone()
    }

    fn parse_action(&self, text: &str) -> Result<String, ParseError> {
        Ok(text.to_owned())
    }

    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        match ending {
            _ if self.to_act() == ToAct::Terminal => Err(IllegalAction::GameOver),
            Ending::Resign(s) => {
                self.resigned = Some(s);
                Ok(())
            }
            other => Err(IllegalAction::Unsupported {
                what: other.to_string(),
            }),
        }
    }
}

/// The panic message of `check_playouts` under `plant`, or `None` when it passes.
fn kit_failure(plant: Plant) -> Option<String> {
    let result = std::panic::catch_unwind(|| {
        check_playouts::<Cards>(&plant, 2, &Options::new(50, 10));
    });
    result.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

#[test]
fn the_honest_game_passes_the_kit() {
    assert_eq!(kit_failure(Plant::None), None);
}

#[test]
fn one_leaked_field_is_caught_and_named() {
    let message = kit_failure(Plant::Field).expect("the leak is caught");
    assert!(
        message.contains("view leaks at `other_parity`"),
        "{message}"
    );
}

#[test]
fn a_legal_action_that_depends_on_a_secret_is_caught() {
    let message = kit_failure(Plant::Legal).expect("the leak is caught");
    assert!(message.contains("leaks at `legal actions`"), "{message}");
}

#[test]
fn the_check_reports_the_seat_the_path_and_both_values() {
    let mut state = Cards::new(&Plant::Field, 2).unwrap();
    state.apply(Actor::Chance, &"3".to_owned()).unwrap();
    state.apply(Actor::Chance, &"8".to_owned()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    // Seat 1 sees the parity of seat 0's 3: odd. Eight draws redraw an even card almost surely
    // (each draw keeps the parity with probability 6/11); this seed does on its first draws.
    let leak = check_secrecy(&state, &mut rng, 8).unwrap_err();
    assert_eq!(leak.path, "other_parity");
    let honest = Cards {
        plant: Plant::None,
        ..state
    };
    assert_eq!(check_secrecy(&honest, &mut rng, 8), Ok(()));
    assert!(leak.to_string().starts_with("seat "), "{leak}");
    assert_eq!(
        (leak.truth.as_str(), leak.drawn.as_str()),
        if leak.seat == Seat(0) {
            ("0", "1")
        } else {
            ("1", "0")
        },
        "{leak}"
    );
}
