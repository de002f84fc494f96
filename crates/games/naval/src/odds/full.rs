//! The full maps (`Odds`, module documentation of `odds`): counted over each hidden ship's
//! footprints (`Naval::odds`), or sampled over whole layouts (`Naval::sampled_odds`).

use plateau_engine::Seat;
use rand::Rng;

use crate::bits::{Bits, CELLS, Cell};
use crate::determinize::BUDGET;
use crate::piece::{Piece, Ship};
use crate::state::Naval;

/// How much more a footprint that covers one more unexplained hit is worth: a ship is far more
/// likely to lie across a hit than anywhere else (a hit is a ship or one of three buoys).
pub(super) const HIT_WEIGHT: f32 = 40.0;

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

/// Hit cells of board `t` that no sunk ship and no buoy shown sunk accounts for (public).
pub(super) fn open_hits(g: &Naval, t: Seat) -> Bits {
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
