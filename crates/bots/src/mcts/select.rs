//! Selection and expansion: which child an iteration follows at a seat's node (UCB1 over a
//! block of children, or over a progressively widened list with hidden information).

use plateau_engine::{Game, Seat};
use rand::Rng;

use super::{CHANCE, Mcts, NONE, Node};
use crate::eval::Evaluator;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// Picks (and plays on `state`) the child of seat `s`'s decision node `node`. Returns the child
    /// and whether it was visited for the first time, or `NONE` when nothing can be picked.
    pub(super) fn select(
        &mut self,
        node: u32,
        state: &mut G,
        s: Seat,
        hidden: bool,
    ) -> (u32, bool) {
        let picked = if hidden {
            self.select_list(node, state, s)
        } else {
            self.select_block(node, state, s)
        };
        if picked.0 != NONE {
            let action = self.nodes[picked.0 as usize]
                .action
                .as_ref()
                .expect("children carry their action");
            self.driver
                .play(state, s, action)
                .expect("a listed action plays");
        }
        picked
    }

    /// Perfect information: expand the whole block on the first pass, try each child once in the
    /// (shuffled) block order, then UCB1 with the parent's visits.
    pub(super) fn select_block(&mut self, node: u32, state: &G, s: Seat) -> (u32, bool) {
        let n = &self.nodes[node as usize];
        if n.block == 0 {
            self.node_actions(node, state, s);
            if self.legal.is_empty() || self.nodes.len() + self.legal.len() > self.config.max_nodes
            {
                return (NONE, false);
            }
            // Shuffle so that a small budget does not favour the game's first-listed actions.
            for i in (1..self.legal.len()).rev() {
                let j = self.rng.random_range(0..=i);
                self.legal.swap(i, j);
            }
            let first = self.nodes.len() as u32;
            let mover = s.0;
            self.nodes
                .extend(self.legal.drain(..).map(|a| Node::new(Some(a), mover)));
            let end = self.nodes.len() as u32;
            let n = &mut self.nodes[node as usize];
            n.first_child = first;
            n.block = end - first;
        }
        let n = &mut self.nodes[node as usize];
        if n.tried < n.block {
            n.tried += 1;
            return (n.first_child + n.tried - 1, true);
        }
        let (first, block) = (n.first_child, n.block);
        let ln_parent = f64::from(n.visits.max(1)).ln();
        let c = self.config.exploration;
        let mut best = (NONE, f64::NEG_INFINITY);
        for child in first..first + block {
            let cn = &self.nodes[child as usize];
            // One division per child: the mean and the exploration term share 1 / visits.
            let inv = 1.0 / f64::from(cn.visits.max(1));
            let score = cn.reward * inv + c * (ln_parent * inv).sqrt();
            if score > best.1 {
                best = (child, score);
            }
        }
        (best.0, false)
    }

    /// Perfect information: the child of chance node `node` for outcome `i` of the node's list
    /// (`Driver::outcomes`), making the block of all outcomes on the first pass.
    pub(super) fn chance_block_child(&mut self, node: u32, i: usize) -> (u32, bool) {
        if self.nodes[node as usize].block == 0 {
            if self.nodes.len() + self.driver.outcomes().len() > self.config.max_nodes {
                return (NONE, false);
            }
            let first = self.nodes.len() as u32;
            let outcomes = self.driver.outcomes();
            self.nodes.extend(
                outcomes
                    .iter()
                    .map(|(a, _)| Node::new(Some(a.clone()), CHANCE)),
            );
            let n = &mut self.nodes[node as usize];
            n.first_child = first;
            n.block = outcomes.len() as u32;
        }
        let child = self.nodes[node as usize].first_child + i as u32;
        (child, self.nodes[child as usize].visits == 0)
    }

    /// Hidden information: the child of chance node `node` for outcome `i` of the node's list
    /// (`Driver::outcomes`), added to the list when new.
    pub(super) fn list_child(&mut self, node: u32, i: usize) -> (u32, bool) {
        let action = &self.driver.outcomes()[i].0;
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let cn = &self.nodes[c as usize];
            if cn.mover == CHANCE && cn.action.as_ref() == Some(action) {
                return (c, false);
            }
            c = cn.next_sibling;
        }
        if self.nodes.len() >= self.config.max_nodes {
            return (NONE, false);
        }
        let child = self.push_list_child(node, action.clone(), CHANCE);
        (child, true)
    }

    /// Hidden information: counts which children are legal in this determinization, adds one
    /// untried legal action when there is one, and otherwise picks by UCB1 over the available
    /// children with their availability counts (single-observer ISMCTS).
    pub(super) fn select_list(&mut self, node: u32, state: &G, s: Seat) -> (u32, bool) {
        self.node_actions(node, state, s);
        if self.legal.is_empty() {
            return (NONE, false);
        }
        self.seen.clear();
        self.seen.resize(self.legal.len(), false);
        self.candidates.clear();
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let cn = &mut self.nodes[c as usize];
            if cn.mover == s.0
                && let Some(i) = self
                    .legal
                    .iter()
                    .position(|a| Some(a) == cn.action.as_ref())
            {
                self.seen[i] = true;
                cn.available += 1;
                self.candidates.push(c);
            }
            c = cn.next_sibling;
        }
        let untried = self.seen.iter().filter(|s| !**s).count();
        // Progressive widening (`Evaluator::widening`): a new child only once the node's visits
        // allow one more.
        let room = self.evaluator.widening().is_none_or(|(k, alpha)| {
            let visits = f64::from(self.nodes[node as usize].visits.max(1));
            (self.candidates.len() as f64) < (k * visits.powf(alpha)).floor().max(1.0)
        });
        if untried > 0 && room && self.nodes.len() < self.config.max_nodes {
            // The evaluator's root list comes best first: tried in its order, so that a small
            // budget still sees its first choices (inside the tree too when it widens).
            let k = if (node == 0 && self.root_candidates.is_some())
                || self.evaluator.widening().is_some()
            {
                0
            } else {
                self.rng.random_range(0..untried)
            };
            let i = (0..self.legal.len())
                .filter(|&i| !self.seen[i])
                .nth(k)
                .expect("k is below the number of untried actions");
            let action = self.legal[i].clone();
            let child = self.push_list_child(node, action, s.0);
            self.nodes[child as usize].available = 1;
            return (child, true);
        }
        let c = self.config.exploration;
        // The policy's choice (the root list's first) gets the prior's bonus.
        let prior = self.evaluator.prior_weight();
        let favoured = match (&self.root_candidates, node) {
            (Some(list), 0) if prior > 0.0 => list.first(),
            _ => None,
        };
        let root_visits = f64::from(self.nodes[node as usize].visits.max(1)).sqrt();
        let mut best = (NONE, f64::NEG_INFINITY);
        for &child in &self.candidates {
            let cn = &self.nodes[child as usize];
            let visits = f64::from(cn.visits.max(1));
            let ln_available = f64::from(cn.available.max(1)).ln();
            let mut score = cn.reward / visits + c * (ln_available / visits).sqrt();
            if favoured.is_some() && cn.action.as_ref() == favoured {
                score += prior * root_visits / (1.0 + f64::from(cn.visits));
            }
            if score > best.1 {
                best = (child, score);
            }
        }
        (best.0, false)
    }

    /// Writes into `self.legal` the actions the search considers for seat `s` at `node`: the
    /// evaluator's short list (`Evaluator::candidates`; the one made once per search at the root),
    /// or every legal action.
    pub(super) fn node_actions(&mut self, node: u32, state: &G, s: Seat) {
        if node == 0
            && let Some(list) = &self.root_candidates
        {
            self.legal.clear();
            self.legal.extend(list.iter().cloned());
            return;
        }
        if self.evaluator.has_candidates()
            && self
                .evaluator
                .candidates(state, s, false, &mut self.rng, &mut self.legal)
                .is_some()
            && !self.legal.is_empty()
        {
            return;
        }
        state.legal_actions(s, &mut self.legal);
    }

    pub(super) fn push_list_child(&mut self, node: u32, action: G::Action, mover: u8) -> u32 {
        let child = self.nodes.len() as u32;
        let mut n = Node::new(Some(action), mover);
        n.next_sibling = self.nodes[node as usize].first_child;
        self.nodes.push(n);
        self.nodes[node as usize].first_child = child;
        child
    }
}
