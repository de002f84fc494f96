//! The match service's clock on Moon Leap (docs/rulings.md, Moon Leap 9): out of time, the seat's
//! compulsory move is made for it.

use plateau_engine::{Actor, Game, Seat};
use plateau_moonleap::MoonLeap;

#[test]
fn a_timeout_plays_the_first_legal_action_and_nothing_at_a_roll() {
    let mut g = MoonLeap::new(&Default::default(), 3).unwrap();
    // At the roll nobody decides, so there is nothing to play for seat 1.
    assert_eq!(g.timeout_actions(Seat(0)), Some(Vec::new()));
    let roll = g.parse_action("r4").unwrap();
    g.apply(Actor::Chance, &roll).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    let played = g.timeout_actions(Seat(0)).unwrap();
    assert_eq!(played, vec![legal[0]]);
    assert_eq!(
        g.format_action(&played[0]),
        "4",
        "a 4 before the milestone moves astronaut 4"
    );
    assert_eq!(
        g.timeout_actions(Seat(1)),
        Some(Vec::new()),
        "not seat 2's turn"
    );
}
