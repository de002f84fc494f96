//! (in progress).
