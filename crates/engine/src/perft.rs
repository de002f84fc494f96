//! Perft: the number of nodes at an exact depth of the game tree, the standard check of a move
//! generator (docs/architecture.md section 3.2).

use crate::game::Game;
use crate::seat::{Actor, ToAct};

/// Counts the nodes exactly `depth` levels below `state`.
///
/// Every seat decision is a level and so is every chance outcome. At a simultaneous node each
/// (seat, action) pair of the acting seats is a child. A line that ends before `depth` adds nothing;
/// depth 0 counts `state` itself.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for_each_child(state, |actor, child_action| {
        if depth == 1 {
            total += 1;
        } else {
            let mut child = state.clone();
            child.apply_legal(actor, child_action);
            total += perft(&child, depth - 1);
        }
    });
    total
}

/// Calls `f` with every (actor, action) that leads from `state` to a child node.
pub fn for_each_child<G: Game>(state: &G, mut f: impl FnMut(Actor, &G::Action)) {
    match state.to_act() {
        ToAct::Terminal => {}
        ToAct::Chance => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            for (a, _) in &outcomes {
                f(Actor::Chance, a);
            }
        }
        ToAct::Player(seat) => {
            let mut actions = Vec::new();
            state.legal_actions(seat, &mut actions);
            for a in &actions {
                f(Actor::Seat(seat), a);
            }
        }
        ToAct::Simultaneous(set) => {
            let mut actions = Vec::new();
            for seat in set.iter() {
                state.legal_actions(seat, &mut actions);
                for a in &actions {
                    f(Actor::Seat(seat), a);
                }
            }
        }
    }
}
