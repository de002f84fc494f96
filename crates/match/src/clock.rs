//! Match clocks (docs/protocol.md section 4.1): none, a per-move deadline, Fischer, or the game's own
//! clock. Pure bookkeeping on match time (milliseconds the match has run while the service ran),
//! so the same code runs live and when a match is rebuilt from its log: each entry's `at_ms`
//! replays the clock exactly, and time the server was down counts for no seat.
//!
//! As on lichess, a seat's per-move or Fischer clock starts with its first move: before it, the
//! seat's clock is not charged. So that nobody waits for a first move forever, this lasts the
//! first-move time (`Options::first_move`, 30 s) from when the seat is first to act; then the
//! clock runs as usual. The game's own clocks (Bataille Navale) keep the rules' timing.

use std::time::Duration;

use plateau_engine::Seat;
use plateau_protocol::server::ClockKind;

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
    /// How long a seat's clock waits for its first move, in ms (0: it runs at once).
    first_move: u64,
    /// Per seat: whether it has acted.
    moved: Vec<bool>,
    /// Per seat that has not acted yet and was to act: the match time until which its clock is
    /// not charged (its first move's free time ends then).
    free_until: Vec<Option<u64>>,
}

/// The clocks as the `state` message shows them (docs/protocol.md section 4.1).
pub use plateau_protocol::server::Clocks as ClockView;

impl Clocks {
    /// Clocks for `seats` seats, none running. A per-move or Fischer clock of a seat starts
    /// with its first move or `first_move` after the seat is first to act, whichever is first.
    #[must_use]
    pub fn new(control: TimeControl, seats: usize, first_move: Duration) -> Clocks {
        let first_move = match control {
            TimeControl::PerMove { .. } | TimeControl::Fischer { .. } => {
                u64::try_from(first_move.as_millis()).unwrap_or(u64::MAX)
            }
            TimeControl::None | TimeControl::Game => 0,
        };
        Clocks {
            control,
            remaining: vec![Self::allowance(control); seats],
            running: vec![false; seats],
            since: 0,
            first_move,
            moved: vec![false; seats],
            free_until: vec![None; seats],
        }
    }

    /// Where seat `i`'s clock is charged from at `now`: `since`, or the end of its first move's
    /// free time.
    fn charged_from(&self, i: usize) -> u64 {
        self.free_until[i].map_or(self.since, |free| free.max(self.since))
    }

    /// Milliseconds seat `i`'s running clock has lost between `since` and `now`.
    fn spent(&self, i: usize, now: u64) -> i64 {
        now.saturating_sub(self.charged_from(i)) as i64
    }

    /// How many seats the clocks are for.
    #[must_use]
    pub fn seats(&self) -> usize {
        self.remaining.len()
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
        for i in 0..self.remaining.len() {
            if self.running[i] {
                self.remaining[i] -= self.spent(i, now);
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
            self.moved[seat.index()] = true;
            self.free_until[seat.index()] = None;
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
            let i = seat.index();
            if let Some(r) = self.running.get_mut(i) {
                *r = true;
                if !self.moved[i] && self.free_until[i].is_none() {
                    self.free_until[i] = Some(now + self.first_move);
                }
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
                let at = self.charged_from(i) as i64 + self.remaining[i].max(0);
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
        let left = (self.remaining[seat.index()] - self.spent(seat.index(), now)).max(0);
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
            TimeControl::None => ClockKind::None,
            TimeControl::PerMove { .. } => ClockKind::PerMove,
            TimeControl::Fischer { .. } => ClockKind::Fischer,
            TimeControl::Game => ClockKind::Game,
        };
        if self.control == TimeControl::None {
            return ClockView {
                kind,
                remaining_ms: None,
                running: None,
                running_seats: Vec::new(),
                first_move_ms: None,
            };
        }
        let seats = 0..self.running.len();
        let remaining = seats
            .clone()
            .map(|i| {
                let left = self.remaining[i];
                (if self.running[i] {
                    left - self.spent(i, now)
                } else {
                    left
                })
                .max(0) as u64
            })
            .collect();
        let waiting: Vec<Option<u64>> = seats
            .clone()
            .map(|i| {
                let free = self.free_until[i].filter(|_| self.running[i])?;
                (free > now).then(|| free - now)
            })
            .collect();
        let on: Vec<u8> = seats
            .filter(|i| self.running[*i] && waiting[*i].is_none())
            .map(|i| i as u8)
            .collect();
        ClockView {
            kind,
            remaining_ms: Some(remaining),
            running: if on.len() == 1 { Some(on[0]) } else { None },
            running_seats: on,
            first_move_ms: Some(waiting),
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
            Duration::ZERO,
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
        let mut per_move = Clocks::new(TimeControl::PerMove { seconds: 60 }, 2, Duration::ZERO);
        per_move.update(0, None, &[Seat(1)], |_| None);
        assert_eq!(
            per_move.think_time(Seat(1), 10_000),
            Some((ms(24_900), ms(49_900)))
        );
        let mut rules = Clocks::new(TimeControl::Game, 4, Duration::ZERO);
        rules.update(0, None, &[Seat(2)], |_| Some(60));
        assert_eq!(rules.think_time(Seat(2), 0), Some((ms(5_900), ms(59_900))));
        // Out of time: nothing left to think with.
        assert_eq!(rules.think_time(Seat(2), 70_000), Some((ms(0), ms(0))));
        let none = Clocks::new(TimeControl::None, 2, Duration::ZERO);
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
            Duration::ZERO,
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
        let mut c = Clocks::new(TimeControl::PerMove { seconds: 30 }, 2, Duration::ZERO);
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
        let mut c = Clocks::new(TimeControl::None, 2, Duration::ZERO);
        c.update(0, None, &[Seat(0)], |_| None);
        assert_eq!(c.deadline(), None);
        assert_eq!(c.view(5).remaining_ms, None);
    }

    #[test]
    fn the_game_clock_runs_for_a_whole_phase_and_restarts_with_the_next_turn() {
        let mut c = Clocks::new(TimeControl::Game, 3, Duration::ZERO);
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
        assert_eq!(c.view(80_000).kind, ClockKind::Game);
    }

    /// A seat's clock is not charged before its first move, for at most the first-move time;
    /// the game's own clocks ignore it.
    #[test]
    fn a_clock_starts_with_the_seats_first_move() {
        let fischer = TimeControl::Fischer {
            base_seconds: 60,
            increment_seconds: 0,
        };
        let mut c = Clocks::new(fischer, 2, Duration::from_secs(30));
        c.update(0, None, &[Seat(0)], |_| None);
        // Red thinks 10 s over its first move: nothing is charged, nothing runs.
        let view = c.view(10_000);
        assert_eq!(view.remaining_ms, Some(vec![60_000, 60_000]));
        assert_eq!(view.running_seats, Vec::<u8>::new());
        assert_eq!(view.first_move_ms, Some(vec![Some(20_000), None]));
        c.update(10_000, Some(Seat(0)), &[Seat(1)], |_| None);
        assert_eq!(c.view(10_000).remaining_ms, Some(vec![60_000, 60_000]));
        // Blue takes 45 s over its first: the last 15 of them count.
        assert_eq!(c.view(40_000).first_move_ms, Some(vec![None, None]));
        assert_eq!(c.view(55_000).remaining_ms, Some(vec![60_000, 45_000]));
        assert_eq!(c.view(55_000).running_seats, vec![1]);
        assert_eq!(c.deadline(), Some((Seat(1), 100_000)));
        c.update(55_000, Some(Seat(1)), &[Seat(0)], |_| None);
        // From then on both clocks run from the first instant of each turn.
        assert_eq!(c.view(56_000).remaining_ms, Some(vec![59_000, 45_000]));
        assert_eq!(c.view(56_000).first_move_ms, Some(vec![None, None]));
        // The game's own clock keeps the rules' timing.
        let mut rules = Clocks::new(TimeControl::Game, 2, Duration::from_secs(30));
        rules.update(0, None, &[Seat(0)], |_| Some(60));
        assert_eq!(rules.view(5_000).remaining_ms, Some(vec![55_000, 0]));
        assert_eq!(rules.view(5_000).running_seats, vec![0]);
    }
}
