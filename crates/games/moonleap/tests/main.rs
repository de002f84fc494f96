//! Moon Leap's integration tests, one executable: each file of this folder is a module of it.
//! The package is built at opt-level 3 (Cargo.toml's profile), and each test executable compiled
//! the conformance kit and the rules' generic code again at that level: one executable compiles
//! them once and links once (docs/performance.md section 7).

mod common;
mod compare;
mod reference;

mod boards;
mod length;
mod notation;
mod perft;
mod playouts;
mod properties;
mod resign;
mod rules_cases;
mod timeout;
