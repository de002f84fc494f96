//! Seat tokens: random secrets a seat's holder proves itself with, of which the store keeps
//! only the SHA-256 (docs/protocol.md section 7.2); session ids are made the same way.

use sha2::{Digest, Sha256};

/// A fresh seat token (64 hex digits) and its stored hash.
pub(crate) fn new_token() -> (String, String) {
    let token = hex::encode(rand::random::<[u8; 32]>());
    let hash = token_hash(&token);
    (token, hash)
}

/// SHA-256 of the token text, as stored.
pub(crate) fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}
