//! The recovery code: a player's 32-byte seed and a 2-byte checksum (the first bytes of its
//! SHA-256) in Crockford's base32, 55 characters in 11 groups of 5, e.g. `7ZQ3K-…`. Typed back
//! in, case, spaces and dashes do not matter, and the letters people confuse with digits
//! (O, I, L) read as the digits; a typo is caught by the checksum, not taken as another key.

use sha2::{Digest, Sha256};

use crate::signing::SEED_BYTES;

/// Crockford's base32: no I, L, O or U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CHECKSUM_BYTES: usize = 2;
const PAYLOAD_BYTES: usize = SEED_BYTES + CHECKSUM_BYTES;
/// Characters of a code: 34 bytes are 272 bits, 55 five-bit characters (the last padded).
const CODE_CHARS: usize = (PAYLOAD_BYTES * 8).div_ceil(5);
const GROUP_CHARS: usize = 5;
/// Groups of five characters in a written code.
pub const RECOVERY_CODE_GROUPS: usize = CODE_CHARS / GROUP_CHARS;

/// Why a typed code is not a recovery code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryCodeError {
    /// Not 55 characters once spaces and dashes are left out.
    Length { found: usize, expected: usize },
    /// A character base32 does not have, at this place (1-based, counting only code characters).
    BadCharacter { character: char, position: usize },
    /// Every character is valid but the checksum does not match: a typo somewhere.
    Checksum,
}

impl std::fmt::Display for RecoveryCodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            RecoveryCodeError::Length { found, expected } => write!(
                f,
                "a recovery code has {expected} letters and digits; this one has {found}"
            ),
            RecoveryCodeError::BadCharacter {
                character,
                position,
            } => write!(
                f,
                "character {position} ({}) is not in a recovery code",
                character.escape_default()
            ),
            RecoveryCodeError::Checksum => write!(
                f,
                "the code does not check out: a character is mistyped somewhere"
            ),
        }
    }
}

impl std::error::Error for RecoveryCodeError {}

fn checksum(seed: &[u8; SEED_BYTES]) -> [u8; CHECKSUM_BYTES] {
    let digest = Sha256::digest(seed);
    [digest[0], digest[1]]
}

/// The code for `seed`, in dash-separated groups of five.
pub fn encode(seed: &[u8; SEED_BYTES]) -> String {
    let mut payload = seed.to_vec();
    payload.extend_from_slice(&checksum(seed));
    let mut out = String::with_capacity(CODE_CHARS + RECOVERY_CODE_GROUPS);
    let (mut bits, mut held) = (0u32, 0u32);
    let mut written = 0;
    let mut push = |value: u32, out: &mut String| {
        if written > 0 && written % GROUP_CHARS == 0 {
            out.push('-');
        }
        out.push(ALPHABET[value as usize] as char);
        written += 1;
    };
    for byte in payload {
        bits = (bits << 8) | u32::from(byte);
        held += 8;
        while held >= 5 {
            held -= 5;
            push((bits >> held) & 31, &mut out);
        }
    }
    if held > 0 {
        push((bits << (5 - held)) & 31, &mut out);
    }
    out
}

fn value_of(character: char) -> Option<u32> {
    let upper = match character.to_ascii_uppercase() {
        'O' => '0',
        'I' | 'L' => '1',
        other => other,
    };
    ALPHABET
        .iter()
        .position(|&c| c as char == upper)
        .map(|at| at as u32)
}

/// The seed a typed code holds.
pub fn decode(text: &str) -> Result<[u8; SEED_BYTES], RecoveryCodeError> {
    let characters: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if characters.len() != CODE_CHARS {
        return Err(RecoveryCodeError::Length {
            found: characters.len(),
            expected: CODE_CHARS,
        });
    }
    let mut payload = Vec::with_capacity(PAYLOAD_BYTES);
    let (mut bits, mut held) = (0u32, 0u32);
    for (at, &character) in characters.iter().enumerate() {
        let value = value_of(character).ok_or(RecoveryCodeError::BadCharacter {
            character,
            position: at + 1,
        })?;
        bits = ((bits << 5) | value) & 0xffff;
        held += 5;
        if held >= 8 {
            held -= 8;
            payload.push((bits >> held) as u8);
        }
    }
    // The last character's spare bits are written as zeros: anything else is a typo there.
    if bits & ((1 << held) - 1) != 0 {
        return Err(RecoveryCodeError::Checksum);
    }
    let mut seed = [0u8; SEED_BYTES];
    seed.copy_from_slice(&payload[..SEED_BYTES]);
    if payload[SEED_BYTES..PAYLOAD_BYTES] != checksum(&seed) {
        return Err(RecoveryCodeError::Checksum);
    }
    Ok(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> [u8; SEED_BYTES] {
        let mut seed = [0u8; SEED_BYTES];
        for (i, byte) in seed.iter_mut().enumerate() {
            *byte = (i as u8).wrapping_mul(37).wrapping_add(11);
        }
        seed
    }

    #[test]
    fn a_code_round_trips_in_any_case_and_spacing() {
        let code = encode(&seed());
        assert_eq!(code.len(), CODE_CHARS + RECOVERY_CODE_GROUPS - 1);
        assert_eq!(code.split('-').count(), RECOVERY_CODE_GROUPS);
        assert_eq!(decode(&code), Ok(seed()));
        let typed = code.to_lowercase().replace('-', " ");
        assert_eq!(decode(&typed), Ok(seed()));
        let confusable = code.replace('0', "o").replace('1', "l");
        assert_eq!(decode(&confusable), Ok(seed()));
    }

    #[test]
    fn every_single_character_typo_is_caught() {
        let code: Vec<char> = encode(&seed()).chars().filter(|c| *c != '-').collect();
        for at in 0..code.len() {
            let mut typo = code.clone();
            typo[at] = if typo[at] == 'Z' { 'Y' } else { 'Z' };
            let typed: String = typo.into_iter().collect();
            assert!(decode(&typed).is_err(), "a typo at {at} passed");
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let code = encode(&seed());
        assert_eq!(
            decode(&code[..20]),
            Err(RecoveryCodeError::Length {
                found: 17,
                expected: CODE_CHARS
            })
        );
        let bad = code.replacen(|c: char| c.is_ascii_alphanumeric(), "U", 1);
        assert_eq!(
            decode(&bad),
            Err(RecoveryCodeError::BadCharacter {
                character: 'U',
                position: 1
            })
        );
    }
}
