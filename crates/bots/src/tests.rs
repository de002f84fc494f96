//! Tests of the search on tiny games whose best moves are known by hand: Nim (perfect information,
//! 2 or 3 seats), a chance game where only the expectation tells the moves apart, a three-seat game
//! where max^n differs from the other ways of valuing a move, and a hidden-card guessing game with
//! a simultaneous round (for information-set search and the anti-cheat test).

use plateau_engine::{
    Actor, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat, SeatSet, SetupError, ToAct,
    Viewer,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::{Bot, BotFactory, BotSpec, Budget, Mcts, SearchConfig, greedy_action};

/// Checks `actor` may act and `action` is listed, then plays it with `step`.
fn checked<G: Game>(
    state: &mut G,
    actor: Actor,
    action: &G::Action,
    step: impl FnOnce(&mut G),
) -> Result<(), IllegalAction> {
    if !state.to_act().allows(actor) {
        return Err(IllegalAction::NotToAct { actor });
    }
    let listed = match actor {
        Actor::Chance => {
            let mut o = Vec::new();
            state.chance_outcomes(&mut o);
            o.iter().any(|(a, _)| a == action)
        }
        Actor::Seat(s) => {
            let mut l = Vec::new();
            state.legal_actions(s, &mut l);
            l.contains(action)
        }
    };
    if !listed {
        return Err(IllegalAction::rule(format!("{action:?} is not legal")));
    }
    step(state);
    Ok(())
}

/// Boilerplate shared by the tiny games: positions and actions as JSON.
macro_rules! json_notation {
    () => {
        fn parse_position(_: &(), text: &str) -> Result<Self, SetupError> {
            serde_json::from_str(text).map_err(|e| SetupError::position(text, e.to_string()))
        }
        fn format_position(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
        fn format_action(&self, action: &Self::Action) -> String {
            serde_json::to_string(action).unwrap()
        }
        fn parse_action(&self, text: &str) -> Result<Self::Action, ParseError> {
            serde_json::from_str(text).map_err(|e| ParseError::new(text, e.to_string()))
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Nim: seats take 1 to 3 stones in turn; whoever takes the last stone wins.

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
struct Nim {
    pile: u8,
    seats: u8,
    next: u8,
    winner: Option<u8>,
}

impl Nim {
    fn with_pile(pile: u8, seats: u8) -> Nim {
        Nim {
            pile,
            seats,
            next: 0,
            winner: None,
        }
    }
}

impl Game for Nim {
    type Action = u8;
    type Observation = Nim;
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "nim",
        title: "Nim",
        min_seats: 2,
        max_seats: 3,
        default_seats: 2,
        chance: false,
        hidden_information: false,
        simultaneous: false,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Nim::with_pile(10, seats as u8))
    }
    json_notation!();
    fn seats(&self) -> usize {
        self.seats as usize
    }
    fn to_act(&self) -> ToAct {
        match self.winner {
            Some(_) => ToAct::Terminal,
            None => ToAct::Player(Seat(self.next)),
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            out.extend((1..=3).filter(|t| *t <= self.pile));
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, actor: Actor, action: &u8) -> Result<(), IllegalAction> {
        let take = *action;
        checked(self, actor, action, |s| {
            s.pile -= take;
            if s.pile == 0 {
                s.winner = Some(s.next);
            }
            s.next = (s.next + 1) % s.seats;
        })
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner
            .map(|w| Outcome::single_winner(self.seats(), Seat(w), "last stone"))
    }
    fn observe(&self, _: Viewer) -> Nim {
        self.clone()
    }
    fn determinize<R: Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Gamble: seat 0 picks Bold (wins with probability 0.1, two outcomes) or Safe (wins with
// probability 0.4, three outcomes); seat 1 wins otherwise. Sampling outcomes uniformly would rate
// Bold 1/2 and Safe 1/3; only their probabilities make Safe the better move.

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
enum Bet {
    Bold,
    Safe,
    /// A chance outcome: face 0 wins for seat 0, the others lose.
    Face(u8),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Gamble {
    bet: Option<Bet>,
    face: Option<u8>,
}

impl Game for Gamble {
    type Action = Bet;
    type Observation = ();
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "gamble",
        title: "Gamble",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: false,
        simultaneous: false,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Gamble {
            bet: None,
            face: None,
        })
    }
    json_notation!();
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        match (self.bet, self.face) {
            (None, _) => ToAct::Player(Seat(0)),
            (Some(_), None) => ToAct::Chance,
            _ => ToAct::Terminal,
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Bet>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            out.extend([Bet::Bold, Bet::Safe]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(Bet, f64)>) {
        out.clear();
        if self.to_act() == ToAct::Chance {
            match self.bet {
                Some(Bet::Bold) => out.extend([(Bet::Face(0), 0.1), (Bet::Face(1), 0.9)]),
                _ => out.extend([
                    (Bet::Face(0), 0.4),
                    (Bet::Face(1), 0.3),
                    (Bet::Face(2), 0.3),
                ]),
            }
        }
    }
    fn apply(&mut self, actor: Actor, action: &Bet) -> Result<(), IllegalAction> {
        let a = *action;
        checked(self, actor, action, |s| match a {
            Bet::Face(f) => s.face = Some(f),
            bet => s.bet = Some(bet),
        })
    }
    fn outcome(&self) -> Option<Outcome> {
        let winner = if self.face? == 0 { 0 } else { 1 };
        Some(Outcome::single_winner(2, Seat(winner), "face"))
    }
    fn observe(&self, _: Viewer) {}
    fn determinize<R: Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Kingmaker: three seats; seat 0 picks 0 or 1, then seat 1 picks 0 or 1, and the scores follow
// SCORES. After 0, seat 1 prefers 1 (utilities 0.5 / 1 for seat 1), leaving seat 0 with 0.5;
// after 1, seat 1 prefers 0 (0.75 / 0.5), leaving seat 0 with 0.75. So under max^n seat 0 plays 1,
// while averaging seat 1's replies (0.75 vs 0.375) or assuming seat 1 helps (1 vs 0.75) says 0.

const SCORES: [[[f64; 3]; 2]; 2] = [
    [[3.0, 2.0, 1.0], [2.0, 3.0, 1.0]],
    [[3.0, 3.0, 1.0], [1.0, 2.0, 3.0]],
];

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Kingmaker {
    moves: Vec<u8>,
}

impl Game for Kingmaker {
    type Action = u8;
    type Observation = Vec<u8>;
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "kingmaker",
        title: "Kingmaker",
        min_seats: 3,
        max_seats: 3,
        default_seats: 3,
        chance: false,
        hidden_information: false,
        simultaneous: false,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Kingmaker { moves: Vec::new() })
    }
    json_notation!();
    fn seats(&self) -> usize {
        3
    }
    fn to_act(&self) -> ToAct {
        match self.moves.len() {
            n @ (0 | 1) => ToAct::Player(Seat(n as u8)),
            _ => ToAct::Terminal,
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.to_act() == ToAct::Player(seat) {
            out.extend([0, 1]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, actor: Actor, action: &u8) -> Result<(), IllegalAction> {
        let a = *action;
        checked(self, actor, action, |s| s.moves.push(a))
    }
    fn outcome(&self) -> Option<Outcome> {
        let (&a, &b) = (self.moves.first()?, self.moves.get(1)?);
        Some(Outcome::ranked_by_score(
            SCORES[a as usize][b as usize].to_vec(),
            "score",
        ))
    }
    fn observe(&self, _: Viewer) -> Vec<u8> {
        self.moves.clone()
    }
    fn determinize<R: Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Self {
        self.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Secret: chance deals seat 1 a hidden card (0, 1 or 2 with probabilities 0.5, 0.3, 0.2); then in
// a simultaneous round seat 0 guesses the card and seat 1 secretly names a number. Seat 0 wins on
// a right guess. Knowing only its observation, seat 0's best guess is 0; a bot that peeked would
// guess the true card. `HIDDEN = false` is the same game declared with perfect information, which
// the search then copies instead of determinizing: the control that shows the anti-cheat test can
// fail.

const CARD_ODDS: [f64; 3] = [0.5, 0.3, 0.2];

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Secret<const HIDDEN: bool> {
    card: Option<u8>,
    guess: Option<u8>,
    named: Option<u8>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
struct SecretView {
    dealt: bool,
    card: Option<u8>,
    mine: Option<u8>,
    other_done: bool,
}

impl<const HIDDEN: bool> Secret<HIDDEN> {
    fn dealt(card: u8) -> Self {
        Secret {
            card: Some(card),
            guess: None,
            named: None,
        }
    }
}

impl<const HIDDEN: bool> Game for Secret<HIDDEN> {
    type Action = u8;
    type Observation = SecretView;
    type Config = ();
    const INFO: GameInfo = GameInfo {
        name: "secret",
        title: "Secret",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: true,
        hidden_information: HIDDEN,
        simultaneous: true,
    };

    fn new(_: &(), seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        Ok(Secret {
            card: None,
            guess: None,
            named: None,
        })
    }
    json_notation!();
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        if self.card.is_none() {
            return ToAct::Chance;
        }
        let mut set = SeatSet::EMPTY;
        if self.guess.is_none() {
            set = set.with(Seat(0));
        }
        if self.named.is_none() {
            set = set.with(Seat(1));
        }
        if set.is_empty() {
            ToAct::Terminal
        } else {
            ToAct::Simultaneous(set)
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.to_act().allows(Actor::Seat(seat)) {
            out.extend([0, 1, 2]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if self.card.is_none() {
            out.extend((0..3).map(|c| (c, CARD_ODDS[c as usize])));
        }
    }
    fn apply(&mut self, actor: Actor, action: &u8) -> Result<(), IllegalAction> {
        let a = *action;
        checked(self, actor, action, |s| match actor {
            Actor::Chance => s.card = Some(a),
            Actor::Seat(Seat(0)) => s.guess = Some(a),
            Actor::Seat(_) => s.named = Some(a),
        })
    }
    fn outcome(&self) -> Option<Outcome> {
        let right = self.guess? == self.card?;
        self.named?;
        Some(Outcome::single_winner(
            2,
            Seat(if right { 0 } else { 1 }),
            "guess",
        ))
    }
    fn observe(&self, viewer: Viewer) -> SecretView {
        let me = match viewer {
            Viewer::Seat(s) => Some(s.0),
            Viewer::Spectator => None,
        };
        SecretView {
            dealt: self.card.is_some(),
            card: if me == Some(1) { self.card } else { None },
            mine: match me {
                Some(0) => self.guess,
                Some(_) => self.named,
                None => None,
            },
            other_done: match me {
                Some(0) => self.named.is_some(),
                Some(_) => self.guess.is_some(),
                None => false,
            },
        }
    }
    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self {
        let mut s = self.clone();
        if viewer == Seat(0) {
            if s.card.is_some() {
                let i = plateau_engine::chance::sample(
                    &[(0, CARD_ODDS[0]), (1, CARD_ODDS[1]), (2, CARD_ODDS[2])],
                    rng,
                );
                s.card = Some(i as u8);
            }
            if s.named.is_some() {
                s.named = Some(rng.random_range(0..3));
            }
        } else if s.guess.is_some() {
            s.guess = Some(rng.random_range(0..3));
        }
        s
    }
}

// ---------------------------------------------------------------------------------------------

fn iterations(n: u64) -> SearchConfig {
    SearchConfig::with_budget(Budget::Iterations(n))
}

#[test]
fn nim_search_finds_the_take_that_leaves_a_multiple_of_four() {
    // With two seats, leaving a multiple of 4 wins: from 10 take 2, from 7 take 3, from 5 take 1.
    for (pile, best) in [(10, 2), (7, 3), (5, 1), (3, 3)] {
        for seed in 0..3 {
            let mut mcts = Mcts::new(iterations(3000), seed);
            let got = mcts.choose(&Nim::with_pile(pile, 2), Seat(0));
            assert_eq!(got, Some(best), "pile {pile}, seed {seed}");
        }
    }
}

#[test]
fn nim_three_seats_each_maximises_its_own_result() {
    // With three seats the best take is less obvious; an exhaustive max^n search gives the
    // reference, and every pile where one take is strictly best must be found.
    // Exhaustive max^n; a mover indifferent between several takes picks one of them at random, so
    // their values are averaged (a sampling search sees the same average).
    fn maxn(state: &Nim) -> Vec<f64> {
        if let Some(o) = state.outcome() {
            return Seat::all(3).map(|s| o.utility(s)).collect();
        }
        let mover = state.next as usize;
        let children: Vec<Vec<f64>> = (1..=3.min(state.pile))
            .map(|take| {
                let mut next = state.clone();
                next.apply(Actor::Seat(Seat(state.next)), &take).unwrap();
                maxn(&next)
            })
            .collect();
        let top = children.iter().map(|v| v[mover]).fold(f64::MIN, f64::max);
        let best: Vec<&Vec<f64>> = children.iter().filter(|v| v[mover] == top).collect();
        (0..3)
            .map(|s| best.iter().map(|v| v[s]).sum::<f64>() / best.len() as f64)
            .collect()
    }
    let mut checked_piles = 0;
    for pile in 4..=9u8 {
        let state = Nim::with_pile(pile, 3);
        let values: Vec<(u8, f64)> = (1..=3u8)
            .map(|take| {
                let mut next = state.clone();
                next.apply(Actor::Seat(Seat(0)), &take).unwrap();
                (take, maxn(&next)[0])
            })
            .collect();
        let top = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        let winners: Vec<u8> = values
            .iter()
            .filter(|v| v.1 > top - 0.1)
            .map(|v| v.0)
            .collect();
        if winners.len() != 1 {
            continue; // no take clearly best: nothing sharp to check
        }
        checked_piles += 1;
        let mut mcts = Mcts::new(iterations(4000), 11);
        let got = mcts.choose(&state, Seat(0)).unwrap();
        assert_eq!(got, winners[0], "pile {pile}: max^n values {values:?}");
    }
    assert!(checked_piles >= 2, "too few piles with one best take");
}

#[test]
fn chance_outcomes_are_weighed_by_their_probabilities() {
    let mut mcts = Mcts::new(iterations(4000), 5);
    let state = Gamble::new(&(), 2).unwrap();
    assert_eq!(mcts.choose(&state, Seat(0)), Some(Bet::Safe));
    for child in mcts.root_children() {
        let expected = if child.action == Bet::Safe { 0.4 } else { 0.1 };
        // Safe gets most of the visits; Bold enough to estimate 0.1 within a few standard errors.
        let tolerance = 4.0 * (expected * (1.0 - expected) / f64::from(child.visits)).sqrt();
        assert!(
            (child.mean - expected).abs() < tolerance + 0.01,
            "{:?}: mean {} over {} visits, expected {expected}",
            child.action,
            child.mean,
            child.visits
        );
    }
}

#[test]
fn every_seat_maximises_its_own_utility() {
    for seed in 0..4 {
        let mut mcts = Mcts::new(iterations(2000), seed);
        let state = Kingmaker::new(&(), 3).unwrap();
        assert_eq!(mcts.choose(&state, Seat(0)), Some(1), "seed {seed}");
        let values: Vec<(u8, f64)> = mcts
            .root_children()
            .iter()
            .map(|c| (c.action, c.mean))
            .collect();
        let of = |a: u8| values.iter().find(|v| v.0 == a).unwrap().1;
        assert!((of(1) - 0.75).abs() < 0.05, "{values:?}");
        assert!((of(0) - 0.5).abs() < 0.1, "{values:?}");
    }
}

#[test]
fn same_seed_and_iterations_give_the_same_search() {
    // From a pile of 8 every take loses against best play, so the choice rests on noise alone.
    let state = Nim::with_pile(8, 2);
    let run = |seed| {
        let mut mcts = Mcts::new(iterations(300), seed);
        let action = mcts.choose(&state, Seat(0));
        let visits: Vec<(u8, u32)> = mcts
            .root_children()
            .iter()
            .map(|c| (c.action, c.visits))
            .collect();
        (action, visits, mcts.stats().nodes)
    };
    for seed in 0..5 {
        assert_eq!(run(seed), run(seed), "seed {seed}");
    }
    // The seed does matter: not all seeds give the same visit counts.
    let distinct: std::collections::HashSet<_> = (0..5).map(|s| run(s).1).collect();
    assert!(distinct.len() > 1);
}

#[test]
fn the_tree_is_kept_across_moves() {
    let mut state = Nim::with_pile(13, 2);
    let mut mcts = Mcts::new(iterations(5000), 3);
    let first = mcts.choose(&state, Seat(0)).unwrap();
    assert_eq!(first, 1, "13 leaves 12 after taking 1");
    assert_eq!(mcts.stats().reused, 0);
    state.apply(Actor::Seat(Seat(0)), &first).unwrap();
    state.apply(Actor::Seat(Seat(1)), &2).unwrap();
    let second = mcts.choose(&state, Seat(0)).unwrap();
    assert_eq!(second, 2, "10 leaves 8 after taking 2");
    let stats = mcts.stats();
    assert!(stats.reused > 1, "{stats:?}");
    assert!(stats.nodes > stats.reused, "{stats:?}");
    // A position the tree cannot hold (a bigger pile) starts afresh.
    let third = mcts.choose(&Nim::with_pile(11, 2), Seat(0)).unwrap();
    assert_eq!(third, 3);
    assert_eq!(mcts.stats().reused, 0);
}

#[test]
fn a_time_budget_stops() {
    // How strong 20 ms is depends on the machine; what is checked is that the search runs until
    // its budget is spent and then stops. How many iterations fit in it is not: a thread
    // descheduled for 20 ms during its first iteration (a busy machine) searches only that one.
    let mut mcts = Mcts::new(SearchConfig::with_budget(Budget::Millis(20)), 1);
    let take = mcts.choose(&Nim::with_pile(30, 2), Seat(0)).unwrap();
    assert!((1..=3).contains(&take));
    let stats = mcts.stats();
    assert!(stats.iterations >= 1, "{stats:?}");
    assert!(
        stats.elapsed >= std::time::Duration::from_millis(20),
        "{stats:?}"
    );
    // Iterations of microseconds: stopped at once past the budget, a minute is generous.
    assert!(
        stats.elapsed < std::time::Duration::from_secs(60),
        "{stats:?}"
    );
}

#[test]
fn the_search_does_not_peek_at_hidden_state() {
    // Same observation for seat 0 (the card is hidden; seat 1 has or has not named a number),
    // different hidden card and number, same seed: the same action, the prior's best guess (0).
    for named in [None, Some(0), Some(2)] {
        let mut chosen = Vec::new();
        for card in 0..3 {
            let mut state = Secret::<true>::dealt(card);
            if let Some(n) = named {
                state.named = Some((n + card) % 3);
            }
            let mut mcts = Mcts::new(iterations(3000), 42);
            chosen.push(mcts.choose(&state, Seat(0)).unwrap());
        }
        let first = Secret::<true>::dealt(0).observe(Viewer::Seat(Seat(0)));
        assert_eq!(
            Secret::<true>::dealt(2).observe(Viewer::Seat(Seat(0))),
            first
        );
        assert_eq!(chosen, vec![0, 0, 0], "seat 1 named {named:?}");
    }
    // Control: declared as perfect information, the same search reads the card and guesses it.
    let peeked: Vec<u8> = (0..3)
        .map(|card| {
            let mut mcts = Mcts::new(iterations(3000), 42);
            mcts.choose(&Secret::<false>::dealt(card), Seat(0)).unwrap()
        })
        .collect();
    assert_eq!(peeked, vec![0, 1, 2]);
}

#[test]
fn the_greedy_bot_takes_an_immediate_win() {
    // Ten tie-breaking draws from one seeded generator: the win is taken whatever they are.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..10 {
        let got = greedy_action(
            &Nim::with_pile(3, 2),
            Seat(0),
            &crate::NoEvaluator,
            &mut rng,
        );
        assert_eq!(got, Some(3));
    }
}

/// Nim's theory as an evaluation (two seats): the seat to move loses exactly when the pile is a
/// multiple of 4.
struct NimTheory;

impl crate::Evaluator<Nim> for NimTheory {
    fn evaluate(&self, state: &Nim, out: &mut [f64]) {
        let mover_wins = !state.pile.is_multiple_of(4);
        out.fill(if mover_wins { 0.0 } else { 1.0 });
        out[usize::from(state.next)] = if mover_wins { 1.0 } else { 0.0 };
    }

    fn playout_cutoff(&self) -> Option<usize> {
        Some(0)
    }

    fn exploration(&self) -> Option<f64> {
        Some(0.2)
    }
}

#[test]
fn an_evaluation_guides_greedy_and_sets_the_search() {
    // From 10 stones, only taking 2 leaves the opponent a multiple of 4.
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for _ in 0..10 {
        let got = greedy_action(&Nim::with_pile(10, 2), Seat(0), &NimTheory, &mut rng);
        assert_eq!(got, Some(2));
    }
    let mut mcts = Mcts::with_evaluator(iterations(30), 4, NimTheory);
    assert_eq!(mcts.config().max_playout, 0);
    assert_eq!(mcts.config().exploration, 0.2);
    assert_eq!(mcts.choose(&Nim::with_pile(10, 2), Seat(0)), Some(2));
    // Without the hooks the configuration stays as given.
    let plain = Mcts::<Nim>::new(iterations(30), 4);
    assert_eq!(plain.config().exploration, iterations(30).exploration);
}

/// Records the pile and the seat to move of every state the search evaluates; its cut-off of two
/// actions counts from the root or from the leaf.
struct DepthProbe {
    from_root: bool,
    seen: std::sync::Arc<std::sync::Mutex<Vec<(u8, u8)>>>,
}

impl crate::Evaluator<Nim> for DepthProbe {
    fn evaluate(&self, state: &Nim, out: &mut [f64]) {
        self.seen.lock().unwrap().push((state.pile, state.next));
        out.fill(0.5);
    }

    fn playout_cutoff(&self) -> Option<usize> {
        Some(2)
    }

    fn cutoff_from_root(&self) -> bool {
        self.from_root
    }
}

#[test]
fn a_cutoff_from_the_root_values_every_iteration_two_actions_deep() {
    for from_root in [true, false] {
        let seen = std::sync::Arc::default();
        let probe = DepthProbe {
            from_root,
            seen: std::sync::Arc::clone(&seen),
        };
        let mut mcts = Mcts::with_evaluator(iterations(500), 9, probe);
        mcts.choose(&Nim::with_pile(40, 2), Seat(0)).unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 500);
        // Two takes of 1 to 3 stones from 40, and seat 0 to move again.
        let two_deep = seen
            .iter()
            .filter(|&&(pile, next)| (34..=38).contains(&pile) && next == 0)
            .count();
        let nodes = mcts.stats().nodes;
        if from_root {
            assert_eq!(two_deep, 500);
            // The root, its 3 takes and their 9 answers: the tree stops at the cut-off.
            assert_eq!(nodes, 13);
        } else {
            // From the leaf, the iterations through a deeper tree are valued later.
            assert!(two_deep < 500, "{two_deep}");
            assert!(nodes > 13, "{nodes}");
        }
    }
}

#[test]
fn the_cut_spec_replaces_the_evaluators_cutoff() {
    // `mcts:i500:cut4` with the probe's cut-off of 2 from the root: every iteration is valued
    // after four takes of 1 to 3 stones from 40 (28 to 36 left, seat 0 to move again), the tree
    // four levels deep (1 + 3 + 9 + 27 + 81 nodes).
    let spec: BotSpec = "mcts:i500:cut4".parse().unwrap();
    let seen = std::sync::Arc::default();
    let probe = DepthProbe {
        from_root: true,
        seen: std::sync::Arc::clone(&seen),
    };
    let mut bot = Bot::<Nim, DepthProbe>::new(spec, 9, probe);
    bot.choose(&Nim::with_pile(40, 2), Seat(0)).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 500);
    let four_deep = seen
        .iter()
        .filter(|&&(pile, next)| (28..=36).contains(&pile) && next == 0)
        .count();
    assert_eq!(four_deep, 500);
    assert_eq!(bot.stats().nodes, 121);
    assert_eq!(spec.budget(), Some(Budget::Iterations(500)));
}

#[test]
fn the_worst_action_is_the_lowest_valued_and_ties_are_drawn() {
    // From 10 stones taking 2 wins (Nim's theory); taking 1 or 3 both lose, so the worst action is
    // either of those, drawn at random.
    let mut seen = Vec::new();
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let got = crate::worst_action(&Nim::with_pile(10, 2), Seat(0), &NimTheory, &mut rng);
        seen.push(got.unwrap());
    }
    assert!(!seen.contains(&2), "{seen:?}");
    assert!(seen.contains(&1) && seen.contains(&3), "{seen:?}");
    // An immediate win is the best action, so never the worst.
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let got = crate::worst_action(
        &Nim::with_pile(3, 2),
        Seat(0),
        &crate::NoEvaluator,
        &mut rng,
    );
    assert_ne!(got, Some(3));
}

#[test]
fn mixed_bots_play_their_share_of_greedy_and_worst_actions() {
    // From 10 stones the greedy action is 2 and the worst 1 or 3; a random action is 2 one time in
    // three. So `greedy:50` takes 2 at 1/2 + 1/2 x 1/3 = 2/3 of its first decisions, and
    // `blunder:50` at 1/2 x 1/3 = 1/6, over 600 seeds (each a fixed draw).
    let share_of_two = |spec: BotSpec| {
        let twos = (0..600)
            .filter(|&seed| {
                let mut bot = Bot::<Nim, NimTheory>::new(spec, seed, NimTheory);
                bot.choose(&Nim::with_pile(10, 2), Seat(0)) == Some(2)
            })
            .count();
        twos as f64 / 600.0
    };
    let greedy = share_of_two(BotSpec::EpsilonGreedy { greedy_percent: 50 });
    assert!(
        (0.60..0.73).contains(&greedy),
        "greedy:50 took 2 at {greedy}"
    );
    let blunder = share_of_two(BotSpec::Blunder {
        blunder_percent: 50,
    });
    assert!(
        (0.11..0.23).contains(&blunder),
        "blunder:50 took 2 at {blunder}"
    );
}

#[test]
fn bots_behind_the_factory_speak_canonical_text() {
    let factory = BotFactory::of::<Nim>();
    assert_eq!(factory.game(), "nim");
    let mut bot = factory.make(BotSpec::Mcts(Budget::Iterations(2000)), 9);
    assert_eq!(bot.act(&Nim::with_pile(10, 2), Seat(0)).as_deref(), Ok("2"));
    assert_eq!(bot.stats().iterations, 2000);
    // Another game's state is not this bot's business: an error with a code, not a silent
    // "no action" that would stall a match.
    let err = bot.act(&Gamble::new(&(), 2).unwrap(), Seat(0)).unwrap_err();
    assert_eq!(
        err,
        crate::BotError::WrongGame {
            bot: "nim",
            state: "gamble"
        }
    );
    assert_eq!(err.code(), "bot/wrong_game");
    assert_eq!(
        bot.act(&Nim::with_pile(10, 2), Seat(1)).unwrap_err().code(),
        "bot/no_action"
    );
    let mut random = Bot::<Nim>::new(BotSpec::Random, 1, crate::NoEvaluator);
    let take = random.choose(&Nim::with_pile(2, 2), Seat(0)).unwrap();
    assert!((1..=2).contains(&take));
    assert_eq!(random.choose(&Nim::with_pile(2, 2), Seat(1)), None);
}

/// The second opinion keeps the lower confidence bound of its judges' mean gain: all of it where
/// they agree, less where a move is found by some judges only, nothing where few find it.
#[test]
fn the_second_opinion_keeps_what_its_judges_agree_on() {
    use crate::analysis::lower_bound;
    assert!((lower_bound(&[0.25; 8]) - 0.25).abs() < 1e-12);
    // Half the judges find a move 0.3 better: mean 0.15, standard deviation 0.1604 (n - 1 = 7),
    // standard error 0.0567, less 1.895 of it.
    let half = [0.3, 0.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0];
    assert!(
        (lower_bound(&half) - 0.0425).abs() < 1e-4,
        "{}",
        lower_bound(&half)
    );
    // One judge in eight: the bound is below 0, so nothing.
    assert_eq!(lower_bound(&[0.3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]), 0.0);
}

/// The second opinion (`analysis`, "The second opinion"), asked here at every decision (from a
/// loss of 0): Nim's losing take from 10 is still charged what the winning take gains, the
/// winning take nothing, and the values it gives agree with the loss.
#[test]
fn the_second_opinion_charges_the_losing_take_and_not_the_winning_one() {
    let state = Nim::with_pile(10, 2);
    let judge = |take: u8, recheck: f64| {
        crate::judge_decision(
            &state,
            Seat(0),
            &take,
            Budget::Iterations(3000),
            recheck,
            7,
            &crate::NoEvaluator,
        )
        .unwrap()
    };
    let alone = judge(1, f64::INFINITY).judgement;
    let asked = judge(1, 0.0);
    let j = &asked.judgement;
    assert!(j.loss > 0.3 && alone.loss > 0.3, "{j:?} {alone:?}");
    assert_eq!(j.best, "2");
    assert!((j.before - j.played - j.loss).abs() < 1e-12);
    assert_eq!((asked.before[0], asked.after[0]), (j.before, j.played));
    for values in [&asked.before, &asked.after] {
        assert!((values[0] + values[1] - 1.0).abs() < 1e-9, "{values:?}");
    }
    // Every judge's choice, the winning take, gains nothing over itself.
    let winning = judge(2, 0.0).judgement;
    assert_eq!((winning.loss, winning.best.as_str()), (0.0, "2"));
    // A take that is not legal is not judged.
    assert_eq!(
        crate::judge_decision(
            &state,
            Seat(0),
            &4,
            Budget::Iterations(30),
            0.0,
            7,
            &crate::NoEvaluator
        ),
        None
    );
}

#[test]
fn the_analysis_finds_the_losing_take_and_ends_on_the_outcome() {
    use plateau_engine::{LogEntry, Record, chance::Seed};
    // Nim from 10: seat 1 takes 1 where taking 2 (leaving 8, a multiple of 4) wins; from then on
    // seat 2 leaves multiples of 4 and takes the last stone.
    let mut record = Record::new(
        "nim",
        serde_json::Value::Null,
        vec!["a".into(), "b".into()],
        &Seed::from_u64(1),
    );
    for (seat, take) in [(0u8, 1u8), (1, 1), (0, 1), (1, 3), (0, 1), (1, 3)] {
        record.log.push(LogEntry::action(
            Actor::Seat(Seat(seat)),
            take.to_string(),
            None,
        ));
    }
    let options = crate::AnalysisOptions {
        judge: Budget::Iterations(3000),
        ..crate::AnalysisOptions::default()
    };
    let mut calls = Vec::new();
    let a = crate::analyse::<Nim, _>(&record, &options, &crate::NoEvaluator, &mut |d, t| {
        calls.push((d, t))
    })
    .unwrap();
    assert_eq!(calls.first(), Some(&(0, 6)));
    assert_eq!(calls.last(), Some(&(6, 6)));
    assert_eq!(a.plies.len(), 6);
    // The blunder is the first ply and the biggest loss, by seat 1; the judge takes 2.
    let blunder = &a.plies[0];
    let j = blunder.judgement.as_ref().unwrap();
    assert!(j.loss > 0.3, "{j:?}");
    assert_eq!(j.best, "2");
    // Its parts, as the seat's legal list gave them (Nim has the default `action_info`).
    assert_eq!(j.best_info, Some(serde_json::json!({"kind": "action"})));
    assert_eq!(
        a.biggest_losses.first().map(|l| (l.index, l.seat)),
        Some((1, 0))
    );
    // Seat 2's book replies lose nothing; seat 1's takes from 8 and 4 lose nothing more.
    for p in &a.plies[1..] {
        assert!(p.judgement.as_ref().unwrap().loss < 0.1, "{p:?}");
    }
    // Seat 2 took the last stone: the curve ends on the outcome.
    assert_eq!(a.plies.last().unwrap().values, vec![0.0, 1.0]);
    // A record of another game, or with an illegal take, is refused with its place.
    let mut bad = record.clone();
    bad.log[2] = LogEntry::action(Actor::Seat(Seat(0)), "4", None);
    let err =
        crate::analyse::<Nim, _>(&bad, &options, &crate::NoEvaluator, &mut |_, _| {}).unwrap_err();
    assert!(
        err.to_string().starts_with("action 3 (`4` by seat 1)"),
        "{err}"
    );
    bad.game = "mad".into();
    assert!(crate::analyse::<Nim, _>(&bad, &options, &crate::NoEvaluator, &mut |_, _| {}).is_err());
}
