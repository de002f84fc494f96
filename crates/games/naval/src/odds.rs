//! Targeting odds for bots: how likely each cell of an opponent's board is to hold an unhit cell
//! of a ship, from what one seat knows (rules/naval.md section 13). Nothing here changes the rules;
//! the bots' policies (`policy`) aim with these maps.
//!
//! Two maps, one interface (`Odds`):
//! - `Naval::odds` counts, ship by ship, the footprints the viewer's information allows (the
//!   determinization model of `determinize`: misses, sunk ships, buoys shown sunk, torpedo lanes,
//!   charges, the viewer's satellite, sonar and radar results), each weighed by how many of the
//!   hits nobody has explained yet it covers: hunt where many footprints fit, target around hits.
//! - `Naval::quick_odds` is the playouts' cheap version: a flat hunting value on a checkerboard,
//!   more on the cells next to an unexplained hit, most on the cells that extend a line of hits.
//!
//! Both read only public markers and the viewer's own detections, never a hidden layout, so they
//! can be computed on the true state or on any determinization for the viewer with the same
//! result.

use plateau_engine::Seat;

use crate::bits::{Bits, CELLS, Cell, SIDE};
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// How much more a footprint that covers one more unexplained hit is worth: a ship is far more
/// likely to lie across a hit than anywhere else (a hit is a ship or one of three buoys).
const HIT_WEIGHT: f32 = 40.0;

/// Quick map: value of an open cell when hunting, on the checkerboard that every ship of two or
/// more cells must cross, and off it.
const HUNT_ON: f32 = 0.16;
const HUNT_OFF: f32 = 0.08;
/// Quick map: value of a cell next to an unexplained hit, and of one extending a line of two.
const NEXT_TO_HIT: f32 = 0.45;
const IN_LINE: f32 = 0.75;

/// The hunting value of every cell of an untouched board (`HUNT_ON` on the checkerboard).
const HUNT: [f32; CELLS] = {
    let mut v = [HUNT_OFF; CELLS];
    let mut i = 0;
    while i < CELLS {
        if (i / SIDE as usize + i % SIDE as usize).is_multiple_of(2) {
            v[i] = HUNT_ON;
        }
        i += 1;
    }
    v
};

/// One opponent's board as a seat sees it: for each cell the chance that it holds an unhit cell
/// of a ship (0 on resolved cells), and the same for the submarine alone.
#[derive(Clone, Debug)]
pub struct Odds {
    /// Chance of an unhit ship cell, by `Cell::index`, in [0, 1] (sums of per-ship chances,
    /// capped at 1).
    pub ship: [f32; CELLS],
    /// Chance of an unhit submarine cell, by `Cell::index` (all 0 in the quick map).
    pub sub: [f32; CELLS],
    /// Hit cells no sunk ship or sunk-looking buoy explains: a ship (or a buoy) still afloat.
    pub open_hits: Bits,
    /// The quick map's cells by value, highest first (each cell in one tier; empty for the full
    /// map): a policy finds the likeliest cells without reading every value.
    pub tiers: [Bits; 4],
}

impl Odds {
    fn empty() -> Odds {
        Odds {
            ship: [0.0; CELLS],
            sub: [0.0; CELLS],
            open_hits: Bits::EMPTY,
            tiers: [Bits::EMPTY; 4],
        }
    }

    /// The chance at `c`.
    #[must_use]
    pub fn at(&self, c: Cell) -> f32 {
        self.ship[c.index()]
    }

    /// The sum of the chances over `area`: the expected number of ship cells in it.
    #[must_use]
    pub fn sum(&self, area: Bits) -> f32 {
        area.iter().map(|c| self.ship[c.index()]).sum()
    }

    /// The expected number of unhit submarine cells in `area`.
    #[must_use]
    pub fn sub_sum(&self, area: Bits) -> f32 {
        area.iter().map(|c| self.sub[c.index()]).sum()
    }

    /// Sets the chance of every cell of `cells` to 0 (cells already aimed at this turn).
    pub fn clear(&mut self, cells: Bits) {
        for c in cells.iter() {
            self.ship[c.index()] = 0.0;
            self.sub[c.index()] = 0.0;
        }
        for tier in &mut self.tiers {
            *tier &= !cells;
        }
    }
}

/// Hit cells of board `t` that no sunk ship and no buoy shown sunk accounts for (public).
fn open_hits(g: &Naval, t: Seat) -> Bits {
    let b = g.board(t);
    let sunk = Ship::ALL
        .into_iter()
        .filter(|&k| b.is_sunk(k))
        .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()));
    b.hit & !sunk & !b.sunk_buoys()
}

/// The up-to-4 cells sharing a side with `c`.
fn beside(c: Cell) -> Bits {
    let (r, col) = (i32::from(c.row()), i32::from(c.col()));
    Bits::rect(r - 1, col, 3, 1) | Bits::rect(r, col - 1, 1, 3)
}

impl Naval {
    /// The odds of board `t` as seat `viewer` knows it (module documentation): for every hidden
    /// ship, its footprints allowed by the viewer's information, weighed by `HIT_WEIGHT` per
    /// unexplained hit they cover and normalised to one ship; ships the viewer knows exactly
    /// (found by its satellite, a revealed frigate) count 1 on their unhit cells.
    #[must_use]
    pub fn odds(&self, viewer: Seat, t: Seat) -> Odds {
        let mut odds = Odds::empty();
        let b = self.board(t);
        if b.out || t == viewer {
            return odds;
        }
        odds.open_hits = open_hits(self, t);
        let belief = self.belief(viewer, t);
        let unresolved = !b.resolved();
        // Pieces known exactly: their unhit cells are sure targets.
        for k in Ship::ALL {
            let m = b.mask(k.piece());
            if !b.is_sunk(k) && m.within(belief.fixed) {
                for c in (m & unresolved).iter() {
                    odds.ship[c.index()] = 1.0;
                    if k == Ship::Submarine {
                        odds.sub[c.index()] = 1.0;
                    }
                }
            }
        }
        // Hits nobody explained yet, and cells the viewer's sonar or a torpedo showed to be ship.
        let unexplained = (odds.open_hits | belief.ship_hits) & !belief.fixed;
        let mut per_ship = [0f32; CELLS];
        for (i, &p) in belief.hidden.iter().enumerate() {
            if p.is_buoy() {
                continue;
            }
            per_ship.fill(0.0);
            let mut total = 0f32;
            for &(_, _, m) in &belief.candidates[i] {
                let covered = (m & unexplained).count();
                let mut w = 1f32;
                for _ in 0..covered {
                    w *= HIT_WEIGHT;
                }
                if p == Piece::Submarine && !(m & belief.sub_hits).is_empty() {
                    w *= HIT_WEIGHT;
                }
                total += w;
                for c in (m & unresolved).iter() {
                    per_ship[c.index()] += w;
                }
            }
            if total <= 0.0 {
                continue;
            }
            for c in unresolved.iter() {
                let q = per_ship[c.index()] / total;
                let cell = &mut odds.ship[c.index()];
                *cell = (*cell + q).min(1.0);
                if p == Piece::Submarine {
                    odds.sub[c.index()] = q;
                }
            }
        }
        odds
    }

    /// The playouts' cheap odds of board `t` (module documentation); `viewer` only decides that
    /// its own board has none.
    #[must_use]
    pub fn quick_odds(&self, viewer: Seat, t: Seat) -> Odds {
        let mut odds = Odds::empty();
        let b = self.board(t);
        if b.out || t == viewer {
            return odds;
        }
        let hits = open_hits(self, t);
        odds.open_hits = hits;
        let open = !b.resolved();
        // The hunting values of an untouched board, then the resolved cells cleared: a copy and a
        // few writes instead of one write per cell.
        odds.ship = HUNT;
        for c in b.resolved().iter() {
            odds.ship[c.index()] = 0.0;
        }
        let on = open & Bits::CHECKER;
        let (mut next, mut line) = (Bits::EMPTY, Bits::EMPTY);
        for h in hits.iter() {
            for c in (beside(h) & open).iter() {
                let v = &mut odds.ship[c.index()];
                *v = v.max(NEXT_TO_HIT);
                next.set(c);
            }
            // A hit with a hit beside it: the cells continuing that line are the likeliest.
            for n in (beside(h) & hits).iter() {
                let (dr, dc) = (
                    i32::from(h.row()) - i32::from(n.row()),
                    i32::from(h.col()) - i32::from(n.col()),
                );
                let (r, c) = (i32::from(h.row()) + dr, i32::from(h.col()) + dc);
                if (0..i32::from(SIDE)).contains(&r) && (0..i32::from(SIDE)).contains(&c) {
                    let cell = Cell::at(r as u8, c as u8);
                    if open.has(cell) {
                        odds.ship[cell.index()] = IN_LINE;
                        line.set(cell);
                    }
                }
            }
        }
        let next = next & !line;
        let on = on & !next & !line;
        odds.tiers = [line, next, on, open & !on & !next & !line];
        odds
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Game, Viewer};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The odds read only what the viewer knows: equal on states it cannot tell apart, zero on
    /// resolved cells, and highest next to an unexplained hit when there is one.
    #[test]
    fn odds_depend_on_the_viewers_information_only() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let states = Naval::late_battle_states(&mut rng, 37, 30);
        assert!(states.len() >= 3, "{} states", states.len());
        let mut compared = 0;
        for g in states.iter().take(6) {
            for v in Seat::all(4).filter(|&v| !g.board(v).out) {
                let other = g.determinize(v, &mut rng);
                assert_eq!(other.observe(Viewer::Seat(v)), g.observe(Viewer::Seat(v)));
                for t in g.opponents(v) {
                    let (a, b) = (g.odds(v, t), other.odds(v, t));
                    assert_eq!(a.ship, b.ship, "viewer {v}, board {t}");
                    assert_eq!(a.sub, b.sub);
                    assert_eq!(g.quick_odds(v, t).ship, other.quick_odds(v, t).ship);
                    let resolved = g.board(t).resolved();
                    assert!(resolved.iter().all(|c| a.at(c) == 0.0));
                    compared += 1;
                }
            }
        }
        assert!(compared >= 6, "{compared} boards compared");
    }

    #[test]
    fn the_checkerboard_is_the_even_cells() {
        for c in Cell::all() {
            assert_eq!(
                Bits::CHECKER.has(c),
                (c.row() + c.col()).is_multiple_of(2),
                "{c}"
            );
        }
        assert_eq!(Bits::CHECKER.count(), 98);
    }

    /// Where boards hold unexplained hits, the open cells beside such hits are on average far
    /// likelier than the open cells of their boards: the hunt turns into a chase.
    #[test]
    fn a_hit_draws_the_odds_beside_it() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let (mut seen, mut near_sum, mut open_sum) = (0, 0f32, 0f32);
        for g in Naval::late_battle_states(&mut rng, 29, 10).iter().take(10) {
            let v = g.current;
            for t in g.opponents(v) {
                let odds = g.odds(v, t);
                let open = !g.board(t).resolved();
                let near = odds
                    .open_hits
                    .iter()
                    .fold(Bits::EMPTY, |a, h| a | beside(h))
                    & open;
                if near.is_empty() {
                    continue;
                }
                let mean = |cells: Bits| odds.sum(cells) / cells.count() as f32;
                (near_sum, open_sum) = (near_sum + mean(near), open_sum + mean(open));
                seen += 1;
            }
        }
        // Over the boards together (a lone hit may be a buoy that no ship can explain).
        assert!(
            near_sum > 2.0 * open_sum,
            "beside hits {near_sum} against {open_sum} overall"
        );
        assert!(seen >= 3, "{seen} boards with open hits");
    }
}
