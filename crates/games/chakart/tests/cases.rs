//! The test positions of rules/chakart.md section 12 (seed diagrams T1-T4, tables T5 and T6)
//! and the legal-list data files, read from `tests/data/*.txt`.
//!
//! A data file is a list of cases. Lines:
//! - `case <name>` starts a case; `fen <position text>` sets its state (`<fen> moves …` allowed);
//! - `play <action> …` applies actions (by whoever is to act; chance outcomes force the draw);
//! - `chance <outcome> …` is the exact outcome list of the pending chance node, in order;
//! - `legal <action> …` is the exact sorted legal list; `count <n>` its length; `has <action> …`
//!   and `lacks <action> …` check single actions; `illegal <action>` must be refused;
//! - `tree` then lines `p <probability> <position text> [result]`: enumerating every chance node
//!   below the current state gives exactly these first non-chance states with these
//!   probabilities (equal positions merged);
//! - `is <position text>` is the current position text; `result <1-0|0-1|1/2|*>`;
//! - `see <white|black|spectator> <board>`: that viewer's board field; `san <action> <text>`;
//! - `perft <depth> <nodes>`: the engine's perft (decisions and chance outcomes are levels).
//!
//! Every case also checks that its positions' texts read back to themselves (FEN round-trips).

use std::collections::BTreeMap;

use plateau_chakart::Chakart;
use plateau_engine::{Actor, Game, Seat, ToAct, Viewer};

fn parse_prob(t: &str) -> f64 {
    match t.split_once('/') {
        Some((a, b)) => a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap(),
        None => t.parse().unwrap(),
    }
}

fn result_text(g: &Chakart) -> &'static str {
    match g.outcome() {
        None => "*",
        Some(o) if o.ranks == vec![1, 2] => "1-0",
        Some(o) if o.ranks == vec![2, 1] => "0-1",
        Some(_) => "1/2",
    }
}

fn actor(g: &Chakart) -> Actor {
    match g.to_act() {
        ToAct::Chance => Actor::Chance,
        ToAct::Player(s) => Actor::Seat(s),
        t => panic!("nobody may act: {t:?}"),
    }
}

fn legal_texts(g: &Chakart) -> Vec<String> {
    let mut out = Vec::new();
    if let ToAct::Player(s) = g.to_act() {
        g.legal_actions(s, &mut out);
    }
    let mut t: Vec<String> = out.iter().map(|a| g.format_action(a)).collect();
    t.sort();
    t
}

fn leaf_text(g: &Chakart) -> String {
    let mut t = g.format_position();
    if g.to_act() == ToAct::Terminal {
        t.push(' ');
        t.push_str(result_text(g));
    }
    t
}

/// Enumerates the chance tree below `g`: the first non-chance states and their probabilities.
fn tree(g: &Chakart, p: f64, out: &mut BTreeMap<String, f64>) {
    if g.to_act() == ToAct::Chance {
        let mut outcomes = Vec::new();
        g.chance_outcomes(&mut outcomes);
        for (a, q) in outcomes {
            let mut child = *g;
            child.apply(Actor::Chance, &a).unwrap();
            tree(&child, p * q, out);
        }
    } else {
        check_round_trip(g);
        *out.entry(leaf_text(g)).or_default() += p;
    }
}

/// The position text reads back to itself. A finished game whose loser has no king left has no
/// readable FEN (ruling 10 refuses a side without a king), so it is exempt.
fn check_round_trip(g: &Chakart) {
    let text = g.format_position();
    match Chakart::parse_position(&g.config(), &text) {
        Ok(back) => assert_eq!(
            back.format_position(),
            text,
            "position text does not round-trip"
        ),
        Err(e) => assert!(
            g.to_act() == ToAct::Terminal,
            "`{text}` does not read back: {e}"
        ),
    }
}

fn run_file(path: &str) -> usize {
    let data = std::fs::read_to_string(path).unwrap();
    let mut cases = 0;
    let mut name = String::new();
    let mut g: Option<Chakart> = None;
    let mut expect_tree: Option<BTreeMap<String, f64>> = None;
    let finish_tree = |g: &Option<Chakart>, exp: &mut Option<BTreeMap<String, f64>>, name: &str| {
        if let Some(exp) = exp.take() {
            let mut got = BTreeMap::new();
            tree(g.as_ref().unwrap(), 1.0, &mut got);
            let total: f64 = exp.values().sum();
            assert!(
                (total - 1.0).abs() < 1e-9,
                "{name}: expected probabilities sum to {total}"
            );
            for (k, p) in &got {
                let e = exp.get(k).unwrap_or_else(|| {
                    panic!("{name}: unexpected outcome {k} (p = {p})\nexpected: {exp:#?}")
                });
                assert!(
                    (e - p).abs() < 1e-9,
                    "{name}: {k} has p = {p}, expected {e}"
                );
            }
            for k in exp.keys() {
                assert!(
                    got.contains_key(k),
                    "{name}: missing outcome {k}\ngot: {got:#?}"
                );
            }
        }
    };
    for (lineno, raw) in data.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let ctx = format!("{path}:{} ({name})", lineno + 1);
        if cmd != "p" {
            finish_tree(&g, &mut expect_tree, &ctx);
        }
        match cmd {
            "case" => {
                name = rest.to_owned();
                cases += 1;
            }
            "fen" => {
                let state = Chakart::parse_position(&Default::default(), rest)
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                check_round_trip(&state);
                g = Some(state);
            }
            "play" => {
                let st = g.as_mut().unwrap();
                for t in rest.split_whitespace() {
                    let a = st.parse_action(t).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    let who = actor(st);
                    st.apply(who, &a)
                        .unwrap_or_else(|e| panic!("{ctx}: `{t}` refused: {e}"));
                    check_round_trip(st);
                }
            }
            "chance" => {
                let st = g.as_ref().unwrap();
                let mut outcomes = Vec::new();
                st.chance_outcomes(&mut outcomes);
                let got: Vec<String> = outcomes.iter().map(|(a, _)| st.format_action(a)).collect();
                let want: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(got, want, "{ctx}: chance outcomes");
                for (_, p) in &outcomes {
                    assert!((p - 1.0 / want.len() as f64).abs() < 1e-12, "{ctx}");
                }
            }
            "legal" => {
                let got = legal_texts(g.as_ref().unwrap());
                let want: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(got, want, "{ctx}: legal actions");
            }
            "count" => {
                let got = legal_texts(g.as_ref().unwrap());
                assert_eq!(got.len(), rest.parse::<usize>().unwrap(), "{ctx}: {got:?}");
            }
            "has" | "lacks" => {
                let got = legal_texts(g.as_ref().unwrap());
                for t in rest.split_whitespace() {
                    assert_eq!(
                        got.iter().any(|x| x == t),
                        cmd == "has",
                        "{ctx}: {t} in {got:?}"
                    );
                }
            }
            "illegal" => {
                let st = g.as_ref().unwrap();
                let mut probe = *st;
                let a = st.parse_action(rest).unwrap();
                assert!(
                    probe.apply(actor(st), &a).is_err(),
                    "{ctx}: {rest} accepted"
                );
                assert_eq!(probe, *st, "{ctx}: a refused action changed the state");
            }
            "tree" => expect_tree = Some(BTreeMap::new()),
            "p" => {
                let (p, pos) = rest.split_once(' ').unwrap();
                let e = expect_tree
                    .as_mut()
                    .unwrap_or_else(|| panic!("{ctx}: p outside tree"));
                *e.entry(pos.trim().to_owned()).or_default() += parse_prob(p);
            }
            "is" => assert_eq!(g.as_ref().unwrap().format_position(), rest, "{ctx}"),
            "result" => assert_eq!(result_text(g.as_ref().unwrap()), rest, "{ctx}"),
            "see" => {
                let (who, board) = rest.split_once(' ').unwrap();
                let viewer = match who {
                    "white" => Viewer::Seat(Seat(0)),
                    "black" => Viewer::Seat(Seat(1)),
                    _ => Viewer::Spectator,
                };
                assert_eq!(g.as_ref().unwrap().observe(viewer).board, board, "{ctx}");
            }
            "san" => {
                let (a, want) = rest.split_once(' ').unwrap();
                let st = g.as_ref().unwrap();
                let action = st.parse_action(a).unwrap();
                // Chakart shows the same SAN to every viewer.
                let shown = st.display_action(Actor::Chance, &action, Viewer::Spectator);
                assert_eq!(shown.as_deref(), Some(want), "{ctx}");
            }
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').unwrap();
                let got = plateau_engine::perft::perft(g.as_ref().unwrap(), depth.parse().unwrap());
                assert_eq!(got, nodes.parse::<u64>().unwrap(), "{ctx}: perft {depth}");
            }
            _ => panic!("{ctx}: unknown command `{cmd}`"),
        }
    }
    finish_tree(&g, &mut expect_tree, &name);
    cases
}

#[test]
fn rules_file_positions() {
    let n = run_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/rules_cases.txt"
    ));
    assert!(n >= 40, "only {n} cases");
}

#[test]
fn legal_lists() {
    let n = run_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/legal_lists.txt"
    ));
    assert!(n >= 20, "only {n} cases");
}
