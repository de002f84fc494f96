//! The perft table of tests/data/perft.txt, checked against the crate's generator, and the
//! independent brute-force checker of tests/brute compared with the generator node by node.

use crate::brute;

use brute::{Board, Brute};
use plateau_engine::perft::perft;
use plateau_engine::{Actor, Game, ToAct};
use plateau_mad::{Mad, MadConfig};

/// One line of the table.
struct Entry {
    position: String,
    depth: u32,
    count: u64,
    positioning: bool,
}

fn table() -> Vec<Entry> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            assert!(
                fields.len() == 3 || (fields.len() == 4 && fields[3] == "positioning"),
                "bad perft line `{line}`"
            );
            Entry {
                position: fields[0].to_owned(),
                depth: fields[1].parse().expect("depth"),
                count: fields[2].parse().expect("count"),
                positioning: fields.len() == 4,
            }
        })
        .collect()
}

fn state(entry: &Entry) -> Mad {
    let config = MadConfig {
        positioning_turn: entry.positioning,
        ..MadConfig::default()
    };
    Mad::parse_position(&config, &entry.position).expect("table positions parse")
}

#[test]
fn perft_table_matches_the_generator() {
    let entries = table();
    assert!(entries.len() >= 20);
    for entry in &entries {
        assert_eq!(
            perft(&state(entry), entry.depth),
            entry.count,
            "perft({}) of `{}`",
            entry.depth,
            entry.position
        );
    }
}

/// Walks the tree to `depth`, checking at every node that both checkers list the same actions and
/// that every action leads to the same position text and the same end of game.
fn compare(brute: &Brute, board: &Board, state: &Mad, depth: u32) {
    let mut fast = Vec::new();
    state.legal_actions(state.side().seat(), &mut fast);
    let mut fast_texts: Vec<String> = fast.iter().map(|a| a.text()).collect();
    fast_texts.sort();
    assert_eq!(
        fast_texts,
        brute.legal_texts(board),
        "legal actions of `{}`",
        state.format_position()
    );
    if depth == 0 {
        return;
    }
    for cand in brute.legal(board) {
        let child_board = brute.play(board, &cand);
        let action_text = brute.text(&cand);
        let mut child = *state;
        let action = child.parse_action(&action_text).expect("brute texts parse");
        child.apply_legal(Actor::Seat(state.side().seat()), &action);
        assert_eq!(
            child.format_position(),
            child_board.write(),
            "after {action_text}"
        );
        assert_eq!(
            child.to_act() == ToAct::Terminal,
            child_board.over(),
            "end of game after {action_text} from `{}`",
            state.format_position()
        );
        compare(brute, &child_board, &child, depth - 1);
    }
}

#[test]
fn brute_force_agrees_with_the_generator_node_by_node() {
    let brute = Brute::default();
    let mut seen = std::collections::HashSet::new();
    for entry in table() {
        if !seen.insert((entry.position.clone(), entry.positioning)) {
            continue;
        }
        let board = Board::read(&entry.position, entry.positioning);
        let depth = if cfg!(debug_assertions) { 1 } else { 2 };
        compare(&brute, &board, &state(&entry), depth);
    }
}

/// Recomputes the whole table with the brute-force checker (slow: run in release with
/// `cargo test --release -p plateau-mad --test mad perft:: -- --ignored`). On a mismatch it prints the
/// table as the brute force counts it.
#[test]
#[ignore = "about a minute in release"]
fn brute_force_reproduces_the_table() {
    let brute = Brute::default();
    let mut ok = true;
    for entry in table() {
        let board = Board::read(&entry.position, entry.positioning);
        let count = brute.perft(&board, entry.depth);
        let tail = if entry.positioning {
            ";positioning"
        } else {
            ""
        };
        println!("{};{};{count}{tail}", entry.position, entry.depth);
        ok &= count == entry.count;
    }
    assert!(
        ok,
        "the brute-force counts differ from the table (printed above)"
    );
}

/// Along seeded random games (with and without the positioning turn), both checkers list the same
/// actions at every ply, and `apply` refuses a sample of the candidates the brute force rejects,
/// with a reason that starts with the action's text.
#[test]
fn brute_force_agrees_along_random_games() {
    use rand::{Rng, SeedableRng};
    let brute = Brute::default();
    let all = brute::candidates();
    for game in 0..60u64 {
        let positioning = game % 4 == 0;
        let config = MadConfig {
            positioning_turn: positioning,
            ..MadConfig::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(game);
        let mut state = Mad::new(&config, 2).unwrap();
        let mut board = Board::read(&state.format_position(), positioning);
        loop {
            let legal = brute.legal(&board);
            compare(&brute, &board, &state, 0);
            for cand in all.iter().skip(game as usize % 97).step_by(97) {
                let text = brute.text(cand);
                if legal.iter().any(|c| brute.text(c) == text) {
                    continue;
                }
                let mut probe = state;
                let action = probe.parse_action(&text).expect("candidate texts parse");
                let seat = state.side().seat();
                match probe.apply(Actor::Seat(seat), &action) {
                    Ok(()) => panic!("`{text}` accepted in `{}`", state.format_position()),
                    Err(e) if !board.over() => {
                        assert!(e.to_string().starts_with(&text), "{text}: {e}")
                    }
                    Err(_) => {}
                }
                assert_eq!(probe, state);
            }
            if legal.is_empty() {
                assert_eq!(state.to_act(), ToAct::Terminal);
                break;
            }
            let cand = legal[rng.random_range(0..legal.len())];
            let action = state.parse_action(&brute.text(&cand)).unwrap();
            state
                .apply(Actor::Seat(state.side().seat()), &action)
                .unwrap();
            board = brute.play(&board, &cand);
            assert_eq!(state.format_position(), board.write());
        }
    }
}
