//! A player's identity and the envelope of a signed write (docs/online.md, "Identity and signed
//! writes"): `{"key", "nonce", "sig", "body"}` where `sig` is the ed25519 signature of
//! `tether-v1\n<nonce>\n<body>` and `body` is the request's JSON kept as a string, so the server
//! checks the very bytes that were signed.

use ed25519_dalek::{Signer, SigningKey};
use serde::Serialize;

use crate::hex;

/// Bytes of a key's seed: all a player's identity is.
pub const SEED_BYTES: usize = 32;

/// The bytes a signature covers.
pub fn signed_message(nonce: &str, body: &str) -> Vec<u8> {
    format!("tether-v1\n{nonce}\n{body}").into_bytes()
}

/// A player's ed25519 key pair, made from a 32-byte seed the caller took from a good source of
/// randomness (this crate has none, so it builds for the browser without wasm-bindgen).
#[derive(Clone)]
pub struct Identity {
    key: SigningKey,
}

impl std::fmt::Debug for Identity {
    // Never the seed: a debug print in a log must not give the key away.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Identity({})", self.public_key_hex())
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    key: &'a str,
    nonce: &'a str,
    sig: &'a str,
    body: &'a str,
}

impl Identity {
    pub fn from_seed(seed: [u8; SEED_BYTES]) -> Identity {
        Identity {
            key: SigningKey::from_bytes(&seed),
        }
    }

    /// The seed: what the recovery code and the device's key file hold.
    pub fn seed(&self) -> [u8; SEED_BYTES] {
        self.key.to_bytes()
    }

    /// The public key as 64 lowercase hex digits: the player's id on the service.
    pub fn public_key_hex(&self) -> String {
        hex::encode(self.key.verifying_key().as_bytes())
    }

    /// The JSON envelope that carries `body` (the request's JSON) signed with `nonce`.
    pub fn envelope(&self, nonce: &str, body: &str) -> String {
        let signature = self.key.sign(&signed_message(nonce, body));
        let key = self.public_key_hex();
        let sig = hex::encode(&signature.to_bytes());
        serde_json::to_string(&Envelope {
            key: &key,
            nonce,
            sig: &sig,
            body,
        })
        .expect("an envelope of strings always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signature, VerifyingKey};

    #[test]
    fn the_envelope_verifies_over_the_documented_message() {
        let identity = Identity::from_seed([7; SEED_BYTES]);
        let text = identity.envelope("00ff", "{\"name\":\"Ada\"}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["body"], "{\"name\":\"Ada\"}");
        assert_eq!(value["nonce"], "00ff");
        let key: [u8; 32] = hex::decode(value["key"].as_str().unwrap()).unwrap();
        let sig: [u8; 64] = hex::decode(value["sig"].as_str().unwrap()).unwrap();
        let key = VerifyingKey::from_bytes(&key).unwrap();
        let message = b"tether-v1\n00ff\n{\"name\":\"Ada\"}";
        key.verify_strict(message, &Signature::from_bytes(&sig))
            .expect("signature over tether-v1\\n<nonce>\\n<body>");
        assert!(key
            .verify_strict(
                b"tether-v1\n00fe\n{\"name\":\"Ada\"}",
                &Signature::from_bytes(&sig)
            )
            .is_err());
    }

    #[test]
    fn the_seed_makes_the_same_key_again() {
        let identity = Identity::from_seed([9; SEED_BYTES]);
        let again = Identity::from_seed(identity.seed());
        assert_eq!(identity.public_key_hex(), again.public_key_hex());
        assert!(!format!("{identity:?}").contains(&hex::encode(&[9; SEED_BYTES])));
    }
}
