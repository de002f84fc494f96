//! rules/moonleap.md (in progress).
