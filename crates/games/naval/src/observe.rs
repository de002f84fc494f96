//! What each viewer may know (rules/naval.md section 13), and the terminal drawing built from it.
//!
//! `observe` is the secrecy choke point: every field of an `Observation` is either public or
//! belongs to the viewing seat. Cells are written in notation (`f7`) so the JSON is readable by the
//! browser as is.

use plateau_engine::{ActionInfo, Actor, Outcome, ToAct, Viewer};
use serde::{Deserialize, Serialize};

use plateau_engine::Seat;

use crate::ability::Ability;
use crate::action::{Action, Order, format_order, order_info};
use crate::bits::{Bits, Cell};
use crate::options::TurnOptions;
use crate::piece::{Piece, Ship};
use crate::state::{Announcement, Naval, Phase, Resolution};

mod draw;

/// One piece as shown: name, position in notation (`c3h`, `k10`) and cells.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PieceView {
    /// `carrier` .. `buoy3`.
    pub piece: String,
    /// Top-left cell and orientation, as in a placement action.
    pub at: String,
    /// Its cells.
    pub cells: Vec<String>,
}

/// A block on a board: owner and cells (section 7.7, public).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BlockView {
    /// Owner seat (0-based in JSON).
    pub owner: Seat,
    /// Blocked cells.
    pub cells: Vec<String>,
}

/// A shield as far as the viewer may see it (section 10.7).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ShieldView {
    /// Its 3x3 cells.
    pub cells: Vec<String>,
    /// Charges left.
    pub charges: u8,
}

/// The viewer's own detection results on one opponent board (section 9; caster only).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct IntelView {
    /// Pieces found by the spy satellite, with type and footprint.
    pub found: Vec<PieceView>,
    /// Sonar marks: ship cells, submarines included.
    pub sonar: Vec<String>,
    /// Radar contacts: non-submarine ship cells and buoys.
    pub radar: Vec<String>,
    /// Cells scanned by satellite, sonar and radar.
    pub scanned: Vec<String>,
}

/// One board as the viewer may see it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BoardView {
    /// Owner seat (0-based in JSON).
    pub seat: Seat,
    /// Placement: ready (public).
    pub ready: bool,
    /// Eliminated.
    pub eliminated: bool,
    /// Turn slots still lost to an EMP (public).
    pub emp_turns_left: u8,
    /// Immune to EMP (public).
    pub emp_immune: bool,
    /// Hit cells (public; which piece is hidden).
    pub hits: Vec<String>,
    /// Missed cells.
    pub misses: Vec<String>,
    /// Cells where a shield absorbed a shot.
    pub deflected: Vec<String>,
    /// Sunk ships, with type and footprint.
    pub sunk: Vec<PieceView>,
    /// Buoys shown sunk (section 11.3).
    pub sunk_buoys: Vec<String>,
    /// A frigate revealed by its ballistic missile.
    pub revealed_frigate: Option<PieceView>,
    /// Blocks on this board.
    pub blocks: Vec<BlockView>,
    /// Whether a shield is up on this board (announced when cast).
    pub shield_up: bool,
    /// The shield's outline and charges: to its owner always, to others after a first absorption.
    pub shield: Option<ShieldView>,
    /// Cells a torpedo showed free of unsunk ships.
    pub torpedo_clear: Vec<String>,
    /// Torpedo trigger cells (ship cells).
    pub torpedo_triggers: Vec<String>,
    /// Cells anti-submarine charges hit or had deflected (submarine cells).
    pub charges_hit: Vec<String>,
    /// Cells anti-submarine charges showed free of unhit submarine cells.
    pub charges_clear: Vec<String>,
    /// The hits that were the first on their piece (each raised a block, section 7.1): a hit not
    /// listed is a later hit on a piece hit before, so a ship's, not a buoy's.
    pub first_hits: Vec<String>,
    /// The whole fleet: to its owner, and to all once the board is eliminated or the game over.
    pub fleet: Option<Vec<PieceView>>,
    /// Energy of each ship in importance order: owner only.
    pub energy: Option<Vec<u16>>,
    /// Placement moves made: owner only.
    pub moves: Option<u8>,
    /// The viewer's detection results on this board.
    pub intel: Option<IntelView>,
}

/// One resolved order as announced (section 13).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AnnouncementView {
    /// Acting seat (0-based in JSON).
    pub seat: Seat,
    /// The order in notation (a shield without its centre unless the viewer cast it).
    pub order: String,
    /// `done`, `cancelled`, `wasted`, `fizzled` or `exploded <cell>`.
    pub result: String,
    /// Where the order struck, for the page to outline; `None` (left out) for a shot, a pass and
    /// a shield (its outline is the board's `shield`, shown to whom may see it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<AreaView>,
    /// The order in parts, as `order` gives it to this viewer, so a page puts it in words
    /// without reading its notation.
    pub info: OrderParts,
    /// The cell of a rocket that exploded (`result` `exploded <cell>`), else `None` (left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exploded_at: Option<String>,
    /// The cells its shots hit on the board it struck (`info.target`): public markers, whose
    /// pieces stay unnamed until they sink (section 13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<String>,
    /// The cells its shots missed there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub misses: Vec<String>,
    /// The cells where a shield stopped its shots (section 10.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deflected: Vec<String>,
    /// The ships it sank there (section 11.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sunk: Vec<String>,
}

/// An order in parts: the engine's `ActionInfo` of it (docs/protocol.md section 4.1, kinds of
/// `naval`), with the same fields, owned so that an observation reads back.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct OrderParts {
    /// `pass`, `fire`, `torpedo`, `emp` or the special's ability name.
    pub kind: String,
    /// The aimed cell (a shot's, a special's aim; a shield's only for its caster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// A special's area, a torpedo's lane in travel order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<String>,
    /// The ship that acts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
    /// A bombing's `h` or `v`, a torpedo's direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The board aimed at (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u8>,
}

impl From<ActionInfo> for OrderParts {
    fn from(info: ActionInfo) -> OrderParts {
        OrderParts {
            kind: info.kind.to_owned(),
            to: info.to,
            cells: info.cells,
            pieces: info.pieces,
            choice: info.choice,
            target: info.target,
        }
    }
}

/// The rectangle an announced special covers on its target's board: its area (section 6.5), a
/// torpedo's lane, the whole board for an EMP. Public, as the order is.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AreaView {
    /// The board struck (0-based in JSON).
    pub target: Seat,
    /// The rectangle's top-left cell.
    pub from: String,
    /// Its bottom-right cell.
    pub to: String,
}

impl AreaView {
    /// The rectangle of `order`, or `None` for an order without an area (module doc above).
    fn of(order: &Order) -> Option<AreaView> {
        let (target, cells) = match *order {
            Order::Pass
            | Order::Fire { .. }
            | Order::Special {
                ability: Ability::Shield,
                ..
            } => return None,
            Order::Special {
                ability,
                target,
                cell,
                vertical,
            } => (target, ability.area(cell, vertical)),
            Order::Torpedo { target, dir, lane } => (
                target,
                dir.lane(lane).fold(Bits::EMPTY, |mut b, c| {
                    b.set(c);
                    b
                }),
            ),
            Order::Emp { target } => (target, Bits::FULL),
        };
        Some(AreaView {
            target,
            from: cells.first()?.name(),
            to: cells.iter().last()?.name(),
        })
    }
}

/// Where one of the viewer's own pieces may be put during the placement (section 4.2): its shape
/// and its legal top-left cells per orientation, so a page maps a drop to an action (sent in
/// parts, docs/protocol.md section 4.2) without knowing the pieces' sizes or the rules.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlacementView {
    /// The piece's name.
    pub piece: String,
    /// One entry per orientation: along a row (`h`) then along a column (`v`) for a ship, one
    /// entry without `choice` for a buoy.
    pub ways: Vec<PlacementWay>,
}

/// One orientation of a piece during the placement (`PlacementView`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlacementWay {
    /// `h` or `v` for a ship (the `choice` of the action's parts), `None` for a buoy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The cells the piece covers, as `[row, column]` offsets (0-based, rows downwards) from its
    /// top-left cell.
    pub shape: Vec<[u8; 2]>,
    /// The top-left cells where putting the piece this way is legal now, in row-major order;
    /// empty when none is (or no placement move is left).
    pub anchors: Vec<String>,
}

/// What one viewer may know of the state.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Observation {
    /// The viewing seat (0-based in JSON); `None` for a spectator.
    pub viewer: Option<Seat>,
    /// `layout`, `placement`, `first_player`, `battle` or `over`.
    pub phase: String,
    /// Who acts.
    pub to_act: ToAct,
    /// Battle: whose turn it is.
    pub current: Option<Seat>,
    /// Battle: the first player.
    pub first: Option<Seat>,
    /// Rounds completed.
    pub rounds: u16,
    /// The fleet's ships in importance order (section 2): the order of every per-ship list
    /// (`BoardView::energy`) and of a turn's orders; every other piece of a fleet is a buoy.
    /// Public: the same for every viewer.
    #[serde(default)]
    pub ships: Vec<String>,
    /// The four boards.
    pub boards: Vec<BoardView>,
    /// The orders of the turn resolving or last resolved.
    pub last_turn: Vec<AnnouncementView>,
    /// The orders of the turns before it, one list per turn, oldest first: with `last_turn`,
    /// up to one round, so a seat learns everything that happened since its own last turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_turns: Vec<Vec<AnnouncementView>>,
    /// The viewer's own orders given so far this turn (only while it is the viewer's turn).
    pub plan: Vec<String>,
    /// The same orders in parts, in the same order.
    pub plan_info: Vec<OrderParts>,
    /// The viewer's ship to order next (only while it is the viewer's turn).
    pub next_ship: Option<String>,
    /// Every order each of the viewer's ships still to act may be given (`options` module):
    /// only while it is the viewer's battle turn, `None` for every other viewer and moment.
    pub options: Option<TurnOptions>,
    /// Placement: where each of the viewer's pieces may be put now (`PlacementView`), only while
    /// the viewer is to act in the placement phase, `None` for every other viewer and moment. The
    /// placement moves are not listed in the `state`'s `legal` (docs/protocol.md section 4.1).
    #[serde(default)]
    pub placement: Option<Vec<PlacementView>>,
    /// A rocket cell awaiting its draw: `(board, cell)`.
    pub rocket: Option<(Seat, String)>,
    /// Eliminated seats, first out first.
    pub eliminated: Vec<Seat>,
    /// The result once the game is over.
    pub outcome: Option<Outcome>,
}

fn names(b: Bits) -> Vec<String> {
    b.iter().map(Cell::name).collect()
}

fn piece_view(g: &Naval, s: Seat, p: Piece) -> PieceView {
    let b = g.board(s);
    let suffix = if p.is_buoy() {
        ""
    } else if b.is_vertical(p) {
        "v"
    } else {
        "h"
    };
    PieceView {
        piece: p.name().to_owned(),
        at: format!("{}{suffix}", b.at[p.index()]),
        cells: names(b.mask(p)),
    }
}

/// The letter of a piece on the terminal board: `A` carrier, `C` cruiser, `B` battleship, `F`
/// frigate, `S` submarine, `V` corvette, `O` buoy (lower case on its owner's board once hit).
/// One letter per kind of piece, on the owner's board and for the pieces a satellite found
/// alike, so a found buoy is not taken for the battleship, nor the carrier or the corvette for
/// the cruiser.
#[must_use]
pub fn piece_letter(p: Piece) -> char {
    match p.ship() {
        Some(Ship::Carrier) => 'A',
        Some(Ship::Cruiser) => 'C',
        Some(Ship::Battleship) => 'B',
        Some(Ship::Frigate) => 'F',
        Some(Ship::Submarine) => 'S',
        Some(Ship::Corvette) => 'V',
        None => 'O',
    }
}

impl Naval {
    /// What `viewer` may know (section 13). An eliminated seat sees what a spectator sees
    /// (section 12.3), except its own board, which is public anyway.
    #[must_use]
    pub fn observation(&self, viewer: Viewer) -> Observation {
        let over = matches!(self.phase, Phase::Over { .. });
        let me = match viewer {
            Viewer::Seat(s) if s.index() < 4 && !self.board(s).out => Some(s),
            _ => None,
        };
        let battle = matches!(self.phase, Phase::Battle | Phase::Over { .. });
        let boards = Seat::all(4).map(|t| self.board_view(t, me, over)).collect();
        let announced = |a: &Announcement| {
            let own = Some(a.seat) == me;
            AnnouncementView {
                seat: a.seat,
                order: format_order(a.ship, &a.order, own),
                result: a.result.text(),
                area: AreaView::of(&a.order),
                info: order_info(a.ship, &a.order, own).into(),
                exploded_at: match a.result {
                    Resolution::Exploded(c) => Some(c.name()),
                    _ => None,
                },
                hits: names(a.effect.hits),
                misses: names(a.effect.misses),
                deflected: names(a.effect.deflected),
                sunk: a.effect.sunk_names(),
            }
        };
        let last_turn = self.last_turn.iter().map(announced).collect();
        let earlier_turns = self
            .earlier_turns
            .iter()
            .map(|turn| turn.iter().map(announced).collect())
            .collect();
        let my_turn = battle && me == Some(self.current) && !self.turn.resolving && !over;
        let plan = if my_turn {
            Ship::ALL
                .into_iter()
                .filter(|&k| self.turn.has_order(k))
                .collect::<Vec<_>>()
        } else {
            Vec::new()
        };
        let plan_info = plan
            .iter()
            .map(|&k| order_info(k, &self.turn.order(k), true).into())
            .collect();
        let plan = plan
            .into_iter()
            .map(|k| format_order(k, &self.turn.order(k), true))
            .collect();
        let rocket =
            self.turn
                .rocket
                .and_then(|c| match self.turn.cursor.map(|k| self.turn.order(k)) {
                    Some(Order::Special { target, .. }) => Some((target, c.name())),
                    _ => None,
                });
        Observation {
            viewer: me,
            phase: match self.phase {
                Phase::Layout { .. } => "layout",
                Phase::Placement => "placement",
                Phase::FirstPlayer => "first_player",
                Phase::Battle => "battle",
                Phase::Over { .. } => "over",
            }
            .to_owned(),
            to_act: plateau_engine::Game::to_act(self),
            current: battle.then_some(self.current),
            first: battle.then_some(self.first),
            rounds: self.rounds,
            boards,
            last_turn,
            earlier_turns,
            plan,
            plan_info,
            ships: Ship::ALL.iter().map(|s| s.name().to_owned()).collect(),
            next_ship: self
                .turn
                .next
                .filter(|_| my_turn)
                .map(|k| k.name().to_owned()),
            options: me
                .filter(|_| my_turn && self.turn.next.is_some())
                .map(|s| self.turn_options(s)),
            placement: me
                .filter(|_| matches!(self.phase, Phase::Placement))
                .filter(|&s| plateau_engine::Game::to_act(self).allows(Actor::Seat(s)))
                .map(|s| self.placement_view(s)),
            rocket,
            eliminated: self.out_order.clone(),
            outcome: self.result(),
        }
    }

    /// Where each piece of seat `s` may be put now (`Observation::placement`): the `Place`
    /// actions of `legal_actions`, by piece and orientation.
    fn placement_view(&self, s: Seat) -> Vec<PlacementView> {
        let mut legal = Vec::new();
        plateau_engine::Game::legal_actions(self, s, &mut legal);
        Piece::ALL
            .iter()
            .map(|&p| {
                let ways = p
                    .orientations()
                    .iter()
                    .map(|&v| PlacementWay {
                        choice: (!p.is_buoy()).then(|| if v { "v" } else { "h" }.to_owned()),
                        shape: p
                            .footprint(Cell::at(0, 0), v)
                            .map(|b| b.iter().map(|c| [c.row(), c.col()]).collect())
                            .unwrap_or_default(),
                        anchors: legal
                            .iter()
                            .filter_map(|a| match *a {
                                Action::Place {
                                    piece,
                                    cell,
                                    vertical,
                                } if piece == p && vertical == v => Some(cell.name()),
                                _ => None,
                            })
                            .collect(),
                    })
                    .collect();
                PlacementView {
                    piece: p.name().to_owned(),
                    ways,
                }
            })
            .collect()
    }

    fn board_view(&self, t: Seat, me: Option<Seat>, over: bool) -> BoardView {
        let b = self.board(t);
        let own = me == Some(t);
        let open = own || b.out || over;
        let sunk = Ship::ALL
            .into_iter()
            .filter(|&k| b.is_sunk(k))
            .map(|k| piece_view(self, t, k.piece()))
            .collect();
        let blocks = Seat::all(4)
            .filter(|o| !self.blocks[t.index()][o.index()].is_empty())
            .map(|o| BlockView {
                owner: o,
                cells: names(self.blocks[t.index()][o.index()]),
            })
            .collect();
        let shield = (b.shield.active && (open || b.shield.public)).then(|| ShieldView {
            cells: names(b.shield.area),
            charges: b.shield.charges,
        });
        let intel = me.filter(|&v| v != t && !b.out && !over).and_then(|v| {
            let scan = self.scans[v.index()][t.index()];
            let all = scan.satellite | scan.sonar | scan.radar;
            if all.is_empty() {
                return None;
            }
            let found = b
                .placed_pieces()
                .filter(|&p| {
                    p != Piece::Submarine
                        && if p.is_buoy() {
                            b.mask(p).within(scan.satellite)
                        } else {
                            b.mask(p).meets(scan.satellite)
                        }
                })
                .map(|p| piece_view(self, t, p))
                .collect();
            let contacts = b.occ & !b.mask(Piece::Submarine);
            Some(IntelView {
                found,
                sonar: names(b.ships() & scan.sonar),
                radar: names(contacts & scan.radar),
                scanned: names(all),
            })
        });
        BoardView {
            seat: t,
            ready: b.ready,
            eliminated: b.out,
            emp_turns_left: b.emp_left,
            emp_immune: b.immune,
            hits: names(b.hit),
            misses: names(b.miss),
            deflected: names(b.deflected),
            sunk,
            sunk_buoys: names(b.sunk_buoys()),
            revealed_frigate: b.frigate_shown.then(|| piece_view(self, t, Piece::Frigate)),
            blocks,
            shield_up: b.shield.active,
            shield,
            torpedo_clear: names(b.lane_clear),
            torpedo_triggers: names(b.ship_known),
            charges_hit: names(b.sub_known),
            charges_clear: names(b.sub_clear),
            first_hits: names(b.first_hits),
            fleet: open.then(|| b.placed_pieces().map(|p| piece_view(self, t, p)).collect()),
            energy: own.then(|| b.energy.to_vec()),
            moves: own.then_some(b.moves),
            intel,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_piece_has_its_own_letter() {
        let letters: Vec<char> = Piece::ALL.iter().map(|&p| piece_letter(p)).collect();
        assert_eq!(letters, ['A', 'C', 'B', 'F', 'S', 'V', 'O', 'O', 'O']);
        // The buoy is told from the battleship, the carrier and the corvette from the cruiser.
        assert_ne!(piece_letter(Piece::Buoy1), piece_letter(Piece::Battleship));
        assert_ne!(piece_letter(Piece::Carrier), piece_letter(Piece::Cruiser));
        assert_ne!(piece_letter(Piece::Corvette), piece_letter(Piece::Cruiser));
    }
}
