//! rules/chakart.md (in progress).
