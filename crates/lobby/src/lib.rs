//! The live match service's core (docs/architecture.md section 5): the lobby and the sockets
//! that reach it, without routes. One match (its actor, clocks, bots, views, replays) is the
//! crate `plateau-match`, quick pairing the crate `plateau-pairing`; the community features
//! (tournaments, challenges, friends, moderation) are `plateau-community`, above this crate, and
//! the HTTP routes `plateau-server`, above both.
//!
//! The pieces, top-down (docs/architecture.md section 5.4 has who imports whom):
//! - `cluster`: requests and sockets forwarded to the node that drives a match;
//! - `ws`: one match's WebSocket, and what every socket keeps to; `pairing`: the lobby as quick
//!   pairing's host;
//! - `lobby`: the match registry, creating, rematches, leases, expiry, start and shutdown;
//! - `presence`, `options`, `model`, `players`: who is here (the match actors report to it);
//!   the settings; the shapes and `HttpError`; players' names and sessions;
//! - `limits`, `net`, `passwords`: what a crowd of strangers may make the server hold; `proxy`:
//!   who the client is behind trusted reverse proxies; `metrics`: the sockets open, as the
//!   operator's figures count them;
//! - `sanctions`: the mutes and bans in force (docs/protocol.md section 7.11).

pub mod cluster;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod model;
pub mod net;
pub mod options;
mod pairing;
pub mod passwords;
pub mod players;
pub mod presence;
pub mod proxy;
pub mod sanctions;
pub mod ws;

pub use lobby::Lobby;
pub use options::Options;
