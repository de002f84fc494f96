//! The tournament's integration tests, one executable: each file of this folder is a module of
//! it. Each test executable compiled and linked the crate's generic code and the property tests'
//! library again: one executable does so once (docs/performance.md section 7).

mod common;

mod arena;
mod props;
mod stored;
mod swiss;
mod tables;
