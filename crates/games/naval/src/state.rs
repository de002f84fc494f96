//! The state of a game and the course of play: the random layout and the placement (rules/naval.md
//! section 4), the first player, and the battle turn in which each ship gets its order (section
//! 5.3a) before the plan resolves (`resolve`). The rules of an order are in `orders`, those of
//! energy in `energy`.

use plateau_engine::{IllegalAction, Seat, SetupError};
use serde::{Deserialize, Serialize};

use crate::action::{Action, Order, format_placement};
use crate::bits::{Bits, Cell};
use crate::board::{Board, Scan};
use crate::config::Config;
use crate::piece::{Piece, SHIPS, Ship};

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

impl Resolution {
    /// The result as written in announcements and positions: `done`, `cancelled`, `wasted`,
    /// `fizzled` or `exploded <cell>`.
    #[must_use]
    pub fn text(self) -> String {
        match self {
            Resolution::Done => "done".to_owned(),
            Resolution::Cancelled => "cancelled".to_owned(),
            Resolution::Wasted => "wasted".to_owned(),
            Resolution::Fizzled => "fizzled".to_owned(),
            Resolution::Exploded(c) => format!("exploded {c}"),
        }
    }
}

/// One resolved order, as everyone sees it (section 13).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Announcement {
    /// Acting seat.
    pub seat: Seat,
    /// Ship.
    pub ship: Ship,
    /// The order (a shield's centre is never shown to others).
    pub order: Order,
    /// What became of it.
    pub result: Resolution,
    /// What its shots did to the board it struck.
    pub effect: Effect,
}

/// What the shots of one order did to the board it was aimed at (`Order::target`): the markers
/// they left, all public (section 13: hit, miss, deflected and sunk markers), so that an account
/// of the turn can say "hit", "miss" or "sunk" without anyone reading the boards before and
/// after. Detection specials, the shield and the EMP shoot nothing and leave it empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Effect {
    /// Cells hit (section 6.3).
    pub hits: Bits,
    /// Cells missed.
    pub misses: Bits,
    /// Cells whose shot a shield absorbed (section 10.7).
    pub deflected: Bits,
    /// Ships it sank, by `Ship::bit` (section 11.1).
    pub sunk: u8,
}

impl Effect {
    /// Whether the order left no marker.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Effect::default()
    }

    /// The names of the ships it sank, in importance order.
    #[must_use]
    pub fn sunk_names(&self) -> Vec<String> {
        Ship::ALL
            .into_iter()
            .filter(|k| self.sunk & k.bit() != 0)
            .map(|k| k.name().to_owned())
            .collect()
    }
}

/// How many turns before the last one the state keeps the announcements of (`Naval::
/// earlier_turns`): with the last turn, one round of four seats, so that every seat can be told
/// what happened since its own last turn.
pub const EARLIER_TURNS: usize = 3;

/// The phase of the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Random layout chance nodes (section 2a): the next one places `piece` of `seat`; seats go
    /// in order, each seat's pieces in piece order.
    Layout {
        /// The seat whose piece is drawn next.
        seat: Seat,
        /// The piece drawn next.
        piece: Piece,
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
    /// Orders given, by `Ship::index`.
    pub orders: [Order; SHIPS],
    /// Bit `Ship::bit`: the ship has its order.
    pub given: u8,
    /// The ship to order next; `None` once every valid ship has its order.
    pub next: Option<Ship>,
    /// Orders are resolving.
    pub resolving: bool,
    /// The ship whose order resolves; `None` once all have.
    pub cursor: Option<Ship>,
    /// A rocket cell awaiting its chance node.
    pub rocket: Option<Cell>,
    /// E4 gains of each target ship in the action resolving (capped per action), by
    /// `Ship::index`.
    pub miss_gain: [u16; SHIPS],
}

impl Default for Turn {
    fn default() -> Turn {
        Turn {
            orders: [Order::Pass; SHIPS],
            given: 0,
            next: Some(Ship::Carrier),
            resolving: false,
            cursor: Some(Ship::Carrier),
            rocket: None,
            miss_gain: [0; SHIPS],
        }
    }
}

impl Turn {
    /// Whether `ship` has its order this turn.
    #[inline]
    #[must_use]
    pub const fn has_order(&self, ship: Ship) -> bool {
        self.given & ship.bit() != 0
    }

    /// The order of `ship` this turn (a pass until it is given).
    #[inline]
    #[must_use]
    pub const fn order(&self, ship: Ship) -> Order {
        self.orders[ship.index()]
    }
}

/// A game of Bataille Navale for four seats (rules/naval.md): the rules, the position and the
/// history they need. About 5 KB, no heap but the last turn's announcements and the elimination
/// order: cheap to clone. Serialized in the position format of docs/naval-position.md (the
/// `position` module), read back checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naval {
    /// Options.
    pub config: Config,
    /// Phase.
    pub phase: Phase,
    /// The four boards, by seat index.
    pub boards: [Board; 4],
    /// Blocks, `blocks[board][owner]` by seat index (section 7).
    pub blocks: [[Bits; 4]; 4],
    /// Scanned areas, `scans[caster][board]` by seat index.
    pub scans: [[Scan; 4]; 4],
    /// Seat whose turn it is (battle).
    pub current: Seat,
    /// First player.
    pub first: Seat,
    /// Rounds completed (section 12.6).
    pub rounds: u16,
    /// The turn in progress.
    pub turn: Turn,
    /// Eliminated seats, first out first.
    pub out_order: Vec<Seat>,
    /// The orders of the turn resolving or last resolved, in resolution order.
    pub last_turn: Vec<Announcement>,
    /// The announcements of the turns before `last_turn`, oldest first, at most
    /// `EARLIER_TURNS` of them (public, as every announcement).
    pub earlier_turns: Vec<Vec<Announcement>>,
}

/// The first layout node: seat 1's carrier.
pub(crate) const FIRST_LAYOUT: Phase = Phase::Layout {
    seat: Seat(0),
    piece: Piece::Carrier,
};

pub(crate) fn rule(reason: impl Into<String>) -> IllegalAction {
    IllegalAction::rule(reason)
}

impl Naval {
    /// Moves the last turn's announcements to `earlier_turns` (dropping the oldest beyond
    /// `EARLIER_TURNS`) and leaves `last_turn` empty for the turn about to resolve; the dropped
    /// turn's buffer is reused, so a long playout allocates nothing here.
    fn keep_last_turn(&mut self) {
        if self.last_turn.is_empty() {
            return;
        }
        let mut spare = if self.earlier_turns.len() >= EARLIER_TURNS {
            self.earlier_turns.remove(0)
        } else {
            Vec::new()
        };
        spare.clear();
        std::mem::swap(&mut spare, &mut self.last_turn);
        self.earlier_turns.push(spare);
    }

    /// A new game: the layout chance nodes come first.
    ///
    /// # Errors
    /// `SetupError` for a bad config.
    pub fn start(config: &Config) -> Result<Naval, SetupError> {
        config.validate()?;
        Ok(Naval {
            config: *config,
            phase: FIRST_LAYOUT,
            boards: Default::default(),
            blocks: [[Bits::EMPTY; 4]; 4],
            scans: [[Scan::default(); 4]; 4],
            current: Seat(0),
            first: Seat(0),
            rounds: 0,
            turn: Turn::default(),
            out_order: Vec::new(),
            last_turn: Vec::new(),
            earlier_turns: Vec::new(),
        })
    }

    /// The board of `seat`.
    #[inline]
    #[must_use]
    pub fn board(&self, seat: Seat) -> &Board {
        &self.boards[seat.index()]
    }

    /// Seats still in the game.
    #[must_use]
    pub fn alive_count(&self) -> usize {
        self.boards.iter().filter(|b| !b.out).count()
    }

    /// The seats still in the game other than `s`, in seat order.
    pub fn opponents(&self, s: Seat) -> impl Iterator<Item = Seat> + Clone + '_ {
        (0..4)
            .map(Seat)
            .filter(move |&t| t != s && !self.board(t).out)
    }

    /// Whether `piece` of seat `s` lies along a column.
    #[must_use]
    pub fn is_vertical(&self, s: Seat, piece: Piece) -> bool {
        self.board(s).is_vertical(piece)
    }

    /// Pending rocket cell, if the state is at a rocket chance node.
    #[must_use]
    pub const fn rocket_cell(&self) -> Option<Cell> {
        self.turn.rocket
    }

    /// The first ship of seat `s` from `from` on (in importance order) that is not sunk.
    pub(crate) fn next_ship(&self, s: Seat, from: Option<Ship>) -> Option<Ship> {
        let from = from?.index();
        Ship::ALL[from..]
            .iter()
            .copied()
            .find(|&k| !self.board(s).is_sunk(k))
    }

    // ---- Layout and placement (section 4) -------------------------------------------------------

    /// Footprints of `piece` of seat `s` that are legal given the other placed pieces.
    pub(crate) fn layout_choices(&self, s: Seat, piece: Piece, out: &mut Vec<(Cell, bool, Bits)>) {
        out.clear();
        let b = self.board(s);
        let others = b
            .placed_pieces()
            .filter(|&p| p != piece)
            .fold(Bits::EMPTY, |a, p| a | b.mask(p));
        out.extend(
            piece
                .footprints()
                .iter()
                .filter(|&&(_, _, m)| !m.meets(others)),
        );
    }

    /// The footprint of `piece` of seat `s` at `cell`, if it may go there (section 4.3).
    fn check_place(
        &self,
        s: Seat,
        piece: Piece,
        cell: Cell,
        vertical: bool,
    ) -> Result<Bits, IllegalAction> {
        let name = piece.name();
        if piece.is_buoy() && vertical {
            return Err(rule(format!("{name}: buoys take no orientation")));
        }
        let m = piece.footprint(cell, vertical).ok_or_else(|| {
            rule(format!(
                "{}: the piece would leave the board",
                format_placement(piece, cell, vertical)
            ))
        })?;
        let b = self.board(s);
        let others = b
            .placed_pieces()
            .filter(|&p| p != piece)
            .fold(Bits::EMPTY, |a, p| a | b.mask(p));
        if m.meets(others) {
            return Err(rule(format!(
                "{name}@{cell}: it would lie on another piece (section 4.3)"
            )));
        }
        Ok(m)
    }

    // ---- Applying actions -----------------------------------------------------------------------

    /// Plays one action. With `checked` false a battle order is taken as legal (the
    /// `Game::apply_legal` fast path); everything else is always checked.
    pub(crate) fn play(
        &mut self,
        seat: Option<Seat>,
        action: &Action,
        checked: bool,
    ) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over { .. } => Err(IllegalAction::GameOver),
            Phase::Layout {
                seat: want_s,
                piece: want_p,
            } => {
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
                if s != want_s || piece != want_p {
                    return Err(rule(format!(
                        "the next layout node places seat {want_s}'s {}",
                        want_p.name()
                    )));
                }
                let m = self.check_place(s, piece, cell, vertical)?;
                let b = &mut self.boards[s.index()];
                b.placed = piece as u8 + 1;
                b.put(piece, cell, vertical, m);
                self.phase = match (Piece::from_index(piece.index() + 1), s.0) {
                    (Some(next), _) => Phase::Layout {
                        seat: s,
                        piece: next,
                    },
                    (None, 3) => Phase::Placement,
                    (None, _) => Phase::Layout {
                        seat: Seat(s.0 + 1),
                        piece: Piece::Carrier,
                    },
                };
                Ok(())
            }
            Phase::Placement => {
                let s = seat.ok_or_else(|| rule("placement: no chance node now"))?;
                match *action {
                    Action::Ready => {
                        self.boards[s.index()].ready = true;
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
                        if self.board(s).moves >= self.config.placement_moves {
                            return Err(rule(format!(
                                "{} placement moves made; only ready is left (section 4.5a)",
                                self.config.placement_moves
                            )));
                        }
                        let m = self.check_place(s, piece, cell, vertical)?;
                        let b = &mut self.boards[s.index()];
                        b.put(piece, cell, vertical, m);
                        b.moves += 1;
                        Ok(())
                    }
                    _ => Err(rule("placement: expected <piece>@<cell>[h|v] or ready")),
                }
            }
            Phase::FirstPlayer => match *action {
                Action::First { seat: s } if s.index() < 4 => {
                    self.first = s;
                    self.phase = Phase::Battle;
                    self.current = s;
                    self.turn = Turn {
                        next: self.next_ship(s, Some(Ship::Carrier)),
                        ..Turn::default()
                    };
                    if self.board(s).out {
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
                        return Err(rule(format!("the rocket node is for {pending}")));
                    }
                    self.rocket_outcome(shot);
                    return Ok(());
                }
                let Action::Order { ship, order } = *action else {
                    return Err(rule("battle: expected an order <ship>:<order>"));
                };
                self.give_order(ship, order, checked)
            }
        }
    }

    /// The current seat gives `ship` its order (section 5.3a); the plan resolves once the last
    /// valid ship has one.
    fn give_order(&mut self, ship: Ship, order: Order, checked: bool) -> Result<(), IllegalAction> {
        let s = self.current;
        if Some(ship) != self.turn.next {
            let name = ship.name();
            let why = if self.board(s).is_sunk(ship) {
                format!("the {name} is sunk and takes no order")
            } else if self.turn.has_order(ship) {
                format!(
                    "the {name} already has its order this turn (one order per ship, section 5.3)"
                )
            } else {
                let next = self.turn.next.map_or("none", Ship::name);
                format!("orders go in importance order: the {next} is next (section 5.3a)")
            };
            return Err(rule(why));
        }
        if checked {
            self.check_order(s, ship, &order)
                .map_err(|refusal| rule(refusal.to_string()))?;
        }
        self.turn.orders[ship.index()] = order;
        self.turn.given |= ship.bit();
        self.turn.next = self.next_ship(s, ship.next());
        if self.turn.next.is_none() {
            self.turn.resolving = true;
            self.turn.cursor = Some(Ship::Carrier);
            self.keep_last_turn();
            self.resume();
        }
        Ok(())
    }
}
