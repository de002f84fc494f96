//! The closed loop's counters, which every table reports to; what both paces count with (a
//! count by kind, a list of times, their quantiles).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::client;

/// The counters of a run, shared by every table's task.
#[derive(Default)]
pub struct Counters {
    pub(super) acked: AtomicU64,
    pub(super) failed: AtomicU64,
    pub(super) finished: AtomicU64,
    pub(super) latencies: Mutex<Vec<u64>>,
    /// From an action sent to every other seat having had a state, µs.
    pub(super) seen: Mutex<Vec<u64>>,
    pub(super) failures: Mutex<BTreeMap<String, u64>>,
    /// Whether the window is open (latencies before it are the ramp's).
    pub(super) measuring: std::sync::atomic::AtomicBool,
}

impl client::Report for Counters {
    fn acked(&self, micros: u64) {
        if self.measuring.load(Ordering::Relaxed) {
            self.acked.fetch_add(1, Ordering::Relaxed);
            record(&self.latencies, micros);
        }
    }

    fn seen(&self, micros: u64) {
        if self.measuring.load(Ordering::Relaxed) {
            record(&self.seen, micros);
        }
    }

    fn failed(&self, why: &str) {
        if self.measuring.load(Ordering::Relaxed) {
            self.failed.fetch_add(1, Ordering::Relaxed);
            tally(&self.failures, why);
        }
    }

    fn finished(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}

/// One more of `kind` in `counts` (a lock a panicked task poisoned still counts).
pub(super) fn tally(counts: &Mutex<BTreeMap<String, u64>>, kind: &str) {
    *counts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(kind.to_owned())
        .or_default() += 1;
}

/// `micros` added to the times `times`.
pub(super) fn record(times: &Mutex<Vec<u64>>, micros: u64) {
    times.lock().unwrap_or_else(|e| e.into_inner()).push(micros);
}

/// A copy of `times`, sorted (for `quantile_ms`).
pub(super) fn sorted(times: &Mutex<Vec<u64>>) -> Vec<u64> {
    let mut v = times.lock().unwrap_or_else(|e| e.into_inner()).clone();
    v.sort_unstable();
    v
}

/// The `q` quantile (0 to 1) of sorted `v`, in milliseconds.
pub(super) fn quantile_ms(v: &[u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    v[i] as f64 / 1000.0
}
