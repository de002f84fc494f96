//! rules/naval.md section 14: every numbered edge case, with its expected value, by part of the
//! rules: placement and turns (cases 1-20), weapons and their results (21-40), energy, blocks,
//! shields and the rest (44-64). Seats are 0-based in the test names and code; actions are
//! written in notation (written seat = seat + 1).

use crate::common;

mod energy_blocks_shields;
mod placement_and_turns;
mod weapons;

use plateau_engine::{Actor, Game, Seat, ToAct, Viewer};
use plateau_naval::Naval;

fn obs(g: &Naval, s: u8) -> plateau_naval::Observation {
    g.observe(Viewer::Seat(Seat(s)))
}

fn layout_all(g: &mut Naval) {
    let mut out = Vec::new();
    let mut n = 0usize;
    while g.to_act() == ToAct::Chance {
        g.chance_outcomes(&mut out);
        let (a, _) = out[(n * 7919) % out.len()];
        g.apply(Actor::Chance, &a).unwrap();
        n += 1;
    }
}
