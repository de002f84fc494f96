//! Determinization for bots (rules/naval.md section 13): a state drawn from those a seat cannot
//! tell apart from the true one.
//!
//! For every other living board the hidden pieces (all but sunk ships, sunk-looking buoys, a
//! revealed frigate and pieces the viewer's satellite found) are laid out again so that every
//! public marker and every detection result of the viewer stays as it is: hits are covered, misses
//! are water, torpedo lanes and charges agree, sonar and radar areas show the same marks, no hidden
//! ship is fully hit. The search picks the first uncovered required cell in row-major order and
//! tries, in random order, every hidden piece footprint that covers it; once all are covered the
//! remaining pieces go anywhere allowed. A forward check prunes branches that leave a required cell
//! uncoverable, and branching goes to the cell the fewest pieces can cover. It gives up after a
//! node budget and then keeps the true layout of that board (always consistent, but a leak to the
//! bot): about 1.5% of the boards of late random games (`tests/secrecy.rs` prints the count).
//! Hidden energies are drawn afresh (multiples of 25), a hidden shield is recentred on a sampled
//! ship, and another seat's unresolved orders become passes.

use rand::Rng;
use rand::seq::SliceRandom;

use crate::action::{CORVETTE, Order, PIECES, SHIPS, SUBMARINE, footprint, is_buoy};
use crate::bits::{Bits, CELLS, Cell};
use crate::state::{Naval, Phase};

/// Search nodes tried per board before keeping the true layout.
const BUDGET: usize = 4000;

/// Cells a hidden piece must cover, and by which kind of piece.
struct Need {
    /// Any piece (hits).
    any: Bits,
    /// A ship (torpedo triggers, hit cells that cannot be buoys, sonar marks).
    ship: Bits,
    /// The submarine (charges hits).
    sub: Bits,
    /// A non-submarine ship or a buoy (radar contacts).
    contact: Bits,
}

/// Per-piece-kind forbidden cells.
struct Forbid {
    /// No hidden piece at all.
    all: Bits,
    /// No hidden ship.
    ship: Bits,
    /// No hidden buoy.
    buoy: Bits,
    /// No hidden submarine.
    sub: Bits,
    /// No hidden non-submarine ship.
    surface: Bits,
}

struct Search {
    hidden: Vec<u8>,
    candidates: Vec<Vec<(Cell, bool, Bits)>>,
    need: Need,
    hit: Bits,
    nodes: usize,
    placed: Vec<Option<(Cell, bool, Bits)>>,
}

impl Naval {
    /// See the module documentation.
    pub(crate) fn sample_for<R: Rng + ?Sized>(&self, viewer: u8, rng: &mut R) -> Naval {
        let mut g = self.clone();
        if matches!(self.phase, Phase::Over { .. }) {
            return g;
        }
        for t in 0..4usize {
            if t == viewer as usize || self.boards[t].out || viewer >= 4 {
                continue;
            }
            self.resample_board(&mut g, viewer as usize, t, rng);
            let b = &mut g.boards[t];
            for k in 0..SHIPS {
                if !b.is_sunk(k as u8) {
                    b.energy[k] = 25 * rng.random_range(0..=40u16);
                }
            }
        }
        // Another seat's orders not yet resolved are its secret: they become passes.
        if matches!(self.phase, Phase::Battle) && self.current != viewer {
            let from = if self.turn.resolving {
                self.turn.cursor + 1
            } else {
                0
            };
            for k in from as usize..SHIPS {
                if g.turn.given & 1 << k != 0 {
                    g.turn.orders[k] = Order::Pass;
                }
            }
        }
        g
    }

    fn resample_board<R: Rng + ?Sized>(&self, g: &mut Naval, viewer: usize, t: usize, rng: &mut R) {
        let b = &self.boards[t];
        let scan = self.scans[viewer][t];
        let resolved = b.resolved();
        // Fixed pieces: known to the viewer exactly.
        let sunk_buoys = b.sunk_buoys();
        let mut fixed = Bits::EMPTY;
        let mut hidden = Vec::new();
        for p in 0..b.placed {
            let m = b.masks[p as usize];
            let known = if is_buoy(p) {
                m.meets(sunk_buoys) || m.within(scan.satellite)
            } else {
                b.is_sunk(p)
                    || (p == crate::action::FRIGATE && b.frigate_shown)
                    || (p != SUBMARINE && m.meets(scan.satellite))
            };
            if known {
                fixed |= m;
            } else {
                hidden.push(p);
            }
        }
        if hidden.is_empty() {
            return;
        }
        let ships = (0..SHIPS).fold(Bits::EMPTY, |a, k| a | b.masks[k]);
        let sonar_marks = ships & scan.sonar;
        let radar_marks = (b.occ & !b.masks[SUBMARINE as usize]) & scan.radar;
        // Hit cells whose neighbours are all resolved are not buoys (they would show sunk).
        let mut not_buoy = Bits::EMPTY;
        for c in b.hit.iter() {
            if Bits::around(c).within(resolved) {
                not_buoy.set(c);
            }
        }
        let forbid = Forbid {
            all: b.miss | fixed,
            ship: b.lane_clear | (scan.sonar & !sonar_marks),
            buoy: scan.satellite
                | sonar_marks
                | b.ship_known
                | b.sub_known
                | not_buoy
                | (scan.radar & !radar_marks),
            sub: b.sub_clear,
            surface: scan.satellite | b.sub_known | (scan.radar & !radar_marks),
        };
        let need = Need {
            any: b.hit & !fixed,
            ship: (b.ship_known | sonar_marks | not_buoy) & !fixed,
            sub: b.sub_known & !fixed,
            contact: radar_marks & !fixed,
        };
        let mut candidates = Vec::with_capacity(hidden.len());
        for &p in &hidden {
            let mut bad = forbid.all;
            if is_buoy(p) {
                bad |= forbid.buoy;
            } else {
                bad |= forbid.ship;
                bad |= if p == SUBMARINE {
                    forbid.sub
                } else {
                    forbid.surface
                };
            }
            let mut list = Vec::new();
            let orientations: &[bool] = if is_buoy(p) { &[false] } else { &[false, true] };
            for &v in orientations {
                for c in 0..CELLS as Cell {
                    if let Some(m) = footprint(p, c, v)
                        && !m.meets(bad)
                        && (is_buoy(p) || !m.within(b.hit))
                    {
                        list.push((c, v, m));
                    }
                }
            }
            list.shuffle(rng);
            candidates.push(list);
        }
        let mut search = Search {
            placed: vec![None; hidden.len()],
            hidden,
            candidates,
            need,
            hit: b.hit,
            nodes: 0,
        };
        if search.run(fixed) {
            let nb = &mut g.boards[t];
            for (i, &p) in search.hidden.iter().enumerate() {
                if let Some((c, v, m)) = search.placed[i] {
                    nb.put(p, c, v, m);
                }
            }
            self.recentre_shield(g, t, rng);
        }
    }

    /// Puts a hidden shield of board `t` on a cell of the sampled fleet where it could have stood
    /// unseen since it was cast.
    fn recentre_shield<R: Rng + ?Sized>(&self, g: &mut Naval, t: usize, rng: &mut R) {
        let b = &g.boards[t];
        if !b.shield.active || b.shield.public {
            return;
        }
        let since = b.resolved() & !b.shield.cast_resolved;
        let corvette = b.masks[CORVETTE as usize];
        let mut options: Vec<Cell> = g
            .shield_centres(t as u8)
            .iter()
            .filter(|&c| {
                let area = crate::action::Ability::Shield.area(c, false);
                !(area & !corvette).meets(since)
            })
            .collect();
        if options.is_empty() {
            return;
        }
        options.shuffle(rng);
        let c = options[0];
        let s = &mut g.boards[t].shield;
        s.centre = c;
        s.area = crate::action::Ability::Shield.area(c, false);
    }
}

impl Search {
    fn covered(&self) -> (Bits, Bits, Bits, Bits) {
        let (mut any, mut ship, mut sub, mut contact) =
            (Bits::EMPTY, Bits::EMPTY, Bits::EMPTY, Bits::EMPTY);
        for (i, slot) in self.placed.iter().enumerate() {
            if let Some((_, _, m)) = slot {
                let p = self.hidden[i];
                any |= *m;
                if !is_buoy(p) {
                    ship |= *m;
                }
                if p == SUBMARINE {
                    sub |= *m;
                } else {
                    contact |= *m;
                }
            }
        }
        (any, ship, sub, contact)
    }

    /// Whether footprint `m` of piece `p` leaves every required cell it covers satisfiable.
    fn fits(&self, p: u8, m: Bits, occupied: Bits) -> bool {
        if m.meets(occupied) {
            return false;
        }
        let n = &self.need;
        let wrong_kind = if is_buoy(p) {
            n.ship | n.sub
        } else if p == SUBMARINE {
            n.contact
        } else {
            n.sub
        };
        !m.meets(wrong_kind)
    }

    fn run(&mut self, fixed: Bits) -> bool {
        self.nodes += 1;
        if self.nodes > BUDGET {
            return false;
        }
        let (any, _, _, _) = self.covered();
        let occupied = any | fixed;
        let required = self.need.any | self.need.ship | self.need.sub | self.need.contact;
        let missing = required & !any;
        if !missing.is_empty() {
            // Forward check: every missing cell must be coverable by some unplaced piece; branch
            // on the cell the fewest pieces can cover.
            let mut unions = vec![Bits::EMPTY; self.hidden.len()];
            for (i, union) in unions.iter_mut().enumerate() {
                if self.placed[i].is_some() {
                    continue;
                }
                let p = self.hidden[i];
                for &(_, _, m) in &self.candidates[i] {
                    if self.fits(p, m, occupied) {
                        *union |= m;
                    }
                }
            }
            let coverable = unions.iter().fold(Bits::EMPTY, |a, u| a | *u);
            if !missing.within(coverable) {
                return false;
            }
            let Some(c) = missing
                .iter()
                .min_by_key(|&c| unions.iter().filter(|u| u.has(c)).count())
            else {
                return false;
            };
            for i in 0..self.hidden.len() {
                if self.placed[i].is_some() {
                    continue;
                }
                let p = self.hidden[i];
                for j in 0..self.candidates[i].len() {
                    let (cell, v, m) = self.candidates[i][j];
                    if !m.has(c) || !self.fits(p, m, occupied) {
                        continue;
                    }
                    self.placed[i] = Some((cell, v, m));
                    if self.run(fixed) {
                        return true;
                    }
                    self.placed[i] = None;
                    if self.nodes > BUDGET {
                        return false;
                    }
                }
            }
            return false;
        }
        // Everything required is covered: the rest go on free cells, avoiding required cells (a
        // second piece there would overlap) and hits (a hit would need covering already).
        let Some(i) = (0..self.hidden.len()).find(|&i| self.placed[i].is_none()) else {
            return true;
        };
        let p = self.hidden[i];
        let avoid = occupied | self.hit | required;
        for j in 0..self.candidates[i].len() {
            let (cell, v, m) = self.candidates[i][j];
            if m.meets(avoid) || !self.fits(p, m, occupied) {
                continue;
            }
            self.placed[i] = Some((cell, v, m));
            if self.run(fixed) {
                return true;
            }
            self.placed[i] = None;
            if self.nodes > BUDGET {
                return false;
            }
        }
        false
    }
}

/// Keeps the compiler honest about the piece count the search assumes.
const _: () = assert!(PIECES == 9);
