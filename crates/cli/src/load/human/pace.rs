//! The human pace's settings, and where its sockets come from and go to.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The client address of source `i` (0-based): 127.0.2.(i + 1).
#[must_use]
pub fn source(i: usize, sources: u8) -> IpAddr {
    let n = usize::from(sources.max(1));
    IpAddr::V4(Ipv4Addr::new(127, 0, 2, (i % n) as u8 + 1))
}

/// The stranger's address of `--strangers`: not a source, so the limits per address apply.
pub(super) const STRANGER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 3, 1));

/// The human pace's settings (`plateau load` flags of the same names).
#[derive(Clone, Debug)]
pub struct Pace {
    /// Live matches held.
    pub matches: usize,
    /// The game (registry name) and its seats.
    pub game: String,
    /// Seats per match.
    pub seats: usize,
    /// Shortest and longest think, seconds (uniform between them).
    pub think: (f64, f64),
    /// Seconds between two `ping` messages of one socket.
    pub ping_every: f64,
    /// Lobby sockets per match (0.25: one for every four matches).
    pub lobby_per_match: f64,
    /// Spectators' sockets per match.
    pub spectators_per_match: f64,
    /// Matches opened per second during the ramp.
    pub ramp_rate: f64,
    /// Client addresses the sockets come from.
    pub sources: u8,
    /// Match creations asked for from a stranger's address before the ramp (the limits per
    /// address refuse most of them).
    pub strangers: usize,
    /// Seconds of the measured window.
    pub seconds: u64,
    /// Seed of the think times and of the actions chosen.
    pub seed: u64,
}

impl Pace {
    /// Lobby sockets in all.
    pub(super) fn lobby_sockets(&self) -> usize {
        (self.matches as f64 * self.lobby_per_match).round() as usize
    }

    /// Spectators of table `k`: spread so that tables `0..=k` have `(k + 1) * ratio` between
    /// them, rounded down.
    pub(super) fn spectators_of(&self, k: usize) -> usize {
        let upto = |n: usize| (n as f64 * self.spectators_per_match).floor() as usize;
        upto(k + 1) - upto(k)
    }

    /// Every socket the load holds once ramped.
    #[must_use]
    pub fn sockets(&self) -> usize {
        let spectators: usize = (0..self.matches).map(|k| self.spectators_of(k)).sum();
        self.matches * self.seats + spectators + self.lobby_sockets()
    }
}

/// A server under the load: where it listens and, if known, its process (for its memory and
/// CPU from `/proc`).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub addr: SocketAddr,
    pub pid: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spectators are spread so that every prefix of tables has its share, and the total
    /// counts every socket.
    #[test]
    fn spectators_and_lobby_sockets_are_in_the_stated_proportions() {
        let pace = Pace {
            matches: 100,
            game: "moonleap".into(),
            seats: 2,
            think: (2.0, 20.0),
            ping_every: 4.0,
            lobby_per_match: 0.25,
            spectators_per_match: 0.1,
            ramp_rate: 100.0,
            sources: 8,
            strangers: 0,
            seconds: 10,
            seed: 1,
        };
        let spectators: usize = (0..100).map(|k| pace.spectators_of(k)).sum();
        assert_eq!(spectators, 10);
        assert_eq!(pace.spectators_of(9), 1);
        assert_eq!(pace.spectators_of(8), 0);
        assert_eq!(pace.sockets(), 200 + 10 + 25);
        assert_eq!(source(0, 8).to_string(), "127.0.2.1");
        assert_eq!(source(9, 8).to_string(), "127.0.2.2");
    }
}
