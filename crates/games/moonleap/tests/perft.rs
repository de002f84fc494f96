//! The perft table `tests/data/perft.txt`, checked two ways:
//! 1. with `plateau_engine::perft` on the crate's `MoonLeap` (bit masks, split table, window test
//!    for runs);
//! 2. with the independent text-level model of `tests/reference` (vectors of cells, scanning,
//!    splits derived from sums, runs found by walking), for every line up to a node budget.

use std::collections::BTreeMap;

use crate::reference::{RefBoard, RefState};
use plateau_engine::{Game, perft::perft};
use plateau_moonleap::{Config, MoonLeap};

struct Line {
    mercenaries: bool,
    position: String,
    depth: u32,
    nodes: u64,
}

fn table() -> Vec<Line> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "bad perft line {l}");
            Line {
                mercenaries: match f[0] {
                    "standard" => false,
                    "mercenaries" => true,
                    other => panic!("unknown variant {other}"),
                },
                position: f[1].to_owned(),
                depth: f[2].parse().unwrap(),
                nodes: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn config(mercenaries: bool) -> Config {
    Config {
        mercenaries,
        ..Config::default()
    }
}

#[test]
fn the_table_covers_every_player_count_from_the_start_to_depth_6_and_beyond() {
    let lines = table();
    for players in ["2", "3", "4"] {
        let start = format!("{} {players} a -", ".".repeat(37));
        let deepest = lines
            .iter()
            .filter(|l| !l.mercenaries && l.position == start)
            .map(|l| l.depth)
            .max();
        assert!(
            deepest >= Some(6),
            "start of {players} players: {deepest:?}"
        );
    }
    let positions: std::collections::BTreeSet<&str> =
        lines.iter().map(|l| l.position.as_str()).collect();
    assert!(positions.len() >= 15, "mid-game positions are in the table");
}

#[test]
fn the_first_levels_from_the_start_are_counted_by_hand() {
    // Depth 1: six faces. Depth 2: faces 1-5 enter one astronaut each, the star any of five.
    // Until the milestone is passed every roll has 10 children, so depth 2k is 10^k.
    let lines = table();
    let start2 = format!("{} 2 a -", ".".repeat(37));
    let at = |d: u32| {
        lines
            .iter()
            .find(|l| l.position == start2 && l.depth == d)
            .unwrap()
            .nodes
    };
    assert_eq!(at(1), 6);
    assert_eq!(at(2), 10);
    assert_eq!(at(3), 60);
    assert_eq!(at(4), 100);
    assert_eq!(at(6), 1000);
}

#[test]
fn the_crate_matches_the_table() {
    for line in table() {
        let state = MoonLeap::parse_position(&config(line.mercenaries), &line.position).unwrap();
        assert_eq!(
            perft(&state, line.depth),
            line.nodes,
            "perft {} of {}",
            line.depth,
            line.position
        );
    }
}

#[test]
fn the_independent_model_matches_the_table() {
    // The plain model is slow; it checks every line up to this many nodes, which covers every
    // position to depth 6 at least.
    const BUDGET: u64 = 300_000;
    let board = RefBoard::standard();
    let mut deepest: BTreeMap<String, u32> = BTreeMap::new();
    for line in table().iter().filter(|l| l.nodes <= BUDGET) {
        let state = RefState::parse(&board, line.mercenaries, &line.position);
        assert_eq!(
            state.perft(line.depth),
            line.nodes,
            "reference perft {} of {}",
            line.depth,
            line.position
        );
        let d = deepest.entry(line.position.clone()).or_default();
        *d = (*d).max(line.depth);
    }
    for (position, depth) in deepest {
        assert!(depth >= 6, "{position} cross-checked only to depth {depth}");
    }
}
