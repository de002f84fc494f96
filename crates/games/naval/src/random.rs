//! Uniform random actions without building the legal list, for fast playouts (the benchmark).
