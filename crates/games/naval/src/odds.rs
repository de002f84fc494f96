//! Targeting odds for bots: how likely each cell of an opponent's board is to hold an unhit cell
//! of a ship, from what one seat knows (rules/naval.md section 13). Nothing here changes the rules;
//! the bots' policies (`policy`) aim with these maps.
//!
//! Three maps:
//! - `Naval::odds` (`Odds`) counts, ship by ship, the footprints the viewer's information allows
//!   (the determinization model of `determinize`: misses, sunk ships, buoys shown sunk, torpedo
//!   lanes, charges, the viewer's satellite, sonar and radar results), each weighed by how many of
//!   the hits nobody has explained yet it covers: hunt where many footprints fit, target around
//!   hits. Ship by ship, every hidden ship claims each unexplained hit, so the cells around a hit
//!   read near certain and the hunting cells elsewhere too low.
//! - `Naval::sampled_odds` (`Odds` too) is the share of whole layouts, drawn by the
//!   determinization from the same model, in which a cell holds an unhit ship cell: the pieces
//!   share the board and the hits (a hit is one piece's, a buoy's or a ship's), so it estimates
//!   the chances themselves. It costs a layout per sample and aims better: the strongest bot's.
//! - `Naval::quick_odds` (`QuickOdds`) is the playouts' cheap version, made with shifts of the bit
//!   boards from public markers alone (misses, hits, sunk ships, first hits, clear torpedo lanes,
//!   cleared submarine cells, deflections): the chase is the counted odds of the footprints over
//!   an unexplained hit (each ship afloat, weighed as in `Naval::odds`, normalised over all its
//!   footprints clear of what is known empty); the other open cells share the ship cells left
//!   unexplained, half again as much on the cells most footprints cover (the hunt). It skips the
//!   viewer's own detections and the pieces known exactly, and the submarine's own map.
//!
//! All read only public markers and the viewer's own detections, never a hidden layout, so they
//! can be computed on the true state or on any determinization for the viewer with the same
//! result (the sampled map given the same random generator).

use std::sync::OnceLock;

use plateau_engine::Seat;
use rand::Rng;

use crate::bits::{Bits, CELLS, Cell, SIDE};
use crate::determinize::BUDGET;
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// How much more a footprint that covers one more unexplained hit is worth: a ship is far more
/// likely to lie across a hit than anywhere else (a hit is a ship or one of three buoys).
const HIT_WEIGHT: f32 = 40.0;

/// Quick map: least chance of a chased cell; below it the cell is hunted.
const CHASED: f32 = 0.16;

/// One opponent's board as a seat sees it: for each cell the chance that it holds an unhit cell
/// of a ship (0 on resolved cells), and the same for the submarine alone, counted
/// (`Naval::odds`) or sampled (`Naval::sampled_odds`).
#[derive(Clone, Debug)]
pub struct Odds {
    /// Chance of an unhit ship cell, by `Cell::index`, in [0, 1] (counted: sums of per-ship
    /// chances, capped at 1).
    pub ship: [f32; CELLS],
    /// Chance of an unhit submarine cell, by `Cell::index` (all 0 in the quick map).
    pub sub: [f32; CELLS],
    /// Hit cells no sunk ship or sunk-looking buoy explains: a ship (or a buoy) still afloat.
    pub open_hits: Bits,
}

impl Odds {
    fn empty() -> Odds {
        Odds {
            ship: [0.0; CELLS],
            sub: [0.0; CELLS],
            open_hits: Bits::EMPTY,
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
    }
}

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

/// Hit cells of board `t` that no sunk ship and no buoy shown sunk accounts for (public).
fn open_hits(g: &Naval, t: Seat) -> Bits {
    let b = g.board(t);
    let sunk = Ship::ALL
        .into_iter()
        .filter(|&k| b.is_sunk(k))
        .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()));
    b.hit & !sunk & !b.sunk_buoys()
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

    /// The odds of board `t` as seat `viewer` knows it, from `samples` layouts of its hidden
    /// pieces drawn by the determinization (module documentation): each cell's share of the
    /// layouts in which it holds an unhit ship cell (the submarine's for `Odds::sub`). Pieces the
    /// viewer knows exactly stay in place, so their unhit cells count 1. Empty for the viewer's
    /// own board and a board out of the game; every chance 0 when `samples` is 0. Reads only the
    /// viewer's information and `rng` (section 13). Costs about `samples` determinizations of one
    /// board.
    pub fn sampled_odds<R: Rng + ?Sized>(
        &self,
        viewer: Seat,
        t: Seat,
        samples: usize,
        rng: &mut R,
    ) -> Odds {
        let mut odds = Odds::empty();
        let b = self.board(t);
        if b.out || t == viewer || samples == 0 {
            return odds;
        }
        odds.open_hits = open_hits(self, t);
        let unresolved = !b.resolved();
        let mut layout = self.clone();
        for _ in 0..samples {
            self.resample_board(&mut layout, viewer, t, BUDGET, rng);
            let lb = layout.board(t);
            for k in Ship::ALL.into_iter().filter(|&k| !lb.is_sunk(k)) {
                for c in (lb.mask(k.piece()) & unresolved).iter() {
                    odds.ship[c.index()] += 1.0;
                    if k == Ship::Submarine {
                        odds.sub[c.index()] += 1.0;
                    }
                }
            }
        }
        let share = 1.0 / samples as f32;
        for v in odds.ship.iter_mut().chain(odds.sub.iter_mut()) {
            *v *= share;
        }
        odds
    }

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
    use plateau_engine::{Game, Viewer};
    use rand::SeedableRng;

    use crate::state::Phase;
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
                    assert_eq!(g.quick_odds(v, t), other.quick_odds(v, t));
                    let resolved = g.board(t).resolved();
                    assert!(resolved.iter().all(|c| a.at(c) == 0.0));
                    compared += 1;
                }
            }
        }
        assert!(compared >= 6, "{compared} boards compared");
    }

    /// The sampled odds are shares of whole layouts. At the battle's start each layout holds
    /// every ship unhit, so on each opponent's board the chances add up to the 29 ship cells and
    /// the submarine's to its 3. Later they are 0 on resolved cells, at most 1, 1 on the unhit
    /// cells of a ship the viewer found with its satellite, between 29 less the hits and 29 in
    /// all, and the same on a state the viewer cannot tell apart, given the same generator.
    #[test]
    fn sampled_odds_are_shares_of_layouts_the_viewer_allows() {
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        let mut g = Naval::start(&crate::Config::default()).unwrap();
        while g.phase != Phase::Battle {
            let (actor, a) = g.random_action(&mut rng).unwrap();
            g.apply_legal(actor, &a);
        }
        for t in g.opponents(Seat(0)) {
            let odds = g.sampled_odds(Seat(0), t, 40, &mut rng);
            let total: f32 = odds.ship.iter().sum();
            let sub: f32 = odds.sub.iter().sum();
            assert!((total - 29.0).abs() < 1e-3, "board {t}: {total}");
            assert!((sub - 3.0).abs() < 1e-4, "board {t}: {sub}");
        }
        assert_eq!(
            g.sampled_odds(Seat(0), Seat(0), 40, &mut rng).ship,
            [0.0; CELLS]
        );

        let states = Naval::late_battle_states(&mut rng, 37, 30);
        let mut compared = 0;
        for g in states.iter().take(4) {
            for v in Seat::all(4).filter(|&v| !g.board(v).out) {
                let other = g.determinize(v, &mut rng);
                for t in g.opponents(v) {
                    let odds = g.sampled_odds(v, t, 30, &mut ChaCha8Rng::seed_from_u64(3));
                    let again = other.sampled_odds(v, t, 30, &mut ChaCha8Rng::seed_from_u64(3));
                    assert_eq!(odds.ship, again.ship, "viewer {v}, board {t}");
                    assert_eq!(odds.sub, again.sub);
                    let b = g.board(t);
                    assert!(b.resolved().iter().all(|c| odds.at(c) == 0.0));
                    assert!(odds.ship.iter().all(|&p| (0.0..=1.0).contains(&p)));
                    let total: f32 = odds.ship.iter().sum();
                    let hits = b.hit.count() as f32;
                    assert!(total > 29.0 - hits - 1e-3 && total < 29.0 + 1e-3, "{total}");
                    let scan = g.scans[v.index()][t.index()];
                    for k in Ship::ALL.into_iter().filter(|&k| !b.is_sunk(k)) {
                        let m = b.mask(k.piece());
                        if k != Ship::Submarine && m.meets(scan.satellite) {
                            assert!((m & !b.resolved()).iter().all(|c| odds.at(c) == 1.0));
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 6, "{compared} boards compared");
    }

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
                let near = odds.open_hits.beside() & open;
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
