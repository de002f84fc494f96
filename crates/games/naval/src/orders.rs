//! Which orders a ship may be given (rules/naval.md sections 3, 5.4, 5.5, 6, 7, 9, 10), from one
//! source: the legal list, the check of one order and the uniform random order all derive from
//! `Naval::families`.
//!
//! A *family* is a set of orders that share every condition but their aim: the normal shots of a
//! ship at one board, one special at one board in one orientation, the torpedoes at one board in
//! one direction, the EMP on one seat. `families` lists the families open to a ship, each with its
//! set of aims, by asking the rules below one question at a time (is this board a target, is there
//! energy, may a torpedo enter this way, ...). The list is every aim of every open family; the
//! check of an order asks the same questions of its own family and aim, and a refusal names the
//! first rule that fails; a random order is the n-th of the list without building it.

use plateau_engine::Seat;
use rand::Rng;

use crate::ability::{Ability, DIRS, Dir};
use crate::action::{Action, Order};
use crate::bits::{Bits, SIDE};
use crate::piece::Ship;
use crate::state::Naval;

mod refusal;

pub use refusal::Refusal;

/// Why a cell may not be picked for a normal shot.
#[derive(Clone, Copy, Debug)]
enum Exclusion {
    /// Hit or missed already (section 6.1).
    Resolved,
    /// Blocked for the shooter (section 7).
    Blocked,
    /// Picked by a higher-ranked ship's normal shot (section 5.5).
    Picked,
}

/// A set of orders of one ship sharing every condition but their aim (module doc).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Family {
    /// The pass: always open.
    Pass,
    /// Normal shots at `target`, one per cell of `cells`.
    Fire { target: Seat, cells: Bits },
    /// `ability` at `target` (the owner's own seat for the shield) in one orientation, one
    /// order per cell of `cells`.
    Special {
        ability: Ability,
        target: Seat,
        vertical: bool,
        cells: Bits,
    },
    /// Torpedoes at `target` moving `dir`, one per lane.
    Torpedo { target: Seat, dir: Dir },
    /// The EMP on `target`.
    Emp { target: Seat },
}

impl Family {
    /// Orders in the family.
    fn count(&self) -> u32 {
        match self {
            Family::Pass | Family::Emp { .. } => 1,
            Family::Fire { cells, .. } | Family::Special { cells, .. } => cells.count(),
            Family::Torpedo { .. } => u32::from(SIDE),
        }
    }

    /// The `n`-th order of the family (`n < count`), in list order.
    fn nth(&self, n: u32) -> Order {
        let cell = |cells: &Bits| cells.nth(n).unwrap_or_default();
        match *self {
            Family::Pass => Order::Pass,
            Family::Fire { target, ref cells } => Order::Fire {
                target,
                cell: cell(cells),
            },
            Family::Special {
                ability,
                target,
                vertical,
                ref cells,
            } => Order::Special {
                ability,
                target,
                cell: cell(cells),
                vertical,
            },
            Family::Torpedo { target, dir } => Order::Torpedo {
                target,
                dir,
                lane: n as u8,
            },
            Family::Emp { target } => Order::Emp { target },
        }
    }

    /// Writes every order of the family, in list order.
    fn push_all(&self, ship: Ship, out: &mut Vec<Action>) {
        let mut push = |order| out.push(Action::Order { ship, order });
        match *self {
            Family::Pass => push(Order::Pass),
            Family::Fire { target, cells } => {
                for cell in cells.iter() {
                    push(Order::Fire { target, cell });
                }
            }
            Family::Special {
                ability,
                target,
                vertical,
                cells,
            } => {
                for cell in cells.iter() {
                    push(Order::Special {
                        ability,
                        target,
                        cell,
                        vertical,
                    });
                }
            }
            Family::Torpedo { target, dir } => {
                for lane in 0..SIDE {
                    push(Order::Torpedo { target, dir, lane });
                }
            }
            Family::Emp { target } => push(Order::Emp { target }),
        }
    }
}

/// The open families of one ship: at most a pass, three boards to fire at, and per special
/// three boards times four torpedo directions or two bombing orientations.
pub(crate) struct Families {
    items: [Family; Families::CAPACITY],
    len: usize,
}

impl Families {
    const CAPACITY: usize = 1 + 3 + 12;

    fn new() -> Self {
        Families {
            items: [Family::Pass; Families::CAPACITY],
            len: 0,
        }
    }

    fn push(&mut self, f: Family) {
        // The bound above is the rules' own count of families; more is a defect of this module.
        assert!(
            self.len < Families::CAPACITY,
            "more families than the rules allow"
        );
        self.items[self.len] = f;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[Family] {
        &self.items[..self.len]
    }
}

impl Naval {
    // ---- The rules, one question each ------------------------------------------------------------

    /// Whether `t` may be targeted by seat `s` (sections 6.2 and 12.2).
    fn target_ok(&self, s: Seat, t: Seat) -> Result<(), Refusal> {
        if t.index() >= 4 {
            Err(Refusal::NoSeat(t))
        } else if t == s {
            Err(Refusal::OwnBoard)
        } else if self.board(t).out {
            Err(Refusal::Eliminated(t))
        } else {
            Ok(())
        }
    }

    /// Whether `ship` of seat `s` may use `ability` now: its own special, with the energy
    /// (sections 5.4 and 9).
    pub(crate) fn special_ok(&self, s: Seat, ship: Ship, ability: Ability) -> Result<(), Refusal> {
        if ability.ship() != ship {
            return Err(Refusal::NotItsAbility { ship, ability });
        }
        let has = self.board(s).energy[ship.index()];
        let cost = self.config.costs.of(ability);
        if has < cost {
            return Err(Refusal::Energy {
                ship,
                has,
                ability,
                cost,
            });
        }
        Ok(())
    }

    /// Whether a torpedo from `s` may enter `t`'s board moving `dir` (sections 3 and 9).
    fn torpedo_ok(&self, s: Seat, t: Seat, dir: Dir) -> Result<(), Refusal> {
        if !self.adjacent(s, t) {
            return Err(Refusal::Opposite(t));
        }
        match Dir::between(s, t) {
            Some(one) if one != dir => Err(Refusal::Direction(s, t)),
            _ => Ok(()),
        }
    }

    /// Whether `t` may be hit by an EMP now (section 9 rule 5).
    fn emp_ok(&self, t: Seat) -> Result<(), Refusal> {
        let b = self.board(t);
        if b.emp_left > 0 {
            Err(Refusal::Disabled(t))
        } else if b.immune {
            Err(Refusal::Immune(t))
        } else {
            Ok(())
        }
    }

    /// The cells of board `t` seat `s` may not pick for a normal shot, each set with the rule
    /// that excludes it, in the order a refusal names them: resolved (section 6.1), blocked (7),
    /// picked (5.5).
    fn fire_exclusions(&self, s: Seat, t: Seat) -> [(Bits, Exclusion); 3] {
        [
            (self.board(t).resolved(), Exclusion::Resolved),
            (self.blocked_for(s, t), Exclusion::Blocked),
            (self.picked(t), Exclusion::Picked),
        ]
    }

    /// Cells seat `s` may pick for a normal shot on `t` now (section 6.1, 7, 5.5).
    #[must_use]
    pub fn fire_targets(&self, s: Seat, t: Seat) -> Bits {
        let excluded = self
            .fire_exclusions(s, t)
            .iter()
            .fold(Bits::EMPTY, |a, (b, _)| a | *b);
        !excluded
    }

    /// Cells a shield may be centred on: cells of the owner's unsunk ships but the corvette (10.1).
    #[must_use]
    pub fn shield_centres(&self, s: Seat) -> Bits {
        let b = self.board(s);
        Ship::ALL
            .into_iter()
            .filter(|&k| k != Ship::Corvette && !b.is_sunk(k))
            .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()))
    }

    /// Cells of board `t` that `shooter` may not shoot: blocks of every other owner (section 7.5).
    #[must_use]
    pub fn blocked_for(&self, shooter: Seat, t: Seat) -> Bits {
        let mut b = Bits::EMPTY;
        for (o, bits) in self.blocks[t.index()].iter().enumerate() {
            if o != shooter.index() {
                b |= *bits;
            }
        }
        b
    }

    /// Whether `t` counts as adjacent to `s` for torpedoes (section 3, duel exception).
    #[must_use]
    pub fn adjacent(&self, s: Seat, t: Seat) -> bool {
        (t.0 + 4 - s.0) % 4 != 2 || self.alive_count() == 2
    }

    /// The torpedo directions legal from `s` at `t` (section 3 table).
    pub fn torpedo_dirs(&self, s: Seat, t: Seat) -> impl Iterator<Item = Dir> + use<'_> {
        DIRS.into_iter()
            .filter(move |&d| self.torpedo_ok(s, t, d).is_ok())
    }

    /// Cells picked for normal shots on `t` by the orders given so far this turn (section 5.5).
    fn picked(&self, t: Seat) -> Bits {
        let mut b = Bits::EMPTY;
        for k in Ship::ALL {
            if self.turn.has_order(k)
                && let Order::Fire { target, cell } = self.turn.order(k)
                && target == t
            {
                b.set(cell);
            }
        }
        b
    }

    // ---- The families ----------------------------------------------------------------------------

    /// The families open to `ship` of seat `s` now, in list order: the pass, the normal shots
    /// board by board, then each special of the ship (section 9 table order) board by board.
    pub(crate) fn families(&self, s: Seat, ship: Ship) -> Families {
        let mut out = Families::new();
        out.push(Family::Pass);
        for t in self.opponents(s) {
            out.push(Family::Fire {
                target: t,
                cells: self.fire_targets(s, t),
            });
        }
        for ability in Ability::of_ship(ship) {
            if self.special_ok(s, ship, ability).is_err() {
                continue;
            }
            match ability {
                Ability::Shield => out.push(Family::Special {
                    ability,
                    target: s,
                    vertical: false,
                    cells: self.shield_centres(s),
                }),
                Ability::Torpedo => {
                    for t in self.opponents(s) {
                        for dir in self.torpedo_dirs(s, t) {
                            out.push(Family::Torpedo { target: t, dir });
                        }
                    }
                }
                Ability::Emp => {
                    for t in self.opponents(s).filter(|&t| self.emp_ok(t).is_ok()) {
                        out.push(Family::Emp { target: t });
                    }
                }
                _ => {
                    for t in self.opponents(s) {
                        for &vertical in ability.orientations() {
                            out.push(Family::Special {
                                ability,
                                target: t,
                                vertical,
                                cells: ability.aims(vertical),
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// Writes the legal orders of `ship` of seat `s`: every order of every open family.
    pub fn list_orders(&self, s: Seat, ship: Ship, out: &mut Vec<Action>) {
        for family in self.families(s, ship).as_slice() {
            family.push_all(ship, out);
        }
    }

    /// A uniformly random legal order for `ship` of seat `s`: the order `list_orders` writes at
    /// a uniformly drawn place, found without writing the list.
    pub(crate) fn random_order<R: Rng + ?Sized>(&self, s: Seat, ship: Ship, rng: &mut R) -> Order {
        let families = self.families(s, ship);
        let total: u32 = families.as_slice().iter().map(Family::count).sum();
        let mut n = rng.random_range(0..total);
        for family in families.as_slice() {
            let k = family.count();
            if n < k {
                return family.nth(n);
            }
            n -= k;
        }
        Order::Pass
    }

    /// Whether `ship` of seat `s` may be given `order` now: the questions `families` asks, for
    /// this order's family and aim.
    ///
    /// # Errors
    /// The first rule the order breaks.
    pub fn check_order(&self, s: Seat, ship: Ship, order: &Order) -> Result<(), Refusal> {
        if let Some(ability) = order.ability() {
            self.special_ok(s, ship, ability)?;
        }
        match *order {
            Order::Pass => Ok(()),
            Order::Fire { target, cell } => {
                self.target_ok(s, target)?;
                let excluded = self
                    .fire_exclusions(s, target)
                    .into_iter()
                    .find(|(cells, _)| cells.has(cell));
                match excluded {
                    None => Ok(()),
                    Some((_, Exclusion::Resolved)) => Err(Refusal::Resolved(target, cell)),
                    Some((_, Exclusion::Picked)) => Err(Refusal::Picked(target, cell)),
                    Some((_, Exclusion::Blocked)) => {
                        let blocks = &self.blocks[target.index()];
                        let owners = std::array::from_fn(|o| o != s.index() && blocks[o].has(cell));
                        Err(Refusal::Blocked(target, cell, owners))
                    }
                }
            }
            Order::Special {
                ability: Ability::Shield,
                target,
                cell,
                vertical,
            } => {
                if target != s {
                    return Err(Refusal::ShieldElsewhere);
                }
                if vertical {
                    return Err(Refusal::ShieldOrientation);
                }
                if self.board(s).mask(Ship::Corvette.piece()).has(cell) {
                    return Err(Refusal::ShieldOnCorvette);
                }
                if !self.shield_centres(s).has(cell) {
                    return Err(Refusal::ShieldOffShips(cell));
                }
                Ok(())
            }
            Order::Special {
                ability,
                target,
                cell,
                vertical,
            } => {
                if !ability.is_area() {
                    return Err(Refusal::NotAimed(ability));
                }
                self.target_ok(s, target)?;
                if vertical && !ability.has_orientation() {
                    return Err(Refusal::NoOrientation(ability));
                }
                let n = ability.normalise(cell, vertical);
                if !ability.aims(vertical).has(cell) {
                    return Err(Refusal::NotNormalised(cell, n));
                }
                Ok(())
            }
            Order::Torpedo { target, dir, lane } => {
                self.target_ok(s, target)?;
                if lane >= SIDE {
                    return Err(Refusal::NoLane);
                }
                self.torpedo_ok(s, target, dir)
            }
            Order::Emp { target } => {
                self.target_ok(s, target)?;
                self.emp_ok(target)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use plateau_engine::{Actor, Game, Seat};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::Config;
    use crate::ability::ABILITIES;
    use crate::bits::Cell;
    use crate::state::Phase;

    /// The check accepts exactly the listed orders: every listed order passes, and every other
    /// order of the ship's own notation space (every kind, target, aim, lane) is refused.
    #[test]
    fn the_check_accepts_exactly_the_list() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut g = Naval::new(&Config::default(), 4).unwrap();
        let mut checked = 0;
        while checked < 12 && !matches!(g.phase, Phase::Over { .. }) {
            let (actor, a) = g.random_action(&mut rng).unwrap();
            if let (Phase::Battle, Actor::Seat(s), Action::Order { ship, .. }) = (g.phase, actor, a)
                && g.turn.rocket.is_none()
            {
                if checked % 2 == 0 {
                    for e in &mut g.boards[s.index()].energy {
                        *e = 1000;
                    }
                }
                let mut listed = Vec::new();
                g.list_orders(s, ship, &mut listed);
                let listed: HashSet<Action> = listed.into_iter().collect();
                for order in every_order(s) {
                    let action = Action::Order { ship, order };
                    assert_eq!(
                        g.check_order(s, ship, &order).is_ok(),
                        listed.contains(&action),
                        "{}",
                        crate::action::format_action(&action)
                    );
                }
                checked += 1;
            }
            g.apply(actor, &a).unwrap();
        }
        assert_eq!(checked, 12);
    }

    /// Every order text could name: passes, shots and specials at every seat and cell in both
    /// orientations, torpedoes at every seat, direction and lane, EMPs at every seat.
    fn every_order(s: Seat) -> Vec<Order> {
        let mut out = vec![Order::Pass];
        for target in Seat::all(4) {
            out.push(Order::Emp { target });
            for cell in Cell::all() {
                out.push(Order::Fire { target, cell });
                for ability in ABILITIES {
                    for vertical in [false, true] {
                        out.push(Order::Special {
                            ability,
                            target,
                            cell,
                            vertical,
                        });
                    }
                }
            }
            for dir in DIRS {
                for lane in 0..SIDE {
                    out.push(Order::Torpedo { target, dir, lane });
                }
            }
        }
        let _ = s;
        out
    }
}
