//! Secrecy of the hidden queen (rulings 9 and 17): observations and `determinize`.

use std::collections::BTreeSet;

use plateau_chakart::{Action, Chakart, Config};
use plateau_engine::{ActionInfo, Actor, Game, Seat, ToAct, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn state(text: &str) -> Chakart {
    Chakart::parse_position(&Config::default(), text).unwrap()
}

/// The squares where `determinize` puts White's hidden queen for Black, over many draws.
fn queen_squares(g: &Chakart) -> BTreeSet<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let seen = g.observe(Viewer::Seat(Seat(1)));
    let mut squares = BTreeSet::new();
    for _ in 0..3000 {
        let d = g.determinize(Seat(1), &mut rng);
        assert_eq!(d.observe(Viewer::Seat(Seat(1))), seen);
        assert_eq!(d.to_act(), g.to_act());
        let board = &d.pos().board;
        let q = (0..64)
            .find(|&s| board[s] & plateau_chakart::board::HIDDEN != 0)
            .unwrap();
        squares.insert(plateau_chakart::Square::new(q as u8).unwrap().to_string());
        // The owner's view is the true state: nothing to resample.
        assert_eq!(g.determinize(Seat(0), &mut rng), *g);
    }
    squares
}

#[test]
fn the_hidden_queen_may_be_on_any_square_its_stealth_move_reached() {
    // White's queen on c1 hides; the black knight on c6 blocks the c-file.
    let g = state("4k3/8/2n5/8/3d4/8/8/2Q1K3 w 0 1111 000000000000 moves c1c5s");
    assert_eq!(
        g.observe(Viewer::Seat(Seat(1))).stealth_from.as_deref(),
        Some("c1")
    );
    assert_eq!(
        g.observe(Viewer::Spectator).board,
        "4k3/8/2n5/8/3d4/8/8/4K3"
    );
    let got = queen_squares(&g);
    let want: BTreeSet<String> = "a1 b1 d1 c2 c3 c4 c5 b2 a3 d2 e3 f4 g5 h6"
        .split(' ')
        .map(str::to_owned)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn the_knight_egg_leak_pins_the_queen() {
    // c6d4: the leg square c5 holds the hidden queen, so the egg falls back to c6 and Black knows
    // where the queen is; the knight then meets a banana (a chance node mid-turn).
    let g = state("4k3/8/2n5/8/3d4/8/8/2Q1K3 w 0 1111 000000000000 moves c1c5s c6d4");
    assert_eq!(g.to_act(), ToAct::Chance);
    assert_eq!(
        g.observe(Viewer::Seat(Seat(1))).board,
        "4k3/8/2e5/8/3n4/8/8/4K3"
    );
    let got = queen_squares(&g);
    assert_eq!(got.into_iter().collect::<Vec<_>>(), vec!["c5".to_owned()]);
}

/// A rook's banana never lands on the hidden queen (ruling 17's leak): the drop node shows
/// whether the queen is next to the rook, and squares the rook has landed on are ruled out.
#[test]
fn a_rook_drop_narrows_the_queen_down() {
    let far = state("4k3/8/8/8/8/7r/8/2Q1K3 w 0 1111 000000000000 moves c1c4s h3e3");
    let mut outcomes = Vec::new();
    far.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 4);
    let want: BTreeSet<String> = "c2 c3 c4 c5 c6 c7 c8 a1 b1 d1 b2 a3 g5 h6"
        .split(' ')
        .map(str::to_owned)
        .collect();
    assert_eq!(queen_squares(&far), want);

    let near = state("4k3/8/8/8/8/7r/8/2Q1K3 w 0 1111 000000000000 moves c1c4s h3d3");
    near.chance_outcomes(&mut outcomes);
    let texts: Vec<String> = outcomes
        .iter()
        .map(|(a, _)| near.format_action(a))
        .collect();
    assert_eq!(texts, ["~d@c2", "~d@e2", "~d@e4"]);
    assert_eq!(
        queen_squares(&near).into_iter().collect::<Vec<_>>(),
        vec!["c4".to_owned()]
    );
    // Whatever falls, the queen shows again at the end of Black's turn.
    let mut after = near;
    after.apply(Actor::Chance, &outcomes[0].0).unwrap();
    assert_eq!(
        after.observe(Viewer::Seat(Seat(1))).board,
        "4k3/8/8/8/2Q5/3r4/2d5/4K3"
    );
}

#[test]
fn only_the_mover_sees_where_a_stealth_move_goes() {
    let g = state("4k3/8/8/8/8/8/8/Q3K3 w 0 1111 000000000000");
    let a = g.parse_action("a1a2s").unwrap();
    assert_eq!(g.action_text_for(&a, Viewer::Seat(Seat(0))), "a1a2s");
    assert_eq!(g.action_text_for(&a, Viewer::Seat(Seat(1))), "a1??s");
    assert_eq!(g.action_text_for(&a, Viewer::Spectator), "a1??s");
    // In the move list the mover sees its own move; the opponent and spectators see `Q??`.
    let shown = |viewer| g.display_action(Actor::Seat(Seat(0)), &a, viewer);
    assert_eq!(shown(Viewer::Seat(Seat(0))).as_deref(), Some("Q??a2"));
    assert_eq!(shown(Viewer::Seat(Seat(1))).as_deref(), Some("Q??"));
    assert_eq!(shown(Viewer::Spectator).as_deref(), Some("Q??"));
    // Its parts in the move list tell as much as its SAN: the squares to the mover only.
    let parts = |viewer| g.display_info(Actor::Seat(Seat(0)), &a, viewer).unwrap();
    assert_eq!(parts(Viewer::Seat(Seat(0))), g.action_info(&a));
    assert_eq!(parts(Viewer::Seat(Seat(0))).to.as_deref(), Some("a2"));
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        assert_eq!(parts(viewer), ActionInfo::new("stealth"), "{viewer:?}");
    }
}

#[test]
fn a_stealth_move_onto_the_hidden_queen_shows_the_capture_to_its_mover_only() {
    // White's queen went invisible to a2 (`I`); Black's stealth move from a8 lands on it.
    let g = state("q3k3/8/8/8/8/8/I7/4K3 b 1 1011 000000000000");
    let a = g.parse_action("a8a2s").unwrap();
    let shown = |viewer| g.display_action(Actor::Seat(Seat(1)), &a, viewer);
    assert_eq!(shown(Viewer::Seat(Seat(1))).as_deref(), Some("Q??xa2"));
    assert_eq!(shown(Viewer::Seat(Seat(0))).as_deref(), Some("Q??"));
    assert_eq!(shown(Viewer::Spectator).as_deref(), Some("Q??"));
    // An ordinary move is the same for everyone.
    let plain = g.parse_action("a8a7").unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let text = g.display_action(Actor::Seat(Seat(1)), &plain, viewer);
        assert_eq!(text.as_deref(), Some("Qa7"));
    }
}

#[test]
fn the_last_move_hides_a_stealth_destination_from_all_but_its_mover() {
    let mut g = state("4k3/8/8/8/8/8/4N3/4K3 w 0 1111 000000000000");
    assert_eq!(g.observe(Viewer::Spectator).last_move, None);
    g.apply(Actor::Seat(Seat(0)), &Action::parse("e2c3").unwrap())
        .unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let seen = g.observe(viewer).last_move.unwrap();
        assert_eq!((seen.from.as_str(), seen.to.as_deref()), ("e2", Some("c3")));
    }

    let g = state("4k3/8/2n5/8/3d4/8/8/2Q1K3 w 0 1111 000000000000 moves c1c5s");
    let to = |g: &Chakart, viewer| g.observe(viewer).last_move.unwrap().to;
    assert_eq!(
        g.observe(Viewer::Seat(Seat(1))).last_move.unwrap().from,
        "c1"
    );
    assert_eq!(to(&g, Viewer::Seat(Seat(0))).as_deref(), Some("c5"));
    assert_eq!(to(&g, Viewer::Seat(Seat(1))), None);
    assert_eq!(to(&g, Viewer::Spectator), None);
    // A state drawn for Black puts the queen elsewhere: its owner's last move follows it there,
    // so the drawn state does not keep the true square.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut moved = 0;
    for _ in 0..50 {
        let d = g.determinize(Seat(1), &mut rng);
        let board = &d.pos().board;
        let q = (0..64)
            .find(|&s| board[s] & plateau_chakart::board::HIDDEN != 0)
            .unwrap();
        let q = plateau_chakart::Square::new(q as u8).unwrap().to_string();
        assert_eq!(to(&d, Viewer::Seat(Seat(0))), Some(q.clone()));
        moved += usize::from(q != "c5");
    }
    assert!(moved > 0, "every draw left the queen on c5");
}

#[test]
fn a_king_in_reach_is_told_to_its_side_and_to_spectators() {
    // The knight leaves e2: Black's queen on e8 can take White's king on e1.
    let mut g = state("4q2k/8/8/8/8/8/4N3/4K3 w 0 1111 000000000000");
    assert!(g.observe(Viewer::Spectator).kings_in_danger.is_empty());
    g.apply(Actor::Seat(Seat(0)), &Action::parse("e2c3").unwrap())
        .unwrap();
    assert_eq!(g.observe(Viewer::Seat(Seat(0))).kings_in_danger, ["e1"]);
    assert_eq!(g.observe(Viewer::Spectator).kings_in_danger, ["e1"]);
    // Black is told of its own kings only (the knight on c3 does not reach h8).
    assert!(g.observe(Viewer::Seat(Seat(1))).kings_in_danger.is_empty());
    // Black takes the king: the game is over, and nothing is in danger any more.
    g.apply(Actor::Seat(Seat(1)), &Action::parse("e8e1").unwrap())
        .unwrap();
    assert_eq!(g.to_act(), ToAct::Terminal);
    assert!(g.observe(Viewer::Spectator).kings_in_danger.is_empty());
}

#[test]
fn a_hidden_queen_changes_no_warning_of_those_who_cannot_see_it() {
    // White's queen hides on e8, between White's rook on a8 and Black's king on h8: in truth the
    // rook is blocked by its own queen, but Black (and a spectator), who cannot see the queen,
    // are told what their board shows, or the warning would give the queen away.
    let g = state("R6k/8/2Q5/8/8/8/8/4K3 w 0 1111 000000000000 moves c6e8s");
    assert_eq!(
        g.observe(Viewer::Seat(Seat(1))).board,
        "R6k/8/8/8/8/8/8/4K3"
    );
    assert_eq!(
        g.pos().kings_within_reach(plateau_chakart::Side::Black),
        0,
        "the hidden queen blocks the rook"
    );
    assert_eq!(g.observe(Viewer::Seat(Seat(1))).kings_in_danger, ["h8"]);
    assert_eq!(g.observe(Viewer::Spectator).kings_in_danger, ["h8"]);
    assert!(g.observe(Viewer::Seat(Seat(0))).kings_in_danger.is_empty());
}

/// The FEN letter of one `pieces` or `items` entry (rules/chakart.md section 3), as JSON.
fn letter(entry: &serde_json::Value) -> char {
    if let Some(item) = entry["item"].as_str() {
        return match item {
            "banana" => 'd',
            "bomb" => 'w',
            "mushroom" => 'm',
            "egg" => 'e',
            other => panic!("item {other}"),
        };
    }
    let base = match (entry["kind"].as_str().unwrap(), entry["frozen"] == true) {
        ("queen", _) if entry["hidden"] == true => 'i',
        ("pawn", false) => 'p',
        ("rook", false) => 'r',
        ("knight", false) => 'n',
        ("bishop", false) => 'b',
        ("queen", false) => 'q',
        ("king", false) => 'k',
        ("pawn", true) => 's',
        ("rook", true) => 'u',
        ("knight", true) => 'o',
        ("bishop", true) => 'c',
        ("queen", true) => 't',
        ("king", true) => 'l',
        other => panic!("piece {other:?}"),
    };
    if entry["side"] == "white" {
        base.to_ascii_uppercase()
    } else {
        base
    }
}

/// The FEN board field written back from an observation's `pieces` and `items`.
fn board_of(obs: &serde_json::Value) -> String {
    let mut cells = [None; 64];
    for entry in obs["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .chain(obs["items"].as_array().unwrap())
    {
        let sq = entry["square"].as_str().unwrap().as_bytes();
        let i = usize::from(sq[1] - b'1') * 8 + usize::from(sq[0] - b'a');
        assert!(cells[i].is_none(), "two things on one square: {obs}");
        cells[i] = Some(letter(entry));
    }
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut run = 0;
        for file in 0..8 {
            match cells[rank * 8 + file] {
                None => run += 1,
                Some(ch) => {
                    if run > 0 {
                        out.push(char::from(b'0' + run));
                        run = 0;
                    }
                    out.push(ch);
                }
            }
        }
        if run > 0 {
            out.push(char::from(b'0' + run));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The structured board (`pieces`, `items`) is built from the viewer's board: it says exactly
/// what the FEN field says, so a hidden queen is in the list of its owner only.
#[test]
fn the_pieces_and_items_tell_what_the_board_field_tells() {
    let g = state("4k3/8/2n5/8/3d4/8/8/2Q1K3 w 0 1111 000000000000 moves c1c5s");
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let obs = serde_json::to_value(g.observe(viewer)).unwrap();
        assert_eq!(board_of(&obs), obs["board"], "{viewer:?}");
        let hidden: Vec<_> = obs["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["kind"] == "queen")
            .collect();
        if viewer == Viewer::Seat(Seat(0)) {
            assert_eq!(hidden.len(), 1, "White sees its own hidden queen");
            assert_eq!(hidden[0]["square"], "c5");
            assert_eq!(hidden[0]["hidden"], true);
        } else {
            assert!(hidden.is_empty(), "{viewer:?} sees no queen: {obs}");
        }
    }
    // Over random games, for every viewer, with frozen pieces, items and pools on the way.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let config = Config {
        randomness: 2,
        turn_limit: 120,
    };
    for _ in 0..30 {
        let mut g = Chakart::new(&config, 2).unwrap();
        while g.to_act() != ToAct::Terminal {
            for viewer in [
                Viewer::Seat(Seat(0)),
                Viewer::Seat(Seat(1)),
                Viewer::Spectator,
            ] {
                let obs = serde_json::to_value(g.observe(viewer)).unwrap();
                assert_eq!(board_of(&obs), obs["board"], "{viewer:?}");
                let pools = &obs["pools"];
                let digits: Vec<u64> = ["white", "black"]
                    .iter()
                    .flat_map(|side| {
                        ["pawn", "rook", "knight", "bishop", "queen", "king"]
                            .map(|k| pools[side][k].as_u64().unwrap())
                    })
                    .collect();
                let field = obs["captured"].as_str().unwrap();
                let want: Vec<u64> = if field.contains(',') {
                    field.split(',').map(|n| n.parse().unwrap()).collect()
                } else {
                    field.bytes().map(|b| u64::from(b - b'0')).collect()
                };
                assert_eq!(digits, want, "{field}");
            }
            let mut actions = Vec::new();
            let actor = match g.to_act() {
                ToAct::Chance => {
                    let mut outcomes = Vec::new();
                    g.chance_outcomes(&mut outcomes);
                    actions.extend(outcomes.into_iter().map(|(a, _)| a));
                    Actor::Chance
                }
                ToAct::Player(seat) => {
                    g.legal_actions(seat, &mut actions);
                    Actor::Seat(seat)
                }
                other => panic!("{other:?}"),
            };
            let pick = actions[rng.random_range(0..actions.len())];
            g.apply(actor, &pick).unwrap();
        }
    }
}

/// An egg draw's parts in the move list (docs/protocol.md section 4.1) say what its SAN does:
/// the effect's letter, and the square a forced Luigi flipped (ruling 16's case).
#[test]
fn an_egg_draw_names_the_square_a_forced_luigi_flipped_in_its_parts() {
    let mut g = state("4k3/8/8/8/8/4e3/4P3/K5n1 w 0 1111 000000000000");
    let mv = g.parse_action("e2e3").unwrap();
    g.apply(Actor::Seat(Seat(0)), &mv).unwrap();
    let egg = g.parse_action("~*L").unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            g.display_action(Actor::Chance, &egg, viewer).as_deref(),
            Some("*Lg1")
        );
        let parts = g.display_info(Actor::Chance, &egg, viewer).unwrap();
        assert_eq!(parts.kind, "egg");
        assert_eq!(parts.choice.as_deref(), Some("luigi"));
        assert_eq!(parts.to.as_deref(), Some("g1"), "{viewer:?}");
    }
}

/// A move's parts name the piece that moves and what it meets, as its mover sees the board: a
/// visible piece or item, never the opponent's hidden queen (ruling 17), so a seat's `legal_info`
/// does not say where that queen hides.
#[test]
fn a_moves_parts_name_what_its_mover_sees_on_the_target() {
    // Black's queen went invisible to c3 (`i`); a Black knight on c5, a banana on e1.
    let g = state("4k3/8/8/2n5/8/2i5/1P6/2R1d2K w 1 1110 000000000000");
    let parts = |text: &str| {
        let a = g.parse_action(text).unwrap();
        assert!(g.is_legal(&a), "{text} is legal");
        g.action_info(&a).pieces
    };
    assert_eq!(parts("b2b3"), ["p"], "an empty square: the mover alone");
    assert_eq!(parts("c1c5"), ["r", "n"], "a visible piece taken");
    assert_eq!(parts("c1e1"), ["r", "d"], "an item, seen by all");
    assert_eq!(
        parts("c1c3"),
        ["r"],
        "the hidden queen looks empty to White"
    );
}
