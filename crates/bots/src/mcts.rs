//! Monte-Carlo tree search for any `Game`: UCT with chance nodes, n seats (max^n: each seat picks
//! what is best for its own `Outcome::utility`), and information-set search when the game hides
//! information.
//!
//! # One iteration
//! 1. **Start**: a copy of the root state, or, with hidden information, `determinize(seat, rng)`:
//!    a state drawn from what the searching seat knows. The true state is used for nothing else than
//!    the searching seat's `legal_actions` (the same in every determinization) and `determinize`.
//!    An evaluator may let iterations share determinizations
//!    (`Evaluator::iterations_per_determinization`): a new one is drawn every so many iterations
//!    and the iterations cycle through those drawn, where drawing one costs far more than an
//!    iteration (Bataille Navale).
//! 2. **Select** down the tree. At a seat's node, UCB1 on that seat's mean utility; at a chance node,
//!    an outcome drawn by its probability (`chance::sample`). A node's children are the seat's legal
//!    actions, or the evaluator's short list of them (`Evaluator::candidates`; at the root made
//!    once per search, from a determinization). With hidden information an evaluator may widen
//!    the nodes progressively (`Evaluator::widening`: children added in its list's order as the
//!    visits grow) and give its own first choice at the root a prior's bonus
//!    (`Evaluator::prior_weight`): a policy's choice is then the search's until another action's
//!    mean is clearly better, and more iterations search more of its options.
//! 3. **Expand** one new child, then **play out** to the end (or to the evaluator's cut-off,
//!    counted from the leaf or, with `Evaluator::cutoff_from_root`, from the root so that every
//!    iteration is valued at the same depth), each seat acting at random or by the evaluator's
//!    policy (`Evaluator::playout_action`).
//! 4. **Back up** the utility of every seat; each node adds the utility of the seat that moved into it.
//!
//! # Two tree shapes
//! - *Perfect information*: a node stands for one state. Its children are made all at once, in a
//!   shuffled order, as one block of the node arena; a chance node's block follows the order of
//!   `chance_outcomes`, so the sampled index is the child.
//! - *Hidden information* (single-observer information-set MCTS): a node stands for the sequence of
//!   actions from the root, whatever the determinization. Legal actions differ between
//!   determinizations, so children are added one at a time (a linked list) and UCB counts, for each
//!   child, the visits in which it was available rather than the parent's visits. The tree is not
//!   reused between moves: finding the new root would need to know other seats' hidden actions.
//!
//! # Simultaneous nodes
//! The engine lets the seats of a simultaneous node act one after another in any order. The search
//! lets the searching seat act first when it is in the set, then the others in seat order. Each
//! seat's choice is thus searched in its own node with its own statistics; the others' choices in the
//! same round may depend on the searching seat's (a cautious assumption: it never lets the searcher
//! react to a move it could not have seen).
//!
//! # Reproducibility
//! All randomness comes from one ChaCha8 generator seeded by the caller. With an iteration budget
//! the chosen action depends only on the seed, the observation and the legal actions; with a time
//! budget the number of iterations, and so the choice, varies with the machine's speed.

use std::time::{Duration, Instant};

use plateau_engine::driver::{Driver, Next};
use plateau_engine::{Game, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::eval::{Evaluator, NoEvaluator};
use crate::spec::Budget;

mod config;
mod reuse;
mod rollout;
mod select;

pub use config::SearchConfig;

/// The most seats a table can have (`SeatSet` holds 8).
const MAX_SEATS: usize = 8;
/// "No node" in the arena's links.
const NONE: u32 = u32::MAX;
/// The mover of chance nodes and of the root.
const CHANCE: u8 = u8::MAX;
/// The most determinizations one search keeps (`Evaluator::iterations_per_determinization`).
pub const MAX_POOL: usize = 256;
/// How many nodes the search for a reusable subtree may look at before giving up.
const REUSE_SCAN_LIMIT: usize = 50_000;

/// What the last search did.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct SearchStats {
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Nodes kept from the previous move's tree (0 when it could not be reused).
    pub reused: usize,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// One root child after a search, for inspection and tests.
#[derive(Clone, Debug)]
pub struct ChildStats<A> {
    /// The action.
    pub action: A,
    /// Times the search went through it.
    pub visits: u32,
    /// Mean utility for the searching seat.
    pub mean: f64,
}

/// One node of the tree arena.
#[derive(Clone, Debug)]
struct Node<A> {
    /// The action that leads here (`None` at a fresh root).
    action: Option<A>,
    /// The seat index that played `action`, or `CHANCE`.
    mover: u8,
    /// First child (perfect information: start of the block; hidden: head of the list).
    first_child: u32,
    /// Perfect information: size of the child block (0 until expanded).
    block: u32,
    /// Perfect information: children of the block tried so far (they are tried in block order).
    tried: u32,
    /// Hidden information: the next child of the same parent.
    next_sibling: u32,
    /// Times an iteration went through this node.
    visits: u32,
    /// Hidden information: times this node's action was legal when its parent was visited.
    available: u32,
    /// Sum of the mover's utility over the visits.
    reward: f64,
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: u8) -> Self {
        Node {
            action,
            mover,
            first_child: NONE,
            block: 0,
            tried: 0,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

/// A Monte-Carlo tree searcher for game `G`, optionally guided by an evaluator `E`. Keep one per
/// seat for a whole game so it can reuse its tree from move to move.
pub struct Mcts<G: Game, E: Evaluator<G> = NoEvaluator> {
    config: SearchConfig,
    evaluator: E,
    rng: ChaCha8Rng,
    nodes: Vec<Node<G::Action>>,
    /// Spare arena, swapped in when a subtree is kept.
    spare: Vec<Node<G::Action>>,
    /// Perfect information: the state at the tree's root.
    root_state: Option<G>,
    /// The searching seat's legal actions in the true state.
    root_legal: Vec<G::Action>,
    /// The evaluator's short list at the root (`Evaluator::candidates`), when it offers one.
    root_candidates: Option<Vec<G::Action>>,
    /// Every seat's utilities summed over the iterations of the last search, and their number.
    root_totals: [f64; MAX_SEATS],
    root_count: u64,
    /// Seats at the table of the last search.
    root_seats: usize,
    /// Hidden information: the determinizations drawn for this search, cycled through when the
    /// evaluator lets iterations share them (`Evaluator::iterations_per_determinization`).
    pool: Vec<G>,
    legal: Vec<G::Action>,
    /// Advances the iterations' states (descent and playout; docs/architecture.md section 2.3).
    driver: Driver<G::Action>,
    path: Vec<u32>,
    candidates: Vec<u32>,
    seen: Vec<bool>,
    stats: SearchStats,
}

impl<G: Game> Mcts<G, NoEvaluator> {
    /// A searcher without evaluator; all its randomness comes from `seed`.
    #[must_use]
    pub fn new(config: SearchConfig, seed: u64) -> Self {
        Mcts::with_evaluator(config, seed, NoEvaluator)
    }
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// A searcher that scores cut-off playouts with `evaluator`, which may also set the playout
    /// length (`Evaluator::playout_cutoff`) and the exploration constant
    /// (`Evaluator::exploration`) in place of `config`'s.
    #[must_use]
    pub fn with_evaluator(mut config: SearchConfig, seed: u64, evaluator: E) -> Self {
        if let Some(cut) = evaluator.playout_cutoff() {
            config.max_playout = config.max_playout.min(cut);
        }
        if let Some(c) = evaluator.exploration() {
            config.exploration = c;
        }
        Mcts {
            config,
            evaluator,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            spare: Vec::new(),
            root_state: None,
            root_legal: Vec::new(),
            root_candidates: None,
            root_totals: [0.0; MAX_SEATS],
            root_count: 0,
            root_seats: 0,
            pool: Vec::new(),
            legal: Vec::new(),
            driver: Driver::trusted(),
            path: Vec::new(),
            candidates: Vec::new(),
            seen: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    /// The same searcher with its playouts scored after `cutoff` actions, in place of the
    /// evaluator's `Evaluator::playout_cutoff` (still counted from the root or the leaf as the
    /// evaluator says, `Evaluator::cutoff_from_root`): the bot `mcts:<budget>:cut<actions>`
    /// (`BotSpec::CutMcts`).
    #[must_use]
    pub fn with_playout_cutoff(mut self, cutoff: usize) -> Self {
        self.config.max_playout = cutoff;
        self
    }

    /// The configuration in use (after the evaluator's cut-off and exploration constant).
    #[must_use]
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What the last `choose` did.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The root's children after the last search, in tree order (only those legal at the root).
    #[must_use]
    pub fn root_children(&self) -> Vec<ChildStats<G::Action>> {
        self.children_of(0)
            .filter_map(|c| {
                let n = &self.nodes[c as usize];
                let action = n.action.clone()?;
                self.root_legal.contains(&action).then(|| ChildStats {
                    action,
                    visits: n.visits,
                    mean: n.mean(),
                })
            })
            .collect()
    }

    /// The evaluator's short list at the root of the last search (`Evaluator::candidates`, its
    /// policy's choice first), or `None` when the search considered every legal action.
    #[must_use]
    pub fn root_candidates(&self) -> Option<&[G::Action]> {
        self.root_candidates.as_deref()
    }

    /// Searches `state` for `seat` within the budget and returns the most visited legal action;
    /// `None` when `seat` has no legal action. A lone legal action is returned without search.
    ///
    /// With hidden information (`G::INFO.hidden_information`) the search reads nothing of `state`
    /// but `to_act`, `legal_actions(seat)` and `determinize(seat, ..)`.
    pub fn choose(&mut self, state: &G, seat: Seat) -> Option<G::Action> {
        self.choose_within(state, seat, None)
    }

    /// `choose`, stopping after `limit` at the latest whatever the budget (a clock running out).
    pub fn choose_within(
        &mut self,
        state: &G,
        seat: Seat,
        limit: Option<Duration>,
    ) -> Option<G::Action> {
        let started = Instant::now();
        state.legal_actions(seat, &mut self.root_legal);
        self.stats = SearchStats::default();
        self.root_count = 0;
        self.root_seats = state.seats().min(MAX_SEATS);
        if self.root_legal.len() <= 1 {
            return self.root_legal.first().cloned();
        }
        let hidden = G::INFO.hidden_information;
        let reused = !hidden && self.config.reuse && self.reuse_subtree(state, seat);
        if reused {
            self.stats.reused = self.nodes.len();
        } else {
            self.nodes.clear();
            self.nodes.push(Node::new(None, CHANCE));
            self.root_state = (!hidden).then(|| state.clone());
        }

        self.pool.clear();
        self.root_candidates = None;
        if self.evaluator.has_candidates() {
            let probe = if hidden {
                state.determinize(seat, &mut self.rng)
            } else {
                state.clone()
            };
            let mut list = Vec::new();
            if self
                .evaluator
                .candidates(&probe, seat, true, &mut self.rng, &mut list)
                .is_some()
            {
                list.retain(|a| self.root_legal.contains(a));
                if list.len() == 1 {
                    // The evaluator knows the one sensible action: no search.
                    self.stats.elapsed = started.elapsed();
                    return list.pop();
                }
                if !list.is_empty() {
                    self.root_candidates = Some(list);
                }
            }
        }

        let deadline = match (self.config.budget.time(), limit) {
            (Some(t), Some(l)) => Some(started + t.min(l)),
            (t, l) => t.or(l).map(|t| started + t),
        };
        let max_iterations = self.max_iterations();
        let iterations = self.run(state, seat, deadline, max_iterations);
        self.stats.iterations = iterations;
        self.stats.nodes = self.nodes.len();
        self.stats.elapsed = started.elapsed();

        // The most visited; between equals, the earlier in the evaluator's root list.
        let rank = |a: &G::Action| {
            self.root_candidates
                .as_ref()
                .and_then(|list| list.iter().position(|x| x == a))
                .unwrap_or(usize::MAX)
        };
        let best = self.root_children().into_iter().reduce(|best, c| {
            if (c.visits, std::cmp::Reverse(rank(&c.action)))
                > (best.visits, std::cmp::Reverse(rank(&best.action)))
            {
                c
            } else {
                best
            }
        });
        match best {
            Some(c) => Some(c.action),
            None => {
                let i = self.rng.random_range(0..self.root_legal.len());
                Some(self.root_legal[i].clone())
            }
        }
    }

    /// Runs iterations from `state` for `seat` until `max_iterations` or `deadline`; returns how
    /// many ran.
    fn run(
        &mut self,
        state: &G,
        seat: Seat,
        deadline: Option<Instant>,
        max_iterations: u64,
    ) -> u64 {
        self.root_totals = [0.0; MAX_SEATS];
        let mut iterations = 0;
        while iterations < max_iterations {
            self.iterate(state, seat, iterations);
            iterations += 1;
            // The clock is read after every iteration (tens of nanoseconds against microseconds
            // or, in games with long playouts, milliseconds per iteration).
            if let Some(deadline) = deadline
                && Instant::now() >= deadline
            {
                break;
            }
        }
        self.root_count = iterations;
        iterations
    }

    /// Every seat's mean utility over the last search's iterations (`choose` or `estimate`), by
    /// seat index: what the search expects of the position at its root, each seat playing as the
    /// tree and the playouts have it play. 0.5 each when nothing was searched.
    #[must_use]
    pub fn root_values(&self) -> Vec<f64> {
        let seats = self.root_seats;
        if self.root_count == 0 {
            return vec![0.5; seats];
        }
        self.root_totals[..seats]
            .iter()
            .map(|t| t / self.root_count as f64)
            .collect()
    }

    /// The mean utility for `seat` of playing `action` in `state`: a search within the budget
    /// whose root offers `action` alone (with hidden information each iteration plays it on a
    /// determinization, so its results are drawn, never read from `state`). `None` when `action`
    /// is not legal for `seat`.
    pub fn action_value(&mut self, state: &G, seat: Seat, action: &G::Action) -> Option<f64> {
        Some(self.action_values(state, seat, action)?[seat.index()])
    }

    /// Every seat's mean utility, by seat index, when `seat` plays `action` in `state`: the
    /// search of `action_value`, whose every iteration goes through `action`, so the whole
    /// budget values it (chance after it sampled by its probabilities, so averaged). `None` when
    /// `action` is not legal for `seat`.
    pub fn action_values(&mut self, state: &G, seat: Seat, action: &G::Action) -> Option<Vec<f64>> {
        let started = Instant::now();
        state.legal_actions(seat, &mut self.root_legal);
        if !self.root_legal.contains(action) {
            return None;
        }
        self.fresh_search(state, seat, Some(vec![action.clone()]), started);
        Some(self.root_values())
    }

    /// Searches `state` within the budget from the point of view of `seat`, whether or not it is
    /// to act (with hidden information from its determinizations only, as `choose`), and returns
    /// `root_values`. A finished game gets its outcome's utilities.
    pub fn estimate(&mut self, state: &G, seat: Seat) -> Vec<f64> {
        let started = Instant::now();
        self.root_legal.clear();
        self.fresh_search(state, seat, None, started);
        self.root_values()
    }

    /// A search of `state` for `seat` from an empty tree, within the budget counted from
    /// `started`, its root limited to `candidates` when given (`action_value`, `estimate`).
    fn fresh_search(
        &mut self,
        state: &G,
        seat: Seat,
        candidates: Option<Vec<G::Action>>,
        started: Instant,
    ) {
        let hidden = G::INFO.hidden_information;
        self.stats = SearchStats::default();
        self.root_candidates = candidates;
        self.pool.clear();
        self.nodes.clear();
        self.nodes.push(Node::new(None, CHANCE));
        self.root_state = (!hidden).then(|| state.clone());
        self.root_seats = state.seats().min(MAX_SEATS);
        let deadline = self.config.budget.time().map(|t| started + t);
        self.stats.iterations = self.run(state, seat, deadline, self.max_iterations());
        self.stats.nodes = self.nodes.len();
        self.stats.elapsed = started.elapsed();
    }

    /// The iterations the budget allows: its count, or no bound for a time budget.
    fn max_iterations(&self) -> u64 {
        match self.config.budget {
            Budget::Iterations(n) => n.max(1),
            Budget::Millis(_) => u64::MAX,
        }
    }

    /// The children of `node` in tree order.
    fn children_of(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let n = self.nodes.get(node as usize);
        let hidden = G::INFO.hidden_information;
        let (first, block) = n.map_or((NONE, 0), |n| (n.first_child, n.block));
        let block_iter = (!hidden && first != NONE)
            .then(|| first..first + block)
            .into_iter()
            .flatten();
        let list_iter = std::iter::successors((hidden && first != NONE).then_some(first), |&c| {
            let next = self.nodes[c as usize].next_sibling;
            (next != NONE).then_some(next)
        });
        block_iter.chain(list_iter)
    }

    /// One select / expand / play out / back up pass; `iteration` counts from 0 in this search.
    fn iterate(&mut self, root: &G, seat: Seat, iteration: u64) {
        let hidden = G::INFO.hidden_information;
        let share = self.evaluator.iterations_per_determinization() as u64;
        let mut state = if hidden && share > 1 {
            if iteration.is_multiple_of(share) && self.pool.len() < MAX_POOL {
                let d = root.determinize(seat, &mut self.rng);
                self.pool.push(d.clone());
                d
            } else {
                self.pool[(iteration % self.pool.len() as u64) as usize].clone()
            }
        } else if hidden {
            root.determinize(seat, &mut self.rng)
        } else {
            self.root_state.clone().unwrap_or_else(|| root.clone())
        };
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // With a cut-off counted from the root (`Evaluator::cutoff_from_root`), the actions the
        // descent has played count against it, and the tree grows no deeper than it.
        let from_root = self.evaluator.cutoff_from_root();
        let horizon = self.config.max_playout;
        let mut depth = 0;
        loop {
            if from_root && depth >= horizon {
                break;
            }
            // The searching seat acts first at a simultaneous node it belongs to (module doc).
            let next = self.driver.next(&state, |_, seats| {
                Some(if seats.contains(seat) {
                    seat
                } else {
                    seats.iter().next().unwrap_or(seat)
                })
            });
            let (child, created) = match next {
                Next::Over => break,
                Next::Chance => {
                    let Ok((i, _)) = self.driver.draw(&mut state, &mut self.rng) else {
                        break;
                    };
                    let found = if hidden {
                        self.list_child(node, i)
                    } else {
                        self.chance_block_child(node, i)
                    };
                    if found.0 == NONE {
                        // The tree is full: the outcome is played, the playout carries on.
                        depth += 1;
                        break;
                    }
                    found
                }
                Next::Seat(s) => self.select(node, &mut state, s, hidden),
            };
            if child == NONE {
                break;
            }
            depth += 1;
            self.path.push(child);
            node = child;
            if created {
                break;
            }
        }
        let limit = if from_root {
            horizon.saturating_sub(depth)
        } else {
            horizon
        };
        let rewards = self.playout(&mut state, limit);
        for (t, r) in self.root_totals.iter_mut().zip(rewards) {
            *t += r;
        }
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            if node.mover != CHANCE {
                node.reward += rewards[node.mover as usize];
            }
        }
    }
}
