//! Each connection's place under the front door's caps (`net`): per client network and in all,
//! a newcomer with few taking the place of the longest idle connection of the network with the
//! most, and a trusted proxy's connection moved to the count of the client its requests name.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Instant;

use tokio::sync::Notify;

use crate::limits::Limits;

/// The open connections, per network (`limits::network`) and in all.
#[derive(Default)]
pub(super) struct Counts {
    per_network: HashMap<IpAddr, Vec<Weak<SlotInner>>>,
    total: usize,
}

/// One connection's place under the caps; given back when the last holder drops it. A
/// WebSocket keeps the place of the connection it was upgraded from, marks it active at each
/// message (`touch`), and closes when the place is taken back for a newcomer (`evicted`).
#[derive(Clone)]
pub struct ConnSlot(Arc<SlotInner>);

struct SlotInner {
    counts: Arc<Mutex<Counts>>,
    /// The network it counts for: its client's. Changed (by `ConnSlot::attribute`) and read
    /// only with the counts locked, and locked after them.
    network: Mutex<IpAddr>,
    /// Whether the limits per address apply to the client (not an exempt address, nor a
    /// trusted proxy whose requests have not named a client yet).
    limited: AtomicBool,
    /// Milliseconds from `EPOCH` to the connection's last request or WebSocket message.
    active: AtomicU64,
    /// Turns `true` (with the counts locked) when the place was taken back for a newcomer.
    evict: AtomicBool,
    /// Wakes the connection's waits (`ConnSlot::evicted`) once `evict` is set. A `Notify` and a
    /// flag rather than a `watch` channel: every connection holds one, and a watch's shared part
    /// is several hundred bytes.
    evicted: Notify,
}

impl SlotInner {
    /// Whether the place was taken back for a newcomer.
    fn is_evicted(&self) -> bool {
        self.evict.load(Ordering::Acquire)
    }
}

/// Milliseconds from the instant `SlotInner::active` counts from to `at`.
fn since_epoch(at: Instant) -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    at.saturating_duration_since(*EPOCH.get_or_init(Instant::now))
        .as_millis() as u64
}

impl ConnSlot {
    /// The connection was active now (a request, a WebSocket message): the last to be evicted.
    pub fn touch(&self) {
        self.touch_at(Instant::now());
    }

    /// The connection was active at `at` (a WebSocket message, whose time the socket read).
    pub fn touch_at(&self, at: Instant) {
        self.0.active.store(since_epoch(at), Ordering::Relaxed);
    }

    /// Counts the connection as `client`'s from now on (the client a trusted proxy named in a
    /// request, `proxy`), if `client`'s network is under its cap per address; `false` (and
    /// nothing changed) if it is not. Already `client`'s, or evicted: `true`.
    pub fn attribute(&self, client: IpAddr, limits: &Limits) -> bool {
        let network = crate::limits::network(client);
        let limited = limits.applies_to(client);
        // Declared before the lock's guard, so dropped after it (see `remove_dead`).
        let mut held = Vec::new();
        let mut c = self.0.counts.lock().unwrap_or_else(|e| e.into_inner());
        if self.0.is_evicted() {
            return true;
        }
        let mut current = self.0.network.lock().unwrap_or_else(|e| e.into_inner());
        if *current != network {
            remove_dead(&mut c, network, &mut held);
            let theirs = c.per_network.get(&network).map_or(0, Vec::len);
            if limited && theirs >= limits.connections_per_address {
                return false;
            }
            if let Some(list) = c.per_network.get_mut(&*current) {
                list.retain(|w| !std::ptr::eq(w.as_ptr(), Arc::as_ptr(&self.0)));
                if list.is_empty() {
                    c.per_network.remove(&*current);
                }
            }
            c.per_network
                .entry(network)
                .or_default()
                .push(Arc::downgrade(&self.0));
            *current = network;
        }
        self.0.limited.store(limited, Ordering::Relaxed);
        true
    }

    /// Completes once the place was taken back for a newcomer: the connection must close.
    pub async fn evicted(&self) {
        let woken = self.0.evicted.notified();
        let mut woken = std::pin::pin!(woken);
        // Waiting before the flag is read: an eviction after the read wakes this wait.
        woken.as_mut().enable();
        if !self.0.is_evicted() {
            woken.await;
        }
    }
}

/// Completes once `slot`'s place was taken back; never without a slot.
pub async fn evicted(slot: Option<&ConnSlot>) {
    match slot {
        Some(s) => s.evicted().await,
        None => std::future::pending().await,
    }
}

impl Drop for SlotInner {
    fn drop(&mut self) {
        if self.is_evicted() {
            // Already taken out of the counts when it was evicted.
            return;
        }
        let mut held = Vec::new();
        {
            let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            c.total -= 1;
            let network = *self.network.lock().unwrap_or_else(|e| e.into_inner());
            remove_dead(&mut c, network, &mut held);
        }
        // Dropped once the counts are unlocked: one may be another slot's last reference.
        drop(held);
    }
}

/// Drops the entries of `network` whose connection is gone (or evicted), and the network once
/// it has none. Each slot looked at is kept in `held`, for the caller to drop after it unlocks
/// the counts: a connection may end meanwhile on another thread, and the reference taken here
/// be its last, whose drop locks the counts again (a lock held here would never be given).
fn remove_dead(c: &mut Counts, network: IpAddr, held: &mut Vec<Arc<SlotInner>>) {
    if let Some(list) = c.per_network.get_mut(&network) {
        list.retain(|w| match w.upgrade() {
            Some(s) => {
                let live = !s.is_evicted();
                held.push(s);
                live
            }
            None => false,
        });
        if list.is_empty() {
            c.per_network.remove(&network);
        }
    }
}

/// Admits a connection from `addr`, or refuses it (`None`). Past the cap per address (its
/// network: an IPv6 /64), refused. Under the cap in all, admitted. At the cap in all, a
/// newcomer whose network holds `k` connections takes the place of the longest idle connection
/// of the network that holds the most, if that network holds `k + 2` or more (so an eviction
/// always makes the shares more even): a crowd that holds every connection it may cannot keep
/// a client with few out, and never evicts a client with fewer than it.
///
/// A trusted proxy's connection is admitted under the cap in all only: its requests name the
/// client it counts for (`ConnSlot::attribute`).
pub(super) fn take_slot(
    counts: &Arc<Mutex<Counts>>,
    addr: IpAddr,
    limits: &Limits,
) -> Option<ConnSlot> {
    let network = crate::limits::network(addr);
    let limited = limits.applies_to(addr) && !limits.proxies.trusts(addr);
    // Declared before the lock's guard, so dropped after it (see `remove_dead`).
    let mut held = Vec::new();
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    remove_dead(&mut c, network, &mut held);
    let mine = c.per_network.get(&network).map_or(0, Vec::len);
    if limited && mine >= limits.connections_per_address {
        return None;
    }
    if c.total >= limits.connections {
        let candidates: Vec<Arc<SlotInner>> = c
            .per_network
            .iter()
            .filter(|(n, list)| **n != network && list.len() >= mine + 2)
            .max_by_key(|(_, list)| list.len())
            .map(|(_, list)| list.iter().filter_map(Weak::upgrade).collect())
            .unwrap_or_default();
        let victim = candidates
            .iter()
            .filter(|s| s.limited.load(Ordering::Relaxed) && !s.is_evicted())
            .min_by_key(|s| s.active.load(Ordering::Relaxed))
            .cloned();
        held.extend(candidates);
        let victim = victim?;
        victim.evict.store(true, Ordering::Release);
        victim.evicted.notify_waiters();
        c.total -= 1;
        let victim_network = *victim.network.lock().unwrap_or_else(|e| e.into_inner());
        remove_dead(&mut c, victim_network, &mut held);
        tracing::debug!(network = %victim_network, "connection evicted for a newcomer");
    }
    c.total += 1;
    let slot = Arc::new(SlotInner {
        counts: counts.clone(),
        network: Mutex::new(network),
        limited: AtomicBool::new(limited),
        active: AtomicU64::new(since_epoch(Instant::now())),
        evict: AtomicBool::new(false),
        evicted: Notify::new(),
    });
    c.per_network
        .entry(network)
        .or_default()
        .push(Arc::downgrade(&slot));
    Some(ConnSlot(slot))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::time::Duration;

    /// Limits of `per_address` connections an address and `all` in all, the rest the defaults.
    pub(in crate::net) fn limits(per_address: usize, all: usize) -> Limits {
        Limits {
            connections_per_address: per_address,
            connections: all,
            ..Limits::default()
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// An IPv6 /64 is one address for the cap per address.
    #[tokio::test]
    async fn a_64_is_one_address() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = limits(2, 100);
        let a = take_slot(&counts, ip("2001:db8::1"), &l).unwrap();
        let b = take_slot(&counts, ip("2001:db8::ffff:2"), &l).unwrap();
        assert!(take_slot(&counts, ip("2001:db8::3"), &l).is_none());
        assert!(take_slot(&counts, ip("2001:db8:0:1::1"), &l).is_some());
        drop(a);
        assert!(take_slot(&counts, ip("2001:db8::3"), &l).is_some());
        drop(b);
    }

    /// A trusted proxy's connections count toward the cap per address of the clients their
    /// requests name, and toward no cap of the proxy's own until then.
    #[tokio::test]
    async fn a_proxy_s_connections_count_for_their_clients() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = Limits {
            proxies: crate::proxy::TrustedProxies {
                networks: vec!["10.0.0.1/32".parse().unwrap()],
                ..Default::default()
            },
            ..limits(2, 100)
        };
        let through: Vec<ConnSlot> = (0..5)
            .map(|_| take_slot(&counts, ip("10.0.0.1"), &l).expect("not capped per address"))
            .collect();
        assert!(through[0].attribute(ip("192.0.2.1"), &l));
        assert!(through[0].attribute(ip("192.0.2.1"), &l), "already its");
        assert!(through[1].attribute(ip("192.0.2.1"), &l));
        assert!(
            !through[2].attribute(ip("192.0.2.1"), &l),
            "over the client's cap"
        );
        assert!(through[2].attribute(ip("192.0.2.2"), &l), "another client");
        // A client that comes directly shares its cap with its connections through the proxy.
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_none());
        // A connection moved to another client frees its place.
        assert!(through[1].attribute(ip("192.0.2.3"), &l));
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_some());
        let c = counts.lock().unwrap();
        assert_eq!(c.total, 5);
        assert_eq!(c.per_network[&ip("10.0.0.1")].len(), 2);
        drop(c);
        drop(through);
        assert_eq!(counts.lock().unwrap().total, 0);
    }

    /// At the cap in all, a newcomer with few evicts the longest idle connection of the network
    /// with the most, and only when that makes the shares more even.
    #[tokio::test]
    async fn a_newcomer_with_few_takes_the_longest_idle_place_of_the_most() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let l = limits(10, 5);
        let crowd: Vec<ConnSlot> = (0..4)
            .map(|_| take_slot(&counts, ip("192.0.2.1"), &l).unwrap())
            .collect();
        let other = take_slot(&counts, ip("192.0.2.2"), &l).unwrap();
        // The crowd's first three were active later than its fourth: the fourth is evicted.
        std::thread::sleep(Duration::from_millis(5));
        for s in &crowd[..3] {
            s.touch();
        }
        let honest = take_slot(&counts, ip("192.0.2.3"), &l).expect("evicts one");
        assert!(crowd[3].0.is_evicted());
        assert!(crowd[..3].iter().all(|s| !s.0.is_evicted()));
        assert!(!other.0.is_evicted());
        // The crowd (3 now) may not evict anyone: nobody holds 5.
        assert!(take_slot(&counts, ip("192.0.2.1"), &l).is_none());
        // The honest one (1) may evict from the crowd (3 >= 1 + 2)...
        let again = take_slot(&counts, ip("192.0.2.3"), &l).expect("evicts one");
        assert_eq!(crowd.iter().filter(|s| s.0.is_evicted()).count(), 2);
        // ...but the other one (1) may not from the crowd or the honest one (2 each).
        assert!(take_slot(&counts, ip("192.0.2.2"), &l).is_none());
        drop((crowd, other, honest, again));
        assert_eq!(counts.lock().unwrap().total, 0);
    }
}
