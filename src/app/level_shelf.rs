//! "My levels": the levels an author makes in the game's editor, kept by name in the platform's
//! store. On the desktop they are files, `<config folder>/levels/<name>.ron` (written
//! atomically, plain RON any text editor opens); in the browser the page's localStorage,
//! `tether.level.<name>`, where export (a download) and import (a file picker) move them in and
//! out.
//!
//! Names are made from a level's title (`name_for`): lowercase letters, digits and `_`, so they
//! are safe as file names and storage keys whatever the title holds.

use std::fmt;

use crate::platform::store::{Area, Place, Store, StoreError};
use crate::sim::level::LevelDef;
use crate::sim::limits;

/// Longest name made from a title, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Most levels listed (a shelf is a person's own work; this bounds a planted or runaway store).
pub const MAX_LEVELS: usize = 500;

/// Why a level could not be kept, read or removed; the menu shows it under "My levels".
#[derive(Debug)]
pub enum ShelfError {
    /// Not a name `name_for` could make (as typed or stored: shown through `printable`).
    BadName {
        name: String,
    },
    NoSuchLevel {
        place: Place,
    },
    TooLarge {
        bytes: usize,
    },
    Store(StoreError),
}

impl fmt::Display for ShelfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ShelfError::BadName { name } => write!(
                f,
                "\"{}\" is not a level name (lowercase letters, digits and _, at most \
                 {MAX_NAME_CHARS})",
                limits::printable(name)
            ),
            ShelfError::NoSuchLevel { place } => write!(f, "{place}: there is no such level"),
            ShelfError::TooLarge { bytes } => write!(
                f,
                "the level is {bytes} bytes, over the {}-byte limit of a level file",
                limits::MAX_LEVEL_FILE_BYTES
            ),
            ShelfError::Store(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for ShelfError {}

impl From<StoreError> for ShelfError {
    fn from(err: StoreError) -> ShelfError {
        match err {
            StoreError::Missing { place } => ShelfError::NoSuchLevel { place },
            err => ShelfError::Store(err),
        }
    }
}

/// Where the levels are kept: the platform's `Area::Levels` store.
#[derive(Clone, Debug)]
pub struct LevelShelf {
    store: Store,
}

impl LevelShelf {
    pub fn platform_default() -> LevelShelf {
        LevelShelf {
            store: Area::Levels.store(),
        }
    }

    /// The levels in the config folder `config`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn in_folder(config: &std::path::Path) -> LevelShelf {
        LevelShelf {
            store: Area::Levels.store_in(config),
        }
    }

    /// Kept until the game closes.
    pub fn memory() -> LevelShelf {
        LevelShelf {
            store: Store::memory(),
        }
    }

    /// Where a level is kept, in words (a path, a storage key).
    pub fn place_of(&self, name: &str) -> String {
        self.store.place(name).to_string()
    }

    /// The names of the levels kept, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names = self.store.list(MAX_LEVELS);
        names.retain(|name| is_valid_name(name));
        names
    }

    /// The text of the level called `name`.
    pub fn load(&self, name: &str) -> Result<String, ShelfError> {
        check_name(name)?;
        self.store
            .load(name, limits::MAX_LEVEL_FILE_BYTES)?
            .ok_or_else(|| ShelfError::NoSuchLevel {
                place: self.store.place(name),
            })
    }

    /// Keeps `text` as the level called `name` (replacing what was kept under that name).
    pub fn save(&mut self, name: &str, text: &str) -> Result<(), ShelfError> {
        check_name(name)?;
        if text.len() as u64 > limits::MAX_LEVEL_FILE_BYTES {
            return Err(ShelfError::TooLarge { bytes: text.len() });
        }
        Ok(self.store.save(name, text)?)
    }

    /// Removes the level called `name`.
    pub fn remove(&mut self, name: &str) -> Result<(), ShelfError> {
        check_name(name)?;
        Ok(self.store.remove(name)?)
    }

    /// A name for a level titled `title` that no kept level has yet.
    pub fn free_name_for(&self, title: &str) -> String {
        let base = name_for(title);
        let taken = self.names();
        if !taken.contains(&base) {
            return base;
        }
        (2..)
            .map(|n| {
                let suffix = format!("_{n}");
                let room = MAX_NAME_CHARS - suffix.len();
                format!("{}{suffix}", &base[..base.len().min(room)])
            })
            .find(|name| !taken.contains(name))
            .expect("some number is free")
    }
}

/// The name a level titled `title` is kept under: lowercase ASCII letters and digits, runs of
/// anything else as one `_`, at most `MAX_NAME_CHARS`; "level" when nothing is left.
pub fn name_for(title: &str) -> String {
    let mut name = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('_') {
            name.push('_');
        }
        if name.len() >= MAX_NAME_CHARS {
            break;
        }
    }
    let name = name.trim_end_matches('_');
    if name.is_empty() {
        "level".to_owned()
    } else {
        name.to_owned()
    }
}

/// Whether `name` is one `name_for` could make (what the shelf lists and accepts).
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fn check_name(name: &str) -> Result<(), ShelfError> {
    if is_valid_name(name) {
        Ok(())
    } else {
        Err(ShelfError::BadName {
            name: name.to_owned(),
        })
    }
}

/// The title of a level's text, for naming it ("level" when it does not parse).
pub fn linked_title(text: &str) -> String {
    LevelDef::from_ron(text, "level")
        .map(|level| level.name)
        .unwrap_or_else(|_| "level".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_titles_and_are_safe() {
        assert_eq!(name_for("Mill Run"), "mill_run");
        assert_eq!(name_for("  ../../etc/passwd "), "etc_passwd");
        assert_eq!(name_for("Été — 2!"), "t_2");
        assert_eq!(name_for("???"), "level");
        assert_eq!(name_for(&"a".repeat(100)).len(), MAX_NAME_CHARS);
        for title in ["Mill Run", "../x", "", "Ω", &"ab ".repeat(40)] {
            assert!(is_valid_name(&name_for(title)), "{title:?}");
        }
        assert!(!is_valid_name("../x"));
        assert!(!is_valid_name("A"));
        assert!(!is_valid_name(""));
    }

    #[test]
    fn memory_shelf_keeps_lists_and_removes() {
        let mut shelf = LevelShelf::memory();
        assert!(shelf.names().is_empty());
        assert_eq!(shelf.free_name_for("My Level"), "my_level");
        shelf.save("my_level", "(name: \"My Level\")").unwrap();
        assert_eq!(shelf.free_name_for("My Level"), "my_level_2");
        shelf.save("my_level_2", "x").unwrap();
        assert_eq!(shelf.names(), ["my_level", "my_level_2"]);
        assert_eq!(shelf.load("my_level").unwrap(), "(name: \"My Level\")");
        shelf.remove("my_level").unwrap();
        let err = shelf.load("my_level").unwrap_err();
        assert!(matches!(err, ShelfError::NoSuchLevel { .. }), "{err}");
        assert!(err.to_string().ends_with("there is no such level"), "{err}");
        let err = shelf.remove("my_level").unwrap_err();
        assert!(matches!(err, ShelfError::NoSuchLevel { .. }), "{err}");
        let err = shelf.save("../evil", "x").unwrap_err();
        assert!(matches!(err, ShelfError::BadName { ref name } if name == "../evil"));
        let too_big = "x".repeat(limits::MAX_LEVEL_FILE_BYTES as usize + 1);
        let err = shelf.save("big", &too_big).unwrap_err();
        assert!(matches!(err, ShelfError::TooLarge { bytes } if bytes == too_big.len()));
        assert!(err.to_string().contains("limit"), "{err}");
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn folder_shelf_writes_plain_files() {
        let config = std::env::temp_dir().join(format!("tether-shelf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&config);
        let dir = config.join("levels");
        let mut shelf = LevelShelf::in_folder(&config);
        assert!(
            shelf.names().is_empty(),
            "a missing folder is an empty shelf"
        );
        shelf.save("first", "(name: \"First\")").unwrap();
        std::fs::write(dir.join("Not A Name.ron"), "x").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(shelf.names(), ["first"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("first.ron")).unwrap(),
            "(name: \"First\")"
        );
        shelf.remove("first").unwrap();
        assert!(shelf.names().is_empty());
        let _ = std::fs::remove_dir_all(&config);
    }
}
