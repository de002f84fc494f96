//! MAD's integration tests, one executable: each file of this folder is a module of it. Each
//! test executable compiled the conformance kit and the rules' generic code again and linked
//! again: one executable does so once (docs/performance.md section 7).

mod brute;
mod common;

mod notation;
mod perft;
mod playouts;
mod playthrough;
mod properties;
mod rules;
