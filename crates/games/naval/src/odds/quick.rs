//! The playouts' quick map (`QuickOdds`, module documentation of `odds`): shifts of the bit
//! boards from public markers alone, kept per thread.

use std::sync::OnceLock;

use plateau_engine::Seat;

use super::full::{HIT_WEIGHT, open_hits};
use crate::bits::{Bits, CELLS, Cell, SIDE};
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// Quick map: least chance of a chased cell; below it the cell is hunted.
const CHASED: f32 = 0.16;

/// The playouts' cheap map of one opponent's board (module documentation): the chased cells with
/// their counted chance, the other open cells in two hunting tiers of one value each. The submarine has no map of its own here (as if all 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuickOdds {
    /// Hit cells no sunk ship or sunk-looking buoy explains.
    pub open_hits: Bits,
    /// The open cells: the chased cells (their chance in `chase`, above `CHASED`), the hunting
    /// cells most footprints cover, the other hunting cells (their chances in `hunt`).
    /// Each open cell is in one tier; resolved cells (and cells cleared by `clear`) in none,
    /// their chance 0.
    pub tiers: [Bits; 3],
    /// The chance of each chased cell, by `Cell::index` (meaningful on `tiers[0]` only).
    pub chase: [f32; CELLS],
    /// The chance of a cell of `tiers[1]` and of `tiers[2]`: the ship cells not yet hit that
    /// the chase leaves unexplained, spread over the hunting cells, half again as much on the
    /// cells most footprints cover.
    pub hunt: [f32; 2],
}

impl QuickOdds {
    /// The map of a board with nothing to aim at.
    const EMPTY: QuickOdds = QuickOdds {
        open_hits: Bits::EMPTY,
        tiers: [Bits::EMPTY; 3],
        chase: [0.0; CELLS],
        hunt: [0.0; 2],
    };

    /// The chance at `c`: its counted chance in a chase, its tier's value in a hunt, 0 outside
    /// the tiers.
    #[must_use]
    pub fn at(&self, c: Cell) -> f32 {
        if self.tiers[0].has(c) {
            self.chase[c.index()]
        } else if self.tiers[1].has(c) {
            self.hunt[0]
        } else if self.tiers[2].has(c) {
            self.hunt[1]
        } else {
            0.0
        }
    }

    /// The chances along row `r` (0 to 13), by column.
    #[must_use]
    pub fn row(&self, r: u8) -> [f32; SIDE as usize] {
        std::array::from_fn(|c| self.at(Cell::at(r, c as u8)))
    }

    /// The chance at every cell, by `Cell::index`.
    #[must_use]
    pub fn ship(&self) -> [f32; CELLS] {
        let mut out = [0.0; CELLS];
        for (r, chunk) in out.chunks_exact_mut(SIDE as usize).enumerate() {
            chunk.copy_from_slice(&self.row(r as u8));
        }
        out
    }

    /// Sets the chance of every cell of `cells` to 0 (cells already aimed at this turn).
    pub fn clear(&mut self, cells: Bits) {
        for tier in &mut self.tiers {
            *tier &= !cells;
        }
    }
}

/// The cells of board `b` where its ship `k`, still afloat, cannot lie as everyone knows (the
/// quick map's share of the determinization's model): misses, hits already explained (not in
/// `open_hits`), torpedo lanes found clear, the cells cleared of the submarine for it, and the
/// cells where a shield deflected a shot for the corvette (it carries no shield, section 9).
fn quick_forbidden(b: &crate::board::Board, k: Ship, open_hits: Bits) -> Bits {
    let mut bad = b.miss | (b.hit & !open_hits) | b.lane_clear;
    match k {
        Ship::Submarine => bad |= b.sub_clear,
        Ship::Corvette => bad |= b.deflected,
        _ => {}
    }
    bad
}

impl Naval {
    /// The playouts' cheap odds of board `t` (module documentation); `viewer` only decides that
    /// its own board has none (every tier empty).
    #[must_use]
    pub fn quick_odds(&self, viewer: Seat, t: Seat) -> QuickOdds {
        let b = self.board(t);
        if b.out || t == viewer {
            return QuickOdds::EMPTY;
        }
        let key = QuickKey {
            open_hits: open_hits(self, t),
            hit: b.hit,
            miss: b.miss,
            first_hits: b.first_hits,
            lane_clear: b.lane_clear,
            sub_clear: b.sub_clear,
            deflected: b.deflected,
            sunk: b.sunk,
        };
        QUICK.with_borrow_mut(|(maps, next)| {
            if let Some((_, q)) = maps.iter().flatten().find(|(k, _)| *k == key) {
                return *q;
            }
            let q = quick_map(b, key.open_hits);
            maps[*next] = Some((key, q));
            *next = (*next + 1) % QUICK_KEPT;
            q
        })
    }
}

/// Quick maps kept per thread: a search's playouts meet the same few boards again and again (the
/// orders of one turn, the determinizations of one position), and a map depends on the board's
/// public markers alone.
const QUICK_KEPT: usize = 16;

/// What a quick map depends on: the public markers of one board.
#[derive(Clone, Copy, PartialEq, Eq)]
struct QuickKey {
    open_hits: Bits,
    hit: Bits,
    miss: Bits,
    first_hits: Bits,
    lane_clear: Bits,
    sub_clear: Bits,
    deflected: Bits,
    sunk: u8,
}

type QuickKept = ([Option<(QuickKey, QuickOdds)>; QUICK_KEPT], usize);

thread_local! {
    /// The last `QUICK_KEPT` quick maps made on this thread, replaced in turn.
    static QUICK: std::cell::RefCell<QuickKept> = const {
        std::cell::RefCell::new(([None; QUICK_KEPT], 0))
    };
}

/// The quick map of board `b` whose unexplained hits are `hits` (`Naval::quick_odds`).
fn quick_map(b: &crate::board::Board, hits: Bits) -> QuickOdds {
    let open = !b.resolved();
    let mut chase = [0f32; CELLS];
    let mut chased = Bits::EMPTY;
    // How many footprints of the ships afloat cover each cell, bit-sliced: bit i of the
    // count in `covers[i]` (at most 58 footprints a cell).
    let mut covers = [Bits::EMPTY; 6];
    for k in Ship::ALL.into_iter().filter(|&k| !b.is_sunk(k)) {
        let p = k.piece();
        let free = !quick_forbidden(b, k, hits);
        // A footprint over a hit holds exactly one first hit and is not all hit.
        let weight = |m: Bits| {
            let fits = (m & b.first_hits).count() == 1 && !m.within(b.hit);
            if fits {
                HIT_WEIGHT.powi((m & hits).count() as i32)
            } else {
                0.0
            }
        };
        // Per orientation: the shape at the corner, and the top-left cells of the footprints
        // that cover an unexplained hit.
        let mut ways = [(false, Bits::EMPTY); 2];
        let mut total = 0f32;
        for (way, &v) in ways.iter_mut().zip(p.orientations()) {
            let shape = p.footprint(Cell::at(0, 0), v).expect("fits at the corner");
            let (mut starts, mut through) = (Bits::FULL, Bits::EMPTY);
            for o in shape.iter() {
                let (dr, dc) = (-i32::from(o.row()), -i32::from(o.col()));
                starts &= free.shifted(dr, dc);
                through |= hits.shifted(dr, dc);
            }
            for o in shape.iter() {
                add_to(
                    &mut covers,
                    starts.shifted(i32::from(o.row()), i32::from(o.col())),
                );
            }
            through &= starts;
            total += (starts & !through).count() as f32;
            for c in through.iter() {
                total += weight(placed(p, v, c));
            }
            *way = (v, through);
        }
        if total <= 0.0 {
            continue;
        }
        for &(v, through) in &ways[..p.orientations().len()] {
            for c in through.iter() {
                let m = placed(p, v, c);
                let q = weight(m) / total;
                if q > 0.0 {
                    for x in (m & open).iter() {
                        chase[x.index()] += q;
                    }
                    chased |= m & open;
                }
            }
        }
    }
    let (mut hot, mut chased_mass) = (Bits::EMPTY, 0f32);
    for c in chased.iter() {
        let v = &mut chase[c.index()];
        *v = v.min(1.0);
        if *v > CHASED {
            hot.set(c);
            chased_mass += *v;
        }
    }
    // The hunt: the open cells most footprints cover, read from the highest bit down.
    let mut best = open & !hot;
    for plane in covers.iter().rev() {
        let within = best & *plane;
        if !within.is_empty() {
            best = within;
        }
    }
    let rest = open & !hot & !best;
    let unexplained = (quick_afloat(b) - hits.count() as f32 - chased_mass).max(0.0);
    let share = unexplained / (1.5 * best.count() as f32 + rest.count() as f32).max(1.0);
    QuickOdds {
        open_hits: hits,
        tiers: [hot, best, rest],
        chase,
        hunt: [(1.5 * share).min(1.0), share.min(1.0)],
    }
}

/// The cells of the ships of board `b` still afloat (public: the ships' sizes and which are sunk).
fn quick_afloat(b: &crate::board::Board) -> f32 {
    Ship::ALL
        .into_iter()
        .filter(|&k| !b.is_sunk(k))
        .map(|k| f32::from(k.piece().size()))
        .sum()
}

/// The footprint of piece `p` with its top-left cell at `c` (`Piece::footprint`), from a table
/// made once per process; empty where it would leave the board.
fn placed(p: Piece, vertical: bool, c: Cell) -> Bits {
    static TABLE: OnceLock<Vec<[Bits; 2 * CELLS]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        Piece::ALL
            .iter()
            .map(|&p| {
                std::array::from_fn(|i| {
                    let c = Cell::new((i % CELLS) as u8).expect("a cell index");
                    p.footprint(c, i >= CELLS).unwrap_or(Bits::EMPTY)
                })
            })
            .collect()
    });
    table[p.index()][usize::from(vertical) * CELLS + c.index()]
}

/// Adds 1 to the bit-sliced count `covers` on every cell of `cells` (no overflow past the last
/// bit: the caller's counts stay below 2^len).
fn add_to(covers: &mut [Bits], cells: Bits) {
    let mut carry = cells;
    for plane in covers {
        if carry.is_empty() {
            break;
        }
        let next = *plane & carry;
        *plane = (*plane | carry) & !next;
        carry = next;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The quick map, footprint by footprint as its definition reads (module documentation):
    /// each ship afloat over every footprint of the board clear of misses and explained hits,
    /// weighed `HIT_WEIGHT` per unexplained hit covered, the footprints covering one counted on
    /// their open cells, normalised per ship and summed; the cells above the hunting value are
    /// the chase; of the other open cells, those that the most footprints cover are the hunt.
    fn quick_reference(g: &Naval, t: Seat) -> [f32; CELLS] {
        let b = g.board(t);
        let hits = open_hits(g, t);
        let open = !b.resolved();
        let mut chase = [0f32; CELLS];
        let mut covers = [0u32; CELLS];
        for k in Ship::ALL.into_iter().filter(|&k| !b.is_sunk(k)) {
            let clear: Vec<Bits> = k
                .piece()
                .footprints()
                .iter()
                .map(|&(_, _, m)| m)
                .filter(|&m| !m.meets(quick_forbidden(b, k, hits)))
                .collect();
            for m in &clear {
                for c in m.iter() {
                    covers[c.index()] += 1;
                }
            }
            let fits: Vec<Bits> = clear
                .into_iter()
                .filter(|&m| {
                    !m.meets(hits) || ((m & b.first_hits).count() == 1 && !m.within(b.hit))
                })
                .collect();
            let weight = |m: Bits| HIT_WEIGHT.powi((m & hits).count() as i32);
            let total: f32 = fits.iter().map(|&m| weight(m)).sum();
            for &m in fits.iter().filter(|&&m| m.meets(hits)) {
                for c in (m & open).iter() {
                    chase[c.index()] += weight(m) / total;
                }
            }
        }
        let hot = |c: Cell| chase[c.index()].min(1.0) > CHASED;
        let most = open
            .iter()
            .filter(|&c| !hot(c))
            .map(|c| covers[c.index()])
            .max();
        let best = |c: Cell| !hot(c) && Some(covers[c.index()]) == most;
        let mass: f32 = open
            .iter()
            .filter(|&c| hot(c))
            .map(|c| chase[c.index()].min(1.0))
            .sum();
        let left = quick_afloat(b) - hits.count() as f32 - mass;
        let (n_best, n_rest) = (
            open.iter().filter(|&c| best(c)).count() as f32,
            open.iter().filter(|&c| !hot(c) && !best(c)).count() as f32,
        );
        let share = left.max(0.0) / (1.5 * n_best + n_rest).max(1.0);
        let mut v = [0f32; CELLS];
        for c in open.iter() {
            v[c.index()] = if hot(c) {
                chase[c.index()].min(1.0)
            } else if best(c) {
                (1.5 * share).min(1.0)
            } else {
                share.min(1.0)
            };
        }
        v
    }

    /// The quick map made with bit-board shifts is the map of its definition on every board of
    /// seeded battle states (to rounding), its tiers split the open cells, and clearing cells
    /// sets them to 0.
    #[test]
    fn the_quick_map_follows_its_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let (mut boards, mut chased) = (0, 0);
        for g in Naval::late_battle_states(&mut rng, 23, 10).iter().take(12) {
            for v in Seat::all(4).filter(|&v| !g.board(v).out) {
                for t in g.opponents(v) {
                    let mut q = g.quick_odds(v, t);
                    let reference = quick_reference(g, t);
                    for (i, (a, b)) in q.ship().iter().zip(reference).enumerate() {
                        assert!(
                            (a - b).abs() < 1e-4,
                            "viewer {v}, board {t}, cell {i}: {a} {b}"
                        );
                    }
                    let open = !g.board(t).resolved();
                    let union = q.tiers.iter().fold(Bits::EMPTY, |a, &b| a | b);
                    assert_eq!(union, open);
                    assert_eq!(q.tiers.iter().map(|b| b.count()).sum::<u32>(), open.count());
                    if !q.tiers[0].is_empty() {
                        chased += 1;
                    }
                    let cleared = Bits::rect(3, 3, 5, 5);
                    q.clear(cleared);
                    assert!(cleared.iter().all(|c| q.at(c) == 0.0));
                    boards += 1;
                }
                assert_eq!(
                    g.quick_odds(v, v).tiers,
                    [Bits::EMPTY; 3],
                    "no map of one's own board"
                );
            }
        }
        assert!(
            boards >= 30 && chased >= 3,
            "{boards} boards, {chased} chased"
        );
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
}
