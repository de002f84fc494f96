//! The optional evaluation hook: a game may offer a heuristic that scores a running game for every
//! seat. MCTS then stops playouts early and scores the position with it, and the greedy bot looks one
//! move ahead with it.
//!
//! Game crates depend only on the engine (docs/architecture.md section 1), so an evaluator is a small type that
//! the registry (the one place that names games) writes around a function of the game crate.

use plateau_engine::{Game, Seat};
use rand::{Rng, RngCore, SeedableRng};

/// A heuristic value of a running game for every seat.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    /// Writes into `out[s]`, for every seat `s` of the table (`out.len() == state.seats()`), the
    /// expected `Outcome::utility` of `s`: a number in [0, 1], 1 for a sure win.
    fn evaluate(&self, state: &G, out: &mut [f64]);

    /// Playouts longer than this many actions stop and call `evaluate`; `None` plays them to the end
    /// (up to the search's own safety bound).
    fn playout_cutoff(&self) -> Option<usize> {
        None
    }

    /// Whether `playout_cutoff` counts the actions from the search's root (the tree's and the
    /// playout's together) rather than from the leaf. From the leaf, a child visited often has a
    /// deep subtree and is valued later in the game than a child visited rarely, so their means
    /// measure different moments (in a game where every seat loses strength as it goes on, the
    /// most visited child looks worse the more it is searched). From the root, every iteration
    /// is valued at the same moment, and the tree stops growing at the cut-off. `false` (from the
    /// leaf) by default.
    fn cutoff_from_root(&self) -> bool {
        false
    }

    /// The UCB1 exploration constant that suits this evaluation, replacing
    /// `SearchConfig::exploration` when set. An evaluation's values are often close to 0.5 where
    /// finished playouts score 0 or 1, so the differences between moves are smaller and a smaller
    /// constant lets them show; `None` keeps the configured constant.
    fn exploration(&self) -> Option<f64> {
        None
    }

    /// The playouts' policy: an action for `seat` in `state` (a state of the search, so a
    /// determinization when the game hides information), or `None` to play a uniformly random
    /// legal action. It must read only what `seat` may know, and return a legal action.
    fn playout_action(&self, state: &G, seat: Seat, rng: &mut dyn RngCore) -> Option<G::Action> {
        let _ = (state, seat, rng);
        None
    }

    /// Whether `playout_action` ever returns an action (the search then takes the slower playout
    /// loop that asks it).
    fn has_playout_policy(&self) -> bool {
        false
    }

    /// The greedy bot's choice for `seat` in `state` (a determinization for `seat` when the game
    /// hides information), replacing its one-move look-ahead; `None` keeps the look-ahead.
    fn greedy_action(&self, state: &G, seat: Seat, rng: &mut dyn RngCore) -> Option<G::Action> {
        let _ = (state, seat, rng);
        None
    }

    /// The game's strongest policy's action for `seat` while the game is set up (`state` a
    /// determinization for `seat` when the game hides information): Bataille Navale's
    /// placement. `None` outside a setup, or in a game without one; the `setup:<percent>` bot
    /// (`BotSpec::Setup`) plays it at its share of the setup's decisions.
    fn setup_action(&self, state: &G, seat: Seat, rng: &mut dyn RngCore) -> Option<G::Action> {
        let _ = (state, seat, rng);
        None
    }

    /// The actions the search considers for `seat` at a decision: `None` for all its legal
    /// actions, or a short list of legal ones, written into `out`. `root` says whether this is the
    /// searched decision itself (where the list may be longer and dearer to make) or a decision
    /// inside the tree. `state` is a state of the search (a determinization with hidden
    /// information), and the list must depend only on what `seat` may know.
    fn candidates(
        &self,
        state: &G,
        seat: Seat,
        root: bool,
        rng: &mut dyn RngCore,
        out: &mut Vec<G::Action>,
    ) -> Option<()> {
        let _ = (state, seat, root, rng, out);
        None
    }

    /// Whether `candidates` ever returns a list (the search then asks it at every decision).
    fn has_candidates(&self) -> bool {
        false
    }

    /// With hidden information, how many iterations share one determinization: the search draws
    /// a new one every that many iterations and cycles through those drawn so far (at most
    /// `MAX_POOL`), so each serves about that many iterations in all. 0 or 1: a fresh one every
    /// iteration. Worth it where drawing one costs far more than an iteration.
    fn iterations_per_determinization(&self) -> usize {
        0
    }

    /// Progressive widening at the decisions of a game with hidden information: `(k, alpha)`
    /// lets a node visited `n` times have at most `max(1, floor(k * n^alpha))` children, added in
    /// the order of `candidates` (best first), so that a small budget searches the policy's first
    /// choices and each further one only once the others have been visited enough. `None`: every
    /// candidate is tried once before any is tried twice.
    fn widening(&self) -> Option<(f64, f64)> {
        None
    }

    /// A bonus for the first of the root's `candidates` (the policy's own choice): `w` in
    /// `w * sqrt(N) / (1 + n)` added to its UCB1 score (N the root's visits, n its own), as in
    /// PUCT with the policy's whole prior on its choice, so that the search leaves it only for an
    /// action whose mean is clearly better. 0: no bonus.
    fn prior_weight(&self) -> f64 {
        0.0
    }
}

/// No heuristic: every running game is worth 0.5 to every seat (an even game).
#[derive(Clone, Copy, Default, Debug)]
pub struct NoEvaluator;

impl<G: Game> Evaluator<G> for NoEvaluator {
    fn evaluate(&self, _state: &G, out: &mut [f64]) {
        out.fill(0.5);
    }
}

/// The greedy bot: tries each legal action of `seat` once and keeps the one whose result is best
/// for `seat` (a finished game by its utility, a running one by `evaluator`); ties are broken at
/// random. With hidden information it looks at one determinization, never at the true state.
/// An evaluator with its own greedy choice (`Evaluator::greedy_action`) makes it on that
/// determinization instead. `None` when `seat` has no legal action.
pub fn greedy_action<G: Game, E: Evaluator<G>, R: Rng + ?Sized>(
    state: &G,
    seat: Seat,
    evaluator: &E,
    rng: &mut R,
) -> Option<G::Action> {
    let (base, legal) = match look_ahead_from(state, seat, rng) {
        LookAhead::From(base, legal) => (base, legal),
        LookAhead::Answer(answer) => return answer,
    };
    let mut policy_rng = rand_chacha::ChaCha8Rng::seed_from_u64(rng.next_u64());
    if let Some(action) = evaluator.greedy_action(&base, seat, &mut policy_rng) {
        return Some(action);
    }
    Some(one_ply_choice(&base, seat, evaluator, rng, legal, 1.0))
}

/// The setup bot's choice (`BotSpec::Setup`): `Evaluator::setup_action` for `seat`, from one
/// determinization with hidden information; the only legal action when there is one; else
/// `None` when the game is not being set up (the bot then plays greedily), and when `seat` has no
/// legal action.
pub fn setup_action<G: Game, E: Evaluator<G>, R: Rng + ?Sized>(
    state: &G,
    seat: Seat,
    evaluator: &E,
    rng: &mut R,
) -> Option<G::Action> {
    let base = match look_ahead_from(state, seat, rng) {
        LookAhead::From(base, _) => base,
        LookAhead::Answer(answer) => return answer,
    };
    let mut policy_rng = rand_chacha::ChaCha8Rng::seed_from_u64(rng.next_u64());
    evaluator.setup_action(&base, seat, &mut policy_rng)
}

/// The blundering bot's mistake: the legal action of `seat` whose result is *worst* for it by the
/// same one-move look-ahead as `greedy_action` (ties broken at random; with hidden information on
/// one determinization). Ignores `Evaluator::greedy_action`, which only ever names a best choice.
/// `None` when `seat` has no legal action.
pub fn worst_action<G: Game, E: Evaluator<G>, R: Rng + ?Sized>(
    state: &G,
    seat: Seat,
    evaluator: &E,
    rng: &mut R,
) -> Option<G::Action> {
    let (base, legal) = match look_ahead_from(state, seat, rng) {
        LookAhead::From(base, legal) => (base, legal),
        LookAhead::Answer(answer) => return answer,
    };
    Some(one_ply_choice(&base, seat, evaluator, rng, legal, -1.0))
}

/// Where a one-move look-ahead starts.
enum LookAhead<G: Game> {
    /// Fewer than two legal actions: the only one, or `None`, without looking.
    Answer(Option<G::Action>),
    /// The state to look ahead from and the seat's legal actions (two or more).
    From(G, Vec<G::Action>),
}

/// The look-ahead for `seat`: from `state` itself, or from one determinization with hidden
/// information.
fn look_ahead_from<G: Game, R: Rng + ?Sized>(state: &G, seat: Seat, rng: &mut R) -> LookAhead<G> {
    let mut legal = Vec::new();
    state.legal_actions(seat, &mut legal);
    if legal.len() <= 1 {
        return LookAhead::Answer(legal.pop());
    }
    let base = if G::INFO.hidden_information {
        state.determinize(seat, rng)
    } else {
        state.clone()
    };
    LookAhead::From(base, legal)
}

/// The action of `legal` (at least one) whose result maximises `sign` times its value for `seat`
/// (a finished game by its utility, a running one by `evaluator`), ties broken at random.
fn one_ply_choice<G: Game, E: Evaluator<G>, R: Rng + ?Sized>(
    base: &G,
    seat: Seat,
    evaluator: &E,
    rng: &mut R,
    mut legal: Vec<G::Action>,
    sign: f64,
) -> G::Action {
    let mut values = vec![0.0; base.seats()];
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    for (i, action) in legal.iter().enumerate() {
        let mut next = base.clone();
        next.apply_legal(plateau_engine::Actor::Seat(seat), action);
        let value = sign
            * match next.outcome() {
                Some(outcome) => outcome.utility(seat),
                None => {
                    evaluator.evaluate(&next, &mut values);
                    values[seat.index()]
                }
            };
        if value > best_value + 1e-12 {
            best_value = value;
            best.clear();
        }
        if (value - best_value).abs() <= 1e-12 {
            best.push(i);
        }
    }
    let pick = best[rng.random_range(0..best.len())];
    legal.swap_remove(pick)
}
