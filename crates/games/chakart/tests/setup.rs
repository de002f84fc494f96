//! The random initial positions as chance nodes (section 4, ruling 19, table T6e).

use std::collections::HashMap;

use plateau_chakart::{Chakart, Config};
use plateau_engine::{Actor, Game, ToAct};

/// Enumerates the setup chance tree of option 1 (White's 7 nodes, Black copies) and returns
/// the probability of each White back row, written like `QBNNBKRR`.
fn rows_of_option_1() -> HashMap<String, f64> {
    let config = Config {
        randomness: 1,
        turn_limit: 0,
    };
    let mut rows = HashMap::new();
    let mut stack = vec![(Chakart::new(&config, 2).unwrap(), 1.0)];
    let mut outcomes = Vec::new();
    while let Some((g, p)) = stack.pop() {
        if g.to_act() == ToAct::Chance {
            g.chance_outcomes(&mut outcomes);
            for (a, q) in &outcomes {
                let mut child = g;
                child.apply(Actor::Chance, a).unwrap();
                stack.push((child, p * q));
            }
        } else {
            let fen = g.format_position();
            let board = fen.split(' ').next().unwrap();
            let ranks: Vec<&str> = board.split('/').collect();
            assert_eq!(
                ranks[0],
                ranks[7].to_lowercase(),
                "option 1 mirrors the row"
            );
            assert_eq!(&fen[board.len()..], " w 0 1111 000000000000");
            *rows.entry(ranks[7].to_owned()).or_default() += p;
        }
    }
    rows
}

#[test]
fn option_1_rows_have_the_vchess_distribution() {
    let rows = rows_of_option_1();
    assert_eq!(rows.len(), 2880, "rows with bishops on opposite colours");
    let total: f64 = rows.values().sum();
    assert!((total - 1.0).abs() < 1e-9);
    let mut by_p: HashMap<u64, usize> = HashMap::new();
    for (row, p) in &rows {
        let b: Vec<usize> = row.match_indices('B').map(|(i, _)| i).collect();
        assert_eq!(b.len(), 2);
        assert_ne!(b[0] % 2, b[1] % 2, "{row}: bishops on the same colour");
        *by_p.entry((1.0 / p).round() as u64).or_default() += 1;
    }
    assert_eq!(by_p.get(&3360), Some(&1728));
    assert_eq!(by_p.get(&2520), Some(&576));
    assert_eq!(by_p.get(&2240), Some(&576));
    let p = |r: &str| 1.0 / rows[r];
    assert!((p("QBNNBKRR") - 3360.0).abs() < 1e-6);
    assert!((p("BBKNRNRQ") - 2520.0).abs() < 1e-6);
    assert!((p("BBKNNRQR") - 2240.0).abs() < 1e-6);
}

#[test]
fn setup_node_counts_by_option() {
    for (randomness, nodes) in [(0u8, 0usize), (1, 7), (2, 14)] {
        let config = Config {
            randomness,
            turn_limit: 0,
        };
        let mut g = Chakart::new(&config, 2).unwrap();
        let mut n = 0;
        let mut outcomes = Vec::new();
        while g.to_act() == ToAct::Chance {
            g.chance_outcomes(&mut outcomes);
            assert_eq!(outcomes.len(), 8 - n % 7, "option {randomness}, node {n}");
            g.apply(Actor::Chance, &outcomes[0].0).unwrap();
            n += 1;
        }
        assert_eq!(n, nodes, "option {randomness}");
    }
    let bad = Config {
        randomness: 3,
        turn_limit: 0,
    };
    assert!(Chakart::new(&bad, 2).is_err());
    assert!(Chakart::new(&Config::default(), 3).is_err());
}
