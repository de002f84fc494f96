//! Every resource a stranger can make the server hold has a limit here, a coded refusal where it
//! is met, and, for what lasts, an expiry (docs/protocol.md section 6). The defaults are what a
//! public server runs with; `plateau serve` has a flag for each.

use std::time::Duration;

/// The service's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open connections (WebSockets included) from one address.
    pub connections_per_address: usize,
    /// Open connections in all.
    pub connections: usize,
    /// Time a connection has to send the complete headers of a request, also while it idles
    /// between requests.
    pub header_timeout: Duration,
    /// A WebSocket silent for this long is closed (the pages ping every 20 seconds).
    pub socket_idle: Duration,
    /// Messages a WebSocket may send per second, after a burst of `message_burst`.
    pub messages_per_second: f64,
    /// See `messages_per_second`.
    pub message_burst: f64,
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
        }
    }
}
