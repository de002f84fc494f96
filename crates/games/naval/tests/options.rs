//! The options of a battle turn (`Observation::options`, rules/naval.md sections 5.3a and 5.5):
//! over seeded random games, the orders they describe for each ship still to act are exactly the
//! crate's legal list for that ship on the same state, and the legal list itself for the ship the
//! engine asks next.

use crate::common;

use std::collections::BTreeSet;

use plateau_engine::{ActionParts, Actor, Game, Seat, ToAct, Viewer};
use plateau_naval::action::{action_from_parts, action_info, format_action};
use plateau_naval::options::expand;
use plateau_naval::piece::Ship;
use plateau_naval::{Action, Config, Naval, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays seeded random games and calls `check` at every battle state where a seat is to give an
/// order; now and then that seat's ships get full energy first, so the specials are open.
fn battle_turns(games: u64, mut check: impl FnMut(&Naval, Seat)) -> usize {
    let mut seen = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let mut g = Naval::new(&Config::default(), 4).unwrap();
        let mut buf = Vec::new();
        let mut chance = Vec::new();
        loop {
            match g.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    g.chance_outcomes(&mut chance);
                    let a = chance[rng.random_range(0..chance.len())].0;
                    g.apply(Actor::Chance, &a).unwrap();
                }
                ToAct::Player(s) => {
                    if g.phase == Phase::Battle {
                        if rng.random_range(0..3) == 0 {
                            for e in &mut g.boards[s.index()].energy {
                                *e = 1000;
                            }
                        }
                        check(&g, s);
                        seen += 1;
                    }
                    g.legal_actions(s, &mut buf);
                    let a = buf[rng.random_range(0..buf.len())];
                    g.apply(Actor::Seat(s), &a).unwrap();
                }
                ToAct::Simultaneous(set) => {
                    let s = set.iter().next().unwrap();
                    g.apply(Actor::Seat(s), &Action::Ready).unwrap();
                }
            }
        }
    }
    seen
}

fn texts(list: &[Action]) -> BTreeSet<String> {
    list.iter().map(format_action).collect()
}

#[test]
fn the_options_of_every_ship_are_its_legal_orders() {
    let mut ships = 0;
    let turns = battle_turns(6, |g, s| {
        let obs = g.observe(Viewer::Seat(s));
        let options = obs.options.as_ref().expect("the seat to act has options");
        assert!(options.distinct_fire_cells);
        let still: Vec<Ship> = Ship::ALL
            .into_iter()
            .skip_while(|&k| Some(k) != g.turn.next)
            .filter(|&k| !g.boards[s.index()].is_sunk(k))
            .collect();
        let named: Vec<&str> = options.ships.iter().map(|o| o.ship.as_str()).collect();
        assert_eq!(named, still.iter().map(|k| k.name()).collect::<Vec<_>>());
        assert_eq!(obs.next_ship.as_deref(), named.first().copied());
        for (o, &ship) in options.ships.iter().zip(&still) {
            // Each order the page can send names back, through its parts, an order on the list.
            let described: Vec<String> = expand(options, o)
                .iter()
                .map(|p| format_action(&action_from_parts(p).expect("the options' parts parse")))
                .collect();
            let set: BTreeSet<String> = described.iter().cloned().collect();
            assert_eq!(set.len(), described.len(), "each order once");
            let mut listed = Vec::new();
            g.list_orders(s, ship, &mut listed);
            assert_eq!(set, texts(&listed), "{}", o.ship);
            if Some(ship) == g.turn.next {
                let mut legal = Vec::new();
                g.legal_actions(s, &mut legal);
                assert_eq!(set, texts(&legal));
            }
            for sp in &o.specials {
                let has = !sp.aimed.is_empty() || !sp.torpedo.is_empty() || !sp.emp.is_empty();
                assert_eq!(sp.open, has, "{} {:?}", o.ship, sp.ability);
            }
            ships += 1;
        }
    });
    assert!(turns > 300, "{turns} turns");
    assert!(ships > 1000, "{ships} ships");
}

/// Every legal order, described in parts (`action_info`) and sent back in those parts, names the
/// same order: the page never needs the notation.
#[test]
fn every_legal_order_is_named_back_by_its_parts() {
    let mut kinds = BTreeSet::new();
    battle_turns(4, |g, s| {
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        for a in &legal {
            let info = action_info(a);
            let parts = ActionParts {
                kind: info.kind.to_owned(),
                piece: info.pieces.first().cloned(),
                to: info.to.clone(),
                choice: info.choice.clone(),
                target: info.target,
            };
            assert_eq!(action_from_parts(&parts).as_ref(), Ok(a), "{parts:?}");
            kinds.insert(info.kind.to_owned());
        }
    });
    for kind in [
        "pass",
        "fire",
        "torpedo",
        "emp",
        "bombing",
        "shield",
        "artillery",
    ] {
        assert!(kinds.contains(kind), "{kind} seen among {kinds:?}");
    }
}

#[test]
fn only_the_seat_to_act_has_options() {
    battle_turns(2, |g, s| {
        for v in 0..4u8 {
            let obs = g.observe(Viewer::Seat(Seat(v)));
            assert_eq!(obs.options.is_some(), Seat(v) == s, "viewer {v}");
        }
        assert!(g.observe(Viewer::Spectator).options.is_none());
    });
}

/// The options at the start of a turn stay a few kilobytes: at the first turn of a battle, and
/// with every special of every ship open (full energy), the largest they get.
#[test]
fn the_options_are_small() {
    let mut g = common::setup(["", "", "", ""], 0);
    let size = |g: &Naval| {
        serde_json::to_string(&g.observe(Viewer::Seat(Seat(0))).options)
            .unwrap()
            .len()
    };
    let first = size(&g);
    for e in &mut g.boards[0].energy {
        *e = 1000;
    }
    let full = size(&g);
    println!("options at a turn start: {first} bytes; every special open: {full} bytes");
    assert!(first < 8 * 1024, "{first} bytes");
    assert!(full < 16 * 1024, "{full} bytes");
}
