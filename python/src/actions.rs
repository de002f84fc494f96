//! A fixed action space per game: each action a seat may play gets an id from 0 to the game's
//! `size - 1` that names the same action in every state of every configuration and seat count,
//! built from the parts of the engine's typed action (python/README.md, "Action ids", documents
//! each layout). The OpenSpiel bridge's ids and the legal masks are these.
//!
//! The ids are for seats' actions; chance outcomes keep their position in the game's list of
//! outcomes. Each game's `code` is injective over every legal list (the package's tests check it
//! on the engine's seeded games) and `decode` is its inverse, so an id reads back into a text in
//! any state, legal there or not.

use std::any::Any;
use std::marker::PhantomData;

use plateau_engine::{DynGame, Game, Seat};
use rand::RngCore;

/// One game's action space, over its typed state.
trait Space: Game + Any {
    /// How many ids there are.
    const SIZE: u32;
    /// Whether `decode` gives the legal action's very text: false where the text says more than
    /// the id (MAD's `x` for a movement that expels).
    const EXACT: bool = true;
    /// The id of `action`, `None` for a chance outcome.
    fn code(action: &Self::Action) -> Option<u32>;
    /// The action of `id` (`None` past `SIZE` or where the layout leaves a gap). A MAD move is read as a plain move: whether it
    /// expels a ship is the board's to say, not the id's.
    fn decode(id: u32) -> Option<Self::Action>;
}

/// A game's action space behind a trait object, for a state known only as `DynGame`.
pub trait Codec: Sync {
    /// How many ids there are (`num_distinct_actions`).
    fn size(&self) -> u32;
    /// The legal actions of `seat` as `(id, text)`, ids increasing (empty when it may not act).
    fn legal(&self, state: &dyn DynGame, seat: Seat) -> Vec<(u32, String)>;
    /// The legal ids of `seat`, increasing.
    fn legal_ids(&self, state: &dyn DynGame, seat: Seat) -> Vec<u32>;
    /// A uniformly random legal action of `seat`, drawn as `DynGame::random_action` draws it
    /// (one `next_u64` of `rng`, modulo the length of the rules' legal list), with the legal
    /// ids: `(the legal ids increasing, the action's id, its text)`, from one legal list;
    /// `None` when the seat has no action.
    fn random_legal(
        &self,
        state: &dyn DynGame,
        seat: Seat,
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<u32>, u32, String)>;
    /// The text of `seat`'s legal action `id`, `None` when it is not legal.
    fn legal_text(&self, state: &dyn DynGame, seat: Seat, id: u32) -> Option<String>;
    /// Whether `text_of` gives an action's text as its legal list writes it (`Space::EXACT`).
    fn exact(&self) -> bool;
    /// The id of the action written `text`, or why it does not read (or is a chance outcome's).
    fn id_of(&self, state: &dyn DynGame, text: &str) -> Result<u32, String>;
    /// The text of `id` in the game's notation, legal or not; `None` past the space or for an
    /// id no action has (a vertical buoy).
    fn text_of(&self, state: &dyn DynGame, id: u32) -> Option<String>;
}

struct Of<G>(PhantomData<fn() -> G>);

impl<G: Space> Of<G> {
    /// The id of a legal action of a seat, which always has one.
    fn id(action: &G::Action) -> u32 {
        G::code(action).expect("a seat's action has an id")
    }

    fn typed(state: &dyn DynGame) -> &G {
        state
            .as_any()
            .downcast_ref::<G>()
            .expect("a state of the codec's game")
    }

    fn actions(state: &dyn DynGame, seat: Seat) -> (&G, Vec<G::Action>) {
        let game = Self::typed(state);
        let mut out = Vec::new();
        game.legal_actions(seat, &mut out);
        (game, out)
    }
}

impl<G: Space> Codec for Of<G> {
    fn size(&self) -> u32 {
        G::SIZE
    }

    fn legal(&self, state: &dyn DynGame, seat: Seat) -> Vec<(u32, String)> {
        let (game, actions) = Self::actions(state, seat);
        let mut out: Vec<(u32, String)> = actions
            .iter()
            .map(|a| (Self::id(a), game.format_action(a)))
            .collect();
        out.sort_unstable_by_key(|&(id, _)| id);
        out
    }

    fn legal_ids(&self, state: &dyn DynGame, seat: Seat) -> Vec<u32> {
        let (_, actions) = Self::actions(state, seat);
        let mut ids: Vec<u32> = actions.iter().map(Self::id).collect();
        ids.sort_unstable();
        ids
    }

    fn random_legal(
        &self,
        state: &dyn DynGame,
        seat: Seat,
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<u32>, u32, String)> {
        let (game, actions) = Self::actions(state, seat);
        if actions.is_empty() {
            return None;
        }
        let action = &actions[(rng.next_u64() % actions.len() as u64) as usize];
        let mut ids: Vec<u32> = actions.iter().map(Self::id).collect();
        ids.sort_unstable();
        Some((ids, Self::id(action), game.format_action(action)))
    }

    fn legal_text(&self, state: &dyn DynGame, seat: Seat, id: u32) -> Option<String> {
        let (game, actions) = Self::actions(state, seat);
        let action = actions.iter().find(|a| Self::id(a) == id)?;
        Some(game.format_action(action))
    }

    fn exact(&self) -> bool {
        G::EXACT
    }

    fn id_of(&self, state: &dyn DynGame, text: &str) -> Result<u32, String> {
        let game = Self::typed(state);
        let action = game.parse_action(text).map_err(|e| e.to_string())?;
        G::code(&action).ok_or_else(|| format!("{text:?} is a chance outcome, which has no id"))
    }

    fn text_of(&self, state: &dyn DynGame, id: u32) -> Option<String> {
        let game = Self::typed(state);
        G::decode(id).map(|a| game.format_action(&a))
    }
}

/// The codec of the registry's game `name`, `None` for a game without one.
pub fn codec(name: &str) -> Option<&'static dyn Codec> {
    static MAD: Of<plateau_mad::Mad> = Of(PhantomData);
    static MOONLEAP: Of<plateau_moonleap::MoonLeap> = Of(PhantomData);
    static CHAKART: Of<plateau_chakart::Chakart> = Of(PhantomData);
    static NAVAL: Of<plateau_naval::Naval> = Of(PhantomData);
    match name {
        "mad" => Some(&MAD),
        "moonleap" => Some(&MOONLEAP),
        "chakart" => Some(&CHAKART),
        "naval" => Some(&NAVAL),
        _ => None,
    }
}

/// MAD (rules/mad.md sections 5 and 6): a movement from a cell to a cell, alone or with its
/// bonus shift, by `(from * 24 + to) * 9 + k` with `k` 0 for the movement alone and `1 + s` for
/// the bonus shift `s` (0 to 3 the permutations `P(111,222)` .. `P(122,211)`, 4 to 7 the
/// rotations `R(112>121>211)`, `R(112>211>121)`, `R(122>212>221)`, `R(122>221>212)`); then the
/// eight shifts alone, 5184 + `s`; then the pass, 5192.
mod mad {
    use plateau_mad::{Action, Cell, Mad, Shift, Step};

    const CELLS: u32 = 24;
    const MOVES: u32 = CELLS * CELLS * 9;

    fn shift_index(shift: Shift) -> u32 {
        Shift::ALL
            .iter()
            .position(|&s| s == shift)
            .expect("every shift is in ALL") as u32
    }

    fn pair(step: Step) -> u32 {
        u32::from(step.from.index()) * CELLS + u32::from(step.to.index())
    }

    impl super::Space for Mad {
        const SIZE: u32 = MOVES + 8 + 1;
        const EXACT: bool = false;

        fn code(action: &Action) -> Option<u32> {
            Some(match *action {
                Action::Move(step) => pair(step) * 9,
                Action::Bonus(step, shift) => pair(step) * 9 + 1 + shift_index(shift),
                Action::Shift(shift) => MOVES + shift_index(shift),
                Action::Pass => MOVES + 8,
            })
        }

        fn decode(id: u32) -> Option<Action> {
            if id < MOVES {
                let (pair, k) = (id / 9, id % 9);
                let step = Step {
                    from: Cell::new((pair / CELLS) as u8)?,
                    to: Cell::new((pair % CELLS) as u8)?,
                    capture: false,
                };
                return Some(match k {
                    0 => Action::Move(step),
                    k => Action::Bonus(step, Shift::ALL[k as usize - 1]),
                });
            }
            match id - MOVES {
                s @ 0..8 => Some(Action::Shift(Shift::ALL[s as usize])),
                8 => Some(Action::Pass),
                _ => None,
            }
        }
    }
}

/// Moon Leap (rules/moonleap.md): the astronauts as `a` = number - 1 for the seat's own (0 to 4)
/// and 5 + number - 1 for a mercenary (5 to 9); a single move `a`; a split, in playing order, of
/// the seat's own astronauts 10 + `k` and of mercenaries 18 + `k`, with `k` the pair's place in
/// 1+2, 2+1, 1+3, 3+1, 1+4, 4+1, 2+3, 3+2 (the split table's pairs, section "Splitting", both
/// orders); the pass 26.
mod moonleap {
    use plateau_moonleap::{Action, MoonLeap, Piece};

    const SPLITS: [(u8, u8); 8] = [
        (1, 2),
        (2, 1),
        (1, 3),
        (3, 1),
        (1, 4),
        (4, 1),
        (2, 3),
        (3, 2),
    ];

    fn astronaut(piece: Piece) -> u32 {
        u32::from(piece.number - 1) + if piece.mercenary { 5 } else { 0 }
    }

    fn piece(mercenary: bool, number: u8) -> Piece {
        if mercenary {
            Piece::mercenary(number)
        } else {
            Piece::own(number)
        }
    }

    impl super::Space for MoonLeap {
        const SIZE: u32 = 10 + 16 + 1;

        fn code(action: &Action) -> Option<u32> {
            match *action {
                Action::Move(p) => Some(astronaut(p)),
                Action::Split(a, b) if a.mercenary == b.mercenary => {
                    let k = SPLITS.iter().position(|&s| s == (a.number, b.number))? as u32;
                    Some(10 + if a.mercenary { 8 } else { 0 } + k)
                }
                Action::Pass => Some(26),
                Action::Split(..) | Action::Roll(_) => None,
            }
        }

        fn decode(id: u32) -> Option<Action> {
            Some(match id {
                0..10 => Action::Move(piece(id >= 5, (id % 5) as u8 + 1)),
                10..26 => {
                    let mercenary = id >= 18;
                    let (a, b) = SPLITS[((id - 10) % 8) as usize];
                    Action::Split(piece(mercenary, a), piece(mercenary, b))
                }
                26 => Action::Pass,
                _ => return None,
            })
        }
    }
}

/// Chakart (rules/chakart.md): a move or shot from square to square (a1 = 0 .. h8 = 63) as
/// `(from * 64 + to) * 8 + k`, `k` 0 a move, 1 the queen's stealth move, 2 the king's shell, 2 +
/// a piece kind (rook, knight, bishop, queen, king: 1 to 5) a move promoting to it; then King
/// Boo's swap with the piece on a square, 32768 + square; Toadette's drop of a kind (pawn 0 to
/// king 5) on a square, 32832 + kind * 64 + square; the promotion choice after an item, 33215 +
/// kind (rook 1 to king 5).
mod chakart {
    use plateau_chakart::{Action, Chakart, Kind, Square};

    const MOVES: u32 = 64 * 64 * 8;
    const SWAPS: u32 = MOVES;
    const DROPS: u32 = SWAPS + 64;
    const PROMOTIONS: u32 = DROPS + 6 * 64;

    fn sq(s: Square) -> u32 {
        s.index() as u32
    }

    fn square(i: u32) -> Option<Square> {
        Square::new(u8::try_from(i).ok()?)
    }

    impl super::Space for Chakart {
        const SIZE: u32 = PROMOTIONS + 5;

        fn code(action: &Action) -> Option<u32> {
            Some(match *action {
                Action::Move {
                    from,
                    to,
                    promote,
                    stealth,
                } => {
                    let k = match (stealth, promote) {
                        (true, _) => 1,
                        (false, Some(Kind::Pawn)) => return None,
                        (false, Some(kind)) => 2 + kind as u32,
                        (false, None) => 0,
                    };
                    (sq(from) * 64 + sq(to)) * 8 + k
                }
                Action::Shell { from, to } => (sq(from) * 64 + sq(to)) * 8 + 2,
                Action::Swap { with } => SWAPS + sq(with),
                Action::Drop { kind, to } => DROPS + kind as u32 * 64 + sq(to),
                Action::Promote(Kind::Pawn) => return None,
                Action::Promote(kind) => PROMOTIONS + kind as u32 - 1,
                Action::Redirect(_)
                | Action::Egg(_)
                | Action::Flip { .. }
                | Action::ItemDrop { .. }
                | Action::Setup(_) => return None,
            })
        }

        fn decode(id: u32) -> Option<Action> {
            let kind = |k: u32| Kind::from_index(k as u8);
            Some(if id < SWAPS {
                let (pair, k) = (id / 8, id % 8);
                let (from, to) = (square(pair / 64)?, square(pair % 64)?);
                match k {
                    2 => Action::Shell { from, to },
                    _ => Action::Move {
                        from,
                        to,
                        promote: (k >= 3).then(|| kind(k - 2)),
                        stealth: k == 1,
                    },
                }
            } else if id < DROPS {
                Action::Swap {
                    with: square(id - SWAPS)?,
                }
            } else if id < PROMOTIONS {
                Action::Drop {
                    kind: kind((id - DROPS) / 64),
                    to: square((id - DROPS) % 64)?,
                }
            } else if id < Self::SIZE {
                Action::Promote(kind(id - PROMOTIONS + 1))
            } else {
                return None;
            })
        }
    }
}

/// Bataille Navale (rules/naval.md sections 4.5a and 5.3a), cells a1 = 0 .. n14 = 195
/// (`row * 14 + column`), seats 0 to 3, ships carrier, cruiser, battleship, frigate, submarine,
/// corvette (0 to 5), pieces those then buoy1 to buoy3 (0 to 8):
/// - `place`: `(piece * 196 + cell) * 2 + v` (`v` 1 for a vertical ship, 0 for a buoy), 0 to
///   3527; `ready` 3528;
/// - a ship's `pass`: 3529 + ship; `fire`: 3535 + (ship * 4 + target) * 196 + cell;
/// - a special aimed at a cell (the shield, satellite, sonar, rockets, missile, charges, radar,
///   artillery, heavy artillery, then the bombing across and along: slots 0 to 10):
///   8239 + (slot * 4 + target) * 196 + cell (an area's aim normalised, section 6.5a: the
///   ids of other aims name nothing), its ship the ability's;
/// - the submarine's `torpedo`: 16863 + (target * 4 + direction) * 14 + lane (directions right,
///   left, down, up); the carrier's `emp`: 17087 + target. 17091 ids.
mod naval {
    use plateau_engine::Seat;
    use plateau_naval::ability::{ABILITIES, DIRS};
    use plateau_naval::{Ability, Action, Cell, Naval, Order, Piece, Ship};

    const CELLS: u32 = 196;
    const READY: u32 = 9 * CELLS * 2;
    const PASS: u32 = READY + 1;
    const FIRE: u32 = PASS + 6;
    const SPECIAL: u32 = FIRE + 6 * 4 * CELLS;
    const SLOTS: u32 = 11;
    const TORPEDO: u32 = SPECIAL + SLOTS * 4 * CELLS;
    const EMP: u32 = TORPEDO + 4 * 4 * 14;

    /// The abilities aimed at a cell with their orientation, in slot order.
    fn slots() -> impl Iterator<Item = (Ability, bool)> {
        ABILITIES
            .into_iter()
            .filter(|a| a.is_area() || *a == Ability::Shield)
            .flat_map(|a| a.orientations().iter().map(move |&v| (a, v)))
    }

    fn cell(i: u32) -> Option<Cell> {
        Cell::new(u8::try_from(i).ok()?)
    }

    fn seat(i: u32) -> Seat {
        Seat(i as u8)
    }

    impl super::Space for Naval {
        const SIZE: u32 = EMP + 4;

        fn code(action: &Action) -> Option<u32> {
            let c = |cell: Cell| cell.index() as u32;
            let t = |target: Seat| u32::from(target.0);
            Some(match *action {
                Action::Place {
                    piece,
                    cell,
                    vertical,
                } => (piece.index() as u32 * CELLS + c(cell)) * 2 + u32::from(vertical),
                Action::Ready => READY,
                Action::Order { ship, order } => {
                    let ship = ship.index() as u32;
                    match order {
                        Order::Pass => PASS + ship,
                        Order::Fire { target, cell } => {
                            FIRE + (ship * 4 + t(target)) * CELLS + c(cell)
                        }
                        Order::Special {
                            ability,
                            target,
                            cell,
                            vertical,
                        } => {
                            let slot = slots()
                                .position(|s| s == (ability, vertical))
                                .expect("a special aimed at a cell has a slot")
                                as u32;
                            SPECIAL + (slot * 4 + t(target)) * CELLS + c(cell)
                        }
                        Order::Torpedo { target, dir, lane } => {
                            let d =
                                DIRS.iter().position(|&x| x == dir).expect("a direction") as u32;
                            TORPEDO + (t(target) * 4 + d) * 14 + u32::from(lane)
                        }
                        Order::Emp { target } => EMP + t(target),
                    }
                }
                Action::Layout { .. } | Action::First { .. } | Action::Rocket { .. } => {
                    return None;
                }
            })
        }

        fn decode(id: u32) -> Option<Action> {
            let order = |ship: Ship, order| Action::Order { ship, order };
            Some(match id {
                0..READY => {
                    let piece = Piece::from_index((id / 2 / CELLS) as usize)?;
                    let vertical = id % 2 == 1;
                    if !piece.orientations().contains(&vertical) {
                        return None;
                    }
                    Action::Place {
                        piece,
                        cell: cell(id / 2 % CELLS)?,
                        vertical,
                    }
                }
                READY => Action::Ready,
                PASS..FIRE => order(Ship::from_index((id - PASS) as usize)?, Order::Pass),
                FIRE..SPECIAL => {
                    let (pair, at) = ((id - FIRE) / CELLS, (id - FIRE) % CELLS);
                    let fire = Order::Fire {
                        target: seat(pair % 4),
                        cell: cell(at)?,
                    };
                    order(Ship::from_index((pair / 4) as usize)?, fire)
                }
                SPECIAL..TORPEDO => {
                    let (pair, at) = ((id - SPECIAL) / CELLS, (id - SPECIAL) % CELLS);
                    let (ability, vertical) = slots().nth((pair / 4) as usize)?;
                    // An area's aim is normalised (section 6.5a): other cells name no order.
                    if ability.is_area() && ability.normalise(cell(at)?, vertical) != cell(at)? {
                        return None;
                    }
                    let special = Order::Special {
                        ability,
                        target: seat(pair % 4),
                        cell: cell(at)?,
                        vertical,
                    };
                    order(ability.ship(), special)
                }
                TORPEDO..EMP => {
                    let (pair, lane) = ((id - TORPEDO) / 14, (id - TORPEDO) % 14);
                    let torpedo = Order::Torpedo {
                        target: seat(pair / 4),
                        dir: DIRS[(pair % 4) as usize],
                        lane: lane as u8,
                    };
                    order(Ability::Torpedo.ship(), torpedo)
                }
                EMP..Self::SIZE => order(
                    Ability::Emp.ship(),
                    Order::Emp {
                        target: seat(id - EMP),
                    },
                ),
                _ => return None,
            })
        }
    }
}
