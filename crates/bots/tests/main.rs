//! The bots' integration tests, one executable: each file of this folder is a module of it. Each
//! test executable compiled the games' and the bots' generic code again and linked again: one
//! executable does so once (docs/performance.md section 7).

mod analysis;
mod no_peeking;
mod strength;
