//! What a human-pace load counts as it runs, and what one run measured.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

use crate::load::counters::{record, tally};

/// The counts of one human-pace load, kept by every task.
#[derive(Default)]
pub struct Counts {
    /// Actions acknowledged since the start, and within the window.
    pub(super) acked: AtomicU64,
    pub(super) acked_in_window: AtomicU64,
    /// Actions sent and not acknowledged or refused yet.
    pub(super) in_flight: AtomicI64,
    /// Matches being opened: created, and not every socket has had its first message yet.
    pub(super) opening: AtomicI64,
    /// Acknowledgement times in the window, µs.
    pub(super) latencies: Mutex<Vec<u64>>,
    /// Matches the server created for the load (201), the stranger's included.
    pub(super) created: AtomicU64,
    /// Matches played to their end.
    pub(super) finished: AtomicU64,
    /// Tables with every socket open and their match live.
    pub(super) live: AtomicI64,
    /// Sockets open that have had their first message: seats and spectators, lobby.
    pub(super) match_sockets: AtomicI64,
    pub(super) lobby_sockets: AtomicI64,
    /// Coded errors the server answered (HTTP and WebSocket), by code.
    pub(super) coded: Mutex<BTreeMap<String, u64>>,
    /// Failures without a code: connections refused or lost, unreadable answers.
    pub(super) failures: Mutex<BTreeMap<String, u64>>,
    /// Whether the window is open.
    pub(super) measuring: AtomicBool,
}

impl Counts {
    pub(super) fn coded(&self, code: &str) {
        tally(&self.coded, code);
    }

    pub(super) fn failed(&self, why: &str) {
        tally(&self.failures, why);
    }

    pub(super) fn acked(&self, micros: u64) {
        self.acked.fetch_add(1, Ordering::Relaxed);
        if self.measuring.load(Ordering::Relaxed) {
            self.acked_in_window.fetch_add(1, Ordering::Relaxed);
            record(&self.latencies, micros);
        }
    }

    /// The coded errors by code.
    #[must_use]
    pub fn coded_errors(&self) -> BTreeMap<String, u64> {
        self.coded.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Actions acknowledged since the start.
    #[must_use]
    pub fn acked_total(&self) -> u64 {
        self.acked.load(Ordering::Relaxed)
    }

    /// Matches created for the load (201 answers).
    #[must_use]
    pub fn created(&self) -> u64 {
        self.created.load(Ordering::Relaxed)
    }

    /// Sockets open now: match (seats and spectators), lobby.
    #[must_use]
    pub fn sockets(&self) -> (i64, i64) {
        (
            self.match_sockets.load(Ordering::Relaxed),
            self.lobby_sockets.load(Ordering::Relaxed),
        )
    }
}

/// What one run measured.
pub struct Measured {
    /// Tables live and sockets held at the window's end (client's view).
    pub live: i64,
    pub sockets: i64,
    /// Decisions acknowledged in the window, and the window's length, s.
    pub decisions: u64,
    pub window: f64,
    /// Acknowledgement times of the window, sorted, µs.
    pub latencies: Vec<u64>,
    /// Errors of the whole run: coded, and failures without a code.
    pub coded: BTreeMap<String, u64>,
    pub failures: BTreeMap<String, u64>,
    pub finished: u64,
    /// Server RSS before the ramp and at the window's end, KiB; its CPU in the window, s.
    pub rss_idle: Option<u64>,
    pub rss_loaded: Option<u64>,
    pub cpu: Option<f64>,
    /// Seconds the ramp took.
    pub ramp: f64,
}
