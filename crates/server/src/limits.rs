//! Every resource a stranger can make the server hold has a limit here, a coded refusal where it
//! is met, and, for what lasts, an expiry (docs/protocol.md section 6). The defaults are what a
//! public server runs with; `plateau serve` has a flag for each.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::model::{ApiError, Code};

/// The service's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections (WebSockets included) from one address.
    pub connections_per_address: usize,
    /// Open connections in all.
    pub connections: usize,
    /// Time a connection has to send the complete headers of a request, also while it idles
    /// between requests; then as long again for the request's body.
    pub header_timeout: Duration,
    /// A WebSocket silent for this long is closed (the pages ping every 20 seconds).
    pub socket_idle: Duration,
    /// Messages a WebSocket may send per second, after a burst of `message_burst`.
    pub messages_per_second: f64,
    /// See `messages_per_second`.
    pub message_burst: f64,
    /// An open match nobody started within this time is removed.
    pub open_expiry: Duration,
    /// A match nobody watches and in which nothing runs by itself (finished, open, or a
    /// correspondence match waiting for a person) leaves memory after this time; it is rebuilt
    /// from the store when asked for. A finished one with no offer pending leaves after 5 s if
    /// that is sooner.
    pub idle_unload: Duration,
    /// Matches one address may create per minute.
    pub matches_per_minute: usize,
    /// Open matches (not started yet) one address may hold.
    pub open_matches: usize,
    /// Live matches of bots alone one address may have started.
    pub bot_matches: usize,
    /// Guests (new players) one address may make per minute.
    pub guests_per_minute: usize,
    /// Sign-in attempts per minute from one address, and for one name.
    pub sign_ins_per_minute: usize,
    /// Threads bots think on, whatever the number of matches (`botpool`).
    pub bot_threads: usize,
    /// Addresses the limits per address do not apply to: a load generator, or a reverse proxy
    /// that all clients come through (then its own limits must hold).
    pub exempt: Vec<IpAddr>,
}

impl Limits {
    /// Whether the limits per address apply to `addr`.
    #[must_use]
    pub fn applies_to(&self, addr: IpAddr) -> bool {
        !self.exempt.contains(&addr)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 64,
            connections: 4000,
            header_timeout: Duration::from_secs(10),
            socket_idle: Duration::from_secs(60),
            messages_per_second: 10.0,
            message_burst: 40.0,
            open_expiry: Duration::from_secs(2 * 3600),
            idle_unload: Duration::from_secs(60),
            matches_per_minute: 20,
            open_matches: 10,
            bot_matches: 2,
            guests_per_minute: 20,
            sign_ins_per_minute: 10,
            // All cores but one, so the service always has one for people.
            bot_threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1),
            exempt: Vec::new(),
        }
    }
}

/// How the store knows a client address without keeping it: the first 16 hex digits of its
/// SHA-256 (enough to count one address's matches, not to read the address back).
#[must_use]
pub fn address_key(addr: IpAddr) -> String {
    hex::encode(&Sha256::digest(addr.to_string().as_bytes())[..8])
}

/// Counts events per key within the last minute (a sliding window), for the per-minute limits.
#[derive(Default)]
pub struct PerMinute {
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl PerMinute {
    /// Records an event for every key in `keys`, unless one of them already had `max` in the
    /// last minute: then nothing is recorded and the answer is `code` with `message`.
    ///
    /// # Errors
    /// `code` when a key is over `max`.
    pub fn record(
        &self,
        keys: &[String],
        max: usize,
        code: Code,
        message: &str,
    ) -> Result<(), ApiError> {
        let now = Instant::now();
        let window = Duration::from_secs(60);
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events.retain(|_, t| {
            while t
                .front()
                .is_some_and(|at| now.duration_since(*at) >= window)
            {
                t.pop_front();
            }
            !t.is_empty()
        });
        if keys
            .iter()
            .any(|k| events.get(k).is_some_and(|t| t.len() >= max))
        {
            return Err(ApiError::new(code, message));
        }
        for k in keys {
            events.entry(k.clone()).or_default().push_back(now);
        }
        Ok(())
    }

    /// Takes back the latest event of `key`: what it counted was refused after all, and a refused
    /// request changes nothing (docs/protocol.md section 6 counts what was done).
    pub fn forget(&self, key: &str) {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = events.get_mut(key) {
            t.pop_back();
        }
    }
}
