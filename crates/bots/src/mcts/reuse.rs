//! Tree reuse between moves with perfect information: the subtree of the new position kept.

use std::collections::VecDeque;

use plateau_engine::{Actor, Game, Seat};

use super::{CHANCE, Mcts, REUSE_SCAN_LIMIT};
use crate::eval::Evaluator;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// Perfect information: looks in the previous tree for the node of `state` (the first decision
    /// of `seat` after the old root whose state serializes to the same bytes) and makes its subtree
    /// the new tree. Returns whether it did.
    pub(super) fn reuse_subtree(&mut self, state: &G, seat: Seat) -> bool {
        let Some(old_root) = self.root_state.take() else {
            return false;
        };
        if self.nodes.is_empty() {
            return false;
        }
        let Ok(target) = serde_json::to_vec(state) else {
            return false;
        };
        let mut queue = VecDeque::from([(0u32, old_root)]);
        let mut scanned = 0;
        let mut found = None;
        while let Some((node, st)) = queue.pop_front() {
            scanned += 1;
            if scanned > REUSE_SCAN_LIMIT {
                break;
            }
            let ours = st.to_act().allows(Actor::Seat(seat));
            if ours && serde_json::to_vec(&st).is_ok_and(|b| b == target) {
                found = Some(node);
                break;
            }
            if ours && node != 0 {
                continue;
            }
            let n = &self.nodes[node as usize];
            for child in n.first_child..n.first_child.saturating_add(n.block) {
                let cn = &self.nodes[child as usize];
                let Some(action) = cn.action.as_ref().filter(|_| cn.visits > 0) else {
                    continue;
                };
                let actor = if cn.mover == CHANCE {
                    Actor::Chance
                } else {
                    Actor::Seat(Seat(cn.mover))
                };
                let mut next = st.clone();
                next.apply_legal(actor, action);
                queue.push_back((child, next));
            }
        }
        let Some(new_root) = found else {
            return false;
        };
        // Copy the subtree into the spare arena, block by block, keeping blocks contiguous.
        self.spare.clear();
        self.spare.push(self.nodes[new_root as usize].clone());
        let mut work = VecDeque::from([(new_root, 0u32)]);
        while let Some((old, new)) = work.pop_front() {
            let (first, block) = {
                let n = &self.nodes[old as usize];
                (n.first_child, n.block)
            };
            if block == 0 {
                continue;
            }
            let base = self.spare.len() as u32;
            for k in 0..block {
                self.spare.push(self.nodes[(first + k) as usize].clone());
                work.push_back((first + k, base + k));
            }
            self.spare[new as usize].first_child = base;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.spare.clear();
        self.root_state = Some(state.clone());
        true
    }
}
