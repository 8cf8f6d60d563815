//! A player's identity and the envelope of a signed write (docs/online.md, "Identity and signed
//! writes"): `{"key", "nonce", "sig", "body"}` where `sig` is the ed25519 signature of
//! `tether-v1\n<nonce>\n<body>` and `body` is the request's JSON kept as a string, so the server
//! checks the very bytes that were signed.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

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

/// The envelope of a signed write, as the game writes it and the server reads it. Unknown
/// fields are refused: a field the signature does not cover must not ride along.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SignedEnvelope {
    /// The signer's public key, 64 hex digits.
    pub key: String,
    /// A single-use nonce from `GET /api/v1/nonce`.
    pub nonce: String,
    /// The ed25519 signature of `signed_message(nonce, body)`, 128 hex digits.
    pub sig: String,
    /// The request's JSON, kept as text so the signed bytes are the ones read.
    pub body: String,
}

/// Why an envelope's signature does not check out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeError {
    /// `field` is not `digits` hex digits.
    NotHex { field: &'static str, digits: usize },
    /// `key` is 32 bytes but no ed25519 public key.
    NotAKey,
    /// The signature does not match key, nonce and body.
    BadSignature,
}

impl std::fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            EnvelopeError::NotHex { field, digits } => {
                write!(f, "{field} must be {digits} hex digits")
            }
            EnvelopeError::NotAKey => write!(f, "key is not an ed25519 public key"),
            EnvelopeError::BadSignature => {
                write!(f, "the signature does not match key, nonce and body")
            }
        }
    }
}

impl SignedEnvelope {
    /// Checks the signature (strictly: no malleable signatures, no weak keys) and gives the
    /// signer's public key as 64 lowercase hex digits.
    pub fn verify(&self) -> Result<String, EnvelopeError> {
        let key_bytes: [u8; 32] = hex::decode(&self.key).ok_or(EnvelopeError::NotHex {
            field: "key",
            digits: 64,
        })?;
        let sig_bytes: [u8; 64] = hex::decode(&self.sig).ok_or(EnvelopeError::NotHex {
            field: "sig",
            digits: 128,
        })?;
        let key = VerifyingKey::from_bytes(&key_bytes).map_err(|_| EnvelopeError::NotAKey)?;
        key.verify_strict(
            &signed_message(&self.nonce, &self.body),
            &Signature::from_bytes(&sig_bytes),
        )
        .map_err(|_| EnvelopeError::BadSignature)?;
        Ok(hex::encode(&key_bytes))
    }
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
        serde_json::to_string(&SignedEnvelope {
            key: self.public_key_hex(),
            nonce: nonce.to_string(),
            sig: hex::encode(&signature.to_bytes()),
            body: body.to_string(),
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
    fn an_envelope_verifies_only_as_signed() {
        let identity = Identity::from_seed([3; SEED_BYTES]);
        let text = identity.envelope("00ff", "{\"name\":\"Ada\"}");
        let envelope: SignedEnvelope = serde_json::from_str(&text).unwrap();
        assert_eq!(envelope.verify(), Ok(identity.public_key_hex()));
        let mut changed = envelope.clone();
        changed.body = "{\"name\":\"Bob\"}".into();
        assert_eq!(changed.verify(), Err(EnvelopeError::BadSignature));
        let mut short = envelope.clone();
        short.sig.pop();
        assert!(matches!(
            short.verify(),
            Err(EnvelopeError::NotHex { field: "sig", .. })
        ));
        let extra = text.replacen('{', "{\"admin\":true,", 1);
        assert!(serde_json::from_str::<SignedEnvelope>(&extra).is_err());
    }

    #[test]
    fn the_seed_makes_the_same_key_again() {
        let identity = Identity::from_seed([9; SEED_BYTES]);
        let again = Identity::from_seed(identity.seed());
        assert_eq!(identity.public_key_hex(), again.public_key_hex());
        assert!(!format!("{identity:?}").contains(&hex::encode(&[9; SEED_BYTES])));
    }
}
