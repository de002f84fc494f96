use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Driver, Next, Policy, Step, StepError};
use crate::dynamic::DynGame;
use crate::error::{IllegalAction, ParseError, SetupError};
use crate::game::Game;
use crate::game::GameInfo;
use crate::outcome::Outcome;
use crate::seat::Viewer;
use crate::seat::{Actor, Seat, ToAct};
use rand::RngCore;

/// Two seats place their marks at once (a simultaneous node); then a coin decides who wins.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Coin {
    marked: [bool; 2],
    coin: Option<u8>,
}

impl Game for Coin {
    type Action = u8;
    type Observation = ();
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "coin",
        title: "Coin",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: false,
        simultaneous: true,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Coin {
            marked: [false; 2],
            coin: None,
        })
    }

    fn parse_position(_: &(), text: &str) -> Result<Self, SetupError> {
        Err(SetupError::position(text, "no positions"))
    }

    fn format_position(&self) -> String {
        String::new()
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match (self.marked, self.coin) {
            (_, Some(_)) => ToAct::Terminal,
            ([true, true], None) => ToAct::Chance,
            (m, None) => ToAct::Simultaneous(Seat::all(2).filter(|s| !m[s.index()]).collect()),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        out.clear();
        if Game::to_act(self).allows(Actor::Seat(seat)) {
            out.extend([1, 2]);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if Game::to_act(self) == ToAct::Chance {
            out.extend([(0, 0.5), (1, 0.5)]);
        }
    }

    fn apply(&mut self, actor: Actor, action: &u8) -> Result<(), IllegalAction> {
        if !Game::to_act(self).allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        match actor {
            Actor::Chance if *action < 2 => self.coin = Some(*action),
            Actor::Seat(s) if (1..=2).contains(action) => self.marked[s.index()] = true,
            _ => return Err(IllegalAction::rule("no such action")),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.coin
            .map(|c| Outcome::single_winner(2, Seat(c), "coin"))
    }

    fn observe(&self, _: Viewer) {}

    fn determinize<R: rand::Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Self {
        self.clone()
    }

    fn format_action(&self, action: &u8) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<u8, ParseError> {
        text.parse().map_err(|_| ParseError::new(text, "a number"))
    }
}

/// The lowest seat plays its first legal action.
struct First;

impl Policy<Coin> for First {
    fn choose<R: RngCore>(&mut self, state: &Coin, seat: Seat, _: &mut R) -> Option<u8> {
        let mut legal = Vec::new();
        state.legal_actions(seat, &mut legal);
        legal.first().copied()
    }
}

/// A policy that never has an action: a stalled seat is an error, not a silent wait.
struct Mute;

impl Policy<Coin> for Mute {
    fn choose<R: RngCore>(&mut self, _: &Coin, _: Seat, _: &mut R) -> Option<u8> {
        None
    }
}

#[test]
fn steps_go_seat_by_seat_then_chance_then_stop() {
    let mut state = Coin::new(&(), 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut driver = Driver::trusted();
    let mut policy = First;
    let mut steps = Vec::new();
    loop {
        let step = driver.step(&mut state, &mut rng, &mut policy).unwrap();
        if step == Step::Over {
            break;
        }
        steps.push(step);
    }
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert!(matches!(steps[0], Step::Seat { seat: Seat(0), .. }));
    assert!(matches!(steps[1], Step::Seat { seat: Seat(1), .. }));
    let Step::Chance { index, action } = steps[2] else {
        panic!("{steps:?}")
    };
    assert_eq!(driver.outcomes()[index].0, action);
    assert_eq!(Game::outcome(&state).unwrap().winners().len(), 1);
}

#[test]
fn random_steps_play_to_the_end_then_stop() {
    let mut state = Coin::new(&(), 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut driver, mut legal) = (Driver::trusted(), Vec::new());
    let mut steps = 0;
    while driver.random_step(&mut state, &mut legal, &mut rng) {
        steps += 1;
    }
    assert_eq!(steps, 3);
    assert!(Game::outcome(&state).is_some());
}

#[test]
fn a_seat_without_an_action_and_a_refusal_are_errors_that_change_nothing() {
    let mut state = Coin::new(&(), 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut driver = Driver::checked();
    let err = driver.step(&mut state, &mut rng, &mut Mute).unwrap_err();
    assert_eq!(err, StepError::NoAction { seat: Seat(0) });
    assert_eq!(err.code(), "game/no_action");
    let err = driver.play(&mut state, Seat(1), &7).unwrap_err();
    assert!(err.to_string().starts_with("seat 2 played `7`: "), "{err}");
    assert_eq!(err.code(), "action/illegal");
    assert_eq!(state.marked, [false, false]);
}

#[test]
fn text_states_step_through_the_same_driver() {
    let mut state: Box<dyn DynGame> = Box::new(Coin::new(&(), 2).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut driver = Driver::checked();
    assert_eq!(
        driver.next(&*state, |_, seats| seats.iter().last()),
        Next::Seat(Seat(1))
    );
    driver.play(&mut *state, Seat(1), &"2".to_owned()).unwrap();
    driver.play(&mut *state, Seat(0), &"1".to_owned()).unwrap();
    assert_eq!(driver.next(&*state, |_, s| s.iter().next()), Next::Chance);
    let (index, text) = driver.draw(&mut *state, &mut rng).unwrap();
    assert_eq!(text, index.to_string());
    assert_eq!(driver.next(&*state, |_, s| s.iter().next()), Next::Over);
}
