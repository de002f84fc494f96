//! Match clocks (docs/protocol.md section 4.1): none, a per-move deadline, Fischer, or the game's own
//! clock. Pure bookkeeping on match time (milliseconds the match has run while the service ran),
//! so the same code runs live and when a match is rebuilt from its log: each entry's `at_ms`
//! replays the clock exactly, and time the server was down counts for no seat.

use std::time::Duration;

use plateau_engine::Seat;
use serde::Serialize;

use crate::model::TimeControl;

/// The clocks of one match.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    /// Per seat: milliseconds left at `since` (may go negative once flagged).
    remaining: Vec<i64>,
    /// Per seat: whether its clock runs.
    running: Vec<bool>,
    /// Milliseconds since the start when `remaining` was last brought up to date.
    since: u64,
}

/// The clocks as the `state` message shows them (docs/protocol.md section 4.1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ClockView {
    /// `"none"`, `"per_move"` or `"fischer"`.
    pub kind: &'static str,
    /// Milliseconds left per seat, never below 0; `null` without a clock.
    pub remaining_ms: Option<Vec<u64>>,
    /// The one seat whose clock runs, else `null`.
    pub running: Option<u8>,
    /// Every seat whose clock runs (several at once in a simultaneous phase), in seat order.
    pub running_seats: Vec<u8>,
}

impl Clocks {
    /// Clocks for `seats` seats, none running.
    #[must_use]
    pub fn new(control: TimeControl, seats: usize) -> Clocks {
        Clocks {
            control,
            remaining: vec![Self::allowance(control); seats],
            running: vec![false; seats],
            since: 0,
        }
    }

    /// A full allowance: the per-move time or the Fischer base, in ms (0 without a clock).
    fn allowance(control: TimeControl) -> i64 {
        match control {
            TimeControl::None | TimeControl::Game => 0,
            TimeControl::PerMove { seconds } => i64::from(seconds) * 1000,
            TimeControl::Fischer { base_seconds, .. } => i64::from(base_seconds) * 1000,
        }
    }

    fn charge(&mut self, now: u64) {
        let elapsed = now.saturating_sub(self.since) as i64;
        for (left, on) in self.remaining.iter_mut().zip(&self.running) {
            if *on {
                *left -= elapsed;
            }
        }
        self.since = self.since.max(now);
    }

    /// At `now`: charges the running clocks, credits `acted` for its move (Fischer increment, or a
    /// fresh per-move allowance), and runs the clocks of `to_act` from now on. Under the game's own
    /// clock, `rule_seconds(seat)` (`Game::rule_clock_seconds`) is the allowance of a seat that starts
    /// to act; a seat that goes on acting keeps what it has left, and one with `None` has no clock.
    pub fn update(
        &mut self,
        now: u64,
        acted: Option<Seat>,
        to_act: &[Seat],
        rule_seconds: impl Fn(Seat) -> Option<u32>,
    ) {
        if self.control == TimeControl::None {
            return;
        }
        self.charge(now);
        if self.control == TimeControl::Game {
            let was = std::mem::replace(&mut self.running, vec![false; self.remaining.len()]);
            for &seat in to_act {
                let i = seat.index();
                if let (Some(seconds), Some(on)) = (rule_seconds(seat), self.running.get_mut(i)) {
                    if !was[i] {
                        self.remaining[i] = i64::from(seconds) * 1000;
                    }
                    *on = true;
                }
            }
            return;
        }
        if let Some(seat) = acted
            && let Some(left) = self.remaining.get_mut(seat.index())
        {
            match self.control {
                TimeControl::None | TimeControl::Game => {}
                TimeControl::PerMove { seconds } => *left = i64::from(seconds) * 1000,
                TimeControl::Fischer {
                    increment_seconds, ..
                } => *left += i64::from(increment_seconds) * 1000,
            }
        }
        self.running.iter_mut().for_each(|r| *r = false);
        for seat in to_act {
            if let Some(r) = self.running.get_mut(seat.index()) {
                *r = true;
            }
        }
    }

    /// Stops every clock at `now` (the game is over).
    pub fn stop(&mut self, now: u64) {
        self.charge(now);
        self.running.iter_mut().for_each(|r| *r = false);
    }

    /// The running seat that runs out first and when (ms since the start), if any clock runs.
    #[must_use]
    pub fn deadline(&self) -> Option<(Seat, u64)> {
        self.running
            .iter()
            .enumerate()
            .filter(|(_, on)| **on)
            .map(|(i, _)| {
                let at = self.since as i64 + self.remaining[i].max(0);
                (Seat(i as u8), at as u64)
            })
            .min_by_key(|(_, at)| *at)
    }

    /// How long a bot of `seat` may think on its next action from `now`, and how long its clock
    /// has left; `None` when the seat's clock does not run (no clock, or not its turn). The share
    /// of the time left: half of a per-move allowance; a thirtieth of a Fischer clock plus three
    /// quarters of the increment, at most half of what is left; a tenth of a rules clock (a
    /// Bataille Navale turn is up to eight actions on one clock). Less a margin of 100 ms for the
    /// commit and the network.
    #[must_use]
    pub fn think_time(&self, seat: Seat, now: u64) -> Option<(Duration, Duration)> {
        const MARGIN: i64 = 100;
        if !*self.running.get(seat.index())? {
            return None;
        }
        let elapsed = now.saturating_sub(self.since) as i64;
        let left = (self.remaining[seat.index()] - elapsed).max(0);
        let share = match self.control {
            TimeControl::None => return None,
            TimeControl::PerMove { .. } => left / 2,
            TimeControl::Fischer {
                increment_seconds, ..
            } => (left / 30 + i64::from(increment_seconds) * 750).min(left / 2),
            TimeControl::Game => left / 10,
        };
        let ms = |v: i64| Duration::from_millis((v - MARGIN).max(0) as u64);
        Some((ms(share), ms(left)))
    }

    /// The view at `now`.
    #[must_use]
    pub fn view(&self, now: u64) -> ClockView {
        let kind = match self.control {
            TimeControl::None => "none",
            TimeControl::PerMove { .. } => "per_move",
            TimeControl::Fischer { .. } => "fischer",
            TimeControl::Game => "game",
        };
        if self.control == TimeControl::None {
            return ClockView {
                kind,
                remaining_ms: None,
                running: None,
                running_seats: Vec::new(),
            };
        }
        let elapsed = now.saturating_sub(self.since) as i64;
        let remaining = self
            .remaining
            .iter()
            .zip(&self.running)
            .map(|(left, on)| (if *on { left - elapsed } else { *left }).max(0) as u64)
            .collect();
        let on: Vec<u8> = (0..self.running.len())
            .filter(|i| self.running[*i])
            .map(|i| i as u8)
            .collect();
        ClockView {
            kind,
            remaining_ms: Some(remaining),
            running: if on.len() == 1 { Some(on[0]) } else { None },
            running_seats: on,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_thinks_on_a_share_of_its_clock() {
        let ms = Duration::from_millis;
        let mut blitz = Clocks::new(
            TimeControl::Fischer {
                base_seconds: 180,
                increment_seconds: 2,
            },
            2,
        );
        assert_eq!(blitz.think_time(Seat(0), 0), None, "no clock runs yet");
        blitz.update(0, None, &[Seat(0)], |_| None);
        // 180 s / 30 + 3/4 of 2 s, less 100 ms; and 180 s less 100 ms to the flag.
        assert_eq!(blitz.think_time(Seat(0), 0), Some((ms(7_400), ms(179_900))));
        assert_eq!(blitz.think_time(Seat(1), 0), None, "not its turn");
        // With 4 s left: 133 ms + 1.5 s, less the margin; with 2 s left, half of it.
        assert_eq!(
            blitz.think_time(Seat(0), 176_000),
            Some((ms(1_533), ms(3_900)))
        );
        assert_eq!(
            blitz.think_time(Seat(0), 178_000),
            Some((ms(900), ms(1_900)))
        );
        let mut per_move = Clocks::new(TimeControl::PerMove { seconds: 60 }, 2);
        per_move.update(0, None, &[Seat(1)], |_| None);
        assert_eq!(
            per_move.think_time(Seat(1), 10_000),
            Some((ms(24_900), ms(49_900)))
        );
        let mut rules = Clocks::new(TimeControl::Game, 4);
        rules.update(0, None, &[Seat(2)], |_| Some(60));
        assert_eq!(rules.think_time(Seat(2), 0), Some((ms(5_900), ms(59_900))));
        // Out of time: nothing left to think with.
        assert_eq!(rules.think_time(Seat(2), 70_000), Some((ms(0), ms(0))));
        let none = Clocks::new(TimeControl::None, 2);
        assert_eq!(none.think_time(Seat(0), 0), None);
    }

    #[test]
    fn fischer_charges_the_mover_and_adds_the_increment() {
        let mut c = Clocks::new(
            TimeControl::Fischer {
                base_seconds: 60,
                increment_seconds: 2,
            },
            2,
        );
        c.update(0, None, &[Seat(0)], |_| None);
        // Seat 0 thinks 10 s, gets 2 s back: 52 s; then seat 1 runs.
        c.update(10_000, Some(Seat(0)), &[Seat(1)], |_| None);
        assert_eq!(c.view(10_000).remaining_ms, Some(vec![52_000, 60_000]));
        assert_eq!(c.view(15_000).remaining_ms, Some(vec![52_000, 55_000]));
        assert_eq!(c.view(15_000).running, Some(1));
        assert_eq!(c.deadline(), Some((Seat(1), 70_000)));
    }

    #[test]
    fn per_move_resets_after_each_move() {
        let mut c = Clocks::new(TimeControl::PerMove { seconds: 30 }, 2);
        c.update(0, None, &[Seat(0)], |_| None);
        c.update(25_000, Some(Seat(0)), &[Seat(1)], |_| None);
        assert_eq!(c.view(25_000).remaining_ms, Some(vec![30_000, 30_000]));
        assert_eq!(c.deadline(), Some((Seat(1), 55_000)));
        c.stop(26_000);
        assert_eq!(c.deadline(), None);
        assert_eq!(c.view(99_000).remaining_ms, Some(vec![30_000, 29_000]));
    }

    #[test]
    fn no_clock_never_runs_out() {
        let mut c = Clocks::new(TimeControl::None, 2);
        c.update(0, None, &[Seat(0)], |_| None);
        assert_eq!(c.deadline(), None);
        assert_eq!(c.view(5).remaining_ms, None);
    }

    #[test]
    fn the_game_clock_runs_for_a_whole_phase_and_restarts_with_the_next_turn() {
        let mut c = Clocks::new(TimeControl::Game, 3);
        // A simultaneous phase of 90 s: seats 0 and 2 act, seat 1 has no clock now.
        let placement = |s: Seat| (s != Seat(1)).then_some(90);
        c.update(0, None, &[Seat(0), Seat(1), Seat(2)], placement);
        assert_eq!(c.view(0).running_seats, vec![0, 2]);
        assert_eq!(c.view(0).running, None);
        // Seat 0 moves at 30 s and keeps acting: its clock is not renewed.
        c.update(
            30_000,
            Some(Seat(0)),
            &[Seat(0), Seat(1), Seat(2)],
            placement,
        );
        assert_eq!(c.view(40_000).remaining_ms, Some(vec![50_000, 0, 50_000]));
        // Seat 2 is done at 40 s; seat 0 runs out at 90 s.
        c.update(40_000, Some(Seat(2)), &[Seat(0), Seat(1)], placement);
        assert_eq!(c.deadline(), Some((Seat(0), 90_000)));
        // Placement ends; turns of 60 s: seat 0's turn, then seat 2's, then seat 0's again with a fresh 60 s.
        let turn = |_: Seat| Some(60);
        c.update(50_000, Some(Seat(0)), &[], turn); // a chance node: no clock runs
        assert_eq!(c.deadline(), None);
        c.update(50_000, None, &[Seat(0)], turn);
        assert_eq!(c.view(50_000).remaining_ms, Some(vec![60_000, 0, 50_000]));
        c.update(70_000, Some(Seat(0)), &[Seat(2)], turn);
        assert_eq!(c.deadline(), Some((Seat(2), 130_000)));
        c.update(80_000, Some(Seat(2)), &[Seat(0)], turn);
        assert_eq!(c.deadline(), Some((Seat(0), 140_000)));
        assert_eq!(c.view(80_000).kind, "game");
    }
}
