//! rules/naval.md (in progress).
