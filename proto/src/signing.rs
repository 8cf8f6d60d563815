//! A player's identity and the envelope of a signed write (docs/online.md, "Identity and signed
//! writes"): `{"key", "nonce", "sig", "body"}` where `sig` is the ed25519 signature of
//! `tether-v1\n<nonce>\n<body>` and `body` is the request's JSON kept as a string, so the server
//! checks the very bytes that were signed.

use std::sync::Arc;

use zeroize::Zeroizing;

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
    /// Wiped from memory when the last copy goes, as the key pair's own secret half is.
    seed: Arc<Zeroizing<[u8; SEED_BYTES]>>,
    /// Expanded once: making the public key is a scalar multiplication (milliseconds here).
    key_pair: Arc<salty::Keypair>,
}

impl std::fmt::Debug for Identity {
    // Never the seed: a debug print in a log must not give the key away.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Identity({})", self.public_key_hex())
    }
}

/// The envelope of a signed write, as the game writes it and the server reads it. Unknown
/// fields are refused: a field the signature does not cover must not ride along.
#[derive(Debug, Clone, PartialEq, Eq, miniserde::Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
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

// Verifying is the server's half: ed25519-dalek's verifier is behind the `verify` feature, so
// the game's browser download (which only signs, with salty) does not carry it.
#[cfg(any(test, feature = "verify"))]
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
        use ed25519_dalek::{Signature, VerifyingKey};
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
            key_pair: Arc::new(salty::Keypair::from(&seed)),
            seed: Arc::new(Zeroizing::new(seed)),
        }
    }

    /// The seed: what the recovery code and the device's key file hold.
    pub fn seed(&self) -> [u8; SEED_BYTES] {
        **self.seed
    }

    /// The public key as 64 lowercase hex digits: the player's id on the service.
    pub fn public_key_hex(&self) -> String {
        hex::encode(self.key_pair.public.as_bytes())
    }

    /// The RFC 8032 ed25519 signature of `message` (deterministic: the same seed and message
    /// always give the same 64 bytes).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.key_pair.sign(message).to_bytes()
    }

    /// The JSON envelope that carries `body` (the request's JSON) signed with `nonce`.
    pub fn envelope(&self, nonce: &str, body: &str) -> String {
        let signature = self.sign(&signed_message(nonce, body));
        crate::json::to_string(&SignedEnvelope {
            key: self.public_key_hex(),
            nonce: nonce.to_string(),
            sig: hex::encode(&signature),
            body: body.to_string(),
        })
    }
}

#[cfg(all(test, feature = "serde"))]
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

    /// RFC 8032 section 7.1, tests 1 to 3: secret key (seed), public key, message, signature.
    const RFC8032_VECTORS: [(&str, &str, &str, &str); 3] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
        ),
    ];

    fn hex_bytes(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|at| u8::from_str_radix(&text[at..at + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn keys_and_signatures_are_rfc_8032s() {
        for (seed, public, message, signature) in RFC8032_VECTORS {
            let identity = Identity::from_seed(hex::decode(seed).unwrap());
            assert_eq!(
                identity.public_key_hex(),
                public,
                "public key of seed {seed}"
            );
            let signed = identity.sign(&hex_bytes(message));
            assert_eq!(hex::encode(&signed), signature, "signature of {message:?}");
        }
    }

    #[test]
    fn keys_and_signatures_are_the_ones_the_servers_ed25519_dalek_makes() {
        // Seeds and messages of every length up to 300 bytes, from a fixed xorshift stream.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next_byte = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        };
        for length in 0..300 {
            let seed: [u8; SEED_BYTES] = std::array::from_fn(|_| next_byte());
            let message: Vec<u8> = (0..length).map(|_| next_byte()).collect();
            let ours = Identity::from_seed(seed);
            let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
            assert_eq!(
                ours.public_key_hex(),
                hex::encode(dalek.verifying_key().as_bytes())
            );
            use ed25519_dalek::Signer;
            assert_eq!(ours.sign(&message), dalek.sign(&message).to_bytes());
        }
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
