//! Online levels kept on the device once fetched, so they play again offline: the platform
//! store's `Area::OnlineLevels`, one text per level named by its hash. A text is kept only
//! when it is the level its hash names (its SHA-256, as the service addresses levels) and it
//! passes every check `tether check` makes; a hash is 64 lowercase hex digits, so it is a safe
//! file name and storage key.

use std::fmt;
use std::sync::Arc;

use crate::platform::store::{Area, Store, StoreError};
use crate::sim::{limits, LevelDef, Tuning, World};

pub use crate::editor::online_link::HASH_HEX_CHARS as LEVEL_HASH_HEX_CHARS;

/// The hex SHA-256 of a level's text: its name on the service and in the cache.
pub fn level_sha256_hex(text: &str) -> String {
    tether_online_proto::level_hash(text)
}

/// Whether `hash` is a level hash: exactly 64 lowercase hex digits.
pub fn is_level_hash(hash: &str) -> bool {
    hash.len() == LEVEL_HASH_HEX_CHARS
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Why an online level cannot be played or kept.
#[derive(Debug)]
pub enum OnlineLevelError {
    /// Not 64 lowercase hex digits (shown escaped: it came from a link or the network).
    BadHash {
        hash: String,
    },
    /// The text fetched is not the level the hash names.
    WrongText {
        hash: String,
        got: String,
    },
    /// The text fails the checks every level passes (`tether check`): the first problem.
    Invalid {
        hash: String,
        problem: String,
    },
    Store(StoreError),
}

impl fmt::Display for OnlineLevelError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OnlineLevelError::BadHash { hash } => write!(
                f,
                "\"{}\" is not a level hash ({LEVEL_HASH_HEX_CHARS} hex digits 0-9 a-f)",
                limits::printable(hash)
            ),
            OnlineLevelError::WrongText { hash, got } => write!(
                f,
                "online level {hash}: the text received is another level (its hash is {got})"
            ),
            OnlineLevelError::Invalid { hash, problem } => {
                write!(f, "online level {hash} cannot be played: {problem}")
            }
            OnlineLevelError::Store(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for OnlineLevelError {}

/// Checks that `text` is the level `hash` names and passes every level check; returns the
/// level as parsed. `tuning` is the game's.
pub fn check_online_level(
    hash: &str,
    text: &str,
    tuning: &Arc<Tuning>,
) -> Result<LevelDef, OnlineLevelError> {
    if !is_level_hash(hash) {
        return Err(OnlineLevelError::BadHash {
            hash: hash.to_owned(),
        });
    }
    let got = level_sha256_hex(text);
    if got != hash {
        return Err(OnlineLevelError::WrongText {
            hash: hash.to_owned(),
            got,
        });
    }
    let file = format!("online/{hash}.ron");
    let invalid = |problem: String| OnlineLevelError::Invalid {
        hash: hash.to_owned(),
        problem: problem.lines().next().unwrap_or_default().to_owned(),
    };
    if text.len() as u64 > limits::MAX_LEVEL_FILE_BYTES {
        return Err(invalid(format!("it is {} bytes, over 1 MiB", text.len())));
    }
    let level = LevelDef::from_ron(text, &file).map_err(|e| invalid(e.to_string()))?;
    World::from_level(level.clone(), Arc::clone(tuning), &file)
        .map_err(|e| invalid(e.to_string()))?;
    Ok(level)
}

/// The online levels kept on this device.
#[derive(Clone, Debug)]
pub struct OnlineLevelCache {
    store: Store,
}

impl OnlineLevelCache {
    pub fn platform_default() -> OnlineLevelCache {
        OnlineLevelCache {
            store: Area::OnlineLevels.store(),
        }
    }

    pub fn memory() -> OnlineLevelCache {
        OnlineLevelCache {
            store: Store::memory(),
        }
    }

    /// The kept text of the level `hash`, if it is kept and still the level its hash names
    /// (a text changed on disk is not played under the hash).
    pub fn load(&self, hash: &str) -> Result<Option<String>, OnlineLevelError> {
        if !is_level_hash(hash) {
            return Err(OnlineLevelError::BadHash {
                hash: hash.to_owned(),
            });
        }
        let text = self
            .store
            .load(hash, limits::MAX_LEVEL_FILE_BYTES)
            .map_err(OnlineLevelError::Store)?;
        Ok(text.filter(|text| level_sha256_hex(text) == hash))
    }

    /// Checks the fetched `text` against `hash` and the level checks, then keeps it (written
    /// whole or not at all). A check that fails keeps nothing.
    pub fn keep(
        &self,
        hash: &str,
        text: &str,
        tuning: &Arc<Tuning>,
    ) -> Result<LevelDef, OnlineLevelError> {
        let level = check_online_level(hash, text, tuning)?;
        self.store
            .save(hash, text)
            .map_err(OnlineLevelError::Store)?;
        Ok(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuning() -> Arc<Tuning> {
        let text = std::fs::read_to_string("assets/tuning.ron").expect("the game's tuning");
        Arc::new(Tuning::from_ron(&text, "assets/tuning.ron").unwrap())
    }

    #[test]
    fn the_hash_is_the_servers_sha256() {
        // sha256sum of the empty text and of "abc", as the service computes level hashes.
        assert_eq!(
            level_sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            level_sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // Every byte counts: a level file's last newline too.
        assert_eq!(
            level_sha256_hex("abc\n"),
            "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb"
        );
        assert!(is_level_hash(&level_sha256_hex("x")));
        assert!(!is_level_hash(&"A".repeat(64)));
        assert!(!is_level_hash(&"a".repeat(63)));
        assert!(!is_level_hash("../../etc/passwd"));
    }

    #[test]
    fn only_the_named_and_valid_level_is_kept() {
        let tuning = tuning();
        let cache = OnlineLevelCache::memory();
        let text = crate::editor::new_level_text();
        let hash = level_sha256_hex(&text);
        assert!(cache.load(&hash).unwrap().is_none());

        let other = text.replace("New level", "Other");
        let err = cache.keep(&hash, &other, &tuning).unwrap_err();
        assert!(matches!(err, OnlineLevelError::WrongText { .. }), "{err}");
        assert!(cache.load(&hash).unwrap().is_none(), "nothing kept");

        let broken = "(name: \"x\", solids: [";
        let err = cache
            .keep(&level_sha256_hex(broken), broken, &tuning)
            .unwrap_err();
        assert!(matches!(err, OnlineLevelError::Invalid { .. }), "{err}");
        assert!(err.to_string().contains("cannot be played"), "{err}");

        let err = cache.keep("zz", &text, &tuning).unwrap_err();
        assert!(matches!(err, OnlineLevelError::BadHash { .. }), "{err}");

        let level = cache.keep(&hash, &text, &tuning).unwrap();
        assert_eq!(level.name, "New level");
        assert_eq!(cache.load(&hash).unwrap().as_deref(), Some(text.as_str()));
    }
}
