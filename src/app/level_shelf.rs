//! "My levels": the levels an author makes in the game's editor, kept by name. On the desktop
//! they are files, `<config folder>/levels/<name>.ron` (written atomically, plain RON any text
//! editor opens); in the browser the page's localStorage, `tether.level.<name>`, where export (a
//! download) and import (a file picker) move them in and out.
//!
//! Names are made from a level's title (`name_for`): lowercase letters, digits and `_`, so they
//! are safe as file names and storage keys whatever the title holds.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use crate::sim::limits;

/// The folder in the config folder that holds the desktop's levels.
pub const LEVELS_DIR: &str = "levels";
/// The localStorage key prefix of a level in the browser.
#[cfg(any(target_arch = "wasm32", test))]
const BROWSER_PREFIX: &str = "tether.level.";
/// Longest name made from a title, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Most levels listed (a shelf is a person's own work; this bounds a planted or runaway store).
pub const MAX_LEVELS: usize = 500;

/// Where the levels are kept.
#[derive(Clone, Debug)]
pub enum LevelShelf {
    #[cfg(not(target_arch = "wasm32"))]
    Folder(PathBuf),
    #[cfg(target_arch = "wasm32")]
    Browser,
    /// Nothing is written (no config folder; tests). Not in the browser: there the page's
    /// storage always answers, and the game's build stays without this map's code.
    #[cfg(not(target_arch = "wasm32"))]
    Memory(std::collections::BTreeMap<String, String>),
}

impl LevelShelf {
    pub fn platform_default() -> LevelShelf {
        #[cfg(target_arch = "wasm32")]
        {
            LevelShelf::Browser
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match super::audio::settings::process_config_dir() {
                Some(dir) => LevelShelf::Folder(dir.join(LEVELS_DIR)),
                None => LevelShelf::Memory(Default::default()),
            }
        }
    }

    /// Where a level is kept, in words (a path, a storage key).
    pub fn place_of(&self, name: &str) -> String {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Folder(dir) => dir.join(format!("{name}.ron")).display().to_string(),
            #[cfg(target_arch = "wasm32")]
            LevelShelf::Browser => format!("localStorage {BROWSER_PREFIX}{name}"),
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Memory(_) => format!("{name} (not kept)"),
        }
    }

    /// The names of the levels kept, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = match self {
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Folder(dir) => std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .filter_map(|entry| {
                            let file = entry.file_name().to_string_lossy().into_owned();
                            file.strip_suffix(".ron").map(str::to_owned)
                        })
                        .filter(|name| is_valid_name(name))
                        .collect()
                })
                .unwrap_or_default(),
            #[cfg(target_arch = "wasm32")]
            LevelShelf::Browser => {
                let max_bytes = MAX_LEVELS * (BROWSER_PREFIX.len() + MAX_NAME_CHARS + 8);
                super::storage::browser::keys(BROWSER_PREFIX, max_bytes)
                    .iter()
                    .filter_map(|key| key.strip_prefix(BROWSER_PREFIX))
                    .filter(|name| is_valid_name(name))
                    .map(str::to_owned)
                    .collect()
            }
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Memory(levels) => levels.keys().cloned().collect(),
        };
        names.sort_unstable();
        names.truncate(MAX_LEVELS);
        names
    }

    /// The text of the level called `name`.
    pub fn load(&self, name: &str) -> Result<String, String> {
        check_name(name)?;
        let place = self.place_of(name);
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Folder(dir) => crate::files::read_bounded(
                &dir.join(format!("{name}.ron")),
                limits::MAX_LEVEL_FILE_BYTES,
            )
            .map_err(|err| format!("{place}: cannot read: {err}")),
            #[cfg(target_arch = "wasm32")]
            LevelShelf::Browser => {
                match super::storage::browser::load(
                    &format!("{BROWSER_PREFIX}{name}"),
                    limits::MAX_LEVEL_FILE_BYTES,
                ) {
                    Ok(Some(text)) => Ok(text),
                    Ok(None) => Err(format!("{place}: there is no such level")),
                    Err(problem) => Err(format!("{place}: {problem}")),
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Memory(levels) => levels
                .get(name)
                .cloned()
                .ok_or_else(|| format!("{place}: there is no such level")),
        }
    }

    /// Keeps `text` as the level called `name` (replacing what was kept under that name).
    pub fn save(&mut self, name: &str, text: &str) -> Result<(), String> {
        check_name(name)?;
        if text.len() as u64 > limits::MAX_LEVEL_FILE_BYTES {
            return Err(format!(
                "the level is {} bytes, over the {}-byte limit of a level file",
                text.len(),
                limits::MAX_LEVEL_FILE_BYTES
            ));
        }
        let place = self.place_of(name);
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Folder(dir) => {
                super::storage::write_atomically(&dir.join(format!("{name}.ron")), text.as_bytes())
                    .map_err(|err| format!("{place}: cannot write: {err}"))
            }
            #[cfg(target_arch = "wasm32")]
            LevelShelf::Browser => {
                super::storage::browser::save(&format!("{BROWSER_PREFIX}{name}"), text)
                    .then_some(())
                    .ok_or_else(|| format!("{place}: the browser refused it (storage full?)"))
            }
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Memory(levels) => {
                levels.insert(name.to_owned(), text.to_owned());
                Ok(())
            }
        }
    }

    /// Removes the level called `name`.
    pub fn remove(&mut self, name: &str) -> Result<(), String> {
        check_name(name)?;
        let place = self.place_of(name);
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Folder(dir) => std::fs::remove_file(dir.join(format!("{name}.ron")))
                .map_err(|err| format!("{place}: cannot remove: {err}")),
            #[cfg(target_arch = "wasm32")]
            LevelShelf::Browser => {
                super::storage::browser::remove(&format!("{BROWSER_PREFIX}{name}"))
                    .then_some(())
                    .ok_or_else(|| format!("{place}: the browser refused to remove it"))
            }
            #[cfg(not(target_arch = "wasm32"))]
            LevelShelf::Memory(levels) => levels
                .remove(name)
                .map(|_| ())
                .ok_or_else(|| format!("{place}: there is no such level")),
        }
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

fn check_name(name: &str) -> Result<(), String> {
    if is_valid_name(name) {
        Ok(())
    } else {
        Err(format!(
            "\"{}\" is not a level name (lowercase letters, digits and _, at most {MAX_NAME_CHARS})",
            limits::printable(name)
        ))
    }
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
        assert!(!BROWSER_PREFIX.is_empty());
    }

    #[test]
    fn memory_shelf_keeps_lists_and_removes() {
        let mut shelf = LevelShelf::Memory(Default::default());
        assert!(shelf.names().is_empty());
        assert_eq!(shelf.free_name_for("My Level"), "my_level");
        shelf.save("my_level", "(name: \"My Level\")").unwrap();
        assert_eq!(shelf.free_name_for("My Level"), "my_level_2");
        shelf.save("my_level_2", "x").unwrap();
        assert_eq!(shelf.names(), ["my_level", "my_level_2"]);
        assert_eq!(shelf.load("my_level").unwrap(), "(name: \"My Level\")");
        shelf.remove("my_level").unwrap();
        assert!(shelf.load("my_level").is_err());
        assert!(shelf.save("../evil", "x").is_err());
        let too_big = "x".repeat(limits::MAX_LEVEL_FILE_BYTES as usize + 1);
        assert!(shelf.save("big", &too_big).unwrap_err().contains("limit"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn folder_shelf_writes_plain_files() {
        let dir = std::env::temp_dir().join(format!("tether-shelf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut shelf = LevelShelf::Folder(dir.clone());
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
        let _ = std::fs::remove_dir_all(&dir);
    }
}
