//! Determinization for bots (rules/naval.md section 13): a state drawn from those a seat cannot
//! tell apart from the true one.
//!
//! For every other living board the hidden pieces (all but sunk ships, sunk-looking buoys, a
//! revealed frigate and pieces the viewer's satellite found) are laid out again so that every
//! public marker and every detection result of the viewer stays as it is: hits are covered, misses
//! are water, every piece hit holds exactly one of the first hits (and a later hit is a ship's),
//! torpedo lanes and charges agree, sonar and radar areas show the same marks, no hidden
//! ship is fully hit, no deflected cell is the corvette's. The model reads only what the viewer
//! knows, so the sample depends on the viewer's information and the generator alone; the true
//! layout is never used, not even as a fallback.
//!
//! The search is a randomized backtracking over piece footprints. While a required cell is
//! uncovered it branches on the one with the fewest footprints able to cover it (in random order);
//! then the remaining pieces go anywhere allowed, the most constrained first. Forward checking
//! prunes a branch when an unplaced piece has nowhere left to go, a required cell can no longer be
//! covered, or the unplaced pieces cannot cover all required cells even at their best (counted per
//! kind: any piece, ships, the submarine, surface pieces). Identical hidden buoys are branched on
//! once. A few attempts run with a node budget, each with a fresh random order; the last one runs
//! without a budget, so the search is complete, and since the true layout satisfies every
//! constraint it always finds a layout.
//! Hidden energies are drawn afresh (multiples of 25), uniformly up to twice the mean meter of the
//! viewer's own ships afloat (at most 1000): another fleet has had the same turns to gain it, and
//! an uninformed draw up to 1000 gave every fleet but the viewer's about 500 a ship from the first
//! turn, which the evaluation counts as seven cells of strength (a searching seat judged itself
//! at 17% where four equal seats stand at 50%). A hidden shield is recentred on a sampled
//! ship, another seat's unresolved orders become passes, and other seats' placement move counts and
//! scan areas are forgotten (zero, empty).

use rand::Rng;
use rand::seq::SliceRandom;

use plateau_engine::Seat;

use crate::ability::Ability;
use crate::action::Order;
use crate::bits::{Bits, Cell};
use crate::piece::{Piece, Ship};
use crate::state::{Naval, Phase};

mod search;

/// Randomized attempts per board; the last one runs without a node budget.
const ATTEMPTS: usize = 4;

/// Search nodes allowed to each attempt but the last.
pub(crate) const BUDGET: usize = 2000;

/// One board as a viewer knows it (`Naval::belief`).
pub(crate) struct Belief {
    /// Cells of the pieces the viewer knows exactly (sunk, revealed, found by its satellite).
    pub fixed: Bits,
    /// The other pieces, in piece order.
    pub hidden: Vec<Piece>,
    /// Allowed footprints of each hidden piece: (top-left cell, vertical, cells).
    pub candidates: Vec<Vec<(Cell, bool, Bits)>>,
    /// Cells known to hold a ship (not a buoy) among the hidden pieces.
    pub ship_hits: Bits,
    /// Cells known to hold the submarine.
    pub sub_hits: Bits,
}

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
    /// No hidden corvette (a shield never deflects a shot at its corvette, section 10).
    corvette: Bits,
}

/// One backtracking search over the hidden pieces of one board.
struct Search {
    /// The hidden pieces, in piece order.
    hidden: Vec<Piece>,
    /// Allowed footprints of each hidden piece, as (top-left cell, vertical, cells).
    candidates: Vec<Vec<(Cell, bool, Bits)>>,
    /// Cells to cover.
    need: Need,
    /// Nodes visited in this attempt.
    nodes: usize,
    /// Node budget of this attempt (`usize::MAX`: complete).
    limit: usize,
    /// The footprint chosen for each hidden piece so far.
    placed: Vec<Option<(Cell, bool, Bits)>>,
}

/// What the pieces placed so far cover, per kind of requirement (see `Need`).
#[derive(Clone, Copy)]
struct Cover {
    any: Bits,
    ship: Bits,
    sub: Bits,
    contact: Bits,
}

impl Naval {
    /// The most a hidden meter is drawn at, in steps of 25: twice the mean meter of `viewer`'s
    /// ships afloat, at most 1000 (module documentation).
    fn energy_steps(&self, viewer: Seat) -> u16 {
        let own = self.board(viewer);
        let afloat: Vec<u16> = Ship::ALL
            .into_iter()
            .filter(|k| !own.is_sunk(*k))
            .map(|k| own.energy[k.index()])
            .collect();
        let total: u32 = afloat.iter().map(|&e| u32::from(e)).sum();
        let mean = total / (afloat.len().max(1) as u32);
        ((2 * mean).min(1000) / 25) as u16
    }

    /// See the module documentation.
    pub(crate) fn sample_for<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Naval {
        self.sample_with(viewer, BUDGET, rng)
    }

    /// `sample_for` with `budget` search nodes for each attempt but the last (0: the complete
    /// search alone).
    fn sample_with<R: Rng + ?Sized>(&self, viewer: Seat, budget: usize, rng: &mut R) -> Naval {
        let mut g = self.clone();
        if matches!(self.phase, Phase::Over { .. }) || viewer.index() >= 4 {
            return g;
        }
        let steps = self.energy_steps(viewer);
        for t in Seat::all(4) {
            if t == viewer || self.board(t).out {
                continue;
            }
            self.resample_board(&mut g, viewer, t, budget, rng);
            let b = &mut g.boards[t.index()];
            for k in Ship::ALL {
                if !b.is_sunk(k) {
                    b.energy[k.index()] = 25 * rng.random_range(0..=steps);
                }
            }
        }
        // What other seats did in placement and where they scanned is not in the viewer's
        // observation (section 13 shows the last turn only): forgotten, so the sample reads the
        // observation alone.
        for u in Seat::all(4).filter(|&u| u != viewer) {
            g.boards[u.index()].moves = 0;
            g.scans[u.index()] = Default::default();
        }
        // Another seat's orders not yet resolved are its secret: they become passes.
        if matches!(self.phase, Phase::Battle) && self.current != viewer {
            let from = if self.turn.resolving {
                self.turn.cursor.and_then(Ship::next)
            } else {
                Some(Ship::Carrier)
            };
            for k in Ship::ALL.into_iter().skip_while(|&k| Some(k) != from) {
                if g.turn.has_order(k) {
                    g.turn.orders[k.index()] = Order::Pass;
                }
            }
        }
        g
    }

    /// What `viewer` knows of board `t` for the targeting odds (`odds` module): the cells of the
    /// pieces it knows exactly, the hidden pieces with their allowed footprints, and the hit
    /// cells that only a ship may explain. The same model as the sampler's, so it reads only what
    /// the viewer may know (section 13).
    pub(crate) fn belief(&self, viewer: Seat, t: Seat) -> Belief {
        let (fixed, search) = self.model(viewer, t);
        Belief {
            fixed,
            hidden: search.hidden,
            candidates: search.candidates,
            ship_hits: search.need.ship | search.need.sub,
            sub_hits: search.need.sub,
        }
    }

    /// Lays out the hidden pieces of board `t` again for `viewer` (see the module documentation)
    /// and recentres a hidden shield on the sample.
    pub(crate) fn resample_board<R: Rng + ?Sized>(
        &self,
        g: &mut Naval,
        viewer: Seat,
        t: Seat,
        budget: usize,
        rng: &mut R,
    ) {
        let (fixed, mut search) = self.model(viewer, t);
        if search.solve(fixed, budget, rng) {
            let nb = &mut g.boards[t.index()];
            for (i, &p) in search.hidden.iter().enumerate() {
                if let Some((c, v, m)) = search.placed[i] {
                    nb.put(p, c, v, m);
                }
            }
        }
        self.recentre_shield(g, t, rng);
    }

    /// The constraint model of board `t` as `viewer` knows it: the cells of the pieces known
    /// exactly, and a search over the other pieces with their allowed footprints (unshuffled) and
    /// the cells they must cover. Reads only what the viewer may know (section 13).
    fn model(&self, viewer: Seat, t: Seat) -> (Bits, Search) {
        let b = self.board(t);
        let scan = self.scans[viewer.index()][t.index()];
        let resolved = b.resolved();
        // Fixed pieces: known to the viewer exactly.
        let sunk_buoys = b.sunk_buoys();
        let mut fixed = Bits::EMPTY;
        let mut hidden = Vec::new();
        for p in b.placed_pieces() {
            let m = b.mask(p);
            let known = match p.ship() {
                None => m.meets(sunk_buoys) || m.within(scan.satellite),
                Some(k) => {
                    b.is_sunk(k)
                        || (k == Ship::Frigate && b.frigate_shown)
                        || (k != Ship::Submarine && m.meets(scan.satellite))
                }
            };
            if known {
                fixed |= m;
            } else {
                hidden.push(p);
            }
        }
        let sonar_marks = b.ships() & scan.sonar;
        let radar_marks = (b.occ & !b.mask(Piece::Submarine)) & scan.radar;
        // Hit cells whose neighbours are all resolved are not buoys (they would show sunk).
        let mut not_buoy = Bits::EMPTY;
        for c in b.hit.iter() {
            if Bits::around(c).within(resolved) {
                not_buoy.set(c);
            }
        }
        // A hit that was not the first on its piece is a later hit on a piece hit before: a ship.
        let later_hits = b.hit & !b.first_hits;
        let forbid = Forbid {
            all: b.miss | fixed,
            ship: b.lane_clear | (scan.sonar & !sonar_marks),
            buoy: scan.satellite
                | sonar_marks
                | b.ship_known
                | b.sub_known
                | not_buoy
                | later_hits
                | (scan.radar & !radar_marks),
            sub: b.sub_clear,
            surface: scan.satellite | b.sub_known | (scan.radar & !radar_marks),
            corvette: b.deflected,
        };
        let need = Need {
            any: b.hit & !fixed,
            ship: (b.ship_known | sonar_marks | not_buoy | later_hits) & !fixed,
            sub: b.sub_known & !fixed,
            contact: radar_marks & !fixed,
        };
        let mut candidates = Vec::with_capacity(hidden.len());
        for &p in &hidden {
            let mut bad = forbid.all;
            if p.is_buoy() {
                bad |= forbid.buoy;
            } else {
                bad |= forbid.ship;
                bad |= if p == Piece::Submarine {
                    forbid.sub
                } else {
                    forbid.surface
                };
                if p == Piece::Corvette {
                    bad |= forbid.corvette;
                }
            }
            let list = p
                .footprints()
                .iter()
                .filter(|&&(_, _, m)| {
                    // A hidden ship is not fully hit, and a piece hit at all holds exactly one
                    // first hit (section 7.1).
                    let firsts = (m & b.first_hits).count();
                    !m.meets(bad)
                        && (p.is_buoy() || !m.within(b.hit))
                        && firsts <= 1
                        && (firsts == 1 || !m.meets(b.hit))
                })
                .copied()
                .collect();
            candidates.push(list);
        }
        let search = Search {
            placed: vec![None; hidden.len()],
            hidden,
            candidates,
            need,
            nodes: 0,
            limit: usize::MAX,
        };
        (fixed, search)
    }

    /// Puts a hidden shield of board `t` on a cell of the sampled fleet where it could have stood
    /// unseen since it was cast: an unsunk ship but the corvette (10.1) whose 3x3 holds no cell
    /// but the corvette's resolved since. Should the sample leave no such cell, the shield goes on
    /// any cell of those ships, so its true place never shows through.
    fn recentre_shield<R: Rng + ?Sized>(&self, g: &mut Naval, t: Seat, rng: &mut R) {
        let b = g.board(t);
        if !b.shield.active || b.shield.public {
            return;
        }
        let since = b.resolved() & !b.shield.cast_resolved;
        let corvette = b.mask(Piece::Corvette);
        let centres = g.shield_centres(t);
        let unseen: Vec<Cell> = centres
            .iter()
            .filter(|&c| {
                let area = Ability::Shield.area(c, false);
                !(area & !corvette).meets(since)
            })
            .collect();
        let mut options = if unseen.is_empty() {
            centres.iter().collect()
        } else {
            unseen
        };
        if options.is_empty() {
            // Every ship able to hold a shield is sunk: they are public, so any of their cells.
            options = Ship::ALL
                .into_iter()
                .filter(|&k| k != Ship::Corvette)
                .fold(Bits::EMPTY, |a, k| a | b.mask(k.piece()))
                .iter()
                .collect();
        }
        options.shuffle(rng);
        let Some(&c) = options.first() else { return };
        let s = &mut g.boards[t.index()].shield;
        s.centre = c;
        s.area = Ability::Shield.area(c, false);
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Game, Viewer};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Battle states of seeded random games with at least 40 hit cells on the living boards.
    fn late_states(games: u64) -> Vec<Naval> {
        (0..games)
            .flat_map(|seed| {
                Naval::late_battle_states(&mut ChaCha8Rng::seed_from_u64(7000 + seed), 13, 40)
            })
            .collect()
    }

    /// The complete search relies on it: the true layout is one of the model's solutions.
    #[test]
    fn the_true_layout_satisfies_the_model() {
        let mut boards = 0;
        for g in late_states(8) {
            for v in Seat::all(4) {
                for t in Seat::all(4) {
                    if v == t || g.board(v).out || g.board(t).out {
                        continue;
                    }
                    let (fixed, search) = g.model(v, t);
                    let b = g.board(t);
                    let truth: Vec<Bits> = search.hidden.iter().map(|&p| b.mask(p)).collect();
                    let mut cover = Bits::EMPTY;
                    let (mut ship, mut sub, mut contact) = (Bits::EMPTY, Bits::EMPTY, Bits::EMPTY);
                    for (i, &p) in search.hidden.iter().enumerate() {
                        let m = truth[i];
                        assert!(
                            search.candidates[i].iter().any(|&(_, _, c)| c == m),
                            "board {t} for {v}: piece {p:?} at its true place is not allowed"
                        );
                        let others = truth
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| j != i)
                            .fold(fixed, |a, (_, &o)| a | o);
                        assert!(search.fits(p, m, others), "board {t} for {v}: piece {p:?}");
                        cover |= m;
                        if !p.is_buoy() {
                            ship |= m;
                        }
                        if p == Piece::Submarine {
                            sub |= m;
                        } else {
                            contact |= m;
                        }
                    }
                    let n = &search.need;
                    assert!(n.any.within(cover) && n.ship.within(ship));
                    assert!(n.sub.within(sub) && n.contact.within(contact));
                    boards += 1;
                }
            }
        }
        assert!(boards > 500, "{boards} boards");
    }

    /// With no budget every board goes straight to the complete search: it finds a layout the
    /// viewer cannot tell from the truth, and the same one for another truth that looks alike.
    #[test]
    fn the_complete_search_alone_reads_only_the_viewers_information() {
        let mut other = ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for (n, g) in late_states(4).iter().enumerate() {
            for s in Seat::all(4) {
                if g.board(s).out {
                    continue;
                }
                let h = g.sample_for(s, &mut other);
                let a = g.sample_with(s, 0, &mut ChaCha8Rng::seed_from_u64(n as u64));
                let b = h.sample_with(s, 0, &mut ChaCha8Rng::seed_from_u64(n as u64));
                let json = |x: &Naval| serde_json::to_string(x).unwrap();
                assert_eq!(json(&a), json(&b), "state {n}, seat {s}");
                let seen = |x: &Naval| serde_json::to_string(&x.observe(Viewer::Seat(s))).unwrap();
                assert_eq!(seen(&a), seen(g), "state {n}, seat {s}");
                compared += 1;
            }
        }
        assert!(compared > 100, "{compared} comparisons");
    }
}
