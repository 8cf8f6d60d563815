//! Tether Online as both ends see it (docs/online.md): the JSON the service answers
//! (`wire`), the signed envelope every write travels in (`signing`), and the recovery code a
//! player writes down to carry their key to another device (`recovery`).
//!
//! Pure: no I/O, no clock, no randomness of its own, so it builds for the browser
//! (wasm32-unknown-unknown) without wasm-bindgen. The server (`tether-server`) uses the same types, so the two cannot
//! drift.

pub mod hex;
pub mod json;
pub mod recovery;
pub mod signing;
pub mod wire;

pub use recovery::{RecoveryCodeError, RECOVERY_CODE_GROUPS};
pub use signing::{EnvelopeError, Identity, SignedEnvelope, SEED_BYTES};

use sha2::{Digest, Sha256};

/// A level's address on the service: the hex SHA-256 of its file's text.
pub fn level_hash(text: &str) -> String {
    hex::encode(&Sha256::digest(text.as_bytes()))
}
