//! "High card", a two-seat game made for these tests: it has what MAD lacks, chance nodes and
//! hidden information. Chance deals seat 0 a card (1 to 6), then seat 1; each seat sees only its
//! own card until the end. Seat 0 says `keep` or `fold`, then (if it kept) seat 1 does. A fold loses;
//! two keeps compare cards (equal cards share first place). Timeouts and resignations lose.

use plateau_engine::{
    Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat, SetupError, ToAct,
    Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Toy {
    cards: [Option<u8>; 2],
    /// `true` = keep.
    choices: [Option<bool>; 2],
    ending: Option<Ending>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum ToyAction {
    Card(u8),
    Keep,
    Fold,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ToyObservation {
    /// The cards this viewer may see (`null` for hidden ones).
    pub cards: [Option<u8>; 2],
    pub choices: [Option<bool>; 2],
}

impl Toy {
    fn over(&self) -> bool {
        self.ending.is_some()
            || self.choices[0] == Some(false)
            || self.choices.iter().all(Option::is_some)
    }
}

impl Game for Toy {
    type Action = ToyAction;
    type Observation = ToyObservation;
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "toy",
        title: "High card",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: true,
        simultaneous: false,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Toy {
            cards: [None; 2],
            choices: [None; 2],
            ending: None,
        })
    }

    fn parse_position(_: &(), text: &str) -> Result<Self, SetupError> {
        serde_json::from_str(text).map_err(|e| SetupError::position(text, e.to_string()))
    }

    fn format_position(&self) -> String {
        serde_json::to_string(self).unwrap()
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if self.over() {
            ToAct::Terminal
        } else if self.cards.iter().any(Option::is_none) {
            ToAct::Chance
        } else if self.choices[0].is_none() {
            ToAct::Player(Seat(0))
        } else {
            ToAct::Player(Seat(1))
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ToyAction>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            out.extend([ToyAction::Keep, ToyAction::Fold]);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(ToyAction, f64)>) {
        out.clear();
        if self.to_act() == ToAct::Chance {
            out.extend((1..=6).map(|c| (ToyAction::Card(c), 1.0 / 6.0)));
        }
    }

    fn apply(&mut self, actor: Actor, action: &ToyAction) -> Result<(), IllegalAction> {
        if self.over() {
            return Err(IllegalAction::GameOver);
        }
        if !self.to_act().allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        match (actor, action) {
            (Actor::Chance, ToyAction::Card(c)) if (1..=6).contains(c) => {
                let i = usize::from(self.cards[0].is_some());
                self.cards[i] = Some(*c);
            }
            (Actor::Seat(s), ToyAction::Keep | ToyAction::Fold) => {
                self.choices[s.index()] = Some(*action == ToyAction::Keep);
            }
            _ => {
                return Err(IllegalAction::rule(format!(
                    "{action:?} is not playable now"
                )));
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(Ending::Timeout(s) | Ending::Resign(s)) = self.ending {
            let kind = if matches!(self.ending, Some(Ending::Timeout(_))) {
                "timeout"
            } else {
                "resign"
            };
            return Some(Outcome::single_winner(2, Seat(1 - s.0), kind));
        }
        match self.choices {
            [Some(false), _] => Some(Outcome::single_winner(2, Seat(1), "fold")),
            [Some(true), Some(false)] => Some(Outcome::single_winner(2, Seat(0), "fold")),
            [Some(true), Some(true)] => {
                let (a, b) = (self.cards[0]?, self.cards[1]?);
                Some(Outcome::ranked_by_score(
                    vec![f64::from(u8::from(a > b)), f64::from(u8::from(b > a))],
                    "showdown",
                ))
            }
            _ => None,
        }
    }

    fn observe(&self, viewer: Viewer) -> ToyObservation {
        let over = self.over();
        let visible = |i: usize| over || viewer == Viewer::Seat(Seat(i as u8));
        ToyObservation {
            cards: [0, 1].map(|i| if visible(i) { self.cards[i] } else { None }),
            choices: self.choices,
        }
    }

    fn determinize<R: Rng + ?Sized>(&self, _viewer: Seat, _rng: &mut R) -> Self {
        self.clone()
    }

    fn format_action(&self, action: &ToyAction) -> String {
        match action {
            ToyAction::Card(c) => c.to_string(),
            ToyAction::Keep => "keep".into(),
            ToyAction::Fold => "fold".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<ToyAction, ParseError> {
        match text {
            "keep" => Ok(ToyAction::Keep),
            "fold" => Ok(ToyAction::Fold),
            t => match t.parse::<u8>() {
                Ok(c) => Ok(ToyAction::Card(c)),
                Err(_) => Err(ParseError::new(t, "expected keep, fold or a card 1-6")),
            },
        }
    }

    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if self.over() {
            return Err(IllegalAction::GameOver);
        }
        match ending {
            Ending::Timeout(_) | Ending::Resign(_) => {
                self.ending = Some(ending);
                Ok(())
            }
            Ending::Agreement => Err(IllegalAction::Unsupported {
                what: "an agreed stop".into(),
            }),
        }
    }
}
