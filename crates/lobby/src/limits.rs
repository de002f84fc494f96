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
    /// A WebSocket silent for this long is closed. The pages send a `ping` every 4 seconds
    /// (`PING_EVERY_MS` in web/js/socket.js), so a page's socket is closed only after 15 pings
    /// in a row are lost.
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
    /// Unfinished matches of people and bots one address may have made (rematches included):
    /// each keeps bots thinking on the shared bot threads.
    pub bot_tables: usize,
    /// Guests (new players) one address may make per minute.
    pub guests_per_minute: usize,
    /// Sign-in attempts per minute from one address, and for one name.
    pub sign_ins_per_minute: usize,
    /// Downloads of a player's data (`GET /api/me/data`, a read of every game it played) one
    /// player may ask for within `data_window`, and as many from one address.
    pub data_downloads: usize,
    /// The window of `data_downloads`: an hour (tests shorten it; at most `LONGEST_WINDOW`).
    pub data_window: Duration,
    /// Password hashes (sign-ins, new accounts) computed at once, each with 19 MiB of working
    /// memory (`passwords`).
    pub password_hashes: usize,
    /// Password hashes that may wait for a thread; past them `limit/busy`.
    pub hashes_waiting: usize,
    /// A quick-pairing match whose players have not all opened it after this long is called
    /// off, and counts for nothing.
    pub no_show: Duration,
    /// A player who did not come to a paired match may seek again after this long.
    pub no_show_wait: Duration,
    /// A challenge to a named player nobody answered is withdrawn after this long
    /// (`challenges`).
    pub challenge_life: Duration,
    /// Tournaments one player may create in a day (`tournaments`).
    pub tournaments_per_day: u32,
    /// Tournaments live (waiting or running) on the server at once.
    pub live_tournaments: usize,
    /// Players one tournament may hold.
    pub tournament_players: usize,
    /// How long a tournament's minute lasts: a minute, but tests shorten it so that an arena
    /// of a minute runs in seconds.
    pub tournament_minute: Duration,
    /// Threads bots think on, whatever the number of matches (`botpool`).
    pub bot_threads: usize,
    /// Addresses the limits per address do not apply to: a load generator, or the other nodes
    /// of the database (they forward their clients' addresses, `cluster`).
    pub exempt: Vec<IpAddr>,
    /// The reverse proxies whose forwarding header names the client (`proxy`): every limit
    /// per address applies to that client.
    pub proxies: crate::proxy::TrustedProxies,
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
            bot_tables: 8,
            guests_per_minute: 20,
            sign_ins_per_minute: 10,
            data_downloads: 10,
            data_window: LONGEST_WINDOW,
            // All cores but one (the service keeps one for people), at most three: 57 MiB.
            password_hashes: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .clamp(1, 3),
            hashes_waiting: 16,
            no_show: Duration::from_secs(30),
            no_show_wait: Duration::from_secs(120),
            challenge_life: Duration::from_secs(300),
            tournaments_per_day: 5,
            live_tournaments: 200,
            tournament_players: 500,
            tournament_minute: Duration::from_secs(60),
            // All cores but one, so the service always has one for people.
            bot_threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1),
            exempt: Vec::new(),
            proxies: crate::proxy::TrustedProxies::default(),
        }
    }
}

/// The network a client address stands for in every limit per address: an IPv4 address itself,
/// an IPv6 address's /64 (one subscriber's share, which holds addresses by the billion), an
/// IPv4 address written as IPv6 (`::ffff:a.b.c.d`) its IPv4 address.
#[must_use]
pub fn network(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !((1u128 << 64) - 1),
            )),
        },
    }
}

/// How the store knows a client address without keeping it: the first 16 hex digits of the
/// SHA-256 of its network (`network`; enough to count one network's matches, not to read the
/// address back).
#[must_use]
pub fn address_key(addr: IpAddr) -> String {
    hex::encode(&Sha256::digest(network(addr).to_string().as_bytes())[..8])
}

/// One minute, the window of the limits "per minute".
pub const MINUTE: Duration = Duration::from_secs(60);

/// The longest window an event is kept for (`Recent::count` looks at most this far back).
pub const LONGEST_WINDOW: Duration = Duration::from_secs(3600);

/// Counts events per key within a sliding window (at most `LONGEST_WINDOW`), for the limits per
/// address, name or player.
///
/// A hand-written window rather than a rate limiter crate's token bucket: these limits count
/// what was done (a refused creation is taken back, `forget`) or what failed (a sign-in
/// failure, counted once its answer is known), and a bucket takes its token when asked.
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
        self.record_within(keys, max, MINUTE, code, message)
    }

    /// `record` over the last `window` (at most `LONGEST_WINDOW`).
    ///
    /// # Errors
    /// `code` when a key is over `max`.
    pub fn record_within(
        &self,
        keys: &[String],
        max: usize,
        window: Duration,
        code: Code,
        message: &str,
    ) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut events = self.pruned(now);
        if keys.iter().any(|k| within(&events, k, window, now) >= max) {
            return Err(ApiError::new(code, message));
        }
        for k in keys {
            events.entry(k.clone()).or_default().push_back(now);
        }
        Ok(())
    }

    /// Records an event for `key` whatever the count.
    pub fn note(&self, key: &str) {
        let now = Instant::now();
        self.pruned(now)
            .entry(key.to_owned())
            .or_default()
            .push_back(now);
    }

    /// The events of `key` in the last `window` (at most `LONGEST_WINDOW`).
    #[must_use]
    pub fn count(&self, key: &str, window: Duration) -> usize {
        let now = Instant::now();
        within(&self.pruned(now), key, window, now)
    }

    /// Takes back the latest event of `key`: what it counted was refused after all, and a refused
    /// request changes nothing (docs/protocol.md section 6 counts what was done).
    pub fn forget(&self, key: &str) {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = events.get_mut(key) {
            t.pop_back();
        }
    }

    /// The events, without those older than `LONGEST_WINDOW` (and keys left with none).
    fn pruned(
        &self,
        now: Instant,
    ) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<Instant>>> {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events.retain(|_, t| {
            while t
                .front()
                .is_some_and(|at| now.duration_since(*at) >= LONGEST_WINDOW)
            {
                t.pop_front();
            }
            !t.is_empty()
        });
        events
    }
}

/// The events of `key` less than `window` old.
fn within(
    events: &HashMap<String, VecDeque<Instant>>,
    key: &str,
    window: Duration,
    now: Instant,
) -> usize {
    events.get(key).map_or(0, |t| {
        t.iter()
            .rev()
            .take_while(|at| now.duration_since(**at) < window)
            .count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_64_is_one_network_and_ipv4_stays_itself() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(network(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(network(ip("2001:db8:1:2:ffff:1:2:3")), ip("2001:db8:1:2::"));
        assert_ne!(
            network(ip("2001:db8:1:3::1")),
            network(ip("2001:db8:1:2::1"))
        );
        assert_eq!(network(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(network(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(
            address_key(ip("2001:db8::1")),
            address_key(ip("2001:db8::ffff:2"))
        );
        assert_ne!(address_key(ip("192.0.2.7")), address_key(ip("192.0.2.8")));
    }

    #[test]
    fn windows_count_what_they_hold() {
        let recent = PerMinute::default();
        let keys = ["a".to_owned()];
        for _ in 0..3 {
            recent
                .record(&keys, 3, Code::LimitMatches, "too many")
                .unwrap();
        }
        let refused = recent.record(&keys, 3, Code::LimitMatches, "too many");
        assert_eq!(refused.unwrap_err().code, Code::LimitMatches);
        recent.forget("a");
        assert_eq!(recent.count("a", MINUTE), 2);
        recent.note("b");
        assert_eq!(recent.count("b", LONGEST_WINDOW), 1);
        assert_eq!(recent.count("b", Duration::ZERO), 0);
        assert_eq!(recent.count("c", MINUTE), 0);
    }
}
