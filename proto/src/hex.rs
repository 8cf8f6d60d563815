//! Lowercase hex, as the service writes keys, signatures and hashes.

/// `bytes` as lowercase hex.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 15)] as char);
    }
    out
}

/// Exactly `N` bytes from `2 * N` hex digits (either case); `None` for anything else.
pub fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    let digits = text.as_bytes();
    if digits.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let high = (pair[0] as char).to_digit(16)?;
        let low = (pair[1] as char).to_digit(16)?;
        *byte = (high * 16 + low) as u8;
    }
    Some(out)
}

/// True for exactly `digits` lowercase or uppercase hex digits (an id from the service).
pub fn is_hex_id(text: &str, digits: usize) -> bool {
    text.len() == digits && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_wrong_lengths_and_digits() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(encode(&bytes), "0001abff");
        assert_eq!(decode::<4>("0001ABff"), Some(bytes));
        assert_eq!(decode::<4>("0001abf"), None);
        assert_eq!(decode::<4>("0001abfg"), None);
        assert_eq!(decode::<2>("0001abff"), None);
    }
}
