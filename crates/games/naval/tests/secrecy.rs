//! Secrecy (rules/naval.md section 13; docs/architecture.md section 2.5): changing anything a seat may not know leaves that seat's
//! observation byte-identical (serde JSON), over thousands of random states.

use plateau_engine::{Actor, Game, Seat, ToAct, Viewer};
use plateau_naval::Ability;
use plateau_naval::bits::Cell;
use plateau_naval::piece::{PIECES, SHIPS, Ship};
use plateau_naval::{Action, Config, Naval, Order, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn json(g: &Naval, v: Viewer) -> String {
    serde_json::to_string(&g.observe(v)).unwrap()
}

/// Random states from seeded random games, every `every`-th action.
fn states(games: u64, every: usize) -> Vec<Naval> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = Naval::new(&Config::default(), 4).unwrap();
        let mut step = 0usize;
        let mut buf = Vec::new();
        let mut chance = Vec::new();
        loop {
            if step.is_multiple_of(every) {
                out.push(g.clone());
            }
            step += 1;
            match g.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    g.chance_outcomes(&mut chance);
                    let a = chance[rng.random_range(0..chance.len())].0;
                    g.apply(Actor::Chance, &a).unwrap();
                }
                ToAct::Player(s) => {
                    g.legal_actions(s, &mut buf);
                    let a = buf[rng.random_range(0..buf.len())];
                    g.apply(Actor::Seat(s), &a).unwrap();
                }
                ToAct::Simultaneous(set) => {
                    let seats: Vec<Seat> = set.iter().collect();
                    let s = seats[rng.random_range(0..seats.len())];
                    g.legal_actions(s, &mut buf);
                    // Ready early now and then, so placement does not always run to its cap.
                    let a = if rng.random_range(0..12) == 0 {
                        Action::Ready
                    } else {
                        buf[rng.random_range(0..buf.len())]
                    };
                    g.apply(Actor::Seat(s), &a).unwrap();
                }
            }
        }
    }
    out
}

/// Changes, at random, things seat `v` may not know: the other seats' energies, hidden shields,
/// unresolved orders, placement moves and layouts (through `determinize`), and their scans.
fn perturb(g: &Naval, v: usize, rng: &mut ChaCha8Rng) -> Naval {
    let mut h = g.determinize(Seat(v as u8), rng);
    let over = matches!(g.phase, Phase::Over { .. });
    for t in 0..4 {
        if t == v {
            continue;
        }
        let b = &mut h.boards[t];
        if !b.out && !over {
            for k in 0..SHIPS {
                if !b.is_sunk(Ship::ALL[k]) {
                    b.energy[k] = rng.random_range(0..=1000);
                }
            }
            if b.shield.active && !b.shield.public {
                b.shield.charges = rng.random_range(1..=5);
                b.shield.centre = Cell::new(rng.random_range(0..196)).unwrap();
            }
            b.moves = rng.random_range(0..40);
        }
        // Another seat's scans (results are the caster's only).
        let area = Ability::Sonar.area(Cell::new(rng.random_range(0..196)).unwrap(), false);
        for u in 0..4 {
            if u != t && u != v {
                h.scans[t][u].sonar |= area;
            }
        }
    }
    if g.phase == Phase::Battle && g.current.index() != v && !g.turn.resolving {
        for k in 0..SHIPS {
            if h.turn.given & 1 << k != 0 {
                h.turn.orders[k] = Order::Pass;
            }
        }
    }
    if g.phase == Phase::Placement {
        // Another seat moves a piece somewhere else that is legal.
        let t = (v + 1 + rng.random_range(0..3)) % 4;
        if !h.boards[t].ready {
            let mut legal = Vec::new();
            h.legal_actions(Seat(t as u8), &mut legal);
            let moves: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Place { .. }))
                .collect();
            if !moves.is_empty() {
                let a = *moves[rng.random_range(0..moves.len())];
                let _ = h.apply(Actor::Seat(Seat(t as u8)), &a);
            }
        }
    }
    h
}

#[test]
fn hidden_changes_leave_observations_byte_identical() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let all = states(16, 5);
    assert!(all.len() > 1500, "{} states", all.len());
    let mut compared = 0;
    for g in &all {
        for v in 0..4 {
            let mine = json(g, Viewer::Seat(Seat(v as u8)));
            let other = perturb(g, v, &mut rng);
            assert_eq!(
                json(&other, Viewer::Seat(Seat(v as u8))),
                mine,
                "viewer {v} at {:?}",
                g.phase
            );
            compared += 1;
        }
    }
    assert!(compared > 6000);
}

#[test]
fn nobody_sees_another_living_fleet_or_energy() {
    for g in states(4, 11) {
        let over = matches!(g.phase, Phase::Over { .. });
        for v in 0..4u8 {
            let o = g.observe(Viewer::Seat(Seat(v)));
            for (t, b) in o.boards.iter().enumerate() {
                let mine = t == v as usize && !g.boards[t].out;
                if !mine && !g.boards[t].out && !over {
                    assert!(b.fleet.is_none() && b.energy.is_none() && b.moves.is_none());
                }
                if !mine {
                    assert!(b.energy.is_none());
                }
            }
        }
        let spectator = g.observe(Viewer::Spectator);
        for (t, b) in spectator.boards.iter().enumerate() {
            assert!(b.intel.is_none());
            if !g.boards[t].out && !over {
                assert!(b.fleet.is_none());
                // Only sunk ships, a revealed frigate or sunk buoys may show piece cells.
                let shown = b.sunk.len() + usize::from(b.revealed_frigate.is_some());
                assert!(shown <= PIECES);
            }
        }
    }
}

#[test]
fn determinized_layouts_differ_but_agree_with_the_markers() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut moved = 0;
    let mut total = 0;
    for g in states(6, 10).iter().filter(|g| g.phase == Phase::Battle) {
        let h = g.determinize(Seat(0), &mut rng);
        for t in 1..4 {
            if g.boards[t].out {
                continue;
            }
            total += 1;
            let (a, b) = (&g.boards[t], &h.boards[t]);
            assert_eq!(a.hit, b.hit);
            assert!(a.hit.within(b.occ), "every hit is on a piece");
            assert!(!b.occ.meets(a.miss), "no piece on a miss");
            assert_eq!(b.occ.count(), 32);
            assert_eq!(a.first_hits, b.first_hits);
            for p in plateau_naval::Piece::ALL {
                let hits = b.mask(p) & b.hit;
                let firsts = (b.mask(p) & b.first_hits).count();
                assert_eq!(
                    firsts,
                    u32::from(!hits.is_empty()),
                    "{p:?}: one first hit if hit"
                );
                if p.is_buoy() {
                    assert!(hits.within(b.first_hits), "a buoy is hit once, first");
                }
            }
            if a.occ != b.occ {
                moved += 1;
            }
        }
        assert_eq!(
            h.boards[0], g.boards[0],
            "the viewer's own board never changes"
        );
    }
    println!("resampled {moved} of {total} hidden layouts");
    assert!(
        moved * 2 > total,
        "most hidden layouts are resampled ({moved} of {total})"
    );
}

#[test]
fn move_lists_show_each_viewer_only_what_it_may_know() {
    let g = Naval::new(&Config::default(), 4).unwrap();
    let layout = g.parse_action("2:carrier@c3h").unwrap();
    let me = Viewer::Seat(Seat(1));
    let other = Viewer::Seat(Seat(0));
    assert_eq!(
        g.display_action(Actor::Chance, &layout, me).as_deref(),
        Some("2:carrier@c3h")
    );
    assert_eq!(g.display_action(Actor::Chance, &layout, other), None);
    assert_eq!(
        g.display_action(Actor::Chance, &layout, Viewer::Spectator),
        None
    );
    let order = g.parse_action("cruiser:fire 3:f7").unwrap();
    assert_eq!(
        g.display_action(Actor::Seat(Seat(1)), &order, me)
            .as_deref(),
        Some("cruiser:fire 3:f7")
    );
    assert_eq!(g.display_action(Actor::Seat(Seat(1)), &order, other), None);
    for public in ["ready", "first 2", "rocket f7 shot"] {
        let a = g.parse_action(public).unwrap();
        assert!(
            g.display_action(Actor::Chance, &a, Viewer::Spectator)
                .is_some()
        );
    }
}

/// The turn options (`Observation::options`) go to the seat whose battle turn it is and to no
/// other viewer; the states compared byte for byte above include many that carry them, so what
/// they say follows from public facts and the seat's own.
#[test]
fn turn_options_are_the_acting_seat_s_alone() {
    let mut with = 0;
    for g in states(16, 5) {
        let acting = g.phase == Phase::Battle && !g.turn.resolving && g.turn.next.is_some();
        for v in 0..4u8 {
            let o = g.observe(Viewer::Seat(Seat(v)));
            let mine = acting && g.current == Seat(v) && !g.boards[v as usize].out;
            assert_eq!(o.options.is_some(), mine, "viewer {v} at {:?}", g.phase);
            with += usize::from(mine);
        }
        assert!(g.observe(Viewer::Spectator).options.is_none());
    }
    assert!(with > 300, "{with} observations with options");
}
