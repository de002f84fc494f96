//! What the service records of its sockets for the operator's figures, through the `metrics`
//! crate's facade (the server installs the Prometheus recorder and serves the figures: its
//! `metrics` module, docs/deploy.md "Metrics"). Without a recorder every record does nothing.

/// Sockets open, by `kind`: `match` or `lobby`.
pub const SOCKETS: &str = "plateau_sockets_open";

/// One socket open, of `kind` (`SOCKETS`), while it lives.
pub struct SocketOpen(metrics::Gauge);

impl SocketOpen {
    /// A match socket opened.
    pub fn match_socket() -> SocketOpen {
        SocketOpen::new(metrics::gauge!(SOCKETS, "kind" => "match"))
    }

    /// A lobby socket opened.
    pub fn lobby_socket() -> SocketOpen {
        SocketOpen::new(metrics::gauge!(SOCKETS, "kind" => "lobby"))
    }

    fn new(gauge: metrics::Gauge) -> SocketOpen {
        gauge.increment(1.0);
        SocketOpen(gauge)
    }
}

impl Drop for SocketOpen {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}
