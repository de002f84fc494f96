//! The plan resolving (rules/naval.md sections 5.6-5.11, 6, 7, 9, 10, 11): each ship's order in
//! importance order, shot by shot; rocket cells wait for their chance node; eliminations (12.1,
//! 12.2), the end of a turn (5.1, 7.6, 9 rule 5, 12.6) and the result (12.4-12.6).

use plateau_engine::{Outcome, Seat};

use crate::ability::Ability;
use crate::action::Order;
use crate::bits::{Bits, Cell};
use crate::board::Shield;
use crate::piece::{SHIPS, Ship};
use crate::state::{Announcement, Effect, Naval, Phase, Resolution, Turn};

impl Naval {
    /// Resolves orders from the cursor until a rocket node or the end of the turn.
    pub(crate) fn resume(&mut self) {
        loop {
            if matches!(self.phase, Phase::Over { .. }) || self.turn.rocket.is_some() {
                return;
            }
            let Some(k) = self.turn.cursor else {
                self.end_turn();
                return;
            };
            if self.turn.has_order(k) {
                self.resolve(k);
                if self.turn.rocket.is_some() {
                    return;
                }
            }
            self.turn.cursor = k.next();
        }
    }

    fn announce(&mut self, ship: Ship, order: Order, result: Resolution) {
        self.last_turn.push(Announcement {
            seat: self.current,
            ship,
            order,
            result,
            effect: Effect::default(),
        });
    }

    /// Notes a marker the order resolving left (its announcement is the last one: `shoot` runs
    /// only for the order just announced).
    fn note(&mut self, mark: impl FnOnce(&mut Effect)) {
        if let Some(a) = self.last_turn.last_mut() {
            mark(&mut a.effect);
        }
    }

    /// Resolves ship `k`'s order.
    fn resolve(&mut self, k: Ship) {
        let s = self.current;
        let order = self.turn.order(k);
        self.turn.miss_gain = [0; SHIPS];
        if let Some(t) = order.target()
            && t != s
            && self.board(t).out
        {
            self.announce(k, order, Resolution::Cancelled);
            return;
        }
        if let Some(ability) = order.ability() {
            self.pay(s, k, ability);
        }
        match order {
            Order::Pass => {
                self.gain_for_pass(s, k);
                self.announce(k, order, Resolution::Done);
            }
            Order::Fire { target, cell } => {
                if self.board(target).resolved().has(cell) {
                    self.announce(k, order, Resolution::Wasted);
                } else {
                    self.announce(k, order, Resolution::Done);
                    self.shoot(k, target, cell, true, false);
                }
            }
            Order::Special {
                ability,
                target: t,
                cell,
                vertical,
            } => {
                self.announce(k, order, Resolution::Done);
                self.special(k, ability, t, cell, vertical);
            }
            Order::Torpedo {
                target: t,
                dir,
                lane,
            } => {
                let live = self.board(t).live_ships();
                let mut passed = Bits::EMPTY;
                let mut trigger = None;
                for c in dir.lane(lane) {
                    if live.has(c) {
                        trigger = Some(c);
                        break;
                    }
                    passed.set(c);
                }
                self.boards[t.index()].lane_clear |= passed;
                let Some(c0) = trigger else {
                    self.announce(k, order, Resolution::Fizzled);
                    return;
                };
                self.announce(k, order, Resolution::Exploded(c0));
                self.boards[t.index()].ship_known.set(c0);
                let skip = self.board(t).resolved() | self.blocked_for(s, t);
                let blast = Ability::Torpedo.area(c0, false) & !skip;
                let first = blast & Bits::cell(c0);
                for c in first.iter().chain((blast & !Bits::cell(c0)).iter()) {
                    if self.shoot(k, t, c, false, true) {
                        break;
                    }
                }
            }
            Order::Emp { target } => {
                self.announce(k, order, Resolution::Done);
                self.boards[target.index()].emp_left = self.config.emp_turns;
            }
        }
    }

    /// `ability` of ship `k` of the current seat aimed at `cell` of board `t` (sections 6.4, 6.6,
    /// 9, 10): the shield goes up around `cell` of the owner's board; the other specials act on
    /// their area.
    fn special(&mut self, k: Ship, ability: Ability, t: Seat, cell: Cell, vertical: bool) {
        let s = self.current;
        let area = ability.area(cell, vertical);
        let blocked = self.blocked_for(s, t);
        let ti = t.index();
        match ability {
            Ability::Shield => {
                let b = &mut self.boards[s.index()];
                b.shield = Shield {
                    active: true,
                    public: false,
                    centre: cell,
                    area,
                    charges: self.config.shield_charges,
                    cast_resolved: b.resolved(),
                };
            }
            Ability::Satellite => self.scans[s.index()][ti].satellite |= area,
            Ability::Sonar => self.scans[s.index()][ti].sonar |= area,
            Ability::Radar => self.scans[s.index()][ti].radar |= area,
            Ability::Rockets => {
                let eligible = area & !(self.board(t).resolved() | blocked);
                self.turn.rocket = eligible.first();
            }
            Ability::Charges => {
                let b = self.board(t);
                let subs = if b.is_sunk(Ship::Submarine) {
                    Bits::EMPTY
                } else {
                    b.mask(Ship::Submarine.piece())
                };
                let targets = area & subs & !b.hit & !blocked;
                let clear = area & !(b.resolved() | blocked | targets);
                self.boards[ti].sub_known |= targets;
                self.boards[ti].sub_clear |= clear;
                for c in targets.iter() {
                    if self.shoot(k, t, c, false, false) {
                        break;
                    }
                }
            }
            _ => {
                let cells = area & !(self.board(t).resolved() | blocked);
                for c in cells.iter() {
                    if self.shoot(k, t, c, false, false) {
                        break;
                    }
                }
                if ability == Ability::Missile {
                    self.boards[s.index()].frigate_shown = true;
                }
            }
        }
    }

    /// The rocket node's outcome: the pending cell is shot or spared, then the next eligible cell
    /// of the salvo waits, or the next order resolves.
    pub(crate) fn rocket_outcome(&mut self, shot: bool) {
        let Some(c) = self.turn.rocket else { return };
        let s = self.current;
        let Some(k) = self.turn.cursor else {
            self.turn.rocket = None;
            return;
        };
        let Order::Special { target, cell, .. } = self.turn.order(k) else {
            self.turn.rocket = None;
            return;
        };
        let stop = shot && self.shoot(k, target, c, false, false);
        // The cells after `c` in row-major order.
        let after = Bits::FULL & !Bits::rect(0, 0, i32::from(c.row()) + 1, 14)
            | Bits::rect(i32::from(c.row()), i32::from(c.col()) + 1, 1, 14);
        let eligible = Ability::Rockets.area(cell, false)
            & after
            & !(self.board(target).resolved() | self.blocked_for(s, target));
        self.turn.rocket = if stop { None } else { eligible.first() };
        if self.turn.rocket.is_none() {
            self.turn.cursor = k.next();
            self.resume();
        }
    }

    /// One cell of board `t` receives a shot from the current seat's ship `k` (sections 6.3, 7, 8,
    /// 10, 11, 12). `normal` pays the firer (E2/E3). Returns whether the action must stop (the
    /// target is eliminated, section 5.7).
    fn shoot(&mut self, k: Ship, t: Seat, c: Cell, normal: bool, ignore_shield: bool) -> bool {
        let s = self.current;
        let b = &mut self.boards[t.index()];
        if !ignore_shield
            && b.shield.active
            && b.shield.area.has(c)
            && !b.mask(Ship::Corvette.piece()).has(c)
        {
            b.shield.charges -= 1;
            b.shield.public = true;
            b.deflected.set(c);
            if b.shield.charges == 0 {
                b.shield.active = false;
            }
            self.note(|e| e.deflected.set(c));
            return false;
        }
        let Some(p) = b.piece_at(c) else {
            b.miss.set(c);
            self.gain_for_near_miss(t, c);
            self.note(|e| e.misses.set(c));
            return false;
        };
        let fresh = !b.mask(p).meets(b.hit);
        b.hit.set(c);
        if fresh {
            b.first_hits.set(c);
            self.blocks[t.index()][s.index()] |= Bits::around(c);
        }
        self.note(|e| e.hits.set(c));
        let mut sank = false;
        if let Some(ship) = p.ship() {
            let b = &mut self.boards[t.index()];
            if b.mask(p).within(b.hit) {
                b.sunk |= ship.bit();
                b.energy[ship.index()] = 0;
                sank = true;
                self.note(|e| e.sunk |= ship.bit());
            } else {
                self.gain_for_damage(t, p);
            }
        }
        if normal {
            self.gain_for_hit(s, k, fresh, sank);
        }
        if sank && self.board(t).sunk == (1 << SHIPS) - 1 {
            self.eliminate(t);
            return true;
        }
        false
    }

    /// Seat `s` resigns (`Game::end(Ending::Resign)`): it is eliminated at once, as if its last
    /// ship had sunk (section 12.1-12.2; resignation itself is not in the rules, our extension,
    /// docs/rulings.md Bataille Navale 8). Its turn, if it was playing, ends without resolving; a
    /// rocket salvo at its board stops.
    pub(crate) fn resign(&mut self, s: Seat) {
        self.boards[s.index()].ready = true;
        self.eliminate(s);
        if matches!(self.phase, Phase::Over { .. }) {
            return;
        }
        let salvo_at_s = self.turn.rocket.is_some()
            && self
                .turn
                .cursor
                .is_some_and(|k| self.turn.order(k).target() == Some(s));
        match self.phase {
            Phase::Placement if self.boards.iter().all(|b| b.ready) => {
                self.phase = Phase::FirstPlayer
            }
            Phase::Battle if self.current == s => self.end_turn(),
            Phase::Battle if salvo_at_s => {
                self.turn.rocket = None;
                self.turn.cursor = self.turn.cursor.and_then(Ship::next);
                self.resume();
            }
            _ => {}
        }
    }

    fn eliminate(&mut self, t: Seat) {
        let b = &mut self.boards[t.index()];
        b.out = true;
        b.shield.active = false;
        self.out_order.push(t);
        for board in &mut self.blocks {
            board[t.index()] = Bits::EMPTY;
        }
        if self.alive_count() == 1 {
            self.phase = Phase::Over { limit: false };
            // No ship is to be ordered once the game is over (the position format relies on it).
            self.turn.next = None;
        }
    }

    /// Ends the current turn and starts the next living seat's (sections 5.1, 7.6, 9 rule 5, 12.6).
    pub(crate) fn end_turn(&mut self) {
        self.boards[self.current.index()].immune = false;
        self.turn = Turn::default();
        let mut seat = self.current;
        loop {
            seat = Seat((seat.0 + 1) % 4);
            if seat == self.first {
                self.rounds += 1;
                if self.rounds >= self.config.max_rounds {
                    self.phase = Phase::Over { limit: true };
                    self.turn.next = None;
                    return;
                }
            }
            if self.board(seat).out {
                continue;
            }
            for board in &mut self.blocks {
                board[seat.index()] = Bits::EMPTY;
            }
            let b = &mut self.boards[seat.index()];
            if b.emp_left > 0 {
                b.emp_left -= 1;
                b.immune = b.emp_left == 0;
                continue;
            }
            self.current = seat;
            self.turn.next = self.next_ship(seat, Some(Ship::Carrier));
            return;
        }
    }

    /// The result once the game is over (section 12.4-12.6).
    #[must_use]
    pub fn result(&self) -> Option<Outcome> {
        let Phase::Over { limit } = self.phase else {
            return None;
        };
        let alive: Vec<Seat> = Seat::all(4).filter(|&t| !self.board(t).out).collect();
        let unhit = |t: Seat| {
            let b = self.board(t);
            Ship::ALL
                .iter()
                .map(|k| (b.mask(k.piece()) & !b.hit).count())
                .sum::<u32>()
        };
        let mut ranks = vec![0u8; 4];
        let mut scores = vec![0.0; 4];
        for &t in &alive {
            let better = alive.iter().filter(|&&o| unhit(o) > unhit(t)).count();
            ranks[t.index()] = 1 + better as u8;
            scores[t.index()] = if limit { f64::from(unhit(t)) } else { 1.0 };
        }
        for (i, &t) in self.out_order.iter().rev().enumerate() {
            ranks[t.index()] = (alive.len() + i + 1) as u8;
        }
        let kind = if limit { "round_limit" } else { "last_fleet" };
        Some(Outcome {
            ranks,
            scores,
            kind: kind.to_owned(),
        })
    }
}
