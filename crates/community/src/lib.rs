//! Plateau's community features (docs/architecture.md section 5), over the live service's core
//! (`plateau-lobby`) and under its HTTP routes (`plateau-server`): what players do together
//! besides playing one match.
//!
//! The pieces (docs/architecture.md section 5.4 has who imports whom):
//! - `tournaments`: the tournaments the service runs (docs/tournaments.md; the rules are the
//!   crate `plateau-tournament`'s), created, joined, run and followed live;
//! - `challenges`: challenges to a named player, accepted into a match;
//! - `friends`: the follow lists of the players with a lobby socket open, and who of them is
//!   online and playing;
//! - `moderation`: moderator actions checked, written with their audit entry and applied, and
//!   the task that applies them on each node (docs/protocol.md section 7.11).

pub mod challenges;
pub mod friends;
pub mod moderation;
pub mod tournaments;
