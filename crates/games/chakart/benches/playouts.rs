//! Random playouts from random initial positions (option 2): plies per second, single thread.
fn main() {}
