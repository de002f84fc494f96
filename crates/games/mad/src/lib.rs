//! rules/mad.md (in progress).
