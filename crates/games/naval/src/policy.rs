//! A heuristic player for bots (the rules are in rules/naval.md; nothing here changes them): which
//! order to give the ship whose turn it is, from the targeting odds (`odds`) of the acting seat:
//! sampled from whole layouts in the thorough style, counted ship by ship in the greedy style, the
//! cheap map in the quick style. (The thorough style's placement is in `layout`; the others keep
//! the random layout.)
//!
//! Every option is valued in expected enemy ship cells hit, weighed per target board (the greedy
//! and quick styles finish damaged fleets first, closer to elimination, section 12; the thorough
//! style turns to the healthiest fleets first and lets the others weaken each other):
//! - a normal shot at the likeliest legal cell (section 6);
//! - each affordable special at its best aim: the odds summed over its area (half for the rockets,
//!   the submarine's odds for the charges, the lane walked cell by cell for the torpedo), the shield
//!   over a damaged ship of one's own, the EMP on the strongest fleet (section 9);
//! - in the thorough style, each detection (satellite, sonar, radar) at the aim that covers the
//!   most expected ship cells the seat does not yet know, valued `SCAN_VALUE` per such cell: what
//!   it finds is shot at for sure afterwards, and nobody else learns it (section 13);
//!
//! Every style spends at once: a special whenever it beats the best normal shot, never a pass to
//! save energy (the pass only when nothing else is left). Until 2026-12-06 the quick style saved
//! for efficient specials and passed where nothing was hot, which cost it about 4 points of the
//! 25% a seat wins against three greedy seats (docs/bots.md section 1).
//! Cells aimed at by the seat's earlier orders this turn count for nothing (section 5.5, 5.8).
//!
//! The policy reads the state only through the acting seat's information (its odds, its own board,
//! public markers), so it may be given the true state or a determinization with the same result.

use std::cell::OnceCell;

use plateau_engine::{Actor, Game, Seat, ToAct};
use rand::Rng;

use crate::ability::Ability;
use crate::action::{Action, Order};
use crate::bits::{Bits, Cell, SIDE};
use crate::odds::{Odds, QuickOdds};
use crate::piece::Ship;
use crate::state::{Naval, Phase};

mod special;

/// Which odds the policy aims with, and how it spends energy.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// The sampled odds (`Naval::sampled_odds`, `SAMPLES` layouts a board), spent as `Greedy`,
    /// with the detections and the healthiest fleets aimed at first (module documentation): the
    /// search's first choices, and the strongest player alone (`mcts:i1`).
    Thorough,
    /// The counted odds (`Naval::odds`), each order for its immediate value alone: a special
    /// whenever it is affordable and beats the best normal shot, never a pass to save energy (the
    /// greedy bot).
    Greedy,
    /// The cheap odds (`Naval::quick_odds`), spent as `Greedy`: the search's playouts, about
    /// as strong as the greedy bot at a tenth of its time a decision (docs/bots.md section 1).
    Quick,
}

/// Layouts the thorough style draws of each opponent's board for its odds: about 17 ms a
/// decision in all. Against three greedy bots (400 games each, docs/bots.md section 1),
/// `mcts:i1` won 43.5% with 32, 48.8% with 128 and 46.5% with 512 (36.9% with the counted odds).
const SAMPLES: usize = 128;
/// Value of a detection per expected ship cell in its area that the seat does not know yet: about
/// a normal shot's worth on a hot cell, so that a ship scans when it can pay for it and nothing
/// is hot (measured: 0.3, 0.8, 1.5 and 3 gave the same strength within the intervals).
const SCAN_VALUE: f32 = 1.0;
/// A cell whose chance is at least this is known (found by the seat's own detections): no
/// detection is worth spending on it.
const KNOWN: f32 = 0.95;
/// Thorough style: how much the weight of a board falls with the share of its fleet's cells hit
/// (weight 1 - 2 x share, at least `MIN_WEIGHT`): the healthiest fleets first, the damaged left to
/// the others (measured against 1 + share, the greedy bot's).
const HEALTHY_FIRST: f32 = 2.0;
/// The least weight of a board in the thorough style.
const MIN_WEIGHT: f32 = 0.05;
/// Value of a shield over a damaged ship (about five shots at it absorbed over the next turns).
const SHIELD_VALUE: f32 = 2.0;
/// Value of an EMP per ship of the target still afloat (two turns of its orders lost).
const EMP_PER_SHIP: f32 = 0.8;
/// What revealing the frigate to everyone costs the missile (section 9 rule 6).
const MISSILE_REVEAL: f32 = 0.7;
/// Chance that an unexplained hit is a ship cell rather than a buoy, for the torpedo's trigger.
const HIT_IS_SHIP: f32 = 0.85;

/// One option and its value.
#[derive(Clone, Copy, Debug)]
struct Scored {
    order: Order,
    value: f32,
}

fn better(a: Option<Scored>, b: Scored) -> Option<Scored> {
    match a {
        Some(a) if a.value >= b.value => Some(a),
        _ => Some(b),
    }
}

/// The side of the summed-area table: one row and one column more than the board.
const SUMS: usize = SIDE as usize + 1;

/// The odds a style aims with on one board, boxed (both are large): the full map of the thorough
/// and greedy styles, or the quick map (its chase and hunting tiers).
enum Map {
    Full(Box<Odds>),
    Quick(Box<QuickOdds>),
}

/// One opponent's board with what the acting seat may not aim at cleared, and the summed-area
/// table of its odds for rectangle sums in constant time, made on first use (a playout's order
/// needs it only when its ship can pay for a special).
struct Target {
    seat: Seat,
    map: Map,
    /// Weight of a cell hit on this board (style documentation).
    weight: f32,
    /// `sums[r][c]`: the odds summed over rows `< r` and columns `< c`.
    sums: OnceCell<[[f32; SUMS]; SUMS]>,
}

impl Target {
    fn new(seat: Seat, mut map: Map, weight: f32, closed: Bits) -> Target {
        match &mut map {
            Map::Full(odds) => odds.clear(closed),
            Map::Quick(odds) => odds.clear(closed),
        }
        Target {
            seat,
            map,
            weight,
            sums: OnceCell::new(),
        }
    }

    /// The chance that `c` holds an unhit ship cell.
    fn at(&self, c: Cell) -> f32 {
        match &self.map {
            Map::Full(odds) => odds.at(c),
            Map::Quick(odds) => odds.at(c),
        }
    }

    /// Hit cells no sunk ship or sunk-looking buoy explains.
    fn open_hits(&self) -> Bits {
        match &self.map {
            Map::Full(odds) => odds.open_hits,
            Map::Quick(odds) => odds.open_hits,
        }
    }

    /// The expected unhit submarine cells in `area` (0 in the quick map, which has none).
    fn sub_sum(&self, area: Bits) -> f32 {
        match &self.map {
            Map::Full(odds) => odds.sub_sum(area),
            Map::Quick(_) => 0.0,
        }
    }

    /// The odds summed over the area of `ability` aimed at the normalised `aim`.
    fn area_sum(&self, ability: Ability, aim: Cell, vertical: bool) -> f32 {
        let sums = self.sums.get_or_init(|| {
            let mut sums = [[0f32; SUMS]; SUMS];
            for r in 0..SIDE as usize {
                let quick;
                let row = match &self.map {
                    Map::Full(odds) => &odds.ship[r * SIDE as usize..(r + 1) * SIDE as usize],
                    Map::Quick(odds) => {
                        quick = odds.row(r as u8);
                        &quick[..]
                    }
                };
                for (c, &v) in row.iter().enumerate() {
                    sums[r + 1][c + 1] = v + sums[r][c + 1] + sums[r + 1][c] - sums[r][c];
                }
            }
            sums
        });
        let (h, w, oh, ow) = ability.geometry(vertical);
        let (r0, c0) = (usize::from(aim.row() - oh), usize::from(aim.col() - ow));
        let (r1, c1) = (r0 + usize::from(h), c0 + usize::from(w));
        sums[r1][c1] - sums[r0][c1] - sums[r1][c0] + sums[r0][c0]
    }
}

impl Naval {
    /// The heuristic's action for `seat` (module documentation): in the placement, the thorough
    /// style's next piece move or `ready` (`layout`), `ready` in the other styles (the random
    /// layout is kept); the order of the ship whose turn it is in the battle; `None` when `seat`
    /// does not act now.
    pub fn heuristic_action<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        style: Style,
        rng: &mut R,
    ) -> Option<Action> {
        if !self.to_act().allows(Actor::Seat(seat)) {
            return None;
        }
        match self.phase {
            Phase::Placement if style == Style::Thorough => Some(self.placement_move(seat)),
            Phase::Placement => Some(Action::Ready),
            Phase::Battle => {
                let ship = self.turn.next?;
                let mut order = self.plan(seat, ship, style, rng, None);
                if self.check_order(seat, ship, &order).is_err() {
                    // Every option is taken from the legal families; a refusal here is a defect
                    // of this module, and the pass is always legal.
                    debug_assert!(false, "the heuristic chose an illegal order {order:?}");
                    order = Order::Pass;
                }
                Some(Action::Order { ship, order })
            }
            _ => None,
        }
    }

    /// A short list of sensible actions for `seat` for a search to choose among: the thorough
    /// heuristic's choice first, the pass, the best normal shots and the best aim of each
    /// affordable special. Empty when `seat` does not act now; in the placement, the thorough
    /// style's action alone (`layout`).
    /// `rng` only breaks ties between equal values.
    pub fn candidate_actions<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        shots: usize,
        rng: &mut R,
        out: &mut Vec<Action>,
    ) {
        out.clear();
        if self.to_act() == ToAct::Terminal || !self.to_act().allows(Actor::Seat(seat)) {
            return;
        }
        match self.phase {
            Phase::Placement => out.push(self.placement_move(seat)),
            Phase::Battle => {
                let Some(ship) = self.turn.next else { return };
                let mut options = Vec::new();
                let first = self.plan(seat, ship, Style::Thorough, rng, Some(&mut options));
                let mut push = |order: Order| {
                    let a = Action::Order { ship, order };
                    if !out.contains(&a) && self.check_order(seat, ship, &order).is_ok() {
                        out.push(a);
                    }
                };
                push(first);
                push(Order::Pass);
                let mut fires: Vec<&Scored> = options
                    .iter()
                    .filter(|s| matches!(s.order, Order::Fire { .. }))
                    .collect();
                fires.sort_by(|a, b| b.value.total_cmp(&a.value));
                for s in fires.into_iter().take(shots) {
                    push(s.order);
                }
                for s in options.iter().filter(|s| s.order.ability().is_some()) {
                    push(s.order);
                }
            }
            _ => {}
        }
    }

    /// The order for `ship` of `seat` (module documentation). With `options`, also writes the
    /// best normal shot of each board and the best aim of each affordable special.
    fn plan<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        ship: Ship,
        style: Style,
        rng: &mut R,
        mut options: Option<&mut Vec<Scored>>,
    ) -> Order {
        let targets = self.targets(seat, style, rng);
        let energy = self.board(seat).energy[ship.index()];
        // Ties between equal cells are broken by a cheap hash of the cell under one random key.
        let key = rng.random::<u64>() | 1;
        let jitter = |c: Cell| {
            let h = (c.index() as u64 + 1).wrapping_mul(key).rotate_left(29);
            (h >> 40) as f32 * (1e-3 / (1u64 << 24) as f32)
        };

        // The best normal shot, board by board.
        let mut fire: Option<Scored> = None;
        for t in &targets {
            let mut best: Option<Scored> = None;
            let mut cells = self.fire_targets(seat, t.seat);
            // The quick map's cells come in tiers, the chase above the hunt and the most-covered
            // cells above the rest: only the best tier is read.
            if let Map::Quick(odds) = &t.map
                && let Some(tier) = odds
                    .tiers
                    .iter()
                    .map(|&b| b & cells)
                    .find(|b| !b.is_empty())
            {
                cells = tier;
            }
            for c in cells.iter() {
                let value = t.weight * t.at(c) + jitter(c);
                best = better(
                    best,
                    Scored {
                        order: Order::Fire {
                            target: t.seat,
                            cell: c,
                        },
                        value,
                    },
                );
            }
            if let Some(b) = best {
                fire = better(fire, b);
                if let Some(o) = options.as_deref_mut() {
                    o.push(b);
                }
            }
        }

        // The best special the ship can pay for.
        let mut special: Option<Scored> = None;
        for ability in Ability::of_ship(ship) {
            let cost = self.config.costs.of(ability);
            if energy < cost {
                continue;
            }
            let Some(best) = self.best_special(seat, ability, &targets, style, &jitter) else {
                continue;
            };
            if let Some(o) = options.as_deref_mut() {
                o.push(best);
            }
            special = better(special, best);
        }

        match (special, fire) {
            (Some(s), _) if s.value > fire.map_or(0.0, |f| f.value) => s.order,
            (_, Some(f)) => f.order,
            _ => Order::Pass,
        }
    }

    /// The opponents' boards as `seat` sees them, with the cells it may not aim at cleared
    /// (resolved, blocked for it, aimed at by its earlier orders this turn). `rng` draws the
    /// thorough style's layouts.
    fn targets<R: Rng + ?Sized>(&self, seat: Seat, style: Style, rng: &mut R) -> Vec<Target> {
        let mut planned = [Bits::EMPTY; 4];
        if self.current == seat {
            for k in Ship::ALL.into_iter().filter(|&k| self.turn.has_order(k)) {
                match self.turn.order(k) {
                    Order::Fire { target, cell } => planned[target.index()].set(cell),
                    Order::Special {
                        ability,
                        target,
                        cell,
                        vertical,
                    } if ability.is_area() => {
                        planned[target.index()] |= ability.area(cell, vertical);
                    }
                    _ => {}
                }
            }
        }
        // At most three opponents: room for all at once, rather than a vector growing by one.
        let mut out = Vec::with_capacity(3);
        out.extend(self.opponents(seat).map(|t| {
            let map = match style {
                Style::Thorough => Map::Full(Box::new(self.sampled_odds(seat, t, SAMPLES, rng))),
                Style::Greedy => Map::Full(Box::new(self.odds(seat, t))),
                Style::Quick => Map::Quick(Box::new(self.quick_odds(seat, t))),
            };
            let b = self.board(t);
            let damage = b.hit.count() as f32 / 32.0;
            let weight = match style {
                Style::Thorough => (1.0 - HEALTHY_FIRST * damage).max(MIN_WEIGHT),
                Style::Greedy | Style::Quick => 1.0 + damage,
            };
            let closed = self.blocked_for(seat, t) | planned[t.index()];
            Target::new(t, map, weight, closed)
        }));
        out
    }

    /// Whether a ship of `seat` other than the corvette is damaged, afloat, and without a shield.
    fn needs_shield(&self, seat: Seat) -> bool {
        let b = self.board(seat);
        !b.shield.active
            && Ship::ALL
                .into_iter()
                .any(|k| k != Ship::Corvette && !b.is_sunk(k) && b.mask(k.piece()).meets(b.hit))
    }
}

#[cfg(test)]
mod tests {
    use plateau_engine::{Game, Viewer};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Along seeded random games, the heuristic's action and every candidate are legal, and both
    /// are the same on a state the seat cannot tell from the true one, in the battle and (the
    /// thorough style's layout) in the placement.
    #[test]
    fn the_heuristic_plays_legal_orders_from_its_information() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut g = Naval::new(&crate::Config::default(), 4).unwrap();
        let (mut checked, mut legal, mut candidates) = (0, Vec::new(), Vec::new());
        let mut placements = 0;
        while let Some((actor, a)) = g.random_action(&mut rng) {
            // The thorough style's placement (`layout`) reads the seat's own board alone.
            if let (Actor::Seat(s), Phase::Placement) = (actor, g.phase)
                && placements < 20
            {
                let other = g.determinize(s, &mut rng);
                let mine =
                    g.heuristic_action(s, Style::Thorough, &mut ChaCha8Rng::seed_from_u64(1));
                let theirs =
                    other.heuristic_action(s, Style::Thorough, &mut ChaCha8Rng::seed_from_u64(1));
                assert_eq!(mine, theirs, "the placement read hidden state");
                g.legal_actions(s, &mut legal);
                assert!(legal.contains(&mine.unwrap()), "{mine:?} is not legal");
                placements += 1;
            }
            if let (Actor::Seat(s), Phase::Battle) = (actor, g.phase)
                && checked < 200
            {
                let other = g.determinize(s, &mut rng);
                assert_eq!(other.observe(Viewer::Seat(s)), g.observe(Viewer::Seat(s)));
                g.legal_actions(s, &mut legal);
                // The thorough style draws hundreds of layouts a decision: every fourth one.
                let thorough = checked % 4 == 0;
                let styles = [Style::Greedy, Style::Quick, Style::Thorough];
                for &style in &styles[..if thorough { 3 } else { 2 }] {
                    let mine = g.heuristic_action(s, style, &mut ChaCha8Rng::seed_from_u64(1));
                    let theirs =
                        other.heuristic_action(s, style, &mut ChaCha8Rng::seed_from_u64(1));
                    assert_eq!(mine, theirs, "{style:?} read hidden state");
                    assert!(legal.contains(&mine.unwrap()), "{mine:?} is not legal");
                }
                if thorough {
                    g.candidate_actions(s, 4, &mut ChaCha8Rng::seed_from_u64(2), &mut candidates);
                    let mut again = Vec::new();
                    other.candidate_actions(s, 4, &mut ChaCha8Rng::seed_from_u64(2), &mut again);
                    assert_eq!(candidates, again);
                    assert!(candidates.iter().all(|a| legal.contains(a)));
                    assert!(candidates.len() >= 2);
                }
                checked += 1;
            }
            g.apply_legal(actor, &a);
        }
        assert!(checked >= 100, "{checked} decisions checked");
        assert_eq!(placements, 20);
    }
}
