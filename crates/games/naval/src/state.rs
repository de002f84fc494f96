//! The state of a game and its rules: placement (rules/naval.md section 4), turns and orders
//! (section 5), shots (6), blocks (7), energy (8), specials (9), shields (10), sinking (11) and the
//! end (12).

use plateau_engine::{IllegalAction, Outcome, SetupError};
use serde::{Deserialize, Serialize};

use crate::action::{
    Ability, Action, CORVETTE, DIRS, Dir, Order, PIECE_NAMES, PIECES, SHIPS, SIZE, SUBMARINE,
    cell_name, footprint, is_buoy,
};
use crate::bits::{Bits, CELLS, Cell};

/// Energy cost of each special (section 9 table; every figure is `[ruling: ours]`). In JSON each
/// field is optional (absent: the default); an unknown field is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Costs {
    /// Shield (default 350).
    pub shield: u16,
    /// Satellite (default 250).
    pub satellite: u16,
    /// Torpedo (default 450).
    pub torpedo: u16,
    /// Sonar (default 250).
    pub sonar: u16,
    /// Rockets (default 500).
    pub rockets: u16,
    /// Missile (default 700).
    pub missile: u16,
    /// Charges (default 300).
    pub charges: u16,
    /// Radar (default 300).
    pub radar: u16,
    /// Artillery (default 200).
    pub artillery: u16,
    /// Heavy (default 450).
    pub heavy: u16,
    /// Bombing (default 400).
    pub bombing: u16,
    /// Emp (default 1000).
    pub emp: u16,
}

impl Default for Costs {
    fn default() -> Costs {
        Costs {
            shield: 350,
            satellite: 250,
            torpedo: 450,
            sonar: 250,
            rockets: 500,
            missile: 700,
            charges: 300,
            radar: 300,
            artillery: 200,
            heavy: 450,
            bombing: 400,
            emp: 1000,
        }
    }
}

impl Costs {
    /// The cost of `ability`.
    #[must_use]
    pub const fn of(&self, ability: Ability) -> u16 {
        match ability {
            Ability::Shield => self.shield,
            Ability::Satellite => self.satellite,
            Ability::Torpedo => self.torpedo,
            Ability::Sonar => self.sonar,
            Ability::Rockets => self.rockets,
            Ability::Missile => self.missile,
            Ability::Charges => self.charges,
            Ability::Radar => self.radar,
            Ability::Artillery => self.artillery,
            Ability::Heavy => self.heavy,
            Ability::Bombing => self.bombing,
            Ability::Emp => self.emp,
        }
    }
}

/// Energy gains of section 8 (E1-E4; E5 is `floor(1000 / size)`, a seed figure, not configurable).
/// In JSON each field is optional (absent: the default); an unknown field is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Gains {
    /// E1: a ship that passes (75).
    pub pass: u16,
    /// E2: a normal shot's first hit on a fresh object (200, seed figure).
    pub first_hit: u16,
    /// E3: a normal shot's later hit on a ship (75).
    pub hit: u16,
    /// E3: a normal shot's sinking hit (100).
    pub sink: u16,
    /// E4: per ship cell among the 8 cells around an enemy miss (25).
    pub miss_per_cell: u16,
    /// E4: cap per ship per enemy action (100).
    pub miss_cap: u16,
}

impl Default for Gains {
    fn default() -> Gains {
        Gains {
            pass: 75,
            first_hit: 200,
            hit: 75,
            sink: 100,
            miss_per_cell: 25,
            miss_cap: 100,
        }
    }
}

/// Options of the game. `Default` is the game of rules/naval.md; the figures marked
/// `[ruling: ours]` there are fields here. In JSON each field is optional; an unknown field is
/// refused (its name is in the error).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Round limit (section 12.6), default 200.
    pub max_rounds: u16,
    /// Placement moves per seat before only `ready` is legal (section 4.5a), default 40.
    pub placement_moves: u8,
    /// Placement clock in seconds, kept by the match runner (section 4.6), default 90.
    pub placement_seconds: u32,
    /// Turn clock in seconds, kept by the match runner (section 5.10), default 60.
    pub turn_seconds: u32,
    /// Costs of the specials (section 9).
    pub costs: Costs,
    /// Energy gains (section 8).
    pub gains: Gains,
    /// Shield charges (section 10.3, seed figure), default 5.
    pub shield_charges: u8,
    /// Turns lost to an EMP (section 9 rule 5, seed figure), default 2.
    pub emp_turns: u8,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_rounds: 200,
            placement_moves: 40,
            placement_seconds: 90,
            turn_seconds: 60,
            costs: Costs::default(),
            gains: Gains::default(),
            shield_charges: 5,
            emp_turns: 2,
        }
    }
}

impl Config {
    /// Checks the figures.
    ///
    /// # Errors
    /// `SetupError::Config` naming the field out of range.
    pub fn validate(&self) -> Result<(), SetupError> {
        let bad = |what: &str| Err(SetupError::Config(what.to_owned()));
        if self.max_rounds == 0 {
            return bad("max_rounds must be at least 1");
        }
        if crate::action::ABILITIES
            .iter()
            .any(|a| self.costs.of(*a) > 1000)
        {
            return bad("costs must be at most 1000 (the energy meter's top)");
        }
        if self.shield_charges == 0 || self.emp_turns == 0 {
            return bad("shield_charges and emp_turns must be at least 1");
        }
        // A clock of 0 s would have the match runner pass every turn at once, as fast as it can.
        for (name, seconds) in [
            ("placement_seconds", self.placement_seconds),
            ("turn_seconds", self.turn_seconds),
        ] {
            if !(1..=86_400).contains(&seconds) {
                return bad(&format!(
                    "{name} must be between 1 and 86400, not {seconds}"
                ));
            }
        }
        Ok(())
    }
}

/// The corvette's shield on one board (section 10).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Shield {
    /// A shield is up.
    pub active: bool,
    /// It has absorbed a shot, so its outline and charges are public (section 10.7).
    pub public: bool,
    /// Centre as cast.
    pub centre: Cell,
    /// The 3x3, shifted inward.
    pub area: Bits,
    /// Charges left.
    pub charges: u8,
    /// Cells resolved when it was cast (so a sampled shield never covers a cell resolved since).
    pub cast_resolved: Bits,
}

/// One player's board, fleet and status.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Board {
    /// Top-left cell of each piece.
    pub at: [Cell; PIECES],
    /// Bit p: piece p lies along a column.
    pub vertical: u16,
    /// Pieces placed so far (9 once the layout chance nodes are done).
    pub placed: u8,
    /// Footprint of each placed piece.
    pub masks: [Bits; PIECES],
    /// Union of the footprints.
    pub occ: Bits,
    /// Cells shot and hit (public).
    pub hit: Bits,
    /// Cells shot and missed (public).
    pub miss: Bits,
    /// Cells where a shield absorbed a shot (public).
    pub deflected: Bits,
    /// Bit k: ship k is sunk.
    pub sunk: u8,
    /// Energy of each ship, 0..1000 (section 8).
    pub energy: [u16; SHIPS],
    /// The shield.
    pub shield: Shield,
    /// Turn slots still lost to an EMP.
    pub emp_left: u8,
    /// Immune to EMP until one active turn is played (section 9 rule 5).
    pub immune: bool,
    /// Eliminated.
    pub out: bool,
    /// Placement: ready.
    pub ready: bool,
    /// Placement: moves made.
    pub moves: u8,
    /// The frigate fired a ballistic missile and is shown to all (section 9 rule 6).
    pub frigate_shown: bool,
    /// Public: cells a torpedo passed or fizzled through, holding no unsunk-ship cell at the time.
    pub lane_clear: Bits,
    /// Public: torpedo trigger cells, known to hold a ship cell.
    pub ship_known: Bits,
    /// Public: cells hit or deflected by anti-submarine charges, known submarine cells.
    pub sub_known: Bits,
    /// Public: cells anti-submarine charges showed free of an unhit submarine cell.
    pub sub_clear: Bits,
}

impl Board {
    /// Hit or missed cells.
    #[must_use]
    pub fn resolved(&self) -> Bits {
        self.hit | self.miss
    }

    /// The piece on `c`, if any.
    #[must_use]
    pub fn piece_at(&self, c: Cell) -> Option<u8> {
        (0..self.placed).find(|&p| self.masks[p as usize].has(c))
    }

    /// Cells of unsunk ships.
    #[must_use]
    pub fn live_ships(&self) -> Bits {
        let mut b = Bits::EMPTY;
        for k in 0..SHIPS.min(self.placed as usize) {
            if self.sunk & 1 << k == 0 {
                b |= self.masks[k];
            }
        }
        b
    }

    /// Whether ship `k` is sunk.
    #[must_use]
    pub const fn is_sunk(&self, k: u8) -> bool {
        self.sunk & 1 << k != 0
    }

    /// Puts piece `p` at `cell` (footprint already checked), recomputing the union.
    pub fn put(&mut self, p: u8, cell: Cell, vertical: bool, mask: Bits) {
        let i = p as usize;
        self.at[i] = cell;
        self.vertical = if vertical {
            self.vertical | 1 << p
        } else {
            self.vertical & !(1 << p)
        };
        self.masks[i] = mask;
        self.occ = self.masks[..self.placed.max(p + 1) as usize]
            .iter()
            .fold(Bits::EMPTY, |a, m| a | *m);
    }

    /// Hit buoys whose every in-board neighbour is resolved: shown as sunk (section 11.3).
    #[must_use]
    pub fn sunk_buoys(&self) -> Bits {
        let resolved = self.resolved();
        let mut out = Bits::EMPTY;
        for p in SHIPS..self.placed as usize {
            let m = self.masks[p];
            if m.within(self.hit)
                && let Some(c) = m.first()
                && Bits::around(c).within(resolved)
            {
                out |= m;
            }
        }
        out
    }
}

/// Areas one seat scanned on one board; the results follow from the layout (ships never move).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Scan {
    /// Spy satellite areas.
    pub satellite: Bits,
    /// Sonar areas.
    pub sonar: Bits,
    /// Radar areas.
    pub radar: Bits,
}

/// What became of one order when it resolved (section 13, public).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// It took effect.
    Done,
    /// Its target was eliminated earlier this turn (section 5.7).
    Cancelled,
    /// A normal shot at a cell resolved earlier this turn (section 5.8).
    Wasted,
    /// A torpedo that met no unsunk ship.
    Fizzled,
    /// A torpedo that exploded on this cell.
    Exploded(Cell),
}

/// One resolved order, as everyone sees it (section 13).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Announcement {
    /// Acting seat.
    pub seat: u8,
    /// Ship.
    pub ship: u8,
    /// The order (a shield's centre is never shown to others).
    pub order: Order,
    /// What became of it.
    pub result: Resolution,
}

/// The phase of the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Random layout chance nodes; `next` = seat * 9 + piece.
    Layout {
        /// The next piece to place.
        next: u8,
    },
    /// Simultaneous placement (section 4.5a).
    Placement,
    /// The first-player chance node.
    FirstPlayer,
    /// Battle turns.
    Battle,
    /// Game over; `limit` when the round limit ended it.
    Over {
        /// Ended by the round limit (section 12.6).
        limit: bool,
    },
}

/// The turn in progress (section 5.3a).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Turn {
    /// Orders given, by ship.
    pub orders: [Order; SHIPS],
    /// Bit k: ship k has its order.
    pub given: u8,
    /// The ship to order next (6 when all are ordered).
    pub next: u8,
    /// Orders are resolving.
    pub resolving: bool,
    /// The ship whose order resolves.
    pub cursor: u8,
    /// A rocket cell awaiting its chance node.
    pub rocket: Option<Cell>,
    /// E4 gains of each target ship in the action resolving (capped per action).
    pub miss_gain: [u16; SHIPS],
}

impl Default for Turn {
    fn default() -> Turn {
        Turn {
            orders: [Order::Pass; SHIPS],
            given: 0,
            next: 0,
            resolving: false,
            cursor: 0,
            rocket: None,
            miss_gain: [0; SHIPS],
        }
    }
}

/// A game of Bataille Navale for four seats (rules/naval.md): the rules, the position and the
/// history they need. About 5 KB, no heap but the last turn's announcements: cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Naval {
    /// Options.
    pub config: Config,
    /// Phase.
    pub phase: Phase,
    /// The four boards, by seat.
    pub boards: [Board; 4],
    /// Blocks, `blocks[board][owner]` (section 7).
    pub blocks: [[Bits; 4]; 4],
    /// Scanned areas, `scans[caster][board]`.
    pub scans: [[Scan; 4]; 4],
    /// Seat whose turn it is (battle).
    pub current: u8,
    /// First player.
    pub first: u8,
    /// Rounds completed (section 12.6).
    pub rounds: u16,
    /// The turn in progress.
    pub turn: Turn,
    /// Eliminated seats, first out first.
    pub out_order: Vec<u8>,
    /// The orders of the turn resolving or last resolved, in resolution order.
    pub last_turn: Vec<Announcement>,
}

/// Layout pieces in all: 4 seats x 9 pieces.
const LAYOUT_NODES: u8 = 36;

fn rule(reason: impl Into<String>) -> IllegalAction {
    IllegalAction::rule(reason)
}

fn add(e: &mut u16, x: u16) {
    *e = (*e + x).min(1000);
}

impl Naval {
    /// A new game: the layout chance nodes come first.
    ///
    /// # Errors
    /// `SetupError` for a bad config.
    pub fn start(config: &Config) -> Result<Naval, SetupError> {
        config.validate()?;
        Ok(Naval {
            config: *config,
            phase: Phase::Layout { next: 0 },
            boards: Default::default(),
            blocks: [[Bits::EMPTY; 4]; 4],
            scans: [[Scan::default(); 4]; 4],
            current: 0,
            first: 0,
            rounds: 0,
            turn: Turn::default(),
            out_order: Vec::new(),
            last_turn: Vec::new(),
        })
    }

    /// Seats still in the game.
    #[must_use]
    pub fn alive_count(&self) -> usize {
        self.boards.iter().filter(|b| !b.out).count()
    }

    /// Cells of board `t` that `shooter` may not shoot: blocks of every other owner (section 7.5).
    #[must_use]
    pub fn blocked_for(&self, shooter: u8, t: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for (o, bits) in self.blocks[t].iter().enumerate() {
            if o != shooter as usize {
                b |= *bits;
            }
        }
        b
    }

    /// Whether `t` counts as adjacent to `s` for torpedoes (section 3, duel exception).
    #[must_use]
    pub fn adjacent(&self, s: u8, t: u8) -> bool {
        (t + 4 - s) % 4 != 2 || self.alive_count() == 2
    }

    /// The torpedo directions legal from `s` at `t` (section 3 table).
    pub fn torpedo_dirs(&self, s: u8, t: u8) -> impl Iterator<Item = Dir> + use<> {
        let one = Dir::between(s, t);
        let all = one.is_none() && self.adjacent(s, t);
        DIRS.into_iter().filter(move |d| all || Some(*d) == one)
    }

    /// Cells a shield may be centred on: cells of the owner's unsunk ships but the corvette (10.1).
    #[must_use]
    pub fn shield_centres(&self, s: u8) -> Bits {
        let b = &self.boards[s as usize];
        let mut out = Bits::EMPTY;
        for k in 0..CORVETTE {
            if !b.is_sunk(k) {
                out |= b.masks[k as usize];
            }
        }
        out
    }

    /// Cells picked for normal shots on `t` by the orders given so far this turn (section 5.5).
    fn picked(&self, t: u8) -> Bits {
        let mut b = Bits::EMPTY;
        for k in 0..SHIPS {
            if self.turn.given & 1 << k != 0
                && let Order::Fire { target, cell } = self.turn.orders[k]
                && target == t
            {
                b.set(cell);
            }
        }
        b
    }

    /// Cells seat `s` may pick for a normal shot on `t` now.
    #[must_use]
    pub fn fire_targets(&self, s: u8, t: u8) -> Bits {
        let b = &self.boards[t as usize];
        !(b.resolved() | self.blocked_for(s, t as usize) | self.picked(t))
    }

    fn next_ship(&self, s: u8, from: u8) -> u8 {
        (from..SHIPS as u8)
            .find(|&k| !self.boards[s as usize].is_sunk(k))
            .unwrap_or(SHIPS as u8)
    }

    // ---- Layout and placement (section 4) -------------------------------------------------------

    /// Footprints of `piece` of seat `s` that are legal given the other placed pieces.
    pub(crate) fn layout_choices(&self, s: usize, piece: u8, out: &mut Vec<(Cell, bool, Bits)>) {
        out.clear();
        let b = &self.boards[s];
        let others = b.masks[..b.placed as usize]
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != piece as usize)
            .fold(Bits::EMPTY, |a, (_, m)| a | *m);
        let orientations: &[bool] = if is_buoy(piece) {
            &[false]
        } else {
            &[false, true]
        };
        for &v in orientations {
            for c in 0..CELLS as Cell {
                if let Some(m) = footprint(piece, c, v)
                    && !m.meets(others)
                {
                    out.push((c, v, m));
                }
            }
        }
    }

    fn check_place(
        &self,
        s: usize,
        piece: u8,
        cell: Cell,
        vertical: bool,
    ) -> Result<Bits, IllegalAction> {
        let name = PIECE_NAMES
            .get(piece as usize)
            .ok_or_else(|| rule("no such piece"))?;
        if is_buoy(piece) && vertical {
            return Err(rule(format!("{name}: buoys take no orientation")));
        }
        if cell as usize >= CELLS {
            return Err(rule("no such cell"));
        }
        let m = footprint(piece, cell, vertical).ok_or_else(|| {
            rule(format!(
                "{name}@{}: the piece would leave the board",
                cell_name(cell)
            ))
        })?;
        let b = &self.boards[s];
        let others = (0..b.placed as usize)
            .filter(|&p| p != piece as usize)
            .fold(Bits::EMPTY, |a, p| a | b.masks[p]);
        if m.meets(others) {
            return Err(rule(format!(
                "{name}@{}: it would lie on another piece (section 4.3)",
                cell_name(cell)
            )));
        }
        Ok(m)
    }

    // ---- Orders (section 5) ---------------------------------------------------------------------

    fn check_target(&self, s: u8, t: u8) -> Result<(), String> {
        if t >= 4 {
            return Err(format!("there is no seat {}", t + 1));
        }
        if t == s {
            return Err("you cannot shoot at your own board (section 6.2)".to_owned());
        }
        if self.boards[t as usize].out {
            return Err(format!(
                "seat {} is eliminated; its board cannot be targeted (section 12.2)",
                t + 1
            ));
        }
        Ok(())
    }

    /// Whether ship `ship` of seat `s` may be given `order` now (sections 5.4, 5.5, 6, 9, 10).
    ///
    /// # Errors
    /// A sentence naming the rule broken.
    pub fn check_order(&self, s: u8, ship: u8, order: &Order) -> Result<(), String> {
        let me = &self.boards[s as usize];
        let sname = PIECE_NAMES[ship as usize];
        if let Some(ab) = order.ability() {
            if ab.ship() != ship {
                let [a, b] = Ability::of_ship(ship);
                return Err(format!(
                    "the {sname} has no {} (its specials: {}, {})",
                    ab.name(),
                    a.name(),
                    b.name()
                ));
            }
            let cost = self.config.costs.of(ab);
            if me.energy[ship as usize] < cost {
                return Err(format!(
                    "the {sname} has {} energy; {} costs {cost} (section 5.4)",
                    me.energy[ship as usize],
                    ab.name()
                ));
            }
        }
        match *order {
            Order::Pass => Ok(()),
            Order::Fire { target, cell } => {
                self.check_target(s, target)?;
                if cell as usize >= CELLS {
                    return Err("no such cell".to_owned());
                }
                let b = &self.boards[target as usize];
                let at = format!("{}:{}", target + 1, cell_name(cell));
                if b.resolved().has(cell) {
                    return Err(format!("{at} is already resolved (section 6.1)"));
                }
                if self.blocked_for(s, target as usize).has(cell) {
                    let owners: Vec<String> = (0..4)
                        .filter(|&o| o != s as usize && self.blocks[target as usize][o].has(cell))
                        .map(|o| (o + 1).to_string())
                        .collect();
                    return Err(format!(
                        "{at} is blocked by seat {} until its next turn (section 7)",
                        owners.join(" and ")
                    ));
                }
                if self.picked(target).has(cell) {
                    return Err(format!(
                        "{at} is already the target of a normal shot of a higher-ranked ship (section 5.5)"
                    ));
                }
                Ok(())
            }
            Order::Special {
                ability: Ability::Shield,
                target,
                cell,
                vertical,
            } => {
                if target != s {
                    return Err("the shield goes on your own board (section 10.1)".to_owned());
                }
                if vertical || cell as usize >= CELLS {
                    return Err("a shield is centred on one cell, without orientation".to_owned());
                }
                if me.masks[CORVETTE as usize].has(cell) {
                    return Err(
                        "a shield cannot be centred on the corvette (section 10.1)".to_owned()
                    );
                }
                if !self.shield_centres(s).has(cell) {
                    return Err(format!(
                        "{}: the shield's centre must be a cell of one of your unsunk ships (section 10.1)",
                        cell_name(cell)
                    ));
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
                    return Err(format!("{} is not aimed at a cell", ability.name()));
                }
                self.check_target(s, target)?;
                if cell as usize >= CELLS {
                    return Err("no such cell".to_owned());
                }
                if vertical && ability != Ability::Bombing {
                    return Err(format!("{} takes no orientation", ability.name()));
                }
                let n = ability.normalise(cell, vertical);
                if n != cell {
                    return Err(format!(
                        "aim {} is not normalised; write {} (section 6.5a)",
                        cell_name(cell),
                        cell_name(n)
                    ));
                }
                Ok(())
            }
            Order::Torpedo { target, dir, lane } => {
                self.check_target(s, target)?;
                if lane >= 14 {
                    return Err("no such lane".to_owned());
                }
                if !self.adjacent(s, target) {
                    return Err(format!(
                        "seat {} sits opposite; torpedoes reach only the two adjacent boards (section 9)",
                        target + 1
                    ));
                }
                if !self.torpedo_dirs(s, target).any(|d| d == dir) {
                    let want: Vec<&str> = self.torpedo_dirs(s, target).map(Dir::name).collect();
                    return Err(format!(
                        "a torpedo from seat {} enters seat {}'s board moving {} (section 3)",
                        s + 1,
                        target + 1,
                        want.join("/")
                    ));
                }
                Ok(())
            }
            Order::Emp { target } => {
                self.check_target(s, target)?;
                let b = &self.boards[target as usize];
                if b.emp_left > 0 {
                    return Err(format!(
                        "seat {} is already disabled (section 9 rule 5)",
                        target + 1
                    ));
                }
                if b.immune {
                    return Err(format!(
                        "seat {} is immune to EMP until it plays an active turn (section 9 rule 5)",
                        target + 1
                    ));
                }
                Ok(())
            }
        }
    }

    /// Writes the legal orders of ship `ship` of seat `s` (the same set `check_order` accepts).
    pub fn list_orders(&self, s: u8, ship: u8, out: &mut Vec<Action>) {
        let push = |out: &mut Vec<Action>, order| out.push(Action::Order { ship, order });
        push(out, Order::Pass);
        let opponents: Vec<u8> = (0..4u8)
            .filter(|&t| t != s && !self.boards[t as usize].out)
            .collect();
        for &t in &opponents {
            for cell in self.fire_targets(s, t).iter() {
                push(out, Order::Fire { target: t, cell });
            }
        }
        let energy = self.boards[s as usize].energy[ship as usize];
        for ab in Ability::of_ship(ship) {
            if energy < self.config.costs.of(ab) {
                continue;
            }
            match ab {
                Ability::Shield => {
                    for cell in self.shield_centres(s).iter() {
                        push(
                            out,
                            Order::Special {
                                ability: ab,
                                target: s,
                                cell,
                                vertical: false,
                            },
                        );
                    }
                }
                Ability::Torpedo => {
                    for &t in &opponents {
                        for dir in self.torpedo_dirs(s, t) {
                            for lane in 0..14 {
                                push(
                                    out,
                                    Order::Torpedo {
                                        target: t,
                                        dir,
                                        lane,
                                    },
                                );
                            }
                        }
                    }
                }
                Ability::Emp => {
                    for &t in &opponents {
                        let b = &self.boards[t as usize];
                        if b.emp_left == 0 && !b.immune {
                            push(out, Order::Emp { target: t });
                        }
                    }
                }
                _ => {
                    let orientations: &[bool] = if ab == Ability::Bombing {
                        &[false, true]
                    } else {
                        &[false]
                    };
                    for &t in &opponents {
                        for &vertical in orientations {
                            for cell in ab.aims(vertical).iter() {
                                push(
                                    out,
                                    Order::Special {
                                        ability: ab,
                                        target: t,
                                        cell,
                                        vertical,
                                    },
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    // ---- Applying actions -----------------------------------------------------------------------

    /// Plays one action. With `checked` false a battle order is taken as legal (the
    /// `Game::apply_legal` fast path); everything else is always checked.
    pub(crate) fn play(
        &mut self,
        seat: Option<u8>,
        action: &Action,
        checked: bool,
    ) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over { .. } => Err(IllegalAction::GameOver),
            Phase::Layout { next } => {
                let Action::Layout {
                    seat: s,
                    piece,
                    cell,
                    vertical,
                } = *action
                else {
                    return Err(rule(
                        "the layout is being drawn: expected <seat>:<piece>@<cell>[h|v]",
                    ));
                };
                let (want_s, want_p) = (next / 9, next % 9);
                if s != want_s || piece != want_p {
                    return Err(rule(format!(
                        "the next layout node places seat {}'s {}",
                        want_s + 1,
                        PIECE_NAMES[want_p as usize]
                    )));
                }
                let m = self.check_place(s as usize, piece, cell, vertical)?;
                let b = &mut self.boards[s as usize];
                b.placed = piece + 1;
                b.put(piece, cell, vertical, m);
                self.phase = if next + 1 == LAYOUT_NODES {
                    Phase::Placement
                } else {
                    Phase::Layout { next: next + 1 }
                };
                Ok(())
            }
            Phase::Placement => {
                let s = seat.ok_or_else(|| rule("placement: no chance node now"))? as usize;
                match *action {
                    Action::Ready => {
                        self.boards[s].ready = true;
                        if self.boards.iter().all(|b| b.ready) {
                            self.phase = Phase::FirstPlayer;
                        }
                        Ok(())
                    }
                    Action::Place {
                        piece,
                        cell,
                        vertical,
                    } => {
                        if self.boards[s].moves >= self.config.placement_moves {
                            return Err(rule(format!(
                                "{} placement moves made; only ready is left (section 4.5a)",
                                self.config.placement_moves
                            )));
                        }
                        let m = self.check_place(s, piece, cell, vertical)?;
                        let b = &mut self.boards[s];
                        b.put(piece, cell, vertical, m);
                        b.moves += 1;
                        Ok(())
                    }
                    _ => Err(rule("placement: expected <piece>@<cell>[h|v] or ready")),
                }
            }
            Phase::FirstPlayer => match *action {
                Action::First { seat: s } if s < 4 => {
                    self.first = s;
                    self.phase = Phase::Battle;
                    self.current = s;
                    self.turn = Turn {
                        next: self.next_ship(s, 0),
                        ..Turn::default()
                    };
                    if self.boards[s as usize].out {
                        // The drawn seat resigned during placement: play passes to the next seat.
                        self.end_turn();
                    }
                    Ok(())
                }
                _ => Err(rule(
                    "the first player is being drawn: expected first <seat>",
                )),
            },
            Phase::Battle => {
                if let Some(pending) = self.turn.rocket {
                    let Action::Rocket { cell, shot } = *action else {
                        return Err(rule(
                            "a rocket cell is being drawn: expected rocket <cell> shot|spared",
                        ));
                    };
                    if cell != pending {
                        return Err(rule(format!(
                            "the rocket node is for {}",
                            cell_name(pending)
                        )));
                    }
                    self.rocket_outcome(shot);
                    return Ok(());
                }
                let Action::Order { ship, order } = *action else {
                    return Err(rule("battle: expected an order <ship>:<order>"));
                };
                let s = self.current;
                if ship as usize >= SHIPS {
                    return Err(rule("buoys take no orders"));
                }
                let next = self.turn.next;
                if ship != next {
                    let name = PIECE_NAMES[ship as usize];
                    let why = if self.boards[s as usize].is_sunk(ship) {
                        format!("the {name} is sunk and takes no order")
                    } else if self.turn.given & 1 << ship != 0 {
                        format!(
                            "the {name} already has its order this turn (one order per ship, section 5.3)"
                        )
                    } else {
                        format!(
                            "orders go in importance order: the {} is next (section 5.3a)",
                            PIECE_NAMES[next as usize]
                        )
                    };
                    return Err(rule(why));
                }
                if checked {
                    self.check_order(s, ship, &order).map_err(rule)?;
                }
                self.turn.orders[ship as usize] = order;
                self.turn.given |= 1 << ship;
                self.turn.next = self.next_ship(s, ship + 1);
                if self.turn.next as usize == SHIPS {
                    self.turn.resolving = true;
                    self.turn.cursor = 0;
                    self.last_turn.clear();
                    self.resume();
                }
                Ok(())
            }
        }
    }

    // ---- Resolution (sections 5.6-5.11, 6, 9, 10) ------------------------------------------------

    /// Resolves orders from the cursor until a rocket node or the end of the turn.
    fn resume(&mut self) {
        loop {
            if matches!(self.phase, Phase::Over { .. }) || self.turn.rocket.is_some() {
                return;
            }
            let k = self.turn.cursor;
            if k as usize >= SHIPS {
                self.end_turn();
                return;
            }
            if self.turn.given & 1 << k != 0 {
                self.resolve(k);
                if self.turn.rocket.is_some() {
                    return;
                }
            }
            self.turn.cursor += 1;
        }
    }

    fn announce(&mut self, ship: u8, order: Order, result: Resolution) {
        self.last_turn.push(Announcement {
            seat: self.current,
            ship,
            order,
            result,
        });
    }

    /// Resolves ship `k`'s order.
    fn resolve(&mut self, k: u8) {
        let s = self.current;
        let order = self.turn.orders[k as usize];
        self.turn.miss_gain = [0; SHIPS];
        if let Some(t) = order.target()
            && t != s
            && self.boards[t as usize].out
        {
            self.announce(k, order, Resolution::Cancelled);
            return;
        }
        if let Some(ab) = order.ability() {
            let cost = self.config.costs.of(ab);
            let e = &mut self.boards[s as usize].energy[k as usize];
            *e = e.saturating_sub(cost);
        }
        match order {
            Order::Pass => {
                add(
                    &mut self.boards[s as usize].energy[k as usize],
                    self.config.gains.pass,
                );
                self.announce(k, order, Resolution::Done);
            }
            Order::Fire { target, cell } => {
                if self.boards[target as usize].resolved().has(cell) {
                    self.announce(k, order, Resolution::Wasted);
                } else {
                    self.announce(k, order, Resolution::Done);
                    self.shoot(k, target as usize, cell, true, false);
                }
            }
            Order::Special {
                ability,
                target,
                cell,
                vertical,
            } => {
                self.announce(k, order, Resolution::Done);
                let t = target as usize;
                let area = ability.area(cell, vertical);
                let blocked = self.blocked_for(s, t);
                match ability {
                    Ability::Shield => {
                        let b = &mut self.boards[s as usize];
                        b.shield = Shield {
                            active: true,
                            public: false,
                            centre: cell,
                            area,
                            charges: self.config.shield_charges,
                            cast_resolved: b.resolved(),
                        };
                    }
                    Ability::Satellite => self.scans[s as usize][t].satellite |= area,
                    Ability::Sonar => self.scans[s as usize][t].sonar |= area,
                    Ability::Radar => self.scans[s as usize][t].radar |= area,
                    Ability::Rockets => {
                        let eligible = area & !(self.boards[t].resolved() | blocked);
                        self.turn.rocket = eligible.first();
                    }
                    Ability::Charges => {
                        let b = &self.boards[t];
                        let subs = if b.is_sunk(SUBMARINE) {
                            Bits::EMPTY
                        } else {
                            b.masks[SUBMARINE as usize]
                        };
                        let targets = area & subs & !b.hit & !blocked;
                        let clear = area & !(b.resolved() | blocked | targets);
                        self.boards[t].sub_known |= targets;
                        self.boards[t].sub_clear |= clear;
                        for c in targets.iter() {
                            if self.shoot(k, t, c, false, false) {
                                break;
                            }
                        }
                    }
                    _ => {
                        let cells = area & !(self.boards[t].resolved() | blocked);
                        for c in cells.iter() {
                            if self.shoot(k, t, c, false, false) {
                                break;
                            }
                        }
                        if ability == Ability::Missile {
                            self.boards[s as usize].frigate_shown = true;
                        }
                    }
                }
            }
            Order::Torpedo { target, dir, lane } => {
                let t = target as usize;
                let live = self.boards[t].live_ships();
                let mut passed = Bits::EMPTY;
                let mut trigger = None;
                for c in dir.lane(lane) {
                    if live.has(c) {
                        trigger = Some(c);
                        break;
                    }
                    passed.set(c);
                }
                self.boards[t].lane_clear |= passed;
                let Some(c0) = trigger else {
                    self.announce(k, order, Resolution::Fizzled);
                    return;
                };
                self.announce(k, order, Resolution::Exploded(c0));
                self.boards[t].ship_known.set(c0);
                let skip = self.boards[t].resolved() | self.blocked_for(s, t);
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
                self.boards[target as usize].emp_left = self.config.emp_turns;
            }
        }
    }

    fn rocket_outcome(&mut self, shot: bool) {
        let Some(c) = self.turn.rocket else { return };
        let s = self.current;
        let k = self.turn.cursor;
        let Order::Special { target, cell, .. } = self.turn.orders[k as usize] else {
            self.turn.rocket = None;
            return;
        };
        let t = target as usize;
        let stop = shot && self.shoot(k, t, c, false, false);
        let after = Bits::FULL & !Bits::rect(0, 0, i32::from(c / 14) + 1, 14)
            | Bits::rect(i32::from(c / 14), i32::from(c % 14) + 1, 1, 14);
        let eligible = Ability::Rockets.area(cell, false)
            & after
            & !(self.boards[t].resolved() | self.blocked_for(s, t));
        self.turn.rocket = if stop { None } else { eligible.first() };
        if self.turn.rocket.is_none() {
            self.turn.cursor += 1;
            self.resume();
        }
    }

    /// One cell of board `t` receives a shot from the current seat's ship `k` (sections 6.3, 7, 8,
    /// 10, 11, 12). `normal` pays the firer (E2/E3). Returns whether the action must stop (the
    /// target is eliminated, section 5.7).
    fn shoot(&mut self, k: u8, t: usize, c: Cell, normal: bool, ignore_shield: bool) -> bool {
        let s = self.current as usize;
        let gains = self.config.gains;
        let b = &mut self.boards[t];
        if !ignore_shield
            && b.shield.active
            && b.shield.area.has(c)
            && !b.masks[CORVETTE as usize].has(c)
        {
            b.shield.charges -= 1;
            b.shield.public = true;
            b.deflected.set(c);
            if b.shield.charges == 0 {
                b.shield.active = false;
            }
            return false;
        }
        let Some(p) = b.piece_at(c) else {
            b.miss.set(c);
            let around = Bits::around(c);
            for j in 0..SHIPS {
                if b.is_sunk(j as u8) {
                    continue;
                }
                let n = (b.masks[j] & around).count() as u16;
                if n > 0 {
                    let room = gains.miss_cap.saturating_sub(self.turn.miss_gain[j]);
                    let g = (n * gains.miss_per_cell).min(room);
                    self.turn.miss_gain[j] += g;
                    add(&mut b.energy[j], g);
                }
            }
            return false;
        };
        let fresh = !b.masks[p as usize].meets(b.hit);
        b.hit.set(c);
        if fresh {
            self.blocks[t][s] |= Bits::around(c);
        }
        let mut sank = false;
        if !is_buoy(p) {
            if b.masks[p as usize].within(b.hit) {
                b.sunk |= 1 << p;
                b.energy[p as usize] = 0;
                sank = true;
            } else {
                add(
                    &mut b.energy[p as usize],
                    1000 / u16::from(SIZE[p as usize]),
                );
            }
        }
        if normal {
            let g = if fresh {
                gains.first_hit
            } else if sank {
                gains.sink
            } else {
                gains.hit
            };
            add(&mut self.boards[s].energy[k as usize], g);
        }
        if sank && self.boards[t].sunk == (1 << SHIPS) - 1 {
            self.eliminate(t);
            return true;
        }
        false
    }

    /// Seat `s` resigns (`Game::end(Ending::Resign)`): it is eliminated at once, as if its last
    /// ship had sunk (section 12.1-12.2; resignation itself is not in the rules, our extension). Its
    /// turn, if it was playing, ends without resolving; a rocket salvo at its board stops.
    pub(crate) fn resign(&mut self, s: u8) {
        let su = s as usize;
        self.boards[su].ready = true;
        self.eliminate(su);
        if matches!(self.phase, Phase::Over { .. }) {
            return;
        }
        match self.phase {
            Phase::Placement if self.boards.iter().all(|b| b.ready) => {
                self.phase = Phase::FirstPlayer
            }
            Phase::Battle if self.current == s => self.end_turn(),
            Phase::Battle
                if self.turn.rocket.is_some()
                    && self.turn.orders[self.turn.cursor as usize].target() == Some(s) =>
            {
                self.turn.rocket = None;
                self.turn.cursor += 1;
                self.resume();
            }
            _ => {}
        }
    }

    fn eliminate(&mut self, t: usize) {
        self.boards[t].out = true;
        self.boards[t].shield.active = false;
        self.out_order.push(t as u8);
        for board in &mut self.blocks {
            board[t] = Bits::EMPTY;
        }
        if self.alive_count() == 1 {
            self.phase = Phase::Over { limit: false };
        }
    }

    /// Ends the current turn and starts the next living seat's (sections 5.1, 7.6, 9 rule 5, 12.6).
    fn end_turn(&mut self) {
        let s = self.current as usize;
        self.boards[s].immune = false;
        self.turn = Turn::default();
        let mut seat = s;
        loop {
            seat = (seat + 1) % 4;
            if seat == self.first as usize {
                self.rounds += 1;
                if self.rounds >= self.config.max_rounds {
                    self.phase = Phase::Over { limit: true };
                    return;
                }
            }
            if self.boards[seat].out {
                continue;
            }
            for board in &mut self.blocks {
                board[seat] = Bits::EMPTY;
            }
            let b = &mut self.boards[seat];
            if b.emp_left > 0 {
                b.emp_left -= 1;
                b.immune = b.emp_left == 0;
                continue;
            }
            self.current = seat as u8;
            self.turn.next = self.next_ship(seat as u8, 0);
            return;
        }
    }

    /// The result once the game is over (section 12.4-12.6).
    #[must_use]
    pub fn result(&self) -> Option<Outcome> {
        let Phase::Over { limit } = self.phase else {
            return None;
        };
        let alive: Vec<usize> = (0..4).filter(|&t| !self.boards[t].out).collect();
        let unhit = |t: usize| {
            let b = &self.boards[t];
            (0..SHIPS)
                .map(|k| (b.masks[k] & !b.hit).count())
                .sum::<u32>()
        };
        let mut ranks = vec![0u8; 4];
        let mut scores = vec![0.0; 4];
        for &t in &alive {
            let better = alive.iter().filter(|&&o| unhit(o) > unhit(t)).count();
            ranks[t] = 1 + better as u8;
            scores[t] = if limit { f64::from(unhit(t)) } else { 1.0 };
        }
        for (i, &t) in self.out_order.iter().rev().enumerate() {
            ranks[t as usize] = (alive.len() + i + 1) as u8;
        }
        let kind = if limit { "round_limit" } else { "last_fleet" };
        Some(Outcome {
            ranks,
            scores,
            kind: kind.to_owned(),
        })
    }

    /// Pending rocket cell, if the state is at a rocket chance node.
    #[must_use]
    pub const fn rocket_cell(&self) -> Option<Cell> {
        self.turn.rocket
    }

    /// Whether `piece` of seat `s` lies along a column.
    #[must_use]
    pub const fn is_vertical(&self, s: usize, piece: u8) -> bool {
        self.boards[s].vertical & 1 << piece != 0
    }
}
