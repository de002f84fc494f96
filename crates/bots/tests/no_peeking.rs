//! The anti-cheat test on the real hidden-information games (docs/architecture.md section 6): a bot's action is a function
//! of its observation and its seed only. Along seeded random games, at each checked decision of a
//! seat, a second state is drawn with `determinize` from that seat's point of view (same
//! observation, other hidden parts: the queen's square in Chakart, the other boards in Bataille
//! Navale); the search with the same seed must choose the same action in both. For Chakart the
//! registry's bots, which search with the game's evaluation, and its greedy bot are checked too.

use plateau_bots::{Budget, Mcts, SearchConfig};
use plateau_engine::{Actor, Game, ToAct, Viewer, chance};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Searches on at most this many states with hidden differences per test.
const MAX_DIFFERING: usize = 12;

/// Plays `games` random games of `G` and checks every `every`-th decision, with the plain search
/// and, when `registered`, the registry's `mcts:i<iterations>`, `mcts:i1`, `greedy`, `greedy:50`
/// and `blunder:50` bots of `G` and the bots named in `levels` (lobby levels, so the check follows whatever bot a level
/// plays). Returns (decisions checked, of which the two states differed in hidden parts).
fn check<G: Game>(
    seats: usize,
    games: u64,
    every: usize,
    iterations: u64,
    registered: bool,
    levels: &[&str],
) -> (usize, usize) {
    let (mut checked, mut differed) = (0, 0);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for game in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(game);
        let mut state = G::new(&G::Config::default(), seats).expect("default setup");
        let mut decision = 0;
        loop {
            let seat = match state.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    let i = chance::sample(&outcomes, &mut rng);
                    state.apply_legal(Actor::Chance, &outcomes[i].0);
                    continue;
                }
                ToAct::Player(s) => s,
                ToAct::Simultaneous(set) => set.iter().next().expect("a seat"),
            };
            decision += 1;
            // Every decision is determinized; the search runs where the hidden parts differ (the
            // cases that matter) and on every `every`-th decision besides.
            let other = state.determinize(seat, &mut rng);
            assert_eq!(
                other.observe(Viewer::Seat(seat)),
                state.observe(Viewer::Seat(seat)),
                "determinize changed the observation"
            );
            let bytes = |s: &G| serde_json::to_string(s).expect("states serialize");
            let differs = bytes(&other) != bytes(&state);
            if (differs && differed < MAX_DIFFERING) || decision % every == 0 {
                let config = SearchConfig::with_budget(Budget::Iterations(iterations));
                let a = Mcts::<G>::new(config, 1234).choose(&state, seat);
                let b = Mcts::<G>::new(config, 1234).choose(&other, seat);
                assert_eq!(
                    a, b,
                    "game {game}, decision {decision}: the action depends on hidden state"
                );
                if registered {
                    // `mcts:i1` is the thorough policy alone (Bataille Navale's strongest bot).
                    let named = [
                        format!("mcts:i{iterations}"),
                        "mcts:i1".to_owned(),
                        "greedy".to_owned(),
                        "greedy:50".to_owned(),
                        "blunder:50".to_owned(),
                    ];
                    for spec in named
                        .into_iter()
                        .chain(levels.iter().map(|&l| l.to_owned()))
                    {
                        let spec = spec.parse().expect("a bot name");
                        let bot = || plateau_registry::new_bot(G::INFO.name, spec, 1234).unwrap();
                        assert_eq!(
                            bot().act(&state, seat),
                            bot().act(&other, seat),
                            "game {game}, decision {decision}: registered bot {spec} depends on \
                             hidden state"
                        );
                    }
                }
                checked += 1;
                differed += usize::from(differs);
            }
            state.legal_actions(seat, &mut legal);
            let i = rng.random_range(0..legal.len());
            state.apply_legal(Actor::Seat(seat), &legal[i]);
        }
    }
    (checked, differed)
}

#[test]
fn chakart_bots_see_only_their_observation() {
    let (checked, differed) = check::<plateau_chakart::Chakart>(2, 40, 25, 150, true, &[]);
    assert!(checked >= 20, "only {checked} decisions checked");
    // The test is only worth something where the queen could be elsewhere.
    assert!(
        differed >= 5,
        "only {differed} of {checked} checks had hidden differences"
    );
}

#[test]
fn naval_bots_see_only_their_observation() {
    // The plain search, and the registry's search (heuristic playouts, candidates, shared
    // determinizations), greedy bots (the targeting odds) and the five levels, whatever they play.
    let levels = ["beginner", "casual", "club", "strong", "expert"];
    let (checked, differed) = check::<plateau_naval::Naval>(4, 1, 60, 20, true, &levels);
    assert!(checked >= 5, "only {checked} decisions checked");
    assert!(
        differed >= 3,
        "only {differed} of {checked} checks had hidden differences"
    );
}

/// The analysis judges a Bataille Navale decision from the seat's information only: on two states
/// the seat cannot tell apart, the same judgement and the same values (docs/bots.md, "Analysis").
#[test]
fn naval_analysis_sees_only_the_seats_information() {
    use plateau_bots::judge_decision;
    use plateau_naval::Naval;
    use plateau_registry::evaluators::NavalEvaluation;

    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut state = Naval::new(&plateau_naval::Config::default(), 4).expect("default setup");
    let (mut judged, mut differed, mut decision) = (0, 0, 0);
    while let Some((actor, action)) = state.random_action(&mut rng) {
        if let Actor::Seat(seat) = actor
            && state.phase == plateau_naval::Phase::Battle
        {
            decision += 1;
            if decision % 97 == 0 {
                let other = state.determinize(seat, &mut rng);
                assert_eq!(
                    other.observe(Viewer::Seat(seat)),
                    state.observe(Viewer::Seat(seat))
                );
                let judge = |s: &Naval| {
                    judge_decision(
                        s,
                        seat,
                        &action,
                        Budget::Iterations(40),
                        5,
                        &NavalEvaluation,
                    )
                };
                assert_eq!(judge(&state), judge(&other), "decision {decision}");
                judged += 1;
                differed += usize::from(other != state);
            }
        }
        state.apply_legal(actor, &action);
    }
    assert!(judged >= 5, "only {judged} decisions judged");
    assert!(
        differed >= 3,
        "only {differed} judged states had hidden differences"
    );
}
