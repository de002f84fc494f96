//! The layout search: the hidden pieces placed around the fixed cells by a randomized, then
//! complete, backtracking search that covers every marker the model asks to cover.

use rand::Rng;
use rand::seq::SliceRandom;

use super::{ATTEMPTS, Cover, Need, Search};
use crate::bits::{Bits, CELLS, Cell};
use crate::piece::Piece;

impl Search {
    /// Finds a layout of the hidden pieces around the `fixed` cells: `ATTEMPTS - 1` randomized
    /// attempts of `budget` nodes, then a complete one. `false` only if no layout exists, which
    /// the true layout rules out (were the model ever wrong, a debug build stops here and a
    /// release build keeps drawing on the free cells, ignoring the markers to cover, rather than
    /// use the true layout).
    pub(super) fn solve<R: Rng + ?Sized>(
        &mut self,
        fixed: Bits,
        budget: usize,
        rng: &mut R,
    ) -> bool {
        let none = Cover {
            any: Bits::EMPTY,
            ship: Bits::EMPTY,
            sub: Bits::EMPTY,
            contact: Bits::EMPTY,
        };
        for attempt in 0..ATTEMPTS {
            for list in &mut self.candidates {
                list.shuffle(rng);
            }
            self.placed.fill(None);
            self.nodes = 0;
            self.limit = if attempt + 1 == ATTEMPTS {
                usize::MAX
            } else {
                budget
            };
            if self.run(fixed, none, rng) {
                return true;
            }
        }
        debug_assert!(false, "no layout consistent with the markers");
        self.need = Need {
            any: Bits::EMPTY,
            ship: Bits::EMPTY,
            sub: Bits::EMPTY,
            contact: Bits::EMPTY,
        };
        self.placed.fill(None);
        self.run(fixed, none, rng)
    }

    /// Whether footprint `m` of piece `p` is free and covers no required cell of the wrong kind.
    pub(super) fn fits(&self, p: Piece, m: Bits, occupied: Bits) -> bool {
        !m.meets(occupied | self.wrong_kind(p))
    }

    /// Required cells piece `p` may not cover: a ship's cells for a buoy, a contact for the
    /// submarine, the submarine's for another ship.
    fn wrong_kind(&self, p: Piece) -> Bits {
        let n = &self.need;
        if p.is_buoy() {
            n.ship | n.sub
        } else if p == Piece::Submarine {
            n.contact
        } else {
            n.sub
        }
    }

    /// Whether piece `i` stands for its kind: of identical hidden buoys only the first unplaced
    /// one is branched on (the others would repeat the same subtrees).
    fn represents(&self, i: usize) -> bool {
        let p = self.hidden[i];
        !p.is_buoy() || !(0..i).any(|j| self.hidden[j].is_buoy() && self.placed[j].is_none())
    }

    /// Places the unplaced pieces given `occupied` cells and what is covered so far; `false` when
    /// no placement exists below this node or the attempt's budget ran out.
    fn run<R: Rng + ?Sized>(&mut self, occupied: Bits, cov: Cover, rng: &mut R) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return false;
        }
        let n = &self.need;
        let miss = Cover {
            any: n.any & !cov.any,
            ship: n.ship & !cov.ship,
            sub: n.sub & !cov.sub,
            contact: n.contact & !cov.contact,
        };
        let missing = miss.any | miss.ship | miss.sub | miss.contact;
        // Forward check over the valid footprints of every unplaced piece.
        let mut options: Vec<(usize, usize)> = Vec::new();
        let mut coverable = Bits::EMPTY;
        let mut best = [0u32; 4]; // summed best coverage: any, ship, sub, contact
        let mut tightest: Option<(usize, usize)> = None; // (piece, valid footprints)
        let mut any_unplaced = false;
        for i in 0..self.hidden.len() {
            if self.placed[i].is_some() {
                continue;
            }
            any_unplaced = true;
            let p = self.hidden[i];
            let represents = self.represents(i);
            let (mut count, mut top) = (0usize, [0u32; 4]);
            let bad = occupied | self.wrong_kind(p);
            for (j, &(_, _, m)) in self.candidates[i].iter().enumerate() {
                if m.meets(bad) {
                    continue;
                }
                count += 1;
                coverable |= m;
                // Only a footprint over a missing cell counts anything: most cover none.
                if !m.meets(missing) {
                    continue;
                }
                top[0] = top[0].max((m & missing).count());
                top[1] = top[1].max((m & miss.ship).count());
                top[2] = top[2].max((m & miss.sub).count());
                top[3] = top[3].max((m & miss.contact).count());
                if represents {
                    options.push((i, j));
                }
            }
            if count == 0 {
                return false;
            }
            best[0] += top[0];
            if !p.is_buoy() {
                best[1] += top[1];
            }
            if p == Piece::Submarine {
                best[2] += top[2];
            } else {
                best[3] += top[3];
            }
            if represents && tightest.is_none_or(|(_, c)| count < c) {
                tightest = Some((i, count));
            }
        }
        if !any_unplaced {
            return missing.is_empty();
        }
        if !missing.within(coverable)
            || best[0] < missing.count()
            || best[1] < miss.ship.count()
            || best[2] < miss.sub.count()
            || best[3] < miss.contact.count()
        {
            return false;
        }
        if missing.is_empty() {
            // Everything required is covered: the most constrained piece goes anywhere free.
            let Some((i, _)) = tightest else {
                return false;
            };
            let p = self.hidden[i];
            for j in 0..self.candidates[i].len() {
                let (cell, v, m) = self.candidates[i][j];
                if !self.fits(p, m, occupied) {
                    continue;
                }
                if self.place(i, (cell, v, m), occupied, cov, rng) {
                    return true;
                }
                if self.nodes > self.limit {
                    return false;
                }
            }
            return false;
        }
        // Branch on the missing cell the fewest footprints can cover, in random order.
        let mut counts = [0u16; CELLS];
        for &(i, j) in &options {
            for c in (self.candidates[i][j].2 & missing).iter() {
                counts[c.index()] += 1;
            }
        }
        let Some(c) = missing.iter().min_by_key(|&c| counts[c.index()]) else {
            return false;
        };
        options.retain(|&(i, j)| self.candidates[i][j].2.has(c));
        options.shuffle(rng);
        for (i, j) in options {
            if self.place(i, self.candidates[i][j], occupied, cov, rng) {
                return true;
            }
            if self.nodes > self.limit {
                return false;
            }
        }
        false
    }

    /// Puts piece `i` on `slot` and searches on; takes it back on failure.
    fn place<R: Rng + ?Sized>(
        &mut self,
        i: usize,
        slot: (Cell, bool, Bits),
        occupied: Bits,
        cov: Cover,
        rng: &mut R,
    ) -> bool {
        let p = self.hidden[i];
        let m = slot.2;
        let next = Cover {
            any: cov.any | m,
            ship: if p.is_buoy() { cov.ship } else { cov.ship | m },
            sub: if p == Piece::Submarine {
                cov.sub | m
            } else {
                cov.sub
            },
            contact: if p == Piece::Submarine {
                cov.contact
            } else {
                cov.contact | m
            },
        };
        self.placed[i] = Some(slot);
        if self.run(occupied | m, next, rng) {
            return true;
        }
        self.placed[i] = None;
        false
    }
}
