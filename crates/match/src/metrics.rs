//! What the matches record for the operator's figures, through the `metrics` crate's facade
//! (the server installs the Prometheus recorder and serves them: its `metrics` module,
//! docs/deploy.md "Metrics"). Without a recorder every record does nothing.
//!
//! A decision's figures go through handles registered once, at the service's start
//! (`Metrics::registered`): each record is then an atomic add, or a histogram sample pushed
//! into the recorder's lock-free buckets, with no lookup by name.

use plateau_protocol::Code;

/// Decisions committed: commits of a seat's actions (a person's whole turn, a bot's move, a
/// resignation), each with the chance draws after it.
pub const DECISIONS: &str = "plateau_decisions_committed_total";
/// Seconds each commit to the store took (every commit: decisions, clocks, endings).
pub const COMMIT_SECONDS: &str = "plateau_commit_seconds";
/// Seconds from a person's action reaching its match to its acknowledgement (the answer once
/// committed, or the refusal): the match's queue, the checks and the commit.
pub const ACK_SECONDS: &str = "plateau_ack_seconds";
/// Coded errors answered (HTTP, WebSocket), by `code`.
pub const ERRORS: &str = "plateau_errors_total";
/// The errors of `ERRORS` that are a limit met (`limit/...`), by `limit` (its second part).
pub const LIMIT_REFUSALS: &str = "plateau_limit_refusals_total";
/// Matches created on this node: asked for (`POST /api/matches`), paired, challenges accepted,
/// rematches, tournament pairings (counted by the server's lobby, named here beside the other
/// names so that the lobby and the exporter both read them from below).
pub const MATCHES_CREATED: &str = "plateau_matches_created_total";

/// The handles a match records its decisions with.
#[derive(Clone)]
pub struct Metrics {
    /// `DECISIONS`.
    pub decisions: metrics::Counter,
    /// `COMMIT_SECONDS`.
    pub commit: metrics::Histogram,
    /// `ACK_SECONDS`.
    pub acknowledgement: metrics::Histogram,
}

impl Metrics {
    /// Handles registered with the recorder installed now (none yet: they record nothing, and
    /// stay so).
    #[must_use]
    pub fn registered() -> Metrics {
        Metrics {
            decisions: metrics::counter!(DECISIONS),
            commit: metrics::histogram!(COMMIT_SECONDS),
            acknowledgement: metrics::histogram!(ACK_SECONDS),
        }
    }
}

/// Counts an error answered with `code`, and a limit's refusal by its kind.
pub fn error_sent(code: Code) {
    let code = code.as_str();
    metrics::counter!(ERRORS, "code" => code).increment(1);
    if let Some(limit) = code.strip_prefix("limit/") {
        metrics::counter!(LIMIT_REFUSALS, "limit" => limit).increment(1);
    }
}
