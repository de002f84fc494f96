//! Secrecy against states a seat cannot tell apart (docs/architecture.md section 2.5), for the
//! two games with hidden information. Each test builds pairs of *true* states, each played by the
//! rules from its own history: the same history as one seat observes it, other hidden facts
//! (Bataille Navale: the other fleets laid out elsewhere, another seat's shield centred
//! elsewhere; Chakart: the hidden queen's stealth move ending on another square). Nothing of one
//! state is copied from the other, so a field that a determinization would copy (Bataille
//! Navale's `last_turn`, which holds another seat's shield order with its centre; Chakart's move
//! line, which holds the stealth move whole) differs between the two as it does between two
//! real games. At every step the seat's view must be identical on both, field by field: its
//! observation, who acts, its legal list with the parts sent with it, the move-list entry of
//! the action played (all the game puts in a `state` message, docs/protocol.md section 4.1);
//! at its decisions, the action of each of its bots and the analysis's judgement.
//!
//! Each test also plants a leak, a view that adds a field of the state the seat may not see, and
//! checks that the pairs catch it: in Bataille Navale through `last_turn`, which a
//! determinization copies, so that the old check (a determinization of the true state) misses it
//! where the pairs do not; in Chakart through the position text's board.

use plateau_bots::Budget;
use plateau_engine::{Actor, Game, Seat, ToAct, Viewer, chance};
use plateau_testkit::compare_views;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// The registry's bots every decision of the watched seat is checked with: its lobby levels
/// (whatever they play) and the other bot forms.
const BOTS: [&str; 9] = [
    "beginner",
    "casual",
    "club",
    "strong",
    "expert",
    "greedy",
    "greedy:50",
    "blunder:50",
    "mcts:i30",
];

/// What one seat is shown of one step of two games it must not tell apart.
struct Step<'a, G: Game> {
    /// The state before the step in each game.
    before: (&'a G, &'a G),
    /// The action of each game at this step (the same actor's), or `None` where one game has
    /// no action at this step (an action hidden from the seat that the other game skips).
    played: (Option<&'a G::Action>, Option<&'a G::Action>),
    actor: Actor,
    /// The states after it.
    after: (&'a G, &'a G),
}

/// Compares everything `seat` is shown at `step` (module documentation); at a decision of the
/// seat in `after`, also its bots and, when `judge`, the analysis. Panics naming what differs.
fn same_for_seat<G: Game>(step: &Step<'_, G>, seat: Seat, label: &str, judge: bool) {
    let (a, b) = step.after;
    if let Err(leak) = compare_views(a, b, seat, 0) {
        panic!("{label}: {leak}");
    }
    let viewer = Viewer::Seat(seat);
    let entry = |g: &G, action: Option<&G::Action>| {
        action.and_then(|x| {
            let text = g.display_action(step.actor, x, viewer)?;
            Some((
                text,
                serde_json::to_value(g.display_info(step.actor, x, viewer)).unwrap(),
            ))
        })
    };
    assert_eq!(
        entry(step.before.0, step.played.0),
        entry(step.before.1, step.played.1),
        "{label}: the move-list entry of {:?}'s action differs",
        step.actor
    );
    if !a.to_act().allows(Actor::Seat(seat)) {
        return;
    }
    for spec in BOTS {
        let bot = || plateau_registry::new_bot(G::INFO.name, spec.parse().unwrap(), 1234).unwrap();
        assert_eq!(
            bot().act(a, seat),
            bot().act(b, seat),
            "{label}: bot {spec} tells the two states apart"
        );
    }
    if judge {
        let mut legal = Vec::new();
        a.legal_actions(seat, &mut legal);
        let played = a.format_action(&legal[0]);
        let judged = |g: &G| {
            let factory = plateau_registry::bot_factory(G::INFO.name).unwrap();
            // A second opinion from a loss of 0: its searches are checked too.
            factory
                .judge(g, seat, &played, Budget::Iterations(24), 0.0, 5)
                .unwrap()
        };
        assert_eq!(
            judged(a),
            judged(b),
            "{label}: the analysis tells the two states apart"
        );
    }
}

/// The first path at which `a` and `b` differ, as JSON.
fn differs(a: &Value, b: &Value) -> Option<String> {
    plateau_engine::first_difference(a, b).map(|(path, _, _)| path)
}

mod naval {
    use super::*;
    use plateau_naval::observe::Observation;
    use plateau_naval::{Ability, Action, Config, Naval, Order, Phase, Piece};

    /// A planted leak: the seat's observation with, beside it, every order of the last turn as
    /// the state holds it, a shield's centre included (the field a determinization copies).
    fn leaky(g: &Naval, seat: Seat) -> Value {
        let shown: Observation = g.observe(Viewer::Seat(seat));
        let held: Vec<String> = g
            .last_turn
            .iter()
            .map(|a| plateau_naval::action::format_order(a.ship, &a.order, true))
            .collect();
        serde_json::json!({"observation": shown, "last_turn_held": held})
    }

    /// Where `piece` of `seat` lies in `g`, as a layout draw.
    fn layout_of(g: &Naval, seat: Seat, piece: Piece) -> Action {
        let mask = g.board(seat).mask(piece);
        let &(cell, vertical, _) = piece
            .footprints()
            .iter()
            .find(|(_, _, m)| *m == mask)
            .expect("a placed piece lies on one of its footprints");
        Action::Layout {
            seat,
            piece,
            cell,
            vertical,
        }
    }

    /// What the twin plays for `actor`'s `action` of the first game, or `None` when it skips it
    /// (another seat's placement move, which `seat` never sees): the other seats' layout draws
    /// from `fleets`, their shields centred elsewhere when they can be.
    fn twin_action(
        twin: &Naval,
        seat: Seat,
        fleets: &Naval,
        actor: Actor,
        action: &Action,
        rng: &mut ChaCha8Rng,
    ) -> Option<Action> {
        match (actor, *action) {
            (Actor::Chance, Action::Layout { seat: t, piece, .. }) if t != seat => {
                Some(layout_of(fleets, t, piece))
            }
            (Actor::Seat(t), Action::Place { .. }) if t != seat => None,
            (
                Actor::Seat(t),
                Action::Order {
                    ship,
                    order:
                        Order::Special {
                            ability: Ability::Shield,
                            target,
                            cell,
                            vertical,
                        },
                },
            ) if t != seat => {
                let others: Vec<_> = twin
                    .shield_centres(t)
                    .iter()
                    .filter(|&c| c != cell)
                    .collect();
                let cell = if others.is_empty() {
                    cell
                } else {
                    others[rng.random_range(0..others.len())]
                };
                Some(Action::Order {
                    ship,
                    order: Order::Special {
                        ability: Ability::Shield,
                        target,
                        cell,
                        vertical,
                    },
                })
            }
            _ => Some(*action),
        }
    }

    /// What the pairs saw.
    #[derive(Default)]
    struct Seen {
        /// Steps compared, and of them the steps at which the two states differed.
        steps: usize,
        differed: usize,
        /// Compared states whose `last_turn` held another seat's shield at other centres.
        shield_apart: usize,
        /// Compared states at which the planted leak showed, and at which it hid from a
        /// determinization of the first state.
        leak_caught: usize,
        leak_missed_by_determinization: usize,
        /// Decisions of the watched seat whose bots were compared.
        decisions: usize,
    }

    /// One random game of seed `game`, and its twin for `seat` up to its `upto`-th action: the
    /// other fleets as a determinization for `seat` draws them at that point (so every public
    /// result until then is the same), laid out there from the start, each state played by the
    /// rules. Returns the games as checked step by step.
    fn pair(game: u64, seat: Seat, fraction: f64, seen: &mut Seen, bots_every: usize) {
        let config = Config::default();
        let mut rng = ChaCha8Rng::seed_from_u64(game);
        let mut first = Naval::new(&config, 4).unwrap();
        let mut actions = Vec::new();
        while let Some((actor, action)) = first.random_action(&mut rng) {
            first.apply_legal(actor, &action);
            actions.push((actor, action));
        }
        let upto = ((actions.len() as f64) * fraction) as usize;
        let mut a = Naval::new(&config, 4).unwrap();
        for (actor, action) in &actions[..upto] {
            a.apply_legal(*actor, action);
        }
        let fleets = a.determinize(seat, &mut rng);
        let mut a = Naval::new(&config, 4).unwrap();
        let mut b = a.clone();
        for (i, (actor, action)) in actions[..upto].iter().enumerate() {
            let mine = twin_action(&b, seat, &fleets, *actor, action, &mut rng);
            let (a0, b0) = (a.clone(), b.clone());
            a.apply_legal(*actor, action);
            if let Some(m) = &mine
                && b.apply(*actor, m).is_err()
            {
                // Another seat cannot afford in the twin what it did in the first game (its
                // energy, hidden, came out otherwise): the twin ends here.
                return;
            }
            // A shield centred elsewhere deflects other shots: what it deflected is public, so
            // the twin ends where the deflections part.
            if Seat::all(4).any(|t| a.board(t).deflected != b.board(t).deflected) {
                return;
            }
            // A seat that reached its placement cap in the first game is ready in both.
            for t in Seat::all(4).filter(|&t| t != seat) {
                if a.board(t).ready && !b.board(t).ready && b.phase == Phase::Placement {
                    b.apply(Actor::Seat(t), &Action::Ready).unwrap();
                }
            }
            let judge = seen.decisions.is_multiple_of(8);
            let watch = a.to_act().allows(Actor::Seat(seat))
                && a.phase == Phase::Battle
                && i % bots_every == 0;
            let step = Step {
                before: (&a0, &b0),
                played: (Some(action), mine.as_ref()),
                actor: *actor,
                after: (&a, &b),
            };
            let label = format!("game {game}, seat {}, action {}", seat.0 + 1, i + 1);
            if watch {
                same_for_seat(&step, seat, &label, judge);
                seen.decisions += 1;
            } else if let Err(leak) = compare_views(&a, &b, seat, 0) {
                panic!("{label}: {leak}");
            } else {
                let viewer = Viewer::Seat(seat);
                let shown = |g: &Naval, x: Option<&Action>| {
                    x.and_then(|x| g.display_action(*actor, x, viewer))
                };
                assert_eq!(
                    shown(&a0, Some(action)),
                    shown(&b0, mine.as_ref()),
                    "{label}: the move-list entry differs"
                );
            }
            seen.steps += 1;
            seen.differed += usize::from(a != b);
            let orders = |g: &Naval| -> Vec<Value> {
                g.last_turn
                    .iter()
                    .map(|x| serde_json::to_value(x.order).unwrap())
                    .collect()
            };
            if orders(&a) != orders(&b) {
                seen.shield_apart += 1;
            }
            if differs(&leaky(&a, seat), &leaky(&b, seat)).is_some() {
                seen.leak_caught += 1;
                let drawn = a.determinize(seat, &mut rng);
                if differs(&leaky(&a, seat), &leaky(&drawn, seat)).is_none() {
                    seen.leak_missed_by_determinization += 1;
                }
            }
        }
    }

    #[test]
    fn a_seat_cannot_tell_two_fleets_apart() {
        let mut seen = Seen::default();
        for game in 0..6 {
            let seat = Seat((game % 4) as u8);
            pair(game, seat, 0.5 + 0.08 * game as f64, &mut seen, 23);
        }
        eprintln!(
            "{} steps, {} with states apart, {} with shields apart, {} decisions, leak caught at \
             {} ({} of them missed by a determinization)",
            seen.steps,
            seen.differed,
            seen.shield_apart,
            seen.decisions,
            seen.leak_caught,
            seen.leak_missed_by_determinization
        );
        assert!(seen.steps >= 1500, "{} steps compared", seen.steps);
        // The fleets lie elsewhere from the layout on, so nearly every step differs.
        assert!(seen.differed * 10 >= seen.steps * 8, "{}", seen.differed);
        assert!(seen.decisions >= 12, "{} decisions", seen.decisions);
        // The planted leak: caught wherever another seat's shield centre differed, and at
        // least once where a determinization of the first state, which copies `last_turn`,
        // shows nothing.
        assert!(
            seen.shield_apart >= 5,
            "{} shields apart",
            seen.shield_apart
        );
        assert_eq!(seen.leak_caught, seen.shield_apart);
        assert!(seen.leak_missed_by_determinization >= 1);
    }
}

mod chakart {
    use super::*;
    use plateau_chakart::board::{HIDDEN, side_of};
    use plateau_chakart::{Action, Chakart, Config};

    /// A planted leak: the seat's observation with, beside it, the board as the position text
    /// holds it (the hidden queen on its square), as a view built from the wrong field would.
    fn leaky(g: &Chakart, seat: Seat) -> Value {
        let text = g.format_position();
        let board = text.split(' ').next().unwrap_or_default().to_owned();
        serde_json::json!({"observation": g.observe(Viewer::Seat(seat)), "board": board})
    }

    /// The square of the queen hidden from `seat` (its opponent's), if one is.
    fn hidden_queen(g: &Chakart, seat: Seat) -> Option<usize> {
        (0..64).find(|&s| {
            let c = g.pos().board[s];
            c & HIDDEN != 0 && side_of(c).seat() != seat
        })
    }

    /// Squares where `seat`'s opponent's hidden queen may be in `g` as the rules let `seat`
    /// know (the position's own record of the stealth move's reach, `Pos::hidden`).
    fn may_be(g: &Chakart, seat: Seat, square: usize) -> bool {
        let pos = g.pos();
        let q = hidden_queen(g, seat);
        Some(square) == q
            || (pos.hidden >> square & 1 == 1 && pos.board[square] == plateau_chakart::board::EMPTY)
    }

    #[derive(Default)]
    struct Seen {
        steps: usize,
        apart: usize,
        leak_caught: usize,
        leak_missed_by_determinization: usize,
        decisions: usize,
    }

    /// Random games in which, at a stealth move by the other seat, the twin's queen goes to
    /// another square the stealth move could reach; both then follow the first game's actions
    /// for as long as the twin's queen stays where `seat` may believe it is.
    fn pairs(game: u64, seen: &mut Seen) {
        let mut rng = ChaCha8Rng::seed_from_u64(game);
        let mut a = Chakart::new(&Config::default(), 2).unwrap();
        let mut twin: Option<(Chakart, Seat)> = None;
        let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
        for ply in 0..400 {
            let (actor, action) = match a.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    a.chance_outcomes(&mut outcomes);
                    let i = chance::sample(&outcomes, &mut rng);
                    (Actor::Chance, outcomes[i].0)
                }
                ToAct::Player(s) => {
                    a.legal_actions(s, &mut legal);
                    // Stealth moves are rare at random: taken whenever offered.
                    let i = legal
                        .iter()
                        .position(|x| matches!(x, Action::Move { stealth: true, .. }))
                        .unwrap_or_else(|| rng.random_range(0..legal.len()));
                    (Actor::Seat(s), legal[i])
                }
                ToAct::Simultaneous(set) => {
                    let s = set.iter().next().unwrap();
                    a.legal_actions(s, &mut legal);
                    (Actor::Seat(s), legal[rng.random_range(0..legal.len())])
                }
            };
            let a0 = a;
            a.apply_legal(actor, &action);
            let Some((b, seat)) = twin.as_mut() else {
                // A stealth move: its twin ends on another square it could reach.
                if let (
                    Actor::Seat(u),
                    Action::Move {
                        from,
                        to,
                        stealth: true,
                        ..
                    },
                ) = (actor, action)
                {
                    let seat = Seat(1 - u.0);
                    a0.legal_actions(u, &mut legal);
                    let others: Vec<Action> = legal
                        .iter()
                        .copied()
                        .filter(|x| {
                            matches!(x, Action::Move { from: f, to: t, stealth: true, .. }
                                if *f == from && *t != to)
                        })
                        .collect();
                    if !others.is_empty() && hidden_queen(&a, seat).is_some() {
                        let mine = others[rng.random_range(0..others.len())];
                        let mut b = a0;
                        b.apply_legal(actor, &mine);
                        // A stealth move that meets an item shows the queen: no twin.
                        if hidden_queen(&b, seat).is_none_or(|q| !may_be(&a, seat, q)) {
                            continue;
                        }
                        let step = Step {
                            before: (&a0, &a0),
                            played: (Some(&action), Some(&mine)),
                            actor,
                            after: (&a, &b),
                        };
                        check(
                            &step,
                            seat,
                            &format!("game {game}, ply {ply}"),
                            seen,
                            &mut rng,
                        );
                        twin = Some((b, seat));
                    }
                }
                continue;
            };
            let seat = *seat;
            let b0 = *b;
            let ok = b.apply(actor, &action).is_ok()
                && hidden_queen(b, seat).is_some_and(|q| may_be(&a, seat, q))
                && hidden_queen(&a, seat).is_some_and(|q| may_be(b, seat, q));
            if !ok {
                // The queen shows itself (it moves, or its square becomes known): the pair ends.
                twin = None;
                continue;
            }
            let step = Step {
                before: (&a0, &b0),
                played: (Some(&action), Some(&action)),
                actor,
                after: (&a, b),
            };
            check(
                &step,
                seat,
                &format!("game {game}, ply {ply}"),
                seen,
                &mut rng,
            );
        }
    }

    /// Compares one step of a pair for `seat` (`same_for_seat`, the analysis at every other
    /// decision) and counts it, with the planted leak.
    fn check(
        step: &Step<'_, Chakart>,
        seat: Seat,
        label: &str,
        seen: &mut Seen,
        rng: &mut ChaCha8Rng,
    ) {
        let (a, b) = step.after;
        let decision = a.to_act().allows(Actor::Seat(seat));
        same_for_seat(
            step,
            seat,
            label,
            decision && seen.decisions.is_multiple_of(2),
        );
        seen.decisions += usize::from(decision);
        seen.steps += 1;
        seen.apart += usize::from(a != b);
        if differs(&leaky(a, seat), &leaky(b, seat)).is_some() {
            seen.leak_caught += 1;
            let drawn = a.determinize(seat, rng);
            if differs(&leaky(a, seat), &leaky(&drawn, seat)).is_none() {
                seen.leak_missed_by_determinization += 1;
            }
        }
    }

    #[test]
    fn a_seat_cannot_tell_two_hidden_queens_apart() {
        let mut seen = Seen::default();
        for game in 0..60 {
            pairs(game, &mut seen);
        }
        eprintln!(
            "{} steps, {} apart, {} decisions, leak caught at {} ({} missed by a \
             determinization)",
            seen.steps,
            seen.apart,
            seen.decisions,
            seen.leak_caught,
            seen.leak_missed_by_determinization
        );
        assert!(seen.steps >= 50, "{} steps compared", seen.steps);
        assert_eq!(seen.apart, seen.steps);
        assert!(seen.decisions >= 40, "{} decisions", seen.decisions);
        // The planted leak shows at every step (the two queens stand apart throughout).
        assert_eq!(seen.leak_caught, seen.steps);
    }
}
