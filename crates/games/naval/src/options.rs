//! The options of a battle turn (rules/naval.md sections 5.3, 5.5, 6.5a, 9, 10.1): every order
//! each of the seat's ships still to act may be given, as data the browser highlights and composes
//! orders from without knowing a rule or the notation.
//!
//! The engine takes a turn's orders one ship at a time (section 5.3a), so the legal list covers
//! only the ship it asks next; a player plans all the ship orders of the turn at once. The options
//! list, for each ship still to act, the families `orders` builds for it on the same state (the
//! list `list_orders` would write for that ship), grouped so the JSON stays a few kilobytes:
//! cells are written once per set, and each family carries the text of its orders with the aim
//! left as a placeholder, formatted by the crate's own notation (`format_order`).
//!
//! One rule spans ships: two ships of one turn may not pick the same cell for their normal shots
//! (section 5.5). The lists here already leave out the cells of orders given; the flag
//! `distinct_fire_cells` tells the page to leave out the cells its own plan picks too.

use plateau_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::ability::Ability;
use crate::action::{Order, format_order};
use crate::bits::{Bits, Cell, SIDE};
use crate::orders::Family;
use crate::piece::Ship;
use crate::state::Naval;

/// The placeholder of an order text for the aimed cell (`carrier:fire 2:{cell}`).
pub const CELL: &str = "{cell}";
/// The placeholder of a torpedo text for the lane (`submarine:torpedo 2:{lane}`).
pub const LANE: &str = "{lane}";

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

/// One order text for a target: `{cell}` or `{lane}` stands for the aim where there is one.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TargetText {
    /// The board (0-based in JSON).
    pub target: Seat,
    /// The order's text, e.g. `cruiser:fire 2:{cell}`, `carrier:emp 3`.
    pub text: String,
}

/// Every order one ship may be given this turn.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ShipOptions {
    /// `carrier` .. `corvette`.
    pub ship: String,
    /// The pass (always open): `carrier:pass`.
    pub pass: String,
    /// The normal shot's text per board; the cells are `TurnOptions::fire`.
    pub fire: Vec<TargetText>,
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
    /// The EMP (section 9 rule 5): the seats it may hit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emp: Vec<TargetText>,
}

/// A special aimed at a cell, in one orientation, with the same aims on every board listed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AimedOptions {
    /// The bombing line along a column; false for every other special.
    pub vertical: bool,
    /// The area's shape: `[rows, cols, aim_row, aim_col]`, the aim's place inside it (section
    /// 6.5).
    pub area: [u8; 4],
    /// The legal aims: the normalised ones (section 6.5a), or the shield's centres (10.1).
    pub aims: Vec<String>,
    /// The boards and the text for each (`frigate:rockets 2:{cell}`).
    pub targets: Vec<TargetText>,
}

/// The torpedo at one board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TorpedoOptions {
    /// The board (0-based in JSON).
    pub target: Seat,
    /// The text with `{lane}` for the lane (`submarine:torpedo 2:{lane}`).
    pub text: String,
    /// Every lane it may take (section 3: the edge it enters by is fixed but in a duel).
    pub lanes: Vec<Lane>,
}

/// One torpedo lane: its word in the text and its first and last cells in travel order.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Lane {
    /// `right5`, `downc`.
    pub lane: String,
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
    b.iter().map(|c| c.to_string()).collect()
}

/// `text` with its last `cell` replaced by the placeholder: the aim is written last.
fn template(text: &str, cell: Cell) -> String {
    let name = cell.to_string();
    match text.rfind(&name) {
        Some(i) => format!("{}{CELL}{}", &text[..i], &text[i + name.len()..]),
        None => text.to_owned(),
    }
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
            pass: format_order(ship, &Order::Pass, true),
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
                Family::Fire { target, cells } => {
                    let text = format_order(
                        ship,
                        &Order::Fire {
                            target,
                            cell: cells.first().unwrap_or_default(),
                        },
                        true,
                    );
                    let cell = cells.first().unwrap_or_default();
                    out.fire.push(TargetText {
                        target,
                        text: template(&text, cell),
                    });
                }
                Family::Special {
                    ability,
                    target,
                    vertical,
                    cells,
                } => {
                    let Some(cell) = cells.first() else { continue };
                    let text = format_order(
                        ship,
                        &Order::Special {
                            ability,
                            target,
                            cell,
                            vertical,
                        },
                        true,
                    );
                    let entry = TargetText {
                        target,
                        text: template(&text, cell),
                    };
                    let aims = names(cells);
                    let sp = special(&mut out.specials, ability);
                    sp.open = true;
                    match sp
                        .aimed
                        .iter_mut()
                        .find(|a| a.vertical == vertical && a.aims == aims)
                    {
                        Some(group) => group.targets.push(entry),
                        None => {
                            let (h, w, oh, ow) = ability.geometry(vertical);
                            sp.aimed.push(AimedOptions {
                                vertical,
                                area: [h, w, oh, ow],
                                aims,
                                targets: vec![entry],
                            });
                        }
                    }
                }
                Family::Torpedo { target, dir } => {
                    let sp = special(&mut out.specials, Ability::Torpedo);
                    sp.open = true;
                    for lane in 0..SIDE {
                        let text = format_order(ship, &Order::Torpedo { target, dir, lane }, true);
                        // The lane's word is the text's last part: `right5`, `downc`.
                        let word = text.rsplit(':').next().unwrap_or_default();
                        let template = format!("{}{LANE}", &text[..text.len() - word.len()]);
                        let mut cells = dir.lane(lane);
                        let from = cells.next().unwrap_or_default();
                        let to = cells.last().unwrap_or(from);
                        let lane = Lane {
                            lane: word.to_owned(),
                            from: from.to_string(),
                            to: to.to_string(),
                        };
                        match sp.torpedo.iter_mut().find(|x| x.target == target) {
                            Some(group) => group.lanes.push(lane),
                            None => sp.torpedo.push(TorpedoOptions {
                                target,
                                text: template,
                                lanes: vec![lane],
                            }),
                        }
                    }
                }
                Family::Emp { target } => {
                    let sp = special(&mut out.specials, Ability::Emp);
                    sp.open = true;
                    sp.emp.push(TargetText {
                        target,
                        text: format_order(ship, &Order::Emp { target }, true),
                    });
                }
            }
        }
        out
    }
}

/// Every order text the options give `ship` (with the page's one cross-ship rule left aside):
/// the expansion the browser makes, for tests.
#[must_use]
pub fn expand(options: &TurnOptions, ship: &ShipOptions) -> Vec<String> {
    let mut out = vec![ship.pass.clone()];
    for f in &ship.fire {
        let cells = options
            .fire
            .iter()
            .find(|c| c.target == f.target)
            .map(|c| c.cells.as_slice())
            .unwrap_or_default();
        out.extend(cells.iter().map(|c| f.text.replace(CELL, c)));
    }
    for sp in &ship.specials {
        for a in &sp.aimed {
            for t in &a.targets {
                out.extend(a.aims.iter().map(|c| t.text.replace(CELL, c)));
            }
        }
        for tp in &sp.torpedo {
            out.extend(tp.lanes.iter().map(|l| tp.text.replace(LANE, &l.lane)));
        }
        out.extend(sp.emp.iter().map(|e| e.text.clone()));
    }
    out
}
