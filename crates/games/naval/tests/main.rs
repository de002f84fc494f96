//! Bataille Navale's integration tests, one executable: each file of this folder is a module of
//! it. Each test executable compiled the conformance kit and the rules' generic code again and
//! linked again: one executable does so once (docs/performance.md section 7).

mod common;

mod bad_orders;
mod determinize;
mod edge_cases;
mod options;
mod playouts;
mod properties;
mod secrecy;
