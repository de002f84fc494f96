//! The conformance kit every game runs in its tests (docs/architecture.md section 7):
//! seeded random playouts that check the `Game` contract at every step. Failures panic with the
//! seed, the action index and what broke, so a game crate's test is a few lines:
//!
//! ```ignore
//! let config = Config::default();
//! let report = plateau_testkit::check_playouts::<Mad>(&config, 2, &Options::new(1000, 600));
//! assert_eq!(report.games, 1000);
//! ```
//!
//! The games advance through the engine's driver (`plateau_engine::driver`), with a policy that picks a
//! random seat of the acting set and a random legal action, checking the list on the way.

mod secrecy;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Debug;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Serialize, de::DeserializeOwned};

pub use secrecy::{Leak, check_secrecy, compare_views};

use plateau_engine::driver::{Driver, Policy, Step};
use plateau_engine::error::SetupError;
use plateau_engine::game::{Ending, Game};
use plateau_engine::seat::{Actor, Seat, SeatSet, ToAct, Viewer};

/// How many games to play and what to check.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of random games.
    pub games: usize,
    /// First seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// The most actions (all actors, chance included) a game may take before it counts as endless.
    pub max_actions: usize,
    /// Run the costly checks (serde and notation round-trips, every listed action, secrecy) at
    /// every `deep_every`-th step (1 = every step).
    pub deep_every: usize,
    /// States drawn with `determinize` per seat at each deep step for the secrecy check.
    pub determinizations: usize,
}

impl Options {
    /// `games` games of at most `max_actions` actions each, deep checks at every step, four
    /// determinizations per seat.
    #[must_use]
    pub fn new(games: usize, max_actions: usize) -> Options {
        Options {
            games,
            seed: 0,
            max_actions,
            deep_every: 1,
            determinizations: 4,
        }
    }
}

/// What the playouts saw.
#[derive(Clone, Default, Debug)]
pub struct Report {
    /// Games played to the end.
    pub games: usize,
    /// Seat decisions, all games.
    pub decisions: usize,
    /// Chance outcomes drawn, all games.
    pub chance_events: usize,
    /// The longest game, in actions.
    pub longest: usize,
    /// How many games ended with each `Outcome::kind`.
    pub endings: BTreeMap<String, usize>,
    /// How many times each seat was ranked first.
    pub wins: Vec<usize>,
    /// Finished games (checked at a deep step) whose position text the game refused as
    /// impossible: their end shows on the board, so no game resumes from them.
    pub finished_texts_refused: usize,
}

/// Plays `options.games` random games from `G::new(config, seats)` and checks the contract at every
/// step (see the module doc).
///
/// # Panics
/// On the first breach of the contract, with the seed and action index.
pub fn check_playouts<G: Game>(config: &G::Config, seats: usize, options: &Options) -> Report {
    let start = G::new(config, seats).expect("the kit's config and seat count set up a game");
    check_playouts_from(config, &start, options)
}

/// As `check_playouts`, from a given state under `config` (the config its position text reads
/// back with).
///
/// # Panics
/// On the first breach of the contract, with the seed and action index.
pub fn check_playouts_from<G: Game>(config: &G::Config, start: &G, options: &Options) -> Report {
    let mut report = Report {
        wins: vec![0; start.seats()],
        ..Report::default()
    };
    // Actions seen anywhere; those not legal in a later state probe `apply`'s refusals.
    let mut seen = Seen::default();
    let mut driver = Driver::trusted();
    let mut outcomes = Vec::new();
    for game in 0..options.games {
        let seed = options.seed + game as u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = start.clone();
        let mut history: Vec<(Actor, G::Action)> = Vec::new();
        let mut step = 0usize;
        // The state's JSON, written once a step for every check that compares with it.
        let mut state_json = json(&state);
        loop {
            let ctx = Ctx { seed, step };
            let deep = step.is_multiple_of(options.deep_every.max(1));
            if deep && check_round_trips(&state, Some(&state_json), config, ctx) {
                report.finished_texts_refused += 1;
            }
            if deep {
                // Without hidden information `determinize` is a clone: one draw shows it.
                let draws = if G::INFO.hidden_information {
                    options.determinizations
                } else {
                    options.determinizations.min(1)
                };
                check_secrecy(&state, &mut rng, draws)
                    .unwrap_or_else(|leak| ctx.fail(&leak.to_string()));
            }
            match state.to_act() {
                ToAct::Terminal => {
                    check_terminal(&state, &mut report, ctx);
                    break;
                }
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    check_chance(&state, &state_json, &outcomes, ctx);
                    if deep {
                        let actions: Vec<G::Action> =
                            outcomes.iter().map(|(a, _)| a.clone()).collect();
                        check_entries(&state, Actor::Chance, &actions, ctx);
                    }
                    report.chance_events += 1;
                }
                to_act => {
                    assert!(
                        state.outcome().is_none(),
                        "{ctx}: outcome while the game runs"
                    );
                    if deep
                        && let Some(seat) =
                            Seat::all(state.seats()).find(|s| to_act.allows(Actor::Seat(*s)))
                    {
                        check_resign(&state, config, seat, ctx);
                    }
                }
            }
            let before = state.clone();
            let mut policy = KitPolicy {
                seen: &mut seen,
                state_json: &state_json,
                deep,
                ctx,
                decisions: &mut report.decisions,
            };
            let (actor, action) = match driver.step(&mut state, &mut rng, &mut policy) {
                Ok(Step::Chance { action, .. }) => (Actor::Chance, action),
                Ok(Step::Seat { seat, action }) => (Actor::Seat(seat), action),
                Ok(Step::Over) => ctx.fail("the driver found the game over, `to_act` did not"),
                Err(e) => ctx.fail(&e.to_string()),
            };
            let mut checked = before;
            checked
                .apply(actor, &action)
                .unwrap_or_else(|e| ctx.fail(&format!("listed action {action:?} refused: {e}")));
            state_json = json(&state);
            assert_json(&checked, &state_json, ctx, "apply and apply_legal disagree");
            history.push((actor, action));
            step += 1;
            assert!(
                step <= options.max_actions,
                "seed {seed}: game still running after {step} actions (bound {})",
                options.max_actions
            );
        }
        // Clones replay identically: the same actions from the start give the same final state.
        let mut replayed = start.clone();
        for (actor, action) in &history {
            replayed.apply(*actor, action).unwrap_or_else(|e| {
                panic!("seed {seed}: replaying {action:?} from a clone of the start failed: {e}")
            });
        }
        assert_same(
            &replayed,
            &state,
            Ctx { seed, step },
            "replay from a clone differs",
        );
        report.games += 1;
        report.longest = report.longest.max(history.len());
    }
    report
}

/// Actions seen so far (at most 4096), to probe refusals with.
struct Seen<A> {
    list: Vec<A>,
    set: HashSet<A>,
}

impl<A> Default for Seen<A> {
    fn default() -> Self {
        Seen {
            list: Vec::new(),
            set: HashSet::new(),
        }
    }
}

/// The kit's seats: a random seat of the acting set plays a random legal action, after the
/// checks of the legal list.
struct KitPolicy<'a, A> {
    seen: &'a mut Seen<A>,
    /// The JSON of the state the policy is asked about.
    state_json: &'a str,
    deep: bool,
    ctx: Ctx,
    decisions: &'a mut usize,
}

impl<G: Game> Policy<G> for KitPolicy<'_, G::Action> {
    fn pick<R: RngCore>(&mut self, _: &G, seats: SeatSet, rng: &mut R) -> Seat {
        let seats: Vec<Seat> = seats.iter().collect();
        assert!(!seats.is_empty(), "{}: seat node with no seat", self.ctx);
        seats[rng.random_range(0..seats.len())]
    }

    fn choose<R: RngCore>(&mut self, state: &G, seat: Seat, rng: &mut R) -> Option<G::Action> {
        let ctx = self.ctx;
        let mut legal = Vec::new();
        state.legal_actions(seat, &mut legal);
        assert!(
            !legal.is_empty(),
            "{ctx}: {seat} to act but has no legal action"
        );
        let texts: Vec<String> = legal.iter().map(|a| state.format_action(a)).collect();
        check_no_duplicates(&legal, &texts, ctx);
        if self.deep {
            check_listed_actions(state, Actor::Seat(seat), &legal, &texts, ctx);
            check_entries(state, Actor::Seat(seat), &legal, ctx);
            check_refusals(state, self.state_json, seat, &legal, &self.seen.list, ctx);
        }
        for a in &legal {
            if self.seen.list.len() < 4096 && self.seen.set.insert(a.clone()) {
                self.seen.list.push(a.clone());
            }
        }
        *self.decisions += 1;
        let i = rng.random_range(0..legal.len());
        Some(legal.swap_remove(i))
    }
}

/// Every game can be resigned (the service offers it at every table; `Game::end`): `seat`, about
/// to act, resigns; it acts no more, the state still round-trips through serde and its texts, and
/// a game the resignation ends has an outcome that `seat` did not win.
fn check_resign<G: Game>(state: &G, config: &G::Config, seat: Seat, ctx: Ctx) {
    let mut resigned = state.clone();
    resigned
        .end(Ending::Resign(seat))
        .unwrap_or_else(|e| ctx.fail(&format!("{seat} cannot resign: {e}")));
    let to_act = resigned.to_act();
    assert!(
        !to_act.allows(Actor::Seat(seat)),
        "{ctx}: {seat} still acts after resigning"
    );
    if to_act == ToAct::Terminal {
        let outcome = resigned
            .outcome()
            .unwrap_or_else(|| ctx.fail("a resignation ended the game without an outcome"));
        assert!(
            !outcome.winners().contains(seat),
            "{ctx}: {seat} resigned and won"
        );
    }
    check_round_trips(&resigned, None, config, ctx);
}

/// A finished game: an outcome for every seat, counted in the report, and no seat may act.
fn check_terminal<G: Game>(state: &G, report: &mut Report, ctx: Ctx) {
    let outcome = state
        .outcome()
        .unwrap_or_else(|| ctx.fail("terminal state without an outcome"));
    assert_eq!(
        outcome.seats(),
        state.seats(),
        "{ctx}: outcome has the wrong seat count"
    );
    *report.endings.entry(outcome.kind.clone()).or_default() += 1;
    for s in outcome.winners().iter() {
        report.wins[s.index()] += 1;
    }
    for seat in Seat::all(state.seats()) {
        let mut out = Vec::new();
        state.legal_actions(seat, &mut out);
        assert!(out.is_empty(), "{ctx}: {seat} has actions after the end");
    }
}

#[derive(Clone, Copy)]
struct Ctx {
    seed: u64,
    step: usize,
}

impl std::fmt::Display for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seed {} action {}", self.seed, self.step)
    }
}

impl Ctx {
    fn fail(self, what: &str) -> ! {
        panic!("{self}: {what}")
    }
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("values serialize to JSON")
}

fn assert_same<G: Game>(a: &G, b: &G, ctx: Ctx, what: &str) {
    assert_json(a, &json(b), ctx, what);
}

/// As `assert_same`, against `b`'s JSON written once for several comparisons.
fn assert_json<G: Game>(a: &G, jb: &str, ctx: Ctx, what: &str) {
    let ja = json(a);
    assert!(ja == jb, "{ctx}: {what}\n left: {ja}\nright: {jb}");
}

/// `value` reads back from its JSON and writes the same JSON again; returns that JSON.
fn round_trip<T: Serialize + DeserializeOwned + Debug>(value: &T, ctx: Ctx, what: &str) -> String {
    let text = json(value);
    round_trip_json::<T>(&text, ctx, what);
    text
}

/// A value's JSON `text` reads back as a `T` that writes the same JSON again.
fn round_trip_json<T: Serialize + DeserializeOwned + Debug>(text: &str, ctx: Ctx, what: &str) {
    let back: T = serde_json::from_str(text)
        .unwrap_or_else(|e| ctx.fail(&format!("{what} does not deserialize: {e}\n{text}")));
    assert_eq!(json(&back), text, "{ctx}: {what} changes through serde");
}

/// Serde of the state, its observations and position text all round-trip: the position text reads
/// back under the game's config and gives the same text. The one exception is explicit: a
/// finished game's text may be refused as `SetupError::Impossible`; the function then returns
/// true and the report counts it. Any other failure to read back fails the check.
/// `state_json` is the state's JSON when the caller has it already.
fn check_round_trips<G: Game>(
    state: &G,
    state_json: Option<&str>,
    config: &G::Config,
    ctx: Ctx,
) -> bool {
    match state_json {
        Some(text) => round_trip_json::<G>(text, ctx, "the state"),
        None => {
            round_trip(state, ctx, "the state");
        }
    }
    let spectator = round_trip(
        &state.observe(Viewer::Spectator),
        ctx,
        "the spectator observation",
    );
    // What the match service sends is serde_json's text of the observation
    // (`Game::observation_json`, which a game may write its own way).
    let sent = |viewer| state.observation_json(viewer).text().to_owned();
    assert_eq!(
        sent(Viewer::Spectator),
        spectator,
        "{ctx}: observation_json is not the observation's JSON"
    );
    for seat in Seat::all(state.seats()) {
        let observation = round_trip(
            &state.observe(Viewer::Seat(seat)),
            ctx,
            "a seat observation",
        );
        assert_eq!(
            sent(Viewer::Seat(seat)),
            observation,
            "{ctx}: observation_json is not the observation's JSON"
        );
        // The server builds one observation for every viewer of such a game.
        assert!(
            G::INFO.hidden_information || observation == spectator,
            "{ctx}: a game without hidden information shows {seat} another observation than a spectator"
        );
    }
    let text = state.format_position();
    match G::parse_position(config, &text) {
        Ok(parsed) => assert_eq!(
            parsed.format_position(),
            text,
            "{ctx}: position text does not round-trip"
        ),
        // A game whose end shows on the board (MAD's exiled corvette, Chakart's captured king)
        // is no position to resume: its text may be refused, as impossible, and only then.
        Err(SetupError::Impossible(_)) if state.to_act() == ToAct::Terminal => {
            return true;
        }
        Err(e) => ctx.fail(&format!(
            "the position text does not read back: {e}\n{text}"
        )),
    }
    false
}

/// `state_json` is the state's JSON.
fn check_chance<G: Game>(state: &G, state_json: &str, outcomes: &[(G::Action, f64)], ctx: Ctx) {
    assert!(!outcomes.is_empty(), "{ctx}: chance node without outcomes");
    let sum: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!(
        (sum - 1.0).abs() < 1e-9,
        "{ctx}: chance probabilities sum to {sum}"
    );
    for (a, p) in outcomes {
        assert!(*p > 0.0, "{ctx}: chance outcome {a:?} has probability {p}");
        let text = state.format_action(a);
        let back = state
            .parse_action(&text)
            .unwrap_or_else(|e| ctx.fail(&format!("`{text}` does not parse: {e}")));
        assert_eq!(
            &back, a,
            "{ctx}: chance outcome `{text}` does not round-trip"
        );
    }
    let mut not_chance = state.clone();
    if let Some(seat) = Seat::all(state.seats()).next() {
        let r = not_chance.apply(Actor::Seat(seat), &outcomes[0].0);
        assert!(r.is_err(), "{ctx}: a seat played a chance outcome");
        assert_json(
            &not_chance,
            state_json,
            ctx,
            "refused chance outcome changed the state",
        );
    }
}

/// No action is listed twice, and no two share a text; `texts` are the actions' texts, in the
/// same order. Equal actions have equal texts, so when the texts are all distinct so are the
/// actions: the actions are hashed only to tell which of the two checks fails.
fn check_no_duplicates<A: Eq + std::hash::Hash>(legal: &[A], texts: &[String], ctx: Ctx) {
    let mut sorted: Vec<&str> = texts.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    if sorted.windows(2).all(|w| w[0] != w[1]) {
        return;
    }
    let distinct: HashSet<&A> = legal.iter().collect();
    assert_eq!(
        distinct.len(),
        legal.len(),
        "{ctx}: duplicate legal actions"
    );
    panic!("{ctx}: two legal actions share a notation");
}

/// Every listed action applies, round-trips through notation and serde; `texts` are their
/// texts (`format_action`), in the same order.
fn check_listed_actions<G: Game>(
    state: &G,
    actor: Actor,
    legal: &[G::Action],
    texts: &[String],
    ctx: Ctx,
) {
    for (a, text) in legal.iter().zip(texts) {
        let back = state
            .parse_action(text)
            .unwrap_or_else(|e| ctx.fail(&format!("`{text}` (formatted) does not parse: {e}")));
        assert_eq!(
            &back, a,
            "{ctx}: `{text}` does not round-trip through notation"
        );
        round_trip(a, ctx, "an action");
        let mut child = state.clone();
        child
            .apply(actor, a)
            .unwrap_or_else(|e| ctx.fail(&format!("listed `{text}` refused: {e}")));
    }
}

/// The move-list entries of `actions` (docs/protocol.md section 4.1, `moves`): every viewer gets
/// the parts of an entry (`display_info`) exactly when it gets its text (`display_action`); a
/// seat's own action comes with the parts `legal_info` gave it (`action_info`), and a chance
/// outcome with its kind.
fn check_entries<G: Game>(state: &G, actor: Actor, actions: &[G::Action], ctx: Ctx) {
    let viewers = Seat::all(state.seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    for viewer in viewers {
        for a in actions {
            let text = state.display_action(actor, a, viewer);
            let info = state.display_info(actor, a, viewer);
            // The server builds one move-list entry for every viewer of such a game.
            assert!(
                G::INFO.hidden_information
                    || (&text, &info)
                        == (
                            &state.display_action(actor, a, Viewer::Spectator),
                            &state.display_info(actor, a, Viewer::Spectator)
                        ),
                "{ctx}: a game without hidden information shows {viewer:?} another entry for {actor}'s {a:?} than a spectator"
            );
            assert_eq!(
                text.is_some(),
                info.is_some(),
                "{ctx}: {viewer:?} is shown {actor}'s {a:?} as {text:?} with parts {info:?}"
            );
            let Some(info) = info else { continue };
            let full = state.action_info(a);
            match actor {
                Actor::Seat(s) if viewer == Viewer::Seat(s) => assert_eq!(
                    info, full,
                    "{ctx}: {actor}'s own entry {a:?} has other parts than its legal_info"
                ),
                _ => assert_eq!(
                    info.kind, full.kind,
                    "{ctx}: {viewer:?} is shown {actor}'s {a:?} as another kind"
                ),
            }
        }
    }
}

/// Actions that are not legal now, and legal ones by the wrong actor, are refused and change nothing
/// (the state keeps its JSON, `state_json`).
fn check_refusals<G: Game>(
    state: &G,
    state_json: &str,
    seat: Seat,
    legal: &[G::Action],
    seen: &[G::Action],
    ctx: Ctx,
) {
    let legal_set: HashSet<&G::Action> = legal.iter().collect();
    for a in seen.iter().filter(|a| !legal_set.contains(a)).take(8) {
        let mut probe = state.clone();
        let r = probe.apply(Actor::Seat(seat), a);
        assert!(r.is_err(), "{ctx}: unlisted action {a:?} was accepted");
        assert_json(
            &probe,
            state_json,
            ctx,
            "a refused action changed the state",
        );
    }
    for other in Seat::all(state.seats()) {
        if state.to_act().allows(Actor::Seat(other)) {
            continue;
        }
        let mut probe = state.clone();
        assert!(
            probe.apply(Actor::Seat(other), &legal[0]).is_err(),
            "{ctx}: {other} played out of turn"
        );
        assert_json(
            &probe,
            state_json,
            ctx,
            "an out-of-turn action changed the state",
        );
    }
    let mut probe = state.clone();
    assert!(
        probe.apply(Actor::Chance, &legal[0]).is_err(),
        "{ctx}: chance played a seat's action"
    );
    assert_json(
        &probe,
        state_json,
        ctx,
        "a refused chance action changed the state",
    );
}
