//! Level links for the browser: a level's RON text zlib-compressed and written in URL-safe
//! base64 without padding, for a URL fragment `#level=<code>`. Decoding takes text from
//! strangers, so it never panics and never does unbounded work: the code's length is capped
//! before anything else, inflating stops at the level-file limit, and the result must be UTF-8.
//!
//! The browser game decodes links with the same rules and messages in web/query_plugin.js,
//! with the browser's own inflater (so the .wasm carries none); `decode_link` is the reference
//! the tests hold the encoding to, and the browser test opens a link made here.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::sim::limits::{MAX_LEVEL_FILE_BYTES, MAX_LEVEL_LINK_BYTES};

/// Longest code accepted, in bytes (the limits' level-link size: 64 KiB).
pub const MAX_CODE_BYTES: usize = MAX_LEVEL_LINK_BYTES as usize;
/// Largest level text a code may inflate to: the level-file limit.
pub const MAX_TEXT_BYTES: usize = MAX_LEVEL_FILE_BYTES as usize;
/// The URL fragment's key: `#level=<code>`.
pub const FRAGMENT_PREFIX: &str = "#level=";
/// Deflate level: the best compression (levels are small, encoding is rare).
const DEFLATE_LEVEL: u8 = 9;

/// Why a level cannot be shared as a link, or a link opened. The same words as
/// web/query_plugin.js's, which decodes links in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// Making a link: the level's code would be `code_bytes` long, over `MAX_CODE_BYTES`.
    LevelTooLarge {
        code_bytes: usize,
    },
    /// Opening one: the code is `code_bytes` long, over `MAX_CODE_BYTES`.
    CodeTooLong {
        code_bytes: usize,
    },
    Empty,
    BadBase64(base64::DecodeError),
    /// It inflates past `MAX_TEXT_BYTES`.
    InflatesTooLarge,
    /// Its data is not zlib.
    Damaged,
    NotUtf8,
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LinkError::LevelTooLarge { code_bytes } => write!(
                f,
                "the level's link would be {code_bytes} bytes, at most {MAX_CODE_BYTES} \
                 allowed: share the level's file instead"
            ),
            LinkError::CodeTooLong { code_bytes } => write!(
                f,
                "the level link is {code_bytes} bytes long, at most {MAX_CODE_BYTES} allowed"
            ),
            LinkError::Empty => write!(f, "the level link is empty"),
            LinkError::BadBase64(err) => {
                write!(f, "the level link is not valid (bad base64: {err})")
            }
            LinkError::InflatesTooLarge => write!(
                f,
                "the level in the link is larger than the {MAX_TEXT_BYTES}-byte limit of a level"
            ),
            LinkError::Damaged => {
                write!(f, "the level link is damaged (its data does not inflate)")
            }
            LinkError::NotUtf8 => write!(f, "the level in the link is not UTF-8 text"),
        }
    }
}

impl std::error::Error for LinkError {}

/// The code of a level's text (without the `#level=` prefix).
pub fn encode_link(ron_text: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec_zlib(
        ron_text.as_bytes(),
        DEFLATE_LEVEL,
    ))
}

/// The level link of a level's text (`#level=<code>`), or, when the code would be over the
/// `MAX_CODE_BYTES` a link may be (a level may be far larger), why not, with its size: a link
/// that long would only be refused when opened.
pub fn level_link(ron_text: &str) -> Result<String, LinkError> {
    let code = encode_link(ron_text);
    if code.len() > MAX_CODE_BYTES {
        return Err(LinkError::LevelTooLarge {
            code_bytes: code.len(),
        });
    }
    Ok(format!("{FRAGMENT_PREFIX}{code}"))
}

/// The level text of a code (a leading `#level=` or `level=` is allowed), or why not.
pub fn decode_link(code: &str) -> Result<String, LinkError> {
    if code.len() > MAX_CODE_BYTES {
        return Err(LinkError::CodeTooLong {
            code_bytes: code.len(),
        });
    }
    let code = code.trim();
    let code = code
        .strip_prefix(FRAGMENT_PREFIX)
        .or_else(|| code.strip_prefix(&FRAGMENT_PREFIX[1..]))
        .unwrap_or(code);
    if code.is_empty() {
        return Err(LinkError::Empty);
    }
    let packed = URL_SAFE_NO_PAD.decode(code).map_err(LinkError::BadBase64)?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_TEXT_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::InflatesTooLarge,
            _ => LinkError::Damaged,
        })?;
    String::from_utf8(bytes).map_err(|_| LinkError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text =
            "Level(name: \"é\", spawn: (0.0, 1.0), goal: (min: (1.0, 1.0), max: (2.0, 2.0)))";
        let code = encode_link(text);
        assert!(code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode_link(&code).unwrap(), text);
        assert_eq!(decode_link(&format!("#level={code}")).unwrap(), text);
        assert_eq!(decode_link(&format!("level={code}\n")).unwrap(), text);
    }

    #[test]
    fn hostile_codes_are_errors() {
        let message = |code: &str| decode_link(code).unwrap_err().to_string();
        assert_eq!(decode_link(""), Err(LinkError::Empty));
        assert!(message("").contains("empty"));
        assert!(matches!(decode_link("!!!"), Err(LinkError::BadBase64(_))));
        assert!(message("!!!").contains("base64"));
        assert_eq!(
            decode_link(&"A".repeat(MAX_CODE_BYTES + 1)),
            Err(LinkError::CodeTooLong {
                code_bytes: MAX_CODE_BYTES + 1
            })
        );
        assert!(message(&"A".repeat(MAX_CODE_BYTES + 1)).contains("at most"));
        let not_utf8 = encode_link_bytes(&[0xff, 0xfe, 0x00]);
        assert_eq!(decode_link(&not_utf8), Err(LinkError::NotUtf8));
        assert!(message(&not_utf8).contains("UTF-8"));
        // Valid base64 of bytes that are not deflate data.
        assert_eq!(decode_link("_____w"), Err(LinkError::Damaged));
        assert!(message("_____w").contains("damaged"));
    }

    fn encode_link_bytes(bytes: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec_zlib(
            bytes,
            DEFLATE_LEVEL,
        ))
    }

    /// A level text whose code is about `code_bytes` long: random words in a sign don't
    /// compress, so the code grows with them.
    fn level_with_code_of(code_bytes: usize) -> String {
        let mut seed = 0x1234_5678_u64;
        let mut text = String::from(
            "Level(name: \"big\", spawn: (0.0, 1.0), goal: (min: (1.0, 1.0), max: (2.0, 2.0)))\n",
        );
        while encode_link(&text).len() < code_bytes {
            for _ in 0..64 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push(char::from(b'a' + (seed >> 59) as u8 % 26));
            }
            text.push('\n');
        }
        text
    }

    #[test]
    fn a_link_over_the_limit_is_refused_with_its_size() {
        let under = level_with_code_of(MAX_CODE_BYTES - 200);
        let link = level_link(&under).unwrap();
        assert!(link.len() - FRAGMENT_PREFIX.len() <= MAX_CODE_BYTES);
        assert_eq!(decode_link(&link).unwrap(), under);
        let over = level_with_code_of(MAX_CODE_BYTES + 1);
        let size = encode_link(&over).len();
        let e = level_link(&over).unwrap_err().to_string();
        assert!(
            e.contains(&format!("would be {size} bytes, at most {MAX_CODE_BYTES}")),
            "{e}"
        );
    }

    #[test]
    fn a_bomb_is_refused_by_the_limits() {
        // 10 MB of spaces deflate to a code well within the length limit ...
        let code = encode_link_bytes(&vec![b' '; 10_000_000]);
        assert!(code.len() < MAX_CODE_BYTES);
        let e = decode_link(&code).unwrap_err().to_string();
        assert!(e.contains("larger than"), "{e}");
        // ... and 100 MB to one over it, refused before inflating.
        let code = encode_link_bytes(&vec![b' '; 100_000_000]);
        assert!(matches!(
            decode_link(&code),
            Err(LinkError::CodeTooLong { .. })
        ));
    }
}
