//! The secrecy checks (docs/architecture.md section 2.5): a seat's view is the same in every state
//! the seat cannot tell from the true one, compared field by field as JSON, so one leaked value
//! (another seat's energy, a hidden square) is caught and named by its path; its legal actions
//! (text and parts) and who acts must not change either.
//!
//! - `check_secrecy` draws the other states with `determinize(seat)`. It cannot see a leak
//!   through a field the determinization copies from the true state: that field is equal on
//!   both sides by construction.
//! - `compare_views` compares two states the caller built apart, each by the rules from its own
//!   history (the same observation history for the seat, other hidden facts: another layout,
//!   another shield centre), so that no field of one is a copy of the other's. A game's
//!   indistinguishable-states test builds such pairs (crates/bots/tests/no_peeking.rs).

use std::fmt;

use rand::Rng;
use serde_json::Value;

use plateau_engine::diff::first_difference;

use plateau_engine::game::Game;
use plateau_engine::seat::{Seat, ToAct, Viewer};

/// A field of a seat's view that changed when only what the seat may not know changed.
#[derive(Clone, PartialEq, Debug)]
pub struct Leak {
    /// The seat whose view leaks.
    pub seat: Seat,
    /// Which determinization (0-based) showed it, or the caller's number for a pair
    /// (`compare_views`).
    pub draw: usize,
    /// Where: a JSON path into the observation (`boards[2].energy[0]`), or `legal actions` or
    /// `to_act`.
    pub path: String,
    /// The value in the true state.
    pub truth: String,
    /// The value in the drawn state.
    pub drawn: String,
}

impl fmt::Display for Leak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {}'s view leaks at `{}`: {} in the true state, {} in the state compared with it \
             (draw {}; it changes when only what the seat may not know changes)",
            self.seat, self.path, self.truth, self.drawn, self.draw
        )
    }
}

impl std::error::Error for Leak {}

/// Checks every seat of `state`: `draws` determinizations each, drawn with `rng`.
///
/// # Errors
/// The first `Leak`: the seat, the path of the first field that differs, and both values.
pub fn check_secrecy<G: Game, R: Rng + ?Sized>(
    state: &G,
    rng: &mut R,
    draws: usize,
) -> Result<(), Leak> {
    if draws == 0 {
        return Ok(());
    }
    for seat in Seat::all(state.seats()) {
        // What the seat is shown of the true state, once for all the draws. Legal actions by text
        // alone: their parts on every determinization would cost the conformance playouts far
        // more (a placement lists thousands of actions).
        let truth = Shown::of(state, seat, false);
        for draw in 0..draws {
            let drawn = Shown::of(&state.determinize(seat, rng), seat, false);
            compare(&truth, &drawn, seat, draw)?;
        }
    }
    Ok(())
}

/// Compares what `seat` is shown in `a` and in `b`, two states it must not tell apart: its
/// observation field by field, who acts, and its legal actions with their parts
/// (`Game::action_info`, what a client is sent with them). `draw` is reported in the `Leak`.
///
/// # Errors
/// The first `Leak`, its `truth` the value in `a` and `drawn` the value in `b`.
pub fn compare_views<G: Game>(a: &G, b: &G, seat: Seat, draw: usize) -> Result<(), Leak> {
    compare(
        &Shown::of(a, seat, true),
        &Shown::of(b, seat, true),
        seat,
        draw,
    )
}

/// What a seat is shown of a state: its observation, who acts, and its legal actions as texts,
/// sorted, each with its parts as JSON (`Value::Null` when the parts are not compared).
struct Shown<G: Game> {
    observation: G::Observation,
    to_act: ToAct,
    listed: Vec<(String, Value)>,
}

impl<G: Game> Shown<G> {
    fn of(g: &G, seat: Seat, parts: bool) -> Self {
        let mut actions = Vec::new();
        g.legal_actions(seat, &mut actions);
        let mut listed: Vec<(String, Value)> = actions
            .iter()
            .map(|x| {
                let info = if parts {
                    json(&g.action_info(x))
                } else {
                    Value::Null
                };
                (g.format_action(x), info)
            })
            .collect();
        listed.sort_by(|x, y| x.0.cmp(&y.0));
        Shown {
            observation: g.observe(Viewer::Seat(seat)),
            to_act: g.to_act(),
            listed,
        }
    }
}

/// The first leak between `a` (the truth) and `b`, both shown to `seat`.
fn compare<G: Game>(a: &Shown<G>, b: &Shown<G>, seat: Seat, draw: usize) -> Result<(), Leak> {
    let leak = |path: String, truth: String, drawn: String| Leak {
        seat,
        draw,
        path,
        truth,
        drawn,
    };
    // The observations as JSON, which names the field that differs, only when they differ: equal
    // values serialize alike (and unequal ones may still serialize alike, then nothing leaks).
    if a.observation != b.observation
        && let Some((path, x, y)) = first_difference(&json(&a.observation), &json(&b.observation))
    {
        return Err(leak(path, x, y));
    }
    if a.to_act != b.to_act {
        return Err(leak(
            "to_act".into(),
            format!("{:?}", a.to_act),
            format!("{:?}", b.to_act),
        ));
    }
    let (la, lb) = (&a.listed, &b.listed);
    if la != lb {
        let (x, y) = la.iter().zip(lb).find(|(x, y)| x != y).map_or_else(
            || {
                (
                    format!("{} actions", la.len()),
                    format!("{} actions", lb.len()),
                )
            },
            |(x, y)| (format!("{x:?}"), format!("{y:?}")),
        );
        return Err(leak("legal actions".into(), x, y));
    }
    Ok(())
}

fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("observations serialize to JSON")
}
