//! The options of a battle turn (rules/naval.md sections 5.3, 5.5, 6.5a, 9, 10.1): every order
//! each of the seat's ships still to act may be given, as data the browser highlights and composes
//! orders from without knowing a rule or the notation.
//!
//! The engine takes a turn's orders one ship at a time (section 5.3a), so the legal list covers
//! only the ship it asks next; a player plans all the ship orders of the turn at once. The options
//! list, for each ship still to act, the families `orders` builds for it on the same state (the
//! list `list_orders` would write for that ship), grouped so the JSON stays a few kilobytes:
//! cells are written once per set. The page sends an order by its parts (`action_from_parts`:
//! the ship, the kind, the board, the aim), never by its text, so nothing here is notation.
//!
//! One rule spans ships: two ships of one turn may not pick the same cell for their normal shots
//! (section 5.5). The lists here already leave out the cells of orders given; the flag
//! `distinct_fire_cells` tells the page to leave out the cells its own plan picks too.

use plateau_engine::{ActionParts, Seat};
use serde::{Deserialize, Serialize};

use crate::ability::{Ability, Dir};
use crate::bits::{Bits, Cell, SIDE};
use crate::orders::Family;
use crate::piece::Ship;
use crate::state::Naval;

/// The options of the viewing seat's battle turn: `Observation::options`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TurnOptions {
    /// Section 5.5: two ships of one turn may not fire their normal shots at the same cell, so
    /// a cell the plan already gives a ship's shot is not open to another ship's.
    pub distinct_fire_cells: bool,
    /// The cells open to a normal shot on each living opponent board (sections 6.1, 6.2, 7, 5.5):
    /// the same for every ship, so written once.
    pub fire: Vec<FireCells>,
    /// The ships still to act this turn, in the order the engine takes them (section 5.3a): the
    /// first is `Observation::next_ship`.
    pub ships: Vec<ShipOptions>,
}

/// The cells open to a normal shot on one board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct FireCells {
    /// The board (0-based in JSON).
    pub target: Seat,
    /// Its cells open to a shot.
    pub cells: Vec<String>,
}

/// Every order one ship may be given this turn.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ShipOptions {
    /// `carrier` .. `corvette`. Its pass is always open.
    pub ship: String,
    /// The boards its normal shot may aim at (0-based in JSON); the cells are
    /// `TurnOptions::fire`.
    pub fire: Vec<Seat>,
    /// Its two specials, in the order of the section 9 table.
    pub specials: Vec<SpecialOptions>,
}

/// One special of a ship: whether it may be used now and each way it may be.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SpecialOptions {
    /// The ability (`bombing`, `shield`, ...).
    pub ability: Ability,
    /// Its energy cost (section 9, as configured).
    pub cost: u16,
    /// Whether at least one order of it is legal now.
    pub open: bool,
    /// Why it may not be used, when the ship lacks the energy (section 5.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Aimed at a cell: the area specials (section 6.5a) and the shield (section 10.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aimed: Vec<AimedOptions>,
    /// The torpedo (sections 3 and 9): its lanes per board.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub torpedo: Vec<TorpedoOptions>,
    /// The EMP (section 9 rule 5): the seats it may hit (0-based in JSON).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emp: Vec<Seat>,
}

/// A special aimed at a cell, in one orientation, with the same aims on every board listed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AimedOptions {
    /// The bombing line along a column; false for every other special.
    pub vertical: bool,
    /// The orientation as the order's `choice` (`h` or `v`) for the bombing, the one special
    /// that has one; none for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The area's shape: `[rows, cols, aim_row, aim_col]`, the aim's place inside it (section
    /// 6.5).
    pub area: [u8; 4],
    /// The legal aims: the normalised ones (section 6.5a), or the shield's centres (10.1).
    pub aims: Vec<String>,
    /// The boards it may aim at (0-based in JSON): the owner's own for the shield.
    pub targets: Vec<Seat>,
}

/// The torpedo at one board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TorpedoOptions {
    /// The board (0-based in JSON).
    pub target: Seat,
    /// Every lane it may take (section 3: the edge it enters by is fixed but in a duel).
    pub lanes: Vec<Lane>,
}

/// One torpedo lane: its direction and its first and last cells in travel order.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Lane {
    /// The direction of travel (`right`, `left`, `down`, `up`).
    pub dir: Dir,
    /// The cell it enters by.
    pub from: String,
    /// The cell it leaves by.
    pub to: String,
}

/// The entry of `ability` among a ship's two specials.
fn special(specials: &mut [SpecialOptions], ability: Ability) -> &mut SpecialOptions {
    let i = specials
        .iter()
        .position(|x| x.ability == ability)
        .unwrap_or_default();
    &mut specials[i]
}

fn names(b: Bits) -> Vec<String> {
    b.iter().map(Cell::name).collect()
}

impl Naval {
    /// The options of seat `s`'s battle turn: every ship from the one asked next on that is not
    /// sunk, each with the families `orders` opens to it on this state. Only for the seat's own
    /// turn: they show its energies and its fleet's cells (shield centres).
    #[must_use]
    pub fn turn_options(&self, s: Seat) -> TurnOptions {
        let fire = self
            .opponents(s)
            .map(|t| FireCells {
                target: t,
                cells: names(self.fire_targets(s, t)),
            })
            .collect();
        let ships = Ship::ALL
            .into_iter()
            .skip_while(|&k| Some(k) != self.turn.next)
            .filter(|&k| !self.board(s).is_sunk(k))
            .map(|k| self.ship_options(s, k))
            .collect();
        TurnOptions {
            distinct_fire_cells: true,
            fire,
            ships,
        }
    }

    fn ship_options(&self, s: Seat, ship: Ship) -> ShipOptions {
        let mut out = ShipOptions {
            ship: ship.name().to_owned(),
            fire: Vec::new(),
            specials: Ability::of_ship(ship)
                .into_iter()
                .map(|ability| SpecialOptions {
                    ability,
                    cost: self.config.costs.of(ability),
                    open: false,
                    reason: self
                        .special_ok(s, ship, ability)
                        .err()
                        .map(|r| r.to_string()),
                    aimed: Vec::new(),
                    torpedo: Vec::new(),
                    emp: Vec::new(),
                })
                .collect(),
        };
        for family in self.families(s, ship).as_slice() {
            match *family {
                Family::Pass => {}
                Family::Fire { target, .. } => out.fire.push(target),
                Family::Special {
                    ability,
                    target,
                    vertical,
                    cells,
                } => {
                    if cells.is_empty() {
                        continue;
                    }
                    let aims = names(cells);
                    let sp = special(&mut out.specials, ability);
                    sp.open = true;
                    match sp
                        .aimed
                        .iter_mut()
                        .find(|a| a.vertical == vertical && a.aims == aims)
                    {
                        Some(group) => group.targets.push(target),
                        None => {
                            let (h, w, oh, ow) = ability.geometry(vertical);
                            sp.aimed.push(AimedOptions {
                                vertical,
                                choice: ability
                                    .has_orientation()
                                    .then(|| if vertical { "v" } else { "h" }.to_owned()),
                                area: [h, w, oh, ow],
                                aims,
                                targets: vec![target],
                            });
                        }
                    }
                }
                Family::Torpedo { target, dir } => {
                    let sp = special(&mut out.specials, Ability::Torpedo);
                    sp.open = true;
                    for lane in 0..SIDE {
                        let mut cells = dir.lane(lane);
                        let from = cells.next().unwrap_or_default();
                        let to = cells.last().unwrap_or(from);
                        let lane = Lane {
                            dir,
                            from: from.name(),
                            to: to.name(),
                        };
                        match sp.torpedo.iter_mut().find(|x| x.target == target) {
                            Some(group) => group.lanes.push(lane),
                            None => sp.torpedo.push(TorpedoOptions {
                                target,
                                lanes: vec![lane],
                            }),
                        }
                    }
                }
                Family::Emp { target } => {
                    let sp = special(&mut out.specials, Ability::Emp);
                    sp.open = true;
                    sp.emp.push(target);
                }
            }
        }
        out
    }
}

/// Every order the options give `ship`, in the parts the page sends (`action_from_parts`), with
/// the page's one cross-ship rule left aside: the expansion the browser makes, for tests.
#[must_use]
pub fn expand(options: &TurnOptions, ship: &ShipOptions) -> Vec<ActionParts> {
    let order =
        |kind: &str, target: Option<Seat>, to: Option<&str>, choice: Option<&str>| ActionParts {
            kind: kind.to_owned(),
            piece: Some(ship.ship.clone()),
            to: to.map(str::to_owned),
            choice: choice.map(str::to_owned),
            target: target.map(|t| t.0),
        };
    let mut out = vec![order("pass", None, None, None)];
    for &t in &ship.fire {
        let cells = options
            .fire
            .iter()
            .find(|c| c.target == t)
            .map(|c| c.cells.as_slice())
            .unwrap_or_default();
        out.extend(cells.iter().map(|c| order("fire", Some(t), Some(c), None)));
    }
    for sp in &ship.specials {
        let name = sp.ability.name();
        for a in &sp.aimed {
            for &t in &a.targets {
                let choice = a.choice.as_deref();
                out.extend(a.aims.iter().map(|c| order(name, Some(t), Some(c), choice)));
            }
        }
        for tp in &sp.torpedo {
            out.extend(
                tp.lanes
                    .iter()
                    .map(|l| order(name, Some(tp.target), Some(&l.from), Some(l.dir.name()))),
            );
        }
        out.extend(sp.emp.iter().map(|&t| order(name, Some(t), None, None)));
    }
    out
}
