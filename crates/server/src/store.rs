//! The storage layer, the crate `plateau-store` (crates/store), under the name the server's
//! modules and its users have always given it (`store::sqlite`, `store::postgres`, ...).

pub use plateau_store::*;
