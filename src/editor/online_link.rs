//! Links naming an online level: `#online=<hash>`, the hex SHA-256 of the level's text by which
//! the service knows it. Unlike a level link (`#level=<code>`, the level itself) it carries no
//! level: the game fetches the text and checks it against the hash. The hash comes from a
//! stranger's URL, so it is checked for its exact form before anything uses it as a key or in
//! a request.

use std::fmt;

use crate::sim::limits;

/// The URL fragment's key: `#online=<hash>`.
pub const ONLINE_FRAGMENT_PREFIX: &str = "#online=";
/// Hex digits of a level hash (SHA-256).
pub const HASH_HEX_CHARS: usize = 64;

/// Why an online level link cannot be opened; the words the game shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnlineLinkError {
    Empty,
    /// Not `HASH_HEX_CHARS` long (its length in characters).
    WrongLength {
        chars: usize,
    },
    /// A character that is not a hex digit, at this position (from 1), shown escaped.
    NotHex {
        at: usize,
        found: String,
    },
}

impl fmt::Display for OnlineLinkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OnlineLinkError::Empty => write!(f, "the online level link names no level"),
            OnlineLinkError::WrongLength { chars } => write!(
                f,
                "the online level link's hash is {chars} characters long; a level hash is \
                 {HASH_HEX_CHARS} hex digits"
            ),
            OnlineLinkError::NotHex { at, found } => write!(
                f,
                "the online level link's hash has \"{found}\" at character {at}; a level hash \
                 is {HASH_HEX_CHARS} hex digits (0-9, a-f)"
            ),
        }
    }
}

impl std::error::Error for OnlineLinkError {}

/// The link of the online level `hash` (a fragment to add to the game's address).
pub fn online_link(hash: &str) -> String {
    format!("{ONLINE_FRAGMENT_PREFIX}{hash}")
}

/// The level hash a link names (a leading `#online=` or `online=` is allowed; upper-case hex
/// is read as lower-case), or why it names none.
pub fn parse_online_link(link: &str) -> Result<String, OnlineLinkError> {
    let link = link.trim();
    let hash = link
        .strip_prefix(ONLINE_FRAGMENT_PREFIX)
        .or_else(|| link.strip_prefix(&ONLINE_FRAGMENT_PREFIX[1..]))
        .unwrap_or(link);
    if hash.is_empty() {
        return Err(OnlineLinkError::Empty);
    }
    if let Some((at, c)) = hash
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(OnlineLinkError::NotHex {
            at: at + 1,
            found: limits::printable(&c.to_string()),
        });
    }
    // Only hex digits are left, so bytes are characters.
    if hash.len() != HASH_HEX_CHARS {
        return Err(OnlineLinkError::WrongLength { chars: hash.len() });
    }
    Ok(hash.to_ascii_lowercase())
}

/// Whether a URL fragment is an online level link (rather than a level link or nothing).
pub fn is_online_fragment(fragment: &str) -> bool {
    let fragment = fragment.trim();
    fragment.starts_with(ONLINE_FRAGMENT_PREFIX)
        || fragment.starts_with(&ONLINE_FRAGMENT_PREFIX[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    #[test]
    fn a_link_names_its_hash() {
        assert_eq!(parse_online_link(&online_link(HASH)).unwrap(), HASH);
        assert_eq!(parse_online_link(&format!("online={HASH}")).unwrap(), HASH);
        assert_eq!(parse_online_link(&format!(" {HASH}\n")).unwrap(), HASH);
        assert_eq!(
            parse_online_link(&format!("#online={}", HASH.to_uppercase())).unwrap(),
            HASH
        );
        assert!(is_online_fragment(&online_link(HASH)));
        assert!(!is_online_fragment("#level=eJzL"));
    }

    #[test]
    fn bad_hex_or_length_is_a_clear_message() {
        assert_eq!(parse_online_link("#online="), Err(OnlineLinkError::Empty));
        assert_eq!(
            parse_online_link(&format!("#online={}", &HASH[..63])),
            Err(OnlineLinkError::WrongLength { chars: 63 })
        );
        assert_eq!(
            parse_online_link(&format!("#online={HASH}0")),
            Err(OnlineLinkError::WrongLength { chars: 65 })
        );
        let bad = format!("#online=../{}", &HASH[3..]);
        let err = parse_online_link(&bad).unwrap_err();
        assert_eq!(
            err,
            OnlineLinkError::NotHex {
                at: 1,
                found: ".".into()
            }
        );
        assert!(err.to_string().contains("at character 1"), "{err}");
        let escape = format!("#online={}\u{1b}", &HASH[..63]);
        let err = parse_online_link(&escape).unwrap_err().to_string();
        assert!(err.contains("\\u{1b}") && !err.contains('\u{1b}'), "{err}");
        let err = parse_online_link(&format!("#online={}", "é".repeat(64)))
            .unwrap_err()
            .to_string();
        assert!(err.contains("character 1"), "{err}");
    }
}
