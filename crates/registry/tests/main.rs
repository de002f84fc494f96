//! The registry's integration tests, one executable: each file of this folder is a module of it.
//! Each test executable compiled the four games' and the bots' generic code again and linked
//! again: one executable does so once (docs/performance.md section 7).

mod action_info;
mod bots;
mod configs;
mod hostile_positions;
mod levels;
mod replay;
