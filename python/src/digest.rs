//! The digests that the package's tests compare with the OpenSpiel bridge's.

use sha2::{Digest, Sha256};

/// The digest of action ids: of each as 4 bytes little-endian, in order.
pub(crate) fn ids_digest(ids: &[u32]) -> u64 {
    let bytes: Vec<u8> = ids.iter().flat_map(|id| id.to_le_bytes()).collect();
    digest(&bytes)
}

/// The digest of chance outcomes: of each its text, a zero byte and its probability as 8 bytes
/// little-endian, in order.
pub(crate) fn outcomes_digest(outcomes: &[(String, f64)]) -> u64 {
    let mut bytes = Vec::new();
    for (text, p) in outcomes {
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&p.to_le_bytes());
    }
    digest(&bytes)
}

/// The first 8 bytes of the SHA-256 of `bytes`, as a little-endian integer.
pub(crate) fn digest(bytes: &[u8]) -> u64 {
    let hash = Sha256::digest(bytes);
    u64::from_le_bytes(hash[..8].try_into().expect("a SHA-256 has 32 bytes"))
}
