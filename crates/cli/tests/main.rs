//! The command line's integration tests, one executable: each file of this folder is a module of
//! it. Each test executable compiled the client code they share (tokio, WebSocket, JSON) again
//! and linked again: one executable does so once (docs/performance.md section 7). The nemesis
//! and the PostgreSQL runs of the crash tests are selected by their modules' names
//! (`nemesis::`, `serve_crash::`).

mod common;

mod admin;
mod arena;
mod cli;
mod config;
mod load_metrics;
mod nemesis;
mod restore;
mod serve_crash;
mod serve_logs;
